"""Double-dummy values of trick contracts: validate, compile, call the numba kernels.

Every question is a two-sided search over a *linear objective* (design.md, "Solution
concepts"): ``sum(weights[p] * score[p])`` of the raw points each seat takes from the
position to the end, with the seats in ``maximizers`` maximising and the others
minimising.

* ``seat=X``: the guaranteed (paranoid) value of X (``w = e_X``, maximiser X);
* ``side="NS"``: a partnership (``w = e_N + e_S``, maximisers N and S) -- with the
  ``bridge`` preset, the double-dummy trick count of that side;
* ``weights`` and ``maximizers``: anything else, e.g. a bet between X and Y
  (``w = e_X - e_Y``, maximiser X).

Results are exact :class:`fractions.Fraction` values.

>>> from analyzer.rules import load_rules
>>> from analyzer.cards import parse_deal
>>> deal = parse_deal("N:AK... QJ... T9... 87...")
>>> solve(deal, load_rules("tournament"), "no-tricks", leader="N", seat="N")
Fraction(-4, 1)
"""

from __future__ import annotations

import signal
import threading
import time
import weakref
from fractions import Fraction
from math import ceil, floor, gcd, lcm
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from analyzer.cards import Deal, Seat, as_seat, as_seats, as_weights, card_name, parse_hands
from analyzer.compile import CompiledContract, card_bitpos, compile_contract
from analyzer.engine import TrickGame
from analyzer.errors import BarbuError, Bounds, SearchStopped, check_seconds, check_whole
from analyzer.kernels import before_search
from analyzer.pools import compile_ahead
from analyzer.rules import Contract, Rules, load_rules
from solvers import tricks as K

#: Default transposition-table size (log2 of entries) by tricks left in the position.
#: Small, because a search that fills it goes on in a larger one (below): at 9-13 tricks
#: 2^17 rather than 2^21, whose head slots (32 MB) were cleared for every solve and
#: spread over memory: the 100 random deals' median solve, bridge notrump 59 -> 53 ms,
#: Trumps 14.6 -> 10.4 ms, No King 7.4 -> 4.1 ms; the dear searches, which grow the
#: table either way (through 2^21 and 2^23 as before: the same memory), about even
#: (BENCHMARKS.md, "Trick solver", thirtieth session, item 12). At 5-13 tricks 2^15 rather
#: than 2^16 / 2^17 (a half / a quarter of the head slots to clear, a table nearer
#: the CPU): bridge notrump's median solve over (a)'s 100 deals about 3% less CPU, the
#: 32-card contracts' medians 1-5% (sixty-ninth session).
DEFAULT_TT_BITS = {4: 12, 8: 15, 13: 15}
#: With the default size, a search that fills the table moves what it stored into one
#: with 4x the entries, then 2x, up to 2^24 (about 1.8 GB at the peak of the move), and
#: goes on: a 52-card No Last Two deal that stored 17 M entries in 2^21 (emptying it 11
#: times) took 452 M nodes, 124 M so. The advisor's rare monsters fill even 2^23 (emptied
#: when three-quarters full): the README hand's deal 18, No Last Two, 600 M nodes in
#: 2^23, 359 M in 2^24; deal 16, No Hearts, 392 M -> 301 M (BENCHMARKS.md, twenty-seventh
#: session).
GROW_TT_BITS = 24
#: The largest table a caller may ask for (``tt_bits``): 2^26 entries, some 7 GB.
MAX_TT_BITS = 26
#: Skip the moves found alike to a searched one after it (``solvers.tricks._eq_later``);
#: off only to measure what that saves.
EQ_SKIP = True
#: Bets "declarer minus opponents" on negative contracts use the declarer's lower bounds
#: (``solvers.tricks.P_NEG_BET``); off only to measure what that saves.
NEG_BET = True
#: Cheap first (``solvers.tricks.P_PROBE``): where the first move has not settled a test
#: in 5,000 nodes, each other move gets 100 before the rest is searched in full; from 5
#: tricks left; without trumps. (0, 0, 0): off, only to measure what it saves. Bridge
#: notrump, the 100 deals of the benchmark: nodes x0.92; No Queens x0.95, No Tricks'
#: doubling brackets x0.94, No Last Two even; with trumps x1.03-1.04 (BENCHMARKS.md,
#: eighteenth session).
PROBE = (100, 5000, 5)
#: Enhanced transposition cutoffs (``solvers.tricks._etc``) from this many tricks left,
#: where two partnerships play (0: off). Bridge notrump x0.96-0.97 nodes on four deal
#: sets, CPU x0.96-0.99; from 6 or 3 tricks left x0.87-0.91 nodes but x1.04-1.06 CPU (a
#: lookup per card); the paranoid contracts mixed (No Last Two x1.04 nodes), so not
#: there (BENCHMARKS.md, forty-third session).
ETC_TL = 10
#: A paranoid value scored by cards only is tested from the top down when it can take
#: at least this many values (No Hearts' 16, not No Queens' 5; ``P_DOWN``) and at most
#: ``DOWN_MAX_VALUES``: a rules file with fine decimals (hearts at -0.333333) puts
#: millions of grid steps between the bounds, and one test a step never ends; a binary
#: search takes some 24 there.
DOWN_MIN_VALUES = 8
#: Searches of at least this many tricks left run where a signal can stop them
#: (:meth:`_Problem._kernel`); shorter ones end within a fraction of a second.
INTERRUPT_TL = 7
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: Such a search first runs up to this many nodes in the calling thread, where a signal
#: waits for them (some 0.05-0.2 s): most searches end within them, and the search
#: thread costs about a millisecond a search here (its start and the wake-ups, the two
#: threads on two cores; BENCHMARKS.md, sixty-fourth session). A search that does not end
#: there goes on in the thread, the test it was in run again on the table it left.
DIRECT_NODES = 250_000
DOWN_MAX_VALUES = 64
#: In a paranoid negative objective whose tricks do not all score the same, the
#: defenders' plays inside a trick use the killer move (``solvers.tricks.P_KILL_F``); off
#: only to measure what that saves.
NEG_KILL = True
#: With one known bound (``solve(bounds=...)``), test the value next to it first; off
#: only to measure what that saves (BENCHMARKS.md, nineteenth session).
HINT_FIRST = True
#: Notrump partnerships where only tricks count: the move order's trick predictions
#: by the side holding the best card (``solvers.tricks.P_SIDE_NT``); off only to
#: measure what that saves.
SIDE_NT = True
#: The paranoid negative shape (not a bet): the move order's trick predictions by
#: everyone ducking where the declarer would rather lose the trick
#: (``solvers.tricks.P_NEG_DUCK``); off only to measure what that saves.
NEG_DUCK = True
#: The quick tricks skip the unblocking entry card (``solvers.tricks.P_QT_HB``) where
#: the teammate holds no card under it but his top: the same counts; off only to
#: measure what that saves.
QT_HB = True
#: A bridge-shaped deal (two partnerships, tricks only, 13 cards a hand; or a notrump
#: endgame of 6 or more cards a hand, no trick in progress) starts its tests at a guess
#: of the value (``_trick_guess``) and steps one trick at a time from there, rather than
#: halving the range; off only to measure what that saves.
GUESS_FIRST = True
#: Under a time limit, once the usual order of the tests has had its share of the time
#: (``USUAL_FIRST``), a value with at most this many possible values is found by single
#: tests inward from both ends of what is left of its range (``_Problem._squeeze``). A
#: test far from the value is cheap (the example deal's No Tricks, N: 1 to 100,000
#: nodes, but 17.4 M and 1.4 M for the two next to the value), so the range narrows at
#: once, where halving starts with the middle test, here the dearest, and a short limit
#: proves nothing. To the exact value the squeeze alone costs about what halving does on
#: 12 random deals (No Queens, No Tricks), but deals differ (the example's No Queens, N:
#: 4.46 M -> 16.75 M nodes): hence the usual order first, and neither without a limit
#: nor for a ``stop`` alone. Not where the tests run from the top down (``P_DOWN``: No
#: Hearts, No Last Two), single steps already, whose bounds narrow from the top: there
#: the squeeze cost more (No Last Two +24% nodes, one deal exact in 0.5 s open after 2
#: s). BENCHMARKS.md, fifty-seventh session.
SQUEEZE_MAX_VALUES = 64
#: The share of a time limit that the usual order of the tests gets before the squeeze
#: goes on from what it proved.
USUAL_FIRST = 0.5
#: How often (seconds) a search that can be asked to stop (``stop``) looks whether it is.
STOP_POLL = 0.05
#: A search that has run this many seconds tells its progress to a ``stop`` object that
#: has a ``searching`` method (:func:`solve`), at each look (``STOP_POLL``) from then on:
#: a progress display that quick searches leave untouched (no bar drawn and cleared).
STATUS_AFTER = 0.5
#: Seconds that the search a stop request cuts short (the first one it cuts: a table's
#: later searches stop at once) goes on by the squeeze, from what its tests proved, so
#: that its bounds narrow: halving, the order without a limit, often has nothing proved
#: when the request comes ("between -26 and 0" on the example's No Tricks). Not where
#: the tests run from the top down (their bounds narrow already), nor where the request
#: came before the search began.
STOP_GRACE = 1.0
#: The stop requests (events) whose grace has been given.
_GRACED: "weakref.WeakSet" = weakref.WeakSet()
#: Start a search's table at the least size that each of the last HINT_RUN alike
#: problems solved in this thread needed (``_Problem``), rather than growing it through
#: each size again; off only to measure what that saves (BENCHMARKS.md, thirty-fifth
#: session).
SIZE_HINTS = True
HINT_RUN = 3
#: The table buffers a thread keeps between problems (``_tt``): above this, a new problem
#: keeps only the set it uses. About what one 2^24-entry table takes (the most a thread
#: kept before the buffers were pooled), above a 2^21 and a 2^23 table together.
KEEP_TABLE_BYTES = 2 << 30

_local = threading.local()
_tokens = iter(range(1, 1 << 62))


def _default_tt_bits(n_tricks: int) -> int:
    for k in sorted(DEFAULT_TT_BITS):
        if n_tricks <= k:
            return DEFAULT_TT_BITS[k]
    return 20


def _size_hints() -> dict:
    """This thread's table sizes needed by the last ``HINT_RUN`` problems of each kind
    (``_Problem.size_key``), log2 of entries."""
    h = getattr(_local, "hints", None)
    if h is None:
        h = _local.hints = {}
    return h


def _tt(bits: int, words: int, owner: int) -> tuple[np.ndarray, ...]:
    """Per-thread transposition table arrays ``(keys, entries, heads)`` for a table of
    ``2 ** bits`` entries, reused while the same problem (``owner``) asks for the same
    shape; another problem, or another shape, finds them emptied.

    The arrays are views of (at most) two buffer sets kept for the thread's life, so that
    the memory is faulted in once, not at each solve: a search that fills its table
    moves into a larger one (``_Problem._tests``), which must not share a buffer with the
    table it moves from. Reused buffers need only their head / entry-hash part cleared
    (every other row is written before it is read). Measured in BENCHMARKS.md ("Trick
    solver", thirty-fifth session).
    """
    tabs = getattr(_local, "tabs", None)
    if tabs is None:
        tabs = _local.tabs = _Tables()
    return tabs.get(bits, words, owner)


def _zeros_aligned(n: int, dtype) -> np.ndarray:
    """``np.zeros(n, dtype)`` starting on a 64-byte boundary (a cache line). The table's
    entry rows are 64 bytes: numpy's usual 16-byte alignment made every row straddle two
    lines, two cache misses where a lookup needs one."""
    raw = np.zeros(n + 64 // np.dtype(dtype).itemsize, dtype)
    off = (-raw.ctypes.data % 64) // raw.itemsize
    return raw[off:off + n]


class _Tables:
    """The two buffer sets behind :func:`_tt` and which one the current table uses."""

    def __init__(self) -> None:
        self.sets: list[list[np.ndarray]] = []  # [keys, entries, heads], flat
        self.cur: tuple | None = None  # (owner, bits, words, set index, views)

    def get(self, bits: int, words: int, owner: int) -> tuple[np.ndarray, ...]:
        cur = self.cur
        if cur is not None and cur[:3] == (owner, bits, words):
            return cur[4]
        n = 1 << bits
        need = (n * words, n * K.NTE, 2 * n)
        # a growing problem keeps its current set until the move is done: use the other
        busy = cur[3] if cur is not None and cur[0] == owner else -1
        free = [i for i in range(len(self.sets)) if i != busy]
        fits = [i for i in free if all(a.size >= k for a, k in zip(self.sets[i], need))]
        if fits:
            i = min(fits, key=lambda j: self.sets[j][1].size)
        elif len(self.sets) < 2:
            i = len(self.sets)
            self.sets.append([np.zeros(0, np.uint64), np.zeros(0, np.uint64),
                              np.zeros(0, np.int64)])
        else:
            i = min(free, key=lambda j: self.sets[j][1].size)
        st = self.sets[i]
        for j, dt in enumerate((np.uint64, np.uint64, np.int64)):
            if st[j].size < need[j]:
                st[j] = np.zeros(0, dt)  # (let the old one go before the new one comes)
                st[j] = _zeros_aligned(need[j], dt)
        if busy < 0 and len(self.sets) == 2 and \
                sum(a.nbytes for t in self.sets for a in t) > KEEP_TABLE_BYTES:
            # a new problem, and both sets together are large (after a search that grew
            # to 2^23 or 2^24 entries): keep only the one it uses
            self.sets = [st]
            i = 0
        heads = st[2][:2 * n]
        heads[:] = 0  # mark every entry empty
        views = (st[0][:n * words].reshape(n, words), st[1][:n * K.NTE].reshape(n, K.NTE),
                 heads)
        self.cur = (owner, bits, words, i, views)
        return views


def release_tables() -> None:
    """Free this thread's transposition-table buffers (they are otherwise kept for the
    next solve: up to about 2 GB, ``KEEP_TABLE_BYTES``; a search that grows its table to
    2^24 entries holds nearly 3 GB while it moves it)."""
    _local.tabs = None


def objective(seat: int | str | Seat | None = None,
              side: str | Iterable[int | str | Seat] | None = None,
              weights: Sequence[int | Fraction] | None = None,
              maximizers: Iterable[int | str | Seat] | None = None
              ) -> tuple[tuple[Fraction, ...], tuple[int, ...]]:
    """The ``(weights, maximizers)`` of a question (see the module docstring).

    >>> objective(seat="E")
    ((Fraction(0, 1), Fraction(1, 1), Fraction(0, 1), Fraction(0, 1)), (1,))
    >>> objective(side="NS")[1]
    (0, 2)
    """
    if weights is not None:
        if seat is not None or side is not None:
            raise BarbuError("give weights or a seat or a side, not several")
        w = as_weights(weights)
        if maximizers is None:
            raise BarbuError("weights need the seats that maximise (maximizers)")
        return w, as_seats(maximizers, "maximizers")
    if maximizers is not None:
        raise BarbuError("maximizers go with weights")
    if side is not None:
        sd = as_seats(side)
        if seat is not None and as_seat(seat, "seat") not in sd:
            raise BarbuError(f"seat {Seat(as_seat(seat, 'seat')).name} is not in side "
                             + "".join(Seat(s).name for s in sd))
        return tuple(Fraction(1 if p in sd else 0) for p in range(4)), sd
    if seat is None:
        raise BarbuError("say whose value to solve: a seat, a side, or weights")
    x = as_seat(seat, "seat")
    return tuple(Fraction(1 if p == x else 0) for p in range(4)), (x,)


class _Problem:
    """A validated position + objective, compiled to kernel arrays."""

    def __init__(self, deal_or_hands, rules, contract, trump, leader, seat, side, weights,
                 maximizers, trick, whole_hand, tt_bits, node_limit=None, bounds=None,
                 time_limit=None, stop=None, past: TrickGame | None = None):
        # past: the game played from a line's start to this position (a line of play),
        # whose completed tricks decide what Ravage City and, in a whole hand, the
        # whole-hand bonuses still give
        rules = load_rules(rules) if not isinstance(rules, Rules) else rules
        c = rules.contract(contract) if not isinstance(contract, Contract) else contract
        if c.id not in rules.contracts or rules.contracts[c.id] is not c and \
                rules.contracts[c.id] != c:
            raise BarbuError(f"contract {c.id} is not in preset {rules.name}")
        if c.is_dominoes:
            raise BarbuError(f"{c.id} is a dominoes contract: the trick solver does not play "
                             "it (use the dominoes solver)")
        if isinstance(deal_or_hands, Deal):
            # the preset's deck decides (an endgame of high cards parses as 32-card)
            hands = [set(h) for h in deal_or_hands.hands]
        elif isinstance(deal_or_hands, str):  # PBN text: a deal or an endgame
            hands = [set(h) for h in parse_hands(deal_or_hands, rules.deck, equal=False)[0]]
        else:
            hands = deal_or_hands  # (TrickGame reads the cards: indices or names)
        if leader is None:
            raise BarbuError("say who leads (leader)")
        lead = as_seat(leader, "leader")
        tr = None if trump is None else trump
        game = TrickGame(rules, c, hands, lead, trump=tr, trick=trick,
                         whole_hand=whole_hand)
        self.game = game
        self.rules = rules
        self.contract = c
        self.cc: CompiledContract = compile_contract(rules, c, None if game.trump < 0
                                                     else game.trump)
        w, mx = objective(seat, side, weights, maximizers)
        self.weights, self.maximizers = w, mx
        wscale = 1
        for x in w:
            wscale = lcm(wscale, x.denominator)
        self.wscale = wscale
        wints = [int(x * wscale) for x in w]
        cc = self.cc
        # every value the search adds up is at most the weights (summed) times the points
        # in play (bonuses replace them, at most doubling the range); the table marks "no
        # bound" with 2^40: refuse what would reach it rather than let values collide or
        # the arithmetic wrap (Python integers here, which cannot overflow)
        mag = sum(abs(int(x)) for x in cc.pts.ravel()) + sum(abs(int(x)) for x in cc.tpl) + sum(
            abs(int(b * cc.scale)) for b in (cc.bonus_tricks, cc.bonus_cards, cc.ravage)
            if b is not None)
        if sum(abs(x) for x in wints) * (2 * mag + 1) >= 1 << 39:
            raise BarbuError("points or weights too large, or too finely divided: the "
                             "objective's values would not fit the solver's integers")
        self.w = np.array(wints, dtype=np.int64)
        self.leader = lead
        self.tl = game.n_tricks
        self.nt = len(game.trick)
        cc = self.cc
        self.hands = np.zeros(4, dtype=np.uint64)
        for p in range(4):
            m = 0
            for x in game.hands[p]:
                m |= 1 << card_bitpos(x)
            self.hands[p] = np.uint64(m)
        self.tbuf = np.zeros(64, dtype=np.int64)
        for i, x in enumerate(game.trick):
            self.tbuf[4 * self.tl + i] = card_bitpos(x)
        in_pos = set().union(*game.hands) | set(game.trick)
        whole = game.whole_hand  # (the first-trick heart ban; and the bonuses, below)
        s = cc.scale
        # the bonuses' state: -1 nobody has taken a trick (a scoring card) yet, a seat
        # who took every one so far, -2 none can have them all; what the taker took
        # before this position (scaled); each seat's cards of each suit taken before it
        st_t = st_c = -1
        hist_t = hist_c = 0
        self.rcnt0 = np.zeros(16, dtype=np.int64)
        scoring = set(cc.card_points)
        if past is not None and past.tricks_done:
            taken = [set(past.taken[p]) for p in range(4)]
            for p in range(4):  # (Ravage City counts from the line's start, hand or not)
                for x in taken[p]:
                    self.rcnt0[4 * p + (card_bitpos(x) >> 4)] += 1
        if past is not None and past.whole_hand and past.tricks_done:
            won = [p for p in range(4) if past.tricks_won[p]]
            st_t = won[0] if len(won) == 1 else -2
            hit = [p for p in range(4) if taken[p] & scoring]
            st_c = -1 if not hit else hit[0] if len(hit) == 1 else -2
            if st_t >= 0:
                hist_t = int(past.points[st_t] * s)
            if st_c >= 0:
                hist_c = sum(int(cc.pts[card_bitpos(x)]) for x in taken[st_c] & scoring)
                in_pos = in_pos | (taken[st_c] & scoring)  # (for the all-cards test)
        bonus_whole = whole or (past is not None and past.whole_hand)
        bonus_t = bonus_whole and cc.bonus_tricks is not None and st_t != -2
        bonus_c = (bonus_whole and cc.bonus_cards is not None and st_c != -2
                   and scoring <= in_pos)
        in_pos = set().union(*game.hands) | set(game.trick)
        wv = [int(x) for x in self.w]
        ipos = np.fromiter((card_bitpos(x) for x in in_pos), dtype=np.int64,
                           count=len(in_pos))
        pin = cc.pts[ipos]  # the points of the cards in play
        card_total = int(pin.sum())
        total_pts = card_total + int(cc.tpl[1:self.tl + 1].sum())
        #: the points the rest of the hand hands out whatever the play (None where that
        #: varies): a whole hand's ``Rules.total``, else the additive points in play
        #: (declarer_bet_bounds)
        self.total: Fraction | None = None
        if past is not None and past.tricks_done:
            pass  # (a line's later positions: no caller needs it)
        elif game.whole_hand and not game.trick and self.tl == rules.tricks_per_hand:
            self.total = rules.total(c)
        elif not (whole and (cc.bonus_tricks is not None or cc.bonus_cards is not None)) \
                and cc.ravage is None and cc.stop_mask == 0:
            self.total = Fraction(total_pts, cc.scale)
        adj_t = int(cc.bonus_tricks * s) - total_pts - hist_t if bonus_t else 0
        adj_c = int(cc.bonus_cards * s) - card_total - hist_c if bonus_c else 0
        rav = int(cc.ravage * s) if cc.ravage is not None else 0
        adj_vals = [0]
        if bonus_t:
            adj_vals += [wp * adj_t for wp in wv]
        if bonus_c:
            adj_vals += [wp * adj_c for wp in wv]
        if rav:
            for m in range(1, 16):
                T = [p for p in range(4) if m >> p & 1]
                adj_vals.append(sum(wv[p] for p in T) * (rav // len(T)))
        wmin, wmax = min(wv), max(wv)
        # each card's / the first k tricks' points, times the weights' least and most
        self.cHi = np.maximum(cc.pts * wmin, cc.pts * wmax)
        self.cLo = np.minimum(cc.pts * wmin, cc.pts * wmax)
        self.tHi = np.cumsum(np.maximum(cc.tpl * wmin, cc.tpl * wmax))  # (tpl[0] is 0)
        self.tLo = np.cumsum(np.minimum(cc.tpl * wmin, cc.tpl * wmax))
        if cc.stop_mask:
            # the hand may stop with cards still out and tricks unplayed: nobody scores
            # those, so every card but the stop cards (all taken before it stops) and
            # every trick may also count 0
            free = np.array([not cc.stop_mask >> b & 1 for b in range(64)])
            self.cHi = np.where(free, np.maximum(self.cHi, 0), self.cHi)
            self.cLo = np.where(free, np.minimum(self.cLo, 0), self.cLo)
            self.tHi = np.cumsum(np.maximum(np.maximum(cc.tpl * wmin, cc.tpl * wmax), 0))
            self.tLo = np.cumsum(np.minimum(np.minimum(cc.tpl * wmin, cc.tpl * wmax), 0))
        # value grid: every objective value is a multiple of g (the gcd of the products
        # v * w is the product of the two gcds)
        items = {abs(int(v)) for v in pin} | {abs(int(v)) for v in cc.tpl[1:self.tl + 1]} \
            | {abs(v) for v in adj_vals}
        g = gcd(*items) * gcd(*(abs(wp) for wp in wv))
        for v in adj_vals:
            g = gcd(g, abs(v))
        self.grid = g
        # key layout: word 0 = leader/tricks/bonus state, (ravage counts), then the hands
        words = 2 + (1 if rav else 0) + (rules.deck * cc.class_bits + 63) // 64
        if tt_bits is not None:
            check_whole(tt_bits, "tt_bits", 4, f"a whole number from 4 to {MAX_TT_BITS}")
            if tt_bits > MAX_TT_BITS:
                raise BarbuError(f"bad tt_bits {tt_bits!r}: expected a whole number from 4 "
                                 f"to {MAX_TT_BITS}")
        bits = _default_tt_bits(self.tl) if tt_bits is None else int(tt_bits)
        # problems alike (the same contract, objective and position size) tend to need
        # alike tables: start at the least size each of the last HINT_RUN of them needed
        # (the least, so that one dear problem does not give the next cheap one a large
        # table: SIZE_HINTS)
        self.size_key = (rules.name, c.id, tr, w, mx, self.tl, self.nt)
        if tt_bits is None and SIZE_HINTS:
            last = _size_hints().get(self.size_key, ())
            if len(last) == HINT_RUN:
                bits = max(bits, min(last))
        if not 4 <= bits <= MAX_TT_BITS:
            raise BarbuError(f"bad tt_bits {tt_bits}: expected 4..{MAX_TT_BITS}")
        self.tt_bits = bits
        self.tt_grow = tt_bits is None
        self.words = words
        P = np.zeros(K.P_SIZE, dtype=np.int64)
        P[K.P_TRUMP] = cc.trump
        P[K.P_LEAD_BEAT] = cc.lead_must_beat
        P[K.P_VOID_RUFF] = cc.void_must_ruff
        P[K.P_OVERTRUMP] = cc.must_overtrump
        P[K.P_HEART_BAN] = cc.heart_ban
        P[K.P_FIRST_TL] = self.tl
        P[K.P_WHOLE] = whole
        P[K.P_MAXMASK] = sum(1 << p for p in mx)
        P[K.P_BONUS_T] = bonus_t
        P[K.P_BONUS_T_ADJ] = adj_t
        P[K.P_BONUS_C] = bonus_c
        P[K.P_BONUS_C_ADJ] = adj_c
        P[K.P_RAVAGE] = rav
        P[K.P_KWORDS] = words
        P[K.P_CBITS] = cc.class_bits
        P[K.P_TTBITS] = bits
        P[K.P_ADJ_LO] = min(adj_vals)
        P[K.P_ADJ_HI] = max(adj_vals)
        P[K.P_GRID] = max(g, 1)
        P[K.P_USE_TT] = 1
        P[K.P_TT_GROW] = self.tt_grow and bits < GROW_TT_BITS
        P[K.P_TRUMP_EXACT] = cc.trump >= 0 and (cc.lead_must_beat or (
            cc.void_must_ruff and cc.must_overtrump))
        tvals = {int(cc.tpl[k]) for k in range(1, self.tl + 1)}
        # (not with forced discards: the team counts let a void partner discard what he
        # likes, and a forced discard can take his entry; no preset has them here, its
        # forced cards all scoring)
        P[K.P_QT] = (len(tvals) == 1 and 0 not in tvals and not bonus_t and not bonus_c
                     and not rav and cc.stop_mask == 0 and cc.forced_mask == 0
                     and not pin.any())
        P[K.P_QT_HB] = int(QT_HB)
        # tricks left up to which every trick scores the same nonzero amount (the
        # declarer's lost-trick bounds of No Tricks apply there)
        uni = 0
        if int(cc.tpl[1]) != 0:
            while uni < self.tl and int(cc.tpl[uni + 1]) == int(cc.tpl[1]):
                uni += 1
        # paranoid negative shape (solvers.tricks._neg_bounds)
        P[K.P_NEG] = 0
        P[K.P_NEG_BET] = 0
        # (or a bet "declarer minus opponents", as a double or the declarer's net result
        # under doubles: the others' points, all <= 0 here, weigh < 0, so they only add
        # to the value and the declarer's lower bounds stand. The seventeenth session
        # kept it to No Tricks (No Queens' brackets 1.3x more nodes); with the orderings
        # for this shape since, every negative contract gains: the README hand's bets,
        # No Last Two x0.52 nodes, No Queens x0.74, No King x0.34, No Hearts x0.98;
        # BENCHMARKS.md, twenty-sixth session)
        others = [q for q in range(4) if q not in mx and wv[q] != 0]
        bet = NEG_BET and bool(others) and all(wv[q] < 0 for q in others)
        if (len(mx) == 1 and wv[mx[0]] > 0 and (not others or bet)
                and cc.trump < 0 and not bonus_t and not bonus_c and not rav
                and cc.forced_mask == 0 and bool((cc.pts <= 0).all())
                and all(int(cc.tpl[k]) <= 0 for k in range(1, self.tl + 1))
                and (cc.stop_mask == 0 or ((cc.scoring_mask & ~cc.stop_mask) == 0
                                          and all(int(cc.tpl[k]) == 0
                                                  for k in range(1, self.tl + 1))))):
            P[K.P_NEG] = mx[0] + 1
            P[K.P_NEG_BET] = bet
        if not P[K.P_NEG]:
            uni = 0
        P[K.P_NEG_UNI] = uni
        # the move order's trick predictions take a shortcut (the same order) where the
        # three defenders weigh 0 (solvers.tricks._follow)
        P[K.P_NEG_DUCK] = int(NEG_DUCK and bool(P[K.P_NEG]) and not P[K.P_NEG_BET])
        # a defender leads the declarer's long suits first (solvers.tricks._order) where
        # his tricks score (No Tricks) or where only hearts score and no card stops the
        # hand (No Hearts: the defenders discard hearts on his tricks); in No Queens and
        # No King more nodes (BENCHMARKS.md, sixteenth session)
        hearts = 0xFFFF << (16 * K.HEARTS)
        P[K.P_NEG_LONG] = bool(P[K.P_NEG]) and (uni > 0 or (
            int(cc.stop_mask) == 0 and int(cc.scoring_mask) != 0
            and (int(cc.scoring_mask) & ~hearts) == 0))
        if P[K.P_NEG]:
            # the quick-trick cuts say what a seat *can* take; here the one seat that
            # counts wants no tricks and the others weigh 0, so they never decide a test
            # that the plain bounds leave open (same nodes, about a fifth less CPU). In a
            # bet (the others weigh < 0) they decide a few: No Tricks' brackets, README
            # deals 0-1, 171.92 M -> 171.85 M nodes, CPU x0.82 without them
            # (BENCHMARKS.md, nineteenth session)
            P[K.P_QT] = 0
        # (notrump only: with trumps 3-4% more nodes, bridge and Trumps alike)
        probe = PROBE if cc.trump < 0 else (0, 0, 0)
        P[K.P_PROBE], P[K.P_PROBE_FIRST], P[K.P_PROBE_TL] = probe
        for off, arr in ((K.O_W, self.w), (K.O_PTS, cc.pts), (K.O_TPL, cc.tpl),
                         (K.O_THI, self.tHi), (K.O_TLO, self.tLo), (K.O_CHI, self.cHi),
                         (K.O_CLO, self.cLo), (K.O_CLS, cc.cls)):
            P[off:off + len(arr)] = arr
        P[K.O_TPS:K.O_TPS + 16] = np.concatenate(([0], np.cumsum(cc.tpl[1:16])))
        clm = np.zeros(16, dtype=np.uint64)
        cbits = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
        for k in set(cc.cls.tolist()):
            if k < 16:
                clm[k] = np.bitwise_or.reduce(cbits[cc.cls == k])
        P[K.O_CLM:K.O_CLM + 16] = clm.view(np.int64)
        mono = 1
        while mono < 13 and cc.tpl[mono + 1] >= cc.tpl[mono]:
            mono += 1
        P[K.P_TPL_MONO] = mono
        self.P = P
        self.masks = np.array([cc.forced_mask, cc.stop_mask, cc.scoring_mask], dtype=np.uint64)
        self.st_t = st_t if bonus_t else -2
        self.st_c = st_c if bonus_c else -2
        # root bounds on the grid
        lo = int(self.tLo[self.tl]) + int(self.cLo[ipos].sum())
        hi = int(self.tHi[self.tl]) + int(self.cHi[ipos].sum())
        lo += min(adj_vals)
        hi += max(adj_vals)
        if g:
            lo = -((-lo) // g) * g
            hi = (hi // g) * g
        self.near = None  # -1 / 1: a lower / upper bound the caller knows (bounds)
        if bounds is not None:
            # values the caller knows the result lies within: only those are tested
            b_lo, b_hi = bounds
            unit = Fraction(cc.scale * wscale, g or 1)  # a point in grid steps
            lo0, hi0 = lo, hi
            if b_lo is not None:
                lo = max(lo, ceil(Fraction(b_lo) * unit) * (g or 1))
            if b_hi is not None:
                hi = min(hi, floor(Fraction(b_hi) * unit) * (g or 1))
            if lo > hi:
                raise BarbuError(f"bad bounds {tuple(bounds)}: no value of the position "
                                 "lies within them")
            # (a bound that narrows nothing, as a guaranteed value at the worst score,
            # changes nothing: the usual order finds the bottom cheaper)
            if b_lo is not None and lo > lo0:
                self.near = -1
            elif b_hi is not None and hi < hi0:
                self.near = 1
        self.lo, self.hi = lo, hi
        # a paranoid declarer scored only for a few last tricks (No Last Two), every value
        # of the grid reachable: test from the top down. The test that fails just above
        # the value, run first, leaves the table a cheaper proof of the value, and a
        # declarer who loses nothing needs one test (README hand, 10 sampled deals: 746 M
        # -> 613 M nodes; No Queens' five values: 10% more, so only up to four values)
        P[K.P_DOWN] = 0
        nz = [int(cc.tpl[k]) for k in range(1, self.tl + 1) if cc.tpl[k] != 0]
        paranoid = P[K.P_NEG] and not P[K.P_NEG_BET] and g
        if paranoid and card_total == 0 and len(nz) <= 2:
            reach = {0}  # the sums of any of those tricks' points
            for t in nz:
                reach |= {r + wv[mx[0]] * t for r in reach}
            P[K.P_DOWN] = reach == set(range(lo, hi + g, g))
        elif paranoid and card_total != 0 and not nz:
            # scored by cards only, over many values (No Hearts): from the top down too.
            # The tests that fail above the value are cheap, those that hold dear:
            # top-down runs one that holds, a binary search about two, one of them far
            # below the value (No Hearts, nodes in all: 70 random deals x0.80, the README
            # hand's deals 0-23 x0.93, AK93.KJ4.A72.KQ5's 0-11 x0.84; No Tricks, by
            # tricks, x1.15 on the random deals, so not there; BENCHMARKS.md,
            # twenty-first session)
            P[K.P_DOWN] = DOWN_MIN_VALUES <= (hi - lo) // g + 1 <= DOWN_MAX_VALUES
        P[K.P_EQ_SKIP] = EQ_SKIP
        # plays inside a trick use the killer move for the seats with one teammate
        # (bridge-like sides: fewer nodes; elsewhere more, BENCHMARKS.md, fifteenth
        # session); in a paranoid negative objective, for the three defenders where the
        # tricks left do not all score the same (No Queens, No Last Two, No Hearts,
        # No King; in No Tricks more nodes: BENCHMARKS.md, twenty-fourth session); in a
        # bet, for the three defenders in every negative contract (the bet's other seat
        # among them; both ends of North's bets on README deals, nodes: No Last Two
        # x0.94 and x0.98, No Tricks x0.98, No Queens x0.98, No Hearts x1.01 and x1.03;
        # the README advice x0.91-0.94 wall: BENCHMARKS.md, thirty-third session)
        if P[K.P_NEG]:
            d = int(P[K.P_NEG]) - 1
            every = bool(P[K.P_NEG_BET]) or uni < self.tl
            P[K.P_KILL_F] = 15 & ~(1 << d) if NEG_KILL and every else 0
        else:
            kind = [(int(P[K.O_W + i]), (int(P[K.P_MAXMASK]) >> i) & 1) for i in range(4)]
            P[K.P_KILL_F] = sum(1 << i for i in range(4) if kind.count(kind[i]) == 2)
            if all(kind.count(k) == 2 for k in kind):
                # two partnerships (bridge-shaped): enhanced transposition cutoffs
                P[K.P_ETC_TL] = ETC_TL
            tpls = {int(cc.tpl[t]) for t in range(1, self.tl + 1)}
            if SIDE_NT and kind[0] == kind[2] and kind[1] == kind[3] \
                    and kind[0][1] != kind[1][1] and cc.trump < 0 and not P[K.P_NEG] \
                    and not cc.pts.any() and len(tpls) == 1 and min(tpls) > 0:
                # notrump, every trick worth the same, no card scoring, partners opposite:
                # the move order takes a shortcut (the same order), provided the
                # maximisers' side weighs more (each seat wants its side to win)
                hi_side = 0 if kind[0][1] else 1
                if kind[hi_side][0] > kind[1 - hi_side][0]:
                    P[K.P_SIDE_NT] = 1
        if node_limit is not None and not 1 <= int(node_limit) < 1 << 62:
            raise BarbuError(f"bad node_limit {node_limit}: expected a positive number "
                             "below 2^62")
        P[K.P_NODE_LIMIT] = 0 if node_limit is None else int(node_limit)
        limit = check_seconds(time_limit, "time_limit")
        #: when the search stops (time.monotonic()), or None; a caller may move it
        self.deadline = None if limit is None else time.monotonic() + limit
        self.stop = stop  # (an object whose is_set() asks the search to stop)
        self.began = time.monotonic()  # (when run() began: STATUS_AFTER)
        self.timed_out = False  # (whether the last kernel call's time ran out)
        self.direct = False  # (the next kernel call in this thread, whatever its size)
        self.known = [self.lo, self.hi]  # what the finished tests proved (scaled)
        psum = int(cc.pts.sum()) + int(cc.tpl.sum())
        P[K.P_PSIGN] = 1 if psum >= 0 else -1
        self.stats = np.zeros(K.STATS_SIZE, dtype=np.int64)
        self.token = next(_tokens)

    def later(self, h: TrickGame, prev: "_Problem", bounds=None,
              end: float | None = None) -> "_Problem":
        """The same objective at ``h``, a later position of a play from this problem's
        (``h`` a copy of its game played on): what the play's completed tricks decide
        carried (``past``), the same limits (``end``: the time limit's end), searching on
        the table ``prev`` (the last problem of the play) left where it may
        (:func:`_carry_table`)."""
        g = self.game
        nl = int(self.P[K.P_NODE_LIMIT])
        pb = _Problem([set(x) for x in h.hands], self.rules, self.contract,
                      None if g.trump < 0 else g.trump, h.leader, None, None, self.weights,
                      self.maximizers, list(h.trick),
                      g.whole_hand and h.tricks_done == g.tricks_done,
                      None if self.tt_grow else self.tt_bits, nl or None, bounds,
                      time_share(end, 1), self.stop, h)
        _carry_table(prev, pb)
        return pb

    def fraction(self, v: int) -> Fraction:
        return Fraction(int(v), self.cc.scale * self.wscale)

    def run(self, only: int = -1, proved: Bounds | None = None) -> Fraction:
        """Exact value of the position (of playing card index ``only`` first, if given).
        ``proved``: the bounds an earlier run of the same search proved before it stopped
        (:class:`SearchStopped`'s): the tests start within them, in the usual order."""
        g = self.game
        if g.over:
            return sum((wi * si for wi, si in zip(self.weights, g.score())), Fraction(0))
        if self.grid == 0:
            return Fraction(0)
        self.began = time.monotonic()
        lo, hi = self.lo, self.hi
        if proved is not None:
            unit = Fraction(self.cc.scale * self.wscale, self.grid)  # a point in steps
            lo = max(lo, ceil(Fraction(proved.low) * unit) * self.grid)
            hi = min(hi, floor(Fraction(proved.high) * unit) * self.grid)
            if lo > hi:
                raise BarbuError(f"bad proved bounds ({proved.low}, {proved.high}): no "
                                 "value of the position lies within them")
            if lo == hi:
                return self.fraction(lo)
        self.known = [lo, hi]
        args = self._buffers(only)
        asked_before = self.stop is not None and self.stop.is_set()
        try:
            return self._run(lo, hi, only, args)
        except SearchStopped as e:
            if (e.reason != "stop" or asked_before or not STOP_GRACE or self.P[K.P_DOWN]
                    or self.stop in _GRACED or self.known[0] >= self.known[1]
                    or (self.known[1] - self.known[0]) // self.grid >= SQUEEZE_MAX_VALUES):
                raise
            _GRACED.add(self.stop)
            return self._graced(args)

    def _graced(self, args: tuple) -> Fraction:
        """The squeeze for ``STOP_GRACE`` seconds (at most to the time limit) after a stop
        request: the value, or the request's stop with what the tests proved by then."""
        stop, end = self.stop, self.deadline
        grace = time.monotonic() + STOP_GRACE
        self.stop, self.deadline = None, grace if end is None else min(end, grace)
        try:
            return self.fraction(self._squeeze(*self.known, *args))
        except SearchStopped as e:
            if e.reason == "nodes":
                raise
            raise SearchStopped("search stopped on request", e.bounds, "stop") from None
        finally:
            self.stop, self.deadline = stop, end

    def _run(self, lo: int, hi: int, only: int, args: tuple) -> Fraction:
        """The value by the usual order of the tests, or under a time limit the usual
        order for a share of it (``USUAL_FIRST``), then the squeeze."""
        end = self.deadline
        if (end is not None and self.near is None and not self.P[K.P_DOWN]
                and (hi - lo) // self.grid < SQUEEZE_MAX_VALUES):
            # the usual order for a share of the time (often enough, and then at its
            # own cost), then the squeeze from what it proved, with the table it left
            self.deadline = time.monotonic() + (end - time.monotonic()) * USUAL_FIRST
            try:
                return self.fraction(self._usual(lo, hi, only, *args))
            except SearchStopped as e:
                if e.reason != "time" or time.monotonic() >= end:
                    raise
            finally:
                self.deadline = end
            return self.fraction(self._squeeze(*self.known, *args))
        return self.fraction(self._usual(lo, hi, only, *args))

    def _buffers(self, only: int = -1) -> tuple:
        """The search's arguments after the bounds: its copy of the hands and trick, the
        Ravage counts, the card to play first (``only``, -1: any) and its work arrays."""
        kbuf = np.zeros((16, self.words + 4), dtype=np.uint64)
        # a row a ply: moves in columns 0-15, their scores in 16-28, the ply's killer
        # move in 31 (kept from one null-window test to the next); row K.MB_PROBE: where
        # a probe stops; row K.MB_CTX: the addresses and shapes of the search's arrays
        mbuf = np.zeros((64, 32), dtype=np.int64)
        relbuf = np.zeros(64, dtype=np.uint64)
        rcnt = self.rcnt0.copy()
        oc = -1 if only < 0 else card_bitpos(only)
        return (self.hands.copy(), self.tbuf.copy(), rcnt, oc, kbuf, mbuf, relbuf)

    def keeping(self, value: Fraction, cards: Sequence[int]) -> int:
        """The first of ``cards`` (legal cards of the player to move) after which the
        position's ``value`` still holds: one null-window test a card tried, on one table
        (a maximiser's card is worth at most the value, a minimiser's at least)."""
        v = value * self.cc.scale * self.wscale
        if v.denominator != 1:
            raise ValueError(f"{value} is not a value of this position")
        v, step = int(v), self.grid
        up = (int(self.P[K.P_MAXMASK]) >> self.game.to_move) & 1
        for c in cards:
            if (v <= self.lo) if up else (v >= self.hi):
                return c  # (no card can do worse than the value's own end of the range)
            args = self._buffers(c)
            self.known = [self.lo, self.hi]  # (each card's tests prove its own bounds)
            try:
                if up and self._tests(v - step, v, *args) >= v:
                    return c
                if not up and self._tests(v, v + step, *args) <= v:
                    return c
            except SearchStopped as e:
                raise e.naming(f"the value after {card_name(c)}") from None
        raise ValueError(f"no card keeps the value {value}: it is not the position's")

    def _usual(self, lo: int, hi: int, only: int, *args) -> int:
        """The value by the usual order of the tests: from a guess, next to a known
        bound, or halving the range (from the top down: ``P_DOWN``)."""
        step = self.grid
        guess = self._guess() if only < 0 and self.near is None else None
        if guess is not None:
            return self._steps(guess, lo, hi, *args)
        if self.near is not None and only < 0 and HINT_FIRST and hi - lo > step:
            # a known bound that the value often equals (a bet's, from the declarer's
            # guaranteed value): the test next to it first, one that usually fails
            if self.near < 0:
                v = self._tests(lo, lo + step, *args)
                if v == lo:
                    return v
                lo = v
            else:
                v = self._tests(hi - step, hi, *args)
                if v == hi:
                    return v
                hi = v
        return self._tests(lo, hi, *args)

    def _squeeze(self, lo: int, hi: int, *args) -> int:
        """The value by single null-window tests inward from both ends of [lo, hi]: is it
        above the lowest value not ruled out, is it the highest; each time at the end
        whose last test took fewer nodes (the cheaper, farther from the value)."""
        step = self.grid
        cost = [0, 0]  # the last test's nodes from below, from above
        while lo < hi:
            up = cost[0] <= cost[1]
            n0 = int(self.stats[0])
            if up:
                if self._tests(lo, lo + step, *args) == lo:
                    hi = lo
                else:
                    lo += step
            else:
                if self._tests(hi - step, hi, *args) == hi:
                    lo = hi
                else:
                    hi -= step
            cost[0 if up else 1] = int(self.stats[0]) - n0
        return lo

    def _guess(self) -> int | None:
        """A guess of the value where one exists (``GUESS_FIRST``), on the grid."""
        P = self.P
        if not (GUESS_FIRST and P[K.P_QT] and self.nt == 0 and self.grid == 1
                and self.lo == 0 and self.hi == self.tl
                and (self.tl == 13 or (P[K.P_TRUMP] < 0 and self.tl >= 6))):
            return None
        side = int(P[K.P_MAXMASK])
        w = P[K.O_W:K.O_W + 4]
        if bin(side).count("1") != 2 or any(int(w[q]) != ((side >> q) & 1) for q in range(4)):
            return None
        return _trick_guess(self.hands, side, int(P[K.P_TRUMP]))

    def _steps(self, g: int, lo: int, hi: int, *args) -> int:
        """The value by single null-window tests from ``g``: up while they hold, down
        while they fail (each ``_tests`` over two neighbouring values is one test)."""
        step = self.grid
        g = min(max(g, lo), hi)
        if g > lo and self._tests(g - step, g, *args) < g:
            v = g - step
            while v > lo:
                w = self._tests(v - step, v, *args)
                if w == v:
                    break
                v = w
            return v
        v = g
        while v < hi:
            w = self._tests(v, v + step, *args)
            if w == v:
                break
            v = w
        return v

    def _kernel(self, *args) -> int:
        """``K._solve(*args)``, stoppable by a signal (Ctrl-C, and SIGTERM in the command
        line, where their handlers raise).

        Python runs a signal's handler only between bytecodes, never while the compiled
        search runs: a 52-card search could ignore Ctrl-C for minutes. So, in the main
        thread with a Python SIGINT or SIGTERM handler and a search of ``INTERRUPT_TL`` tricks or
        more, the search (which releases the GIL) runs in a thread of its own while this
        one waits; a handler's exception there sets the node limit to 1, which the
        search reads at its next node and stops; once it has, the exception
        goes on. Elsewhere (pool workers ignore SIGINT; short searches end soon), and for
        the first ``DIRECT_NODES`` nodes of a test (``self.direct``: ``_tests``), a plain
        call, saving the thread's cost."""
        compile_ahead()  # (a first run: half of the kernel's compile on another core)
        before_search(K._solve)
        if self.direct or not self._stoppable():
            return K._solve(*args)
        out: list = []
        done = threading.Event()
        lock = threading.Lock()
        state = ["waiting"]  # -> "searching" (the search began), or "cancelled" (never will)

        def search() -> None:
            try:
                with lock:
                    if state[0] == "cancelled":
                        return
                    state[0] = "searching"
                out.append(K._solve(*args))
            except BaseException as e:  # (re-raised below, in the caller's thread)
                out.append(e)
            finally:
                done.set()

        # (waits on an Event, not Thread.join: a join interrupted by a handler's
        # exception marks a running thread as stopped in Python 3.11, bpo-45274; and the
        # start is inside the try: a handler may raise while start() waits for the thread)
        limit = int(self.P[K.P_NODE_LIMIT])
        try:
            threading.Thread(target=search, name="barbu-search", daemon=True).start()
            done.wait()
        except BaseException:
            self.P[K.P_NODE_LIMIT] = 1  # a search under way stops at its next node
            while True:  # never leave it running on the shared tables, whatever comes
                try:
                    with lock:
                        if state[0] == "waiting":
                            state[0] = "cancelled"  # (it will not begin)
                        searching = state[0] == "searching"
                    if not searching or done.wait(0.05):
                        break
                except BaseException:
                    pass
            self.P[K.P_NODE_LIMIT] = limit
            raise
        if isinstance(out[0], BaseException):
            raise out[0]
        return out[0]

    def _tell(self, status: Callable[[int, Fraction, Fraction], Any]) -> None:
        """``status(nodes, low, high)``: the nodes searched so far and the bounds the
        finished tests proved (read while the search runs: the count may lag a little).
        A display's error must not stop the watcher that enforces the limits."""
        try:
            status(int(self.stats[0]), self.fraction(self.known[0]),
                   self.fraction(self.known[1]))
        except Exception:  # (a display's own fault, not the search's)
            pass

    def _stoppable(self) -> bool:
        """Does a search here run in a thread of its own, so that a signal can stop it
        (``_kernel``)?"""
        return (self.tl >= INTERRUPT_TL
                and threading.current_thread() is threading.main_thread()
                and any(callable(signal.getsignal(g)) for g in _STOP_SIGNALS))

    def _timed(self, *args) -> int:
        """``_kernel(*args)``, stopped at ``self.deadline`` or once ``self.stop`` is set: a
        watcher thread then sets the node limit to 1, which the search reads at its next
        node (it releases the GIL); the limit is restored once the watcher has ended.
        ``self.timed_out`` says whether it fired."""
        self.timed_out = False
        if self.deadline is None and self.stop is None:
            return self._kernel(*args)
        limit = int(self.P[K.P_NODE_LIMIT])
        fired: list[bool] = []
        finished = threading.Event()
        deadline, stop = self.deadline, self.stop
        status = getattr(stop, "searching", None)

        def watch() -> None:
            while True:
                now = time.monotonic()
                left = None if deadline is None else deadline - now
                if (left is not None and left <= 0) or (stop is not None and stop.is_set()):
                    fired.append(True)
                    self.P[K.P_NODE_LIMIT] = 1
                    return
                if callable(status) and now - self.began >= STATUS_AFTER:
                    self._tell(status)
                wait = left if stop is None else STOP_POLL if left is None else \
                    min(left, STOP_POLL)
                if finished.wait(wait):
                    return

        if deadline is not None and deadline <= time.monotonic():
            fired.append(True)  # (past already: the search stops at its second node)
            self.P[K.P_NODE_LIMIT] = 1
        watcher = threading.Thread(target=watch, name="barbu-watch", daemon=True)
        watcher.start()
        try:
            return self._kernel(*args)
        finally:
            finished.set()
            watcher.join()
            self.P[K.P_NODE_LIMIT] = limit
            self.timed_out = bool(fired)

    def _narrow(self, a: int, b: int, low: int, high: int) -> None:
        """What a test over the window [a, b] proved: the value clamped to the window lies
        in [low, high], so the value is at least ``low`` if it is above ``a`` and at most
        ``high`` if it is below ``b``."""
        if low > a:
            self.known[0] = max(self.known[0], low)
        if high < b:
            self.known[1] = min(self.known[1], high)

    def _tests(self, lo: int, hi: int, hands, tbuf, rcnt, oc, kbuf, mbuf, relbuf) -> int:
        """The null-window tests of ``K._solve`` over [lo, hi] (scaled), growing the table
        when it fills; :class:`SearchStopped` at the node or time limit."""
        window = (lo, hi)
        # (a search that a signal must be able to stop first runs DIRECT_NODES nodes in
        # this thread; not under a watcher, which sets the node limit itself)
        first = self.deadline is None and self.stop is None and self._stoppable()
        while True:
            ttk, tte, ttd = _tt(self.tt_bits, self.words, self.token)
            limit = int(self.P[K.P_NODE_LIMIT])
            cut = 0
            if first:
                first = False
                cut = int(self.stats[0]) + DIRECT_NODES
                if 0 < limit <= cut:
                    cut = 0  # (the caller's own limit stops it as soon)
                self.P[K.P_NODE_LIMIT] = cut or limit
                self.direct = True
            try:
                v = self._timed(hands, tbuf, self.nt, self.leader, self.tl, self.st_t,
                                self.st_c, rcnt, oc, lo, hi, self.P, self.masks,
                                ttk, tte, ttd, kbuf, mbuf, relbuf, self.stats)
            finally:
                self.direct = False
                self.P[K.P_NODE_LIMIT] = limit
            if cut and self.stats[8] == 1:
                # the first nodes ran out: the test in progress runs again in the search
                # thread, in the interval the finished tests left, on the table it left
                lo, hi = v, int(self.stats[15])
                self.stats[8] = 0
                continue
            if self.stats[8] != 2:
                break
            # the table filled up: its content moves to a larger table, and the test in
            # progress runs again there, in the interval the finished tests left (the
            # search left hands, trick and counts as it found them)
            lo, hi = v, int(self.stats[15])
            bits = self.tt_bits
            self.tt_bits = min(bits + 2, GROW_TT_BITS)
            ttk2, tte2, ttd2 = _tt(self.tt_bits, self.words, self.token)
            self.stats[13] = K._tt_rehash(ttk, tte, ttd, bits, ttk2, tte2, ttd2,
                                          self.tt_bits, self.words,
                                          np.empty(1 << bits, dtype=np.int64))
            del ttk, tte, ttd
            self.P[K.P_TTBITS] = self.tt_bits
            self.P[K.P_TT_GROW] = self.tt_bits < GROW_TT_BITS
            self.stats[8] = 0
        if self.stats[8]:
            self._narrow(*window, v, int(self.stats[15]))
            b = Bounds(self.fraction(self.known[0]), self.fraction(self.known[1]))
            self.stats[8] = 0  # (a caller may go on with a new deadline)
            if self.timed_out and self.stop is not None and self.stop.is_set():
                raise SearchStopped("search stopped on request", b, "stop")
            if self.timed_out:
                raise SearchStopped("search stopped: time limit reached", b, "time")
            raise SearchStopped(f"search stopped: node limit "
                                f"{int(self.P[K.P_NODE_LIMIT])} reached", b, "nodes")
        self._narrow(*window, v, v)
        if self.tt_grow:
            # the least size that would have held its entries without growing
            b = _default_tt_bits(self.tl)
            while b < GROW_TT_BITS and 4 * int(self.stats[13]) > K.TT_FULL_QUARTERS << b:
                b += 1
            hints = _size_hints()
            hints[self.size_key] = (hints.get(self.size_key, ()) + (b,))[-HINT_RUN:]
        return v


def solve(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
          contract: Contract | str, *, trump: int | str | None = None,
          leader: int | str | Seat, seat: int | str | Seat | None = None,
          side: str | Iterable[int | str | Seat] | None = None,
          weights: Sequence[int | Fraction] | None = None,
          maximizers: Iterable[int | str | Seat] | None = None,
          trick: Sequence[int] = (), whole_hand: bool | None = None,
          tt_bits: int | None = None, node_limit: int | None = None,
          bounds: tuple[Fraction | int | None, Fraction | int | None] | None = None,
          time_limit: float | None = None, stop=None,
          proved: Bounds | None = None) -> Fraction:
    """Double-dummy value of a trick-contract position.

    Parameters
    ----------
    deal_or_hands : Deal, PBN text or 4 iterables of cards
        The cards each seat holds (mid-trick: those who have played hold one card fewer):
        a :class:`Deal`, PBN text (``"N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"``, read with the
        preset's deck), or card indices 0-51 (``13 * suit + rank``) or names (``"SA"``).
    rules : Rules or str
        The preset (or its name / file).
    contract : Contract or str
        A trick contract of the preset (id or alias).
    trump : Suit, int, str or None
        Trump suit of a ``trumps`` contract.
    leader : Seat, int or str
        Leader of the current trick.
    seat : Seat, int or str, optional
        Solve the guaranteed value of this seat (the other three play against it).
    side : str or iterable of seats, optional
        Solve a partnership's combined score (``"NS"``, ``(0, 2)``).
    weights, maximizers : optional
        A general linear objective: ``sum(weights[p] * score[p])``, maximised by the seats
        in ``maximizers``, minimised by the others.
    trick : sequence of cards (indices or names)
        Cards already played to the current trick, leader's first.
    whole_hand : bool, optional
        Whether the position is a whole hand (bonuses, first-trick heart ban); default: no
        trick completed yet (the first trick may be under way).
    tt_bits : int, optional
        Transposition table size, ``2 ** tt_bits`` entries (default by position size:
        12 up to 4 tricks, 16 up to 8, 17 above, and a search that fills it goes on in a
        larger one, up to 2 ** 24, with what it stored; about 100 bytes an entry); 4 to 26.
    node_limit : int, optional
        Give up after this many search nodes (:class:`SearchStopped`, a
        :class:`BarbuError`, ``reason`` "nodes"); default: no limit.
    time_limit : float, optional
        Give up after this many seconds (:class:`SearchStopped`, ``reason`` "time"). The
        exception's ``bounds`` hold what the finished tests proved: the value lies
        between ``bounds.low`` and ``bounds.high``.
    stop : threading.Event, optional
        Once set (from another thread, or a signal handler), the search stops
        (:class:`SearchStopped`, ``reason`` "stop", with the bounds its finished tests
        proved). Under a time limit, after half the time in the usual order, the tests
        go inward from both ends of the range (:data:`SQUEEZE_MAX_VALUES`), so that the
        bounds narrow. If it also has a ``searching`` method, a search that has run for
        :data:`STATUS_AFTER` seconds calls ``stop.searching(nodes, low, high)`` some
        twenty times a second, from another thread, until it ends: the nodes searched so
        far and the bounds its finished tests proved (Fractions; a progress display).
    bounds : (low, high), optional
        Values the caller *knows* the result lies within (either may be None): the
        search tests only the values inside, so a bound that does not hold gives a wrong
        value. With one bound that narrows the range, the value next to it is tested
        first. The advisor passes the bound a bet takes from the declarer's guaranteed
        value (:func:`declarer_bet_bounds`), which the bet often equals: the tests at or
        below it, which hold, are often the dearest of the bet's solve, and the one
        above it usually fails.
    proved : Bounds, optional
        What an earlier run of this same search proved before a limit stopped it (its
        :class:`SearchStopped`'s ``bounds``): the tests start within them, in the order
        they would have had, rather than over every value again (the rerun still starts
        with an empty table).

    Returns
    -------
    Fraction
        The objective's value with perfect play from the position to the end (raw points,
        exact).

    Raises
    ------
    BarbuError
        Bad or inconsistent input, one line naming it (unknown contract, dominoes, missing
        trump suit, seat not in side, hands the trick does not explain, illegal trick cards).
    SearchStopped
        The node or time limit was reached first.
    """
    pb = _Problem(deal_or_hands, rules, contract, trump, leader, seat, side, weights,
                  maximizers, trick, whole_hand, tt_bits, node_limit, bounds, time_limit,
                  stop)
    return pb.run(proved=proved)


def solve_from_value(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
                     contract: Contract | str, objectives: Sequence[Sequence[int]], *,
                     trump: int | str | None = None, leader: int | str | Seat,
                     seat: int | str | Seat, trick: Sequence[int] = (),
                     tt_bits: int | None = None, nodes: list[int] | None = None
                     ) -> tuple[Fraction, list[Fraction]]:
    """``seat``'s guaranteed value, then each objective ``sum(w[p] * score[p])`` maximised
    by ``seat`` alone, started from what the guaranteed value's search learnt.

    Where no seat can score above 0 (:func:`score_sign` < 0), an objective with
    ``w[seat] > 0`` and every other weight <= 0 (a bet ``e_X - e_Y``, a net ``(1 + 3 n)
    e_X - n (e_others)``) is, from any position, at least ``w[seat]`` times the seat's
    guaranteed value from there (the others' scores only add). So each such solve starts
    from the guaranteed value's transposition table with every entry's lower bound
    scaled by ``w[seat]`` and its upper bound dropped (restored afresh for each
    objective: one objective's entries do not bound the next; not where a whole-hand
    bonus replaces the points: a seat that has taken every trick or card so far may turn
    the points he took into the bonus, so his score from a position can rise above 0 and
    the entries' bounds do not hold), and with the root bounds
    of :func:`declarer_bet_bounds` (from above too for a bet or a net where the
    position's total is fixed: such a net, or a bet when the seat's guaranteed value is
    the whole total, is exact without a search). Any other objective is solved on its own. The
    values are those of :func:`solve`; only the work differs (No Last Two's declarer
    ends of the bets on the README hand: x0.66 CPU, BENCHMARKS.md, twentieth session).
    ``nodes``, if given, receives the search nodes of each solve, the guaranteed
    value's first.
    """
    rules = load_rules(rules) if not isinstance(rules, Rules) else rules
    x = as_seat(seat, "seat")

    def problem(**kw) -> _Problem:
        return _Problem(deal_or_hands, rules, contract, trump, leader, kw.get("seat"), None,
                        kw.get("weights"), kw.get("maximizers"), trick, None, tt_bits,
                        None, kw.get("bounds"))

    pg = problem(seat=x)
    g = pg.run()
    if nodes is not None:
        nodes.append(int(pg.stats[0]))
    sign = score_sign(rules, contract)
    snap = None
    out = []
    for w in objectives:
        wf = as_weights(w)
        if any(v.denominator != 1 for v in wf):
            raise BarbuError(f"bad weights {w!r}: solve_from_value takes whole numbers")
        w = [int(v) for v in wf]
        seeded = sign < 0 and w[x] > 0 and all(w[p] <= 0 for p in range(4) if p != x)
        rest = sorted(w[p] for p in range(4) if p != x)
        # a bet or a net: bounded from above too where the total is fixed
        shaped = (w[x] == 1 and rest == [-1, 0, 0]) or (
            rest[0] == rest[2] < 0 and w[x] == 1 - 3 * rest[0])
        bounds = declarer_bet_bounds(sign, g, w[x], pg.total if shaped else None) \
            if seeded else None
        if bounds is not None and bounds[0] == bounds[1]:
            out.append(bounds[0])  # exact: nothing to search
            if nodes is not None:
                nodes.append(0)
            continue
        pb = problem(weights=w, maximizers=(x,), bounds=bounds)
        gw = int(pg.P[K.O_W + x])
        bw = int(pb.P[K.O_W + x])
        if (seeded and pg.grid and pb.words == pg.words and pb.cc.scale == pg.cc.scale
                and gw > 0 and bw % gw == 0 and pg.cc.bonus_tricks is None
                and pg.cc.bonus_cards is None):
            if snap is None:
                snap = _table_snapshot(pg)
            _table_seed(pb, pg, snap, bw // gw)
        out.append(pb.run())
        if nodes is not None:
            nodes.append(int(pb.stats[0]))
    return g, out


def _carry_table(prev: _Problem, pb: _Problem) -> None:
    """Let ``pb``, a later position of the same line of play as ``prev``, search on the
    table ``prev`` left (its arrays stay in the thread's cache), where every entry means
    the same in both: the same contract, trump, objective and key layout, and no
    whole-hand bonus in either (a bonus's adjustment depends on the points still in play,
    which the key does not hold). An entry bounds the points still to come from a trick's
    start, whose key holds the cards in play, the leader, the tricks left and the Ravage
    counts, so a later position's search may use it as it stands (the first tricks of a
    line no longer search again what the value's search proved)."""
    P, Q = prev.P, pb.P
    if (prev.rules is not pb.rules or prev.contract != pb.contract
            or prev.cc.trump != pb.cc.trump or prev.cc.scale != pb.cc.scale
            or prev.words != pb.words or prev.wscale != pb.wscale
            or not np.array_equal(prev.w, pb.w) or P[K.P_MAXMASK] != Q[K.P_MAXMASK]
            or P[K.P_BONUS_T] or P[K.P_BONUS_C] or Q[K.P_BONUS_T] or Q[K.P_BONUS_C]
            or P[K.P_RAVAGE] != Q[K.P_RAVAGE] or P[K.P_KWORDS] != Q[K.P_KWORDS]
            or P[K.P_CBITS] != Q[K.P_CBITS] or prev.tt_grow != pb.tt_grow):
        return
    pb.token = prev.token  # the same arrays, not emptied
    pb.tt_bits = prev.tt_bits
    Q[K.P_TTBITS] = prev.tt_bits
    Q[K.P_TT_GROW] = pb.tt_grow and prev.tt_bits < GROW_TT_BITS
    pb.stats[13] = prev.stats[13]  # (the pool rows in use)


def _table_snapshot(pg: _Problem) -> dict:
    """The table ``pg`` left behind (its arrays stay in the thread's cache): its shape,
    the pool rows it used with every entry's upper bound dropped, copies of the head keys
    and of the head / entry-hash array, and which rows are entries. One copy of the rows:
    their lower bounds are rescaled in place for each objective's factor
    (:func:`_table_seed`)."""
    ttk, tte, ttd = _tt(pg.tt_bits, pg.words, pg.token)
    n = 1 << pg.tt_bits
    rows = int(pg.stats[13])
    ents = (ttd[n:] & 0xFFFFFFFF) - 1
    ents = ents[ents >= 0]
    rows_c = tte[:rows].copy()
    rows_c[ents, K.TE_UB] = np.uint64(1 << 40)
    return {"bits": pg.tt_bits, "rows": rows, "ttk": ttk.copy(), "ttd": ttd.copy(),
            "tte": rows_c, "ents": ents, "factor": 1}


def _table_seed(pb: _Problem, pg: _Problem, snap: dict, factor: int) -> None:
    """Give ``pb`` the table of ``pg`` as the snapshot holds it, each entry's lower bound
    times ``factor`` (a bound of ``pb``'s objective) and its upper bound dropped."""
    rows = snap["rows"]
    rows_f = snap["tte"]
    if factor != snap["factor"]:
        # (the bounds are the guaranteed value's times the last factor: exact to undo)
        ents = snap["ents"]
        lb = rows_f[ents, K.TE_LB].view(np.int64)
        none = np.int64(-(1 << 40))
        lb = np.where(lb > none, lb // snap["factor"] * factor, none)
        rows_f[ents, K.TE_LB] = lb.view(np.uint64)
        snap["factor"] = factor
    ttk, tte, ttd = _tt(snap["bits"], pg.words, pg.token)
    ttk[:] = snap["ttk"]
    ttd[:] = snap["ttd"]
    tte[:rows] = rows_f
    pb.token = pg.token  # the same arrays, not emptied
    pb.tt_bits = snap["bits"]
    pb.P[K.P_TTBITS] = snap["bits"]
    pb.P[K.P_TT_GROW] = pb.tt_grow and snap["bits"] < GROW_TT_BITS
    pb.stats[13] = rows


def score_sign(rules: Rules | str, contract: Contract | str) -> int:
    """-1 when no seat can score above 0 in the contract (every card, trick, bonus and
    Ravage City total <= 0), +1 when none can score below 0, else 0.

    Then a bet ``e_X - e_Y`` maximised by X is at least X's guaranteed value (-1: Y's
    score only adds) or at most it (+1), and the net objective
    ``(1 + 3 n) e_X - n (e_others)`` likewise against ``1 + 3 n`` times it.
    """
    rules = load_rules(rules) if not isinstance(rules, Rules) else rules
    c = rules.contract(contract) if not isinstance(contract, Contract) else contract
    if c.is_dominoes:
        return 0
    # (the trump suit changes no points)
    cc = compile_contract(rules, c, 0 if c.trumps else None)
    vals = [int(x) for x in cc.pts] + [int(x) for x in cc.tpl]
    vals += [x for x in (cc.bonus_tricks, cc.bonus_cards, cc.ravage) if x is not None]
    if all(v <= 0 for v in vals):
        return -1
    if all(v >= 0 for v in vals):
        return 1
    return 0


def declarer_bet_bounds(sign: int, guaranteed: Fraction, factor: int = 1,
                        total: Fraction | None = None
                        ) -> tuple[Fraction, Fraction | None] | None:
    """``bounds`` for the declarer's end of a bet (``factor`` 1: ``e_X - e_Y`` maximised
    by X) or for his net under ``n`` doubles a pair (``factor`` ``1 + 3 n``), from his
    guaranteed value on the same deal and the contract's :func:`score_sign`.

    Where no seat scores above 0 the objective is at least ``factor`` times the
    guaranteed value (the others' points only add), and on the README hand it often
    equals it: the README deals' declarer ends cost x0.08 (No King) to x0.85 (No Queens)
    of the CPU with the bound. Where none scores below 0 (Trumps) the bound from above is
    sound too, but the bet lies well below it and it cost more (Trumps in spades x1.36):
    None, as for contracts that score both ways (BENCHMARKS.md, nineteenth session).

    ``total``: the points the position hands out whatever the play (a whole deal's
    :meth:`Rules.total`), if known; then the value is bounded from above as well. The
    others can hold X to his guaranteed value ``G``, and as they score ``total - e_X``
    between them, each <= 0, Y scores at least that: ``e_X - e_Y <= 2 G - total``
    (exact when X's guaranteed value is the whole total). A net is then a function of
    ``e_X`` alone, ``(1 + 4 n) e_X - n total``: exact.
    """
    if sign >= 0:
        return None
    g = Fraction(guaranteed)
    if total is None:
        return (factor * g, None)
    if factor == 1:
        return (g, 2 * g - total)
    n = Fraction(factor - 1, 3)
    v = (1 + 4 * n) * g - n * total
    return (v, v)


def solve_cards(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
                contract: Contract | str, *, trump: int | str | None = None,
                leader: int | str | Seat, seat: int | str | Seat | None = None,
                side: str | Iterable[int | str | Seat] | None = None,
                weights: Sequence[int | Fraction] | None = None,
                maximizers: Iterable[int | str | Seat] | None = None,
                trick: Sequence[int] = (), whole_hand: bool | None = None,
                tt_bits: int | None = None, node_limit: int | None = None,
                time_limit: float | None = None, stop=None
                ) -> dict[int, Fraction | Bounds]:
    """Value of each legal card of the player to move (card index → value).

    Same parameters as :func:`solve`; the value of a card is the objective's value when
    that card is played now and play is perfect afterwards. Empty when the hand is over.
    ``time_limit`` covers every card (:func:`within_time`): a card whose search it (or
    ``stop``) stops gets the :class:`Bounds` its tests proved instead of a value.
    """
    pb = _Problem(deal_or_hands, rules, contract, trump, leader, seat, side, weights,
                  maximizers, trick, whole_hand, tt_bits, node_limit, None, None, stop)
    legal = list(pb.game.legal())

    def card(c: int) -> Slot:
        def run(share: float | None, proved: Bounds | None) -> Fraction:
            if share is not None:
                pb.deadline = time.monotonic() + share
            try:
                return pb.run(only=c, proved=proved)
            except SearchStopped as e:
                raise e.naming(f"the value after {card_name(c)}") from None
        return run
    vals = within_time([card(c) for c in legal], _end(time_limit))
    return dict(zip(legal, vals))


def solve_line(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
               contract: Contract | str, *, trump: int | str | None = None,
               leader: int | str | Seat, seat: int | str | Seat | None = None,
               side: str | Iterable[int | str | Seat] | None = None,
               weights: Sequence[int | Fraction] | None = None,
               maximizers: Iterable[int | str | Seat] | None = None,
               trick: Sequence[int] = (), whole_hand: bool | None = None,
               tt_bits: int | None = None, node_limit: int | None = None,
               time_limit: float | None = None, stop=None
               ) -> tuple[Fraction | Bounds, list[int], bool]:
    """The value, and one line of perfect play to the end: ``(value, cards, complete)``.

    Each card of the line keeps the position's value (every seat plays one of its best
    cards; where several are, the first legal one in card order that does). Same
    parameters as :func:`solve`; the value comes first, then the line, card by card, a
    null-window test for each card tried, each position searched on the table the one
    before it left (:func:`_carry_table`; not where a whole-hand bonus is in play). ``cards``
    continues the trick in progress. A time limit or a stop request that strikes during
    the value gives its :class:`Bounds` and no line; during the line, the cards found by
    then and ``complete`` false. The positions along a line carry what its completed
    tricks decide: in a whole hand, who can still win a whole-hand bonus and how much the
    taker has had; in a whole hand or an endgame, the cards of each suit each seat took
    since the line's start, for Ravage City."""
    end = _end(time_limit)
    rules = load_rules(rules) if not isinstance(rules, Rules) else rules
    root = _Problem(deal_or_hands, rules, contract, trump, leader, seat, side, weights,
                    maximizers, trick, whole_hand, tt_bits, node_limit, None,
                    time_share(end, 1), stop)
    try:
        value = root.run()
    except SearchStopped as e:
        if e.reason == "nodes":
            raise
        return e.bounds, [], False
    g = root.game
    game = g.copy()
    w = root.weights
    cards: list[int] = []
    prev = root
    while not game.over:
        legal = sorted(game.legal())
        if len(legal) > 1:
            here = value - sum((a * b for a, b in zip(w, game.points)), Fraction(0))
            pb = root if not cards else root.later(game, prev, end=end)
            prev = pb
            try:
                legal = [pb.keeping(here, legal)]
            except SearchStopped as e:
                if e.reason == "nodes":
                    raise
                return value, cards, False
        game.play(legal[0])
        cards.append(legal[0])
    got = sum((a * b for a, b in zip(w, game.score())), Fraction(0))
    if got != value:  # (every card kept the value: the line must score it)
        raise AssertionError(f"the line scores {got}, not the value {value}")
    return value, cards, True


def review_line(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
                contract: Contract | str, cards: Sequence[int], *,
                trump: int | str | None = None, leader: int | str | Seat,
                seat: int | str | Seat | None = None,
                side: str | Iterable[int | str | Seat] | None = None,
                weights: Sequence[int | Fraction] | None = None,
                maximizers: Iterable[int | str | Seat] | None = None,
                trick: Sequence[int] = (), whole_hand: bool | None = None,
                tt_bits: int | None = None, node_limit: int | None = None,
                time_limit: float | None = None, stop=None
                ) -> tuple[Fraction | Bounds, list[tuple[int, Fraction, int | None]], bool]:
    """The value, then its value after each card actually played from the position:
    ``(value, [(card, value_after, instead), …], complete)``.

    ``cards`` (indices) are the cards played from the position on, in order (continuing
    the trick in progress), as many as were played. Every value is the objective's
    value of the rest of the hand from the position: the points taken since it, weighed,
    plus perfect play from the card on. So a card leaves it unchanged unless it gives
    points away against perfect play: a maximiser's card can only lower it, a
    minimiser's only raise it. Where a card changes it, ``instead`` is a card that would
    have kept it (the first legal one in card order), else None. Same parameters as
    :func:`solve`. Each card after which the player to move has a choice costs a search
    bounded by the value before it (usually one null-window test), on the table the one
    before it left (:func:`_carry_table`), and a changed value one more test a card
    tried for ``instead``. A card that is not legal raises :class:`BarbuError` (naming
    its place in ``cards``) before any search. A time limit or a stop request that
    strikes during the value gives its :class:`Bounds` and no entries; later, the entries
    found by then and ``complete`` false."""
    end = _end(time_limit)
    rules = load_rules(rules) if not isinstance(rules, Rules) else rules
    root = _Problem(deal_or_hands, rules, contract, trump, leader, seat, side, weights,
                    maximizers, trick, whole_hand, tt_bits, node_limit, None,
                    time_share(end, 1), stop)
    g = root.game
    check = g.copy()
    for k, x in enumerate(cards, 1):
        if check.over:
            raise BarbuError(f"card {k} of the play ({card_name(x)}): the hand is over "
                             f"after {k - 1} cards ({check.over_reason()})")
        try:
            check.play(x)
        except BarbuError as e:
            raise BarbuError(f"card {k} of the play: {e}") from None
    try:
        value = root.run()
    except SearchStopped as e:
        if e.reason == "nodes":
            raise
        return e.bounds, [], False
    w, mx = root.weights, root.maximizers

    def taken(h: TrickGame) -> Fraction:
        return sum((a * b for a, b in zip(w, h.points)), Fraction(0))

    game = g.copy()
    cur, prev = value, root
    out: list[tuple[int, Fraction, int | None]] = []
    for x in cards:
        legal = sorted(game.legal())
        up = game.to_move in mx
        before = game.copy()
        game.play(x)
        try:
            if game.over:
                after = sum((a * b for a, b in zip(w, game.score())), Fraction(0))
            elif len(legal) == 1:
                after = cur
            else:
                # (a maximiser's card is worth at most the value, a minimiser's at least)
                rest = cur - taken(game)
                pb = root.later(game, prev, (None, rest) if up else (rest, None), end)
                prev = pb
                after = taken(game) + pb.run()
            instead = None
            if after != cur:
                # (a new problem, not the earlier one: the table moved on since)
                pk = root.later(before, prev, end=end)
                prev = pk
                instead = pk.keeping(cur - taken(before), legal)
        except SearchStopped as e:
            if e.reason == "nodes":
                raise e.naming(f"the value after {card_name(x)}") from None
            return value, out, False
        out.append((x, after, instead))
        cur = after
    return value, out, True


#: A search to run within a share of a time limit: called with its seconds (None: no
#: limit) and, when it runs again, the bounds its earlier runs proved (None the first
#: time), it returns the value or raises :class:`SearchStopped`.
Slot = Callable[[float | None, Bounds | None], Fraction]
#: Rerun the searches a time limit stopped while the time left gives each at least this
#: times the time it had (the test that stopped starts again from nothing: the same
#: time would stop it at the same place).
RERUN_FACTOR = 2.0


def _end(time_limit: float | None) -> float | None:
    """When a ``time_limit`` that starts now ends (``time.monotonic()``)."""
    limit = check_seconds(time_limit, "time_limit")
    return None if limit is None else time.monotonic() + limit


def time_share(end: float | None, solves: int) -> float | None:
    """Seconds for the next of ``solves`` searches that must end by ``end``
    (``time.monotonic()``): an equal share of the time left (at least a microsecond:
    a search past the end stops at once with what it proved, nothing)."""
    if end is None:
        return None
    return max((end - time.monotonic()) / max(solves, 1), 1e-6)


def within_time(slots: Sequence[Slot], end: float | None) -> list[Fraction | Bounds]:
    """Run each search in ``slots`` with an equal share of the time left to ``end``
    (what one leaves goes to the next); then, while the time left gives each search it
    stopped at least ``RERUN_FACTOR`` times the share it had, run those again with the
    larger shares, within the bounds their runs so far proved. A search stopped each
    time gets the :class:`Bounds` its runs proved (the tightest of each end); one
    stopped by its node limit raises.
    After a stop on request (``reason`` "stop") the others still run (and stop at once,
    with what they prove by then), and nothing runs again."""
    out: list[Fraction | Bounds | None] = [None] * len(slots)
    had = [0.0] * len(slots)
    todo = list(range(len(slots)))
    asked = False
    while todo:
        for k, i in enumerate(todo):
            share = time_share(end, len(todo) - k)
            had[i] = share or 0.0
            old = out[i]
            try:
                out[i] = slots[i](share, old if isinstance(old, Bounds) else None)
            except SearchStopped as e:
                if e.reason == "nodes":
                    raise
                asked |= e.reason == "stop"
                b = e.bounds
                if isinstance(old, Bounds):  # (each run proved its own: both hold)
                    b = Bounds(max(old.low, b.low), min(old.high, b.high))
                out[i] = b
        stopped = [i for i in todo if isinstance(out[i], Bounds)]
        if end is None or not stopped or asked:
            break
        each = (end - time.monotonic()) / len(stopped)
        todo = [i for i in stopped if each >= RERUN_FACTOR * had[i]]
    return out  # type: ignore[return-value]


def solve_all_seats(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
                    contract: Contract | str, *, trump: int | str | None = None,
                    leader: int | str | Seat, trick: Sequence[int] = (),
                    whole_hand: bool | None = None, tt_bits: int | None = None,
                    node_limit: int | None = None, time_limit: float | None = None,
                    stop=None) -> dict[int, Fraction | Bounds]:
    """Guaranteed value of each seat (seat index → value); see :func:`solve`.
    ``time_limit`` covers the four seats (:func:`within_time`): a seat whose search it
    (or ``stop``) stops gets :class:`Bounds`."""
    def seat(p: int) -> Slot:
        def run(share: float | None, proved: Bounds | None) -> Fraction:
            try:
                return _Problem(deal_or_hands, rules, contract, trump, leader, p, None,
                                None, None, trick, whole_hand, tt_bits, node_limit, None,
                                share, stop).run(proved=proved)
            except SearchStopped as e:
                raise e.naming(f"{Seat(p).name}'s value") from None
        return run
    return dict(zip(range(4), within_time([seat(p) for p in range(4)],
                                          _end(time_limit))))


def _trick_guess(hands: np.ndarray, side: int, trump: int = -1) -> int:
    """Tricks the seats in the bit mask ``side`` will likely take from a full deal (13
    cards a hand; ``trump`` the trump suit, -1 notrump) or a notrump endgame of 6-12
    cards a hand: a least-squares fit to DDS's results, shifted up by 0.3 (a first test
    above the value costs less than one below it). It only says where the tests start
    (BENCHMARKS.md, forty-second session).

    Notrump, fit on 3,000 random deals (``random_deal(k)``, k = 20000-22999, leader
    ``k % 4``): the side's high-card points, its top tricks (in each suit the run of top
    cards it holds, at most its longer holding) and its length (each suit's longer
    holding beyond four cards). With trumps, fit on 600 deals (k = 30000-30599, every
    trump suit and leader): its high-card points, its trumps, its longer trump holding
    and its ruffing shortness (a void 2, a singleton 1, in the side suits of each of its
    hands holding three trumps or more). Within a trick of DDS's answer on about seven
    fresh deals in ten at notrump, three in four with trumps. Notrump endgames, fit on
    2,100 positions (``random_deal(k, 52, n)``, n = 6-12, 300 each, leader ``k % 4``):
    the side's share of the high-card points in play times the tricks left, its top
    tricks, its length; within a trick on about five in six."""
    hcp = tops = long = short = allhcp = 0
    ts = tmax = 0
    tl = bin(int(hands[0])).count("1")
    for s in range(4):
        lanes = [(int(hands[q]) >> (16 * s)) & 0xFFFF for q in range(4)]
        lens = [bin(x).count("1") for x in lanes]
        mine = 0
        mx = 0
        for q in range(4):
            if (side >> q) & 1:
                mine |= lanes[q]
                mx = max(mx, lens[q])
                if s == trump:
                    ts += lens[q]
        allc = lanes[0] | lanes[1] | lanes[2] | lanes[3]
        for r in range(9, 13):
            if (mine >> r) & 1:
                hcp += r - 8
            if (allc >> r) & 1:
                allhcp += r - 8
        run = 0
        for r in range(15, -1, -1):
            if (allc >> r) & 1:
                if not (mine >> r) & 1:
                    break
                run += 1
        tops += min(run, mx)
        long += max(0, mx - 4)
        if s == trump:
            tmax = mx
    if trump < 0 and tl < 13:
        # an endgame: the side's share of the high-card points in play, scaled to the
        # tricks left
        return int(round((0.768 * hcp / max(allhcp, 1) + 0.025) * tl + 0.505 * tops
                         + 0.117 * long - 0.094))
    if trump < 0:
        return int(round(0.432 * hcp + 0.187 * tops + 0.18 * long - 2.373))
    for q in range(4):
        tq = bin((int(hands[q]) >> (16 * trump)) & 0xFFFF).count("1")
        if (side >> q) & 1 and tq >= 3:
            for s in range(4):
                if s != trump:
                    short += max(0, 2 - bin((int(hands[q]) >> (16 * s)) & 0xFFFF).count("1"))
    return int(round(0.388 * hcp + 0.869 * ts + 0.281 * tmax + 0.418 * short - 7.789))


def solve_stats(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
                contract: Contract | str, **kw) -> tuple[Fraction, dict[str, int]]:
    """:func:`solve` plus search counters.

    ``nodes`` (all), ``tests`` (null-window searches), ``tt_hits`` (entries found),
    ``tt_stores`` (entries written), ``cut_first`` / ``cut_later`` (cutoffs by the first /
    a later move), ``keyed_cards`` / ``stored_cards`` (cards whose owner an entry fixes /
    cards in stored positions), ``boundary_nodes`` (positions between tricks) and how many
    of those the cheap bounds, quick tricks and table entries settled.
    """
    keys = ("trump", "leader", "seat", "side", "weights", "maximizers", "trick",
            "whole_hand", "tt_bits", "node_limit", "bounds")
    args = {k: kw.get(k) for k in keys}
    args["trick"] = args["trick"] or ()
    pb = _Problem(deal_or_hands, rules, contract, **args)
    v = pb.run()
    st = pb.stats
    return v, {"nodes": int(st[0]), "tests": int(st[1]), "tt_hits": int(st[2]),
               "tt_stores": int(st[3]), "cut_first": int(st[4]),
                "cut_later": int(st[5]), "keyed_cards": int(st[6]), "stored_cards": int(st[7]),
                "boundary_nodes": int(st[9]), "bound_cuts": int(st[10]),
                "quick_trick_cuts": int(st[11]), "tt_cuts": int(st[12])}


__all__ = ["solve", "solve_cards", "solve_all_seats", "solve_stats", "objective",
           "card_name", "score_sign", "declarer_bet_bounds", "solve_from_value", "Bounds",
           "solve_line",
           "SearchStopped", "time_share", "within_time"]

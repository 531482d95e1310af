"""Dominoes (Fan Tan) double-dummy solving: the Python API over :mod:`solvers.dominoes`.

Every Dominoes variant of ``rules.md`` ("Dominoes (Fan Tan)", "French classic",
"Le Barbu, 32 cards"): a starting rank named by the declarer, fixed by the preset (the 10
of ``classic-32``) or set by the first card (``barbu-32``); ace high or low; ace replay;
passes; each preset's places table; 52 and 32 cards. The reference for every rule is
:class:`analyzer.engine.DominoesGame`, which also validates positions here.

Values follow design.md ("Solution concepts"): the objective is ``sum(w[p] * s[p])`` of
the seats' place points ``s`` (the places of seats already out included), seats in
``maximizers`` maximise it and the others minimise. ``seat=X`` is the guaranteed value of
X (``w = e_X``, maximiser ``{X}``).

Layout notation
---------------
A position in progress gives the cards on the table as one run per suit::

    "S:5-9 H:- D:7 C:x"

* ``SUIT:RUN`` items separated by spaces or commas, suits ``S H D C`` (or ♠♥♦♣), each at
  most once, in any order; a suit left out is unopened. The empty string, or ``-``, is
  the empty table.
* ``RUN`` is ``-`` (unopened), one rank (``7``: only the starting card is down), ``L-H``
  (the run from its low end ``L`` to its high end ``H``, in the preset's ace order: with
  the ace low a run may read ``A-4``), or ``x`` (the whole suit is down). Ranks are
  ``2-9 T J Q K A``; ``10`` is read as ``T``.

:func:`format_layout` writes the canonical form: the four suits in order, ``-`` for an
unopened suit (``"S:5-9 H:- D:7 C:7-A"``).

>>> lay = parse_layout("S:5-9 D:7 C:x", 52)
>>> lay
((3, 7), None, (5, 5), (0, 12))
>>> format_layout(lay)
'S:5-9 H:- D:7 C:2-A'
>>> parse_layout("S:A-4", 52, ace="low")
((12, 2), None, None, None)
>>> parse_layout("S:7-7 H:7", 32)
((5, 5), (5, 5), None, None)
"""

from __future__ import annotations

import threading
from fractions import Fraction
from numbers import Integral
from itertools import permutations
from math import lcm
from typing import Iterable, Sequence

import numpy as np

from analyzer.cards import (DECK_RANKS, RANK_CHARS, Deal, Rank, Seat, Suit, as_hands, as_rank,
                            as_seat, as_seats, as_weights, card_name)
from analyzer.engine import PASS, DominoesGame
from analyzer.errors import BarbuError
from analyzer.kernels import before_search
from analyzer.options import contract_options
from analyzer.rules import Contract, Rules, load_rules
from solvers.dominoes import _solve

Run = tuple[int, int] | None
Layout = tuple[Run, Run, Run, Run]

__all__ = ["PASS", "Layout", "parse_layout", "format_layout", "run_order",
           "solve_dominoes", "solve_dominoes_cards", "solve_dominoes_all_seats",
           "solve_dominoes_line", "review_dominoes_line",
           "dominoes_rank_table", "dominoes_first_seat", "dominoes_ranks"]


# ----------------------------------------------------------------------------- layout
def run_order(deck: int, ace: str = "high") -> tuple[int, ...]:
    """Ranks (``Rank`` values) along a run, low end first.

    >>> "".join(RANK_CHARS[r] for r in run_order(32, "low"))
    'A789TJQK'
    """
    if deck not in DECK_RANKS:
        raise BarbuError(f"bad deck size {deck}: expected 52 or 32")
    if ace not in ("high", "low"):
        raise BarbuError(f"bad ace order {ace!r}: expected high or low")
    return tuple(sorted(DECK_RANKS[deck], key=lambda r: (r + 1) % 13 if ace == "low" else r))


def _parse_rank(text: str, where: str, deck: int) -> int:
    try:
        r = int(Rank.parse(text))
    except BarbuError:
        raise BarbuError(f"bad layout {where}: {text!r} is not a rank (2-9, T, J, Q, K, A)"
                         ) from None
    if r not in DECK_RANKS[deck]:
        raise BarbuError(f"bad layout {where}: rank {RANK_CHARS[r]} is not in the "
                         f"{deck}-card deck")
    return r


def parse_layout(text: str, deck: int = 52, *, ace: str = "high") -> Layout:
    """Parse a layout (the cards on the table in Dominoes); see the module docstring.

    Parameters
    ----------
    text : str
        For example ``"S:5-9 H:- D:7 C:x"``.
    deck : int
        52 or 32 (which ranks exist, and what ``x`` means).
    ace : {"high", "low"}
        The preset's ace order (``Contract.ace``): which way a run reads.

    Returns
    -------
    tuple of 4 items, per suit ``None`` (unopened) or ``(low_rank, high_rank)``.

    Raises
    ------
    BarbuError
        One line naming the bad item.
    """
    order = run_order(deck, ace)
    pos = {r: i for i, r in enumerate(order)}
    t = str(text).strip()
    runs: list[Run] = [None, None, None, None]
    if t in ("", "-"):
        return tuple(runs)  # type: ignore[return-value]
    seen: set[int] = set()
    for item in t.replace(",", " ").split():
        suit_text, colon, run = item.partition(":")
        if not colon:
            raise BarbuError(f"bad layout item {item!r}: expected SUIT:RUN, like S:5-9")
        try:
            s = int(Suit.parse(suit_text))
        except BarbuError:
            raise BarbuError(f"bad layout item {item!r}: {suit_text!r} is not a suit "
                             "(S, H, D, C)") from None
        if s in seen:
            raise BarbuError(f"bad layout {text!r}: suit {'SHDC'[s]} given twice")
        seen.add(s)
        run = run.strip().upper()
        if run in ("-", ""):
            continue
        if run == "X":
            runs[s] = (order[0], order[-1])
            continue
        ends = run.split("-")
        if len(ends) == 1:
            r = _parse_rank(ends[0], repr(item), deck)
            runs[s] = (r, r)
        elif len(ends) == 2:
            lo = _parse_rank(ends[0], repr(item), deck)
            hi = _parse_rank(ends[1], repr(item), deck)
            if pos[lo] > pos[hi]:
                raise BarbuError(f"bad layout item {item!r}: write the run low end first "
                                 f"(ace {ace}: {RANK_CHARS[hi]}-{RANK_CHARS[lo]})")
            runs[s] = (lo, hi)
        else:
            raise BarbuError(f"bad layout item {item!r}: expected -, x, a rank or LOW-HIGH")
    return tuple(runs)  # type: ignore[return-value]


def format_layout(layout: Sequence[Run] | None) -> str:
    """Canonical text of a layout: ``"S:5-9 H:- D:7 C:7-A"`` (inverse of parse_layout)."""
    runs = [None] * 4 if layout is None else list(layout)
    if len(runs) != 4:
        raise BarbuError("a layout needs an entry per suit")
    parts = []
    for s, run in enumerate(runs):
        if run is None:
            parts.append(f"{'SHDC'[s]}:-")
        elif run[0] == run[1]:
            parts.append(f"{'SHDC'[s]}:{RANK_CHARS[run[0]]}")
        else:
            parts.append(f"{'SHDC'[s]}:{RANK_CHARS[run[0]]}-{RANK_CHARS[run[1]]}")
    return " ".join(parts)


# ------------------------------------------------------------------- transposition table
class _Table:
    """The kernel's transposition table, kept between solves (generation-stamped keys)."""

    BITS = 20

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.tt = np.zeros((0, 4), dtype=np.int64)
        self.gen = 0

    def take(self) -> tuple[np.ndarray, int, int]:
        """The table, its size in bits and a fresh generation stamp (hold ``lock``)."""
        n = 1 << self.BITS
        if self.tt.shape[0] != n or self.gen >= (1 << 22) - 1:
            self.tt = np.zeros((n, 4), dtype=np.int64)
            self.tt[:, 0] = -1
            self.gen = 0
        self.gen += 1
        return self.tt, self.BITS, self.gen << 40


_TABLE = _Table()


# ---------------------------------------------------------------------------- compiling
def _rules(rules: Rules | str | None) -> Rules:
    return rules if isinstance(rules, Rules) else load_rules(rules)  # type: ignore[arg-type]


def _contract(rules: Rules, contract: Contract | str) -> Contract:
    if isinstance(contract, Contract):
        c = contract  # played as given, its places included (a variant of the preset's)
    elif isinstance(contract, str):
        c = rules.contract(contract)
    else:
        raise BarbuError(f"bad contract {contract!r}: a contract id like 'dominoes'")
    if not c.is_dominoes:
        raise BarbuError(f"{c.id} is not a dominoes contract")
    return c


def _hands(deal_or_hands: Deal | Sequence[Iterable[int]]) -> list[set[int]]:
    if isinstance(deal_or_hands, Deal):
        return [set(h) for h in deal_or_hands.hands]
    hs = as_hands(deal_or_hands)
    if len(hs) != 4:
        raise BarbuError(f"a position needs four hands, got {len(hs)}")
    return hs


def _rank_arg(start_rank: int | str | Rank | None) -> int | None:
    if start_rank is None:
        return None
    return as_rank(start_rank, "starting rank")


def _objective(seat: int | str | Seat | None, weights: Sequence | None,
               maximizers: Iterable | None, default_seat: int
               ) -> tuple[list[Fraction], frozenset[int]]:
    if weights is None:
        if maximizers is not None:
            raise BarbuError("maximizers need weights (or give a seat)")
        x = default_seat if seat is None else as_seat(seat)
        return [Fraction(int(i == x)) for i in range(4)], frozenset([x])
    if seat is not None:
        raise BarbuError("give either a seat or weights and maximizers, not both")
    if maximizers is None:
        raise BarbuError("weights need the set of maximizing seats")
    w = list(as_weights(weights))
    return w, frozenset(as_seats(maximizers, "maximizers"))


def _iterable(x: object) -> bool:
    try:
        iter(x)  # type: ignore[call-overload]
        return True
    except TypeError:
        return False


def _is_layout(layout: object) -> bool:
    """Four items, each None or a pair of whole numbers (the API's layout).

    >>> _is_layout([(3, 7), None, None, None]), _is_layout([(True, 7), None, None, None])
    (True, False)
    """
    def rank(x: object) -> bool:
        return isinstance(x, Integral) and not isinstance(x, bool)
    try:
        runs = list(layout)  # type: ignore[call-overload]
        return len(runs) == 4 and all(
            run is None or (len(run) == 2 and rank(run[0]) and rank(run[1])) for run in runs)
    except TypeError:
        return False


def _game(rules: Rules, c: Contract, hands: list[set[int]], first: int | str | Seat,
          start_rank: int | None, layout: Sequence[Run] | str | None,
          out: Sequence[int | str | Seat]) -> DominoesGame:
    f = as_seat(first, "seat to play first")
    if isinstance(layout, str):
        layout = parse_layout(layout, rules.deck, ace=c.ace)
    elif layout is not None:
        given = layout
        layout = list(layout) if _iterable(layout) else layout  # (an iterator read once)
        if not _is_layout(layout) or isinstance(given, dict):
            raise BarbuError(f"bad layout {given!r}: expected a text like \"S:5-9 D:7\", "
                             "or four runs (low rank, high rank) or None, one per suit "
                             "S H D C")
    if isinstance(out, str):
        out = list(out.replace(",", ""))
    try:
        outs = [as_seat(s, "seat already out") for s in out]
    except TypeError:
        raise BarbuError(f"bad list of seats already out: {out!r}") from None
    if len(set(outs)) != len(outs):
        names = "".join("NESW"[s] for s in outs)
        raise BarbuError(f"bad list of seats already out {names!r}: a seat is named twice")
    for p in outs:  # (named first: the order check below would hide it)
        if hands[p]:
            raise BarbuError(f"{Seat(p).name} is listed as out but still holds cards")
    empty = [p for p in range(4) if not hands[p]]
    unlisted = [p for p in empty if p not in outs]
    if unlisted and len(empty) >= 2:
        # the places of seats already out depend on the order they went out in: never guess
        raise BarbuError(f"{len(empty)} seats are already out "
                         f"({''.join('NESW'[p] for p in empty)}): give the order they went "
                         "out in with --out, first out first")
    if not hands[f] and any(hands):
        raise BarbuError(f"{Seat(f).name} is already out (no cards) and cannot play now: "
                         "name the seat to play (--leader)")
    opened = layout is not None and any(run is not None for run in layout)
    if start_rank is None and c.start == "first-card" and opened:
        start_rank = _infer_start(rules, c, layout)
    if (start_rank is not None and c.start == "first-card" and not opened
            and start_rank in DECK_RANKS[rules.deck]
            and not any(card % 13 == start_rank for card in hands[f])):
        raise BarbuError(f"{Seat(f).name} plays first and holds no "
                         f"{RANK_CHARS[start_rank]}: in {rules.name} {c.id} his first card "
                         "sets the starting rank")
    return DominoesGame(rules, c, hands, f, start_rank=start_rank, layout=layout, out=outs)


def dominoes_position(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
                      contract: Contract | str, *, first: int | str | Seat,
                      start_rank: int | str | None = None,
                      layout: Sequence[Run] | str | None = None,
                      out: Sequence[int | str | Seat] = ()) -> DominoesGame:
    """The reference-engine game for a position (same parameters as :func:`solve_dominoes`):
    its ``to_move`` is the seat that plays now (seats already out are skipped)."""
    r = _rules(rules)
    c = _contract(r, contract)
    return _game(r, c, _hands(deal_or_hands), first, _rank_arg(start_rank), layout, out)


def _infer_start(rules: Rules, c: Contract, layout: Sequence[Run]) -> int | None:
    """The starting rank a layout implies (every run contains it), when only one fits, or
    when every suit is open: no card opens a suit any more, so any rank the runs share plays
    the same (the lowest is taken)."""
    order = run_order(rules.deck, c.ace)
    pos = {r: i for i, r in enumerate(order)}
    fits = set(order)
    for run in layout:
        if run is not None:
            if run[0] not in pos or run[1] not in pos:
                return None
            fits &= set(order[pos[run[0]]:pos[run[1]] + 1])
    if not fits:
        raise BarbuError("the layout's runs share no rank: no starting rank fits them all")
    if len(fits) == 1 or (len(layout) == 4 and all(run is not None for run in layout)):
        return min(fits, key=pos.__getitem__)
    return None


class _Compiled:
    """A validated position as kernel arrays, plus the integer scaling of the objective."""

    def __init__(self, g: DominoesGame, w: list[Fraction], maxi: frozenset[int]) -> None:
        c = g.contract
        self.game = g
        self.order = tuple(g.order)
        self.nr = len(self.order)
        own = np.full((4, 16), -1, dtype=np.int8)
        for seat, h in enumerate(g.hands):
            for card in h:
                own[card // 13, g.pos[card % 13]] = seat
        self.own = own
        # free[0 / 1, s, x]: the seat owning every card of suit s from x up / down (else -1);
        # a run towards a replaying ace is never free
        free = np.full((2, 4, 16), -1, dtype=np.int8)
        for s in range(4):
            for x in range(self.nr):
                for d, cells in ((0, own[s, x:self.nr]), (1, own[s, :x + 1])):
                    if cells[0] >= 0 and (cells == cells[0]).all():
                        free[d, s, x] = cells[0]
        if c.ace_replay:
            free[0 if g.pos[12] == self.nr - 1 else 1] = -1
        self.free = free
        self.lo = np.full(4, 99, dtype=np.int64)
        self.hi = np.full(4, -1, dtype=np.int64)
        for s, run in enumerate(g.layout):
            if run is not None:
                self.lo[s] = g.pos[run[0]]
                self.hi[s] = g.pos[run[1]]
        self.cnt = np.array([len(h) for h in g.hands], dtype=np.int64)
        self.sp = -1 if g.start_rank is None else g.pos[g.start_rank]
        self.acep = g.pos[12] if c.ace_replay else -1
        self.k = len(g.out)
        self.outm = sum(1 << s for s in g.out)
        dw = lcm(*(x.denominator for x in w))
        dp = lcm(*(x.denominator for x in c.places))
        # every value is a sum of four weight x place products: keep it well inside the
        # kernel's integers (its infinity is 2^60), counted in Python integers
        if 4 * max(abs(x) for x in w) * dw * max(abs(p) for p in c.places) * dp >= 1 << 56:
            raise BarbuError("points or weights too large, or too finely divided: the "
                             "objective's values would not fit the solver's integers")
        self.scale = Fraction(dw * dp)
        self.w = np.array([int(x * dw) for x in w], dtype=np.int64)
        self.places = np.array([int(x * dp) for x in c.places], dtype=np.int64)
        self.wfrac = w
        self.maxm = sum(1 << s for s in maxi)
        self.const = sum((w[seat] * c.places[i] for i, seat in enumerate(g.out)), Fraction(0))
        vmin = np.zeros(16, dtype=np.int64)
        vmax = np.zeros(16, dtype=np.int64)
        for m in range(16):
            kk = bin(m).count("1")
            if kk >= 3:
                continue
            rest = [s for s in range(4) if not m >> s & 1]
            vals = [sum(int(self.w[s]) * int(self.places[kk + i]) for i, s in enumerate(perm))
                    for perm in permutations(rest)]
            vmin[m] = min(vals)
            vmax[m] = max(vals)
        self.vmin = vmin
        self.vmax = vmax
        rest = [s for s in range(4) if not self.outm >> s & 1]
        self.cand = np.array(sorted({
            sum(int(self.w[s]) * int(self.places[self.k + i]) for i, s in enumerate(perm))
            for perm in permutations(rest)}), dtype=np.int64)

    def card(self, move: int) -> int:
        if move < 0:
            return PASS
        return 13 * (move >> 4) + self.order[move & 15]

    def run(self, every: bool) -> dict[int, Fraction] | Fraction:
        """Solve; ``every``: value of each root move, else the position's value."""
        g = self.game
        if g.over:
            v = sum((wi * si for wi, si in zip(self.wfrac, g.score())), Fraction(0))
            return {} if every else v
        moves = np.zeros(64, dtype=np.int64)
        vals = np.zeros(64, dtype=np.int64)
        stats = np.zeros(4, dtype=np.int64)
        mv = np.zeros((64, 16), dtype=np.int64)
        sc = np.zeros((64, 16), dtype=np.int64)
        hm = np.zeros(64, dtype=np.int64)
        hp = np.zeros(64, dtype=np.int64)
        inf = 1 << 60
        before_search(_solve)
        with _TABLE.lock:
            tt, bits, gen = _TABLE.take()
            n = _solve(self.own, self.free, np.zeros((4, 16), dtype=np.int64),
                       self.lo.copy(), self.hi.copy(), self.cnt.copy(), self.nr, self.sp,
                       self.acep, g.to_move, self.k, self.outm, -inf, inf, self.w,
                       self.places, self.maxm, self.vmin, self.vmax, mv, sc, hm, hp, 0, tt,
                       bits, gen, stats, True, every, moves, vals, self.cand)
        self.stats = stats
        if every:
            return {self.card(int(moves[i])): self.const + Fraction(int(vals[i])) / self.scale
                    for i in range(n)}
        return self.const + Fraction(int(vals[0])) / self.scale


def _compile(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
             contract: Contract | str, first: int | str | Seat, start_rank, layout, out,
             seat, weights, maximizers) -> _Compiled:
    r = _rules(rules)
    c = _contract(r, contract)
    g = _game(r, c, _hands(deal_or_hands), first, _rank_arg(start_rank), layout, out)
    w, maxi = _objective(seat, weights, maximizers, g.to_move)
    return _Compiled(g, w, maxi)


# --------------------------------------------------------------------------------- API
def solve_dominoes(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
                   contract: Contract | str, *, first: int | str | Seat,
                   start_rank: int | str | None = None,
                   layout: Sequence[Run] | str | None = None,
                   out: Sequence[int | str | Seat] = (),
                   seat: int | str | Seat | None = None, weights: Sequence | None = None,
                   maximizers: Iterable | None = None) -> Fraction:
    """Double-dummy value of a Dominoes position (rules.md, "Dominoes (Fan Tan)").

    Parameters
    ----------
    deal_or_hands : Deal or 4 iterables of card indices
        The cards each seat holds now.
    rules, contract
        A preset (or its name) and its ``kind = "dominoes"`` contract (or id).
    first : seat
        The seat to play now (at the start of a hand: see :func:`dominoes_first_seat`).
    start_rank : rank, optional
        ``Rank`` value or text (``"7"``, ``"T"``). Required for ``start = "named"`` (unless
        a ``first-card``-style layout implies it); for ``fixed`` presets it may be left out
        and must equal the preset's; for ``first-card`` presets at the start of a hand it
        restricts the first card to that rank (left out: any card).
    layout : per-suit runs or layout text, optional
        The cards on the table (:func:`parse_layout`); cards on the table plus cards in
        hands must make the whole deck.
    out : seats, optional
        Seats already out, in the order they went out, first out first. Needed when two
        or more seats hold no cards (their places depend on that order); one seat with
        no cards is out first.
    seat : seat, optional
        Guaranteed value of this seat (the others minimise it). Default: the seat to play.
    weights, maximizers : optional
        General linear objective instead of ``seat``: ``sum(weights[p] * score[p])``, with
        the seats in ``maximizers`` maximising and the others minimising.

    Returns
    -------
    Fraction
        The exact minimax value of the objective over the places of the whole hand
        (seats already out included).
    """
    comp = _compile(deal_or_hands, rules, contract, first, start_rank, layout, out, seat,
                    weights, maximizers)
    return comp.run(False)  # type: ignore[return-value]


def solve_dominoes_cards(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
                         contract: Contract | str, *, first: int | str | Seat,
                         start_rank: int | str | None = None,
                         layout: Sequence[Run] | str | None = None,
                         out: Sequence[int | str | Seat] = (),
                         seat: int | str | Seat | None = None, weights: Sequence | None = None,
                         maximizers: Iterable | None = None) -> dict[int, Fraction]:
    """Value of each legal move of the seat to play (card index, or ``PASS`` = -1).

    Same parameters as :func:`solve_dominoes`; the moves are those of
    ``DominoesGame.legal()``. Empty when the hand is over.
    """
    comp = _compile(deal_or_hands, rules, contract, first, start_rank, layout, out, seat,
                    weights, maximizers)
    return dict(sorted(comp.run(True).items()))  # type: ignore[union-attr]


def solve_dominoes_all_seats(deal_or_hands: Deal | Sequence[Iterable[int]],
                             rules: Rules | str, contract: Contract | str, *,
                             first: int | str | Seat, start_rank: int | str | None = None,
                             layout: Sequence[Run] | str | None = None,
                             out: Sequence[int | str | Seat] = ()) -> dict[int, Fraction]:
    """Guaranteed value of each seat (seat → value), same parameters as solve_dominoes."""
    if layout is not None and not isinstance(layout, str) and _iterable(layout):
        layout = list(layout)  # (solved four times: an iterator would be read once)
    return {s: solve_dominoes(deal_or_hands, rules, contract, first=first,
                              start_rank=start_rank, layout=layout, out=out, seat=s)
            for s in range(4)}


def solve_dominoes_line(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
                        contract: Contract | str, *, first: int | str | Seat,
                        start_rank: int | str | None = None,
                        layout: Sequence[Run] | str | None = None,
                        out: Sequence[int | str | Seat] = (),
                        seat: int | str | Seat | None = None, weights: Sequence | None = None,
                        maximizers: Iterable | None = None
                        ) -> tuple[Fraction, list[tuple[int, int]]]:
    """The value and one line of perfect play to the end: ``(value, [(seat, move),
    …])``, a move a card index or ``PASS``. Each move keeps the value (where several
    do, the first legal one in card order; each position's moves solved by
    :func:`solve_dominoes_cards`). Same parameters as :func:`solve_dominoes`."""
    if layout is not None and not isinstance(layout, str) and _iterable(layout):
        layout = list(layout)
    kw = dict(seat=seat, weights=weights, maximizers=maximizers)
    value = solve_dominoes(deal_or_hands, rules, contract, first=first,
                           start_rank=start_rank, layout=layout, out=out, **kw)
    game = dominoes_position(deal_or_hands, rules, contract, first=first,
                             start_rank=start_rank, layout=layout, out=out)
    r = _rules(rules)
    c = _contract(r, contract)
    moves: list[tuple[int, int]] = []
    while not game.over:
        legal = game.legal()
        if len(legal) > 1:
            # (the values are of the whole hand's places: the same along the line)
            vals = solve_dominoes_cards(game.hands, r, c, first=game.to_move,
                                        start_rank=game.start_rank, layout=game.layout,
                                        out=game.out, **kw)
            legal = [m for m in legal if vals[m] == value]
            if not legal:
                raise AssertionError(f"no move keeps the value {value}")
        moves.append((game.to_move, legal[0]))
        game.play(legal[0])
    return value, moves


def review_dominoes_line(deal_or_hands: Deal | Sequence[Iterable[int]], rules: Rules | str,
                         contract: Contract | str, moves: Sequence[int], *,
                         first: int | str | Seat, start_rank: int | str | None = None,
                         layout: Sequence[Run] | str | None = None,
                         out: Sequence[int | str | Seat] = (),
                         seat: int | str | Seat | None = None,
                         weights: Sequence | None = None, maximizers: Iterable | None = None
                         ) -> tuple[Fraction, list[tuple[int, int, Fraction, int | None]]]:
    """The value, then its value after each move actually played from the position:
    ``(value, [(seat, move, value_after, instead), …])``, a move a card index or
    ``PASS``. The values are of the whole hand's places; a move changes it only against
    perfect play, and where it does, ``instead`` is a move that would have kept it (the
    first legal one in card order), else None. A move that is not legal raises
    :class:`BarbuError` (naming its place in ``moves``) before any search. Same
    parameters as :func:`solve_dominoes`; each position with a choice solves its every
    move (:func:`solve_dominoes_cards`)."""
    if layout is not None and not isinstance(layout, str) and _iterable(layout):
        layout = list(layout)
    kw = dict(seat=seat, weights=weights, maximizers=maximizers)
    game = dominoes_position(deal_or_hands, rules, contract, first=first,
                             start_rank=start_rank, layout=layout, out=out)
    check = game.copy()
    for k, m in enumerate(moves, 1):
        what = "pass" if m == PASS else card_name(m)
        if check.over:
            raise BarbuError(f"move {k} of the play ({what}): the hand is over after "
                             f"{k - 1} moves ({check.over_reason()})")
        if m not in check.legal():
            raise BarbuError(f"move {k} of the play: {what} is not a legal move for "
                             f"{Seat(check.to_move).name} (legal: "
                             + " ".join("pass" if x == PASS else card_name(x)
                                        for x in check.legal()) + ")")
        check.play(m)
    value = solve_dominoes(deal_or_hands, rules, contract, first=first,
                           start_rank=start_rank, layout=layout, out=out, **kw)
    r = _rules(rules)
    c = _contract(r, contract)
    cur = value
    entries: list[tuple[int, int, Fraction, int | None]] = []
    for m in moves:
        legal = game.legal()
        after, instead = cur, None
        if len(legal) > 1:
            vals = solve_dominoes_cards(game.hands, r, c, first=game.to_move,
                                        start_rank=game.start_rank, layout=game.layout,
                                        out=game.out, **kw)
            after = vals[m]
            if after != cur:
                instead = next(x for x in sorted(legal) if vals[x] == cur)
        entries.append((game.to_move, m, after, instead))
        game.play(m)
        cur = after
    return value, entries


def dominoes_first_seat(rules: Rules | str, declarer: int | str | Seat) -> int:
    """The seat that plays first in Dominoes (variant ``dominoes_first``: declarer or left)."""
    r = _rules(rules)
    d = as_seat(declarer, "declarer")
    return d if r.variants["dominoes_first"] == "declarer" else (d + 1) % 4


def dominoes_ranks(rules: Rules | str, contract: Contract | str) -> tuple[int, ...]:
    """The starting ranks a declarer may choose: the preset's rank for ``fixed``, every rank
    of the deck otherwise (low to high)."""
    r = _rules(rules)
    c = _contract(r, contract)
    if c.start == "fixed":
        return (int(c.start_rank),)  # type: ignore[arg-type]
    return tuple(DECK_RANKS[r.deck])


def dominoes_rank_table(deal: Deal | Sequence[Iterable[int]], rules: Rules | str,
                        contract: Contract | str, *, declarer: int | str | Seat,
                        seat: int | str | Seat | None = None
                        ) -> list[tuple[int | None, Fraction]]:
    """Value of each starting rank the declarer may name, for ``seat`` (default the
    declarer), whole hand.

    ``named``: every rank of the deck; ``fixed``: the preset's rank; ``first-card``, when
    the declarer plays first: each rank of which he holds a card (his first card sets it).
    When another seat plays the first card (``dominoes_first = "left"``), that seat
    chooses it in play: one row, rank None. The first player follows ``dominoes_first``;
    the ranks are those of :func:`analyzer.options.contract_options`. Returns ``[(rank,
    value), …]``, ranks low to high; the declarer's best is ``max(table, key=lambda t:
    t[1])``.
    """
    r = _rules(rules)
    c = _contract(r, contract)
    hands = _hands(deal)
    first = dominoes_first_seat(r, declarer)
    d = int(Seat.parse(declarer) if isinstance(declarer, str) else declarer)
    x = d if seat is None else seat
    return [(k, solve_dominoes(hands, r, c, first=first, start_rank=k, seat=x))
            for _, k in contract_options(r, c, hands, first, d)]

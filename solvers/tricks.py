"""Double-dummy search for trick contracts: numba kernels, arrays and scalars only.

Encoding (the analyzer's ``compile`` step produces every array here)::

    card id   c = 16 * suit + rank     (bit c of a uint64 hand; rank 0 = the 2, 12 = the ace)
    hands     uint64[4]                one bitboard per seat, one 16-bit lane per suit
    tbuf      int64[64]                cards of the trick in progress at 4 * tl + i
    P         int64[P_SIZE]            rules and objective parameters (``P_*`` indices,
                                       below ``NPARAM``), then the problem's arrays at
                                       fixed offsets, which kernels view as:
    w         P[O_W:][:4]              objective weights (scaled integers)
    pts       P[O_PTS:][:64]           points of each card id (scaled integers)
    tpl       P[O_TPL:][:16]           points of a trick when ``tl`` tricks remain (tl >= 1)
    tHi, tLo  P[O_THI:], P[O_TLO:]     bounds of the tricks' contribution, by tricks left
    cHi, cLo  P[O_CHI:], P[O_CLO:]     bounds of each card's contribution
    tps       P[O_TPS:][:16]           prefix sums of tpl (tps[k] = tpl[1] + ... + tpl[k])
    cls       P[O_CLS:][:64]           class of each card id: cards of one class are alike
                                       for scoring (points, forced discard, stop)
    clm       P[O_CLM:][:16]           the cards of each class (bitboards as int64)

The search is a two-sided alpha-beta over a linear objective ``sum(w[p] * score[p])``:
seats in the ``P_MAXMASK`` bit mask maximise, the others minimise. ``_search`` answers a
null-window question ("is the value from here at least ``needed``?") and ``_solve`` steps
a binary search over the objective's value grid (multiples of ``P_GRID``; from the top
down for ``P_DOWN``).

Speed-ups, after Bo Haglund's description of DDS:

* only one card of each run of cards that are adjacent among the cards still in play, in
  one hand, and alike for scoring (``cls``); and once a card has been searched without a
  cutoff, none of the same hand, suit and class that, like it, lies below every card of
  the suit whose rank decided the answer (``_eq_later``);
* move ordering by the predicted winner of the trick (the later seats' duck-or-high
  choices played out, each for its role) and its points (with the scoring cards void
  seats would discard on it), the table's best lead first; leads in suits where the
  other side holds few cards (void: all its cards count, as discards) come first, which
  keeps proofs narrow, and in notrump a side that wants tricks first leads a suit each
  opponent holds one card of at most (the cards it keeps there become winners), and
  each card a seat of it leads or plays second or third scores the sure tricks its side
  has once the trick is played out as predicted (``_la_trick``: a lead that knocks out a
  stopper before one that cashes a winner); a lead
  that refuted the first try at the same ply elsewhere (a killer move) scores more, and
  so does such a play inside a trick for a seat with one teammate (bridge-like sides,
  not a paranoid negative objective); a defender of a paranoid negative objective plays
  a scoring card to a trick the declarer takes, not to one that a seat of no weight
  takes (``KEEP_W``); in a No Tricks bet the seat at its other end, a defender who wants
  no tricks either, leads from his own short suits (``BSH_W``); cheap first: a node
  whose first move has not settled the test within ``P_PROBE_FIRST`` nodes probes each
  other move with ``P_PROBE`` nodes (a proof the ordering could not foresee is often
  that short) before it searches the rest in full (``analyzer.solve`` sets it only
  without trumps);
* cheap bounds: the objective can move only by the points still to be taken; quick
  tricks of the leader's team when every trick is worth the same (bridge, Trumps, No
  Tricks), in notrump a trick for one side when the other cannot take them all
  (``_short_of_all``: where one trick decides the test) and, for the side not on lead,
  the trick it surely wins whatever is led and its quick tricks after it
  (``_reply_qt``), with trumps the tricks each seat's trumps cannot help taking,
  whoever leads
  (its trumps less the most that the others' higher trumps can beat one to one;
  ``_trumps_cut``), and a lead the leader's side surely loses (``_lead_lost``; in
  notrump with the winner's cashing tricks, ``_lost_cash``); in notrump mid-trick, the
  sure winner of the trick in progress and its cashing tricks (``_mid_bound``); for a
  paranoid negative objective (``P_NEG``), tricks the declarer surely avoids or must
  take (``_neg_bounds``), and in No Tricks (every trick scores the same) tricks he
  surely loses, so that a test with slack stops early (``_neg_lose1``, ``_neg_lose2``,
  ``_neg_exits``, ``_neg_lose_one``, ``_neg_lb``), also at a trick's second and third
  seat once he surely does not take it, and at a trick's start (with one or two tricks
  to lose) when he ducks every lead or leads an exit (``_neg_mid``, ``_neg_lead_duck``,
  ``_neg_d_exit``: the tricks after it, ``_neg_after``); for a bet of such a declarer
  against opponents (``P_NEG_BET``: the opponents' points, all <= 0, weigh < 0, so they
  only add to the value) the same lower bounds, the upper ones left out
  (``analyzer.solve`` sets it wherever every point is <= 0, as in every negative
  contract); the last trick is played out directly;
* a transposition table at trick boundaries (preallocated arrays, ``2 ** P_TTBITS``
  slots). The exact part of a position (leader, tricks left, path state, each hand's
  suit lengths, the layout of scoring classes) is hashed to a slot of a head array (open
  addressing); the slot lists the groups of entries stored for that exact part (one
  group per set of keyed cards), and each group's entries, with lower and upper bounds
  and the best lead, are found by hashing their owner codes. An entry keys, per suit,
  the owners of the cards from the top down to the lowest card whose rank decided
  something in the search below
  (trick won by rank, quick-trick top cards; at least ``TOP_KEYED`` of them), and of
  every card whose scoring class is not the suit's most common one (with the suit
  lengths, that fixes how many cards of each class each hand holds). Any position that agrees on those shares the entry: cards below
  are interchangeable small cards (the DDS "winning ranks" idea, with relative ranks).
  Groups are unbounded, so general entries never crowd each other out; when the entry
  pool is three-quarters full the table starts afresh. From ``TT_FIRST_TL`` tricks left
  a trick start looks the table up before it computes the bounds (in notrump, and where
  the paranoid declarer's ``_neg_bounds`` run): an entry that decides saves their work.

Mid-trick positions are searched directly; whole-hand bonuses and Ravage City use a
little path state (sole taker of the tricks, sole taker of the scoring cards, cards of
each suit taken by each seat), which is part of the exact key.

Numba notes: recursive calls pass ``np.int64`` values, never bare literals, so that the
self-recursive ``_node`` compiles to one signature (several overloads of a recursive
function crash numba 0.68 when reloaded from the cache). ``_node`` takes ``mbuf`` and
scalars only and rebuilds its other arrays from their addresses (``mbuf[MB_CTX]``,
written by ``_search``): numba passes an array as 7-9 words, so a recursive call with all
twelve copied about 95 words a node, and in some builds (by the size of the stack frame,
that is by chance) those copies ran six times slower, the whole search twice
(BENCHMARKS.md, twenty-third session). The helpers likewise take ``np.int64`` and
``np.bool_`` values where a call passes a constant, and a counter that one gets starts as
``np.int64(0)``: a literal argument, or a variable typed as one before ``n += 1`` widens
it, compiles the whole helper again for that constant (103 signatures where 90 do; the
first compile took about 15% more CPU, the search the same: BENCHMARKS.md, sixty-sixth
session). No index is ever negative: this module's functions are compiled without
numba's wraparound of negative indices (``solvers.config._no_wraparound``), so a -1
"none" must be tested before it indexes anything (``tests/test_no_wrap.py`` runs the
kernel under numba's bounds checks).
"""

import numpy as np
from llvmlite import ir as llir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from solvers.config import NUMBA_OPTS

# parameter indices in P
P_TRUMP = 0
P_LEAD_BEAT = 1
P_VOID_RUFF = 2
P_OVERTRUMP = 3
P_HEART_BAN = 4       # 0 free, 1 always, 2 first trick of a whole hand
P_FIRST_TL = 5        # tricks of the root position (for the first-trick ban)
P_WHOLE = 6
P_MAXMASK = 7
P_BONUS_T = 8         # all-tricks bonus active
P_BONUS_T_ADJ = 9     # bonus minus the additive points of the whole position
P_BONUS_C = 10        # all-cards bonus active
P_BONUS_C_ADJ = 11
P_RAVAGE = 12         # scaled Ravage City total (0: none)
P_KWORDS = 13         # words of a transposition-table key
P_CBITS = 14          # bits of a card class in the key
P_TTBITS = 15
P_ADJ_LO = 16         # bounds of the terminal adjustment (bonus / ravage)
P_ADJ_HI = 17
P_GRID = 18
P_USE_TT = 19
P_QT = 20             # quick-trick bounds apply (every trick worth the same, nothing else)
P_TRUMP_EXACT = 21    # trump ranks decide legality (must beat / overtrump): key them all
P_NODE_LIMIT = 22     # give up after this many nodes (0: no limit); stats[8] = 1 then
P_PSIGN = 23          # +1 when taking points is good for a seat of weight +1, -1 when bad
P_NEG = 24            # 1 + the declarer of a paranoid negative objective (0: not that shape)
P_NEG_UNI = 25        # P_NEG shape: tricks left up to which every trick scores the same
                      # nonzero amount (tpl[1] == ... == tpl[k] != 0; 0: none)
P_TPL_MONO = 26       # the most tricks left t with tpl[1] <= tpl[2] <= ... <= tpl[t]
P_TT_GROW = 27        # 1: when the entry pool fills, stop (stats[8] = 2) so that the caller
                      # can move it into a larger table (_tt_rehash) and rerun the test in
                      # progress; 0: empty the table and go on
P_DOWN = 28           # 1: _solve tests the grid's values from the top down, not by halves
P_EQ_SKIP = 29        # 1: skip the moves that _eq_later finds alike to a searched one

P_KILL_F = 30         # seats whose plays inside a trick use the killer move (bit mask)
P_NEG_LONG = 31       # P_NEG shape: a defender leads the declarer's long suits first (his
                      # tricks score, or only hearts score and no card stops the hand)
P_NEG_BET = 32        # P_NEG shape, but other seats weigh < 0 (a bet "declarer minus
                      # opponents"): their points only add to the value, so the declarer's
                      # lower bounds hold, his upper bounds do not
P_PROBE = 33          # cheap first (0: off): a node whose first move has not settled
P_PROBE_FIRST = 34    # within P_PROBE_FIRST nodes tries each other move with P_PROBE nodes
P_PROBE_TL = 35       # before it searches the rest in full; from P_PROBE_TL tricks left
P_ETC_TL = 36         # from this many tricks left (0: never), the fourth seat first looks
                      # each card's next trick start up in the table (_etc)
P_SIDE_NT = 37        # 1: notrump, no card scores, every trick scores the same > 0,
                      # partners sit opposite and the maximisers' side weighs more:
                      # _order takes its lean path (_order_snt), whose trick goes to
                      # the side holding its best card (_side_winner)
P_NEG_DUCK = 38       # 1: P_NEG shape, not a bet (the three defenders weigh 0): where the
                      # declarer would rather not take a trick, _follow's play-out is
                      # everyone ducking
P_QT_HB = 39          # 1: _quick_tricks skips the unblocking entry card where it cannot
                      # count more than the lowest one (no overtake in sight)
NPARAM = 40
# the problem's arrays live in P after the scalar slots (one array argument instead of
# nine: numba passes each array as seven words, and the pushes of those arguments were
# about 40% of _search's own time)
O_W = 40              # weights of the objective, by seat (4)
O_PTS = 48            # points of each card, by bit position (64)
O_TPL = 112           # points of the trick with k tricks left, k = 1..13 (16)
O_THI = 128           # upper / lower bound of the tricks' contribution, by tricks left
O_TLO = 144
O_CHI = 160           # upper / lower bound of each card's contribution
O_CLO = 224
O_CLS = 288           # scoring class of each card (table keys)
O_TPS = 352           # tpl[1] + ... + tpl[k], by k (16)
O_CLM = 368           # the cards of each class, by class (16 bitboards, int64 patterns)
P_SIZE = 384

# The table: ``ttk``/``ttd[:n]`` map the exact part of a key to a head slot (open
# addressing); ``ttd[head]`` = 1 + the first *group* of that exact part. A group is a row
# of ``tte``: 0, 1 the owner-code masks of its entries, 2 the keyed prefix lengths (4 bits
# a suit: the masks follow from them), 3 = 1 + the next group, 4..7 a 256-bit filter of
# its entries' hashes, two bits an entry (a probe skips the group's lookup, a cache
# miss, when either bit is clear). An entry is a row of ``tte`` (uint64[n, 8], one cache
# line): 0, 1 the masked owner codes, 2, 3 the masks, then (int64 bit patterns) the
# lower and upper bounds, the best lead (relative index, -1 none) and the prefix lengths
# | head << 16. Entries are found by hashing (head, prefix lengths, codes) into
# ``ttd[n:]`` (1 + the entry, and a fingerprint of the hash << 32, checked before the
# entry's row is read): a probe costs one lookup per group, not one step per entry (a
# 13-card No Tricks search had chains of 1,700 entries in 38 groups).
TE_LB = 4
TE_UB = 5
TE_MV = 6
TE_P = 7
TT_FULL_QUARTERS = 3  # the entry pool counts as full (grow, or empty it) at 3/4 of its rows
NTE = 8

DIS_W = -4            # negative contracts: weight of a discard's suit length (short first)
DDIS_W = -16          # the same for the declarer's discards
DLEAD_NL_W = 64       # where the tricks left score apart (No Last Two), the declarer's lead:
                      # weight of each choice the defenders have in the suit
DLEAD_CARDS_W = 128   # the same where only cards score (No Queens, No Hearts, No King)
OPT_W = 32            # lead ordering: weight of each card the other side holds in the suit
OPT_LA_W = 16         # the same where the notrump look-ahead scores the lead, from
OPT_LA_TL = 7         # this many tricks left (BENCHMARKS.md, forty-second session)
DLEN_W = 16          # No Tricks, a defender's lead: weight of each card the declarer holds in the suit
DSC_W = -96          # a defender's lead: a suit where the declarer holds a scoring card
KEEP_W = 16          # a paranoid defender's scoring card played to a trick no weighted
                     # seat wins: less by this much a point (kept for the declarer's tricks)
DSH_W = 48           # No Tricks, the declarer's lead: weight of each card he holds in the suit
BSH_W = 48           # No Tricks, a bet's other seat leading: weight of each card he holds
TT_FIRST_TL = 4      # from this many tricks left, the table before the bounds (not everywhere)
LA_W = 48            # notrump ordering: weight of each sure trick the mover's side has once
                     # the trick is played out as predicted after his card (``_la_trick``)
REPLY = True         # notrump: the side not on lead wins any lead and then cashes
                     # (``_reply_qt``); off only to measure it (BENCHMARKS.md, forty-first
                     # session)
QT_AFTER = True      # quick tricks: the partner's cards that the leader's cashing promotes
                     # count after the entry; off only to measure it (BENCHMARKS.md,
                     # forty-first session)
QT_CHEAP = True      # quick tricks: the partner may win the entry cheaply (a finesse);
                     # off only to measure it (BENCHMARKS.md, thirty-ninth session)
LATER = True         # notrump: a side that cannot take every trick left loses one
                     # (``_short_of_all``); off only to measure it
MID_TEAM = True      # notrump mid-trick bound: the winner's team count once his partner
                     # has played; off only to measure it (the same)
LA_TL = 4            # ... from this many tricks left
EST_W = 96            # notrump lead ordering: weight of each winner the lead establishes
KILLER_W = 128        # lead ordering: bonus of the lead that last refuted this ply's first try
KILLER_F = 32         # the same inside a trick (only for the seats in P_KILL_F)
CANON = True          # entries leave out a suit's lowest run of one seat's cards (_tt_store)
TOP_KEYED = 0         # an entry always keys the owners of this many top cards a suit

# Search-shape counters for diagnosis (``benchmarks/levels.py``), off in the shipped
# kernels: numba freezes module globals at compile time, so with ``LEVEL_STATS = False``
# the counting code is compiled out. On, ``stats`` must hold ``STATS_SIZE`` slots:
# ``stats[LV_SEEN + tl]`` trick-boundary nodes reached with ``tl`` tricks left,
# ``stats[LV_OPEN + tl]`` those searched move by move (no bound or table entry decided
# them), ``stats[LV_HELD + tl]`` those of them whose test held; and every
# ``stats[LV_EVERY]``-th searched node with ``stats[LV_TL]`` tricks left is recorded in
# ``stats[LV_REC:]``, ``LV_RECW`` slots each (the four hands, the leader, ``needed``, the
# result, the nodes its search took), ``stats[LV_NREC]`` of them, at most ``LV_MAXREC``;
# ``stats[LV_LATE + tl]`` the nodes with ``tl`` tricks left (at any seat of the trick)
# where a move after the first tried settled the test, outside probes, and
# ``stats[LV_WASTE + tl]`` the nodes their earlier moves took (nested: a node inside
# another's earlier moves counts at both). Each such late cut with at least
# ``stats[LV_LATE_TL]`` tricks left is recorded in ``stats[LV_LREC:]``, ``LV_LRECW`` slots
# each (tricks left, cards played to the trick, seat, the cutting move's index, the
# number of moves, the nodes the earlier moves took, those the cutting move took, the
# card, the first card tried, ``needed``, the leader, the four hands),
# ``stats[LV_NLATE]`` of them, at most ``LV_MAXLATE``.
LEVEL_STATS = False
LV_SEEN = 16
LV_OPEN = 32
LV_HELD = 48
LV_TL = 64
LV_EVERY = 65
LV_NREC = 66
LV_NLATE = 70
LV_LATE_TL = 71
LV_LATE = 72
LV_WASTE = 88
LV_REC = 104
LV_RECW = 8
LV_MAXREC = 1000
LV_LREC = LV_REC + LV_RECW * LV_MAXREC
LV_LRECW = 16
LV_MAXLATE = 4000
STATS_SIZE = LV_LREC + LV_LRECW * LV_MAXLATE if LEVEL_STATS else 16
# ``stats[8]``, a search's stop flag: 1 the node limit, 2 the table's entry pool is full
# (P_TT_GROW), 3 a probe ran out of nodes (cleared by the node that started it).
#: The row of ``mbuf`` (one row a ply, 56 used) whose column 0 holds the node count at
#: which a probe stops (0: no probe running).
MB_PROBE = 63
#: The row of ``mbuf`` with the addresses and shapes of the search's arrays (``_search``).
MB_CTX = 62

# mask indices
M_FORCED = 0
M_STOP = 1
M_SCORING = 2
NMASK = 3

HEARTS = 1
LANE = np.uint64(0xFFFF)


def _as_i64(builder, ty, v):
    """An integer argument widened to 64 bits (sign or zero extended as its type says)."""
    if ty.bitwidth < 64:
        return builder.sext(v, _I64) if ty.signed else builder.zext(v, _I64)
    return v


# The bit scans and counts of a suit's lane, as LLVM intrinsics (one instruction each
# where the CPU has it) rather than loads from three 64 KiB tables, as they were until the
# forty-fifth session: x0.97 CPU on bridge notrump, the same nodes (BENCHMARKS.md).
_I64 = llir.IntType(64)
_FALSE = llir.Constant(llir.IntType(1), 0)


def _bit_op(name, emit, doc):
    """An intrinsic ``int64 name(x)`` for any integer ``x`` (widened to 64 bits), its
    code ``emit(builder, v)``."""
    def typer(typingctx, x):
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            return emit(builder, _as_i64(builder, x, args[0]))
        return types.int64(x), codegen
    typer.__name__ = typer.__qualname__ = name
    typer.__doc__ = doc
    return intrinsic(typer)


_hib = _bit_op("_hib", lambda b, v: b.sub(llir.Constant(_I64, 63), b.ctlz(v, _FALSE)),
               "Index of the highest set bit of the integer ``x`` (-1 for 0).")
_lob = _bit_op("_lob", lambda b, v: b.select(b.icmp_unsigned("==", v, llir.Constant(_I64, 0)),
                                             llir.Constant(_I64, -1), b.cttz(v, _FALSE)),
               "Index of the lowest set bit of the integer ``x`` (-1 for 0).")
_pcnt = _bit_op("_pcnt", lambda b, v: b.ctpop(v), "Number of set bits of the integer ``x``.")


def _byte_tables():
    """``PEXT8[m << 8 | x]``: the bits of byte ``x`` selected by byte ``m``, packed low
    (x86 ``pext`` on one byte); ``SPREAD8[x]``: bit i of byte ``x`` moved to bit 2 i.
    (Built with numpy: a Python loop took 37 ms of every process's start.)"""
    m = np.arange(256, dtype=np.int64)[:, None]
    x = np.arange(256, dtype=np.int64)[None, :]
    v = np.zeros((256, 256), dtype=np.int64)
    j = np.zeros((256, 1), dtype=np.int64)
    for i in range(8):
        sel = (m >> i) & 1
        v |= sel * (((x >> i) & 1) << j)
        j = j + sel
    xs = np.arange(256, dtype=np.uint64)
    spread = np.zeros(256, dtype=np.uint64)
    for i in range(8):
        spread |= ((xs >> np.uint64(i)) & np.uint64(1)) << np.uint64(2 * i)
    return v.reshape(65536).astype(np.uint16), spread


PEXT8, SPREAD8 = _byte_tables()


def _bmi2() -> bool:
    """Does the code numba builds here have x86 ``pext`` / ``pdep`` (BMI2)? Only where it
    compiles for this very CPU (no ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES``)."""
    try:
        import llvmlite.binding as llb
        from numba.core import config
        if config.CPU_NAME or config.CPU_FEATURES:
            return False
        if llb.get_host_cpu_name() in ("znver1", "znver2"):
            return False  # (AMD Zen 1-2 run pext / pdep in microcode, slower than tables)
        return bool(llb.get_host_cpu_features().get("bmi2", False))
    except Exception:  # pragma: no cover - another platform or numba
        return False


HAS_BMI2 = _bmi2()


def _x86_bmi2(name):
    """An intrinsic ``uint64 f(x, m)`` calling the x86 BMI2 instruction ``name``."""
    def typer(typingctx, x, m):
        if not (isinstance(x, types.Integer) and isinstance(m, types.Integer)):
            return None

        def codegen(context, builder, signature, args):
            fnty = llir.FunctionType(_I64, [_I64, _I64])
            fn = cgutils.get_or_insert_function(builder.module, fnty, name)
            return builder.call(fn, [_as_i64(builder, x, args[0]),
                                     _as_i64(builder, m, args[1])])
        return types.uint64(x, m), codegen
    typer.__name__ = typer.__qualname__ = name.rsplit(".", 2)[-2]
    return typer


_pext = intrinsic(_x86_bmi2("llvm.x86.bmi.pext.64"))
_pdep = intrinsic(_x86_bmi2("llvm.x86.bmi.pdep.64"))


@njit(**NUMBA_OPTS)
def _owner_code_tables(ln, o0, o1):
    """The owner code of a suit (``_make_key``): its cards in play (lane ``ln``) from the
    lowest up, 2 bits each, bit 0 from lane ``o0``, bit 1 from lane ``o1``; by byte
    tables (x86 ``pext`` on a byte)."""
    mlo = ln & 255
    mhi = ln >> 8
    sh0 = _pcnt(mlo)
    p0 = np.uint64(PEXT8[(mlo << 8) | (o0 & 255)]) | \
        (np.uint64(PEXT8[(mhi << 8) | (o0 >> 8)]) << np.uint64(sh0))
    p1 = np.uint64(PEXT8[(mlo << 8) | (o1 & 255)]) | \
        (np.uint64(PEXT8[(mhi << 8) | (o1 >> 8)]) << np.uint64(sh0))
    return SPREAD8[p0 & np.uint64(255)] | (SPREAD8[p0 >> np.uint64(8)] << np.uint64(16)) | \
        ((SPREAD8[p1 & np.uint64(255)] | (SPREAD8[p1 >> np.uint64(8)] << np.uint64(16)))
         << np.uint64(1))


@njit(**NUMBA_OPTS)
def _owner_code_bmi2(ln, o0, o1):
    """``_owner_code_tables`` by the CPU's ``pext`` / ``pdep`` (BMI2)."""
    return _pdep(_pext(o0, ln), np.uint64(0x5555555555555555)) | \
        _pdep(_pext(o1, ln), np.uint64(0xAAAAAAAAAAAAAAAA))


# (numba binds a global when it compiles its caller: one of the two, for this CPU)
_owner_code = _owner_code_bmi2 if HAS_BMI2 else _owner_code_tables


@njit(**NUMBA_OPTS)
def _lane(m, s):
    return np.int64((m >> np.uint64(16 * s)) & LANE)


@njit(**NUMBA_OPTS)
def _bit(c):
    return np.uint64(1) << np.uint64(c)


@njit(**NUMBA_OPTS)
def _lowest_card(h):
    """The card id of the lowest card of a non-empty bitboard."""
    for s in range(4):
        ln = _lane(h, s)
        if ln != 0:
            return 16 * s + _lob(ln)
    return -1


@njit(**NUMBA_OPTS)
def _shed(h):
    """The bit of the lowest card of the longest suit of hand ``h`` (the first such suit;
    none for an empty hand): a void seat's discard where a count assumes one."""
    bl = 0
    b = np.uint64(0)
    for s2 in range(4):
        l2 = _lane(h, s2)
        if _pcnt(l2) > bl:
            bl = _pcnt(l2)
            b = _bit(16 * s2 + _lob(l2))
    return b


@njit(**NUMBA_OPTS)
def _ncards(h):
    """Number of cards in the bitboard ``h``."""
    return np.int64(_pcnt(_lane(h, 0)) + _pcnt(_lane(h, 1)) + _pcnt(_lane(h, 2)) +
                    _pcnt(_lane(h, 3)))


@njit(**NUMBA_OPTS)
def _legal(hands, tbuf, base, nt, p, tl, P, masks):
    """Bitboard of the legal cards of seat ``p`` (rules.md; engine.TrickGame)."""
    h = hands[p]
    if nt == 0:
        ban = P[P_HEART_BAN]
        if ban != 0:
            if ban == 1 or (P[P_WHOLE] != 0 and tl == P[P_FIRST_TL]):
                other = h & ~(LANE << np.uint64(16 * HEARTS))
                if other != 0:
                    return other
        return h
    lead = tbuf[base]
    led = lead >> 4
    trump = P[P_TRUMP]
    follow = h & (LANE << np.uint64(16 * led))
    top_trump = -1
    if trump >= 0:
        for i in range(nt):
            c = tbuf[base + i]
            if (c >> 4) == trump and (c & 15) > top_trump:
                top_trump = c & 15
    if follow != 0:
        if trump >= 0 and led == trump and P[P_LEAD_BEAT] != 0:
            higher = follow & ~((np.uint64(1) << np.uint64(16 * trump + top_trump + 1)) - np.uint64(1))
            if higher != 0:
                return higher
        return follow
    if trump >= 0 and P[P_VOID_RUFF] != 0:
        mytr = h & (LANE << np.uint64(16 * trump))
        if mytr != 0:
            if top_trump < 0:
                return mytr
            if P[P_OVERTRUMP] != 0:
                higher = mytr & ~((np.uint64(1) << np.uint64(16 * trump + top_trump + 1)) - np.uint64(1))
                if higher != 0:
                    return higher
                return h
            return mytr
    forced = masks[M_FORCED]
    if forced != 0 and (h & forced) != 0:
        return h & forced
    return h


@njit(**NUMBA_OPTS)
def _winner_index(tbuf, base, trump):
    """Index (0..3) in the trick of the card that wins it."""
    best = 0
    bc = tbuf[base]
    for i in range(1, 4):
        c = tbuf[base + i]
        if (c >> 4) == (bc >> 4):
            if c > bc:
                best = i
                bc = c
        elif (c >> 4) == trump:
            best = i
            bc = c
    return best


@njit(**NUMBA_OPTS)
def _terminal(P, st_t, st_c, rcnt, all_played, scoring_left):
    """Objective adjustment at the end of the hand (bonuses, Ravage City)."""
    w = P[O_W:O_W + 4]
    adj = 0
    done = False
    if P[P_BONUS_C] != 0 and st_c >= 0 and not scoring_left:
        adj += w[st_c] * P[P_BONUS_C_ADJ]
        done = True
    if (not done) and P[P_BONUS_T] != 0 and st_t >= 0 and all_played:
        adj += w[st_t] * P[P_BONUS_T_ADJ]
    rav = P[P_RAVAGE]
    if rav != 0:
        most = 0
        for i in range(16):
            if rcnt[i] > most:
                most = rcnt[i]
        n = 0
        wsum = 0
        for p in range(4):
            m = 0
            for s in range(4):
                if rcnt[4 * p + s] > m:
                    m = rcnt[4 * p + s]
            if m == most:
                n += 1
                wsum += w[p]
        adj += wsum * (rav // n)
    return adj


@njit(**NUMBA_OPTS)
def _bounds(hands, tbuf, base, nt, tl, st_t, st_c, P, masks):
    """Lower and upper bound of the objective still to come from this position."""
    cHi = P[O_CHI:O_CHI + 64]
    cLo = P[O_CLO:O_CLO + 64]
    tHi = P[O_THI:O_THI + 16]
    tLo = P[O_TLO:O_TLO + 16]
    rem = hands[0] | hands[1] | hands[2] | hands[3]
    for i in range(nt):
        rem |= _bit(tbuf[base + i])
    sc = rem & masks[M_SCORING]
    lo = tLo[tl]
    hi = tHi[tl]
    for s in range(4):
        ln = _lane(sc, s)
        while ln != 0:
            r = _lob(ln)
            c = 16 * s + r
            lo += cLo[c]
            hi += cHi[c]
            ln &= ln - 1
    if P[P_RAVAGE] != 0 or (P[P_BONUS_T] != 0 and st_t != -2) or (
            P[P_BONUS_C] != 0 and st_c != -2):
        lo += P[P_ADJ_LO]
        hi += P[P_ADJ_HI]
    return lo, hi


@njit(**NUMBA_OPTS)
def _heart_ban_now(tl, P):
    """Does a heart-lead ban apply to a lead with ``tl`` tricks left?"""
    ban = P[P_HEART_BAN]
    return ban == 1 or (ban == 2 and P[P_WHOLE] != 0 and tl == P[P_FIRST_TL])


@njit(**NUMBA_OPTS)
def _hearts_banned(hands, L, tl, P):
    """May seat ``L`` not lead a heart now (a ban applies and he holds another suit)?"""
    return _heart_ban_now(tl, P) and (hands[L] & ~(LANE << np.uint64(16 * HEARTS))) != 0


@njit(**NUMBA_OPTS)
def _top_owner(hands, s):
    """(rank, seat) of the highest card of suit ``s`` in hands; (-1, -1) when none."""
    top = -1
    owner = -1
    for q in range(4):
        ln = _lane(hands[q], s)
        if ln != 0 and _hib(ln) > top:
            top = _hib(ln)
            owner = q
    return top, owner


@njit(**NUMBA_OPTS)
def _low_under(my, fl, k):
    """Seat L plays its ``k`` highest cards of a suit (lane ``my``) from the top down, one
    a round, and a friend holding lane ``fl`` of the suit follows with his lowest card:
    the first round (1..k) where the friend's card is the higher one, else k + 1."""
    j = 1
    while j <= k and my != 0 and fl != 0:
        a = _hib(my)
        b = _lob(fl)
        if b > a:
            return j
        my ^= 1 << a
        fl ^= 1 << b
        j += 1
    return k + 1


@njit(**NUMBA_OPTS)
def _overtake(my, fl, k):
    """As ``_low_under``, but the friend tries two orders and keeps the better: his lowest
    card each round, or his highest (the i-th highest under L's i-th highest). The last
    round he can put off being forced above L's card, else k + 1 when he never is."""
    asc = _low_under(my, fl, k)
    if asc > k:
        return asc
    j = 1
    while j <= k and my != 0 and fl != 0:
        a = _hib(my)
        b = _hib(fl)
        if b > a:
            return max(asc, j)
        my ^= 1 << a
        fl ^= 1 << b
        j += 1
    return k + 1


@njit(**NUMBA_OPTS)
def _qt_single(hands, L, tl, P, fr, smask):
    """Tricks seat ``L``, on lead, can cash at once with cards above everybody else's.

    A suit counts the leader's cards higher than every other card of it; with trumps, a
    side suit counts no more rounds than any other player holding trumps can follow.
    Hearts are left out while a heart-lead ban applies, and so are the suits not in the
    bit mask ``smask``. Returns the count, the cards whose rank the count relies on (the
    best card of the others in each counted suit), and the count of each suit (5 bits a
    suit: 4 for the rounds that keep the lead, 16 when the suit ends with an overtake).

    ``fr`` (notrump only; 0 for none) is a bit mask of friendly seats: their cards are
    no threat, as they follow under L's cards and the trick stays with the team. When a
    friend's card is forced above L's (``_overtake``), the friend wins that round and
    has the lead: that suit counts its rounds before the overtake, and at most one suit,
    cashed last, counts the overtaking round as well. Friends void in a suit discard
    their highest card of any suit, which never brings an overtake earlier.
    """
    trump = P[P_TRUMP]
    skip_hearts = _heart_ban_now(tl, P)
    others = np.uint64(0)
    for q in range(4):
        if q != L and ((fr >> q) & 1) == 0:
            others |= hands[q]
    n = 0
    extra = 0
    packed = 0
    rel = np.uint64(0)
    for s in range(4):
        if s == HEARTS and skip_hearts:
            continue
        if ((smask >> s) & 1) == 0:
            continue
        my = _lane(hands[L], s)
        if my == 0:
            continue
        oth = _lane(others, s)
        low = False
        if oth == 0:
            ws = np.int64(_pcnt(my))
            low = True
        else:
            top = _hib(oth)
            ws = np.int64(_pcnt(my >> (top + 1)))
            if ws > 0:
                rel |= _bit(16 * s + top)
                # no other seat holds more cards of the suit than L's top run: after
                # that run they are void and L's small cards win too
                longest = 0
                for q in range(4):
                    if q != L and ((fr >> q) & 1) == 0:
                        lq = _pcnt(_lane(hands[q], s))
                        if lq > longest:
                            longest = lq
                if longest <= ws:
                    ws = np.int64(_pcnt(my))
                    low = True
        if trump >= 0 and s != trump and ws > 0:
            for q in range(4):
                if q != L and _lane(hands[q], trump) != 0:
                    f = np.int64(_pcnt(_lane(hands[q], s)))
                    if f < ws:
                        ws = f
        if fr != 0 and ws > 0:
            ov = ws + 1
            for q in range(4):
                if (fr >> q) & 1:
                    fl = _lane(hands[q], s)
                    if fl != 0:
                        o = _overtake(my, fl, ws)
                        if o < ov:
                            ov = o
                        if low:
                            # the comparisons reach L's small cards: key down to them
                            rel |= _bit(16 * s + _lob(my))
            if ov <= ws:
                # ov - 1 rounds keep the lead; the overtaking round only as the last suit
                ws = ov - 1
                extra = 1
                packed |= 16 << (5 * s)
        n += ws
        packed |= ws << (5 * s)
    n += extra
    if n > tl:
        n = tl
    return n, rel, packed


@njit(**NUMBA_OPTS)
def _seat_trumps(hands, P, q):
    """How many trump tricks seat ``q`` cannot help taking. A trump loses only to a higher
    trump played to the same trick, and each higher trump of another seat beats at most
    one (it is played once): so q takes at least its trumps minus the most of them that
    the others' higher trumps can be matched to, one to one, whoever leads and whatever
    anyone plays (all cards get played, one a trick). With q's trumps from the top down
    the others' higher trumps form growing sets, so matching each trump in turn while
    one is free gives a largest matching; q's trumps above every other seat's count in
    full. Returns (count, rel): rel is the others' best trump when only those top trumps
    count, else q's lowest trump (the owners of every trump down to it decided); none
    when the others hold no trump."""
    trump = P[P_TRUMP]
    my = _lane(hands[q], trump)
    if my == 0:
        return 0, np.uint64(0)
    oth = _lane(hands[0] | hands[1] | hands[2] | hands[3], trump) ^ my
    n = np.int64(_pcnt(my))
    if oth == 0:
        return n, np.uint64(0)
    top = _hib(oth)
    k = np.int64(_pcnt(my >> (top + 1)))
    lost = 0
    x = my
    while x != 0:
        a = _hib(x)
        if _pcnt(oth >> (a + 1)) > lost:
            lost += 1
        x ^= 1 << a
    if n - lost > k:
        return n - lost, _bit(16 * trump + _lob(my))
    return k, _bit(16 * trump + top)


@njit(**NUMBA_OPTS)
def _trumps_cut(hands, tl, needed, P):
    """Does what the four seats' trumps surely take (:func:`_seat_trumps`; the tricks
    are different ones, as each is taken by its seat) decide the test? The other tricks
    count at the best and worst weight of any seat, every trick worth the same. Returns
    (1: the value is at least ``needed``, -1: below, 0: undecided; rel)."""
    w = P[O_W:O_W + 4]
    T = P[O_TPL + tl]
    K = 0
    base = np.int64(0)
    mn = T * w[0]
    mx = mn
    rel = np.uint64(0)
    for q in range(4):
        k, rq = _seat_trumps(hands, P, q)
        if k > 0:
            K += k
            base += k * T * w[q]
            rel |= rq
        v = T * w[q]
        if v < mn:
            mn = v
        if v > mx:
            mx = v
    if K == 0:
        return 0, rel
    if needed <= base + (tl - K) * mn:
        return 1, rel
    if needed > base + (tl - K) * mx:
        return -1, rel
    return 0, rel


@njit(**NUMBA_OPTS)
def _trick_worths(q, tl, P):
    """A trick with ``tl`` left (every trick worth the same) as seat ``q``'s, and its
    least and greatest worth over the four seats."""
    w = P[O_W:O_W + 4]
    T = P[O_TPL + tl]
    mn = T * w[0]
    mx = mn
    for i in range(1, 4):
        if T * w[i] < mn:
            mn = T * w[i]
        if T * w[i] > mx:
            mx = T * w[i]
    return T * w[q], mn, mx


@njit(**NUMBA_OPTS)
def _sure_cut(k, q, tl, needed, P):
    """Does "seat ``q`` can surely take ``k`` of the ``tl`` tricks left" (every trick
    worth the same) decide the test? 1: the value is at least ``needed``, -1: it is
    below, 0: undecided. The other tricks count at the worst (best) weight for q's role.
    (Tricks a seat cannot help taking bound the value from both sides: _trumps_cut.)"""
    if k <= 0:
        return 0
    own, mn, mx = _trick_worths(q, tl, P)
    ismax = (P[P_MAXMASK] >> q) & 1
    if ismax and needed <= k * own + (tl - k) * mn:
        return 1
    if (not ismax) and needed > k * own + (tl - k) * mx:
        return -1
    return 0


@njit(**NUMBA_OPTS)
def _qt_want(q, tl, needed, P):
    """The fewest tricks ``k`` >= 1 for which ``_sure_cut(k, q, tl, needed, P)`` decides
    the test (``tl + 1``: none does), in closed form (the test is monotone in ``k``)."""
    own, mn, mx = _trick_worths(q, tl, P)
    if (P[P_MAXMASK] >> q) & 1:
        # needed <= k * own + (tl - k) * mn
        d = own - mn
        r = needed - tl * mn
        if d <= 0:
            k = np.int64(1) if r <= 0 else tl + 1
        else:
            k = -((-r) // d)
    else:
        # needed > k * own + (tl - k) * mx
        d = mx - own
        r = tl * mx - needed
        if d <= 0:
            k = np.int64(1) if r < 0 else tl + 1
        else:
            k = r // d + 1
    if k < 1:
        k = np.int64(1)
    if k > tl + 1:
        k = tl + 1
    return k


@njit(**NUMBA_OPTS)
def _team_mask(L, P):
    """Bit mask of L's teammates: the other seats with L's weight and role."""
    w = P[O_W:O_W + 4]
    mxL = (P[P_MAXMASK] >> L) & 1
    fr = 0
    for t in range(4):
        if t != L and w[t] == w[L] and ((P[P_MAXMASK] >> t) & 1) == mxL:
            fr |= 1 << t
    return fr


@njit(**NUMBA_OPTS)
def _qt_entry(hands, L, t, e, mm, ff, ce, x2q, x2, tl, P, team_fr, A0, D, sl, relL, pkL):
    """``_quick_tricks``' count through one entry: after ``ce`` rounds of suit ``e`` and
    the entry trick, L keeps lane ``mm`` of ``e`` and his teammate ``t`` lane ``ff``; each
    seat of the other team has followed with its lowest cards of ``e``, except that seat
    ``x2q`` (-1: none) played its card of rank ``x2`` in the entry trick (-1: it had
    none). Returns the tricks counted (the ``ce`` rounds, the entry, then what ``t``
    cashes, or L's other suits first: ``A0`` rounds, ``D`` of them ``t``'s discards, the
    suits ``sl``, ``pkL`` L's count in each, 5 bits a suit as ``_qt_single`` packs them)
    and the cards relied on, besides those of the entry itself."""
    h0 = hands[0]
    h1 = hands[1]
    h2 = hands[2]
    h3 = hands[3]
    sh = np.uint64(16 * e)
    hands[L] = (hands[L] & ~(LANE << sh)) | (np.uint64(mm) << sh)
    hands[t] = (hands[t] & ~(LANE << sh)) | (np.uint64(ff) << sh)
    for q in range(4):
        if q != L and ((team_fr >> q) & 1) == 0:
            lq = _lane(hands[q], e)
            for j in range(ce):
                if lq != 0:
                    lq &= lq - 1
            if q == x2q:
                if x2 >= 0:
                    lq &= ~(1 << x2)
            elif lq != 0:
                lq &= lq - 1
            hands[q] = (hands[q] & ~(LANE << sh)) | (np.uint64(lq) << sh)
    fr_t = team_fr ^ (1 << t) ^ (1 << L)
    m, r2, pk = _qt_single(hands, t, tl - 1 - ce, P, fr_t, 15)
    m += 1 + ce
    if ce > 0:
        r2 |= relL
    A = A0 + ce
    if A0 > 0 and m < tl:
        # L cashes his other suits first; t's discards meanwhile come from
        # suits he does not count, then (the lowest cards first) from those
        # he does, and he cashes what is left
        smB = 15 & ~sl
        if QT_AFTER:
            # ... and in the suits L cashed, what is left to t once L's top cards, t's
            # lowest and each opponent's lowest are gone (the opponents' other plays
            # only take higher cards away, which never lowers t's count)
            smB = 15
            for s in range(4):
                if (sl >> s) & 1:
                    c = (pkL >> (5 * s)) & 15
                    sh = np.uint64(16 * s)
                    for q in range(4):
                        lq = _lane(hands[q], s)
                        for j in range(c):
                            if lq == 0:
                                break
                            if q == L:
                                lq ^= 1 << _hib(lq)
                            else:
                                lq &= lq - 1
                        hands[q] = (hands[q] & ~(LANE << sh)) | (np.uint64(lq) << sh)
        B, r3, pkB = _qt_single(hands, t, tl - 1 - A, P, fr_t, smB)
        spare = 0
        for s in range(4):
            if ((sl >> s) & 1) == 0 and ((pkB >> (5 * s)) & 31) == 0:
                spare += _pcnt(_lane(hands[t], s))
        if D > spare:
            ht = hands[t]
            for s in range(4):
                if ((sl >> s) & 1) == 0 and ((pkB >> (5 * s)) & 31) == 0:
                    hands[t] &= ~(LANE << np.uint64(16 * s))
            x = D - spare
            while x > 0:
                bs = -1
                bl = 0
                for s in range(4):
                    if ((sl >> s) & 1) == 0:
                        ln = _pcnt(_lane(hands[t], s))
                        if ln > bl:
                            bl = ln
                            bs = s
                if bs < 0:
                    break
                hands[t] &= ~_bit(16 * bs + _lob(_lane(hands[t], bs)))
                x -= 1
            if x == 0:
                B, r3, pkB = _qt_single(hands, t, tl - 1 - A, P, fr_t, smB)
                spare = D
            hands[t] = ht
        if D <= spare and A + 1 + B > m:
            m = A + 1 + B
            r2 = r3 | relL
    hands[0] = h0
    hands[1] = h1
    hands[2] = h2
    hands[3] = h3
    return m, r2


@njit(**NUMBA_OPTS)
def _quick_tricks(hands, L, tl, P, want):
    """Quick tricks of the leader's team (seats with the leader's weight and role).

    With trumps, the leader's own cashing tricks (``_qt_single``). Without, teammates'
    cards are no threat to the cashing seat, and a teammate ``t`` can take over after an
    entry: a suit ``e`` the leader can lead whose best card ``t`` holds, above every card
    of the other team and above the leader's entry card (his lowest card of ``e``, or his
    highest one under ``t``'s top, which unblocks the suit). Before the lowest-card entry
    (one teammate only), the leader may cash his own top cards of ``e`` while ``t``
    follows low and keeps his top card. The count is the largest of the leader's own
    count, ``1 +`` what ``t`` cashes after the entry, and: the leader cashes his suits
    other than ``e`` (the rounds that keep the lead), then the entry, then ``t`` cashes
    the suits the leader did not. That sum needs ``t``'s discards while the leader
    cashes (rounds where ``t`` is void) to come from suits ``t`` does not count. The
    other team follows with its lowest cards in the entry trick; its other plays and
    discards only take cards from it, which never lowers a count. In the suits the
    leader cashes first, ``t`` follows with his lowest cards and the other team with
    theirs, so what he keeps there counts too when it is then above their cards (North
    ``H:A S:J9``, South ``H:T6 S:A``, East ``S:T87``, West ``H:K85``, South on lead:
    the spade ace, a heart to the ace, and North's jack is good: three tricks). With
    one partner sitting opposite, ``t`` may instead win the entry trick as cheaply as he
    can over the second seat's card and keep his top card (a finesse against the second
    seat: ``S:A9`` over ``E:K8``, led from ``N``, makes two tricks whatever East plays);
    each card the second seat may play is counted, and the worst of them holds.

    ``want``: the count that decides the caller's test; the search stops once it is
    reached (the count returned may then be below the best one).
    """
    if P[P_TRUMP] >= 0:
        n, rel, pk = _qt_single(hands, L, tl, P, np.int64(0), 15)
        return n, rel
    team_fr = _team_mask(L, P)
    n, rel, pkL = _qt_single(hands, L, tl, P, team_fr, 15)
    if n >= tl or n >= want or team_fr == 0:
        return n, rel
    relL = rel
    skip_hearts = _heart_ban_now(tl, P)
    team = hands[L]
    for t in range(4):
        if (team_fr >> t) & 1:
            team |= hands[t]
    opp = (hands[0] | hands[1] | hands[2] | hands[3]) & ~team
    for t in range(4):
        if ((team_fr >> t) & 1) == 0:
            continue
        for e in range(4):
            if e == HEARTS and skip_hearts:
                continue
            my = _lane(hands[L], e)
            tm = _lane(hands[t], e)
            if my == 0 or tm == 0:
                continue
            ttop = _hib(tm)
            ot = _lane(opp, e)
            if ot != 0 and _hib(ot) > ttop:
                continue
            low = _lob(my)
            if low > ttop:
                continue
            # a third teammate must not be forced to overtake t
            forced = False
            for q in range(4):
                if q != t and ((team_fr >> q) & 1):
                    lq = _lane(hands[q], e)
                    if lq != 0 and _lob(lq) > ttop:
                        forced = True
            if forced:
                continue
            # the leader's suits that keep the lead, other than e, and t's discards
            # while he cashes them (rounds where t is void)
            A0 = np.int64(0)
            D = np.int64(0)
            sl = np.int64(0)
            for s in range(4):
                c = (pkL >> (5 * s)) & 15
                if s != e and c > 0:
                    sl |= 1 << s
                    A0 += c
                    lt = np.int64(_pcnt(_lane(hands[t], s)))
                    if c > lt:
                        D += c - lt
            # the entry card: L's lowest card of e, or his highest one under t's top
            # (which unblocks the suit for t)
            hb = _hib(my & ((1 << ttop) - 1))
            rest = tm & ~(1 << ttop)
            ce0 = 0
            for ei in range(2):
                ec = low if ei == 0 else hb
                if ei == 1 and (hb == low or (
                        P[P_QT_HB] != 0 and ce0 == 0 and (rest == 0 or _lob(rest) > hb))):
                    # (P_QT_HB: t holds no card of e at or below hb besides his top, so
                    # neither entry card can overtake him: the second counts the same)
                    break
                # with one partner and the lowest entry card, L may first cash his top
                # cards of e while t follows low and keeps his top card: ce rounds
                ce = 0
                if ei == 0 and _pcnt(team_fr) == 1:
                    c = (pkL >> (5 * e)) & 15
                    if c > 0 and _pcnt(my) > c and _pcnt(tm) > c and \
                            _low_under(my, tm, c) > c:
                        ce = c
                if ei == 0:
                    ce0 = ce
                # the ce rounds, then L leads the entry card and t wins with his top
                # card; the other team follows with its lowest cards of e (any other
                # cards it plays leave it higher ones: never a larger count for t)
                mm = my
                ff = tm
                for j in range(ce):
                    x = _hib(mm)
                    y = _lob(ff)
                    mm ^= 1 << x
                    ff ^= 1 << y
                mm ^= 1 << ec
                m, r2 = _qt_entry(hands, L, t, e, mm, ff ^ (1 << ttop), ce, np.int64(-1),
                                  np.int64(-1), tl, P,
                                  team_fr, A0, D, sl, relL, pkL)
                r2 |= _bit(16 * e + ec) | _bit(16 * e + ttop)
                if ot != 0:
                    r2 |= _bit(16 * e + _hib(ot))
                if QT_CHEAP and m < want and n < want and (ff & ~(1 << ttop)) != 0 and \
                        _pcnt(team_fr) == 1 and t == (L + 2) % 4:
                    # t need not spend his top card on the entry: he beats L's card, the
                    # card the second seat plays and the fourth seat's best as cheaply as
                    # he can, and may keep his top card for later. The second seat
                    # picks its card against it; t playing his top card counts at least
                    # m whatever that card (a higher card of the other team gone only
                    # helps t), so each choice counts the better of the two
                    q2 = (L + 1) % 4
                    q4 = (L + 3) % 4
                    o2 = _lane(hands[q2], e)
                    o4 = _lane(hands[q4], e)
                    for j in range(ce):
                        if o2 != 0:
                            o2 &= o2 - 1
                        if o4 != 0:
                            o4 &= o4 - 1
                    top4 = np.int64(_hib(o4)) if o4 != 0 else np.int64(-1)
                    worst = tl
                    rc = np.uint64(0)
                    xs = o2
                    while True:
                        x2 = np.int64(-1)
                        if xs != 0:
                            x2 = np.int64(_hib(xs))
                            xs ^= 1 << x2
                        bar = max(max(x2, top4), np.int64(ec))
                        cheap = np.int64(_lob(ff >> (bar + 1))) + bar + 1
                        v = m
                        for opt in range(2):
                            if opt == 0:
                                # t's top card, a higher card of the second seat's gone
                                if x2 < 0 or x2 == _lob(o2):
                                    continue
                                tc = ttop
                            else:
                                # t's cheapest winner
                                if cheap >= ttop:
                                    continue
                                tc = cheap
                            v2, r3 = _qt_entry(hands, L, t, e, mm, ff ^ (1 << tc), ce, q2, x2,
                                               tl, P, team_fr, A0, D, sl, relL, pkL)
                            if v2 > v:
                                v = v2
                                rc |= r3
                        if v < worst:
                            worst = v
                        if worst <= m or xs == 0:
                            break
                    if worst > m:
                        m = worst
                        # (every card of e decided something: key them all)
                        r2 |= rc | (np.uint64(_lane(hands[0] | hands[1] | hands[2] | hands[3],
                                                    e)) << np.uint64(16 * e))
                if m > n:
                    n = m
                    rel = r2
                    if n >= want:
                        # (enough to decide the test: the caller asks no more)
                        return min(n, tl), rel
    if n > tl:
        n = tl
    return n, rel


@njit(**NUMBA_OPTS)
def _reply_qt(hands, leader, tl, tmY, want, P):
    """Notrump, the other side on lead: does the team ``tmY`` (not the leader's) surely
    take ``want`` of the ``tl`` tricks? True when it holds the best card of every suit
    the leader can lead, and after that trick the winner's quick tricks give the rest.

    The trick is counted as: the team's holder of the best card plays it (it wins,
    whatever is led in that suit); the team's other seats follow with their lowest card
    or, void, shed the lowest card of their longest suit (a plan the team can always
    follow); the leader and his side play their lowest card of the suit, a void one
    keeps every card. The other side's actual plays only leave it lower cards than
    those (a higher one played, a card discarded), which never lowers what the team
    takes, so the count after this model trick bounds every real one. Returns
    (decided, rel): the best card of each suit counted and the quick tricks' cards; the
    cards taken off are the lowest of their hands in the suit, which the suit lengths
    (in the exact key) fix wherever the keyed cards agree."""
    rel = np.uint64(0)
    for s in range(4):
        if _lane(hands[leader], s) == 0:
            continue
        top, w = _top_owner(hands, s)
        if ((tmY >> w) & 1) == 0:
            return False, np.uint64(0)
        h0 = hands[0]
        h1 = hands[1]
        h2 = hands[2]
        h3 = hands[3]
        for q in range(4):
            lq = _lane(hands[q], s)
            if q == w:
                hands[q] &= ~_bit(16 * s + top)
            elif lq != 0:
                hands[q] &= ~_bit(16 * s + _lob(lq))
            elif (tmY >> q) & 1:
                hands[q] &= ~_shed(hands[q])
        k, r = _quick_tricks(hands, np.int64(w), tl - 1, P, want - 1)
        hands[0] = h0
        hands[1] = h1
        hands[2] = h2
        hands[3] = h3
        if 1 + k < want:
            return False, np.uint64(0)
        rel |= r | _bit(16 * s + top)
    return True, rel


@njit(**NUMBA_OPTS)
def _short_of_all(hands, tl, team):
    """Notrump: can the seats in the bit mask ``team`` not take every one of the ``tl``
    tricks left? True when their capacity, the longest holding they have in each suit
    whose best card in play they hold, summed over those suits, is below ``tl``: a trick
    they win is won by a card above every card played to it, so while the other side
    keeps the best card of a suit (and plays it when the suit is led) they win no trick
    in it, and each trick they win in a suit of their own takes a card of that suit from
    each of them who has one. A trick in a suit the other side tops comes only after
    it has thrown that suit's best card away, which it need not do while it holds a
    card that is no suit's best; where every card it holds is, that argument falls
    short, but the rule is DDS's ("later tricks") and brute force has found no
    position against it (``tests/test_solve.py``: random endgames, half of them built
    with one side holding most top cards; and 20,000 more in the fortieth session's
    scratch checks, BENCHMARKS.md). The rel cards: the best card of each suit the other side
    tops, where more than one hand holds the suit (the lengths fix the rest: a suit
    that turns out to be the team's elsewhere only lowers its capacity)."""
    cap = 0
    rel = np.uint64(0)
    for s in range(4):
        top, owner = _top_owner(hands, s)
        if owner < 0:
            continue
        if (team >> owner) & 1:
            mx = 0
            for q in range(4):
                if (team >> q) & 1 and _pcnt(_lane(hands[q], s)) > mx:
                    mx = _pcnt(_lane(hands[q], s))
            cap += mx
            if cap >= tl:
                return False, np.uint64(0)
        else:
            holders = 0
            for q in range(4):
                if _lane(hands[q], s) != 0:
                    holders += 1
            if holders > 1:
                rel |= _bit(16 * s + top)
    return True, rel


@njit(**NUMBA_OPTS)
def _lead_lost(hands, L, tl, P):
    """Does the other role surely take the trick seat ``L`` leads now?

    True when the top card of every suit ``L`` may lead is held by a seat of the other
    role (it follows suit and plays that card) and no seat of ``L``'s role but ``L``
    holds a trump (no ruff for his side). The rel cards are those top cards.
    """
    mxL = (P[P_MAXMASK] >> L) & 1
    trump = P[P_TRUMP]
    if trump >= 0:
        for t in range(4):
            if t != L and ((P[P_MAXMASK] >> t) & 1) == mxL and _lane(hands[t], trump) != 0:
                return False, np.uint64(0)
    skip_hearts = _hearts_banned(hands, L, tl, P)
    rel = np.uint64(0)
    for s in range(4):
        if s == HEARTS and skip_hearts:
            continue
        if _lane(hands[L], s) == 0:
            continue
        top, owner = _top_owner(hands, s)
        if ((P[P_MAXMASK] >> owner) & 1) == mxL:
            return False, np.uint64(0)
        rel |= _bit(16 * s + top)
    return True, rel


@njit(**NUMBA_OPTS)
def _win_cash(hands, hh, c, tl, P):
    """Tricks seat ``hh`` surely takes when it wins the trick in progress with card ``c``
    (still in its hand, or already played) and then cashes its top cards: 1 + its
    ``_qt_single`` count (notrump only) with ``c`` out of its hand and every other seat
    still holding all its cards. The later seats' plays to this trick and any discards
    only take cards away from the others, which never lowers that count (a suit counts
    ``hh``'s cards above the others' best card, or all of them when the others are void),
    so it is a lower bound on what ``hh`` cashes after the trick. Returns (count, rel):
    rel holds ``c`` and the others' best card of each counted suit."""
    b = _bit(c)
    mine = (hands[hh] & b) != 0
    if mine:
        hands[hh] &= ~b
    n, rel, pk = _qt_single(hands, hh, tl - 1, P, np.int64(0), 15)
    if mine:
        hands[hh] |= b
    return 1 + n, rel | b


@njit(**NUMBA_OPTS)
def _trick_top(hands, tbuf, base, nt, leader):
    """Mid-trick (``nt`` >= 1), notrump: the seat that surely wins the trick in progress
    (the owner of the highest card of the suit led among the cards played and the later
    seats' hands: it plays that card, nobody can beat it) and that card. With
    ``_win_cash``: the tricks it surely takes."""
    led = tbuf[base] >> 4
    best = -1
    hh = -1
    for i in range(nt):
        c = tbuf[base + i]
        if (c >> 4) == led and (c & 15) > best:
            best = c & 15
            hh = (leader + i) % 4
    for j in range(nt, 4):
        q = (leader + j) % 4
        ln = _lane(hands[q], led)
        if ln != 0 and _hib(ln) > best:
            best = _hib(ln)
            hh = q
    return hh, np.int64(16 * led + best)


@njit(**NUMBA_OPTS)
def _team_tops(hands, a, b, gone):
    """An upper bound on the quick tricks of seats ``a`` and ``b`` (``_quick_tricks``)
    once the cards ``gone`` are out: each suit whose best card in play they hold (or that
    only they hold) counts their longer holding; a suit led round after round gives no
    more rounds than that, and a suit whose best card the others hold gives none."""
    n = 0
    for s in range(4):
        la = _lane(hands[a] & ~gone, s)
        lb = _lane(hands[b] & ~gone, s)
        tm = la | lb
        if tm == 0:
            continue
        om = 0
        for q in range(4):
            if q != a and q != b:
                om |= _lane(hands[q], s)
        if om == 0 or _hib(tm) > _hib(om):
            n += max(_pcnt(la), _pcnt(lb))
    return n


@njit(**NUMBA_OPTS)
def _mid_bound(hands, tbuf, base, nt, leader, tl, needed, P):
    """Notrump, mid-trick (``P_QT``): 1 when the sure winner of the trick in progress
    (``_trick_top``) is a maximiser whose sure tricks (the trick alone, else
    ``_win_cash``; ``_qt_single`` only when its count can decide) reach ``needed``, -1
    when it is a minimiser whose sure tricks keep the value below it, else 0; and the
    cards that relies on."""
    w = P[O_W:O_W + 4]
    tpl = P[O_TPL:O_TPL + 16]
    hh, c = _trick_top(hands, tbuf, base, nt, leader)
    T = tpl[tl]
    A = T * w[hh]
    hmax = (P[P_MAXMASK] >> hh) & 1
    ext = T * w[0]
    for i in range(1, 4):
        if (hmax and T * w[i] < ext) or ((not hmax) and T * w[i] > ext):
            ext = T * w[i]
    hl = hands[hh] & ~_bit(c)
    cap = _ncards(hl) + 1
    if cap > tl:
        cap = tl
    # the value is monotone in the count q (A is at least as good as ext for hh's role)
    if (hmax and needed <= cap * A + (tl - cap) * ext) or (
            (not hmax) and needed > cap * A + (tl - cap) * ext):
        if (hmax and needed <= A + (tl - 1) * ext) or (
                (not hmax) and needed > A + (tl - 1) * ext):
            q = np.int64(1)
            qrel = _bit(c)
        else:
            q, qrel = _win_cash(hands, hh, c, tl, P)
        if hmax and needed <= q * A + (tl - q) * ext:
            return 1, qrel
        if (not hmax) and needed > q * A + (tl - q) * ext:
            return -1, qrel
    if MID_TEAM:
        # hh's partner has played to this trick already: after it, hh leads with the
        # partner's hand known, so the team's quick tricks count (entries included); the
        # seats still to play only lose cards, which never lowers that count
        fr = _team_mask(hh, P)
        if _pcnt(fr) == 1:
            pt = _hib(fr)
            if (pt - leader) % 4 < nt:
                want = _qt_want(hh, tl, needed, P)
                if want >= 2 and want <= tl and \
                        1 + _team_tops(hands, hh, pt, _bit(c)) >= want:
                    b = _bit(c)
                    mine = (hands[hh] & b) != 0
                    if mine:
                        hands[hh] &= ~b
                    n2, r2 = _quick_tricks(hands, hh, tl - 1, P, want - 1)
                    if mine:
                        hands[hh] |= b
                    if 1 + n2 >= want:
                        return (1 if hmax else -1), r2 | b
    return 0, np.uint64(0)


@njit(**NUMBA_OPTS)
def _lost_cash(hands, L, tl, P, T, al):
    """Notrump, seat ``L`` on lead: when the top card of every suit ``L`` may lead is held by
    a seat of the other role, that seat wins the trick (it plays the top card) and then
    takes ``_win_cash`` tricks in all (each worth ``T`` times its weight), the other tricks
    counted at ``al`` (the best trick for ``L``'s role). Returns (ok, bound, rel): the best
    value ``L``'s role can reach over its choice of suit (an upper bound when ``L``
    maximises, a lower bound when he minimises)."""
    w = P[O_W:O_W + 4]
    mxL = (P[P_MAXMASK] >> L) & 1
    skip_hearts = _hearts_banned(hands, L, tl, P)
    rel = np.uint64(0)
    bound = np.int64(0)
    ok = False
    for s in range(4):
        if s == HEARTS and skip_hearts:
            continue
        if _lane(hands[L], s) == 0:
            continue
        top, owner = _top_owner(hands, s)
        if ((P[P_MAXMASK] >> owner) & 1) == mxL:
            return False, np.int64(0), np.uint64(0)
        n, r = _win_cash(hands, owner, np.int64(16 * s + top), tl, P)
        v = n * T * w[owner] + (tl - n) * al
        if (not ok) or (mxL and v > bound) or ((not mxL) and v < bound):
            bound = v
        rel |= r
        ok = True
    return ok, bound, rel


@njit(**NUMBA_OPTS)
def _duck_safe(my, oth):
    """Can the declarer, holding lane ``my`` of a suit, always play a card of it below the
    card a defender leads, the defenders holding lane ``oth`` of it?

    True when, for every ``j``, fewer than ``j`` defenders' cards lie below his ``j``-th
    lowest card: he plays his highest card below the card led, which keeps that true
    (the card led lies below his next higher card), and defenders' cards only go away.
    """
    j = 0
    ln = my
    while ln != 0:
        r = _lob(ln)
        if _pcnt(oth & ((1 << r) - 1)) > j:
            return False
        j += 1
        ln &= ln - 1
    return True


@njit(**NUMBA_OPTS)
def _neg_chain(hands, D, adj, K):
    """Tricks in a row the declarer ``D`` must take once he is on lead (at most ``K``),
    and the cards whose rank that relies on (``_neg_bounds``).

    Suit ``s`` of ``D`` (cards ``d_0 < d_1 < ...``), defender ``q`` holding ``s`` (cards
    ``e_0 < e_1 < ...``): let ``m`` be the largest ``j`` with ``e_i < d_i`` for every
    ``i < j`` (``j`` at most both lengths). ``q`` ducks ``D``'s leads of ``s`` with his
    highest card below the card led: after any lead of ``s`` the new ``m`` is at least
    ``m - 1``, and when ``m`` is either length (``q`` ducks until he or ``D`` is void) it
    stays so. A defender void in the suit led discards the highest card of any suit, which
    leaves every ``m`` as it is or makes it such a length. ``D``, winning, leads again, so
    he takes every trick until he leads a card of ``s`` that some ``q`` holding ``s``
    cannot duck: that takes at least ``m`` leads of ``s`` when ``m`` is below both
    lengths. ``K`` is the least such ``m`` (``e_i < d_i`` exactly when ``q`` holds more
    than ``i`` cards below ``d_i``). ``adj >= 0``: count as if ``D`` had first played his
    highest card of suit ``adj`` (his worst choice: ``m`` only grows with his cards) and
    every defender holding ``adj`` one card below ``D``'s lowest (``q``'s counts below
    ``d_i`` drop by one). The rel cards are each suit's ``d_0``: with the suit lengths,
    the owners of the cards down to it fix each defender's counts below every ``d_i``.
    """
    rel = np.uint64(0)
    for s in range(4):
        my = _lane(hands[D], s)
        if my == 0:
            continue
        l = _lob(my)
        if (_lane(hands[0] | hands[1] | hands[2] | hands[3], s) & ~my) != 0:
            rel |= _bit(16 * s + l)
        d = np.int64(_pcnt(my))
        if s == adj:
            d -= 1
        for q in range(4):
            if q == D:
                continue
            hq = _lane(hands[q], s)
            if hq == 0:
                continue
            nq = np.int64(_pcnt(hq))
            sub = np.int64(0)
            if s == adj:
                nq -= 1
                sub = 1
            # m: the leads of s that q ducks
            m = np.int64(0)
            ln = my
            while m < d and m < nq and m < K:
                if np.int64(_pcnt(hq & ((1 << _lob(ln)) - 1))) - sub <= m:
                    break
                m += 1
                ln &= ln - 1
            if m < d and m < nq and m < K:
                K = m
    if K < 0:
        K = 0
    return K, rel


@njit(**NUMBA_OPTS)
def _neg_all(hands, tl, P, scm):
    """Every point still to come: every remaining card and trick (``scm``: the scoring
    cards)."""
    pts = P[O_PTS:O_PTS + 64]
    tpl = P[O_TPL:O_TPL + 16]
    v = 0
    for k in range(1, tl + 1):
        v += tpl[k]
    sc = (hands[0] | hands[1] | hands[2] | hands[3]) & scm
    for s in range(4):
        ln = _lane(sc, s)
        while ln != 0:
            r = _lob(ln)
            v += pts[16 * s + r]
            ln &= ln - 1
    return v


@njit(**NUMBA_OPTS)
def _neg_bounds(hands, leader, tl, P, scm):
    """Bounds for a paranoid negative objective (``P_NEG``): the declarer ``D`` alone
    maximises ``w[D] * score[D]`` (``w[D] > 0``, the others weigh 0), every card and trick
    scores <= 0, no trumps, bonus, Ravage City or forced discards (``analyzer.solve``);
    with a stop card set, the scoring cards are stop cards and tricks score 0.

    Returns ``(kind, value, rel)``: kind 0 nothing, 1 the exact value, 2 an upper bound.

    * ``D`` on lead: he takes the next ``_neg_chain`` tricks; when that is every trick, he
      takes every remaining card: the exact value.
    * A defender on lead, who can lead a suit ``s`` of ``D`` below ``D``'s lowest card
      ``l`` while every other defender holding ``s`` has a card below ``l``: ``D`` takes
      this trick (with his cheapest card of ``s``; the defenders add their dearest cards
      that fit), then leads and takes the ``_neg_chain`` tricks that follow.
    """
    w = P[O_W:O_W + 4]
    pts = P[O_PTS:O_PTS + 64]
    tpl = P[O_TPL:O_TPL + 16]
    D = P[P_NEG] - 1
    wd = w[D]
    # D takes no more tricks when he can always play under the card a defender leads
    # (_duck_safe) in every suit he holds and, on lead, can lead a suit that a defender
    # holds and still duck afterwards
    rel = np.uint64(0)
    safe = True
    exit_ok = leader != D
    dban = _hearts_banned(hands, D, tl, P)
    for s in range(4):
        my = _lane(hands[D], s)
        if my == 0:
            continue
        oth = np.int64(0)
        tops = 0
        for q in range(4):
            if q != D:
                hq = _lane(hands[q], s)
                oth |= hq
                if hq != 0:
                    tops |= 1 << _hib(hq)
        # (both tests below need every card under the defenders' lowest to be D's: the
        # owners of the cards down to that one, keyed, fix the rest)
        if oth == 0:
            pass  # the suit lengths say that nobody else holds the suit
        elif (oth & ((1 << _hib(my)) - 1)) == 0:
            rel |= _bit(16 * s + _lob(oth))
        elif _duck_safe(my, oth):
            rel |= _bit(16 * s + _lob(oth))
        else:
            safe = False
            break
        if (not exit_ok) and oth != 0 and not (s == HEARTS and dban):
            # lead the lowest card; the defenders follow higher, at worst with their best
            if _duck_safe(my & (my - 1), oth & ~tops):
                exit_ok = True
                rel |= _bit(16 * s + _lob(oth))
    if safe and exit_ok:
        return 1, 0, rel
    if leader == D:
        K, rel = _neg_chain(hands, D, np.int64(-1), tl)
        if K <= 0:
            return 0, 0, rel
        if K >= tl:
            return 1, wd * _neg_all(hands, tl, P, scm), rel
        v = 0
        for k in range(tl - K + 1, tl + 1):
            v += tpl[k]
        return 2, wd * v, rel
    skip_hearts = _hearts_banned(hands, leader, tl, P)
    best = np.int64(1) << 60
    rel = np.uint64(0)
    found = False
    for s in range(4):
        if s == HEARTS and skip_hearts:
            continue
        my = _lane(hands[D], s)
        if my == 0:
            continue
        l = _lob(my)
        below = (1 << l) - 1
        if (_lane(hands[leader], s) & below) == 0:
            continue
        ok = True
        cost = tpl[tl]
        dump = 0
        for q in range(4):
            if q == D:
                continue
            hq = _lane(hands[q], s)
            if hq != 0:
                lowq = hq & below
                if lowq == 0:
                    ok = False
                    break
                m = 0
                lowq &= _lane(scm, s)
                while lowq != 0:
                    r = _lob(lowq)
                    if pts[16 * s + r] < m:
                        m = pts[16 * s + r]
                    lowq &= lowq - 1
                cost += m
            else:
                m = 0
                for s2 in range(4):
                    ln = _lane(hands[q] & scm, s2)
                    while ln != 0:
                        r = _lob(ln)
                        if pts[16 * s2 + r] < m:
                            m = pts[16 * s2 + r]
                        ln &= ln - 1
                dump += m
        if not ok:
            continue
        mine = -(np.int64(1) << 60)
        ln = my
        if (my & ~_lane(scm, s)) != 0:
            mine = 0
            ln = 0
        while ln != 0:
            r = _lob(ln)
            if pts[16 * s + r] > mine:
                mine = pts[16 * s + r]
            ln &= ln - 1
        cost += mine
        srel = _bit(16 * s + l)
        # this trick alone, the void defenders dumping their dearest cards
        v = wd * (cost + dump)
        # or this trick, then D on lead (the void defenders discard what keeps him in)
        K, crel = _neg_chain(hands, D, s, tl - 1)
        if K > 0:
            if K >= tl - 1:
                v2 = wd * _neg_all(hands, tl, P, scm)
            else:
                c2 = cost
                for k in range(tl - K, tl):
                    c2 += tpl[k]
                v2 = wd * c2
            if v2 < v:
                v = v2
                srel |= crel
        if v < best:
            best = v
            rel = srel
            found = True
    if found:
        return 2, best, rel
    return 0, 0, rel


@njit(**NUMBA_OPTS)
def _neg_exits(hands, tl, g, P, masks, later, u):
    """Does the declarer ``D`` (``P_NEG``) surely lose ``g`` of the remaining ``tl``
    tricks (``2 g <= tl``, no stop cards)? Returns it and the cards whose rank it relies on.

    Exit cards: in a suit ``t`` (not hearts under an every-trick heart-lead ban) where a
    defender ``q`` holds at least ``2 g`` cards, ``D``'s cards below ``q``'s lowest card of
    ``t``. ``D`` plays an exit card only to lead after taking a trick, or when he must
    (following ``t``, or a discard). While ``q`` still holds ``t`` each such trick is lost:
    ``q`` beats the card, following or leading (a discard is lost anyway). True when ``D``
    holds ``g`` exit cards: if he lost fewer than ``g`` of the first ``2 g`` tricks, he took
    more than ``g``, each but maybe the last followed by his lead in the window, so he
    played ``g`` exit cards there, all lost (``q`` lost at most one card a trick).

    Mid-trick (``_neg_mid``), counted for the tricks after this one: ``later`` has a bit
    for each seat still to play to this trick, ``u`` is the suit led. Such a seat keeps
    his cards of ``t`` when he holds ``u != t`` (he follows ``u``); else he may play one
    card of ``t``: one card fewer (his lowest card of ``t`` only rises, which only adds
    exit cards).

    The rel cards are ``D``'s highest exit card of each suit counted: with the suit
    lengths, the owners down to it fix how many of his cards lie below ``q``'s.
    """
    if g < 1 or 2 * g > tl or masks[M_STOP] != 0:
        return False, np.uint64(0)
    D = P[P_NEG] - 1
    n = 0
    rel = np.uint64(0)
    for t in range(4):
        if t == HEARTS and P[P_HEART_BAN] == 1:
            continue
        myt = _lane(hands[D], t)
        if myt == 0:
            continue
        best = 0
        for q in range(4):
            if q == D:
                continue
            hq = _lane(hands[q], t)
            nq = np.int64(_pcnt(hq))
            if (later >> q) & 1 and (u == t or _lane(hands[q], u) == 0):
                nq -= 1
            if nq >= 2 * g:
                x = np.int64(_pcnt(myt & ((1 << _lob(hq)) - 1)))
                if x > best:
                    best = x
        if best > 0:
            n += best
            ln = myt
            for _ in range(best - 1):
                ln &= ln - 1
            rel |= _bit(16 * t + _lob(ln))
            if n >= g:
                return True, rel
    return False, rel


@njit(**NUMBA_OPTS)
def _neg_exit_after(hands, D, q, t, u):
    """Does defender ``q`` still hold suit ``t`` with no card below ``D``'s lowest card of
    it after one trick led in suit ``u`` (``_neg_lose_one``)? He holds ``t``, none of it
    below that card, and two cards of it or a card of ``u != t`` (he follows ``u``)."""
    myt = _lane(hands[D], t)
    hq = _lane(hands[q], t)
    if myt == 0 or hq == 0 or (hq & ((1 << _lob(myt)) - 1)) != 0:
        return False
    return _pcnt(hq) >= 2 or (u != t and _lane(hands[q], u) != 0)


@njit(**NUMBA_OPTS)
def _follows_above(hands, D, leader, s, below):
    """The first seat other than ``D`` and ``leader`` that holds suit ``s`` but no card of
    it among the ranks ``below`` (the ranks under ``D``'s lowest card of ``s``): it must
    follow above that card. -1 when none does."""
    for q in range(4):
        if q == D or q == leader:
            continue
        hq = _lane(hands[q], s)
        if hq != 0 and (hq & below) == 0:
            return q
    return -1


@njit(**NUMBA_OPTS)
def _lead_forces(hands, D, leader, s, below):
    """Does a lead of suit ``s`` by ``leader`` under the declarer ``D``'s lowest card of it
    (``below``: the ranks under that card) force him to take the trick? Yes when each of
    the two other seats is void in ``s`` or holds a card under his: all three defenders
    can then stay under every card he may play."""
    return _follows_above(hands, D, leader, s, below) < 0


@njit(**NUMBA_OPTS)
def _neg_lose_one(hands, leader, tl, P):
    """Does the declarer ``D`` (``P_NEG``) surely lose one of the
    remaining ``tl >= 2`` tricks, this one or the next? For each suit ``u`` the leader may
    lead: ``D`` loses this trick (``_neg_lose1``'s test for ``u``, or ``D`` void in it), or,
    if he takes it, he leads his lowest card ``l`` of a suit ``t`` next that a defender
    still holds with no card below ``l`` (``_neg_exit_after``): that defender beats it.
    (``D`` keeps ``l`` through this trick unless ``u = t`` and ``l`` is his only card of
    ``t``; then he plays it under that defender and loses this trick.) ``D`` on lead picks
    one suit ``u`` to lead, other than ``t``. The rel cards are ``D``'s lowest card of
    each suit."""
    D = P[P_NEG] - 1
    rel = np.uint64(0)
    for s in range(4):
        my = _lane(hands[D], s)
        if my != 0:
            rel |= _bit(16 * s + _lob(my))
    skip_hearts = _hearts_banned(hands, leader, tl, P)
    for u in range(4):
        if u == HEARTS and skip_hearts:
            continue
        myu = _lane(hands[D], u)
        hl = _lane(hands[leader], u)
        if leader == D:
            if myu == 0:
                continue
            for t in range(4):
                if t == u or (t == HEARTS and P[P_HEART_BAN] == 1):
                    continue
                for q in range(4):
                    if q != D and _neg_exit_after(hands, D, q, t, u):
                        return True, rel
            continue
        if hl == 0 or myu == 0:
            continue
        below = (1 << _lob(myu)) - 1
        if (hl & below) == 0:
            continue
        if not _lead_forces(hands, D, leader, u, below):
            continue
        ok = False
        for t in range(4):
            if t == HEARTS and P[P_HEART_BAN] == 1:
                continue
            for q in range(4):
                if q != D and _neg_exit_after(hands, D, q, t, u):
                    ok = True
            if ok:
                break
        if not ok:
            return False, rel
    return leader != D, rel


@njit(**NUMBA_OPTS)
def _neg_lose1(hands, leader, tl, P):
    """Does the declarer ``D`` of a paranoid negative objective (``P_NEG``: no trumps, no
    forced discards) surely lose the trick led now? Returns it and the cards whose rank
    that relies on.

    * ``D`` on lead: he has an exit, a suit ``s`` (heart-lead bans respected) that a
      defender holds with no card below ``D``'s lowest ``l``: he leads ``l`` and that
      defender, following suit, beats it.
    * A defender ``L`` on lead: ``D`` loses whenever he is void in the suit ``s`` led (he
      discards: no trumps) or the trick gets a card of ``s`` above his lowest ``l``: he
      then plays ``l`` (or any card below the top) and some card beats it. That happens
      when ``L`` has no card of ``s`` below ``l`` (he leads above it) or another defender
      holds ``s`` but no card of it below ``l`` (he must follow above it). True when it
      does for every suit ``L`` may lead.

    The rel cards: for each suit, the lowest card of the defender who plays above ``l``
    (the exit's, the leader's, or the one who must follow): with the suit lengths, the
    owners of the cards down to it fix that he holds none below it, while ``D`` holds
    one (``l``) there, whatever the cards under it.
    """
    D = P[P_NEG] - 1
    rel = np.uint64(0)
    skip_hearts = _hearts_banned(hands, leader, tl, P)
    if leader == D:
        for s in range(4):
            if s == HEARTS and skip_hearts:
                continue
            my = _lane(hands[D], s)
            if my == 0:
                continue
            l = _lob(my)
            below = (1 << l) - 1
            for q in range(4):
                if q == D:
                    continue
                hq = _lane(hands[q], s)
                if hq != 0 and (hq & below) == 0:
                    return True, _bit(16 * s + _lob(hq))
        return False, rel
    for s in range(4):
        if s == HEARTS and skip_hearts:
            continue
        my = _lane(hands[D], s)
        hl = _lane(hands[leader], s)
        if my == 0 or hl == 0:
            continue
        l = _lob(my)
        below = (1 << l) - 1
        if (hl & below) == 0:
            rel |= _bit(16 * s + _lob(hl))
            continue
        q2 = _follows_above(hands, D, leader, s, below)
        if q2 < 0:
            return False, rel
        rel |= _bit(16 * s + _lob(_lane(hands[q2], s)))
    return True, rel


@njit(**NUMBA_OPTS)
def _none_below(hands, D, s, below):
    """Does no seat but ``D`` hold a card of suit ``s`` among the ranks ``below``?"""
    for q in range(4):
        if q != D and (_lane(hands[q], s) & below) != 0:
            return False
    return True


@njit(**NUMBA_OPTS)
def _neg_guarded(hands, D, s, lp, t):
    """Can no defender force ``D`` to take a trick led in suit ``s`` once a trick led in
    suit ``t`` has been played, ``D``'s lowest card of ``s`` being then at most ``lp``?
    (``_neg_lose2``.) True when no defender holds a card of ``s`` below ``lp`` (nobody
    leads under ``D``) or one holds ``s`` with no card below ``lp`` and still holds ``s``
    then: two cards of it, or one and a card of ``t != s`` (he follows ``t``)."""
    below = (1 << lp) - 1
    if _none_below(hands, D, s, below):
        return True
    for q in range(4):
        if q == D:
            continue
        hq = _lane(hands[q], s)
        if hq != 0 and (hq & below) == 0 and (
                _pcnt(hq) >= 2 or (s != t and _lane(hands[q], t) != 0)):
            return True
    return False


@njit(**NUMBA_OPTS)
def _neg_guarded2(hands, D, s, lp, u, t):
    """``_neg_guarded`` two tricks on (``_neg_after``): can no defender force ``D`` to take
    a trick led in suit ``s`` once the trick in progress (suit ``u``) and a trick led in
    suit ``t`` have been played, ``D``'s lowest card of ``s`` being then at most ``lp``?
    True when no defender holds a card of ``s`` below ``lp``, or one holds ``s`` with no
    card below ``lp`` and surely still holds ``s`` then: counting a card of ``s`` gone in
    the trick in progress unless he holds ``u != s`` (he follows ``u``; he may have played
    to it already), and one in the next unless ``s != t`` and he surely still holds ``t``
    then (he follows ``t``)."""
    below = (1 << lp) - 1
    if _none_below(hands, D, s, below):
        return True
    for q in range(4):
        if q == D:
            continue
        hq = _lane(hands[q], s)
        if hq == 0 or (hq & below) != 0:
            continue
        n = np.int64(_pcnt(hq))
        gone_u = s == u or _lane(hands[q], u) == 0
        if gone_u:
            n -= 1
        nt_ = np.int64(_pcnt(_lane(hands[q], t)))
        if t == u or _lane(hands[q], u) == 0:
            nt_ -= 1
        if s == t or nt_ <= 0:
            n -= 1
        if n >= 1:
            return True
    return False


@njit(**NUMBA_OPTS)
def _neg_lose2(hands, leader, tl, P):
    """Does the declarer ``D`` (``P_NEG``) surely lose the trick led now and the next one?
    Returns it and the cards whose rank it relies on (``D``'s lowest card of each suit).

    For every suit ``t`` the leader ``L`` may lead (a defender) the first trick is lost as
    in ``_neg_lose1``; ``D`` on lead needs one exit suit ``t`` for which all this holds.
    In the first trick ``D`` plays his highest card below the top (his lowest card of
    ``t`` becomes at most his second lowest ``d_1``), or, void in ``t``, discards the
    highest card of a suit (its lowest stays, or the suit goes). The second trick, led by
    some defender, is lost when every suit ``s`` of ``D`` is guarded (``_neg_guarded``)
    with ``D``'s lowest card of ``s`` at most ``d_1`` of ``t`` for ``s = t``, else ``d_0``.
    """
    D = P[P_NEG] - 1
    rel = np.uint64(0)
    for s in range(4):
        my = _lane(hands[D], s)
        if my != 0:
            rel |= _bit(16 * s + _lob(my))
    skip_hearts = _hearts_banned(hands, leader, tl, P)
    any_ok = False
    for t in range(4):
        if t == HEARTS and skip_hearts:
            continue
        myt = _lane(hands[D], t)
        if leader == D:
            if myt == 0:
                continue
            # an exit: a defender holds t but no card of it below D's lowest
            below = (1 << _lob(myt)) - 1
            ex = False
            for q in range(4):
                if q != D:
                    hq = _lane(hands[q], t)
                    if hq != 0 and (hq & below) == 0:
                        ex = True
            if not ex:
                continue
        else:
            hl = _lane(hands[leader], t)
            if hl == 0:
                continue
            if myt != 0:
                below = (1 << _lob(myt)) - 1
                if (hl & below) != 0:
                    forcing = True
                    for q in range(4):
                        if q == D or q == leader:
                            continue
                        hq = _lane(hands[q], t)
                        if hq != 0 and (hq & below) == 0:
                            forcing = False
                    if forcing:
                        return False, rel
        # the second trick
        ok = True
        for s in range(4):
            my = _lane(hands[D], s)
            if my == 0:
                continue
            if s == t:
                my &= my - 1
                if my == 0:
                    continue
            if not _neg_guarded(hands, D, s, _lob(my), t):
                ok = False
                break
        if leader == D:
            if ok:
                return True, rel
        elif not ok:
            return False, rel
        any_ok = True
    return (leader != D) and any_ok, rel


@njit(**NUMBA_OPTS)
def _neg_lb(hands, tl, U, P, scm):
    """Least points of a seat who takes at most ``U`` of the ``tl`` remaining tricks: the
    ``U`` dearest tricks' points and the ``4 U`` dearest scoring cards still in hands."""
    pts = P[O_PTS:O_PTS + 64]
    tpl = P[O_TPL:O_TPL + 16]
    if U <= 0:
        return 0
    v = 0
    if U >= tl or tl <= P[P_TPL_MONO]:
        # the cheapest tricks are the last ones: a prefix sum
        v = P[O_TPS + min(U, tl)]
    else:
        # the U cheapest tricks (no allocation: the kernels run without NRT)
        used = 0
        for _ in range(U):
            bk = -1
            for k in range(1, tl + 1):
                if not (used >> k) & 1 and (bk < 0 or tpl[k] < tpl[bk]):
                    bk = k
            used |= 1 << bk
            v += tpl[bk]
    sc = (hands[0] | hands[1] | hands[2] | hands[3]) & scm
    n = 0
    cv = 0
    for s in range(4):
        ln = _lane(sc, s)
        while ln != 0:
            cv += pts[16 * s + _lob(ln)]
            n += 1
            ln &= ln - 1
    if n <= 4 * U:
        return v + cv
    # the 4 U cheapest scoring cards
    left = sc
    for _ in range(4 * U):
        bc = -1
        bv = 0
        for s in range(4):
            ln = _lane(left, s)
            while ln != 0:
                c = 16 * s + _lob(ln)
                if bc < 0 or pts[c] < bv:
                    bc = c
                    bv = pts[c]
                ln &= ln - 1
        left &= ~_bit(bc)
        v += bv
    return v


@njit(**NUMBA_OPTS)
def _neg_after(hands, D, t1, needed, u, later, P, masks):
    """``_neg_mid``'s test once ``D`` surely does not take the trick in progress, his hand
    in ``hands`` being already the one he keeps after it: is his value from the ``t1``
    tricks after it surely at least ``needed``? Returns it and the rel cards."""
    w = P[O_W:O_W + 4]
    wd = w[D]
    scm = masks[M_SCORING]
    if needed <= _neg_lb(hands, t1, t1, P, scm) * wd:
        return True, np.uint64(0)
    if t1 < 1:
        return False, np.uint64(0)
    g = np.int64(1)
    gmax = max(t1 // 2, np.int64(1))
    while g <= gmax and needed > _neg_lb(hands, t1, t1 - g, P, scm) * wd:
        g += 1
    if g > gmax:
        return False, np.uint64(0)
    if g <= 2:
        # the next trick, led by a defender, is lost when every suit of D is guarded
        ok = True
        grel = np.uint64(0)
        for s in range(4):
            my = _lane(hands[D], s)
            if my == 0:
                continue
            grel |= _bit(16 * s + _lob(my))
            if not _neg_guarded(hands, D, s, _lob(my), u):
                ok = False
                break
        if ok and g == 1:
            return True, grel
        if g == 1 and t1 < 2:
            return False, np.uint64(0)
        if ok and g == 2:
            # and the one after: whatever suit t a defender leads to it, D plays his
            # highest card below its top (or discards a suit's highest card), so his
            # lowest card of t is then at most his second lowest, of another suit his
            # lowest; that trick is lost when every suit of his is guarded after it
            # (_neg_guarded2)
            oth = hands[0] | hands[1] | hands[2] | hands[3]
            oth &= ~hands[D]
            for t in range(4):
                if _lane(oth, t) == 0:
                    continue
                for s in range(4):
                    my = _lane(hands[D], s)
                    if my == 0:
                        continue
                    if s == t:
                        my &= my - 1
                        if my == 0:
                            continue
                    if not _neg_guarded2(hands, D, s, _lob(my), u, t):
                        ok = False
                        break
                if not ok:
                    break
            if ok:
                return True, grel
    return _neg_exits(hands, t1, g, P, masks, later, u)


@njit(**NUMBA_OPTS)
def _neg_mid(hands, tbuf, base, nt, leader, tl, needed, P, masks):
    """Mid-trick test (``0 < nt < 4``) for a paranoid negative objective (``P_NEG``) whose
    tricks all score the same (``tpl`` uniform, nonzero: no stop cards): is the value
    from here surely at least ``needed``? Returns ``(decided, rel)``.

    The declarer ``D`` surely does not take this trick when he has played to it a card
    that is not the highest card of the suit led so far (no trumps), or is but a seat
    still to play holds the suit led with no card below it (he must beat it), or, yet to
    play, when
    he is void in the suit led or holds a card of it below that highest card (he plays
    the highest such card, or discards the highest card of one of his suits: the trick's
    highest card only rises). Then the trick's points go to a defender (weight 0), and
    his value from here is what he takes in the ``tl - 1`` tricks after it, at least
    ``_neg_lb`` of them for at most ``U`` tricks (the hands still hold the cards the later
    seats play to this trick, which go to that defender: counting them among the cards
    he might take keeps it a lower bound). True when that bound with ``U = tl - 1``
    reaches ``needed``, or with ``U = tl - 1 - g`` and ``D`` surely losing ``g`` of those
    tricks, whatever the defenders still to play put on this trick: his exit cards
    (``_neg_exits`` with ``later``), or, for ``g = 1``, the next trick (led by a
    defender) when every suit of his is guarded (``_neg_guarded``, which allows every
    defender one card of the suit led). The rel cards: the trick's highest card when
    ``D`` follows suit under it (what decided that he does not take it) and the tests'.
    """
    D = P[P_NEG] - 1
    dpos = (D - leader) % 4
    wc = tbuf[base]
    for i in range(1, nt):
        c = tbuf[base + i]
        if (c >> 4) == (wc >> 4) and c > wc:
            wc = c
    u = np.int64(wc >> 4)
    later = np.int64(0)
    for i in range(nt, 4):
        q = (leader + i) % 4
        if q != D:
            later |= np.int64(1) << q
    if dpos < nt:
        dc = tbuf[base + dpos]
        if dc == wc:
            # he still loses it when a later seat holds the suit led, all above his card
            forced = False
            for q in range(4):
                if (later >> q) & 1:
                    hq = _lane(hands[q], u)
                    if hq != 0 and (hq & ((1 << (dc & 15)) - 1)) == 0:
                        forced = True
            if not forced:
                return False, np.uint64(0)
        ok, rel = _neg_after(hands, D, tl - 1, needed, u, later, P, masks)
        if ok and (dc >> 4) == u:
            rel |= _bit(wc)
        return ok, rel
    myu = _lane(hands[D], u)
    if myu != 0:
        below = myu & ((1 << (wc & 15)) - 1)
        if below == 0:
            return False, np.uint64(0)
        b = _bit(16 * u + _hib(below))
        hands[D] &= ~b
        ok, rel = _neg_after(hands, D, tl - 1, needed, u, later, P, masks)
        hands[D] |= b
        return ok, rel | _bit(wc)
    for s in range(4):
        ln = _lane(hands[D], s)
        if ln == 0:
            continue
        b = _bit(16 * s + _hib(ln))
        hands[D] &= ~b
        ok, rel = _neg_after(hands, D, tl - 1, needed, u, later, P, masks)
        hands[D] |= b
        if ok:
            return True, rel
    return False, np.uint64(0)


@njit(**NUMBA_OPTS)
def _neg_lead_duck(hands, leader, tl, needed, P, masks):
    """``_neg_mid``'s test at a trick's start (``tl >= 2``), a defender ``L`` on lead: for
    every suit ``u`` that ``L`` may lead, ``D`` surely does not take the trick (void in
    ``u``, or holding a card of ``u`` below ``L``'s lowest: the trick's top is at least
    the card led) and then surely loses the tricks he still must (``_neg_after``, every
    defender counted as still to play, ``L`` with a card of ``u``). Returns it and the
    rel cards (the tests', and ``L``'s lowest card of ``u`` when ``D`` follows under it)."""
    D = P[P_NEG] - 1
    ban = P[P_HEART_BAN]
    banned = ban == 1 or (ban == 2 and P[P_WHOLE] != 0 and tl == P[P_FIRST_TL])
    skip_hearts = banned and (hands[leader] & ~(LANE << np.uint64(16 * HEARTS))) != 0
    later = np.int64(0)
    for q in range(4):
        if q != D:
            later |= np.int64(1) << q
    rel = np.uint64(0)
    for u in range(4):
        if u == HEARTS and skip_hearts:
            continue
        hl = _lane(hands[leader], u)
        if hl == 0:
            continue
        lc = _lob(hl)
        myu = _lane(hands[D], u)
        if myu != 0:
            below = myu & ((1 << lc) - 1)
            if below == 0:
                return False, np.uint64(0)
            b = _bit(16 * u + _hib(below))
            hands[D] &= ~b
            ok, r = _neg_after(hands, D, tl - 1, needed, np.int64(u), later, P,
                               masks)
            hands[D] |= b
            if not ok:
                return False, np.uint64(0)
            rel |= r | _bit(16 * u + lc)
        else:
            found = False
            for s in range(4):
                ln = _lane(hands[D], s)
                if ln == 0:
                    continue
                b = _bit(16 * s + _hib(ln))
                hands[D] &= ~b
                ok, r = _neg_after(hands, D, tl - 1, needed, np.int64(u), later, P, masks)
                hands[D] |= b
                if ok:
                    found = True
                    rel |= r
                    break
            if not found:
                return False, np.uint64(0)
    return True, rel


@njit(**NUMBA_OPTS)
def _neg_d_exit(hands, tl, needed, P, masks):
    """``_neg_mid``'s test at a trick's start (``tl >= 2``), the declarer ``D`` on lead: he
    leads his lowest card ``l`` of a suit ``s`` (heart-lead bans respected) that a defender
    holds with no card below ``l`` (that defender must beat it), and then surely loses the
    tricks he still must (``_neg_after``, every defender counted as still to play). Returns
    it and the rel cards (``l`` and the test's)."""
    D = P[P_NEG] - 1
    ban = P[P_HEART_BAN]
    banned = ban == 1 or (ban == 2 and P[P_WHOLE] != 0 and tl == P[P_FIRST_TL])
    skip_hearts = banned and (hands[D] & ~(LANE << np.uint64(16 * HEARTS))) != 0
    later = np.int64(0)
    for q in range(4):
        if q != D:
            later |= np.int64(1) << q
    for s in range(4):
        if s == HEARTS and skip_hearts:
            continue
        my = _lane(hands[D], s)
        if my == 0:
            continue
        l = _lob(my)
        ex = False
        for q in range(4):
            if q != D:
                hq = _lane(hands[q], s)
                if hq != 0 and (hq & ((1 << l) - 1)) == 0:
                    ex = True
        if not ex:
            continue
        b = _bit(16 * s + l)
        hands[D] &= ~b
        ok, r = _neg_after(hands, D, tl - 1, needed, np.int64(s), later, P, masks)
        hands[D] |= b
        if ok:
            return True, r | b
    return False, np.uint64(0)


@njit(**NUMBA_OPTS)
def _make_key(hands, leader, tl, st_t, st_c, rcnt, P, kbuf, row):
    """Fill ``kbuf[row]``: the exact part of the key (words ``0..E-1``: leader, tricks
    left, bonus state, Ravage counts, suit lengths of each hand, class layout of each
    suit), then the owners of each suit's cards from its lowest card in play up (2 bits a
    card, words E and E+1, 32 bits a suit) and the positions of the cards of minority
    scoring classes (words E+2, E+3).
    Return the hash of the exact part."""
    cls = P[O_CLS:O_CLS + 64]
    E = P[P_KWORDS]
    cb = P[P_CBITS]
    for i in range(E + 4):
        kbuf[row, i] = np.uint64(0)
    kbuf[row, 0] = np.uint64(leader | (tl << 2) | ((st_t + 2) << 6) | ((st_c + 2) << 9))
    wi = 1
    if P[P_RAVAGE] != 0:
        v = np.uint64(0)
        for i in range(16):
            v |= np.uint64(rcnt[i]) << np.uint64(4 * i)
        kbuf[row, 1] = v
        wi = 2
    lens = np.uint64(0)
    for p in range(4):
        for s in range(4):
            lens |= np.uint64(_pcnt(_lane(hands[p], s))) << np.uint64(4 * (4 * p + s))
    kbuf[row, wi] = lens
    wi += 1
    pos = 64 * wi
    for s in range(4):
        l1 = _lane(hands[1], s)
        l2 = _lane(hands[2], s)
        l3 = _lane(hands[3], s)
        ln = _lane(hands[0], s) | l1 | l2 | l3
        # owner of each card, 2 bits a card from the suit's lowest card in play up:
        # bit 0 = held by seat 1 or 3, bit 1 = by seat 2 or 3
        o0 = l1 | l3
        o1 = l2 | l3
        code = _owner_code(np.int64(ln), np.int64(o0), np.int64(o1))
        cmask = np.uint64(0)
        if 0 < cb <= 4:
            # the owners of the cards of every class but the suit's most common one are
            # keyed (with the suit lengths, that fixes how many cards of each class each
            # hand holds); the class of every card goes into the exact part (cb bits a
            # card in play, from the top, class 0 written as nothing)
            major = 0
            best_n = -1
            for ci in range(1 << cb):
                cn = np.int64(_pcnt(ln & _lane(np.uint64(P[O_CLM + ci]), s)))
                if cn > best_n:
                    best_n = cn
                    major = ci
            n = np.int64(_pcnt(ln))
            keep = _lane(np.uint64(P[O_CLM + major]), s) & _lane(np.uint64(P[O_CLM]), s)
            t = ln & ~keep
            while t != 0:
                r = _lob(t)
                t &= t - 1
                c = cls[16 * s + r]
                k = np.int64(_pcnt(ln >> (r + 1)))
                if c != major:
                    cmask |= np.uint64(3) << np.uint64(2 * (n - 1 - k))
                if c != 0:
                    at = pos + cb * k
                    word = at >> 6
                    off = at & 63
                    kbuf[row, word] |= np.uint64(c) << np.uint64(off)
                    if off + cb > 64:
                        kbuf[row, word + 1] |= np.uint64(c) >> np.uint64(64 - off)
            pos += cb * n
        elif cb > 0:
            # more than 16 classes: every card but those of class 0 keyed
            n = np.int64(_pcnt(ln))
            k = 0
            t = ln
            while t != 0:
                r = _hib(t)
                t ^= 1 << r
                c = cls[16 * s + r]
                if c != 0:
                    cmask |= np.uint64(3) << np.uint64(2 * (n - 1 - k))
                    word = pos >> 6
                    off = pos & 63
                    kbuf[row, word] |= np.uint64(c) << np.uint64(off)
                    if off + cb > 64:
                        kbuf[row, word + 1] |= np.uint64(c) >> np.uint64(64 - off)
                pos += cb
                k += 1
        sh = np.uint64(32 * (s & 1))
        kbuf[row, E + (s >> 1)] |= code << sh
        kbuf[row, E + 2 + (s >> 1)] |= cmask << sh
    return _exact_hash(kbuf, row, E)


@njit(**NUMBA_OPTS)
def _exact_hash(keys, row, E):
    """Hash of the exact part of a key (words ``0..E-1`` of ``keys[row]``)."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(E):
        h ^= keys[row, i]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(**NUMBA_OPTS)
def _tt_head(ttk, ttd, E, kbuf, row, h, bits, create):
    """Slot of the table's head array for the exact part of the key in ``kbuf[row]``
    (open addressing): -1 when absent (or when ``create`` finds no room).

    ``ttd[slot]`` is 0 for a free slot, else 1 + the first group of the slot's list; a new
    slot gets its key written and ``ttd`` 0 until the caller links a group.
    """
    n = np.int64(1) << bits
    slot = np.int64(h >> np.uint64(64 - bits))
    for _ in range(64):
        if ttd[slot] == 0:
            if not create:
                return -1
            for k in range(E):
                ttk[slot, k] = kbuf[row, k]
            return slot
        same = True
        for k in range(E):
            if ttk[slot, k] != kbuf[row, k]:
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & (n - 1)
    return -1


@njit(**NUMBA_OPTS)
def _te_hash(hs, lens4, c0, c1):
    """Hash of an entry's identity: its high bits give its home slot in the entry hash,
    its low 16 bits its two bits in its group's filter (``_filter_has``)."""
    x = np.uint64(hs) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(lens4)
    x ^= c0 * np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(29)
    x ^= c1 * np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(32)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    return x


@njit(**NUMBA_OPTS)
def _te_find(tte, ttd, bits, hs, lens4, c0, c1, x):
    """The entry with these masked codes (hash ``x``) in group ``lens4`` of head ``hs``:
    ``(entry, -1)``, or ``(-1, free slot of the entry hash)`` (-1 when none is near)."""
    n = np.int64(1) << bits
    slot = np.int64(x >> np.uint64(64 - bits))
    tag = np.uint64(np.int64(lens4 | (hs << 16)))
    fp = _te_fp(x)
    for _ in range(64):
        d = ttd[n + slot]
        if d == 0:
            return -1, slot
        # (the entry's row, a cache miss, only when the fingerprints agree)
        if (d >> 32) == fp:
            e = (d & 0xFFFFFFFF) - 1
            if tte[e, 0] == c0 and tte[e, 1] == c1 and tte[e, TE_P] == tag:
                return e, -1
        slot = (slot + 1) & (n - 1)
    return -1, -1


@njit(**NUMBA_OPTS)
def _te_fp(x):
    """Fingerprint of an entry hash kept beside the entry's index in ``ttd[n:]`` (bits
    8..38: not its home slot's bits; its second filter bit lies in 8..15)."""
    return np.int64((x >> np.uint64(8)) & np.uint64(0x7FFFFFFF))


@njit(**NUMBA_OPTS)
def _filter_has(tte, g, x):
    """May group ``g`` hold the entry of hash ``x``? Both its filter bits set (bits 0-7
    and 8-15 of ``x``). With one bit a third of No Tricks' entry lookups found nothing;
    two halve the lookups wasted (No Tricks and No Queens x0.97 CPU, BENCHMARKS.md,
    seventy-first session)."""
    b0 = x & np.uint64(255)
    b1 = (x >> np.uint64(8)) & np.uint64(255)
    return ((tte[g, 4 + (b0 >> np.uint64(6))] >> (b0 & np.uint64(63)))
            & (tte[g, 4 + (b1 >> np.uint64(6))] >> (b1 & np.uint64(63)))
            & np.uint64(1)) != 0


@njit(**NUMBA_OPTS)
def _filter_add(tte, g, x):
    """Set the two filter bits of hash ``x`` in group ``g`` (``_filter_has``)."""
    b0 = x & np.uint64(255)
    b1 = (x >> np.uint64(8)) & np.uint64(255)
    tte[g, 4 + (b0 >> np.uint64(6))] |= np.uint64(1) << (b0 & np.uint64(63))
    tte[g, 4 + (b1 >> np.uint64(6))] |= np.uint64(1) << (b1 & np.uint64(63))


@njit(**NUMBA_OPTS)
def _prefix_cards(hands, lens4):
    """The top ``k_s`` cards of each suit still in hands (``k_s`` packed 4 bits a suit)."""
    rem = hands[0] | hands[1] | hands[2] | hands[3]
    out = np.uint64(0)
    for s in range(4):
        k = (lens4 >> (4 * s)) & 15
        ln = _lane(rem, s)
        if HAS_BMI2:
            # (the top k of the suit's n cards: k ones deposited at its top positions)
            if k > 0:
                n = _pcnt(ln)
                if k > n:
                    k = n
                top = ((np.uint64(1) << np.uint64(k)) - np.uint64(1)) << np.uint64(n - k)
                out |= _pdep(top, ln) << np.uint64(16 * s)
            continue
        while k > 0 and ln != 0:
            r = _hib(ln)
            out |= _bit(16 * s + r)
            ln ^= 1 << r
            k -= 1
    return out


@njit(**NUMBA_OPTS)
def _trick_end(tbuf, base, leader, tl, P):
    """The trick at ``tbuf[base:base+4]`` (led by ``leader``, ``tl`` tricks left), all
    four cards down: (winner's index in the trick, winner, winning card, the trick's
    points, its cards, whether the winning card beat another card of its suit)."""
    pts = P[O_PTS:O_PTS + 64]
    wi = _winner_index(tbuf, base, P[P_TRUMP])
    wc = tbuf[base + wi]
    tp = P[O_TPL + tl]
    tmask = np.uint64(0)
    by_rank = False
    for i in range(4):
        cc = tbuf[base + i]
        tp += pts[cc]
        tmask |= _bit(cc)
        if i != wi and (cc >> 4) == (wc >> 4):
            by_rank = True
    return wi, (leader + wi) % 4, wc, tp, tmask, by_rank


@njit(**NUMBA_OPTS)
def _tt_probe(hands, tl, h, needed, P, ttk, tte, ttd, kbuf):
    """Does the table decide "the value from the position keyed in ``kbuf[tl]`` is at
    least ``needed``"? (decided, answer, the cards its entry keys). The same walk as
    ``_node``'s lookup, without reordering the chain or taking the entry's move."""
    E = P[P_KWORDS]
    bits = P[P_TTBITS]
    hs = _tt_head(ttk, ttd, E, kbuf, tl, h, bits, np.bool_(False))
    g = ttd[hs] - 1 if hs >= 0 else -1
    while g >= 0:
        lens4 = np.int64(tte[g, 2])
        c0 = kbuf[tl, E] & tte[g, 0]
        c1 = kbuf[tl, E + 1] & tte[g, 1]
        x = _te_hash(hs, lens4, c0, c1)
        if _filter_has(tte, g, x):
            i, _ = _te_find(tte, ttd, bits, hs, lens4, c0, c1, x)
            if i >= 0:
                if np.int64(tte[i, TE_LB]) >= needed:
                    return True, True, _prefix_cards(hands, lens4)
                if np.int64(tte[i, TE_UB]) < needed:
                    return True, False, _prefix_cards(hands, lens4)
        g = np.int64(tte[g, 3]) - 1
    return False, False, np.uint64(0)


@njit(**NUMBA_OPTS)
def _etc(hands, tbuf, base, leader, tl, needed, st_t, st_c, rcnt, P, masks, ttk, tte, ttd,
         kbuf, mbuf, ply, n, ismax):
    """Enhanced transposition cutoff at the fourth seat: before any of its ``n`` cards
    (``mbuf[ply, :n]``) is searched, each card's trick is completed and the next trick
    start looked up in the table; the first that the table decides in the seat's favour
    settles the node. Returns (settled, answer, rel), rel as the search would have it
    for that card (the entry's keyed cards, and the trick winner's card where its rank
    beat another card of its suit). Tricks that end the hand are left to the search.
    (Bridge-shaped sides from 10 tricks left: 3-4% fewer nodes and a little less CPU;
    BENCHMARKS.md, forty-third session.)"""
    p = (leader + 3) % 4
    w = P[O_W:O_W + 4]
    stopm = masks[M_STOP]
    for k in range(n):
        c = mbuf[ply, k]
        b = _bit(c)
        hands[p] &= ~b
        rem = hands[0] | hands[1] | hands[2] | hands[3]
        if rem == 0 or (stopm != 0 and (rem & stopm) == 0):
            hands[p] |= b
            continue
        tbuf[base + 3] = c
        wi, win, wc, tp, tmask, by_rank = _trick_end(tbuf, base, leader, tl, P)
        nst_t, nst_c = _after_trick(P, st_t, st_c, win, tmask, masks, rcnt, tbuf, base)
        hc = _make_key(hands, win, tl - 1, nst_t, nst_c, rcnt, P, kbuf, tl - 1)
        if P[P_RAVAGE] != 0:
            for i in range(4):
                rcnt[4 * win + (tbuf[base + i] >> 4)] -= 1
        dec, res, crel = _tt_probe(hands, tl - 1, hc, needed - w[win] * tp, P, ttk, tte,
                                   ttd, kbuf)
        hands[p] |= b
        if dec and res == ismax:
            if by_rank:
                crel |= _bit(wc)
            return True, res, crel
    return False, False, np.uint64(0)


@njit(**NUMBA_OPTS)
def _tt_store(hands, tl, h, result, needed, rel, best, P, ttk, tte, ttd, kbuf, stats):
    """Record a null-window result for the position in ``kbuf[tl]``, valid for every
    position that agrees on the exact part and on the owners of each suit's cards down to
    the lowest card in ``rel`` (the cards whose rank decided something)."""
    E = P[P_KWORDS]
    rem = hands[0] | hands[1] | hands[2] | hands[3]
    trump = P[P_TRUMP]
    lens4 = np.int64(0)
    m0 = np.uint64(0)
    m1 = np.uint64(0)
    for s in range(4):
        ln = _lane(rem, s)
        rl = _lane(rel, s) & ln
        if s == trump and P[P_TRUMP_EXACT] != 0:
            k = np.int64(_pcnt(ln))
        elif rl == 0:
            k = 0
        else:
            k = np.int64(_pcnt(ln >> _lob(rl)))
        if k < TOP_KEYED:
            k = min(TOP_KEYED, np.int64(_pcnt(ln)))
        if CANON and k > 0:
            # the run of the suit's lowest cards that one seat X holds needs no key: where
            # the cards above it are keyed, the suit lengths (the exact part) leave every
            # card below them to X, so the shorter key matches the same positions (one
            # group less, and a decision found through it claims fewer cards; bridge
            # notrump -3% nodes; BENCHMARKS.md, sixty-ninth session). Keyed: the cards
            # from the lowest one that X does not hold up (none where X holds the suit).
            lo = _lob(ln)
            for q in range(4):
                if (_lane(hands[q], s) >> lo) & 1:
                    oth = ln & ~_lane(hands[q], s)
                    k = min(k, np.int64(_pcnt(ln >> _lob(oth))) if oth != 0 else np.int64(0))
        lens4 |= k << (4 * s)
        stats[6] += k
        stats[7] += _pcnt(ln)
        nl = np.int64(_pcnt(ln))
        m = ((np.uint64(1) << np.uint64(2 * k)) - np.uint64(1)) << np.uint64(2 * (nl - k))
        if s < 2:
            m0 |= m << np.uint64(32 * (s & 1))
        else:
            m1 |= m << np.uint64(32 * (s & 1))
    m0 |= kbuf[tl, E + 2]
    m1 |= kbuf[tl, E + 3]
    c0 = kbuf[tl, E] & m0
    c1 = kbuf[tl, E + 1] & m1
    bits = P[P_TTBITS]
    n = np.int64(1) << bits
    hs = _tt_head(ttk, ttd, E, kbuf, tl, h, bits, np.bool_(True))
    if hs < 0:
        return
    g = ttd[hs] - 1
    while g >= 0 and np.int64(tte[g, 2]) != lens4:
        g = np.int64(tte[g, 3]) - 1
    slot = -1
    free = np.int64(-1)
    x = _te_hash(hs, lens4, c0, c1)
    if g >= 0:
        slot, free = _te_find(tte, ttd, bits, hs, lens4, c0, c1, x)
    if slot < 0:
        if 4 * (stats[13] + 2) > TT_FULL_QUARTERS * n:
            # the pool is full (the head array must not fill up either): stop for a
            # larger table, or start afresh
            if P[P_TT_GROW] != 0:
                stats[8] = 2
                return
            ttd[:] = 0
            stats[13] = 0
            stats[14] += 1
            hs = _tt_head(ttk, ttd, E, kbuf, tl, h, bits, np.bool_(True))
            x = _te_hash(hs, lens4, c0, c1)
            g = -1
        if g < 0:
            g = stats[13]
            stats[13] += 1
            tte[g, 0] = m0
            tte[g, 1] = m1
            tte[g, 2] = np.uint64(lens4)
            tte[g, 3] = np.uint64(ttd[hs])
            for j in range(4, 8):
                tte[g, j] = np.uint64(0)
            ttd[hs] = g + 1
            slot, free = _te_find(tte, ttd, bits, hs, lens4, c0, c1, x)
        if free < 0:
            return  # no room near its home slot: not stored
        slot = stats[13]
        stats[13] += 1
        ttd[n + free] = (slot + 1) | (_te_fp(x) << 32)
        _filter_add(tte, g, x)
        tte[slot, 0] = c0
        tte[slot, 1] = c1
        tte[slot, 2] = m0
        tte[slot, 3] = m1
        tte[slot, TE_LB] = np.uint64(np.int64(-(1 << 40)))
        tte[slot, TE_UB] = np.uint64(np.int64(1 << 40))
        tte[slot, TE_MV] = np.uint64(np.int64(-1))
        tte[slot, TE_P] = np.uint64(np.int64(lens4 | (hs << 16)))
        stats[3] += 1
    if result:
        if needed > np.int64(tte[slot, TE_LB]):
            tte[slot, TE_LB] = np.uint64(np.int64(needed))
    else:
        if needed - 1 < np.int64(tte[slot, TE_UB]):
            tte[slot, TE_UB] = np.uint64(np.int64(needed - 1))
    if best >= 0:
        tte[slot, TE_MV] = np.uint64(np.int64(_rel_index(hands, best)))


@njit(**NUMBA_OPTS)
def _tt_rehash(ttk, tte, ttd, bits, ttk2, tte2, ttd2, bits2, E, hmap):
    """Copy every group and entry of a table (``bits``) into an empty
    larger one (``bits2``); return the pool rows the copy uses (``hmap``: int64[2**bits],
    scratch). A search that filled its table goes on with a larger one without losing what
    it found. An entry with no free slot near its new home is dropped: the table is a
    cache."""
    n = np.int64(1) << bits
    n2 = np.int64(1) << bits2
    hmap[:] = -1
    rows = np.int64(0)
    for hs in range(n):
        if ttd[hs] == 0:
            continue
        h = _exact_hash(ttk, hs, E)
        slot = np.int64(h >> np.uint64(64 - bits2))
        while ttd2[slot] != 0:
            slot = (slot + 1) & (n2 - 1)
        for k in range(E):
            ttk2[slot, k] = ttk[hs, k]
        hmap[hs] = slot
        # the groups, in the same order
        g = ttd[hs] - 1
        last = np.int64(-1)
        while g >= 0:
            for j in range(3):
                tte2[rows, j] = tte[g, j]
            for j in range(3, 8):
                tte2[rows, j] = np.uint64(0)
            if last < 0:
                ttd2[slot] = rows + 1
            else:
                tte2[last, 3] = np.uint64(rows + 1)
            last = rows
            rows += 1
            g = np.int64(tte[g, 3]) - 1
    for i in range(n):
        e = (ttd[n + i] & 0xFFFFFFFF) - 1
        if e < 0:
            continue
        tp = np.int64(tte[e, TE_P])
        lens4 = tp & 0xFFFF
        hs2 = hmap[tp >> 16]
        if hs2 < 0:
            continue
        g = ttd2[hs2] - 1
        while g >= 0 and np.int64(tte2[g, 2]) != lens4:
            g = np.int64(tte2[g, 3]) - 1
        if g < 0:
            continue
        x = _te_hash(hs2, lens4, tte[e, 0], tte[e, 1])
        _, free = _te_find(tte2, ttd2, bits2, hs2, lens4, tte[e, 0], tte[e, 1], x)
        if free < 0:
            continue
        ttd2[n2 + free] = (rows + 1) | (_te_fp(x) << 32)
        _filter_add(tte2, g, x)
        for j in range(NTE):
            tte2[rows, j] = tte[e, j]
        tte2[rows, TE_P] = np.uint64(lens4 | (hs2 << 16))
        rows += 1
    return rows


@njit(**NUMBA_OPTS)
def _rel_index(hands, c):
    """Index from the top of card ``c`` among the cards of its suit still in hands."""
    s = c >> 4
    ln = _lane(hands[0] | hands[1] | hands[2] | hands[3], s)
    above = ln >> ((c & 15) + 1)
    return s * 16 + _pcnt(above)


@njit(**NUMBA_OPTS)
def _from_rel(hands, code):
    s = code >> 4
    idx = code & 15
    ln = _lane(hands[0] | hands[1] | hands[2] | hands[3], s)
    k = 0
    while ln != 0:
        r = _hib(ln)
        if k == idx:
            return 16 * s + r
        k += 1
        ln ^= 1 << r
    return -1


@njit(**NUMBA_OPTS)
def _follow(hands, p, nt, led, cur0, win0, est, P):
    """Predicted winner of the trick after seat ``p`` (the ``nt``-th card) leaves ``cur0``
    (won by ``win0``) on top. Each later seat either ducks (its lowest card) or plays high
    (its highest card of the suit led, or its lowest overruff when void); the trick is
    played out for every choice and each seat picks, last seat first, what its role
    prefers for a trick worth ``est`` (ties: duck). (Under ``P_SIDE_NT`` the order
    uses ``_side_winner`` instead.)"""
    w = P[O_W:O_W + 4]
    if P[P_NEG_DUCK] != 0:
        d = P[P_NEG] - 1
        if (w[d] - w[(d + 1) % 4]) * (est if est != 0 else P[P_PSIGN]) < 0:
            # (notrump) the declarer would rather lose this trick and the defenders want
            # him to take it: every seat ducks. A defender's lower card can only leave
            # the declarer forced to win it (then with his lowest card, whatever the
            # card on top), his own lowest card leaves the most later defenders forced
            # to overtake, and a defender after him has nothing better than to duck:
            # the play-out's winner, seat for seat (No Tricks x0.94 CPU, the same nodes:
            # BENCHMARKS.md, forty-fourth session)
            cur = cur0
            win = win0
            for j in range(3 - nt):
                q = (p + 1 + j) % 4
                hl = _lane(hands[q], led)
                cr = cur & 15
                if hl != 0 and (hl >> (cr + 1)) != 0 and \
                        (hl & ((1 << (cr + 1)) - 1)) == 0:
                    win = q
                    cur = 16 * led + _lob(hl >> (cr + 1)) + cr + 1
            return win
    trump = P[P_TRUMP]
    m = 3 - nt
    winners = 0
    for leaf in range(1 << m):
        cur = cur0
        win = win0
        for j in range(m):
            q = (p + 1 + j) % 4
            top = (leaf >> j) & 1
            hl = _lane(hands[q], led)
            cs = cur >> 4
            cr = cur & 15
            if hl != 0:
                if cs != led:
                    continue
                above = hl >> (cr + 1)
                if above == 0:
                    continue
                forced = (hl & ((1 << (cr + 1)) - 1)) == 0 or (
                    led == trump and P[P_LEAD_BEAT] != 0)
                if top:
                    win = q
                    cur = 16 * led + _hib(hl)
                elif forced:
                    win = q
                    cur = 16 * led + _lob(above) + cr + 1
            elif trump >= 0:
                tr = _lane(hands[q], trump)
                if tr == 0:
                    continue
                if cs == trump:
                    above = tr >> (cr + 1)
                    if above == 0:
                        continue
                    lowr = _lob(above) + cr + 1
                else:
                    lowr = _lob(tr)
                forced = P[P_VOID_RUFF] != 0 and (cs != trump or P[P_OVERTRUMP] != 0)
                if top or forced:
                    win = q
                    cur = 16 * trump + lowr
        winners |= win << (2 * leaf)
    v = est if est != 0 else P[P_PSIGN]
    for j in range(m - 1, -1, -1):
        q = (p + 1 + j) % 4
        mx = (P[P_MAXMASK] >> q) & 1
        for pre in range(1 << j):
            a = (winners >> (2 * pre)) & 3
            b = (winners >> (2 * (pre | (1 << j)))) & 3
            d = (w[b] - w[a]) * v
            if (mx and d > 0) or (mx == 0 and d < 0):
                a = b
            winners = (winners & ~(3 << (2 * pre))) | (a << (2 * pre))
    return winners & 3


@njit(**NUMBA_OPTS)
def _side_winner(hands, p, nt, led, cur0, win0):
    """``_follow``'s answer under ``P_SIDE_NT``: there its play-out always ends with the
    side holding the best card among ``cur0`` (won by ``win0``) and the later seats'
    cards of the suit led (its holder can play it, nobody can beat it, and each seat
    wants its own side to win). Returns that card's holder, a seat of the winner's
    weight (all the order's scores read there; bridge notrump x0.94 CPU, the same nodes:
    BENCHMARKS.md, forty-fourth session)."""
    best = cur0
    bw = win0
    for j in range(3 - nt):
        q = (p + 1 + j) % 4
        hl = _lane(hands[q], led)
        if hl != 0 and 16 * led + _hib(hl) > best:
            best = 16 * led + _hib(hl)
            bw = q
    return bw


@njit(**NUMBA_OPTS)
def _dumps(hands, p, nt, led, win, P, scoring):
    """Points the later seats would discard on a trick won by ``win``: each seat void in
    the suit led, other than the winner, whose role gains by it drops the scoring card
    worth the most to its role. (Points dropped while following suit: no better order
    in No Queens.)"""
    w = P[O_W:O_W + 4]
    pts = P[O_PTS:O_PTS + 64]
    add = 0
    for j in range(1, 4 - nt):
        q = (p + j) % 4
        if q == win:
            continue
        sq = 1 if (P[P_MAXMASK] >> q) & 1 else -1
        if _lane(hands[q], led) != 0:
            continue
        cand = hands[q] & scoring
        best = 0
        bestg = 0
        for s2 in range(4):
            ln = _lane(cand, s2)
            while ln != 0:
                x = pts[16 * s2 + _lob(ln)]
                ln &= ln - 1
                g = sq * w[win] * x
                if g > bestg:
                    bestg = g
                    best = x
        add += best
    return add


@njit(**NUMBA_OPTS)
def _predict(hands, p, nt, led, cur, win, est, P, scoring):
    """Predicted winner of the trick once seat ``p`` has played (``_follow``) and the
    points the later seats would discard on it (``_dumps``, when scoring cards exist)."""
    win = _follow(hands, p, nt, led, cur, win, est, P)
    dmp = 0
    if scoring != 0:
        dmp = _dumps(hands, p, nt, led, win, P, scoring)
    return win, dmp


@njit(**NUMBA_OPTS)
def _runs(lq, ip):
    """Runs of the cards ``lq`` among the cards in play ``ip`` of a suit (cards with no
    other card in play between them form one run)."""
    if HAS_BMI2:
        # the cards packed in the order of the cards in play: a run starts at each card
        # whose lower neighbour is not one
        c = _pext(lq, ip)
        return _pcnt(c & ~(c << np.uint64(1)))
    r = 0
    prev = 0
    x = ip
    while x != 0:
        b = _lob(x)
        mine = (lq >> b) & 1
        if mine and not prev:
            r += 1
        prev = mine
        x &= x - 1
    return r


@njit(**NUMBA_OPTS)
def _la_suit(hands, team, gone, s):
    """Sure-ish tricks of ``team`` (a seat mask) in suit ``s`` once the cards ``gone``
    are played: the top cards in play that the team holds in an unbroken run, at most
    its longest holding of the suit (ordering only: no bound)."""
    mx = 0
    tm = 0
    om = 0
    for q in range(4):
        lq = _lane(hands[q] & ~gone, s)
        if (team >> q) & 1:
            tm |= lq
            if _pcnt(lq) > mx:
                mx = _pcnt(lq)
        else:
            om |= lq
    # the team's cards above the other side's best card
    k = _pcnt(tm >> (_hib(om) + 1)) if om != 0 else _pcnt(tm)
    return min(k, mx)


@njit(**NUMBA_OPTS)
def _la_trick(hands, p, nt, s, cur, win, c, team, sk):
    """Sure-ish tricks of the mover's ``team`` after the trick is played out as predicted
    from seat ``p``'s card ``c`` (the ``nt``-th card of a trick in suit ``s`` that
    ``cur``, played by ``win``, leads so far; a lead when ``nt`` is 0): each later seat
    wins as cheaply as it can when an opponent is on top, else plays low; a void seat
    sheds the lowest card of its longest suit. 1 for the trick if the team takes it,
    plus ``_la_suit`` of each suit after it (``sk``: the suits' counts before the trick,
    8 bits a suit, for the suits the trick took no card of)."""
    if nt == 0 or ((c >> 4) == s and c > cur):
        cur = c
        win = p
    gone = _bit(c)
    for j in range(1, 4 - nt):
        q = (p + j) % 4
        hl = _lane(hands[q], s)
        if hl != 0:
            cr = cur & 15
            above = hl >> (cr + 1)
            if above != 0 and ((team >> q) & 1) != ((team >> win) & 1):
                r = _lob(above) + cr + 1
                cur = 16 * s + r
                win = q
            else:
                r = _lob(hl)
            gone |= _bit(16 * s + r)
        else:
            gone |= _shed(hands[q])
    t = 1 if (team >> win) & 1 else 0
    for s2 in range(4):
        if _lane(gone, s2) != 0:
            t += _la_suit(hands, team, gone, s2)
        else:
            t += (sk >> (8 * s2)) & 255
    return t


@njit(**NUMBA_OPTS)
def _insert_move(mbuf, ply, n, c, sc, first, kil, lead):
    """Insert card ``c`` with score ``sc`` among the ``n`` moves ordered so far in
    ``mbuf[ply]`` (cards in columns 0-15, scores in 16-31, by score, highest first):
    ``first`` (the table's move) goes first, ``kil`` (the killer) scores ``KILLER_W``
    more as a lead, ``KILLER_F`` inside a trick."""
    if c == first:
        sc = 1 << 60
    elif c == kil:
        sc += KILLER_W if lead else KILLER_F
    k = n
    while k > 0 and mbuf[ply, 16 + k - 1] < sc:
        mbuf[ply, 16 + k] = mbuf[ply, 16 + k - 1]
        mbuf[ply, k] = mbuf[ply, k - 1]
        k -= 1
    mbuf[ply, 16 + k] = sc
    mbuf[ply, k] = c


@njit(**NUMBA_OPTS)
def _estab(hands, team, s):
    """A notrump lead of suit ``s`` that each seat outside ``team`` (a seat mask) holds
    one card of at most, and holds some: after the trick every card the team keeps in
    ``s`` is a winner. Returns those cards' count (0 when the suit is not like that)."""
    opp_max = 0
    opp_n = 0
    left = 0
    for q in range(4):
        lq = np.int64(_pcnt(_lane(hands[q], s)))
        if (team >> q) & 1:
            left += lq - 1 if lq > 0 else 0
        else:
            opp_n += lq
            if lq > opp_max:
                opp_max = lq
    return left if opp_n > 0 and opp_max <= 1 else 0


@njit(**NUMBA_OPTS)
def _order_snt(hands, tbuf, base, nt, p, tl, moves, inplay, mbuf, ply, first, kil, P):
    """``_order``'s scores under ``P_SIDE_NT`` (notrump partnerships, every trick worth
    the same, no card scoring), without the branches that cannot apply there: the same
    moves in the same order (the search is unchanged), for less work a node. Every
    trick is worth ``T`` > 0 and every seat wants its side to take it (``good`` > 0)."""
    w = P[O_W:O_W + 4]
    T = P[O_TPL + tl]
    sign = 1 if (P[P_MAXMASK] >> p) & 1 else -1
    led = -1
    wi = -1
    wc = -1
    if nt > 0:
        led = tbuf[base] >> 4
        wi = 0
        wc = tbuf[base]
        for i in range(1, nt):
            c = tbuf[base + i]
            if (c >> 4) == led and c > wc:
                wi = i
                wc = c
    pa = (p + 2) % 4
    o1 = (p + 1) % 4
    o3 = (p + 3) % 4
    wown = sign * w[p] * T * 64
    woth = sign * w[o1] * T * 64
    team = (1 << p) | (1 << pa)
    nb_win1 = -1
    la = nt < 3 and P[P_QT] != 0 and LA_W != 0 and tl >= LA_TL
    la_sk = np.int64(0)
    if la:
        for s in range(4):
            la_sk |= _la_suit(hands, team, np.uint64(0), s) << (8 * s)
    optw = OPT_LA_W if la and tl >= OPT_LA_TL else OPT_W
    n = np.int64(0)
    for s in range(4):
        ln = _lane(moves, s)
        if ln == 0:
            continue
        sadd = 0
        estab = 0
        top_o = -1
        top_p = -1
        if nt == 0:
            # a lead: the other side's choices in the suit (a void hand's: its runs in
            # every suit), and what the lead establishes (as ``_order``)
            nopt = 0
            for q in (o1, o3):
                lq = _lane(hands[q], s)
                if lq == 0:
                    for s2 in range(4):
                        nopt += _runs(_lane(hands[q], s2), _lane(inplay, s2))
                else:
                    nopt += _pcnt(lq)
                    if _hib(lq) > top_o:
                        top_o = _hib(lq)
            sadd = -optw * nopt
            lp = _lane(hands[pa], s)
            if lp != 0:
                top_p = _hib(lp)
            if P[P_QT] != 0 and EST_W > 0:
                estab = _estab(hands, team, s)
        while ln != 0:
            r = _lob(ln)
            ln ^= 1 << r
            c = 16 * s + r
            if nt == 0:
                # the side of the suit's best card takes the trick (``_side_winner``)
                sc = woth if top_o > r and top_o > top_p else wown
            else:
                if (c >> 4) == led and c > wc:
                    win = _side_winner(hands, p, nt, led, c, p) if nt < 3 else p
                else:
                    if nt < 3:
                        if nb_win1 < 0:
                            nb_win1 = _side_winner(hands, p, nt, led, wc, (p - nt + wi) % 4)
                        win = nb_win1
                    else:
                        win = (p - nt + wi) % 4
                sc = sign * w[win] * T * 64
            sc -= r
            sc += sadd
            if la:
                if nt == 0:
                    sc += LA_W * _la_trick(hands, p, nt, s, c, p, c, team, la_sk)
                else:
                    sc += LA_W * _la_trick(hands, p, nt, led, wc, (p - nt + wi) % 4, c, team,
                                          la_sk)
            if estab > 0:
                sc += EST_W * estab * abs(w[p] * T)
            _insert_move(mbuf, ply, n, c, sc, first, kil, nt == 0)
            n += 1
    return n


@njit(**NUMBA_OPTS)
def _order(base, nt, p, tl, legal, mbuf, ply, first, kil):
    """Reduce ``legal`` to one card per equivalence run and order the moves.

    ``first`` (the table's best move) goes first; ``kil`` (a card that refuted a sibling
    position's first try at this ply, or -1) scores ``KILLER_W`` more (a lead) or
    ``KILLER_F`` (a play inside a trick). Returns the number of moves (in
    ``mbuf[ply, :n]``) and the bitboard of the cards left out as equivalent to a higher
    card of the same hand. Called once a node: like ``_node`` it rebuilds its arrays
    from ``mbuf[MB_CTX]`` rather than take them (about 40 words a call).
    """
    c = mbuf[MB_CTX]
    hands = _u64v(c[0], c[11])
    tbuf = _i64v(c[1], c[12])
    P = _i64v(c[3], c[14])
    masks = _u64v(c[4], c[15])
    w = P[O_W:O_W + 4]
    pts = P[O_PTS:O_PTS + 64]
    tpl = P[O_TPL:O_TPL + 16]
    cls = P[O_CLS:O_CLS + 64]
    inplay = hands[0] | hands[1] | hands[2] | hands[3]
    for i in range(nt):
        inplay |= _bit(tbuf[base + i])
    # one card of each run first: a card whose next higher card in play is the mover's,
    # legal and alike, is left out; a single move left needs no scores (28% of the
    # nodes ordered in bridge notrump: a follower with one card of the suit, or a run)
    moves = np.uint64(0)
    skipped = np.uint64(0)
    for s in range(4):
        ln = _lane(legal, s)
        ip = _lane(inplay, s)
        if HAS_BMI2 and P[P_CBITS] == 0:
            # (every card of one class) the same by bit operations: the legal cards
            # packed in the order of the cards in play, each one followed by another
            # legal card left out
            if ln != 0:
                lc = _pext(ln, ip)
                sk = _pdep(lc & (lc >> np.uint64(1)), ip)
                skipped |= sk << np.uint64(16 * s)
                moves |= (np.uint64(ln) & ~sk) << np.uint64(16 * s)
            continue
        while ln != 0:
            r = _lob(ln)
            bit = 1 << r
            ln ^= bit
            higher = ip & ~((bit << 1) - 1)
            if higher != 0:
                r2 = _lob(higher)
                if (_lane(legal, s) >> r2) & 1 and cls[16 * s + r] == cls[16 * s + r2]:
                    skipped |= _bit(16 * s + r)
                    continue
            moves |= _bit(16 * s + r)
    if moves & (moves - np.uint64(1)) == 0:
        mbuf[ply, 0] = _lowest_card(moves)
        return 1, skipped
    if P[P_SIDE_NT] != 0:
        return _order_snt(hands, tbuf, base, nt, p, tl, moves, inplay, mbuf, ply, first,
                          kil, P), skipped
    trump = P[P_TRUMP]
    sign = 1 if (P[P_MAXMASK] >> p) & 1 else -1
    # current winner of the trick so far
    led = -1
    wi = -1
    wc = -1
    tpts = tpl[tl]
    if nt > 0:
        led = tbuf[base] >> 4
        wi = 0
        wc = tbuf[base]
        tpts += pts[wc]
        for i in range(1, nt):
            c = tbuf[base + i]
            tpts += pts[c]
            if (c >> 4) == (wc >> 4):
                if c > wc:
                    wi = i
                    wc = c
            elif (c >> 4) == trump:
                wi = i
                wc = c
    # how much the mover's role gains by taking a trick itself rather than letting the
    # other role take it (sign only; ties: the contract's sign)
    wo = 0
    for q in range(4):
        if ((P[P_MAXMASK] >> q) & 1) != ((P[P_MAXMASK] >> p) & 1) and abs(w[q]) > abs(wo):
            wo = w[q]
    gain = sign * (w[p] - wo)
    scoring = masks[M_SCORING] & ~hands[p]
    negd = P[P_NEG] - 1
    n = np.int64(0)
    # caches (the search is unchanged): a card that does not beat the trick's current
    # card leaves the same (cur, win) to the later seats, so their predicted winner
    # depends only on the sign of the trick's worth (index 0: <= 0, 1: > 0); the
    # declarer's chain after a defender's lead depends only on the suit
    nb_win0 = -1
    nb_win1 = -1
    nb_dmp0 = 0
    nb_dmp1 = 0
    chain_known = 0
    chain_zero = 0
    team = _team_mask(p, P) | (1 << p)
    runs_all = (negd >= 0 and tpl[tl] != 0) or (trump >= 0 and _pcnt(P[P_MAXMASK]) != 2)
    # a defender's lead in No Tricks, or in No Hearts (the defenders discard hearts on
    # the tricks the declarer takes): a suit he is long in first, not the one he has the
    # fewest choices in (the more cards he holds there, the more tricks it can force on
    # him; the suits he ducks safely, tried first, made the tests that fail far dearer).
    # In No Last Two from the first trick (the more he must follow, the fewer cards he
    # can shed: README deals 0-6 x0.90 nodes, 52-card deals mostly fewer, 10- and
    # 32-card positions 5-8% more)
    long_first = nt == 0 and negd >= 0 and p != negd and P[P_NEG_LONG] != 0
    # a notrump card looks to the end of its trick (``_la_trick``): the side's sure tricks
    # by suit before the trick, 8 bits a suit
    la = nt < 3 and trump < 0 and P[P_QT] != 0 and negd < 0 and LA_W != 0 and tl >= LA_TL
    la_sk = np.int64(0)
    if la:
        for s in range(4):
            la_sk |= _la_suit(hands, team, np.uint64(0), s) << (8 * s)
    for s in range(4):
        ln = _lane(moves, s)
        ip = _lane(inplay, s)
        nopt = 0
        if nt == 0 and ln != 0 and (tpl[tl] == tpl[1] or p == negd) and not long_first:
            # a lead: the fewer choices the other side has in the suit, the smaller the
            # proof tends to be (where the last tricks score apart, as in No Last Two,
            # only the declarer's leads, weighing DLEAD_NL_W a choice: the defenders'
            # cost more nodes; where only cards score, his weigh DLEAD_CARDS_W: fewer
            # nodes in No Queens, more in No Tricks). A choice is a run of a hand's cards
            # among those in play (a void hand's, of all its suits: its discards) in No
            # Tricks and where one side plays alone against three with trumps; elsewhere
            # each card counts (fewer nodes), except a void hand's in notrump
            for j in range(1, 4):
                q = (p + j) % 4
                if ((P[P_MAXMASK] >> q) & 1) != ((P[P_MAXMASK] >> p) & 1):
                    lq = _lane(hands[q], s)
                    if lq == 0:
                        if runs_all or trump < 0:
                            for s2 in range(4):
                                nopt += _runs(_lane(hands[q], s2), _lane(inplay, s2))
                        else:
                            nopt += _ncards(hands[q])
                    elif runs_all:
                        nopt += _runs(lq, ip)
                    else:
                        nopt += _pcnt(lq)
        # the suit's share of a lead's score
        if tpl[tl] != tpl[1]:
            sadd = -DLEAD_NL_W * nopt
        elif p == negd and tpl[1] == 0:
            sadd = -DLEAD_CARDS_W * nopt
        elif la and tl >= OPT_LA_TL:
            # (the look-ahead's count says much of what the choices did: the first
            # tricks' leads weigh them less)
            sadd = -OPT_LA_W * nopt
        else:
            sadd = -OPT_W * nopt
        if long_first:
            sadd = DLEN_W * _pcnt(_lane(hands[negd], s))
            if w[p] != 0 and tpl[tl] != 0:
                # the other end of a bet (he weighs too, and his tricks score): from
                # his own short suits first, as the declarer leads
                sadd -= BSH_W * _pcnt(_lane(hands[p], s))
        if nt == 0 and ln != 0 and negd >= 0 and tpl[tl] == tpl[1]:
            if p == negd:
                if tpl[tl] != 0:
                    # No Tricks, the declarer's lead: from his short suits first (void,
                    # he discards later; in No Queens and No Hearts more nodes)
                    sadd -= DSH_W * _pcnt(_lane(hands[p], s))
            else:
                if _lane(hands[negd] & masks[M_SCORING], s) != 0:
                    # a defender's lead of a suit in which the declarer holds a scoring
                    # card (No Queens) lets him drop it under a higher card: later
                    sadd += DSC_W
        estab = 0
        if nt == 0 and ln != 0 and trump < 0 and P[P_QT] != 0 and negd < 0 and EST_W > 0:
            estab = _estab(hands, team, s)
        while ln != 0:
            r = _lob(ln)
            bit = 1 << r
            ln ^= bit
            c = 16 * s + r
            # predicted winner of the trick
            # (a trick worth nothing, with no scoring card left to drop on it, as No
            # Last Two's early tricks: the predicted winner would weigh nothing below)
            if nt == 0:
                est = tpl[tl] + pts[c]
                if est == 0 and scoring == 0:
                    win = p
                else:
                    win = _follow(hands, p, np.int64(0), s, c, p, est, P)
                if scoring != 0:
                    est += _dumps(hands, p, np.int64(0), s, win, P, scoring)
            else:
                cur = wc
                beats = False
                if (c >> 4) == (cur >> 4):
                    beats = c > cur
                elif (c >> 4) == trump:
                    beats = True
                if beats:
                    win = p
                    cur = c
                else:
                    win = (p - nt + wi) % 4
                est = tpts + pts[c]
                if nt < 3 and (est != 0 or scoring != 0):
                    if beats:
                        win, dmp = _predict(hands, p, nt, led, cur, win, est, P,
                                            scoring)
                    else:
                        # a card that does not beat the trick leaves the same prediction
                        # as any other such card of the same sign of worth: compute once
                        if (est if est != 0 else P[P_PSIGN]) > 0:
                            if nb_win1 < 0:
                                nb_win1, nb_dmp1 = _predict(hands, p, nt, led, cur, win, est,
                                                            P, scoring)
                            win, dmp = nb_win1, nb_dmp1
                        else:
                            if nb_win0 < 0:
                                nb_win0, nb_dmp0 = _predict(hands, p, nt, led, cur, win, est,
                                                            P, scoring)
                            win, dmp = nb_win0, nb_dmp0
                    est += dmp
            # (a scoring card given to the winner no longer threatens its holder)
            sc = sign * (w[win] * est - w[p] * pts[c]) * 64
            if negd >= 0 and w[p] == 0 and w[win] == 0 and pts[c] != 0 and tl > 1:
                # a defender who plays a scoring card to a trick that a seat of no weight
                # takes wastes it: kept, it can fall on one of the declarer's tricks
                # (No Queens, README deals 0-9: 78.8 M -> 43.9 M nodes; BENCHMARKS.md,
                # twenty-ninth session)
                sc -= KEEP_W * abs(pts[c])
            # tie-breaks: a trick worth taking is won cheaply and lost with a low card;
            # a trick that hurts is won or lost with the highest card (unload)
            good = gain * (est if est != 0 else P[P_PSIGN])
            if good > 0:
                sc -= r
                if nt == 0 and win != p and w[win] == w[p] and w[p] != 0 and trump >= 0:
                    # with trumps, a lead the leader wins himself before one his partner
                    # wins (in notrump they rank alike: fewer nodes)
                    sc -= 16
            else:
                sc += r
            sc += sadd
            if la and good > 0:
                # a notrump card, looked at to the end of its trick: the sure tricks the
                # mover's side has once the trick is played out (a lead that knocks out
                # the other side's stopper can beat cashing a winner: the proof after it
                # is short; (a)'s deals x0.66 nodes; BENCHMARKS.md, thirty-eighth session)
                if nt == 0:
                    sc += LA_W * _la_trick(hands, p, nt, s, c, p, c, team, la_sk)
                else:
                    sc += LA_W * _la_trick(hands, p, nt, led, wc, (p - nt + wi) % 4, c, team,
                                          la_sk)
            if estab > 0 and good > 0:
                # (the mover wants tricks: a lead that sets up a suit first)
                sc += EST_W * estab * abs(w[p] * tpl[tl])
            if nt > 0 and s != led and negd >= 0 and (tpl[tl] == tpl[1] or p == negd):
                # a discard in a negative contract: from a short suit first, the
                # declarer's by DDIS_W a card (his voids let him shed the cards that would
                # take tricks), the defenders' by DIS_W (not where the last tricks score
                # apart: more nodes in No Last Two)
                sc += (DDIS_W if p == negd else DIS_W) * _pcnt(_lane(hands[p], s))
            if negd >= 0 and p != negd and nt == 0:
                # a defender's lead: a suit the declarer is void in lets him discard
                if _lane(hands[negd], s) == 0:
                    sc -= 40
                elif win == negd and tl > 1 and est != 0:
                    # he wins it but then has a safe exit: after the leads he does not win
                    if not (chain_known >> s) & 1:
                        kc, kr = _neg_chain(hands, negd, np.int64(s), np.int64(tl - 1))
                        chain_known |= 1 << s
                        if kc == 0:
                            chain_zero |= 1 << s
                    if (chain_zero >> s) & 1:
                        sc -= 64 * abs(est) + 16
            _insert_move(mbuf, ply, n, c, sc, first, kil, nt == 0)
            n += 1
    return n, skipped


@njit(**NUMBA_OPTS)
def _after_trick(P, st_t, st_c, win, tmask, masks, rcnt, tbuf, base):
    """Whole-hand bonus states and Ravage City counts once ``win`` takes the trick at
    ``tbuf[base:base+4]``: (who has taken every trick so far, who every scoring card;
    -1 nobody yet, -2 several)."""
    nst_t = st_t
    if P[P_BONUS_T] != 0:
        nst_t = win if (st_t == -1 or st_t == win) else -2
    nst_c = st_c
    if P[P_BONUS_C] != 0 and (tmask & masks[M_SCORING]) != 0:
        nst_c = win if (st_c == -1 or st_c == win) else -2
    if P[P_RAVAGE] != 0:
        for i in range(4):
            rcnt[4 * win + (tbuf[base + i] >> 4)] += 1
    return nst_t, nst_c


@njit(**NUMBA_OPTS)
def _eq_later(hands, p, nt, c, crel, later, P):
    """The untried moves of ``later`` that need no search once the card ``c`` of seat
    ``p`` has been searched without a cutoff: those of the same suit and class whose rank,
    like ``c``'s, lies below every card of that suit in the child's ``crel``.

    The child positions after ``c`` and after such a card ``y`` differ only in which of
    the two is in the trick and which in ``p``'s hand. Both lie below the cards whose rank
    decided anything (``crel``), so the positions agree on everything the answer relies
    on: the owners of the suit's cards down to its lowest ``crel`` card, the suit lengths
    and, at each later table probe, the exact part of the key. For that last part the
    cards in hands strictly between ``c`` and ``y`` must be of their class (the class
    layout from the top is then the same), and every other class of the suit must have
    one card at most (so the owners of the class's cards are not keyed while they could
    differ). A trump suit keyed in full (``P_TRUMP_EXACT``) is left alone.
    """
    s = c >> 4
    if s == P[P_TRUMP] and P[P_TRUMP_EXACT] != 0:
        return np.uint64(0)
    cand = _lane(later, s)
    if cand == 0:
        return np.uint64(0)
    r = c & 15
    lr = _lane(crel, s)
    if lr != 0:
        low = np.int64(_lob(lr))
        if r >= low:
            return np.uint64(0)
        cand &= (1 << low) - 1
    cb = P[P_CBITS]
    if cb > 0:
        if cb > 4:
            return np.uint64(0)
        cc = P[O_CLS + c]
        inh = _lane(hands[0] | hands[1] | hands[2] | hands[3], s)
        same = inh & _lane(np.uint64(P[O_CLM + cc]), s)
        cand &= same
        other = inh & ~same
        if other != 0:
            # every other class of the suit has one card at most: then while a card
            # between the two is still in play, c's class has two or more and is the
            # suit's most common (its owners are not keyed); once none is, the one of the
            # two still held sits at the same place from the top in both positions
            t = other
            while t != 0:
                km = _lane(np.uint64(P[O_CLM + P[O_CLS + 16 * s + _lob(t)]]), s)
                if _pcnt(inh & km) > 1:
                    return np.uint64(0)
                t &= ~km
            above = other >> (r + 1)
            if above != 0:
                cand &= (1 << (r + 1 + _lob(above))) - 1
            below = other & ((1 << r) - 1)
            if below != 0:
                cand &= ~((1 << (_hib(below) + 1)) - 1)
    return np.uint64(cand) << np.uint64(16 * s)


@njit(**NUMBA_OPTS)
def _level_record(hands, leader, tl, needed, result, nodes, stats):
    """Count a trick-boundary node searched move by move (``LEVEL_STATS``) and record
    it when it is the ``stats[LV_EVERY]``-th of its level ``stats[LV_TL]``."""
    stats[LV_OPEN + tl] += 1
    if result:
        stats[LV_HELD + tl] += 1
    if tl == stats[LV_TL] and stats[LV_EVERY] > 0 and stats[LV_NREC] < LV_MAXREC and \
            stats[LV_OPEN + tl] % stats[LV_EVERY] == 0:
        o = LV_REC + LV_RECW * stats[LV_NREC]
        for i in range(4):
            stats[o + i] = np.int64(hands[i])
        stats[o + 4] = leader
        stats[o + 5] = needed
        stats[o + 6] = result
        stats[o + 7] = nodes
        stats[LV_NREC] += 1


@njit(**NUMBA_OPTS)
def _rank_scores(tbuf, base, leader, wi, w, P):
    """On a trick that ends the hand (card ``wi`` wins): does the winner's rank decide the
    value? Only where it beat a card of its suit held by a seat of another objective
    weight, or where path state (whole-hand bonuses, Ravage City) scores who took what:
    re-ranking seats of one weight leaves the value as it is."""
    path = P[P_BONUS_T] != 0 or P[P_BONUS_C] != 0 or P[P_RAVAGE] != 0
    wc = tbuf[base + wi]
    win = (leader + wi) % 4
    for i in range(4):
        if i != wi and (tbuf[base + i] >> 4) == (wc >> 4) and (
                path or w[(leader + i) % 4] != w[win]):
            return True
    return False


def _view_codegen(dtype, ndim):
    """Code of an intrinsic (address, shape...) -> C-contiguous array without an owner."""
    def codegen(context, builder, signature, args):
        arrty = signature.return_type
        ary = make_array(arrty)(context, builder)
        dt = context.get_data_type(dtype)
        isz = context.get_abi_sizeof(dt)
        data = builder.inttoptr(args[0], dt.as_pointer())
        shape = list(args[1:1 + ndim])
        strides = []
        acc = context.get_constant(types.intp, isz)
        for k in range(ndim - 1, -1, -1):
            strides.insert(0, acc)
            acc = builder.mul(acc, shape[k])
        populate_array(ary, data=data, shape=shape, strides=strides,
                       itemsize=context.get_constant(types.intp, isz), meminfo=None)
        return ary._getvalue()
    return codegen


@intrinsic
def _u64v(typingctx, addr, n):
    """The n uint64 at address ``addr``, as an array (no owner: the caller keeps it)."""
    return types.Array(types.uint64, 1, "C")(types.int64, types.int64), \
        _view_codegen(types.uint64, 1)


@intrinsic
def _i64v(typingctx, addr, n):
    """The n int64 at address ``addr``, as an array."""
    return types.Array(types.int64, 1, "C")(types.int64, types.int64), \
        _view_codegen(types.int64, 1)


@intrinsic
def _u64m(typingctx, addr, n0, n1):
    """The n0 x n1 uint64 at address ``addr``, as a C-contiguous array."""
    return types.Array(types.uint64, 2, "C")(types.int64, types.int64, types.int64), \
        _view_codegen(types.uint64, 2)


@njit(inline="always", **NUMBA_OPTS)
def _search(hands, tbuf, nt, leader, tl, needed, st_t, st_c, rcnt, only, P, masks,
            ttk, tte, ttd, kbuf, mbuf, relbuf, stats):
    """Null-window test: can the maximisers make the value from here >= ``needed``?

    On return ``relbuf[4 * tl + nt]`` holds the cards whose rank the answer relies on.
    The recursion (``_node``) takes its arrays from ``mbuf[MB_CTX]`` (their addresses and
    shapes, written here; module notes), so every array must be C-contiguous, as
    ``np.zeros`` and ``.copy()`` make them, and stay alive for the call (it does: the
    caller holds it).

    Inlined into ``_solve`` (numba's ``inline="always"``, on its IR): compiled apart,
    it was one more library linking ``_node``'s code, optimised once more by LLVM (about
    5% of the trick kernel's first compile). Called from Python (benchmarks), it is
    compiled on its own as before.
    """
    c = mbuf[MB_CTX]
    c[0] = np.int64(hands.ctypes.data)
    c[1] = np.int64(tbuf.ctypes.data)
    c[2] = np.int64(rcnt.ctypes.data)
    c[3] = np.int64(P.ctypes.data)
    c[4] = np.int64(masks.ctypes.data)
    c[5] = np.int64(ttk.ctypes.data)
    c[6] = np.int64(tte.ctypes.data)
    c[7] = np.int64(ttd.ctypes.data)
    c[8] = np.int64(kbuf.ctypes.data)
    c[9] = np.int64(relbuf.ctypes.data)
    c[10] = np.int64(stats.ctypes.data)
    c[11] = hands.shape[0]
    c[12] = tbuf.shape[0]
    c[13] = rcnt.shape[0]
    c[14] = P.shape[0]
    c[15] = masks.shape[0]
    c[16] = ttk.shape[0]
    c[17] = ttk.shape[1]
    c[18] = tte.shape[0]
    c[19] = tte.shape[1]
    c[20] = ttd.shape[0]
    c[21] = kbuf.shape[0]
    c[22] = kbuf.shape[1]
    c[23] = relbuf.shape[0]
    c[24] = stats.shape[0]
    return _node(mbuf, nt, leader, tl, needed, st_t, st_c, only)


@njit(**NUMBA_OPTS)
def _tt_lookup(mbuf, leader, tl, needed, st_t, st_c):
    """``_node``'s table lookup at a trick start: (1 / 0 when an entry decides the test
    "value >= ``needed``" either way, else -1; the key's hash; the best move of the
    entries found, -1 if none; the decisive entry's keyed cards). A group whose entry
    decides moves to the front of its head's chain. Like ``_node`` it rebuilds its arrays
    from ``mbuf[MB_CTX]`` rather than take them."""
    c = mbuf[MB_CTX]
    hands = _u64v(c[0], c[11])
    rcnt = _i64v(c[2], c[13])
    P = _i64v(c[3], c[14])
    ttk = _u64m(c[5], c[16], c[17])
    tte = _u64m(c[6], c[18], c[19])
    ttd = _i64v(c[7], c[20])
    kbuf = _u64m(c[8], c[21], c[22])
    stats = _i64v(c[10], c[24])
    E = P[P_KWORDS]
    h = _make_key(hands, leader, tl, st_t, st_c, rcnt, P, kbuf, tl)
    bits = P[P_TTBITS]
    hs = _tt_head(ttk, ttd, E, kbuf, tl, h, bits, np.bool_(False))
    g = ttd[hs] - 1 if hs >= 0 else -1
    prev = np.int64(-1)
    first = np.int64(-1)
    while g >= 0:
        # each group: the one entry (if any) with this position's masked codes
        lens4 = np.int64(tte[g, 2])
        ng = np.int64(tte[g, 3])
        c0 = kbuf[tl, E] & tte[g, 0]
        c1 = kbuf[tl, E + 1] & tte[g, 1]
        x = _te_hash(hs, lens4, c0, c1)
        i = np.int64(-1)
        if _filter_has(tte, g, x):
            i, _ = _te_find(tte, ttd, bits, hs, lens4, c0, c1, x)
        if i >= 0:
            stats[2] += 1
            cut_lb = np.int64(tte[i, TE_LB]) >= needed
            if cut_lb or np.int64(tte[i, TE_UB]) < needed:
                if prev >= 0:
                    # move the group to the front: a group that decided once tends to
                    # decide again, and each lookup is a cache miss
                    tte[prev, 3] = np.uint64(ng)
                    tte[g, 3] = np.uint64(ttd[hs])
                    ttd[hs] = g + 1
                stats[12] += 1
                return np.int64(1 if cut_lb else 0), h, first, _prefix_cards(hands, lens4)
            mv_i = np.int64(tte[i, TE_MV])
            if mv_i >= 0 and first < 0:
                first = _from_rel(hands, mv_i)
        prev = g
        g = ng - 1
    return np.int64(-1), h, first, np.uint64(0)


@njit(**NUMBA_OPTS)
def _node(mbuf, nt, leader, tl, needed, st_t, st_c, only):
    """``_search``'s recursion: the same test, its arrays rebuilt from ``mbuf[MB_CTX]``."""
    c = mbuf[MB_CTX]
    hands = _u64v(c[0], c[11])
    tbuf = _i64v(c[1], c[12])
    rcnt = _i64v(c[2], c[13])
    P = _i64v(c[3], c[14])
    masks = _u64v(c[4], c[15])
    ttk = _u64m(c[5], c[16], c[17])
    tte = _u64m(c[6], c[18], c[19])
    ttd = _i64v(c[7], c[20])
    kbuf = _u64m(c[8], c[21], c[22])
    relbuf = _u64v(c[9], c[23])
    stats = _i64v(c[10], c[24])
    w = P[O_W:O_W + 4]
    pts = P[O_PTS:O_PTS + 64]
    tpl = P[O_TPL:O_TPL + 16]
    stats[0] += 1
    if P[P_NODE_LIMIT] > 0 and stats[0] > P[P_NODE_LIMIT]:
        stats[8] = 1
    if mbuf[MB_PROBE, 0] > 0 and stats[0] > mbuf[MB_PROBE, 0] and stats[8] == 0:
        stats[8] = 3  # a probe ran out of nodes (the move loop below)
    if stats[8] != 0:
        relbuf[4 * tl + nt] = 0
        return False
    ZERO = np.int64(0)
    MINUS1 = np.int64(-1)
    base = 4 * tl
    ply = base + nt
    p = (leader + nt) % 4
    use_tt = False
    h = np.uint64(0)
    first = -1
    n0 = np.int64(0)
    if LEVEL_STATS:
        n0 = stats[0]
        if nt == 0:
            stats[LV_SEEN + tl] += 1
    if nt == 0:
        lo, hi = _bounds(hands, tbuf, base, ZERO, tl, st_t, st_c, P, masks)
        stats[9] += 1
        if needed <= lo:
            relbuf[ply] = 0
            stats[10] += 1
            return True
        if needed > hi:
            relbuf[ply] = 0
            stats[10] += 1
            return False
        if tl == 1:
            # the last trick plays itself
            tp = tpl[1]
            tmask = np.uint64(0)
            for i in range(4):
                hq = hands[(leader + i) % 4]
                c = 0
                for s2 in range(4):
                    ln = _lane(hq, s2)
                    if ln != 0:
                        c = 16 * s2 + _lob(ln)
                tbuf[base + i] = c
                tp += pts[c]
                tmask |= _bit(c)
            wi = _winner_index(tbuf, base, P[P_TRUMP])
            win = (leader + wi) % 4
            wc = tbuf[base + wi]
            # the winner's rank is relied on only where a card it beat is of a seat of
            # another weight (or where path state scores who took what): re-ranking the
            # last trick among seats of one weight leaves the value as it is
            rel1 = _bit(wc) if _rank_scores(tbuf, base, leader, wi, w, P) else np.uint64(0)
            nst_t, nst_c = _after_trick(P, st_t, st_c, win, tmask, masks, rcnt, tbuf, base)
            adj = _terminal(P, nst_t, nst_c, rcnt, np.bool_(True), np.bool_(False))
            if P[P_RAVAGE] != 0:
                for i in range(4):
                    rcnt[4 * win + (tbuf[base + i] >> 4)] -= 1
            relbuf[ply] = rel1
            return w[win] * tp + adj >= needed
        # from TT_FIRST_TL tricks left the table first: an entry that decides saves the
        # bounds' work below (bridge notrump's quick tricks x0.92-0.98 CPU, the paranoid
        # declarer's _neg_bounds in No Queens, No Hearts, No King and No Last Two
        # x0.92-0.96; nearer the end the bounds' narrower keys save more nodes than the
        # lookup saves time;
        # BENCHMARKS.md, forty-sixth session). The bounds first with trumps outside the
        # paranoid negative shape (the table first: Trumps +15% nodes, x1.06 CPU) and
        # where the declarer's exits and lower bounds apply (No Tricks: +4% nodes)
        tt_on = P[P_USE_TT] != 0 and only < 0 and tl > 1
        tt_first = tt_on and tl >= TT_FIRST_TL and (
            P[P_TRUMP] < 0 if P[P_NEG] == 0 else tl > P[P_NEG_UNI])
        if tt_first:
            tres, h, first, trel = _tt_lookup(mbuf, leader, tl, needed, st_t, st_c)
            if tres >= 0:
                relbuf[ply] = trel
                return tres > 0
            use_tt = True
        if P[P_NEG] != 0 and only < 0 and tl > P[P_NEG_UNI]:
            # (where every trick scores the same, the bounds below decide nearly every
            # node this one would: in No Tricks it cut 1% of the nodes it was asked,
            # at some 8% of the search's time; BENCHMARKS.md, thirty-first session)
            kind, nv, nrel = _neg_bounds(hands, leader, tl, P, masks[M_SCORING])
            if kind != 0 and P[P_NEG_BET] != 0:
                # a bet: the opponent's points only add, so the declarer's value is a
                # lower bound (kind 1), and his upper bound (kind 2) says nothing
                if kind == 1 and needed <= nv:
                    relbuf[ply] = nrel
                    stats[11] += 1
                    return True
            elif kind != 0:
                if kind == 1 or needed > nv:
                    relbuf[ply] = nrel
                    stats[11] += 1
                    return needed <= nv
        if tl <= P[P_NEG_UNI] and only < 0:
            # the declarer surely loses g of the remaining tricks (this trick, or this
            # one and the next, or he ducks each lead and then loses the rest he
            # must): he takes at most tl - g of them. (Only
            # where every trick scores the same: elsewhere the bound cuts mostly near the
            # end, and its rel cards cost the table more than the search it saves: No
            # Queens 10 cards 416k -> 462k nodes, No Last Two 80k -> 94k, No Hearts
            # about even.)
            wd = w[P[P_NEG] - 1]
            scm = masks[M_SCORING]
            # the fewest tricks g he must lose, where that is one or two (else nothing:
            # for three or more only the exit count applied, and it never proved one in
            # 54 M asks; BENCHMARKS.md, seventy-first session)
            gmax = min(np.int64(2), tl)
            g = gmax + 1
            if needed <= _neg_lb(hands, tl, tl - gmax, P, scm) * wd:
                g = np.int64(1)
                while g < gmax and needed > _neg_lb(hands, tl, tl - g, P, scm) * wd:
                    g += 1
            if g <= 2:
                # (not the exit count `_neg_exits` here: it proved 2% of its asks, and
                # the other bounds and the table settle nearly all of those: without it
                # No Tricks' heavy deal +0.25% nodes, about -4% CPU; BENCHMARKS.md,
                # seventy-first session)
                if g == 1:
                    lost, lrel = _neg_lose1(hands, leader, tl, P)
                    if not lost:
                        lost, lrel = _neg_lose_one(hands, leader, tl, P)
                else:
                    lost, lrel = _neg_lose2(hands, leader, tl, P)
                if lost:
                    relbuf[ply] = lrel
                    stats[11] += 1
                    return True
            if g <= 2 and tl >= 2:
                # (only where he must lose one or two tricks: with three or more to
                # lose it cut 2% of the nodes it was asked, with more none)
                # he ducks every lead (or leads an exit) and then surely loses the tricks
                # he still must
                if leader != P[P_NEG] - 1:
                    lost, lrel = _neg_lead_duck(hands, leader, tl, needed, P,
                                                masks)
                else:
                    lost, lrel = _neg_d_exit(hands, tl, needed, P, masks)
                if lost:
                    relbuf[ply] = lrel
                    stats[11] += 1
                    return True
        if P[P_QT] != 0 and only < 0:
            # (a bound on the best play, not on one given card)
            wantL = _qt_want(leader, tl, needed, P)
            q, qrel = _quick_tricks(hands, leader, tl, P, wantL)
            sure = _sure_cut(q, leader, tl, needed, P)
            if sure != 0:
                relbuf[ply] = qrel
                stats[11] += 1
                return sure > 0
            if LATER and P[P_TRUMP] < 0 and P[P_HEART_BAN] == 0 and masks[M_FORCED] == 0:
                # one side surely takes a trick when the other cannot take them all
                # (_short_of_all), where that one trick decides the test; each side's
                # seats of one weight and role, every lead and discard free
                tmL = _team_mask(leader, P) | (1 << leader)
                y = np.int64(0)
                while y < 3 and (tmL >> y) & 1:
                    y += 1
                tmY = _team_mask(y, P) | (1 << y)
                # (not where all four seats are one side: there is no other)
                if tmL != 15 and tmL | tmY == 15:
                    wantY = _qt_want(y, tl, needed, P)
                    for side in range(2):
                        qs = leader if side == 0 else y
                        if (wantL if side == 0 else wantY) == 1:
                            short, srel = _short_of_all(hands, tl, tmY if side == 0 else tmL)
                            if short:
                                sure = _sure_cut(np.int64(1), qs, tl, needed, P)
                                if sure != 0:
                                    relbuf[ply] = srel
                                    stats[11] += 1
                                    return sure > 0
                    # the other side holds the best card of every suit the leader can
                    # lead: it wins this trick and its quick tricks follow
                    if REPLY and wantY <= tl:
                        ok, rrel = _reply_qt(hands, leader, tl, tmY, wantY, P)
                        if ok:
                            sure = _sure_cut(wantY, y, tl, needed, P)
                            if sure != 0:
                                relbuf[ply] = rrel
                                stats[11] += 1
                                return sure > 0
        if P[P_QT] != 0 and only < 0 and P[P_TRUMP] >= 0:
            # whoever leads: the tricks each seat's trumps cannot help taking (its trumps
            # less those the others' higher trumps can beat, one each), all seats at once
            sure, krel = _trumps_cut(hands, tl, needed, P)
            if sure != 0:
                relbuf[ply] = krel
                stats[11] += 1
                return sure > 0
        if P[P_QT] != 0 and only < 0:
            # the leader's side cannot take this trick: the others take at least one
            lost, lrel = _lead_lost(hands, leader, tl, P)
            if lost:
                T = tpl[tl]
                mxl = (P[P_MAXMASK] >> leader) & 1
                # best / worst trick for the objective: any seat, or one of the other role
                ob = np.int64(-(1 << 60)) if mxl else np.int64(1 << 60)
                al = np.int64(-(1 << 60)) if mxl else np.int64(1 << 60)
                for i in range(4):
                    v = T * w[i]
                    if mxl:
                        if v > al:
                            al = v
                        if ((P[P_MAXMASK] >> i) & 1) != mxl and v > ob:
                            ob = v
                    else:
                        if v < al:
                            al = v
                        if ((P[P_MAXMASK] >> i) & 1) != mxl and v < ob:
                            ob = v
                bnd = ob + (tl - 1) * al
                if P[P_TRUMP] < 0 and ((mxl and needed <= bnd) or ((not mxl) and needed > bnd)):
                    # notrump: the winner then cashes its top cards (a tighter bound, which
                    # relies on more cards: only when the plain one does not decide)
                    ok2, b2, r2 = _lost_cash(hands, leader, tl, P, T, al)
                    if ok2:
                        bnd = b2
                        lrel = r2
                if mxl:
                    if needed > bnd:
                        relbuf[ply] = lrel
                        stats[11] += 1
                        return False
                else:
                    if needed <= bnd:
                        relbuf[ply] = lrel
                        stats[11] += 1
                        return True
        if tt_on and not tt_first:
            tres, h, first, trel = _tt_lookup(mbuf, leader, tl, needed, st_t, st_c)
            if tres >= 0:
                relbuf[ply] = trel
                return tres > 0
            use_tt = True
    elif nt < 3 and P[P_QT] != 0 and P[P_TRUMP] < 0 and only < 0:
        # notrump, mid-trick: the sure winner of this trick, then its cashing tricks
        mres, mrel = _mid_bound(hands, tbuf, base, nt, leader, tl, needed, P)
        if mres != 0:
            relbuf[ply] = mrel
            stats[11] += 1
            return mres > 0
    if (nt == 1 or nt == 2) and tl <= P[P_NEG_UNI] and only < 0:
        # (not at the fourth seat, where the next trick's start, with its bounds and
        # the table, comes one card later: 1% of the nodes cut there, at 8% of the
        # time)
        done, mrel = _neg_mid(hands, tbuf, base, nt, leader, tl, needed, P,
                              masks)
        if done:
            relbuf[ply] = mrel
            stats[11] += 1
            return True
    ismax = (P[P_MAXMASK] >> p) & 1
    skipped = np.uint64(0)
    # the killer: the last card that cut at this ply after the first one tried did not
    # (``mbuf[ply, 31]``, 1 + its card; 0: none); inside a trick only for the seats in
    # P_KILL_F
    use_kil = nt == 0 or ((P[P_KILL_F] >> p) & 1) != 0
    if only >= 0:
        mbuf[ply, 0] = only
        n = 1
    else:
        legal = _legal(hands, tbuf, base, nt, p, tl, P, masks)
        kil = mbuf[ply, 31] - 1 if use_kil else np.int64(-1)
        n, skipped = _order(base, nt, p, tl, legal, mbuf, ply, first, kil)
    if nt == 3 and only < 0 and n > 1 and P[P_ETC_TL] > 0 and tl >= P[P_ETC_TL]:
        done3, res3, rel3 = _etc(hands, tbuf, base, leader, tl, needed, st_t, st_c, rcnt,
                                 P, masks, ttk, tte, ttd, kbuf, mbuf, ply, n, ismax != 0)
        if done3:
            relbuf[ply] = rel3
            return res3
    result = not ismax
    best = -1
    rel = np.uint64(0)
    cut = False
    child = 4 * (tl - 1) if nt == 3 else ply + 1
    eqskip = np.uint64(0)
    later0 = np.uint64(0)
    # Cheap first: where the first move has not settled the test within P_PROBE_FIRST
    # nodes, each other move is probed with P_PROBE nodes before anything is searched in
    # full; a probe that settles the test ends the node. What a probe or the first move
    # left unfinished is searched in full afterwards, in the usual order. (A probe stops
    # with stats[8] = 3 once the node count passes mbuf[MB_PROBE, 0]; it stores nothing
    # in the table from there on, and no probe runs inside another.) Bridge notrump:
    # the first move at times takes 10^5 nodes where another settles in a few
    # (BENCHMARKS.md, eighteenth session).
    probe = P[P_PROBE] > 0 and tl >= P[P_PROBE_TL] and n > 1 and mbuf[MB_PROBE, 0] == 0
    done = np.uint64(0)  # the moves searched to the end (none settled the test)
    n_c0 = n0
    deferred = False
    built = False
    for ps in range(2 if probe else 1):
        bud = probe and ps == 0
        for k in range(n):
            c = mbuf[ply, k]
            b = _bit(c)
            if (eqskip & b) != 0 or (done & b) != 0:
                continue
            if bud:
                mbuf[MB_PROBE, 0] = stats[0] + (P[P_PROBE_FIRST] if k == 0 else P[P_PROBE])
            if LEVEL_STATS:
                n_c0 = stats[0]
            hands[p] &= ~b
            tbuf[base + nt] = c
            crel = np.uint64(0)
            if nt == 3:
                wi, win, wc, tp, tmask, by_rank = _trick_end(tbuf, base, leader, tl, P)
                v = w[win] * tp
                nst_t, nst_c = _after_trick(P, st_t, st_c, win, tmask, masks, rcnt, tbuf, base)
                rem = hands[0] | hands[1] | hands[2] | hands[3]
                stopm = masks[M_STOP]
                if rem == 0 or (stopm != 0 and (rem & stopm) == 0):
                    adj = _terminal(P, nst_t, nst_c, rcnt, rem == 0,
                                    (rem & masks[M_SCORING]) != 0)
                    res = v + adj >= needed
                    # the hand ends here: who wins matters only for his points (as on
                    # the last trick above)
                    if by_rank:
                        by_rank = _rank_scores(tbuf, base, leader, wi, w, P)
                else:
                    res = _node(mbuf, ZERO, win, tl - 1, needed - v, nst_t, nst_c, MINUS1)
                    crel = relbuf[child]
                if by_rank:
                    crel |= _bit(wc)
                if P[P_RAVAGE] != 0:
                    for i in range(4):
                        rcnt[4 * win + (tbuf[base + i] >> 4)] -= 1
            else:
                res = _node(mbuf, nt + 1, leader, tl, needed, st_t, st_c, MINUS1)
                crel = relbuf[child]
            hands[p] |= b
            if bud:
                mbuf[MB_PROBE, 0] = 0
                if stats[8] == 3:
                    # out of nodes: searched in full in the second pass
                    stats[8] = 0
                    deferred = True
                    continue
                if k == 0:
                    # the first move finished in its budget: the usual order goes on
                    bud = False
            if (ismax and res) or ((not ismax) and (not res)):
                if LEVEL_STATS and k > 0 and stats[8] == 0 and mbuf[MB_PROBE, 0] == 0:
                    stats[LV_LATE + tl] += 1
                    stats[LV_WASTE + tl] += n_c0 - n0
                    if stats[LV_LATE_TL] > 0 and tl >= stats[LV_LATE_TL] and \
                            stats[LV_NLATE] < LV_MAXLATE:
                        o = LV_LREC + LV_LRECW * stats[LV_NLATE]
                        stats[o] = tl
                        stats[o + 1] = nt
                        stats[o + 2] = p
                        stats[o + 3] = k
                        stats[o + 4] = n
                        stats[o + 5] = n_c0 - n0
                        stats[o + 6] = stats[0] - n_c0
                        stats[o + 7] = c
                        stats[o + 8] = mbuf[ply, 0]
                        stats[o + 9] = needed
                        stats[o + 10] = leader
                        for q in range(4):
                            stats[o + 11 + q] = np.int64(hands[q])
                        stats[LV_NLATE] += 1
                result = res
                best = c
                rel = crel
                cut = True
                stats[4 + (k > 0)] += 1
                if k > 0 and use_kil and stats[8] == 0:
                    mbuf[ply, 31] = c + 1
                break
            rel |= crel
            done |= b
            if P[P_EQ_SKIP] != 0 and (k + 1 < n or deferred):
                if not built:
                    # the moves not tried yet (built once: the first move did not cut)
                    later0 = np.uint64(0)
                    for j in range(n):
                        later0 |= _bit(mbuf[ply, j])
                    built = True
                later0 &= ~(done | eqskip)
                if _lane(later0, c >> 4) != 0:
                    eqskip |= _eq_later(hands, p, nt, c, crel, later0, P)
        if cut or not deferred:
            break
    if not cut and skipped != 0:
        # a card left out as equivalent to the next higher card of the same hand must be
        # keyed too when that card's rank mattered (from high to low: chains follow)
        inplay = hands[0] | hands[1] | hands[2] | hands[3]
        for i in range(nt):
            inplay |= _bit(tbuf[base + i])
        for s in range(4):
            sk = _lane(skipped, s)
            ip = _lane(inplay, s)
            while sk != 0:
                r = _hib(sk)
                sk ^= 1 << r
                r2 = _lob(ip >> (r + 1)) + r + 1
                if (rel >> np.uint64(16 * s + r2)) & np.uint64(1):
                    rel |= _bit(16 * s + r)
    relbuf[ply] = rel
    if LEVEL_STATS:
        if nt == 0:
            _level_record(hands, leader, tl, needed, result, stats[0] - n0, stats)
    if use_tt and stats[8] == 0:
        _tt_store(hands, tl, h, result, needed, rel, best, P, ttk, tte, ttd, kbuf, stats)
    return result


@njit(**NUMBA_OPTS)
def _solve(hands, tbuf, nt, leader, tl, st_t, st_c, rcnt, only, lo, hi, P, masks,
           ttk, tte, ttd, kbuf, mbuf, relbuf, stats):
    """Exact value by a binary search of null-window tests over the grid [lo, hi] (or
    from the top down: ``P_DOWN``).

    When a search stops (``stats[8]``), returns the ``lo`` of the tests finished so far and
    leaves their ``hi`` in ``stats[15]``: the value lies in between."""
    g = P[P_GRID]
    while lo < hi:
        steps = (hi - lo) // g
        mid = lo + ((steps + 1) // 2) * g
        if P[P_DOWN] != 0:
            mid = hi
        stats[1] += 1
        ok = _search(hands, tbuf, nt, leader, tl, mid, st_t, st_c, rcnt, only,
                   P, masks,
                   ttk, tte, ttd, kbuf, mbuf, relbuf, stats)
        if stats[8] != 0:
            stats[15] = hi
            return lo
        if ok:
            lo = mid
        else:
            hi = mid - g
    return lo


@njit(**NUMBA_OPTS)
def _legal_moves(hands, tbuf, nt, leader, tl, P, masks):
    """Bitboard of the legal cards of the player to move at the root."""
    return _legal(hands, tbuf, 4 * tl, nt, (leader + nt) % 4, tl, P, masks)

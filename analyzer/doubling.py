"""Doubling declarations and the settlement of one hand (rules.md "Doubling").

A hand's *declaration* is the set of doubles made before play: ``(doubler, target)``
pairs of seats. "p doubled q" and "q doubled p" count one each between the pair, so for
every pair the number of doubles ``n_pq`` is 0, 1 or 2; a *redouble* is the declarer
doubling back a player who doubled him (the second double of that pair).

Settlement turns the four raw scores ``s`` (exact :class:`~fractions.Fraction` s, seats
N E S W) into net results:

* **difference rule** (every negative contract, every contract of ``tournament``; sources
  000, 001, 002)::

      net_p = s_p + sum_q n_pq * (s_p - s_q)

  Each pair moves ``n_pq * |s_p - s_q|`` from the worse raw score to the better one, so
  the net results keep the hand's total.

* **sum rule** (``variants.positive_settlement = "sum"``, positive contracts, ``fr-52``;
  source 002 "Enchères": Trumps 5 tricks vs 1 gives +30 and -20; Dominoes 2nd (+20) vs 3rd
  (+10) gives +30 and -10). Our reading, which reproduces both examples: in a doubled pair
  with raw ``a`` (better) and ``b`` (worse), the better *adds the worse's raw score* and
  the worse *subtracts the better's raw score*, once per double between them::

      net_p = s_p + sum_{q: s_q < s_p} n_pq * s_q - sum_{q: s_q > s_p} n_pq * s_q

  A pair doubled once gives
  exactly the source's ``a + b`` and ``b - a``; a player doubled with several others
  composes the adjustments pair by pair, as the difference rule does (source 002 adds the
  pairs up in its No Queens example); a redoubled pair (``n = 2``) applies it twice. A tied
  pair (``a == b``) has no better player and settles nothing, as a level pair does under
  the difference rule (source 001: "level at -6"). This rule does not keep the hand's
  total, so the total check is skipped for these hands (and the output says so).

* **split** (``variants.undoubled_negative = "split"``, source 000): a negative contract
  that nobody doubled is not played; each opponent takes the total divided by three,
  rounded to the nearest integer (halves away from zero), and the declarer the rest.

>>> from analyzer.rules import load_rules
>>> rules = load_rules("tournament")
>>> d = parse_doubles(["E>all", "S>N", "N>S"])
>>> s = settle(rules, "no-queens", 0, [-6, 0, -6, -12], d)
>>> [int(x) for x in s.net]
[-12, 24, -12, -24]
>>> [int(x) for x in above_lowest(s.net)]
[12, 48, 12, 0]
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

import numpy as np

from analyzer.cards import Seat, whole_index
from analyzer.errors import BarbuError
from analyzer.rules import Contract, Rules

SEAT_NAMES = "NESW"
Pairs = tuple[tuple[int, int], ...]
Matrix = tuple[tuple[int, int, int, int], ...]


# --------------------------------------------------------------------------- numbers
def to_fraction(x: Any, what: str = "score") -> Fraction:
    """An exact score from an int, a float (read as its decimal text) or a string
    (``"5/2"``, ``"2.5"``, ``"-6"``).

    >>> to_fraction(2.5), to_fraction("-5/2"), to_fraction(-6)
    (Fraction(5, 2), Fraction(-5, 2), Fraction(-6, 1))
    """
    if isinstance(x, (bool, np.bool_)):
        raise BarbuError(f"{what} must be a number, not {x!r}")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, np.floating):
        x = float(x)
    if isinstance(x, float):
        if not math.isfinite(x):
            raise BarbuError(f"{what} must be a finite number, not {x!r}")
        return Fraction(str(x))
    if isinstance(x, str):
        t = x.strip().replace("\u2212", "-")
        if len(t) > 40 or "e" in t.lower():  # (Fraction would build 10**huge for "1e9999")
            raise BarbuError(f"{what} {x!r} is not a plain number (like -6, 2.5 or 5/2)")
        try:
            return Fraction(t)
        except (ValueError, ZeroDivisionError):
            raise BarbuError(f"{what} {x!r} is not a number") from None
    raise BarbuError(f"{what} must be a number, not {type(x).__name__}")


def raw_scores(xs: Sequence[Any] | Mapping[str, Any], what: str = "raw") -> tuple[Fraction, ...]:
    """Four exact raw scores, seats N E S W, from a list of 4 or a ``{seat: score}`` table
    naming every seat."""
    if isinstance(xs, Mapping):
        out: dict[int, Fraction] = {}
        for k, v in xs.items():
            seat = _seat(k, what)
            if seat in out:
                raise BarbuError(f"{what}: {SEAT_NAMES[seat]} is named twice")
            out[seat] = to_fraction(v, f"{what} of {SEAT_NAMES[seat]}")
        missing = [SEAT_NAMES[s] for s in range(4) if s not in out]
        if missing:
            raise BarbuError(f"{what}: no score for {', '.join(missing)}")
        return tuple(out[s] for s in range(4))
    if isinstance(xs, np.ndarray):
        xs = list(xs)
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Sequence) or len(xs) != 4:
        raise BarbuError(f"{what} must be 4 scores in the order N E S W")
    return tuple(to_fraction(v, f"{what} of {SEAT_NAMES[i]}") for i, v in enumerate(xs))


def _seat(x: Any, what: str = "seat") -> int:
    if not isinstance(x, str):
        i = whole_index(x, 4)
        if i is None:
            raise BarbuError(f"{what}: {x!r} is not a seat (expected N, E, S or W)")
        return i
    try:
        return int(Seat.parse(x))
    except BarbuError:
        raise BarbuError(f"{what}: {x!r} is not a seat (expected N, E, S or W)") from None


# --------------------------------------------------------------------------- declarations
@dataclass(frozen=True)
class Doubles:
    """The doubles of one hand: ``pairs`` is a sorted tuple of ``(doubler, target)`` seats.

    >>> d = parse_doubles("E>all S>N N>S")
    >>> d.count(0, 2), d.count(0, 1), d.count(0, 3)
    (2, 1, 0)
    >>> d.text(first=1)
    'E>NSW S>N N>S'
    """

    pairs: Pairs = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "pairs", tuple(sorted(set(self.pairs))))

    def count(self, p: int, q: int) -> int:
        """``n_pq``: the number of doubles between seats p and q (0, 1 or 2)."""
        return int((p, q) in self.pairs) + int((q, p) in self.pairs)

    def matrix(self) -> Matrix:
        """The 4×4 symmetric matrix ``n`` (zero diagonal)."""
        return tuple(tuple(self.count(p, q) if p != q else 0 for q in range(4))
                     for p in range(4))  # type: ignore[return-value]

    def by(self, p: int) -> tuple[int, ...]:
        """Seats doubled by ``p``."""
        return tuple(t for d, t in self.pairs if d == p)

    def of(self, q: int) -> tuple[int, ...]:
        """Seats that doubled ``q``."""
        return tuple(d for d, t in self.pairs if t == q)

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def __str__(self) -> str:
        return self.text()

    def text(self, first: int = 0) -> str:
        """Compact text, doublers in turn from seat ``first`` (``"E>NSW S>N N>S"``)."""
        parts = []
        for k in range(4):
            d = (first + k) % 4
            if self.by(d):
                parts.append(SEAT_NAMES[d] + ">" + "".join(SEAT_NAMES[t] for t in self.by(d)))
        return " ".join(parts) if parts else "-"

    def to_json(self, first: int = 0) -> list[str]:
        """``["E>N", "E>S", …]``: one ``doubler>target`` string per double, doublers in
        turn from seat ``first`` as :meth:`text` (the declarer's left: bidding order)."""
        return [f"{SEAT_NAMES[d]}>{SEAT_NAMES[t]}"
                for k in range(4) for d in [(first + k) % 4] for t in self.by(d)]


_DOUBLE = re.compile(r"^\s*([NESW])\s*>\s*(ALL|MAX|[NESW][NESW,\s]*)\s*$", re.IGNORECASE)


def parse_doubles(spec: Any) -> Doubles:
    """Read a declaration.

    ``spec`` is ``None``/``""``/``[]`` (no doubles), a string of space-separated items, a
    list of items, or a table ``{doubler: targets}``. An item is ``X>Y`` with ``Y`` one or
    more seats (``"E>NS"``, ``"E>N,S"``) or ``all``/``max`` (the other three).

    >>> parse_doubles(["E>all", "S>N"]).pairs
    ((1, 0), (1, 2), (1, 3), (2, 0))
    >>> parse_doubles({"E": "all", "N": ["S"]}).pairs
    ((0, 2), (1, 0), (1, 2), (1, 3))
    """
    if spec is None:
        return Doubles()
    items: list[str] = []
    if isinstance(spec, Mapping):
        for k, v in spec.items():
            if isinstance(v, (list, tuple)):
                v = ",".join(str(x) for x in v)
            items.append(f"{k}>{v}")
    else:
        if isinstance(spec, str):
            spec = spec.replace(";", " ").split()
        if not isinstance(spec, (list, tuple)):
            raise BarbuError(f"doubles must be a list like [\"E>all\", \"S>N\"], not {spec!r}")
        items = [str(x) for x in spec]
    pairs: list[tuple[int, int]] = []
    for text in items:
        if text.strip() in ("", "-"):
            continue
        m = _DOUBLE.match(text)
        if not m:
            raise BarbuError(f"bad double {text!r}: write doubler>target, e.g. \"E>N\", "
                             "\"E>NS\" or \"E>all\"")
        d = _seat(m.group(1))
        tgt = m.group(2).upper()
        if tgt in ("ALL", "MAX"):
            targets = [s for s in range(4) if s != d]
        else:
            targets = [_seat(c) for c in tgt if c in "NESW"]
        for t in targets:
            if t == d:
                raise BarbuError(f"bad double {text!r}: {SEAT_NAMES[d]} cannot double himself")
            if (d, t) in pairs:
                raise BarbuError(f"bad double {text!r}: {SEAT_NAMES[d]} doubles "
                                 f"{SEAT_NAMES[t]} twice")
            pairs.append((d, t))
    return Doubles(tuple(pairs))


def declarer_may_double_anyone(rules: Rules) -> bool:
    """Whether the declarer may double players who did not double him.

    ``tournament`` (sources 000, 001): no, he may only redouble. ``fr-52`` (source 002):
    "any player may double any other". The switch is ``variants.declarer_doubles = "any"
    | "redouble"`` (a rules file that leaves it out gets "redouble", as every variant
    left out gets tournament's value; the reading from ``positive_declarer_only`` below
    serves only a Rules built without it).
    """
    v = rules.variants.get("declarer_doubles")
    if v is not None:
        return v == "any"
    return rules.variants["doubles"] == "any" and not rules.variants["positive_declarer_only"]


def validate_doubles(rules: Rules, contract: Contract | str, declarer: int,
                     doubles: Doubles) -> None:
    """Raise :class:`BarbuError` naming the first double the preset forbids.

    Checks (rules.md "Doubling", "Named variants"): ``doubles = "none"`` forbids all;
    ``"declarer-only"`` lets only the declarer be doubled and makes a redouble target every
    doubler; in positive contracts with ``positive_declarer_only`` the others may double
    only the declarer; the declarer may only redouble players who doubled him (and not at
    all without ``redouble``), unless the preset lets him double anyone (fr-52).
    """
    c = rules.contract(contract) if isinstance(contract, str) else contract
    v = rules.variants
    decl = _seat(declarer, "declarer")
    mode = v["doubles"]
    positive = rules.is_positive(c)
    for d, t in doubles.pairs:
        name = f"{SEAT_NAMES[d]}>{SEAT_NAMES[t]}"
        if mode == "none":
            raise BarbuError(f"illegal double {name}: preset {rules.name!r} has no doubling")
        if d == decl:
            if (t, d) in doubles.pairs and not v["redouble"]:
                # (the declarer doubles last: his double of a doubler is the pair's
                # second, a redouble, even where he may double anyone; two opponents
                # doubling each other stay free, as the docs say)
                raise BarbuError(f"illegal double {name}: preset {rules.name!r} has no "
                                 f"redoubles ({SEAT_NAMES[t]}>{SEAT_NAMES[d]} doubles the "
                                 "same pair)")
            if (t, d) not in doubles.pairs and mode == "declarer-only":
                # (whatever declarer_doubles says: nobody but the declarer is doubled)
                raise BarbuError(f"illegal double {name}: preset {rules.name!r} lets only "
                                 f"the declarer ({SEAT_NAMES[decl]}) be doubled; he may "
                                 "only redouble a player who doubled him")
            if (t, d) not in doubles.pairs and not declarer_may_double_anyone(rules):
                raise BarbuError(f"illegal double {name}: the declarer may only redouble a "
                                 "player who doubled him")
            if positive and v["positive_declarer_only"] and (t, d) not in doubles.pairs:
                raise BarbuError(f"illegal double {name}: in {c.id} only the declarer may be "
                                 "doubled")
        else:
            if mode == "declarer-only" and t != decl:
                raise BarbuError(f"illegal double {name}: preset {rules.name!r} lets only "
                                 f"the declarer ({SEAT_NAMES[decl]}) be doubled")
            if positive and v["positive_declarer_only"] and t != decl:
                raise BarbuError(f"illegal double {name}: in {c.id} only the declarer "
                                 f"({SEAT_NAMES[decl]}) may be doubled")
    if mode == "declarer-only":
        redoubled = set(doubles.by(decl))
        doublers = set(doubles.of(decl))
        if redoubled and redoubled != doublers:
            missing = "".join(SEAT_NAMES[s] for s in sorted(doublers - redoubled))
            raise BarbuError(f"illegal redouble {SEAT_NAMES[decl]}>"
                             + "".join(SEAT_NAMES[s] for s in sorted(redoubled))
                             + f": under doubles = declarer-only a redouble must target "
                             f"every doubler (also {missing})")


# --------------------------------------------------------------------------- settlement
def _matrix(n: Doubles | Sequence[Sequence[int]]) -> Matrix:
    if isinstance(n, Doubles):
        return n.matrix()
    m = tuple(tuple(int(x) for x in row) for row in n)
    if len(m) != 4 or any(len(r) != 4 for r in m):
        raise BarbuError("the doubles matrix must be 4×4")
    for p in range(4):
        for q in range(4):
            if m[p][q] != m[q][p] or not 0 <= m[p][q] <= 2 or (p == q and m[p][q]):
                raise BarbuError("the doubles matrix must be symmetric with entries 0, 1, 2 "
                                 "and a zero diagonal")
    return m  # type: ignore[return-value]


def settle_difference(raw: Sequence[Any], n: Doubles | Sequence[Sequence[int]]
                      ) -> tuple[Fraction, ...]:
    """Net results by the difference rule: ``net_p = s_p + Σ_q n_pq · (s_p − s_q)``.

    Parameters
    ----------
    raw : 4 scores (seats N E S W), any exact numbers.
    n : a :class:`Doubles` or the 4×4 symmetric matrix of doubles per pair.

    >>> settle_difference([0, -18, -6, 0], parse_doubles("S>NE"))  # source 002, Dames
    (Fraction(6, 1), Fraction(-30, 1), Fraction(0, 1), Fraction(0, 1))
    """
    s = raw_scores(list(raw))
    m = _matrix(n)
    return tuple(s[p] + sum((m[p][q] * (s[p] - s[q]) for q in range(4)), Fraction(0))
                 for p in range(4))


def settle_sum(raw: Sequence[Any], n: Doubles | Sequence[Sequence[int]]
               ) -> tuple[Fraction, ...]:
    """Net results by fr-52's rule for positive contracts (source 002): in each doubled
    pair the better adds the worse's raw score and the worse subtracts the better's, once
    per double; tied pairs settle nothing. See the module docstring for the reading.

    >>> [int(x) for x in settle_sum([25, 5, 0, 35], parse_doubles("N>E"))]  # 5 tricks vs 1
    [30, -20, 0, 35]
    >>> [int(x) for x in settle_sum([20, 10, 45, -10], parse_doubles("E>N"))]  # 2nd vs 3rd
    [30, -10, 45, -10]
    """
    s = raw_scores(list(raw))
    m = _matrix(n)
    out = []
    for p in range(4):
        adj = Fraction(0)
        for q in range(4):
            if m[p][q] and s[p] != s[q]:
                adj += m[p][q] * (s[q] if s[p] > s[q] else -s[q])
        out.append(s[p] + adj)
    return tuple(out)


def round_half_away(x: Fraction) -> int:
    """Nearest integer, halves away from zero.

    >>> round_half_away(Fraction(-26, 3)), round_half_away(Fraction(-5, 2))
    (-9, -3)
    """
    r = math.floor(abs(x) + Fraction(1, 2))
    return r if x >= 0 else -r


def split_undoubled(total: Any, declarer: int) -> tuple[Fraction, ...]:
    """``undoubled_negative = split`` (source 000): each opponent takes ``total / 3``
    rounded, the declarer the rest.

    >>> [int(x) for x in split_undoubled(-26, 0)]   # No Tricks: +1 / -9 each
    [1, -9, -9, -9]
    >>> [int(x) for x in split_undoubled(-20, 2)]   # No King: +1 / -7 each
    [-7, -7, 1, -7]
    """
    t = to_fraction(total, "total")
    decl = _seat(declarer, "declarer")
    each = Fraction(round_half_away(t / 3))
    return tuple(t - 3 * each if p == decl else each for p in range(4))


def above_lowest(net: Sequence[Any]) -> tuple[Fraction, ...]:
    """The score-sheet entry of source 001: each net result minus the hand's lowest.

    >>> [int(x) for x in above_lowest([-12, 24, -12, -24])]
    [12, 48, 12, 0]
    """
    s = [to_fraction(x) for x in net]
    low = min(s)
    return tuple(x - low for x in s)


@dataclass(frozen=True)
class Settlement:
    """One hand settled.

    Attributes
    ----------
    raw, net : tuple of 4 Fractions (N E S W).
    method : ``"difference"``, ``"sum"`` (fr-52 positive, doubled) or ``"split"``
        (undoubled negative contract not played).
    total : the contract's total (None where a bonus makes it vary).
    check : ``"ok"``, ``"skipped"`` (the rule does not keep the total; ``note`` says why)
        or ``"n/a"`` (no fixed total).
    note : one line for the output, empty when there is nothing to say.
    """

    raw: tuple[Fraction, ...]
    net: tuple[Fraction, ...]
    method: str
    total: Fraction | None
    check: str
    note: str = ""

    @property
    def above_lowest(self) -> tuple[Fraction, ...]:
        return above_lowest(self.net)


def uses_split(rules: Rules, contract: Contract | str, doubles: Doubles) -> bool:
    """True when the hand is not played: ``undoubled_negative = split``, a negative
    contract with a fixed total, nobody doubled."""
    c = rules.contract(contract) if isinstance(contract, str) else contract
    return (rules.variants["undoubled_negative"] == "split" and not doubles
            and not rules.is_positive(c) and rules.total(c) is not None)


def uses_sum(rules: Rules, contract: Contract | str, doubles: Doubles) -> bool:
    """True when fr-52's sum rule settles the hand (positive contract, some double)."""
    c = rules.contract(contract) if isinstance(contract, str) else contract
    return (rules.variants["positive_settlement"] == "sum" and rules.is_positive(c)
            and bool(doubles))


def settle(rules: Rules, contract: Contract | str, declarer: int,
           raw: Sequence[Any] | Mapping[str, Any] | None, doubles: Doubles,
           validate: bool = True) -> Settlement:
    """Settle one hand under a preset: validate the doubles, pick the rule, check the total.

    Parameters
    ----------
    rules : the preset.
    contract : contract id / alias or :class:`Contract`.
    declarer : seat 0..3 (or ``"N"`` …).
    raw : the 4 raw scores; may be None when the hand is split (not played).
    doubles : the declaration (:func:`parse_doubles`).
    validate : check the doubles against the preset first.

    Returns
    -------
    Settlement
    """
    c = rules.contract(contract) if isinstance(contract, str) else contract
    decl = _seat(declarer, "declarer")
    if validate:
        validate_doubles(rules, c, decl, doubles)
    total = rules.total(c)
    if uses_split(rules, c, doubles):
        split = split_undoubled(total, decl)
        if raw is not None and raw_scores(raw) != split:
            raise BarbuError("an undoubled negative contract is not played under "
                             "undoubled_negative = split: leave the raw results out (or give "
                             "the split " + " ".join(fmt(x) for x in split) + ")")
        return Settlement(split, split, "split", total, "ok",
                          "not played (undoubled_negative = split)")
    if raw is None:
        raise BarbuError("raw results missing")
    s = raw_scores(raw)
    if uses_sum(rules, c, doubles):
        net = settle_sum(s, doubles)
        return Settlement(s, net, "sum", total, "skipped",
                          "total check skipped: doubled positive contracts are settled "
                          "by the sum rule (positive_settlement = sum, as fr-52), which "
                          "does not keep the total")
    net = settle_difference(s, doubles)
    if total is None:
        return Settlement(s, net, "difference", None, "n/a", "")
    if sum(net) != total:
        raise BarbuError(f"net results add up to {fmt(sum(net))}, not the contract's "
                         f"total {fmt(total)}")
    return Settlement(s, net, "difference", total, "ok", "")


def fmt(x: Fraction, sign: bool = False) -> str:
    """A score as text: ``-6``, ``2.5``, ``+24`` (with ``sign``), ``1/3`` when not a
    short decimal.

    >>> fmt(Fraction(5, 2)), fmt(Fraction(24), sign=True), fmt(Fraction(-1, 3))
    ('2.5', '+24', '-1/3')
    >>> fmt(Fraction(-999999999999999, 4000000))    # every digit, exactly
    '-249999999.99999975'
    """
    x = Fraction(x)
    if x.denominator == 1:
        t = str(x.numerator)
    else:
        d = x.denominator
        while d % 2 == 0:
            d //= 2
        while d % 5 == 0:
            d //= 5
        if d == 1:  # a finite decimal: its digits, exactly (a float would round them)
            k = 0
            while (x * 10 ** k).denominator != 1:
                k += 1
            n = abs((x * 10 ** k).numerator)
            t = ("-" if x < 0 else "") + f"{n // 10 ** k}.{n % 10 ** k:0{k}d}"
        else:
            t = f"{x.numerator}/{x.denominator}"
    return ("+" + t) if sign and x > 0 else t


def to_number(x: Fraction) -> int | float | str:
    """A score for JSON: an int, a float when it is a short decimal that a float holds
    exactly (2.5), else the exact ``"a/b"``.

    >>> to_number(Fraction(5, 2)), to_number(Fraction(-999999999999999, 4000000))
    (2.5, '-999999999999999/4000000')
    """
    x = Fraction(x)
    if x.denominator == 1:
        return int(x)
    t = fmt(x)
    if "/" not in t and Fraction(repr(float(t))) == x:
        return float(t)
    return f"{x.numerator}/{x.denominator}"


__all__ = ["Doubles", "Settlement", "parse_doubles", "validate_doubles", "settle",
           "settle_difference", "settle_sum", "split_undoubled", "above_lowest",
           "round_half_away", "uses_split", "uses_sum", "declarer_may_double_anyone",
           "raw_scores", "to_fraction", "fmt", "to_number"]

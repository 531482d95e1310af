"""Score a match sheet: a TOML file of hands, settled and checked (``barbu score``).

The file format is documented in ``docs/match-format.md``; in short::

    rules = "tournament"               # optional: preset name, or a .toml path (relative
                                       # to this file); default tournament
    players = ["Anne", "Beth", "Cath", "Diana"]   # optional names of N E S W
    first_declarer = "N"               # optional: else hand 1's declarer

    [[hand]]
    declarer = "N"                     # optional after hand 1: the run structure fixes it
    contract = "no-queens"             # id or alias (optional under order = "fixed")
    doubles = ["E>all", "S>N", "N>S"]  # doubler>targets; "all" = the other three
    raw = [-6, 0, -6, -12]             # raw results N E S W (or { N = -6, E = 0, … })
    # trump = "H" (Trumps), rank = "7" (Dominoes), note = "…" (free text)

:func:`score_match` reads and validates it (every inconsistency is a
:class:`~analyzer.errors.BarbuError` naming the hand number and the reason, one line),
settles every hand with :mod:`analyzer.doubling` and returns a :class:`MatchResult`:
raw and net per hand, running totals, the total check, the doubles of each declarer in
his run against the quota (shown, never blocking), and source 001's "points above the
lowest" entry with its running totals.
"""

from __future__ import annotations

import itertools
import os
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from analyzer.cards import DECK_RANKS, RANK_CHARS, Rank, Suit
from analyzer.doubling import (SEAT_NAMES, Doubles, Settlement, _seat, fmt, parse_doubles,
                               raw_scores, settle, to_number, uses_split,
                               validate_doubles)
from analyzer.errors import BarbuError
from analyzer.rules import DEFAULT_PRESET, Contract, Rules, load_rules, user_path

TOP_KEYS = ("rules", "title", "players", "first_declarer", "hand")
HAND_KEYS = ("declarer", "contract", "trump", "rank", "doubles", "raw", "note")

Scores = tuple[Fraction, Fraction, Fraction, Fraction]


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class HandResult:
    """One scored hand of the sheet.

    Attributes
    ----------
    number, run : 1-based hand number and declarer run.
    declarer : seat 0..3.
    contract : contract id; ``trump`` (suit letter) and ``rank`` (rank char) when given.
    doubles : the declaration.
    settlement : raw, net, method and total check (:class:`analyzer.doubling.Settlement`).
    totals : running net totals after this hand (N E S W).
    entry, sheet_totals : the "points above the lowest" entry and its running totals.
    quota : doubles of the declarer by each seat so far in this run (declarer: 0).
    note : the file's free-text note.
    """

    number: int
    run: int
    declarer: int
    contract: str
    trump: str | None
    rank: str | None
    doubles: Doubles
    settlement: Settlement
    totals: Scores
    entry: Scores
    sheet_totals: Scores
    quota: tuple[int, int, int, int]
    note: str = ""

    @property
    def raw(self) -> tuple[Fraction, ...]:
        return self.settlement.raw

    @property
    def net(self) -> tuple[Fraction, ...]:
        return self.settlement.net


@dataclass(frozen=True)
class RunSummary:
    """A declarer's run: how many hands so far and each player's doubles of him."""

    run: int
    declarer: int
    hands: int
    length: int
    doubles_of_declarer: tuple[int, int, int, int]
    quota: int

    @property
    def complete(self) -> bool:
        return self.hands == self.length

    def short(self) -> dict[int, int]:
        """Seats below the quota and by how much (the quota never blocks a hand)."""
        return {p: self.quota - n for p, n in enumerate(self.doubles_of_declarer)
                if p != self.declarer and n < self.quota}


@dataclass(frozen=True)
class MatchResult:
    """A scored match sheet; :meth:`to_json` gives the ``barbu score --json`` object."""

    path: str
    title: str
    rules: Rules
    players: tuple[str, str, str, str]
    first_declarer: int
    hands: tuple[HandResult, ...]
    runs: tuple[RunSummary, ...]

    @property
    def totals(self) -> Scores:
        return self.hands[-1].totals if self.hands else (Fraction(0),) * 4  # type: ignore

    @property
    def sheet_totals(self) -> Scores:
        return self.hands[-1].sheet_totals if self.hands else (Fraction(0),) * 4  # type: ignore

    @property
    def complete(self) -> bool:
        return len(self.hands) == self.rules.hands

    @property
    def leaders(self) -> tuple[int, ...]:
        """Seats with the highest net total (several on a tie)."""
        if not self.hands:
            return ()
        top = max(self.totals)
        return tuple(p for p in range(4) if self.totals[p] == top)

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict. Seats ``N E S W``; scores are ints, or floats for exact short
        decimals (2.5); checks say ``ok``, ``skipped`` (with the reason) or ``n/a``."""
        def seats(xs: Any) -> dict[str, Any]:
            return {SEAT_NAMES[p]: to_number(x) for p, x in enumerate(xs)}

        hands = []
        for h in self.hands:
            st = h.settlement
            hands.append({
                "hand": h.number, "run": h.run, "declarer": SEAT_NAMES[h.declarer],
                "contract": h.contract, "trump": h.trump, "rank": h.rank,
                "doubles": h.doubles.to_json(first=(h.declarer + 1) % 4),
                "pairs": {f"{SEAT_NAMES[p]}{SEAT_NAMES[q]}": h.doubles.count(p, q)
                          for p in range(4) for q in range(p + 1, 4) if h.doubles.count(p, q)},
                "settlement": st.method,
                "raw": seats(st.raw), "net": seats(st.net), "above_lowest": seats(h.entry),
                "totals": seats(h.totals), "sheet_totals": seats(h.sheet_totals),
                "quota": {SEAT_NAMES[p]: h.quota[p] for p in range(4) if p != h.declarer},
                "check": {"status": st.check,
                          "total": None if st.total is None else to_number(st.total),
                          "net_sum": to_number(sum(st.net, Fraction(0))),
                          "note": st.note},
                "note": h.note,
            })
        runs = [{"run": r.run, "declarer": SEAT_NAMES[r.declarer], "hands": r.hands,
                 "length": r.length, "complete": r.complete, "quota": r.quota,
                 "doubles_of_declarer": {SEAT_NAMES[p]: r.doubles_of_declarer[p]
                                         for p in range(4) if p != r.declarer},
                 "short": {SEAT_NAMES[p]: k for p, k in r.short().items()}}
                for r in self.runs]
        return {
            "file": self.path, "title": self.title, "rules": self.rules.name,
            "players": {SEAT_NAMES[p]: n for p, n in enumerate(self.players)},
            "first_declarer": SEAT_NAMES[self.first_declarer],
            "hands_played": len(self.hands), "hands_in_match": self.rules.hands,
            "complete": self.complete,
            "hands": hands, "runs": runs,
            "totals": seats(self.totals), "sheet_totals": seats(self.sheet_totals),
            "leaders": [SEAT_NAMES[p] for p in self.leaders],
            "checks_skipped": [h.number for h in self.hands if h.settlement.check == "skipped"],
        }


# --------------------------------------------------------------------------- raw checks
#: The most raw scores :func:`possible_raw` lists (many scoring cards of unlike values
#: have too many subset sums: a rules file's 20 cards at -1, -2, -4, ... took a minute).
MAX_RAW_VALUES = 50_000


class _TooMany(Exception):
    pass


def _sums(a: set[Fraction], b: Iterable[Fraction]) -> set[Fraction]:
    b = list(b)
    if len(a) * len(b) > 20 * MAX_RAW_VALUES:  # (give up before the work, not after)
        raise _TooMany
    out = {x + y for x in a for y in b}
    if len(out) > MAX_RAW_VALUES:
        raise _TooMany
    return out


def _subset_sums(values: list[Fraction]) -> set[Fraction]:
    sums = {Fraction(0)}
    for v in values:
        sums |= _sums(sums, (v,))
        if len(sums) > MAX_RAW_VALUES:
            raise _TooMany
    return sums


def possible_raw(rules: Rules, contract: Contract) -> set[Fraction] | None:
    """The raw scores one player can have in a whole hand of a trick contract, by a cheap
    over-approximation (tricks, scoring cards, last tricks and a Ravage City share counted
    independently, plus the bonus scores); None for Dominoes, and where there would be
    more than :data:`MAX_RAW_VALUES` (:func:`check_raw` then checks a range)."""
    if not contract.is_tricks:
        return None
    n = rules.tricks_per_hand
    tp = rules.trick_points(contract)
    pts = list(rules.card_points(contract).values())
    last = [x for x in rules.last_tricks(contract) if x]
    r = contract.ravage
    try:
        out = _sums(_sums(_subset_sums(pts), {tp * t for t in range(n + 1)}),
                    _subset_sums(last))
        if r is not None:  # (a share of 1 to 4 losers, or none)
            out = _sums(out, {Fraction(0)} | {r / k for k in range(1, 5)})
    except _TooMany:
        return None
    # a bonus replaces the score of whoever takes every trick (or every scoring card): the
    # full penalty itself never appears. Left out only where nothing else sums to it:
    # every point of one sign (then only taking everything does), and no Ravage share.
    comps = ([tp] if tp else []) + pts + last
    one_sign = bool(comps) and (all(x < 0 for x in comps) or all(x > 0 for x in comps))
    if one_sign and r is None:
        full = rules.normal_total(contract)
        if contract.all_tricks_score is not None and tp != 0:
            out.discard(full)
        if contract.all_cards_score is not None and pts:
            out.discard(full)
    for bonus in (contract.all_tricks_score, contract.all_cards_score):
        if bonus is not None:
            out.add(bonus)
    return out


def _bonus_scored(rules: Rules, c: Contract, raw: tuple[Fraction, ...]) -> bool:
    """Whether a whole-hand bonus can explain ``raw``: the all-tricks bonus with the
    others at 0 (they took nothing), or the all-cards bonus with the others at what
    their tricks, last tricks and Ravage City shares can give them (no scoring card:
    the bonus's taker has them all)."""
    b = c.all_tricks_score
    if b is not None and any(x == b and all(y == 0 for q, y in enumerate(raw) if q != p)
                             for p, x in enumerate(raw)):
        return True
    b = c.all_cards_score
    if b is None or b not in raw or not rules.card_points(c):
        return False
    try:
        one, together = _others_without_cards(rules, c)
    except _TooMany:
        return True  # (too many to list: accept, as every check errs that way)
    return any(x == b and all(y in one for q, y in enumerate(raw) if q != p)
               and sum((y for q, y in enumerate(raw) if q != p), Fraction(0)) in together
               for p, x in enumerate(raw))


def _others_without_cards(rules: Rules, c: Contract) -> tuple[set[Fraction], set[Fraction]]:
    """What one player, and three players together, can score in a hand of ``c`` while
    taking no scoring card: trick points, last tricks and a Ravage City share (several
    shares for the three, one each), counted independently (an over-approximation)."""
    n = rules.tricks_per_hand
    tp = rules.trick_points(c)
    tricks = {tp * t for t in range(n + 1)}
    last = _subset_sums([x for x in rules.last_tricks(c) if x])
    r = c.ravage
    one = _sums(tricks, last)
    together = set(one)
    if r is not None:  # (a share of 1 to 4 losers, or none; j of the k shares for three)
        one = _sums(one, {Fraction(0)} | {r / k for k in range(1, 5)})
        together = _sums(together, {Fraction(0)} | {j * r / k for k in range(1, 5)
                                                    for j in range(1, min(k, 3) + 1)})
    return one, together


class _Range:
    """``x in`` it: between ``lo`` and ``hi``, or one of ``extra``."""

    def __init__(self, lo: Fraction, hi: Fraction, extra: set[Fraction]):
        self.lo, self.hi, self.extra = lo, hi, extra

    def __contains__(self, x: object) -> bool:
        return x in self.extra or self.lo <= x <= self.hi  # type: ignore[operator]


def check_raw(rules: Rules, contract: Contract, raw: tuple[Fraction, ...]) -> None:
    """Raise :class:`BarbuError` (without the hand number) when the raw results cannot
    come from one hand of ``contract``: a value no player can score, results that do not
    add up to the contract's total, Dominoes results that are not the places. Every check
    errs on the side of accepting: results a real hand gives always pass."""
    names = " ".join(fmt(x) for x in raw)
    if contract.is_dominoes:
        if sorted(raw) != sorted(contract.places):
            raise BarbuError(f"raw results {names} are not the {contract.id} places "
                             + " ".join(fmt(x) for x in contract.places) + " in some order")
        return
    tp = rules.trick_points(contract)
    cards = rules.card_points(contract)
    last = rules.last_tricks(contract)
    r = contract.ravage
    if r is not None and not tp and not cards and not any(last):
        # Ravage City alone: the players with the most cards of a suit share its points
        # (or a capot bonus replaces the taker's share)
        if _bonus_scored(rules, contract, raw):
            return
        hit = [x for x in raw if x != 0]
        if not hit or any(x != r / len(hit) for x in hit):
            raise BarbuError(f"raw results {names} are impossible in {contract.id}: the "
                             f"players with the most cards of a suit share {fmt(r)}")
        return
    ok = possible_raw(rules, contract)
    if ok is None:  # (too many to list: between the most one player can lose and win)
        bonuses = {b for b in (contract.all_tricks_score, contract.all_cards_score)
                   if b is not None}
        ok = _Range(*rules.score_range(contract, bonus=False), bonuses)
    for p, x in enumerate(raw):
        if x not in ok:
            why = (f" (not a multiple of the trick value {fmt(tp)})"
                   if tp and not cards and not last and r is None
                   and (x / tp).denominator != 1 else "")
            raise BarbuError(f"raw result {fmt(x)} of {SEAT_NAMES[p]} is impossible in "
                             f"{contract.id}{why}")
    total = sum(raw, Fraction(0))
    if rules.stops_early(contract):
        # the hand may stop before every point is taken: the stop cards' points are all
        # there (it stops when they are all taken), the others' only in part; or a bonus
        if _bonus_scored(rules, contract, raw):
            return
        rest = [p for k, p in cards.items() if k not in contract.stop_when_taken]
        rest += [tp * rules.tricks_per_hand, *last]
        stop = sum((p for k, p in cards.items() if k in contract.stop_when_taken),
                   Fraction(0)) + (r if r is not None else 0)
        lo = stop + sum((p for p in rest if p < 0), Fraction(0))
        hi = stop + sum((p for p in rest if p > 0), Fraction(0))
        if not lo <= total <= hi:
            raise BarbuError(f"raw results {names} add up to {fmt(total)}, outside what a "
                             f"{contract.id} hand can hand out ({fmt(lo)} to {fmt(hi)})")
        return
    normal = rules.normal_total(contract)
    if total != normal:
        if _bonus_scored(rules, contract, raw):
            return  # (a bonus replaced a score: the last tricks' check does not apply)
        b = contract.all_tricks_score
        bc = contract.all_cards_score if cards else None
        raise BarbuError(f"raw results {names} add up to {fmt(total)}, not the {contract.id} "
                         f"total {fmt(normal)}"
                         + (f", nor are they {fmt(b)} for whoever takes every trick and 0 "
                            "for the others" if b is not None else "")
                         + (f", nor {fmt(bc)} for whoever takes every scoring card and "
                            "for the others only what their tricks give them"
                            if bc is not None else ""))
    if any(last) and not tp and not cards and r is None:
        # only the last tricks score: each goes to one player
        if not any(tuple(sum((v for v, q in zip(last, who) if q == p), Fraction(0))
                         for p in range(4)) == tuple(raw)
                   for who in itertools.product(range(4), repeat=len(last))):
            raise BarbuError(f"raw results {names} are impossible in {contract.id}: each "
                             "of the last tricks goes to one player ("
                             + ", ".join(fmt(v) for v in last) + ")")


# --------------------------------------------------------------------------- reading
def _packaged_sample(path: str) -> Path | None:
    """``data/samples/NAME`` inside the installed package, for a path that does not exist
    here but names a shipped sample (``barbu score data/samples/match-tournament.toml``)."""
    p = Path(path)
    # only as the docs write it, and only a match file: a bare name, or one ending in
    # data/samples/ somewhere else, is the user's own file that is not there
    if p.parts[:-1] != ("data", "samples") or p.suffix != ".toml":
        return None
    res = resources.files("data").joinpath("samples", p.name)
    try:
        with resources.as_file(res) as q:
            if Path(q).is_file():
                return Path(q)
    except (FileNotFoundError, TypeError):
        return None
    return None


def read_match_file(path: str | os.PathLike[str]) -> tuple[Path, dict[str, Any]]:
    """Read and parse a match file (TOML). A missing path that names a shipped sample
    (``data/samples/…``) is read from the installed package."""
    p = user_path(path, "match file")
    if not p.is_file():
        q = _packaged_sample(str(path))
        if q is None:
            raise BarbuError(f"match file {path} is a folder" if p.is_dir()
                             else f"match file not found: {path}")
        p = q
    try:
        text = p.read_text(encoding="utf-8").removeprefix("\ufeff")  # (a BOM)
    except (OSError, UnicodeDecodeError) as e:
        raise BarbuError(f"match file {path}: cannot read it ({e})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BarbuError(f"match file {path}: not valid TOML ({e})") from None
    except RecursionError:
        raise BarbuError(f"match file {path}: not valid TOML (nested too deeply)") from None
    return p, data


def _resolve_rules(spec: Any, base: Path, where: str) -> Rules:
    if not isinstance(spec, str):
        raise BarbuError(f"{where}: rules must be a preset name or a .toml path")
    try:
        if spec.endswith(".toml") or "/" in spec or os.sep in spec:
            p = user_path(spec, "rules file")
            if not p.is_absolute():
                p = base / p
            return load_rules(str(p))
        return load_rules(spec)
    except BarbuError as e:  # which file's rules key is wrong
        raise BarbuError(f"{where}: rules = {spec!r}: {e}") from None


def _sheet_seat(x: Any, what: str) -> int:
    """A seat written in a match file: N, E, S or W (text, as docs/match-format.md)."""
    if not isinstance(x, str):
        raise BarbuError(f"{what}: {x!r} is not a seat (expected \"N\", \"E\", \"S\" or "
                         "\"W\")")
    return _seat(x, what)


def _players(spec: Any, where: str) -> tuple[str, str, str, str]:
    if spec is None:
        return ("N", "E", "S", "W")
    if isinstance(spec, dict):
        names = dict.fromkeys(range(4), "")
        seen: set[int] = set()
        for k, v in spec.items():
            p = _seat(k, f"{where}: players")
            if p in seen:
                raise BarbuError(f"{where}: players: {SEAT_NAMES[p]} is named twice")
            seen.add(p)
            names[p] = str(v)
        out = [names[p] or SEAT_NAMES[p] for p in range(4)]
    elif isinstance(spec, list) and len(spec) == 4:
        out = [str(x) for x in spec]
    else:
        raise BarbuError(f"{where}: players must be 4 names (N E S W) or a table by seat")
    return tuple(out)  # type: ignore[return-value]


def score_match(path: str | os.PathLike[str], rules: str | Rules | None = None) -> MatchResult:
    """Read, validate and settle a match file.

    Parameters
    ----------
    path : the match file (TOML, ``docs/match-format.md``).
    rules : a preset name, a rules file path or :class:`Rules`; overrides the file's own
        ``rules`` key (default: that key, else ``tournament``).

    Returns
    -------
    MatchResult

    Raises
    ------
    BarbuError
        One line naming the hand number and the reason for any inconsistency.
    """
    p, data = read_match_file(path)
    where = f"match file {path}"
    for k in data:
        if k not in TOP_KEYS:
            raise BarbuError(f"{where}: unknown key {k!r} (expected one of "
                             + ", ".join(TOP_KEYS) + ")")
    if rules is not None:
        r = load_rules(rules)
    elif "rules" in data:
        r = _resolve_rules(data["rules"], p.parent, where)
    else:
        r = load_rules(DEFAULT_PRESET)
    title = data.get("title", "")
    if not isinstance(title, str):
        raise BarbuError(f"{where}: title must be a string")
    players = _players(data.get("players"), where)
    hands_in = data.get("hand", [])
    if not isinstance(hands_in, list) or not all(isinstance(h, dict) for h in hands_in):
        raise BarbuError(f"{where}: hands are [[hand]] tables")
    if "first_declarer" in data:
        first = _sheet_seat(data["first_declarer"], f"{where}: first_declarer")
    elif hands_in and "declarer" in hands_in[0]:
        first = _sheet_seat(hands_in[0]["declarer"], "hand 1: declarer")
    elif hands_in:
        raise BarbuError("hand 1: declarer missing (give it, or first_declarer at the top)")
    else:
        first = 0
    if len(hands_in) > r.hands:
        raise BarbuError(f"hand {r.hands + 1}: a {r.name} match has only {r.hands} hands")

    results: list[HandResult] = []
    runs: list[RunSummary] = []
    totals = [Fraction(0)] * 4
    sheet = [Fraction(0)] * 4
    played: set[str] = set()
    quota = [0] * 4
    for i, h in enumerate(hands_in):
        num = i + 1
        try:
            hr = _score_hand(r, h, i, first, played, quota)
        except BarbuError as e:
            raise BarbuError(f"hand {num}: {e}") from None
        decl, c, trump, rank, dbl, st = hr
        totals = [totals[q] + st.net[q] for q in range(4)]
        entry = st.above_lowest
        sheet = [sheet[q] + entry[q] for q in range(4)]
        k = i // r.run
        results.append(HandResult(
            number=num, run=k + 1, declarer=decl, contract=c.id, trump=trump, rank=rank,
            doubles=dbl, settlement=st, totals=tuple(totals), entry=tuple(entry),  # type: ignore
            sheet_totals=tuple(sheet), quota=tuple(quota),  # type: ignore[arg-type]
            note=str(h.get("note", ""))))
        if i % r.run == r.run - 1 or i == len(hands_in) - 1:
            runs.append(RunSummary(run=k + 1, declarer=decl, hands=i % r.run + 1,
                                   length=r.run, doubles_of_declarer=tuple(quota),  # type: ignore
                                   quota=int(r.variants["quota"]) if r.doubling else 0))
    return MatchResult(path=str(path), title=title, rules=r, players=players,
                       first_declarer=first, hands=tuple(results), runs=tuple(runs))


def _score_hand(r: Rules, h: dict[str, Any], i: int, first: int, played: set[str],
                quota: list[int]) -> tuple[int, Contract, str | None, str | None, Doubles,
                                          Settlement]:
    """Validate and settle hand ``i`` (0-based); updates ``played`` and ``quota`` (reset at
    the start of each run). Errors carry no hand number (the caller adds it)."""
    for k in h:
        if k not in HAND_KEYS:
            raise BarbuError(f"unknown key {k!r} (expected one of " + ", ".join(HAND_KEYS) + ")")
    pos = i % r.run
    if pos == 0:
        played.clear()
        quota[:] = [0, 0, 0, 0]
    expected = (first + i // r.run) % 4
    if "declarer" in h:
        decl = _sheet_seat(h["declarer"], "declarer")
        if decl != expected:
            raise BarbuError(f"declarer {SEAT_NAMES[decl]} out of turn: hand {i + 1} is hand "
                             f"{pos + 1} of {SEAT_NAMES[expected]}'s run")
    else:
        decl = expected
    if "contract" in h:
        if not isinstance(h["contract"], str):
            raise BarbuError("contract must be a string")
        c = r.contract(h["contract"])
    elif r.order == "fixed":
        c = r.contract(r.match_contracts[pos])
    else:
        raise BarbuError("contract missing")
    if c.id not in r.match_contracts:
        raise BarbuError(f"contract {c.id} is not in a {r.name} match (expected one of "
                         + ", ".join(r.match_contracts) + ")")
    if r.order == "fixed" and c.id != r.match_contracts[pos]:
        raise BarbuError(f"contract {c.id} out of order: {r.name} plays "
                         f"{r.match_contracts[pos]} as hand {pos + 1} of each run")
    if c.id in played:
        raise BarbuError(f"{SEAT_NAMES[decl]} already played {c.id} in this run")
    played.add(c.id)

    trump = None
    if "trump" in h:
        if not c.trumps:
            raise BarbuError(f"trump given for {c.id}, which has no trumps")
        trump = Suit.parse(str(h["trump"])).name
    rank = None
    if "rank" in h:
        if not c.is_dominoes:
            raise BarbuError(f"rank given for {c.id}: only Dominoes has a starting rank")
        rk = int(Rank.parse(str(h["rank"])))
        if rk not in DECK_RANKS[r.deck]:
            raise BarbuError(f"rank {h['rank']!r} is not in the {r.deck}-card deck")
        if c.start == "fixed" and c.start_rank is not None and rk != c.start_rank:
            raise BarbuError(f"{c.id} always starts from {RANK_CHARS[c.start_rank]} in "
                             f"{r.name}, not {RANK_CHARS[rk]}")
        rank = RANK_CHARS[rk]

    dbl = parse_doubles(h.get("doubles"))
    raw = None
    if "raw" in h:
        raw = raw_scores(h["raw"])
    validate_doubles(r, c, decl, dbl)
    if raw is None and not uses_split(r, c, dbl):
        raise BarbuError("raw results missing (raw = [N, E, S, W])")
    if raw is not None and not uses_split(r, c, dbl):
        check_raw(r, c, raw)
    st = settle(r, c, decl, raw, dbl, validate=False)
    for d, t in dbl.pairs:
        if t == decl:
            quota[d] += 1
    return decl, c, trump, rank, dbl, st


__all__ = ["score_match", "MatchResult", "HandResult", "RunSummary", "check_raw",
           "possible_raw", "read_match_file"]

"""Monte Carlo deals: the unseen cards dealt to the other three seats, uniformly, seeded.

The declarer sees his own hand; every deal of the other ``3 * deck/4`` cards that agrees
with what he knows is equally likely (design.md, "Monte Carlo"). What he may know, as
*constraints*:

* ``known``: cards known to be in a given seat's hand (``{seat: cards}``);
* ``voids``: suits a seat is known to hold none of (``{seat: suits}``);
* ``lengths``: a range ``(lo, hi)`` for the number of cards of a suit in a seat's hand,
  known cards included (``{seat: {suit: (lo, hi)}}``).

Sampling is exact, not by rejection. Known cards are placed first. For the rest, a count
over suits (dynamic programming on the slots each seat has left) gives the number of
consistent deals for every split of each suit's free cards among the three seats; a deal
is drawn suit by suit, choosing the split with probability proportional to the number of
deals that extend it, then dealing that suit's free cards by a random permutation. Every
consistent deal therefore has the same probability, with or without constraints, and
constraints that no deal meets are reported before anything is drawn.

Randomness enters only through a :class:`numpy.random.Generator` (``seed`` → ``
numpy.random.default_rng(seed)``); :func:`sample_deals` draws every deal in the calling
process, so a seeded run gives the same deals whatever the number of worker processes
that solve them.

>>> from analyzer.cards import parse_hand
>>> s = Sampler(parse_hand("AKQJT98765432..."), seat=0, deck=52)
>>> s.count() == factorial(39) // factorial(13) ** 3
True
>>> deals = sample_deals(s, 2, seed=7)
>>> [len(h) for h in deals[0]], deals == sample_deals(s, 2, seed=7)
([13, 13, 13, 13], True)
"""

from __future__ import annotations

from functools import lru_cache
from math import factorial
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from analyzer.cards import (Seat, Suit, as_cards, as_hand, as_seat, as_suit, card_name,
                            deck_cards, parse_hand, whole_index)
from analyzer.errors import BarbuError

Hands = tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int]]

__all__ = ["Sampler", "sample_deals", "parse_constraints", "Hands"]


def _cards(x: Any, where: str) -> frozenset[int]:
    """Cards from ``"SA,HK"``, ``["SA", "HK"]``, card indices, or a PBN hand ``"A.K.."``;
    none at all, an empty item between commas or a card listed twice is refused."""
    if isinstance(x, str) and "." in x:
        out = parse_hand(x.strip())
    elif whole_index(x, 52) is not None:
        out = frozenset({int(x)})  # type: ignore[arg-type]
    else:
        cards = as_cards(x, where)
        out = frozenset(cards)
        if len(out) != len(cards):
            dup = next(c for c in cards if cards.count(c) > 1)
            raise BarbuError(f"card {card_name(dup)} is listed twice in {where}")
    if not out:
        raise BarbuError(f"no cards in {where}: name some, like SA,HK")
    return out


def _suits(x: Any, where: str) -> frozenset[int]:
    if isinstance(x, str):
        try:
            out = frozenset({int(Suit.parse(x))})  # "hearts", "♥"
        except BarbuError:
            out = frozenset(as_suit(ch) for ch in x.replace(",", "").replace(" ", ""))
    elif isinstance(x, (list, tuple, set, frozenset)):
        out = frozenset(as_suit(y) for y in x)
    else:
        out = frozenset({as_suit(x)})
    if not out:
        raise BarbuError(f"no suits in {where}: name some, like H or HD")
    return out


def intersect_lengths(old: tuple[int, int] | None, new: tuple[int, int],
                      where: str) -> tuple[int, int]:
    """Two length ranges given for one seat and suit (``where``: "lengths for E in S")
    both hold: their intersection (an error when they have none in common).

    >>> intersect_lengths((0, 3), (2, 5), "lengths for E in S")
    (2, 3)
    """
    if old is None or tuple(old) == tuple(new):
        return new
    lo, hi = max(old[0], new[0]), min(old[1], new[1])
    if old[0] <= old[1] and new[0] <= new[1] and lo > hi:
        raise BarbuError(f"contradictory {where}: {old[0]}-{old[1]} and {new[0]}-{new[1]}")
    return lo, hi


def parse_constraints(spec: Mapping[str, Any] | None) -> dict[str, Any]:
    """Read constraints given as data (JSON / command line) into :class:`Sampler` keywords.

    ``spec`` may hold ``"known": {seat: cards}``, ``"voids": {seat: suits}`` and
    ``"lengths": {seat: {suit: [lo, hi] or n}}``; seats ``N E S W``, suits ``S H D C``,
    cards ``"SA,HK"`` or a list.

    >>> c = parse_constraints({"known": {"E": "SA,HK"}, "voids": {"W": "H"},
    ...                        "lengths": {"S": {"C": [0, 2]}}})
    >>> sorted(c["known"][1]), c["voids"], c["lengths"]
    ([12, 24], {3: frozenset({1})}, {2: {3: (0, 2)}})
    """
    if not spec:
        return {"known": {}, "voids": {}, "lengths": {}}
    if not isinstance(spec, Mapping):
        raise BarbuError("constraints must be a table with keys known, voids, lengths")
    bad = [k for k in spec if k not in ("known", "voids", "lengths")]
    if bad:
        raise BarbuError(f"unknown constraint {bad[0]!r} (expected known, voids, lengths)")
    for key, shape in (("known", "{seat: cards}"), ("voids", "{seat: suits}"),
                       ("lengths", "{seat: {suit: [lo, hi]}}")):
        if spec.get(key) and not isinstance(spec[key], Mapping):
            raise BarbuError(f"constraint {key} must be a table {shape}, not {spec[key]!r}")
    # a seat may be spelt several ways ("E", "e", "East"): its constraints add up
    known: dict[int, frozenset[int]] = {}
    for k, v in (spec.get("known") or {}).items():
        p = as_seat(k, "seat in known")
        known[p] = known.get(p, frozenset()) | _cards(v, f"the cards known in "
                                                        f"{Seat(p).name}'s hand")
    voids: dict[int, frozenset[int]] = {}
    for k, v in (spec.get("voids") or {}).items():
        p = as_seat(k, "seat in voids")
        voids[p] = voids.get(p, frozenset()) | _suits(v, f"the voids of {Seat(p).name}")
    lengths: dict[int, dict[int, tuple[int, int]]] = {}
    for k, v in (spec.get("lengths") or {}).items():
        p = as_seat(k, "seat in lengths")
        if not isinstance(v, Mapping):
            raise BarbuError(f"lengths of {Seat(p).name} must be a table {{suit: [lo, hi]}}")
        for s, rng in v.items():
            su = as_suit(s)
            where = f"{Seat(p).name} in {'SHDC'[su]}"
            if whole_index(rng, 14) is not None:
                lo = hi = int(rng)
            else:
                ends = list(rng) if isinstance(rng, (list, tuple)) else []
                ok = len(ends) == 2 and all(whole_index(z, 14) is not None for z in ends)
                if not ok:
                    shown = "-".join(map(str, ends)) if len(ends) == 2 else repr(rng)
                    raise BarbuError(f"bad length range {shown} for {where}: expected "
                                     "LO-HI or a number, 0 to 13")
                lo, hi = (int(z) for z in ends)
            if lo > hi:
                raise BarbuError(f"bad length range {lo}-{hi} for {where}: LO is above HI")
            lengths.setdefault(p, {})[su] = intersect_lengths(
                lengths.get(p, {}).get(su), (lo, hi), f"lengths for {where}")
    return {"known": known, "voids": voids, "lengths": lengths}


SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def _multinomial(n: int, parts: Sequence[int]) -> int:
    out = factorial(n)
    for k in parts:
        out //= factorial(k)
    return out


class Sampler:
    """Uniform deals of the unseen cards around one seat's known hand.

    Parameters
    ----------
    hand : iterable of card indices, or PBN hand text
        The cards of ``seat`` (``deck/4`` of them).
    seat : seat (int 0..3 or ``"N"`` …)
        Whose hand it is.
    deck : int
        32 or 52.
    known, voids, lengths : optional
        Constraints on the other seats (module docstring; :func:`parse_constraints` reads
        them from text).

    Raises
    ------
    BarbuError
        A bad hand, a constraint on the seat itself, a known card that is not unseen or
        is given to two seats, or constraints that no deal can meet.
    """

    def __init__(self, hand: Iterable[int] | str, seat: int | str, deck: int = 52, *,
                 known: Mapping[Any, Any] | None = None,
                 voids: Mapping[Any, Any] | None = None,
                 lengths: Mapping[Any, Mapping[Any, Any]] | None = None) -> None:
        if whole_index(deck, 53) not in (32, 52):
            raise BarbuError(f"bad deck {deck!r}: expected 32 or 52")
        self.deck = deck
        self.seat = as_seat(seat)
        h = as_hand(hand)
        allc = deck_cards(deck)
        outside = [c for c in h if c not in allc]
        if outside:
            raise BarbuError(f"card {card_name(outside[0])} is not in the {deck}-card deck")
        n = deck // 4
        if len(h) != n:
            raise BarbuError(f"the hand holds {len(h)} cards: a {deck}-card deal gives "
                             f"{n} to each seat")
        self.hand = h
        self.others = tuple(p for p in range(4) if p != self.seat)
        unseen = [c for c in allc if c not in h]
        # constraints, by other seat (index 0..2 in self.others); a seat spelt two ways
        # ("E", "East") keeps both
        c = parse_constraints({"known": known or {}, "voids": voids or {},
                               "lengths": lengths or {}})
        kn, vd, ln = c["known"], c["voids"], c["lengths"]
        for what, table in (("known cards", kn), ("voids", vd), ("lengths", ln)):
            if self.seat in table:
                raise BarbuError(f"{what} given for {Seat(self.seat).name}, the seat whose "
                                 "hand is given: constrain the other seats only")
        placed: dict[int, int] = {}
        for p, cs in kn.items():
            for c in cs:
                if c in h:
                    raise BarbuError(f"{card_name(c)} is in {Seat(self.seat).name}'s hand, "
                                     f"not {Seat(p).name}'s")
                if c not in allc:
                    raise BarbuError(f"card {card_name(c)} is not in the {deck}-card deck")
                if c in placed:
                    raise BarbuError(f"{card_name(c)} is known in two hands "
                                     f"({Seat(placed[c]).name} and {Seat(p).name})")
                placed[c] = p
            if len(cs) > n:
                raise BarbuError(f"{len(cs)} cards known in {Seat(p).name}'s hand: it holds "
                                 f"only {n}")
        self.known = tuple(frozenset(kn.get(p, ())) for p in self.others)
        # free cards of each suit, and the range of free cards of each suit per seat
        self.pool = tuple(tuple(c for c in unseen if c // 13 == s and c not in placed)
                          for s in range(4))
        rng_lo = [[0] * 4 for _ in range(3)]
        rng_hi = [[0] * 4 for _ in range(3)]
        for i, p in enumerate(self.others):
            for s in range(4):
                k = sum(1 for c in self.known[i] if c // 13 == s)
                lo, hi = 0, n
                if s in vd.get(p, ()):
                    hi = 0
                if s in ln.get(p, {}):
                    a, b = ln[p][s]       # (0 <= a <= b: parse_constraints)
                    lo, hi = max(lo, a), min(hi, b)
                if k > hi:
                    raise BarbuError(f"{Seat(p).name} is known to hold {k} "
                                     f"{'SHDC'[s]} card(s) but may hold at most {hi}")
                if lo > hi:
                    why = ("void, yet a minimum length" if s in vd.get(p, ()) else
                           f"at least {lo} card(s), but a hand holds {n}")
                    raise BarbuError(f"{Seat(p).name}: the constraints on {'SHDC'[s]} "
                                     f"contradict each other ({why})")
                rng_lo[i][s] = max(0, lo - k)
                rng_hi[i][s] = min(hi - k, len(self.pool[s]))
        self.lo, self.hi = rng_lo, rng_hi
        self.slots = tuple(n - len(self.known[i]) for i in range(3))
        self._splits = tuple(self._suit_splits(s) for s in range(4))
        self._count = lru_cache(maxsize=None)(self._count_raw)
        if self.count() == 0:
            raise BarbuError("the constraints cannot be met: " + self._why_none())

    def _why_none(self) -> str:
        """Why no deal meets the constraints, where one seat or one suit shows it."""
        n = self.deck // 4
        for i, p in enumerate(self.others):
            kept = len(self.known[i])
            most = kept + sum(self.hi[i])
            least = kept + sum(self.lo[i])
            if most < n:
                return (f"{Seat(p).name} holds {n} cards, but the voids, lengths and cards "
                        f"left allow at most {most}")
            if least > n:
                return (f"the lengths give {Seat(p).name} at least {least} cards, but a "
                        f"hand holds {n}")
        for s in range(4):
            known = sum(1 for k in self.known for c in k if c // 13 == s)
            unseen = len(self.pool[s]) + known
            most = known + sum(self.hi[i][s] for i in range(3))
            least = known + sum(self.lo[i][s] for i in range(3))
            who = ", ".join(Seat(p).name for p in self.others)
            if most < unseen:
                return (f"{unseen} {SUIT_WORDS[s]} are unseen, but the voids and lengths "
                        f"let {who} hold at most {most}")
            if least > unseen:
                return (f"the lengths give {who} at least {least} {SUIT_WORDS[s]}, but "
                        f"only {unseen} are unseen")
        return ("no deal of the unseen cards agrees with all of them (check the voids, "
                "lengths and known cards against the hand)")

    # ------------------------------------------------------------------ counting
    def _suit_splits(self, s: int) -> tuple[tuple[tuple[int, int, int], int], ...]:
        """Every split ``(x0, x1, x2)`` of suit ``s``'s free cards allowed by the ranges,
        with its number of card assignments."""
        m = len(self.pool[s])
        out = []
        for x0 in range(self.lo[0][s], self.hi[0][s] + 1):
            for x1 in range(self.lo[1][s], self.hi[1][s] + 1):
                x2 = m - x0 - x1
                if self.lo[2][s] <= x2 <= self.hi[2][s]:
                    out.append(((x0, x1, x2), _multinomial(m, (x0, x1, x2))))
        return tuple(out)

    def _count_raw(self, s: int, r0: int, r1: int, r2: int) -> int:
        if s == 4:
            return 1 if r0 == r1 == r2 == 0 else 0
        tot = 0
        for (x0, x1, x2), ways in self._splits[s]:
            if x0 <= r0 and x1 <= r1 and x2 <= r2:
                tot += ways * self._count(s + 1, r0 - x0, r1 - x1, r2 - x2)
        return tot

    def count(self) -> int:
        """The number of deals of the unseen cards that meet the constraints (exact)."""
        return self._count(0, *self.slots)

    # ------------------------------------------------------------------ drawing
    @staticmethod
    def _below(rng: np.random.Generator, total: int) -> int:
        """A uniform integer in ``[0, total)``."""
        if total < (1 << 62):
            return int(rng.integers(0, total))
        bits = total.bit_length()  # never needed for 52 cards: at most ~8.5e16 deals
        while True:
            x, got = 0, 0
            while got < bits:
                x = (x << 62) | int(rng.integers(0, 1 << 62))
                got += 62
            x >>= got - bits
            if x < total:
                return x

    def draw(self, rng: np.random.Generator) -> Hands:
        """One deal: the four hands (seat order), the given hand in its seat."""
        r = list(self.slots)
        dealt: list[set[int]] = [set(k) for k in self.known]
        for s in range(4):
            total = self._count(s, *r)
            u = self._below(rng, total)
            chosen = None
            for split, ways in self._splits[s]:
                x0, x1, x2 = split
                if x0 <= r[0] and x1 <= r[1] and x2 <= r[2]:
                    w = ways * self._count(s + 1, r[0] - x0, r[1] - x1, r[2] - x2)
                    if u < w:
                        chosen = split
                        break
                    u -= w
            assert chosen is not None
            pool = self.pool[s]
            perm = rng.permutation(len(pool))
            k = 0
            for i in range(3):
                for j in perm[k:k + chosen[i]]:
                    dealt[i].add(pool[int(j)])
                k += chosen[i]
                r[i] -= chosen[i]
        out: list[frozenset[int]] = [frozenset()] * 4
        out[self.seat] = self.hand
        for i, p in enumerate(self.others):
            out[p] = frozenset(dealt[i])
        return tuple(out)  # type: ignore[return-value]


def sample_deals(sampler: Sampler, n: int,
                 seed: int | np.random.Generator | None = None) -> list[Hands]:
    """``n`` deals from one generator, in order (the first ``k`` of ``n`` deals do not
    depend on ``n``).

    Parameters
    ----------
    sampler : Sampler
    n : int
        Number of deals.
    seed : int, Generator or None
        ``numpy.random.default_rng(seed)`` unless a Generator is given.

    Returns
    -------
    list of 4-tuples of frozensets of card indices, seat order.
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return [sampler.draw(rng) for _ in range(int(n))]

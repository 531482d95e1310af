"""Seats, suits, ranks, cards, hands and deals: the one module that owns every encoding.

Encodings (kernels see only the integers)::

    Seat   N=0 E=1 S=2 W=3            clockwise; left of X is (X + 1) % 4
    Suit   S=0 H=1 D=2 C=3            PBN order
    Rank   2=0 3=1 ... T=8 J=9 Q=10 K=11 A=12
    card   index = 13 * suit + rank   0..51  (SA = 12, H2 = 13, C2 = 39)
    bit    1 << (16 * suit + rank)    uint64 bitboard, one 16-bit lane per suit

      bit 63      48 47      32 31      16 15       0
         |  clubs   | diamonds |  hearts  |  spades  |
         |...AKQJT98765432|  (rank r at bit 16*suit + r)

A 32-card deck keeps the ranks 7 8 9 T J Q K A (rank indices 5..12).

>>> card_index("SA"), card_index("H2"), card_name(39)
(12, 13, 'C2')
>>> hex(card_bit(card_index("HA")))
'0x10000000'
>>> parse_hand("AKQ2.JT9.876.543") == parse_hand(format_hand(parse_hand("AKQ2.JT9.876.543")))
True
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from typing import Callable, Iterable, Sequence

import numpy as np

from analyzer.errors import BarbuError


class Seat(IntEnum):
    """Seats clockwise; ``Seat.N.left`` is E."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def left(self) -> "Seat":
        return Seat((self + 1) % 4)

    @property
    def right(self) -> "Seat":
        return Seat((self + 3) % 4)

    @property
    def partner(self) -> "Seat":
        return Seat((self + 2) % 4)

    @property
    def short(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str | "Seat") -> "Seat":
        if isinstance(text, Seat):
            return text
        t = str(text).strip().upper()
        names = {"N": 0, "E": 1, "S": 2, "W": 3, "NORTH": 0, "EAST": 1, "SOUTH": 2, "WEST": 3}
        if t not in names:
            raise BarbuError(f"bad seat {text!r}: expected one of N, E, S, W")
        return cls(names[t])


class Suit(IntEnum):
    """Suits in PBN order."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def short(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str | "Suit") -> "Suit":
        if isinstance(text, Suit):
            return text
        t = str(text).strip().upper()
        names = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
                 "SPADES": 0, "HEARTS": 1, "DIAMONDS": 2, "CLUBS": 3}
        if t not in names:
            raise BarbuError(f"bad suit {text!r}: expected one of S, H, D, C")
        return cls(names[t])


RANK_CHARS = "23456789TJQKA"


class Rank(IntEnum):
    """Ranks, low to high; values index ``RANK_CHARS``."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def short(self) -> str:
        return RANK_CHARS[self]

    @classmethod
    def parse(cls, text: str | "Rank") -> "Rank":
        if isinstance(text, Rank):
            return text
        t = str(text).strip().upper()
        if t == "10":
            t = "T"
        if len(t) != 1 or t not in RANK_CHARS:
            raise BarbuError(f"bad rank {text!r}: expected one of 2-9, T, J, Q, K, A")
        return cls(RANK_CHARS.index(t))


SEATS = tuple(Seat)
SUITS = tuple(Suit)


def whole_index(x: object, n: int) -> int | None:
    """``x`` as an index in ``range(n)`` when it is a whole number of an integer type
    (Python or numpy, an IntEnum included; not a boolean, not a float): else None.

    >>> whole_index(2, 4), whole_index(np.int64(3), 4), whole_index(True, 4), whole_index(1.0, 4)
    (2, 3, None, None)
    """
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) \
            and 0 <= int(x) < n:
        return int(x)
    return None


def _as_index(x: object, parse: Callable[[str], int], n: int, what: str,
              expected: str) -> int:
    if isinstance(x, str):
        try:
            return int(parse(x))
        except BarbuError:
            pass
    else:
        i = whole_index(x, n)
        if i is not None:
            return i
    raise BarbuError(f"bad {what} {x!r}: expected one of {expected}")


def as_seat(x: object, what: str = "seat") -> int:
    """A seat index 0-3 from ``"N"``/``"north"``, a :class:`Seat` or an integer 0-3
    (numpy too); one line naming ``what`` for anything else (booleans, floats, 4).

    >>> as_seat("e"), as_seat(Seat.W), as_seat(np.int8(2))
    (1, 3, 2)
    """
    return _as_index(x, Seat.parse, 4, what, "N, E, S, W")


def as_suit(x: object, what: str = "suit") -> int:
    """A suit index 0-3 from ``"S"``/``"♠"``, a :class:`Suit` or an integer 0-3."""
    return _as_index(x, Suit.parse, 4, what, "S, H, D, C")


def as_rank(x: object, what: str = "rank") -> int:
    """A rank index 0-12 (2 … A) from ``"T"``/``"10"``, a :class:`Rank` or an integer."""
    return _as_index(x, Rank.parse, 13, what, "2-9, T, J, Q, K, A")


def as_seats(side: object, what: str = "side") -> tuple[int, ...]:
    """Distinct seats, sorted, from ``"NS"`` or a collection of seats (:func:`as_seat`);
    a single seat (``0``, ``Seat.N``) is a side of one.

    >>> as_seats("sn"), as_seats([Seat.E, "w"]), as_seats(2)
    ((0, 2), (1, 3), (2,))
    """
    if isinstance(side, str):
        items: list = list(side.strip().upper())
    elif whole_index(side, 4) is not None:
        items = [side]
    else:
        try:
            items = list(side)  # type: ignore[arg-type]
        except TypeError:
            raise BarbuError(f"bad {what} {side!r}: name seats, like NS") from None
    seats = [as_seat(x, f"seat in {what}") for x in items]
    if not seats or len(set(seats)) != len(seats):
        raise BarbuError(f"bad {what} {side!r}: name distinct seats, like NS")
    return tuple(sorted(seats))


def _weight(x: object) -> Fraction:
    """An objective's weight: an exact number (a float as written: 0.1 is 1/10; text
    such as ``"1/3"``)."""
    if isinstance(x, str):
        try:
            return _weight(Fraction(x.strip()))
        except (ValueError, ZeroDivisionError):
            raise BarbuError(f"bad weight {x!r}: expected a number") from None
    if isinstance(x, (bool, np.bool_)) or not isinstance(
            x, (int, np.integer, float, np.floating, Fraction)):
        raise BarbuError(f"bad weight {x!r}: expected a number")
    if isinstance(x, (float, np.floating)):
        if not np.isfinite(x):
            raise BarbuError(f"bad weight {x!r}: expected a finite number")
        return Fraction(str(float(x)))
    return Fraction(int(x)) if isinstance(x, np.integer) else Fraction(x)


def as_weights(weights: object) -> tuple[Fraction, ...]:
    """Four exact weights, one a seat (N E S W), from a sequence of numbers."""
    if isinstance(weights, (str, bytes)) or not hasattr(weights, "__len__"):
        raise BarbuError(f"bad weights {weights!r}: expected four numbers, one a seat")
    w = tuple(_weight(x) for x in weights)  # type: ignore[union-attr]
    if len(w) != 4:
        raise BarbuError(f"weights need one number per seat, got {len(w)}")
    return w


#: Ranks present in each deck size, low to high.
DECK_RANKS = {52: tuple(range(13)), 32: tuple(range(5, 13))}

#: ``CARD_BIT[c]`` is the bitboard bit of card index ``c``.
CARD_BIT = np.array([1 << (16 * (c // 13) + c % 13) for c in range(52)], dtype=np.uint64)


def deck_cards(deck: int = 52) -> tuple[int, ...]:
    """Card indices of a 52- or 32-card deck, in index order."""
    if deck not in DECK_RANKS:
        raise BarbuError(f"bad deck size {deck}: expected 52 or 32")
    ranks = DECK_RANKS[deck]
    return tuple(13 * s + r for s in range(4) for r in ranks)


def card_suit(c: int) -> int:
    return c // 13


def card_rank(c: int) -> int:
    return c % 13


def make_card(suit: int, rank: int) -> int:
    return 13 * as_suit(suit) + as_rank(rank)


def card_bit(c: int) -> int:
    return 1 << (16 * (c // 13) + c % 13)


def card_name(c: int) -> str:
    """``'SA'``-style name (suit then rank) of card index ``c``."""
    if whole_index(c, 52) is None:
        raise BarbuError(f"bad card {c!r}: a card index 0-51")
    return "SHDC"[c // 13] + RANK_CHARS[c % 13]


def card_pretty(c: int) -> str:
    return "♠♥♦♣"[c // 13] + RANK_CHARS[c % 13]


def card_index(text: str) -> int:
    """Parse ``SA``, ``HT``, ``H10``, ``♥K`` (suit then rank) into a card index."""
    t = str(text).strip()
    if len(t) < 2:
        raise BarbuError(f"bad card {text!r}: expected suit then rank, like SA or HT")
    try:
        suit = Suit.parse(t[0])
        rank = Rank.parse(t[1:])
    except BarbuError:
        raise BarbuError(f"bad card {text!r}: expected suit then rank, like SA or HT") from None
    return make_card(suit, rank)


def as_card(x: int | str, where: str) -> int:
    """A card index from an index (0-51) or a name (``SA``); one line naming ``where``
    (e.g. "the current trick") for anything else.

    >>> as_card(0, "t"), as_card(51, "t"), as_card(np.int8(12), "t"), as_card("SA", "t")
    (0, 51, 12, 12)
    >>> for bad in (-1, 52, np.int64(-1), np.int64(52), True, 1.0):
    ...     try:
    ...         as_card(bad, "the current trick")
    ...     except BarbuError as e:
    ...         print(e if type(bad) is not np.int64 else "refused")
    bad card -1 in the current trick: a card index 0-51 or a name like SA
    bad card 52 in the current trick: a card index 0-51 or a name like SA
    refused
    refused
    bad card True in the current trick: a card index 0-51 or a name like SA
    bad card 1.0 in the current trick: a card index 0-51 or a name like SA
    """
    if type(x) is int and 0 <= x < 52:  # (the common case first: solves call it a lot)
        return x
    if isinstance(x, str):
        return card_index(x)
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 0 <= x < 52:
        return int(x)
    raise BarbuError(f"bad card {x!r} in {where}: a card index 0-51 or a name like SA")


def as_cards(x: object, where: str) -> list[int]:
    """Cards in order from ``"SA,SQ"`` (commas or spaces), a sequence of cards
    (:func:`as_card`) or None (no card); an empty item (``"SA,"``) is refused.

    >>> as_cards("SA, HK", "the current trick"), as_cards(None, "the current trick")
    ([12, 24], [])
    """
    if x is None:
        return []
    if isinstance(x, str):
        t = x.strip()
        items = re.split(r"\s*,\s*|\s+", t) if t else []
        if "" in items:
            raise BarbuError(f"bad cards {x!r} in {where}: an empty card between commas")
        return [card_index(i) for i in items]
    try:
        return [as_card(c, where) for c in x]  # type: ignore[union-attr]
    except TypeError:
        raise BarbuError(f"bad cards {x!r} in {where}: like SA,SQ, or a list of cards") from None


def as_hand(x: object, where: str = "the hand") -> frozenset[int]:
    """One hand from PBN text (``"AK72.Q5.A963.KJ4"``) or a collection of cards
    (:func:`as_card`); a card listed twice is refused, not merged."""
    if isinstance(x, str):
        return parse_hand(x.strip().strip('"'))
    try:
        cards = [as_card(c, where) for c in x]  # type: ignore[union-attr]
    except TypeError:
        raise BarbuError(f"bad hand {x!r}: PBN text or a collection of cards") from None
    h = frozenset(cards)
    if len(h) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise BarbuError(f"card {card_name(dup)} is listed twice in {where}")
    return h


def as_hands(hands: Iterable[Iterable[int | str]]) -> list[set[int]]:
    """Hands of cards (indices or names, :func:`as_card`) as sets of card indices; a bad
    card names its seat's hand."""
    out = []
    for i, h in enumerate(hands):
        where = f"{'NESW'[i]}'s hand" if i < 4 else f"hand {i + 1}"
        if isinstance(h, str):
            raise BarbuError(f"bad {where} {h!r}: a collection of cards (parse_hand reads "
                             "PBN text)")
        out.append(set(as_hand(h, where)))
    return out


def mask_of(cards: Iterable[int]) -> int:
    """Bitboard (Python int) of a set of card indices."""
    m = 0
    for c in cards:
        m |= card_bit(c)
    return m


def cards_of(mask: int) -> list[int]:
    """Card indices of a bitboard, in index order."""
    out = []
    for s in range(4):
        lane = (int(mask) >> (16 * s)) & 0x1FFF
        r = 0
        while lane:
            if lane & 1:
                out.append(13 * s + r)
            lane >>= 1
            r += 1
    return out


def parse_hand(text: str) -> frozenset[int]:
    """Parse a PBN hand ``"AKQ2.JT9.876.543"`` (suits S.H.D.C, void as empty)."""
    t = str(text).strip()
    parts = t.split(".")
    if len(parts) != 4:
        raise BarbuError(f"bad hand {text!r}: expected four suits S.H.D.C separated by dots")
    cards: list[int] = []
    for s, part in enumerate(parts):
        part = part.upper().replace("10", "T")
        for ch in part:
            if ch not in RANK_CHARS:
                raise BarbuError(f"bad hand {text!r}: unknown rank {ch!r} in {'SHDC'[s]}")
            c = make_card(s, RANK_CHARS.index(ch))
            if c in cards:
                raise BarbuError(f"bad hand {text!r}: duplicate card {card_name(c)}")
            cards.append(c)
    return frozenset(cards)


def format_hand(cards: Iterable[int]) -> str:
    """PBN text of a hand, ranks high to low in each suit."""
    cs = set(cards)
    parts = []
    for s in range(4):
        parts.append("".join(RANK_CHARS[r] for r in range(12, -1, -1) if 13 * s + r in cs))
    return ".".join(parts)


@dataclass(frozen=True)
class Deal:
    """Four hands (full deal or endgame, equal lengths) from a 52- or 32-card deck.

    ``hands[seat]`` is a frozenset of card indices.
    """

    hands: tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int]]
    deck: int = 52

    def __post_init__(self) -> None:
        validate_hands(self.hands, self.deck, equal=True)

    @property
    def length(self) -> int:
        """Cards in each hand (13 or 8 for a full deal)."""
        return len(self.hands[0])

    @property
    def is_full(self) -> bool:
        return self.length * 4 == self.deck

    def masks(self) -> np.ndarray:
        """``ndarray(uint64, shape=(4,))``: each seat's bitboard."""
        return np.array([mask_of(h) for h in self.hands], dtype=np.uint64)

    def to_pbn(self, first: Seat = Seat.N) -> str:
        return format_deal(self, first)

    def __str__(self) -> str:
        return self.to_pbn()


def validate_hands(hands: Sequence[Iterable[int]], deck: int, equal: bool = True) -> None:
    """Raise :class:`BarbuError` for duplicates, cards outside ``deck`` or unequal hands."""
    if len(hands) != 4:
        raise BarbuError(f"a deal needs four hands, got {len(hands)}")
    allowed = set(deck_cards(deck))
    seen: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        for c in hand:
            if c not in allowed:
                # (a card index outside 0-51 has no name: say what was given)
                what = card_name(c) if isinstance(c, (int, np.integer)) and 0 <= c < 52 \
                    else f"index {c!r} (cards are 0-51)"
                raise BarbuError(
                    f"card {what} in {Seat(seat).name}'s hand is not in the {deck}-card deck")
            if c in seen:
                raise BarbuError(
                    f"duplicate card {card_name(c)} in {Seat(seen[c]).name}'s and "
                    f"{Seat(seat).name}'s hands")
            seen[c] = seat
    lengths = [len(h) for h in hands]
    if equal and len(set(lengths)) != 1:
        desc = ", ".join(f"{Seat(i).name} {n}" for i, n in enumerate(lengths))
        raise BarbuError(f"hands have unequal lengths ({desc})")
    if max(lengths) * 4 > deck:
        raise BarbuError(f"hands too long for a {deck}-card deck")
    if equal and lengths[0] == 0:
        raise BarbuError("the deal has no cards")


def infer_deck(cards: Iterable[int]) -> int:
    """32 if every card is a 7 or higher, else 52."""
    return 32 if all(c % 13 >= 5 for c in cards) else 52


#: a PBN file's deal tag line, ``[Deal "N:…"]`` (a comment after it allowed)
PBN_DEAL_TAG = re.compile(r'\[\s*deal\s*"([^"]*)"\s*\]\s*(?:;.*)?', re.IGNORECASE)


def parse_hands(text: str, deck: int | None = None, equal: bool = True
                ) -> tuple[tuple[frozenset[int], ...], int]:
    """Parse the four hands of a PBN deal; return them in seat order, and the deck size.

    Accepts ``"N:h1 h2 h3 h4"`` (hands clockwise from the named seat) and the labelled form
    ``"N:h1 E:h2 S:h3 W:h4"`` (any order), either also as a PBN file's tag line
    ``[Deal "N:h1 h2 h3 h4"]``. Hands are ``S.H.D.C`` with ranks ``AKQJT9..2``.
    ``deck`` defaults to 32 when no card below 7 appears and no hand is longer than 8.
    With ``equal=False`` the hands may differ in length (a trick in progress).
    """
    t = str(text).strip()
    tag = PBN_DEAL_TAG.fullmatch(t)
    t = (tag.group(1) if tag else t).strip().strip('"')  # (a PBN file's [Deal "…"] line)
    if not t:
        raise BarbuError("empty deal")
    if t == "#":  # (PBN's "as in the previous game": a batch fills it in where it can)
        raise BarbuError('deal "#" repeats the deal of the game before, and none came '
                         'before it')
    tokens = t.split()
    hands: list[frozenset[int] | None] = [None, None, None, None]
    first = Seat.N
    if ":" in tokens[0] and len(tokens[0].split(":")[0]) <= 5:
        head, _, rest = tokens[0].partition(":")
        first = Seat.parse(head)
        tokens[0] = rest
    labelled = [tok for tok in tokens[1:] if ":" in tok]
    if labelled and len(labelled) != len(tokens) - 1:
        raise BarbuError(f"bad deal {text!r}: label every hand (E:…) or none")
    if len(tokens) != 4:
        raise BarbuError(f"bad deal {text!r}: expected four hands, got {len(tokens)}")
    for i, tok in enumerate(tokens):
        if labelled and i > 0:
            head, _, tok = tok.partition(":")
            seat = Seat.parse(head)
        else:
            seat = Seat((first + i) % 4)
        if hands[seat] is not None:
            raise BarbuError(f"bad deal {text!r}: seat {seat.name} given twice")
        hands[seat] = parse_hand(tok)
    hs = tuple(h for h in hands if h is not None)
    if deck is None:
        allc = [c for h in hs for c in h]
        deck = 32 if allc and infer_deck(allc) == 32 and max(map(len, hs)) <= 8 else 52
    validate_hands(hs, deck, equal=equal)
    return hs, deck


def parse_deal(text: str, deck: int | None = None) -> Deal:
    """Parse a PBN deal or endgame (equal hands); see :func:`parse_hands`.

    >>> d = parse_deal("N:AKQJ... E:T987... S:6543... W:2..AKQ.")
    >>> d.length, d.deck, d.to_pbn()
    (4, 52, 'N:AKQJ... T987... 6543... 2..AKQ.')
    >>> parse_deal("N:AKQJ... E:T987... S:6543... W:A..AKQ.")
    Traceback (most recent call last):
    ...
    analyzer.errors.BarbuError: duplicate card SA in N's and W's hands
    """
    hs, deck = parse_hands(text, deck)
    return Deal(hs, deck)  # type: ignore[arg-type]


def format_deal(deal: Deal, first: Seat = Seat.N) -> str:
    """Standard PBN ``"N:h1 h2 h3 h4"``, hands clockwise from ``first``."""
    hands = [format_hand(deal.hands[(first + i) % 4]) for i in range(4)]
    return f"{Seat(first).name}:" + " ".join(hands)


def make_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def random_deal(seed: int | np.random.Generator | None = None, deck: int = 52,
                length: int | None = None) -> Deal:
    """A uniformly random deal (or endgame of ``length`` cards a hand), seeded."""
    rng = make_rng(seed)
    cards = np.array(deck_cards(deck))
    rng.shuffle(cards)
    n = deck // 4 if length is None else int(length)
    if not 1 <= n <= deck // 4:
        raise BarbuError(f"bad hand length {length} (--length) for a {deck}-card deck: "
                         f"1 to {deck // 4} cards")
    hands = tuple(frozenset(int(c) for c in cards[i * n:(i + 1) * n]) for i in range(4))
    return Deal(hands, deck)  # type: ignore[arg-type]

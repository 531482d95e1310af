"""Hand features: what a hand holds that may explain a contract's value.

One row per seat of a deal, in the columns of :data:`FEATURE_COLUMNS` (``docs/stats.md``
documents them). Card encoding as :mod:`analyzer.cards`: card index ``13 * suit + rank``,
suits S H D C = 0..3, ranks 2..A = 0..12.

>>> from analyzer.cards import parse_hand
>>> f = hand_features(parse_hand("AKQ2.KT9.876.543"), deck=52)
>>> f["len_s"], f["len_h"], f["hcp"], f["has_hk"], f["hk_guard"], f["queens"]
(4, 3, 12, True, 2, 1)
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from analyzer.cards import DECK_RANKS, as_card, format_hand
from analyzer.rules import Contract, Rules

#: Rank indices of the honours and the spot-card threshold.
ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8
#: Cards below this rank index (a 9) count as ``low_cards``.
LOW_BELOW = 7
#: Card indices of the heart ace and king.
HEART_ACE, HEART_KING = 13 + ACE, 13 + KING

#: Feature columns in order, with their polars dtype names (``docs/stats.md``).
FEATURE_COLUMNS: dict[str, str] = {
    "hand": "String",       # PBN hand S.H.D.C
    "len_s": "Int8", "len_h": "Int8", "len_d": "Int8", "len_c": "Int8",
    "longest": "Int8",      # length of the longest suit
    "shortest": "Int8",     # length of the shortest suit
    "voids": "Int8",        # suits with no card
    "singletons": "Int8",   # suits with one card
    "hcp": "Int8",          # A=4 K=3 Q=2 J=1
    "aces": "Int8", "kings": "Int8", "queens": "Int8", "jacks": "Int8",
    "tens": "Int8",
    "hearts": "Int8",       # = len_h (named for the heart contracts)
    "high_hearts": "Int8",  # hearts J or higher
    "low_cards": "Int8",    # cards 8 or lower (2..8)
    "lowest_rank_sum": "Int16",  # sum over suits of the lowest held rank index (voids 0)
    "has_ha": "Boolean",    # holds the A♥
    "has_hk": "Boolean",    # holds the K♥
    "hk_guard": "Int8",     # other hearts held with the K♥ (0 when K♥ not held)
    "rank_min": "Int8",     # lowest rank index held (Dominoes)
    "rank_max": "Int8",     # highest rank index held
}


def hand_features(hand: Iterable[int], deck: int = 52) -> dict[str, Any]:
    """Features of one hand (a dict keyed by :data:`FEATURE_COLUMNS`).

    Parameters
    ----------
    hand : iterable of int
        Card indices held.
    deck : int
        32 or 52; only the ranks of that deck are counted as low or as ranks.

    Returns
    -------
    dict
        Plain Python ints, bools and the PBN text of the hand.
    """
    cards = sorted(set(as_card(c, "the hand") for c in hand))
    suits = [[c % 13 for c in cards if c // 13 == s] for s in range(4)]
    lens = [len(x) for x in suits]
    ranks = [c % 13 for c in cards]
    hk = HEART_KING in cards
    low_deck = min(DECK_RANKS[deck])
    return {
        "hand": format_hand(cards),
        "len_s": lens[0], "len_h": lens[1], "len_d": lens[2], "len_c": lens[3],
        "longest": max(lens), "shortest": min(lens),
        "voids": sum(n == 0 for n in lens), "singletons": sum(n == 1 for n in lens),
        "hcp": sum({ACE: 4, KING: 3, QUEEN: 2, JACK: 1}.get(r, 0) for r in ranks),
        "aces": ranks.count(ACE), "kings": ranks.count(KING),
        "queens": ranks.count(QUEEN), "jacks": ranks.count(JACK), "tens": ranks.count(TEN),
        "hearts": lens[1],
        "high_hearts": sum(r >= JACK for r in suits[1]),
        "low_cards": sum(r < LOW_BELOW for r in ranks),
        "lowest_rank_sum": sum((min(x) - low_deck) if x else 0 for x in suits),
        "has_ha": HEART_ACE in cards,
        "has_hk": hk,
        "hk_guard": lens[1] - 1 if hk else 0,
        "rank_min": min(ranks) if ranks else -1,
        "rank_max": max(ranks) if ranks else -1,
    }


def deal_features(hands: Sequence[Iterable[int]], deck: int = 52) -> list[dict[str, Any]]:
    """Features of the four hands of a deal, seat order N E S W."""
    return [hand_features(h, deck) for h in hands]


def contract_feature(rules: Rules, contract: Contract | str) -> str | None:
    """The feature column that best explains a trick contract's value, read off what the
    contract scores (so a rules file's renamed or new contracts get one too):

    - ``longest`` where the most cards of a suit are penalised (Ravage City);
    - ``hearts`` where only hearts carry points (No Hearts, No King);
    - ``queens`` where only queens carry points (No Queens);
    - ``hcp`` for the other trick contracts (No Tricks, the last tricks, Salad, notrump);
    - None for Trumps and Dominoes, whose own tables (trump length, starting rank) the
      report draws instead.

    >>> from analyzer.rules import load_rules
    >>> r = load_rules("classic-32")
    >>> [contract_feature(r, c) for c in ("no-king", "no-queens", "salad", "dominoes")]
    ['hearts', 'queens', 'hcp', None]
    """
    c = rules.contract(contract) if isinstance(contract, str) else contract
    if c.is_dominoes or c.trumps:
        return None
    if c.ravage is not None:
        return "longest"
    cards = rules.card_points(c)
    if cards and not rules.trick_points(c) and not any(rules.last_tricks(c)):
        if all(k // 13 == 1 for k in cards):
            return "hearts"
        if all(k % 13 == QUEEN for k in cards):
            return "queens"
    return "hcp"


__all__ = ["FEATURE_COLUMNS", "hand_features", "deal_features", "contract_feature"]

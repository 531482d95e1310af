"""Cards, hands and deals: encodings, PBN in and out, validation, seeded deals."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.cards import (CARD_BIT, Deal, Rank, Seat, Suit, card_index, card_name, cards_of,
                            deck_cards, format_deal, mask_of, parse_deal, parse_hand,
                            random_deal, validate_hands)
from analyzer.errors import BarbuError


def test_encodings_round_trip():
    for c in range(52):
        assert card_index(card_name(c)) == c
        assert int(CARD_BIT[c]) == 1 << (16 * (c // 13) + c % 13)
    assert cards_of(mask_of(range(52))) == list(range(52))
    assert Seat.N.left == Seat.E and Seat.N.right == Seat.W and Seat.S.partner == Seat.N
    assert Suit.parse("♥") == Suit.H and Rank.parse("10") == Rank.TEN
    assert card_index("H10") == card_index("HT")
    assert len(deck_cards(32)) == 32 and min(c % 13 for c in deck_cards(32)) == 5


def test_pbn_round_trip_and_labelled_form():
    text = "N:AK72.Q5.A963.KJ4 QJ5.AT942.K7.Q85 T84.K763.QJ4.A92 963.J8.T852.T763"
    d = parse_deal(text)
    assert d.to_pbn() == text and d.is_full and d.length == 13
    e = parse_deal("E:QJ5.AT942.K7.Q85 T84.K763.QJ4.A92 963.J8.T852.T763 AK72.Q5.A963.KJ4")
    assert e == d
    lab = parse_deal("N:AK72.Q5.A963.KJ4 E:QJ5.AT942.K7.Q85 W:963.J8.T852.T763 "
                     "S:T84.K763.QJ4.A92")
    assert lab == d
    assert format_deal(d, Seat.S).startswith("S:T84.K763.QJ4.A92")


@pytest.mark.parametrize("text,match", [
    ("N:AK72.Q5.A963.KJ4 QJ5.AT942.K7.Q85 T84.K763.QJ4.A92", "four hands"),
    ("N:AK72.Q5.A963.KJ4 AJ5.AT942.K7.Q85 T84.K763.QJ4.A92 963.J8.T852.T763", "duplicate card SA"),
    ("N:AK72.Q5.A963.KJX QJ5.AT942.K7.Q85 T84.K763.QJ4.A92 963.J8.T852.T763", "unknown rank 'X'"),
    ("N:AK7.Q5.A963.KJ4 QJ5.AT942.K7.Q85 T84.K763.QJ4.A92 963.J8.T852.T763", "unequal lengths"),
    ("X:AK72.Q5.A963.KJ4 QJ5.AT942.K7.Q85 T84.K763.QJ4.A92 963.J8.T852.T763", "bad seat"),
    ("N:AK72.Q5.A963 QJ5.AT942.K7.Q85 T84.K763.QJ4.A92 963.J8.T852.T763", "four suits"),
    ("", "empty deal"),
])
def test_bad_deals_give_one_line_errors(text, match):
    with pytest.raises(BarbuError, match=match) as e:
        parse_deal(text)
    assert "\n" not in str(e.value)


def test_symbols_ten_and_seat_names():
    """Suit symbols name their suits (♦ is diamonds, ♣ clubs), "10" is the ten in a PBN
    hand, a deal may name its first seat in full, a side names distinct seats, and a
    decimal weight is exact."""
    from fractions import Fraction
    from analyzer.cards import as_seats, as_suit, as_weights
    assert [as_suit(x) for x in "♠♥♦♣"] == [0, 1, 2, 3]
    assert [card_index(x + "A") for x in "♠♥♦♣"] == [card_index(x + "A") for x in "SHDC"]
    assert parse_hand("AK10.Q5.A963.KJ4") == parse_hand("AKT.Q5.A963.KJ4")
    d = "AK72.Q5.A963.KJ4 QJ5.AT942.K7.Q85 T84.K763.QJ4.A92 963.J8.T852.T763"
    assert parse_deal("NORTH:" + d) == parse_deal("N:" + d)
    with pytest.raises(BarbuError, match="distinct seats"):
        as_seats("NN")
    assert as_weights([0.1, 0, 0, 0])[0] == Fraction(1, 10)


def test_card_not_in_the_32_card_deck():
    with pytest.raises(BarbuError, match="not in the 32-card deck"):
        Deal((parse_hand("A..."), parse_hand("K..."), parse_hand("Q..."), parse_hand("2...")), 32)
    d = parse_deal("N:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987")
    assert d.deck == 32


@pytest.mark.parametrize("bad", [52, 60, -1])
def test_card_index_outside_the_deck_is_named_as_given(bad):
    # (the Python API takes card indices 0-51: one outside has no name to print, and -1
    # must not pass for the club ace)
    with pytest.raises(BarbuError, match=f"card index {bad} \\(cards are 0-51\\) in E's hand"):
        validate_hands([[0], [bad], [2], [3]], 52)


def test_random_deals_are_seeded_and_valid():
    a, b = random_deal(7), random_deal(7)
    assert a == b and a != random_deal(8)
    assert sorted(c for h in a.hands for c in h) == list(range(52))
    d32 = random_deal(np.random.default_rng(1), deck=32)
    assert d32.length == 8 and d32.deck == 32
    e = random_deal(3, length=4)
    assert e.length == 4 and not e.is_full
    with pytest.raises(BarbuError):
        random_deal(1, length=14)


def test_a_pbn_files_deal_tag_line_is_a_deal():
    """`[Deal "N:…"]` as copied from a PBN file parses as its deal; anything else in
    brackets does not."""
    text = "N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"
    for tagged in (f'[Deal "{text}"]', f'  [deal  "{text}" ] ', f'[Deal"{text}"] ; a note'):
        assert parse_deal(tagged) == parse_deal(text)
    with pytest.raises(BarbuError):
        parse_deal(f'[Dealer "{text}"]')

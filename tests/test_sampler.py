"""Tests for analyzer.sampler: uniform deals of the unseen cards, with constraints.

Uniformity is checked by chi-square statistics computed here against exact
probabilities (hypergeometric suit lengths, 1/3 per seat for a given card), compared with
tabulated critical values of the chi-square distribution at the 0.1% level (Abramowitz &
Stegun, table 26.8). The seeds are fixed, so the tests are deterministic.
"""

from __future__ import annotations

from math import comb, factorial

import numpy as np
import pytest

from analyzer.cards import card_index, parse_hand
from analyzer.errors import BarbuError
from analyzer.sampler import Sampler, parse_constraints, sample_deals

#: chi-square critical values at the 0.1% level, by degrees of freedom
CHI2_999 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322,
            8: 26.124, 9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909}

HAND = "AKQ2.JT9.876.543"   # N: 4 spades, 3 hearts, 3 diamonds, 3 clubs


def chi2(observed: list[int], expected: list[float]) -> tuple[float, int]:
    """Pearson's statistic after pooling cells with expected count < 5 into neighbours;
    returns (statistic, degrees of freedom)."""
    obs, exp = [], []
    o_acc = e_acc = 0.0
    for o, e in zip(observed, expected):
        o_acc += o
        e_acc += e
        if e_acc >= 5:
            obs.append(o_acc)
            exp.append(e_acc)
            o_acc = e_acc = 0.0
    if e_acc:
        obs[-1] += o_acc
        exp[-1] += e_acc
    stat = sum((o - e) ** 2 / e for o, e in zip(obs, exp))
    return stat, len(obs) - 1


def hypergeom(N: int, K: int, n: int) -> list[float]:
    """P(j successes) drawing n of N with K successes, j = 0..n."""
    return [comb(K, j) * comb(N - K, n - j) / comb(N, n) for j in range(n + 1)]


@pytest.fixture(scope="module")
def free_deals():
    s = Sampler(HAND, 0, 52)
    return sample_deals(s, 3000, seed=20261129)


def test_deals_are_complete_and_keep_the_hand(free_deals):
    hand = parse_hand(HAND)
    for deal in free_deals[:200]:
        assert deal[0] == hand
        assert [len(h) for h in deal] == [13] * 4
        assert len(frozenset().union(*deal)) == 52


def test_where_given_cards_land_is_uniform(free_deals):
    for name in ("SJ", "HA", "C2", "DK"):
        c = card_index(name)
        counts = [sum(1 for d in free_deals if c in d[p]) for p in (1, 2, 3)]
        stat, df = chi2(counts, [len(free_deals) / 3] * 3)
        assert df == 2 and stat < CHI2_999[2], (name, counts)


def test_suit_lengths_follow_the_hypergeometric_law(free_deals):
    n = len(free_deals)
    # N holds 4 spades: E's spades ~ hypergeometric(39 unseen, 9 spades, 13 drawn)
    for suit, k in ((0, 9), (1, 10)):
        for seat in (1, 3):
            counts = [0] * 14
            for d in free_deals:
                counts[sum(1 for c in d[seat] if c // 13 == suit)] += 1
            stat, df = chi2(counts, [n * p for p in hypergeom(39, k, 13)])
            assert stat < CHI2_999[df], (suit, seat, stat, df)


def test_uniform_over_a_universe_of_six_deals():
    """The draw's arithmetic (a split chosen with chance proportional to the deals that
    extend it) is exact where an error of one would show: three free cards, one a seat,
    in three suits, so 3! = 6 deals, each drawn about 1200 / 6 times."""
    from itertools import permutations
    hands = [parse_hand(h) for h in ("KQJ7..AK9.8", "98.AT8..AQJ", "T.J7.Q8.T97",
                                     "A.KQ9.JT7.K")]
    free = [card_index(c) for c in ("CJ", "DQ", "HK")]      # one from E, S, W each
    known = {"ESW"[i]: sorted(hands[i + 1] - set(free)) for i in range(3)}
    s = Sampler(hands[0], 0, 32, known=known)
    assert s.count() == 6
    counts = dict.fromkeys(permutations(free), 0)
    for d in sample_deals(s, 1200, seed=1):
        counts[tuple(next(iter(d[p] & set(free))) for p in (1, 2, 3))] += 1
    assert all(counts.values())
    stat, df = chi2(list(counts.values()), [200] * 6)
    assert stat < CHI2_999[df], counts


def test_repeats_exactly_for_a_seed():
    s = Sampler(HAND, 2, 52)
    a = sample_deals(s, 20, seed=5)
    assert a == sample_deals(s, 20, seed=5)
    assert a[:7] == sample_deals(s, 7, seed=5)       # a prefix does not depend on n
    assert a != sample_deals(s, 20, seed=6)
    rng = np.random.default_rng(5)
    assert a == sample_deals(s, 20, rng)


def test_count_is_exact():
    assert Sampler(HAND, 0, 52).count() == factorial(39) // factorial(13) ** 3
    assert Sampler("AKQJ.T9.87.", 1, 32).count() == factorial(24) // factorial(8) ** 3
    # E void in spades: E's 13 from the 30 non-spades, then 26 cards split 13/13
    s = Sampler(HAND, 0, 52, voids={"E": "S"})
    assert s.count() == comb(30, 13) * comb(26, 13)


def test_constraints_hold():
    s = Sampler(HAND, 0, 52, known={"S": "HA,CA"}, voids={"E": "S"},
                lengths={"W": {"D": (4, 6)}})
    for d in sample_deals(s, 500, seed=11):
        assert card_index("HA") in d[2] and card_index("CA") in d[2]
        assert not any(c // 13 == 0 for c in d[1])
        assert 4 <= sum(1 for c in d[3] if c // 13 == 2) <= 6
        assert [len(h) for h in d] == [13] * 4
        assert len(frozenset().union(*d)) == 52


def test_known_cards_count_in_a_length_range():
    """S holds the HA and 2-3 hearts: 1-2 more of the 9 other unseen hearts, as drawn
    uniformly with his 12 other cards from the other 38 unseen cards. (Known cards were
    never combined with a length range here: a sampler that forgot to count them
    passed every test.)"""
    s = Sampler(HAND, 0, 52, known={"S": "HA"}, lengths={"S": {"H": (2, 3)}})
    deals = sample_deals(s, 2000, seed=5)
    counts = [0, 0]
    for d in deals:
        assert card_index("HA") in d[2]
        h = sum(1 for c in d[2] if c // 13 == 1)
        assert 2 <= h <= 3, h
        counts[h - 2] += 1
    law = hypergeom(38, 9, 12)[1:3]
    stat, df = chi2(counts, [len(deals) * p / sum(law) for p in law])
    assert stat < CHI2_999[df], (counts, stat)


def test_void_law_matches_exact_conditional():
    # E void in spades: S and W share the 9 spades among their 26 cards,
    # so S's spades ~ hypergeometric(26, 9, 13)
    s = Sampler(HAND, 0, 52, voids={"E": "S"})
    deals = sample_deals(s, 2000, seed=3)
    counts = [0] * 14
    for d in deals:
        assert not any(c // 13 == 0 for c in d[1])
        counts[sum(1 for c in d[2] if c // 13 == 0)] += 1
    stat, df = chi2(counts, [len(deals) * p for p in hypergeom(26, 9, 13)])
    assert stat < CHI2_999[df], (stat, df)


@pytest.mark.parametrize("kw, words", [
    (dict(voids={"E": "SHDC"}), "cannot be met: E holds 13 cards, but the voids, "
                                "lengths and cards left allow at most 0"),
    (dict(voids={"E": "SH", "S": "SH", "W": "SH"}),
     "cannot be met: 9 spades are unseen, but the voids and lengths let E, S, W hold at "
     "most 0"),
    (dict(lengths={"E": {"S": (10, 13)}}),
     "cannot be met: the lengths give E, S, W at least 10 spades, but only 9 are unseen"),
    (dict(lengths={"E": {"H": (5, 13), "D": (5, 13), "C": (4, 13)}}),
     "the lengths give E at least 14 cards, but a hand holds 13"),
    (dict(known={"E": "HA,,HK"}), "an empty card between commas"),
    (dict(hand="AKQJT9876.5432..", voids={"E": "HDC"}),
     "E holds 13 cards, but the voids, lengths and cards left allow at most 4$"),
    (dict(hand="AKQJT9876.5432..", known={"E": "HA"}, lengths={"E": {"S": 13}}),
     "the lengths give E at least 14 cards, but a hand holds 13$"),
    (dict(known={"E": "HA,HA"}), "HA is listed twice in the cards known in E's hand"),
    (dict(known={"E": " "}), "no cards in the cards known in E's hand"),
    (dict(voids={"W": " "}), "no suits in the voids of W"),
    (dict(lengths={"E": {"C": (1.7, 2.9)}}), "bad length range 1.7-2.9 for E in C"),
    (dict(known={"E": "SA"}), "in N's hand"),
    (dict(known={"E": "HA", "W": "HA"}), "two hands"),
    (dict(known={"E": "HA"}, voids={"E": "H"}), "at most 0"),
    (dict(lengths={"E": {"S": (3, 2)}}), "bad length range"),
    (dict(lengths={"E": {"S": (14, 14)}}), "bad length range 14-14 for E in S: expected LO-HI"),
    (dict(lengths={"E": {"S": (2, 3)}}, voids={"E": "S"}), "void, yet a minimum length"),
    (dict(voids={"N": "S"}), "constrain the other seats"),
])
def test_impossible_constraints_say_why(kw, words):
    kw = dict(kw)
    hand = kw.pop("hand", HAND)
    with pytest.raises(BarbuError, match=words):
        Sampler(hand, 0, 52, **kw)


def test_a_length_beyond_a_32_card_hand():
    with pytest.raises(BarbuError, match=r"at least 9 card\(s\), but a hand holds 8"):
        Sampler("KQJ7..AK9.8", 0, 32, lengths={"E": {"H": 9}})


def test_bad_hands():
    with pytest.raises(BarbuError, match="holds 12 cards"):
        Sampler("AKQ.JT9.876.543", 0, 52)
    with pytest.raises(BarbuError, match="not in the 32-card deck"):
        Sampler("AKQ2.JT9.876.543", 0, 32)
    with pytest.raises(BarbuError, match="bad seat"):
        Sampler(HAND, "X", 52)


def test_parse_constraints():
    c = parse_constraints({"known": {"E": ["SA", "HK"]}, "voids": {"W": "HD"},
                           "lengths": {"S": {"C": 3}}})
    assert c["known"] == {1: frozenset({card_index("SA"), card_index("HK")})}
    assert c["voids"] == {3: frozenset({1, 2})}
    assert c["lengths"] == {2: {3: (3, 3)}}
    assert parse_constraints(None) == {"known": {}, "voids": {}, "lengths": {}}
    with pytest.raises(BarbuError, match="unknown constraint"):
        parse_constraints({"void": {}})


def test_a_seat_spelt_twice_keeps_both_constraints():
    """--known E:SJ --known e:ST (or East): both cards; voids add up; two length ranges
    for one seat and suit both hold, and contradictory ones are refused."""
    from analyzer.jobs import constraint_spec
    c = parse_constraints({"known": {"E": "SJ", "e": "ST", "East": ["HK"]},
                           "voids": {"W": "H", "w": "D"},
                           "lengths": {"S": {"C": [0, 3]}, "s": {"c": [2, 5]}}})
    assert c["known"] == {1: frozenset(card_index(x) for x in ("SJ", "ST", "HK"))}
    assert c["voids"] == {3: frozenset({1, 2})}
    assert c["lengths"] == {2: {3: (2, 3)}}
    with pytest.raises(BarbuError, match="contradictory lengths for S in C: 0-1 and 3-4"):
        parse_constraints({"lengths": {"S": {"C": [0, 1]}, "s": {"C": [3, 4]}}})
    spec = constraint_spec(["E:SJ", "e:ST"], ["W:H", "w:D"], ["S:C:0-3", "S:C:2-5"])
    assert parse_constraints(spec) == c | {"known": {1: frozenset(
        card_index(x) for x in ("SJ", "ST"))}}
    with pytest.raises(BarbuError, match="contradictory --length for S:C: 0-1 and 3-4"):
        constraint_spec(lengths=["S:C:0-1", "S:C:3-4"])
    with pytest.raises(BarbuError, match="bad --length 'S:C:5-'"):
        constraint_spec(lengths=["S:C:5-"])
    # each range is checked before two are intersected
    with pytest.raises(BarbuError, match="bad --length 'S:C:0-20': a hand holds at most 13"):
        constraint_spec(lengths=["S:C:0-20", "S:C:2-3"])
    with pytest.raises(BarbuError, match="bad --length 'S:C:-1': LO-HI must be whole"):
        constraint_spec(lengths=["S:C:-1"])
    # the Sampler's own keywords merge a seat spelt two ways too
    two = Sampler(HAND, 0, 52, known={"E": "HA", "east": "HK"}, voids={"W": "S", "west": "D"},
                  lengths={"S": {"C": (0, 3), "clubs": (2, 5)}})
    one = Sampler(HAND, 0, 52, known={"E": "HA,HK"}, voids={"W": "SD"},
                  lengths={"S": {"C": (2, 3)}})
    assert (two.known, two.lo, two.hi, two.count()) == (one.known, one.lo, one.hi,
                                                        one.count())


def test_hand_as_names_or_indices_and_a_bad_card_in_one_line():
    names = ["SA", "SK", "SQ", "SJ", "ST", "S9", "S8", "S7", "S6", "S5", "S4", "S3", "S2"]
    assert Sampler(names, "N").hand == Sampler("AKQJT98765432...", "N").hand
    with pytest.raises(BarbuError, match="bad card 99 in the hand"):
        Sampler(list(range(12)) + [99], "N")

"""Doubling and settlement (analyzer/doubling.py): the sources' worked examples, the
preset rules on who may double whom, and invariants (totals, seat relabelling)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.doubling import (Doubles, above_lowest, declarer_may_double_anyone, fmt,
                               parse_doubles, round_half_away, settle, settle_difference,
                               settle_sum, split_undoubled, to_fraction, to_number,
                               validate_doubles)
from analyzer.errors import BarbuError
from analyzer.rules import load_rules

N, E, S, W = range(4)
F = Fraction


@pytest.fixture(scope="module")
def tournament():
    return load_rules("tournament")


@pytest.fixture(scope="module")
def fr52():
    return load_rules("fr-52")


def ints(xs):
    return [int(x) if F(x).denominator == 1 else x for x in xs]


# --------------------------------------------------------------------------- worked examples
def test_source_001_no_queens_worked_hand(tournament):
    """Source 001 "A worked hand" (also rules.md "Doubling"): Anne (N) declares No Queens;
    Beth doubles everyone, Cath doubles Anne, Diana passes, Anne redoubles Cath.
    Raw −6 / 0 / −6 / −12 → net −12 / +24 / −12 / −24; sheet entry 12 / 48 / 12 / 0."""
    d = parse_doubles(["E>all", "S>N", "N>S"])
    assert (d.count(N, E), d.count(N, S), d.count(E, S), d.count(E, W)) == (1, 2, 1, 1)
    assert (d.count(N, W), d.count(S, W)) == (0, 0)
    s = settle(tournament, "no-queens", N, [-6, 0, -6, -12], d)
    assert ints(s.net) == [-12, 24, -12, -24]
    assert sum(s.net) == -24 and s.check == "ok" and s.method == "difference"
    assert ints(above_lowest(s.net)) == [12, 48, 12, 0]
    assert ints(s.above_lowest) == [12, 48, 12, 0]


def test_source_002_dames_example_abcd(fr52):
    """Source 002 "Enchères": A declares les Dames; B passes, C doubles A and B, D passes.
    A takes no queen, B three, C one: A +6, B −30, C 0, D 0."""
    d = parse_doubles(["S>N", "S>E"])          # A=N, B=E, C=S, D=W
    s = settle(fr52, "no-queens", N, [0, -18, -6, 0], d)
    assert ints(s.net) == [6, -30, 0, 0]
    assert s.check == "ok" and sum(s.net) == -24


def test_source_002_jerome_delphine_example(fr52):
    """Source 002 "Compte des points": Jérôme (N) declares les Dames; Delphine (E) and
    Jérémy (S) double him; Delphine takes 3 queens, Jean (W) one. Jérôme +18, Delphine −36,
    Jérémy 0, Jean −6: total −24."""
    s = settle(fr52, "dames", N, [0, -18, 0, -6], parse_doubles("E>N S>N"))
    assert ints(s.net) == [18, -36, 0, -6]
    assert sum(s.net) == -24


def test_source_002_trumps_positive_rule(fr52):
    """Source 002 "Atout": A and B doubled, A wins 5 tricks, B one: A 5 + 1 = 6 tricks
    (+30), B 1 − 5 = −4 tricks (−20). The total check is skipped (rules.md fr-52)."""
    raw = [25, 5, 15, 20]                       # 13 tricks: 5, 1, 3, 4
    s = settle(fr52, "trumps", N, raw, parse_doubles("E>N"))
    assert ints(s.net)[:2] == [30, -20]
    assert ints(s.net)[2:] == [15, 20]
    assert s.method == "sum" and s.check == "skipped" and "skipped" in s.note
    # whichever of the pair doubled, the same
    assert settle(fr52, "trumps", N, raw, parse_doubles("N>E")).net == s.net


def test_source_002_dominoes_positive_rule(fr52):
    """Source 002 "Réussite": A 2nd (+20), B 3rd (+10): A gets 20 + 10 = 30, B 10 − 20 = −10."""
    s = settle(fr52, "réussite", N, [20, 10, 45, -10], parse_doubles(["E>N"]))
    assert ints(s.net) == [30, -10, 45, -10]
    assert s.check == "skipped"


def test_positive_contract_under_tournament_uses_difference(tournament):
    """Tournament settles Trumps by the difference rule (rules.md "Doubling")."""
    s = settle(tournament, "trumps", N, [25, 5, 15, 20], parse_doubles("E>N"))
    assert ints(s.net) == [45, -15, 15, 20] and s.check == "ok"


def test_fr52_undoubled_positive_is_plain(fr52):
    s = settle(fr52, "trumps", N, [25, 5, 15, 20], Doubles())
    assert ints(s.net) == [25, 5, 15, 20] and s.check == "ok" and s.method == "difference"


def test_sum_rule_redouble_and_ties():
    # a redoubled pair (n = 2) applies the adjustment twice
    assert ints(settle_sum([25, 5, 15, 20], parse_doubles("E>N N>E"))) == [35, -45, 15, 20]
    # a tied pair has no better player and settles nothing
    assert ints(settle_sum([20, 20, 15, 10], parse_doubles("E>N"))) == [20, 20, 15, 10]
    # pairs compose by addition: N doubled by E and S
    assert ints(settle_sum([45, 20, 10, -10], parse_doubles("E>N S>N"))) == [75, -25, -35, -10]


@pytest.mark.parametrize("contract,total,decl_share,each", [
    ("no-tricks", -26, 1, -9), ("no-hearts", -30, 0, -10), ("no-last-two", -30, 0, -10),
    ("no-king", -20, 1, -7), ("no-queens", -24, 0, -8)])
def test_split_undoubled_negative(tournament, contract, total, decl_share, each):
    """Source 000 variant ``undoubled_negative = split`` (rules.md "Named variants")."""
    rules = dataclasses.replace(tournament, variants={**tournament.variants,
                                                      "undoubled_negative": "split"})
    assert tournament.total(contract) == total
    s = settle(rules, contract, E, None, Doubles())
    assert ints(s.net) == [each, decl_share, each, each]
    assert s.method == "split" and sum(s.net) == total
    assert ints(split_undoubled(total, W)) == [each, each, each, decl_share]
    # a doubled hand is played as usual
    s2 = settle(rules, contract, E, _some_raw(tournament, contract),
                parse_doubles("N>E"))
    assert s2.method == "difference"
    # a positive contract is never split
    s3 = settle(rules, "trumps", E, [25, 5, 15, 20], Doubles())
    assert s3.method == "difference"
    # raw results given for a split hand must be the split
    with pytest.raises(BarbuError, match="split"):
        settle(rules, contract, E, [total, 0, 0, 0], Doubles())


def _some_raw(rules, contract):
    return [rules.total(contract), 0, 0, 0]


def test_round_half_away():
    assert round_half_away(F(5, 2)) == 3 and round_half_away(F(-5, 2)) == -3
    assert round_half_away(F(-26, 3)) == -9 and round_half_away(F(0)) == 0


def test_fractional_scores_exact():
    """barbu-32 Trumps pays 2.5 a trick: settlement stays exact."""
    net = settle_difference([F(25, 2), F(5, 2), 5, F(0)], parse_doubles("E>N"))
    assert net == (F(45, 2), F(-15, 2), F(5), F(0))
    assert fmt(net[0]) == "22.5" and to_number(net[1]) == -7.5
    assert to_fraction(2.5) == F(5, 2) and to_fraction("-5/2") == F(-5, 2)
    assert to_number(F(1, 3)) == "1/3"


# --------------------------------------------------------------------------- who may double whom
def test_parse_doubles_forms():
    a = parse_doubles(["E>all", "S>N", "N>S"])
    assert a == parse_doubles("E>NSW S>N N>S") == parse_doubles(
        {"E": "all", "S": ["N"], "N": "S"}) == parse_doubles(["e>n,s,w", "S > N", "N>S"])
    assert parse_doubles(None) == parse_doubles([]) == parse_doubles("") == Doubles()
    assert not Doubles() and a.to_json() == ["N>S", "E>N", "E>S", "E>W", "S>N"]
    assert a.text(first=E) == "E>NSW S>N N>S"


@pytest.mark.parametrize("bad,what", [("E>E", "himself"), ("X>N", "bad double"),
                                      (["E>N", "E>NS"], "twice"), ("EN", "bad double"),
                                      (42, "doubles must be")])
def test_parse_doubles_errors(bad, what):
    with pytest.raises(BarbuError, match=what):
        parse_doubles(bad)


def test_tournament_who_may_double(tournament):
    ok = [("no-queens", "E>S"), ("no-queens", "E>all"), ("no-queens", "E>N N>E"),
          ("no-queens", "E>N S>N N>ES"), ("trumps", "E>N S>N W>N N>EW"),
          ("dominoes", "W>N N>W")]
    for c, d in ok:
        validate_doubles(tournament, c, N, parse_doubles(d))
    bad = [("no-queens", "N>E", "may only redouble"),
           ("no-queens", "E>S N>S", "N>S: the declarer may only redouble"),
           ("trumps", "E>S", "E>S: in trumps only the declarer"),
           ("trumps", "S>E", "S>E: in trumps only the declarer"),   # (his partner's seat)
           ("dominoes", "S>W", "S>W: in dominoes only the declarer"),
           ("dominoes", "W>all", "W>E: in dominoes only the declarer"),
           ("trumps", "N>E", "N>E")]
    for c, d, msg in bad:
        with pytest.raises(BarbuError, match=msg):
            validate_doubles(tournament, c, N, parse_doubles(d))
    assert not declarer_may_double_anyone(tournament)


def test_fr52_anyone_doubles_anyone(fr52):
    """rules.md fr-52: any player may double any other (the declarer too), Trumps too."""
    assert declarer_may_double_anyone(fr52)
    for d in ("N>E", "N>all", "E>S", "S>W W>S", "N>E E>N"):
        validate_doubles(fr52, "trumps", N, parse_doubles(d))
        validate_doubles(fr52, "no-king", N, parse_doubles(d))


def test_no_doubling_presets():
    for name in ("classic-32", "barbu-32", "bridge"):
        r = load_rules(name)
        c = r.match_contracts[0]
        validate_doubles(r, c, N, Doubles())
        with pytest.raises(BarbuError, match="has no doubling"):
            validate_doubles(r, c, N, parse_doubles("E>N"))


def test_declarer_only_variant(tournament):
    """Source 000 ``doubles = declarer-only``: only the declarer may be doubled, and a
    redouble must target every doubler."""
    r = dataclasses.replace(tournament, variants={**tournament.variants,
                                                  "doubles": "declarer-only"})
    validate_doubles(r, "no-queens", N, parse_doubles("E>N S>N"))
    validate_doubles(r, "no-queens", N, parse_doubles("E>N S>N N>ES"))
    with pytest.raises(BarbuError, match="E>S: .*only the declarer"):
        validate_doubles(r, "no-queens", N, parse_doubles("E>S"))
    with pytest.raises(BarbuError, match="every doubler"):
        validate_doubles(r, "no-queens", N, parse_doubles("E>N S>N N>E"))
    # with declarer_doubles = "any" too, the declarer doubling a non-doubler was told a
    # redouble "must target every doubler (also )": nobody but him is doubled here
    r2 = dataclasses.replace(r, variants={**r.variants, "declarer_doubles": "any"})
    for ds in ("N>E", "E>N N>ES"):
        with pytest.raises(BarbuError, match=r"N>[ES]: .*lets only the declarer \(N\) be "
                                             "doubled; he may only redouble a player who"):
            validate_doubles(r2, "no-queens", N, parse_doubles(ds))
    validate_doubles(r2, "no-queens", N, parse_doubles("E>N S>N N>ES"))


def test_no_redouble_variant(tournament):
    r = dataclasses.replace(tournament, variants={**tournament.variants, "redouble": False})
    with pytest.raises(BarbuError, match="no redoubles"):
        validate_doubles(r, "no-queens", N, parse_doubles("E>N N>E"))


def test_settle_rejects_illegal_double(tournament):
    with pytest.raises(BarbuError, match="illegal double E>S"):
        settle(tournament, "trumps", N, [25, 5, 15, 20], parse_doubles("E>S"))


# --------------------------------------------------------------------------- properties
score = st.fractions(min_value=-100, max_value=100, max_denominator=4)
raws = st.lists(score, min_size=4, max_size=4)
pair_ns = st.lists(st.integers(0, 2), min_size=6, max_size=6)


def matrix(ns):
    m = [[0] * 4 for _ in range(4)]
    k = 0
    for p in range(4):
        for q in range(p + 1, 4):
            m[p][q] = m[q][p] = ns[k]
            k += 1
    return m


@settings(max_examples=200, deadline=None)
@given(raws, pair_ns)
def test_difference_rule_keeps_total(raw, ns):
    """rules.md "Doubling": the net results of a hand still sum to the raw total, and each
    pair moves n·|s_p − s_q| from the worse to the better."""
    net = settle_difference(raw, matrix(ns))
    assert sum(net) == sum(raw)
    # one double between p and q only: exactly |s_p - s_q| moves
    m = matrix([1, 0, 0, 0, 0, 0])
    one = settle_difference(raw, m)
    assert one[0] - raw[0] == raw[0] - raw[1] == raw[1] - one[1]


@settings(max_examples=200, deadline=None)
@given(raws, pair_ns, st.permutations(range(4)))
def test_relabelling_seats_permutes_results(raw, ns, perm):
    """Seat relabelling: moving every player to seat perm[p] moves his net result too."""
    m = matrix(ns)
    raw2 = [None] * 4
    m2 = [[0] * 4 for _ in range(4)]
    for p in range(4):
        raw2[perm[p]] = raw[p]
        for q in range(4):
            m2[perm[p]][perm[q]] = m[p][q]
    for rule in (settle_difference, settle_sum):
        a = rule(raw, m)
        b = rule(raw2, m2)
        assert all(b[perm[p]] == a[p] for p in range(4))


@settings(max_examples=100, deadline=None)
@given(raws)
def test_sum_rule_single_pair(raw):
    """fr-52: one doubled pair with a better and b worse: a + b and b − a."""
    net = settle_sum(raw, parse_doubles("N>E"))
    a, b = max(raw[0], raw[1]), min(raw[0], raw[1])
    if a != b:
        better = 0 if raw[0] > raw[1] else 1
        assert net[better] == a + b and net[1 - better] == b - a
    assert list(net[2:]) == list(raw[2:])


@settings(max_examples=100, deadline=None)
@given(raws)
def test_above_lowest_nonnegative(raw):
    e = above_lowest(raw)
    assert min(e) == 0 and all(e[p] - e[q] == raw[p] - raw[q] for p in range(4)
                               for q in range(4))


def test_no_redouble_whoever_would_make_it():
    """redouble = false with declarer_doubles = "any" (fr-52's doubling, no redoubles):
    the declarer's double back of his doubler is the pair's second double, a redouble;
    score counted it as one and settled the pair twice, while advise said there was none."""
    import tomllib

    from analyzer.doubling import parse_doubles, validate_doubles
    from analyzer.rules import parse_rules
    data = tomllib.loads(load_rules("fr-52").to_toml())
    data["variants"]["redouble"] = False
    r = parse_rules(data, "nr.toml")
    validate_doubles(r, "no-king", 0, parse_doubles("E>N"))
    validate_doubles(r, "no-king", 0, parse_doubles("N>E"))  # (fr-52: anyone doubles anyone)
    with pytest.raises(BarbuError, match="illegal double N>E: .* has no redoubles"):
        validate_doubles(r, "no-king", 0, parse_doubles(["E>N", "N>E"]))
    validate_doubles(r, "no-king", 0, parse_doubles(["E>S", "S>E"]))  # (two opponents)
    validate_doubles(load_rules("fr-52"), "no-king", 0, parse_doubles(["E>N", "N>E"]))

"""The trick solver against the brute-force oracle, and its invariants.

``tests/oracle.py`` searches the plain-Python reference engine exhaustively; the numba
solver must agree exactly on random small positions of every trick contract of every
preset, under every variant switch, from every leader, for guaranteed values, pair bets,
partnerships and general weights, at trick boundaries and mid-trick.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from analyzer.cards import card_bit, parse_deal, random_deal
from analyzer.engine import TrickGame
from analyzer.errors import BarbuError
from analyzer.rules import load_rules
from analyzer.solve import objective, solve, solve_all_seats, solve_cards
from tests.oracle import brute_card_values, brute_value

PRESETS = ("tournament", "fr-52", "classic-32", "barbu-32", "bridge")


def _variant(rules, rng):
    """The preset, or a copy with some variant switches flipped."""
    if rng.random() < 0.5:
        return rules
    v = dict(rules.variants)
    v["heart_lead"] = ["always", "first-trick", "free"][rng.integers(3)]
    v["forced_discard"] = bool(rng.integers(2))
    v["void_must_ruff"] = bool(rng.integers(2))
    return dataclasses.replace(rules, variants=v)


def random_case(seed: int, n: int | None = None) -> dict:
    """A random small position and objective (deterministic in ``seed``; ``n`` cards a
    hand, or 2-5 at random)."""
    rng = np.random.default_rng(seed)
    rules = _variant(load_rules(PRESETS[rng.integers(len(PRESETS))]), rng)
    cids = [c for c, x in rules.contracts.items() if x.is_tricks]
    cid = cids[rng.integers(len(cids))]
    c = rules.contracts[cid]
    trump = int(rng.integers(4)) if c.trumps else None
    k = int(rng.choice([2, 3, 4, 5], p=[0.3, 0.4, 0.25, 0.05]))
    n = k if n is None else n
    deal = random_deal(rng, rules.deck, n)
    leader = int(rng.integers(4))
    whole = bool(rng.random() < 0.35)
    game = TrickGame(rules, c, deal.hands, leader, trump=trump, whole_hand=whole)
    # play a few random cards first (mid-trick positions and later tricks)
    for _ in range(int(rng.integers(0, 6)) if rng.random() < 0.5 else 0):
        if game.over:
            break
        legal = game.legal()
        if len(game.hands[game.to_move]) <= 1:
            break
        game.play(legal[rng.integers(len(legal))])
    # a fresh game from the position reached: scores count from here; the position is a
    # whole hand only while the first trick is in progress
    whole = whole and game.tricks_done == 0
    game = TrickGame(rules, c, game.hands, game.leader, trump=trump, trick=game.trick,
                     whole_hand=whole)
    kind = rng.integers(4)
    if kind == 0:
        seat = int(rng.integers(4))
        w, mx = objective(seat=seat)
    elif kind == 1:
        x, y = rng.choice(4, 2, replace=False)
        w = tuple(Fraction(1 if p == x else -1 if p == y else 0) for p in range(4))
        mx = (int(x),)
    elif kind == 2:
        w, mx = objective(side=["NS", "EW"][rng.integers(2)])
    else:
        w = tuple(Fraction(int(rng.integers(-2, 3)), int(rng.integers(1, 3))) for _ in range(4))
        mx = tuple(p for p in range(4) if rng.random() < 0.5) or (0,)
    return dict(rules=rules, contract=cid, trump=trump, game=game, weights=w,
                maximizers=mx, whole=whole)


def _solve_case(case: dict, cards: bool = False):
    g = case["game"]
    kw = dict(trump=case["trump"], leader=g.leader, weights=case["weights"],
              maximizers=case["maximizers"], trick=list(g.trick), whole_hand=g.whole_hand)
    if cards:
        return solve_cards(g.hands, case["rules"], case["contract"], **kw)
    return solve(g.hands, case["rules"], case["contract"], **kw)


def _check(seed: int, cards: bool = False) -> None:
    case = random_case(seed)
    g = case["game"]
    if cards:
        got = _solve_case(case, cards=True)
        want = brute_card_values(g, case["weights"], case["maximizers"])
    else:
        got = _solve_case(case)
        want = brute_value(g, case["weights"], case["maximizers"])
    assert got == want, (seed, case["rules"].name, case["contract"], case["rules"].variants,
                         case["weights"], case["maximizers"], got, want)


def test_weights_with_mixed_denominators_and_the_two_of_spades_asked_about() -> None:
    """Cases the random sample hardly draws (a mutation audit's survivors): weights 1/2
    and 1/3 (their common scale is 6, not the larger denominator), and the value of the
    two of spades, card index 0, under --cards."""
    from analyzer.cards import card_name
    r = load_rules("classic-32")
    deal = parse_deal("N:AK.7.. QJ.8.. ..AK.7 ..QJ.8", 32)
    w = (Fraction(1, 2), Fraction(1, 3), 0, 0)
    g = TrickGame(r, "no-tricks", deal.hands, 0)
    assert solve(deal, r, "no-tricks", leader="N", weights=w, maximizers=("N",)) == \
        brute_value(g, w, [0]) == Fraction(-20, 3)
    t = load_rules("tournament")
    deal = parse_deal("N:32...J T..Q.6 74.7.. ...874")
    g = TrickGame(t, "no-tricks", deal.hands, 0)
    want = {card_name(c): v for c, v in brute_card_values(g, [1, 0, 0, 0], [0]).items()}
    assert want == {"S2": -4, "S3": -4, "CJ": -2}
    got = solve_cards(deal, t, "no-tricks", leader="N", seat="N")
    assert {card_name(c): v for c, v in got.items()} == want


# No Tricks positions where the defence's only best play is one that a tempting pruning
# rule would skip: "follow under the trick's best with the higher of two cards that only
# the declarer's cards lie between" (the first), the same for discards (the second),
# "discard only a suit's lowest or highest card" (the third), or the second narrowed to
# where no other defender holds a card of the suit above the lower one and the discarder
# keeps another card above the declarer's cards between them (the fourth). All are false:
# a card kept or thrown can move the lead to the declarer, and the lead can be worth
# more to him than the trick it costs (BENCHMARKS.md, "Trick solver", seventy-fourth
# session). (heart_lead, declarer, leader, deal, the declarer's guaranteed value as
# tests.oracle finds it.)
DEFENCE_TRAPS = [
    ("free", "S", "N", "N:K.K5.7.K A.3..T75 .97.5.83 J3.A.AJ.", -4),
    ("always", "S", "E", "N:.T5.754. K4.96.K. 82.J2..K Q6..92.T", -6),
    ("first-trick", "E", "N", "N:K8.93..A A4..85.K Q5.J.T7. 3..K64.5", -4),
    ("first-trick", "W", "N", "N:64.4.A.K6 .KQ9.32.2 .7.9.T943 32.JT3.7.", -6),
]


def _defence_trap(case):
    heart_lead, declarer, leader, pbn, value = case
    t = load_rules("tournament")
    return dataclasses.replace(t, variants={**t.variants, "heart_lead": heart_lead}), \
        declarer, leader, parse_deal(pbn), value


@pytest.mark.parametrize("case", DEFENCE_TRAPS)
def test_a_defenders_play_that_a_pruning_rule_would_skip(case) -> None:
    """The solver finds the defence's play there (the value the oracle finds, below)."""
    rules, declarer, leader, deal, value = _defence_trap(case)
    assert solve(deal, rules, "no-tricks", leader=leader, seat=declarer,
                 whole_hand=False) == value


@pytest.mark.slow
@pytest.mark.parametrize("case", DEFENCE_TRAPS)
def test_the_defence_traps_values_are_the_oracles(case) -> None:
    """The values above, from the brute force (up to a few minutes)."""
    rules, declarer, leader, deal, value = _defence_trap(case)
    g = TrickGame(rules, "no-tricks", deal.hands, "NESW".index(leader), whole_hand=False)
    w, mx = objective(seat=declarer)
    assert brute_value(g, w, mx) == value


@pytest.mark.parametrize("block", range(10))
def test_oracle_sample(block: int) -> None:
    """400 of the 2,000 cases of test_oracle_full (about a minute): CI's sample."""
    for seed in range(block * 40, block * 40 + 40):
        _check(seed)


def test_oracle_cards_sample() -> None:
    for seed in range(10_000, 10_030):
        _check(seed, cards=True)


def _forced_case(seed: int) -> tuple[TrickGame, tuple, tuple, bool]:
    """No Queens or No King with ``forced_discard = true`` and a forced card in play;
    whether a seat holds a forced card while void in a suit another seat holds."""
    rng = np.random.default_rng(seed)
    base = load_rules(["tournament", "fr-52"][rng.integers(2)])
    rules = dataclasses.replace(base, variants=dict(
        base.variants, forced_discard=True, heart_lead=["always", "free"][rng.integers(2)]))
    c = rules.contracts[["no-queens", "no-king"][rng.integers(2)]]
    hands = [set(h) for h in random_deal(rng, 52, int(rng.integers(3, 6))).hands]
    forced = [int(x) for x in c.forced_discard_cards]
    for card in rng.permutation(forced)[:2]:
        if not any(int(card) in h for h in hands):
            h = hands[rng.integers(4)]
            h.remove(sorted(x for x in h if x not in forced)[rng.integers(len(h) - 1)]
                     if len([x for x in h if x not in forced]) > 1 else min(h))
            h.add(int(card))
    game = TrickGame(rules, c, [frozenset(h) for h in hands], int(rng.integers(4)),
                     whole_hand=False)
    x, y = (int(v) for v in rng.choice(4, 2, replace=False))
    if rng.random() < 0.5:
        w, mx = objective(seat=x)
    else:
        w, mx = tuple(Fraction(1 if p == x else -1 if p == y else 0) for p in range(4)), (x,)
    suits = [{k // 13 for k in h} for h in hands]
    can = any(k in hands[p] and bool(set().union(*suits) - suits[p])
              for p in range(4) for k in forced)
    return game, w, mx, can


def test_oracle_forced_discards_sample() -> None:
    """The random sample reaches ``forced_discard = true`` with a forced card in play in
    none of its CI cases: 60 positions that do, against the brute force."""
    can = 0
    for seed in range(30_000, 30_060):
        g, w, mx, c = _forced_case(seed)
        can += c
        got = solve(g.hands, g.rules, g.contract.id, leader=g.leader, weights=w,
                    maximizers=mx, whole_hand=False)
        assert got == brute_value(g, w, mx), (seed, g.contract.id, g.hands, w, mx)
    assert can >= 30  # (most cases can force a discard)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(20))
def test_oracle_full(block: int) -> None:
    """2,000 random positions (plus 200 with every card valued)."""
    for seed in range(block * 100, block * 100 + 100):
        _check(seed)
    for seed in range(20_000 + block * 10, 20_000 + block * 10 + 10):
        _check(seed, cards=True)


def test_errors() -> None:
    r = load_rules("tournament")
    d = random_deal(1, 52, 3)
    with pytest.raises(BarbuError, match="dominoes"):
        solve(d, r, "dominoes", leader=0, seat=0)
    with pytest.raises(BarbuError, match="trump"):
        solve(d, r, "trumps", leader=0, seat=0)
    with pytest.raises(BarbuError, match="unknown contract"):
        solve(d, r, "no-last", leader=0, seat=0)
    with pytest.raises(BarbuError, match="not in side"):
        solve(d, r, "no-tricks", leader=0, seat="E", side="NS")
    with pytest.raises(BarbuError, match="unequal"):
        solve([d.hands[0], d.hands[1], d.hands[2], set(list(d.hands[3])[:2])], r,
              "no-tricks", leader=0, seat=0)
    with pytest.raises(BarbuError, match="seat"):
        solve(d, r, "no-tricks", leader=0)


def test_the_largest_points_stay_exact(tmp_path) -> None:
    """A rules file's largest points (10^9 a trick) and finest (a millionth) give the
    values of the plain rules scaled exactly (the table's 2^40 "no bound" marks once made
    a trick of 10^12 points read as 2*10^12 lost); beyond that they are refused."""
    from analyzer.rules import parse_rules
    import tomllib
    doc = tomllib.loads(load_rules("barbu-32").to_toml())
    d = random_deal(5, 32, 4)
    base = solve_all_seats(d, "barbu-32", "no-tricks", leader=0)
    for tp in (-10 ** 9, -0.000001):
        doc["contracts"]["no-tricks"]["trick_points"] = tp
        big = solve_all_seats(d, parse_rules(doc, "big.toml"), "no-tricks", leader=0)
        assert big == {s: v * -Fraction(str(tp)) for s, v in base.items()}
    r = load_rules("barbu-32")
    with pytest.raises(BarbuError, match="too large"):
        solve(d, r, "no-tricks", leader=0, weights=[10 ** 12, 0, 0, 0], maximizers=[0])


def test_rotation_invariance() -> None:
    """Rotating every seat by one rotates the guaranteed values."""
    rng = np.random.default_rng(5)
    for i in range(6):
        rules = load_rules(["tournament", "barbu-32"][i % 2])
        cid = ["no-tricks", "no-hearts", "no-queens", "trumps", "no-king", "no-tricks"][i]
        c = rules.contract(cid)
        deal = random_deal(rng, rules.deck, 5)
        trump = 2 if c.trumps else None
        leader = int(rng.integers(4))
        a = solve_all_seats(deal, rules, cid, trump=trump, leader=leader)
        rot = [deal.hands[(p - 1) % 4] for p in range(4)]
        b = solve_all_seats(rot, rules, cid, trump=trump, leader=(leader + 1) % 4)
        assert [a[(p - 1) % 4] for p in range(4)] == [b[p] for p in range(4)]


def _relabel(hands, perm):
    return [{13 * perm[c // 13] + c % 13 for c in h} for h in hands]


def test_suit_relabelling() -> None:
    rng = np.random.default_rng(7)
    rules = load_rules("tournament")
    for i in range(6):
        deal = random_deal(rng, 52, 5)
        seat, leader = int(rng.integers(4)), int(rng.integers(4))
        for cid, perm in (("no-tricks", [2, 3, 0, 1]), ("no-queens", [3, 0, 1, 2]),
                          ("no-last-two", [1, 0, 3, 2]), ("no-hearts", [2, 1, 3, 0]),
                          ("no-king", [3, 1, 0, 2])):
            a = solve(deal, rules, cid, leader=leader, seat=seat)
            b = solve(_relabel(deal.hands, perm), rules, cid, leader=leader, seat=seat)
            assert a == b, (cid, i)


def _position_total(rules, cid, hands) -> Fraction:
    """Points a position of a contract without bonuses hands out, whoever takes them."""
    pts = rules.card_points(cid)
    n = len(hands[0])
    last = rules.last_tricks(cid)
    total = sum((pts.get(c, Fraction(0)) for h in hands for c in h), Fraction(0))
    total += rules.trick_points(cid) * n + sum(last[max(0, len(last) - n):], Fraction(0))
    return total


def test_constant_total() -> None:
    """The four guaranteed values never add up to more than the position's total."""
    rng = np.random.default_rng(11)
    for preset, cid in (("tournament", "no-tricks"), ("tournament", "no-hearts"),
                        ("tournament", "trumps"), ("barbu-32", "trumps"),
                        ("fr-52", "no-last-two"), ("barbu-32", "no-queens"),
                        ("tournament", "no-queens"), ("barbu-32", "no-last")):
        rules = load_rules(preset)
        c = rules.contract(cid)
        for _ in range(3):
            deal = random_deal(rng, rules.deck, 6)
            trump = int(rng.integers(4)) if c.trumps else None
            vals = solve_all_seats(deal, rules, cid, trump=trump,
                                   leader=int(rng.integers(4)))
            assert sum(vals.values()) <= _position_total(rules, cid, deal.hands), (preset, cid)


def test_whole_deal_32() -> None:
    """A full 32-card deal solves, and its four values respect the contract's total."""
    rules = load_rules("barbu-32")
    deal = random_deal(3, 32)
    vals = solve_all_seats(deal, rules, "no-hearts", leader=0)
    assert sum(vals.values()) <= rules.total("no-hearts")


def _golden_cases() -> list[dict]:
    import json
    from pathlib import Path
    return json.loads((Path(__file__).parent / "golden" / "tricks.json").read_text())


def _check_golden(cases: list[dict]) -> None:
    from tests.golden.make_tricks_golden import solve_golden
    for case in cases:
        got = solve_golden(case)
        assert got == Fraction(case["value"]), (case["seed"], case["rules"],
                                                case["contract"], got, case["value"])


def test_golden_sample() -> None:
    """Every 10th stored 6-8-card position (tests/golden/make_tricks_golden.py): a
    regression check against values an earlier, oracle-checked solver gave; the
    brute-force oracle tests above are the independent check."""
    _check_golden(_golden_cases()[::10])


@pytest.mark.slow
def test_golden_full() -> None:
    """All 600 stored 6-8-card positions."""
    _check_golden(_golden_cases())


def test_table_growth(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that fills the default table reruns with a larger one and finds the same
    values as a search with a table large enough from the start (and as one that empties
    a full table and goes on)."""
    import analyzer.solve as S
    monkeypatch.setattr(S, "DEFAULT_TT_BITS", {13: 6})
    monkeypatch.setattr(S, "GROW_TT_BITS", 10)
    rules = load_rules("tournament")
    grown = 0
    for k, cid in enumerate(("no-tricks", "no-queens", "no-last-two", "trumps") * 2):
        deal = random_deal(900 + k, 52, 7)
        trump = k % 4 if cid == "trumps" else None
        pb = S._Problem(deal, rules, cid, trump, k % 4, (k + 1) % 4, None, None, None, (),
                        None, None)
        v = pb.run()
        grown += pb.tt_bits > 6
        assert v == solve(deal, rules, cid, trump=trump, leader=k % 4, seat=(k + 1) % 4,
                          tt_bits=16), (k, cid)
        assert v == solve(deal, rules, cid, trump=trump, leader=k % 4, seat=(k + 1) % 4,
                          tt_bits=6), (k, cid)
    assert grown >= 4  # the tiny table did fill up


def test_an_entry_leaves_out_a_suits_lowest_run_of_one_seat() -> None:
    """An entry keys each suit's owners down to its lowest card that mattered, less the
    run of the suit's lowest cards that one seat holds: with the cards above them keyed,
    the suit lengths (in the key's exact part) leave those cards to that seat, so the
    shorter key matches the same positions."""
    import analyzer.solve as S
    from solvers import tricks as K
    rules = load_rules("bridge")
    checked = 0
    for seed in range(40):
        deal = random_deal(seed, 52, 6)
        pb = S._Problem(deal, rules, "notrump", None, 0, None, (0, 2), None, None, (), None,
                        None)
        hands = pb.hands.copy()
        kbuf = np.zeros((16, pb.words + 4), np.uint64)
        ttk, tte, ttd = S._tt(pb.tt_bits, pb.words, object())
        st = np.zeros(K.STATS_SIZE, np.int64)
        tl = 6
        h = K._make_key(hands, 0, tl, pb.st_t, pb.st_c, pb.rcnt0.copy(), pb.P, kbuf, tl)
        rem = int(hands[0] | hands[1] | hands[2] | hands[3])
        # every card in play mattered: each suit keyed down to its lowest card, less its
        # lowest run of one seat's cards
        K._tt_store(hands, tl, np.uint64(h), True, 1, np.uint64(rem), -1, pb.P, ttk, tte, ttd,
                    kbuf, st)
        want = 0
        for s in range(4):
            ranks = [r for r in range(16) if rem >> (16 * s + r) & 1]
            owner = [next(p for p in range(4) if int(hands[p]) >> (16 * s + r) & 1)
                     for r in ranks]
            run = next((i for i, o in enumerate(owner) if o != owner[0]), len(owner))
            want |= (len(ranks) - run) << (4 * s)
            checked += 0 < run < len(ranks) - 1
        hs = int(np.flatnonzero(ttd[:len(ttk)])[0])
        assert int(tte[ttd[hs] - 1, 2]) == want, seed
    assert checked > 20  # suits where the run is neither the whole suit nor one card


def test_table_rehash_keeps_every_entry() -> None:
    """Moving a filled table into a larger one keeps each group (in order) and each entry
    (bounds, best move) findable by the new table's own lookup."""
    import analyzer.solve as S
    from solvers import tricks as K
    rules = load_rules("tournament")
    deal = random_deal(77, 52, 8)
    pb = S._Problem(deal, rules, "no-queens", None, 1, 2, None, None, None, (), None, 10)
    pb.run()
    ttk, tte, ttd = S._tt(10, pb.words, pb.token)  # the same problem: the table it filled
    n, n2, E = 1 << 10, 1 << 12, pb.words
    ttk2 = np.zeros((n2, E), np.uint64)
    tte2 = np.zeros((n2, K.NTE), np.uint64)
    ttd2 = np.zeros(2 * n2, np.int64)
    rows = K._tt_rehash(ttk, tte, ttd, 10, ttk2, tte2, ttd2, 12, E, np.empty(n, np.int64))

    def groups(keys, tab, d, hs):
        out, g = [], d[hs] - 1
        while g >= 0:
            out.append(int(tab[g, 2]))
            g = int(tab[g, 3]) - 1
        return out

    heads = entries = 0
    for hs in np.flatnonzero(ttd[:n]):
        hs2 = K._tt_head(ttk2, ttd2, E, ttk, hs, np.uint64(K._exact_hash(ttk, hs, E)), 12, False)
        assert hs2 >= 0
        assert groups(ttk, tte, ttd, hs) == groups(ttk2, tte2, ttd2, hs2)
        heads += 1
    for e in (ttd[n:][ttd[n:] > 0] & 0xFFFFFFFF) - 1:
        tp = int(tte[e, K.TE_P])
        lens4, hs = tp & 0xFFFF, tp >> 16
        hs2 = K._tt_head(ttk2, ttd2, E, ttk, hs, np.uint64(K._exact_hash(ttk, hs, E)), 12, False)
        x = np.uint64(K._te_hash(hs2, lens4, tte[e, 0], tte[e, 1]))
        e2, _ = K._te_find(tte2, ttd2, 12, hs2, lens4, tte[e, 0], tte[e, 1], x)
        assert e2 >= 0
        assert list(tte2[e2, :K.TE_P]) == list(tte[e, :K.TE_P])
        g = ttd2[hs2] - 1
        while int(tte2[g, 2]) != lens4:
            g = int(tte2[g, 3]) - 1
        fb = int(x) & 255
        assert (int(tte2[g, 4 + fb // 64]) >> (fb % 64)) & 1  # the filter lets it be found
        entries += 1
    assert heads > 50 and entries > 200  # the search did fill the small table
    assert rows == entries + sum(len(groups(ttk, tte, ttd, hs))
                                 for hs in np.flatnonzero(ttd[:n]))


def test_fine_decimals_keep_the_binary_search() -> None:
    """No Hearts with hearts at -0.333333 (and the ace at -1.25) has millions of grid
    steps between its bounds: testing them from the top down, one a step, never ended (a
    4-card endgame ran 1.9 million tests); the binary search finds the exact value."""
    import tomllib

    import analyzer.solve as S
    from analyzer.rules import parse_rules
    from solvers import tricks as K
    doc = tomllib.loads(load_rules("barbu-32").to_toml())
    doc["contracts"]["no-hearts"]["card_points"] = {"H": -0.333333, "HA": -1.25}
    r = parse_rules(doc, "fine.toml")
    done = 0
    for k in range(40):
        deal = random_deal(40 + k, 32, 4)
        pb = S._Problem(deal, r, "no-hearts", None, k % 4, k % 4, None, None, None, (),
                        None, None)
        if (pb.hi - pb.lo) // pb.grid < 10 ** 6:
            continue  # (without the heart ace, a grid of thirds)
        done += 1
        assert pb.P[K.P_DOWN] == 0
        game = TrickGame(r, r.contracts["no-hearts"], deal.hands, k % 4)
        w, mx = objective(seat=k % 4)
        assert solve(deal, r, "no-hearts", leader=k % 4, seat=k % 4,
                     node_limit=200_000) == brute_value(game, w, mx)
    assert done >= 4


def test_top_down_tests() -> None:
    """No Last Two's and No Hearts' paranoid values are found by testing from the top down
    (``P_DOWN``), and that order gives the brute-force value; other shapes keep the binary
    search."""
    import analyzer.solve as S
    from solvers import tricks as K
    rules = load_rules("tournament")
    # No Last Two always; No Hearts (scored by cards only) where it can take many values
    for cid, first, n in (("no-last-two", 500, 24), ("no-hearts", 700, 16)):
        downs = 0
        for k in range(n):
            deal = random_deal(first + k, 52, 2 + k % 4)
            game = TrickGame(rules, rules.contracts[cid], deal.hands, k % 4)
            pb = S._Problem(deal, rules, cid, None, k % 4, (k + 1) % 4, None, None, None,
                            (), None, None)
            many = S.DOWN_MIN_VALUES <= (pb.hi - pb.lo) // pb.grid + 1 <= S.DOWN_MAX_VALUES
            assert pb.P[K.P_DOWN] == (cid == "no-last-two" or many), (cid, k)
            downs += int(pb.P[K.P_DOWN])
            w, mx = objective(seat=(k + 1) % 4)
            assert pb.run() == brute_value(game, w, mx), (cid, k)
        # (No Hearts with few hearts left: too few values, the binary search)
        assert downs == n if cid == "no-last-two" else downs >= 4, cid
    deal = random_deal(9, 52, 5)
    for cid, seat, side in (("no-queens", 0, None), ("no-last-two", None, "NS"),
                            ("no-tricks", 0, None), ("no-king", 0, None)):
        pb = S._Problem(deal, rules, cid, None, 0, seat, side, None, None, (), None, None)
        assert pb.P[K.P_DOWN] == 0, cid


def test_alike_moves_are_not_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card alike to one already searched without a cutoff (same hand, suit and class,
    both below every card of the suit whose rank decided anything:
    ``solvers.tricks._eq_later``) is not searched: fewer nodes, the brute-force value.
    5-card positions of every preset where the rule applies."""
    import analyzer.solve as S
    for seed in (5002, 5006, 5009, 5025, 5028, 5029, 5034, 5043, 5065, 5077, 5086, 5090):
        case = random_case(seed, 5)
        g = case["game"]
        want = brute_value(g, case["weights"], case["maximizers"])
        kw = dict(trump=case["trump"], leader=g.leader, weights=case["weights"],
                  maximizers=case["maximizers"], trick=list(g.trick),
                  whole_hand=g.whole_hand)
        nodes = {}
        for on in (True, False):
            monkeypatch.setattr(S, "EQ_SKIP", on)
            v, st = S.solve_stats(g.hands, case["rules"], case["contract"], **kw)
            assert v == want, (seed, on)
            nodes[on] = st["nodes"]
        assert nodes[True] < nodes[False], seed


def test_bets_on_negative_contracts_use_the_declarers_lower_bounds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bet "declarer minus opponents" on a notrump contract where every point is <= 0
    (a double's bracket, the net under doubles) takes the paranoid declarer's shape (his
    lower bounds stand: the opponents' points only add to the value) and drops the
    quick-trick cuts: the same values as without it, on fewer nodes in all. 7-card
    positions of both 52-card presets, every negative contract; with trumps the shape
    is not used."""
    import analyzer.solve as S
    from solvers import tricks as K
    presets = (load_rules("tournament"), load_rules("fr-52"))
    tr = S._Problem(random_deal(1, 52, 7), presets[0], "trumps", 0, 0, None, None,
                    [1, -1, 0, 0], [0], (), None, None)
    assert tr.P[K.P_NEG] == 0 and tr.P[K.P_NEG_BET] == 0
    contracts = ("no-tricks", "no-queens", "no-last-two", "no-hearts", "no-king")
    nodes = {True: 0, False: 0}
    for k in range(20):
        rules = presets[k % 2]
        contract = contracts[k % 5]
        deal = random_deal(71000 + k, 52, 7)
        x = k % 4
        w = [0, 0, 0, 0]
        w[x], w[(x + 1 + k % 3) % 4] = 1, -1
        if k % 3 == 0:
            w = [-1, -1, -1, -1]
            w[x] = 4
        kw = dict(leader=(k // 2) % 4, weights=w, maximizers=[x])
        vals = {}
        for on in (True, False):
            monkeypatch.setattr(S, "NEG_BET", on)
            pb = S._Problem(deal, rules, contract, None, kw["leader"], None, None, w,
                            [x], (), None, None)
            assert pb.P[K.P_NEG_BET] == on
            # (the quick-trick cuts, which say what a seat can take, go with the shape)
            assert pb.P[K.P_QT] == (contract == "no-tricks" and not on)
            vals[on], st = S.solve_stats(deal, rules, contract, **kw)
            nodes[on] += st["nodes"]
        assert vals[True] == vals[False], (k, contract, vals)
    assert nodes[True] < nodes[False], nodes


def test_known_bounds_narrow_the_tests_not_the_value() -> None:
    """``bounds``: values the caller knows the result lies within are not tested. With
    the true value as either bound the value is the same, on fewer nodes when the value
    sits at the bound; bounds that exclude every value are refused; ``score_sign`` says
    which contracts bound a bet by the declarer's guaranteed value."""
    from analyzer.solve import score_sign, solve_stats
    rules = load_rules("tournament")
    saved = 0
    for k in range(8):
        deal = random_deal(72000 + k, 52, 7)
        cid = ("no-last-two", "no-tricks", "no-queens", "trumps")[k % 4]
        kw = dict(trump="S" if cid == "trumps" else None, leader=k % 4,
                  weights=[1, 0, -1, 0] if k % 2 else [1, -1, 0, 0], maximizers=[0])
        v, st = solve_stats(deal, rules, cid, **kw)
        g = solve(deal, rules, cid, trump=kw["trump"], leader=k % 4, seat=0)
        for b in ((v, None), (None, v), (v, v), (v - 50, v + 50)):
            vb, sb = solve_stats(deal, rules, cid, bounds=b, **kw)
            assert vb == v, (k, b)
        vb, sb = solve_stats(deal, rules, cid, bounds=(v, None), **kw)
        saved += st["nodes"] - sb["nodes"]
        sign = score_sign(rules, cid)
        assert sign == (1 if cid == "trumps" else -1)
        assert (v >= g) if sign < 0 else (v <= g)
        with pytest.raises(BarbuError, match="bounds"):
            solve(deal, rules, cid, bounds=(v + 1, v + 1 - Fraction(1, 2)), **kw)
    assert saved > 0
    assert score_sign(load_rules("classic-32"), "no-tricks") == 0  # a capot bonus > 0
    assert score_sign(rules, "dominoes") == 0


def test_a_fixed_total_bounds_bets_from_above_and_fixes_nets() -> None:
    """Where no seat scores above 0 and a whole hand hands out a fixed total T, the
    declarer X's end of a bet lies within [G, 2 G - T] (G his guaranteed value: the
    others can hold him to G, and Y takes at least T - e_X) and his net under n doubles
    a pair is exactly (1 + 4 n) G - n T; ``declarer_bet_bounds`` says so, and the plain
    solves agree (whole barbu-32 deals, every negative contract, every declarer; the
    upper bound is reached on some deals, and a bet is exact when G = T)."""
    from analyzer.solve import declarer_bet_bounds, score_sign, solve_from_value
    rules = load_rules("barbu-32")
    cids = [c for c in ("no-tricks", "no-hearts", "no-queens", "no-king", "no-last",
                        "no-last-two") if c in rules.contracts]
    tight = exact = 0
    for k in range(12):
        deal = random_deal(74000 + k, 32)
        cid = cids[k % len(cids)]
        x, y, lead = k % 4, (k + 1 + k // 4) % 4, (k // 2) % 4
        if y == x:
            y = (x + 2) % 4
        total = rules.total(cid)
        sign = score_sign(rules, cid)
        assert sign < 0 and total is not None and total < 0
        g = solve(deal, rules, cid, leader=lead, seat=x)
        bet = [1 if p == x else -1 if p == y else 0 for p in range(4)]
        v = solve(deal, rules, cid, leader=lead, weights=bet, maximizers=[x])
        lo, hi = declarer_bet_bounds(sign, g, 1, total)
        assert (lo, hi) == (g, 2 * g - total)
        assert lo <= v <= hi, (k, cid, g, v)
        tight += v == hi
        exact += g == total
        for n in (1, 2):
            net = [1 + 3 * n if p == x else -n for p in range(4)]
            vn = solve(deal, rules, cid, leader=lead, weights=net, maximizers=[x])
            assert declarer_bet_bounds(sign, g, 1 + 3 * n, total) == (vn, vn), (k, n)
        # solve_from_value: the net without a search, the bet within the bounds
        nodes: list[int] = []
        g2, (v2, vn2) = solve_from_value(deal, rules, cid, [bet, [4 if p == x else -1
                                                                  for p in range(4)]],
                                         leader=lead, seat=x, nodes=nodes)
        assert (g2, v2, vn2, nodes[2]) == (g, v, 5 * g - total, 0)
    assert tight > 0 and exact > 0, (tight, exact)
    assert declarer_bet_bounds(1, Fraction(20), 1, Fraction(40)) is None


def test_bets_from_the_guaranteed_values_table_keep_their_values() -> None:
    """``solve_from_value``: where no seat scores above 0, the declarer's bets and nets
    start from his guaranteed value's table (lower bounds scaled by his weight, upper
    bounds dropped, restored for each objective). Every value equals a plain solve's
    (barbu-32 and tournament negative contracts, mid-hand positions, every declarer,
    bets against each opponent, nets with one and two doubles, and an objective that
    cannot be seeded); the seeded solves take fewer nodes in all than plain ones with the
    same root bound; in Trumps nothing is seeded (the same nodes as plain solves)."""
    from analyzer.solve import solve_from_value, solve_stats
    cases = 0
    plain_nodes = seeded_nodes = 0
    for preset, cards, n in (("barbu-32", 8, 14), ("tournament", 6, 6)):
        rules = load_rules(preset)
        cids = [c for c in ("no-tricks", "no-hearts", "no-queens", "no-king", "no-last",
                            "no-last-two") if c in rules.contracts]
        for k in range(n):
            deal = random_deal(73000 + k, rules.deck, cards)
            cid = cids[k % len(cids)]
            x = k % 4
            ws = [[1 if p == x else -1 if p == y else 0 for p in range(4)]
                  for y in range(4) if y != x]
            ws += [[4 if p == x else -1 for p in range(4)],
                   [7 if p == x else -2 for p in range(4)],
                   [1 if p in (x, (x + 1) % 4) else 0 for p in range(4)]]
            nodes: list[int] = []
            g, vals = solve_from_value(deal, rules, cid, ws, leader=(x + k) % 4, seat=x,
                                       nodes=nodes)
            assert g == solve(deal, rules, cid, leader=(x + k) % 4, seat=x)
            for w, v, nw in zip(ws, vals, nodes[1:]):
                v0, st = solve_stats(deal, rules, cid, leader=(x + k) % 4, weights=w,
                                     maximizers=[x])
                assert v == v0, (preset, k, cid, w)
                if w[(x + 1) % 4] <= 0:
                    # against a plain solve with the same root bound: what the table adds
                    _, sb = solve_stats(deal, rules, cid, leader=(x + k) % 4, weights=w,
                                        maximizers=[x], bounds=(w[x] * g, None))
                    plain_nodes += sb["nodes"]
                    seeded_nodes += nw
                cases += 1
    assert cases == 20 * 6 and seeded_nodes < plain_nodes, (seeded_nodes, plain_nodes)
    rules = load_rules("tournament")
    deal = random_deal(73100, 52, 6)
    w = [1, -1, 0, 0]
    nodes = []
    _, (v,) = solve_from_value(deal, rules, "trumps", [w], trump="S", leader=0, seat=0,
                               nodes=nodes)
    v0, st = solve_stats(deal, rules, "trumps", trump="S", leader=0, weights=w,
                         maximizers=[0])
    assert (v, nodes[1]) == (v0, st["nodes"])


def test_no_table_seed_where_a_bonus_can_replace_the_points() -> None:
    """A rules file's contract with -2 a trick (or a heart) where taking them all scores
    0: no seat scores above 0, yet from a position where E has taken every trick so far,
    E's score from there can rise (his -6 turns into the bonus's 0). The seeded entries'
    lower bounds then did not hold: N's bet against S came out 2 where it is 0, and on
    the all-cards form 8 where it is 0."""
    import tomllib

    from analyzer.rules import parse_rules
    from analyzer.solve import solve_from_value
    doc = tomllib.loads(load_rules("barbu-32").to_toml())
    doc["contracts"]["capot"] = {"kind": "tricks", "trick_points": -2, "all_tricks_score": 0}
    doc["contracts"]["hearts"] = {"kind": "tricks", "card_points": {"H": -2},
                                  "all_cards_score": 0}
    rules = parse_rules(doc, "bonus.toml")
    objs = [[1, -1, 0, 0], [1, 0, -1, 0], [1, 0, 0, -1], [4, -1, -1, -1]]
    for cid, deal in (("capot", "N:JT7.A.AT97. 9.KT8.QJ.Q9 AK.Q9..AKT7 Q8.J7.K8.J8"),
                      ("hearts", "N:AT8.T.8.QJ9 9.A.AQJ7.K7 QJ7.J987..8 K.KQ.KT9.AT")):
        g, vals = solve_from_value(deal, rules, cid, objs, leader="N", seat="N")
        assert vals == [solve(deal, rules, cid, leader="N", weights=w, maximizers=["N"])
                        for w in objs], cid


def test_solve_from_value_on_a_contract_that_scores_both_ways() -> None:
    """A rules file's contract where spades score +1 and hearts -1: a seat can score above
    0, so nothing may be seeded from the guaranteed value's table (its entries are not
    lower bounds of a bet there). Each bet and net equals a plain solve (the advisor
    calls ``solve_from_value`` for negative contracts only: the API's case)."""
    import tomllib

    from analyzer.rules import parse_rules
    from analyzer.solve import score_sign, solve_from_value
    doc = tomllib.loads(load_rules("barbu-32").to_toml())
    doc["variants"]["heart_lead"] = "free"
    doc["contracts"]["mixed"] = {"kind": "tricks", "card_points": {"S": 1, "H": -1}}
    rules = parse_rules(doc, "mixed.toml")
    assert score_sign(rules, "mixed") == 0
    differs = 0
    for k in range(6):
        deal = random_deal(74000 + k, 32, 6)
        x = k % 4
        objs = [[1 if p == x else -1 if p == y else 0 for p in range(4)]
                for y in range(4) if y != x] + [[4 if p == x else -1 for p in range(4)]]
        g, vals = solve_from_value(deal, rules, "mixed", objs, leader=(x + k) % 4, seat=x)
        assert g == solve(deal, rules, "mixed", leader=(x + k) % 4, seat=x)
        want = [solve(deal, rules, "mixed", leader=(x + k) % 4, weights=w, maximizers=[x])
                for w in objs]
        assert vals == want, (k, objs)
        differs += sum(v < w[x] * g for v, w in zip(want, objs))
    assert differs  # (a bet below the seat's weight times his value: a seeding would lie)


def test_probes_change_the_search_not_the_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cheap first (``analyzer.solve.PROBE``, notrump only): a node whose first move has
    not settled the test within a budget probes the other moves with a smaller one before
    searching the rest in full. With tiny budgets, so that probes start and stop all over
    8-card positions, every value equals the plain search's (bridge notrump; the
    guaranteed value, a bet and a partnership in the tournament's notrump contracts), and
    the searches do differ; with the shipped budgets, a full bridge deal whose first lead
    costs 10^5 nodes where another settles in a few is solved in far fewer nodes. With
    trumps the probes are off."""
    import analyzer.solve as S
    from solvers import tricks as K
    shipped = S.PROBE
    bridge, tour = load_rules("bridge"), load_rules("tournament")
    tr = S._Problem(random_deal(1, 52, 5), bridge, "trumps", 0, 0, None, (0, 2), None, None,
                    (), None, None)
    assert tr.P[K.P_PROBE] == 0
    jobs = []
    for k in range(30):
        deal = random_deal(72000 + k, 52, 8)
        ld = k % 4
        kind = k % 6
        if kind == 0:
            jobs.append((deal, bridge, "notrump", dict(leader=ld, side="NS")))
        elif kind == 1:
            jobs.append((deal, tour, "no-hearts", dict(leader=ld, side="EW")))
        elif kind == 2:
            jobs.append((deal, tour, "no-queens", dict(leader=ld, seat=(ld + 1) % 4)))
        elif kind == 3:
            jobs.append((deal, tour, "no-last-two", dict(leader=ld, seat=ld)))
        elif kind == 4:
            jobs.append((deal, tour, "no-tricks", dict(leader=ld, weights=[1, -1, 0, 0],
                                                       maximizers=[0])))
        else:
            jobs.append((deal, tour, "no-king", dict(leader=ld, seat=(ld + 2) % 4)))
    differ = 0
    for deal, rules, cid, kw in jobs:
        out = {}
        for probe in ((0, 0, 0), (3, 20, 2)):
            monkeypatch.setattr(S, "PROBE", probe)
            out[probe] = S.solve_stats(deal, rules, cid, **kw)
        (v0, s0), (v1, s1) = out.values()
        assert v0 == v1, (cid, kw, v0, v1)
        differ += s0["nodes"] != s1["nodes"]
    assert differ >= 10, differ
    # (seed 1012 served here until the finesse entry of the quick tricks made its first
    # lead cheap, 1048 until the later-tricks rule (_short_of_all) changed which tables
    # the tests leave to each other: 931 k nodes without probes, 896 k with; this one
    # costs 88.9 k without, 10.3 k with)
    deal = random_deal(1149, 52, 13)
    nodes = {}
    for probe in ((0, 0, 0), shipped):
        monkeypatch.setattr(S, "PROBE", probe)
        v, st = S.solve_stats(deal, bridge, "notrump", leader="N", side="NS")
        assert v == 1
        nodes[probe] = st["nodes"]
    assert 2 * nodes[shipped] < nodes[(0, 0, 0)], nodes


def test_enhanced_transposition_cutoffs_change_the_search_not_the_values(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Enhanced transposition cutoffs (``analyzer.solve.ETC_TL``, ``solvers.tricks._etc``:
    the fourth seat looks each card's next trick start up before searching any). Turned
    on from 3 tricks left, small positions of two partnerships (bridge notrump and
    trumps, a partnership in the tournament's contracts) agree with brute force, 8-card
    ones with the search without them, and the searches do differ; shipped, they are on
    for two partnerships only."""
    import analyzer.solve as S
    from solvers import tricks as K
    bridge, tour = load_rules("bridge"), load_rules("tournament")
    cases = []
    for k in range(36):
        rng = np.random.default_rng(73000 + k)
        ld = int(rng.integers(4))
        side = (ld, (ld + 2) % 4) if k % 2 else ((ld + 1) % 4, (ld + 3) % 4)
        if k % 3 == 0:
            cases.append((bridge, "notrump", None, ld, side))
        elif k % 3 == 1:
            cases.append((bridge, "trumps", int(rng.integers(4)), ld, side))
        else:
            cases.append((tour, ("no-hearts", "no-queens", "no-last-two")[k % 4 % 3], None,
                          ld, side))
    small = 0
    for k, (rules, cid, trump, ld, side) in enumerate(cases):
        deal = random_deal(73100 + k, rules.deck, 4)
        game = TrickGame(rules, rules.contracts[cid], deal.hands, ld, trump=trump,
                         whole_hand=False)
        want = brute_value(game, [1 if p in side else 0 for p in range(4)], side)
        nodes = []
        for tl in (0, 3):
            monkeypatch.setattr(S, "ETC_TL", tl)
            v, st = S.solve_stats(deal, rules, cid, trump=trump, leader=ld, side=side,
                                  whole_hand=False)
            assert v == want, (k, cid, tl, v, want)
            nodes.append(st["nodes"])
        small += nodes[0] != nodes[1]
    assert small >= 4, small
    differ = 0
    for k in range(24):
        deal = random_deal(73200 + k, 52, 8)
        rules, cid, trump = (bridge, "notrump", None) if k % 2 else (bridge, "trumps", k % 4)
        kw = dict(trump=trump, leader=k % 4, side="NS" if k % 3 else "EW")
        out = []
        for tl in (0, 3):
            monkeypatch.setattr(S, "ETC_TL", tl)
            out.append(S.solve_stats(deal, rules, cid, **kw))
        assert out[0][0] == out[1][0], (k, out[0][0], out[1][0])
        differ += out[0][1]["nodes"] != out[1][1]["nodes"]
    assert differ >= 8, differ
    monkeypatch.undo()
    on = S._Problem(random_deal(1, 52, 5), bridge, "notrump", None, 0, None, (0, 2), None,
                    None, (), None, None)
    off = S._Problem(random_deal(1, 52, 5), tour, "no-hearts", None, 0, 0, None, None,
                     None, (), None, None)
    assert on.P[K.P_ETC_TL] == S.ETC_TL > 0 and off.P[K.P_ETC_TL] == 0



def _side_nt_problem(rules, cid, side, ld, trump=None, weights=None, maximizers=None):
    """A search problem of the given shape on a fixed 6-card position (its ``P``)."""
    import analyzer.solve as S
    return S._Problem(random_deal(73500, rules.deck, 6), rules, cid, trump=trump,
                      leader=ld, seat=None, side=side, weights=weights,
                      maximizers=maximizers, trick=(), whole_hand=False, tt_bits=None)


def test_side_shortcut_predicts_the_side_the_full_play_out_does() -> None:
    """``solvers.tricks._side_winner``, ``_follow``'s answer under ``P_SIDE_NT``
    (notrump partnerships, tricks only): the side of the best card still to come wins
    the predicted trick. On random
    tricks in progress (every seat to play, every number of cards down) the shortcut's
    seat has the weight and role of the full play-out's winner; the flag is set for
    bridge notrump partnerships only."""
    from solvers import tricks as K
    bridge, tour = load_rules("bridge"), load_rules("tournament")
    P1 = _side_nt_problem(bridge, "notrump", (1, 3), 0).P
    assert P1[K.P_SIDE_NT] == 1
    assert _side_nt_problem(bridge, "notrump", (0, 2), 0).P[K.P_SIDE_NT] == 1
    assert _side_nt_problem(bridge, "trumps", (0, 2), 0, trump=1).P[K.P_SIDE_NT] == 0
    assert _side_nt_problem(bridge, "notrump", (0, 1), 0).P[K.P_SIDE_NT] == 0
    assert _side_nt_problem(tour, "no-queens", (0, 2), 0).P[K.P_SIDE_NT] == 0
    P0 = P1.copy()
    P0[K.P_SIDE_NT] = 0
    w = P1[K.O_W:K.O_W + 4]
    kind = [(int(w[q]), (int(P1[K.P_MAXMASK]) >> q) & 1) for q in range(4)]
    checked = 0
    differ = 0
    for k in range(3000):
        hands, p, nt, led, cur, win = _random_trick(74000 + k)
        est = 1 + k % 3
        fast = K._side_winner(hands, p, nt, led, cur, win)
        full = K._follow(hands, p, nt, led, cur, win, est, P0)
        assert kind[fast] == kind[full], (k, fast, full)
        checked += 1
        differ += fast != full
    assert checked == 3000
    # (the seats themselves differ where a partner takes the trick instead)
    assert differ > 0


def test_side_shortcut_leaves_the_search_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """With and without ``analyzer.solve.SIDE_NT``, 8-card bridge notrump positions take
    exactly the same nodes to the same values: neither ``_follow``'s shortcut nor
    ``_order``'s lean path (``_order_snt``) changes a move order."""
    import analyzer.solve as S
    bridge = load_rules("bridge")
    for k in range(12):
        deal = random_deal(74500 + k, 52, 8)
        ld = k % 4
        side = (ld, (ld + 2) % 4) if k % 2 else ((ld + 1) % 4, (ld + 3) % 4)
        got = []
        for on in (True, False):
            monkeypatch.setattr(S, "SIDE_NT", on)
            got.append(S.solve_stats(deal, bridge, "notrump", leader=ld, side=side))
        assert got[0] == got[1], (k, got)


def _random_trick(k: int) -> tuple[np.ndarray, int, int, int, int, int]:
    """A random trick in progress (seed ``k``): the hands left, the seat that has just
    played, the cards down before its own, the suit led, the card on top and its seat."""
    rng = np.random.default_rng(k)
    deal = random_deal(k, 52, int(rng.integers(2, 14)))
    hands = np.array([sum(card_bit(c) for c in h) for h in deal.hands], dtype=np.uint64)
    ld = int(rng.integers(4))
    nt = int(rng.integers(3))
    cur = win = led = -1
    for i in range(nt + 1):
        q = (ld + i) % 4
        cards = [16 * s + r for s in range(4) for r in range(16)
                 if (int(hands[q]) >> (16 * s + r)) & 1]
        follow = [c for c in cards if (c >> 4) == led]
        c = int(rng.choice(follow if follow else cards))
        hands[q] &= ~np.uint64(1 << c)
        if i == 0:
            led, cur, win = c >> 4, c, q
        elif (c >> 4) == led and c > cur:
            cur, win = c, q
    return hands, (ld + nt) % 4, nt, led, cur, win

def test_a_guess_changes_where_the_tests_start_not_the_values(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A full bridge deal (notrump or trumps) or a notrump endgame starts its null-window
    tests at a guess of the value (``analyzer.solve._trick_guess``) and steps one trick
    at a time from there. Whatever the guess (either end of the range, past it, the
    middle), the value is the binary search's, and the tests run are exactly those
    between the guess and the value plus the one that closes the bracket. (How close the
    shipped guess comes: ``tests/test_tricks_dds.py``.)"""
    import analyzer.solve as S
    bridge = load_rules("bridge")
    shipped = S._trick_guess
    plain = S._Problem._tests
    asked: list[tuple[int, int]] = []

    def tests(self, lo, hi, *args):  # noqa: ANN001, ANN202
        asked.append((lo, hi))
        return plain(self, lo, hi, *args)

    monkeypatch.setattr(S._Problem, "_tests", tests)
    for k in (0, 1, 2, 3, 4, 9, 10, 11, 20, 21, 22):
        n = 13 if k < 20 else 9  # the last three: endgames
        deal = random_deal(9100 + k, 52, n)
        cid, trump = ("notrump", None) if k < 5 or k >= 20 else ("trumps", k % 4)
        kw = dict(leader=k % 4, side=(k % 4, (k % 4 + 2) % 4), trump=trump)
        monkeypatch.setattr(S, "GUESS_FIRST", False)
        v0 = int(S.solve(deal, bridge, cid, **kw))
        monkeypatch.setattr(S, "GUESS_FIRST", True)
        for g in (-3, 6, 20, None):
            guess = shipped if g is None else (lambda h, s, t, g=g: g)
            monkeypatch.setattr(S, "_trick_guess", guess)
            asked.clear()
            assert S.solve(deal, bridge, cid, **kw) == v0, (k, cid, g)
            if g is not None:
                # each call one test, "value >= hi": from the guess up while they hold,
                # else down while they fail
                g = min(max(g, 0), n)
                if g <= v0:
                    want = [(t - 1, t) for t in range(max(g, 1), min(v0 + 1, n) + 1)]
                else:
                    want = [(t - 1, t) for t in range(g, max(v0, 1) - 1, -1)]
                assert asked == want, (k, g, v0, asked)


def test_forced_tricks_bound_a_bet_from_both_sides() -> None:
    """Tricks a seat cannot help taking (its trumps less those the others' higher trumps
    can beat, one each) bound the value on both sides: in a bet, a neutral seat's (weight
    0, a minimiser) give the maximiser a floor, and the maximiser's own give it a floor
    beyond its top trumps."""
    import analyzer.solve as S
    from analyzer.cards import parse_hand
    from solvers import tricks as K
    rules = load_rules("tournament")

    def bet(*pbn):  # E maximises s_E - s_N; N, S, W minimise; spades trumps, N leads
        pb = S._Problem([parse_hand(x) for x in pbn], rules, "trumps", "S", 0, None, None,
                        [-1, 1, 0, 0], (1,), (), None, None)
        return pb.hands, pb.P

    hands, P = bet(".AKQJ..", "..AKQJ.", "AK...AK", "QJ...QJ")
    T = int(P[K.O_TPL + 4])
    assert T > 0
    assert [K._seat_trumps(hands, P, q)[0] for q in range(4)] == [0, 0, 2, 0]
    # S surely takes 2 of 4 tricks; the other two are worth -T each at worst, +T at best
    # S merely *can* take them (quick tricks): no floor for E from a neutral seat
    assert K._sure_cut(2, 2, 4, -2 * T, P) == 0
    assert K._sure_cut(2, 2, 4, 2 * T + 1, P) == -1  # and +T each at best
    assert K._trumps_cut(hands, 4, -2 * T, P)[0] == 1
    assert K._trumps_cut(hands, 4, -2 * T + 1, P)[0] == 0
    assert K._trumps_cut(hands, 4, 2 * T + 1, P)[0] == -1
    # E's AQJT against W's K: three tricks (the top-trump count alone says one)
    hands, P = bet(".AKQJ..", "AQJT...", "..AKQJ.", "K...QJT")
    assert [K._seat_trumps(hands, P, q)[0] for q in range(4)] == [0, 3, 0, 0]
    assert K._trumps_cut(hands, 4, 2 * T, P)[0] == 1
    assert K._trumps_cut(hands, 4, 2 * T + 1, P)[0] == 0


def _check_trump_tricks(seeds: range, sizes: tuple[int, ...]) -> None:
    """The kernel's count of the trump tricks a seat surely takes (its trumps less the
    others' higher trumps matched one to one) never exceeds the fewest tricks it can take
    on any line of play (every seat helping it avoid them: brute force), and the solver
    that cuts on those counts agrees with brute force on trump-rich positions."""
    from analyzer.solve import _Problem
    from solvers import tricks as K

    tight = 0
    for seed in seeds:
        rng = np.random.default_rng(30_000 + seed)
        rules = load_rules(["tournament", "bridge"][seed % 2])
        cid = "trumps"
        n = int(rng.choice(sizes))
        deal = random_deal(rng, rules.deck, n)
        trump = int(rng.integers(4))
        leader = int(rng.integers(4))
        game = TrickGame(rules, rules.contracts[cid], deal.hands, leader, trump=trump,
                         whole_hand=False)
        pr = _Problem(deal.hands, rules, cid, trump=trump, leader=leader, seat=0, side=None,
                      weights=None, maximizers=None, trick=(), whole_hand=False,
                      tt_bits=None)
        per_trick = brute_value(game, [1, 1, 1, 1], range(4)) / n  # every trick the same
        for q in range(4):
            k, _ = K._seat_trumps(pr.hands, pr.P, q)
            w = [Fraction(-1 if p == q else 0) for p in range(4)]
            fewest = -brute_value(game, w, range(4))  # everyone minimising q's tricks
            assert k * per_trick <= fewest, (seed, q, k, fewest)
            tight += k > 0 and k * per_trick == fewest
        x, y = (int(v) for v in rng.choice(4, 2, replace=False))
        w = tuple(Fraction(1 if p == x else -1 if p == y else 0) for p in range(4))
        got = solve(deal.hands, rules, cid, trump=trump, leader=leader, weights=w,
                    maximizers=(x,))
        assert got == brute_value(game, w, (x,)), seed
    assert tight > len(seeds) // 2  # the counts are often exact: the check has teeth


def test_trump_tricks_a_seat_cannot_help_taking() -> None:
    _check_trump_tricks(range(60), (3,))


@pytest.mark.slow
def test_trump_tricks_a_seat_cannot_help_taking_full() -> None:
    _check_trump_tricks(range(1000, 1300), (3, 4))


def _check_short_of_all(seeds: range, sizes: tuple[int, ...]) -> None:
    """The kernel's "later tricks" rule (``_short_of_all``: seats whose longest holdings in
    the suits they top add up to fewer than the tricks left cannot take them all) never
    says so of seats that can (brute force: those seats maximising their tricks, the
    others minimising), for the two partnerships, each seat alone and each three; and it
    often applies where they fall short by a single trick (the check has teeth). Half the
    positions give one partnership most of the top cards, where discards of master cards
    and squeezes would show a flaw."""
    from analyzer.cards import Deal
    from analyzer.solve import _Problem
    from solvers import tricks as K

    rules = load_rules("bridge")
    teams = [(0, 2), (1, 3)] + [(q,) for q in range(4)] + [
        tuple(p for p in range(4) if p != q) for q in range(4)]
    said = tight = 0
    for seed in seeds:
        rng = np.random.default_rng(40_000 + seed)
        n = int(rng.choice(sizes))
        if seed % 2:
            deal = random_deal(rng, 52, n)
        else:
            # East-West take the top cards of two or three suits first, mostly
            suits = rng.choice(4, int(rng.integers(2, 4)), replace=False)
            pool = sorted((13 * int(s) + r for s in suits for r in range(13)),
                          key=lambda c: -(c % 13) + 6 * rng.random())[:4 * n]
            hands: list[set[int]] = [set(), set(), set(), set()]
            for c in pool:
                want = (1, 3) if rng.random() < 0.8 else (0, 2)
                open_ = [q for q in want if len(hands[q]) < n] or \
                    [q for q in range(4) if len(hands[q]) < n]
                hands[int(rng.choice(open_))].add(c)
            deal = Deal(tuple(frozenset(h) for h in hands))
        leader = int(rng.integers(4))
        pr = _Problem(deal.hands, rules, "notrump", trump=None, leader=leader, seat=0,
                      side=None, weights=None, maximizers=None, trick=(), whole_hand=False,
                      tt_bits=None)
        game = TrickGame(rules, rules.contracts["notrump"], deal.hands, leader,
                         whole_hand=False)
        for team in teams:
            short, _ = K._short_of_all(pr.hands, n, sum(1 << q for q in team))
            if not short:
                continue
            said += 1
            w = [1 if p in team else 0 for p in range(4)]
            most = brute_value(game, w, team)  # +1 a trick in the bridge preset
            assert most < n, (seed, team, deal.to_pbn())
            tight += most == n - 1
    assert said > len(seeds) and tight > len(seeds) // 4, (said, tight)


def test_a_side_short_of_every_trick_loses_one() -> None:
    _check_short_of_all(range(40), (2, 3))


@pytest.mark.slow
def test_a_side_short_of_every_trick_loses_one_full() -> None:
    _check_short_of_all(range(1000, 1250), (3, 4))


def _top_heavy(rng, n: int, side: tuple[int, ...], nsuits: int):
    """A deal of ``n`` cards a hand from the top cards of ``nsuits`` random suits, each
    card going to a seat of ``side`` six times in ten (where one has room)."""
    from analyzer.cards import Deal

    suits = rng.choice(4, nsuits, replace=False)
    pool = sorted((13 * int(s) + r for s in suits for r in range(13)),
                  key=lambda c: -(c % 13) + 6 * rng.random())[:4 * n]
    hands: list[set[int]] = [set(), set(), set(), set()]
    for c in pool:
        want = side if rng.random() < 0.6 else tuple(range(4))
        open_ = [q for q in want if len(hands[q]) < n] or \
            [q for q in range(4) if len(hands[q]) < n]
        hands[int(rng.choice(open_))].add(c)
    return Deal(tuple(frozenset(h) for h in hands))


def _seeded(seeds: range, base: int, sizes: tuple[int, ...]):
    """For the brute-force bound checks: each seed's generator (``base + seed``), hand
    size drawn from ``sizes`` and leader, in that order of draws."""
    for seed in seeds:
        rng = np.random.default_rng(base + seed)
        n = int(rng.choice(sizes))
        yield seed, rng, n, int(rng.integers(4))


def _check_quick_tricks(seeds: range, sizes: tuple[int, ...]) -> None:
    """The leader's team's quick tricks in notrump (``_quick_tricks``: cashing, entries to
    the partner, the finesse entry, the partner's cards promoted by the leader's cashing)
    never exceed what the team takes against the best defence (brute force), for
    partnerships and for a seat against the other three, in positions where the leader's
    side holds most of the top cards of two or three suits; and the count often equals
    that value (the check has teeth)."""
    from analyzer.solve import _Problem
    from solvers import tricks as K

    rules = load_rules("bridge")
    said = exact = 0
    for seed, rng, n, leader in _seeded(seeds, 50_000, sizes):
        side = (leader, (leader + 2) % 4) if seed % 3 else (leader,)
        deal = _top_heavy(rng, n, side, int(rng.integers(2, 4)))
        pr = _Problem(deal.hands, rules, "notrump", None, leader, None, side, None, None,
                      (), None, None)
        q, _ = K._quick_tricks(pr.hands.copy(), np.int64(leader), np.int64(n), pr.P,
                               np.int64(n + 1))
        game = TrickGame(rules, rules.contracts["notrump"], deal.hands, leader,
                         whole_hand=False)
        most = brute_value(game, [1 if p in side else 0 for p in range(4)], side)
        assert q <= most, (seed, side, q, most, deal.to_pbn())
        said += q > 0
        exact += q == most
    assert said > len(seeds) // 2 and exact > len(seeds) // 4, (said, exact)


def test_quick_tricks_never_exceed_the_value() -> None:
    # the partner's jack, promoted by the leader's ace, after a heart entry (docstring)
    from analyzer.cards import card_index
    from analyzer.solve import _Problem
    from solvers import tricks as K

    hands = [frozenset(card_index(c) for c in h.split()) for h in
             ("HA SJ S9", "ST S8 S7", "HT H6 SA", "HK H8 H5")]
    pr = _Problem(hands, load_rules("bridge"), "notrump", None, 2, None, (0, 2), None, None,
                  (), None, None)
    q, _ = K._quick_tricks(pr.hands.copy(), np.int64(2), np.int64(3), pr.P, np.int64(4))
    assert q == 3
    assert solve(hands, "bridge", "notrump", leader="S", side="NS") == 3
    _check_quick_tricks(range(60), (3,))


@pytest.mark.slow
def test_quick_tricks_never_exceed_the_value_full() -> None:
    _check_quick_tricks(range(1000, 1400), (3, 4))


def _check_reply_qt(seeds: range, sizes: tuple[int, ...]) -> int:
    """The bound for the side not on lead in notrump (``_reply_qt``: it wins any lead with
    the best card of the suit, then cashes its quick tricks) never claims more tricks
    than that side takes against the best defence (brute force), in positions where it
    holds most of the top cards of two or three suits (half of them) or in random ones;
    and it often claims exactly that many (the check has teeth). Returns how many
    positions it claimed something in."""
    from analyzer.solve import _Problem
    from solvers import tricks as K

    rules = load_rules("bridge")
    said = exact = 0
    for seed, rng, n, leader in _seeded(seeds, 60_000, sizes):
        side = ((leader + 1) % 4, (leader + 3) % 4)
        if seed % 2:
            deal = random_deal(rng, 52, n)
        else:
            deal = _top_heavy(rng, n, side, max(int(rng.integers(2, 4)), -(-4 * n // 13)))
        pr = _Problem(deal.hands, rules, "notrump", None, leader, None, side, None, None,
                      (), None, None)
        claim = 0
        for k in range(1, n + 1):
            ok, _ = K._reply_qt(pr.hands.copy(), np.int64(leader), np.int64(n),
                                np.int64((1 << side[0]) | (1 << side[1])), np.int64(k), pr.P)
            if ok:
                claim = k
        if claim == 0:
            continue
        game = TrickGame(rules, rules.contracts["notrump"], deal.hands, leader,
                         whole_hand=False)
        most = brute_value(game, [1 if p in side else 0 for p in range(4)], side)
        assert claim <= most, (seed, claim, most, deal.to_pbn())
        said += 1
        exact += claim == most
    assert said > len(seeds) // 5 and exact > said // 3, (said, exact)
    return said


def test_the_side_not_on_lead_wins_any_lead_and_cashes() -> None:
    _check_reply_qt(range(80), (3,))


@pytest.mark.slow
def test_the_side_not_on_lead_wins_any_lead_and_cashes_full() -> None:
    _check_reply_qt(range(1000, 1400), (3, 4))


def test_table_buffers_are_reused_but_never_shared_by_a_move(monkeypatch) -> None:
    """The per-thread table buffers: a growing problem's new table lies in another buffer
    than the one it moves from; another problem, or the same one asking anew for a table
    it no longer uses, finds it emptied; a later problem reuses the memory (no new
    buffer); above KEEP_TABLE_BYTES a new problem keeps only the set it uses."""
    import analyzer.solve as S
    S.release_tables()
    a = S._tt(8, 3, 101)
    a[2][:] = 7
    assert S._tt(8, 3, 101)[2][0] == 7  # the same problem keeps its table
    b = S._tt(10, 3, 101)  # it grows: the new table must not overlap the old
    assert not any(np.shares_memory(x, y) for x in a for y in b)
    assert b[0].shape == (1 << 10, 3) and b[1].shape == (1 << 10, S.K.NTE)
    assert b[2].shape == (2 << 10,) and not b[2].any()
    b[2][:] = 5
    c = S._tt(8, 3, 202)  # another problem: emptied, in memory already there
    assert not c[2].any()
    assert any(np.shares_memory(c[2], y[2]) for y in (a, b))
    d = S._tt(9, 4, 202)  # other key words: still a C-contiguous view
    assert d[0].shape == (1 << 9, 4) and d[0].flags.c_contiguous
    assert len(S._local.tabs.sets) == 2
    S._tt(11, 4, 202)  # the same problem grows: both sets stay
    assert len(S._local.tabs.sets) == 2
    monkeypatch.setattr(S, "KEEP_TABLE_BYTES", 1 << 16)
    e = S._tt(8, 3, 303)  # a new problem, the two sets over the limit: one is kept
    assert len(S._local.tabs.sets) == 1
    assert np.shares_memory(e[2], S._local.tabs.sets[0][2]) and not e[2].any()
    S.release_tables()
    assert getattr(S._local, "tabs", None) is None


def test_size_hints_start_alike_problems_at_the_size_they_needed(monkeypatch) -> None:
    """After HINT_RUN alike problems whose entries each needed a table larger than the
    default, the next starts at the least of those sizes (values unchanged)."""
    import analyzer.solve as S
    rules = load_rules("tournament")
    monkeypatch.setattr(S, "DEFAULT_TT_BITS", {4: 6, 8: 6, 13: 6})  # too small: grows
    S._local.hints = {}
    deal = random_deal(5, 52, 8)
    vals, starts = [], []
    for _ in range(S.HINT_RUN + 1):
        pb = S._Problem(deal, rules, "no-last-two", None, 0, 0, None, None, None, (), None,
                        None)
        starts.append(pb.tt_bits)
        vals.append(pb.run())
    need = S._size_hints()[pb.size_key]
    assert len(set(vals)) == 1
    assert starts[:S.HINT_RUN] == [6] * S.HINT_RUN
    assert min(need) > 6 and starts[-1] == min(need)
    S._local.hints = {}


def test_cards_as_names_or_indices_and_bad_ones_in_one_line():
    # the Python API takes card indices 0-51 or names; anything else is one BarbuError
    # naming where it was (not a ValueError, nor a wrong card: 99 used to pass the
    # trick's check as a 99 % 13 rank)
    r = load_rules("tournament")
    d = random_deal(3, 52, 3)
    hands = [sorted(h) for h in d.hands]
    names = [[f"{'SHDC'[c // 13]}{'23456789TJQKA'[c % 13]}" for c in h] for h in hands]
    assert solve(names, r, "no-tricks", leader=0, seat=0) == \
        solve(hands, r, "no-tricks", leader=0, seat=0)
    lead = hands[0][0]
    rest = [hands[0][1:]] + hands[1:]
    assert solve(rest, r, "no-tricks", leader=0, seat=1, trick=[names[0][0]]) == \
        solve(rest, r, "no-tricks", leader=0, seat=1, trick=[lead])
    for trick, match in (([99], "bad card 99 in the current trick"),
                         ([1.5], "bad card 1.5 in the current trick"),
                         (["Q9"], "bad card 'Q9'")):
        with pytest.raises(BarbuError, match=match):
            solve(rest, r, "no-tricks", leader=0, seat=1, trick=trick)
    with pytest.raises(BarbuError, match="bad card 60 in W's hand"):
        solve(hands[:3] + [[60] + hands[3][1:]], r, "no-tricks", leader=0, seat=0)
    with pytest.raises(BarbuError, match="bad card 77 in the current trick"):
        TrickGame(r, "no-tricks", rest, 0, trick=[77])


def test_duck_shortcut_predicts_the_seat_the_full_play_out_does() -> None:
    """``solvers.tricks._follow`` under ``P_NEG_DUCK`` (a paranoid negative contract,
    not a bet): where the declarer would rather lose the trick, everyone ducks. On random
    tricks in progress, for tricks worth less than, more than and nothing, the shortcut
    names the very seat the full play-out does, in No Tricks, No Queens, No Hearts and No
    Last Two, whoever the declarer; the flag is off in a bet and in partnerships."""
    import analyzer.solve as S
    from solvers import tricks as K
    tour = load_rules("tournament")
    deal = random_deal(75000, 52, 6)
    kw = dict(trump=None, leader=0, side=None, weights=None, maximizers=None, trick=(),
              whole_hand=False, tt_bits=None)
    assert S._Problem(deal, tour, "no-queens", **{**kw, "seat": None, "side": (0, 2)}
                      ).P[K.P_NEG_DUCK] == 0
    bet = S._Problem(deal, tour, "no-tricks", **{**kw, "seat": None,
                                                 "weights": (1, -1, 0, 0),
                                                 "maximizers": (0,)}).P
    assert bet[K.P_NEG_BET] == 1 and bet[K.P_NEG_DUCK] == 0
    shortcut = 0
    for j, cid in enumerate(("no-tricks", "no-queens", "no-hearts", "no-last-two")):
        for d in range(4):
            P1 = S._Problem(deal, tour, cid, **{**kw, "seat": d}).P
            assert P1[K.P_NEG_DUCK] == 1 and P1[K.P_NEG] == d + 1
            P0 = P1.copy()
            P0[K.P_NEG_DUCK] = 0
            for k in range(250):
                hands, p, nt, led, cur, win = _random_trick(76000 + 1000 * j + k)
                est = (-2, 0, 3)[k % 3]
                fast = K._follow(hands, p, nt, led, cur, win, est, P1)
                full = K._follow(hands, p, nt, led, cur, win, est, P0)
                assert fast == full, (cid, d, k, fast, full)
                shortcut += (est if est else int(P1[K.P_PSIGN])) < 0
    assert shortcut > 1000


def test_duck_shortcut_leaves_the_search_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """With and without ``analyzer.solve.NEG_DUCK``, 7-card positions of the negative
    contracts take exactly the same nodes to the same guaranteed values."""
    import analyzer.solve as S
    tour = load_rules("tournament")
    for k in range(12):
        deal = random_deal(77000 + k, 52, 7)
        cid = ("no-tricks", "no-queens", "no-hearts", "no-last-two")[k % 4]
        got = []
        for on in (True, False):
            monkeypatch.setattr(S, "NEG_DUCK", on)
            got.append(S.solve_stats(deal, tour, cid, leader=k % 4, seat=(k // 4) % 4))
        assert got[0] == got[1], (k, cid, got)


def test_quick_tricks_skip_only_entries_that_count_the_same() -> None:
    """``solvers.tricks._quick_tricks`` under ``P_QT_HB`` tries the unblocking entry
    card (the leader's highest under his teammate's top) only where the teammate holds
    another card at or below it. On random notrump positions (every leader, partners
    opposite, the count asked for out of reach so that every entry is tried) the count
    and the cards it relies on are the same with and without the skip."""
    import analyzer.solve as S
    from solvers import tricks as K
    bridge = load_rules("bridge")
    tried = 0
    for k in range(2500):
        rng = np.random.default_rng(78000 + k)
        n = int(rng.integers(2, 14))
        deal = random_deal(78000 + k, 52, n)
        hands = np.array([sum(card_bit(c) for c in h) for h in deal.hands],
                         dtype=np.uint64)
        ld = k % 4
        P1 = S._Problem(deal, bridge, "notrump", trump=None, leader=ld, seat=None,
                        side=(ld, (ld + 2) % 4), weights=None, maximizers=None, trick=(),
                        whole_hand=False, tt_bits=None).P
        assert P1[K.P_QT_HB] == 1
        P0 = P1.copy()
        P0[K.P_QT_HB] = 0
        on = K._quick_tricks(hands.copy(), ld, n, P1, n + 1)
        off = K._quick_tricks(hands.copy(), ld, n, P0, n + 1)
        assert (int(on[0]), int(on[1])) == (int(off[0]), int(off[1])), (k, on, off)
        tried += 1
    assert tried == 2500


def test_bit_scans_and_counts_match_python() -> None:
    """The kernels' bit intrinsics (highest / lowest set bit, -1 for none; set-bit
    count) on every 16-bit lane and on wide values, signed and unsigned."""
    from numba import njit

    from solvers import tricks as K

    @njit(cache=False)
    def scan(xs, out):
        for i in range(xs.shape[0]):
            out[i, 0] = K._hib(xs[i])
            out[i, 1] = K._lob(xs[i])
            out[i, 2] = K._pcnt(xs[i])

    rng = np.random.default_rng(5)
    wide = [int(x) for x in rng.integers(1, 1 << 62, 500)] + [1 << 62, (1 << 63) - 1]
    for xs in (np.arange(1 << 16, dtype=np.int64), np.array(wide, dtype=np.int64),
               np.array(wide + [1 << 63, (1 << 64) - 1], dtype=np.uint64)):
        out = np.zeros((len(xs), 3), np.int64)
        scan(xs, out)
        want = [(int(x).bit_length() - 1, (int(x) & -int(x)).bit_length() - 1,
                 bin(int(x)).count("1")) for x in xs]
        assert [tuple(r) for r in out.tolist()] == want


def test_owner_codes_and_runs_by_bmi2_match_the_tables() -> None:
    """Where the CPU has pext / pdep (BMI2), the key's owner codes and the move order's
    runs of equivalent cards use them; both must say what the byte tables and the plain
    rule say (on a CPU without BMI2 only the tables are checked)."""
    from numba import njit

    from solvers import tricks as K

    rng = np.random.default_rng(9)
    cases = []
    for _ in range(3000):
        ip = int(rng.integers(0, 1 << 13))
        o0 = ip & int(rng.integers(0, 1 << 13))
        o1 = ip & int(rng.integers(0, 1 << 13))
        ln = ip & int(rng.integers(0, 1 << 13))
        cases.append((ip, o0, o1, ln))
    arr = np.array(cases, dtype=np.int64)

    def ref_code(ip, o0, o1):
        code, i = 0, 0
        for r in range(16):
            if ip >> r & 1:
                code |= (o0 >> r & 1) << (2 * i) | (o1 >> r & 1) << (2 * i + 1)
                i += 1
        return code

    def ref_skipped(ln, ip):
        out = 0
        for r in range(16):
            if ln >> r & 1:
                higher = ip & ~((1 << (r + 1)) - 1)
                if higher and ln >> ((higher & -higher).bit_length() - 1) & 1:
                    out |= 1 << r
        return out

    @njit(cache=False)
    def tables(a, out):
        for i in range(a.shape[0]):
            out[i] = K._owner_code_tables(a[i, 0], a[i, 1], a[i, 2])

    out = np.zeros(len(arr), np.uint64)
    tables(arr, out)
    want = [ref_code(ip, o0, o1) for ip, o0, o1, _ in cases]
    assert [int(x) for x in out] == want
    # the runs of a holding among the cards in play, and the top cards of each suit
    # (BMI2 or not, whichever this CPU compiled)
    for ip, o0, _, _ in cases[:500]:
        runs, prev = 0, False
        for r in range(16):
            if ip >> r & 1:  # the cards in play, from the lowest up
                mine = bool(o0 >> r & 1)
                runs += mine and not prev
                prev = mine
        assert K._runs(np.int64(o0), np.int64(ip)) == runs
    for _ in range(500):
        hands = np.array([int(x) for x in rng.integers(0, 1 << 62, 4)], np.uint64) & \
            np.uint64(0x1FFF1FFF1FFF1FFF)
        k = [int(x) for x in rng.integers(0, 15, 4)]
        lens4 = k[0] | k[1] << 4 | k[2] << 8 | k[3] << 12
        rem = int(hands[0] | hands[1] | hands[2] | hands[3])
        want_top = 0
        for s in range(4):
            ranks = [r for r in range(16) if rem >> (16 * s + r) & 1][::-1][:k[s]]
            for r in ranks:
                want_top |= 1 << (16 * s + r)
        assert int(K._prefix_cards(hands, np.int64(lens4))) == want_top
    if not K.HAS_BMI2:
        return

    @njit(cache=False)
    def bmi2(a, out, sk):
        for i in range(a.shape[0]):
            out[i] = K._owner_code_bmi2(a[i, 0], a[i, 1], a[i, 2])
            lc = K._pext(a[i, 3], a[i, 0])
            sk[i] = K._pdep(lc & (lc >> np.uint64(1)), a[i, 0])

    sk = np.zeros(len(arr), np.uint64)
    bmi2(arr, out, sk)
    assert [int(x) for x in out] == want
    assert [int(x) for x in sk] == [ref_skipped(ln, ip) for ip, _, _, ln in cases]


def test_weights_too_large_for_int64_are_refused() -> None:
    """An objective whose values cannot fit the kernels' 64-bit integers is an error,
    never a wrapped (silently wrong) number."""
    deal = random_deal(1, 52, 3)
    with pytest.raises(BarbuError, match="weights too large"):
        solve(deal, "tournament", "no-queens", leader=0, weights=[10 ** 17, 1, 0, 0],
              maximizers=[0])
    # a large weight that fits is exact: N holds three aces and takes every trick
    aces = parse_deal("N:A.A.A. 2.2.2. 3.3.3. 4.4.4.")
    w = [10 ** 9, 1, 0, 0]
    got = solve(aces, "tournament", "no-tricks", leader=0, weights=w, maximizers=[0])
    game = TrickGame(load_rules("tournament"), "no-tricks", aces.hands, 0)
    assert got == brute_value(game, w, [0]) == -6 * 10 ** 9


def test_custom_stop_cards_with_other_points_match_the_oracle() -> None:
    """A custom contract whose hand stops on some cards while other cards or tricks score
    (spades +1, stop at CK; K♥ -8 and -1 a trick, stop at K♥): the cards and tricks left
    when it stops score for nobody. The bounds assumed someone takes every point: with
    every weight of one sign (1,1,1,1) the solver gave 2 where the oracle gives 0. The
    total of such a contract varies (None)."""
    import tomllib

    from analyzer.rules import parse_rules
    doc = tomllib.loads(load_rules("barbu-32").to_toml())
    doc["variants"]["heart_lead"] = "free"
    doc["contracts"]["spades"] = {"kind": "tricks", "card_points": {"S": 1},
                                  "stop_when_taken": ["CK"]}
    doc["contracts"]["kt"] = {"kind": "tricks", "card_points": {"HK": -8},
                              "trick_points": -1, "stop_when_taken": ["HK"]}
    doc["contracts"]["rav"] = {"kind": "tricks", "ravage": -36, "trick_points": -1}
    r = parse_rules(doc, "custom.toml")
    assert r.total("spades") is None and r.total("kt") is None and r.total("rav") == -44
    rng = np.random.default_rng(7)
    for i in range(60):
        cid = ("spades", "kt")[i % 2]
        deal = random_deal(rng, 32, int(rng.integers(2, 4)))
        g = TrickGame(r, r.contracts[cid], deal.hands, int(rng.integers(4)))
        for _ in range(int(rng.integers(0, 3))):
            if g.over or len(g.hands[g.to_move]) <= 1:
                break
            g.play(g.legal()[int(rng.integers(len(g.legal())))])
        if g.over:
            continue
        g = TrickGame(r, r.contracts[cid], g.hands, g.leader, trick=g.trick, whole_hand=False)
        w = [(1, 1, 1, 1), (1, 2, 3, 4), (-1, -2, -1, -3)][i % 3]
        mx = (int(rng.integers(4)),)
        got = solve(g.hands, r, cid, leader=g.leader, weights=w, maximizers=mx,
                    trick=list(g.trick), whole_hand=False)
        assert got == brute_value(g, w, mx), (i, cid, w, mx)


def test_ravage_city_shares_a_total_that_three_does_not_divide() -> None:
    """Ravage City worth 5 shared by three seats that tie for the most cards of a suit:
    5/3 each, exact (no random case of the oracle sets drew a total that 3 does not
    divide with a three-way tie; a mutation audit's note)."""
    import tomllib

    from analyzer.rules import parse_rules
    doc = tomllib.loads(load_rules("tournament").to_toml())
    doc["contracts"]["rav"] = {"kind": "tricks", "ravage": 5}
    r = parse_rules(doc, "custom.toml")
    hands = parse_deal("N:9.AT.. K.9..J ..7.KQ J.K..A").hands
    g = TrickGame(r, r.contracts["rav"], hands, 3)
    got = [solve(hands, r, "rav", leader=3, weights=[int(p == s) for p in range(4)],
                 maximizers=(s,)) for s in range(4)]
    assert got == [Fraction(5, 3), 0, 0, Fraction(5, 3)]
    assert got == [brute_value(g, [int(p == s) for p in range(4)], (s,)) for s in range(4)]


def test_a_signal_stops_the_compiled_search() -> None:
    """A signal's handler runs while the compiled search runs, not after it: the search
    runs in a thread of its own, and the handler's exception stops it at its next node
    (Ctrl-C used to wait for the search's end: minutes on 52 cards). The table is left
    fit for the next solve."""
    import signal
    import threading
    import traceback

    class _Stop(Exception):
        pass

    def stop(signum, frame):
        raise _Stop()

    old = signal.signal(signal.SIGINT, stop)
    # No Tricks on this deal: 13 s here, most of it in single null-window tests
    deal = parse_deal("N:KT3.K7.A3.AKQT62 Q9.Q852.JT92.853 J72.AJT4.KQ854.4 A8654.963.76.J97")
    timer = threading.Timer(1.0, lambda: signal.pthread_kill(threading.main_thread().ident,
                                                             signal.SIGINT))
    try:
        timer.start()
        with pytest.raises(_Stop) as e:
            # (a table large enough not to grow: a signal during the growth's copy,
            # outside the search, is handled when the copy ends, as any Python code's)
            solve(deal, "tournament", "no-tricks", leader=0, seat=0, tt_bits=22)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    # raised while waiting for the search, which has stopped
    assert "_kernel" in [f.name for f in traceback.extract_tb(e.value.__traceback__)]
    for t in threading.enumerate():  # (a search that has returned ends at once)
        if t.name == "barbu-search":
            t.join(5)
            assert not t.is_alive()
    # the next solves (the pooled table reused) are right
    d = random_deal(3, 52, 4)
    game = TrickGame(load_rules("tournament"), load_rules("tournament").contracts["no-tricks"],
                     d.hands, 0)
    w, mx = objective(seat=0)
    assert solve(d, "tournament", "no-tricks", leader=0, seat=0) == brute_value(game, w, mx)


def test_forced_discards_turn_the_quick_tricks_off() -> None:
    """A contract scored by tricks alone with a forced discard (a rules file's): the
    team's quick tricks let a void partner throw what he likes, but a forced discard can
    take his entry. West, void in spades, must throw his club ace on East's spade ace:
    the side takes 1 trick, not 2 (the quick tricks said 2, above every card's value)."""
    import random
    import tomllib

    from analyzer.rules import parse_rules
    doc = tomllib.loads(load_rules("barbu-32").to_toml())
    doc["variants"]["forced_discard"] = True
    doc["contracts"]["ft"] = {"kind": "tricks", "trick_points": 1,
                              "forced_discard_cards": ["CA"]}
    r = parse_rules(doc, "forced.toml")
    d = parse_deal("N:9.A.J. A...JT Q7...Q .8.9.A")
    game = TrickGame(r, r.contracts["ft"], d.hands, 1)
    assert solve(d, r, "ft", leader=1, side="EW") == brute_value(game, [0, 1, 0, 1],
                                                                 [1, 3]) == 1
    rng = random.Random(8)
    for k in range(30):  # random 3-card positions, partnerships and seats
        d = random_deal(600 + k, 32, 3)
        lead = rng.randrange(4)
        game = TrickGame(r, r.contracts["ft"], d.hands, lead)
        side = rng.choice(("NS", "EW"))
        team = [0, 2] if side == "NS" else [1, 3]
        w = [1 if p in team else 0 for p in range(4)]
        assert solve(d, r, "ft", leader=lead, side=side) == brute_value(game, w, team), k

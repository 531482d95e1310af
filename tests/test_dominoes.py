"""Dominoes solver: exact agreement with the brute-force oracle over the reference engine,
invariants (suit relabelling, seat rotation, principal lines hand out the places table),
the layout notation and the one-line errors.

The unmarked tests run a small sample; ``pytest -m slow`` runs the full oracle set (every
32-card variant on whole deals, every seat and pair bets; 52-card positions in progress).
"""

from __future__ import annotations

import random
from pathlib import Path
from dataclasses import replace
from fractions import Fraction

import pytest

from analyzer.cards import DECK_RANKS, random_deal
from analyzer.dominoes import (PASS, dominoes_first_seat, dominoes_rank_table,
                               format_layout, parse_layout, solve_dominoes,
                               solve_dominoes_all_seats, solve_dominoes_cards)
from analyzer.engine import DominoesGame
from analyzer.errors import BarbuError
from analyzer.rules import Contract, Rules, load_rules
from tests.oracle import brute_card_values, brute_value

ROOT = Path(__file__).resolve().parents[1]
R32 = load_rules("classic-32")
R52 = load_rules("fr-52")


def variants32() -> dict[str, Contract]:
    """Every 32-card Dominoes variant worth telling apart (presets and switches)."""
    classic = R32.contract("dominoes")
    barbu = load_rules("barbu-32").contract("dominoes")
    return {
        "classic-32": classic,                                       # fixed T, replay
        "barbu-32": barbu,                                           # first card, replay
        "named-low": replace(classic, start="named", start_rank=None, ace="low",
                             ace_replay=False,
                             places=tuple(Fraction(x) for x in (45, 20, 5, -5))),
        "named-high-replay-frac": replace(classic, start="named", start_rank=None,
                                          places=(Fraction(15, 2), Fraction(5, 2),
                                                  Fraction(0), Fraction(-10))),
        "first-card-low": replace(barbu, ace="low"),
        "fixed-low-noreplay": replace(classic, ace="low", ace_replay=False,
                                      places=tuple(Fraction(x) for x in (40, 20, 0, -20))),
    }


def variants52() -> dict[str, Contract]:
    fr = R52.contract("dominoes")
    return {
        "fr-52": fr,                                                 # named, high
        "low-replay": replace(fr, ace="low", ace_replay=True),
        "first-card": replace(fr, start="first-card", ace_replay=True),
        "fixed-7-low": replace(fr, start="fixed", start_rank=5, ace="low",
                               places=tuple(Fraction(x) for x in (30, 20, 10, 0))),
    }


def start_for(c: Contract, deck: int, rng: random.Random) -> int | None:
    if c.start == "fixed":
        return c.start_rank
    if c.start == "first-card":
        return None
    return rng.choice(DECK_RANKS[deck])


def position(rules: Rules, c: Contract, seed: int, left: int | None = None) -> DominoesGame:
    """A whole hand (``left=None``) or a random position with ``left`` cards in hands."""
    rng = random.Random(seed)
    deal = random_deal(seed, rules.deck)
    g = DominoesGame(rules, c, deal.hands, rng.randrange(4),
                     start_rank=start_for(c, rules.deck, rng))
    if left is not None:
        while not g.over and sum(len(h) for h in g.hands) > left:
            g.play(rng.choice(g.legal()))
    return g


def kwargs(g: DominoesGame) -> dict:
    return dict(first=g.to_move, start_rank=g.start_rank, layout=g.layout, out=g.out)


def objectives(seed: int) -> list[tuple[list[int], list[int]]]:
    """Every seat alone, plus a pair bet and a side of two."""
    rng = random.Random(seed)
    x, y = rng.sample(range(4), 2)
    out = [([int(i == s) for i in range(4)], [s]) for s in range(4)]
    out.append(([int(i == x) - int(i == y) for i in range(4)], [x]))
    out.append(([int(i in (x, y)) for i in range(4)], [x, y]))
    return out


def check_against_oracle(rules: Rules, c: Contract, g: DominoesGame, seed: int,
                         cards: bool = False) -> None:
    for w, maxi in objectives(seed):
        want = brute_value(g, w, maxi)
        got = solve_dominoes([sorted(h) for h in g.hands], rules, c, weights=w,
                             maximizers=maxi, **kwargs(g))
        assert got == want, (c, g.layout, g.to_move, w, maxi)
        if cards:
            want_cards = brute_card_values(g, w, maxi)
            got_cards = solve_dominoes_cards(g.hands, rules, c, weights=w, maximizers=maxi,
                                             **kwargs(g))
            assert got_cards == want_cards


# ----------------------------------------------------------------------------- oracle
@pytest.mark.parametrize("name", ["classic-32", "barbu-32"])
def test_whole_32_card_deal_matches_oracle(name: str) -> None:
    c = variants32()[name]
    g = position(R32, c, seed=3)
    want = brute_value(g, [1, 0, 0, 0], [0])
    assert solve_dominoes(g.hands, R32, c, seat=0, **kwargs(g)) == want


@pytest.mark.parametrize("name", list(variants32()))
def test_32_card_positions_match_oracle(name: str) -> None:
    c = variants32()[name]
    for seed in range(2):
        g = position(R32, c, seed, left=14)
        check_against_oracle(R32, c, g, seed, cards=seed == 0)


def test_a_run_up_to_the_ace_is_closed_at_that_end() -> None:
    """classic-32 (ace high, an ace replays), clubs on the table up to the ace, W out
    first, E to play. S against N, S maximising: the oracle gives -50 (N second,
    S third at best). Deleting the solver's mark that a run ending at the ace cannot
    grow there gave 0, and no fast test saw it (a mutation audit)."""
    from analyzer.cards import parse_hand
    h = [parse_hand("AQ8..."), parse_hand(".A.7.7"), parse_hand("KJ7..A."), set()]
    layout = "S:9-T H:7-K D:8-K C:8-A"
    w, maxi = [-1, 0, 1, 0], [2]
    g = DominoesGame(R32, "dominoes", h, 1, start_rank=8, layout=parse_layout(layout, 32),
                     out=[3])
    assert brute_value(g, w, maxi) == -50
    assert solve_dominoes(h, R32, "dominoes", first="E", start_rank="T", layout=layout,
                          out="W", weights=w, maximizers=maxi) == -50
    check_against_oracle(R32, R32.contract("dominoes"), g, 0, cards=True)


@pytest.mark.parametrize("name", list(variants52()))
def test_52_card_positions_match_oracle(name: str) -> None:
    c = variants52()[name]
    for seed in range(3):
        g = position(R52, c, 100 + seed, left=13)
        check_against_oracle(R52, c, g, seed, cards=seed == 0)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(variants32()))
def test_whole_32_card_deals_match_oracle_full(name: str) -> None:
    c = variants32()[name]
    for seed in range(4):
        g = position(R32, c, seed)
        check_against_oracle(R32, c, g, seed, cards=seed == 0)


@pytest.mark.parametrize("name", list(variants52()))
def test_52_card_positions_match_oracle_full(name: str) -> None:
    """Twenty positions of 16 cards a variant: a few seconds in all, so in CI (marked slow
    until a mutation audit found a wrong-value mutant that only this set caught)."""
    c = variants52()[name]
    for seed in range(20):
        g = position(R52, c, 200 + seed, left=16)
        if not g.over:
            check_against_oracle(R52, c, g, seed, cards=seed % 5 == 0)


# ------------------------------------------------------------------------- invariants
def relabel(cards, perm):
    return [13 * perm[x // 13] + x % 13 for x in cards]


@pytest.mark.parametrize("rules,name", [(R32, "classic-32"), (R32, "barbu-32"),
                                        (R52, "fr-52"), (R52, "low-replay")])
def test_suit_relabelling_leaves_values_unchanged(rules: Rules, name: str) -> None:
    c = (variants32() if rules.deck == 32 else variants52())[name]
    rng = random.Random(7)
    for seed in range(3):
        g = position(rules, c, 40 + seed, left=rules.deck - 12 if seed else None)
        perm = rng.sample(range(4), 4)
        hands2 = [relabel(h, perm) for h in g.hands]
        layout2 = [None] * 4
        for s in range(4):
            layout2[perm[s]] = g.layout[s]
        for x in range(4):
            v1 = solve_dominoes(g.hands, rules, c, seat=x, **kwargs(g))
            v2 = solve_dominoes(hands2, rules, c, seat=x, first=g.to_move,
                                start_rank=g.start_rank, layout=layout2, out=g.out)
            assert v1 == v2


def test_seat_rotation_leaves_values_unchanged() -> None:
    c = variants52()["fr-52"]
    g = position(R52, c, 5)
    for x in range(4):
        v = solve_dominoes(g.hands, R52, c, seat=x, **kwargs(g))
        for t in (1, 2, 3):
            hands = [g.hands[(s - t) % 4] for s in range(4)]
            assert solve_dominoes(hands, R52, c, seat=(x + t) % 4, first=(g.to_move + t) % 4,
                                  start_rank=g.start_rank) == v


def principal_line(rules: Rules, c: Contract, g: DominoesGame, w, maxi) -> Fraction:
    """Play the solver's best move for every seat to the end; check the value holds."""
    v = solve_dominoes(g.hands, rules, c, weights=w, maximizers=maxi, **kwargs(g))
    g = g.copy()
    while not g.over:
        vals = solve_dominoes_cards(g.hands, rules, c, weights=w, maximizers=maxi,
                                    **kwargs(g))
        assert sorted(vals) == g.legal()
        best = (max if g.to_move in maxi else min)(vals.values())
        assert best == v
        g.play(next(card for card, x in vals.items() if x == best))
    score = g.score()
    assert sorted(score) == sorted(c.places)
    assert sum(wi * si for wi, si in zip(w, score)) == v
    return v


@pytest.mark.parametrize("rules,name", [(R32, "classic-32"), (R32, "barbu-32"),
                                        (R32, "named-low"), (R52, "fr-52"),
                                        (R52, "first-card")])
def test_principal_line_hands_out_the_places_table(rules: Rules, name: str) -> None:
    c = (variants32() if rules.deck == 32 else variants52())[name]
    g = position(rules, c, 11)
    principal_line(rules, c, g, [1, 0, 0, 0], [0])
    principal_line(rules, c, g, [0, 1, -1, 0], [1])


# ------------------------------------------------------------------------------- API
def test_all_seats_and_rank_table() -> None:
    tour = load_rules("fr-52")
    deal = random_deal(21)
    declarer = 2
    first = dominoes_first_seat(tour, declarer)
    table = dominoes_rank_table(deal, tour, "dominoes", declarer=declarer)
    assert [r for r, _ in table] == list(range(13))
    for r, v in table[::4]:
        assert v == solve_dominoes(deal, tour, "dominoes", first=first, start_rank=r,
                                   seat=declarer)
    vals = solve_dominoes_all_seats(deal, tour, "dominoes", first=first, start_rank="7")
    assert set(vals) == {0, 1, 2, 3}
    assert vals[declarer] == dict(table)[5]
    # a seat's guaranteed values can't all be first place
    assert sum(vals.values()) <= sum(tour.contract("dominoes").places)


def _first_card_left(tmp_path: Path) -> Path:
    """classic-32 with first-card Dominoes: the seat on the declarer's left plays the
    first card, which sets the rank."""
    text = (ROOT / "data/rules/classic-32.toml").read_text(encoding="utf-8")
    text = text.replace('start = "fixed"', 'start = "first-card"').replace(
        'start_rank = "T"', "").replace('name = "classic-32"', 'name = "classic-fc"')
    assert 'dominoes_first = "left"' in text and "first-card" in text
    path = tmp_path / "fc.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_rank_table_fixed_and_first_card(tmp_path) -> None:
    deal = random_deal(4, 32)
    classic = dominoes_rank_table(deal, R32, "dominoes", declarer=0)
    assert dominoes_first_seat(R32, 0) == 1   # classic-32: the dealer's left starts
    # the declarer's value (not the first player's), the rank the preset's ten
    assert classic == [(8, solve_dominoes(deal, R32, "dominoes", first=1, start_rank=8,
                                          seat=0))]
    assert dominoes_rank_table(deal, R32, "dominoes", declarer=0, seat=1) == [
        (8, solve_dominoes(deal, R32, "dominoes", first=1, start_rank=8))]
    # first-card with the left seat first: he picks the first card in play, so the
    # declarer names no rank (the table used to list E's ranks, and its best credited
    # the declarer with 100 where E's choice leaves him 0 on seeds 0, 1 and 3)
    fc = load_rules(_first_card_left(tmp_path))
    for seed in (0, 1, 3):
        d = random_deal(seed, 32)
        assert dominoes_rank_table(d, fc, "dominoes", declarer=0) == [
            (None, solve_dominoes(d, fc, "dominoes", first=1, seat=0))]
    barbu = load_rules("barbu-32")
    table = dominoes_rank_table(deal, barbu, "dominoes", declarer=0)
    assert [r for r, _ in table] == sorted({x % 13 for x in deal.hands[0]})
    free = solve_dominoes(deal, barbu, "dominoes", first=0, seat=0)
    assert free == max(v for _, v in table)


def test_first_card_options_only_when_the_declarer_plays_first(tmp_path) -> None:
    """``first-card`` Dominoes is one option per rank only when the declarer plays the
    first card; when the seat on his left does (``dominoes_first = "left"``, or a
    ``--leader``), the declarer names nothing: one option, rank None, that seat choosing
    the first card in play. (It used to list that seat's ranks and credit the declarer
    with the best of them, in the table of every option and in stats.)"""
    from analyzer import stats as S
    from analyzer.options import contract_options
    barbu = load_rules("barbu-32")
    c = barbu.contract("dominoes")
    deal = random_deal(4, 32)
    held = sorted({x % 13 for x in deal.hands[0]})
    assert contract_options(barbu, c, deal.hands, 0, 0) == [(None, k) for k in held]
    assert contract_options(barbu, c, deal.hands, 1, 0) == [(None, None)]
    assert contract_options(barbu, c, deal.hands, 0) == [(None, None)]  # no declarer
    path = _first_card_left(tmp_path)
    out = tmp_path / "s"
    S.run_stats(out, deals=1, seed=3, rules=str(path), contracts="dominoes", workers=1,
                brackets="none")
    v = S.load_dataset(out)["values"]
    assert v.height == 4 and v["rank"].null_count() == 4
    d = S.deal_for(3, 0, 32)
    for decl, num, den in v.select("declarer", "value_num", "value_den").rows():
        x = "NESW".index(decl)
        assert Fraction(num, den) == solve_dominoes(d, load_rules(path), "dominoes",
                                                    first=(x + 1) % 4, seat=x)


def test_cards_lists_pass_when_nothing_is_playable() -> None:
    c = variants52()["fr-52"]
    for seed in range(40):
        g = position(R52, c, 300 + seed, left=30)
        if not g.over and g.legal() == [PASS]:
            vals = solve_dominoes_cards(g.hands, R52, c, seat=g.to_move, **kwargs(g))
            assert list(vals) == [PASS]
            return
    pytest.skip("no pass position in the sample")


def test_over_position_scores_the_places() -> None:
    c = variants32()["classic-32"]
    g = position(R32, c, 2, left=0)
    while not g.over:
        g.play(g.legal()[0])
    assert g.over
    v = solve_dominoes(g.hands, R32, c, seat=g.out[0], **kwargs(g))
    assert v == 100
    assert solve_dominoes_cards(g.hands, R32, c, seat=0, **kwargs(g)) == {}
    # every card on the table, every seat out in the order given: the places, whoever
    # is named to play
    for first in range(4):
        assert [solve_dominoes([set()] * 4, R32, c, first=first, layout="S:x H:x D:x C:x",
                               out="ENSW", seat=x) for x in range(4)] == [50, 100, 0, 0]


def test_repeat_solves_agree() -> None:
    """The transposition table is reused between solves: stale entries must not leak."""
    d1, d2 = random_deal(1), random_deal(2)
    a = [solve_dominoes(d, R52, "dominoes", first=0, start_rank=r, seat=0)
         for d in (d1, d2) for r in (3, 9)]
    b = [solve_dominoes(d, R52, "dominoes", first=0, start_rank=r, seat=0)
         for d in (d2, d1) for r in (9, 3)]
    assert a == [b[3], b[2], b[1], b[0]]


# ---------------------------------------------------------------------------- layout
def test_layout_round_trip() -> None:
    for text in ("S:5-9 H:- D:7 C:2-A", "S:- H:- D:- C:-", "S:T H:9-K D:- C:7-A"):
        deck = 32 if "5" not in text and "2" not in text else 52
        assert format_layout(parse_layout(text, deck)) == text
    assert parse_layout("", 52) == (None, None, None, None)
    assert parse_layout("-", 32) == (None, None, None, None)
    assert parse_layout("C:x, h:10", 32) == (None, (8, 8), None, (5, 12))
    assert parse_layout("C:x", 32, ace="low") == (None, None, None, (12, 11))
    assert parse_layout("S:A-3", 52, ace="low") == ((12, 1), None, None, None)
    assert format_layout(None) == "S:- H:- D:- C:-"


@pytest.mark.parametrize("text,deck,ace,msg", [
    ("S:5-9 S:7", 52, "high", "suit S given twice"),
    ("X:5", 52, "high", "not a suit"),
    ("S5-9", 52, "high", "expected SUIT:RUN"),
    ("S:9-5", 52, "high", "low end first"),
    ("S:A-3", 52, "high", "low end first"),
    ("S:5", 32, "high", "not in the 32-card deck"),
    ("S:5-Z", 52, "high", "not a rank"),
    ("S:5-7-9", 52, "high", "expected -, x"),
])
def test_layout_errors(text: str, deck: int, ace: str, msg: str) -> None:
    with pytest.raises(BarbuError, match=msg) as e:
        parse_layout(text, deck, ace=ace)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("name", ["fr-52", "low-replay"])
def test_position_from_layout_text(name: str) -> None:
    """The layout as text reads the way the contract orders its ranks: with the ace low,
    a run from the ace is written A-x (it is refused as "low end first" read ace high)."""
    c = variants52()[name]
    g = next(g for seed in range(8, 40) if (g := position(R52, c, seed, left=20))
             and (c.ace == "high" or any(run and run[0] == 12 for run in g.layout)))
    text = format_layout(g.layout)
    assert solve_dominoes(g.hands, R52, c, first=g.to_move, start_rank=g.start_rank,
                          layout=text, out=g.out, seat=1) == \
        solve_dominoes(g.hands, R52, c, seat=1, **kwargs(g))


def test_first_card_start_inferred_from_layout() -> None:
    c = variants52()["first-card"]
    g = position(R52, c, 9, left=51)          # one card down: it fixed the starting rank
    kw = kwargs(g)
    del kw["start_rank"]
    assert solve_dominoes(g.hands, R52, c, seat=0, **kw) == \
        solve_dominoes(g.hands, R52, c, seat=0, **kwargs(g))
    hands = [set(h) for h in g.hands]
    s = next(i for i, run in enumerate(g.layout) if run is not None)
    r = g.layout[s][0]
    if r < 12:                                 # a two-card run: which was first is unknown
        holder = next(h for h in hands if 13 * s + r + 1 in h)
        holder.discard(13 * s + r + 1)
        layout = [None] * 4
        layout[s] = (r, r + 1)
        with pytest.raises(BarbuError, match="needs the starting rank"):
            solve_dominoes(hands, R52, c, first=0, layout=layout, seat=0)


def test_every_suit_open_needs_no_starting_rank():
    """Once every suit is open no card opens one, so the starting rank cannot matter: a
    layout whose four runs share several ranks is solved without one, with the value the
    true rank gives; runs that share no rank are refused as such."""
    c = variants52()["first-card"]
    done = 0
    for seed in range(200):
        g = position(R52, c, seed, left=24)
        if g.over or any(run is None for run in g.layout):
            continue
        kw = kwargs(g)
        del kw["start_rank"]
        order = g.order
        shared = set(order)
        for lo, hi in g.layout:
            shared &= set(order[g.pos[lo]:g.pos[hi] + 1])
        if len(shared) < 2:
            continue
        assert solve_dominoes(g.hands, R52, c, seat=0, **kw) == \
            solve_dominoes(g.hands, R52, c, seat=0, **kwargs(g))
        done += 1
        if done == 3:
            break
    assert done == 3
    hands = [set(h) for h in g.hands]
    s0, s1 = 0, 1
    lay = list(g.layout)
    # move suit 1's run off the shared ranks: put its cards back into a hand
    lo0, hi0 = lay[s0]
    lo1, hi1 = lay[s1]
    hands[0] |= {13 * s1 + r for r in order[g.pos[lo1]:g.pos[hi1] + 1]}
    hands[0] |= {13 * s0 + r for r in order[g.pos[lo0]:g.pos[hi0] + 1]}
    lay[s0] = (order[0], order[0])
    lay[s1] = (order[-1], order[-1])
    hands[0] -= {13 * s0 + order[0], 13 * s1 + order[-1]}
    with pytest.raises(BarbuError, match="share no rank"):
        solve_dominoes(hands, R52, c, first=0, layout=lay, seat=0)


# ---------------------------------------------------------------------------- errors
@pytest.mark.parametrize("rules,kw,msg", [
    ("classic-32", dict(start_rank="9"), "always starts from T"),
    ("fr-52", dict(), "name the starting rank"),
    ("barbu-32", dict(start_rank="5"), "not in the 32-card deck"),
    ("fr-52", dict(start_rank="Z"), "bad starting rank .Z."),
    ("fr-52", dict(start_rank="5", layout="S:5-9"), "both on the table and in a hand"),
    ("fr-52", dict(start_rank="5", layout="S:6-9"), "does not contain the starting rank"),
    ("barbu-32", dict(start_rank="K"), "plays first and holds no K"),
    ("fr-52", dict(start_rank="5", seat="Q"), "bad seat"),
    ("fr-52", dict(start_rank="5", weights=[1, 0, 0, 0]), "maximizing seats"),
    ("fr-52", dict(start_rank="5", seat=0, weights=[1, 0, 0, 0], maximizers=[0]),
     "not both"),
    ("fr-52", dict(start_rank="5", out=[0]), "still holds cards"),
    ("fr-52", dict(start_rank="5", out="NN"), "'NN': a seat is named twice"),
])
def test_errors_are_one_line(rules: str, kw: dict, msg: str) -> None:
    r = load_rules(rules)
    deal = random_deal(1, r.deck)
    with pytest.raises(BarbuError, match=msg) as e:
        solve_dominoes(deal, r, "dominoes", first=0, **kw)
    assert "\n" not in str(e.value)


def test_seats_out_need_their_order() -> None:
    """Two or more seats out: their places depend on the order they went out in, so it
    must be given, never guessed (it used to be taken as seat order, N E S W); a seat
    out cannot be the one to play."""
    from analyzer.cards import parse_hand
    r = load_rules("tournament")
    # N holds the spade ace, S the king; E and W are out; spades 2-Q on the table
    hands = [parse_hand("A..."), set(), parse_hand("K..."), set()]
    kw = dict(first=0, start_rank="7", layout="S:2-Q H:x D:x C:x")
    for out in ((), "W", "E"):
        with pytest.raises(BarbuError, match=r"2 seats are already out \(EW\)"):
            solve_dominoes_all_seats(hands, r, "dominoes", out=out, **kw)
    with pytest.raises(BarbuError, match="S is listed as out but still holds cards"):
        solve_dominoes_all_seats(hands, r, "dominoes", out="S", **kw)
    it = dict(kw, layout=iter(parse_layout(kw["layout"], 52)))  # (an iterator: read once)
    assert solve_dominoes_all_seats(hands, r, "dominoes", out="WE", **it)[3] == 45
    we = solve_dominoes_all_seats(hands, r, "dominoes", out="WE", **kw)
    ew = solve_dominoes_all_seats(hands, r, "dominoes", out="EW", **kw)
    assert (we[3], we[1]) == (ew[1], ew[3]) == (45, 20)
    # one seat out: its place is known
    hands1 = [parse_hand("A..."), set(), parse_hand("K..."), parse_hand("Q...")]
    one = solve_dominoes_all_seats(hands1, r, "dominoes", first=0, start_rank="7",
                                   layout="S:2-J H:x D:x C:x")
    assert one[1] == 45
    with pytest.raises(BarbuError, match="E is already out .no cards. and cannot play now"):
        solve_dominoes(hands1, r, "dominoes", first=1, start_rank="7",
                       layout="S:2-J H:x D:x C:x", seat=0)


def test_not_a_dominoes_contract() -> None:
    with pytest.raises(BarbuError, match="not a dominoes contract"):
        solve_dominoes(random_deal(1), R52, "no-tricks", first=0, start_rank=3)


def test_the_table_starts_afresh_before_its_generation_stamp_overflows() -> None:
    """Each solve stamps the kept table's keys with a new generation (bits 40 up of an
    int64 key); after about four million solves in one process (a long stats run) the
    table is cleared and the stamps start again, the values unchanged."""
    from analyzer import dominoes as D
    g = position(R32, R32.contract("dominoes"), 5, left=12)
    want = solve_dominoes([sorted(h) for h in g.hands], R32, "dominoes", seat=0, **kwargs(g))
    D._TABLE.gen = (1 << 22) - 2
    for _ in range(3):
        assert solve_dominoes([sorted(h) for h in g.hands], R32, "dominoes", seat=0,
                              **kwargs(g)) == want
    assert D._TABLE.gen == 2

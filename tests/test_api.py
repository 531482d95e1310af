"""The Python API refuses, in one line (BarbuError), what it cannot read exactly: booleans
and floats where a seat, suit, rank or card index is meant, text where a collection is
meant, a card listed twice. Each case below was once accepted and answered as something
else (seat=True solved East, weights="1000" solved (1, 0, 0, 0), 5.9 was rank 7...)."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from analyzer.advise import advise
from analyzer.cards import Seat, card_name, make_card, parse_deal, random_deal
from analyzer.dominoes import dominoes_first_seat, solve_dominoes
from analyzer.errors import BarbuError
from analyzer.rules import load_rules, save_rules
from analyzer.sampler import Sampler, parse_constraints
from analyzer.samples import random_deals
from analyzer.solve import solve, solve_from_value

R = load_rules("tournament")
D4 = parse_deal("N:AK.2.. QJ.3.. ..AK.2 ..QJ.3")
DOM = parse_deal("N:2.2.. A.A.. ..2.2 ..A.A")
LAY = "S:3-K H:3-K D:3-K C:3-K"


def _solve(**kw):
    return solve(D4, R, kw.pop("contract", "no-tricks"), **{"leader": "N", **kw})


def _dom(**kw):
    return solve_dominoes(DOM, R, "dominoes", **{"first": "N", "start_rank": "7",
                                                  "layout": LAY, **kw})


BAD = [
    (lambda: _solve(seat=True), "bad seat True"),
    (lambda: _solve(seat=1.5), "bad seat 1.5"),
    (lambda: _solve(seat=np.float64(1.0)), "bad seat"),
    (lambda: _solve(seat="N", leader=True), "bad leader True"),
    (lambda: _solve(side=(True, 2)), "bad seat in side True"),
    (lambda: _solve(side=(0, 2.7)), "bad seat in side 2.7"),
    (lambda: _solve(side=5), "bad side 5"),
    (lambda: _solve(weights=[1, 0, 0, 0], maximizers=7), "bad maximizers 7"),
    (lambda: _solve(weights=[1, 0, 0, 0], maximizers=(0.5,)), "bad seat in maximizers"),
    (lambda: _solve(weights="1000", maximizers=(0,)), "bad weights '1000'"),
    (lambda: _solve(weights=[None, 0, 0, 0], maximizers=(0,)), "bad weight None"),
    (lambda: _solve(weights=[float("nan"), 0, 0, 0], maximizers=(0,)), "finite"),
    (lambda: _solve(seat="N", contract="trumps", trump=True), "bad trump suit True"),
    (lambda: _solve(seat="N", whole_hand="false"), "bad whole_hand 'false'"),
    (lambda: _solve(seat="N", tt_bits="abc"), "bad tt_bits 'abc'"),
    (lambda: _solve(seat="N", tt_bits=4.7), "bad tt_bits 4.7"),
    (lambda: _solve(seat="N", tt_bits="12"), "bad tt_bits '12'"),
    (lambda: _solve(seat="N", tt_bits=28), "bad tt_bits 28: expected a whole number from 4"),
    (lambda: _solve(seat="N", tt_bits=True), "bad tt_bits True"),
    (lambda: _solve(seat="N", node_limit=0), "bad node_limit 0: expected a positive"),
    (lambda: random_deals(0, 1), "--count must be at least 1, got 0"),
    (lambda: solve_from_value(D4, R, "no-tricks", [[Fraction(1, 2), 0, 0, 0]], leader="N",
                              seat="N"), "whole numbers"),
    (lambda: _dom(seat=True), "bad seat True"),
    (lambda: _dom(first=1.5), "bad seat to play first 1.5"),
    (lambda: _dom(start_rank=5.9), "bad starting rank 5.9"),
    (lambda: _dom(start_rank=True), "bad starting rank True"),
    (lambda: _dom(seat=0, out=[True]), "bad seat already out True"),
    (lambda: _dom(weights="1000", maximizers=(0,)), "bad weights"),
    (lambda: _dom(layout=[(3,), None, None, None]), "bad layout"),
    (lambda: _dom(layout=[5, None, None, None]), "bad layout"),
    (lambda: _dom(layout=[(1, 11.0), None, None, None]), "bad layout"),
    (lambda: _dom(layout={"S": (3, 7)}), "bad layout {'S': .3, 7.}"),
    (lambda: dominoes_first_seat(R, 4), "bad declarer 4"),
    (lambda: Sampler("KQJ7..AK9.8", "N", 32, known={"E": [52]}), "bad card 52"),
    (lambda: Sampler("KQJ7..AK9.8", "N", 32, known={"E": [1.5]}), "bad card 1.5"),
    (lambda: Sampler("KQJ7..AK9.8", "N", 32.0), "bad deck 32.0"),
    (lambda: parse_constraints({"lengths": {"S": {"C": "02"}}}), "bad length range '02'"),
    (lambda: parse_constraints({"lengths": {"S": {"C": [0.5, 2.7]}}}), "bad length range"),
    (lambda: advise("KQJ7..AK9.8", rules="barbu-32", samples=1.5), "bad --samples 1.5"),
    (lambda: advise("KQJ7..AK9.8", rules="barbu-32", samples=2, race="no"), "bad race"),
    (lambda: advise("KQJ7..AK9.8", rules="barbu-32", samples=2, max_samples=0),
     "bad max_samples 0"),
    (lambda: advise([60, 61, 62, 63, 64, 65, 66, 66], rules="barbu-32", samples=2),
     "bad card 60"),
    (lambda: _dom(weights=[Fraction(10 ** 15, 999983), 0, 0, 0], maximizers=(0,)),
     "too large"),
    (lambda: card_name(-1), "bad card -1"),
    (lambda: card_name(True), "bad card True"),
    (lambda: make_card(0, 13), "bad rank 13"),
    (lambda: make_card(4, 0), "bad suit 4"),
]


@pytest.mark.parametrize("call,msg", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_refused_in_one_line(call, msg):
    with pytest.raises(BarbuError, match=msg) as e:
        call()
    assert "\n" not in str(e.value)


def test_a_card_listed_twice_is_refused_not_merged():
    d = random_deal(5, 32)
    hands = [sorted(h) for h in d.hands]
    with pytest.raises(BarbuError, match="listed twice in N's hand"):
        solve([hands[0] + [hands[0][0]]] + hands[1:], "barbu-32", "no-king", leader=0, seat=0)
    with pytest.raises(BarbuError, match="listed twice in the hand"):
        advise(hands[0][:7] + [hands[0][0]], rules="barbu-32", samples=2)
    with pytest.raises(BarbuError, match="listed twice"):
        Sampler(hands[0] + [hands[0][0]], "N", 32)


def test_a_preset_name_with_a_newline_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("BARBU_HOME", str(tmp_path / "home"))
    f = tmp_path / "m.toml"
    f.write_text(load_rules("barbu-32").to_toml().replace('name = "barbu-32"', 'name = "m"'))
    with pytest.raises(BarbuError, match="bad preset name"):
        save_rules("mine\n", f)


def test_equivalent_spellings_give_the_same_answer():
    """Seats as text, enum or numpy integers; weights as text fractions, floats, ints."""
    want = _solve(seat="E")
    for s in (1, Seat.E, np.int64(1), np.int8(1), "east", " e "):
        assert _solve(seat=s) == want
    assert _solve(weights=["1/2", 0, 0, 0], maximizers="N") == \
        _solve(weights=[0.5, 0, 0, 0], maximizers=[np.int64(0)]) == _solve(seat="N") / 2
    d = advise("KQJ7..AK9.8", rules="barbu-32", samples=2, seed=np.int64(3),
               workers=np.int64(1), remaining="no-king", doubling="none")
    assert d["seed"] == 3 and json.loads(json.dumps(d))["seed"] == 3


def test_pbn_text_is_a_deal():
    assert solve("N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", R, "no-tricks", leader="N", seat="E") == \
        _solve(seat="E")


def test_a_trick_in_progress_as_text_none_or_with_empty_items():
    """trick=None raised TypeError; trick="SA,SQ" was split into characters; --trick ","
    solved as if no trick; a card named twice read as a card missing from a hand."""
    from analyzer.solve import solve
    whole = "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"
    assert solve(whole, "tournament", "no-tricks", leader="N", seat="N",
                 trick=None) == solve(whole, "tournament", "no-tricks", leader="N", seat="N")
    endgame = "N:K.2.. QJ.3.. ..AK.2 ..QJ.3"  # N has led the SA
    assert solve(endgame, "tournament", "no-tricks", leader="N", seat="N",
                 trick="SA") == solve(endgame, "tournament", "no-tricks", leader="N",
                                      seat="N", trick=["SA"])
    for bad in (",", "SA,", "SA,,SJ"):
        with pytest.raises(BarbuError, match="empty card between commas"):
            solve(endgame, "tournament", "no-tricks", leader="N", seat="N", trick=bad)
    from analyzer.jobs import solve_job
    with pytest.raises(BarbuError, match="holds a card twice"):
        solve_job({"deal": "N:AK.8.. QJ.9.. ..AK.8 ..QJ.9", "rules": "barbu-32",
                   "contract": "no-tricks", "trick": "SA,SQ,SA"})


def test_a_fixed_dominoes_start_names_its_rank():
    """classic-32 always starts Dominoes at the ten: the answer said rank null unless
    --rank was given (the table of every option said T)."""
    from analyzer.jobs import solve_job
    res = solve_job({"deal": "N:T.J.8.KQJT8 7.AQT9.AJ.A K98.87.97.9 AQJ.K.KQT.7",
                     "rules": "classic-32", "contract": "dominoes"})
    assert res["rank"] == "T"


def test_cards_mid_trick_are_for_the_player_to_move():
    """--cards with a trick in progress: the values of the legal cards of the player to
    move (E, after N's S3), best first for him (an opponent of N in No Tricks: N's
    value low first)."""
    from analyzer.jobs import solve_job
    r = solve_job({"deal": "N:3.A.. K2... ...Q4 ...J5", "contract": "no-tricks",
                   "cards": True, "trick": "S3", "seat": "N"})
    assert r["to_move"] == "E"
    assert [(c["card"], c["value"]) for c in r["cards"]] == [("S2", -4), ("SK", 0)]

"""A line of perfect play (:func:`analyzer.solve.solve_line`, ``barbu solve --play``):
every card of it keeps the position's value, by the brute-force oracle on random small
positions of every preset, contract, variant and objective."""

from __future__ import annotations

import re
import threading
from fractions import Fraction

import pytest

from analyzer import solve as S
from analyzer.cards import card_name
from analyzer.errors import BarbuError, Bounds, SearchStopped
from analyzer.jobs import batch_worker, parse_batch_line, solve_job
from analyzer.rules import load_rules
from reports.text import render_solve
from tests.oracle import brute_value
from tests.test_solve import random_case

DEAL32 = "N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"


def _line(case: dict, **kw):
    g = case["game"]
    return S.solve_line(g.hands, case["rules"], case["contract"], trump=case["trump"],
                        leader=g.leader, weights=case["weights"],
                        maximizers=case["maximizers"], trick=list(g.trick),
                        whole_hand=g.whole_hand, **kw)


def _history_matters(case: dict) -> bool:
    """Ravage City, or a whole-hand bonus that can still be won (a whole hand; for the
    all-cards bonus, every scoring card still in play)."""
    r, g = case["rules"], case["game"]
    c = r.contracts[case["contract"]]
    in_play = set().union(*g.hands) | set(g.trick)
    return c.ravage is not None or g.whole_hand and (
        c.all_tricks_score is not None
        or c.all_cards_score is not None and set(r.card_points(c)) <= in_play)


def _check_lines(seeds: range) -> tuple[int, int]:
    lines = history = 0
    for seed in seeds:
        case = random_case(seed, n=2 + seed % 3)
        g = case["game"]
        w, mx = case["weights"], case["maximizers"]
        value, cards, complete = _line(case)
        assert complete and value == brute_value(g, w, mx), seed
        h = g.copy()
        for k, x in enumerate(cards):
            assert x in h.legal(), (seed, k)
            h.play(x)
            # the position after each card of the line still has the value (the oracle
            # plays from the line's start: bonuses and Ravage counts see every trick)
            assert brute_value(h, w, mx) == value, (seed, k, card_name(x))
        assert h.over, seed
        lines += 1
        history += _history_matters(case)
    return lines, history


def test_every_card_of_the_line_keeps_the_value() -> None:
    lines, history = _check_lines(range(40_000, 40_100))
    assert lines == 100 and history >= 3, (lines, history)


@pytest.mark.slow
def test_every_card_of_the_line_keeps_the_value_full() -> None:
    lines, history = _check_lines(range(40_000, 42_000))
    assert lines == 2000 and history >= 80, (lines, history)  # (96 at this writing)


def test_a_line_from_a_whole_deal_scores_its_value() -> None:
    r = load_rules("barbu-32")
    for cid in ("no-king", "no-tricks", "no-queens", "no-hearts", "no-last"):
        v = S.solve(DEAL32, r, cid, leader=0, seat=0)
        got, cards, complete = S.solve_line(DEAL32, r, cid, leader=0, seat=0)
        assert got == v and complete and cards, cid
    # No King ends when the king of hearts falls: the line ends there too
    _, cards, _ = S.solve_line(DEAL32, r, "no-king", leader=0, seat=0)
    assert len(cards) % 4 == 0 and len(cards) < 32
    assert "HK" in [card_name(x) for x in cards[-4:]]


def test_random_hands_whose_points_depend_on_the_tricks_taken() -> None:
    """Random whole hands of 3-4 cards a hand in the contracts with whole-hand bonuses
    (classic-32) and Ravage City (tournament; endgames too, where its counts start at
    the position), random objectives: every position of the line against the brute
    force from the line's start."""
    import numpy as np

    from analyzer.cards import random_deal
    from analyzer.engine import TrickGame
    contracts = [("classic-32", "no-tricks"), ("classic-32", "no-hearts"),
                 ("classic-32", "no-queens"), ("classic-32", "salad"),
                 ("tournament", "ravage-city")]
    bonus = 0
    for seed in range(80):
        rng = np.random.default_rng(90_000 + seed)
        name, cid = contracts[seed % len(contracts)]
        r = load_rules(name)
        n = 3 + (seed % 6 == 0)
        if cid in ("no-hearts", "no-queens"):
            # every scoring card in play, so that the all-cards bonus can be won
            sc = sorted(r.card_points(r.contracts[cid]))
            rest = [k for k in range(52) if k % 13 >= 13 - r.deck // 4 and k not in sc]
            cards = sc + [int(k) for k in rng.choice(rest, 4 * n - len(sc), replace=False)]
            cards = [int(k) for k in rng.permutation(cards)]
            hands = [set(cards[n * q:n * q + n]) for q in range(4)]
        else:
            hands = [set(h) for h in random_deal(rng, r.deck, n).hands]
        lead = int(rng.integers(4))
        x, y = (int(v) for v in rng.choice(4, 2, replace=False))
        kind = seed % 3
        w = [Fraction(p == x) - Fraction(kind == 1 and p == y) for p in range(4)]
        mx = (x, y) if kind == 2 else (x,)
        if kind == 2:
            w = [Fraction(p in (x, y)) for p in range(4)]
        whole = cid != "ravage-city" or seed % 2 == 0  # (Ravage counts in endgames too)
        g = TrickGame(r, cid, hands, lead, whole_hand=whole)
        want = brute_value(g, w, mx)
        v, line, complete = S.solve_line(hands, r, cid, leader=lead, weights=w,
                                         maximizers=mx, whole_hand=whole)
        assert v == want and complete, (seed, cid)
        for c in line:
            g.play(c)
            assert brute_value(g, w, mx) == want, (seed, cid, card_name(c))
        assert g.over
        bonus += any(b is not None and b in g.score() for b in (
            r.contracts[cid].all_tricks_score, r.contracts[cid].all_cards_score))
    assert bonus >= 5, bonus  # (lines that end in a bonus: its state carried to the end)


def test_a_line_carries_the_bonuses_and_ravage_counts_of_its_tricks() -> None:
    """Whole hands where the points depend on the tricks already taken: classic-32's
    capot and all-hearts bonuses, Ravage City. Each position of the line is checked
    against the brute force over the whole hand (which sees every trick taken)."""
    c32 = load_rules("classic-32")
    t = load_rules("tournament")
    cases = [(c32, "no-tricks", "N:KQ.7.. J9.8.. ..AK7. ..QJ8."),
             (c32, "no-hearts", "N:A.KQ.. KQ.A.. ..AK.A ..QJ.K"),
             (c32, "salad", "N:KQ.7.. J9.8.. ..AK7. ..QJ8."),
             (t, "ravage-city", "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3")]
    from analyzer.engine import TrickGame
    from analyzer.cards import parse_hands
    for r, cid, deal in cases:
        for seat in range(4):
            hands = parse_hands(deal, r.deck)[0]
            g = TrickGame(r, cid, hands, 0, whole_hand=True)
            w = [Fraction(p == seat) for p in range(4)]
            want = brute_value(g, w, (seat,))
            v, cards, complete = S.solve_line(deal, r, cid, leader=0, seat=seat,
                                              whole_hand=True)
            assert v == want and complete, (cid, seat)
            for x in cards:
                g.play(x)
                assert brute_value(g, w, (seat,)) == want, (cid, seat, card_name(x))


def test_a_stop_gives_the_bounds_or_the_cards_found_so_far(
        monkeypatch: pytest.MonkeyPatch) -> None:
    r = load_rules("barbu-32")
    asked = threading.Event()
    asked.set()  # (before the value: its bounds, no line)
    v, cards, complete = S.solve_line(DEAL32, r, "no-queens", leader=0, seat=0, stop=asked)
    assert isinstance(v, Bounds) and v.low <= -4 <= v.high and cards == [] and not complete
    res = solve_job({"deal": DEAL32, "rules": "barbu-32", "contract": "no-queens",
                     "play": True}, stop=asked)
    assert res["play"] == [] and res["play_complete"] is False and res["interrupted"]
    assert render_solve(res).endswith(
        "no line of play: the search was cut short before its first card")
    plain = S._Problem.keeping
    calls = []

    def keeping(self, value, cards):
        calls.append(1)
        if len(calls) == 3:
            raise SearchStopped("search stopped: time limit reached",
                                Bounds(Fraction(-8), Fraction(0)), "time")
        return plain(self, value, cards)
    monkeypatch.setattr(S._Problem, "keeping", keeping)
    v, cards, complete = S.solve_line(DEAL32, r, "no-queens", leader=0, seat=0)
    assert v == -4 and not complete and 2 <= len(cards) < 32
    calls.clear()
    res = solve_job({"deal": DEAL32, "rules": "barbu-32", "contract": "no-queens",
                     "play": True, "time_limit": 60})
    assert res["value"] == -4 and res["play_complete"] is False and res["timed_out"]
    assert res["play"][-1]["winner"] is None or len(res["play"][-1]["cards"]) == 4
    text = render_solve(res)
    assert "cut short:" in text and "raw points so far" in text
    assert "time limit 60 s (reached: the line of play is cut short)" in text


def test_a_node_limit_names_what_it_stopped() -> None:
    """A node limit raises, as in :func:`solve`, naming the value or the card whose test
    it stopped (a limit applies to each search: the value's, then each position's)."""
    r = load_rules("tournament")
    deal = "N:AK72.Q5.A963.KJ4 QJ5.AT942.K7.Q85 T84.K763.QJ4.A92 963.J8.T852.T763"
    said = []
    for k in range(8, 20):
        try:
            S.solve_line(deal, r, "trumps", trump="S", leader=0, seat=0, node_limit=2 ** k,
                         tt_bits=18)
        except SearchStopped as e:
            said.append(str(e))
    assert any("reached (the value lies between" in m for m in said), said
    assert any(re.search(r"reached \(the value after [SHDC][2-9TJQKA] lies", m)
               for m in said), said


def test_the_job_shape_and_text() -> None:
    res = solve_job({"deal": "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", "contract": "no-tricks",
                     "trick": "SA,SQ", "play": True})
    assert res["value"] == -4 and res["play_complete"] is True
    assert res["play"] == [
        {"leader": "N", "cards": ["SA", "SQ", "DK", "DJ"], "winner": "N"},
        {"leader": "N", "cards": ["SK", "SJ", "DA", "DQ"], "winner": "N"},
        {"leader": "N", "cards": ["H2", "H3", "C2", "C3"], "winner": "E"}]
    assert res["play_points"] == {"N": -4, "E": -2, "S": 0, "W": 0}
    text = render_solve(res)
    assert "a line of perfect play (every card keeps the value; others may too):" in text
    assert "1      N       SA SQ DK DJ  N" in text and "raw points along it: N -4  E -2" in text
    for extra, msg in (({"cards": True}, "drop --cards"), ({"all_seats": True},
                                                          "drop --all-seats"),
                       ({"bet": "E"}, "drop --bet"), ({"contract": None}, "name the --contract"),
                       ({"play": "yes"}, "bad play 'yes'")):
        with pytest.raises(BarbuError, match=msg):
            solve_job({"deal": "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", "contract": "no-tricks",
                       "play": True, **extra})
    # a batch job: "line" is the job's line number there, "play" the line of play
    job = parse_batch_line('{"deal": "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", "play": true}',
                           {"contract": "no-tricks"})
    out = batch_worker((7, job))
    assert out["line"] == 7 and out["value"] == -4 and out["play_complete"] is True
    assert [t["winner"] for t in out["play"]] == ["N", "N", "E"]


def test_a_dominoes_line_keeps_the_value_at_every_move() -> None:
    """Dominoes (``solve_dominoes_line``): random positions of every preset's Dominoes
    (ace replay, first-card start, fixed and named ranks), every objective; after each
    move of the line the brute force gives the same value, and the line ends the hand."""
    from analyzer.dominoes import solve_dominoes_line
    from tests.test_dominoes import kwargs, objectives, position
    done = 0
    for seed in range(24):
        r = load_rules(["tournament", "fr-52", "classic-32", "barbu-32"][seed % 4])
        c = next(x for x in r.contracts.values() if x.is_dominoes)
        g = position(r, c, 70_000 + seed, left=10 + seed % 3)
        if g.over:
            continue
        for w, mx in objectives(seed)[seed % 3::3]:
            want = brute_value(g, w, mx)
            v, moves = solve_dominoes_line([sorted(h) for h in g.hands], r, c, weights=w,
                                           maximizers=mx, **kwargs(g))
            assert v == want, seed
            h = g.copy()
            for p, m in moves:
                assert h.to_move == p and m in h.legal(), (seed, p, m)
                h.play(m)
                assert brute_value(h, w, mx) == want, (seed, p, m)
            assert h.over
            done += 1
    assert done >= 40, done
    res = solve_job({"deal": "N:AK72.Q5.A963.KJ4 QJ5.AT942.K7.Q85 T84.K763.QJ4.A92 "
                     "963.J8.T852.T763", "contract": "dominoes", "rank": "7",
                     "play": True})
    assert res["play"][0] == {"seat": "N", "card": "S7"} and res["play_complete"]
    assert sorted(res["play_points"].values()) == sorted(
        load_rules("tournament").contracts["dominoes"].places)
    assert "N S7, E D7" in render_solve(res)


def test_a_line_searches_on_the_table_its_last_position_left(monkeypatch) -> None:
    """Each position of a line searches on the table the one before it left
    (``_carry_table``): the same line as with a fresh table at each position, on whole
    32-card deals and 52-card endgames of the contracts without whole-hand bonuses
    (Ravage City's counts are keyed), and the table is carried there; with a bonus still
    in play it is not."""
    import numpy as np

    from analyzer.cards import random_deal
    carried = []
    real = S._carry_table

    def spy(prev, pb):
        real(prev, pb)
        carried.append(pb.token == prev.token)
    cases = []
    for seed in range(10):
        rng = np.random.default_rng(70_000 + seed)
        name, cid = [("barbu-32", "no-tricks"), ("barbu-32", "no-queens"),
                     ("barbu-32", "no-last"), ("tournament", "ravage-city"),
                     ("tournament", "no-hearts")][seed % 5]
        r = load_rules(name)
        n = r.tricks_per_hand if r.deck == 32 else 6
        hands = [set(h) for h in random_deal(rng, r.deck, n).hands]
        cases.append((r, cid, hands, int(rng.integers(4)), int(rng.integers(4))))
    for r, cid, hands, lead, seat in cases:
        monkeypatch.setattr(S, "_carry_table", spy)
        carried.clear()
        got = S.solve_line(hands, r, cid, leader=lead, seat=seat)
        assert got[2] and carried and all(carried), (r.name, cid)
        monkeypatch.setattr(S, "_carry_table", lambda prev, pb: None)
        assert S.solve_line(hands, r, cid, leader=lead, seat=seat) == got, (r.name, cid)
    # classic-32's No Tricks gives a bonus to whoever takes every trick: while one seat
    # has taken them all so far, the bonus is still in play and no table is carried
    monkeypatch.setattr(S, "_carry_table", spy)
    carried.clear()
    r = load_rules("classic-32")
    S.solve_line(DEAL32, r, "no-tricks", leader=0, seat=0)
    assert carried and not carried[0]

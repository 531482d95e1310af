"""A review of a play (:func:`analyzer.solve.review_line`,
:func:`analyzer.dominoes.review_dominoes_line`, ``barbu solve --review``): the value after
each card actually played, against the brute-force oracle on random small positions and
random plays of every preset, contract, variant and objective."""

from __future__ import annotations

import threading
from fractions import Fraction

import numpy as np
import pytest

from analyzer import solve as S
from analyzer.cards import as_cards, card_name
from analyzer.errors import BarbuError, Bounds, SearchStopped
from analyzer.jobs import batch_worker, parse_batch_line, solve_job
from analyzer.rules import load_rules
from reports.text import render_solve
from tests.oracle import brute_value
from tests.test_solve import random_case

DEAL32 = "N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"
EXAMPLE = "N:AK72.Q5.A963.KJ4 QJ5.AT942.K7.Q85 T84.K763.QJ4.A92 963.J8.T852.T763"


def _random_play(g, rng, best_first: float) -> list[int]:
    """Cards from ``g`` on, to the end or (a third of the time) part of the way: a random
    legal card, or with chance ``best_first`` the first legal one (plays that keep the
    value now and then, so that unchanged values get tested too)."""
    h = g.copy()
    stop = int(rng.integers(1, 40)) if rng.random() < 1 / 3 else 1 << 30
    cards = []
    while not h.over and len(cards) < stop:
        legal = sorted(h.legal())
        x = legal[0] if rng.random() < best_first else legal[int(rng.integers(len(legal)))]
        h.play(x)
        cards.append(x)
    return cards


def _check(g, w, mx, value, entries, cards) -> int:
    """Every value of the review against the brute force; returns how many changed."""
    assert value == brute_value(g, w, mx)
    assert [x for x, _, _ in entries] == cards
    h = g.copy()
    cur, changed = value, 0
    for x, after, instead in entries:
        up = h.to_move in mx
        before = h.copy()
        h.play(x)
        assert after == brute_value(h, w, mx), card_name(x)
        # a maximiser's card can only lower the value, a minimiser's only raise it
        assert (after <= cur) if up else (after >= cur)
        if after == cur:
            assert instead is None
        else:
            changed += 1
            assert instead in before.legal() and instead == min(
                y for y in before.legal() if _after(before, y, w, mx) == cur)
        cur = after
    return changed


def _after(g, x, w, mx) -> Fraction:
    h = g.copy()
    h.play(x)
    return brute_value(h, w, mx)


def _check_reviews(seeds: range, sizes: int) -> tuple[int, int]:
    """Random positions of 2 to ``sizes`` + 1 cards a hand (the brute force takes seconds
    on four)."""
    reviews = changed = 0
    for seed in seeds:
        case = random_case(seed, n=2 + seed % sizes)
        g = case["game"]
        w, mx = case["weights"], case["maximizers"]
        cards = _random_play(g, np.random.default_rng(seed), 0.3)
        value, entries, complete = S.review_line(
            g.hands, case["rules"], case["contract"], cards, trump=case["trump"],
            leader=g.leader, weights=w, maximizers=mx, trick=list(g.trick),
            whole_hand=g.whole_hand)
        assert complete, seed
        changed += _check(g, w, mx, value, entries, cards) > 0
        reviews += 1
    return reviews, changed


def test_each_value_of_a_review_is_the_brute_forces() -> None:
    reviews, changed = _check_reviews(range(50_000, 50_100), 2)
    assert reviews == 100 and changed >= 15, changed  # (20 at this writing)


@pytest.mark.slow
def test_each_value_of_a_review_is_the_brute_forces_full() -> None:
    reviews, changed = _check_reviews(range(50_000, 51_000), 3)
    assert reviews == 1000 and changed >= 300, changed


def test_a_review_of_hands_whose_points_depend_on_the_tricks_taken() -> None:
    """Whole hands with classic-32's whole-hand bonuses and Ravage City (endgames too,
    its counts from the position), random plays: the brute force from the review's start
    sees every trick taken."""
    from analyzer.cards import random_deal
    from analyzer.engine import TrickGame
    contracts = [("classic-32", "no-tricks"), ("classic-32", "no-hearts"),
                 ("classic-32", "salad"), ("tournament", "ravage-city")]
    changed = 0
    for seed in range(32):
        rng = np.random.default_rng(91_000 + seed)
        name, cid = contracts[seed % len(contracts)]
        r = load_rules(name)
        hands = [set(h) for h in random_deal(rng, r.deck, 3).hands]
        lead, x = int(rng.integers(4)), int(rng.integers(4))
        w, mx = [Fraction(p == x) for p in range(4)], (x,)
        whole = cid != "ravage-city" or seed % 2 == 0
        g = TrickGame(r, cid, hands, lead, whole_hand=whole)
        cards = _random_play(g, rng, 0.5)
        value, entries, complete = S.review_line(hands, r, cid, cards, leader=lead,
                                                 weights=w, maximizers=mx,
                                                 whole_hand=whole)
        assert complete
        changed += _check(g, w, mx, value, entries, cards) > 0
    assert changed >= 8, changed


def test_the_perfect_line_changes_nothing() -> None:
    r = load_rules("barbu-32")
    for cid in ("no-tricks", "no-queens", "no-last"):
        v, line, _ = S.solve_line(DEAL32, r, cid, leader=0, seat=1)
        got, entries, complete = S.review_line(DEAL32, r, cid, line, leader=0, seat=1)
        assert got == v and complete and len(entries) == len(line)
        assert all(a == v and i is None for _, a, i in entries), cid


def test_a_bad_play_is_refused_before_any_search(monkeypatch: pytest.MonkeyPatch) -> None:
    r = load_rules("barbu-32")
    monkeypatch.setattr(S._Problem, "run", lambda *a, **k: pytest.fail("searched"))
    with pytest.raises(BarbuError, match=r"^card 3 of the play: illegal card HJ by S: "):
        S.review_line(DEAL32, r, "no-tricks", as_cards("SK,S9,HJ", "play"), leader=0,
                      seat=0)
    with pytest.raises(BarbuError, match=r"card 5 of the play \(S2\): the hand is over "
                                         r"after 4 cards \(every card has been played\)$"):
        S.review_line("N:A... K... Q... J...", "tournament", "no-tricks",
                      as_cards("SA,SK,SQ,SJ,S2", "play"), leader=0, seat=0)


def test_a_stop_or_a_limit_gives_what_was_found(monkeypatch: pytest.MonkeyPatch) -> None:
    r = load_rules("barbu-32")
    line = S.solve_line(DEAL32, r, "no-queens", leader=0, seat=0)[1]
    asked = threading.Event()
    asked.set()  # before the value: its bounds, no entries
    v, entries, complete = S.review_line(DEAL32, r, "no-queens", line, leader=0, seat=0,
                                         stop=asked)
    assert isinstance(v, Bounds) and entries == [] and not complete
    res = solve_job({"deal": DEAL32, "rules": "barbu-32", "contract": "no-queens",
                     "review": [card_name(x) for x in line]}, stop=asked)
    assert res["review"] == [] and res["review_complete"] is False
    assert "no review: the search was cut short before the first card" in render_solve(res)
    # a stop during the review: the entries found by then; a node limit: named
    plain = S._Problem.run
    for reason in ("time", "nodes"):
        calls = []

        def run(self, only=-1, proved=None):
            calls.append(1)
            if len(calls) == 4:
                raise SearchStopped("search stopped", Bounds(Fraction(-8), Fraction(0)),
                                    reason)
            return plain(self, only, proved)
        monkeypatch.setattr(S._Problem, "run", run)
        try:
            v, entries, complete = S.review_line(DEAL32, r, "no-queens", line, leader=0,
                                                 seat=0)
        except SearchStopped as e:
            assert reason == "nodes" and "the value after" in str(e)
        else:
            assert reason == "time" and v == -4 and not complete
            assert 2 <= len(entries) < len(line)
            calls.clear()
            res = solve_job({"deal": DEAL32, "rules": "barbu-32", "contract": "no-queens",
                             "review": [card_name(x) for x in line], "time_limit": 60})
            assert res["value"] == -4 and res["review_complete"] is False
            assert res["timed_out"] and 2 <= len(res["review"]) < len(line)
            text = render_solve(res)
            assert "time limit 60 s (reached: the review is cut short)" in text
            assert "the play reviewed (cut short): guaranteed value of seat N" in text
            assert "every card was as good as perfect play" not in text


def test_the_job_shape_text_and_refusals() -> None:
    res = solve_job({"deal": EXAMPLE, "contract": "no-queens",
                     "review": "S2,S5,S4,S3,SJ,S8,S6,S7"})
    assert res["value"] == -18 and res["review_complete"] is True
    rv = res["review"]
    assert [e["trick"] for e in rv] == [1] * 4 + [2] * 4
    assert [e["seat"] for e in rv] == list("NESWESWN")
    assert [(e["card"], e["change"]) for e in rv if e["change"]] == [("SJ", 6), ("S7", -6)]
    assert rv[4]["value"] == -12 and rv[7]["value"] == -18
    # no queen fell in those two tricks: nobody has scored yet
    assert res["review_points"] == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert all((e["instead"] is None) == (e["change"] == 0) for e in rv)
    text = render_solve(res)
    assert "2      E       SJ* S8 S6 S7*          -18" in text
    assert "  trick 2, E SJ: -18 -> -12 (+6 for seat N; " in text
    assert "in all: -6 from seat N's cards, +6 from the others'; each change:" in text
    three = solve_job({"deal": EXAMPLE, "contract": "no-queens",
                       "review": "S2,S5,S4,S3 / SJ,S8,S6,S7 / SQ,ST,S9,SK"})
    assert three["review_points"] == {"N": -6, "E": 0, "S": 0, "W": 0}
    assert "raw points taken along it: N -6  E 0  S 0  W 0" in render_solve(three)
    # "/" may mark the tricks
    assert solve_job({"deal": EXAMPLE, "contract": "no-queens",
                      "review": "S2 S5 S4 S3 / SJ S8 S6 S7"})["review"] == rv
    # from a trick in progress: its first row shows the cards played before the review
    res = solve_job({"deal": "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", "contract": "no-tricks",
                     "trick": "SA,SQ", "review": "DK,DJ,SK"})
    assert [(e["trick"], e["seat"]) for e in res["review"]] == [(1, "S"), (1, "W"), (2, "N")]
    assert "1      N       (SA SQ) DK DJ" in render_solve(res)
    for extra, msg in (({"cards": True}, "drop --cards"),
                       ({"bet": "E"}, "drop --bet"), ({"play": True}, "drop --play"),
                       ({"contract": None}, "name the --contract"),
                       ({"review": ""}, "names no card"),
                       ({"review": ["S2", ""]}, r"bad --review \['S2', ''\]: an empty card$"),
                       ({"review": 3}, "bad review 3"),
                       ({"review": "S2,S9"}, "card 2 of the play: illegal card S9 by E")):
        with pytest.raises(BarbuError, match=msg):
            solve_job({"deal": EXAMPLE, "contract": "no-queens", "review": "S2", **extra})
    job = parse_batch_line(f'{{"deal": "{EXAMPLE}", "review": ["S2", "S5"]}}',
                           {"contract": "no-king"})
    out = batch_worker((3, job))
    assert out["line"] == 3 and [e["card"] for e in out["review"]] == ["S2", "S5"]


def test_a_dominoes_review_against_the_brute_force() -> None:
    from analyzer.dominoes import review_dominoes_line
    from tests.test_dominoes import kwargs, objectives, position
    done = changed = 0
    for seed in range(24):
        r = load_rules(["tournament", "fr-52", "classic-32", "barbu-32"][seed % 4])
        c = next(x for x in r.contracts.values() if x.is_dominoes)
        g = position(r, c, 71_000 + seed, left=10 + seed % 3)
        if g.over:
            continue
        rng = np.random.default_rng(seed)
        moves = _random_play(g, rng, 0.3)
        for w, mx in objectives(seed)[seed % 3::3]:
            v, entries = review_dominoes_line([sorted(h) for h in g.hands], r, c, moves,
                                              weights=w, maximizers=mx, **kwargs(g))
            assert v == brute_value(g, w, mx)
            h, cur = g.copy(), v
            for (p, m, after, instead), want in zip(entries, moves):
                assert p == h.to_move and m == want
                before = h.copy()
                h.play(m)
                assert after == brute_value(h, w, mx), (seed, m)
                if after == cur:
                    assert instead is None
                else:
                    changed += 1
                    assert _after(before, instead, w, mx) == cur
                cur = after
            done += 1
    assert done >= 40 and changed >= 10, (done, changed)
    res = solve_job({"deal": EXAMPLE, "contract": "dominoes", "rank": "7",
                     "review": "S7,D7,S8,S6,D6,S5,H7,D5"})
    assert [e["card"] for e in res["review"]][:2] == ["S7", "D7"]
    assert "N S7, E D7, S S8" in render_solve(res)
    with pytest.raises(BarbuError, match=r"move 3 of the play: pass is not a legal move "
                                         r"for S \(legal: S8 H7\)"):
        solve_job({"deal": EXAMPLE, "contract": "dominoes", "rank": "7",
                   "review": "S7,D7,pass"})
    with pytest.raises(BarbuError, match="--review needs the starting rank"):
        solve_job({"deal": EXAMPLE, "contract": "dominoes", "review": "S7"})


def test_each_card_judged_by_its_players_own_value() -> None:
    """``--review --all-seats``: each card's entry is its player's own guaranteed value
    (the brute force, that seat against the other three) before and after it, on
    random small positions; the same as that seat's own review; the values are each
    seat's."""
    from analyzer.cards import format_hand
    from analyzer.engine import TrickGame
    done = lowered = 0
    for seed in range(60_000, 60_030):
        case = random_case(seed, n=2 + seed % 2)
        r, cid = case["rules"], case["contract"]
        # (the position as the command line reads it: a whole hand while no trick is done)
        g = TrickGame(r, cid, case["game"].hands, case["game"].leader, trump=case["trump"],
                      trick=case["game"].trick)
        cards = _random_play(g, np.random.default_rng(seed), 0.2)
        if not cards:
            continue
        deal = "N:" + " ".join(format_hand(h) for h in g.hands)
        job = {"deal": deal, "rules": r, "contract": cid, "leader": "NESW"[g.leader],
               "trick": [card_name(x) for x in g.trick],
               "trump": None if case["trump"] is None else "SHDC"[case["trump"]],
               "review": [card_name(x) for x in cards], "all_seats": True}
        res = solve_job(job)
        assert res["review_complete"] and len(res["review"]) == len(cards)
        h = g.copy()
        for p in range(4):
            w = [Fraction(q == p) for q in range(4)]
            assert res["values"]["NESW"[p]] == brute_value(h, w, (p,))
        for e, x in zip(res["review"], cards):
            p = h.to_move
            w = [Fraction(q == p) for q in range(4)]
            was = brute_value(h, w, (p,))
            h.play(x)
            now = brute_value(h, w, (p,))
            assert e["seat"] == "NESW"[p] and e["card"] == card_name(x)
            assert Fraction(str(e["value"])) == now
            assert Fraction(str(e["change"])) == now - was <= 0
            lowered += now < was
        done += 1
    assert done >= 25 and lowered >= 10, (done, lowered)
    # the same entries as each player's own review (a whole 32-card hand, a random play)
    from analyzer.cards import parse_deal
    r = load_rules("barbu-32")
    g = TrickGame(r, "no-queens", parse_deal(DEAL32, 32).hands, 0)
    play = [card_name(x) for x in _random_play(g, np.random.default_rng(5), 0.0)]
    job = {"deal": DEAL32, "rules": "barbu-32", "contract": "no-queens", "review": play}
    allr = solve_job({**job, "all_seats": True})
    own = {x: solve_job({**job, "seat": x}) for x in "NESW"}
    assert allr["values"] == {x: own[x]["value"] for x in "NESW"}
    assert allr["review"] == [own[e["seat"]]["review"][k]
                              for k, e in enumerate(allr["review"])]
    assert len(allr["review"]) == len(play) and allr["review_complete"]
    changed = [e for e in allr["review"] if e["change"]]
    assert changed, "the seeded play should hold a mistake"
    text = render_solve(allr)
    assert "each card judged by its player's own guaranteed value" in text
    assert "what each seat's cards cost him: " in text
    e = changed[0]
    assert (f"  trick {e['trick']}, {e['seat']} {e['card']}: {e['value'] - e['change']} -> "
            f"{e['value']} ({e['change']} for {e['seat']}; {e['instead']} kept") in text

"""The trick solver against the brute-force oracle on random *custom* contracts.

The oracle tests of test_solve.py draw the presets' contracts (with their variant switches
flipped); a rules file may combine what no preset does: trick points with forced discards,
mixed-sign and fractional card points, last-trick penalties, cards that end the hand,
whole-hand bonuses, Ravage City shares, trumps with must-beat and overtrump duties. Each
case here is such a contract, drawn at random, on a small position (a whole hand, a later
trick or mid-trick) with a random objective. A bound that holds for every preset but not
for some combination (quick tricks with forced discards, once) shows up here.

The unmarked test runs a sample; ``pytest -m slow`` runs 1,000 cases.
"""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction

import numpy as np
import pytest

from analyzer.cards import card_name, random_deal
from analyzer.engine import TrickGame
from analyzer.errors import BarbuError
from analyzer.rules import load_rules, parse_rules
from analyzer.solve import solve, solve_cards
from tests.oracle import brute_card_values, brute_value

BASES = {32: tomllib.loads(load_rules("barbu-32").to_toml()),
         52: tomllib.loads(load_rules("tournament").to_toml())}
POINTS = (1, -1, 2, -2, 3, -5, 2.5, -2.5, 0.5, -0.25, 10, -20, 1.5)


def _pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def _contract(rng, cards: list[int], n: int) -> dict:
    """A random tricks contract whose special cards are among ``cards``: a quarter of
    them scored by tricks alone, every trick the same (where the quick-trick bounds
    apply), the rest anything."""
    c: dict = {"kind": "tricks"}
    trumps = rng.random() < 0.3
    if trumps:
        c["trumps"] = True
        c["trump_lead_must_beat"] = bool(rng.random() < 0.5)
        c["must_overtrump"] = bool(rng.random() < 0.5)
    if rng.random() < 0.25:
        c["trick_points"] = _pick(rng, (1, -1, 2.5, -5, 3))
        if rng.random() < 0.6:
            c["forced_discard_cards"] = sorted({card_name(_pick(rng, cards))
                                                for _ in range(int(rng.integers(1, 4)))})
        if rng.random() < 0.3:
            c["heart_lead_ban"] = True
        return c
    if rng.random() < 0.5:
        c["trick_points"] = _pick(rng, POINTS)
    if rng.random() < 0.35:
        c["last_tricks"] = [_pick(rng, POINTS) for _ in range(int(rng.integers(1, n + 1)))]
    if rng.random() < 0.6:
        pts = {}
        for _ in range(int(rng.integers(1, 4))):
            kind = rng.integers(3)
            key = ("SHDC"[rng.integers(4)] if kind == 0 else "AKQJT"[rng.integers(5)]
                   if kind == 1 else card_name(_pick(rng, cards)))
            pts[key] = _pick(rng, POINTS)
        c["card_points"] = pts
        if rng.random() < 0.25:
            c["stop_when_taken"] = sorted({card_name(_pick(rng, cards))
                                           for _ in range(int(rng.integers(1, 3)))})
    if rng.random() < 0.4:
        c["forced_discard_cards"] = sorted({card_name(_pick(rng, cards))
                                            for _ in range(int(rng.integers(1, 3)))})
    if rng.random() < 0.3:
        c["heart_lead_ban"] = True
    extra = rng.random()
    if extra < 0.15:
        c["all_tricks_score"] = 4 * _pick(rng, POINTS)
    elif extra < 0.25 and c.get("card_points"):
        # (an all-cards bonus goes with card points alone: the solver refuses the rest)
        c.pop("trick_points", None)
        c.pop("last_tricks", None)
        c["all_cards_score"] = 4 * _pick(rng, POINTS)
    elif extra < 0.35 and not trumps:
        c["ravage"] = _pick(rng, (-36, 36, -9, 5))
    if not (c.get("trick_points") or any(c.get("last_tricks", ()))
            or any(c.get("card_points", {}).values()) or "ravage" in c):
        c["trick_points"] = -1
    return c


def custom_case(seed: int, sizes=(2, 3, 3, 4)) -> dict | None:
    """A random custom contract, position and objective (None: a combination the rules
    refuse, or a position already over)."""
    rng = np.random.default_rng(seed)
    deck = 32 if rng.random() < 0.6 else 52
    n = int(_pick(rng, sizes))
    deal = random_deal(rng, deck, n)
    cards = sorted(set().union(*deal.hands))
    doc = json.loads(json.dumps(BASES[deck]))  # (a deep copy)
    v = doc["variants"]
    v["heart_lead"] = _pick(rng, ("always", "first-trick", "free"))
    v["forced_discard"] = bool(rng.integers(2))
    v["void_must_ruff"] = bool(rng.integers(2))
    c = _contract(rng, cards, n)
    doc["contracts"]["x"] = c
    try:
        rules = parse_rules(doc, "custom.toml")
        trump = int(rng.integers(4)) if c.get("trumps") else None
        whole = bool(rng.random() < 0.4)
        game = TrickGame(rules, "x", deal.hands, int(rng.integers(4)), trump=trump,
                         whole_hand=whole)
        for _ in range(int(rng.integers(0, 5)) if rng.random() < 0.5 else 0):
            if game.over or len(game.hands[game.to_move]) <= 1:
                break
            legal = game.legal()
            game.play(legal[int(rng.integers(len(legal)))])
        if game.over:
            return None
        game = TrickGame(rules, "x", game.hands, game.leader, trump=trump,
                         trick=game.trick, whole_hand=whole and game.tricks_done == 0)
    except BarbuError:
        return None
    if game.over:
        return None
    kind = rng.integers(5)
    if kind == 0:  # a seat's guaranteed value
        s = int(rng.integers(4))
        w, mx = [1 if p == s else 0 for p in range(4)], (s,)
    elif kind == 1:  # a bet
        x, y = (int(p) for p in rng.choice(4, 2, replace=False))
        w, mx = [1 if p == x else -1 if p == y else 0 for p in range(4)], (x,)
    elif kind == 2:  # a partnership, or two neighbours together
        mx = _pick(rng, ((0, 2), (1, 3), (0, 1), (1, 2)))
        w = [1 if p in mx else 0 for p in range(4)]
    elif kind == 3:  # a net against the field
        s = int(rng.integers(4))
        w, mx = [1 if p == s else -Fraction(1, 3) for p in range(4)], (s,)
    else:  # any linear objective
        w = [Fraction(int(rng.integers(-2, 3)), int(rng.integers(1, 3))) for _ in range(4)]
        mx = tuple(p for p in range(4) if rng.random() < 0.5) or (0,)
    return dict(rules=rules, contract=c, trump=trump, game=game, weights=w, maximizers=mx)


def _check(seed: int, sizes=(2, 3, 3, 4)) -> bool:
    case = custom_case(seed, sizes)
    if case is None:
        return False
    g = case["game"]
    kw = dict(trump=case["trump"], leader=g.leader, weights=case["weights"],
              maximizers=case["maximizers"], trick=list(g.trick), whole_hand=g.whole_hand)
    if seed % 8 == 0:
        got = solve_cards(g.hands, case["rules"], "x", **kw)
        want = brute_card_values(g, case["weights"], case["maximizers"])
    else:
        got = solve(g.hands, case["rules"], "x", **kw)
        want = brute_value(g, case["weights"], case["maximizers"])
    assert got == want, (seed, case["contract"], case["rules"].variants, case["trump"],
                         [sorted(card_name(x) for x in h) for h in g.hands],
                         [card_name(x) for x in g.trick], g.leader, g.whole_hand,
                         case["weights"], case["maximizers"], got, want)
    return True


def test_custom_contracts_sample() -> None:
    done = sum(_check(seed) for seed in range(120))
    assert done >= 80  # (the rest: combinations the rules refuse, positions over)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_custom_contracts_full(block: int) -> None:
    """1,000 drawn cases (some refused by the rules), up to 4 cards a hand."""
    done = sum(_check(seed) for seed in range(1000 + block * 100, 1000 + block * 100 + 100))
    assert done >= 60

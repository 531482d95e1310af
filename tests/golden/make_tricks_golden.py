"""Write ``tests/golden/tricks.json``: values of larger trick positions (6-8 cards a hand).

The brute-force oracle stops at about 5 cards a hand; these positions are bigger, so that
search shortcuts which only act deep in a position (bounds, table entries that match many
positions) are checked too. Their values come from the solver at a version that agreed
with the oracle on 2,200 positions and with DDS: a regression check, not an independent
oracle. Any later change to the search must give the same values
(``tests/test_solve.py::test_golden_sample``, every 10th, and ``test_golden_full``,
marked slow).

    python tests/golden/make_tricks_golden.py [--n 600]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from analyzer.cards import random_deal  # noqa: E402
from analyzer.engine import TrickGame  # noqa: E402
from analyzer.rules import load_rules  # noqa: E402
from analyzer.solve import objective, solve  # noqa: E402
from tests.test_solve import PRESETS, _variant  # noqa: E402


def golden_case(seed: int) -> dict:
    """A random 6-8-card position and objective, as plain JSON data."""
    rng = np.random.default_rng(seed)
    rules = _variant(load_rules(PRESETS[seed % len(PRESETS)]), rng)
    cids = [c for c, x in rules.contracts.items() if x.is_tricks]
    cid = cids[rng.integers(len(cids))]
    c = rules.contracts[cid]
    trump = int(rng.integers(4)) if c.trumps else None
    n = int(rng.integers(6, 9))
    deal = random_deal(rng, rules.deck, n)
    leader = int(rng.integers(4))
    played = int(rng.integers(0, 4)) if rng.random() < 0.6 else 0
    whole = played == 0 and bool(rng.random() < 0.5)
    game = TrickGame(rules, c, deal.hands, leader, trump=trump, whole_hand=whole)
    for _ in range(played):
        if game.over:
            break
        legal = game.legal()
        game.play(legal[rng.integers(len(legal))])
    kind = int(rng.integers(3))
    if kind == 0:
        w, mx = objective(seat=int(rng.integers(4)))
    elif kind == 1:
        x, y = (int(v) for v in rng.choice(4, 2, replace=False))
        w, mx = tuple(1 if p == x else -1 if p == y else 0 for p in range(4)), (x,)
    else:
        w, mx = objective(side=["NS", "EW"][int(rng.integers(2))])
    return dict(seed=seed, variants={k: rules.variants[k] for k in
                                     ("heart_lead", "forced_discard", "void_must_ruff")},
                rules=rules.name, contract=cid, trump=trump, leader=game.leader,
                hands=[sorted(int(x) for x in h) for h in game.hands],
                trick=[int(x) for x in game.trick], weights=[str(x) for x in w],
                maximizers=list(mx), whole_hand=whole)


def solve_golden(case: dict):
    """The solver's value of a golden case."""
    base = load_rules(case["rules"])
    rules = dataclasses.replace(base, variants={**base.variants, **case["variants"]})
    return solve(case["hands"], rules, case["contract"], trump=case["trump"],
                 leader=case["leader"], weights=case["weights"],
                 maximizers=case["maximizers"], trick=case["trick"],
                 whole_hand=case["whole_hand"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=600)  # (the stored file holds seeds 0-599)
    args = ap.parse_args()
    out = []
    for seed in range(args.n):
        case = golden_case(seed)
        v = solve_golden(case)
        case["value"] = str(v)
        out.append(case)
        print(seed, case["rules"], case["contract"], v, flush=True)
    path = Path(__file__).with_name("tricks.json")
    path.write_text("[\n" + ",\n".join(json.dumps(c) for c in out) + "\n]\n")


if __name__ == "__main__":
    main()

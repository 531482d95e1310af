"""How ``--samples auto`` and ``--race`` stop, with the advisor's betting test against the
Student t test it replaced -- a measurement, not a test.

    python benchmarks/auto_tests.py --hands 40 --deals 400          # 8 minutes here, 25 under load
    python benchmarks/auto_tests.py --synthetic-only

1. *Real hands*: ``--hands`` seeded random barbu-32 hands (seat N, every contract, the
   run-of-seven values) are advised on ``--deals`` deals each, keeping each option's score
   on every deal. Auto and race are then replayed on prefixes of those columns, with
   each test: the t test (auto: each of the 20 looks at 5%/20, Bonferroni; race: 99.9%
   a look, as shipped until the fifty-second session) and the betting test
   (``analyzer.advise._separated``: 95%; race at ``RACE_ALPHA``). Printed: deals at
   which auto stops (mean, median, how many reach the cap), how often it picks another
   option than the full run's best, and race's share of the solves a fixed run makes.
2. *Synthetic*: two options of equal mean where one is a constant and the other jumps
   rarely (the shapes that defeated the t test); how often auto calls one clear within
   400 deals (the stated level: 5%).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer import advise as A  # noqa: E402
from analyzer.rules import load_rules  # noqa: E402

CAP, STEP = 400, 20


def _t_separated(a, b, alpha: float) -> bool:
    """The replaced rule: paired Student t, mean minus t(alpha) stderr above 0; a
    constant gap in ``a``'s favour beats."""
    m, se = A._paired(a, b)
    if se is None:
        return False
    if se == 0:
        return m > 0
    return m - A.t_quantile(alpha, min(len(a), len(b)) - 1) * se > 0


def collect(hands: int, deals: int) -> tuple[object, list]:
    """Per hand: the option columns (score per deal) and each option's score range."""
    r = load_rules("barbu-32")
    seen: dict[str, object] = {}
    columns = A._columns

    def keep(values, opts, future):
        cols = columns(values, opts, future)
        seen.update(cols=cols, ranges=[tuple(float(x + A._exact(future.get(i, 0.0)))
                                             for x in A.option_range(r, o, seen["hand"]))
                                       for i, o in enumerate(opts)])
        return cols

    A._columns = keep
    rng = random.Random(7)
    deck = [13 * s + k for s in range(4) for k in range(13 - r.deck // 4, 13)]
    out = []
    try:
        for h in range(hands):
            hand = rng.sample(deck, r.deck // 4)
            seen["hand"] = hand
            A.advise(hand, rules=r, samples=deals, seed=h, workers=2, doubling="none")
            out.append((seen["cols"], seen["ranges"]))
            print(f"hand {h + 1}/{hands}", file=sys.stderr, flush=True)
    finally:
        A._columns = columns
    return r, out


def replay_auto(cols, ranges, test) -> tuple[int, int]:
    n_all = len(cols[0])
    for n in range(STEP, n_all, STEP):
        cs = [c[:n] for c in cols]
        order = A._order(cs)
        _, other = A._rivals(cs, order, range(len(cs)))
        if other is None or test(cs[order[0]], cs[other], ranges[order[0]], ranges[other]):
            return n, order[0]
    return n_all, A._order(cols)[0]


def replay_race(cols, ranges, test, step: int) -> tuple[int, bool]:
    n_all = len(cols[0])
    act = list(range(len(cols)))
    solved = {i: n_all for i in act}
    for n in range(step, n_all, step):
        cs = [c[:n] for c in cols]
        lead = A._order(cs, act)[0]
        keep = []
        for i in act:
            if i != lead and test(cs[lead], cs[i], ranges[lead], ranges[i]):
                solved[i] = n
            else:
                keep.append(i)
        act = keep
    return sum(solved.values()), A._order(cols)[0] in act


def real(hands: int, deals: int) -> None:
    _, data = collect(hands, deals)
    looks = len(range(STEP, CAP, STEP)) + 1
    auto = {"t test (5%/20 a look)": lambda a, b, ra, rb: _t_separated(a, b, 0.05 / looks),
            "betting test (95%)": lambda a, b, ra, rb: A._separated(a, b, ra, rb)}
    print(f"| auto, {hands} barbu-32 hands | mean deals | median | at the cap | "
          "another option than the full run's |\n|---|---|---|---|---|")
    for name, test in auto.items():
        res = [(replay_auto(c, rg, test), A._order(c)[0]) for c, rg in data]
        stops = [s for (s, _), _ in res]
        print(f"| {name} | {statistics.mean(stops):.1f} | {statistics.median(stops)} | "
              f"{sum(s >= deals for s in stops)} | {sum(p != b for (_, p), b in res)} |")
    race = {"t test (99.9% a look)": lambda a, b, ra, rb: _t_separated(a, b, 0.001),
            f"betting test ({100 * (1 - A.RACE_ALPHA):g}%)":
                lambda a, b, ra, rb: A._separated(a, b, ra, rb, A.RACE_ALPHA)}
    full = sum(len(c) * len(c[0]) for c, _ in data)
    print(f"\n| race, {hands} barbu-32 hands | batch | solves (share of a fixed run's) | "
          "best option dropped |\n|---|---|---|---|")
    for step in (20, 10):
        for name, test in race.items():
            res = [replay_race(c, rg, test, step) for c, rg in data]
            n = sum(s for s, _ in res)
            print(f"| {name} | {step} | {n} ({n / full:.3f}) | "
                  f"{sum(not ok for _, ok in res)} |")


def synthetic(trials: int) -> None:
    F = Fraction
    rng = random.Random(1)
    looks = len(range(STEP, CAP, STEP)) + 1
    shapes = {  # (option a, option b, score range of each), equal means
        "+15 one deal in ten vs 1.5 (range -10..40)":
            (lambda g: F(15) if g.random() < 0.1 else F(0), lambda g: F(3, 2), (-10.0, 40.0)),
        "-8 one deal in twenty vs -0.4 (range -8..0)":
            (lambda g: F(-8) if g.random() < 0.05 else F(0), lambda g: F(-2, 5), (-8.0, 0.0)),
        "+15 one in ten vs +30 one in twenty (range -10..40)":
            (lambda g: F(15) if g.random() < 0.1 else F(0),
             lambda g: F(30) if g.random() < 0.05 else F(0), (-10.0, 40.0)),
    }
    tests = {"t test (5%/20 a look)": lambda a, b, r: _t_separated(a, b, 0.05 / looks),
             "betting test (95%)": lambda a, b, r: A._separated(a, b, r, r)}
    print(f"\n| equal options, {trials} runs of up to {CAP} deals | "
          + " | ".join(tests) + " |\n|---|" + "---|" * len(tests))
    for label, (ga, gb, rg) in shapes.items():
        wrong = dict.fromkeys(tests, 0)
        for _ in range(trials):
            a = [ga(rng) for _ in range(CAP)]
            b = [gb(rng) for _ in range(CAP)]
            for name, test in tests.items():
                for n in range(STEP, CAP, STEP):
                    x, y = a[:n], b[:n]
                    if x == y:
                        continue
                    lead, other = (x, y) if sum(x) >= sum(y) else (y, x)
                    if test(lead, other, rg):
                        wrong[name] += 1
                        break
        print(f"| {label} | " + " | ".join(f"{wrong[k] / trials:.1%}" for k in tests) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--deals", type=int, default=CAP)
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--synthetic-only", action="store_true")
    a = ap.parse_args()
    if not a.synthetic_only:
        real(a.hands, a.deals)
    synthetic(a.trials)


if __name__ == "__main__":
    main()

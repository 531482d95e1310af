"""The declarer's end of a doubling bracket with and without the bound from his guaranteed
value -- a benchmark, not a test.

    python benchmarks/bench_brackets.py no-last-two --deals 0,1,3,4
    python benchmarks/bench_brackets.py trumps:S --deals 0-2

Deals: the advisor's for the README's 52-card hand (North, seed 1; ``--deals`` picks them
by index), North on lead, as ``barbu advise`` asks. On each deal the script solves
North's guaranteed value, then for each opponent Y the bet ``e_N - e_Y`` maximised by
North three ways: plain; with the bound ``analyzer.solve.score_sign`` allows (from
below where no seat scores above 0, from above where none scores below 0) and the
binary search started from it; and with the value next to the bound tested first (the
default, ``analyzer.solve.HINT_FIRST``). It checks that the three agree and prints, per
solve and in total, the nodes and CPU seconds of each (one process; ``time.process_time``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), HERE]

from levels import HAND, _seeds  # noqa: E402  (the same deals as levels.py)

MODES = ("plain", "bound only", "bound, next value first")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("contract", help="a trick contract (trumps: trumps:S etc.)")
    ap.add_argument("--rules", default="tournament")
    ap.add_argument("--deals", default="0-2", help="advisor deal indices: 0,3 or 0-4")
    a = ap.parse_args()
    import analyzer.solve as S
    from analyzer.rules import load_rules
    from analyzer.sampler import Sampler, sample_deals

    cid, _, trump = a.contract.partition(":")
    rules = load_rules(a.rules)
    idx = _seeds(a.deals)
    deals = sample_deals(Sampler(HAND, "N", deck=rules.deck), max(idx) + 1, 1)
    sign = S.score_sign(rules, cid)
    if sign == 0:
        sys.exit(f"bench_brackets: no bound from the guaranteed value in {cid} (its seats "
                 "score both ways, or it is Dominoes)")
    S.solve(deals[idx[0]], rules, cid, trump=trump or None, leader=0, seat=0)  # compile
    nodes = [0] * 3
    cpu = [0.0] * 3
    print(f"{cid}{':' + trump if trump else ''}, {rules.name}, bound from "
          f"{'below' if sign < 0 else 'above'}; per solve: value, then nodes / CPU s "
          f"{' | '.join(MODES)}")
    for i in idx:
        g = S.solve(deals[i], rules, cid, trump=trump or None, leader=0, seat=0)
        for y in (1, 2, 3):
            w = [1, 0, 0, 0]
            w[y] = -1
            row = []
            vals = set()
            for m in range(3):
                S.HINT_FIRST = m == 2
                b = None if m == 0 else (g, None) if sign < 0 else (None, g)
                t0 = time.process_time()
                v, st = S.solve_stats(deals[i], rules, cid, trump=trump or None, leader=0,
                                      weights=w, maximizers=[0], bounds=b)
                dt = time.process_time() - t0
                vals.add(v)
                nodes[m] += st["nodes"]
                cpu[m] += dt
                row.append(f"{st['nodes'] / 1e6:.2f} M / {dt:.1f}")
            S.HINT_FIRST = True
            if len(vals) != 1:
                sys.exit(f"bench_brackets: deal {i}, N - {'NESW'[y]}: values differ {vals}")
            print(f"deal {i}, N - {'NESW'[y]}: {vals.pop()} (guaranteed value {g}): "
                  + " | ".join(row), flush=True)
    print("| contract, deals | " + " | ".join(MODES) + " |")
    print("|---|---|---|---|")
    print(f"| {a.contract}, {a.deals} | "
          + " | ".join(f"{n / 1e6:.1f} M nodes, {c:.1f} s" for n, c in zip(nodes, cpu))
          + " |")


if __name__ == "__main__":
    main()

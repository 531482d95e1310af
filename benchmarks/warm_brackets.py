"""The declarer's ends of a doubling bracket, cold and from his guaranteed value's table.

A benchmark, not a test:

    python benchmarks/warm_brackets.py no-last-two --deals 1,3,4

Where no seat can score above 0 (``analyzer.solve.score_sign(rules, contract) < 0``),
every lower bound that North's guaranteed-value solve stores for a position also bounds
the bet ``e_N - e_Y`` at that position from below: North's paranoid play from there
keeps ``e_N`` at least that, and ``-e_Y >= 0``. ``analyzer.solve.solve_from_value``
solves the guaranteed value, then each bet from that table (upper bounds dropped). For
each deal (the advisor's for the README hand, North, seed 1, North on lead) the script
solves North's three bet ends cold (``solve`` with the root bound from the guaranteed
value, as the advisor does) and warm, checks that they agree and prints the nodes and
CPU seconds of each (one process, ``time.process_time``; the warm run's CPU is the whole
``solve_from_value`` call less the guaranteed value's own solve, timed alone first).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), HERE]

from levels import HAND, _seeds  # noqa: E402  (the same deals as levels.py)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("contract", help="a negative trick contract, e.g. no-last-two")
    ap.add_argument("--rules", default="tournament")
    ap.add_argument("--deals", default="1", help="advisor deal indices: 0,3 or 0-4")
    a = ap.parse_args()
    import analyzer.solve as S
    from analyzer.errors import BarbuError
    from analyzer.rules import load_rules
    from analyzer.sampler import Sampler, sample_deals

    try:
        rules = load_rules(a.rules)
        sign = S.score_sign(rules, a.contract)
    except BarbuError as e:
        raise SystemExit(f"error: {e}")
    if sign >= 0:
        raise SystemExit(f"error: {a.contract}: some seat can score above 0 there")
    idx = _seeds(a.deals)
    deals = sample_deals(Sampler(HAND, "N", deck=rules.deck), max(idx) + 1, 1)

    S.solve(deals[idx[0]], rules, "no-king", leader=0, seat=0)  # compile / load the kernels
    total = {"cold": [0, 0.0], "warm": [0, 0.0]}
    for i in idx:
        d = deals[i]
        t0 = time.process_time()
        g, _ = S.solve_stats(d, rules, a.contract, leader=0, seat=0)
        tg = time.process_time() - t0
        ws = [[1 if p == 0 else -1 if p == y else 0 for p in range(4)] for y in (1, 2, 3)]
        cold = []
        for w in ws:
            t0 = time.process_time()
            v, st = S.solve_stats(d, rules, a.contract, leader=0, weights=w, maximizers=[0],
                                  bounds=(g, None))
            cold.append((v, st["nodes"], time.process_time() - t0))
        nodes: list[int] = []
        t0 = time.process_time()
        g2, vals = S.solve_from_value(d, rules, a.contract, ws, leader=0, seat=0,
                                      nodes=nodes)
        tw = time.process_time() - t0 - tg
        if g2 != g or vals != [c[0] for c in cold]:
            raise BarbuError(f"deal {i}: warm {g2}, {vals} against cold {g}, "
                             f"{[c[0] for c in cold]}")
        for y, (v, n, t), nw in zip((1, 2, 3), cold, nodes[1:]):
            print(f"deal {i} Y={'NESW'[y]} G={g} bet={v}: cold {n:,} nodes {t:.1f} s, "
                  f"warm {nw:,} nodes", flush=True)
        tc = sum(c[2] for c in cold)
        print(f"deal {i}: the three ends cold {tc:.1f} s, warm {tw:.1f} s "
              f"(guaranteed value {tg:.1f} s)", flush=True)
        total["cold"][0] += sum(c[1] for c in cold)
        total["cold"][1] += tc
        total["warm"][0] += sum(nodes[1:])
        total["warm"][1] += tw
    for k, (nodes_, cpu) in total.items():
        print(f"{k}: {nodes_:,} nodes, {cpu:.1f} s")


if __name__ == "__main__":
    main()

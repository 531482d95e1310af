"""Search size against DDS: trick-boundary nodes and CPU time, deal by deal.

DDS reports ``futureTricks.nodes``, which it counts once per trick played in its search
(trick-boundary nodes). Our ``solve_stats`` gives the same count (``boundary_nodes``,
the root included) beside every node. Bridge notrump, seed s: ``random_deal(s, 52,
cards)`` (13 cards a hand unless ``--cards``), leader ``s mod 4``, the leader's side;
DDS one thread, its memory freed before each deal (so no table carries over). One line
per deal, then the medians of the ratios.

    .venv/bin/python benchmarks/dds_nodes.py --seeds 1000-1011
    .venv/bin/python benchmarks/dds_nodes.py --seeds 7100-7199 --cards 9   # endings, to
                                                  # pick deals for dds_descend.py

Needs the test extra (``endplay``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.cards import random_deal  # noqa: E402
from analyzer.rules import load_rules  # noqa: E402
from analyzer.solve import solve_stats  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1000-1011", help="first-last (inclusive)")
    ap.add_argument("--node-limit", type=int, default=20_000_000)
    ap.add_argument("--cards", type=int, default=13,
                    help="cards a hand (default 13: full deals; fewer: endings)")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split("-"))

    from endplay import _dds
    from endplay.types import Deal as EDeal, Denom, Player

    players = [Player.north, Player.east, Player.south, Player.west]
    rules = load_rules("bridge")
    solve_stats(random_deal(0, 52, 3), rules, "notrump", leader=0, side="NS")  # compile
    node_r, time_r = [], []
    print("seed  value  DDS-nodes  our-boundary  our-nodes  node-ratio  time-ratio")
    for s in range(lo, hi + 1):
        deal = random_deal(s, 52, a.cards)
        leader = s % 4
        d = EDeal(deal.to_pbn())
        d.first = players[leader]
        d.trump = Denom.nt
        fut = _dds.futureTricks()
        _dds.FreeMemory()
        _dds.SetMaxThreads(1)
        t = time.process_time()
        _dds.SolveBoard(d._data, -1, 1, 1, fut, 0)
        t_dds = time.process_time() - t
        t = time.process_time()
        v, st = solve_stats(deal, rules, "notrump", leader=leader,
                            side=(leader, (leader + 2) % 4), node_limit=a.node_limit)
        t_ours = time.process_time() - t
        nr = st["boundary_nodes"] / max(fut.nodes, 1)
        tr = t_ours / max(t_dds, 1e-6)
        node_r.append(nr)
        time_r.append(tr)
        print(f"{s}  {v}  {fut.nodes}  {st['boundary_nodes']}  {st['nodes']}  {nr:.1f}  {tr:.1f}",
              flush=True)
    print(f"median node ratio {statistics.median(node_r):.1f}, "
          f"median time ratio {statistics.median(time_r):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

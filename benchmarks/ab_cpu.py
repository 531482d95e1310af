"""CPU time and node counts of fixed solver workloads, for A/B runs of two checkouts.

Run it with the checkout to measure first on the path, once per checkout, alternating
(the machine is noisy: compare several runs, and only when the node counts agree is the
change purely per node):

    python benchmarks/ab_cpu.py /path/to/checkout-A
    python benchmarks/ab_cpu.py /path/to/checkout-B

Workloads (each after one warm-up solve, so compile time is not counted):

* ``notrump``: bridge notrump, full deals ``random_deal(k, 52, 13)`` for k in 2000–2019,
  leader ``k % 4``, the leader's side, 5M-node cap;
* ``no-tricks-10``: tournament No Tricks, 30 positions ``random_deal(50000 + k, 52, 10)``,
  leader ``k % 4``, guaranteed value of seat ``(k // 4) % 4``, 5M-node cap;
* ``no-tricks-13``: one null-window test on a full deal, ``random_deal(65002, 52, 13)``,
  South leads, guaranteed value of North: "North takes at most 5 tricks" (fails; 3.0 M
  nodes when this script was written, 5,070 at the forty-ninth session) or, with
  ``--tight``, "at most 6" (holds; 18.6 M nodes then, 95.6 M at the forty-ninth session:
  the bounds and order that settle most tests fast make this one bare test dearer).
"""

from __future__ import annotations

import argparse
import sys
import time


#: the seeds of the two many-solve workloads (also profiled by ``perf_map.py``)
SOLVE_SEEDS = {"notrump": range(2000, 2020), "no-tricks-10": range(30)}


def solve_one(job: str, k: int) -> int:
    """Nodes of solve ``k`` of a many-solve workload (the 5M-node cap when it stops)."""
    from analyzer.cards import random_deal
    from analyzer.errors import BarbuError
    from analyzer.rules import load_rules
    from analyzer.solve import solve_stats
    try:
        if job == "notrump":
            _, st = solve_stats(random_deal(k, 52, 13), load_rules("bridge"), "notrump",
                                leader=k % 4, side=(k % 4, (k % 4 + 2) % 4),
                                node_limit=5_000_000)
        else:
            _, st = solve_stats(random_deal(50000 + k, 52, 10), load_rules("tournament"),
                                "no-tricks", leader=k % 4, seat=(k // 4) % 4,
                                node_limit=5_000_000)
    except BarbuError:
        return 5_000_000
    return int(st["nodes"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repo", help="checkout whose analyzer/ and solvers/ to import")
    ap.add_argument("--only", default="notrump,no-tricks-10,no-tricks-13",
                    help="comma-separated workloads")
    ap.add_argument("--tight", action="store_true", help="the 13-card test that holds (95.6M nodes at the forty-ninth session)")
    a = ap.parse_args()
    sys.path.insert(0, a.repo)
    import numpy as np

    from analyzer.cards import random_deal
    from analyzer.rules import load_rules
    from analyzer.solve import _Problem, _tt
    from solvers import tricks as K

    tourn = load_rules("tournament")
    solve_one("notrump", 0)  # compile (or load) the kernels
    solve_one("no-tricks-10", 0)
    for job in a.only.split(","):
        nodes = 0
        t0 = time.process_time()
        if job in SOLVE_SEEDS:
            nodes = sum(solve_one(job, k) for k in SOLVE_SEEDS[job])
        elif job == "no-tricks-13":
            def kernel_args(pb):
                # the problem's arrays: in P since the fifth session, separate before
                if hasattr(K, "O_W"):
                    return (pb.P, pb.masks)
                return (pb.P, pb.w, pb.cc.pts, pb.cc.tpl, pb.tHi, pb.tLo, pb.cHi, pb.cLo,
                        pb.cc.cls, pb.masks)

            pb = _Problem(random_deal(65002, 52, 13), tourn, "no-tricks", None, 2, 0, None,
                          None, None, (), None, None)
            if hasattr(K, "P_TT_GROW"):  # one bare test: a full table is emptied
                pb.P[K.P_TT_GROW] = 0
            ttk, tte, ttd = _tt(pb.tt_bits, pb.words, pb.token)
            ttd[:] = 0
            stats = np.zeros(16, dtype=np.int64)
            needed = (-6 if a.tight else -5) * pb.grid
            K._search(pb.hands.copy(), pb.tbuf.copy(), np.int64(pb.nt), np.int64(pb.leader),
                      np.int64(pb.tl), np.int64(needed), np.int64(pb.st_t), np.int64(pb.st_c),
                      np.zeros(16, dtype=np.int64), np.int64(-1), *kernel_args(pb),
                      ttk, tte, ttd, np.zeros((16, pb.words + 4), dtype=np.uint64),
                      np.zeros((64, 32), dtype=np.int64), np.zeros(64, dtype=np.uint64), stats)
            nodes = int(stats[0])
        else:
            raise SystemExit(f"unknown workload {job!r}")
        print(f"{job:14s} nodes {nodes:>11,d}  cpu {time.process_time() - t0:6.2f} s",
              flush=True)


if __name__ == "__main__":
    main()

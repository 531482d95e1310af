"""Is the compiled code loaded from numba's cache as fast as a fresh compile?

Twenty-second session (BENCHMARKS.md, "Trick solver"): some builds of the kernels ran
twice as slow when loaded from the numba cache as when compiled in the same process, with
the same nodes, the same tables and their huge pages; the shipped build did not. Timing
a kernel change "from the cache, in a second process" (as these benchmarks do) then
measures the cache's copy, which is what users run, but can hide a change that is fast
in itself or blame one that is not. This script runs one fixed workload in fresh child
processes, alternately

* ``cache``: with the project's numba cache (filled first if empty), and
* ``fresh``: with an empty temporary ``NUMBA_CACHE_DIR`` (the compile is not timed: a
  small position is solved first),

and prints the CPU seconds of each run and the ratio of the medians. A ratio well above
1 (``--warn``, default 1.3) means the cached build is a slow one: exit status 1.

Twenty-third session: the slow builds met then were slow compiled afresh too, and the
time was the recursive call's copy of its ~95 argument words, slow or fast by the stack
frame's size; the recursion now passes 16 (``solvers.tricks._node``). Compare the CPU
with the previous build's, not only cache against fresh.

Usage::

    python benchmarks/build_check.py [--repeat 3] [--warn 1.3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, HERE)
from levels import HAND  # noqa: E402  (the README hand, as the other table studies)

# (contract, seed-1 advisor deal of the README hand): about 2-4 s in all on the
# development machine, from the cheap (No King) to the table-bound (No Last Two)
WORKLOAD = (("no-king", 0), ("no-last-two", 0), ("no-queens", 1))


def child() -> None:
    sys.path.insert(0, ROOT)
    from analyzer.rules import load_rules
    from analyzer.sampler import Sampler, sample_deals
    from analyzer.solve import solve_stats

    rules = load_rules("tournament")
    deals = sample_deals(Sampler(HAND, "N", deck=rules.deck), 2, 1)
    # compile (or load) first, on a 3-card ending, untimed
    for cid, _ in WORKLOAD:
        solve_stats([sorted(h)[:3] for h in deals[0]], rules, cid, leader=0, seat=0)
    t0 = time.process_time()
    nodes = 0
    values = []
    for cid, k in WORKLOAD:
        v, st = solve_stats(deals[k], rules, cid, leader=0, seat=0)
        nodes += st["nodes"]
        values.append(str(v))
    print(json.dumps({"cpu": time.process_time() - t0, "nodes": nodes, "values": values}))


def run(fresh: bool) -> dict:
    env = dict(os.environ)
    tmp = None
    if fresh:
        tmp = tempfile.TemporaryDirectory(prefix="barbu-build-check-")
        env["NUMBA_CACHE_DIR"] = tmp.name
    try:
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child"],
                             env=env, capture_output=True, text=True, check=True)
    finally:
        if tmp is not None:
            tmp.cleanup()
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of each kind, alternating (default 3)")
    ap.add_argument("--warn", type=float, default=1.3,
                    help="exit 1 when cache / fresh CPU exceeds this (default 1.3)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child()
        return
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    run(False)  # fill the project's cache if it is empty
    times: dict[str, list[float]] = {"cache": [], "fresh": []}
    seen = set()
    for i in range(a.repeat):
        for kind in ("cache", "fresh"):
            r = run(kind == "fresh")
            times[kind].append(r["cpu"])
            seen.add((r["nodes"], tuple(r["values"])))
            print(f"run {i + 1} {kind:5s} {r['cpu']:6.2f} s CPU, {r['nodes']:,} nodes",
                  flush=True)
    if len(seen) != 1:
        sys.exit("the two builds disagree on nodes or values: " + repr(sorted(seen)))
    mc, mf = statistics.median(times["cache"]), statistics.median(times["fresh"])
    ratio = mc / mf
    print(f"median: cache {mc:.2f} s, fresh {mf:.2f} s, ratio {ratio:.2f}")
    if ratio > a.warn:
        print(f"the cached build is {ratio:.2f}x slower than a fresh compile (> {a.warn}): "
              "see BENCHMARKS.md, 'Trick solver', twenty-second session")
        sys.exit(1)


if __name__ == "__main__":
    main()

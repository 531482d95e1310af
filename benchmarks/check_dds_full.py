"""The slow DDS check of ``tests/test_tricks_dds.py::test_dds_full`` under a node limit.

Same deals as the test (seed s: ``random_deal(default_rng(s))``, leader ``s mod 4``,
notrump then each trump suit by ``(s // 4) mod 5``, the leader's side): a deal our solver
does not finish within ``--node-limit`` nodes is reported as LIMIT instead of running for
minutes. One line per deal (ours, DDS, verdict, CPU seconds of each), then a summary.

    .venv/bin/python benchmarks/check_dds_full.py --seeds 1000-1199 --node-limit 5000000

Needs the test extra (``endplay``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.cards import random_deal  # noqa: E402
from analyzer.errors import BarbuError  # noqa: E402
from analyzer.rules import load_rules  # noqa: E402
from analyzer.solve import solve  # noqa: E402
from tests.test_tricks_dds import dds_tricks  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1000-1199", help="first-last (inclusive)")
    ap.add_argument("--node-limit", type=int, default=5_000_000)
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split("-"))
    rules = load_rules("bridge")
    counts = {"OK": 0, "LIMIT": 0, "MISMATCH": 0}
    ours_t: list[float] = []
    dds_t: list[float] = []
    for seed in range(lo, hi + 1):
        deal = random_deal(np.random.default_rng(seed), 52, 13)
        leader = seed % 4
        trump = [None, 0, 1, 2, 3][(seed // 4) % 5]
        t = time.process_time()
        try:
            v = solve(deal, rules, "notrump" if trump is None else "trumps", trump=trump,
                      leader=leader, side=(leader, (leader + 2) % 4),
                      node_limit=a.node_limit)
        except BarbuError:
            v = None
        ours_t.append(time.process_time() - t)
        t = time.process_time()
        want = dds_tricks(deal, leader, trump)
        dds_t.append(time.process_time() - t)
        verdict = "LIMIT" if v is None else ("OK" if v == want else "MISMATCH")
        counts[verdict] += 1
        print(seed, "NT" if trump is None else "SHDC"[trump], v, want, verdict,
              f"{ours_t[-1]:.3f} {dds_t[-1]:.4f}", flush=True)
    print(f"agree {counts['OK']}, disagree {counts['MISMATCH']}, limit {counts['LIMIT']}; "
          f"median CPU ours {statistics.median(ours_t):.3f} s (limit included), "
          f"DDS {statistics.median(dds_t) * 1000:.1f} ms")
    return 1 if counts["MISMATCH"] else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What perfect lead ordering would save: each test rerun with its own best leads known.

A benchmark, not a test:

    python benchmarks/lead_oracle.py --seeds 2000-2011

For each bridge notrump deal ``random_deal(k, 52, 13)`` (leader ``k % 4``, the leader's
side) the value is solved, then each of the two null-window tests next to it ("the side
takes >= v", which holds, and ">= v + 1", which fails) runs twice on one table:

1. from an empty table (what a solve's dear tests cost, give or take what the earlier
   tests leave in the table);
2. again on the table the first run left, with every entry's bounds stripped and its
   best lead kept: the same search, except that at each trick start the first run saw,
   the lead that settled it is tried first.

The second count over the first bounds what a better lead ordering could save (no order
of leads inside the first run's proof can beat knowing its answer; the moves inside a
trick keep the usual order). Node counts are exact, so runs need no quiet machine. The
twenty-ninth session's figures (BENCHMARKS.md): k = 2000-2011, holding tests 2.38 M ->
2.09 M nodes, failing tests 5.23 M -> 3.96 M.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.cards import random_deal  # noqa: E402
from analyzer.rules import load_rules  # noqa: E402
from analyzer.solve import _Problem, _tt, solve_stats  # noqa: E402
from solvers import tricks as K  # noqa: E402

RULES = load_rules("bridge")


def _test(pb: _Problem, need: int, ttk, tte, ttd, pool_rows: int = 0):
    """One null-window test on the given table: (holds, nodes, stats)."""
    st = np.zeros(16, np.int64)
    st[13] = pool_rows  # rows of the entry pool already in use (the table is kept)
    ok = K._search(pb.hands.copy(), pb.tbuf.copy(), np.int64(0), np.int64(pb.leader),
                   np.int64(pb.tl), np.int64(need * pb.grid), np.int64(pb.st_t),
                   np.int64(pb.st_c), np.zeros(16, np.int64), np.int64(-1), pb.P, pb.masks,
                   ttk, tte, ttd, np.zeros((16, pb.words + 4), np.uint64),
                   np.zeros((64, 32), np.int64), np.zeros(64, np.uint64), st)
    return bool(ok), int(st[0]), st


def _strip_bounds(tte, ttd, bits: int) -> None:
    """Every stored entry forgets its bounds and keeps its best lead."""
    n = 1 << bits
    slots = ttd[n:]
    rows = (slots[slots != 0] & 0xFFFFFFFF) - 1
    tte[rows, K.TE_LB] = np.array([-(1 << 40)], np.int64).view(np.uint64)[0]
    tte[rows, K.TE_UB] = np.uint64(1 << 40)


def _seeds(text: str) -> range:
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="2000-2011", help="deal seeds, e.g. 2000-2011")
    a = ap.parse_args()
    total = {True: [0, 0], False: [0, 0]}
    for k in _seeds(a.seeds):
        deal = random_deal(k, 52, 13)
        leader = k % 4
        side = (leader, (leader + 2) % 4)
        v = int(solve_stats(deal, RULES, "notrump", leader=leader, side=side)[0])
        row = []
        for need in (v, v + 1):
            if not 1 <= need <= 13:
                continue
            pb = _Problem([set(h) for h in deal.hands], RULES, "notrump", None, leader,
                          None, side, None, None, (), None, None)
            pb.P[K.P_TT_GROW] = 0  # one bare test: a full table starts afresh
            ttk, tte, ttd = _tt(pb.tt_bits, pb.words, pb.token)
            ttd[:] = 0
            ok1, n1, st = _test(pb, need, ttk, tte, ttd)
            _strip_bounds(tte, ttd, pb.tt_bits)
            ok2, n2, _ = _test(pb, need, ttk, tte, ttd, int(st[13]))
            if ok1 != ok2:
                sys.exit(f"seed {k}: the rerun of '>= {need}' disagrees")
            total[ok1][0] += n1
            total[ok1][1] += n2
            row.append(f">= {need} {'holds' if ok1 else 'fails'}: {n1:,} -> {n2:,}")
        print(f"seed {k}, value {v}: " + "; ".join(row), flush=True)
    for ok in (True, False):
        n1, n2 = total[ok]
        ratio = f" (x{n2 / n1:.2f})" if n1 else ""
        print(f"tests that {'hold' if ok else 'fail'}: {n1:,} -> {n2:,} nodes{ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

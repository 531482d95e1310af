"""What perfect lead ordering would save: each test rerun with its own best leads known.

A benchmark, not a test:

    python benchmarks/lead_oracle.py --seeds 2000-2011
    python benchmarks/lead_oracle.py --contract no-tricks --deals 0-4

For each bridge notrump deal ``random_deal(k, 52, 13)`` (leader ``k % 4``, the leader's
side), or with ``--contract`` each of the advisor's deals for the README hand (North's
guaranteed value, North leads, ``tournament`` rules, seed 1, as ``levels.py``), the
value is solved, then each of the two null-window tests next to it ("value >= v", which
holds, and ">= v + one step", which fails) runs twice on one table:

1. from an empty table (what a solve's dear tests cost, give or take what the earlier
   tests leave in the table);
2. again on the table the first run left, with every entry's bounds stripped and its
   best lead kept: the same search, except that at each trick start the first run saw,
   the lead that settled it is tried first.

The second count over the first bounds what a better lead ordering could save (no order
of leads inside the first run's proof can beat knowing its answer; the moves inside a
trick keep the usual order). Node counts are exact, so runs need no quiet machine. The
twenty-ninth session's figures are in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.cards import random_deal  # noqa: E402
from analyzer.rules import load_rules  # noqa: E402
from analyzer.sampler import Sampler, sample_deals  # noqa: E402
from analyzer.solve import _Problem, _tt  # noqa: E402
from solvers import tricks as K  # noqa: E402

HAND = "AK72.Q5.A963.KJ4"  # the README's 52-card hand (as levels.py)


def _test(pb: _Problem, need: int, ttk, tte, ttd, pool_rows: int = 0):
    """One null-window test ("value >= need", scaled) on the given table: (holds, nodes,
    stats)."""
    st = np.zeros(16, np.int64)
    st[13] = pool_rows  # rows of the entry pool already in use (the table is kept)
    ok = K._search(pb.hands.copy(), pb.tbuf.copy(), np.int64(0), np.int64(pb.leader),
                   np.int64(pb.tl), np.int64(need), np.int64(pb.st_t),
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


def _jobs(a) -> list:
    """(name, rules, contract, problem keywords) of each solve asked for."""
    if a.contract is None:
        rules = load_rules("bridge")
        return [(f"seed {k}", random_deal(k, 52, 13), rules, "notrump",
                 dict(leader=k % 4, seat=None, side=(k % 4, (k % 4 + 2) % 4)))
                for k in _seeds(a.seeds)]
    rules = load_rules("tournament")
    idx = _seeds(a.deals)
    deals = sample_deals(Sampler(HAND, "N", deck=rules.deck), max(idx) + 1, 1)
    return [(f"deal {i}", deals[i], rules, a.contract, dict(leader=0, seat=0, side=None))
            for i in idx]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="2000-2011", help="bridge deal seeds, e.g. 2000-2011")
    ap.add_argument("--contract", default=None,
                    help="a tournament contract instead: the README hand's advisor deals")
    ap.add_argument("--deals", default="0-4", help="with --contract: deal indices, e.g. 0-4")
    a = ap.parse_args()
    total = {True: [0, 0], False: [0, 0]}
    for name, deal, rules, cid, kw in _jobs(a):
        def problem() -> _Problem:
            return _Problem(deal, rules, cid, trump=None, weights=None, maximizers=None,
                            trick=(), whole_hand=None, tt_bits=None, **kw)
        pb = problem()
        v = pb.run()
        scale = pb.fraction(1).denominator
        vs = int(v * scale)
        row = []
        for need in (vs, vs + pb.grid):
            if not pb.lo < need <= pb.hi:
                continue
            pb = problem()
            pb.P[K.P_TT_GROW] = 0  # one bare test: a full table starts afresh
            ttk, tte, ttd = _tt(pb.tt_bits, pb.words, pb.token)
            ttd[:] = 0
            ok1, n1, st = _test(pb, need, ttk, tte, ttd)
            _strip_bounds(tte, ttd, pb.tt_bits)
            ok2, n2, _ = _test(pb, need, ttk, tte, ttd, int(st[13]))
            if ok1 != ok2:
                sys.exit(f"{name}: the rerun of '>= {need / scale}' disagrees")
            total[ok1][0] += n1
            total[ok1][1] += n2
            row.append(f">= {need / scale:g} {'holds' if ok1 else 'fails'}: {n1:,} -> {n2:,}")
        print(f"{name}, value {v}: " + "; ".join(row), flush=True)
    for ok in (True, False):
        n1, n2 = total[ok]
        ratio = f" (x{n2 / n1:.2f})" if n1 else ""
        print(f"tests that {'hold' if ok else 'fail'}: {n1:,} -> {n2:,} nodes{ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

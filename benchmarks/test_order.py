"""Orders of the null-window tests of one solve, compared by search nodes.

A benchmark, not a test:

    python benchmarks/test_order.py no-hearts --deals 0-15 --orders mid-step,hybrid,oracle
    python benchmarks/test_order.py notrump --random 40 --orders mid-step,oracle
    python benchmarks/test_order.py no-tricks --deals 21 --bet S:S --orders binary --tests

A solve finds its value by null-window tests on one transposition table
(``analyzer.solve``: a binary search over the value's grid, from the top down where
``P_DOWN`` says so). Each order below finds the same value on the same table (checked);
only the tests and their nodes differ. Node counts are exact, so runs need no quiet
machine.

* ``binary``: the shipped order (``_Problem.run``), the reference of every ratio;
* ``mid-step``: the binary search's first test, then one grid step at a time towards the
  value (DDS's order, from the middle);
* ``top-down``: from the highest value down until a test holds;
* ``hybrid``: the first test; if it holds, from the top down to it, else one step at a
  time down;
* ``oracle``: the two tests next to the value only (what a perfect first guess gives:
  the bound on what any order can save);
* ``binary`` among ``--orders``: the shipped order again, test by test (with
  ``--tests``: where its nodes go).

``--tests`` lists each order's tests, whether each holds or fails, and its nodes: a
solve's cost is mostly one or two tests, and which ones says whether a better order, a
bound or a cheaper proof can help. ``--bet OPP:END`` solves an end of North's doubling
bet instead of his guaranteed value, as ``levels.py`` does.

Deals: the advisor's for the README hand or ``--hand`` (North, seed 1, North leads;
``--deals``), or
``--random N`` seeded random deals (``default_rng(1)``, as ``bench_solve.py``: seat and
leader ``k % 4``; ``notrump``: the bridge preset, the leader's side). A solve that reaches
``--node-limit`` is left out.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), HERE]

from levels import HAND, _seeds, bet_objective  # noqa: E402  (levels.py's deals)

ORDERS = ("mid-step", "top-down", "hybrid", "oracle", "binary")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("contract", help="a trick contract (notrump: the bridge preset's)")
    ap.add_argument("--deals", default="0-7", help="advisor deal indices: 0,3 or 0-7")
    ap.add_argument("--hand", default=HAND, help="North's hand for the advisor's deals")
    ap.add_argument("--random", type=int, default=0, help="N seeded random deals instead")
    ap.add_argument("--orders", default="mid-step,oracle",
                    help=f"comma-separated, of {', '.join(ORDERS)}")
    ap.add_argument("--node-limit", type=int, default=30_000_000)
    ap.add_argument("--tests", action="store_true", help="list each order's tests and nodes")
    ap.add_argument("--bet", default="",
                    help="an end of North's doubling bet instead of his guaranteed value: "
                         "OPP:END, e.g. S:S (w = e_S - e_N, South maximises) or E:N")
    a = ap.parse_args()
    import numpy as np

    import analyzer.solve as S
    from analyzer.cards import random_deal
    from analyzer.errors import BarbuError
    from analyzer.rules import load_rules
    from analyzer.sampler import Sampler, sample_deals

    orders = [o for o in a.orders.split(",") if o]
    bad = [o for o in orders if o not in ORDERS]
    if bad:
        ap.error(f"unknown order {bad[0]!r}: expected {', '.join(ORDERS)}")
    bridge = a.contract == "notrump"
    rules = load_rules("bridge" if bridge else "tournament")
    try:
        trumps = rules.contract(a.contract).trumps
    except BarbuError as e:
        ap.error(str(e))
    if a.random:
        rng = np.random.default_rng(1)
        deals = [random_deal(rng, 52) for _ in range(a.random)]
        idx = list(range(a.random))
        seat = [k % 4 for k in idx]
    else:
        idx = _seeds(a.deals)
        deals = sample_deals(Sampler(a.hand, "N", deck=rules.deck), max(idx) + 1, 1)
        seat = [0] * len(deals)

    bet = bet_objective(a.bet) if a.bet else None
    if a.bet and (bet is None or bridge or a.random):
        ap.error("--bet OPP:END needs the advisor's deals, OPP one of E, S, W and END N or "
                 "OPP")

    def problem(k: int) -> S._Problem:
        trump = (k // 4) % 4 if trumps else None
        side = (seat[k], (seat[k] + 2) % 4) if bridge else None
        if bet is not None:
            return S._Problem(deals[k], rules, a.contract, trump, seat[k], None, None,
                              bet[0], (bet[1],), (), None, None, a.node_limit, None)
        return S._Problem(deals[k], rules, a.contract, trump, seat[k],
                          None if bridge else seat[k], side, None, None, (), None, None,
                          a.node_limit, None)

    log: list[str] = []

    def test(pb: S._Problem, bufs: tuple, t: int) -> bool:
        """The one null-window test "value >= t" on ``pb``'s table."""
        n0 = int(pb.stats[0])
        ok = pb._tests(t - pb.grid, t, *bufs) == t
        log.append(f">= {pb.fraction(t)} {'holds' if ok else 'fails'} "
                   f"{(int(pb.stats[0]) - n0) / 1e6:.1f}M")
        return ok

    def run(pb: S._Problem, order: str, v: int) -> int:
        bufs = (pb.hands.copy(), pb.tbuf.copy(), np.zeros(16, np.int64), -1,
                np.zeros((16, pb.words + 4), np.uint64), np.zeros((64, 32), np.int64),
                np.zeros(64, np.uint64))
        g, lo, hi = pb.grid, pb.lo, pb.hi
        if order == "oracle":
            if v + g <= hi:
                test(pb, bufs, v + g)
            if v - g >= lo:
                test(pb, bufs, v)
            return v
        mid = lo + (((hi - lo) // g + 1) // 2) * g
        if order == "binary":
            while lo < hi:  # as solvers.tricks._solve
                t = hi if pb.P[S.K.P_DOWN] else lo + (((hi - lo) // g + 1) // 2) * g
                if test(pb, bufs, t):
                    lo = t
                else:
                    hi = t - g
            return lo
        if order == "hybrid":
            t = mid
            if lo < hi:
                if test(pb, bufs, t):
                    lo, t = t, hi
                else:
                    hi = t = t - g
                while t > lo:  # every test above t failed
                    if test(pb, bufs, t):
                        return t
                    t -= g
            return lo
        t = hi if order == "top-down" else mid
        while lo < hi:
            t = max(lo + g, min(hi, t))
            if test(pb, bufs, t):
                lo, t = t, t + g
            else:
                hi, t = t - g, t - g
        return lo

    base: list[int] = []
    other: dict[str, list[int]] = {o: [] for o in orders}
    for k in idx:
        pb = problem(k)
        try:
            value = pb.run()
        except BarbuError:
            print(f"deal {k}: over the node limit, left out", flush=True)
            continue
        v = int(value * pb.cc.scale * pb.wscale)
        base.append(int(pb.stats[0]))
        row = [f"deal {k}: value {value}, binary {base[-1]:,} nodes ({int(pb.stats[1])} tests)"]
        tests = []
        for o in orders:
            p2 = problem(k)
            log.clear()
            got = run(p2, o, v)
            if got != v:
                raise SystemExit(f"deal {k}: order {o} found {got}, not {v}")
            other[o].append(int(p2.stats[0]))
            row.append(f"{o} {other[o][-1] / base[-1]:.2f}")
            tests.append(f"  {o}: " + ", ".join(log))
        print(", ".join(row), flush=True)
        if a.tests:
            print("\n".join(tests), flush=True)
    if not base:
        return
    b = np.array(base, dtype=float)
    print(f"binary: {int(b.sum()):,} nodes in all, median deal {np.median(b):,.0f}")
    for o in orders:
        x = np.array(other[o], dtype=float)
        print(f"{o}: in all x{x.sum() / b.sum():.3f}, median deal {np.median(x):,.0f}, "
              f"median of the per-deal ratios {np.median(x / b):.3f}")


if __name__ == "__main__":
    main()

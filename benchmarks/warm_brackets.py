"""The declarer's end of a doubling bracket, cold and from his guaranteed value's table.

A measurement for a change not built yet, not a test:

    python benchmarks/warm_brackets.py no-last-two --deals 1,3,4

Where no seat can score above 0 (``analyzer.solve.score_sign(rules, contract) < 0``),
every lower bound that North's guaranteed-value solve stores for a position also bounds
the bet ``e_N - e_Y`` at that position from below: North's paranoid play from there
keeps ``e_N`` at least that, and ``-e_Y >= 0``. So the bet can start from that table
with each entry's upper bound dropped (its lower bound and best lead kept; the keys do
not depend on the objective). For each deal (the advisor's for the README hand, North,
seed 1, North on lead) and each opponent Y the script solves the bet cold (with the
root bound from the guaranteed value, as the advisor does) and warm (the guaranteed
value solved again just before, in the same thread, and its table reused), checks that
the two agree and prints both node counts and CPU seconds (one process,
``time.process_time``; the guaranteed value's own solve is not in the warm figure).

It reaches into ``analyzer.solve``'s private table cache (``_tt``, ``_Problem``): the
advisor would need its value and bet solves of a deal in one worker, one after the
other (BENCHMARKS.md, twentieth session).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

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
    from solvers import tricks as K

    try:
        rules = load_rules(a.rules)
        sign = S.score_sign(rules, a.contract)
    except BarbuError as e:
        raise SystemExit(f"error: {e}")
    if sign >= 0:
        raise SystemExit(f"error: {a.contract}: some seat can score above 0 there")
    idx = _seeds(a.deals)
    deals = sample_deals(Sampler(HAND, "N", deck=rules.deck), max(idx) + 1, 1)

    def problem(deal, **kw):
        args = dict(trump=None, leader=0, seat=0, side=None, weights=None, maximizers=None,
                    trick=(), whole_hand=None, tt_bits=None, node_limit=None, bounds=None)
        args.update(kw)
        return S._Problem(deal, rules, a.contract, **args)

    S.solve(deals[idx[0]], rules, "no-king", leader=0, seat=0)  # compile / load the kernels
    total = {"cold": [0, 0.0], "warm": [0, 0.0]}
    for i in idx:
        for y in (1, 2, 3):
            w = [1 if p == 0 else -1 if p == y else 0 for p in range(4)]
            g = problem(deals[i])
            gv = g.run()
            cold = problem(deals[i], weights=w, maximizers=[0], seat=None, bounds=(gv, None))
            t0 = time.process_time()
            vc = cold.run()
            tc = time.process_time() - t0
            # the guaranteed value again, then its table with the upper bounds dropped
            g = problem(deals[i])
            if g.run() != gv:
                raise BarbuError("the guaranteed value changed between two solves")
            ttk, tte, ttd = S._tt(g.tt_bits, g.words, g.token)
            n = 1 << g.tt_bits
            ents = (ttd[n:] & 0xFFFFFFFF) - 1
            tte[ents[ents >= 0], K.TE_UB] = np.uint64(1 << 40)
            warm = problem(deals[i], weights=w, maximizers=[0], seat=None, bounds=(gv, None))
            warm.token = g.token  # the same table, not emptied
            warm.tt_bits = g.tt_bits  # after any growth
            warm.P[K.P_TTBITS] = g.tt_bits
            warm.P[K.P_TT_GROW] = g.tt_bits < S.GROW_TT_BITS
            warm.stats[13] = g.stats[13]  # the pool rows in use
            t0 = time.process_time()
            vw = warm.run()
            tw = time.process_time() - t0
            if vw != vc:
                raise BarbuError(f"deal {i}, Y={y}: warm {vw} against cold {vc}")
            total["cold"][0] += int(cold.stats[0])
            total["cold"][1] += tc
            total["warm"][0] += int(warm.stats[0])
            total["warm"][1] += tw
            print(f"deal {i} Y={'NESW'[y]} G={gv} bet={vc}: cold {cold.stats[0]:,} nodes "
                  f"{tc:.1f} s, warm {warm.stats[0]:,} nodes {tw:.1f} s", flush=True)
    for k, (nodes, cpu) in total.items():
        print(f"{k}: {nodes:,} nodes, {cpu:.1f} s")


if __name__ == "__main__":
    main()

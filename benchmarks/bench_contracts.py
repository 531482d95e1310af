"""Per-contract cost of the advisor's 52-card solves -- a benchmark, not a test.

    python benchmarks/bench_contracts.py                       # the seven-contract table
    python benchmarks/bench_contracts.py --contracts no-last-two --deals 10

The advisor's deals (``analyzer.sampler``: the hand given, seat North, the seed given)
are solved one at a time in this process, each contract the declarer's guaranteed value
with North on lead, as ``barbu advise`` does. For each contract it prints the total CPU
seconds over the deals, the worst deal's, and the nodes searched; the first solve of the
run also loads (or compiles) the kernels, so a contract is timed from its second deal on
only if ``--warm`` is given (then one extra deal is solved first, untimed). Run two
contracts side by side (one process a core) to use both cores.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: the README's 52-card example hand and the contracts timed by default
HAND = "AK72.Q5.A963.KJ4"
HAND_32 = "KQJ7..AK9.8"      # the README's 32-card example deal, North's hand
CONTRACTS = ("no-tricks", "no-hearts", "no-queens", "no-last-two", "no-king")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hand", help="North's hand (PBN; default the README's example "
                    "hand of the preset's deck)")
    ap.add_argument("--rules", default="tournament")
    ap.add_argument("--contracts", help="comma-separated trick contracts (trumps: "
                    "trumps:S etc.; default the negative contracts and No King on 52 "
                    "cards, the match's trick contracts without trumps on 32)")
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warm", action="store_true", help="solve one untimed deal first")
    a = ap.parse_args()
    from analyzer.rules import load_rules
    from analyzer.sampler import Sampler, sample_deals
    from analyzer.solve import solve_stats
    from analyzer.errors import BarbuError
    try:
        rules = load_rules(a.rules)
        hand = a.hand or (HAND if rules.deck == 52 else HAND_32)
        deals = sample_deals(Sampler(hand, "N", deck=rules.deck), a.deals, a.seed)
    except BarbuError as e:
        ap.error(str(e))
    if a.contracts is None:
        a.contracts = ",".join(CONTRACTS) if rules.deck == 52 else ",".join(
            c for c in rules.match_contracts
            if rules.contracts[c].is_tricks and not rules.contracts[c].trumps)
    if a.warm:
        solve_stats(deals[0], rules, a.contracts.split(",")[0].partition(":")[0]
                    or "no-king", trump=a.contracts.split(",")[0].partition(":")[2] or None,
                    leader=0, seat=0)
    print("| contract | deals | CPU s | worst deal s | nodes (M) | values |")
    print("|---|---|---|---|---|---|")
    for spec in a.contracts.split(","):
        cid, _, trump = spec.partition(":")
        times, nodes, values = [], 0, []
        for deal in deals:
            t0 = time.process_time()
            v, st = solve_stats(deal, rules, cid, trump=trump or None, leader=0, seat=0)
            times.append(time.process_time() - t0)
            nodes += int(st["nodes"])
            values.append(str(v))
        print(f"| {spec} | {len(deals)} | {sum(times):.1f} | {max(times):.1f} | "
              f"{nodes / 1e6:.1f} | {' '.join(values)} |", flush=True)


if __name__ == "__main__":
    main()

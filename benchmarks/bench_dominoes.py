"""Benchmark: Dominoes solves against DDS bridge solves on the same seeded deals.

For each of ``--deals`` seeded 52-card deals (``random_deal(seed)``, seeds 0…n-1) the script
times one DDS notrump solve (endplay ``solve_board``, West on lead, one thread) and one
``calc_dd_table`` (20 strain × declarer solves, one thread), then one Dominoes solve
(guaranteed value of the first player) for each of the 13 starting ranks under
``tournament`` rules; on 32-card deals (same seeds, ``random_deal(seed, 32)``) it times
``classic-32`` (fixed 10, ace replay) and ``barbu-32`` (first card sets the rank: one solve
branches over all 8 first cards). Reports the median and 95th percentile per solve and
their ratio to the DDS ``solve_board`` median measured in the same run. Times are CPU
time of this process (``time.process_time``: both solvers run on one thread, and CPU time
holds up better than wall time on a shared machine); the wall-clock median is shown too.

Run from the repository root::

    .venv/bin/python benchmarks/bench_dominoes.py --deals 100

Not a test: nothing fails when the machine is slow (style.md, item 11).
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from analyzer.cards import random_deal
from analyzer.dominoes import _compile, solve_dominoes
from analyzer.rules import load_rules


def clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def lap(t0: tuple[float, float]) -> tuple[float, float]:
    c, w = clock()
    return c - t0[0], w - t0[1]


def dds_times(n: int) -> tuple[list, list]:
    from endplay import _dds
    from endplay.dds import calc_dd_table, solve_board
    from endplay.types import Deal, Denom, Player

    _dds.SetMaxThreads(1)
    board, table = [], []
    for seed in range(n):
        pbn = random_deal(seed).to_pbn()
        d = Deal(pbn)
        d.first = Player.west
        d.trump = Denom.nt
        t = clock()
        solve_board(d)
        board.append(lap(t))
        t = clock()
        calc_dd_table(Deal(pbn))
        table.append(lap(t))
    return board, table


def dominoes_times(preset: str, n: int, deck: int, ranks: list[int | None]
                   ) -> tuple[list, list[int]]:
    rules = load_rules(preset)
    times, nodes = [], []
    for seed in range(n):
        deal = random_deal(seed, deck)
        for r in ranks:
            t = clock()
            comp = _compile(deal, rules, "dominoes", 0, r, None, (), 0, None, None)
            comp.run(False)
            times.append(lap(t))
            nodes.append(int(comp.stats[0]))
    return times, nodes


def row(name: str, times: list, ref: float, nodes: list[int] | None = None) -> str:
    a = np.array([t[0] for t in times]) * 1e3
    wall = np.median([t[1] for t in times]) * 1e3
    med, p95, mx = np.median(a), np.percentile(a, 95), a.max()
    nd = f"{int(np.median(nodes))}" if nodes else "–"
    return (f"| {name} | {len(a)} | {med:.2f} | {p95:.2f} | {mx:.1f} | "
            f"{med / ref:.3f}× | {p95 / ref:.3f}× | {wall:.2f} | {nd} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    args = ap.parse_args()
    n = args.deals

    t = time.perf_counter()
    solve_dominoes(random_deal(0), load_rules("tournament"), "dominoes", first=0,
                   start_rank=5, seat=0)
    first_call = time.perf_counter() - t

    board, table = dds_times(n)
    ref = float(np.median([t[0] for t in board])) * 1e3
    t52, n52 = dominoes_times("tournament", n, 52, list(range(13)))
    tcl, ncl = dominoes_times("classic-32", n, 32, [8])
    tb32, nb32 = dominoes_times("barbu-32", n, 32, [None])

    load = os.getloadavg()[0]
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average "
          f"{load:.1f} at the end; python {platform.python_version()}; {n} deals; first "
          f"call in this process (numba cache load, table allocation): "
          f"{first_call * 1e3:.0f} ms")
    print()
    print("| solve | solves | median ms | p95 ms | max ms | median / DDS | p95 / DDS | "
          "wall median ms | median nodes |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(row("DDS solve_board, notrump, W leads (reference)", board, ref))
    print(row("DDS calc_dd_table (20 solves)", table, ref))
    print(row("Dominoes 52 `tournament`, each of 13 ranks", t52, ref, n52))
    print(row("Dominoes 32 `classic-32` (fixed T, ace replay)", tcl, ref, ncl))
    print(row("Dominoes 32 `barbu-32` (first card, ace replay)", tb32, ref, nb32))


if __name__ == "__main__":
    main()

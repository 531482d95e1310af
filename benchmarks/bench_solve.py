"""Benchmark of the trick solver (issue 3): times per solve on seeded random full deals.

Parts (all in one process, one thread, except (e) which starts fresh processes):

(a) ``bridge`` notrump, the leader's side, against DDS (endplay, one thread) on the same
    deals and leaders; the answers must agree.
(b) each tournament trick contract, the guaranteed value of the declarer (who leads), as a
    ratio to the DDS notrump median of (a).
(c) the 32-card presets (classic-32, barbu-32), the declarer's guaranteed value.
(d) peak memory (max RSS) of this process.
(e) cold-process wall time of one solve with the numba cache warm, and the first-ever
    compile (an empty ``NUMBA_CACHE_DIR``).
(g) growth: median nodes and CPU time per solve on random positions of 8 to 11 cards a
    hand (52-card deck, 10 positions a size), bridge notrump and each tournament trick
    contract: how the cost grows a trick at a time where full deals do not finish.

Times in (a)-(c) are CPU seconds of this process (``time.process_time``).

A solve that reaches ``--node-limit`` counts as unfinished: it is listed, and the median
and 95th percentile are reported as lower bounds (``>``) when they fall on one.

Usage::

    python benchmarks/bench_solve.py --deals 100 --seed 1 [--parts abcde] [--json out.json]
        [--repeat R]   # (a): each deal's least CPU of R runs, for each solver
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.cards import random_deal  # noqa: E402
from analyzer.errors import SearchStopped  # noqa: E402
from analyzer.rules import load_rules  # noqa: E402
from analyzer.solve import solve  # noqa: E402

TOURNAMENT = ("no-tricks", "no-queens", "no-last-two", "no-hearts", "no-king", "trumps")
PRESETS_32 = {"classic-32": ("no-tricks", "no-hearts", "no-queens", "no-king", "salad"),
              "barbu-32": ("no-tricks", "no-hearts", "no-queens", "no-king", "no-last",
                           "trumps")}


def _finite(x):
    """``x`` with every infinite number (an unfinished solve's time or ratio) as the text
    "> limit": strict JSON has no Infinity."""
    if isinstance(x, float) and np.isinf(x):
        return "> limit"
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def _dumps(x, **kw) -> str:
    return json.dumps(_finite(x), allow_nan=False, **kw)


def stats(times: list[float]) -> dict:
    """Median and 95th percentile (seconds); inf marks an unfinished solve."""
    a = np.sort(np.array(times))
    n = len(a)
    med = float(a[(n - 1) // 2]) if n % 2 else float((a[n // 2 - 1] + a[n // 2]) / 2)
    p95 = float(a[min(n - 1, int(np.ceil(0.95 * n)) - 1)])
    return {"n": n, "median_s": med, "p95_s": p95,
            "unfinished": int(np.isinf(a).sum())}


def timed(fn):
    """Run ``fn``; return its value and the CPU time it took (inf: node limit reached).

    CPU time (``time.process_time``) rather than wall time: the development machine is
    shared, and CPU time holds up under load.
    """
    t = time.process_time()
    try:
        v = fn()
    except SearchStopped as e:  # (by the type: its message has changed before)
        if e.reason == "nodes":
            return None, float("inf")
        raise
    return v, time.process_time() - t


def part_a(deals, limit, repeat=1):
    """(a): each deal solved by DDS, then by ours; with ``repeat`` > 1 the whole run is
    made that many times and each deal keeps each solver's least CPU (a shared machine's
    slow spells then touch both solvers alike, and mostly drop out)."""
    from endplay._dds import SetMaxThreads
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal as EDeal, Denom, Player

    SetMaxThreads(1)
    players = [Player.north, Player.east, Player.south, Player.west]
    rules = load_rules("bridge")
    n = len(deals)
    ours, dds, bad = [float("inf")] * n, [float("inf")] * n, set()
    for _ in range(repeat):
        for i, deal in enumerate(deals):
            leader = i % 4
            d = EDeal(deal.to_pbn())
            d.first = players[leader]
            d.trump = Denom.nt
            t = time.process_time()
            res = solve_board(d, SolveMode.OptimalOne)
            want = max(s for _, s in res)
            dds[i] = min(dds[i], time.process_time() - t)
            v, dt = timed(lambda: solve(deal, rules, "notrump", leader=leader,
                                        side=(leader, (leader + 2) % 4), node_limit=limit))
            ours[i] = min(ours[i], dt)
            if v is not None and v != want:
                bad.add(i)
    so, sd = stats(ours), stats(dds)
    return {"ours": so, "dds": sd, "ratio_median": so["median_s"] / sd["median_s"],
            "repeat": repeat, "disagreements": sorted(bad)}


def part_contracts(preset, cids, deals, limit):
    rules = load_rules(preset)
    out = {}
    lead_left = rules.variants["lead"] == "left"
    for cid in cids:
        c = rules.contract(cid)
        times = []
        for i, deal in enumerate(deals):
            decl = i % 4
            leader = (decl + 1) % 4 if lead_left else decl
            trump = (i // 4) % 4 if c.trumps else None
            _, dt = timed(lambda: solve(deal, rules, cid, trump=trump, leader=leader,
                                        seat=decl, node_limit=limit))
            times.append(dt)
        out[cid] = stats(times)
    return out


def part_g(limit):
    from analyzer.solve import solve_stats
    out = {}
    bridge, tour = load_rules("bridge"), load_rules("tournament")
    for cid in ("notrump",) + TOURNAMENT:
        rows = {}
        for n in range(8, 12):
            nodes, times, unfinished = [], [], 0
            for k in range(10):
                deal = random_deal(1000 * n + k, 52, n)
                lead = k % 4
                if cid == "notrump":
                    fn = lambda: solve_stats(deal, bridge, cid, leader=lead,  # noqa: E731
                                             side=(lead, (lead + 2) % 4), node_limit=limit)
                else:
                    fn = lambda: solve_stats(deal, tour, cid,  # noqa: E731
                                             trump=lead if cid == "trumps" else None,
                                             leader=lead, seat=lead, node_limit=limit)
                res, dt = timed(fn)
                if res is None:
                    unfinished += 1
                    nodes.append(float("inf"))
                else:
                    nodes.append(res[1]["nodes"])
                times.append(dt)
            rows[n] = {"median_nodes": float(np.median(nodes)),
                       "median_s": float(np.median(times)), "unfinished": unfinished}
            if np.median(times) > 5:
                break
        out[cid] = rows
    return out


def part_e():
    code = ("import time; t=time.perf_counter(); "
            "from analyzer.rules import load_rules; from analyzer.cards import random_deal; "
            "from analyzer.solve import solve; "
            "d=random_deal(3, 52, 8); "
            "solve(d, load_rules('tournament'), 'no-tricks', leader=0, seat=0); "
            "print(time.perf_counter()-t)")
    env = dict(os.environ)
    py = sys.executable

    def run(env):
        t = time.perf_counter()
        subprocess.run([py, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True)
        return time.perf_counter() - t

    run(env)  # make sure the cache is warm
    warm = [run(env) for _ in range(3)]
    with tempfile.TemporaryDirectory() as tmp:
        env2 = dict(env, NUMBA_CACHE_DIR=tmp)
        first = run(env2)
    return {"cold_process_warm_cache_s": min(warm), "first_compile_s": first}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parts", default="abcde")
    ap.add_argument("--node-limit", type=int, default=50_000_000)
    ap.add_argument("--json", default=None)
    ap.add_argument("--repeat", type=int, default=1,
                    help="(a) only: run it this many times, each deal keeping each "
                         "solver's least CPU")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    deals52 = [random_deal(rng, 52) for _ in range(args.deals)]
    deals32 = [random_deal(rng, 32) for _ in range(args.deals)]
    # compile (or load) the kernels before timing
    solve(random_deal(0, 52, 3), load_rules("bridge"), "notrump", leader=0, side="NS")
    report: dict = {"machine": f"{platform.processor() or platform.machine()}, "
                    f"{os.cpu_count()} cores, Python {platform.python_version()}",
                    "date": time.strftime("%Y-%m-%d"), "deals": args.deals,
                    "seed": args.seed, "node_limit": args.node_limit}
    if "a" in args.parts:
        report["a_bridge_notrump"] = part_a(deals52, args.node_limit, args.repeat)
        print(_dumps(report["a_bridge_notrump"]), flush=True)
    if "b" in args.parts:
        b = part_contracts("tournament", TOURNAMENT, deals52, args.node_limit)
        if "a_bridge_notrump" in report:
            base = report["a_bridge_notrump"]["dds"]["median_s"]
            for v in b.values():
                v["ratio_to_dds_nt_median"] = v["median_s"] / base
        report["b_tournament"] = b
        print(_dumps(b), flush=True)
    if "c" in args.parts:
        report["c_32_card"] = {p: part_contracts(p, cids, deals32, args.node_limit)
                               for p, cids in PRESETS_32.items()}
        print(_dumps(report["c_32_card"]), flush=True)
    if "d" in args.parts:
        report["d_peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if "e" in args.parts:
        report["e_startup"] = part_e()
    if "g" in args.parts:
        report["g_growth"] = part_g(args.node_limit)
        print(_dumps(report["g_growth"]), flush=True)
    text = _dumps(report, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text)


if __name__ == "__main__":
    main()

"""Benchmark: deals per minute of ``barbu stats`` (the full option table) on 1..K workers.

For each worker count the script runs :func:`analyzer.stats.run_stats` on the same seeded
deals into a fresh folder (local processes; ``--dask`` uses a local Dask cluster instead),
reports wall time, deals per minute and the speed-up over one worker, and checks that every
run wrote identical tables. Numba kernels are loaded once before timing (a forked worker
inherits them), so the numbers are the steady solving rate plus the pool start-up.

Run from the repository root::

    .venv/bin/python benchmarks/bench_stats.py --rules barbu-32 --deals 12 --workers 1 2

Not a test: nothing fails when the machine is slow (style.md, item 11).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import tempfile
import time
from pathlib import Path

from analyzer.rules import load_rules
from analyzer.stats import ChunkTask, load_dataset, resolve_contracts, run_stats, solve_chunk


def _cpu() -> float:
    """CPU seconds of this process and its finished children (forked workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + ch.ru_utime + ch.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="barbu-32")
    ap.add_argument("--contracts", default=None, help="comma-separated (default: all)")
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--brackets", default="best", choices=["none", "best", "all"])
    ap.add_argument("--chunk-size", type=int, default=1)
    ap.add_argument("--dask", action="store_true", help="local Dask cluster, not processes")
    a = ap.parse_args()

    rules = load_rules(a.rules)
    cids = resolve_contracts(rules, a.contracts)
    t = time.perf_counter()
    # load (or compile) every kernel once: a warm-up deal outside the timed runs
    solve_chunk(ChunkTask(0, 10**6, 10**6 + 1, a.seed, rules, cids, a.brackets))
    warm = time.perf_counter() - t
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"python {platform.python_version()}")
    print(f"# rules {rules.name}, contracts {','.join(cids)}, brackets {a.brackets}, "
          f"{a.deals} deals, seed {a.seed}, chunk size {a.chunk_size}, "
          f"{'dask local cluster' if a.dask else 'local processes'}")
    print(f"# warm-up deal (kernel load + one deal): {warm:.1f} s")
    print(f"# load average at start: {os.getloadavg()[0]:.1f} (other work on the machine "
          "slows the wall clock; CPU s/deal counts this run's processes only)")
    print("| workers | wall s | deals/min | speed-up | CPU s/deal |")
    print("|---|---|---|---|---|")
    base = None
    first = None
    with tempfile.TemporaryDirectory() as tmp:
        for w in a.workers:
            out = Path(tmp) / f"w{w}"
            kw = dict(cluster="local") if a.dask else {}
            cpu0 = _cpu()
            s = run_stats(out, deals=a.deals, seed=a.seed, rules=rules, contracts=cids,
                          workers=w, chunk_size=a.chunk_size, brackets=a.brackets, **kw)
            rate = s["deals_per_minute"]
            base = base or rate
            cpu = (_cpu() - cpu0) / a.deals
            print(f"| {w} | {s['seconds']:.1f} | {rate:.2f} | {rate / base:.2f} | "
                  f"{cpu:.2f} |", flush=True)
            data = load_dataset(out)
            if first is None:
                first = data
            else:
                same = all(first[k].equals(data[k]) for k in first)
                if not same:
                    print(f"# MISMATCH: tables of {w} workers differ from the first run")
    print("# tables identical across runs" if first is not None else "")


if __name__ == "__main__":
    main()

"""Profile the numba kernels with Linux ``perf``: name the jitted functions for it.

perf cannot name jitted code by itself. This script compiles the kernels afresh (a
temporary ``NUMBA_CACHE_DIR``: code loaded from the cache has no LLVM module to list),
writes ``/tmp/perf-PID.map`` (the address, size and name of every function numba
compiled, which ``perf report`` reads), optionally dumps the machine code of the
functions whose names start with ``--dump`` (for ``objdump``), then runs a workload:

    perf record -F 2000 -o /tmp/perf.data python benchmarks/perf_map.py --workload no-tricks
    perf report -i /tmp/perf.data --no-children --sort sym

The compile is in the profile too (perf's samples in ``libllvmlite`` and CPython);
keep to the ``[JIT]`` rows. For instruction-level hot spots:
``perf script -F ip`` gives the sampled addresses, and
``objdump -D -b binary -m i386:x86-64 --adjust-vma=ADDR /tmp/code_NAME_ADDR.bin`` the
instructions at them. The fifth session found numba's reference counting and its
argument passing this way (BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), HERE]


def _demangle(name: str) -> str:
    """``_ZN7solvers6tricks7_searchB2v2...`` -> ``_search`` (length-prefixed parts)."""
    m = re.search(r"6tricks(\d+)", name)
    if not m:
        return name[:48]
    n = int(m.group(1))
    return name[m.end():m.end() + n]


def _mapped_end(addr: int) -> int:
    """The end of the memory mapping that holds ``addr`` (``/proc/self/maps``)."""
    with open("/proc/self/maps") as fh:
        for line in fh:
            lo, _, hi = line.split()[0].partition("-")
            if int(lo, 16) <= addr < int(hi, 16):
                return int(hi, 16)
    return addr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workload", default="no-tricks",
                    help="notrump (20 full deals), no-tricks (30 positions of 10 cards), "
                         "bridge:DEALS (bench_solve.py's part (a) deals, e.g. bridge:0-29), or "
                         "CONTRACT:DEALS, e.g. no-queens:0-2: the README hand's (or --hand's) "
                         "seed-1 advisor deals (North's guaranteed value, North leads)")
    ap.add_argument("--bet", default="",
                    help="with CONTRACT:DEALS, a doubling-bracket solve instead of North's "
                         "value: OPP:END as in levels.py, e.g. S:S or E:N")
    ap.add_argument("--hand", default=None,
                    help="with CONTRACT:DEALS, North's hand (default: the README's)")
    ap.add_argument("--dump", default="_node",
                    help="comma-separated name prefixes whose code to dump to /tmp")
    a = ap.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="barbu-perf-")
    from numba.core.registry import CPUDispatcher

    from ab_cpu import SOLVE_SEEDS, solve_one
    from solvers import tricks as K

    if a.workload.startswith("bridge:"):
        import numpy as np

        from analyzer.cards import random_deal
        from analyzer.rules import load_rules
        from analyzer.solve import solve_stats
        from levels import _seeds

        rules = load_rules("bridge")
        rng = np.random.default_rng(1)  # bench_solve.py's deals for part (a)
        every = [random_deal(rng, 52) for _ in range(100)]
        idx = _seeds(a.workload.partition(":")[2])
        seeds = [every[i] for i in idx]

        def job(i: int) -> None:
            k = idx[i]
            solve_stats(seeds[i], rules, "notrump", leader=k % 4, side=(k % 4, (k % 4 + 2) % 4))
    elif ":" in a.workload:
        from analyzer.rules import load_rules
        from analyzer.sampler import Sampler, sample_deals
        from analyzer.solve import _Problem
        from levels import HAND, _seeds

        cid, _, which = a.workload.partition(":")
        rules = load_rules("tournament")
        idx = _seeds(which)
        deals = sample_deals(Sampler(a.hand or HAND, "N", deck=rules.deck), max(idx) + 1, 1)
        seeds = [deals[i] for i in idx]

        from levels import bet_objective

        wm = bet_objective(a.bet) if a.bet else None
        if a.bet and wm is None:
            sys.exit("perf_map: --bet OPP:END with OPP one of E, S, W and END N or OPP")

        def job(i: int) -> None:
            _Problem(seeds[i], rules, cid, trump=None, weights=wm[0] if wm else None,
                     maximizers=[wm[1]] if wm else None, trick=(), whole_hand=None,
                     tt_bits=None, node_limit=None, leader=0, seat=None if wm else 0,
                     side=None).run()
    else:
        name = "notrump" if a.workload == "notrump" else "no-tricks-10"
        seeds = list(SOLVE_SEEDS[name])

        def job(i: int) -> None:
            solve_one(name, seeds[i])

    job(0)  # compile
    funcs = set()
    for name in dir(K):
        f = getattr(K, name)
        if not isinstance(f, CPUDispatcher):
            continue
        for cres in f.overloads.values():
            lib = cres.library
            for fn in lib._final_module.functions:
                if fn.is_declaration:
                    continue
                addr = lib._codegen._engine.get_function_address(fn.name)
                if addr:
                    funcs.add((addr, _demangle(fn.name)))
    starts = sorted(funcs)
    dump = tuple(p for p in a.dump.split(",") if p)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for i, (addr, nm) in enumerate(starts):
            size = starts[i + 1][0] - addr if i + 1 < len(starts) else 0x10000
            size = min(size, 0x100000)
            fh.write(f"{addr:x} {size:x} {nm}\n")
            if dump and nm.startswith(dump):
                # (the next function may lie in another mapping: read only this one's)
                size = min(size, _mapped_end(addr) - addr)
                with open(f"/tmp/code_{nm[:12]}_{addr:x}.bin", "wb") as out:
                    out.write(ctypes.string_at(addr, size))
    print(f"perf map: /tmp/perf-{os.getpid()}.map ({len(starts)} functions)", flush=True)
    for i in range(1, len(seeds)):
        job(i)


if __name__ == "__main__":
    main()

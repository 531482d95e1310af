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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def _demangle(name: str) -> str:
    """``_ZN7solvers6tricks7_searchB2v2...`` -> ``_search`` (length-prefixed parts)."""
    m = re.search(r"6tricks(\d+)", name)
    if not m:
        return name[:48]
    n = int(m.group(1))
    return name[m.end():m.end() + n]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workload", choices=("notrump", "no-tricks"), default="no-tricks",
                    help="20 full notrump deals, or 30 No Tricks positions of 10 cards")
    ap.add_argument("--dump", default="_search",
                    help="comma-separated name prefixes whose code to dump to /tmp")
    a = ap.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="barbu-perf-")
    from numba.core.registry import CPUDispatcher

    from analyzer.cards import random_deal
    from analyzer.errors import BarbuError
    from analyzer.rules import load_rules
    from analyzer.solve import solve_stats
    from solvers import tricks as K

    bridge, tourn = load_rules("bridge"), load_rules("tournament")

    def job(k: int) -> None:
        try:
            if a.workload == "notrump":
                solve_stats(random_deal(2000 + k, 52, 13), bridge, "notrump",
                            leader=k % 4, side=(k % 4, (k % 4 + 2) % 4),
                            node_limit=5_000_000)
            else:
                solve_stats(random_deal(50000 + k, 52, 10), tourn, "no-tricks",
                            leader=k % 4, seat=(k // 4) % 4, node_limit=5_000_000)
        except BarbuError:
            pass

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
                with open(f"/tmp/code_{nm[:12]}_{addr:x}.bin", "wb") as out:
                    out.write(ctypes.string_at(addr, size))
    print(f"perf map: /tmp/perf-{os.getpid()}.map ({len(starts)} functions)", flush=True)
    for k in range(1, 20 if a.workload == "notrump" else 30):
        job(k)


if __name__ == "__main__":
    main()

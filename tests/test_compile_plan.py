"""The first compile of the trick kernel with a helper beside it (``analyzer.pools.
compile_beside``, ``analyzer.compile_plan``), for real: a subprocess with an empty numba
cache (about half a minute on two cores)."""

import json
import os
import subprocess
import sys
from pathlib import Path

from analyzer import compile_plan
from analyzer.cards import random_deal
from analyzer.solve import solve

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, os, sys
from numba.core import dispatcher
from analyzer import compile_plan as P
from analyzer.cards import random_deal
from analyzer.solve import solve
from solvers import tricks as K
log = open(sys.argv[1], "a", buffering=1)
inner = dispatcher.Dispatcher.compile
stack = []  # the kernel functions being compiled, innermost last

def logged(self, sig):
    new = self.overloads.get(tuple(sig)) is None
    hits = sum(self._cache_hits.values())
    mine = self.py_func.__module__ == K.__name__
    caller = stack[-1] if stack else ""
    stack.append(self.py_func.__name__ if mine else "")
    try:
        out = inner(self, sig)
    finally:
        stack.pop()
    if new and mine:
        how = "load" if sum(self._cache_hits.values()) > hits else "compile"
        log.write(json.dumps([os.getpid(), self.py_func.__name__, P.encode(tuple(sig)),
                              how, caller]) + "\n")
    return out

dispatcher.Dispatcher.compile = logged
values = [str(solve(random_deal(k, 32), "barbu-32", c, leader=k % 4, seat=k % 4,
                    trump="S" if c == "trumps" else None))
          for k in range(6) for c in ("no-tricks", "no-hearts", "trumps")]
print(json.dumps([os.getpid(), values]))
"""


def test_a_first_compile_meets_its_helper_each_function_compiled_once(tmp_path):
    """From an empty cache, the first solve (``analyzer.solve`` -> ``compile_ahead``)
    forks a helper that compiles the far end of ``compile_plan.ORDER`` while the process
    compiles the kernel: every function and argument types compiled by one of them only
    (``solvers.config``'s compile lock: the other waits and loads it), the helper doing
    some of them, every entry of ORDER compiled (none stale: ``python -m
    analyzer.compile_plan`` rewrites it), and the kernel built so answers as the one
    this process loaded; and none missing (a helper new to ``_node`` and not listed)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = tmp_path / "compiles"
    out = subprocess.run([sys.executable, "-c", CHILD, str(log)], env=env, check=True,
                         capture_output=True, text=True, timeout=900).stdout
    me, values = json.loads(out.strip().splitlines()[-1])
    rows = [json.loads(ln) for ln in log.read_text().splitlines()]
    built = [(name, types) for pid, name, types, how, _ in rows if how == "compile"]
    assert len(built) == len(set(built)), sorted(x for x in built if built.count(x) > 1)
    assert {(n, t) for n, t in compile_plan.ORDER} <= set(built)
    # and nothing missing: a helper that this process's typing of _node compiled itself
    # is listed (one the helper process compiled inside another, it loads: fine)
    own = {(name, types) for pid, name, types, how, caller in rows
           if pid == me and caller == "_node" and how == "compile"}
    assert own - set(compile_plan.ORDER) == set(), "run python -m analyzer.compile_plan"
    if (os.cpu_count() or 1) >= 2:
        assert {pid for pid, _, _, how, _ in rows if how == "compile"} - {me}, \
            "the helper compiled nothing"
    want = [str(solve(random_deal(k, 32), "barbu-32", c, leader=k % 4, seat=k % 4,
                      trump="S" if c == "trumps" else None))
            for k in range(6) for c in ("no-tricks", "no-hearts", "trumps")]
    assert values == want

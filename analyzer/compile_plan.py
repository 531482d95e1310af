"""The order in which the trick kernel's first compile reaches its helper functions.

numba compiles ``solvers.tricks._solve`` by typing ``_node`` and, each time the typing
meets a call to another jitted function, compiling that function then and there, one
after the other on one core (about three quarters of the first compile). A helper
process that compiles the same functions into numba's cache from the other end of
:data:`ORDER` meanwhile (:func:`analyzer.pools.compile_beside`) leaves this process
to load them from the cache when its typing gets there: the two meet in the middle.
numba needs each function's argument types to compile it, so they are listed here.

:data:`ORDER` is written by ``python -m analyzer.compile_plan``, which compiles the
kernel in a fresh cache (without a helper) and records what ``_node``'s typing compiled,
in order; ``tests/test_compile_plan.py`` checks, in a real first compile with the helper,
that the kernel compiles every entry. A stale entry costs time, never an answer: the
helper compiles a function nobody loads, or none, and this process compiles what it
needs itself, as without a helper.

Types are written short: ``i64`` / ``u64`` / ``b1`` (int64, uint64, bool), ``i64[:]``
and ``u64[:,:]`` (C-contiguous arrays), ``=3`` (the integer literal 3), ``i64x2`` (a
tuple of two int64).

>>> decode("u64[:] i64 =-1 b1")
(Array(uint64, 1, 'C', False, aligned=True), int64, Literal[int](-1), bool)
>>> encode(decode("u64[:,:] i64x2")) == "u64[:,:] i64x2"
True
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: the helpers that ``_node``'s typing compiles, in the order it reaches them:
#: (name in ``solvers.tricks``, argument types); written by ``python -m
#: analyzer.compile_plan``
ORDER: tuple[tuple[str, str], ...] = (
    ('_bounds', 'u64[:] i64[:] i64 i64 i64 i64 i64 i64[:] u64[:]'),
    ('_bit', '=0'),
    ('_winner_index', 'i64[:] i64 i64'),
    ('_rank_scores', 'i64[:] i64 i64 i64 i64[:] i64[:]'),
    ('_after_trick', 'i64[:] i64 i64 i64 u64 u64[:] i64[:] i64[:] i64'),
    ('_terminal', 'i64[:] i64 i64 i64[:] b1 b1'),
    ('_tt_lookup', 'i64[:,:] i64 i64 i64 i64 i64'),
    ('_neg_bounds', 'u64[:] i64 i64 i64[:] u64'),
    ('_neg_lb', 'u64[:] i64 i64 i64[:] u64'),
    ('_neg_lose1', 'u64[:] i64 i64 i64[:]'),
    ('_neg_lose_one', 'u64[:] i64 i64 i64[:]'),
    ('_neg_lose2', 'u64[:] i64 i64 i64[:]'),
    ('_neg_lead_duck', 'u64[:] i64 i64 i64 i64[:] u64[:]'),
    ('_neg_d_exit', 'u64[:] i64 i64 i64[:] u64[:]'),
    ('_qt_want', 'i64 i64 i64 i64[:]'),
    ('_quick_tricks', 'u64[:] i64 i64 i64[:] i64'),
    ('_sure_cut', 'i64 i64 i64 i64 i64[:]'),
    ('_short_of_all', 'u64[:] i64 i64'),
    ('_reply_qt', 'u64[:] i64 i64 i64 i64 i64[:]'),
    ('_trumps_cut', 'u64[:] i64 i64 i64[:]'),
    ('_lead_lost', 'u64[:] i64 i64 i64[:]'),
    ('_lost_cash', 'u64[:] i64 i64 i64[:] i64 i64'),
    ('_mid_bound', 'u64[:] i64[:] i64 i64 i64 i64 i64 i64[:]'),
    ('_neg_mid', 'u64[:] i64[:] i64 i64 i64 i64 i64 i64[:] u64[:]'),
    ('_legal', 'u64[:] i64[:] i64 i64 i64 i64 i64[:] u64[:]'),
    ('_order', 'i64 i64 i64 i64 u64 i64[:,:] i64 i64 i64'),
    ('_etc',
     'u64[:] i64[:] i64 i64 i64 i64 i64 i64 i64[:] i64[:] u64[:] u64[:,:] u64[:,:] '
     'i64[:] u64[:,:] i64[:,:] i64 i64 b1'),
    ('_eq_later', 'u64[:] i64 i64 i64 u64 u64 i64[:]'),
    ('_tt_store',
     'u64[:] i64 u64 b1 i64 u64 i64 i64[:] u64[:,:] u64[:,:] i64[:] u64[:,:] i64[:]'),
)

_SCALARS = {"i64": "int64", "u64": "uint64", "b1": "boolean"}


def decode(text: str) -> tuple[Any, ...]:
    """numba argument types from their short form (module notes); ValueError if unknown."""
    from numba.core import types
    out: list[Any] = []
    for tok in text.split():
        if tok.startswith("="):
            out.append(types.literal(int(tok[1:])))
            continue
        base, _, dims = tok.partition("[")
        tup = None
        if "x" in base:
            base, _, n = base.partition("x")
            tup = int(n)
        if base not in _SCALARS:
            raise ValueError(f"unknown type {tok!r}")
        t = getattr(types, _SCALARS[base])
        if dims:
            t = types.Array(t, dims.count(":"), "C")
        if tup is not None:
            t = types.UniTuple(t, tup)
        out.append(t)
    return tuple(out)


def encode(args: tuple[Any, ...]) -> str:
    """The short form of numba argument types; ValueError for a type it has none for."""
    from numba.core import types
    short = {v: k for k, v in _SCALARS.items()}
    out = []
    for t in args:
        if isinstance(t, types.IntegerLiteral):
            out.append(f"={t.literal_value}")
        elif isinstance(t, types.UniTuple) and str(t.dtype) in short:
            out.append(f"{short[str(t.dtype)]}x{t.count}")
        elif (isinstance(t, types.Array) and t.layout == "C" and t.mutable and t.aligned
              and str(t.dtype) in short):
            out.append(short[str(t.dtype)] + "[" + ",".join([":"] * t.ndim) + "]")
        elif str(t) in ("int64", "uint64", "bool"):
            out.append(short["boolean" if str(t) == "bool" else str(t)])
        else:
            raise ValueError(f"no short form for {t!r}")
    return " ".join(out)


def compile_from_end() -> int:
    """Compile the helpers of :data:`ORDER` into numba's cache from the last back to the
    first, stopping at the first that another process has cached or is compiling (the
    compile this works beside got there: it loads the rest). Returns how many it
    compiled. Entries it cannot read or find are skipped."""
    from solvers import tricks as K
    from solvers.config import compile_busy
    n = 0
    for name, text in reversed(ORDER):
        f = getattr(K, name, None)
        try:
            args = decode(text)
        except ValueError:
            continue
        if not hasattr(f, "compile") or f.overloads.get(args) is not None:
            continue  # (compiled here already, inside another helper)
        if _on_disk(f, args) or compile_busy(f):
            break  # (where the other compile is, or has been)
        f.compile(args)
        n += 1
    return n


def _on_disk(f: Any, args: tuple[Any, ...]) -> bool:
    """Whether numba's cache holds ``f`` compiled for ``args`` (False if it cannot tell)."""
    try:
        cache = f._cache
        return cache._index_key(args, f.targetctx.codegen()) in \
            cache._cache_file._load_index()
    except Exception:
        return False


def _record_here() -> list[tuple[str, str]]:
    """Compile the trick kernel in this process (its cache must be empty) and return
    what ``_node``'s typing compiled, in order (each function and types once)."""
    from numba.core import dispatcher

    from analyzer import pools
    from solvers import tricks as K

    compile_ = dispatcher.Dispatcher.compile
    stack: list[str] = []
    seen: set[tuple[str, str]] = set()
    order: list[tuple[str, str]] = []

    def logged(self, sig):  # type: ignore[no-untyped-def]
        f = self.py_func
        mine = f.__module__ == K.__name__
        if mine and stack and stack[-1] == "_node" and not self.overloads.get(tuple(sig)):
            entry = (f.__name__, encode(tuple(sig)))
            if entry not in seen:
                seen.add(entry)
                order.append(entry)
        stack.append(f.__name__ if mine else "")
        try:
            return compile_(self, sig)
        finally:
            stack.pop()

    dispatcher.Dispatcher.compile = logged
    pools._AHEAD_TRIED = True  # (no helper: its loads would change what is reached)
    try:
        pools._load_tricks()
    finally:
        dispatcher.Dispatcher.compile = compile_
    return order


def record() -> list[tuple[str, str]]:
    """:data:`ORDER` as a fresh compile finds it (a subprocess with an empty numba cache:
    about as long as the first compile, up to a minute or two)."""
    with tempfile.TemporaryDirectory(prefix="barbu-plan-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        root = str(Path(__file__).resolve().parents[1])
        env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
        code = ("import json, analyzer.compile_plan as p; "
                "print(json.dumps(p._record_here()))")
        out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                             capture_output=True, text=True).stdout
    return [tuple(x) for x in json.loads(out.strip().splitlines()[-1])]


def _entry(name: str, types: str, width: int = 92) -> str:
    """One line of :data:`ORDER` (its types split over lines where long)."""
    line = f"    ({name!r}, {types!r}),\n"
    if len(line) <= width:
        return line
    parts, cur = [], ""
    for tok in types.split(" "):
        if cur and len(cur) + len(tok) + 1 > width - 12:
            parts.append(cur + " ")
            cur = tok
        else:
            cur = f"{cur} {tok}" if cur else tok
    parts.append(cur)
    return (f"    ({name!r},\n" + "\n".join(f"     {x!r}" for x in parts) + "),\n")


def _write(order: list[tuple[str, str]]) -> None:
    """Rewrite :data:`ORDER` in this file."""
    path = Path(__file__)
    text = path.read_text()
    head, rest = text.split("ORDER: tuple[tuple[str, str], ...] = (\n", 1)
    body = "".join(_entry(n, s) for n, s in order)
    path.write_text(head + "ORDER: tuple[tuple[str, str], ...] = (\n" + body
                    + rest[rest.index(")\n"):])


if __name__ == "__main__":  # pragma: no cover - a maintainer's command
    found = record()
    _write(found)
    print(f"{len(found)} helpers written to {__file__}")

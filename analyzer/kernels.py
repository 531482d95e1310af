"""Whether the compiled search kernels are ready, and a word before they are compiled.

The kernels (``solvers.tricks._solve``, ``solvers.dominoes._solve``) are compiled once
for the machine and cached on disk (numba's ``cache=True``); a later process loads them
in a fraction of a second. The first search after installing (or upgrading) compiles
them: up to a minute or two, during which nothing else shows. The command line sets
:data:`NOTICE` to a function that prints a note on a terminal; :func:`before_search`,
called before each kernel call, hands it one line the first time a process is about to
compile. The check reads numba's cache index once per kernel and process; anything
unexpected there counts as "cached" (no note), never as an error.

>>> import numpy as np
>>> before_search(np.zeros)  # (not a numba kernel: nothing to say, nothing raised)
"""

from __future__ import annotations

from typing import Any, Callable

#: where the note goes (the command line: stderr, on a terminal only); None: nowhere
NOTICE: Callable[[str], None] | None = None

#: the note
COMPILING = ("note: compiling the solver's kernels for this machine, once after "
             "installing (up to a minute or two; later runs load them at once)")

#: the note where the kernels cannot be cached (solvers.config says why, at the end)
COMPILING_EVERY_RUN = ("note: compiling the solver's kernels for this machine (up to a "
                       "minute or two; with no place to cache them, every run does)")

_seen: set[int] = set()
_told = False


def kernel_cached(kernel: Any) -> bool:
    """Whether ``kernel`` (a numba dispatcher) runs without compiling: compiled already
    in this process, or found in numba's cache for this machine's CPU and the current
    source. True for anything that does not look like a cached numba kernel."""
    try:
        if kernel.overloads:
            return True
        cache = kernel._cache
        if type(cache).__name__ == "NullCache":  # (no place to cache: every run compiles)
            return False
        index = cache._cache_file._load_index()  # ({} where the source changed since)
        magic = kernel.targetctx.codegen().magic_tuple()
    except Exception:
        return True
    return any(isinstance(k, tuple) and len(k) > 1 and k[1] == magic for k in index)


def kernel_uncachable(kernel: Any) -> bool:
    """Whether numba has no place to cache ``kernel`` (every run compiles it)."""
    return type(getattr(kernel, "_cache", None)).__name__ == "NullCache"


def before_search(kernel: Any) -> None:
    """Call :data:`NOTICE` with :data:`COMPILING` if ``kernel`` is about to be compiled
    and no note has been given in this process. Cheap after the first call a kernel."""
    global _told
    if id(kernel) in _seen:
        return
    _seen.add(id(kernel))
    if NOTICE is None or _told or kernel_cached(kernel):
        return
    _told = True
    NOTICE(COMPILING_EVERY_RUN if kernel_uncachable(kernel) else COMPILING)


__all__ = ["NOTICE", "COMPILING", "COMPILING_EVERY_RUN", "kernel_cached", "kernel_uncachable",
           "before_search"]

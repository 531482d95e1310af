"""Numba options: project policy, in one place (style.md, item 5).

Every kernel is compiled with ``@njit(**NUMBA_OPTS)``. ``cache=True`` writes the compiled
code next to the module so a second process starts warm; ``nogil=True`` lets threads run
kernels side by side. Note: numba 0.68 segfaults on reloading a cached *mutually*
recursive pair of functions; a single self-recursive function or an explicit-stack loop
caches fine -- as long as it compiles to ONE signature: pass ``np.int64(0)`` rather than a
bare literal in recursive calls (a literal argument makes a second, ``Literal[int]``
overload, and reloading several overloads of a recursive function also segfaults).

``_nrt=False`` compiles the kernels without numba's reference-counting runtime. With it,
every call of a kernel function that takes arrays did an atomic increment and decrement
per array argument: about 30% of the trick solver's CPU time (perf, fifth session). The
kernels therefore never allocate (no ``np.zeros``, ``np.sort``, slicing copies): they
work in the buffers the caller passes; an allocation would fail to compile. (The option
is numba's own, used in its test suite since long before 0.60; should a numba release
drop it, the kernels compile with the runtime again, only slower.)
"""


def _no_nrt() -> dict[str, bool]:
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:  # pragma: no cover - a numba without this layout
        return {}
    return {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


NUMBA_OPTS = dict(cache=True, nogil=True, **_no_nrt())

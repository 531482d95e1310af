"""Forked worker pools that notice a worker's death.

``multiprocessing.Pool`` replaces a worker that dies (killed by the kernel for memory, or
by a user) but loses the task it held: whoever waits for that result waits for ever. The
runners here wait in short steps and, between them, look whether a worker of the pool
has exited; a worker never exits by itself while its pool is open, so one that has is
dead, and the run stops with :class:`WorkerDied` instead of hanging. Workers ignore
Ctrl-C: the parent stops them. Stopping a pool (``terminate``) kills its workers first
and frees the queue locks a killed worker may have held (:func:`_stop`): the pool's own
``terminate`` waits on one of them.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import threading
from typing import Any, Callable, Iterable, Iterator

#: seconds between two looks at the workers while a result is awaited
POLL = 1.0


class WorkerDied(RuntimeError):
    """A worker process died mid-run (the command line: one line, exit status 1)."""

    def __init__(self, code: int | None) -> None:
        how = (f"killed by signal {-code}" if code is not None and code < 0
               else f"exit status {code}")
        super().__init__(f"a worker process died ({how}; out of memory? a 52-card worker "
                         "may need about 2 GB): the run stopped")


def fork_pool(workers: int) -> Any:
    """A pool of ``workers`` processes forked from this one (fork where the platform
    has it: the workers need no re-import, and inherit the kernels loaded before the
    fork, :func:`load_kernels`)."""
    methods = mp.get_all_start_methods()
    pool = mp.get_context("fork" if "fork" in methods else "spawn").Pool(
        workers, initializer=_worker_start)
    pool._barbu_workers = list(getattr(pool, "_pool", []))
    own = pool.terminate
    pool.terminate = lambda: _stop(pool, own)
    return pool


def _stop(pool: Any, terminate: Callable[[], None]) -> None:
    """The pool's ``terminate``, made safe where a worker died holding a lock.

    A worker waiting for its next task holds the task queue's read lock, and one
    sending a result the result queue's write lock; the pool's own ``terminate`` takes
    both. A worker killed there (`timeout` and `kill -TERM -PGID` signal the whole
    process group: the workers die with the parent; or the kernel, for memory) leaves
    the lock taken, and ``terminate`` waited for ever (`barbu stats` hung under `timeout`
    when one worker had finished its chunk). So the pool stops replacing workers, every
    worker is killed and reaped, and each of the two locks is taken and given back, or,
    where it is not free, given back all the same: then a dead worker held it. (Only
    workers take the read lock; the pool's own threads take the write lock for one short
    write, so that one is given a second to come free.) Then the pool's own clean-up.
    """
    from multiprocessing import pool as mpp
    handler = getattr(pool, "_worker_handler", None)
    if handler is not None:
        handler._state = mpp.TERMINATE
        handler.join(timeout=1)  # (no worker started after this)
    procs = list(getattr(pool, "_pool", [])) + list(getattr(pool, "_barbu_workers", []))
    for p in procs:
        if p.exitcode is None:
            p.kill()
    for p in procs:
        p.join(timeout=5)
    for q, name, wait in ((getattr(pool, "_inqueue", None), "_rlock", 0.0),
                          (getattr(pool, "_outqueue", None), "_wlock", 1.0)):
        lock = getattr(q, name, None)
        if lock is not None:
            lock.acquire(timeout=wait)  # (the read lock: only workers take it)
            lock.release()
    terminate()


def load_kernels(tricks: bool = True, dominoes: bool = True) -> None:
    """Load the trick and Dominoes kernels in this process (compiling them the first time
    ever), so that the workers forked after it inherit them: each worker would otherwise
    load them itself, or on a cold cache compile them itself (a first run with two
    workers took twice the CPU of one). A tiny solve each, a fraction of a second warm.

    Where the trick kernel is to be compiled (the first run after installing), a helper
    process on another core compiles half of its functions into the cache, and then the
    Dominoes kernel if that is to be compiled too, while this one compiles the rest of
    the trick kernel; this one then loads the Dominoes kernel from there
    (:func:`compile_beside`)."""
    helper = compile_beside(dominoes=dominoes) if tricks else None
    try:
        if tricks:
            _load_tricks()
        if helper is not None:
            helper.join()  # (what it wrote to the cache is loaded below; if it failed,
            #                 the Dominoes kernel is compiled here as before)
    finally:
        if helper is not None and helper.exitcode is None:  # (Ctrl-C, an error)
            helper.kill()
            helper.join()
    if dominoes:
        _load_dominoes()


def compile_together() -> None:
    """Before a run that needs both kernels in this process: where neither is compiled
    or cached yet, compile both at once (:func:`load_kernels`); otherwise nothing."""
    if _both_cold():
        load_kernels()


def _load_tricks() -> None:
    from analyzer.cards import random_deal
    from analyzer.solve import solve
    solve(random_deal(0, 32, 2), "barbu-32", "no-tricks", leader=0, seat=0)


def _load_dominoes() -> None:
    from analyzer.cards import random_deal
    from analyzer.dominoes import solve_dominoes
    solve_dominoes(random_deal(0, 32), "barbu-32", "dominoes", first=0, seat=0)


def _both_cold() -> bool:
    """Whether neither kernel is compiled or cached yet, and numba can cache them (with
    no place to cache, a helper's compile would be lost)."""
    from solvers import dominoes as D
    from solvers import tricks as K
    return _cold(K._solve) and _cold(D._solve)


def _cold(kernel: Any) -> bool:
    """Whether ``kernel`` is to be compiled, neither compiled in this process nor cached,
    and numba can cache it."""
    from analyzer.kernels import kernel_cached, kernel_uncachable
    return not (kernel_cached(kernel) or kernel_uncachable(kernel))


def _compile_ahead(dominoes: bool) -> None:
    """A helper's task: the trick kernel's functions from the far end of their order
    until it meets the compile that this process's parent is running (``analyzer.
    compile_plan``), then the Dominoes kernel if ``dominoes``; all into numba's cache.
    Then it exits."""
    _worker_start()  # (Ctrl-C is the parent's; it dies with the parent)
    from analyzer import compile_plan, kernels
    kernels.NOTICE = None  # (the parent gives the note)
    try:
        compile_plan.compile_from_end()
        if dominoes:
            _load_dominoes()
    except Exception:  # (no traceback here: the parent compiles it again and says why)
        sys.exit(1)


#: whether this process has considered a helper (:func:`compile_beside`)
_AHEAD_TRIED = False


def compile_beside(dominoes: bool = True) -> Any:
    """On a first run, where the trick kernel is to be compiled and this machine has a
    second core: a forked helper process that compiles the trick kernel's functions into
    numba's cache from the far end of the order in which this process's compile reaches
    them, until the two meet, and then, with ``dominoes``, the Dominoes kernel if it is
    to be compiled too. This process loads from the cache what the helper has compiled
    when its own compile gets there (each function once; the caller ``join()``s the
    helper before loading the Dominoes kernel from there; a killed helper leaves no
    partial file, numba writes each under a temporary name). None otherwise.

    Measured (this 2-core machine, the trick kernel from an empty cache): 26.8-28.0 s
    with the helper against 38.9 s alone. At most one helper a process
    (:func:`compile_ahead` starts none after this)."""
    global _AHEAD_TRIED
    _AHEAD_TRIED = True
    from solvers import tricks as K
    if ((os.cpu_count() or 1) < 2 or "fork" not in mp.get_all_start_methods()
            or mp.current_process().daemon or not _cold(K._solve)):  # (a pool's worker
        #                                                             may have no child)
        return None
    from solvers import dominoes as D
    helper = mp.get_context("fork").Process(
        target=_compile_ahead, args=(dominoes and _cold(D._solve),), daemon=True)
    helper.start()
    return helper


def compile_ahead() -> None:
    """Before a process's first trick-kernel call (``analyzer.solve``): where the kernel
    is to be compiled, a helper compiles half of it beside this process
    (:func:`compile_beside`, without the Dominoes kernel). Nobody waits for it: it exits
    where the two compiles meet, and dies with this process. Once a process, from the
    main thread only (the helper dies when the thread that started it ends)."""
    if not _AHEAD_TRIED and threading.current_thread() is threading.main_thread():
        compile_beside(dominoes=False)


def _worker_start() -> None:
    """A worker leaves Ctrl-C to its parent, which stops the pool: a terminal's Ctrl-C
    reaches every process of the group, and each worker would print a traceback. On
    Linux a worker also ends with its parent, however the parent ends (``kill -9``
    included): left alone it would finish its task, minutes on 52 cards, then print a
    broken-pipe traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (not the parent's clean-up handler)
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


def check_workers(pool: Any) -> None:
    """Raise :class:`WorkerDied` if a worker of ``pool`` has exited, after making the
    pool inert (:func:`_abandon`)."""
    for p in getattr(pool, "_barbu_workers", ()):
        if p.exitcode is not None:
            _abandon(pool)
            raise WorkerDied(p.exitcode)


def _abandon(pool: Any) -> None:
    """Stop a pool one of whose workers died (:func:`_stop`); ``close`` / ``terminate``
    / ``join`` then become no-ops for the callers' clean-up."""
    pool.terminate()
    for name in ("close", "terminate", "join"):
        setattr(pool, name, lambda: None)


def watched(pool: Any, results: Iterable[Any], idle: Callable[[], Any] | None = None
            ) -> Iterator[Any]:
    """The items of a pool's ``imap`` / ``imap_unordered`` iterator, checking between
    them that no worker has died; ``idle()``, if given, is called each time a wait of
    ``POLL`` seconds ends with no item."""
    it = iter(results)
    while True:
        try:
            item = it.next(timeout=POLL)
        except StopIteration:
            return
        except mp.TimeoutError:
            check_workers(pool)
            if idle is not None:
                idle()
            continue
        check_workers(pool)  # (the others' results may flow for minutes after a death)
        yield item


def wait_for(pool: Any, get: Callable[[float], Any], empty: type[Exception]) -> Any:
    """``get(timeout)`` until it returns, checking between tries that no worker of
    ``pool`` has died (``empty``: the exception ``get`` raises on a timeout)."""
    while True:
        try:
            got = get(POLL)
        except empty:
            check_workers(pool)
            continue
        check_workers(pool)  # (the others' results may flow for minutes after a death)
        return got


__all__ = ["WorkerDied", "fork_pool", "load_kernels", "compile_beside",
           "compile_together", "compile_ahead", "check_workers", "watched", "wait_for", "POLL"]

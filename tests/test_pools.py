"""Worker pools: a worker's death stops the run (it used to hang for ever), and Ctrl-C
is left to the parent (each worker printed a traceback)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from analyzer.pools import WorkerDied, fork_pool, watched


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_a_dead_worker_stops_the_run_instead_of_hanging():
    pool = fork_pool(2)
    results = pool.imap(_nap, [3.0, 3.0, 3.0, 3.0], chunksize=1)
    time.sleep(0.5)
    os.kill(pool._barbu_workers[0].pid, signal.SIGKILL)
    t0 = time.monotonic()
    with pytest.raises(WorkerDied, match="killed by signal 9"):
        list(watched(pool, results))
    assert time.monotonic() - t0 < 30
    pool.terminate()  # inert now: neither waits on the dead worker's lock
    pool.join()
    assert all(p.exitcode is not None for p in pool._barbu_workers)


def test_workers_leave_ctrl_c_to_the_parent():
    with fork_pool(1) as pool:
        pending = pool.apply_async(_nap, (1.0,))
        time.sleep(0.3)
        os.kill(pool._barbu_workers[0].pid, signal.SIGINT)
        assert pending.get(timeout=30) == 1.0
        assert list(watched(pool, pool.imap(_nap, [0.0, 0.0]))) == [0.0, 0.0]

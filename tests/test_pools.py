"""Worker pools: a worker's death stops the run (it used to hang for ever), and Ctrl-C
is left to the parent (each worker printed a traceback)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

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


def test_a_death_is_seen_while_the_other_workers_results_still_flow():
    """A dead worker was looked for only when no result came for a second: the others'
    results kept coming, so the run went on (minutes on 52 cards) with a task that would
    never end. Now each result is followed by a look."""
    pool = fork_pool(2)
    results = pool.imap_unordered(_nap, [0.2] * 60, chunksize=1)
    time.sleep(0.5)
    os.kill(pool._barbu_workers[0].pid, signal.SIGKILL)
    t0 = time.monotonic()
    with pytest.raises(WorkerDied):
        list(watched(pool, results))
    assert time.monotonic() - t0 < 4  # (the other alone had some 11 s of work left)
    pool.terminate()
    pool.join()


def test_workers_leave_ctrl_c_to_the_parent():
    with fork_pool(1) as pool:
        pending = pool.apply_async(_nap, (1.0,))
        time.sleep(0.3)
        os.kill(pool._barbu_workers[0].pid, signal.SIGINT)
        assert pending.get(timeout=30) == 1.0
        assert list(watched(pool, pool.imap(_nap, [0.0, 0.0]))) == [0.0, 0.0]


def test_workers_end_with_their_parent(tmp_path):
    """`kill` of barbu stats left its workers solving for minutes, then printing
    broken-pipe tracebacks: a worker now ends when its parent does (Linux)."""
    import subprocess
    import sys
    if not sys.platform.startswith("linux"):
        pytest.skip("parent-death signal is Linux's")
    script = tmp_path / "parent.py"
    script.write_text(
        "import os, signal, sys, time\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})\n"
        "from analyzer.pools import fork_pool\n"
        "pool = fork_pool(1)\n"
        "pool.apply_async(time.sleep, (60,))\n"
        "time.sleep(0.5)\n"
        "print(pool._barbu_workers[0].pid, flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       timeout=60)
    worker = int(p.stdout.split()[0])
    for _ in range(50):
        if not os.path.exists(f"/proc/{worker}"):
            break
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{worker}")


def test_the_kernels_are_loaded_before_the_workers_fork(tmp_path, monkeypatch):
    """stats and solve --batch load the kernels they need in the parent, so the workers
    inherit them (each loaded them, or on a cold cache compiled them, itself: twice the
    CPU of one worker for a first run)."""
    import analyzer.batch as B
    import analyzer.stats as S
    from analyzer import pools
    from solvers import tricks as K
    calls = []

    def load(**kw):
        calls.append(kw)
        pools.load_kernels(**kw)

    monkeypatch.setattr(S, "load_kernels", load)
    S.run_stats(tmp_path / "s", deals=2, seed=1, rules="barbu-32", contracts="no-king",
                workers=2, chunk_size=1, brackets="none")
    assert calls == [{"tricks": True, "dominoes": False}]
    assert K._solve.signatures  # (loaded here, once)
    monkeypatch.setattr(B, "load_kernels", lambda **kw: calls.append(("batch", kw)))
    jobs = [(i, {"deal": "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", "contract": "no-tricks"})
            for i in (1, 2)]
    assert len(list(B.run_batch(jobs, workers=2))) == 2
    assert calls[-1] == ("batch", {})


def test_waiting_on_a_queue_stops_when_a_worker_dies():
    """The advisor waits on its own queue of results (``wait_for``), not on the pool's
    iterator: a worker killed meanwhile must end that wait too."""
    import queue

    from analyzer.pools import wait_for
    pool = fork_pool(1)
    pool.apply_async(_nap, (30.0,))
    time.sleep(0.5)
    os.kill(pool._barbu_workers[0].pid, signal.SIGKILL)
    q: queue.SimpleQueue = queue.SimpleQueue()
    t0 = time.monotonic()
    with pytest.raises(WorkerDied, match="killed by signal 9"):
        wait_for(pool, lambda t: q.get(timeout=t), queue.Empty)
    assert time.monotonic() - t0 < 30
    q.put(7)  # (a result that comes after all the same: the pool is still dead)
    with pytest.raises(WorkerDied):
        wait_for(pool, lambda t: q.get(timeout=t), queue.Empty)


def _two_workers(p) -> list[int]:
    """The pids of the two workers of the command ``p`` once both are there (/proc)."""
    kids: list[int] = []
    for _ in range(600):
        time.sleep(0.1)
        if p.poll() is not None:
            break
        kids = [int(x) for x in Path(f"/proc/{p.pid}/task/{p.pid}/children")
                .read_text().split()]
        if len(kids) == 2:
            break
    assert len(kids) == 2, "the two workers never started"
    return kids


def test_a_batch_whose_worker_is_killed_exits_1(tmp_path):
    """End to end: `barbu solve --batch` with 2 workers, one killed mid-batch: one line
    naming the signal, exit status 1 (not 2: the input was fine), no traceback, and no
    worker left behind."""
    import subprocess
    import sys
    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc")
    root = Path(__file__).resolve().parents[1]
    # full 52-card No Tricks deals: seconds to minutes each, long enough to be killed
    jobs = tmp_path / "jobs.txt"
    from analyzer.samples import random_deals
    jobs.write_text("\n".join(random_deals(6, 11)) + "\n")
    p = subprocess.Popen([sys.executable, "-m", "cli", "solve", "--batch", str(jobs),
                          "-c", "no-tricks", "--workers", "2", "--json"], cwd=root,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        kids = _two_workers(p)
        time.sleep(1.0)
        os.kill(kids[0], signal.SIGKILL)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "barbu: error: a worker process died (killed by signal 9;"), err
    time.sleep(0.5)
    assert not any(os.path.exists(f"/proc/{k}") and
                   "zombie" not in Path(f"/proc/{k}/status").read_text() for k in kids)


def test_terminate_does_not_wait_on_a_lock_a_dead_worker_held(tmp_path):
    """An idle worker waits for its next task holding the pool's task-queue lock; killed
    there (`timeout`, `kill -TERM -PGID`: the whole process group at once), it left the
    lock taken, and the pool's own ``terminate`` waited on it for ever (`barbu stats
    --deals 2` under `timeout 20` hung until killed with -9: one worker had finished its
    chunk). The pools' ``terminate`` now kills the workers without that lock."""
    import subprocess
    import sys
    script = tmp_path / "idle.py"
    script.write_text(
        "import os, signal, sys, time\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})\n"
        "from analyzer.pools import fork_pool\n"
        "pool = fork_pool(2)\n"
        "it = pool.imap_unordered(time.sleep, [0, 60], chunksize=1)\n"
        "next(it)\n"
        "time.sleep(1.0)  # (one worker idle in the queue's lock, the other asleep)\n"
        "for p in pool._barbu_workers:\n"
        "    os.kill(p.pid, signal.SIGKILL)\n"
        "time.sleep(0.5)\n"
        "t = time.monotonic()\n"
        "pool.terminate()\n"
        "pool.join()\n"
        "print(round(time.monotonic() - t))\n")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0 and int(p.stdout) < 10, p.stderr


def test_kill_of_the_whole_process_group_ends_the_run(tmp_path):
    """End to end: `barbu solve --batch` with 2 workers, one idle after a 3-card job
    (holding the task queue's lock), the other on a full No Tricks deal; the whole
    process group gets SIGTERM, as `timeout` sends it. Exit status 143, no traceback,
    within seconds (it hung for ever)."""
    import subprocess
    import sys
    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc")
    from analyzer.samples import random_deals
    root = Path(__file__).resolve().parents[1]
    jobs = tmp_path / "jobs.txt"
    slow = list(random_deals(4, 11))[3]  # (No Tricks: about 9 s of CPU here)
    jobs.write_text("N:AK.2.. QJ.3.. ..AK.2 ..QJ.3\n" + slow + "\n")
    p = subprocess.Popen([sys.executable, "-m", "cli", "solve", "--batch", str(jobs), "-c",
                          "no-tricks", "--workers", "2"], cwd=root, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _two_workers(p)
        time.sleep(1.5)  # (the 3-card job done: its worker waits for the next task)
        assert p.poll() is None, "the batch ended before the signal"
        os.killpg(p.pid, signal.SIGTERM)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 143, (p.returncode, err)
    assert err.strip().splitlines()[-1] == "barbu: terminated" and "Traceback" not in err


def test_a_batch_takes_every_core_by_default(monkeypatch):
    """`solve --batch` without --workers (0) runs one worker a core (as many as jobs at
    most); 1 runs in this process."""
    import analyzer.batch as B
    sizes: list[int] = []

    def pool_of(n):
        sizes.append(n)
        return fork_pool(n)

    monkeypatch.setattr(B, "fork_pool", pool_of)
    monkeypatch.setattr(B.os, "cpu_count", lambda: 3)
    jobs = [(i, {"deal": "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", "contract": "no-tricks"})
            for i in range(1, 6)]
    for workers, want in ((0, [3]), (2, [2]), (1, [])):
        sizes.clear()
        assert [r["value"] for r in B.run_batch(jobs, workers)] == [-4] * 5
        assert sizes == want
    sizes.clear()
    assert len(list(B.run_batch(jobs[:2], 0))) == 2 and sizes == [2]


def _fake_loads(monkeypatch, tmp_path, cold, tricks=None, dominoes=None):
    """Stand-ins for the kernels' loads and the helper's half of the trick kernel
    (``ahead``) that log ``what pid`` lines to a file; ``cold``: whether the trick and
    the Dominoes kernels are to be compiled (a bool for both, or a pair)."""
    from analyzer import compile_plan, pools
    from solvers import tricks as K
    log = tmp_path / "loads"
    cold_t, cold_d = (cold, cold) if isinstance(cold, bool) else cold

    def logger(name, then):
        def load():
            with open(log, "a") as f:
                f.write(f"{name} {os.getpid()}\n")
            if then is not None:
                then()
        return load
    monkeypatch.setattr(pools, "_cold", lambda k: cold_t if k is K._solve else cold_d)
    monkeypatch.setattr(pools, "_AHEAD_TRIED", False)
    monkeypatch.setattr(pools, "_load_tricks", logger("tricks", tricks))
    monkeypatch.setattr(pools, "_load_dominoes", logger("dominoes", dominoes))
    monkeypatch.setattr(compile_plan, "compile_from_end", logger("ahead", None))
    return lambda: [ln.split() for ln in log.read_text().splitlines()] if log.exists() \
        else []


def test_a_first_run_compiles_half_the_trick_kernel_and_the_dominoes_kernel_beside(
        tmp_path, monkeypatch):
    """Where the trick kernel is to be compiled (the first run after installing), a
    forked helper compiles the far half of its functions into the cache (``ahead``),
    then the Dominoes kernel if that is to be compiled too, while this process compiles
    the trick kernel; this process loads the Dominoes kernel after the helper has ended.
    Measured: the trick kernel from an empty cache 26.8-28.0 s against 38.9 s (this
    session's figures, BENCHMARKS.md). Where the trick kernel is cached or not asked
    for: no helper."""
    from analyzer import pools
    me = str(os.getpid())
    loads = _fake_loads(monkeypatch, tmp_path, cold=True, tricks=lambda: time.sleep(0.3))
    pools.load_kernels()
    got = loads()
    helper = [pid for name, pid in got if pid != me]
    assert len(helper) == 2 and [x for x in got if x[1] != me] == [
        ["ahead", helper[0]], ["dominoes", helper[0]]]
    assert [x for x in got if x[1] == me] == [["tricks", me], ["dominoes", me]]
    assert got.index(["dominoes", helper[0]]) < got.index(["dominoes", me])  # (joined)

    for cold, kw, want in (((True, False), {}, ["ahead"]),
                           (True, {"dominoes": False}, ["ahead"]),
                           ((False, True), {}, []), (False, {}, []),
                           (True, {"tricks": False}, [])):
        (tmp_path / "loads").unlink(missing_ok=True)
        loads = _fake_loads(monkeypatch, tmp_path, cold=cold)
        pools.load_kernels(**kw)
        assert [name for name, pid in loads() if pid != me] == want, (cold, kw)


def test_a_single_solve_starts_the_helper_once_from_the_main_thread(tmp_path,
                                                                    monkeypatch):
    """``compile_ahead`` (before a process's first trick-kernel call, ``analyzer.
    solve``): the helper's half of the trick kernel where it is cold, once a process,
    never from another thread, none after ``load_kernels`` considered one."""
    import threading

    from analyzer import pools
    me = str(os.getpid())

    def helpers() -> list[str]:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and mp_children():
            time.sleep(0.05)
        return [name for name, pid in loads() if pid != me]

    def mp_children():
        import multiprocessing as mp
        return mp.active_children()

    loads = _fake_loads(monkeypatch, tmp_path, cold=True)
    t = threading.Thread(target=pools.compile_ahead)
    t.start()
    t.join()
    assert helpers() == [] and not pools._AHEAD_TRIED
    pools.compile_ahead()
    pools.compile_ahead()
    assert helpers() == ["ahead"]

    loads = _fake_loads(monkeypatch, tmp_path, cold=False)
    (tmp_path / "loads").unlink(missing_ok=True)
    pools.compile_ahead()
    assert helpers() == [] and pools._AHEAD_TRIED

    loads = _fake_loads(monkeypatch, tmp_path, cold=(False, True))
    pools.load_kernels()
    monkeypatch.setattr(pools, "_cold", lambda k: True)
    pools.compile_ahead()
    assert helpers() == []


def test_a_helper_that_fails_is_made_good_and_one_left_behind_is_stopped(tmp_path,
                                                                         monkeypatch):
    """The helper's failure leaves the Dominoes kernel to this process, silently; an
    exception here (a Ctrl-C during the trick kernel's compile) kills the helper."""
    from analyzer import pools
    me = os.getpid()

    def fail_in_helper():
        if os.getpid() != me:
            raise RuntimeError("no")
    loads = _fake_loads(monkeypatch, tmp_path, cold=True, dominoes=fail_in_helper)
    pools.load_kernels()
    assert loads()[-1] == ["dominoes", str(me)]

    def interrupted():
        for _ in range(100):  # (until the helper has begun its Dominoes part)
            if ["dominoes"] in [x[:1] for x in loads()]:
                break
            time.sleep(0.05)
        raise KeyboardInterrupt
    (tmp_path / "loads").unlink()
    loads = _fake_loads(monkeypatch, tmp_path, cold=True, tricks=interrupted,
                        dominoes=lambda: os.getpid() != me and time.sleep(60))
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        pools.load_kernels()
    assert time.monotonic() - t0 < 10
    helper = {int(pid) for _, pid in loads() if int(pid) != me}
    assert len(helper) == 1 and not os.path.exists(f"/proc/{helper.pop()}")  # (reaped)


def test_the_runs_that_need_both_kernels_compile_them_together(monkeypatch):
    """`barbu advise` (its first tasks run in the parent) and `barbu solve`'s table of
    every contract ask for both kernels at once (``compile_together``: a no-op unless
    both are cold), before their first solve; with one kind of option they do not."""
    from analyzer import advise as A
    from analyzer import pools
    from analyzer.jobs import Job
    calls = []
    monkeypatch.setattr(A, "compile_together", lambda: calls.append("advise"))
    monkeypatch.setattr(pools, "compile_together", lambda: calls.append("table"))
    hand = "KQJ7..AK9.8"
    A.advise(hand, rules="barbu-32", remaining="trumps,dominoes", samples=4, seed=1,
             workers=2, doubling="none")
    A.advise(hand, rules="barbu-32", remaining="trumps", samples=4, seed=1, workers=2,
             doubling="none")
    assert calls == ["advise"]
    deal = "N:T.J.8.KQJT8 7.AQT9.AJ.A K98.87.97.9 AQJ.K.KQT.7"
    Job({"deal": deal, "rules": "barbu-32"}).run()
    assert calls == ["advise", "table"]
    Job({"deal": "N:AK.7.. QJ.8.. ..AK.7 ..QJ.8", "rules": "barbu-32"}).run()  # (endgame)
    assert calls == ["advise", "table"]

"""The note before the kernels are compiled (``analyzer.kernels``): given once, only when
the kernel is not in numba's cache, and by the command line only on a terminal."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer import kernels

ROOT = Path(__file__).resolve().parents[1]

TINY = """
from numba import njit

@njit(cache=True)
def plus_one(x):
    return x + {k}
"""

PROBE = """
import sys
sys.path.insert(0, {here!r})
from analyzer.kernels import kernel_cached
import tiny
print(kernel_cached(tiny.plus_one))
tiny.plus_one(1)
print(kernel_cached(tiny.plus_one))
"""


def _probe(tmp_path: Path) -> list[str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    p = subprocess.run([sys.executable, "-c", PROBE.format(here=str(tmp_path))], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


def test_a_kernel_is_cached_once_compiled_and_not_after_its_source_changes(tmp_path):
    (tmp_path / "tiny.py").write_text(TINY.format(k=1))
    assert _probe(tmp_path) == ["False", "True"]   # compiled in this run
    assert _probe(tmp_path) == ["True", "True"]    # loaded from the cache
    (tmp_path / "tiny.py").write_text(TINY.format(k=2) + "\n# changed\n")
    assert _probe(tmp_path) == ["False", "True"]   # the cached code is stale


class NullCache:
    """Looks like numba's cache where nothing can be cached."""


class EmptyIndex:
    """Looks like numba's cache file with nothing for this source (or this machine)."""

    def _load_index(self) -> dict:
        return {}


class Cache:
    _cache_file = EmptyIndex()


class Target:
    class codegen:  # (numba's codegen().magic_tuple())
        def __init__(self) -> None:
            pass

        def magic_tuple(self) -> tuple:
            return ("x86_64", "this-cpu", "")


class Uncached:
    overloads: dict = {}
    _cache = Cache()
    targetctx = Target()


class Uncachable:
    overloads: dict = {}
    _cache = NullCache()


class Compiled:
    overloads = {"sig": "code"}


@pytest.fixture
def fresh(monkeypatch):
    told: list[str] = []
    monkeypatch.setattr(kernels, "_seen", set())
    monkeypatch.setattr(kernels, "_told", False)
    monkeypatch.setattr(kernels, "NOTICE", told.append)
    return told


def test_the_note_comes_once_before_a_compile(fresh):
    a, b = Uncached(), Uncached()
    kernels.before_search(Compiled())
    assert fresh == []
    kernels.before_search(a)
    kernels.before_search(a)
    kernels.before_search(b)  # (another kernel to compile: one note is enough)
    assert fresh == [kernels.COMPILING]
    assert not kernels.kernel_cached(Uncachable())


def test_where_nothing_can_be_cached_the_note_says_every_run_compiles(fresh):
    kernels.before_search(Uncachable())
    assert fresh == [kernels.COMPILING_EVERY_RUN]


def test_no_note_where_nobody_listens_or_nothing_is_known(fresh, monkeypatch):
    monkeypatch.setattr(kernels, "NOTICE", None)
    kernels.before_search(Uncached())  # (nothing raised)
    monkeypatch.setattr(kernels, "NOTICE", fresh.append)
    kernels.before_search(object())  # not a numba kernel: assumed cached, no note
    assert fresh == []


def test_the_command_line_listens_on_a_terminal_only(monkeypatch):
    import cli

    class Err:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    for tty in (False, True):
        monkeypatch.setattr(kernels, "NOTICE", None)
        monkeypatch.setattr(sys, "stderr", Err(tty))
        cli._compile_notice()
        assert (kernels.NOTICE is not None) == tty
    monkeypatch.setattr(kernels, "NOTICE", None)


def _on_a_terminal(args: list[str], cache: Path) -> tuple[int, str, str]:
    """``barbu ARGS`` with stderr on a pseudo-terminal: exit status, stdout, stderr."""
    master, slave = os.openpty()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "COLUMNS": "200"}
    p = subprocess.Popen([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    err = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # (the terminal's other end closed: the process is done)
                break
            if not chunk:
                break
            err += chunk
        elif p.poll() is not None:
            break
    out = p.communicate(timeout=60)[0]
    os.close(master)
    return p.returncode, out.decode(), err.decode(errors="replace")


def test_a_first_run_on_a_terminal_says_it_is_compiling_and_the_next_does_not(tmp_path):
    """The real thing, end to end: a Dominoes solve (the smaller kernel, some 10 s to
    compile) on an empty cache, then again."""
    args = ["solve", "--example", "-r", "barbu-32", "-c", "dominoes", "--json"]
    rc, out, err = _on_a_terminal(args, tmp_path / "cache")
    assert rc == 0 and '"value"' in out
    assert kernels.COMPILING in err
    rc, out2, err = _on_a_terminal(args, tmp_path / "cache")
    assert rc == 0 and out2 == out
    assert "compiling" not in err


def test_the_trick_kernels_helpers_compile_once_each():
    """A constant passed to a helper, or a variable typed as one before it widens,
    compiles the helper again for that constant (the first compile took 15% more CPU
    with 13 such copies). Checked where this process compiled the kernel (a fresh
    clone's test run); one loaded from numba's cache does not list its helpers'
    signatures."""
    from numba.core.registry import CPUDispatcher

    from analyzer.cards import random_deal
    from analyzer.solve import solve
    from solvers import tricks as K
    solve(random_deal(0, 32, 2), "barbu-32", "no-tricks", leader=0, seat=0)
    sigs = {name: len(f.signatures) for name, f in vars(K).items()
            if isinstance(f, CPUDispatcher)}
    if not sigs.get("_qt_entry"):
        pytest.skip("the trick kernel came from numba's cache: its helpers' signatures "
                    "are not known in this process")
    # (_lane and _bit are a few instructions each)
    assert {n: k for n, k in sigs.items() if k > 1 and n not in ("_lane", "_bit")} == {}

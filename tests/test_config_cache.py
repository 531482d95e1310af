"""Where the compiled kernels are cached when numba's own places are not writable (a
read-only install for a user without a writable home): import used to fail with "cannot
cache function ...: no locator available"."""

from __future__ import annotations

import os

import pytest

from solvers import config


def test_numbas_own_place_first(tmp_path):
    assert config._cache_choice([str(tmp_path / "pycache")], str(tmp_path / "tmp")) is None


def test_a_private_temporary_folder_when_numbas_places_are_not_writable(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    unwritable = [str(blocker / "__pycache__"), str(blocker / "cache")]
    fallback = tmp_path / "barbu-dd-numba"
    assert config._cache_choice(unwritable, str(fallback)) == str(fallback)
    assert fallback.is_dir() and not fallback.stat().st_mode & 0o077
    # nowhere at all: no cache (compile every run) rather than a failed import
    assert config._cache_choice(unwritable, str(blocker / "tmp")) == ""


def test_a_folder_others_can_write_to_is_not_used(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    (tmp_path / "f").write_text("")
    assert config._cache_choice([str(tmp_path / "f" / "x")], str(shared)) == ""


def test_a_folder_its_group_can_write_to_or_another_user_owns_is_not_used(tmp_path,
                                                                          monkeypatch):
    """Compiled code is loaded from the cache: a fallback folder that a group can write
    to, or that another user made, could hold planted code."""
    (tmp_path / "f").write_text("")
    blocked = [str(tmp_path / "f" / "x")]
    group = tmp_path / "group"
    group.mkdir()
    os.chmod(group, 0o770)
    assert config._cache_choice(blocked, str(group)) == ""
    mine = tmp_path / "mine"
    mine.mkdir()
    os.chmod(mine, 0o700)
    assert config._cache_choice(blocked, str(mine)) == str(mine)
    if hasattr(os, "getuid"):
        monkeypatch.setattr(os, "getuid", lambda: os.stat(mine).st_uid + 1)
        assert config._cache_choice(blocked, str(mine)) == ""


def test_writable_means_a_file_can_be_made_there(tmp_path):
    """numba's own test: the folder made, then a file in it (a folder that exists but
    takes no files, like /proc/self, is not a place for the cache)."""
    assert config._writable(str(tmp_path / "new" / "deeper"))
    if os.path.isdir("/proc/self"):
        assert not config._writable("/proc/self")


def test_kernels_compile_without_the_reference_counting_runtime():
    """_nrt=False (where numba has it) is worth about 30% of the trick solver's CPU."""
    from numba.core.cpu import CPUTargetOptions
    assert config.NUMBA_OPTS.get("_nrt", None) is (False if hasattr(CPUTargetOptions, "_nrt")
                                                   else None)


def test_a_relative_place_is_never_taken(tmp_path, monkeypatch):
    """With no home, numba's user folder reads "~/.cache/numba", a folder of the current
    directory (another user's, perhaps): compiled code planted there would run."""
    monkeypatch.chdir(tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    fallback = tmp_path / "private"
    assert config._cache_choice([str(blocker / "x"), "~/.cache/numba"],
                                str(fallback)) == str(fallback)
    assert not (tmp_path / "~").exists()


_KERNEL = '''
import sys
from numba import njit
from solvers.config import NUMBA_OPTS
import solvers.config as config

@njit(**NUMBA_OPTS)
def twice(x):
    return 2 * x

print(twice(21), twice.stats.cache_hits.get(twice.signatures[0], 0) if twice.signatures
      else 0, config.CACHE_NOTE)
'''


def _run_kernel(tmp_path, env_extra: dict, pre: str = "", factor: int = 2) -> list[str]:
    import subprocess
    import sys
    from pathlib import Path
    mod = tmp_path / "kernel_mod.py"
    mod.write_text(_KERNEL.replace("2 * x", f"{factor} * x"))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1]), **env_extra}
    # (imported, not run as __main__: numba caches a module's functions by its file)
    p = subprocess.run([sys.executable, "-c", pre + "import kernel_mod\n"], cwd=tmp_path,
                       env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    return p.stdout.split(maxsplit=2)


def test_a_damaged_cache_entry_is_compiled_again(tmp_path):
    """A truncated or emptied cache file stopped every later run with an unpickling
    traceback (or a false "aborted"), for good; now it is a miss, and the next save
    writes the entry again."""
    cache = tmp_path / "cache"
    env = {"NUMBA_CACHE_DIR": str(cache)}
    assert _run_kernel(tmp_path, env)[:2] == ["42", "0"]   # compiled, saved
    assert _run_kernel(tmp_path, env)[:2] == ["42", "1"]   # loaded
    for damage in ("half", "empty", "junk"):
        for f in list(cache.rglob("*.nbi")) + list(cache.rglob("*.nbc")):
            data = f.read_bytes()
            f.write_bytes(data[:len(data) // 2] if damage == "half"
                          else b"" if damage == "empty" else b"\x80junk" * 9)
        assert _run_kernel(tmp_path, env)[:2] == ["42", "0"], damage  # compiled again
        assert _run_kernel(tmp_path, env)[:2] == ["42", "1"], damage  # and saved


def test_a_cache_that_cannot_be_written_is_skipped_with_a_note(tmp_path):
    """A full disk (or another user's entry in a shared folder) stopped the run with
    "cannot write the output" and no answer; NUMBA_CACHE_DIR that cannot be written
    failed at import ("no locator available")."""
    full = ("import errno\nfrom numba.core import caching\n"
            "def _full(self, path):\n"
            "    raise OSError(errno.ENOSPC, 'No space left on device', path)\n"
            "caching.IndexDataCacheFile._open_for_write = _full\n")
    out = _run_kernel(tmp_path, {"NUMBA_CACHE_DIR": str(tmp_path / "c")}, pre=full)
    assert out[0] == "42" and out[2].startswith(
        "note: the compiled kernels could not be cached: No space left on device")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    out = _run_kernel(tmp_path, {"NUMBA_CACHE_DIR": str(blocker / "cache")})
    assert out[0] == "42" and out[2].startswith(
        f"note: NUMBA_CACHE_DIR ({blocker / 'cache'}) cannot be written")


def test_a_failed_save_never_leaves_the_old_code_behind(tmp_path):
    """numba writes the index before the data: when the data write failed after the
    source changed, the index named the old data file and every later run loaded the
    previous version's code (a wrong answer), while the note promised a recompile."""
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    assert _run_kernel(tmp_path, env)[:2] == ["42", "0"]
    assert _run_kernel(tmp_path, env)[:2] == ["42", "1"]
    full = ("import errno\nfrom numba.core import caching\n"
            "def _full(self, name, data):\n"
            "    raise OSError(errno.ENOSPC, 'No space left on device', name)\n"
            "caching.IndexDataCacheFile._save_data = _full\n")
    out = _run_kernel(tmp_path, env, pre=full, factor=3)  # a new version, data not saved
    assert out[0] == "63" and "could not be cached" in out[2]
    assert _run_kernel(tmp_path, env, factor=3)[:2] == ["63", "0"]  # compiled, not the old
    assert _run_kernel(tmp_path, env, factor=3)[:2] == ["63", "1"]


def test_a_compile_waits_while_another_process_compiles_the_same_function(tmp_path,
                                                                          monkeypatch):
    """Two processes compiling one cached function at once each compiled it, and a
    kernel then linked both copies (the helper beside a first compile,
    ``analyzer.pools.compile_beside``); now a compile waits on the other's lock and then
    loads its code (``tests/test_compile_plan.py``, for real), after ``COMPILE_WAIT``
    seconds it goes on alone, and a lock that cannot be made is no lock."""
    import fcntl
    import time

    from solvers import tricks as K
    path = config._compile_lock_path(K._solve)
    if path is None:
        pytest.skip("numba has no place to cache here")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # (another open file: as another process would)
    try:
        assert config.compile_busy(K._solve)
        monkeypatch.setattr(config, "COMPILE_WAIT", 0.3)
        t0 = time.monotonic()
        assert config._lock_waiting(path) is None
        assert 0.3 <= time.monotonic() - t0 < 5
    finally:
        os.close(fd)
    assert not config.compile_busy(K._solve)
    fd = config._lock_waiting(path)
    assert fd is not None
    os.close(fd)
    (tmp_path / "a-file").write_text("")
    assert config._lock_waiting(str(tmp_path / "a-file" / "f.nbi.lock")) is None

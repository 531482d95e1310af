"""Where the compiled kernels are cached when numba's own places are not writable (a
read-only install for a user without a writable home): import used to fail with "cannot
cache function ...: no locator available"."""

from __future__ import annotations

import os

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

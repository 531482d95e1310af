"""The numba settings of ``solvers.config``: the call-convention patch keeps calls right."""

from __future__ import annotations

import re

import pytest
from numba import njit

import solvers.config  # noqa: F401  (applies the patch)
from numba.core import callconv


@njit
def _pair(x):
    if x < 0:
        raise ValueError("negative")
    if x > 1000:  # recursive: LLVM does not inline it, so its call slots stay
        return _pair(x - 1000)
    return x + 1, x * 2


@njit
def _caller(x, y):
    # several call sites on separate paths, each with its own return slot
    if x > 100:
        a, b = _pair(x - 100)
        return a + b
    if y > 0:
        a, b = _pair(y)
        return a - b
    a, b = _pair(x)
    return a * b


def test_the_patch_is_in_place():
    assert getattr(callconv.CPUCallConv.call_function, "_barbu", False)


def test_calls_return_their_values_and_raise_their_exceptions():
    assert _caller(103, 0) == 4 + 6
    assert _caller(0, 5) == 6 - 10
    assert _caller(4, 0) == 5 * 8
    assert _caller(1500, 0) == 401 + 800  # through the recursion
    with pytest.raises(ValueError, match="negative"):
        _caller(-3, 0)
    with pytest.raises(ValueError, match="negative"):
        _caller(-1, -1)


def test_call_slots_are_zeroed_at_their_call_not_on_entry():
    _caller(1, 1)
    ir = next(iter(_caller.inspect_llvm().values()))
    m = re.search(r"define [^\n]*_caller[^\n]*\{\n(.*?)\n\n", ir, re.S)
    assert m, "the caller's body is not in its LLVM module"
    entry = m.group(1)
    assert "_pair" not in entry  # the entry block makes no call itself...
    # ...and zero-fills no exception slot (unpatched numba stores null to all three there)
    assert "store ptr null" not in entry

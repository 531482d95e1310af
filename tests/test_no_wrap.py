"""The trick kernel indexes its arrays without numba's negative-index wraparound
(``solvers.config._no_wraparound``): a negative index there would read or write outside
the array. Under numba's bounds checks (``NUMBA_BOUNDSCHECK=1``, a fresh compile in a
subprocess: about a minute on two cores) such an index is an ``IndexError`` instead, so
these tests run the kernel that way over the oracle's random positions, the stored
golden ones and full deals whose table grows, and check its answers as well."""

import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from solvers import config

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import sys
from numba.core import config
assert config.BOUNDSCHECK, "the bounds checks are off"
import analyzer.solve as S
from analyzer.cards import random_deal
from analyzer.rules import load_rules
from tests.test_solve import _check, _check_golden, _golden_cases
plain, cards, golden, deals = (int(x) for x in sys.argv[1:5])
for seed in range(plain):
    _check(seed)
for seed in range(10_000, 10_000 + cards):
    _check(seed, cards=True)
_check_golden(_golden_cases()[::max(1, 600 // max(golden, 1))][:golden])
# full deals, again with the table grown from 2^8 (each growth moves its entries:
# _tt_rehash)
bridge = load_rules("bridge")
jobs = []
for k in range(deals):
    trump = None if k % 2 == 0 else "SHDC"[(k // 2) % 4]  # (each suit in turn)
    jobs.append((random_deal(70_000 + k, 52), "notrump" if trump is None else "trumps",
                 trump))
want = [S.solve(d, bridge, c, trump=t, leader=k % 4, side="NS")
        for k, (d, c, t) in enumerate(jobs)]
S.DEFAULT_TT_BITS = {13: 8}
S.SIZE_HINTS = False
got = [S.solve(d, bridge, c, trump=t, leader=k % 4, side="NS")
       for k, (d, c, t) in enumerate(jobs)]
assert got == want, (got, want)
print("ok")
"""


def _run_checked(tmp_path: Path, plain: int, cards: int, golden: int, deals: int) -> None:
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", CHILD, str(plain), str(cards), str(golden),
                          str(deals)], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=3000)
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-3000:]


def test_the_kernel_under_bounds_checks(tmp_path: Path) -> None:
    """CI's sample: 100 oracle positions, 10 with every card's value, 20 golden ones, 4
    full deals."""
    _run_checked(tmp_path, 100, 10, 20, 4)


@pytest.mark.slow
def test_the_kernel_under_bounds_checks_in_full(tmp_path: Path) -> None:
    """2,000 oracle positions, 200 with every card's value, all 600 golden ones, 40 full
    deals."""
    _run_checked(tmp_path, 2000, 200, 600, 40)


def test_other_functions_keep_negative_indices() -> None:
    """The patch is for the kernel's functions alone: a function compiled anywhere else
    still reads ``a[-1]`` as the last item."""
    @numba.njit
    def last(a, i):  # type: ignore[no-untyped-def]
        return a[i]

    from numba.np import arrayobj
    assert getattr(arrayobj.fix_integer_index, "_barbu", False) and config.NO_WRAP
    a = np.arange(5, dtype=np.int64)
    assert last(a, -1) == 4 and last(a, np.int64(-2)) == 3

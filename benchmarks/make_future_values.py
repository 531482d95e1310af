"""Make the run-of-seven table ``data/future_values/<preset>.json`` (docs/advise.md).

    python benchmarks/make_future_values.py barbu-32 --hands 200 --inner 4 --seed 2026

For ``--hands`` random declarer hands (seeded), every option of every match contract is
solved on ``--inner`` deals of the unseen cards; a contract's value on a hand is the best
of its options' means, and ``F(S)`` -- the expected total of the best order for the
contracts in S on |S| random future hands -- follows by dynamic programming over subsets
(:func:`analyzer.advise.future_value_table`). The file records the preset, its game's
fingerprint (:func:`analyzer.rules.game_fingerprint`: the advisor reads a table only for
the rules it was made with), the seed and the sample sizes, so the same command reproduces
it exactly whatever ``--workers`` (all but the ``seconds`` it took). Only the built-in
presets take a table: the advisor looks for no other.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from analyzer.advise import future_value_table
from analyzer.errors import BarbuError
from analyzer.rules import BUILTIN_PRESETS

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("preset")
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--inner", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    if a.preset not in BUILTIN_PRESETS:
        ap.error(f"{a.preset!r} is not a built-in preset ({', '.join(BUILTIN_PRESETS)}): "
                 "the advisor reads run-of-seven tables for those only")
    for k, low in (("hands", 2), ("inner", 1), ("workers", 1)):
        if getattr(a, k) < low:
            ap.error(f"--{k} must be at least {low}")
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if done % 50 == 0 or done == total:
            print(f"\r{done}/{total} solves, {time.perf_counter() - t0:.0f} s", end="",
                  file=sys.stderr, flush=True)

    try:
        table = future_value_table(a.preset, a.hands, a.inner, a.seed, a.workers, progress)
    except BarbuError as e:
        ap.error(str(e))
    table["command"] = (f"python benchmarks/make_future_values.py {a.preset} --hands "
                        f"{a.hands} --inner {a.inner} --seed {a.seed}")
    table["seconds"] = round(time.perf_counter() - t0, 1)
    out = a.out or ROOT / "data" / "future_values" / f"{table['preset']}.json"
    try:
        out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    except OSError as e:
        ap.error(f"cannot write {out}: {e.strerror or e}")
    print(f"\nwrote {out} in {table['seconds']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

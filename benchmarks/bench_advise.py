"""Wall time of the contract advisor (``barbu advise``) -- a benchmark, not a test.

    python benchmarks/bench_advise.py                      # every case below
    python benchmarks/bench_advise.py --preset barbu-32 --samples 100 --workers 2

Each case advises one fixed hand (a seeded random hand of the preset's deck, seat N) on
every contract of the preset's match (4 trump suits, every Dominoes rank), with the given
samples and workers, and prints one Markdown table row: preset, options, samples,
workers, wall seconds (cold: including numba cache loading in a fresh process), seconds
per deal, and the recommendation. ``--limit`` stops a case after that many seconds and
reports the rate measured so far.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import signal
import sys
import time

CASES = (("tournament", 100), ("fr-52", 100), ("barbu-32", 100), ("classic-32", 100))


def _case(preset: str, samples: int, workers: int, seed: int, remaining: str | None,
          q) -> None:
    os.setpgrp()  # the case and its worker pool form one group, stopped together
    from analyzer.advise import advise
    from analyzer.cards import format_hand, random_deal
    from analyzer.rules import load_rules
    r = load_rules(preset)
    hand = format_hand(random_deal(seed, deck=r.deck).hands[0])
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:
        q.put(("progress", done, total, time.perf_counter() - t0))

    d = advise(hand, seat="N", rules=r, samples=samples, seed=seed, workers=workers,
               progress=progress, remaining=remaining)
    q.put(("done", hand, len(d["options"]), d["samples"], time.perf_counter() - t0,
           d["recommendation"]["label"], d["recommendation"]["separated"]))


def run(preset: str, samples: int, workers: int, seed: int, limit: float,
        remaining: str | None = None) -> str:
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_case, args=(preset, samples, workers, seed, remaining, q))
    t0 = time.perf_counter()
    p.start()
    last = None
    while True:
        left = limit - (time.perf_counter() - t0)
        try:
            msg = q.get(timeout=max(left, 0.1))
        except Exception:
            msg = None
        if msg is None or left <= 0:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.join()
            if last is None:
                return f"| {preset} | ? | {samples} | {workers} | > {limit:.0f} (no deal done) | - | - |"
            _, done, total, el = last
            return (f"| {preset} | ? | {samples} | {workers} | stopped at {limit:.0f} s: "
                    f"{done}/{total} deal tasks | {el / done:.2f} | - |")
        if msg[0] == "progress":
            last = msg
            continue
        _, hand, nopt, n, wall, rec, sep = msg
        p.join()
        note = " (forced)" if sep is None else "" if sep else " (not separated)"
        return (f"| {preset} | {nopt} | {n} | {workers} | {wall:.1f} | {wall / n:.2f} | "
                f"{rec}{note} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", action="append")
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=600.0)
    ap.add_argument("--remaining", default=None, help="contracts to advise on (default all)")
    a = ap.parse_args(argv)
    known = [p for p, _ in CASES]
    unknown = [p for p in a.preset or () if p not in known]
    if unknown:
        ap.error(f"unknown --preset {unknown[0]!r} (expected one of {', '.join(known)})")
    cases = [(p, a.samples or n) for p, n in CASES if not a.preset or p in a.preset]
    print("| preset | options | samples | workers | wall s | s per deal | advice |"
          + (f" (remaining: {a.remaining})" if a.remaining else ""))
    print("|---|---|---|---|---|---|---|")
    for preset, n in cases:
        print(run(preset, n, a.workers, a.seed, a.limit, a.remaining), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

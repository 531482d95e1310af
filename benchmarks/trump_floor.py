"""How far ``analyzer.advise.sure_trump_tricks`` raises a trump option's floor over the
declarer's unbroken trumps from the ace (the floor until the fifty-third session) --
a measurement, not a test.

    python benchmarks/trump_floor.py --hands 20000

Uniformly random hands of the 52- and 32-card decks (seeded); for each, the sure trump
tricks of each suit as trumps, by both rules. Printed: the mean per suit, the mean of the
hand's best suit, and the share of suits whose floor rises.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.advise import sure_trump_tricks  # noqa: E402


def unbroken(hand: set[int], trump: int, deck: int) -> int:
    """The old floor: the declarer's trumps in an unbroken run down from the ace."""
    n = 0
    for rank in range(12, 12 - deck // 4, -1):
        if 13 * trump + rank not in hand:
            break
        n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print("| deck | hands | per suit: unbroken / sure | best suit: unbroken / sure "
          "| suits raised |\n|---|---|---|---|---|")
    for deck in (52, 32):
        cards = [13 * s + k for s in range(4) for k in range(13 - deck // 4, 13)]
        rng = random.Random(a.seed)
        old = new = old_best = new_best = raised = 0
        for _ in range(a.hands):
            hand = set(rng.sample(cards, deck // 4))
            u = [unbroken(hand, t, deck) for t in range(4)]
            s = [sure_trump_tricks(hand, t, deck) for t in range(4)]
            assert all(x <= y for x, y in zip(u, s))
            old, new = old + sum(u), new + sum(s)
            old_best, new_best = old_best + max(u), new_best + max(s)
            raised += sum(y > x for x, y in zip(u, s))
        n = a.hands
        print(f"| {deck} | {n} | {old / 4 / n:.3f} / {new / 4 / n:.3f} | "
              f"{old_best / n:.3f} / {new_best / n:.3f} | {raised / 4 / n:.1%} |")


if __name__ == "__main__":
    main()

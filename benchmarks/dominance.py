"""Does a defender ever do better to keep the higher of two follow cards? A brute-force
check for No Tricks -- a research tool, not a test.

    python benchmarks/dominance.py --deals 1500 --cards 3 --suits 3 --ranks 6 --seed 2

In the paranoid No Tricks search, the proof that the declarer holds to k tricks has to
try every play of the three defenders; that breadth is most of the heavy deals' cost
(BENCHMARKS.md, "Trick solver", seventy-second session). A dominance rule would spare
some of it: if, when a defender follows suit under the trick's best card so far with
either of two cards a < b, playing b (keeping a) were never worse for the defence, the
search could skip a. This script plays small random deals out in full (a plain minimax
of its own: notrump, follow suit, the declarer is seat 0 and the others maximise his
tricks) and, at every such choice, compares the two plays' values. The pairs are
grouped by who holds the cards ranked between a and b: nobody, the declarer only, the
defenders only, or both.

Found (seventy-second session): where a defender holds a card between them, keeping the
higher card (playing a) is at times worth more: it can win a later trick and so move the
lead within the defence (9 of 3,937 pairs). With only the declarer's cards between them
no pair went that way (0 of 1,228), but nothing here proves that none does.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from functools import lru_cache


def _winner(trick: tuple, leader: int) -> int:
    led = trick[0][0]
    best = max((i for i in range(4) if trick[i][0] == led), key=lambda i: trick[i][1])
    return (leader + best) % 4


def _moves(hand: frozenset, trick: tuple) -> list:
    if trick:
        follow = sorted(c for c in hand if c[0] == trick[0][0])
        if follow:
            return follow
    return sorted(hand)


def check_deal(hands: tuple, leader: int, found: Counter, better: Counter,
               shown: list) -> None:
    """Compare the two plays of every pair of under-cards a defender could follow with,
    at every position of the deal's game tree."""

    def after(hs: tuple, ld: int, tr: tuple, p: int, c: tuple) -> tuple:
        nh = list(hs)
        nh[p] = hs[p] - {c}
        t = tr + (c,)
        if len(t) < 4:
            return tuple(nh), ld, t, 0
        w = _winner(t, ld)
        return tuple(nh), w, (), int(w == 0)

    @lru_cache(maxsize=None)
    def value(hs: tuple, ld: int, tr: tuple) -> int:
        if not any(hs) and not tr:
            return 0
        p = (ld + len(tr)) % 4
        vals = [play_value(hs, ld, tr, p, c) for c in _moves(hs[p], tr)]
        return max(vals) if p != 0 else min(vals)

    def play_value(hs: tuple, ld: int, tr: tuple, p: int, c: tuple) -> int:
        nh, nld, ntr, took = after(hs, ld, tr, p, c)
        return took + value(nh, nld, ntr)

    seen = set()
    stack = [(hands, leader, ())]
    while stack:
        st = stack.pop()
        if st in seen:
            continue
        seen.add(st)
        hs, ld, tr = st
        if not any(hs) and not tr:
            continue
        p = (ld + len(tr)) % 4
        moves = _moves(hs[p], tr)
        if p != 0 and tr and moves[0][0] == tr[0][0]:
            led = tr[0][0]
            top = max(c[1] for c in tr if c[0] == led)
            under = [c for c in moves if c[1] < top]
            vals = {c: play_value(hs, ld, tr, p, c) for c in under}
            for i, a in enumerate(under):
                for b in under[i + 1:]:
                    between = {q for q in range(4) for c in hs[q]
                               if c[0] == led and a[1] < c[1] < b[1]}
                    kind = ("nobody" if not between else "declarer only" if between == {0}
                            else "defenders only" if 0 not in between else "both")
                    found[kind] += 1
                    if vals[a] > vals[b]:
                        better[kind] += 1
                        if len(shown) < 3:
                            shown.append((kind, p, a, b, vals[a], vals[b], hs, ld, tr))
        for c in moves:
            stack.append(after(hs, ld, tr, p, c)[:3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--cards", type=int, default=3, help="cards a hand")
    ap.add_argument("--suits", type=int, default=3)
    ap.add_argument("--ranks", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if not (1 <= a.suits <= 4 and a.suits * a.ranks >= 4 * a.cards >= 4):
        ap.error("the deck (suits x ranks) must hold four hands of --cards")
    rng = random.Random(a.seed)
    found: Counter = Counter()
    better: Counter = Counter()
    shown: list = []
    for _ in range(a.deals):
        deck = [(s, r) for s in range(a.suits) for r in range(a.ranks)]
        rng.shuffle(deck)
        hands = tuple(frozenset(deck[i * a.cards:(i + 1) * a.cards]) for i in range(4))
        check_deal(hands, rng.randrange(4), found, better, shown)
    print("cards between the two | pairs | the lower one's play worth more to the defence")
    for kind in ("nobody", "declarer only", "defenders only", "both"):
        print(f"{kind} | {found[kind]} | {better[kind]}")
    for kind, p, x, y, vx, vy, hs, ld, tr in shown:
        print(f"e.g. ({kind}) seat {p} follows with {x} or {y} (suit, rank): the declarer "
              f"then takes {vx} / {vy} tricks; hands {[sorted(h) for h in hs]}, "
              f"leader {ld}, trick {tr}")


if __name__ == "__main__":
    main()

"""How many tricks can the defenders force on the No Tricks declarer? A brute-force check
of a potential for a future bound -- a research tool, not a test.

    python benchmarks/forced_potential.py --positions 3000 --cards 5 --seed 1

The paranoid No Tricks search spends most of its nodes proving that the declarer holds
to k tricks whatever the three defenders play (BENCHMARKS.md, "Trick solver",
seventy-second and seventy-third sessions). A bound that proved such a hold for a whole
position would cut that proof short. This script checks one candidate's parts.

The potential: for each suit ``s`` of the declarer (cards ``d_0 < d_1 < ...``, ``n_s`` of
them), ``c_j`` = the defenders' cards of ``s`` below ``d_j``,
``Phi_s = max(0, max_j (c_j - j))`` (0 exactly when he can always play under a card a
defender leads: the solver's ``_duck_safe``), and ``Psi = sum_s min(Phi_s, n_s)``.

The declarer's policy when a defender leads: follow with his highest card below the
trick's best card so far; with none, with his highest card of the suit; void, discard
the highest card of a suit (any suit). The claims, checked over every play of the three
defenders to one trick from random positions:

1. *A defender's lead:* ``Psi`` never rises, and drops by at least 1 when the declarer
   takes the trick. So he takes at most ``Psi`` of the tricks that defenders lead.
2. *His own lead* of a card of suit ``t``, by kind: ``Phi_t >= n_t`` ("saturated":
   ``Psi`` drops by at least 1 whatever happens); ``Phi_t = n_t - 1`` (``Psi`` does not
   rise); his highest card of ``t`` (does not rise); any other lead (may rise by 1).

And, over whole small deals (a plain minimax, the declarer seat 0, the defenders taking
as many of his tricks as they can), how far his value lies above ``Psi``: the tricks
his own leads cost. A bound needs a way to keep leads of the first three kinds
available for every lead he makes (as ``_neg_exits`` keeps exit cards over a window).

Found (seventy-third session; BENCHMARKS.md): no play against claim 1 in 836,826
defender-led plays (5,000 positions of 5 cards and 7 ranks, 1,500 of 7 cards and 10
ranks), none against claim 2's first three kinds; the other leads raised ``Psi`` by 1
in about 5-8% of their plays. Over 2,000 whole deals of 4 cards a hand, the declarer's
value lay above ``Psi`` in 255, by up to 3 tricks. On 255 positions with 9 tricks left
of the heavy No Tricks deal (``--dump``), his exact tricks exceeded ``Psi`` in 58.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from functools import lru_cache

from dominance import _moves, _winner  # (the same plain rules: follow suit, no trumps)

Hands = tuple  # four frozensets of (suit, rank)


def phi(hands: Hands, s: int) -> tuple[int, int]:
    """(Phi_s, n_s) of the declarer (seat 0) in suit ``s``."""
    d = sorted(r for (t, r) in hands[0] if t == s)
    oth = [r for q in (1, 2, 3) for (t, r) in hands[q] if t == s]
    best = 0
    for j, dj in enumerate(d):
        best = max(best, sum(1 for c in oth if c < dj) - j)
    return best, len(d)


def psi(hands: Hands) -> int:
    return sum(min(*phi(hands, s)) for s in range(4))


def _policy(hand: frozenset, trick: list) -> list:
    """The declarer's cards under the policy (several only for a discard)."""
    led = trick[0][0]
    mine = sorted(c for c in hand if c[0] == led)
    if not mine:
        return [max(c for c in hand if c[0] == s) for s in range(4)
                if any(c[0] == s for c in hand)]
    top = max(c[1] for c in trick if c[0] == led)
    under = [c for c in mine if c[1] < top]
    return [under[-1] if under else mine[-1]]


def _tricks(hands: Hands, leader: int, first: tuple | None):
    """Every trick from ``leader`` (the declarer by the policy, the defenders any legal
    card; ``first`` fixes the lead): yields (cards, winner, hands after)."""
    def rec(i: int, trick: list, hs: list):
        if i == 4:
            yield list(trick), _winner(trick, leader), tuple(hs)
            return
        p = (leader + i) % 4
        if i == 0:
            opts = [first] if first is not None else sorted(hs[p])
        elif p == 0:
            opts = _policy(hs[p], trick)
        else:
            opts = _moves(hs[p], tuple(trick))
        for c in opts:
            hs2 = list(hs)
            hs2[p] = hs[p] - {c}
            yield from rec(i + 1, trick + [c], hs2)
    yield from rec(0, [], list(hands))


def _deal(rng: random.Random, n: int, ranks: int) -> Hands:
    deck = [(s, r) for s in range(4) for r in range(ranks)]
    rng.shuffle(deck)
    return tuple(frozenset(deck[i * n:(i + 1) * n]) for i in range(4))


def check_tricks(rng: random.Random, positions: int, n: int, ranks: int) -> None:
    bad = Counter()
    seen = Counter()
    rise = Counter()
    for _ in range(positions):
        hands = _deal(rng, n, ranks)
        p0 = psi(hands)
        for leader in (1, 2, 3):
            for _, win, after in _tricks(hands, leader, None):
                seen["defender lead"] += 1
                if psi(after) > p0 - (win == 0):
                    bad["defender lead"] += 1
        for c in sorted(hands[0]):
            f, m = phi(hands, c[0])
            top = c == max(x for x in hands[0] if x[0] == c[0])
            kind = ("saturated" if f >= m else "one short" if f == m - 1
                    else "highest card" if top else "other")
            limit = {"saturated": -1, "one short": 0, "highest card": 0}.get(kind)
            for _, win, after in _tricks(hands, 0, c):
                seen[kind] += 1
                d = psi(after) - p0
                rise[(kind, d)] += 1
                if limit is not None and d > limit:
                    bad[kind] += 1
    print("one trick (plays checked, claims broken):")
    for k in ("defender lead", "saturated", "one short", "highest card", "other"):
        print(f"  {k}: {seen[k]:,} plays, {bad[k]} broken")
    print("  own leads of the other kind, change of Psi:",
          {d: rise[("other", d)] for d in sorted({d for (k, d) in rise if k == "other"})})


def check_deals(rng: random.Random, deals: int, n: int, ranks: int) -> None:
    @lru_cache(maxsize=None)
    def value(hs: Hands, ld: int, tr: tuple) -> int:
        p = (ld + len(tr)) % 4
        if not hs[p]:
            return 0
        opts = _moves(hs[p], tr)
        best = None
        for c in opts:
            nh = list(hs)
            nh[p] = hs[p] - {c}
            t = tr + (c,)
            if len(t) < 4:
                v = value(tuple(nh), ld, t)
            else:
                w = _winner(t, ld)
                v = int(w == 0) + value(tuple(nh), w, ())
            if best is None or (v < best if p == 0 else v > best):
                best = v
        return best

    gap = Counter()
    for _ in range(deals):
        hands = _deal(rng, n, ranks)
        ld = rng.randrange(4)
        value.cache_clear()
        gap[value(hands, ld, ()) - psi(hands)] += 1
    print("whole deals: the declarer's tricks minus Psi -> deals:",
          dict(sorted(gap.items())))


def check_dump(path: str) -> None:
    """Positions written by ``levels.py --dump-tl T --out FILE`` (No Tricks, North the
    declarer): his exact tricks (``analyzer.solve.solve``) against ``Psi``."""
    import json
    import os
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from analyzer.cards import card_index
    from analyzer.rules import load_rules
    from analyzer.solve import solve

    rules = load_rules("tournament")
    gap = Counter()
    for line in open(path):
        r = json.loads(line)
        hands = tuple(frozenset(("SHDC".index(c[0]), "23456789TJQKA".index(c[1]))
                                for c in h) for h in r["hands"])
        v = solve([frozenset(card_index(c) for c in h) for h in r["hands"]], rules,
                  "no-tricks", leader=r["leader"], seat="N", whole_hand=False)
        gap[int(-v / 2) - psi(hands)] += 1
    print("dumped positions: the declarer's tricks minus Psi -> positions:",
          dict(sorted(gap.items())))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=3000,
                    help="positions for the one-trick claims")
    ap.add_argument("--deals", type=int, default=1000, help="whole deals played out")
    ap.add_argument("--cards", type=int, default=5, help="cards a hand (one trick)")
    ap.add_argument("--deal-cards", type=int, default=4,
                    help="cards a hand (whole deals)")
    ap.add_argument("--ranks", type=int, default=7, help="ranks a suit")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dump", default=None,
                    help="instead: No Tricks positions written by levels.py --out, each "
                         "solved exactly and compared with Psi")
    a = ap.parse_args()
    if a.dump:
        check_dump(a.dump)
        return
    rng = random.Random(a.seed)
    check_tricks(rng, a.positions, a.cards, a.ranks)
    check_deals(rng, a.deals, a.deal_cards, a.ranks)


if __name__ == "__main__":
    main()

"""The pooled-rank relaxation of paranoid No Tricks -- a research tool, not a bound the
solver uses (BENCHMARKS.md, "Trick solver", thirty-seventh session).

The declarer D wants as few tricks as possible; the three defenders want him to take
them. In the relaxed game the defenders' cards of each suit form one pool that any of
them may play from (each keeps his own count of the suit, so who must follow and who
may discard is as in the real game); a pool card counts only by the gap between D's
cards it lies in, and when two defenders play from the same top gap the defence picks
which wins. Every real defence is a relaxed one, so D's relaxed trick count is at least
his real one: "D takes at most b more tricks" proven in the relaxed game holds in the
real game.

Modes::

    python benchmarks/relax_nt.py --check 400          # soundness and tightness against
                                                       # analyzer.solve on small positions
    python benchmarks/relax_nt.py --dump FILE          # the held tests of a levels.py dump
                                                       # (levels.py no-tricks --dump-tl T):
                                                       # how many the relaxed game proves,
                                                       # and what its search costs
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, types
from numba.typed import Dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

KEY = types.UniTuple(types.int64, 5)
NO_HOLD = 99  # "no b known to hold" in a memo value


@njit(cache=False)  # (mutually recursive: not cached, see BENCHMARKS.md)
def _key(G, K, cnt, leader, D):
    """Memo key: each suit's gap counts (4 bits each) and D's length, the defenders'
    suit counts and the leader."""
    k = np.zeros(5, np.int64)
    for s in range(4):
        k[s] = K[s] << 56
        for j in range(14):
            k[s] |= G[s, j] << (4 * j)
    k[4] = leader
    sh = 2
    for q in range(4):
        if q != D:
            for s in range(4):
                k[4] |= cnt[q, s] << sh
                sh += 4
    return (k[0], k[1], k[2], k[3], k[4])


@njit(cache=False)  # (mutually recursive: not cached, see BENCHMARKS.md)
def _rec(G, K, cnt, leader, nt, ts, tu, tx, b, D, memo, stats):
    """Does D surely take at most ``b`` more tricks? ``G[s, j]``: pool cards of suit
    ``s`` in gap ``j`` (below D's (j+1)-th lowest card), ``K[s]``: D's cards of ``s``,
    ``cnt[q, s]``: defender ``q``'s cards of ``s``; the trick so far: seats ``ts``,
    suits ``tu``, and ``tx`` (D: his card's index 1..K from the bottom; a defender: the
    gap of his card)."""
    stats[0] += 1
    if nt > 0:
        return _play(G, K, cnt, leader, nt, ts, tu, tx, b, D, memo, stats)
    if b < 0:
        return False
    if K[0] + K[1] + K[2] + K[3] <= b:
        return True
    key = _key(G, K, cnt, leader, D)
    lo_hold = NO_HOLD
    hi_fail = -1
    if key in memo:
        v = memo[key]
        lo_hold = v >> 8
        hi_fail = (v & 255) - 1
        if b >= lo_hold:
            return True
        if b <= hi_fail:
            return False
    res = _play(G, K, cnt, leader, 0, ts, tu, tx, b, D, memo, stats)
    if res:
        lo_hold = min(lo_hold, b)
    else:
        hi_fail = max(hi_fail, b)
    memo[key] = (lo_hold << 8) | (hi_fail + 1)
    return res


@njit(cache=False)  # (mutually recursive: not cached, see BENCHMARKS.md)
def _play(G, K, cnt, leader, nt, ts, tu, tx, b, D, memo, stats):
    if nt == 4:
        led = tu[0]
        di = -1
        top = -1
        for t in range(4):
            if tu[t] == led:
                if ts[t] == D:
                    di = tx[t]
                elif tx[t] > top:
                    top = tx[t]
        # D's card leaves: the gaps on either side of it become one
        G2 = G.copy()
        K2 = K.copy()
        for t in range(4):
            if ts[t] == D:
                s = tu[t]
                i = tx[t]
                G2[s, i - 1] += G2[s, i]
                for j in range(i, 13):
                    G2[s, j] = G2[s, j + 1]
                G2[s, 13] = 0
                K2[s] -= 1
        z = np.zeros(4, np.int64)
        if di >= 0 and top < di:
            return _rec(G2, K2, cnt, D, 0, z, z.copy(), z.copy(), b - 1, D, memo, stats)
        for t in range(4):
            # the defence picks the winner among its cards of the top gap
            if ts[t] != D and tu[t] == led and tx[t] == top:
                if not _rec(G2, K2, cnt, ts[t], 0, z, z.copy(), z.copy(), b, D, memo, stats):
                    return False
        return True
    p = (leader + nt) % 4
    led = tu[0] if nt > 0 else -1
    if p == D:
        for s in range(4):
            if nt > 0 and K[led] > 0 and s != led:
                continue
            for i in range(1, K[s] + 1):
                if i > 1 and G[s, i - 1] == 0:
                    continue  # no pool card between it and the card below: alike
                ts[nt] = p
                tu[nt] = s
                tx[nt] = i
                if _rec(G, K, cnt, leader, nt + 1, ts, tu, tx, b, D, memo, stats):
                    return True
        return False
    for s in range(4):
        if cnt[p, s] == 0 or (nt > 0 and cnt[p, led] > 0 and s != led):
            continue
        for j in range(K[s] + 1):
            if G[s, j] == 0:
                continue
            G[s, j] -= 1
            cnt[p, s] -= 1
            ts[nt] = p
            tu[nt] = s
            tx[nt] = j
            ok = _rec(G, K, cnt, leader, nt + 1, ts, tu, tx, b, D, memo, stats)
            G[s, j] += 1
            cnt[p, s] += 1
            if not ok:
                return False
    return True


def _encode(hands, D):
    """Hands of card indices 0-51 -> the relaxed position's arrays."""
    G = np.zeros((4, 14), np.int64)
    K = np.zeros(4, np.int64)
    cnt = np.zeros((4, 4), np.int64)
    for s in range(4):
        dr = sorted(c % 13 for c in hands[D] if c // 13 == s)
        K[s] = len(dr)
        for q in range(4):
            if q != D:
                for c in hands[q]:
                    if c // 13 == s:
                        G[s, sum(1 for d in dr if d < c % 13)] += 1
                        cnt[q, s] += 1
    return G, K, cnt


def new_memo():
    return Dict.empty(key_type=KEY, value_type=types.int64)


def holds(hands, D, leader, b, memo=None, stats=None) -> bool:
    """D surely takes at most ``b`` more tricks in the relaxed game."""
    G, K, cnt = _encode(hands, D)
    memo = new_memo() if memo is None else memo
    stats = np.zeros(2, np.int64) if stats is None else stats
    z = np.zeros(4, np.int64)
    return bool(_rec(G, K, cnt, leader, 0, z, z.copy(), z.copy(), b, D, memo, stats))


def relaxed_tricks(hands, D, leader) -> int:
    """D's fewest tricks in the relaxed game."""
    memo = new_memo()
    lo, hi = 0, len(hands[D])
    while lo < hi:
        m = (lo + hi) // 2
        if holds(hands, D, leader, m, memo):
            hi = m
        else:
            lo = m + 1
    return lo


def check(n: int, seed: int) -> None:
    from analyzer.rules import load_rules
    from analyzer.solve import solve
    rules = load_rules("tournament")
    rng = random.Random(seed)
    low = same = 0
    for _ in range(n):
        m = rng.choice([3, 4, 5, 6])
        cards = rng.sample(range(52), 4 * m)
        hands = [sorted(cards[i * m:(i + 1) * m]) for i in range(4)]
        ld = rng.randrange(4)
        real = int(-solve(hands, rules, "no-tricks", leader=ld, seat=0) / 2)
        rel = relaxed_tricks(hands, 0, ld)
        low += rel < real
        same += rel == real
    print(f"{n} random positions (3-6 cards a hand, seed {seed}): relaxed below real "
          f"(unsound) {low}, equal {same} ({same / n:.0%})")


def dump(path: str) -> None:
    from analyzer.cards import card_index
    memo = new_memo()
    stats = np.zeros(2, np.int64)
    n = ok = real_nodes = ok_nodes = 0
    t = time.process_time()
    for line in open(path):
        r = json.loads(line)
        if not r["held"] or r["contract"] != "no-tricks":
            continue
        hands = [[card_index(c) for c in h] for h in r["hands"]]
        allowed = -int(r["needed"]) // 2  # tournament No Tricks: -2 a trick
        n += 1
        real_nodes += r["nodes"]
        if holds(hands, 0, "NESW".index(r["leader"]), allowed, memo, stats):
            ok += 1
            ok_nodes += r["nodes"]
    print(f"{path}: {n} held tests; the relaxed game proves {ok} ({ok / max(1, n):.0%}), "
          f"{ok_nodes} of their {real_nodes} real nodes ({ok_nodes / max(1, real_nodes):.0%}); "
          f"relaxed nodes {int(stats[0])} (one memo, {len(memo)} states), "
          f"{time.process_time() - t:.1f} s CPU")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", type=int, default=0, help="random small positions to check")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--dump", help="a levels.py --dump-tl file (North's No Tricks value)")
    a = ap.parse_args()
    if a.check:
        check(a.check, a.seed)
    if a.dump:
        dump(a.dump)


if __name__ == "__main__":
    main()

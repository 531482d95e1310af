"""How good is the first lead we try? Root leads of null-window tests -- a diagnosis tool.

For each small random position, the value is solved, then the test at the value (it
holds) and the test just above it (it fails) are run from an empty table, and so is each
legal lead alone. Where the player on lead decides the test (the maximisers' lead in a
test that holds, the minimisers' lead in one that fails), our search is compared with
what it would cost if the cheapest deciding lead came first:

    python benchmarks/root_leads.py no-tricks --cards 9 --seeds 50000-50039
    python benchmarks/root_leads.py notrump --cards 9 --seeds 8000-8099 --show 8

Positions: ``random_deal(seed, 52, cards)``, leader ``seed % 4``; a trick contract of
the tournament preset gives the guaranteed value of seat ``(seed // 4) % 4``,
``notrump`` the bridge preset's leader's side. ``--show N`` lists the N dearest roots
with each lead's answer (+ holds, - fails) and nodes, in our order. The gap at the root
is a hint, not a measure: an order that wins at the root can lose over the whole
search (BENCHMARKS.md, sixteenth session), so check any change on whole solves.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.cards import card_name, random_deal  # noqa: E402
from analyzer.compile import card_bitpos  # noqa: E402
from analyzer.rules import load_rules  # noqa: E402
from analyzer.solve import _Problem, _tt  # noqa: E402
from solvers import tricks as K  # noqa: E402


def problem(cid: str, hands, leader: int, seat: int) -> _Problem:
    if cid == "notrump":
        return _Problem(hands, load_rules("bridge"), cid, None, leader, None,
                        (leader, (leader + 2) % 4), None, None, (), None, None)
    return _Problem(hands, load_rules("tournament"), cid, None, leader, seat, None, None,
                    None, (), None, None)


def test(pb: _Problem, needed: int, only: int = -1) -> tuple[bool, int, np.ndarray]:
    """One null-window test from an empty table: answer, nodes, the move buffer."""
    pb.P[K.P_TT_GROW] = 0
    ttk, tte, ttd = _tt(pb.tt_bits, pb.words, pb.token)
    ttd[:] = 0
    st = np.zeros(K.STATS_SIZE, np.int64)
    mbuf = np.zeros((64, 32), np.int64)
    ok = K._search(pb.hands.copy(), pb.tbuf.copy(), np.int64(0), np.int64(pb.leader),
                   np.int64(pb.tl), np.int64(needed), np.int64(pb.st_t), np.int64(pb.st_c),
                   np.zeros(16, np.int64), np.int64(only), pb.P, pb.masks, ttk, tte, ttd,
                   np.zeros((16, pb.words + 4), np.uint64), mbuf, np.zeros(64, np.uint64),
                   st)
    return bool(ok), int(st[0]), mbuf


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("contract", help="a tournament trick contract, or notrump (bridge)")
    ap.add_argument("--cards", type=int, default=9)
    ap.add_argument("--seeds", default="50000-50039", help="A-B (inclusive)")
    ap.add_argument("--show", type=int, default=5)
    a = ap.parse_args()
    lo, _, hi = a.seeds.partition("-")
    totals: dict[str, list[int]] = {}
    rows = []
    for seed in range(int(lo), int(hi or lo) + 1):
        hands = [set(h) for h in random_deal(seed, 52, a.cards).hands]
        leader, seat = seed % 4, (seed // 4) % 4
        pb = problem(a.contract, hands, leader, seat)
        g = int(pb.P[K.P_GRID])
        v = int(pb.run() * pb.cc.scale * pb.wscale)
        ismax = (int(pb.P[K.P_MAXMASK]) >> leader) & 1
        for needed in (v, v + g):
            if not pb.lo < needed <= pb.hi:
                continue
            ok, nodes, mbuf = test(problem(a.contract, hands, leader, seat), needed)
            if bool(ismax) != ok:
                continue  # every lead must be searched: the order cannot help much
            mine = {card_bitpos(c): c for c in hands[leader]}
            order = []
            for i in range(16):
                b = int(mbuf[4 * a.cards, i])
                if b in mine and b not in order:
                    order.append(b)
            per = [(mine[b], *test(problem(a.contract, hands, leader, seat), needed, b)[:2])
                   for b in order]
            best = min((n for _, o, n in per if o == ok), default=nodes)
            who = "maximisers" if ismax else "minimisers"
            key = f"{who}' lead, test {'holds' if ok else 'fails'}"
            t = totals.setdefault(key, [0, 0, 0])
            t[0] += 1
            t[1] += nodes
            t[2] += best
            rows.append((nodes - best, seed, key, nodes, best, per))
    rows.sort(key=lambda r: -r[0])
    for _, seed, key, nodes, best, per in rows[:a.show]:
        leads = " ".join(f"{card_name(c)}{'+' if o else '-'}{n}" for c, o, n in per)
        print(f"seed {seed}, {key}: ours {nodes}, cheapest first {best}  [{leads}]")
    for key, (n, ours, best) in sorted(totals.items()):
        print(f"{key}: {n} tests, ours {ours:,} nodes, the cheapest deciding lead first "
              f"{best:,} (x{best / max(ours, 1):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

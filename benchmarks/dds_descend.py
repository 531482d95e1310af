"""Where does our search outgrow DDS's? Walk down the tree of one notrump test.

At a trick-start position, one null-window test ("the side of the first leader takes at
least NEED of the tricks left") is run by both solvers, each from an empty table, and
their trick-boundary nodes are compared. Then every way the next trick can be played is
tried, the child positions are tested the same way, and the walk goes on into the child
where our count exceeds DDS's the most, until the position is tiny. A position where our
count is far above DDS's but its children's are not is where a bound or the move
ordering falls short (the fifth and sixth sessions found quick-trick lines this way).

    .venv/bin/python benchmarks/dds_descend.py --seed 7105 --cards 9 --leader E --need 5

Bridge preset, notrump; deal ``random_deal(seed, 52, cards)``. Needs the test extra
(``endplay``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.cards import Deal, card_name, random_deal  # noqa: E402
from analyzer.rules import load_rules  # noqa: E402
from analyzer.solve import _Problem, _tt  # noqa: E402
from solvers import tricks as K  # noqa: E402

SEATS = "NESW"
RULES = load_rules("bridge")


def ours(hands, leader: int, side: tuple[int, int], need: int) -> tuple[bool, int]:
    """Our answer to "side takes >= need of the tricks left" and its boundary nodes."""
    pb = _Problem([set(h) for h in hands], RULES, "notrump", None, leader, None, side,
                  None, None, (), None, None)
    if hasattr(K, "P_TT_GROW"):  # one bare test: a full table is emptied
        pb.P[K.P_TT_GROW] = 0
    ttk, tte, ttd = _tt(pb.tt_bits, pb.words, pb.token)
    ttd[:] = 0
    st = np.zeros(16, np.int64)
    ok = K._search(pb.hands.copy(), pb.tbuf.copy(), np.int64(0), np.int64(leader),
                   np.int64(pb.tl), np.int64(need * pb.grid), np.int64(pb.st_t),
                   np.int64(pb.st_c), np.zeros(16, np.int64), np.int64(-1), pb.P, pb.masks,
                   ttk, tte, ttd, np.zeros((16, pb.words + 4), np.uint64),
                   np.zeros((64, 32), np.int64), np.zeros(64, np.uint64), st)
    return bool(ok), int(st[9])


def dds(hands, leader: int, side: tuple[int, int], need: int) -> tuple[bool, int]:
    """DDS's answer to the same question (one SolveBoard with a target) and its nodes."""
    from endplay import _dds
    from endplay.types import Deal as EDeal, Denom, Player
    tl = len(hands[0])
    # DDS's target is for the side on lead
    target = need if leader in side else tl - need + 1
    if target <= 0 or target > tl:
        return (target <= 0) == (leader in side), 0
    d = EDeal(Deal(tuple(frozenset(h) for h in hands)).to_pbn())
    d.first = [Player.north, Player.east, Player.south, Player.west][leader]
    d.trump = Denom.nt
    fut = _dds.futureTricks()
    _dds.FreeMemory()
    _dds.SetMaxThreads(1)
    _dds.SolveBoard(d._data, target, 1, 1, fut, 0)
    made = fut.score[0] >= target
    return made == (leader in side), int(fut.nodes)


def tricks(hands, leader: int):
    """Every legal way to play the next trick: (cards, hands after, winner)."""
    out = []

    def rec(trick, hs):
        if len(trick) == 4:
            led = trick[0] // 13
            best = max((i for i in range(4) if trick[i] // 13 == led),
                       key=lambda i: trick[i])
            out.append((trick, hs, (leader + best) % 4))
            return
        p = (leader + len(trick)) % 4
        follow = [c for c in hs[p] if trick and c // 13 == trick[0] // 13]
        for c in sorted(follow or hs[p]):
            h2 = [set(x) for x in hs]
            h2[p].discard(c)
            rec(trick + [c], h2)

    rec([], [set(h) for h in hands])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--cards", type=int, default=9, help="cards a hand (default 9)")
    ap.add_argument("--leader", default="N", help="first leader (his side is tested)")
    ap.add_argument("--need", type=int, required=True, help="tricks the side must take")
    ap.add_argument("--show", type=int, default=4, help="children listed at each step")
    a = ap.parse_args()
    leader = SEATS.index(a.leader.upper())
    side = (leader, (leader + 2) % 4)
    hands = [set(h) for h in random_deal(a.seed, 52, a.cards).hands]
    need = a.need
    path: list[str] = []
    while len(hands[0]) > 1:
        o, d = ours(hands, leader, side, need), dds(hands, leader, side, need)
        assert o[0] == d[0], (path, o, d)
        print(f"{len(hands[0]):2d} tricks left, {SEATS[leader]} leads, need {need}: "
              f"{'holds' if o[0] else 'fails'}; boundary nodes ours {o[1]}, DDS {d[1]}"
              f"  [{' '.join(path)}]", flush=True)
        rows = []
        for trick, hs, win in tricks(hands, leader):
            nd = need - (win in side)
            oc, dc = ours(hs, win, side, nd), dds(hs, win, side, nd)
            rows.append((oc[1] - dc[1], oc[1], dc[1], trick, hs, win, nd))
        rows.sort(key=lambda r: -r[0])
        for r in rows[:a.show]:
            print(f"      {' '.join(card_name(c) for c in r[3])}: ours {r[1]}, DDS {r[2]}")
        if not rows or rows[0][0] <= 0:
            break
        _, _, _, trick, hands, leader, need = rows[0]
        path += [card_name(c) for c in trick]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Where a search spends its nodes, trick by trick -- a diagnosis tool, not a test.

    python benchmarks/levels.py no-last-two --deals 3
    python benchmarks/levels.py no-queens --deals 0 --dump-tl 5 --every 700 --out q.json
    python benchmarks/levels.py notrump --bridge 1000-1011

The shipped kernels count nothing beyond ``solve_stats``. This script copies ``analyzer/``
and ``solvers/`` into a cache folder with ``solvers.tricks.LEVEL_STATS`` switched on
(numba compiles the counters in there, in a cache of its own: the first run compiles
for about a minute), solves, and prints for each number of tricks left: the
trick-boundary nodes reached, those searched move by move (no bound or table entry
decided them), how many of those held (the maximisers reached the test's value), and
the nodes at any seat where a move after the first one tried settled the test (outside
cheap-first probes) with the nodes the earlier moves took there (nested: an ordering's
misses; a node inside another's earlier moves counts at both). ``--test V`` runs the
single null-window test "value >= V" on a fresh table.

``--dump-tl T --every K`` records every K-th node searched move by move with T tricks
left (hands, leader, the value tested, the answer, the nodes its search took) and
``--out`` writes them as JSON lines: positions to study, or to re-solve alone.

``--late T`` lists the late cuts with at least T tricks left whose earlier moves took
``--late-min`` nodes or more: the seat, the move that settled the test after those tried
first, the nodes each took, and the position (the cards of the trick so far are out of
the hands): where the ordering missed, and what it would have had to find.

Deals: the advisor's (the README's 52-card hand for North, or ``--hand``'s; seed 1;
``--deals`` picks them by index), North's guaranteed value with North on lead, as ``barbu
advise`` asks; or with ``--bridge A-B`` the seeds of ``bench_solve.py`` part (a) (leader
``seed % 4``, the leader's side).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HAND = "AK72.Q5.A963.KJ4"


def _instrumented_copy() -> Path:
    """A copy of the packages with the counters on, reused while the sources are the
    same (its own numba cache beside it)."""
    src = (ROOT / "solvers" / "tricks.py").read_text()
    flag = "LEVEL_STATS = False"
    if flag not in src:
        sys.exit(f"levels: {flag!r} not found in solvers/tricks.py")
    digest = hashlib.sha1()
    for pkg in ("analyzer", "solvers"):
        for f in sorted((ROOT / pkg).glob("*.py")):
            digest.update(f.name.encode() + f.read_bytes())
    dest = Path(tempfile.gettempdir()) / f"barbu-levels-{digest.hexdigest()[:12]}"
    if not (dest / "solvers" / "tricks.py").exists():
        tmp = Path(tempfile.mkdtemp(prefix="barbu-levels-"))
        for pkg in ("analyzer", "solvers"):
            shutil.copytree(ROOT / pkg, tmp / pkg)
        shutil.copytree(ROOT / "data", tmp / "data")
        (tmp / "solvers" / "tricks.py").write_text(src.replace(flag, "LEVEL_STATS = True"))
        shutil.rmtree(dest, ignore_errors=True)
        tmp.rename(dest)
    return dest


def _cards(mask: int) -> list[int]:
    """The cards (indices) of a kernel bitboard."""
    from analyzer.compile import card_bitpos
    return [c for c in range(52) if (mask >> card_bitpos(c)) & 1]


def bet_objective(text: str) -> tuple[list[int], int] | None:
    """``--bet OPP:END`` (END defaults to N) as the weights and the maximiser of that end
    of North's bet against OPP: ``e_END - e_other``. None when the text is not such."""
    y, _, end = text.upper().partition(":")
    end = end or "N"
    if y not in ("E", "S", "W") or end not in ("N", y):
        return None
    m = "NESW".index(end)
    w = [0] * 4
    w[m], w["NESW".index(y) if m == 0 else 0] = 1, -1
    return w, m


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("contract", help="a trick contract (trumps: trumps:S etc.)")
    ap.add_argument("--rules", default="tournament")
    ap.add_argument("--deals", default="0", help="advisor deal indices: 0,3 or 0-4")
    ap.add_argument("--hand", default=HAND, help="North's hand for the advisor's deals "
                    "(PBN; default the README's example hand)")
    ap.add_argument("--bridge", default="", help="bridge seeds instead, e.g. 1000-1011")
    ap.add_argument("--dump-tl", type=int, default=0, help="record nodes with T tricks left")
    ap.add_argument("--every", type=int, default=1000, help="record every K-th of them")
    ap.add_argument("--out", default="", help="JSON-lines file for the records")
    ap.add_argument("--bet", default="",
                    help="a doubling-bracket solve instead of North's guaranteed value: "
                         "OPP:END, e.g. S:S (North against South, South's end: "
                         "w = e_S - e_N, South maximises) or E:N (North's end)")
    ap.add_argument("--test", type=int, default=None,
                    help="only the null-window test 'value >= V' (V in the contract's "
                         "points), alone on a fresh table")
    ap.add_argument("--late", type=int, default=0,
                    help="list the late cuts with at least this many tricks left")
    ap.add_argument("--late-min", type=int, default=100_000,
                    help="... whose earlier moves took at least this many nodes")
    a = ap.parse_args()
    copy = _instrumented_copy()
    os.environ["NUMBA_CACHE_DIR"] = str(copy / "numba-cache")
    sys.path.insert(0, str(copy))
    from analyzer.cards import card_name, format_hand, random_deal
    from analyzer.rules import load_rules
    from analyzer.sampler import Sampler, sample_deals
    from analyzer.solve import _Problem
    from solvers import tricks as K
    assert K.LEVEL_STATS and K.__file__.startswith(str(copy))

    cid, _, trump = a.contract.partition(":")
    jobs = []
    if a.bridge:
        rules = load_rules("bridge")
        for s in _seeds(a.bridge):
            jobs.append((f"seed {s}", random_deal(s, 52, 13),
                         dict(leader=s % 4, seat=None, side=(s % 4, (s % 4 + 2) % 4),
                              weights=None, maximizers=None)))
    else:
        rules = load_rules(a.rules)
        idx = _seeds(a.deals)
        deals = sample_deals(Sampler(a.hand, "N", deck=rules.deck), max(idx) + 1, 1)
        bet = {}
        if a.bet:
            wm = bet_objective(a.bet)
            if wm is None:
                sys.exit("levels: --bet OPP:END with OPP one of E, S, W and END N or OPP")
            bet = dict(seat=None, weights=wm[0], maximizers=[wm[1]])
        for i in idx:
            kw = dict(leader=0, seat=0, side=None, weights=None, maximizers=None)
            kw.update(bet)
            jobs.append((f"deal {i}", deals[i], kw))
    tot = [[0, 0, 0, 0, 0] for _ in range(14)]
    out = open(a.out, "w") if a.out else None
    for name, deal, kw in jobs:
        pb = _Problem(deal, rules, cid, trump=trump or None,
                      trick=(), whole_hand=None, tt_bits=None, node_limit=None, **kw)
        pb.stats[K.LV_TL] = a.dump_tl
        pb.stats[K.LV_EVERY] = a.every if a.dump_tl else 0
        pb.stats[K.LV_LATE_TL] = a.late
        if a.test is not None:
            # (scaled like the grid: the value's points times the problem's scale)
            t = int(pb.fraction(1).denominator * a.test)
            pb.lo, pb.hi = t - pb.grid, t
        v = pb.run()
        st = pb.stats
        print(f"{name}: value {v}, {int(st[0]):,} nodes, {int(st[1])} tests", flush=True)
        for tl in range(1, 14):
            tot[tl][0] += int(st[K.LV_SEEN + tl])
            tot[tl][1] += int(st[K.LV_OPEN + tl])
            tot[tl][2] += int(st[K.LV_HELD + tl])
            tot[tl][3] += int(st[K.LV_LATE + tl])
            tot[tl][4] += int(st[K.LV_WASTE + tl])
        for k in range(int(st[K.LV_NLATE])):
            o = K.LV_LREC + K.LV_LRECW * k
            tl, nt, p, i, n, before, after, c, c0, need, lead = (
                int(x) for x in st[o:o + 11])
            if before < a.late_min:
                continue
            hands = " ".join("NESW"[q] + ":" + format_hand(_cards(int(st[o + 11 + q])))
                             for q in range(4))
            c, c0 = (card_name(_cards(1 << x)[0]) for x in (c, c0))
            print(f"  late cut: {tl} tricks left, card {nt + 1} of the trick, "
                  f"{'NESW'[p]} (test >= {pb.fraction(need)}): move {i + 1} of {n}, "
                  f"{c}, after {c0} first; earlier moves {before:,} "
                  f"nodes, it {after:,}\n    leader {'NESW'[lead]}, {hands}")
        for k in range(int(st[K.LV_NREC])):
            o = K.LV_REC + K.LV_RECW * k
            hands = [[card_name(c) for c in _cards(int(st[o + p]))] for p in range(4)]
            rec = {"job": name, "contract": a.contract, "tricks_left": a.dump_tl,
                   "hands": hands, "leader": "NESW"[int(st[o + 4])],
                   "needed": str(pb.fraction(int(st[o + 5]))), "held": bool(st[o + 6]),
                   "nodes": int(st[o + 7])}
            if out:
                out.write(json.dumps(rec) + "\n")
    if out:
        out.close()
    print("| tricks left | boundary nodes | searched | held | held % | late cuts "
          "| nodes before them |")
    print("|---|---|---|---|---|---|---|")
    for tl in range(13, 0, -1):
        seen, opened, held, late, waste = tot[tl]
        if seen:
            pct = f"{100 * held / opened:.0f}" if opened else "-"
            print(f"| {tl} | {seen:,} | {opened:,} | {held:,} | {pct} | {late:,} "
                  f"| {waste:,} |")


if __name__ == "__main__":
    main()

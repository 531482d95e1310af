"""Per-node speed bench: fixed positions, values + solve_stats counters + CPU time.
usage: python pernode.py REPO [out.json]"""
import sys, time, json
sys.path.insert(0, sys.argv[1])
from analyzer.cards import random_deal
from analyzer.rules import load_rules
from analyzer.solve import solve_stats
import analyzer.solve as S
assert S.__file__.startswith(sys.argv[1]), S.__file__
bridge = load_rules("bridge"); tour = load_rules("tournament")
solve_stats(random_deal(0, 52, 3), bridge, "notrump", leader=0, side="NS")
for c in ("no-tricks", "trumps"):
    solve_stats(random_deal(0, 52, 3), tour, c, trump=0 if c == "trumps" else None, leader=0, seat=0)
res = []
t0 = time.process_time()
CON = sys.argv[3].split(",") if len(sys.argv) > 3 else ["notrump", "no-tricks", "no-queens", "no-hearts", "trumps"]
NS = [int(x) for x in sys.argv[4].split(",")] if len(sys.argv) > 4 else [9, 10]
for contract in CON:
    for n in NS:
        for k in range(10):
            d = random_deal(1000 * n + k, 52, n)
            if contract == "notrump":
                v, st = solve_stats(d, bridge, contract, leader=k % 4, side=(k % 4, (k % 4 + 2) % 4))
            else:
                tr = k % 4 if contract == "trumps" else None
                v, st = solve_stats(d, tour, contract, trump=tr, leader=k % 4, seat=k % 4)
            res.append([contract, n, k, str(v), {a: (b if isinstance(b, (int, float, str)) else str(b)) for a, b in st.items()}])
t = time.process_time() - t0
nodes = sum(r[4].get("nodes", 0) for r in res)
print("cpu %.3f s nodes %d  %.0f nodes/s" % (t, nodes, nodes / t))
if len(sys.argv) > 2:
    json.dump(res, open(sys.argv[2], "w"))

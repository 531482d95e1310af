"""Node and time limits: a stopped search reports the bounds its finished tests proved.

The bounds are checked against the exact value on random positions, stopped by node
limits (deterministic); the time limit's own stop (a timer that sets the node limit) by
a limit that has passed before the search starts; the sharing of a limit among many
searches (:func:`analyzer.solve.within_time`) with a fake clock and fake searches.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer import solve as S
from analyzer.cards import random_deal
from analyzer.errors import BarbuError, Bounds, SearchStopped
from analyzer.jobs import proven_best, solve_job
from analyzer.rules import load_rules
from tests.test_solve import random_case

LIMITS = (1, 3, 10, 30, 100, 300, 1000, 3000)


def _kw(case: dict) -> dict:
    g = case["game"]
    return dict(trump=case["trump"], leader=g.leader, weights=case["weights"],
                maximizers=case["maximizers"], trick=list(g.trick), whole_hand=g.whole_hand)


def _problem(case: dict, time_limit: float | None = None) -> S._Problem:
    g = case["game"]
    return S._Problem(g.hands, case["rules"], case["contract"], case["trump"], g.leader,
                      None, None, case["weights"], case["maximizers"], list(g.trick),
                      g.whole_hand, None, None, None, time_limit)


def _full_range(case: dict) -> tuple[Fraction, Fraction]:
    pb = _problem(case)
    return pb.fraction(pb.lo), pb.fraction(pb.hi)


def test_a_node_limit_reports_bounds_that_hold() -> None:
    """On random positions of 4-7 cards a hand (every preset, contract, objective), each
    node limit either gives the exact value or stops with bounds around it; some stops
    narrow the range (the bounds are not always the whole range), and the message names
    them."""
    narrowed = stopped = 0
    for seed in range(120):
        case = random_case(5000 + seed, n=4 + seed % 4)
        g = case["game"]
        v = S.solve(g.hands, case["rules"], case["contract"], **_kw(case))
        lo, hi = _full_range(case)
        for limit in LIMITS:
            try:
                got = S.solve(g.hands, case["rules"], case["contract"], node_limit=limit,
                              **_kw(case))
            except SearchStopped as e:
                b = e.bounds
                assert e.reason == "nodes" and f"node limit {limit} reached" in str(e)
                assert f"between {b.low} and {b.high}" in str(e)
                assert lo <= b.low <= v <= b.high <= hi, (seed, limit, b, v)
                stopped += 1
                narrowed += (b.low, b.high) != (lo, hi)
            else:
                assert got == v, (seed, limit)
    assert stopped > 100 and narrowed > 30, (stopped, narrowed)


def test_a_search_runs_its_first_nodes_in_the_calling_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that a signal must be able to stop (7 tricks or more, the main thread, a
    Python SIGINT handler) runs its first ``DIRECT_NODES`` nodes in the calling thread
    (the search thread costs about a millisecond a search); one that goes past them runs
    the test it was in again in the search thread: the same values, and a node limit
    past the first nodes still stops it with bounds that hold."""
    import signal
    import threading

    assert callable(signal.getsignal(signal.SIGINT))
    started: list[str] = []
    real_start = threading.Thread.start

    def start(self) -> None:
        started.append(self.name)
        real_start(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    threaded = stopped = 0
    for seed in range(40):
        case = random_case(7000 + seed, n=7 + seed % 2)
        g = case["game"]
        monkeypatch.setattr(S, "DIRECT_NODES", 10 ** 12)
        started.clear()
        v, st = S.solve_stats(g.hands, case["rules"], case["contract"], **_kw(case))
        assert "barbu-search" not in started  # (all of it in this thread)
        nodes = st["nodes"]
        monkeypatch.setattr(S, "DIRECT_NODES", 20)
        started.clear()
        assert S.solve(g.hands, case["rules"], case["contract"], **_kw(case)) == v, seed
        threaded += "barbu-search" in started
        assert "barbu-search" not in started or nodes > 20, (seed, nodes)
        lo, hi = _full_range(case)
        for limit in (50, 300):
            try:
                got = S.solve(g.hands, case["rules"], case["contract"], node_limit=limit,
                              **_kw(case))
            except SearchStopped as e:
                assert e.reason == "nodes" and lo <= e.bounds.low <= v <= e.bounds.high <= hi
                stopped += 1
            else:
                assert got == v, (seed, limit)
    assert threaded > 20 and stopped > 10, (threaded, stopped)


def test_a_rerun_goes_on_within_what_it_proved() -> None:
    """``solve(proved=...)``, what a rerun under a time limit is given: the value when
    nothing stops it; under a limit (twice the last, as reruns get), bounds inside those
    it was given, around the value, and often narrower; an exact interval needs no search; an interval
    holding no value of the position is an error."""
    narrowed = reruns = 0
    for seed in range(60):
        case = random_case(5300 + seed, n=4 + seed % 4)
        g = case["game"]
        args = (g.hands, case["rules"], case["contract"])
        v = S.solve(*args, **_kw(case))
        pb = _problem(case)
        assert pb.run(proved=Bounds(v, v)) == v and pb.stats[0] == 0
        for limit in LIMITS[1:6]:
            try:
                S.solve(*args, node_limit=limit, **_kw(case))
                continue
            except SearchStopped as e:
                b = e.bounds
            assert S.solve(*args, proved=b, **_kw(case)) == v, (seed, limit)
            for k in range(4):  # twice the limit each time, within what the runs proved
                try:
                    got = S.solve(*args, node_limit=limit << k, proved=b, **_kw(case))
                except SearchStopped as e:
                    c = e.bounds
                    assert b.low <= c.low <= v <= c.high <= b.high, (seed, limit, b, c, v)
                else:
                    assert got == v, (seed, limit)
                    c = Bounds(v, v)
                reruns += 1
                narrowed += c != b
                b = c
    assert reruns > 100 and narrowed > 30, (reruns, narrowed)
    case = random_case(5300, n=5)
    lo, hi = _full_range(case)
    with pytest.raises(BarbuError, match="bad proved bounds"):
        _problem(case).run(proved=Bounds(hi + 1, hi + 2))


def test_bounds_hold_on_every_path_of_the_tests() -> None:
    """The tests start at a guess on full bridge deals, next to a known bound with
    ``bounds``, from the top down where ``P_DOWN`` says: node limits there too give bounds
    around the value."""
    bridge, tour = load_rules("bridge"), load_rules("tournament")
    cases = []
    for k in range(6):  # a guess first (full deals, a side's tricks)
        cases.append((random_deal(9300 + k, 52), bridge, "notrump",
                      dict(leader=k % 4, side=(k % 4, (k + 2) % 4))))
    for k in range(6):  # No Last Two from the top down; No Hearts with a known low bound
        deal = random_deal(9400 + k, 52, 6)
        cases.append((deal, tour, "no-last-two", dict(leader=k % 4, seat=k % 4)))
        cases.append((deal, tour, "no-hearts", dict(leader=k % 4, seat=k % 4)))
    narrowed = 0
    for deal, rules, cid, kw in cases:
        v = S.solve(deal, rules, cid, **kw)
        extra = [{}]
        if cid == "no-hearts":
            extra.append({"bounds": (v - 2, None)})
        for more in extra:
            for limit in (30, 300, 3000, 30000):
                try:
                    assert S.solve(deal, rules, cid, node_limit=limit, **kw, **more) == v
                except SearchStopped as e:
                    assert e.bounds.low <= v <= e.bounds.high, (cid, kw, limit, e.bounds)
                    narrowed += e.bounds.high - e.bounds.low < 13
    assert narrowed > 0


def test_the_squeeze_finds_the_values_halving_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a time limit the tests go inward from both ends (``_squeeze``) once the
    usual order's share is spent (none here): on random positions (and each card's
    value) the values are those of the halving, a node limit there gives bounds around
    them too, often narrower than the whole range, and the squeeze does run."""
    plain = S._Problem._squeeze
    ran = [0]

    def squeeze(self, lo, hi, *args):  # noqa: ANN001, ANN202
        ran[0] += 1
        return plain(self, lo, hi, *args)

    monkeypatch.setattr(S._Problem, "_squeeze", squeeze)
    monkeypatch.setattr(S, "USUAL_FIRST", 0.0)  # (the usual order stops at once)
    narrowed = 0
    for seed in range(300):
        case = random_case(6000 + seed, n=3 + seed % 4)
        g = case["game"]
        args = (g.hands, case["rules"], case["contract"])
        v = S.solve(*args, **_kw(case))
        pb = _problem(case, 600)
        assert pb.run() == v, seed
        if pb.grid:  # (the finished tests proved the value: what a stop would report)
            assert pb.known == [int(v * pb.cc.scale * pb.wscale)] * 2, seed
        if seed % 10 == 0:
            assert S.solve_cards(*args, time_limit=600, **_kw(case)) == \
                S.solve_cards(*args, **_kw(case)), seed
        lo, hi = _full_range(case)
        for limit in (10, 100, 1000):
            try:
                assert S.solve(*args, time_limit=600, node_limit=limit, **_kw(case)) == v
            except SearchStopped as e:
                assert e.reason == "nodes" and e.bounds.low <= v <= e.bounds.high, seed
                narrowed += (e.bounds.low, e.bounds.high) != (lo, hi)
    assert ran[0] > 300 and narrowed > 20, (ran, narrowed)


def test_each_card_starts_from_what_its_own_tests_prove() -> None:
    """``solve_cards`` runs every card on one problem: the bounds of a card stopped by
    the node limit are its own, whatever an earlier card's tests proved (on positions
    where the two cards' values differ)."""
    checked = 0
    for seed in range(200):
        case = random_case(7000 + seed, n=4 + seed % 3)
        g = case["game"]
        args = (g.hands, case["rules"], case["contract"])
        vals = S.solve_cards(*args, **_kw(case))
        if len(set(vals.values())) < 2:
            continue
        (c1, v1), (c2, v2) = sorted(vals.items(), key=lambda kv: kv[1])[::len(vals) - 1]
        for first, second, want in ((c1, c2, v2), (c2, c1, v1)):
            pb = _problem(case)
            pb.run(only=first)
            pb.P[S.K.P_NODE_LIMIT] = int(pb.stats[0]) + 1  # (the second stops at once)
            try:
                assert pb.run(only=second) == want
            except SearchStopped as e:
                assert e.bounds.low <= want <= e.bounds.high, (seed, first, second)
                checked += 1
    assert checked > 20


def test_a_time_limit_that_has_passed_stops_at_once_with_bounds() -> None:
    """A limit already past when the search starts stops it at its second node: reason
    "time", the bounds around the value; the problem goes on with a new deadline."""
    deal = random_deal(7, 52)
    v = S.solve(deal, "tournament", "no-king", leader="E", seat="E")
    with pytest.raises(SearchStopped, match="time limit reached") as e:
        S.solve(deal, "tournament", "no-king", leader="E", seat="E", time_limit=1e-9)
    assert e.value.reason == "time" and isinstance(e.value, BarbuError)
    assert e.value.bounds.low <= v <= e.value.bounds.high
    pb = S._Problem(deal, "tournament", "no-king", None, "E", "E", None, None, None, (),
                    None, None, None, None, 1e-9)
    with pytest.raises(SearchStopped):
        pb.run()
    pb.deadline = None
    assert pb.run() == v
    assert S.solve(deal, "tournament", "no-king", leader="E", seat="E",
                   time_limit=600) == v
    for bad in (0, -1, "x", 1e8):
        with pytest.raises(BarbuError, match="bad time_limit"):
            S.solve(deal, "tournament", "no-king", leader="E", seat="E", time_limit=bad)


def test_cards_and_seats_share_a_limit() -> None:
    """``solve_cards`` and ``solve_all_seats`` under a limit that has passed: each card
    or seat that needed a search gets bounds around its value."""
    deal = random_deal(11, 52, 9)
    kw = dict(leader="S")
    cards = S.solve_cards(deal, "tournament", "no-queens", seat="S", **kw)
    seats = S.solve_all_seats(deal, "tournament", "no-queens", **kw)
    cut_c = S.solve_cards(deal, "tournament", "no-queens", seat="S", time_limit=1e-9, **kw)
    cut_s = S.solve_all_seats(deal, "tournament", "no-queens", time_limit=1e-9, **kw)
    for cut, full in ((cut_c, cards), (cut_s, seats)):
        assert cut.keys() == full.keys()
        assert any(isinstance(b, Bounds) for b in cut.values())
        for k, b in cut.items():
            if isinstance(b, Bounds):
                assert b.low <= full[k] <= b.high
            else:
                assert b == full[k]


def test_a_stop_request_ends_a_search_with_bounds() -> None:
    """``stop`` (an Event) already set: the search stops at once with reason "stop" and
    bounds around the value (the example deal's No Tricks for East, 1-2 s to solve);
    ``solve_job`` then says ``interrupted`` and gives bounds (Dominoes values exact)."""
    import threading

    from analyzer.samples import example_deal
    deal = example_deal()
    v = S.solve(deal, "tournament", "no-tricks", leader="N", seat="E")
    ev = threading.Event()
    ev.set()
    with pytest.raises(SearchStopped, match="stopped on request") as e:
        S.solve(deal, "tournament", "no-tricks", leader="N", seat="E", stop=ev)
    assert e.value.reason == "stop" and e.value.bounds.low <= v <= e.value.bounds.high
    assert e.value.bounds != Bounds(Fraction(-16), Fraction(-16))
    res = solve_job({"deal": deal, "contract": "no-tricks", "seat": "E"}, stop=ev)
    assert res["interrupted"] is True and "timed_out" not in res
    for limit, out in ((600, False), (1e-9, True)):  # (the limit had struck too, or not)
        res = solve_job({"deal": deal, "contract": "no-tricks", "seat": "E",
                         "time_limit": limit}, stop=ev)
        assert res["interrupted"] is True and res["timed_out"] is out, limit
    assert res["value"] is None and res["bounds"][0] <= v <= res["bounds"][1]
    res = solve_job({"deal": deal, "contract": "dominoes", "rank": "7"}, stop=ev)
    assert res["value"] == solve_job({"deal": deal, "contract": "dominoes",
                                      "rank": "7"})["value"]
    quiet = threading.Event()
    assert "interrupted" not in solve_job({"deal": deal, "contract": "no-king"},
                                          stop=quiet)


def test_a_long_search_tells_its_progress_to_the_stop_object(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``stop`` with a ``searching`` method hears from a search that has run
    ``STATUS_AFTER`` seconds, until it ends: nodes that only grow, and bounds that hold
    the value and only narrow (the example deal's No Tricks for East, several tests); a
    display that fails changes nothing; a quick search says nothing."""
    import threading

    from analyzer.samples import example_deal

    class Watched(threading.Event):
        def __init__(self, fail: bool = False) -> None:
            super().__init__()
            self.fail, self.heard = fail, []

        def searching(self, nodes: int, low: Fraction, high: Fraction) -> None:
            self.heard.append((nodes, low, high))
            if self.fail:
                raise RuntimeError("a broken display")

    deal = example_deal()
    kw = dict(leader="N", seat="E")
    v = S.solve(deal, "tournament", "no-tricks", **kw)
    monkeypatch.setattr(S, "STATUS_AFTER", 0.0)
    for fail in (False, True):
        ev = Watched(fail)
        assert S.solve(deal, "tournament", "no-tricks", stop=ev, **kw) == v
        assert ev.heard and not ev.is_set()
        for (n0, lo0, hi0), (n1, lo1, hi1) in zip(ev.heard, ev.heard[1:]):
            assert n0 <= n1 and lo0 <= lo1 and hi1 <= hi0
        assert all(isinstance(n, int) and lo <= v <= hi for n, lo, hi in ev.heard)
    assert ev.heard[0][1:] == (-26, 0) and ev.heard[-1][0] > 0
    monkeypatch.setattr(S, "STATUS_AFTER", 600.0)
    ev = Watched()
    assert S.solve(deal, "tournament", "no-tricks", stop=ev, **kw) == v
    assert ev.heard == []


class _Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def monotonic(self) -> float:
        return self.t


def test_a_stop_during_a_search_narrows_its_bounds_for_a_grace(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search that a stop request cuts short goes on by the squeeze for
    ``STOP_GRACE`` seconds (once a request): with room, it ends with the value; with
    none, it stops with bounds around it. The request arrives inside the first test
    (the usual order's first call sets it)."""
    import threading
    deal = random_deal(23, 52, 8).to_pbn()
    kw = dict(leader="N", seat="N")
    v = S.solve(deal, "tournament", "no-queens", **kw)
    cards = S.solve_cards(deal, "tournament", "no-queens", **kw)
    plain = S._Problem._usual

    def usual(self, *a):
        if self.stop is not None:
            self.stop.set()  # (asked while the search runs: its first test stops)
        return plain(self, *a)
    monkeypatch.setattr(S._Problem, "_usual", usual)
    monkeypatch.setattr(S, "STOP_GRACE", 600.0)
    assert S.solve(deal, "tournament", "no-queens", stop=threading.Event(), **kw) == v
    got = S.solve_cards(deal, "tournament", "no-queens", stop=threading.Event(), **kw)
    # the first card had the grace (its value); the others stopped at once
    first, *rest = got
    assert got[first] == cards[first] and rest
    assert all(isinstance(got[c], Bounds) and got[c].low <= cards[c] <= got[c].high
               for c in rest)
    monkeypatch.setattr(S, "STOP_GRACE", 1e-9)
    with pytest.raises(SearchStopped, match="stopped on request") as e:
        S.solve(deal, "tournament", "no-queens", stop=threading.Event(), **kw)
    assert e.value.reason == "stop" and e.value.bounds.low <= v <= e.value.bounds.high
    monkeypatch.setattr(S, "STOP_GRACE", 0.0)
    with pytest.raises(SearchStopped, match="stopped on request"):
        S.solve(deal, "tournament", "no-queens", stop=threading.Event(), **kw)


def test_within_time_shares_the_time_and_reruns_what_it_stopped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Equal shares of the time left, in order; what a quick search leaves goes to the
    later ones; a stopped search runs again while it would get twice its share, and its
    bounds are the tightest of its runs, and each rerun is given what the runs before it
    proved; one that never gets enough keeps its bounds."""
    clock = _Clock()
    monkeypatch.setattr(S, "time", clock)
    shares: dict[str, list[float]] = {"a": [], "b": [], "c": []}
    given: dict[str, list[Bounds | None]] = {"a": [], "b": [], "c": []}

    def slot(name: str, needs: float, spend: float, bounds: list[Bounds]):
        def run(share, proved):
            shares[name].append(round(share, 6))
            given[name].append(proved)
            if share >= needs:
                clock.t += spend
                return Fraction(len(name))
            clock.t += share
            raise SearchStopped("stopped", bounds[min(len(shares[name]), len(bounds)) - 1],
                                "time")
        return run

    b = [Bounds(Fraction(-8), Fraction(0)), Bounds(Fraction(-10), Fraction(-4))]
    out = S.within_time([slot("a", 5.0, 1.0, b), slot("b", 0.0, 0.5, b),
                         slot("c", 99.0, 0.0, b)], 100.0 + 9.0)
    # a: 3 (stopped), b: 3 (0.5 used), c: 5.5/1 (stopped); then 0.5 s left for a and c,
    # less than twice their shares: they keep their first bounds
    assert shares == {"a": [3.0], "b": [3.0], "c": [5.5]}
    assert out == [b[0], Fraction(1), b[0]]
    clock.t = 100.0
    for v in shares.values():
        v.clear()
    out = S.within_time([slot("a", 5.0, 1.0, b), slot("b", 0.0, 0.5, b),
                         slot("c", 99.0, 0.0, b)], 100.0 + 30.0)
    # a: 10 (done, 1 used), b: 29/2 (0.5 used), c: 28.5 (stopped); no time left for c
    assert shares == {"a": [10.0], "b": [14.5], "c": [28.5]}
    assert out == [Fraction(1), Fraction(1), b[0]]
    clock.t = 100.0
    for v in shares.values():
        v.clear()
    out = S.within_time([slot("c", 150.0, 0.0, b), slot("b", 0.0, 40.0, b)], 100.0 + 200.0)
    # c: 100 (stopped), b: 100 (40 used); c again with 60: less than twice 100: kept
    assert shares["c"] == [100.0] and out == [b[0], Fraction(1)]
    clock.t = 100.0
    for v in shares.values():
        v.clear()

    def quick(share, proved):
        shares["b"].append(share)
        assert proved is None
        return Fraction(0)
    given["c"].clear()
    out = S.within_time([slot("c", 99.0, 0.0, b), quick, quick, quick], 100.0 + 80.0)
    # c: 20 (stopped), the three others take nothing; c again with 60 (>= 40), given
    # what its first run proved, stopped, its bounds the meet of both runs; then 0 left
    assert shares["c"] == [20.0, 60.0] and given["c"] == [None, b[0]]
    assert out[0] == Bounds(Fraction(-8), Fraction(-4))
    clock.t = 100.0
    for v in shares.values():
        v.clear()
    calls = []

    def asked(share, proved):
        calls.append(share)
        raise SearchStopped("stopped", b[1], "stop")
    out = S.within_time([asked, quick, asked], 100.0 + 80.0)
    # a stop on request: the others still run, and nothing runs again
    assert out == [b[1], Fraction(0), b[1]] and len(calls) == 2
    with pytest.raises(SearchStopped):  # a node limit is the caller's error
        S.within_time([lambda s, p: (_ for _ in ()).throw(
            SearchStopped("n", b[0], "nodes"))], 200.0)


def test_proven_best() -> None:
    F = Fraction
    assert proven_best([F(1), F(3), F(3)]) == 1
    assert proven_best([Bounds(F(0), F(3)), F(3)]) == 1
    assert proven_best([Bounds(F(0), F(4)), F(3)]) is None
    assert proven_best([Bounds(F(4), F(6)), F(3), Bounds(F(-1), F(4))]) == 0


def test_the_other_end_of_a_bet_is_negated(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bet's other end solves the opponent's score minus the seat's; its bounds,
    in the bracket, are the seat's minus the opponent's: negated and swapped."""
    from analyzer.jobs import Job
    plain = Job.solve_one

    def solve_one(self, c, seat, side, trump, rank, bet=None, time_limit=None, proved=None):
        if seat == 1:  # (E's end)
            raise SearchStopped("stopped", Bounds(Fraction(2), Fraction(5)), "time")
        return plain(self, c, seat, side, trump, rank, bet, time_limit, proved)

    monkeypatch.setattr(Job, "solve_one", solve_one)
    res = solve_job({"deal": "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", "contract": "no-queens",
                     "bet": "E", "time_limit": 60})
    assert res["bracket"][1] is None and res["bracket_bounds"][1] == [-5, -2]
    assert res["bracket_bounds"][0] == [res["value"]] * 2 and res["timed_out"] is True


def test_a_node_limit_names_what_it_stopped() -> None:
    """The node limit's error names the search it stopped: a card's value, the other
    end of a bet, a seat's value, an option of the table."""
    deal = random_deal(5, 52).to_pbn()
    with pytest.raises(SearchStopped, match=r"\(the value after C8 lies between -10 "):
        # (N's value, -2, ends within the limit; his cards' searches share one)
        solve_job({"deal": "N:K.9.32.K8 4.86.4.75 AT85..QT. .JT52.9.A", "node_limit": 1000,
                   "contract": "no-tricks", "cards": True})
    for extra, want in (({"contract": "no-tricks", "seat": "E"}, "(the value lies"),
                        ({"contract": "no-queens", "all_seats": True}, "(N's value lies"),
                        ({}, "(N's value in trumps ")):
        with pytest.raises(SearchStopped, match=r"node limit 50 reached") as e:
            solve_job({"deal": deal, "node_limit": 50, **extra})
        assert want in str(e.value), (extra, str(e.value))



def test_a_node_limit_names_the_other_end_of_a_bet(monkeypatch: pytest.MonkeyPatch) -> None:
    from analyzer.jobs import Job
    plain = Job.solve_one

    def solve_one(self, c, seat, side, trump, rank, bet=None, time_limit=None, proved=None):
        if seat == 1:  # (E's end)
            raise SearchStopped("search stopped: node limit 9 reached",
                                Bounds(Fraction(2), Fraction(5)), "nodes")
        return plain(self, c, seat, side, trump, rank, bet, time_limit, proved)

    monkeypatch.setattr(Job, "solve_one", solve_one)
    with pytest.raises(SearchStopped, match=r"node limit 9 reached \(E's score minus "
                                            r"N's, E's end of the bet, lies between 2 and 5\)"):
        solve_job({"deal": "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", "contract": "no-queens",
                   "bet": "E", "node_limit": 10 ** 6})


def test_jobs_give_null_values_and_bounds_under_a_limit() -> None:
    """Every shape of ``solve_job`` under a limit that stops its searches: ``"value":
    null`` and ``"bounds"`` around the value a job without the limit gives; the result
    says ``time_limit`` and ``timed_out``; a limit that does not strike changes only
    those two keys."""
    deal = random_deal(21, 52, 8).to_pbn()
    base = {"deal": deal, "contract": "no-queens"}
    for extra in ({}, {"all_seats": True}, {"bet": "E"}, {"cards": True}):
        full = solve_job({**base, **extra})
        roomy = solve_job({**base, **extra, "time_limit": 600})
        assert roomy.pop("time_limit") == 600 and roomy.pop("timed_out") is False
        assert roomy == full
        cut = solve_job({**base, **extra, "time_limit": 1e-9})
        assert cut["timed_out"] is True and cut["time_limit"] == 1e-9
        if "all_seats" in extra:
            assert any(v is None for v in cut["values"].values())
            for s, v in cut["values"].items():
                if v is None:
                    lo, hi = cut["bounds"][s]
                    assert lo <= full["values"][s] <= hi
                else:
                    assert v == full["values"][s]
            continue
        if cut["value"] is None:
            assert cut["bounds"][0] <= full["value"] <= cut["bounds"][1]
        else:
            assert cut["value"] == full["value"]
        if "bet" in extra:
            assert "bracket_bounds" in cut
            for end, (lo, hi), want in zip(cut["bracket"], cut["bracket_bounds"],
                                           full["bracket"]):
                assert lo <= want <= hi and end in (None, want)
                assert (end is None) == (lo != hi)
        if "cards" in extra:
            want = {c["card"]: c["value"] for c in full["cards"]}
            assert {c["card"] for c in cut["cards"]} == want.keys()
            assert any(c["value"] is None for c in cut["cards"])
            for c in cut["cards"]:
                if c["value"] is None:
                    assert c["bounds"][0] <= want[c["card"]] <= c["bounds"][1]
                else:
                    assert c["value"] == want[c["card"]]


def test_a_table_under_a_limit_marks_only_a_proven_best() -> None:
    """The table of every option: rows stopped give bounds; Dominoes rows are exact;
    ``best`` is null unless one row is proven best, and then it is the best of the
    table without a limit whenever that one is unique."""
    deal = random_deal(3, 52).to_pbn()
    full = solve_job({"deal": deal})
    cut = solve_job({"deal": deal, "time_limit": 1e-9})
    assert cut["timed_out"] is True
    exact = {(r["contract"], r["trump"], r["rank"]): r["value"] for r in full["rows"]}
    for r in cut["rows"]:
        want = exact[(r["contract"], r["trump"], r["rank"])]
        if r["value"] is None:
            assert r["bounds"][0] <= want <= r["bounds"][1]
        else:
            assert r["value"] == want
        if r["contract"] == "dominoes":
            assert r["value"] is not None
    best = cut["best"]
    assert best is None or best["value"] == full["best"]["value"]
    assert sum(r["best"] for r in cut["rows"]) == (best is not None)

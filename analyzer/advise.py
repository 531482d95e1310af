"""The contract advisor (``barbu advise``): which contract to declare, and doubling equity.

Given the declarer's hand, :func:`advise` deals the unseen cards many times
(:mod:`analyzer.sampler`), solves every option on every deal double dummy, and reports
per option the mean *guaranteed* value of the declarer (design.md, "Solution concepts":
the other three play against him), its standard error, a 95% interval, min/max, the
distribution of values and the probability that the option is the best on a deal.

Options are the contracts still available (``remaining``; default every contract of the
preset's match), Trumps once per trump suit, Dominoes once per starting rank the declarer
may name (``start = "named"``), the preset's rank (``"fixed"``), or each rank he holds
(``"first-card"``: his first card fixes the rank).

**A run of seven.** The declarer plays each contract of his run once. Declaring ``c`` now
leaves ``R - {c}`` for the later hands, worth ``F(R - {c})``: the expected value of the
best order for those contracts on random future hands, read from a table shipped in
``data/future_values/<preset>.json`` (made by :func:`future_value_table`, see
``docs/advise.md``). The recommendation maximises ``mean + F(R - {c})``. Presets with a
fixed order (``classic-32``) have nothing to choose: the first remaining contract is
recommended and the values are shown for information.

**Doubling** (presets with ``rules.doubling``). For the recommended option (or every
option, ``doubling="all"``) and each opponent Y of the declarer X, two solves per deal give
the *doubling bracket*: ``V_X`` with ``w = e_X - e_Y``, maximiser ``{X}``, and ``V_Y`` with
``w = e_Y - e_X``, maximiser ``{Y}``; with perfect play ``s_X - s_Y`` lies in
``[V_X, -V_Y]`` (``low <= high`` on every deal). A double by Y moves ``s_X - s_Y`` from Y to
X (difference rule, rules.md "Doubling"), a redouble moves it again: Y should double when
the bet favours him, X redouble when it favours X. The declarer's net result with no
doubles, with every opponent doubling him, and with him redoubling them all, is the linear
objective ``(1 + 3n) s_X - n * sum(s_Y)`` (n = doubles per pair), solved exactly; under
``undoubled_negative = split`` an undoubled negative contract is not played, and the split
is compared with playing.

Known limit: every deal is solved as if everyone saw every card (strategy fusion), so the
values are those of perfect-information play; the guaranteed value is a floor against
three cooperating opponents.

Results are deterministic for a given ``seed``: every deal is drawn in the calling process
before any is solved, and the solves are deterministic, so 1 or K worker processes give
the same numbers.
"""

from __future__ import annotations

import json
import math
import os
import queue
import time
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from itertools import combinations
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from analyzer.cards import RANK_CHARS, Seat, as_hand, as_seat, card_name, format_hand
from analyzer.errors import BarbuError, check_seconds, check_whole, check_workers
from analyzer.pools import compile_together, fork_pool, load_kernels, wait_for
from analyzer.rules import (BUILTIN_PRESETS, Contract, Rules, builtin_game, game_fingerprint,
                            load_rules, same_game_as_builtin)
from analyzer.sampler import Hands, Sampler, parse_constraints, sample_deals
from analyzer.samples import fresh_seed

__all__ = ["advise", "Option", "advise_options", "parse_remaining", "load_future_values",
           "future_value_table", "subset_values", "summarize", "AUTO_START", "AUTO_STEP",
           "AUTO_CAP", "RACE_STEP_52", "slow_contracts", "slow_ids", "option_range",
           "sure_trump_tricks"]

#: Trick contracts whose 52-card guaranteed value takes seconds to minutes a deal today
#: (most full deals need more than 20 M nodes: BENCHMARKS.md, "Trick solver" (b), and
#: "Advisor" for the times), dearest first: the advisor queues a deal's solves in this
#: order (No Last Two about 24 s a deal, No Queens 11, No Tricks 10, No Hearts 3), so
#: that the cheap ones (Trumps and No King about a second or less, Dominoes
#: milliseconds) fill the last minutes of a run on every core.
SLOW_52 = ("no-last-two", "no-last", "salad", "ravage-city", "no-queens", "no-tricks",
           "no-hearts")

#: ``samples="auto"``: first batch, later batches, and the cap.
AUTO_START, AUTO_STEP, AUTO_CAP = 20, 20, 400
MAX_SAMPLES = 1_000_000

#: ``race`` on 52 cards: its batches (the first and the later ones). A 52-card deal of the
#: slow contracts costs seconds to a minute, and an option far behind is beaten
#: after 10 deals as after 20 (BENCHMARKS.md, "Advisor"): looking twice as often solves
#: it on half the deals. ``auto`` still tests for separation every ``AUTO_STEP`` deals.
RACE_STEP_52 = 10
#: With a time limit and doubling brackets, the share of the time the values may take
#: (the recommendation comes first); the brackets' solves have the rest, and all of it
#: when the values end sooner. On 52 cards the values of every deal would otherwise
#: take the whole limit, and no bracket would be solved.
VALUES_SHARE = 2 / 3
#: ``race``: an option stops being solved once the leader beats it at 1 - RACE_ALPHA
#: (:func:`_separated`, whichever batch it is tested after).
RACE_ALPHA = 0.01
#: The betting test's cap on a stake: this share of the stake that the worst possible deal
#: would ruin (Waudby-Smith and Ramdas suggest 1/2 or 3/4; 3/4 stopped auto after 6%
#: fewer deals than 1/2 on 40 barbu-32 hands, BENCHMARKS.md "Advisor").
BET_CAP = 0.75
#: Solve the declarer's doubling solves of the option probably doubled right after its
#: value, on the value's table (:func:`_fuse`); off only to measure what that saves.
FUSE = True

def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified
    Lentz), converging for ``x < (a + 1) / (a + b + 2)``."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-16:
            break
    return h


def _beta_inc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), 0 <= x <= 1."""
    if x <= 0.0 or x >= 1.0:
        return 0.0 if x <= 0.0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _t_two_tail(t: float, df: int) -> float:
    """P(|T| > t) for Student's t with ``df`` degrees of freedom, t >= 0."""
    return _beta_inc(df / 2, 0.5, df / (df + t * t))


def t_quantile(alpha: float, df: int) -> float:
    """Two-sided ``1 - alpha`` quantile of Student's t with ``df`` degrees of freedom:
    the ``t`` with P(|T| > t) = alpha, found by bisection on the distribution (the
    incomplete beta function) to float precision.

    >>> [round(t_quantile(0.05, df), 6) for df in (1, 2, 5, 30, 99)]
    [12.706205, 4.302653, 2.570582, 2.042272, 1.984217]
    """
    if not (0 < alpha < 1) or df < 1:
        raise ValueError(f"t_quantile: alpha {alpha} and df {df} out of range")
    lo, hi = 0.0, 1.0
    while _t_two_tail(hi, df) > alpha:
        lo, hi = hi, hi * 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if _t_two_tail(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
    return hi


_T95: dict[int, float] = {}


def t95(df: int) -> float:
    """Two-sided 95% quantile of Student's t with ``df`` degrees of freedom (exact,
    computed once a ``df``).

    >>> round(t95(1), 4), round(t95(30), 4), round(t95(99), 4), round(t95(1000), 4)
    (12.7062, 2.0423, 1.9842, 1.9623)
    """
    if df not in _T95:
        _T95[df] = t_quantile(0.05, df)
    return _T95[df]


# --------------------------------------------------------------------------- options
@dataclass(frozen=True)
class Option:
    """One choice of the declarer: a contract, with its trump suit or starting rank."""

    contract: Contract
    trump: int | None = None
    rank: int | None = None

    @property
    def key(self) -> dict[str, Any]:
        """``{"contract", "trump", "rank"}`` in the JSON spelling (``"S"``, ``"T"``)."""
        return {"contract": self.contract.id,
                "trump": None if self.trump is None else "SHDC"[self.trump],
                "rank": None if self.rank is None else RANK_CHARS[self.rank]}

    @property
    def label(self) -> str:
        """``trumps S``, ``dominoes 7``, ``no-king``."""
        k = self.key
        return " ".join(x for x in (k["contract"], k["trump"], k["rank"]) if x)


def parse_remaining(rules: Rules, remaining: str | Iterable[str] | None) -> tuple[str, ...]:
    """Contract ids still to play, in the preset's match order (default: all of them).

    >>> parse_remaining(load_rules("tournament"), "trumps, barbu")
    ('no-king', 'trumps')
    """
    if remaining is None or remaining == "" or remaining == []:
        return tuple(rules.match_contracts)
    items = remaining.replace(";", ",").split(",") if isinstance(remaining, str) \
        else list(remaining)
    ids = set()
    for x in items:
        if not str(x).strip():
            continue
        try:
            c = rules.contract(str(x))
        except BarbuError:  # (named against the match, not every contract defined)
            raise BarbuError(f"unknown contract {str(x).strip()!r} in --remaining (the "
                             f"match of preset {rules.name!r}: "
                             + ", ".join(rules.match_contracts) + ")") from None
        if c.id not in rules.match_contracts:
            raise BarbuError(f"contract {c.id} is not in the match of preset {rules.name!r} "
                             "(expected one of " + ", ".join(rules.match_contracts) + ")")
        ids.add(c.id)
    if not ids:
        raise BarbuError("--remaining names no contract")
    if rules.order == "fixed" and ids != set(rules.match_contracts[-len(ids):]):
        tail = ", ".join(rules.match_contracts[-len(ids):])
        raise BarbuError(f"preset {rules.name!r} plays its contracts in a fixed order "
                         f"({', '.join(rules.match_contracts)}): the {len(ids)} still to "
                         f"play are the last ones, {tail}")
    return tuple(c for c in rules.match_contracts if c in ids)


def slow_contracts(rules: Rules | str | None, remaining: str | Iterable[str] | None
                   ) -> list[str]:
    """The contracts of ``remaining`` (default: the preset's match) that are slow to solve
    today: on 52 cards, the declarer's guaranteed value in the negative contracts other
    than No King can take minutes a deal (measured, BENCHMARKS.md). Empty on 32 cards.

    >>> slow_contracts("tournament", "trumps,no-king,no-hearts")
    ['no-hearts']
    >>> slow_contracts("barbu-32", None)
    []
    """
    r = rules if isinstance(rules, Rules) else load_rules(rules)
    if r.deck != 52:
        return []
    return slow_ids(r, parse_remaining(r, remaining))


def slow_ids(rules: Rules, ids: Iterable[str]) -> list[str]:
    """Those of the contract ids ``ids`` (already checked) that are slow to solve today
    (:func:`slow_contracts`)."""
    return [c for c in ids if rules.deck == 52 and c in SLOW_52]


def advise_options(rules: Rules, seat: int, hand: Iterable[int],
                   remaining: Sequence[str]) -> list[Option]:
    """Every option of the contracts in ``remaining`` (:mod:`analyzer.options`; first-card
    Dominoes per rank of the declarer's cards when he plays first)."""
    from analyzer.dominoes import dominoes_first_seat
    from analyzer.options import contract_options
    first = dominoes_first_seat(rules, seat)
    hands = [frozenset()] * 4
    hands[seat] = frozenset(hand)
    return [Option(rules.contracts[cid], t, k) for cid in remaining
            for t, k in contract_options(rules, rules.contracts[cid], hands, first, seat)]


# --------------------------------------------------------------------------- solving
def _solve(rules: Rules, seat: int, hands: Hands, opt: Option,
           weights: Sequence[int] | None = None, maximizers: Sequence[int] | None = None,
           bounds: tuple[Fraction | None, Fraction | None] | None = None) -> Fraction:
    """One double-dummy value of ``opt`` on a whole deal (guaranteed value of ``seat``, or
    a linear objective; ``bounds``: values known to hold it, trick contracts only)."""
    c = opt.contract
    if c.is_dominoes:
        from analyzer.dominoes import dominoes_first_seat, solve_dominoes
        first = dominoes_first_seat(rules, seat)
        if weights is None:
            return solve_dominoes(hands, rules, c, first=first, start_rank=opt.rank,
                                  seat=seat)
        return solve_dominoes(hands, rules, c, first=first, start_rank=opt.rank,
                              weights=weights, maximizers=maximizers)
    from analyzer.solve import solve
    leader = rules.opening_leader(seat)
    if weights is None:
        return solve(hands, rules, c, trump=opt.trump, leader=leader, seat=seat)
    return solve(hands, rules, c, trump=opt.trump, leader=leader,
                 weights=weights, maximizers=maximizers, bounds=bounds)


def _bet_weights(x: int, y: int) -> list[int]:
    return [1 if p == x else -1 if p == y else 0 for p in range(4)]


def _net_weights(x: int, n: int) -> list[int]:
    return [1 + 3 * n if p == x else -n for p in range(4)]


# Worker context: set in the parent before the pool forks (never pickled per task).
_CTX: dict[str, Any] = {}

def _cost_rank(o: Option) -> int:
    """Where the option's solves go in a deal's queue, lower first (:data:`SLOW_52`);
    scheduling only: the results do not depend on it."""
    c = o.contract
    if c.id in SLOW_52:
        return SLOW_52.index(c.id)
    if c.is_dominoes:
        return len(SLOW_52) + 2
    return len(SLOW_52) + (0 if o.trump is not None else 1)


def _alone(o: Option) -> bool:
    """Does each solve of this option get a task of its own? On 52 cards every trick
    contract's solve (seconds to minutes, with rare long tails), so that the cores stay
    evenly loaded; Dominoes and 32-card solves (milliseconds) go one task a deal, where a
    task's cost of sending is of their size."""
    return _CTX["rules"].deck == 52 and not o.contract.is_dominoes


def _tasks(kind: str, deals: Sequence[tuple[int, Hands]], which: Sequence[int],
           extra: Sequence[Any] = (None,)) -> list[tuple]:
    """The tasks ``(kind, deal index, ((option, x), ...), hands)`` that solve every option
    of ``which`` with every ``x`` of ``extra`` on every deal: deal by deal (the progress
    bar moves evenly), each deal's dearest options first (:func:`_cost_rank`), so the
    run ends on cheap solves on every core; one solve a task or one task a deal
    (:func:`_alone`)."""
    opts = _CTX["options"]
    order = sorted(which, key=lambda k: (_cost_rank(opts[k]), k))
    out = []
    for i, d in deals:
        rest = []
        for k in order:
            for x in extra:
                if _alone(opts[k]):
                    out.append((kind, i, ((k, x),), d))
                else:
                    rest.append((k, x))
        if rest:
            out.append((kind, i, tuple(rest), d))
    return out


def _solves(tasks: Sequence[tuple]) -> int:
    """How many solves the tasks hold (the progress bar counts solves)."""
    return sum(len(t[2]) for t in tasks)


def _work(item: tuple[str, int, tuple[tuple[int, Any], ...], Hands]
          ) -> list[tuple[tuple[str, int, int, Any], Any]]:
    """The solves of one task on one deal, each ``(option k, x)``: kind ``"value"``, the
    declarer's guaranteed value of option ``k``; ``"bet"``, one end of the doubling
    bracket against opponent ``y`` (``x = (y, z)``; ``z`` 0: ``V_X``, 1: ``V_Y``);
    ``"net"``, the declarer's net objective with ``x`` doubles a pair. A fifth element,
    if any, maps ``(k, x)`` to the bounds that solve is known to lie within
    (:func:`_hinted`). Returns each solve's key ``(kind, deal index, k, x)`` and value."""
    kind, i, group, hands = item[:4]
    hints = item[4] if len(item) > 4 else {}
    rules, seat = _CTX["rules"], _CTX["seat"]
    out = []
    for k, x in group:
        o = _CTX["options"][k]
        if kind == "value" and hints.get("fuse"):
            # the value, then the declarer's doubling solves on its table (:func:`_fuse`)
            from analyzer.solve import solve_from_value
            fuse = hints["fuse"]
            g, vals = solve_from_value(hands, rules, o.contract, [w for _, _, w in fuse],
                                       trump=o.trump, leader=rules.opening_leader(seat),
                                       seat=seat)
            out.append(((kind, i, k, x), g))
            out.extend(((kd, i, k, xd), v) for (kd, xd, _), v in zip(fuse, vals))
            continue
        if kind == "value":
            v = _solve(rules, seat, hands, o)
        elif kind == "bet":
            y, z = x
            a, b = (seat, y) if z == 0 else (y, seat)
            v = _solve(rules, seat, hands, o, _bet_weights(a, b), (a,), hints.get((k, x)))
        else:
            v = _solve(rules, seat, hands, o, _net_weights(seat, x), (seat,),
                       hints.get((k, x)))
        out.append(((kind, i, k, x), v))
    return out


#: the clock that times each task (a test's fake one replaces it)
_clock = time.perf_counter


def _timed(item: tuple) -> tuple[float, list]:
    """:func:`_work` and the seconds it took (in the process that ran it)."""
    t = _clock()
    res = _work(item)
    return _clock() - t, res


def _cost_class(t: tuple) -> tuple[str, str]:
    """Solves that cost alike: a task's kind and contract (a value task that also makes
    the declarer's doubling solves, :func:`_fuse`, counts as its one value solve)."""
    return t[0], _CTX["options"][t[2][0][0]].contract.id


class _Runner:
    """Runs tasks on ``workers`` forked processes (or in this one); results by solve key.

    Before the pool forks, the parent runs the cheapest task of each kind of kernel
    (trick play, Dominoes) itself, so that the workers inherit those kernels loaded (or
    compiled, on a first run) instead of each loading them.

    :meth:`map` can be given ``ahead``: work that a later :meth:`map` will probably ask
    for, handed to a worker that would otherwise wait for the batch's last solves. Its
    results are kept and given out when a later batch asks for the same task (and only
    then counted on the progress bar); work asked for by no batch is dropped. Results
    never depend on it: a task's solves are the same whoever runs them and when.

    ``eta(seconds)``, if given, receives after each solve a guess of the seconds left:
    each task is timed, and the tasks still to run are costed at the mean time a solve
    of their kind and contract has taken so far (solves of a kind not seen yet, and
    solves of later batches, at the mean of all). On 52 cards one contract's solves can
    cost a hundred times another's, so the share of solves done says little of the
    time left.

    ``deadline`` (a :func:`_clock` time) and ``stop`` (a callable), if given: once the
    deadline has passed or ``stop()`` returns true (asked after each result and at
    least once a second while workers solve), :meth:`map` hands out no more work and
    returns the results it has (those of tasks still running are dropped), and
    ``halted`` says why (``"time"``, ``"stop"``; None while it runs on). Tasks then always run on the pool, one worker or several,
    so that none holds the run beyond that (the kernels are loaded before the fork,
    :func:`analyzer.pools.load_kernels`, not by a first solve here)."""

    def __init__(self, workers: int, progress: Callable[[int, int], Any] | None,
                 eta: Callable[[float], Any] | None = None,
                 deadline: float | None = None,
                 stop: Callable[[], bool] | None = None,
                 end: float | None = None) -> None:
        self.workers = workers
        self.progress = progress
        self.eta = eta
        self.deadline = deadline
        #: when the whole run must end (the time left shown counts to it), if not at
        #: ``deadline``: ``advise`` gives the values an earlier deadline than the doubling
        self.end = deadline if end is None else end
        self.stop = stop
        self.halted: str | None = None
        #: seconds and solves so far, by :func:`_cost_class`; each task's seconds a solve
        self.costs: dict[tuple, list[float]] = {}
        self.times: dict[tuple, list[float]] = {}
        self.open: dict[tuple, tuple] = {}  # this batch's tasks not back yet, by task key
        #: each task handed to the pool and not back yet, and when
        self.started: dict[tuple, tuple[tuple, float]] = {}
        self.last_eta = float("-inf")
        self.pool = None
        self.done = 0
        self.total = 0
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.running: set[tuple] = set()  # task keys handed to the pool, not back yet
        self.kept: dict[tuple, list] = {}  # results of ``ahead`` work, by task key
        #: results a task gave beyond its own solves (a fused value task's doubling
        #: solves, :func:`_fuse`), by solve key, until a task asks for them
        self.extra: dict[tuple, Any] = {}

    def map(self, items: list, ahead: Callable[[dict], tuple | None] | None = None,
            fuse: Callable[[tuple, dict], tuple] | None = None) -> dict:
        """Every solve of ``items``, by solve key. ``ahead(partial)``, called each time a
        worker would be idle, returns a task to run meanwhile, or None; ``partial`` holds
        the results of ``items`` so far. ``fuse(task, partial)``, called as each task is
        handed out, may return it with more solves to make (:func:`_fuse`); tasks are
        handed out a few at a time so that it sees the results so far."""
        out: dict = {}
        items = [t for t in items if not self._had(out, t)]
        if self._halt():  # only what was solved already
            for t in items:
                got = self.kept.pop(_task_key(t), None)
                if got is not None:
                    self._take(out, got, t)
            return out
        if (self.pool is None and (self.deadline is not None or self.stop is not None)
                and items):
            opts = _CTX["options"]
            kinds = {opts[k].contract.is_dominoes for t in items for k, _ in t[2]}
            load_kernels(tricks=False in kinds, dominoes=True in kinds)
            self.pool = fork_pool(self.workers)
        if self.workers > 1 and self.pool is None and len(items) > 1:
            opts = _CTX["options"]
            kinds = {opts[k].contract.is_dominoes for t in items for k, _ in t[2]}
            if len(kinds) == 2:
                compile_together()  # (a first run: both kernels at once, on two cores)
            warm = []
            for j in range(len(items) - 1, -1, -1):  # the cheapest tasks come last
                new = {opts[k].contract.is_dominoes for k, _ in items[j][2]} & kinds
                if new:
                    warm.append(j)
                    kinds -= new
            for j in sorted(warm):
                self._take(out, self._run_here(items[j]), items[j])
            items = [t for j, t in enumerate(items) if j not in warm]
            self.pool = fork_pool(self.workers)
        self.open = {_task_key(t): t for t in items}
        if self.pool is None:
            for t in items:
                self._take(out, self.kept.pop(_task_key(t), None)
                           or self._run_here(fuse(t, out) if fuse is not None else t), t)
            return out
        wanted = set()
        pending = []
        for t in items:
            tk = _task_key(t)
            if tk in self.kept:
                self._take(out, self.kept.pop(tk), t)
            else:
                wanted.add(tk)
                if tk not in self.running:
                    pending.append(t)
        pending.reverse()
        asked = {_task_key(t): t for t in items}
        while wanted and not self._halt():
            while pending and len(self.running) < 2 * self.workers:
                t = pending.pop()
                self._submit(_task_key(t), fuse(t, out) if fuse is not None else t)
            while ahead is not None and not pending and len(self.running) < self.workers:
                t = ahead(out)
                if t is None:
                    ahead = None
                elif (_task_key(t) not in self.running and _task_key(t) not in self.kept
                      and not all(k in self.extra for k in _solve_keys(t))):
                    self._submit(_task_key(t), t)
            try:
                tk, res, err, secs = wait_for(self.pool, self._get, queue.Empty)
            except _TimeUp:
                break
            self.running.discard(tk)
            if err is not None:
                raise err
            self._learn(self.started.pop(tk)[0], secs)
            if tk in wanted:
                wanted.discard(tk)
                self._take(out, res, asked[tk])
            else:
                self.kept[tk] = res
        return out

    def _had(self, out: dict, t: tuple) -> bool:
        """Did an earlier task give every solve of ``t`` (``extra``)? Then take them."""
        keys = _solve_keys(t)
        if not all(k in self.extra for k in keys):
            return False
        self._take(out, [(k, self.extra.pop(k)) for k in keys], t)
        return True

    def _submit(self, tk: tuple, t: tuple) -> None:
        self.running.add(tk)
        self.started[tk] = (t, _clock())
        q = self.queue  # (a pool closed mid-run may still report to its own queue)
        self.pool.apply_async(_timed, (t,),
                              callback=lambda r: q.put((tk, r[1], None, r[0])),
                              error_callback=lambda e: q.put((tk, None, e, 0.0)))

    def _get(self, timeout: float) -> tuple:
        """The next task's results; on a timeout, the time left again (a long solve
        keeps counting down), or :class:`_TimeUp` once the run is halted (the
        deadline, ``stop``)."""
        if self.deadline is not None:
            timeout = min(timeout, max(0.0, self.deadline - _clock()))
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            if self._halt():
                raise _TimeUp from None
            self._eta(force=True)
            raise

    def _halt(self) -> bool:
        """Is the run halted? (The deadline has passed, or ``stop()`` says so; then it
        stays halted.)"""
        if self.halted is None:
            if self.deadline is not None and _clock() >= self.deadline:
                self.halted = "time"
            elif self.stop is not None and self.stop():
                self.halted = "stop"
        return self.halted is not None

    def _eta(self, force: bool = False) -> None:
        if self.eta is None:
            return
        now = _clock()
        if force or now - self.last_eta >= 0.2 or self.done >= self.total:
            self.last_eta = now
            left = self.time_left()
            if self.end is not None:
                left = min(self.end - now, float("inf") if left is None else left)
            if left is not None:
                self.eta(max(0.0, left))

    def _run_here(self, t: tuple) -> list:
        secs, res = _timed(t)
        self._learn(t, secs)
        return res

    def _learn(self, t: tuple, secs: float) -> None:
        """Count a finished task's time against its kind of solve."""
        c = self.costs.setdefault(_cost_class(t), [0.0, 0])
        c[0] += secs
        c[1] += len(t[2])
        self.times.setdefault(_cost_class(t), []).append(secs / len(t[2]))

    def time_left(self) -> float | None:
        """The guess of the seconds left (see the class), None before any task is
        timed or running.

        The oldest ``workers`` tasks handed out count as running (the rest wait in the
        pool's queue): a running task's age counts towards its kind's mean, and its own
        time left is what the finished tasks of its kind that ran longer than its age
        ran beyond it, on average (solve times have long tails: the mean less the age
        would soon say 0), or half its age where none ran as long."""
        now = _clock()
        run = sorted(self.started.items(), key=lambda kv: kv[1][1])[:max(1, self.workers)]
        age = {tk: now - t0 for tk, (_, t0) in run}
        sums = {cls: list(c) for cls, c in self.costs.items()}
        for tk, (t, _) in run:
            c = sums.setdefault(_cost_class(t), [0.0, 0])
            c[0] += age[tk]
            c[1] += len(t[2])
        solves = sum(c[1] for c in sums.values())
        if not solves:
            return None
        mean = sum(c[0] for c in sums.values()) / solves
        tasks = {**self.open, **{tk: t for tk, (t, _) in self.started.items()}}
        work = longest = 0.0
        counted = 0
        for tk, t in tasks.items():
            c = sums.get(_cost_class(t))
            n = len(t[2])
            e = n * (c[0] / c[1] if c is not None and c[1] else mean)
            if tk in age:
                a = age[tk] / n
                past = [x - a for x in self.times.get(_cost_class(t), ()) if x > a]
                e = n * (sum(past) / len(past) if past else a / 2)
            work += e
            longest = max(longest, e)
            counted += n if tk in self.open else 0
        work += max(0, self.total - self.done - counted) * mean
        return max(work / max(1, self.workers), longest)

    def _take(self, out: dict, res: list, t: tuple) -> None:
        """The results of task ``t``: its own solves into ``out`` (each a tick of the
        progress bar), any others kept in ``extra`` (ticked when a task asks for them)."""
        own = set(_solve_keys(t))
        self.open.pop(_task_key(t), None)
        for key, v in res:
            if key in own:
                out[key] = v
                self._tick()
            else:
                self.extra[key] = v

    def _tick(self) -> None:
        self.done += 1
        self._eta()
        if self.progress is not None:
            self.progress(self.done, max(self.total, self.done))

    def close(self) -> None:
        if self.pool is not None:
            if self.running:  # work run ahead that no batch asked for: not waited for
                self.pool.terminate()
            else:
                self.pool.close()
            self.pool.join()
            self.pool = None
            self.running.clear()
            self.started.clear()
            self.queue = queue.SimpleQueue()


class _TimeUp(Exception):
    """The run was halted (the deadline, ``stop``) while the runner waited for a
    result."""


def _task_key(t: tuple) -> tuple:
    """A task's identity: kind, deal index and its solves (the hands follow the index;
    the bounds of :func:`_hinted` change how fast it runs, not its results)."""
    return t[0], t[1], t[2]


def _solve_keys(t: tuple) -> list[tuple]:
    """The keys ``(kind, deal index, k, x)`` of a task's solves."""
    return [(t[0], t[1], k, x) for k, x in t[2]]


def _scores(values: Sequence[Sequence[Fraction | None]], future: Mapping[int, float],
            active: Sequence[int]) -> dict[int, dict[int, float]]:
    """Per option of ``active``, its score (value plus future) on each deal solved so far
    (floats: ranking only)."""
    return {k: {j: float(v[k]) + future.get(k, 0.0) for j, v in enumerate(values)
                if v[k] is not None} for k in active}


def _with_partial(seen: Mapping[int, Mapping[int, float]], partial: Mapping[tuple, Any],
                  future: Mapping[int, float]) -> tuple[dict, dict[int, float]]:
    """``seen`` (:func:`_scores`) with the ``"value"`` results of a batch so far, and
    each option's mean score."""
    sc = {k: dict(d) for k, d in seen.items()}
    for (kind, j, k, _), v in partial.items():
        if kind == "value" and k in sc:
            sc[k][j] = float(v) + future.get(k, 0.0)
    return sc, {k: sum(d.values()) / len(d) for k, d in sc.items() if d}


def _leading(values: Sequence[Sequence[Fraction | None]], partial: Mapping[tuple, Any],
             future: Mapping[int, float], active: Sequence[int]) -> int | None:
    """The option with the best mean score on the deals solved so far (``values``, then
    the ``"value"`` results in ``partial``); None before any."""
    _, means = _with_partial(_scores(values, future, active), partial, future)
    return min(means, key=lambda k: (-means[k], k)) if means else None


def _fuse(t: tuple, doubled: Callable[[int], bool]) -> tuple:
    """Value task ``t`` with the declarer's doubling solves of its option added (the
    declarer's end of the bet against each opponent, and his nets where the contract's
    total is not fixed) when ``doubled(k)`` says that option's doubling will probably be
    asked for, on 52 cards (one solve a task) where no seat scores above 0: the worker
    solves them right after the value, starting from the value's transposition table
    (:func:`analyzer.solve.solve_from_value`: No Last Two's declarer ends x0.66 CPU on
    the README hand, BENCHMARKS.md, twentieth session). Scheduling only: the solves and
    their values are the same as those of the doubling tasks (:class:`_Runner` keeps
    them until those are asked for; a wrong guess costs time)."""
    if t[0] != "value" or len(t[2]) != 1 or len(t) > 4 or not FUSE:
        return t
    k = t[2][0][0]
    o = _CTX["options"][k]
    if not _alone(o) or _sign(o) >= 0 or not doubled(k):
        return t
    x, r = _CTX["seat"], _CTX["rules"]
    objs = [("bet", (y, 0), _bet_weights(x, y)) for y in _CTX["opponents"]]
    if r.total(o.contract) is None:
        objs += [("net", m, _net_weights(x, m)) for m in (1, 2)]
    return (*t[:4], {"fuse": objs})


def _hinted(t: tuple, value: Callable[[int, int], Fraction | None]) -> tuple:
    """Task ``t`` with the bounds its doubling solves are known to lie within, where the
    declarer's guaranteed value of the option on that deal (``value(deal, k)``, None if
    not solved yet) gives one. In a contract where no seat scores above 0
    (:func:`analyzer.solve.score_sign`), the declarer's end of a bet, ``e_X - e_Y``
    maximised by X, is at least X's guaranteed value (Y's score only adds), and his net
    objective ``(1 + 3 n) e_X - n (e_others)`` at least ``1 + 3 n`` times it
    (:func:`analyzer.solve.declarer_bet_bounds`); where the contract's total is fixed
    the bet is also at most ``2 G - total`` (exact when G is the whole total). The solve
    then tests the value just above G first and nothing outside them (No Last Two's
    declarer ends on the README hand: x0.18 CPU)."""
    kind, i, group = t[0], t[1], t[2]
    if kind not in ("bet", "net"):
        return t
    hints = dict(t[4]) if len(t) > 4 else {}
    for k, x in group:
        o = _CTX["options"][k]
        if o.contract.is_dominoes or (k, x) in hints:
            continue
        if kind == "bet" and x[1] != 0:
            continue  # the opponent's end: the declarer's value says nothing of it
        v = value(i, k)
        if v is None:
            continue
        from analyzer.solve import declarer_bet_bounds
        b = declarer_bet_bounds(_sign(o), v, 1 if kind == "bet" else 1 + 3 * x,
                                _CTX["rules"].total(o.contract))
        if b is not None:
            hints[(k, x)] = b
    return (*t[:4], hints) if hints else t


def _sign(o: Option) -> int:
    """:func:`analyzer.solve.score_sign` of the option's contract, kept per contract."""
    cache = _CTX.setdefault("signs", {})
    if o.contract.id not in cache:
        from analyzer.solve import score_sign
        cache[o.contract.id] = score_sign(_CTX["rules"], o.contract)
    return cache[o.contract.id]


class _Ahead:
    """What a worker runs while it would wait for a batch's last solves (``advise``):
    the tasks of the option most likely to be asked for next, by the scores so far.

    ``tasks`` holds each option's candidate tasks, in the order to run them (options
    solved one solve a task, :func:`_alone`, whose tasks a batch asks for as they are);
    ``top`` limits the choice to that many leading options (the doubling of the best
    option only); with ``race`` (each option's score range, :func:`_separated`), an
    option that the leader already beats at 95% is left out (it may stop being solved at
    the batch's end). Scores are values plus the future
    value of what the option leaves, as in the race. Scheduling only: the results of
    ``advise`` do not depend on it (:class:`_Runner`)."""

    def __init__(self, tasks: Mapping[int, list[tuple]], values: list[list[Any]],
                 future: Mapping[int, float], active: Sequence[int],
                 race: Sequence[tuple[float, float]] | None, top: int | None = None) -> None:
        self.tasks = {k: list(v) for k, v in tasks.items() if v}
        self.values = values
        self.active, self.race, self.top = tuple(active), race, top
        self.future = {k: future.get(k, 0.0) for k in self.active}
        #: per active option, its score on each deal solved so far (floats: ranking only)
        self.seen = _scores(values, self.future, self.active)

    def __call__(self, partial: Mapping[tuple, Any]) -> tuple | None:
        if not self.tasks:
            return None
        sc, means = _with_partial(self.seen, partial, self.future)
        if not means:
            order = [k for k in self.active if k in self.tasks]
        else:
            order = sorted(means, key=lambda k: (-means[k], k))
            if self.top is not None:
                order = order[:self.top]
            if self.race:
                lead, rl = sc[order[0]], self.race[order[0]]
                order = [k for k in order if not _beaten(lead, sc[k], rl, self.race[k])]
        def value(j: int, k: int) -> Fraction | None:
            v = partial.get(("value", j, k, None))
            if v is None and j < len(self.values):
                v = self.values[j][k]
            return v

        for k in order:
            if self.tasks.get(k):
                # a doubling task whose bounds are known first (a faster solve)
                ts = self.tasks[k]
                j = next((j for j, t in enumerate(ts) if len(_hinted(t, value)) > 4), 0)
                t = _hinted(ts.pop(j), value)
                if not ts:
                    del self.tasks[k]
                return t
        return None


def _beaten(lead: Mapping[int, float], other: Mapping[int, float],
            rl: tuple[float, float], ro: tuple[float, float]) -> bool:
    """Does ``lead`` beat ``other`` at 95% (:func:`_separated`, on the deals both have,
    in deal order; ``rl``, ``ro``: their score ranges)?"""
    if lead is other:
        return False
    d = [lead[j] - other[j] for j in sorted(lead) if j in other]
    return bool(d) and _bet_separated(d, rl[0] - ro[1], rl[1] - ro[0], 0.05)


def _double_tasks(deals: Sequence[tuple[int, Hands]], which: Sequence[int],
                  opponents: Sequence[int], net: bool) -> list[tuple]:
    """The doubling solves of the options ``which``: both ends of the bracket against each
    opponent, and with ``net`` the declarer's net objective with 1 and 2 doubles a pair."""
    items = _tasks("bet", deals, which, [(y, z) for y in opponents for z in (0, 1)])
    if net:
        items += _tasks("net", deals, which, (1, 2))
    return items


# --------------------------------------------------------------------------- statistics
def _num(x: Fraction | float | None, places: int = 4) -> int | float | None:
    """A number for JSON: exact integers stay integers, the rest is rounded half away
    from zero (an exact value exactly: 13.125 is 13.125 at 4 places, -0.00015 -0.0002), and
    never -0.0.

    >>> _num(Fraction(-3, 20000)), _num(Fraction(-1, 100000)), _num(Fraction(6))
    (-0.0002, 0.0, 6)
    """
    if x is None:
        return None
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    q = Fraction(x) if isinstance(x, Fraction) else Fraction(repr(float(x)))
    if q.denominator == 1:  # (a float that is a whole number: 0.0, a standard error)
        return int(q)
    k = Fraction(10) ** places
    r = math.floor(abs(q) * k + Fraction(1, 2)) / k
    return float(r if q >= 0 else -r) + 0.0


def _stderr(values: Sequence[Fraction]) -> float | None:
    n = len(values)
    if n < 2:
        return None
    m = sum(values, Fraction(0)) / n
    var = sum(((v - m) ** 2 for v in values), Fraction(0)) / (n - 1)
    return math.sqrt(float(var) / n)


def summarize(values: Sequence[Fraction]) -> dict[str, Any]:
    """Mean, standard error, 95% interval (Student t), min, max and distribution.

    >>> s = summarize([Fraction(65)] * 3)
    >>> s["mean"], s["stderr"], s["ci95"], s["distribution"]
    (65, 0, [65, 65], [{'value': 65, 'count': 3}])
    """
    n = len(values)
    m = sum(values, Fraction(0)) / n
    se = _stderr(values)
    half = None if se is None else t95(n - 1) * se
    dist: dict[Fraction, int] = {}
    for v in values:
        dist[v] = dist.get(v, 0) + 1
    return {"mean": _num(m), "stderr": _num(se),
            "ci95": None if half is None else [_num(m - Fraction(half)),
                                              _num(m + Fraction(half))],
            "min": _num(min(values)), "max": _num(max(values)),
            "distribution": _merged([(_num(v), k) for v, k in sorted(dist.items())])}


def _merged(pairs: list[tuple[Any, int]]) -> list[dict[str, Any]]:
    """Distribution entries, values that round alike merged (their counts added)."""
    out: list[dict[str, Any]] = []
    for v, k in pairs:
        if out and out[-1]["value"] == v:
            out[-1]["count"] += k
        else:
            out.append({"value": v, "count": k})
    return out


def _paired(a: Sequence[Fraction], b: Sequence[Fraction]) -> tuple[Fraction, float | None]:
    """Mean (exact) and standard error of ``a - b`` (same deals)."""
    d = [x - y for x, y in zip(a, b)]
    return sum(d, Fraction(0)) / len(d), _stderr(d)


def _log_wealth(d: Sequence[float], lo: float, hi: float) -> float:
    """Log of what a bettor holds after betting on each of ``d`` in turn, starting with 1,
    against "the mean of ``d`` is at most 0", where every ``d`` lies in ``[lo, hi]``
    (``lo < 0 < hi``). Each stake is set from the deals before it alone (Waudby-Smith and
    Ramdas's aGRAPA on ``d`` scaled to [0, 1], with their prior of one deal at 1/2 and
    their cap of :data:`BET_CAP` of the stake that the worst deal would ruin). Where the
    mean is at most 0 the holding is a supermartingale: it ever reaches ``1/alpha`` with
    chance at most ``alpha``, however many looks are taken and whatever the distribution
    (Ville's inequality). A gap seen on every deal so far wins little a deal where a large
    jump the other way is possible: only the range bounds what has not come up yet."""
    w = hi - lo
    m0 = -lo / w
    cap = BET_CAP / m0
    out, total, squares = 0.0, 0.0, 0.25
    for i, di in enumerate(d):
        x = (di - lo) / w
        mean, var = (0.5 + total) / (i + 1), squares / (i + 1)
        g = mean - m0
        stake = min(g / (var + g * g), cap) if g > 0 else 0.0
        out += math.log1p(stake * (x - m0))
        total += x
        squares += (x - (0.5 + total) / (i + 2)) ** 2
    return out


def option_range(rules: Rules, option: Option, hand: Iterable[int]
                 ) -> tuple[Fraction, Fraction]:
    """The least and the most the declarer holding ``hand`` can score on a deal of
    ``option``: :meth:`Rules.score_range`, with the tricks his hand makes sure of in a
    trump contract played to its end (:func:`sure_trump_tricks`).

    >>> r = load_rules("tournament")
    >>> hand = as_hand("AKQ2.A32.5432.32")
    >>> [str(x) for x in option_range(r, Option(r.contracts["trumps"], 0), hand)]
    ['15', '65']
    """
    c = option.contract
    lo, hi = rules.score_range(c)
    tp = rules.trick_points(c)
    if option.trump is None or tp <= 0 or c.stop_when_taken:
        return lo, hi
    sure = sure_trump_tricks(hand, option.trump, rules.deck)
    floor = tp * sure + rules.score_range(c, bonus=False)[0]
    return min([floor, *(b for b in (c.all_tricks_score, c.all_cards_score)
                         if b is not None)]), hi


def sure_trump_tricks(hand: Iterable[int], trump: int, deck: int = 52,
                      others: Iterable[int] | None = None) -> int:
    """The tricks that the trumps of ``hand`` win whatever the others hold and play, in a
    hand played to its end: every trump is played, and a trump that loses its trick loses
    it to a higher trump, a different one each time. So at most as many of his trumps lose
    as can be paired, each with its own higher trump of the others (whatever the
    obligations to follow, ruff or overruff). ``others``: the cards the other three hold
    (an endgame); by default every card of the ``deck`` not in ``hand``.

    >>> sure_trump_tricks(as_hand("AKQ2.A32.5432.32"), 0)          # A K Q; the 2 may lose
    3
    >>> sure_trump_tricks(as_hand("KQJT987.A32.54.3"), 0)          # only the ace is above
    6
    >>> sure_trump_tricks(as_hand("AKQJT98765432..."), 0)
    13
    """
    mine = sorted(c % 13 for c in hand if c // 13 == trump)
    theirs = (sorted(c % 13 for c in others if c // 13 == trump) if others is not None
              else [k for k in range(13 - deck // 4, 13) if k not in mine])
    lost = j = 0
    for k in mine:                   # each of his, lowest first, to the least higher one left
        while j < len(theirs) and theirs[j] <= k:
            j += 1
        if j == len(theirs):
            break
        lost += 1
        j += 1
    return len(mine) - lost


def _separated(a: Sequence[Fraction], b: Sequence[Fraction],
               ra: tuple[float, float], rb: tuple[float, float], alpha: float = 0.05
               ) -> bool:
    """Whether ``a`` beats ``b`` at ``1 - alpha`` (paired, on the deals both were solved
    on, in deal order), by a betting test that holds at any look and for any shape of the
    per-deal values, given that each of ``a`` lies in ``ra`` and each of ``b`` in ``rb``
    (:func:`option_range`, plus the kept contracts' value). Where ``b`` can never
    score above ``a`` one deal where ``a`` is ahead settles it; where it can never score
    below, nothing does; a tie on every deal never does.

    >>> F = Fraction
    >>> _separated([F(1)] * 20, [F(0)] * 20, (-20, 20), (-20, 20))   # no: a jump may come
    False
    >>> _separated([F(5)] * 20, [F(0)] * 20, (-1, 5), (-1, 1))
    True
    >>> _separated([F(0), F(1)], [F(0), F(0)], (0, 9), (-9, 0))   # b never beats a
    True
    """
    return _bet_separated([float(x - y) for x, y in zip(a, b)], ra[0] - rb[1],
                          ra[1] - rb[0], alpha)


def _bet_separated(d: Sequence[float], lo: float, hi: float, alpha: float) -> bool:
    """:func:`_separated` on the differences ``d``, each within ``[lo, hi]``."""
    lo, hi = min([lo, *d]), max([hi, *d])
    if lo >= 0:
        return any(x > 0 for x in d)
    if hi <= 0:
        return False
    return _log_wealth(d, lo, hi) >= math.log(1 / alpha)


def _rivals(cols: list[list[Fraction]], order: Sequence[int], active: Iterable[int]
            ) -> tuple[list[int], int | None]:
    """For the best option ``order[0]``: the other active options tied with it on every
    deal (the same advice), and the first option in ``order`` after it that is not.

    Options 0 and 1 have the same mean but not the same deals: no twin.

    >>> _rivals([[1, 0], [0, 1], [0, 0]], [0, 1, 2], [0, 1, 2])
    ([], 1)
    >>> _rivals([[1, 0], [1, 0], [0, 0]], [0, 1, 2], [0, 1, 2])
    ([1], 2)
    """
    best, act = order[0], set(active)
    twins = [i for i in order[1:] if i in act and len(cols[i]) == len(cols[best])
             and cols[i] == cols[best]]
    other = next((i for i in order[1:] if i not in twins), None)
    return twins, other


def _race(cols: list[list[Fraction]], active: list[int],
          ranges: Sequence[tuple[float, float]]) -> list[int]:
    """The options still to solve (``race``): the leader, and every option it does not
    beat at 99% (:func:`_separated`, ``ranges`` per option). Each option's scores cover
    the deals it was solved on (the first ones: options only ever stop being solved)."""
    lead = _order(cols, active)[0]
    return [i for i in active if i == lead
            or not _separated(cols[lead], cols[i], ranges[lead], ranges[i], RACE_ALPHA)]


# --------------------------------------------------------------------------- future values
def _subset_key(ids: Iterable[str]) -> str:
    return ",".join(sorted(ids))


def load_future_values(rules: Rules) -> dict[str, Any] | None:
    """The shipped table of ``data/future_values/<preset>.json``, or None.

    Its ``"subsets"`` map a comma-joined sorted set of contract ids to ``F(S)``, the
    expected total of the best order for those contracts on ``|S|`` random future hands.
    Only for rules that play the game of the built-in preset it was made with
    (:func:`analyzer.rules.builtin_game`, whatever their name): an edited copy of the file
    that kept the name gets None, since its values differ; an unchanged copy saved under a
    new name gets the built-in's table (its ``"preset"`` says which). A table that is there
    but damaged, or made for other rules (its ``"game"`` fingerprint,
    :func:`analyzer.rules.game_fingerprint`), is an error, never a silent 0.
    """
    name = builtin_game(rules)
    if name is None:
        return None
    try:
        p = _future_values_file(name)
        if not p.is_file():
            return None
        text = p.read_text("utf-8")
    except (OSError, ModuleNotFoundError):
        return None
    fix = f"rebuild it with the barbu-dd sources: python benchmarks/make_future_values.py {name}"
    try:
        table = json.loads(text)
    except ValueError as e:
        raise BarbuError(f"the run-of-seven table {name}.json is not JSON ({e}): {fix}") from None
    problem = _table_problem(table, name, load_rules(name))
    if problem:
        raise BarbuError(f"the run-of-seven table {name}.json {problem}: {fix}")
    return table


def _future_values_file(name: str) -> Any:
    return resources.files("data").joinpath("future_values", f"{name}.json")


def _table_problem(table: Any, name: str, game: Rules) -> str | None:
    """What is wrong with a run-of-seven table for the built-in ``game``, or None.

    >>> _table_problem({"preset": "barbu-32"}, "tournament", load_rules("tournament"))
    "was made for preset 'barbu-32'"
    """
    if not isinstance(table, dict):
        return "is not a JSON object"
    if table.get("preset") != name:
        return f"was made for preset {table.get('preset')!r}"
    if table.get("game") != game_fingerprint(game):
        return ("was made for other rules than this version of the preset's "
                f"(game {table.get('game')!r}, the preset's {game_fingerprint(game)!r})")
    cs = table.get("contracts")
    if not isinstance(cs, list) or sorted(map(str, cs)) != sorted(game.match_contracts):
        return "does not list the preset's contracts"
    subsets = table.get("subsets")
    if not isinstance(subsets, dict):
        return "has no subsets"
    want = {_subset_key(S) for k in range(1, len(cs) + 1) for S in combinations(cs, k)}
    if set(subsets) != want:
        missing = sorted(want - set(subsets))
        return (f"lacks the subset {missing[0]!r}" if missing else
                f"has an unknown subset {sorted(set(subsets) - want)[0]!r}")
    for k, v in subsets.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not abs(v) <= 1e12:
            return f"has a bad value for {k!r}: {v!r}"
    return None


def _exact(f: float) -> Fraction:
    """A future value as the decimal the table writes (``-10.7229``), not the binary
    float nearest it: scores round as the docs say, half away from zero on the exact sum.

    >>> _exact(-10.7229)
    Fraction(-107229, 10000)
    """
    return Fraction(repr(float(f)))


def subset_values(per_hand: Sequence[Mapping[str, float]], contracts: Sequence[str]
                  ) -> dict[str, float]:
    """``F(S)`` for every subset S of ``contracts`` by dynamic programming over subsets.

    ``F({}) = 0``; ``F(S) = mean over hands h of max_{c in S} (v_c(h) + F(S - {c}))``,
    where ``per_hand[h][c]`` is the value of contract c on hand h. Each F(S) reuses every
    sampled hand (a common-random-numbers estimate).

    >>> F = subset_values([{"a": 1, "b": 0}, {"a": 0, "b": 3}], ["a", "b"])
    >>> F["a"], F["b"], F["a,b"]
    (0.5, 1.5, 3.0)

    By hand: F(a) = (1 + 10) / 2, F(b) = (0.9 + 0) / 2; hand 1 plays b now and keeps a
    (0.9 + 5.5, not 1 + 0.45), hand 2 plays a (10 + 0.45): F(a,b) = (6.4 + 10.45) / 2 (a
    greedy order, the best now, would give 5.95):

    >>> F = subset_values([{"a": 1, "b": 0.9}, {"a": 10, "b": 0}], ["a", "b"])
    >>> round(F["a"], 6), round(F["b"], 6), round(F["a,b"], 6)
    (5.5, 0.45, 8.425)
    """
    cs = list(contracts)
    F: dict[frozenset[str], float] = {frozenset(): 0.0}
    for k in range(1, len(cs) + 1):
        for sub in combinations(cs, k):
            S = frozenset(sub)
            tot = 0.0
            for v in per_hand:
                tot += max(float(v[c]) + F[S - {c}] for c in S)
            F[S] = tot / len(per_hand)
    return {_subset_key(S): round(val, 4) for S, val in F.items() if S}


def future_value_table(rules: Rules | str, hands: int, inner: int, seed: int,
                       workers: int = 1,
                       progress: Callable[[int, int], Any] | None = None) -> dict[str, Any]:
    """The table behind the run-of-seven advice (shipped in ``data/future_values``).

    For ``hands`` random declarer hands (seat N, seeded), each option of every match
    contract is solved on ``inner`` deals of the unseen cards; a contract's value on the
    hand is the best of its options' means (the declarer names the trump suit or rank
    knowing his hand). :func:`subset_values` then gives ``F(S)`` for every subset.

    Returns
    -------
    dict
        ``{"preset", "seed", "hands", "inner", "contracts", "mean": {c: mean value},
        "stderr": {c: …}, "subsets": {"c1,c2": F, …}}`` (JSON-able).
    """
    r = load_rules(rules) if not isinstance(rules, Rules) else rules
    ss = np.random.SeedSequence(seed)
    rng = np.random.default_rng(ss)
    from analyzer.cards import random_deal
    per_hand: list[dict[str, float]] = []
    cs = list(r.match_contracts)
    allopts: list[tuple[int, Option]] = []
    tasks_per_hand = []
    hand_deals = []
    for h in range(hands):
        deal = random_deal(rng, deck=r.deck)
        hand = deal.hands[0]
        opts = advise_options(r, 0, hand, cs)
        base = len(allopts)
        allopts.extend((h, o) for o in opts)
        hand_deals.append(sample_deals(Sampler(hand, 0, r.deck), inner, rng))
        tasks_per_hand.append(tuple(range(base, base + len(opts))))
    _CTX.clear()
    _CTX.update(rules=r, seat=0, options=[o for _, o in allopts])
    items = []
    for h in range(hands):
        items.extend(_tasks("value", list(enumerate(hand_deals[h])), tasks_per_hand[h]))
    runner = _Runner(max(1, workers), progress)
    runner.total = _solves(items)
    try:
        res = runner.map(items)
    finally:
        runner.close()
    sums: dict[int, Fraction] = {}
    for (_, _, k, _), v in res.items():
        sums[k] = sums.get(k, Fraction(0)) + v
    for h in range(hands):
        best: dict[str, float] = {}
        for k in tasks_per_hand[h]:
            cid = allopts[k][1].contract.id
            best[cid] = max(best.get(cid, -math.inf), float(sums[k]) / inner)
        per_hand.append(best)
    mean = {c: round(sum(v[c] for v in per_hand) / hands, 4) for c in cs}
    se = {c: round(float(np.std([v[c] for v in per_hand], ddof=1) / math.sqrt(hands)), 4)
          if hands > 1 else None for c in cs}
    return {"preset": r.name, "game": game_fingerprint(r), "seed": seed, "hands": hands,
            "inner": inner, "contracts": cs, "mean": mean, "stderr": se,
            "subsets": subset_values(per_hand, cs)}


# --------------------------------------------------------------------------- doubling
def _opponents(rules: Rules, c: Contract, seat: int) -> tuple[int, ...]:
    """The seats that may double the declarer, in doubling turn (from his left)."""
    return tuple((seat + k) % 4 for k in (1, 2, 3))


def _bracket_means(vals: list[tuple[Fraction, Fraction]]
                   ) -> tuple[Fraction, Fraction, Fraction]:
    """The mean low end, high end and midpoint of a bracket's deals, exact: ``vals`` are
    the two ends' solves ``(V_X, V_Y)``, the bracket ``[V_X, -V_Y]``."""
    n = len(vals)
    lo = sum((vx for vx, _ in vals), Fraction(0)) / n
    hi = sum((-vy for _, vy in vals), Fraction(0)) / n
    return lo, hi, (lo + hi) / 2


def _bracket_advice(rules: Rules, c: Contract, seat: int, y: int,
                    vals: list[tuple[Fraction, Fraction]]) -> dict[str, Any]:
    lows = [vx for vx, _ in vals]
    highs = [-vy for _, vy in vals]
    n = len(vals)
    lo, hi, mid = _bracket_means(vals)
    p_x = Fraction(sum(1 for v in lows if v > 0), n)
    p_y = Fraction(sum(1 for v in highs if v < 0), n)
    X, Y = Seat(seat).name, Seat(y).name
    sum_rule = rules.variants["positive_settlement"] == "sum" and rules.is_positive(c)
    gain = f"{Y}'s gain per double is {X}'s loss, -(s_{X} - s_{Y})"
    if hi < 0:
        double, why = True, (f"{Y} should double: even when {X} plays his best the bet "
                             f"s_{X} - s_{Y} averages at most {_f(hi)}")
    elif lo > 0:
        double, why = False, (f"{Y} should not double: even when {Y} plays his best, "
                              f"s_{X} - s_{Y} averages at least {_f(lo)}")
    else:
        double = mid < 0
        why = (f"{'double' if double else 'no double'}: s_{X} - s_{Y} lies in "
               f"[{_f(lo)}, {_f(hi)}] on average (midpoint {_f(mid)}); {gain}")
    if hi < 0:
        redouble, rwhy = False, f"{X} should not redouble: he loses the bet even at best"
    elif lo > 0:
        redouble, rwhy = True, (f"{X} should redouble: he wins at least {_f(lo)} a double "
                                "on average whatever the others do")
    else:
        redouble = mid > 0
        rwhy = (f"{'redouble' if redouble else 'no redouble'}: the bracket midpoint is "
                f"{_f(mid)}")
    out = {"opponent": Y, "low": _num(lo), "high": _num(hi),
           "low_stderr": _round(_stderr(lows)), "high_stderr": _round(_stderr(highs)),
           "mid": _num(mid), "p_declarer_wins": _num(p_x),
           "p_opponent_wins": _num(p_y),
           "bad_brackets": sum(1 for a, b in zip(lows, highs) if a > b),
           "double": double, "double_reason": why,
           "redouble": redouble, "redouble_reason": "if doubled: " + rwhy}
    if sum_rule:
        out["note"] = ("these rules settle doubled positive contracts by the sum rule "
                       "(positive_settlement = sum, as fr-52): the "
                       "bracket's sign says who wins the pair; the amount is the other's "
                       "raw score, not the difference")
    return out


def _round(x: float | None) -> float | None:
    return _num(x)  # type: ignore[return-value]


def _f(x: Fraction | float) -> str:
    """A number in a reason: exact integers as such (``+4``), others to 2 decimals
    (``-0.67``), ``0`` for what rounds to nothing."""
    if isinstance(x, Fraction) and x.denominator == 1 or isinstance(x, int):
        return f"{int(x):+d}" if x else "0"
    v = _num(x, 2)
    return "0" if not v else f"{v:+.2f}"


def _doubling(rules: Rules, seat: int, opt: Option, rows: list[tuple[Any, Any]],
              values: list[Fraction]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    c = opt.contract
    opps = _opponents(rules, c, seat)
    entries = []
    for y in opps:
        e = _bracket_advice(rules, c, seat, y, [r[0][y] for r in rows])
        e.update(opt.key)
        e["samples"] = len(rows)
        e["redouble_allowed"] = bool(rules.variants["redouble"])
        entries.append(e)
    X = Seat(seat).name
    if not rules.variants["redouble"]:
        for e in entries:
            e["redouble"] = False
            e["redouble_reason"] = f"no redouble: preset {rules.name!r} has none"
    elif rules.variants["doubles"] == "declarer-only":
        # a redouble must target every doubler (rules.md): if Y doubles, with the others
        # the advice expects to double, one decision for all of them, worth the sum of
        # their brackets' midpoints to X
        exact = {y: _bracket_means([r[0][y] for r in rows]) for y in opps}
        for e, y in zip(entries, opps):
            doublers = [(f, z) for f, z in zip(entries, opps) if f is e or f["double"]]
            gain = sum((exact[z][2] for _, z in doublers), Fraction(0))
            sure = all(exact[z][0] > 0 for _, z in doublers)
            e["redouble"] = sure or gain > 0
            names = ", ".join(f["opponent"] for f, _ in doublers)
            e["redouble_reason"] = (
                f"if doubled: under doubles = declarer-only {X} redoubles every doubler "
                f"({names}) or none: "
                + ("he wins each of those bets whatever the others do" if sure else
                   f"their midpoints add up to {_f(gain)}"))
    total = rules.total(c)
    n = len(values)
    mean = sum(values, Fraction(0)) / n
    net: dict[str, Any] = {**opt.key, "samples": n, "no_doubles": _num(mean)}
    sum_rule = rules.variants["positive_settlement"] == "sum" and rules.is_positive(c)
    if sum_rule:
        net["all_double"] = None
        net["all_double_redoubled"] = None
        net["note"] = ("the sum rule for doubled positive contracts (positive_settlement "
                       "= sum, as fr-52) is not linear in "
                       "the raw scores: no guaranteed net result under doubles")
    else:
        for n_pair, key in ((1, "all_double"), (2, "all_double_redoubled")):
            if n_pair == 2 and not rules.variants["redouble"]:
                net[key] = None
                net["note"] = ("these rules have no redoubles (redouble = false): "
                               "all_double_redoubled does not arise")
                continue
            if total is not None:
                vals = [(1 + 4 * n_pair) * v - n_pair * total for v in values]
            else:
                vals = [r[1][n_pair] for r in rows]
            net[key] = _num(sum(vals, Fraction(0)) / n)
            net[key + "_stderr"] = _round(_stderr(vals))
    if (rules.variants["undoubled_negative"] == "split" and not rules.is_positive(c)
            and total is not None):
        from analyzer.doubling import split_undoubled
        sp = split_undoubled(total, seat)[seat]
        net["split"] = _num(sp)
        net["split_vs_play"] = _num(sp - mean)
        net["no_doubles"] = _num(sp)
        net["play_undoubled"] = _num(mean)
        net["split_note"] = (f"undoubled, {c.id} is not played: the declarer takes the "
                             f"split {_f(sp)} against {_f(mean)} guaranteed by playing")
    return entries, net


# --------------------------------------------------------------------------- the advisor
#: deals drawn between two looks at the runner's deadline and stop request
DRAW_CHUNK = 1000


def _draw(sampler: Sampler, k: int, rng: np.random.Generator, runner: _Runner) -> list[Hands]:
    """``k`` deals, fewer if the run is halted meanwhile (drawing a million deals takes
    half a minute; a Ctrl-C or the time limit must not wait for it). The deals are the
    stream's next ones either way: a halted run keeps a prefix."""
    out: list[Hands] = []
    while len(out) < k and not runner._halt():
        out.extend(sample_deals(sampler, min(DRAW_CHUNK, k - len(out)), rng))
    return out


def _solved_prefix(idx: Iterable[int], keys: Callable[[int], list[tuple]],
                   res: Mapping[tuple, Any]) -> int:
    """How many of the deals ``idx``, from the first, have every solve ``keys(j)`` in
    ``res`` (the deals a time limit keeps)."""
    m = 0
    for j in idx:
        if not all(k in res for k in keys(j)):
            break
        m += 1
    return m


def _parse_samples(samples: int | str) -> tuple[bool, int]:
    if isinstance(samples, str):
        t = samples.strip().lower()
        if t == "auto":
            return True, AUTO_CAP
        try:
            samples = int(t)
        except ValueError:
            raise BarbuError(f"bad --samples {samples!r}: a number or auto") from None
    check_whole(samples, "--samples", 1, "a whole number of at least 1, or auto")
    if int(samples) > MAX_SAMPLES:
        raise BarbuError(f"bad --samples {samples!r}: at most {MAX_SAMPLES:,} (the deals are "
                         "held in memory)")
    return False, int(samples)


def advise(hand: str | Iterable[int], *, seat: int | str = "N",
           rules: Rules | str | None = None, remaining: str | Iterable[str] | None = None,
           samples: int | str = 100, seed: int | None = None, workers: int | None = 1,
           progress: Callable[[int, int], Any] | None = None,
           constraints: Mapping[str, Any] | None = None, doubling: str = "best",
           max_samples: int | None = None, warn: Callable[[str], Any] | None = None,
           race: bool = False, eta: Callable[[float], Any] | None = None,
           time_limit: float | None = None,
           stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Advise the declarer: every option's value over sampled deals, and doubling equity.

    Parameters
    ----------
    hand : str or iterable of card indices
        The declarer's hand, PBN (``"AKQ2.JT9.876.543"``) or card indices; ``deck/4`` cards.
    seat : seat
        The declarer's seat (default N); he leads (or plays first) as the preset says.
    rules : Rules or str, optional
        Preset (default ``tournament``).
    remaining : str or iterable of str, optional
        Contracts still to play in the declarer's run (``"no-king,trumps"``); default every
        contract of the preset's match.
    samples : int or "auto"
        Deals to solve; ``"auto"`` samples in batches (``AUTO_START``, then ``AUTO_STEP``)
        until the best option beats the next at 95% (paired, by a test that holds
        whichever look stops the run, :func:`_separated`) or ``max_samples`` (default
        ``AUTO_CAP``) deals are solved.
    seed : int, optional
        Seed of the deals; None draws one (reported in the result, to repeat the run).
    workers : int, optional
        Processes (fork); None or 0: every core. The result does not depend on it.
    progress : callable, optional
        ``progress(done, total)`` after each solve (options, then doubling); ``total``
        is exact once the doubling solves are known.
    eta : callable, optional
        ``eta(seconds)``: a guess of the time left from what each kind of solve has
        cost so far (:class:`_Runner`), after a solve at most five times a second, and
        each second while workers solve. Solves differ in cost by a hundred times or
        more on 52 cards (the doubling solves of a negative contract, say), so ``done /
        total`` does not tell the time left.
    constraints : mapping, optional
        ``{"known": {seat: cards}, "voids": {seat: suits}, "lengths": {seat: {suit:
        [lo, hi]}}}`` on the other hands (:func:`analyzer.sampler.parse_constraints`).
    doubling : ``"best"``, ``"all"`` or ``"none"``
        Doubling brackets for the recommended option, every option, or none (only for
        presets with doubling).
    warn : callable, optional
        ``warn(line)`` once the inputs are checked and before any deal is solved, when
        the run includes contracts that take minutes a deal today (:func:`slow_contracts`)
        or, on 52 cards, doubling brackets (their solves take seconds to minutes each).
    race : bool
        Deals are drawn in batches (``AUTO_START``, then ``AUTO_STEP``; on 52 cards
        ``RACE_STEP_52`` each), and after each batch an option that the leading option
        beats at 99% (:func:`_separated` on the deals both were solved on) is not solved
        on later deals: its figures, and each option's ``samples``, cover the deals it
        was solved on. The leader and the options close to it get every deal. Off for presets with a fixed order.
    time_limit : float, optional
        Seconds (wall time, from the start of sampling) after which no more solves are
        started and those running are stopped. The figures then cover the first deals
        solved for every option (``samples``; ``samples`` = that count with the same
        seed, and ``race`` as given, repeats them), the doubling brackets and net
        results the first deals whose doubling solves had all ended (their own
        ``samples``; none when no deal's had), and ``timed_out`` is true. Tasks then
        run on forked workers even with ``workers=1``. A
        :class:`~analyzer.errors.BarbuError` when no deal was solved in time.
    stop : callable, optional
        ``stop()`` is asked after each result and at least once a second while workers
        solve (tasks then run on forked workers, as with a time limit); once it returns
        true the run ends as at a time limit, with ``interrupted`` true (``barbu
        advise``'s first Ctrl-C). KeyboardInterrupt when no deal had been solved.

    Returns
    -------
    dict
        JSON-able: ``{"rules", "seat", "hand", "remaining", "samples", "seed", "workers",
        "time_limit", "timed_out", "interrupted", "deals_consistent", "race",
        "options": [{"contract", "trump", "rank", "samples",
        "mean", "stderr", "ci95", "min", "max", "distribution", "p_best", "future",
        "score", "position"}],
        "recommendation": {…}, "doubling": [{"opponent", "samples", "low", "high", …}],
        "declarer_net": [{"samples", …}], "notes": [...]}``.

    Raises
    ------
    BarbuError
        Bad hand, seat, preset, contract, samples or constraints (one line).
    """
    r = load_rules(rules) if not isinstance(rules, Rules) else rules
    x = as_seat(seat)
    h = as_hand(hand)
    if isinstance(doubling, str):
        doubling = doubling.strip().lower()
    if doubling not in ("best", "all", "none"):
        raise BarbuError(f"bad --doubling {doubling!r}: expected best, all or none")
    if seed is not None:
        check_whole(seed, "--seed", 0)
        seed = int(seed)
    if workers is not None:
        check_workers(workers)
        workers = int(workers)
    if not isinstance(race, (bool, np.bool_)):
        raise BarbuError(f"bad race {race!r}: true or false")
    race = bool(race)
    time_limit = check_seconds(time_limit, "--time-limit")
    auto, n_cap = _parse_samples(samples)
    if max_samples is not None:
        check_whole(max_samples, "max_samples", 1)
        if not auto:
            raise BarbuError("max_samples caps samples='auto'; with a number of samples "
                             "leave it out")
        n_cap = min(int(max_samples), MAX_SAMPLES)
    cons = parse_constraints(constraints)
    sampler = Sampler(h, x, r.deck, **cons)
    rem = parse_remaining(r, remaining)
    opts = advise_options(r, x, h, rem)
    if not opts:
        raise BarbuError("no option to advise on")
    slow = slow_contracts(r, rem)
    # the doubling brackets: 6 solves a deal (3 bets, both ends), the opponents' ends
    # seconds to minutes each on 52 cards (No Tricks on the README hand: up to 197 s;
    # BENCHMARKS.md, "Advisor", twenty-eighth session)
    # (Dominoes' brackets take milliseconds: no note when it is the only contract left;
    # Trumps' are slow although its value is not, 107 s for 4 deals with --doubling all)
    dear_brackets = (r.deck == 52 and r.doubling and doubling != "none"
                     and any(not r.contracts[cid].is_dominoes for cid in rem))
    brackets = (f"the doubling brackets of {'each' if doubling == 'all' else 'the best'} "
                "option add 6 solves a deal, seconds to minutes each (--doubling none "
                "skips them)")
    if warn is not None and slow:
        tips = ([] if len(rem) == 1 or remaining not in (None, "", [])
                else ["--remaining limits the contracts"]) + (
            [] if race or len(opts) == 1 else ["--race stops solving those far behind"]) + (
            [] if time_limit is not None else ["--time-limit caps the wait"])
        warn(f"note: on 52 cards the guaranteed value in {', '.join(slow)} takes "
             "seconds to minutes a deal today (all seven contracts with the doubling "
             "analysis: some 9 s a deal on 2 cores over the README hand's first 10 deals, "
             "55 s of CPU a deal over its first 53; docs/advise.md in the barbu-dd sources, "
             "Limits)"
             + "".join("; " + t for t in tips) + ("; " + brackets if dear_brackets else ""))
    elif warn is not None and dear_brackets:
        warn(f"note: on 52 cards {brackets}"
             + ("" if time_limit is not None else "; --time-limit caps the wait"))
    if seed is None:
        seed = fresh_seed()
    nworkers = (os.cpu_count() or 1) if not workers else int(workers)
    # no more processes than solves to share, nor than a few a core (each worker may
    # hold a large table): results do not depend on the count
    nworkers = max(1, min(nworkers, n_cap * len(opts), 4 * (os.cpu_count() or 1)))
    rng = np.random.default_rng(seed)
    notes: list[str] = []
    fixed = r.order == "fixed"
    table = None if fixed or len(rem) <= 1 else load_future_values(r)
    future: dict[int, float] = {}
    if len(rem) > 1 and not fixed:
        if table is None:
            why = (f"these rules differ from the built-in preset {r.name!r} whose name "
                   "they carry, so its future-value table does not apply"
                   if r.name in BUILTIN_PRESETS and not same_game_as_builtin(r) else
                   f"no future-value table for preset {r.name!r}")
            notes.append(f"{why}: the advice weighs this hand only, not the contracts kept "
                         "for later hands")
        else:
            if table.get("preset") != r.name:
                notes.append(f"these rules play the game of the built-in preset "
                             f"{table.get('preset')!r}: its future-value table applies")
            for i, o in enumerate(opts):
                rest = [c for c in rem if c != o.contract.id]
                future[i] = float(table["subsets"][_subset_key(rest)]) if rest else 0.0
    if fixed:
        notes.append(f"preset {r.name!r} plays its contracts in a fixed order: "
                     f"{rem[0]} comes next; the other values are for information")
        if race:
            notes.append("race: off, the preset's fixed order decides the contract")
            race = False
    notes.append("values are double dummy (every deal solved with all hands seen) and "
                 "guaranteed: the other three play against the declarer")

    _CTX.clear()
    opponents = _opponents(r, opts[0].contract, x)
    _CTX.update(rules=r, seat=x, options=opts, opponents=opponents)
    do_double = r.doubling and doubling != "none"
    t0 = _clock()
    end = None if time_limit is None else t0 + time_limit
    runner = _Runner(nworkers, progress, eta,
                     t0 + VALUES_SHARE * time_limit if end is not None and do_double
                     else end, stop, end)
    all_idx = tuple(range(len(opts)))
    active = list(all_idx)  # the options still solved (race: the others stopped early)
    deals: list[Hands] = []
    values: list[list[Fraction | None]] = []  # per deal, per option (None: not solved)
    # per option, the least and the most its score can be on a deal (the betting test's
    # bounds: what the deals so far cannot show)
    ranges = [tuple(float(x + _exact(future.get(i, 0.0))) for x in option_range(r, o, h))
              for i, o in enumerate(opts)]
    looks = 0  # auto's tests (the betting test holds whichever of them stops the run)
    stopped = f"the cap of {n_cap} deals"
    try:
        step = RACE_STEP_52 if race and r.deck == 52 else AUTO_STEP
        # (a time limit draws and solves in batches too: drawing 100,000 deals first
        # took 3 s, and the limit struck before any solve)
        target = (min(step if race else AUTO_START, n_cap)
                  if auto or race or time_limit is not None else n_cap)
        # progress in solves: every option, then 6 doubling solves an option doubled
        n_dbl = (len(opts) if doubling == "all" else 1) if do_double else 0
        runner.total = n_cap * (len(opts) + 6 * n_dbl)
        nxt: list[Hands] = []  # the next batch's deals, drawn while this one is solved
        before_race = list(active)  # the options solved before the race's last look
        while True:
            new = nxt or _draw(sampler, target - len(deals), rng, runner)
            base = len(deals)
            deals.extend(new)
            act = tuple(active)
            # work for a core that would wait for this batch's last solves: the next
            # batch's solves, or the doubling of the option leading so far
            ahead = None
            if len(deals) < n_cap:
                nxt = _draw(sampler, min(n_cap, len(deals) + step) - len(deals), rng, runner)
                dk = list(enumerate(nxt, len(deals)))
                ahead = _Ahead({k: _tasks("value", dk, (k,)) for k in act
                                if _alone(opts[k])}, values, future, act,
                               ranges if race else None)
            elif do_double:
                dk = list(enumerate(deals))
                cand = [k for k in act if not fixed or opts[k].contract.id == rem[0]]
                ahead = _Ahead({k: _double_tasks(dk, (k,), opponents,
                                                 r.total(opts[k].contract) is None)
                                for k in cand if _alone(opts[k])}, values, future, cand,
                               ranges if race else None, None if doubling == "all" else 1)
            fuse = None
            if do_double:
                def doubled(k: int, partial: Mapping[tuple, Any], act=act) -> bool:
                    if fixed:
                        return opts[k].contract.id == rem[0]
                    if doubling == "all":
                        return k in act
                    return _leading(values, partial, future, act) == k

                def fuse(t: tuple, partial: dict, doubled=doubled) -> tuple:
                    return _fuse(t, lambda k: doubled(k, partial))
            res = runner.map(_tasks("value", list(enumerate(new, base)), act), ahead, fuse)
            if runner.halted:
                # keep the deals before the first one not solved for every option
                # (a prefix: `--samples N` with the same seed repeats them)
                kept = _solved_prefix(range(base, len(deals)),
                                      lambda i: [("value", i, k, None) for k in act], res)
                del deals[base + kept:]
                if race and not kept:
                    # the kept deals end at the race's last look, which a `--samples N
                    # --race` run does not take (it ends there): the options it stopped
                    # were solved on every deal kept
                    active = before_race
                stopped = (f"the time limit of {time_limit:g} s" if runner.halted == "time"
                           else "a request to stop")
            values.extend([res["value", i, k, None] if k in act else None for k in all_idx]
                          for i in range(base, len(deals)))
            if len(deals) >= n_cap or runner.halted:
                break
            cols = _columns(values, opts, future)
            if race:
                before_race = list(active)
                active = _race(cols, active, ranges)
                n_dbl = (len(active) if doubling == "all" else 1) if do_double else 0
                runner.total = (runner.done + (n_cap - len(deals)) * len(active)
                                + n_cap * 6 * n_dbl)
            if auto and len(deals) >= AUTO_START and len(deals) % AUTO_STEP == 0:
                order = _order(cols, active)
                if fixed:
                    stopped = "the preset's fixed order decides"
                    break
                if len(opts) == 1:
                    stopped = "a single option"
                    break
                if len(active) < 2:
                    stopped = "one option left in the race"
                    break
                # options tied with the best on every deal are the same advice: test the
                # best against the first that differs
                _, other = _rivals(cols, order, active)
                if other is None:
                    stopped = "every option ties with the best on every deal: either will do"
                    break
                looks += 1
                if _separated(cols[order[0]], cols[other], ranges[order[0]], ranges[other]):
                    stopped = "the best option is clear at 95%"
                    break
            target = min(n_cap, len(deals) + step)
        n = len(deals)
        if not n and runner.halted == "stop":
            raise KeyboardInterrupt
        if not n:
            raise BarbuError(f"--time-limit {time_limit:g}: no deal was solved for every "
                             "option in "
                             + ("that time" if not do_double else
                                f"the {VALUES_SHARE * time_limit:.3g} s the values may take "
                                "(the rest is for the doubling brackets)")
                             + ": allow more"
                             + (" (a 52-card deal of the slow contracts can take minutes)"
                                if r.deck == 52 else ""))
        halt = {"time": "time limit", "stop": "stopped on request"}.get(runner.halted or "")
        if halt:
            spent = ("" if time_limit is None else f" in {time_limit:g} s" if not do_double
                     else f" in the first {VALUES_SHARE * time_limit:.3g} s of "
                     f"{time_limit:g} (the rest for the doubling brackets)")
            notes.append(f"{halt}: {n} of {n_cap} deals solved"
                         + (spent if runner.halted == "time" else "")
                         + f"; --samples {n} --seed {seed}{' --race' if race else ''} "
                         "repeats these values"
                         + (" without a limit" if runner.halted == "time" else ""))
        halted = runner.halted  # (why the values stopped early, if they did)
        if runner.halted == "time" and runner.deadline != end:
            # the values' share is spent (their solves still running are stopped): the
            # doubling solves have the rest of the time
            runner.close()
            runner.halted = None
        runner.deadline = end
        cols = _columns(values, opts, future)
        # (options the race stopped at the last look were solved on every deal too)
        full = [i for i in all_idx if len(cols[i]) == n]
        order = _order(cols, full)
        best = order[0]
        if len(full) < len(opts):
            notes.append(f"race: {len(opts) - len(full)} of {len(opts)} options stopped "
                         "early, each once the leading option beat it at 99% (paired): "
                         "their figures cover fewer deals (samples)"
                         + ("; doubling brackets are for the others" if do_double
                            and doubling == "all" else ""))
        if fixed:
            best = next(i for i in order if opts[i].contract.id == rem[0])
        # options table
        rows = []
        pbest = _p_best(cols)
        for rank_pos, i in enumerate(order):
            vals = [v[i] for v in values if v[i] is not None]
            row = {**opts[i].key, "samples": len(vals), **summarize(vals),
                   "p_best": _num(pbest[i]),
                   "future": None if i not in future else _num(future[i])}
            m = sum(vals, Fraction(0)) / len(vals)
            row["score"] = _num(m + _exact(future.get(i, 0.0)))
            row["position"] = rank_pos + 1
            rows.append(row)
        rec = {**opts[best].key, "label": opts[best].label, "mean": rows[order.index(best)][
            "mean"], "score": rows[order.index(best)]["score"]}
        twins, runner_up = _rivals(cols, [best] + [i for i in order if i != best], active)
        if fixed:
            twins = []  # the order forces one contract: the others are not the same advice
        rec["tied_with"] = [{**opts[i].key, "label": opts[i].label} for i in twins]
        all_tied = runner_up is None and bool(twins)
        if all_tied:
            runner_up = twins[0]  # tied with every other option: nothing to separate
        for k in ("next", "margin", "margin_stderr", "margin_deals", "margin_half95"):
            rec[k] = None
        if runner_up is not None:
            md, se = _paired(cols[best], cols[runner_up])
            rec["next"] = {**opts[runner_up].key, "label": opts[runner_up].label}
            rec["margin"] = _num(md)
            rec["margin_stderr"] = _round(se)
            rec["margin_deals"] = min(len(cols[best]), len(cols[runner_up]))
            # (the noise: a Student t 95% half-width on the paired deals; the test that
            # decides `separated` does not assume near-normal differences)
            rec["margin_half95"] = None if se is None else _round(
                t95(min(len(cols[best]), len(cols[runner_up])) - 1) * se)
            rec["separated"] = (None if fixed or all_tied else _separated(
                cols[best], cols[runner_up], ranges[best], ranges[runner_up]))
        else:
            rec["separated"] = None  # a single option (or a forced one): no test
        if auto:
            # (at the cap, the recommendation's test, where there is one)
            rec["looks"] = looks + (n >= n_cap and rec["separated"] is not None)
            notes.append(f"auto: stopped after {n} deals: {stopped}")
        rec["forced"] = fixed
        rec["reason"] = _reason(opts, best, runner_up, rec, future, fixed, rem, n)
        dbl: list[dict[str, Any]] = []
        nets: list[dict[str, Any]] = []
        if do_double:
            which = tuple(i for i in order if i in active) if doubling == "all" else (best,)
            net_solves = any(r.total(opts[i].contract) is None for i in which)
            items = [_hinted(t, lambda j, k: values[j][k])
                     for t in _double_tasks(list(enumerate(deals)), which, opponents,
                                            net_solves)]
            runner.total = runner.done + _solves(items)
            res = runner.map(items)
            # (all of them, unless the time limit came first: then the first deals whose
            # doubling solves had all ended)
            m = _solved_prefix(range(n), lambda j: [
                key for i in which for key in
                [("bet", j, i, (y, e)) for y in opponents for e in (0, 1)]
                + ([("net", j, i, q) for q in (1, 2)] if net_solves else [])], res)
            if m < n:
                halt = {"time": "time limit", "stop": "stopped on request"}[runner.halted]
                notes.append(f"{halt}: the doubling brackets cover the first "
                             + (f"{m} of the {n} deals" if m > 1 else f"deal of the {n}")
                             if m else f"{halt}: no doubling bracket had been solved")
            for i in which if m else ():
                per = [({y: (res["bet", j, i, (y, 0)], res["bet", j, i, (y, 1)])
                         for y in opponents},
                        {q: res["net", j, i, q] for q in (1, 2)} if net_solves else {})
                       for j in range(m)]
                e, net = _doubling(r, x, opts[i], per, [v[i] for v in values[:m]])
                dbl.extend(e)
                nets.append(net)
        elif not r.doubling:
            notes.append(f"preset {r.name!r} has no doubling")
    finally:
        runner.close()
    out = {"rules": r.name, "seat": Seat(x).name, "hand": format_hand(h),
           "remaining": list(rem), "samples": n, "auto": auto, "race": race, "seed": seed,
           "workers": nworkers, "time_limit": time_limit,
           "timed_out": "time" in (halted, runner.halted),
           "interrupted": "stop" in (halted, runner.halted),
           "deals_consistent": sampler.count(),
           "options": rows, "recommendation": rec, "doubling": dbl, "declarer_net": nets,
           "future_values": None if table is None else {
               "preset": table.get("preset"), "game": table.get("game"),
               "hands": table.get("hands"), "inner": table.get("inner"),
               "seed": table.get("seed")},
           "notes": notes}
    if cons["known"] or cons["voids"] or cons["lengths"]:
        out["constraints"] = {
            "known": {Seat(p).name: [card_name(c) for c in sorted(
                cs, key=lambda c: (c // 13, -c))] for p, cs in cons["known"].items()},
            "voids": {Seat(p).name: "".join("SHDC"[s] for s in sorted(ss))
                      for p, ss in cons["voids"].items()},
            "lengths": {Seat(p).name: {"SHDC"[s]: list(v) for s, v in t.items()}
                        for p, t in cons["lengths"].items()}}
    return out


def _columns(values: list[list[Fraction | None]], opts: list[Option],
             future: Mapping[int, float]) -> list[list[Fraction]]:
    """Per option, the per-deal score: value now plus the future value of what is left
    (the deals the option was solved on: all, or with ``race`` the first ones)."""
    return [[v[i] + _exact(future.get(i, 0.0)) for v in values if v[i] is not None]
            for i in range(len(opts))]


def _order(cols: list[list[Fraction]], active: Iterable[int] | None = None) -> list[int]:
    """Option indices by mean score, best first (ties: the listed order); with
    ``active``, those options first (``race``: the others stopped early)."""
    means = [sum(c, Fraction(0)) / len(c) for c in cols]
    act = set(range(len(cols)) if active is None else active)
    return sorted(range(len(cols)), key=lambda i: (i not in act, -means[i], i))


def _p_best(cols: list[list[Fraction]]) -> list[Fraction]:
    """Per option, the share of deals on which it scores best (ties shared), among the
    options solved on the deal (``race``: an option that stopped early counts as not
    best on the later deals).

    Option 1 stopped after two deals: it wins the first, option 0 the three others, and
    the shares add up to 1 (each divided by every deal, not an option's own):

    >>> _p_best([[Fraction(1)] * 4, [Fraction(2), Fraction(0)]])
    [Fraction(3, 4), Fraction(1, 4)]
    """
    n = max(len(c) for c in cols)
    out = [Fraction(0)] * len(cols)
    for k in range(n):
        vals = [(c[k], i) for i, c in enumerate(cols) if k < len(c)]
        top = max(v for v, _ in vals)
        win = [i for v, i in vals if v == top]
        for i in win:
            out[i] += Fraction(1, len(win))
    return [x / n for x in out]


def _reason(opts: list[Option], best: int, nxt: int | None, rec: dict[str, Any],
            future: Mapping[int, float], fixed: bool, rem: Sequence[str], n: int) -> str:
    o = opts[best]
    if fixed:
        return f"{o.contract.id} is next in the preset's fixed order"
    s = f"{o.label}: mean guaranteed {_f(rec['mean'])}"
    if best in future:
        k = len(rem) - 1
        s += (f", plus {_f(future[best])} expected from the {k} contract"
              f"{'s' if k > 1 else ''} kept for later hands")
    if nxt is None:
        return s
    if rec["margin"] == 0 and rec.get("margin_stderr") == 0:
        return s + f"; tied with {opts[nxt].label} on every deal"
    if rec.get("tied_with"):
        s += (f"; tied on every deal with {', '.join(t['label'] for t in rec['tied_with'])}"
              " (either will do)")
    level = rec["margin"] == 0  # (level on average, not on every deal)
    s += ((f"; level with {opts[nxt].label} on average: {rec['margin']:.2f}" if level
           else f"; ahead of {opts[nxt].label} by {rec['margin']:.2f}")
          + (f" ± {rec['margin_half95']:.2f} at 95%" if rec.get("margin_half95") is not None
             else "")
          + (f" (on the {rec['margin_deals']} deals both were solved on)"
             if rec.get("margin_deals", n) < n else ""))
    if rec["separated"]:
        s += " (clear at 95%)"
    elif rec.get("margin_half95") is not None and rec["margin"] > rec["margin_half95"]:
        # (the interval is a normal approximation; the verdict allows for a rare swing)
        s += (" (not clear at 95%: a rare large swing the other way, which the scores "
              "allow, cannot be ruled out yet: more samples)")
    else:
        s += " (not clear at 95%: more samples)"
    if best in future and nxt in future and future[best] != future[nxt]:
        s += ("; the kept values come from the shipped table, whose own noise is not "
              "counted here")
    return s

"""Brute-force minimax over the reference engine: the oracle for the fast solvers.

Obviously right rather than fast: every legal card is tried, the memo key is the whole
game state (hands, trick, leader, and everything scored so far), and the value is the
linear objective ``sum(weights[p] * score[p])`` of the final raw score vector, with the
seats in ``maximizers`` maximising and the others minimising (design.md, "Solution
concepts"). Use it on small positions only (a few cards a hand).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Sequence

from analyzer.engine import DominoesGame, TrickGame


def _additive(g: TrickGame | DominoesGame) -> bool:
    """True when the final score is points so far plus points to come (no bonus, no
    Ravage City): then the memo can forget the past."""
    if not isinstance(g, TrickGame):
        return False
    c = g.contract
    return c.ravage is None and not (g.whole_hand and c.has_bonus)


def _key(g: TrickGame | DominoesGame, additive: bool) -> tuple:
    hands = tuple(frozenset(h) for h in g.hands)
    if isinstance(g, TrickGame):
        if additive:
            return (hands, tuple(g.trick), g.leader, g.tricks_done)
        return (hands, tuple(g.trick), g.leader, g.tricks_done, tuple(g.points),
                tuple(g.tricks_won), tuple(frozenset(t) for t in g.taken))
    return (hands, tuple(g.layout), g.to_move, tuple(g.out), g.start_rank, g.replay_pending)


def brute_value(game: TrickGame | DominoesGame, weights: Sequence[int | Fraction],
                maximizers: Iterable[int]) -> Fraction:
    """Exact minimax value of ``sum(weights[p] * score[p])`` from ``game``'s position."""
    maxi = frozenset(int(s) for s in maximizers)
    w = [Fraction(x) for x in weights]
    memo: dict[tuple, Fraction] = {}
    additive = _additive(game)

    def objective(g: TrickGame | DominoesGame) -> Fraction:
        return sum((wi * si for wi, si in zip(w, g.score())), Fraction(0))

    def so_far(g: TrickGame | DominoesGame) -> Fraction:
        return sum((wi * si for wi, si in zip(w, g.points)), Fraction(0))

    def rec(g: TrickGame | DominoesGame) -> Fraction:
        """Final objective if not additive, else objective of the points still to come."""
        if g.over:
            return objective(g) - (so_far(g) if additive else 0)
        key = _key(g, additive)
        if key in memo:
            return memo[key]
        base = so_far(g) if additive else 0
        vals = []
        for c in g.legal():
            h = g.copy()
            h.play(c)
            v = rec(h)
            if additive:  # points taken by this move, plus what follows
                v += so_far(h) - base
            vals.append(v)
        v = max(vals) if g.to_move in maxi else min(vals)
        memo[key] = v
        return v

    g0 = game.copy()
    return rec(g0) + (so_far(g0) if additive else 0)


def brute_card_values(game: TrickGame | DominoesGame, weights: Sequence[int | Fraction],
                      maximizers: Iterable[int]) -> dict[int, Fraction]:
    """Value of each legal move of the player to move (PASS included for Dominoes)."""
    out = {}
    for c in game.legal():
        h = game.copy()
        h.play(c)
        out[c] = brute_value(h, weights, maximizers)
    return out

"""The options a declarer can name: each contract, each trump suit, each starting rank.

One place decides what an "option" is, for ``barbu solve`` (the table of every option),
the advisor and the statistics runner alike (design.md, "Monte Carlo": Trumps expanded to
each trump suit, Dominoes to each starting rank).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from analyzer.rules import Contract, Rules

#: An option: the contract, the trump suit (or None), the starting rank (or None).
Option = tuple[Contract, "int | None", "int | None"]


def contract_options(rules: Rules, c: Contract, hands: Sequence[frozenset[int]] | None = None,
                     first: int | None = None, declarer: int | None = None
                     ) -> list[tuple[int | None, int | None]]:
    """``(trump, rank)`` choices of one contract: each trump suit, each starting rank.

    ``first-card`` Dominoes: when the declarer plays first (``first == declarer``), one
    option per rank of which he holds a card (his first card fixes it, and he chooses it),
    as :func:`analyzer.dominoes.dominoes_rank_table`. When another seat plays first, or
    without the hands, a single option (rank None: the first card is chosen in play, by
    whoever plays it): the declarer names no rank.
    """
    from analyzer.dominoes import dominoes_ranks
    if c.is_dominoes:
        ranks = dominoes_ranks(rules, c)
        if c.start == "first-card":
            if hands is None or first is None or first != declarer:
                return [(None, None)]
            ranks = tuple(k for k in ranks if any(x % 13 == k for x in hands[first]))
        return [(None, k) for k in ranks]
    if c.trumps:
        return [(s, None) for s in range(4)]
    return [(None, None)]


def options(rules: Rules, contracts: Iterable[str] | None = None,
            hands: Sequence[frozenset[int]] | None = None, first: int | None = None,
            declarer: int | None = None, dominoes: bool = True
            ) -> list[tuple[Contract, int | None, int | None]]:
    """Every option of ``contracts`` (default: the preset's match), in order.

    ``dominoes=False`` leaves Dominoes out (an endgame: Dominoes needs every card);
    ``first`` and ``declarer`` as :func:`contract_options`.
    """
    out: list[tuple[Contract, int | None, int | None]] = []
    for cid in (rules.match_contracts if contracts is None else contracts):
        c = rules.contract(cid)
        if c.is_dominoes and not dominoes:
            continue
        out.extend((c, t, k) for t, k in contract_options(rules, c, hands, first, declarer))
    return out

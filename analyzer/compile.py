"""Compile a trick contract into the plain arrays the search kernels read.

The kernels in :mod:`solvers.tricks` know nothing of presets, seats or fractions: this
module turns a :class:`~analyzer.rules.Contract` of a :class:`~analyzer.rules.Rules` preset
(plus the trump suit) into integers. Points are scaled by ``scale`` so that every card,
trick, bonus and Ravage City share is an integer; divide back with
:class:`fractions.Fraction` at the edge (rules.md, "Points that apply everywhere").

Card ids inside the kernels are bit positions, ``16 * suit + rank`` (see
:mod:`analyzer.cards`), so arrays indexed by card have 64 entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable
from math import lcm

import numpy as np

from analyzer.cards import Suit
from analyzer.errors import BarbuError
from analyzer.rules import Contract, Rules

#: Heart-lead ban modes, as the kernel sees them.
BAN_FREE, BAN_ALWAYS, BAN_FIRST_TRICK = 0, 1, 2


def card_bitpos(c: int) -> int:
    """Bit position (kernel card id) of card index ``c``: ``16 * suit + rank``.

    >>> card_bitpos(12), card_bitpos(13)
    (12, 16)
    """
    return 16 * (c // 13) + c % 13


@dataclass(frozen=True)
class CompiledContract:
    """A trick contract as integers and arrays (all points multiplied by ``scale``).

    Attributes
    ----------
    contract_id : str
    deck : int
        52 or 32.
    scale : int
        Points in the arrays are ``scale`` times the rules' points.
    pts : ndarray(int64, shape=(64,))
        Points of each card, indexed by kernel card id ``16 * suit + rank``.
    tpl : ndarray(int64, shape=(16,))
        Points of a trick (cards aside) when ``k`` tricks remain, this one included:
        ``tpl[1]`` is the last trick (``trick_points`` plus ``last_tricks`` aligned to the
        end of the position).
    trump : int
        Trump suit, -1 for none.
    lead_must_beat, void_must_ruff, must_overtrump : bool
        Trumps obligations (rules.md, "Trumps").
    heart_ban : int
        ``BAN_FREE``, ``BAN_ALWAYS`` or ``BAN_FIRST_TRICK`` (first trick of a whole hand).
    forced_mask, stop_mask, scoring_mask : int
        Bitboards: cards a void player must discard (``forced_discard`` variant), cards
        whose fall ends the hand, cards worth points.
    bonus_tricks, bonus_cards : Fraction or None
        Whole-hand ``all_tricks_score`` / ``all_cards_score`` (unscaled).
    ravage : Fraction or None
        Ravage City total (unscaled).
    cls : ndarray(int64, shape=(64,))
        Class of each card: cards of one class score alike (points, forced, stop).
    class_bits : int
        Bits needed to store a class.
    """

    contract_id: str
    deck: int
    scale: int
    pts: np.ndarray
    tpl: np.ndarray
    trump: int
    lead_must_beat: bool
    void_must_ruff: bool
    must_overtrump: bool
    heart_ban: int
    forced_mask: int
    stop_mask: int
    scoring_mask: int
    bonus_tricks: Fraction | None
    bonus_cards: Fraction | None
    ravage: Fraction | None
    cls: np.ndarray
    class_bits: int
    card_points: dict
    trick_points: Fraction
    last_tricks: tuple


def compile_contract(rules: Rules, contract: Contract | str,
                     trump: int | str | Suit | None = None) -> CompiledContract:
    """Compile a trick contract of ``rules`` (with its trump suit) for the kernels.

    Parameters
    ----------
    rules : Rules
        The preset.
    contract : Contract or str
        A ``kind = "tricks"`` contract of the preset (id or alias).
    trump : Suit, int, str or None
        The trump suit; required for ``trumps = true`` contracts, refused otherwise.

    Returns
    -------
    CompiledContract

    Raises
    ------
    BarbuError
        Dominoes contract, missing or unwanted trump suit, or a combination of scoring
        rules the solver does not handle (all-cards bonus with trick points, a bonus
        with Ravage City).
    """
    c = rules.contract(contract) if isinstance(contract, str) else contract
    if c.is_dominoes:
        raise BarbuError(f"{c.id} is a dominoes contract: the trick solver does not play it "
                         "(use the dominoes solver)")
    # (the same few contracts are compiled on every solve: once per preset is enough; the
    # result's arrays are read-only, so no caller can change what the next one gets)
    return rules._memo(("compiled", c, trump if isinstance(trump, (int, type(None)))
                        else str(trump)), lambda: _compile(rules, c, trump))


def _compile(rules: Rules, c: Contract, trump) -> CompiledContract:
    if c.trumps:
        if trump is None:
            raise BarbuError(f"{c.id} needs a trump suit")
        t = int(Suit.parse(trump)) if isinstance(trump, str) else int(trump)
        if t not in range(4):
            raise BarbuError(f"bad trump suit {trump!r}")
    else:
        if trump is not None:
            raise BarbuError(f"{c.id} is played without trumps: drop the trump suit")
        t = -1
    card_points = rules.card_points(c)
    trick_points = rules.trick_points(c)
    last = rules.last_tricks(c)
    ntr = rules.tricks_per_hand
    if c.all_cards_score is not None and (trick_points != 0 or any(x != 0 for x in last)):
        raise BarbuError(f"{c.id}: the solver does not handle an all-cards bonus together "
                         "with trick points")
    if c.ravage is not None and c.has_bonus:
        raise BarbuError(f"{c.id}: the solver does not handle Ravage City with a bonus")
    fracs: list[Fraction] = list(card_points.values()) + [trick_points] + list(last)
    for b in (c.all_tricks_score, c.all_cards_score):
        if b is not None:
            fracs.append(b)
    if c.ravage is not None:
        fracs += [c.ravage / k for k in (1, 2, 3, 4)]
    scale = 1
    for f in fracs:
        scale = lcm(scale, Fraction(f).denominator)
    if max((abs(f) for f in fracs), default=0) * scale * 64 >= 1 << 39:
        raise BarbuError(f"{c.id}: points too large or too finely divided for the solver "
                         "(their common denominator times the largest is over 2^33)")

    pts = np.zeros(64, dtype=np.int64)
    for card, p in card_points.items():
        pts[card_bitpos(card)] = int(p * scale)
    tpl = np.zeros(16, dtype=np.int64)
    for k in range(1, ntr + 1):
        v = trick_points
        if k <= len(last):
            v += last[len(last) - k]
        tpl[k] = int(v * scale)

    v = rules.variants
    if not c.heart_lead_ban or v["heart_lead"] == "free":
        ban = BAN_FREE
    elif v["heart_lead"] == "always":
        ban = BAN_ALWAYS
    else:
        ban = BAN_FIRST_TRICK
    forced = 0
    if v["forced_discard"]:
        for x in c.forced_discard_cards:
            forced |= 1 << card_bitpos(x)
    stop = 0
    for x in c.stop_when_taken:
        stop |= 1 << card_bitpos(x)
    scoring = 0
    for x, p in card_points.items():
        if p != 0:
            scoring |= 1 << card_bitpos(x)

    cls = np.zeros(64, dtype=np.int64)
    ids: dict[tuple, int] = {(0, False, False): 0}
    for s in range(4):
        for r in range(13):
            b = 16 * s + r
            k = (int(pts[b]), bool(forced >> b & 1), bool(stop >> b & 1))
            if k not in ids:
                ids[k] = len(ids)
            cls[b] = ids[k]
    class_bits = (len(ids) - 1).bit_length()
    for a in (pts, tpl, cls):
        a.setflags(write=False)
    return CompiledContract(
        contract_id=c.id, deck=rules.deck, scale=scale, pts=pts, tpl=tpl, trump=t,
        lead_must_beat=bool(c.trump_lead_must_beat), void_must_ruff=bool(v["void_must_ruff"]),
        must_overtrump=bool(c.must_overtrump), heart_ban=ban, forced_mask=forced,
        stop_mask=stop, scoring_mask=scoring, bonus_tricks=c.all_tricks_score,
        bonus_cards=c.all_cards_score if card_points else None, ravage=c.ravage, cls=cls,
        class_bits=class_bits, card_points=card_points, trick_points=trick_points,
        last_tricks=last)


def solver_refusals(rules: Rules, ids: Iterable[str] | None = None) -> list[str]:
    """One line for each trick contract of ``rules`` (or of the ids ``ids``) that the
    trick solver cannot play (a combination of scoring rules it does not handle, points
    too large): such a rules file is still good for scoring a match sheet (``barbu
    score``), but ``solve``, ``advise`` and ``stats`` refuse that contract.

    >>> from analyzer.rules import load_rules
    >>> solver_refusals(load_rules("tournament"))
    []
    """
    out = []
    for c in (rules.contracts.values() if ids is None else map(rules.contract, ids)):
        if not c.is_dominoes:
            try:
                compile_contract(rules, c, 0 if c.trumps else None)
            except BarbuError as e:
                out.append(str(e))
    return out


__all__ = ["CompiledContract", "compile_contract", "solver_refusals", "card_bitpos",
           "BAN_FREE", "BAN_ALWAYS", "BAN_FIRST_TRICK"]

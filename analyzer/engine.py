"""Reference play engine: the executable spec of the rules (plain Python, no numba).

Two games, both following ``rules.md`` to the letter and readable before fast:

* :class:`TrickGame` plays every trick contract of every preset (follow suit, heart-lead
  bans, Trumps obligations, forced discards, early stops) and scores it (card and trick
  points, last tricks, capot / all-cards bonuses, Ravage City).
* :class:`DominoesGame` plays Dominoes / Fan Tan (named, fixed or first-card starting
  rank, ace high or low, ace replay, passes, places).

Positions need not be whole hands: an endgame (equal hands) or a trick in progress
(``trick`` = the cards already played to it, leader's first). Scores are the points each
seat takes *from the position to the end*; the current trick's cards count for whoever
wins it. Whole-hand bonuses apply only when the position is a whole hand, and the
"last tricks" are the last of the position (rules.md, "Points that apply everywhere").
Ravage City counts the cards taken within the position.

The solvers must agree with this engine exactly; the brute-force oracle in
``tests/oracle.py`` searches it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Sequence

import numpy as np

from analyzer.cards import (DECK_RANKS, RANK_CHARS, Seat, Suit, as_cards, as_hands, as_seat,
                            as_suit, card_name, validate_hands)
from analyzer.errors import BarbuError
from analyzer.rules import Contract, Rules

PASS = -1
HEARTS = int(Suit.H)


def _suit(c: int) -> int:
    return c // 13


def _rank(c: int) -> int:
    return c % 13


def _resolve(rules: Rules, contract: Contract | str) -> Contract:
    return rules.contract(contract) if isinstance(contract, str) else contract


def _check_position(rules: Rules, hands: Sequence[Iterable[int]], first: int,
                    trick: Sequence[int]) -> list[set[int]]:
    """Validate hands (+ trick in progress, card indices already); return the hands as
    sets."""
    hs = as_hands(hands)
    if len(hs) != 4:
        raise BarbuError(f"a position needs four hands, got {len(hs)}")
    validate_hands(hs, rules.deck, equal=False)
    held = set().union(*hs)
    if not held and not trick:
        # (no trick is left to play: the solver's bounds and the engine's score have
        # nothing to stand on, and a whole-hand bonus would be paid for no trick)
        raise BarbuError("the position has no cards: there is nothing left to play")
    for c in trick:
        if c in held:
            raise BarbuError(f"card {card_name(c)} is both in a hand and in the current trick")
    if len(set(trick)) != len(trick):
        raise BarbuError("the current trick holds a card twice")
    if len(trick) > 3:
        raise BarbuError("the current trick already has four cards")
    for c in trick:
        if _rank(c) not in DECK_RANKS[rules.deck]:
            raise BarbuError(f"card {card_name(c)} is not in the {rules.deck}-card deck")
    n = len(hs[(first + len(trick)) % 4])
    for i in range(4):
        seat = (first + i) % 4
        want = n - 1 if i < len(trick) else n
        if len(hs[seat]) != want:
            lens = ", ".join(f"{Seat(s).name} {len(hs[s])}" for s in range(4))
            raise BarbuError(f"hands have unequal lengths ({lens}) that the current trick "
                             "does not explain")
    return hs


class TrickGame:
    """A trick contract being played, from a whole hand or any position.

    Parameters
    ----------
    rules : Rules
    contract : Contract or str
        A ``kind = "tricks"`` contract of ``rules``.
    hands : 4 iterables of cards
        Cards each seat still holds: indices 0-51 (``13 * suit + rank``) or names (``"SA"``).
    leader : Seat or int
        Leader of the current trick.
    trump : Suit, int or None
        The trump suit; required for ``trumps = true`` contracts, forbidden otherwise.
    trick : sequence of cards (indices or names)
        Cards already played to the current trick, leader's first.
    whole_hand : bool, optional
        Whether the position is a whole hand (bonuses, first-trick bans apply). Default:
        no trick completed yet (every card of the deck in the hands or the current trick).
    """

    def __init__(self, rules: Rules, contract: Contract | str,
                 hands: Sequence[Iterable[int]], leader: int, trump: int | None = None,
                 trick: Sequence[int] = (), whole_hand: bool | None = None) -> None:
        c = _resolve(rules, contract)
        if not c.is_tricks:
            raise BarbuError(f"{c.id} is not a trick contract")
        self.rules = rules
        self.contract = c
        leader = as_seat(leader, "leader")
        if whole_hand is not None and not isinstance(whole_hand, (bool, np.bool_)):
            raise BarbuError(f"bad whole_hand {whole_hand!r}: true, false or None")
        trick = as_cards(trick, "the current trick")
        self.hands = _check_position(rules, hands, leader, trick)
        if c.trumps:
            if trump is None:
                raise BarbuError(f"{c.id} needs a trump suit")
            trump = as_suit(trump, "trump suit")
        elif trump is not None:
            raise BarbuError(f"{c.id} is played without trumps: drop the trump suit")
        self.trump = -1 if trump is None else trump
        self.leader = leader
        self.trick = trick
        self.n_tricks = len(self.hands[(leader + len(trick)) % 4])
        if whole_hand is None:
            # no trick completed yet: the first trick may be under way (rules.md: the
            # bonuses and first-trick bans are the whole hand's)
            whole_hand = sum(len(h) for h in self.hands) + len(trick) == rules.deck
        self.whole_hand = bool(whole_hand)
        self.tricks_done = 0
        self.tricks_won = [0, 0, 0, 0]
        self.taken: list[list[int]] = [[], [], [], []]
        self.points = [Fraction(0)] * 4
        self.card_pts = rules.card_points(c)
        self.trick_pts = rules.trick_points(c)
        self.last = rules.last_tricks(c)
        v = rules.variants
        self.ban = "free" if not c.heart_lead_ban else v["heart_lead"]
        self.forced = set(c.forced_discard_cards) if v["forced_discard"] else set()
        self.void_must_ruff = bool(v["void_must_ruff"])
        self.stop = set(c.stop_when_taken)
        self.over = False
        self._check_stop()
        # The cards already in the trick must have been legal; check them by replaying.
        if trick:
            pre = [set(h) for h in self.hands]
            for i, card in enumerate(trick):
                pre[(leader + i) % 4].add(card)
            probe = TrickGame.__new__(TrickGame)
            probe.__dict__.update(self.__dict__)
            probe.hands = pre
            probe.trick = []
            probe.over = False
            for card in trick:
                why = probe.illegal_reason(card)
                if why:
                    raise BarbuError(f"the current trick is impossible: {card_name(card)} "
                                     f"by {Seat(probe.to_move).name}: {why}")
                probe.hands[probe.to_move].discard(card)
                probe.trick.append(card)

    # ------------------------------------------------------------------ state
    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def copy(self) -> "TrickGame":
        g = TrickGame.__new__(TrickGame)
        g.__dict__.update(self.__dict__)
        g.hands = [set(h) for h in self.hands]
        g.trick = list(self.trick)
        g.tricks_won = list(self.tricks_won)
        g.taken = [list(t) for t in self.taken]
        g.points = list(self.points)
        return g

    def _stop_gone(self) -> bool:
        """Are the stop cards (the K♥ of No King) all out of play?"""
        return bool(self.stop) and not (self.stop & (set().union(*self.hands)
                                                     | set(self.trick)))

    def _check_stop(self) -> None:
        if self._stop_gone():
            self.over = True

    def over_reason(self) -> str:
        """Why the hand is over, for messages ("" while it is not).

        >>> from analyzer.rules import load_rules
        >>> g = TrickGame(load_rules("tournament"), "no-king", [{0}, {1}, {2}, {3}], 0)
        >>> g.over_reason()
        'the HK is out of play: nothing is left to score'
        """
        if not self.over:
            return ""
        if self.trick or any(self.hands):
            if self._stop_gone():
                names = " and ".join(card_name(c) for c in sorted(self.stop))
                verb = "is" if len(self.stop) == 1 else "are"
                return f"the {names} {verb} out of play: nothing is left to score"
        return "every card has been played"

    # ------------------------------------------------------------------ rules
    def legal(self) -> list[int]:
        """Sorted legal cards of the player to move (empty once the hand is over)."""
        if self.over:
            return []
        return sorted(c for c in self.hands[self.to_move] if self.illegal_reason(c) is None)

    def illegal_reason(self, card: int) -> str | None:
        """Why ``card`` may not be played now by the player to move, or None."""
        if self.over:
            return f"the hand is over ({self.over_reason()})"
        hand = self.hands[self.to_move]
        if card not in hand:
            return f"{Seat(self.to_move).name} does not hold {card_name(card)}"
        s = _suit(card)
        if not self.trick:  # leading
            if self.ban != "free" and s == HEARTS:
                first_trick = self.whole_hand and self.tricks_done == 0
                if self.ban == "always" or first_trick:
                    if any(_suit(x) != HEARTS for x in hand):
                        return "a heart may not be led while the hand holds other suits"
            return None
        led = _suit(self.trick[0])
        follow = [x for x in hand if _suit(x) == led]
        trump = self.trump
        trumps_in_trick = [x for x in self.trick if _suit(x) == trump]
        top_trump = max((_rank(x) for x in trumps_in_trick), default=-1)
        if follow:
            if s != led:
                return f"must follow suit ({'SHDC'[led]})"
            if trump >= 0 and led == trump and self.contract.trump_lead_must_beat:
                higher = [x for x in follow if _rank(x) > top_trump]
                if higher and _rank(card) <= top_trump:
                    return "on a trump lead, must play a higher trump"
            return None
        # void in the suit led
        if trump >= 0 and self.void_must_ruff:
            my_trumps = [x for x in hand if _suit(x) == trump]
            if my_trumps:
                if not trumps_in_trick:
                    if s != trump:
                        return "void in the suit led: must trump"
                    return None
                if self.contract.must_overtrump:
                    higher = [x for x in my_trumps if _rank(x) > top_trump]
                    if higher and not (s == trump and _rank(card) > top_trump):
                        return "void in the suit led: must overtrump"
                    return None
                if s != trump:
                    return "void in the suit led: must trump"
                return None
        if self.forced:
            mine = [x for x in hand if x in self.forced]
            if mine and card not in self.forced:
                names = "/".join(card_name(x) for x in sorted(mine))
                return f"void in the suit led: must discard {names}"
        return None

    def winner_of(self, trick: Sequence[int], leader: int) -> int:
        """Seat that wins a complete trick led by ``leader``."""
        led = _suit(trick[0])
        best = 0
        for i in range(1, 4):
            a, b = trick[i], trick[best]
            if _suit(a) == _suit(b):
                if _rank(a) > _rank(b):
                    best = i
            elif _suit(a) == self.trump:
                best = i
            elif _suit(b) != self.trump and _suit(b) != led and _suit(a) == led:
                best = i
        return (leader + best) % 4

    def trick_value(self, index: int) -> Fraction:
        """Points for winning the ``index``-th trick of the position (cards aside)."""
        v = self.trick_pts
        from_end = self.n_tricks - index  # 1 for the last trick
        if from_end <= len(self.last):
            v += self.last[len(self.last) - from_end]
        return v

    def play(self, card: int) -> None:
        """Play ``card`` for the player to move; raises BarbuError with the reason."""
        card = int(card)
        why = self.illegal_reason(card)
        if why:
            raise BarbuError(f"illegal card {card_name(card)} by {Seat(self.to_move).name}: {why}")
        self.hands[self.to_move].discard(card)
        self.trick.append(card)
        if len(self.trick) < 4:
            return
        w = self.winner_of(self.trick, self.leader)
        self.points[w] += self.trick_value(self.tricks_done) + sum(
            (self.card_pts.get(x, Fraction(0)) for x in self.trick), Fraction(0))
        self.taken[w].extend(self.trick)
        self.tricks_won[w] += 1
        self.tricks_done += 1
        self.trick = []
        self.leader = w
        if self.tricks_done == self.n_tricks:
            self.over = True
        else:
            self._check_stop()

    def score(self) -> list[Fraction]:
        """Raw points of each seat from the position to the end (the hand must be over)."""
        if not self.over:
            raise BarbuError("the hand is not over yet")
        pts = list(self.points)
        c = self.contract
        if c.ravage is not None:
            counts = [[0] * 4 for _ in range(4)]
            for seat in range(4):
                for x in self.taken[seat]:
                    counts[seat][_suit(x)] += 1
            most = max(max(row) for row in counts)
            losers = [s for s in range(4) if max(counts[s]) == most]
            share = c.ravage / len(losers)
            for s in losers:
                pts[s] += share
        if self.whole_hand:
            if c.all_tricks_score is not None:
                for s in range(4):
                    if self.tricks_won[s] == self.n_tricks:
                        pts[s] = c.all_tricks_score
            if c.all_cards_score is not None and self.card_pts:
                scoring = set(self.card_pts)
                for s in range(4):
                    if scoring <= set(self.taken[s]):
                        pts[s] = c.all_cards_score
        return pts


# ============================================================================ dominoes
class DominoesGame:
    """Dominoes (Fan Tan) from the start or a position in progress.

    Parameters
    ----------
    rules, contract
        A ``kind = "dominoes"`` contract.
    hands : 4 iterables of card indices
    first : Seat or int
        The seat to play now (at the start: the declarer, or per ``dominoes_first``).
    start_rank : int, optional
        The starting rank (``Rank`` value). Required for ``start = "named"``; taken from
        the preset for ``fixed``; set by the first card for ``first-card``.
    layout : 4 items, optional
        Per suit ``None`` (unopened) or ``(low, high)``: the lowest and highest rank of that
        suit's run on the table (in the preset's ace order). Cards on the table plus cards in
        hands must make the whole deck.
    out : sequence of seats, optional
        Seats already out, in the order they went out.
    """

    def __init__(self, rules: Rules, contract: Contract | str,
                 hands: Sequence[Iterable[int]], first: int, start_rank: int | None = None,
                 layout: Sequence[tuple[int, int] | None] | None = None,
                 out: Sequence[int] = ()) -> None:
        c = _resolve(rules, contract)
        if not c.is_dominoes:
            raise BarbuError(f"{c.id} is not a dominoes contract")
        self.rules = rules
        self.contract = c
        self.hands = as_hands(hands)
        if len(self.hands) != 4:
            raise BarbuError(f"a position needs four hands, got {len(self.hands)}")
        validate_hands(self.hands, rules.deck, equal=False)
        ranks = DECK_RANKS[rules.deck]
        # order of ranks along a run, low to high
        self.order = sorted(ranks, key=lambda r: (r + 1) % 13 if c.ace == "low" else r)
        self.pos = {r: i for i, r in enumerate(self.order)}
        if c.start == "fixed":
            if start_rank is not None and int(start_rank) != c.start_rank:
                raise BarbuError(f"{rules.name} {c.id} always starts from "
                                 f"{RANK_CHARS[c.start_rank]}")
            start_rank = c.start_rank
        if start_rank is not None:
            start_rank = int(start_rank)
            if start_rank not in ranks:
                raise BarbuError(f"starting rank {RANK_CHARS[start_rank % 13]} is not in the "
                                 f"{rules.deck}-card deck")
        elif c.start == "named":
            raise BarbuError(f"{c.id}: name the starting rank (--rank; the preset lets the "
                             "declarer choose it)")
        self.start_rank = start_rank
        lay: list[tuple[int, int] | None] = [None] * 4 if layout is None else list(layout)
        if len(lay) != 4:
            raise BarbuError("a layout needs an entry per suit")
        on_table: set[int] = set()
        for s, run in enumerate(lay):
            if run is None:
                continue
            lo, hi = int(run[0]), int(run[1])
            if lo not in self.pos or hi not in self.pos or self.pos[lo] > self.pos[hi]:
                raise BarbuError(f"bad run for suit {'SHDC'[s]} in the layout")
            if start_rank is None:
                raise BarbuError("a layout with opened suits needs the starting rank")
            if not self.pos[lo] <= self.pos[start_rank] <= self.pos[hi]:
                raise BarbuError(f"the {'SHDC'[s]} run does not contain the starting rank")
            for i in range(self.pos[lo], self.pos[hi] + 1):
                on_table.add(13 * s + self.order[i])
            lay[s] = (lo, hi)
        held = set().union(*self.hands)
        if on_table & held:
            raise BarbuError(f"card {card_name(min(on_table & held))} is both on the table "
                             "and in a hand")
        if len(on_table) + len(held) != rules.deck:
            raise BarbuError("cards in hands and on the table do not make the whole deck")
        self.layout = lay
        self.out = [int(s) for s in out]
        for s in self.out:
            if self.hands[s]:
                raise BarbuError(f"{Seat(s).name} is listed as out but still holds cards")
        for s in range(4):
            if not self.hands[s] and s not in self.out:
                self.out.append(s)  # out at the start of the position, order unknown
        self.to_move = int(first)
        self.replay_pending = False
        self.over = False
        self._advance_if_out()
        self._check_over()

    def copy(self) -> "DominoesGame":
        g = DominoesGame.__new__(DominoesGame)
        g.__dict__.update(self.__dict__)
        g.hands = [set(h) for h in self.hands]
        g.layout = list(self.layout)
        g.out = list(self.out)
        return g

    def _check_over(self) -> None:
        if len(self.out) >= 3:
            self.over = True

    def over_reason(self) -> str:
        """Why the hand is over, for messages ("" while it is not)."""
        return "three players are out: the places are decided" if self.over else ""

    def _advance_if_out(self) -> None:
        for _ in range(4):
            if self.hands[self.to_move]:
                return
            self.to_move = (self.to_move + 1) % 4

    def playable(self, card: int) -> bool:
        s, r = _suit(card), _rank(card)
        if self.start_rank is None:  # first-card start: any card opens
            return True
        run = self.layout[s]
        if run is None:
            return r == self.start_rank
        lo, hi = run
        p = self.pos[r]
        return p == self.pos[hi] + 1 or p == self.pos[lo] - 1

    def legal(self) -> list[int]:
        """Playable cards of the player to move, or ``[PASS]`` when there are none."""
        if self.over:
            return []
        cards = sorted(c for c in self.hands[self.to_move] if self.playable(c))
        return cards if cards else [PASS]

    def play(self, card: int) -> None:
        """Play ``card`` (or ``PASS``) for the player to move."""
        if self.over:
            raise BarbuError(f"the hand is over ({self.over_reason()})")
        card = int(card)
        seat = self.to_move
        legal = self.legal()
        if card == PASS:
            if legal != [PASS]:
                raise BarbuError(f"{Seat(seat).name} may not pass: a card is playable")
            self.replay_pending = False
            self.to_move = (seat + 1) % 4
            self._advance_if_out()
            return
        if card not in self.hands[seat]:
            raise BarbuError(f"{Seat(seat).name} does not hold {card_name(card)}")
        if card not in legal:
            raise BarbuError(f"{card_name(card)} is not playable now")
        s, r = _suit(card), _rank(card)
        if self.start_rank is None:
            self.start_rank = r
        run = self.layout[s]
        if run is None:
            self.layout[s] = (r, r)
        else:
            lo, hi = run
            self.layout[s] = (r, hi) if self.pos[r] < self.pos[lo] else (lo, r)
        self.hands[seat].discard(card)
        if not self.hands[seat]:
            self.out.append(seat)
            self._check_over()
            self.replay_pending = False
            self.to_move = (seat + 1) % 4
            self._advance_if_out()
            return
        if self.contract.ace_replay and r == 12 and any(self.playable(x)
                                                        for x in self.hands[seat]):
            self.replay_pending = True  # same player again
            return
        self.replay_pending = False
        self.to_move = (seat + 1) % 4
        self._advance_if_out()

    def places(self) -> list[int]:
        """Seats in finishing order (the hand must be over)."""
        if not self.over:
            raise BarbuError("the hand is not over yet")
        order = list(self.out)
        order += [s for s in range(4) if s not in order]
        return order

    def score(self) -> list[Fraction]:
        pts = [Fraction(0)] * 4
        for place, seat in enumerate(self.places()):
            pts[seat] = self.contract.places[place]
        return pts


# ============================================================================ replay
def new_game(rules: Rules, contract: Contract | str, hands: Sequence[Iterable[int]],
             first: int, *, trump: int | None = None, start_rank: int | None = None,
             trick: Sequence[int] = ()) -> TrickGame | DominoesGame:
    """A game of either kind, starting with ``first`` to play."""
    c = _resolve(rules, contract)
    if c.is_dominoes:
        return DominoesGame(rules, c, hands, first, start_rank=start_rank)
    return TrickGame(rules, c, hands, first, trump=trump, trick=trick)


def replay(rules: Rules, contract: Contract | str, hands: Sequence[Iterable[int]],
           first: int, cards: Sequence[int], *, trump: int | None = None,
           start_rank: int | None = None) -> TrickGame | DominoesGame:
    """Replay a hand given as a card sequence (``PASS`` for Dominoes passes).

    Raises BarbuError naming the first illegal card, its position and the reason.
    """
    g = new_game(rules, contract, hands, first, trump=trump, start_rank=start_rank)
    for i, card in enumerate(cards, 1):
        if g.over:
            raise BarbuError(f"card {i}: the hand is already over ({g.over_reason()})")
        try:
            g.play(card)
        except BarbuError as e:
            raise BarbuError(f"card {i}: {e}") from None
    return g

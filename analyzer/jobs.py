"""Solve jobs: one question about one deal, from command-line options or a batch line.

A *job* is a mapping of option names to values, the same names as ``barbu solve``'s
options (``deal, rules, contract, trump, rank, declarer, leader, seat, side, bet, cards,
all_seats, trick, layout, out, node_limit, time_limit, play, review``). :func:`solve_job`
validates it, routes it to the trick solver (:mod:`analyzer.solve`) or the Dominoes
solver (:mod:`analyzer.dominoes`) and returns a JSON-able dict in the stable shapes of
``design.md``:

* one solve → ``{"contract", "trump", "rank", "seat" or "side", "leader", "value", …}``;
* ``all_seats`` → ``"values": {"N": …, "E": …, "S": …, "W": …}``;
* ``bet`` (a seat Y) → the seat's end of his bet against Y as ``"value"`` (what he can
  guarantee of his score minus Y's, the three others against him), ``"bet": Y`` and
  ``"bracket": [value, -Y's end]``: the doubling bracket of design.md;
* ``cards`` → ``"cards": [{"card": "SA", "value": …}, …]`` for the player to move;
* ``play`` → ``"play": [{"leader", "cards", "winner"}, …]``, one line of perfect play
  trick by trick (the trick in progress first, its cards played so far included),
  ``"play_points": {"N": …, …}`` (the raw points each seat takes along it, from the
  position) and ``"play_complete"`` (false where a limit or a stop cut it short); in
  Dominoes ``"play": [{"seat", "card"}, …]``, a move a turn (``"pass"`` too), and the
  places' scores;
* ``review`` (the cards played from the position on, ``"SA,S2,…"`` or a list; Dominoes
  moves may be ``"pass"``) → ``"review": [{"seat", "card", "value", "change",
  "instead"}, …]``, a card an entry: the value after it (of the rest of the hand from the
  position, the points taken since it included), how much the card changed it against
  perfect play, and a card that would have kept it (null where none changed), with
  ``"trick"`` (1 for the trick in progress) in trick contracts (with ``all_seats``,
  each entry's value and change are its own player's guaranteed value, and
  ``"values"`` each seat's at the position), ``"review_points"``
  (trick contracts: the raw points each seat took along the play reviewed, from the
  position; the hand's scores where it ends the hand) and ``"review_complete"`` (false
  where a limit or a stop cut it short);
* no contract → ``"rows": [{"contract", "trump", "rank", "seat", "value"}, …]``, one row
  per option (every trump suit, every starting rank) and seat, plus ``"best"``.

``time_limit`` (seconds) bounds the whole job: each trick-contract search gets an equal
share of the time left (what one leaves goes to the next), and one that its share stops
gives ``"value": null`` with ``"bounds": [low, high]``, what its finished tests proved
(``"values"``: null for that seat, and ``"bounds": {seat: [low, high]}``; a bet's
``"bracket"``: null at that end, and ``"bracket_bounds"``, both ends' bounds). The result
then says ``"time_limit"`` and ``"timed_out"`` (whether some value is open, or a line
of play or a review was cut short); a table's ``"best"`` is null unless one row is
proven best. Dominoes searches always run to the end. A stop request
(:func:`solve_job`'s ``stop``) leaves bounds likewise.

Defaults: declarer N; the leader (or first player in Dominoes) follows the preset
(``variants.lead`` / ``variants.dominoes_first``); the solved seat is the declarer.
"""

from __future__ import annotations

import json
import re
import time
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

from analyzer.cards import (PBN_DEAL_TAG, RANK_CHARS, Deal, Rank, Seat, Suit, as_cards,
                            as_seat, card_name, format_hand, parse_hands)
from analyzer.doubling import to_number
from analyzer.errors import BarbuError, Bounds, check_seconds
from analyzer.rules import Contract, Rules, load_rules
from analyzer.sampler import intersect_lengths

JOB_KEYS = ("deal", "rules", "contract", "trump", "rank", "declarer", "leader", "seat",
            "side", "bet", "cards", "all_seats", "trick", "layout", "out", "node_limit",
            "time_limit", "play", "review")


# --------------------------------------------------------------------------- parsing
def parse_position(text: str, deck: int | None = None) -> tuple[list[frozenset[int]], int]:
    """Parse a PBN deal whose hands may differ in length (a trick in progress)."""
    hs, deck = parse_hands(text, deck, equal=False)
    if not any(hs):
        raise BarbuError("the deal has no cards: nothing to solve")
    return list(hs), deck


def parse_cards(spec: str | Sequence[str] | None) -> list[int]:
    """``"SA,HK"`` or ``["SA", "HK"]`` → card indices (``"SA,"`` is refused)."""
    return as_cards(spec, "the current trick")


def _side(x: Any) -> tuple[int, ...]:
    text = "".join(x) if isinstance(x, (list, tuple)) else str(x)
    named = [as_seat(ch, "side seat") for ch in text.replace(",", "")]
    seats = tuple(sorted(set(named)))
    if len(named) != len(seats):
        raise BarbuError(f"bad side {x!r}: a seat is named twice")
    if not seats or len(seats) > 3:
        raise BarbuError(f"bad side {x!r}: name one to three seats, like NS")
    return seats


def _trump(x: Any) -> int | None:
    if x is None or x == "":
        return None
    try:
        return int(Suit.parse(x))
    except BarbuError:
        raise BarbuError(f"bad trump suit {x!r}: expected one of S, H, D, C") from None


def _rank(x: Any, deck: int) -> int | None:
    if x is None or x == "":
        return None
    r = int(Rank.parse(str(x)))
    if deck == 32 and r < 5:
        raise BarbuError(f"rank {x} is not in the 32-card deck")
    return r


def _num(x: Fraction) -> int | float | str:
    return to_number(x)


def _check_types(job: Mapping[str, Any]) -> None:
    """Each option's value of the type the command line would give it (a batch line's
    JSON can hold anything): seats, suits and cards as text, flags as true / false."""
    for k, v in job.items():
        if v is None:
            continue
        if k in ("cards", "all_seats", "play"):
            ok = isinstance(v, bool)
            want = "true or false"
        elif k == "node_limit":
            ok = isinstance(v, int) and not isinstance(v, bool)
            want = "a whole number"
        elif k == "time_limit":
            ok = isinstance(v, (int, float, str)) and not isinstance(v, bool)
            want = "a number of seconds"
        elif k == "rules":
            ok = isinstance(v, (str, Rules))
            want = "a preset name or a rules file"
        elif k == "rank":
            ok = isinstance(v, (str, int)) and not isinstance(v, bool)
            want = "a rank, like 7 or T"
        elif k in ("trick", "out", "side", "review"):
            ok = isinstance(v, str) or (isinstance(v, (list, tuple))
                                        and all(isinstance(x, str) for x in v))
            want = "text, or a list of texts"
        else:
            ok = isinstance(v, str)
            want = "text"
        if not ok:
            raise BarbuError(f"bad {k} {v!r}: expected {want}")


def _dominoes_objective(seat: int | None, side: tuple[int, ...] | None) -> dict[str, Any]:
    """Dominoes' objective: a seat's guaranteed value, or a side's combined places (its
    seats maximising together, as ``solve``'s ``side``)."""
    if side:
        return {"weights": [1 if p in side else 0 for p in range(4)], "maximizers": side}
    return {"seat": seat}


def _review_moves(items: Sequence[Any], dominoes: bool) -> list[int]:
    """The cards of a play to review (Dominoes: "pass" too, as ``PASS``), a bad one
    named by its place in the play."""
    from analyzer.engine import PASS
    out = []
    for k, m in enumerate(items, 1):
        if isinstance(m, str) and m.strip().lower() == "pass":
            if not dominoes:
                raise BarbuError(f"card {k} of the play: 'pass' is a Dominoes move; in a "
                                 "trick contract every turn plays a card")
            out.append(PASS)
            continue
        try:
            out.append(as_cards([m], "the play to review")[0])
        except BarbuError as e:
            what = "move" if dominoes else "card"
            raise BarbuError(f"{what} {k} of the play: {e}") from None
    return out


# --------------------------------------------------------------------------- the job
class Job:
    """A validated solve job (see the module docstring)."""

    progress: Callable[[int, int, str], Any] | None = None
    #: set (a threading.Event) to stop the searches: the values still open get bounds
    stop: Any = None

    def __init__(self, job: Mapping[str, Any]) -> None:
        unknown = [k for k in job if k not in JOB_KEYS]
        if unknown:
            raise BarbuError(f"unknown job option {unknown[0]!r} (expected one of "
                             + ", ".join(JOB_KEYS) + ")")
        _check_types(job)
        if not job.get("deal"):
            raise BarbuError("no deal given")
        self.rules: Rules = load_rules(job.get("rules"))
        r = self.rules
        hands, deck = parse_position(job["deal"], r.deck)
        self.declarer = as_seat(job.get("declarer") or "N", "declarer")
        lead = job.get("leader")
        self.leader_given = lead is not None and lead != ""
        self.leader = (as_seat(lead, "leader") if self.leader_given
                       else r.opening_leader(self.declarer))
        self.contract: Contract | None = r.contract(job["contract"]) if job.get(
            "contract") else None
        self.trick = parse_cards(job.get("trick"))
        if self.trick and self.contract is not None and self.contract.is_dominoes:
            raise BarbuError("dominoes has no tricks: drop --trick")
        if self.trick:
            hands = self._remove_trick(hands)
        self.hands = hands
        self.trump = _trump(job.get("trump"))
        self.rank = _rank(job.get("rank"), r.deck)
        self.side = _side(job["side"]) if job.get("side") else None
        seat = job.get("seat")
        seat_given = seat is not None and seat != ""
        if seat_given:
            self.seat: int | None = as_seat(seat, "seat")
        else:
            self.seat = None if self.side else self.declarer
        if seat_given and self.side and self.seat not in self.side:  # (as solve says it)
            raise BarbuError(f"seat {Seat(self.seat).name} is not in side "
                             f"{''.join(Seat(p).name for p in self.side)}")
        bet = job.get("bet")
        self.bet: int | None = (as_seat(bet, "bet seat") if bet is not None and bet != ""
                                else None)
        if self.bet is not None:
            if self.side:
                raise BarbuError("--bet is one seat's bet against another: drop --side")
            if job.get("all_seats"):
                raise BarbuError("--bet is one seat's bet against another: drop --all-seats")
            if self.bet == self.seat:
                raise BarbuError(f"--bet {Seat(self.bet).name}: a seat cannot bet against "
                                 "himself (--seat, default the declarer, is the other end)")
        self.cards = bool(job.get("cards"))
        nl = job.get("node_limit")
        if nl is not None and (isinstance(nl, bool) or not isinstance(nl, int) or nl < 1
                               or nl >= 1 << 62):
            raise BarbuError(f"bad --node-limit {nl!r}: expected a positive whole number "
                             "below 2^62")
        self.node_limit: int | None = nl
        self.time_limit = check_seconds(job.get("time_limit"), "--time-limit")
        self.end: float | None = None  # (the time limit's end, once the job runs)
        self.open = False  # (whether some value is left as bounds)
        self.all_seats = bool(job.get("all_seats"))
        self.layout = job.get("layout")
        out = job.get("out") or []
        self.out = [as_seat(x, "--out seat") for x in
                    (out.replace(",", "").replace(" ", "") if isinstance(out, str) else out)]
        if self.all_seats and self.side:
            raise BarbuError("--all-seats solves each seat alone: drop --side")
        if self.all_seats and seat_given:
            raise BarbuError("--all-seats solves every seat: drop --seat")
        if self.all_seats and self.cards:
            raise BarbuError("--all-seats and --cards answer different questions: "
                             "choose one")
        self.play = bool(job.get("play"))
        if self.play:
            other = ("--all-seats" if self.all_seats else "--cards" if self.cards
                     else "--bet" if self.bet is not None else None)
            if other:
                raise BarbuError(f"--play plays out one value: drop {other}")
            if self.contract is None:
                raise BarbuError("--play plays out one contract: name the --contract")
        rv = job.get("review")
        self.review: list[str] | None = None
        if rv is not None:
            # (commas or spaces between cards; "/" may mark the tricks)
            items = re.split(r"\s*[,/]\s*|\s+", rv.strip()) if isinstance(rv, str) \
                else list(rv)
            if "" in items and items != [""]:
                raise BarbuError(f"bad --review {rv!r}: an empty card" + (
                    " between two separators" if isinstance(rv, str) else ""))
            if not items or items == [""]:
                raise BarbuError("--review names no card: give the cards played, like "
                                 "SA,S2,S5,S9")
            other = ("--cards" if self.cards else "--bet" if self.bet is not None
                     else "--play" if self.play else None)
            if other:
                raise BarbuError(f"--review follows one objective through the play (or "
                                 f"each seat's own, --all-seats): drop {other}")
            if self.contract is None:
                raise BarbuError("--review follows one contract: name the --contract")
            self.review = items
        c = self.contract
        if c is not None:
            if c.is_tricks:
                if self.rank is not None:
                    raise BarbuError(f"{c.id} has no starting rank: drop --rank")
                if self.layout:
                    raise BarbuError("--layout is for dominoes")
                if self.out:
                    raise BarbuError("--out is for dominoes")
                if c.trumps and self.trump is None:
                    raise BarbuError(f"{c.id} needs a trump suit: --trump S|H|D|C")
                if not c.trumps and self.trump is not None:
                    raise BarbuError(f"{c.id} is played without trumps: drop --trump")
            else:
                if self.trump is not None:
                    raise BarbuError(f"{c.id} has no trump suit: drop --trump")
                if self.trick:
                    raise BarbuError("dominoes has no tricks: drop --trick")
        elif self.trick or self.layout or self.out:
            raise BarbuError("name the contract (--contract) to solve a position in progress")
        elif self.trump is not None or self.rank is not None:
            raise BarbuError(f"{'--trump' if self.trump is not None else '--rank'} picks an "
                             "option of one contract: name the --contract (without it, the "
                             "table of every option)")

    def _remove_trick(self, hands: list[frozenset[int]]) -> list[frozenset[int]]:
        """Cards of the current trick: removed from the hands when still there."""
        if len(self.trick) > 3:
            raise BarbuError("--trick lists more than three cards")
        if len(set(self.trick)) != len(self.trick):
            raise BarbuError("the current trick holds a card twice")
        lens = {len(h) for h in hands}
        if len(lens) == 1:  # hands as at the start of the trick
            out = [set(h) for h in hands]
            for i, c in enumerate(self.trick):
                s = (self.leader + i) % 4
                if c not in out[s]:
                    raise BarbuError(f"trick card {card_name(c)} is not in "
                                     f"{Seat(s).name}'s hand (the leader is "
                                     f"{Seat(self.leader).name})")
                out[s].discard(c)
            return [frozenset(h) for h in out]
        return hands

    # ---------------------------------------------------------------- questions
    def who(self) -> dict[str, Any]:
        if self.side:
            return {"side": "".join(Seat(s).name for s in self.side)}
        return {"seat": Seat(self.seat).name}  # type: ignore[arg-type]

    def header(self, c: Contract | None) -> dict[str, Any]:
        h = {"rules": self.rules.name, "deal": _deal_text(self.hands),
             "declarer": Seat(self.declarer).name}
        if c is not None:
            h["contract"] = c.id
        return h

    def first_player(self) -> int:
        from analyzer.dominoes import dominoes_first_seat
        return self.leader if self.leader_given else dominoes_first_seat(self.rules,
                                                                          self.declarer)

    @staticmethod
    def _objective(c: Contract, seat: int | None, side: tuple[int, ...] | None,
                   bet: int | None) -> dict[str, Any]:
        """The solve's objective: a seat's guaranteed value, a side's, or the seat's end
        of his bet against ``bet`` (his score minus the other's, he maximising)."""
        if bet is not None:
            return {"weights": [1 if p == seat else -1 if p == bet else 0 for p in range(4)],
                    "maximizers": (seat,)}
        if c.is_dominoes:
            return _dominoes_objective(seat, side)
        return {"seat": seat, "side": side}

    def solve_one(self, c: Contract, seat: int | None, side: tuple[int, ...] | None,
                  trump: int | None, rank: int | None, bet: int | None = None,
                  time_limit: float | None = None, proved: Bounds | None = None) -> Fraction:
        """One value (``time_limit``: of a trick-contract search, which raises
        :class:`SearchStopped` when it strikes, ``proved`` the bounds its earlier run
        proved; Dominoes searches always end)."""
        if c.is_dominoes:
            from analyzer.dominoes import solve_dominoes
            return solve_dominoes(self.hands, self.rules, c, first=self.first_player(),
                                  start_rank=rank, layout=self.layout, out=self.out,
                                  **self._objective(c, seat, side, bet))
        from analyzer.solve import solve
        return solve(self.hands, self.rules, c, trump=trump, leader=self.leader,
                     trick=self.trick, node_limit=self.node_limit, time_limit=time_limit,
                     stop=self.stop, proved=proved, **self._objective(c, seat, side, bet))

    def solve_all(self, questions: Sequence[tuple], end: float | None,
                  before: Callable[[int], Any] | None = None,
                  names: Sequence[str] | None = None) -> list[Fraction | Bounds]:
        """:meth:`solve_one` of each tuple of its arguments (contract, seat, side, trump,
        rank, bet), within the time to ``end`` (:func:`analyzer.solve.within_time`);
        ``before(i)`` is called before question ``i`` is first solved; a node limit's
        error names what question ``i`` searched, ``names[i]``."""
        from analyzer.solve import SearchStopped, within_time
        seen: set[int] = set()

        def slot(i: int) -> Callable[[float | None, Bounds | None], Fraction]:
            def run(share: float | None, proved: Bounds | None) -> Fraction:
                if before is not None and i not in seen:
                    before(i)
                seen.add(i)
                try:
                    return self.solve_one(*questions[i], time_limit=share, proved=proved)
                except SearchStopped as e:
                    if names is None:
                        raise
                    raise e.naming(names[i]) from None
            return run
        vals = within_time([slot(i) for i in range(len(questions))], end)
        self.open |= any(isinstance(v, Bounds) for v in vals)
        return vals

    def card_values(self, c: Contract) -> dict[int, Fraction | Bounds]:
        if c.is_dominoes:
            from analyzer.dominoes import solve_dominoes_cards
            return solve_dominoes_cards(self.hands, self.rules, c, first=self.first_player(),
                                        start_rank=self.rank, layout=self.layout,
                                        out=self.out,
                                        **self._objective(c, self.seat, self.side, self.bet))
        from analyzer.solve import solve_cards, time_share
        vals = solve_cards(self.hands, self.rules, c, trump=self.trump, leader=self.leader,
                           trick=self.trick, node_limit=self.node_limit,
                           time_limit=time_share(self.end, 1), stop=self.stop,
                           **self._objective(c, self.seat, self.side, self.bet))
        self.open |= any(isinstance(v, Bounds) for v in vals.values())
        return vals

    def options(self) -> list[tuple[Contract, int | None, int | None]]:
        """Every option of the preset's match (:func:`analyzer.options.options`); an
        endgame (not a whole deal) has no Dominoes option: Dominoes needs every card."""
        from analyzer.options import options
        whole = all(len(h) * 4 == self.rules.deck for h in self.hands)
        return options(self.rules, hands=self.hands, first=self.first_player(),
                       declarer=self.declarer, dominoes=whole)

    def run(self) -> dict[str, Any]:
        if self.time_limit is not None:
            self.end = time.monotonic() + self.time_limit
        res = self._run()
        asked = self.stop is not None and self.stop.is_set()
        if self.time_limit is not None:
            res["time_limit"] = self.time_limit
            # (a stop request before the limit leaves values open too: not timed out)
            res["timed_out"] = self.open and (not asked or time.monotonic() >= self.end)
        if asked:
            res["interrupted"] = True
        return res

    def _run(self) -> dict[str, Any]:
        c = self.contract
        if c is None:
            return self.table()
        res = self.header(c)
        res["trump"] = None if self.trump is None else "SHDC"[self.trump]
        res["rank"] = None if self.rank is None else RANK_CHARS[self.rank]
        if c.is_dominoes and self.rank is None and c.start == "fixed":
            res["rank"] = RANK_CHARS[c.start_rank]  # the preset's rank, given or not
        if c.is_dominoes:
            # (design.md's stable shape names the seat that plays first "leader"; "first"
            # is kept for the programs that read it)
            res["leader"] = res["first"] = Seat(self.first_player()).name
            if self.layout:
                from analyzer.dominoes import format_layout, parse_layout
                lay = self.layout
                if isinstance(lay, str):
                    lay = parse_layout(lay, self.rules.deck, ace=c.ace)
                res["layout"] = format_layout(lay)  # canonical: S H D C, every suit
            if self.out:  # (who went out first changes the places: the answer's input)
                res["out"] = "".join(Seat(x).name for x in self.out)
            if self.rank is None and c.start == "named" and not self.layout:
                if self.all_seats or self.cards or self.play or self.review is not None:
                    flag = ("--all-seats" if self.all_seats else "--cards" if self.cards
                            else "--play" if self.play else "--review")
                    raise BarbuError(f"{flag} needs the starting rank: add --rank "
                                     "(without it, the table of every rank)")
                return self.rank_table(c, res)
        else:
            res["leader"] = Seat(self.leader).name
            if self.trick:
                res["trick"] = [card_name(x) for x in self.trick]
        if self.review is not None:
            if not self.all_seats:
                res.update(self.who())
            res.update(self._review(c))
            return res
        if self.all_seats:
            vals = dict(zip((Seat(p).name for p in range(4)), self.solve_all(
                [(c, p, None, self.trump, self.rank) for p in range(4)], self.end,
                names=[f"{Seat(p).name}'s value" for p in range(4)])))
            res["values"] = {k: _value(v)["value"] for k, v in vals.items()}
            if any(isinstance(v, Bounds) for v in vals.values()):
                res["bounds"] = {k: _value(v)["bounds"] for k, v in vals.items()
                                 if isinstance(v, Bounds)}
            return res
        res.update(self.who())
        questions = [(c, self.seat, self.side, self.trump, self.rank, self.bet)]
        names = ["the value"]
        if self.bet is not None:
            # the other end: what the opponent guarantees of his score minus the seat's;
            # with perfect play the seat's score minus his lies in [value, -that]
            questions.append((c, self.bet, None, self.trump, self.rank, self.seat))
            x, y = Seat(self.seat).name, Seat(self.bet).name  # type: ignore[arg-type]
            names.append(f"{y}'s score minus {x}'s, {y}'s end of the bet,")
        if self.play:
            res.update(self._play(c))
            return res
        end = self.end
        if end is not None and self.cards:  # (the cards' share: as one more question)
            now = time.monotonic()
            end = now + (end - now) * len(questions) / (len(questions) + 1)
        v, *rest = self.solve_all(questions, end, names=names)
        res.update(_value(v))
        if self.bet is not None:
            w = rest[0]
            high = Bounds(-w.high, -w.low) if isinstance(w, Bounds) else -w
            res["bet"] = Seat(self.bet).name
            res["bracket"] = [_value(v)["value"], _value(high)["value"]]
            if isinstance(v, Bounds) or isinstance(w, Bounds):
                res["bracket_bounds"] = [_as_bounds(v), _as_bounds(high)]
        if self.cards:
            vals = self.card_values(c)
            sign = -1 if self._maximises(c) else 1
            res["to_move"] = Seat(self._to_move(c)).name
            res["cards"] = [{"card": "pass" if k < 0 else card_name(k), **_value(v)}
                            for k, v in sorted(vals.items(),
                                               key=lambda kv: sign * _middle(kv[1]))]
        return res

    def _play(self, c: Contract) -> dict[str, Any]:
        """The value and one line of perfect play (:func:`analyzer.solve.solve_line`),
        trick by trick."""
        if c.is_dominoes:
            return self._dominoes_play(c)
        from analyzer.engine import TrickGame
        from analyzer.solve import solve_line
        v, cards, complete = solve_line(
            self.hands, self.rules, c, trump=self.trump, leader=self.leader,
            trick=self.trick, node_limit=self.node_limit, stop=self.stop,
            time_limit=None if self.end is None else max(self.end - time.monotonic(), 1e-6),
            **self._objective(c, self.seat, self.side, None))
        self.open |= isinstance(v, Bounds) or not complete
        g = TrickGame(self.rules, c, self.hands, self.leader, trump=self.trump,
                      trick=self.trick)
        tricks: list[dict[str, Any]] = []
        for x in cards:
            if not g.trick:
                tricks.append({"leader": Seat(g.leader).name, "cards": [], "winner": None})
            elif not tricks:  # (the trick in progress: its cards so far)
                tricks.append({"leader": Seat(g.leader).name,
                               "cards": [card_name(k) for k in g.trick], "winner": None})
            g.play(x)
            tricks[-1]["cards"].append(card_name(x))
            if not g.trick:
                tricks[-1]["winner"] = Seat(g.leader).name
        pts = g.score() if g.over else g.points
        return {**_value(v), "play": tricks,
                "play_points": {Seat(p).name: _num(pts[p]) for p in range(4)},
                "play_complete": complete}

    def _dominoes_play(self, c: Contract) -> dict[str, Any]:
        """Dominoes: the value and one line of perfect play, a move a seat's turn (a card
        or "pass"), and each seat's places score at its end."""
        from analyzer.dominoes import PASS, dominoes_position, solve_dominoes_line
        kw = dict(first=self.first_player(), start_rank=self.rank, layout=self.layout,
                  out=self.out)
        v, moves = solve_dominoes_line(self.hands, self.rules, c, **kw,
                                       **_dominoes_objective(self.seat, self.side))
        g = dominoes_position(self.hands, self.rules, c, **kw)
        for _, m in moves:
            g.play(m)
        score = g.score()
        return {**_value(v),
                "play": [{"seat": Seat(p).name, "card": "pass" if m == PASS else card_name(m)}
                         for p, m in moves],
                "play_points": {Seat(p).name: _num(score[p]) for p in range(4)},
                "play_complete": True}

    def _review(self, c: Contract) -> dict[str, Any]:
        """The value, and its value after each card of the play under review
        (:func:`analyzer.solve.review_line`, :func:`analyzer.dominoes.review_dominoes_line`),
        a card that changed it marked with how much and a card that would have kept it.
        With ``all_seats``, each card judged by its player's own guaranteed value: each
        seat's review in turn (its table carried along the play), each card's entry from
        its player's."""
        from analyzer.engine import PASS
        moves = _review_moves(self.review or (), c.is_dominoes)
        seats = list(range(4)) if self.all_seats else [None]
        runs = []
        for i, p in enumerate(seats):
            end = self.end
            if end is not None and len(seats) > 1:  # (an equal share of the time left)
                now = time.monotonic()
                end = now + (end - now) / (len(seats) - i)
            runs.append(self._review_run(c, moves, p, end))
        g = self._game(c)
        out = []
        complete = all(r[2] for r in runs)
        for k, x in enumerate(moves):
            # (each seat's review values every card: its player's own, with all_seats)
            v, entries, _ = runs[g.to_move if self.all_seats else 0]
            if k >= len(entries):
                complete = False
                break
            p, after, instead = entries[k]
            before = v if k == 0 else entries[k - 1][1]
            e = {"seat": Seat(p).name, "card": "pass" if x == PASS else card_name(x),
                 "value": _num(after), "change": _num(after - before),
                 "instead": None if instead is None else
                 "pass" if instead == PASS else card_name(instead)}
            out.append({"trick": g.tricks_done + 1, **e} if c.is_tricks else e)
            g.play(x)
        res: dict[str, Any] = {}
        if self.all_seats:
            vals = {Seat(p).name: r[0] for p, r in zip(seats, runs)}
            res["values"] = {k: _value(v)["value"] for k, v in vals.items()}
            if any(isinstance(v, Bounds) for v in vals.values()):
                res["bounds"] = {k: _value(v)["bounds"] for k, v in vals.items()
                                 if isinstance(v, Bounds)}
        else:
            res.update(_value(runs[0][0]))
        self.open |= not complete
        res["review"] = out
        if c.is_tricks:
            pts = g.score() if g.over else g.points
            res["review_points"] = {Seat(p).name: _num(pts[p]) for p in range(4)}
        res["review_complete"] = complete
        return res

    def _game(self, c: Contract):
        """The position as a game (a trick game, or a Dominoes table)."""
        if c.is_dominoes:
            from analyzer.dominoes import dominoes_position
            return dominoes_position(self.hands, self.rules, c, first=self.first_player(),
                                     start_rank=self.rank, layout=self.layout, out=self.out)
        from analyzer.engine import TrickGame
        return TrickGame(self.rules, c, self.hands, self.leader, trump=self.trump,
                         trick=self.trick)

    def _review_run(self, c: Contract, moves: list[int], seat: int | None,
                    end: float | None) -> tuple[Any, list[tuple], bool]:
        """One objective's review of ``moves``: the seat's (``seat``, or the job's
        objective where None), as ``(value, [(mover, value_after, instead), …],
        complete)``."""
        if c.is_dominoes:
            from analyzer.dominoes import review_dominoes_line
            obj = _dominoes_objective(self.seat if seat is None else seat,
                                      self.side if seat is None else None)
            v, entries = review_dominoes_line(
                self.hands, self.rules, c, moves, first=self.first_player(),
                start_rank=self.rank, layout=self.layout, out=self.out, **obj)
            return v, [(p, a, i) for p, _, a, i in entries], True
        from analyzer.solve import review_line
        obj = (self._objective(c, self.seat, self.side, None) if seat is None
               else {"seat": seat})
        v, entries, complete = review_line(
            self.hands, self.rules, c, moves, trump=self.trump, leader=self.leader,
            trick=self.trick, node_limit=self.node_limit, stop=self.stop,
            time_limit=None if end is None else max(end - time.monotonic(), 1e-6), **obj)
        g = self._game(c)
        movers = []
        for x in moves:
            movers.append(g.to_move)
            g.play(x)
        return v, [(p, a, i) for p, (_, a, i) in zip(movers, entries)], complete

    def _to_move(self, c: Contract) -> int:
        if c.is_dominoes:  # the engine skips seats already out
            from analyzer.dominoes import dominoes_position
            return dominoes_position(self.hands, self.rules, c, first=self.first_player(),
                                     start_rank=self.rank, layout=self.layout,
                                     out=self.out).to_move
        return (self.leader + len(self.trick)) % 4

    def _maximises(self, c: Contract) -> bool:
        mover = self._to_move(c)
        return mover in (self.side or ()) or mover == self.seat

    def rank_table(self, c: Contract, res: dict[str, Any]) -> dict[str, Any]:
        """Every starting rank for the seat (the declarer by default), the best marked."""
        from analyzer.dominoes import dominoes_ranks
        if self.side or self.bet is not None:
            raise BarbuError(f"{'--side' if self.side else '--bet'} needs the starting rank: "
                             "add --rank (the table of every rank is per seat)")
        seat = self.seat if self.seat is not None else self.declarer
        rows = []
        for k in dominoes_ranks(self.rules, c):
            v = self.solve_one(c, seat, None, None, k)
            rows.append({"contract": c.id, "trump": None, "rank": RANK_CHARS[k],
                         "seat": Seat(seat).name, "value": v})
        best = max(range(len(rows)), key=lambda i: rows[i]["value"])
        for i, row in enumerate(rows):
            row["value"] = _num(row["value"])
            row["best"] = i == best
        res.update(rows=rows, best=dict(rows[best]))
        return res

    def _likely_cost(self, c: Contract) -> tuple[int, ...]:
        """How long a contract's guaranteed value usually takes on 52 cards, as a sort
        key: Dominoes, then contracts where nobody loses points (Trumps), then the
        others by how many cards and tricks score (No King 1, No Last Two 2, No Queens
        4, No Hearts and No Tricks 13: BENCHMARKS.md's medians rise in that order)."""
        from analyzer.compile import compile_contract
        from analyzer.solve import score_sign
        if c.is_dominoes:
            return (0,)
        if score_sign(self.rules, c) > 0:
            return (1,)
        cc = compile_contract(self.rules, c, 0 if c.trumps else None)
        tricks = int((cc.tpl != 0).sum())  # (the tricks last: No Tricks after No Hearts)
        return (2, int((cc.pts != 0).sum()) + tricks, tricks)

    def table(self) -> dict[str, Any]:
        """No contract: every option for the declarer (or every seat with all_seats)."""
        res = self.header(None)
        res["leader"] = Seat(self.leader).name
        seats = list(range(4)) if self.all_seats else [
            self.seat if self.seat is not None else self.declarer]
        if self.side or self.bet is not None:
            raise BarbuError(f"the table of every contract is per seat: drop "
                             f"{'--side' if self.side else '--bet'} or name a --contract")
        if self.cards:
            raise BarbuError("--cards values each card in one contract: name a --contract")
        todo = [(c, trump, rank, p) for c, trump, rank in self.options() for p in seats]
        if not todo:
            raise BarbuError(f"no option of {self.rules.name}'s match applies to this "
                             "position (Dominoes needs a whole deal): name a --contract")

        if len({c.is_dominoes for c, _, _, _ in todo}) == 2:
            from analyzer.pools import compile_together
            compile_together()  # (a first run: the two kernels compiled on two cores)

        # the likely quick ones are solved first (the rows keep the options' order):
        # under a time limit they leave their shares to the slow ones, and a Ctrl-C in
        # a slow one finds them done
        cost = {c.id: self._likely_cost(c) for c, _, _, _ in todo}  # (once a contract)
        order = sorted(range(len(todo)), key=lambda i: cost[todo[i][0].id])
        started: list[int] = []

        def label(i: int) -> str:
            c, trump, rank, _ = todo[i]
            return c.id + ("" if trump is None else f" {'SHDC'[trump]}") + (
                "" if rank is None else f" from {RANK_CHARS[rank]}")

        def before(k: int) -> None:
            started.append(k)
            if self.progress is not None:
                self.progress(len(started) - 1, len(todo), label(order[k]))
        solved = self.solve_all([(todo[i][0], todo[i][3], None, todo[i][1], todo[i][2])
                                 for i in order], self.end, before,
                                [f"{Seat(todo[i][3]).name}'s value in {label(i)}"
                                 for i in order])
        vals = [solved[order.index(i)] for i in range(len(todo))]
        rows = [{"contract": c.id, "trump": None if trump is None else "SHDC"[trump],
                 "rank": None if rank is None else RANK_CHARS[rank],
                 "seat": Seat(p).name, "value": v}
                for (c, trump, rank, p), v in zip(todo, vals)]
        best = proven_best([row["value"] for row in rows])
        for i, row in enumerate(rows):
            row.update(_value(row["value"]))
            if len(seats) == 1:  # (as the table of starting ranks marks it)
                row["best"] = i == best
        if len(seats) == 1:
            res["best"] = None if best is None else dict(rows[best])
        res["rows"] = rows
        return res


def _value(v: Fraction | Bounds) -> dict[str, Any]:
    """A value's JSON keys: ``{"value": v}``, or ``{"value": None, "bounds": [low, high]}``
    for a search its time limit stopped."""
    if isinstance(v, Bounds):
        return {"value": None, "bounds": [_num(v.low), _num(v.high)]}
    return {"value": _num(v)}


def _as_bounds(v: Fraction | Bounds) -> list[int | float | str]:
    return [_num(v.low), _num(v.high)] if isinstance(v, Bounds) else [_num(v), _num(v)]


def _middle(v: Fraction | Bounds) -> Fraction:
    """Where a value sorts: itself, or the middle of its bounds."""
    return (v.low + v.high) / 2 if isinstance(v, Bounds) else v


def proven_best(values: Sequence[Fraction | Bounds]) -> int | None:
    """Index of the first value proven to be at least every other one (for exact values,
    the first of the largest), or None where bounds leave the best open.

    >>> F = Fraction
    >>> proven_best([F(-4), F(2), F(2)])
    1
    >>> proven_best([F(-4), Bounds(F(-8), F(-5)), F(1)])
    2
    >>> proven_best([Bounds(F(15), F(20)), F(20)])
    1
    >>> proven_best([F(-4), Bounds(F(-8), F(-3))]) is None
    True
    """
    low = [v.low if isinstance(v, Bounds) else v for v in values]
    high = [v.high if isinstance(v, Bounds) else v for v in values]
    for i in range(len(values)):
        if all(low[i] >= high[j] for j in range(len(values)) if j != i):
            return i
    return None


def _deal_text(hands: Sequence[Iterable[int]]) -> str:
    return "N:" + " ".join(format_hand(h) for h in hands)


def constraint_spec(known: Sequence[str] = (), voids: Sequence[str] = (),
                    lengths: Sequence[str] = ()) -> dict[str, Any]:
    """Command-line sampling constraints → the mapping :func:`analyzer.sampler.parse_constraints`
    reads.

    ``known``: ``"E:SA,HK"`` (cards in E's hand); ``voids``: ``"W:H"`` or ``"W:HD"``;
    ``lengths``: ``"S:C:0-2"`` or ``"S:C:3"`` (suit length range of a seat).

    >>> constraint_spec(["E:SA,HK"], ["W:H"], ["S:C:0-2"])
    {'known': {'E': 'SA,HK'}, 'voids': {'W': 'H'}, 'lengths': {'S': {'C': [0, 2]}}}
    """
    spec: dict[str, Any] = {"known": {}, "voids": {}, "lengths": {}}
    for item in known:
        seat, _, cards = item.partition(":")
        if not cards:
            raise BarbuError(f"bad --known {item!r}: expected SEAT:CARDS, like E:SA,HK")
        prev = spec["known"].get(seat)
        spec["known"][seat] = f"{prev},{cards}" if prev else cards
    for item in voids:
        seat, _, suits = item.partition(":")
        if not suits:
            raise BarbuError(f"bad --void {item!r}: expected SEAT:SUITS, like W:H")
        spec["voids"][seat] = spec["voids"].get(seat, "") + suits
    for item in lengths:
        parts = item.split(":")
        if len(parts) != 3:
            raise BarbuError(f"bad --length {item!r}: expected SEAT:SUIT:LO-HI, like S:C:0-2")
        seat, suit, rng = parts
        lo, dash, hi = rng.partition("-")
        if not (lo.strip().isdigit() and (hi if dash else lo).strip().isdigit()):
            raise BarbuError(f"bad --length {item!r}: LO-HI must be whole numbers of 0 "
                             "or more, like 0-2, or one number")
        span = [int(lo), int(hi if dash else lo)]
        if span[1] > 13 or span[0] > span[1]:
            raise BarbuError(f"bad --length {item!r}: " + (
                "a hand holds at most 13 cards of a suit" if span[1] > 13 else
                "LO is above HI"))
        old = spec["lengths"].get(seat, {}).get(suit)  # the same seat and suit twice: both hold
        span = list(intersect_lengths(None if old is None else tuple(old), tuple(span),
                                      f"--length for {seat}:{suit}"))
        spec["lengths"].setdefault(seat, {})[suit] = span
    return {k: v for k, v in spec.items() if v}


def solve_job(job: Mapping[str, Any],
              progress: Callable[[int, int, str], Any] | None = None,
              stop: Any = None) -> dict[str, Any]:
    """Validate and solve one job; the result is JSON-able (see the module docstring).

    ``progress(done, total, label)`` is called before each solve of a table of every
    option (no contract named), so a long 52-card table can show where it is. ``stop``
    (a ``threading.Event``): once set, the searches stop (those after it at once), the
    values still open are given as bounds, as under a time limit, and the result says
    ``"interrupted": true``; Dominoes searches still end."""
    job_ = Job(job)
    job_.progress = progress
    job_.stop = stop
    return job_.run()


class _Object(dict):
    """A JSON object, with the keys it gave more than once (``repeated``)."""

    repeated: list[str]


def _no_repeats(pairs: list[tuple[str, Any]]) -> _Object:
    out = _Object()
    out.repeated = []
    for k, v in pairs:
        if k in out:
            out.repeated.append(k)
        out[k] = v
    return out


def parse_batch_line(line: str, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """A batch line: a PBN deal, or a JSON object ``{"deal": …, option: value, …}``;
    its keys (``all_seats`` or ``all-seats``) override ``defaults`` (the command-line
    options), and a key set to null clears its option. An empty text is refused: read as
    "not given", it would answer another question."""
    t = line.strip()
    job = {k: v for k, v in defaults.items() if v is not None}
    if t.startswith("[") and not PBN_DEAL_TAG.fullmatch(t):
        # (JSON, but not an object; a quoted PBN deal is read as one)
        raise BarbuError("a job is a PBN deal (or a PBN file's [Deal \"...\"] line) or a "
                         "JSON object {\"deal\": ...}, not a JSON list or another tag")
    if t.startswith("{"):
        try:
            # (a key twice, {"contract": "no-king", "contract": "no-queens"}, would
            # silently answer for the last one)
            obj = json.loads(t, object_pairs_hook=_no_repeats)
        except json.JSONDecodeError as e:
            raise BarbuError(f"bad JSON ({e.msg})") from None
        except RecursionError:
            raise BarbuError("bad JSON (nested too deeply)") from None
        if not isinstance(obj, dict):
            raise BarbuError("a job must be a JSON object")
        if obj.repeated:  # (a repeat inside a value fails as a bad value of that option)
            raise BarbuError(f"option {obj.repeated[0]!r} given twice")
        seen: set[str] = set()
        for k, v in obj.items():
            key = k.replace("-", "_")  # all-seats as on the command line, or all_seats
            if key not in JOB_KEYS:
                key = k  # (an unknown key is named as written)
            if key in seen:
                raise BarbuError(f"option {k!r} given twice")
            seen.add(key)
            if isinstance(v, str) and not v.strip():
                raise BarbuError(f"empty {k!r}: give a value, or leave the key out "
                                 "(null clears the command line's)")
            if v is None:
                job.pop(key, None)
            else:
                job[key] = v
    else:
        job["deal"] = t
    return job


def _excerpt(message: str, most: int = 400) -> str:
    """An error that quotes a huge line, cut to its start.

    >>> _excerpt("x" * 500, 10)
    'xxxxxxxxxx… (500 characters)'
    """
    return message if len(message) <= most else f"{message[:most]}… ({len(message)} characters)"


#: a batch job's key for its PBN game's ``[Board]`` label (``analyzer.batch``): not a
#: string, so that no JSON job can give it; echoed as the result's ``"board"``
PBN_BOARD = ("pbn", "board")


def batch_worker(item: tuple[int, dict[str, Any]]) -> dict[str, Any]:
    """Solve one batch job; errors become ``{"line": n, "error": message}``. A job read
    from a PBN game with a ``[Board]`` tag answers with its ``"board"`` too."""
    lineno, job = item
    if isinstance(job, BarbuError):  # the line itself could not be read as a job
        return {"line": lineno, "error": _excerpt(str(job))}
    job = dict(job)
    board = job.pop(PBN_BOARD, None)
    where: dict[str, Any] = {"line": lineno} if board is None else {"line": lineno,
                                                                    "board": board}
    try:
        out = solve_job(job)
    except BarbuError as e:
        return {**where, "error": _excerpt(str(e))}
    except Exception as e:  # a defect: that line's error, not the whole batch's end
        return {**where, "error": f"internal error ({type(e).__name__}: {e}); "
                                  "please report it"}
    out.update(where)
    return out


__all__ = ["solve_job", "Job", "parse_position", "parse_cards", "parse_batch_line",
           "batch_worker", "PBN_BOARD", "JOB_KEYS", "Deal"]

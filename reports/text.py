"""Human-readable text for solve results (the JSON shapes of :mod:`analyzer.jobs`).

Functions return strings; only ``cli.py`` prints.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def number_text(v: Any, places: int | None = None, sign: bool = False) -> str:
    """A number for people: integers as they are; other numbers in plain decimals (never
    ``2e-05``), rounded half away from zero to ``places`` when given, never ``-0``; a
    ``"a/b"`` fraction as it is; ``+`` before positive numbers with ``sign``.

    >>> number_text(-2e-05), number_text(13.125, 2, sign=True), number_text(-0.0001, 2)
    ('-0.00002', '+13.13', '0.00')
    >>> number_text(7), number_text(7, 2, sign=True), number_text(3.0, 2), number_text("-1/3")
    ('7', '+7', '3.00', '-1/3')
    """
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if isinstance(v, (int, Fraction)) and not isinstance(v, bool) and \
            Fraction(v).denominator == 1:
        d = Decimal(int(v))  # exact integers print as such
    else:
        d = (Decimal(v.numerator) / Decimal(v.denominator) if isinstance(v, Fraction)
             else Decimal(repr(float(v))))
        if places is not None:
            d = d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
        elif d == d.to_integral_value():
            d = d.quantize(Decimal(1))
    if d == 0:
        d = abs(d)
    t = format(d, "f")
    return "+" + t if sign and d > 0 else t


def _num(v: Any) -> str:
    return number_text(v)


def option_label(row: dict[str, Any]) -> str:
    """``trumps ♥``, ``dominoes from 7``, ``no-king``."""
    label = row["contract"]
    if row.get("trump"):
        label += f" {SUIT_SYMBOL[row['trump']]}"
    if row.get("rank"):
        label += f" from {row['rank'].replace('T', '10')}"
    return label


def _grid(head: list[str], rows: list[list[str]], left: int = 1) -> str:
    """A plain text table; the first ``left`` columns left-aligned, the rest right."""
    widths = [max(len(head[i]), *(len(r[i]) for r in rows)) if rows else len(head[i])
              for i in range(len(head))]
    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i >= left else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in rows])


#: Where a hand is over before any card (No King with the K♥ out of play).
_OVER = "no card to play: the hand is over"


def render_solve(res: dict[str, Any]) -> str:
    """Text for one ``solve_job`` result."""
    out = [f"deal      {res['deal']}", f"rules     {res['rules']}",
           f"declarer  {res['declarer']}"]
    if "first" in res:  # Dominoes: the seat that plays first (also its "leader")
        out.append(f"first     {res['first']}")
    elif "leader" in res:
        out.append(f"leader    {res['leader']}")
    if "trick" in res:
        out.append(f"trick     {' '.join(res['trick'])}")
    if "layout" in res:
        out.append(f"layout    {res['layout']}")
    if "out" in res:
        out.append(f"out       {res['out']} (in the order they went out)")
    if "time_limit" in res:
        # (only the line of play or the review is open)
        cut = res.get("value") is not None and ("play" in res or "review" in res)
        what = "the line of play" if "play" in res else "the review"
        out.append(f"time limit {number_text(res['time_limit'])} s" + (
            "" if not res.get("timed_out") else
            f" (reached: {what} is cut short)" if cut else
            " (reached: where a search ran out, the bounds it proved)"))
    if res.get("interrupted"):
        out.append("stopped early on request: where a search was cut short, the bounds "
                   "it proved")
    if "rows" in res:
        rows = res["rows"]
        seats = sorted({r["seat"] for r in rows}, key="NESW".index)
        out.append("")
        if len(seats) == 1:
            out.append(f"guaranteed value of {seats[0]} (the other three play against him), "
                       "best first:")
            ordered = sorted(rows, key=lambda r: -_middle(r))
            best = res.get("best")
            body = [[option_label(r), _value_text(r),
                     "<- best" if best and _same(r, best) else ""] for r in ordered]
            out.append(_grid(["option", "value", ""], body))
            if best is None:
                out.append("the best option is not known: the bounds leave it open")
        else:
            by: dict[str, dict[str, Any]] = {}
            for r in rows:
                by.setdefault(option_label(r), {})[r["seat"]] = r
            body = [[k] + [_value_text(v[s]) for s in seats] for k, v in by.items()]
            out.append("guaranteed value of each seat:")
            out.append(_grid(["option"] + seats, body))
        return "\n".join(out)
    label = option_label(res)
    out.append(f"contract  {label}")
    if "values" in res:
        out.append("")
        out.append("guaranteed value of each seat:")
        bounds = res.get("bounds", {})
        out.append(_grid(["seat", "value"], [
            [s, _value_text({"value": v, "bounds": bounds.get(s)})]
            for s, v in res["values"].items()]))
        if "review" in res:
            out.extend(_review_text(res, None))
        return "\n".join(out)
    who = f"side {res['side']}" if "side" in res else f"seat {res['seat']}"
    out.append("")
    if "bet" in res:
        x, y = res["seat"], res["bet"]
        who = f"{x}'s bet against {y}"
        ends = [_value_text({"value": v, "bounds": b}) for v, b in
                zip(res["bracket"], res.get("bracket_bounds", [None, None]))]
        out.append(f"{x}'s bet against {y} (his score minus {y}'s, the other three against "
                   f"him): {x} guarantees {ends[0]}, {y} holds it to {ends[1]}")
        lo, hi = res["bracket"]
        if lo is None or hi is None:
            out.append("the bet's bracket: not known, a search was cut short")
        else:
            out.append(f"the bet's bracket [{_num(lo)}, {_num(hi)}]: "
                       + _bet_verdict(x, y, _to_float(lo), _to_float(hi)))
    else:
        out.append(f"guaranteed value of {who}: {_value_text(res)}")
    if "play" in res:
        out.append("")
        done = res.get("play_complete")
        if not done and not res["play"]:
            out.append("no line of play: the search was cut short before its first card")
            return "\n".join(out)
        if not res["play"]:  # (nothing left to score: No King's king out)
            out.append(_OVER)
        else:
            out.append("a line of perfect play (every card keeps the value; others may "
                       "too)" + (":" if done else ", cut short:"))
            if "seat" in res["play"][0]:  # Dominoes: a move a turn
                moves = [f"{m['seat']} {m['card']}" for m in res["play"]]
                out.extend("  " + ", ".join(moves[i:i + 8])
                           for i in range(0, len(moves), 8))
            else:
                out.append(_grid(["trick", "leader", "cards", "won by"], left=4, rows=[
                    [str(i), t["leader"], " ".join(t["cards"]), t["winner"] or "-"]
                    for i, t in enumerate(res["play"], 1)]))
            out.append(("raw points along it: " if done else "raw points so far: ")
                       + "  ".join(f"{k} {_num(v)}"
                                   for k, v in res["play_points"].items()))
    if "review" in res:
        out.extend(_review_text(res, who))
    if "cards" in res and not res["cards"]:  # (nothing left to score: No King's king out)
        out += ["", _OVER]
    elif "cards" in res:
        out.append("")
        out.append(f"each legal card of {res['to_move']} (guaranteed value of {who} after "
                   "it):")
        out.append(_grid(["card", "value"], [[c["card"], _value_text(c)]
                                             for c in res["cards"]]))
    return "\n".join(out)


def _review_text(res: dict[str, Any], who: str | None) -> list[str]:
    """The play under review: each trick (Dominoes: each move) with the value after it,
    a card that changed the value starred, then each change with a card that kept it.
    ``who`` None: each card judged by its player's own guaranteed value (``--all-seats``;
    no value column: the values are each player's own)."""
    rv = res["review"]
    done = res.get("review_complete")
    out = [""]
    if not rv:
        out.append("no review: the search was cut short before the first card"
                   if not done else "no review")
        return out
    tricks = "trick" in rv[0]
    cut = "" if done else " (cut short)"
    if who is None:
        out.append(f"the play reviewed{cut}: each card judged by its player's own "
                   "guaranteed value")
        out.append("(* a card that lowered it against perfect play):")
    else:
        out.append(f"the play reviewed{cut}: guaranteed value of {who} after each "
                   f"{'trick' if tricks else 'move'}")
        out.append("(* a card that changed it against perfect play):")
    if tricks:
        rows: list[list[str]] = []
        for e in rv:
            if not rows and res.get("trick"):  # (the trick in progress: its cards so far)
                rows.append([str(e["trick"]), res["leader"],
                             "(" + " ".join(res["trick"]) + ")", ""])
            elif not rows or rows[-1][0] != str(e["trick"]):
                rows.append([str(e["trick"]), e["seat"], "", ""])
            r = rows[-1]
            r[2] = (r[2] + " " if r[2] else "") + e["card"] + ("*" if e["change"] else "")
            r[3] = _num(e["value"])
        if who is None:
            out.append(_grid(["trick", "leader", "cards"], [r[:3] for r in rows], left=3))
        else:
            out.append(_grid(["trick", "leader", "cards", "value after"], rows, left=3))
    else:  # Dominoes: a move a turn
        moves = [f"{e['seat']} {e['card']}" + ("*" if e["change"] else "") for e in rv]
        out.extend("  " + ", ".join(moves[i:i + 8]) for i in range(0, len(moves), 8))
        if who is not None:
            out.append(f"value after the last move: {_num(rv[-1]['value'])}")
    if "review_points" in res:
        out.append("raw points taken along it: "
                   + "  ".join(f"{k} {_num(v)}" for k, v in res["review_points"].items()))
    changes = [e for e in rv if e["change"]]
    if not changes:
        out.append("no card changed the value: every card was as good as perfect play"
                   if done else "none of the cards reviewed before the cut changed the "
                   "value")
        return out
    if who is None:
        cost = {x: sum((Fraction(str(e["change"])) for e in changes if e["seat"] == x),
                       Fraction(0)) for x in "NESW"}
        out.append("what each seat's cards cost him: "
                   + "  ".join(f"{x} {_num(v)}" for x, v in cost.items()) + "; each change:")
    else:
        mine = set(res.get("side") or res.get("seat") or "")
        lost = sum(Fraction(str(e["change"])) for e in changes if e["seat"] in mine)
        given = sum(Fraction(str(e["change"])) for e in changes if e["seat"] not in mine)
        out.append(f"in all: {_signed(lost)} from {who}'s cards, {_signed(given)} from "
                   "the others'; each change:")
    for e in rv:
        if e["change"]:
            at = f"trick {e['trick']}, " if "trick" in e else ""
            was = Fraction(str(e["value"])) - Fraction(str(e["change"]))
            kept = f"; {e['instead']} kept {_num(was)}" if e["instead"] else ""
            whose = f"for {who}" if who is not None else f"for {e['seat']}"
            out.append(f"  {at}{e['seat']} {e['card']}: {_num(was)} -> "
                       f"{_num(e['value'])} ({_signed(e['change'])} {whose}{kept})")
    return out


def _signed(x: Any) -> str:
    """A change with its sign.

    >>> _signed(6), _signed(-2), _signed("-1/3"), _signed(0)
    ('+6', '-2', '-1/3', '0')
    """
    t = _num(x)
    return t if t.startswith("-") or t == "0" else "+" + t


def _value_text(entry: dict[str, Any]) -> str:
    """An entry's ``"value"``, or its ``"bounds"`` where a time limit stopped the search.

    >>> _value_text({"value": -4}), _value_text({"value": None, "bounds": [-8, "-1/3"]})
    ('-4', 'between -8 and -1/3')
    """
    if entry.get("value") is None and entry.get("bounds") is not None:
        low, high = entry["bounds"]
        return f"between {_num(low)} and {_num(high)}"
    return _num(entry.get("value"))


def _middle(entry: dict[str, Any]) -> float:
    """Where an entry sorts: its value, or the middle of its bounds."""
    if entry.get("value") is None and entry.get("bounds") is not None:
        return sum(_to_float(b) for b in entry["bounds"]) / 2
    return _to_float(entry["value"])


def _bet_verdict(x: str, y: str, lo: float, hi: float) -> str:
    """Who wins a bet whose outcome (x's score minus y's) lies in [lo, hi].

    >>> print(_bet_verdict("N", "S", 0, 8))
    N cannot lose it; the two other players' play decides whether he wins it
    >>> print(_bet_verdict("N", "S", -3, -1))
    S wins it whatever the others do
    >>> print(_bet_verdict("N", "S", -3, 0))
    S cannot lose it; the two other players' play decides whether he wins it
    >>> print(_bet_verdict("N", "S", 0, 0))
    a tie whatever the others do
    >>> print(_bet_verdict("N", "S", 1, 3))
    N wins it whatever the others do
    """
    if lo > 0:
        return f"{x} wins it whatever the others do"
    if hi < 0:
        return f"{y} wins it whatever the others do"
    if lo == hi == 0:
        return "a tie whatever the others do"
    if lo == 0:
        return f"{x} cannot lose it; the two other players' play decides whether he wins it"
    if hi == 0:
        return f"{y} cannot lose it; the two other players' play decides whether he wins it"
    return "the two other players' play decides who wins it"


def _to_float(v: Any) -> float:
    if isinstance(v, str) and "/" in v:
        a, b = v.split("/")
        return int(a) / int(b)
    return float(v)


def _same(r: dict[str, Any], best: dict[str, Any]) -> bool:
    return all(r.get(k) == best.get(k) for k in ("contract", "trump", "rank", "seat"))


def render_rules_list(rows: list[tuple[str, str, str]]) -> str:
    return _grid(["preset", "where", "description"], [list(r) for r in rows], left=3)


def render_stats_summary(summary: dict[str, Any]) -> str:
    """A few lines about a finished ``barbu stats`` run."""
    rows = summary.get("rows", {})
    lines = [f"dataset   {summary.get('out')}",
             f"rules     {summary.get('rules')}   seed {summary.get('seed')}   "
             f"deals {summary.get('deals')}",
             f"chunks    {summary.get('chunks')} ({summary.get('chunks_solved')} solved now, "
             f"{summary.get('chunks_resumed')} kept from before)",
             f"backend   {summary.get('backend')} x {summary.get('workers')}",
             "rows      " + ", ".join(f"{k} {v}" for k, v in rows.items())]
    secs = summary.get("seconds")
    if secs is not None:
        dpm = summary.get("deals_per_minute") or 0.0
        rate = f"{dpm:,.0f}" if dpm >= 100 else f"{dpm:.3g}"
        lines.append(f"time      {secs:.1f} s ({rate} deals/min)")
    return "\n".join(lines)


def search_status(nodes: int, low: Any, high: Any) -> str:
    """A search in progress, for a progress bar: what its finished tests proved and the
    nodes searched so far.

    >>> search_status(25_333_351, -14, -8), search_status(812_400, Fraction(-1, 3), 2)
    ('between -14 and -8, 25.3 M nodes', 'between -1/3 and 2, 812,400 nodes')
    """
    from analyzer.doubling import fmt

    count = f"{nodes / 1e6:.1f} M" if nodes >= 1e6 else f"{nodes:,}"
    return f"between {fmt(Fraction(low))} and {fmt(Fraction(high))}, {count} nodes"


def under_way_label(under: dict[int, tuple[int, int]]) -> str:
    """The solves made in the chunks of a ``barbu stats`` run under way, for its bar
    (empty when none is).

    >>> under_way_label({3: (41, 156), 4: (12, 150)})
    'under way: 53/306 solves'
    >>> under_way_label({})
    ''
    """
    if not under:
        return ""
    done = sum(d for d, _ in under.values())
    total = sum(t for _, t in under.values())
    return f"under way: {done}/{total} solves"


def rate_label(done: int, seconds: float, what: str) -> str:
    """``"12.5 deals/min"`` for a progress bar (empty before anything is done).

    >>> rate_label(5, 30.0, "deals")
    '10.0 deals/min'
    """
    if done <= 0 or seconds <= 0:
        return ""
    return f"{60 * done / seconds:.1f} {what}/min"

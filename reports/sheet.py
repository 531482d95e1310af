"""Human text for a scored match sheet (``barbu score`` without ``--json``).

:func:`render_match` returns the whole sheet as one string (it never prints): a block per
declarer run with, for each hand, the contract, the doubles, raw and net results, running
net totals, source 001's "points above the lowest" entry, the doubles of the declarer so
far in his run (the quota, shown, never blocking) and the total check; then the totals
and every note (checks skipped, hands not played).
"""

from __future__ import annotations

import unicodedata

from fractions import Fraction
from typing import Sequence

from analyzer.cards import Suit
from reports.text import SUIT_SYMBOL
from analyzer.doubling import SEAT_NAMES, fmt
from analyzer.match import HandResult, MatchResult, RunSummary

GROUPS = ("raw", "net", "total", "above lowest")


def _contract_cell(h: HandResult) -> str:
    extra = ""
    if h.trump is not None:
        extra = " " + SUIT_SYMBOL[Suit.parse(h.trump).name]
    elif h.rank is not None:
        extra = " from " + h.rank
    return h.contract + extra


def _check_cell(h: HandResult) -> str:
    st = h.settlement
    if st.method == "split":
        return "ok (split)"
    if st.check == "skipped":
        return "skipped*"
    return st.check


def _quota_cell(h: HandResult) -> str:
    return " ".join(f"{SEAT_NAMES[p]}{h.quota[p]}" for p in range(4) if p != h.declarer)


def _run_line(r: RunSummary, players: Sequence[str]) -> str:
    counts = ", ".join(f"{SEAT_NAMES[p]} {r.doubles_of_declarer[p]}"
                       for p in range(4) if p != r.declarer)
    state = "" if r.complete else f" (run in progress: {r.hands} of {r.length} hands)"
    if r.quota <= 0:
        return f"  Doubles of {SEAT_NAMES[r.declarer]} this run: {counts}{state}"
    short = r.short()
    verdict = ("quota met by all" if not short else "short: " + ", ".join(
        f"{SEAT_NAMES[p]} by {k}" for p, k in short.items()))
    noun = "double" if r.quota == 1 else "doubles"
    return (f"  Quota ({r.quota} {noun} of {SEAT_NAMES[r.declarer]} by each player): "
            f"{counts}; {verdict}{state}")


def _table(rows: list[list[str]], head: list[str], right: set[int]) -> list[str]:
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]

    def line(cells: list[str]) -> str:
        out = []
        for i, (c, w) in enumerate(zip(cells, widths)):
            out.append(c.rjust(w) if i in right else c.ljust(w))
        return "  ".join(out).rstrip()

    return [line(head)] + [line(r) for r in rows]


def _clean(text: object) -> str:
    """A sheet's own text (title, players, notes) with control characters and line
    breaks written as escapes: a newline in a player's name must not split a line of the
    sheet. Other characters print as they are (a no-break space before a French colon, a
    joiner inside a Persian word or an emoji).

    >>> _clean("A\\nB\\x00 C\\u2028"), _clean("Tournoi\\u00a0: J\\u00e9r\\u00f4me")
    ('A\\\\nB\\\\x00 C\\\\u2028', 'Tournoi\\xa0: Jérôme')
    """
    return "".join(ch.encode("unicode_escape").decode("ascii")
                   if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch
                   for ch in str(text))


def render_match(result: MatchResult) -> str:
    """The match sheet as text (one string, lines separated by ``\\n``).

    Parameters
    ----------
    result : the output of :func:`analyzer.match.score_match`.
    """
    r = result
    names = [_clean(n) for n in r.players]
    named = any(n != SEAT_NAMES[p] for p, n in enumerate(names))

    def who(p: int) -> str:
        return f"{SEAT_NAMES[p]} ({names[p]})" if named else SEAT_NAMES[p]

    out: list[str] = []
    title = _clean(r.title or r.path)
    out.append(f"{title}: rules {r.rules.name}, {len(r.hands)} of {r.rules.hands} hands"
               + ("" if r.complete else " (match in progress)"))
    if named:
        out.append("Players: " + ", ".join(f"{SEAT_NAMES[p]} {names[p]}" for p in range(4)))
    seat_cols = list(SEAT_NAMES)
    # (no doubles column, count or quota where the rules allow no doubling)
    dbl = r.rules.doubling
    lead = 3 if dbl else 2
    head = ["#", "contract", "doubles"][:lead]
    for _ in GROUPS:
        head += seat_cols
    head += ["doubles of decl.", "check"] if dbl else ["check"]
    right = set(range(lead, lead + 4 * len(GROUPS))) | {0}

    notes: list[str] = []
    for run in r.runs:
        hands = [h for h in r.hands if h.run == run.run]
        out.append("")
        out.append(f"Run {run.run}: declarer {who(run.declarer)}")
        rows = []
        for h in hands:
            row = [str(h.number), _contract_cell(h)]
            row += [h.doubles.text(first=(h.declarer + 1) % 4)] if dbl else []
            row += [fmt(x) for x in h.raw]
            row += [fmt(x, sign=True) for x in h.net]
            row += [fmt(x, sign=True) for x in h.totals]
            row += [fmt(x) for x in h.entry]
            row += [_quota_cell(h), _check_cell(h)] if dbl else [_check_cell(h)]
            rows.append(row)
            if h.settlement.note:
                notes.append(f"hand {h.number} ({h.contract}): {h.settlement.note}")
            if h.note:
                notes.append(f"hand {h.number}: {_clean(h.note)}")
        hd = _fit_groups(rows, head, lead)
        out.append("  " + _group_line(rows, hd, lead))
        out += ["  " + x for x in _table(rows, hd, right)]
        if dbl:
            out.append(_run_line(run, names))
        elif not run.complete:
            out.append(f"  (run in progress: {run.hands} of {run.length} hands)")

    if r.hands:
        out.append("")
        out.append("Totals (net):          " + _seats(r.totals, sign=True))
        out.append("Totals (above lowest): " + _seats(r.sheet_totals))
        lead = r.leaders
        word = "Winner" if r.complete else "Leader"
        if len(lead) > 1:
            word += "s (tie)"
        out.append(f"{word}: " + ", ".join(who(p) for p in lead))
    if notes:
        out.append("")
        out.append("Notes:")
        out += ["  " + n for n in notes]
    return "\n".join(out) + "\n"


def _fit_groups(rows: list[list[str]], head: list[str], lead: int = 3) -> list[str]:
    """``head`` with a group's seat titles widened where its four columns are narrower than
    the group's title ("above lowest" over four one-digit columns), a dash left at each
    end of the title even where a column's cells are wider than its seat letter. The
    groups start at column ``lead``.

    >>> row = ["1", "c", "-"] + ["0"] * 16 + ["", "ok"]
    >>> row[16] = "10"
    >>> hd = _fit_groups([row], ["#", "contract", "doubles"] + list("NESW") * 4 + ["q", "c"])
    >>> _group_line([row], hd)[-15:]
    ' -above lowest-'
    """
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    hd = list(head)
    for k, g in enumerate(GROUPS):
        i = lead + 4 * k
        short = len(g) + 2 - (sum(widths[i:i + 4]) + 2 * 3)
        for j in range(4):  # spread over the four columns
            extra = max(0, short) // 4 + (j < max(0, short) % 4)
            hd[i + j] = hd[i + j].rjust(widths[i + j] + extra)  # (the column's width)
    return hd


def _group_line(rows: list[list[str]], head: list[str], lead: int = 3) -> str:
    """Titles ``raw``, ``net``, … centred over their four seat columns (from column
    ``lead``)."""
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    parts = [" " * (sum(widths[:lead]) + 2 * lead)]
    i = lead
    for g in GROUPS:
        span = sum(widths[i:i + 4]) + 2 * 3
        parts.append(g.center(span, "-")[:span] + "  ")
        i += 4
    return "".join(parts).rstrip()


def _seats(xs: Sequence[Fraction], sign: bool = False) -> str:
    return "  ".join(f"{SEAT_NAMES[p]} {fmt(x, sign=sign)}" for p, x in enumerate(xs))


__all__ = ["render_match"]

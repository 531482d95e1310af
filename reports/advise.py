"""Human-readable text for :func:`analyzer.advise.advise` results.

The recommendation comes first, then every option ranked (mean, standard error, 95%
interval, range, chance of being best), then the doubling brackets and the declarer's net
results. Noise is shown, never hidden: a recommendation that is not separated from the
next option at 95% says so. Functions return strings; only ``cli.py`` prints.
"""

from __future__ import annotations

import re
from typing import Any

from reports.text import _grid, number_text, option_label

__all__ = ["render_advice", "advice_label"]

#: ``trumps ♠``, ``dominoes from 7``, ``no-king``: the same labels as ``barbu solve``'s
advice_label = option_label


def _symbols(text: str, options: list[dict[str, Any]]) -> str:
    """The JSON's reason names options as ``trumps S``; the table's way is ``trumps ♠``.

    >>> _symbols("trumps S: ahead of dominoes T", [
    ...     {"contract": "trumps", "trump": "S"}, {"contract": "dominoes", "rank": "T"}])
    'trumps ♠: ahead of dominoes from 10'
    """
    names = {}
    for o in options:
        extra = o.get("trump") or o.get("rank")
        if extra:
            names[f"{o['contract']} {extra}"] = advice_label(o)
    if not names:
        return text
    pattern = "|".join(re.escape(k) for k in sorted(names, key=len, reverse=True))
    return re.sub(rf"(?<![\w-])({pattern})(?![\w-])", lambda m: names[m.group(1)], text)


def _n(v: Any, sign: bool = False) -> str:
    return number_text(v, 2, sign)


def _pct(p: Any) -> str:
    return "-" if p is None else f"{100 * float(p):.0f}%"


def render_advice(d: dict[str, Any]) -> str:
    """Text for one advice result (the JSON shape of :func:`analyzer.advise.advise`).

    >>> d = {"rules": "tournament", "seat": "N", "hand": "AKQJT98765432...",
    ...      "remaining": ["trumps"], "samples": 2, "seed": 1, "auto": False,
    ...      "options": [{"contract": "trumps", "trump": "S", "rank": None, "mean": 65,
    ...                   "stderr": 0.0, "ci95": [65, 65], "min": 65, "max": 65,
    ...                   "p_best": 1.0, "future": None, "score": 65,
    ...                   "distribution": [{"value": 65, "count": 2}]}],
    ...      "recommendation": {"contract": "trumps", "trump": "S", "rank": None,
    ...                         "mean": 65, "score": 65, "separated": True,
    ...                         "reason": "trumps S: mean guaranteed +65.00"},
    ...      "doubling": [], "declarer_net": [], "notes": []}
    >>> print(render_advice(d).splitlines()[0])
    advice    trumps ♠  (mean +65, clear at 95%)
    """
    rec = d["recommendation"]
    sep = "clear at 95%" if rec.get("separated") else "NOT clear at 95%: sample more"
    if rec.get("forced"):
        sep = "forced: the preset's fixed order"
    elif rec.get("separated") is None:
        sep = ("tied with every other option on every deal: either will do"
               if rec.get("tied_with") else "the only option")
    out = [f"advice    {advice_label(rec)}  (mean {_n(rec.get('mean'), True)}, {sep})",
           f"why       {_symbols(rec.get('reason', ''), d.get('options', []))}",
           f"hand      {d['seat']}: {d['hand']}",
           f"rules     {d['rules']}    remaining: {', '.join(d['remaining'])}",
           f"samples   {d['samples']}{' (auto)' if d.get('auto') else ''}"
           f"{' (race)' if d.get('race') else ''}    seed {d['seed']}"
           + (f"    time limit {d['time_limit']:g} s"
              f"{' (reached)' if d.get('timed_out') else ''}"
              if d.get("time_limit") is not None else "")
           + ("    stopped early on request" if d.get("interrupted") else "")]
    if d.get("constraints"):
        c = d["constraints"]
        parts = [f"{s} holds {' '.join(v)}" for s, v in c.get("known", {}).items()]
        parts += [f"{s} void in {v}" for s, v in c.get("voids", {}).items()]
        parts += [f"{s} {su}: {lo}-{hi}" for s, t in c.get("lengths", {}).items()
                  for su, (lo, hi) in t.items()]
        out.append("knowing   " + "; ".join(parts))
    out.append("")
    out.append(f"options, best first (guaranteed value of {d['seat']}; ± is one standard "
               "error):")
    has_future = any(o.get("future") is not None for o in d["options"])
    # (race: an option that stopped early was solved on fewer deals)
    short = any(o.get("samples", d["samples"]) < d["samples"] for o in d["options"])
    head = ["option", "mean", "±", "95% interval", "min", "max", "P(best)"]
    if short:
        head += ["deals"]
    if has_future:
        head += ["kept", "score"]
    body = []
    for o in d["options"]:
        ci = o.get("ci95")
        row = [advice_label(o), _n(o["mean"], True), _n(o.get("stderr")),
               "-" if ci is None else f"{_n(ci[0], True)} .. {_n(ci[1], True)}",
               _n(o["min"], True), _n(o["max"], True), _pct(o.get("p_best"))]
        if short:
            row += [str(o.get("samples", d["samples"]))]
        if has_future:
            row += [_n(o.get("future"), True), _n(o.get("score"), True)]
        body.append(row)
    out.append(_grid(head, body))
    if has_future:
        out.append("kept: expected value of the other remaining contracts on later hands "
                   "(best order); score = mean + kept; P(best) compares scores deal by deal")
    # one table per option (--doubling all gives several, in the options' order)
    groups: list[list[dict[str, Any]]] = []
    for e in d.get("doubling") or []:
        if groups and advice_label(groups[-1][0]) == advice_label(e):
            groups[-1].append(e)
        else:
            groups.append([e])
    for group in groups:
        out.append("")
        out.append(f"doubling ({advice_label(group[0])}{_first(group[0], d)}): "
                   f"s_{d['seat']} - s_Y with perfect play lies in [low, high]")
        head = ["opponent", "low", "high", f"{d['seat']} sure", "Y sure", "double?",
                "redouble?"]
        body = [[e["opponent"], _n(e["low"], True), _n(e["high"], True),
                 _pct(e.get("p_declarer_wins")), _pct(e.get("p_opponent_wins")),
                 "yes" if e["double"] else "no",
                 "not allowed" if e.get("redouble_allowed") is False
                 else "yes" if e["redouble"] else "no"]
                for e in group]
        out.append(_grid(head, body))
        for e in group:
            out.append(f"  {e['opponent']}: {e['double_reason']}; {e['redouble_reason']}")
            if e.get("note"):
                out.append(f"     {e['note']}")
    for net in d.get("declarer_net") or []:
        out.append("")
        out.append(f"{d['seat']}'s guaranteed net result ({advice_label(net)}"
                   f"{_first(net, d)}): "
                   f"no doubles {_n(net.get('no_doubles'), True)}, "
                   f"all double him {_n(net.get('all_double'), True)}, "
                   f"all redoubled {_n(net.get('all_double_redoubled'), True)}"
                   + ("" if net.get("all_double_redoubled") is not None
                      or net.get("all_double") is None else " (no redoubles)"))
        if net.get("split_note"):
            out.append(f"  {net['split_note']} (split - play = "
                       f"{_n(net.get('split_vs_play'), True)})")
        if net.get("note"):
            out.append(f"  {net['note']}")
    if d.get("notes"):
        out.append("")
        out.extend(f"note: {x}" for x in d["notes"])
    return "\n".join(out)


def _first(e: dict[str, Any], d: dict[str, Any]) -> str:
    """", first 3 of 40 deals" where a doubling figure covers fewer deals than the
    options (``--time-limit`` came first), else nothing."""
    m, n = e.get("samples"), d.get("samples")
    if m is None or n is None or m >= n:
        return ""
    return f", first {m} of {n} deals" if m > 1 else f", first deal of {n}"

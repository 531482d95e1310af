"""The text of `barbu solve` and the stats summary read back against their JSON: each
figure in its place, under its heading (a mutation audit swapped seats, columns and ends
of a bet, and printed the position's value on every card, and no test saw it)."""

from __future__ import annotations

import pytest

from analyzer.jobs import solve_job
from reports.text import option_label, render_solve, render_stats_summary
from tests.textgrid import grids, number

D32 = "N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"


def _solve(**job) -> tuple[dict, str]:
    res = solve_job(dict(deal=D32, rules="barbu-32", **job))
    return res, render_solve(res)


def _field(text: str, name: str) -> str:
    (line,) = [x for x in text.splitlines() if x.startswith(f"{name:<10}")]
    return line[10:]


def test_the_header_names_the_seats_of_the_job():
    res, text = _solve(contract="no-king", seat="E", leader="W")
    assert (_field(text, "declarer"), _field(text, "leader")) == ("N", "W")
    assert f"guaranteed value of seat E: {res['value']:g}" in text.splitlines()
    res, text = _solve(contract="no-king")
    assert "guaranteed value of seat N: 0" in text.splitlines()


def test_a_trick_in_progress_is_shown():
    res = solve_job(dict(deal="N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", rules="tournament",
                         contract="no-tricks", trick="SA,SQ"))
    assert _field(render_solve(res), "trick") == "SA SQ"


def test_a_bet_names_each_end_for_its_player():
    """N's bet against S in No King (his score minus S's): N makes sure of 0 at least,
    and S, playing his best, holds it to 8 (N clear of the king, S taking it)."""
    res, text = _solve(contract="no-king", bet="S")
    assert res["bracket"] == [0, 8]
    assert "N guarantees 0, S holds it to 8" in text
    assert "the bet's bracket [0, 8]: N cannot lose it" in text


def test_every_seat_grid_puts_each_value_under_its_seat():
    res, text = _solve(all_seats=True)
    (t,) = grids(text)
    assert t.head == ["option", "N", "E", "S", "W"]
    want = {}
    for r in res["rows"]:
        want.setdefault(option_label(r), {})[r["seat"]] = r["value"]
    assert [r[0] for r in t.rows] == list(want)
    for row in t.rows:
        for seat, cell in zip("NESW", row[1:]):
            assert number(cell) == float(want[row[0]][seat]), (row, seat)
    # this deal tells the seats apart: N keeps out of the king, the others cannot
    assert list(t.row("no-king").values()) == ["no-king", "0", "-8", "-8", "-8"]


def test_one_contract_for_every_seat():
    res, text = _solve(contract="no-king", all_seats=True)
    (t,) = grids(text)
    assert t.head == ["seat", "value"]
    assert {r[0]: number(r[1]) for r in t.rows} == {s: float(v) for s, v in
                                                    res["values"].items()}
    assert t.rows[0] == ["N", "0"] and t.rows[3] == ["W", "-8"]


def test_each_card_shows_its_own_value():
    """N on lead in No King: he keeps out of the king with DK or DA only (0), any other
    lead lets the others give it to him (-8)."""
    res, text = _solve(contract="no-king", cards=True)
    (t,) = grids(text)
    assert [(r[0], number(r[1])) for r in t.rows] == [
        (c["card"], float(c["value"])) for c in res["cards"]]
    assert {r[0] for r in t.rows if r[1] == "0"} == {"DK", "DA"}


def test_the_stats_summary_counts_solved_and_kept_chunks():
    text = render_stats_summary({"out": "ds", "rules": "barbu-32", "seed": 3, "deals": 5,
                                 "chunks": 3, "chunks_solved": 1, "chunks_resumed": 2,
                                 "backend": "serial", "workers": 1, "rows": {"values": 9},
                                 "seconds": 2.0, "deals_per_minute": 30.0})
    assert "chunks    3 (1 solved now, 2 kept from before)" in text.splitlines()
    assert "time      2.0 s (30 deals/min)" in text.splitlines()


@pytest.mark.parametrize("v, shown", [(2.5, "2.5"), (-8, "-8"), ("5/2", "5/2")])
def test_values_print_as_given(v, shown):
    res = {"deal": "x", "rules": "r", "declarer": "N", "leader": "N", "contract": "c",
           "seat": "N", "value": v}
    assert render_solve(res).splitlines()[-1] == f"guaranteed value of seat N: {shown}"


def _bounded(res: dict) -> dict:
    """``res`` as a time limit would have left it had every trick search stopped with
    bounds one point either side of its value (Dominoes rows stay exact)."""
    out = dict(res, time_limit=0.5, timed_out=True)

    def cut(entry: dict) -> dict:
        v = entry["value"]
        return dict(entry, value=None, bounds=[v - 1, v + 1])
    if "rows" in res:
        out["rows"] = [r if r["contract"] == "dominoes" else cut(r) for r in res["rows"]]
        out["best"] = None
    if "values" in res:
        out["bounds"] = {s: [v - 1, v + 1] for s, v in res["values"].items() if s != "E"}
        out["values"] = {s: (v if s == "E" else None) for s, v in res["values"].items()}
    if "bracket" in res:
        lo, hi = res["bracket"]
        out.update(cut(res), bracket=[None, hi], bracket_bounds=[[lo - 1, lo + 1], [hi, hi]])
    elif "value" in res:
        out.update(cut(res))
    if "cards" in res:
        out["cards"] = [cut(c) if c["card"] == "DK" else c for c in res["cards"]]
    return out


def test_bounds_show_where_values_would():
    """Every shape with bounds in place of values (a time limit): "between a and b" in
    the value's place, the limit in the header, no best where none is proven, no verdict
    on a bet whose bracket is open."""
    res, _ = _solve(contract="no-king", seat="E")
    text = render_solve(_bounded(res))
    v = res["value"]
    assert f"guaranteed value of seat E: between {v - 1} and {v + 1}" in text
    assert "time limit 0.5 s (reached: where a search ran out" in text
    res, _ = _solve(contract="no-king", all_seats=True)
    (t,) = grids(render_solve(_bounded(res)))
    assert t.rows[1] == ["E", str(res["values"]["E"])]
    assert t.rows[0] == ["N", f"between {res['values']['N'] - 1} and {res['values']['N'] + 1}"]
    res, _ = _solve(contract="no-king", cards=True)
    (t,) = grids(render_solve(_bounded(res)))
    assert ["DK", "between -1 and 1"] in t.rows and ["DA", "0"] in t.rows
    res, _ = _solve(contract="no-king", bet="S")
    text = render_solve(_bounded(res))
    assert "N guarantees between -1 and 1, S holds it to 8" in text
    assert "the bet's bracket: not known" in text and "cannot lose" not in text
    res, _ = _solve()
    text = render_solve(_bounded(res))
    assert "the best option is not known" in text and "<- best" not in text
    (t,) = grids(text)
    nk = res["rows"][[r["contract"] for r in res["rows"]].index("no-king")]["value"]
    assert t.row("no-king")["value"] == f"between {nk - 1} and {nk + 1}"

"""The statistics report: summary tables on hand-made frames, figures on axes, the HTML /
Markdown / PNG files, a headless-Chromium screenshot, and one-line errors."""

from __future__ import annotations

import base64
import errno
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from matplotlib.figure import Figure
from polars.testing import assert_frame_equal

from analyzer import stats as S
from analyzer.errors import BarbuError, CannotWrite
from analyzer.rules import load_rules
from reports import figures as F
from reports import tables as T
from reports.html import build_report

ROOT = Path(__file__).resolve().parents[1]


def _values(rows):
    return pl.DataFrame(
        [dict(deal=d, declarer=p, contract=c, trump=t, rank=k, value=float(v),
              value_num=int(v), value_den=1) for d, p, c, t, k, v in rows],
        schema=S.VALUES_SCHEMA)


#: Two hands (deal 0 N, deal 0 E): No King, Trumps in two suits, Dominoes two ranks.
VALUES = _values([
    (0, "N", "no-king", None, None, -8), (0, "N", "trumps", "S", None, 10),
    (0, "N", "trumps", "H", None, 5), (0, "N", "dominoes", None, "7", 15),
    (0, "N", "dominoes", None, "A", 0),
    (0, "E", "no-king", None, None, 0), (0, "E", "trumps", "S", None, -0),
    (0, "E", "trumps", "H", None, 0), (0, "E", "dominoes", None, "7", 0),
    (0, "E", "dominoes", None, "A", 0),
])


def _features():
    rows = []
    for seat, ls, lh in (("N", 5, 1), ("E", 2, 3), ("S", 1, 2), ("W", 0, 2)):
        f = {k: 0 for k in S.FEATURES_SCHEMA}
        f.update(deal=0, seat=seat, hand="", len_s=ls, len_h=lh, hearts=lh, has_ha=False,
                 has_hk=False)
        rows.append(f)
    return pl.DataFrame(rows, schema=S.FEATURES_SCHEMA)


ORDER = ["no-king", "trumps", "dominoes"]


# ----------------------------------------------------------------------------- tables
def test_contract_values_take_the_best_option():
    cv = T.contract_values(VALUES)
    got = cv.filter(pl.col("declarer") == "N").sort("contract")
    assert got["contract"].to_list() == ["dominoes", "no-king", "trumps"]
    assert got["value"].to_list() == [15.0, -8.0, 10.0]


def test_value_summary():
    want = pl.DataFrame({"contract": ORDER, "hands": [2, 2, 2],
                         "mean": [-4.0, 5.0, 7.5], "std": [32 ** 0.5, 50 ** 0.5, 112.5 ** 0.5],
                         # quartiles interpolate linearly, as the box plot draws them
                         # (numpy's percentile); "nearest" put the table's q75 at 0
                         # where the box said -2
                         "min": [-8.0, 0.0, 0.0], "q25": [-6.0, 2.5, 3.75],
                         "median": [-4.0, 5.0, 7.5], "q75": [-2.0, 7.5, 11.25],
                         "max": [0.0, 10.0, 15.0]},
                        schema_overrides={"hands": pl.UInt32})
    assert_frame_equal(T.value_summary(VALUES, ORDER), want)


def test_best_contract_share_splits_ties():
    # N: dominoes 15 is best; E: all three contracts tie at 0 (1/3 each)
    want = pl.DataFrame({"contract": ORDER, "best": [1 / 3, 1 / 3, 4 / 3],
                         "share": [100 / 6, 100 / 6, 200 / 3]})
    assert_frame_equal(T.best_contract_share(VALUES, ORDER), want)


def test_value_by_trump_length():
    # N: spades (5 long) 10, hearts (1) 5; E: spades (2) 0, hearts (3) 0
    # (one hand a length: no spread, so no standard error, not a standard error of 0)
    want = pl.DataFrame({"trump_length": [1, 2, 3, 5], "n": [1, 1, 1, 1],
                         "mean": [5.0, 0.0, 0.0, 10.0], "stderr": [None] * 4},
                        schema_overrides={"n": pl.UInt32, "stderr": pl.Float64})
    assert_frame_equal(T.value_by_trump_length(VALUES, _features()), want)


def test_value_by_trump_length_spread_and_every_suit():
    """Two hands of one length worth 0 and 10: standard error sd / sqrt(n) = 5; a
    diamond and a club trump each counted by their own suit's length."""
    v = _values([(0, "N", "trumps", "S", None, 0), (1, "N", "trumps", "S", None, 10),
                 (2, "N", "trumps", "D", None, 20), (3, "N", "trumps", "C", None, 30)])
    rows = []
    for deal, (ls, lh, ld, lc) in enumerate(((5, 3, 3, 2), (5, 2, 3, 3), (3, 3, 6, 1),
                                             (3, 3, 0, 7))):
        f = {k: 0 for k in S.FEATURES_SCHEMA}
        f.update(deal=deal, seat="N", hand="", len_s=ls, len_h=lh, len_d=ld, len_c=lc,
                 has_ha=False, has_hk=False)
        rows.append(f)
    t = T.value_by_trump_length(v, pl.DataFrame(rows, schema=S.FEATURES_SCHEMA))
    assert t.rows() == [(5, 2, 5.0, 5.0), (6, 1, 20.0, None), (7, 1, 30.0, None)]


def test_value_by_feature_and_rank():
    t = T.value_by_feature(VALUES, _features())
    assert t.select("contract", "feature", "x", "mean").rows() == [
        ("no-king", "hearts", 1, -8.0), ("no-king", "hearts", 3, 0.0)]
    r = T.value_by_rank(VALUES)
    assert r["rank"].to_list() == ["7", "A"]
    assert r["mean"].to_list() == [7.5, 0.0]
    assert r["best_share"].to_list() == [75.0, 25.0]  # N: 7; E: tie 7/A


def test_bracket_summary():
    b = pl.DataFrame([dict(deal=0, declarer="N", opponent=o, contract="trumps", trump="S",
                           rank=None, low=lo, high=hi)
                      for o, lo, hi in (("E", 5.0, 10.0), ("S", -5.0, 5.0),
                                        ("W", -10.0, -2.5))], schema=S.BRACKETS_SCHEMA)
    want = pl.DataFrame({"contract": ["trumps"], "pairs": [3], "declarer_wins": [100 / 3],
                         "opponent_wins": [100 / 3], "undecided": [100 / 3],
                         "mean_low": [-10 / 3], "mean_high": [12.5 / 3],
                         "mean_width": [22.5 / 3]}, schema_overrides={"pairs": pl.UInt32})
    assert_frame_equal(T.bracket_summary(b), want)
    assert T.bracket_summary(b.clear()).height == 0
    # a bracket with an end at 0 is undecided: neither wins whatever the others do
    edge = pl.DataFrame([dict(deal=0, declarer="N", opponent=o, contract="no-king",
                              trump=None, rank=None, low=lo, high=hi)
                         for o, lo, hi in (("E", 0.0, 5.0), ("S", -5.0, 0.0))],
                        schema=S.BRACKETS_SCHEMA)
    assert T.bracket_summary(edge).select("declarer_wins", "opponent_wins",
                                          "undecided").rows() == [(0.0, 0.0, 100.0)]


# ----------------------------------------------------------------------------- figures
@pytest.mark.parametrize("draw", [
    lambda ax: F.plot_value_distribution(ax, VALUES, ORDER),
    lambda ax: F.plot_best_share(ax, T.best_contract_share(VALUES, ORDER)),
    lambda ax: F.plot_value_vs_feature(ax, T.value_by_feature(VALUES, _features()),
                                       "hearts"),
    lambda ax: F.plot_trump_length(ax, T.value_by_trump_length(VALUES, _features())),
    lambda ax: F.plot_dominoes_rank(ax, T.value_by_rank(VALUES)),
])
def test_figures_draw_on_the_given_axes_with_labels(draw):
    fig = Figure()
    ax = fig.add_subplot()
    arts = draw(ax)
    assert arts and ax.get_title() and ax.get_xlabel() and "(" in ax.get_ylabel()
    assert ax.get_legend() is not None or len(ax.patches) > 0


def _ax():
    fig = Figure()
    return fig, fig.add_subplot()


def test_each_figure_draws_its_tables_numbers_in_its_tables_order():
    """Heights, widths, error bars and tick labels against the table drawn (a mutation
    audit drew counts on a percent axis, means as case counts, reversed box labels and
    shifted rank ticks, and every test passed)."""
    # the distribution: one box per contract in order, the legend median then mean
    fig, ax = _ax()
    arts = F.plot_value_distribution(ax, VALUES, ORDER)
    assert [t.get_text() for t in ax.get_xticklabels()] == ORDER
    summary = T.value_summary(VALUES, ORDER)
    n = len(ORDER)
    assert [m.get_ydata()[0] for m in arts[n:2 * n]] == pytest.approx(summary["median"])
    assert [m.get_ydata()[0] for m in arts[2 * n:3 * n]] == pytest.approx(summary["mean"])
    assert [m.get_xdata()[0] for m in arts[2 * n:3 * n]] == [1, 2, 3]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["median", "mean"]
    assert ax.get_legend().legend_handles[1].get_marker() not in ("None", None, "")
    # the best share: percent bars, in the table's order
    share = T.best_contract_share(VALUES, ORDER)
    fig, ax = _ax()
    F.plot_best_share(ax, share)
    assert [p.get_height() for p in ax.patches] == pytest.approx(share["share"].to_list())
    assert [t.get_text() for t in ax.get_xticklabels()] == share["contract"].to_list()
    # a feature: each point's error bar is one standard error
    feats = pl.concat([_features(), _features().with_columns(deal=pl.lit(1, pl.Int64))])
    vals = pl.concat([VALUES, VALUES.with_columns(deal=pl.lit(1, pl.Int64),
                                                  value=pl.col("value") - 2)])
    table = T.value_by_feature(vals, feats)
    t = table.filter(pl.col("feature") == "hearts")
    fig, ax = _ax()
    F.plot_value_vs_feature(ax, table, "hearts")
    (eb,) = ax.containers
    half = [abs(seg[1][1] - seg[0][1]) / 2 for seg in eb.lines[2][0].get_segments()]
    assert half == pytest.approx(t["stderr"].fill_null(0.0).to_list())
    assert any(h > 0 for h in half)
    # Trumps: the cases on the right axis, the means with their errors on the left
    tl = T.value_by_trump_length(vals, feats)
    fig, ax = _ax()
    F.plot_trump_length(ax, tl)
    right = [a for a in fig.axes if a is not ax][0]
    assert [p.get_height() for p in right.patches] == pytest.approx(tl["n"].to_list())
    (eb,) = ax.containers
    assert list(eb.lines[0].get_ydata()) == pytest.approx(tl["mean"].to_list())
    # Dominoes: a rank's mean on the left, its best share hatched on the right, ticks
    # under their own bars
    rk = T.value_by_rank(VALUES)
    fig, ax = _ax()
    F.plot_dominoes_rank(ax, rk)
    right = [a for a in fig.axes if a is not ax][0]
    assert [t.get_text() for t in ax.get_xticklabels()] == rk["rank"].to_list()
    assert [p.get_height() for p in ax.patches] == pytest.approx(rk["mean"].to_list())
    assert [p.get_height() for p in right.patches] == pytest.approx(
        rk["best_share"].to_list())
    assert list(ax.get_xticks()) == pytest.approx([p.get_x() + p.get_width()
                                                   for p in ax.patches])
    # brackets: declarer wins, open, opponent wins, stacked in percent
    b = pl.DataFrame([dict(deal=0, declarer="N", opponent=o, contract="no-king", trump=None,
                           rank=None, low=lo, high=hi)
                      for o, lo, hi in (("E", 5.0, 10.0), ("S", 1.0, 5.0),
                                        ("W", -10.0, -2.5))] +
                     [dict(deal=1, declarer="N", opponent="E", contract="no-king",
                           trump=None, rank=None, low=-1.0, high=2.0)],
                     schema=S.BRACKETS_SCHEMA)
    fig, ax = _ax()
    F.plot_brackets(ax, T.bracket_summary(b))
    assert [p.get_width() for p in ax.patches] == pytest.approx([50.0, 25.0, 25.0])
    assert [p.get_label() for p in ax.containers] == [
        "declarer surely wins", "open (bracket spans 0)", "opponent surely wins"]
    assert ax.get_xlabel() == "declarer–opponent pairs (%)"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["no-king (4 pairs)"]


def test_figures_say_when_there_is_no_data():
    ax = Figure().add_subplot()
    arts = F.plot_trump_length(ax, T.value_by_trump_length(VALUES.clear(), _features()))
    assert "no Trumps values" in arts[0].get_text()


# ----------------------------------------------------------------------------- the report
@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    """Two barbu-32 deals: No Hearts, No King, Trumps (no brackets: cheap), Dominoes."""
    out = tmp_path_factory.mktemp("report") / "ds"
    S.run_stats(out, deals=2, seed=4, rules="barbu-32",
                contracts="no-hearts,no-king,trumps,dominoes", workers=1, brackets="none")
    return out


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_html_report_is_self_contained(dataset, tmp_path):
    out = tmp_path / "sub" / "report.html"
    assert build_report(dataset, out) == [out]
    text = out.read_text(encoding="utf-8")
    imgs = re.findall(r'src="data:image/png;base64,([^"]+)"', text)
    assert len(imgs) == 5  # values, best, hearts, trumps, dominoes ranks (no brackets)
    for b in imgs:
        w, h = _png_size(base64.b64decode(b))
        assert w > 300 and h > 200
    assert not re.search(r'(src|href)="(http|//|file:)', text)
    for title in ("guaranteed value by contract", "Trumps: value against trump length",
                  "Dominoes: value by starting rank", "How often each contract is the best"):
        assert title in text
    assert "barbu-32" in text and "2 of 2" in text


def _html_tables(text: str) -> list[list[list[str]]]:
    out = []
    for t in re.findall(r"<table>(.*?)</table>", text, re.S):
        rows = [re.findall(r"<t[hd]>(.*?)</t[hd]>", r) for r in re.findall(r"<tr>(.*?)</tr>", t)]
        out.append([[html.unescape(c) for c in r] for r in rows])
    return out


def _md_tables(text: str) -> list[list[list[str]]]:
    out, cur = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            if not line.startswith("|---"):
                cur.append([c.strip() for c in line.strip("|").split(" | ")])
        elif cur:
            out.append(cur)
            cur = []
    return out


def test_report_tables_and_facts_match_the_dataset(dataset, tmp_path):
    """Every HTML table row has a cell under each heading, the same cells as the
    Markdown report's, and the figures are the dataset's: the facts (seed, deals, hands
    = 4 x deals) and No King's mean to 2 decimals (a mutation audit shifted the HTML
    cells one column left, reversed the Markdown rows, printed 1 decimal, 3 hands for
    3 x 4, "incomplete" on a complete run, and the deals as the seed, unseen)."""
    page = build_report(dataset, tmp_path / "r.html")[0].read_text(encoding="utf-8")
    md = build_report(dataset, tmp_path / "r.md", fmt="md")[0].read_text(encoding="utf-8")
    ht = _html_tables(page)
    assert ht and all(len(r) == len(t[0]) for t in ht for r in t)
    assert ht == _md_tables(md)
    man = S.read_manifest(dataset)
    facts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", page))
    assert facts["seed"] == str(man["seed"]) == "4"
    assert facts["deals"] == "2 of 2" and "incomplete" not in page
    assert facts["hands (deal × declarer)"] == "8"
    v = S.load_dataset(dataset)["values"].filter(pl.col("contract") == "no-king")
    (summary,) = [t for t in ht if t[0][:3] == ["contract", "hands", "mean"]]
    row = dict(zip(summary[0], next(r for r in summary if r[0] == "no-king")))
    assert row["hands"] == "8" and row["mean"] == f"{v['value'].mean():.2f}"
    # a run stopped part way says so
    part = tmp_path / "part"
    shutil.copytree(dataset, part)
    shutil.rmtree(part / "chunks" / "000001")
    page = build_report(part, tmp_path / "p.html")[0].read_text(encoding="utf-8")
    facts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", page))
    assert facts["deals"].startswith("1 of 2 (incomplete")
    assert facts["hands (deal × declarer)"] == "4"


def test_markdown_and_png_reports(dataset, tmp_path):
    files = build_report(dataset, tmp_path / "r.md", fmt="md")
    md = files[0].read_text(encoding="utf-8")
    assert files[0].name == "r.md" and len(files) == 6
    for f in files[1:]:
        assert f.parent.name == "r_files" and f"r_files/{f.name}" in md
        _png_size(f.read_bytes())
    assert "| contract | hands | mean |" in md
    png = build_report(dataset, tmp_path / "r.png", fmt="png")
    w, h = _png_size(png[0].read_bytes())
    assert w >= 1400 and h >= 1200


def test_report_with_brackets(tmp_path):
    out = tmp_path / "b"
    S.run_stats(out, deals=1, seed=4, rules="barbu-32", contracts="no-king,dominoes",
                workers=1)
    text = build_report(out, tmp_path / "b.html")[0].read_text(encoding="utf-8")
    # barbu-32 has no doubling: the brackets are side bets, and every title says so
    assert "Side bets (no doubling in this preset)" in text and "side bets" in text
    assert "Doubling brackets" not in text
    assert "`pairs`" not in text and "<code>undecided</code>" in text
    # stats' default stores the brackets of the declarer's best option
    assert S.read_manifest(out)["brackets"] == "best"
    plain = html.unescape(text)
    assert "Stored for the declarer's best option" in plain
    assert "of the declarer's best option: who wins" in plain and "every option" not in plain
    # a report named .png with the default format was silently HTML
    with pytest.raises(BarbuError, match="names a .png file but the format is html"):
        build_report(out, tmp_path / "b.png")
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    with pytest.raises(BarbuError, match="a file is in the path"):
        build_report(out, blocker / "r.html")
    md = build_report(out, tmp_path / "my report.md", fmt="md")[0].read_text()
    assert "](<my report_files/" in md


def test_report_errors(dataset, tmp_path):
    with pytest.raises(BarbuError, match="bad report format"):
        build_report(dataset, tmp_path / "r.pdf", fmt="pdf")
    with pytest.raises(BarbuError, match="not a folder"):
        build_report(tmp_path / "nothing", tmp_path / "r.html")
    (tmp_path / "empty").mkdir()
    with pytest.raises(BarbuError, match="no manifest.json"):
        build_report(tmp_path / "empty", tmp_path / "r.html")
    bad = tmp_path / "bad"
    shutil.copytree(dataset, bad)
    (bad / "chunks" / "000000" / "values.parquet").write_bytes(b"\x00" * 10)
    with pytest.raises(BarbuError, match="chunk 0's files are not the ones it wrote") as e:
        build_report(bad, tmp_path / "r.html")
    assert "\n" not in str(e.value)
    assert not (tmp_path / "r.html").exists()


def test_a_report_that_cannot_be_written_leaves_no_figures_behind(dataset, tmp_path,
                                                                    monkeypatch):
    """A Markdown report writes its figures first, as drafts beside their places: where
    the report itself then cannot be written, the drafts go, an older report's figures
    stay as they were, and the error is CannotWrite (the command line's exit status 1:
    not the input's fault)."""
    old = tmp_path / "old.md"
    figs = build_report(dataset, old, fmt="md")[1:]
    (old.parent / "old_files" / "notes.txt").write_text("mine")
    figs[1].unlink()  # (a figure the next run writes anew)
    for f in figs[2:]:
        f.write_bytes(b"older")  # (the failed run must not have rewritten them)
    real = Path.write_text

    def full(self, *a, **k):
        if ".md" in self.name:
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, *a, **k)

    monkeypatch.setattr(Path, "write_text", full)
    for out in (tmp_path / "new.md", old):
        with pytest.raises(CannotWrite, match=f"cannot write the report at {out}: No space"):
            build_report(dataset, out, fmt="md")
    assert not (tmp_path / "new_files").exists()
    kept = sorted(p.name for p in (tmp_path / "old_files").iterdir())
    assert kept == sorted([f.name for f in figs if f != figs[1]] + ["notes.txt"])
    assert len(figs) > 3 and all(f.read_bytes() == b"older" for f in figs[2:])
    monkeypatch.setattr(Path, "write_text", real)
    assert build_report(dataset, old, fmt="md")[1:] == figs  # (and a good run replaces them)
    assert all(f.read_bytes()[:4] == b"\x89PNG" for f in figs)
    assert sorted(p.name for p in (tmp_path / "old_files").iterdir()) == sorted(
        [f.name for f in figs] + ["notes.txt"])


def test_a_figure_that_cannot_be_written_names_itself(dataset, tmp_path, monkeypatch):
    """A full disk while the figures are written: the message names the figure (not its
    draft), and the older report's figures stay."""
    old = tmp_path / "r.md"
    figs = build_report(dataset, old, fmt="md")[1:]
    before = [f.read_bytes() for f in figs]
    real = Path.write_bytes
    calls = []

    def full(self, data):
        calls.append(self)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(CannotWrite, match=f"cannot write the report at {figs[1]}: No sp"):
        build_report(dataset, old, fmt="md")
    assert [f.read_bytes() for f in figs] == before
    assert sorted(p.name for p in old.parent.iterdir()) == ["r.md", "r_files"]
    assert sorted((tmp_path / "r_files").iterdir()) == sorted(figs)


def test_a_report_is_written_whole_or_not_at_all(dataset, tmp_path, monkeypatch):
    """A disk that fills up halfway through left a truncated report; now the older one
    stays as it was, and nothing else is left behind."""
    out = tmp_path / "r.html"
    build_report(dataset, out)
    before = out.read_bytes()
    real = Path.write_text

    def half(self, text, *a, **k):
        real(self, text[:len(text) // 2], *a, **k)
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_text", half)
    with pytest.raises(CannotWrite, match="No space left on device"):
        build_report(dataset, out)
    assert out.read_bytes() == before and sorted(tmp_path.iterdir()) == [out]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_exit_status_1(dataset, tmp_path):
    p = subprocess.run([sys.executable, "-m", "cli", "report", str(dataset), "--out",
                        "/dev/full", "-f", "html"], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 1
    assert p.stderr == ("barbu: error: cannot write the report at /dev/full: No space left "
                        "on device\n")


def test_html_report_renders_in_headless_chromium(dataset, tmp_path):
    """The page opens in a real browser; the screenshot is saved beside the report (look
    at it: every figure should be drawn)."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        pytest.skip("chromium is not installed (Debian: apt-get install -y chromium)")
    page = build_report(dataset, tmp_path / "report.html")[0]
    shot = tmp_path / "shot.png"
    subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--no-first-run",
                    "--hide-scrollbars", f"--screenshot={shot}", "--window-size=1200,2600",
                    page.as_uri()], capture_output=True, timeout=120)
    data = shot.read_bytes()
    assert _png_size(data) == (1200, 2600)
    assert len(data) > 100_000  # figures drawn, not a blank page


def test_trumps_and_dominoes_tables_whatever_their_names():
    """A rules file may name Trumps "atout" and Dominoes "fan-tan": the report found them
    by id and dropped both sections, though every trump suit and rank was stored."""
    renamed = VALUES.with_columns(pl.col("contract").replace({"trumps": "atout",
                                                              "dominoes": "fan-tan"}))
    assert_frame_equal(T.value_by_trump_length(renamed, _features()),
                       T.value_by_trump_length(VALUES, _features()))
    assert_frame_equal(T.value_by_rank(renamed), T.value_by_rank(VALUES))
    assert T.value_by_rank(renamed, "fan-tan").height == T.value_by_rank(VALUES).height
    # two trumps contracts (or two Dominoes) are never averaged together
    other = VALUES.filter(pl.col("trump").is_not_null() | pl.col("rank").is_not_null()) \
        .with_columns(pl.col("contract") + "-2", pl.col("value") - 100)
    both = pl.concat([VALUES, other])
    assert_frame_equal(T.value_by_trump_length(both, _features()),
                       T.value_by_trump_length(VALUES, _features()))
    assert_frame_equal(T.value_by_rank(both), T.value_by_rank(VALUES))
    # and the sections and figures say whose values they show
    from reports import html
    assert (T.trump_contract(renamed), T.rank_contract(renamed)) == ("atout", "fan-tan")
    assert (T.trump_contract(VALUES), T.rank_contract(VALUES)) == ("trumps", "dominoes")
    mixed = pl.concat([renamed, VALUES])          # "trumps" wins though "atout" is first
    assert (T.trump_contract(mixed), T.rank_contract(mixed)) == ("trumps", "dominoes")
    brackets = pl.DataFrame(schema={"deal": pl.Int64})
    sections, panels = html._content({"values": renamed, "features": _features(),
                                      "brackets": brackets}, {})
    titles = [s.title for s in sections]
    assert "atout: value against trump length" in titles
    assert "fan-tan: value by starting rank" in titles
    assert any(p.caption.startswith("atout:") for p in panels)
    ax = Figure().subplots()
    F.plot_trump_length(ax, T.value_by_trump_length(renamed, _features()), name="atout")
    assert ax.get_title() == "atout: value against trump length"


def test_feature_rows_follow_what_a_contract_scores(tmp_path):
    """The "feature that matters" rows were keyed by the presets' ids: a rules file that
    calls No King "barbu" got no row for it. The manifest now maps each contract to the
    feature its points call for."""
    text = load_rules("barbu-32").to_toml().replace('name = "barbu-32"', 'name = "b32r"')
    text = text.replace('"no-king"', '"barbu"').replace("[contracts.no-king]",
                                                          "[contracts.barbu]")
    rf = tmp_path / "b32r.toml"
    rf.write_text(text)
    out = tmp_path / "ds"
    S.run_stats(out, deals=1, seed=4, rules=str(rf), contracts="barbu,no-queens,trumps",
                workers=1, brackets="none")
    man = S.read_manifest(out)
    assert man["features"] == {"barbu": "hearts", "no-queens": "queens", "trumps": None}
    data = S.load_dataset(out)
    t = T.value_by_feature(data["values"], data["features"], mapping=man["features"])
    assert sorted(t["feature"].unique().to_list()) == ["hearts", "queens"]
    assert t.filter(pl.col("contract") == "barbu")["n"].sum() == 4
    md = build_report(out, tmp_path / "r.md", fmt="md")[0].read_text(encoding="utf-8")
    assert "| barbu | hearts |" in md
    # a datasets written before the mapping was kept falls back on the presets' ids
    assert T.value_by_feature(data["values"], data["features"])["contract"].unique() \
        .to_list() == ["no-queens"]
    # and a hand-edited mapping is refused in one line
    for bad in ("shoe size", "hand", ["hcp"], {"x": 1}, 5):  # (not a numeric column)
        man["features"] = {"barbu": bad}
        (out / "manifest.json").write_text(json.dumps(man))
        with pytest.raises(BarbuError, match="bad features"):
            S.read_manifest(out)

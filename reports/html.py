"""The statistics report: tables and figures of a dataset as one HTML page, Markdown with
PNG files, or one PNG sheet (``barbu report``).

The HTML page is self-contained: styles inline, figures embedded as base64 PNG, no script
and no outside link, so it opens offline in any browser.
"""

from __future__ import annotations

import base64
import html
import io
import math
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import polars as pl
from matplotlib.figure import Figure

from analyzer.errors import BarbuError, CannotWrite
from analyzer.stats import load_dataset, read_manifest
from reports import figures as F
from reports.text import number_text
from reports import tables as T

FORMATS = ("html", "md", "png")


@dataclass
class Panel:
    """One figure of the report: a name (file-safe), a caption and a drawing function
    ``draw(ax)``."""

    name: str
    caption: str
    draw: Callable[[Any], list[Any]]


@dataclass
class Section:
    """A table of the report with its title and a sentence saying how to read it."""

    title: str
    note: str
    table: pl.DataFrame


def _content(data: dict[str, pl.DataFrame], man: dict[str, Any]
             ) -> tuple[list[Section], list[Panel]]:
    values, features, brackets = data["values"], data["features"], data["brackets"]
    order = man.get("contracts")
    summary = T.value_summary(values, order)
    share = T.best_contract_share(values, order)
    byfeat = T.value_by_feature(values, features, order=order, mapping=man.get("features"))
    trump = T.value_by_trump_length(values, features)
    ranks = T.value_by_rank(values)
    tname, rname = T.trump_contract(values), T.rank_contract(values)
    theading, rheading = F.contract_heading(tname), F.contract_heading(rname)
    bsum = T.bracket_summary(brackets, order)

    sections = [
        Section("Declarer's guaranteed value by contract",
                "Raw points the declarer can guarantee with perfect play against three "
                "opponents who all play against him (paranoid double-dummy value); a "
                "contract's value is that of its best trump suit or starting rank. "
                "`hands` counts deal × declarer; quartiles interpolate linearly between "
                "values, as the box plot does.", summary),
        Section("How often each contract is the best",
                "`best`: hands (deal × declarer) where the contract has the highest "
                "guaranteed value, a tie between k contracts counting 1/k each; `share` in "
                "percent.", share),
    ]
    panels = [
        Panel("values", "Distribution of the declarer's guaranteed value per contract "
              "(box: quartiles, whiskers: 1.5 × IQR, triangle: mean).",
              lambda ax: F.plot_value_distribution(ax, values, order)),
    ]
    if share.height > 1:  # (one contract is best in every hand: nothing to draw)
        panels.append(Panel("best", "Share of hands in which each contract is the "
                            "declarer's best.",
                            lambda ax: F.plot_best_share(ax, share, order)))
    if byfeat.height:
        sections.append(Section(
            "Value against the hand feature that matters",
            "Mean contract value of the hands with each value `x` of the feature "
            "(hearts held where only hearts score, queens where only queens score, the "
            "longest suit for Ravage City, high-card points for the other trick "
            "contracts), with its standard error (`n` hands; a value held "
            "by a single hand has no standard error: –).", byfeat))
        for feat in byfeat["feature"].unique(maintain_order=True).to_list():
            cs = ", ".join(byfeat.filter(pl.col("feature") == feat)["contract"]
                           .unique(maintain_order=True).to_list())
            panels.append(Panel(f"feature-{feat}",
                                f"Mean value (± s.e.) of {cs} against the declarer's "
                                f"{F.FEATURE_LABELS.get(feat, feat)}.",
                                lambda ax, f=feat: F.plot_value_vs_feature(
                                    ax, byfeat, f, order=order)))
    if trump.height:
        sections.append(Section(
            f"{theading}: value against trump length",
            "Every trump suit of every hand once: the declarer's length in that suit "
            "and the mean value of naming it trumps.", trump))
        panels.append(Panel("trumps", f"{theading}: mean value of a trump suit against "
                            "the declarer's length in it; grey bars count the cases.",
                            lambda ax: F.plot_trump_length(ax, trump, order, tname)))
    if ranks.height:  # (a fixed starting rank: one row, no figure to draw)
        sections.append(Section(
            f"{rheading}: value by starting rank",
            "Mean value for the declarer of each starting rank (first-card presets: the "
            "ranks the first player holds), and how often each is the best "
            "(`best_share`, percent of hands; a tie between k ranks counting 1/k each).",
            ranks))
        if ranks.height > 1:
            panels.append(Panel("dominoes", f"{rheading}: mean value of each starting "
                                "rank and how often it is the declarer's best.",
                                lambda ax: F.plot_dominoes_rank(ax, ranks, order, rname)))
    if bsum.height:
        mode = man.get("brackets", "best")
        which = ("the declarer's best option" if mode == "best" else "every option")
        doubling = bool(man.get("doubling", True))
        name = "Doubling brackets" if doubling else "Side bets (no doubling in this preset)"
        sections.append(Section(
            name,
            f"Stored for {which}, declarer against each opponent: with perfect play the "
            "declarer's raw score minus the opponent's lies in [low, high]: low is the "
            "declarer's guaranteed value of the bet, -high the opponent's. "
            "`pairs`: declarer-opponent pairs (hands × 3"
            + (", × the options stored" if mode != "best" else "") + "); `declarer_wins`: percent of "
            "pairs with low > 0; `opponent_wins`: percent with high < 0; `undecided`: "
            "percent whose bracket spans 0; `mean_low`, `mean_high`: the ends' means, "
            "`mean_width` the mean of high - low (raw points)."
            + ("" if doubling else " This preset has no doubling: the brackets are side "
               "bets between two players."), bsum))
        panels.append(Panel("brackets", f"{name} of {which}: who wins a bet between the "
                            "declarer and each opponent (pairs counted on each bar).",
                            lambda ax: F.plot_brackets(ax, bsum, doubling)))
    return sections, panels


def _png(panel: Panel, size: tuple[float, float] = (7.5, 4.4)) -> bytes:
    fig = Figure(figsize=size, layout="constrained")
    panel.draw(fig.add_subplot())
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    return buf.getvalue()


def _fmt(x: Any) -> str:
    if x is None:
        return "–"
    if isinstance(x, float):
        if math.isnan(x):
            return "–"
        return number_text(x, 2)
    return str(x)


def _html_text(text: str) -> str:
    """Escaped text, with `code` spans."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def _html_table(df: pl.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(v))}</td>" for v in row)
                   + "</tr>" for row in df.iter_rows())
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _md_table(df: pl.DataFrame) -> str:
    lines = ["| " + " | ".join(df.columns) + " |",
             "|" + "|".join("---" for _ in df.columns) + "|"]
    lines += ["| " + " | ".join(_fmt(v) for v in row) + " |" for row in df.iter_rows()]
    return "\n".join(lines)


def _facts(man: dict[str, Any], data: dict[str, pl.DataFrame]) -> list[tuple[str, str]]:
    solved = data["deals"].height
    return [("rules", str(man.get("rules"))),
            ("contracts", ", ".join(man.get("contracts", []))),
            ("seed", str(man.get("seed"))),
            ("deals", f"{solved} of {man.get('deals')}"
             + ("" if solved == man.get("deals") else " (incomplete: finish with --resume)")),
            ("hands (deal × declarer)", str(4 * solved)),
            ("brackets", str(man.get("brackets"))),
            ("created", str(man.get("created", "")))]


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;
max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6em 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
.figs{display:grid;grid-template-columns:repeat(auto-fit,minmax(500px,1fr));gap:1em}
figure{margin:0}figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{font-size:.9em;color:#555}.note{color:#555;font-size:.9em}
dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:600}
"""


def _write_html(out: Path, man: dict[str, Any], data: dict[str, pl.DataFrame],
                sections: list[Section], panels: list[Panel]) -> list[Path]:
    facts = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>"
                    for k, v in _facts(man, data))
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>Barbu deal statistics</title>", f"<style>{_CSS}</style></head><body>",
             "<h1>Barbu deal statistics</h1>", f"<dl>{facts}</dl>",
             '<p class="note">Double-dummy values: every hand is solved as if all cards '
             "were seen.</p>", "<h2>Figures</h2>", '<div class="figs">']
    for p in panels:
        b64 = base64.b64encode(_png(p)).decode("ascii")
        parts.append(f'<figure id="fig-{p.name}"><img alt="{html.escape(p.caption)}" '
                     f'src="data:image/png;base64,{b64}"><figcaption>'
                     f"{html.escape(p.caption)}</figcaption></figure>")
    parts.append("</div><h2>Tables</h2>")
    for s in sections:
        parts.append(f"<h3>{html.escape(s.title)}</h3><p class=\"note\">"
                     f"{_html_text(s.note)}</p>{_html_table(s.table)}")
    parts.append("</body></html>")
    _whole(out, lambda f: f.write_text("\n".join(parts) + "\n", encoding="utf-8"))
    return [out]


def _whole(out: Path, write: Callable[[Path], Any],
           also: Iterable[tuple[Path, Path]] = ()) -> None:
    """``write(path)`` for ``out``, whole or not at all: into a new file beside it, then
    renamed over it, so that a full disk leaves no truncated report (and an older report
    stays as it was). Where ``out`` is not a regular file (``/dev/stdout``), straight in.
    ``also``: drafts already written (``(draft, final)``, a Markdown report's figures),
    renamed into place just before the report; removed if anything fails."""
    also = list(also)
    tmp = None
    try:
        if out.exists() and not out.is_file():
            write(out)
        else:
            tmp = _draft(out)
            write(tmp)
        for d, f in also:
            os.replace(d, f)
        if tmp is not None:
            os.replace(tmp, out)
    except BaseException as e:
        _drop_drafts(e, [*also, (tmp, out)] if tmp is not None else also)
        raise


def _draft(out: Path) -> Path:
    """The name a file is first written under, beside it."""
    return out.with_name(f".{out.name}.{os.getpid()}.part")


def _drop_drafts(e: BaseException, drafts: Iterable[tuple[Path, Path]]) -> None:
    """Remove the drafts (``(draft, final)``) after ``e``; an error naming a draft names
    its final file instead."""
    for d, f in drafts:
        d.unlink(missing_ok=True)
        if isinstance(e, OSError) and e.filename in (str(d), d):
            e.filename = str(f)


def _write_md(out: Path, man: dict[str, Any], data: dict[str, pl.DataFrame],
              sections: list[Section], panels: list[Panel]) -> list[Path]:
    fig_dir = out.with_name(out.stem + "_files")
    made = not fig_dir.exists()
    fig_dir.mkdir(exist_ok=True)
    lines = ["# Barbu deal statistics", ""]
    lines += [f"- **{k}**: {v}" for k, v in _facts(man, data)]
    lines += ["", "Double-dummy values: every hand is solved as if all cards were seen.",
              "", "## Figures", ""]
    drafts: list[tuple[Path, Path]] = []  # (each figure is written beside its place)
    try:
        for i, p in enumerate(panels, 1):
            f = fig_dir / f"{i:02d}-{p.name}.png"
            d = _draft(f)
            drafts.append((d, f))
            d.write_bytes(_png(p))
            lines += [f"![{p.caption}](<{fig_dir.name}/{f.name}>)", "", f"*{p.caption}*",
                      ""]
        lines += ["## Tables", ""]
        for s in sections:
            lines += [f"### {s.title}", "", s.note, "", _md_table(s.table), ""]
        _whole(out, lambda f: f.write_text("\n".join(lines), encoding="utf-8"), drafts)
    except BaseException as e:  # no figures left behind without their report
        _drop_drafts(e, drafts)
        if made:
            shutil.rmtree(fig_dir, ignore_errors=True)
        raise
    return [out, *(f for _, f in drafts)]


def _write_png(out: Path, man: dict[str, Any], data: dict[str, pl.DataFrame],
               panels: list[Panel]) -> list[Path]:
    cols = 2 if len(panels) > 1 else 1
    rows = math.ceil(len(panels) / cols)
    fig = Figure(figsize=(7.5 * cols, 4.6 * rows), layout="constrained")
    facts = dict(_facts(man, data))
    fig.suptitle(f"Barbu deal statistics: {facts['rules']}, {facts['deals']} deals, seed "
                 f"{facts['seed']} (guaranteed double-dummy values; boxes: quartiles, "
                 "whiskers 1.5 × IQR, triangles: means)", fontsize="large")
    for i, p in enumerate(panels):
        p.draw(fig.add_subplot(rows, cols, i + 1))
    _whole(out, lambda f: fig.savefig(f, format="png", dpi=100))
    return [out]


def report_format(out_path: str | Path | None, fmt: str | None) -> str:
    """The report's format: ``fmt`` (any case), else the extension of ``out_path``
    (``.htm`` is HTML), else HTML; an unknown format, an unknown extension without
    ``fmt``, or an extension that names another format is refused.

    >>> report_format("r.MD", None), report_format(None, "PNG"), report_format("r", None)
    ('md', 'png', 'html')
    """
    given = Path(out_path).suffix.lower().lstrip(".") if out_path is not None else ""
    ext = "html" if given == "htm" else given
    if fmt is None:
        if ext and ext not in FORMATS:
            raise BarbuError(f"--out {out_path}: name the report .html, .md or .png, or "
                             "give --format")
        return ext or "html"
    fmt = str(fmt).strip().lower()
    if fmt not in FORMATS:
        raise BarbuError(f"bad report format {fmt!r} (--format): expected one of "
                         + ", ".join(FORMATS))
    if ext in FORMATS and ext != fmt:
        raise BarbuError(f"--out {out_path} names a .{given} file but the format is {fmt}: "
                         f"give --format {ext}, or another name")
    return fmt


def build_report(data_dir: str | Path, out_path: str | Path, fmt: str = "html"
                 ) -> list[Path]:
    """Write the report of a statistics dataset.

    Parameters
    ----------
    data_dir : path
        A dataset written by :func:`analyzer.stats.run_stats` (complete or not: an
        incomplete one is reported as such).
    out_path : path
        The file to write (``.html``, ``.md`` or ``.png``); its folder is created.
    fmt : ``"html"``, ``"md"`` or ``"png"``
        ``html``: one self-contained page (figures as base64 PNG). ``md``: Markdown with
        the figures as PNG files in ``<stem>_files/`` beside it. ``png``: every figure on
        one sheet (no tables).

    Returns
    -------
    list of Path
        The files written, the report first.

    Raises
    ------
    BarbuError
        Unknown format, a folder that is not a readable dataset, or one with no solved
        deal yet; :class:`~analyzer.errors.CannotWrite` where the report cannot be
        written (the command line's exit status 1).
    """
    fmt = report_format(out_path, fmt)
    man = read_manifest(data_dir)
    data = load_dataset(data_dir)
    if data["values"].height == 0:
        raise BarbuError(f"dataset {data_dir} has no solved deal yet")
    out = Path(out_path)
    if out.is_dir():
        raise BarbuError(f"--out {out_path} is a folder: name the report file")
    sections, panels = _content(data, man)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if fmt == "html":
            return _write_html(out, man, data, sections, panels)
        if fmt == "md":
            return _write_md(out, man, data, sections, panels)
        return _write_png(out, man, data, panels)
    except OSError as e:  # a folder that cannot be made or written, a file in the way
        where = e.filename or out
        why = ("a file is in the path" if isinstance(e, (FileExistsError, NotADirectoryError))
               else e.strerror or type(e).__name__)
        raise CannotWrite(f"cannot write the report at {where}: {why}") from None


__all__ = ["build_report", "FORMATS"]

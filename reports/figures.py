"""Matplotlib figures of a statistics dataset.

Every function draws on a given ``ax`` from frames built by :mod:`reports.tables` (or the
dataset's frames), sets a title, axis labels with units and a legend where several series
are drawn, and returns the artists it made. None calls ``plt.show()`` or saves anything;
:mod:`reports.html` lays them out.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import polars as pl
from matplotlib.axes import Axes

from reports.tables import contract_order, contract_values

POINTS = "raw points"
_COLORS = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb",
           "#000000"]
#: Labels of hand features on axes.
FEATURE_LABELS = {"hearts": "hearts held (cards)", "queens": "queens held (cards)",
                  "hcp": "high-card points (A=4 K=3 Q=2 J=1)",
                  "longest": "longest suit (cards)"}


def contract_colour(contract: str, order: Sequence[str] | None) -> str:
    """One colour per contract in every figure: by its place in ``order`` (the
    dataset's contract list), else by its name."""
    names = list(order or [])
    i = names.index(contract) if contract in names else sum(map(ord, contract))
    return _COLORS[i % len(_COLORS)]


def _empty(ax: Axes, title: str, what: str) -> list[Any]:
    ax.set_title(title)
    ax.set_axis_off()
    return [ax.text(0.5, 0.5, f"no {what} in this dataset", ha="center", va="center",
                    transform=ax.transAxes)]


def plot_value_distribution(ax: Axes, values: pl.DataFrame,
                            order: Sequence[str] | None = None) -> list[Any]:
    """Box plot of the declarer's guaranteed value of each contract (best trump suit /
    starting rank), one box per contract, mean marked."""
    title = "Declarer's guaranteed value by contract"
    if values.height == 0:
        return _empty(ax, title, "values")
    cv = contract_values(values)
    names = contract_order(values, order)
    data = [cv.filter(pl.col("contract") == c)["value"].to_numpy() for c in names]
    bp = ax.boxplot(data, showmeans=True, patch_artist=True, widths=0.6)
    for c, box in zip(names, bp["boxes"]):
        box.set_facecolor(contract_colour(c, order or names))
        box.set_alpha(0.55)
    ax.set_xticks(range(1, len(names) + 1), names, rotation=20, ha="right")
    ax.axhline(0, color="grey", lw=0.8, ls=":")
    ax.set_title(title)
    ax.set_xlabel("contract")
    ax.set_ylabel(f"guaranteed value ({POINTS})")
    handles = [bp["medians"][0], bp["means"][0]]
    leg = ax.legend(handles, ["median", "mean"], loc="best", fontsize="small")
    return [*bp["boxes"], *bp["medians"], *bp["means"], leg]


def plot_best_share(ax: Axes, share: pl.DataFrame,
                    order: Sequence[str] | None = None) -> list[Any]:
    """Bar chart: percent of hands (deal × declarer) in which each contract is the
    declarer's best option (``tables.best_contract_share``)."""
    title = "How often each contract is the declarer's best"
    if share.height == 0:
        return _empty(ax, title, "values")
    names = share["contract"].to_list()
    bars = ax.bar(names, share["share"].to_numpy(),
                  color=[contract_colour(c, order or names) for c in names])
    labels = ax.bar_label(bars, fmt="%.1f%%", fontsize="small")
    ax.set_title(title)
    ax.set_xlabel("contract")
    ax.set_ylabel("hands where it is best (%)")
    ax.set_ylim(0, max(100.0, float(share["share"].max() or 0)) * 1.08)
    ax.tick_params(axis="x", rotation=20)
    return [bars, *labels]


def plot_value_vs_feature(ax: Axes, table: pl.DataFrame, feature: str,
                          title: str | None = None,
                          order: Sequence[str] | None = None) -> list[Any]:
    """Mean value (± one standard error) of each contract in ``table``
    (``tables.value_by_feature``) against one hand feature of the declarer."""
    t = table.filter(pl.col("feature") == feature)
    label = FEATURE_LABELS.get(feature, feature)
    title = title or f"Contract value against {label.split(' (')[0]}"
    if t.height == 0:
        return _empty(ax, title, f"contract explained by {feature}")
    arts: list[Any] = []
    names = t["contract"].unique(maintain_order=True).to_list()
    for c in names:
        s = t.filter(pl.col("contract") == c)
        eb = ax.errorbar(s["x"].to_numpy(), s["mean"].to_numpy(),
                         yerr=s["stderr"].fill_null(0.0).to_numpy(), marker="o", capsize=3,
                         color=contract_colour(c, order or names), label=c)
        arts.append(eb)
    ax.axhline(0, color="grey", lw=0.8, ls=":")
    ax.set_title(title)
    ax.set_xlabel(f"declarer's {label}")
    ax.set_ylabel(f"mean guaranteed value ({POINTS}), ± s.e.")
    ax.xaxis.get_major_locator().set_params(integer=True)
    arts.append(ax.legend(title="contract", fontsize="small"))
    return arts


def contract_heading(name: str) -> str:
    """``trumps`` -> ``Trumps``; a rules file's own name as it is (``atout``)."""
    return name.capitalize() if name in ("trumps", "dominoes") else name


def plot_trump_length(ax: Axes, table: pl.DataFrame,
                      order: Sequence[str] | None = None, name: str = "trumps") -> list[Any]:
    """Trumps (``name``): mean value (± s.e.) of a trump suit against the declarer's
    length in it, with the number of cases as bars on a second axis
    (``tables.value_by_trump_length``)."""
    title = f"{contract_heading(name)}: value against trump length"
    if table.height == 0:
        return _empty(ax, title, "Trumps values")
    x = table["trump_length"].to_numpy()
    ax2 = ax.twinx()
    bars = ax2.bar(x, table["n"].to_numpy(), color="#bbbbbb", alpha=0.45, width=0.6,
                   label="cases (right axis)")
    ax2.set_ylabel("cases (hands × trump suits)")
    ax.set_zorder(ax2.get_zorder() + 1)
    ax.patch.set_visible(False)
    eb = ax.errorbar(x, table["mean"].to_numpy(), yerr=table["stderr"].to_numpy(),
                     marker="o", capsize=3, color=contract_colour(name, order),
                     label="mean value ± s.e.")
    ax.set_title(title)
    ax.set_xlabel("declarer's cards in the trump suit")
    ax.set_ylabel(f"mean guaranteed value ({POINTS})")
    ax.xaxis.get_major_locator().set_params(integer=True)
    leg = ax.legend([eb, bars], ["mean value ± s.e.", "cases (right axis)"],
                    loc="upper left", fontsize="small")
    return [eb, bars, leg]


def plot_dominoes_rank(ax: Axes, table: pl.DataFrame,
                       order: Sequence[str] | None = None, name: str = "dominoes"
                       ) -> list[Any]:
    """Dominoes (``name``): mean value (± s.e.) of each starting rank, and the percent of
    hands in which it is the best rank (``tables.value_by_rank``)."""
    title = f"{contract_heading(name)}: value by starting rank"
    if table.height == 0:
        return _empty(ax, title, "Dominoes starting ranks")
    ranks = table["rank"].to_list()
    x = np.arange(len(ranks))
    bars = ax.bar(x - 0.2, table["mean"].to_numpy(), width=0.4,
                  yerr=table["stderr"].to_numpy(), capsize=2,
                  color=contract_colour(name, order),
                  label=f"mean value ({POINTS}) ± s.e.")
    ax.set_xticks(x, ranks)
    ax.set_xlabel("starting rank")
    ax.set_ylabel(f"mean guaranteed value ({POINTS})")
    ax2 = ax.twinx()
    bars2 = ax2.bar(x + 0.2, table["best_share"].to_numpy(), width=0.4, color="white",
                    edgecolor="#444444", hatch="///",
                    label="best rank (% of hands, right axis)")
    ax2.set_ylabel("hands where this rank is best (%)")
    # the two axes' zeros on one line: both series' bars start there
    se = table["stderr"].fill_null(0.0).to_numpy()
    means = table["mean"].to_numpy()
    lo, hi = min(0.0, float((means - se).min())), max(0.0, float((means + se).max()))
    lo, hi = (lo - 0.08 * (hi - lo), hi + 0.08 * (hi - lo)) if hi > lo else (-1.0, 1.0)
    ax.set_ylim(lo, hi)
    top = 108.0
    ax2.set_ylim(top * lo / hi if hi > 0 else -top, top if hi > 0 else 0.0)
    ax2.set_yticks(np.arange(0, 101, 25))  # (no negative percentages below the zero)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_title(title)
    leg = ax.legend([bars, bars2], [bars.get_label(), bars2.get_label()],
                    loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=2,
                    fontsize="small")
    return [bars, bars2, leg]


def plot_brackets(ax: Axes, summary: pl.DataFrame, doubling: bool = True) -> list[Any]:
    """Doubling brackets (``tables.bracket_summary``): per contract, the percent of
    declarer–opponent pairs the declarer surely wins, surely loses, or where perfect play
    leaves it open, as stacked horizontal bars, each labelled with its number of pairs.
    ``doubling`` False: the preset has no doubling, so the brackets are side bets."""
    title = ("Doubling brackets: who wins a bet, declarer vs each opponent" if doubling
             else "Side bets (no doubling in this preset): declarer vs each opponent")
    if summary.height == 0:
        return _empty(ax, title, "brackets")
    names = [f"{c} ({n} pairs)" for c, n in zip(summary["contract"].to_list(),
                                                summary["pairs"].to_list())]
    y = np.arange(len(names))
    parts = [("declarer_wins", "declarer surely wins", _COLORS[2]),
             ("undecided", "open (bracket spans 0)", "#bbbbbb"),
             ("opponent_wins", "opponent surely wins", _COLORS[1])]
    left = np.zeros(len(names))
    arts: list[Any] = []
    for col, label, color in parts:
        vals = summary[col].to_numpy()
        arts.append(ax.barh(y, vals, left=left, color=color, label=label))
        left += vals
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_title(title)
    ax.set_xlabel("declarer–opponent pairs (%)")
    ax.set_ylabel("contract")
    arts.append(ax.legend(fontsize="small", loc="upper center", ncols=3,
                          bbox_to_anchor=(0.5, -0.14)))
    return arts


__all__ = ["plot_value_distribution", "plot_best_share", "plot_value_vs_feature",
           "plot_trump_length", "plot_dominoes_rank", "plot_brackets", "contract_heading"]

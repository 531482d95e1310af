"""Summary tables of a statistics dataset (``docs/stats.md``), as ``polars.DataFrame`` s.

Every builder takes the dataset's frames (:func:`analyzer.stats.load_dataset`) and returns
a new frame; nothing is printed or written. Values are the declarer's guaranteed
(paranoid) values in raw points (design.md, "Solution concepts").

A contract's value for a declarer is the best of its options (the declarer names the
trump suit or the starting rank): :func:`contract_values`.
"""

from __future__ import annotations

from typing import Sequence

import polars as pl

#: Features that explain each preset contract's value, for :func:`value_by_feature` on a
#: dataset whose manifest has no ``features`` mapping.
CONTRACT_FEATURE: dict[str, str] = {
    "no-hearts": "hearts", "no-king": "hearts", "no-queens": "queens",
    "no-tricks": "hcp", "no-last": "hcp", "no-last-two": "hcp", "salad": "hcp",
    "ravage-city": "longest",
}

_KEYS = ["deal", "declarer", "contract"]


def contract_order(values: pl.DataFrame, order: Sequence[str] | None = None) -> list[str]:
    """Contracts in ``order`` (a manifest's list) that occur, then any others, sorted."""
    present = set(values["contract"].unique().to_list())
    first = [c for c in (order or []) if c in present]
    return first + sorted(present - set(first))


def _ordered(df: pl.DataFrame, order: list[str]) -> pl.DataFrame:
    idx = {c: i for i, c in enumerate(order)}
    return (df.with_columns(pl.col("contract").replace_strict(idx, default=len(idx),
                                                              return_dtype=pl.Int32)
                            .alias("_o"))
            .sort(["_o"]).drop("_o"))


def contract_values(values: pl.DataFrame) -> pl.DataFrame:
    """The declarer's value of each contract (best over its trump suits / starting ranks).

    Returns columns ``deal, declarer, contract, value`` (raw points), one row per deal,
    declarer and contract.
    """
    return (values.group_by(_KEYS).agg(pl.col("value").max())
            .sort(_KEYS))


def value_summary(values: pl.DataFrame, order: Sequence[str] | None = None) -> pl.DataFrame:
    """Distribution of the declarer's guaranteed value per contract.

    Columns ``contract, hands, mean, std, min, q25, median, q75, max`` (raw points);
    ``hands`` counts (deal, declarer) pairs. Quartiles interpolate linearly between the
    values, as the report's box plot does (numpy's and matplotlib's default).
    """
    cv = contract_values(values)
    out = cv.group_by("contract").agg(
        pl.len().alias("hands"),
        pl.col("value").mean().alias("mean"),
        pl.col("value").std().alias("std"),
        pl.col("value").min().alias("min"),
        pl.col("value").quantile(0.25, "linear").alias("q25"),
        pl.col("value").quantile(0.5, "linear").alias("median"),
        pl.col("value").quantile(0.75, "linear").alias("q75"),
        pl.col("value").max().alias("max"),
    )
    return _ordered(out, contract_order(values, order))


def best_contract_share(values: pl.DataFrame, order: Sequence[str] | None = None
                        ) -> pl.DataFrame:
    """How often each contract is the declarer's best (highest guaranteed value).

    A tie between k contracts counts 1/k for each. Columns ``contract, best`` (number of
    hands, fractional with ties), ``share`` (percent of hands).
    """
    cv = contract_values(values)
    top = cv.group_by(["deal", "declarer"]).agg(pl.col("value").max().alias("top"))
    hands = top.height
    winners = (cv.join(top, on=["deal", "declarer"])
               .filter(pl.col("value") == pl.col("top"))
               .with_columns((1.0 / pl.len().over(["deal", "declarer"])).alias("w")))
    out = winners.group_by("contract").agg(pl.col("w").sum().alias("best"))
    allc = pl.DataFrame({"contract": contract_order(values, order)})
    out = (allc.join(out, on="contract", how="left")
           .with_columns(pl.col("best").fill_null(0.0))
           .with_columns((100.0 * pl.col("best") / max(hands, 1)).alias("share")))
    return _ordered(out, contract_order(values, order))


def _agg_mean(df: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    return (df.group_by(by).agg(
        pl.len().alias("n"),
        pl.col("value").mean().alias("mean"),
        # (one case: no spread to measure, so no standard error: null, shown as "–")
        (pl.col("value").std() / pl.len().sqrt()).alias("stderr"))
        .sort(by))


def value_by_feature(values: pl.DataFrame, features: pl.DataFrame,
                     contracts: Sequence[str] | None = None,
                     feature: str | None = None,
                     order: Sequence[str] | None = None,
                     mapping: dict[str, str | None] | None = None) -> pl.DataFrame:
    """Mean contract value against a feature of the declarer's hand.

    Parameters
    ----------
    values, features : DataFrame
        The dataset's tables.
    contracts : contract ids, optional
        Default: every contract of ``mapping`` present, in ``order`` (a manifest's
        contract list) where given.
    feature : str, optional
        A column of the features table; default: each contract's feature in ``mapping``.
    mapping : dict, optional
        Contract id → feature column (None: no feature), as a manifest's ``features``
        (:func:`analyzer.features.contract_feature`); default :data:`CONTRACT_FEATURE`,
        by the presets' ids (datasets written before manifests held the mapping).

    Returns
    -------
    DataFrame
        ``contract, feature, x, n, mean, stderr``: ``x`` the feature's value, ``mean`` the
        mean contract value (raw points) of the hands with that value, ``stderr`` its
        standard error.
    """
    cv = contract_values(values)
    present = set(cv["contract"].to_list())
    mapping = CONTRACT_FEATURE if mapping is None else mapping
    cs = [c for c in (contracts or mapping) if c in present]
    if order is not None and contracts is None:
        rank = {c: i for i, c in enumerate(order)}
        cs.sort(key=lambda c: rank.get(c, len(rank)))
    frames = []
    for c in cs:
        f = feature or mapping.get(c)
        if f is None or f not in features.columns:
            continue
        j = (cv.filter(pl.col("contract") == c)
             .join(features.select("deal", pl.col("seat").alias("declarer"),
                                   pl.col(f).cast(pl.Int64).alias("x")),
                   on=["deal", "declarer"]))
        frames.append(_agg_mean(j, ["contract", "x"]).with_columns(
            pl.lit(f).alias("feature")))
    schema = {"contract": pl.String, "feature": pl.String, "x": pl.Int64, "n": pl.UInt32,
              "mean": pl.Float64, "stderr": pl.Float64}
    if not frames:
        return pl.DataFrame(schema=schema)
    return pl.concat(frames).select([pl.col(k).cast(v) for k, v in schema.items()])


def _one_contract(v: pl.DataFrame, contract: str | None, usual: str) -> pl.DataFrame:
    """The rows of ``contract``; None: of ``usual`` where it has rows, else of the first
    contract that has (a rules file may name Trumps "atout"; two such contracts are
    never averaged together)."""
    if contract is None:
        contract = _pick(v, usual)
    return v.filter(pl.col("contract") == contract)


def _pick(v: pl.DataFrame, usual: str) -> str:
    names = v["contract"].unique(maintain_order=True).to_list()
    return usual if usual in names or not names else names[0]


def trump_contract(values: pl.DataFrame) -> str:
    """The contract :func:`value_by_trump_length` draws by default: ``trumps``, else the
    first contract with a trump suit (a rules file's "atout")."""
    return _pick(values.filter(pl.col("trump").is_not_null()), "trumps")


def rank_contract(values: pl.DataFrame) -> str:
    """The contract :func:`value_by_rank` draws by default: ``dominoes``, else the first
    contract with starting ranks."""
    return _pick(values.filter(pl.col("rank").is_not_null()), "dominoes")


def value_by_trump_length(values: pl.DataFrame, features: pl.DataFrame,
                          contract: str | None = None) -> pl.DataFrame:
    """Trumps: mean value of a trump suit against the declarer's length in it.

    Every trump suit of every hand counts once. Columns ``trump_length, n, mean,
    stderr`` (raw points); empty when the contract is not in the dataset. ``contract``
    None: ``trumps``, else the first contract with a trump suit (:func:`_one_contract`).
    """
    v = _one_contract(values.filter(pl.col("trump").is_not_null()), contract, "trumps")
    lens = features.select("deal", pl.col("seat").alias("declarer"),
                           "len_s", "len_h", "len_d", "len_c")
    j = v.join(lens, on=["deal", "declarer"]).with_columns(
        pl.when(pl.col("trump") == "S").then(pl.col("len_s"))
        .when(pl.col("trump") == "H").then(pl.col("len_h"))
        .when(pl.col("trump") == "D").then(pl.col("len_d"))
        .otherwise(pl.col("len_c")).cast(pl.Int64).alias("trump_length"))
    out = _agg_mean(j, ["trump_length"])
    return out.select(pl.col("trump_length"), pl.col("n").cast(pl.UInt32), "mean", "stderr")


RANK_ORDER = "23456789TJQKA"


def value_by_rank(values: pl.DataFrame, contract: str | None = None) -> pl.DataFrame:
    """Dominoes: mean value for the declarer of each starting rank, and how often each is
    the best rank. Columns ``rank, n, mean, stderr, best_share`` (percent of hands where
    that rank is best, ties split); ranks low to high; empty without ranks. ``contract``
    None: ``dominoes``, else the first contract with ranks (:func:`_one_contract`)."""
    v = _one_contract(values.filter(pl.col("rank").is_not_null()), contract, "dominoes")
    schema = {"rank": pl.String, "n": pl.UInt32, "mean": pl.Float64, "stderr": pl.Float64,
              "best_share": pl.Float64}
    if v.height == 0:
        return pl.DataFrame(schema=schema)
    out = _agg_mean(v, ["rank"])
    top = v.group_by(["deal", "declarer"]).agg(pl.col("value").max().alias("top"))
    hands = max(top.height, 1)
    best = (v.join(top, on=["deal", "declarer"]).filter(pl.col("value") == pl.col("top"))
            .with_columns((1.0 / pl.len().over(["deal", "declarer"])).alias("w"))
            .group_by("rank").agg((100.0 * pl.col("w").sum() / hands).alias("best_share")))
    out = (out.join(best, on="rank", how="left")
           .with_columns(pl.col("best_share").fill_null(0.0),
                         pl.col("rank").replace_strict(
                             {r: i for i, r in enumerate(RANK_ORDER)},
                             return_dtype=pl.Int32).alias("_o"))
           .sort("_o").drop("_o"))
    return out.select([pl.col(k).cast(t) for k, t in schema.items()])


def bracket_summary(brackets: pl.DataFrame, order: Sequence[str] | None = None
                    ) -> pl.DataFrame:
    """Doubling brackets of the stored options (design.md): with perfect play the
    declarer's raw score minus the opponent's lies in ``[low, high]``.

    Columns ``contract, pairs, declarer_wins`` (percent with ``low > 0``),
    ``opponent_wins`` (``high < 0``), ``undecided`` (the rest), ``mean_low, mean_high,
    mean_width`` (raw points).
    """
    schema = {"contract": pl.String, "pairs": pl.UInt32, "declarer_wins": pl.Float64,
              "opponent_wins": pl.Float64, "undecided": pl.Float64,
              "mean_low": pl.Float64, "mean_high": pl.Float64, "mean_width": pl.Float64}
    if brackets.height == 0:
        return pl.DataFrame(schema=schema)
    out = brackets.group_by("contract").agg(
        pl.len().alias("pairs"),
        (100.0 * (pl.col("low") > 0).mean()).alias("declarer_wins"),
        (100.0 * (pl.col("high") < 0).mean()).alias("opponent_wins"),
        (100.0 * ((pl.col("low") <= 0) & (pl.col("high") >= 0)).mean()).alias("undecided"),
        pl.col("low").mean().alias("mean_low"),
        pl.col("high").mean().alias("mean_high"),
        (pl.col("high") - pl.col("low")).mean().alias("mean_width"))
    out = _ordered(out, contract_order(brackets, order))
    return out.select([pl.col(k).cast(t) for k, t in schema.items()])


__all__ = ["contract_values", "value_summary", "best_contract_share", "value_by_feature",
           "value_by_trump_length", "value_by_rank", "bracket_summary", "contract_order",
           "CONTRACT_FEATURE"]

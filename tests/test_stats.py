"""The statistics runner: deals are pure in (seed, index), rows equal the solvers' values,
local processes and a local Dask cluster give identical tables, a killed run resumes to
the same result, and bad input fails in one line without touching anything.

Workloads are tiny: the ``barbu-32`` preset with cheap contracts, a handful of deals.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analyzer import stats as S
from analyzer.cards import parse_hand, random_deal
from analyzer.dominoes import solve_dominoes
from analyzer.errors import BarbuError, CannotWrite
from analyzer.features import FEATURE_COLUMNS, hand_features
from analyzer.rules import load_rules
from analyzer.solve import solve

ROOT = Path(__file__).resolve().parents[1]
#: A cheap workload: No King and Dominoes (one option per first-card rank), brackets of
#: the best option (Trumps brackets cost more: see test_trumps_rows).
CHEAP = dict(rules="barbu-32", contracts="no-king,dominoes", seed=2026)


def _same(a: dict[str, pl.DataFrame], b: dict[str, pl.DataFrame]) -> None:
    assert a.keys() == b.keys()
    for t in a:
        assert_frame_equal(a[t], b[t])


@pytest.fixture(scope="module")
def serial(tmp_path_factory) -> tuple[Path, dict]:
    """A 3-deal run in this process, the reference the other back ends must equal."""
    out = tmp_path_factory.mktemp("serial") / "ds"
    seen: list[tuple[int, int]] = []
    summary = S.run_stats(out, deals=3, workers=1, chunk_size=1,
                          progress=lambda d, t: seen.append((d, t)), **CHEAP)
    return out, {"summary": summary, "progress": seen}


# ----------------------------------------------------------------------------- deals
def test_deal_is_a_pure_function_of_seed_and_index():
    children = np.random.SeedSequence(5).spawn(3)
    for i in range(3):
        want = random_deal(np.random.default_rng(children[i]), deck=32)
        assert S.deal_for(5, i, 32) == want
    assert S.deal_for(5, 0, 52) != S.deal_for(5, 1, 52)
    assert S.deal_for(5, 0, 52) != S.deal_for(6, 0, 52)


def test_hand_features_by_hand():
    f = hand_features(parse_hand("AKQ2.KT9.876.543"), 52)
    assert (f["len_s"], f["len_h"], f["len_d"], f["len_c"]) == (4, 3, 3, 3)
    assert (f["hcp"], f["aces"], f["kings"], f["queens"], f["jacks"]) == (12, 1, 2, 1, 0)
    assert f["has_hk"] and not f["has_ha"] and f["hk_guard"] == 2
    assert (f["longest"], f["shortest"], f["voids"], f["singletons"]) == (4, 3, 0, 0)
    assert f["low_cards"] == 7 and f["high_hearts"] == 1 and f["tens"] == 1
    # docs/stats.md: hearts J or higher, tens, suits of one card (a mutation audit's
    # survivors: "> J", the nine as the ten, "<= 1" counting voids)
    g = hand_features(parse_hand("AJ.J2.T.K5432"), 52)
    assert (g["high_hearts"], g["tens"], g["singletons"], g["voids"]) == (1, 1, 1, 0)
    v = hand_features(parse_hand("AKQJT987..."), 32)
    assert (v["singletons"], v["voids"], v["tens"], v["high_hearts"]) == (0, 3, 1, 0)
    assert (f["rank_min"], f["rank_max"]) == (0, 12)
    g = hand_features(parse_hand("AKQJT987..."), 32)
    assert (g["voids"], g["hearts"], g["hk_guard"], g["lowest_rank_sum"]) == (3, 0, 0, 0)
    assert set(f) == set(FEATURE_COLUMNS)


def test_each_features_row_is_its_seats_hand(serial):
    """The features table's row for a deal and seat holds that seat's hand's features
    (docs/stats.md: join it to values.declarer)."""
    f = S.load_dataset(serial[0])["features"]
    assert f.height == 3 * 4
    for row in f.iter_rows(named=True):
        deal = S.deal_for(2026, row["deal"], 32)
        want = hand_features(deal.hands["NESW".index(row["seat"])], 32)
        assert {k: row[k] for k in want} == want, (row["deal"], row["seat"])


def test_progress_counts_deals_not_chunks(tmp_path):
    seen: list[tuple[int, int]] = []
    S.run_stats(tmp_path / "ds", deals=3, workers=1, chunk_size=2, brackets="none",
                progress=lambda d, t: seen.append((d, t)), **CHEAP)
    assert seen == [(0, 3), (2, 3), (3, 3)]


def test_resume_progress_counts_a_partial_last_chunk_as_its_own_deals(tmp_path):
    """Five deals in chunks of two: chunks 0 and 2 kept (2 deals and the last, partial,
    1 deal), chunk 1 solved again; progress starts at the 3 kept deals."""
    out = tmp_path / "ds"
    S.run_stats(out, deals=5, workers=1, chunk_size=2, brackets="none", **CHEAP)
    shutil.rmtree(out / "chunks" / "000001")
    seen: list[tuple[int, int]] = []
    s = S.run_stats(out, deals=5, workers=1, resume=True, brackets="none",
                    progress=lambda d, t: seen.append((d, t)), **CHEAP)
    assert (s["chunks_resumed"], s["chunks_solved"]) == (2, 1)
    assert seen == [(3, 5), (5, 5)]


def _solves_by_deal(data: dict[str, pl.DataFrame]) -> dict[int, int]:
    """The solves each deal of a dataset took, counted from its rows: one a value, two a
    doubling bracket (its two ends)."""
    n = {i: 0 for i in data["deals"]["deal"].to_list()}
    for i in data["values"]["deal"].to_list():
        n[i] += 1
    for i in data["brackets"]["deal"].to_list():
        n[i] += 2
    return n


def test_working_reports_each_solve_of_the_chunk_under_way(tmp_path, monkeypatch):
    """A chunk's progress between its start and end (a 52-card deal takes minutes): in
    this process, every solve once the report interval is 0, up to the solves its rows
    show."""
    monkeypatch.setattr(S, "WORKING_EVERY", 0.0)
    seen: list[dict] = []
    out = tmp_path / "ds"
    S.run_stats(out, deals=2, workers=1, chunk_size=1, working=lambda u: seen.append(u),
                **CHEAP)
    want = _solves_by_deal(S.load_dataset(out))
    assert all(len(u) == 1 for u in seen if u) and seen[-1] == {}
    for chunk in (0, 1):
        mine = [u[chunk] for u in seen if chunk in u]
        total = want[chunk]
        assert total > 10 and mine == [(d, total) for d in range(total + 1)]


def test_working_reports_the_chunks_under_way_in_worker_processes(tmp_path, monkeypatch):
    """With local processes the parent reads the workers' counts at each poll: they only
    grow, up to each chunk's solves; a finished chunk leaves the report."""
    import analyzer.pools as pools
    monkeypatch.setattr(pools, "POLL", 0.005)
    seen: list[dict] = []
    out = tmp_path / "ds"
    s = S.run_stats(out, deals=2, workers=2, chunk_size=1, working=lambda u: seen.append(u),
                    contracts="no-king,dominoes,no-tricks", rules="barbu-32", seed=2026)
    assert s["backend"] == "processes"
    want = _solves_by_deal(S.load_dataset(out))
    assert seen[-1] == {}  # (the last chunk has ended)
    for chunk in (0, 1):
        mine = [u[chunk] for u in seen if chunk in u]
        assert mine and all(t == want[chunk] for _, t in mine)
        assert [d for d, _ in mine] == sorted(d for d, _ in mine)
    assert any(0 < d < t for u in seen for d, t in u.values())


def test_resolve_contracts():
    r = load_rules("barbu-32")
    assert S.resolve_contracts(r, None) == r.match_contracts
    assert S.resolve_contracts(r, "dominoes, barbu") == ("no-king", "dominoes")
    with pytest.raises(BarbuError, match="unknown contract"):
        S.resolve_contracts(r, "no-such")


# ----------------------------------------------------------------------------- the rows
def test_rows_are_the_solvers_values(serial):
    out, info = serial
    data = S.load_dataset(out, complete=True)
    r = load_rules("barbu-32")
    v, f, b, d = data["values"], data["features"], data["brackets"], data["deals"]
    assert d["deal"].to_list() == [0, 1, 2]
    assert f.height == 12 and set(f["seat"]) == set("NESW")
    # every declarer: 1 No King + one Dominoes row per first-card rank he holds
    per = v.group_by(["deal", "declarer"]).len()
    assert per.height == 12
    for i, decl, n in per.select("deal", "declarer", "len").rows():
        ranks = {c % 13 for c in S.deal_for(CHEAP["seed"], i, 32).hands["NESW".index(decl)]}
        assert n == 1 + len(ranks)
    # spot-check rows against the solvers, declarer E leads (lead = declarer)
    deal = S.deal_for(CHEAP["seed"], 1, 32)
    row = v.filter((pl.col("deal") == 1) & (pl.col("declarer") == "E")
                   & (pl.col("contract") == "no-king"))
    assert Fraction(row["value_num"][0], row["value_den"][0]) == solve(
        deal, r, "no-king", leader="E", seat="E")
    dom = v.filter((pl.col("deal") == 1) & (pl.col("declarer") == "E")
                   & (pl.col("contract") == "dominoes"))
    assert dom.height >= 1
    k = dom["rank"][0]
    assert Fraction(dom["value_num"][0], dom["value_den"][0]) == solve_dominoes(
        deal, r, "dominoes", first="E", start_rank=k, seat="E")
    # brackets: the declarer's best option vs each opponent, low <= high
    assert b.height == 12 * 3
    assert (b["low"] <= b["high"]).all()
    # ... and the two ends of each bet as the solvers give them: low the declarer's end
    # (e_X - e_Y, X maximising), high minus the opponent's (e_Y - e_X, Y maximising)
    for row in b.iter_rows(named=True):
        i, x, y = row["deal"], "NESW".index(row["declarer"]), "NESW".index(row["opponent"])
        deal = S.deal_for(CHEAP["seed"], i, 32)
        mine = v.filter((pl.col("deal") == i) & (pl.col("declarer") == row["declarer"]))
        best = max(Fraction(n, q) for n, q in zip(mine["value_num"], mine["value_den"]))
        opt = mine.filter((pl.col("contract") == row["contract"])
                          & pl.col("rank").eq_missing(row["rank"]))
        assert Fraction(opt["value_num"][0], opt["value_den"][0]) == best
        w = [0, 0, 0, 0]
        w[x], w[y] = 1, -1
        if row["contract"] == "dominoes":
            kw = dict(first=x, start_rank=row["rank"])
            end = lambda ws, m: solve_dominoes(deal, r, "dominoes", weights=ws,  # noqa: E731
                                               maximizers=[m], **kw)
        else:
            end = lambda ws, m: solve(deal, r, row["contract"], trump=row["trump"],  # noqa: E731
                                      leader=x, weights=ws, maximizers=[m])
        assert (row["low"], row["high"]) == (float(end(w, x)), float(-end([-c for c in w], y)))
    assert info["progress"] == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert info["summary"]["rows"]["deals"] == 3
    assert S.read_manifest(out)["complete"] is True


def test_trumps_rows(tmp_path):
    """Trumps: one row per trump suit, exact halves, equal to the solver's value."""
    out = tmp_path / "t"
    S.run_stats(out, deals=1, seed=9, rules="barbu-32", contracts="atout", workers=1,
                brackets="none")
    data = S.load_dataset(out)
    v = data["values"]
    assert v.height == 16 and data["brackets"].height == 0
    assert set(v["trump"]) == set("SHDC") and v["rank"].null_count() == 16
    assert (v["value_num"] / v["value_den"] - v["value"]).abs().max() == 0
    deal = S.deal_for(9, 0, 32)
    for decl, trump, num, den in v.select("declarer", "trump", "value_num",
                                          "value_den").rows():
        assert Fraction(num, den) == solve(deal, "barbu-32", "trumps", trump=trump,
                                           leader=decl, seat=decl)


def test_local_dask_cluster_and_processes_give_identical_tables(serial, tmp_path):
    pytest.importorskip("distributed")
    ref = S.load_dataset(serial[0])
    # another chunk size too: chunks are bookkeeping, not part of the result
    s1 = S.run_stats(tmp_path / "proc", deals=3, workers=2, chunk_size=2, **CHEAP)
    assert s1["backend"] == "processes"
    s2 = S.run_stats(tmp_path / "dask", deals=3, cluster="local", workers=2, chunk_size=1,
                     **CHEAP)
    assert s2["backend"] == "dask" and s2["workers"] == 2
    _same(S.load_dataset(tmp_path / "proc"), ref)
    _same(S.load_dataset(tmp_path / "dask"), ref)


def test_existing_scheduler(serial, tmp_path):
    """``scheduler=ADDRESS`` submits to a running cluster (here an in-process one)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as lc:
        s = S.run_stats(tmp_path / "remote", deals=3, scheduler=lc.scheduler_address,
                        chunk_size=3, **CHEAP)
    assert s["backend"] == "dask" and s["chunks"] == 1
    _same(S.load_dataset(tmp_path / "remote"), S.load_dataset(serial[0]))


_KILLER = """
import os, signal, sys
from analyzer.stats import run_stats
def stop(done, total):
    if done >= 2:
        os.kill(os.getpid(), signal.SIGKILL)
run_stats(sys.argv[1], deals=3, workers=1, chunk_size=1, progress=stop,
          rules="barbu-32", contracts="no-king,dominoes", seed=2026)
"""


def test_killed_run_resumes_to_the_same_result(serial, tmp_path):
    out = tmp_path / "killed"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(_KILLER), str(out)],
                       cwd=ROOT, env=env, capture_output=True, timeout=300)
    assert p.returncode == -9, p.stderr.decode()[-2000:]
    done = sorted(x.name for x in (out / "chunks").iterdir())
    assert done == ["000000", "000001"]
    assert S.read_manifest(out)["complete"] is False
    # a chunk that was being written when the run stopped (where this version and
    # earlier ones wrote it): never read, by load_dataset or by the documented glob
    (out / "chunks" / "000002.tmp").mkdir()
    (out / "chunks" / "000002.tmp" / "values.parquet").write_bytes(b"half")
    (out / "chunks.tmp" / "000002").mkdir(parents=True)
    (out / "chunks.tmp" / "000002" / "values.parquet").write_bytes(b"half")
    with pytest.raises(BarbuError, match="incomplete"):
        S.load_dataset(out, complete=True)
    with pytest.raises(BarbuError, match="not empty"):
        S.run_stats(out, deals=3, workers=1, chunk_size=1, **CHEAP)
    s = S.run_stats(out, deals=3, workers=1, resume=True, **CHEAP)
    assert (s["chunks_resumed"], s["chunks_solved"]) == (2, 1)
    assert not (out / "chunks" / "000002.tmp").exists()
    assert not (out / "chunks.tmp").exists()
    _same(S.load_dataset(out, complete=True), S.load_dataset(serial[0]))
    # resuming a finished run solves nothing and changes nothing
    s = S.run_stats(out, deals=3, workers=1, resume=True, **CHEAP)
    assert s["chunks_solved"] == 0


# ----------------------------------------------------------------------------- bad input
def test_a_chunk_table_with_a_deal_outside_its_range_or_twice_is_refused(serial):
    """The check behind load_dataset's refusal, table by table: chunk 1 of a 3-deal run
    in chunks of one holds deal 1 only."""
    man = S.read_manifest(serial[0])
    ok = pl.DataFrame({"deal": [1], "pbn": [S.deal_for(man["seed"], 1, 32).to_pbn()]})
    S._check_chunk(serial[0], man, 1, "deals", ok)
    for table, deals in (("features", [1, 2]), ("brackets", [2]), ("values", [0, 1]),
                         ("deals", [1, 1])):
        df = pl.DataFrame({"deal": deals, "pbn": [ok["pbn"][0]] * len(deals)})
        with pytest.raises(BarbuError, match=f"chunk 1 does not hold the deals .*{table}"):
            S._check_chunk(serial[0], man, 1, table, df)


def test_a_chunk_with_other_deals_is_refused(serial, tmp_path):
    """Only the deals table's deal numbers were checked: a values file copied from
    another chunk, or a whole chunk from a run of another seed, was read as this one."""
    ref = serial[0]

    def spliced(name: str, source: Path, chunk: int) -> Path:
        """The reference dataset with chunk ``chunk``'s folder, or one of its files,
        replaced by ``source``."""
        d = tmp_path / name
        shutil.copytree(ref, d)
        dest = d / "chunks" / f"{chunk:06d}"
        if source.is_dir():
            shutil.rmtree(dest)
            shutil.copytree(source, dest)
        else:
            shutil.copy(source, dest / source.name)
        return d

    def refused(d: Path, chunk: int, older_message: str | None = None) -> None:
        with pytest.raises(BarbuError, match=f"chunk {chunk}'s files are not the ones"):
            S.load_dataset(d)
        if older_message:  # the same chunk without its record (an older version)
            (d / "chunks" / f"{chunk:06d}" / "chunk.json").unlink()
            with pytest.raises(BarbuError, match=older_message):
                S.load_dataset(d)

    refused(spliced("mixed", ref / "chunks" / "000001" / "values.parquet", 0), 0,
            "chunk 0 does not hold the deals")
    other = tmp_path / "other"
    S.run_stats(other, deals=3, workers=1, chunk_size=1, **{**CHEAP, "seed": CHEAP["seed"] + 1})
    refused(spliced("foreign", other / "chunks" / "000001", 1), 1, "copied from another run")
    # one table from the same chunk of a run of another seed: its deal numbers fit
    refused(spliced("same", other / "chunks" / "000000" / "values.parquet", 0), 0)
    # a whole chunk of a run with the same seed but other contracts: its deals fit
    narrow = tmp_path / "narrow"
    S.run_stats(narrow, deals=3, workers=1, chunk_size=1,
                **{**CHEAP, "contracts": "no-king"})
    alike = spliced("alike", narrow / "chunks" / "000002", 2)
    with pytest.raises(BarbuError, match="chunk 2's files are not the ones it wrote.*"
                                         "--resume"):
        S.load_dataset(alike)
    (alike / "chunks" / "000002" / "chunk.json").write_text("[" * 100000 + "]" * 100000)
    refused(alike, 2)


def test_a_stray_first_manifest_does_not_block_a_new_run(tmp_path):
    out = tmp_path / "stopped"
    out.mkdir()
    (out / "manifest.json.tmp").write_text('{"format": "barb')
    s = S.run_stats(out, deals=1, workers=1, **CHEAP)
    assert s["chunks_solved"] == 1 and not (out / "manifest.json.tmp").exists()


def test_existing_nonempty_out_is_not_overwritten(tmp_path):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(BarbuError, match="exists and is not empty"):
        S.run_stats(out, deals=1, workers=1, **CHEAP)
    assert [x.name for x in out.iterdir()] == ["keep.txt"]
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(BarbuError, match="not a folder"):
        S.run_stats(f, deals=1, workers=1, **CHEAP)


def test_resume_with_other_parameters_fails(serial, tmp_path):
    out = serial[0]
    before = sorted(p.stat().st_mtime_ns for p in out.rglob("*"))
    with pytest.raises(BarbuError, match="seed"):
        S.run_stats(out, deals=3, workers=1, resume=True,
                    **dict(CHEAP, seed=1))
    with pytest.raises(BarbuError, match="deals"):
        S.run_stats(out, deals=4, workers=1, resume=True, **CHEAP)
    with pytest.raises(BarbuError, match="contracts"):
        S.run_stats(out, deals=3, workers=1, resume=True, **dict(CHEAP, contracts="no-king"))
    assert sorted(p.stat().st_mtime_ns for p in out.rglob("*")) == before
    # --resume on a folder that is not a dataset
    other = tmp_path / "other"
    other.mkdir()
    (other / "x").write_text("x")
    with pytest.raises(BarbuError, match="no manifest.json"):
        S.run_stats(other, deals=3, workers=1, resume=True, **CHEAP)


def test_a_run_resumes_with_its_rules_under_another_name(serial, tmp_path):
    """The rules are told by their text's hash: a run whose manifest names the same
    rules otherwise (a saved preset given by path was once named by the name inside its
    file) resumes; other rules under the same name do not."""
    import json
    import shutil
    out = tmp_path / "renamed"
    shutil.copytree(serial[0], out)
    shutil.rmtree(out / "chunks" / "000002")  # (a chunk left to do)
    man = json.loads((out / "manifest.json").read_text())
    man.update(rules="old-name", complete=False)
    (out / "manifest.json").write_text(json.dumps(man))
    S.run_stats(out, deals=3, workers=1, resume=True, **CHEAP)
    _same(S.load_dataset(out), S.load_dataset(serial[0]))
    man.update(rules_hash="0" * 16)
    (out / "manifest.json").write_text(json.dumps(man))
    with pytest.raises(BarbuError, match="rules = 'old-name'"):
        S.run_stats(out, deals=3, workers=1, resume=True, **CHEAP)


def test_unreadable_dataset(serial, tmp_path):
    with pytest.raises(BarbuError, match="not a folder"):
        S.load_dataset(tmp_path / "missing")
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "manifest.json").write_text("{not json")
    with pytest.raises(BarbuError, match="unreadable dataset manifest"):
        S.load_dataset(tmp_path / "m")
    bad = tmp_path / "bad"
    import shutil
    shutil.copytree(serial[0], bad)
    (bad / "chunks" / "000001" / "features.parquet").write_bytes(b"garbage")
    with pytest.raises(BarbuError, match="chunk 1's files are not the ones it wrote"):
        S.load_dataset(bad)
    (bad / "chunks" / "000001" / "chunk.json").unlink()  # (a chunk of an older version)
    with pytest.raises(BarbuError, match="unreadable dataset file") as e:
        S.load_dataset(bad)
    assert "\n" not in str(e.value)


def test_a_damaged_dataset_is_named_or_repaired(serial, tmp_path):
    """A chunk missing a table is solved again by --resume (it stayed incomplete
    forever); a hand-edited manifest, a chunk of the wrong shape, or an output that
    cannot be written is one line, never a traceback or a silently short dataset."""
    import json
    import shutil
    src = serial[0]
    m = tmp_path / "missing"
    shutil.copytree(src, m)
    (m / "chunks" / "000001" / "brackets.parquet").unlink()
    s = S.run_stats(m, deals=3, workers=1, resume=True, **CHEAP)
    assert (s["chunks_resumed"], s["chunks_solved"]) == (2, 1)
    _same(S.load_dataset(m, complete=True), S.load_dataset(src))
    for edit, msg in ((dict(chunk_size=0), "bad chunk_size 0"),
                      (dict(chunk_size="abc"), "bad chunk_size 'abc'"),
                      (dict(chunks=None), "bad chunks None"),
                      (dict(contracts=None), "bad contracts None"),
                      (dict(chunk_size=2, chunks=5), "cannot hold 3 deals"),
                      (dict(chunk_size=2, chunks=2), "beyond the manifest's 2 chunks")):
        e = tmp_path / f"edit{len(msg)}"
        shutil.copytree(src, e)
        man = json.loads((e / "manifest.json").read_text())
        man.update(edit)
        (e / "manifest.json").write_text(json.dumps(man))
        with pytest.raises(BarbuError, match=msg):
            S.load_dataset(e)
        with pytest.raises(BarbuError, match=msg):
            S.run_stats(e, deals=3, workers=1, resume=True, **CHEAP)
    short = tmp_path / "short"            # chunks 1-2 gone, the chunk size edited to 2
    shutil.copytree(src, short)
    for k in (1, 2):
        shutil.rmtree(short / "chunks" / f"00000{k}")
    man = json.loads((short / "manifest.json").read_text())
    man.update(chunk_size=2, chunks=2, complete=False)
    (short / "manifest.json").write_text(json.dumps(man))
    with pytest.raises(BarbuError, match="chunk 0 does not hold the deals"):
        S.run_stats(short, deals=3, workers=1, resume=True, **CHEAP)
    assert S.read_manifest(short)["complete"] is False
    shape = tmp_path / "shape"
    shutil.copytree(src, shape)
    shutil.copy(src / "chunks" / "000000" / "deals.parquet",
                shape / "chunks" / "000001" / "values.parquet")
    (shape / "chunks" / "000001" / "chunk.json").unlink()  # (older: no record)
    with pytest.raises(BarbuError, match="does not have the documented columns"):
        S.load_dataset(shape)
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    with pytest.raises(CannotWrite, match="cannot write the dataset"):  # (exit status 1)
        S.run_stats(blocker / "sub", deals=1, workers=1, **CHEAP)


def test_unanswering_scheduler_fails_in_one_line(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(S, "SCHEDULER_TIMEOUT", "1s")
    out = tmp_path / "never"
    with pytest.raises(BarbuError, match="no Dask scheduler answers at tcp://127.0.0.1:9") as e:
        S.run_stats(out, deals=2, scheduler="tcp://127.0.0.1:9", **CHEAP)
    assert "\n" not in str(e.value)
    assert not out.exists()
    for bad in ("localhost", "http://x:1"):
        with pytest.raises(BarbuError, match="bad --scheduler address"):
            S.run_stats(out, deals=2, scheduler=bad, **CHEAP)
    assert not out.exists()


def test_workers_zero_means_every_core(tmp_path):
    """As in solve and advise, --workers 0 is every core."""
    s = S.run_stats(tmp_path / "z", deals=2, workers=0, chunk_size=1, **CHEAP)
    assert s["workers"] == (os.cpu_count() or 1)


@pytest.mark.parametrize("kw, msg", [
    (dict(deals=0), "bad --deals"),
    (dict(deals=10 ** 20), "bad --deals .*at most"),
    (dict(deals=10 ** 7 + 1), "bad --deals 10000001: at most 10,000,000"),
    (dict(deals=2, seed=-1), "bad --seed"),
    (dict(deals=2, workers=-1), "bad --workers"),
    (dict(deals=2, resume=True), "cannot resume .*: no run there"),
    (dict(deals=2, cluster="yarn"), "bad --cluster"),
    (dict(deals=2, cluster="local", scheduler="tcp://x:1"), "not both"),
    (dict(deals=2, contracts="nope"), "unknown contract"),
    (dict(deals=2, rules="no-such-preset"), "no-such-preset"),
    (dict(deals=2, brackets="some"), "brackets"),
])
def test_bad_arguments(tmp_path, kw, msg):
    args = dict(CHEAP, **kw)
    with pytest.raises(BarbuError, match=msg):
        S.run_stats(tmp_path / "x", **args)
    assert not (tmp_path / "x").exists()


@pytest.mark.slow
def test_full_option_table_every_32_card_preset(tmp_path):
    """Every option of both 32-card presets on two deals: serial and 2 processes agree."""
    for preset in ("barbu-32", "classic-32"):
        a = S.run_stats(tmp_path / f"{preset}-1", deals=2, seed=3, rules=preset, workers=1)
        b = S.run_stats(tmp_path / f"{preset}-2", deals=2, seed=3, rules=preset, workers=2,
                        chunk_size=1)
        assert a["rows"] == b["rows"]
        _same(S.load_dataset(tmp_path / f"{preset}-1"),
              S.load_dataset(tmp_path / f"{preset}-2"))


def test_the_left_hand_opponent_leads_where_the_rules_say(tmp_path):
    """classic-32 (lead = "left"): each declarer's row is solved with his left-hand
    opponent on lead; on this deal that differs from his right-hand opponent leading
    for S."""
    S.run_stats(tmp_path / "c", deals=1, seed=1, rules="classic-32", contracts="no-tricks",
                workers=1, brackets="none")
    v = S.load_dataset(tmp_path / "c")["values"]
    deal = S.deal_for(1, 0, 32)
    differs = 0
    for decl, num, den in v.select("declarer", "value_num", "value_den").rows():
        d = "NESW".index(decl)
        left = solve(deal, "classic-32", "no-tricks", leader=(d + 1) % 4, seat=d)
        assert Fraction(num, den) == left, decl
        differs += left != solve(deal, "classic-32", "no-tricks", leader=(d + 3) % 4, seat=d)
    assert differs


def test_a_contract_the_solver_cannot_play_is_refused_before_any_file(tmp_path):
    """A rules file's Ravage City with a bonus: stats wrote its manifest, then failed,
    and the folder could be neither reused nor resumed (rules-files audit)."""
    import tomllib

    from analyzer.rules import parse_rules
    data = tomllib.loads(load_rules("barbu-32").to_toml())
    data["contracts"]["x"] = {"kind": "tricks", "ravage": -20, "all_tricks_score": 30}
    data["match"]["contracts"] = [*data["match"]["contracts"], "x"]
    r = parse_rules(data, "rb.toml")
    with pytest.raises(BarbuError, match="does not handle Ravage City with a bonus"):
        S.run_stats(tmp_path / "out", deals=1, seed=1, rules=r, contracts="no-king,x",
                    workers=1)
    assert not (tmp_path / "out").exists()


def test_a_52_card_run_of_slow_contracts_says_so_before_solving(tmp_path):
    """`stats` on 52 cards with No Hearts (seconds to minutes a solve, for each of the
    four declarers) says so once the inputs are checked and before any deal is solved;
    a 32-card run says nothing."""
    from analyzer.stats import run_stats

    class Stop(Exception):
        pass

    lines: list[str] = []

    def warn(line: str) -> None:
        lines.append(line)
        raise Stop

    with pytest.raises(Stop):
        run_stats(tmp_path / "t", deals=3, seed=1, rules="tournament",
                  contracts="no-hearts,trumps", workers=1, warn=warn)
    assert lines[0].startswith("note: on 52 cards the guaranteed value in no-hearts takes")
    assert not (tmp_path / "t" / "chunks").exists() or not any((tmp_path / "t" / "chunks")
                                                                .iterdir())
    with pytest.raises(BarbuError, match="bad --deals 0"):
        run_stats(tmp_path / "u", deals=0, seed=1, rules="tournament",
                  contracts="no-hearts", warn=warn)  # (bad input first, no note)
    assert len(lines) == 1
    run_stats(tmp_path / "b", deals=1, seed=1, rules="barbu-32", contracts="no-hearts",
              workers=1, warn=warn)
    assert len(lines) == 1

"""Deal statistics at scale: solve every option of many random deals into a Parquet dataset.

For each deal ``i`` (a pure function of ``(seed, i)``: the deck is shuffled by
``numpy.random.default_rng(SeedSequence(seed, spawn_key=(i,)))``, which is what
``SeedSequence(seed).spawn(n)[i]`` gives) and each seat as declarer, every option of the
preset is solved for the declarer's guaranteed (paranoid) value (design.md, "Solution
concepts"): each contract, each trump suit, each starting rank. Hand features of every
seat, and the doubling brackets of the declarer's best option against each opponent,
go alongside. ``docs/stats.md`` documents the dataset.

Work is cut into chunks of consecutive deals. A chunk is solved by a worker (this
process, local processes, or a Dask cluster: the same pure function) and written by this
process as soon as it comes back, atomically: the chunk's files are written into
``chunks.tmp/NNNNNN/`` and the folder is then moved to ``chunks/NNNNNN/``. A stopped run
therefore loses at most the chunks in progress, and ``resume=True`` solves only the chunks
that are missing. The tables are identical for a given seed whichever way they ran.

>>> deal_for(7, 0, 32).to_pbn() == deal_for(7, 0, 32).to_pbn()
True
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import multiprocessing as mp
import os
import shutil
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np
import polars as pl

from analyzer.cards import RANK_CHARS, Deal, Seat, random_deal
from analyzer.errors import BarbuError, CannotWrite, check_whole, check_workers
from analyzer.features import FEATURE_COLUMNS, contract_feature, deal_features
from analyzer.options import contract_options
from analyzer.pools import fork_pool, load_kernels, watched
from analyzer.rules import Contract, Rules, load_rules

#: Version of the dataset layout written in ``manifest.json``.
FORMAT_VERSION = 1
#: How long to wait for a Dask scheduler to answer.
SCHEDULER_TIMEOUT = "5s"
#: The tables of a dataset, one Parquet file per chunk each.
TABLES = ("values", "features", "brackets", "deals")
#: Bracket modes: none, the declarer's best option, every option.
BRACKET_MODES = ("none", "best", "all")

VALUES_SCHEMA: dict[str, pl.DataType] = {
    "deal": pl.Int64, "declarer": pl.String, "contract": pl.String, "trump": pl.String,
    "rank": pl.String, "value": pl.Float64, "value_num": pl.Int64, "value_den": pl.Int64,
}
BRACKETS_SCHEMA: dict[str, pl.DataType] = {
    "deal": pl.Int64, "declarer": pl.String, "opponent": pl.String, "contract": pl.String,
    "trump": pl.String, "rank": pl.String, "low": pl.Float64, "high": pl.Float64,
}
FEATURES_SCHEMA: dict[str, pl.DataType] = {
    "deal": pl.Int64, "seat": pl.String,
    **{k: getattr(pl, v) for k, v in FEATURE_COLUMNS.items()},
}
DEALS_SCHEMA: dict[str, pl.DataType] = {"deal": pl.Int64, "pbn": pl.String}
SCHEMAS = {"values": VALUES_SCHEMA, "features": FEATURES_SCHEMA,
           "brackets": BRACKETS_SCHEMA, "deals": DEALS_SCHEMA}
#: Sort keys that make a table's row order independent of how it was produced.
SORT_KEYS = {"values": ["deal", "declarer", "contract", "trump", "rank"],
             "features": ["deal", "seat"],
             "brackets": ["deal", "declarer", "contract", "trump", "rank", "opponent"],
             "deals": ["deal"]}

Option = tuple[str, "int | None", "int | None"]   # (contract id, trump suit, start rank)


# --------------------------------------------------------------------------- deals
def deal_for(seed: int, index: int, deck: int) -> Deal:
    """Deal number ``index`` of a run seeded ``seed`` (pure function of both)."""
    ss = np.random.SeedSequence(int(seed), spawn_key=(int(index),))
    return random_deal(np.random.default_rng(ss), deck=deck)


# --------------------------------------------------------------------------- options
def resolve_contracts(rules: Rules, contracts: Sequence[str] | str | None) -> tuple[str, ...]:
    """Contract ids to solve: the preset's match contracts, or those named (ids or
    aliases, comma-separated text allowed), in the preset's order, without duplicates."""
    if contracts is None or contracts == "" or contracts == []:
        return tuple(rules.match_contracts)
    items = contracts.split(",") if isinstance(contracts, str) else [
        y for x in contracts for y in str(x).split(",")]
    ids = {rules.contract(x).id for x in items if x.strip()}
    if not ids:
        raise BarbuError("--contracts names no contract")
    order = list(rules.match_contracts) + [c for c in rules.contracts
                                           if c not in rules.match_contracts]
    return tuple(c for c in order if c in ids)


# --------------------------------------------------------------------------- one chunk
@dataclass(frozen=True)
class ChunkTask:
    """The work of one chunk: deals ``start .. stop - 1`` of a run (picklable)."""

    chunk: int
    start: int
    stop: int
    seed: int
    rules: Rules
    contracts: tuple[str, ...]
    brackets: str = "best"


def _frac(v: Fraction) -> tuple[float, int, int]:
    f = Fraction(v)
    return float(f), f.numerator, f.denominator


def _opt_names(trump: int | None, rank: int | None) -> tuple[str | None, str | None]:
    return (None if trump is None else "SHDC"[trump],
            None if rank is None else RANK_CHARS[rank])


def _solver(rules: Rules, hands: Sequence[frozenset[int]], declarer: int
            ) -> Callable[..., Fraction]:
    from analyzer.dominoes import dominoes_first_seat, solve_dominoes
    from analyzer.solve import solve
    leader = rules.opening_leader(declarer)
    first = dominoes_first_seat(rules, declarer)

    def run(c: Contract, trump: int | None, rank: int | None, **obj: Any) -> Fraction:
        if c.is_dominoes:
            return solve_dominoes(hands, rules, c, first=first, start_rank=rank, **obj)
        return solve(hands, rules, c, trump=trump, leader=leader, **obj)
    return run


def _chunk_options(task: ChunkTask) -> tuple[list[Any], int]:
    """Each deal of a chunk with each declarer's options, and the number of solves the
    chunk makes (the options, and six a doubling bracket: two ends, three opponents)."""
    from analyzer.dominoes import dominoes_first_seat
    rules = task.rules
    contracts = [rules.contracts[cid] for cid in task.contracts]
    plan, total = [], 0
    for i in range(task.start, task.stop):
        deal = deal_for(task.seed, i, rules.deck)
        per_decl = []
        for decl in range(4):
            first = dominoes_first_seat(rules, decl)
            opts = [(c, trump, rank) for c in contracts
                    for trump, rank in contract_options(rules, c, deal.hands, first, decl)]
            per_decl.append(opts)
            total += len(opts) + 6 * (0 if task.brackets == "none" or not opts
                                      else 1 if task.brackets == "best" else len(opts))
        plan.append((i, deal, per_decl))
    return plan, total


def solve_chunk(task: ChunkTask, tick: Callable[[int, int], Any] | None = None
                ) -> dict[str, pl.DataFrame]:
    """Solve every deal of a chunk: the chunk's four tables (see ``docs/stats.md``).

    A pure function of the task, run in whichever worker; no I/O. ``tick(done, total)``,
    if given, is called before the first solve and after each: the solves made and the
    solves the chunk makes in all.
    """
    from analyzer.solve import declarer_bet_bounds, score_sign
    rules = task.rules
    contracts = [rules.contracts[cid] for cid in task.contracts]
    signs = {c.id: score_sign(rules, c) for c in contracts}
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
    plan, total = _chunk_options(task)
    done = 0

    def solved_one() -> None:
        nonlocal done
        done += 1
        if tick is not None:
            tick(done, total)

    if tick is not None:
        tick(0, total)
    for i, deal, per_decl in plan:
        hands = deal.hands
        rows["deals"].append({"deal": i, "pbn": deal.to_pbn()})
        for seat, f in enumerate(deal_features(hands, rules.deck)):
            rows["features"].append({"deal": i, "seat": Seat(seat).name, **f})
        for decl in range(4):
            run = _solver(rules, hands, decl)
            solved: list[tuple[Contract, int | None, int | None, Fraction]] = []
            for c, trump, rank in per_decl[decl]:
                v = run(c, trump, rank, seat=decl)
                solved_one()
                solved.append((c, trump, rank, v))
                t, k = _opt_names(trump, rank)
                fv, num, den = _frac(v)
                rows["values"].append({"deal": i, "declarer": Seat(decl).name,
                                       "contract": c.id, "trump": t, "rank": k,
                                       "value": fv, "value_num": num, "value_den": den})
            if task.brackets == "none" or not solved:
                continue
            if task.brackets == "best":
                best = max(range(len(solved)), key=lambda j: solved[j][3])
                targets = [solved[best]]
            else:
                targets = solved
            for c, trump, rank, v in targets:
                t, k = _opt_names(trump, rank)
                # the declarer's end starts from his guaranteed value where that bounds it
                b = declarer_bet_bounds(signs[c.id], v, total=rules.total(c))
                hint = {} if b is None else {"bounds": b}
                for opp in range(4):
                    if opp == decl:
                        continue
                    w = [0, 0, 0, 0]
                    w[decl], w[opp] = 1, -1
                    vx = run(c, trump, rank, weights=w, maximizers=[decl], **hint)
                    solved_one()
                    vy = run(c, trump, rank, weights=[-x for x in w], maximizers=[opp])
                    solved_one()
                    rows["brackets"].append({"deal": i, "declarer": Seat(decl).name,
                                             "opponent": Seat(opp).name, "contract": c.id,
                                             "trump": t, "rank": k, "low": float(vx),
                                             "high": float(-vy)})
    return {t: pl.DataFrame(rows[t], schema=SCHEMAS[t])
            for t in TABLES}


# --------------------------------------------------------------------------- dataset files
MANIFEST = "manifest.json"
CHUNKS = "chunks"


def _chunk_dir(out: Path, chunk: int) -> Path:
    return out / CHUNKS / f"{chunk:06d}"


#: where a chunk is written before it is whole: beside ``chunks/``, not in it, so that
#: a glob over ``chunks/*/`` never reads a half-written chunk
CHUNKS_TMP = "chunks.tmp"


#: a chunk's record of itself: what its run was (:data:`RUN_KEYS` of the manifest), its
#: number and its files' digests, so that a file copied from another chunk or run is
#: refused when read
CHUNK_RECORD = "chunk.json"
RUN_KEYS = ("seed", "rules_hash", "contracts", "brackets")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _write_chunk(out: Path, chunk: int, tables: dict[str, pl.DataFrame],
                 run: dict[str, Any]) -> None:
    final = _chunk_dir(out, chunk)
    tmp = out / CHUNKS_TMP / final.name
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    final.parent.mkdir(parents=True, exist_ok=True)
    for name in TABLES:
        tables[name].write_parquet(tmp / f"{name}.parquet")
    record = {**{k: run[k] for k in RUN_KEYS}, "chunk": chunk,
              "sha256": {t: _digest(tmp / f"{t}.parquet") for t in TABLES}}
    (tmp / CHUNK_RECORD).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    if final.exists():  # a duplicate result (should not happen): keep the first
        shutil.rmtree(tmp)
    else:
        tmp.rename(final)
    with contextlib.suppress(OSError):  # left only while a chunk is being written
        tmp.parent.rmdir()


def _done_chunks(out: Path) -> set[int]:
    shutil.rmtree(out / CHUNKS_TMP, ignore_errors=True)  # chunks that were being written
    d = out / CHUNKS
    if not d.is_dir():
        return set()
    done = set()
    for p in d.iterdir():
        if p.name.endswith(".tmp"):  # (where earlier versions wrote them)
            shutil.rmtree(p, ignore_errors=True)  # a chunk that was being written
            continue
        if p.is_dir() and p.name.isdigit():
            if all((p / f"{t}.parquet").is_file() for t in TABLES):
                done.add(int(p.name))
            else:  # a chunk missing a table cannot be trusted: solved again
                shutil.rmtree(p, ignore_errors=True)
    return done


@contextlib.contextmanager
def _writing(out: Path) -> Iterator[None]:
    """File-system errors while writing the dataset as one line (CannotWrite)."""
    try:
        yield
    except OSError as e:
        where = e.filename or out
        raise CannotWrite(f"cannot write the dataset at {where}: "
                         f"{e.strerror or type(e).__name__}") from None


def _rules_hash(rules: Rules) -> str:
    text = rules.to_toml() or json.dumps(rules.raw, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _write_json(path: Path, obj: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(obj, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)


def read_manifest(data_dir: str | Path) -> dict[str, Any]:
    """The manifest of a dataset; :class:`BarbuError` when it is missing or unreadable."""
    p = Path(data_dir)
    if not p.is_dir():
        raise BarbuError(f"no statistics dataset at {data_dir}: not a folder")
    m = p / MANIFEST
    if not m.is_file():
        raise BarbuError(f"not a barbu stats dataset: {data_dir} has no {MANIFEST}")
    try:
        man = json.loads(m.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BarbuError(f"unreadable dataset manifest {m}: {e}") from None
    except RecursionError:
        raise BarbuError(f"unreadable dataset manifest {m}: nested too deeply") from None
    if not isinstance(man, dict) or man.get("format") != "barbu-stats":
        raise BarbuError(f"not a barbu stats dataset: {m} is not a barbu-stats manifest")
    if man.get("version") != FORMAT_VERSION:
        raise BarbuError(f"dataset {data_dir} has layout version {man.get('version')}, "
                         f"this barbu reads version {FORMAT_VERSION}")

    def whole(k: str, lo: int) -> int:
        v = man.get(k)
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise BarbuError(f"dataset manifest {m}: bad {k} {v!r} (edited by hand?)")
        return v

    deals, csize, chunks = whole("deals", 1), whole("chunk_size", 1), whole("chunks", 1)
    whole("seed", 0)
    if chunks != math.ceil(deals / csize):
        raise BarbuError(f"dataset manifest {m}: {chunks} chunks of {csize} cannot hold "
                         f"{deals} deals (edited by hand?)")
    cs = man.get("contracts")
    if not isinstance(cs, list) or not cs or not all(isinstance(c, str) for c in cs):
        raise BarbuError(f"dataset manifest {m}: bad contracts {cs!r} (edited by hand?)")
    fs = man.get("features")  # (absent in datasets written before it was kept)
    if fs is not None and not (isinstance(fs, dict) and all(
            isinstance(k, str) and (v is None or isinstance(v, str)
                                    and FEATURE_COLUMNS.get(v, "String") != "String")
            for k, v in fs.items())):
        raise BarbuError(f"dataset manifest {m}: bad features {fs!r} (edited by hand?)")
    return man


def load_dataset(data_dir: str | Path, *, complete: bool = False) -> dict[str, pl.DataFrame]:
    """Read a dataset's tables (``values``, ``features``, ``brackets``, ``deals``), rows
    in a canonical order (:data:`SORT_KEYS`), so equal runs give equal frames.

    Raises :class:`BarbuError` (one line) when the folder is not a dataset, a chunk file is
    unreadable, or ``complete`` is asked and chunks are missing.
    """
    p = Path(data_dir)
    man = read_manifest(p)
    done = sorted(_done_chunks_readonly(p))
    if done and done[-1] >= man["chunks"]:
        raise BarbuError(f"dataset {data_dir}: chunk {done[-1]} is beyond the manifest's "
                         f"{man['chunks']} chunks (edited by hand?)")
    if complete and len(done) < man["chunks"]:
        raise BarbuError(f"dataset {data_dir} is incomplete ({len(done)} of "
                         f"{man['chunks']} chunks): finish it with --resume")
    for k in done:
        _check_record(p, man, k)
    out: dict[str, pl.DataFrame] = {}
    for t in TABLES:
        frames = []
        for k in done:
            f = _chunk_dir(p, k) / f"{t}.parquet"
            try:
                frames.append(pl.read_parquet(f))
            except Exception as e:  # polars raises several kinds for a bad file
                msg = str(e).splitlines()[0] if str(e) else type(e).__name__
                raise BarbuError(f"unreadable dataset file {f}: {msg}") from None
            try:
                frames[-1] = frames[-1].select([pl.col(c).cast(v)
                                                for c, v in SCHEMAS[t].items()])
            except Exception:
                raise BarbuError(f"dataset file {f} does not have the documented columns "
                                 f"of table {t}") from None
            _check_chunk(p, man, k, t, frames[-1])
        df = pl.concat(frames, how="vertical") if frames else pl.DataFrame(schema=SCHEMAS[t])
        out[t] = df.sort(SORT_KEYS[t], nulls_last=False)
    return out


def _check_record(data_dir: Path, man: dict[str, Any], k: int) -> None:
    """A chunk's files are the ones it wrote, for this run (:data:`CHUNK_RECORD`; chunks
    written before the record existed have none and are checked by their deals only)."""
    d = _chunk_dir(data_dir, k)
    f = d / CHUNK_RECORD
    if not f.exists():
        return
    try:
        rec = json.loads(f.read_text(encoding="utf-8"))
        ok = (all(rec[key] == man.get(key) for key in RUN_KEYS) and rec["chunk"] == k
              and all(_digest(d / f"{t}.parquet") == rec["sha256"][t] for t in TABLES))
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        ok = False
    if not ok:
        raise BarbuError(f"dataset {data_dir}: chunk {k}'s files are not the ones it "
                         f"wrote for this run (copied or edited?): delete {d} and run "
                         "again with --resume to solve it anew")


def _check_chunk(data_dir: Path, man: dict[str, Any], k: int, table: str,
                 df: pl.DataFrame) -> None:
    """A chunk's table holds chunk ``k``'s deals and no other: every deal of its range in
    ``deals`` (the very deal of the run's seed) and ``values``, none outside it anywhere.
    A chunk copied from another chunk or run would otherwise be read as this one."""
    lo, hi = k * man["chunk_size"], min(man["deals"], (k + 1) * man["chunk_size"])
    have = df["deal"].to_list()
    if any(d is None or not lo <= d < hi for d in have) or (
            table in ("deals", "values") and set(have) != set(range(lo, hi))) or (
            table == "deals" and len(have) != hi - lo):
        raise BarbuError(f"dataset {data_dir}: chunk {k} does not hold the deals its "
                         f"manifest gives it ({table}; edited by hand?)")
    deck = man.get("deck")
    if table == "deals" and deck in (32, 52):
        for d, pbn in zip(have, df["pbn"].to_list()):
            if pbn != deal_for(man["seed"], d, deck).to_pbn():
                raise BarbuError(f"dataset {data_dir}: chunk {k}'s deal {d} is not deal "
                                 f"{d} of seed {man['seed']} (copied from another run?)")


def _done_chunks_readonly(out: Path) -> set[int]:
    d = out / CHUNKS
    if not d.is_dir():
        return set()
    return {int(p.name) for p in d.iterdir() if p.is_dir() and p.name.isdigit()
            and all((p / f"{t}.parquet").is_file() for t in TABLES)}


# --------------------------------------------------------------------------- back ends
def _connect_dask(scheduler: str | None, cluster: str | None, workers: int | None
                  ) -> tuple[Any, Any]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise BarbuError("--scheduler and --cluster need Dask: pip install "
                         "'dask[distributed]' (the barbu-dd[cluster] extra)") from None
    if scheduler:
        from distributed.comm import get_address_host_port, parse_address
        from distributed.comm.registry import get_backend
        try:  # a malformed address, before a Client exists to complain at exit
            scheme, _ = parse_address(scheduler)
            get_backend(scheme)
            if scheme != "inproc":  # in-process clusters (tests) have no port
                get_address_host_port(scheduler)
        except (ValueError, TypeError) as e:
            msg = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise BarbuError(f"bad --scheduler address {scheduler!r}: expected "
                             f"tcp://host:port ({msg})") from None
        try:
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as e:
            msg = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise BarbuError(f"no Dask scheduler answers at {scheduler} ({msg})") from None
        return client, None
    if cluster != "local":
        raise BarbuError(f"bad --cluster {cluster!r}: expected 'local'")
    lc = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                      processes=True, dashboard_address=None)
    client = Client(lc, set_as_default=False)
    return client, lc


#: Seconds between two reports of the solves made in a chunk under way (``working``).
WORKING_EVERY = 0.25

#: The solves made in each chunk of a pool's run (``[2k]``: made, ``[2k + 1]``: in all),
#: a shared array the forked workers inherit; None outside such a run.
_SHARED: Any = None

Working = Callable[[dict[int, tuple[int, int]]], Any]


def _run_serial(tasks: list[ChunkTask], working: Working | None = None
                ) -> Iterator[tuple[ChunkTask, dict[str, pl.DataFrame]]]:
    for t in tasks:
        yield t, solve_chunk(t, None if working is None else _reporter(t.chunk, working))
        if working is not None:
            working({})


def _reporter(chunk: int, working: Working) -> Callable[[int, int], None]:
    """A chunk's ``tick`` in this process: ``working`` at most every ``WORKING_EVERY``
    seconds."""
    last = float("-inf")

    def tick(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= WORKING_EVERY:
            last = now
            working({chunk: (done, total)})
    return tick


def _run_processes(tasks: list[ChunkTask], workers: int, working: Working | None = None
                   ) -> Iterator[tuple[ChunkTask, dict[str, pl.DataFrame]]]:
    global _SHARED
    # fork as analyzer.batch does: no re-import of the caller's main module, and the
    # kernels loaded here first are inherited (each worker would load or compile them)
    kinds = [tasks[0].rules.contracts[cid] for cid in tasks[0].contracts]
    load_kernels(tricks=any(c.is_tricks for c in kinds),
                 dominoes=any(c.is_dominoes for c in kinds))
    # the workers write their solve counts where the parent reads them (forked workers
    # only: a spawned one would not share the array)
    shared = (mp.get_context("fork").RawArray("q", 2 * len(tasks))
              if working is not None and "fork" in mp.get_all_start_methods() else None)
    _SHARED = shared
    n = min(workers, len(tasks))
    try:
        pool = fork_pool(n)
    finally:
        _SHARED = None
    finished: set[int] = set()
    first = 0  # (every task before it has finished)

    def look() -> None:
        # tasks start in their order, so those under way lie from the first unfinished
        # one to where more unstarted ones than workers follow: a big run's many chunks
        # are not all read at each look
        nonlocal first
        if shared is None:
            return
        while first in finished:
            first += 1
        under = {}
        unstarted = 0
        k = first
        while k < len(tasks) and unstarted <= n:
            total = shared[2 * k + 1]
            if not total:
                unstarted += 1
            elif k not in finished:
                under[tasks[k].chunk] = (min(shared[2 * k], total), total)
            k += 1
        working(under)

    ok = False
    try:
        for item in watched(pool, pool.imap_unordered(_solve_indexed, list(enumerate(tasks)),
                                                      chunksize=1), idle=look):
            k, tables = item
            finished.add(k)
            yield tasks[k], tables
            look()
        ok = True
    finally:
        if ok:
            pool.close()
        else:  # stopped early (Ctrl-C, an error): stop the workers now
            pool.terminate()
        pool.join()


def _solve_indexed(item: tuple[int, ChunkTask]) -> tuple[int, dict[str, pl.DataFrame]]:
    k, task = item
    return k, solve_chunk(task, None if _SHARED is None else _writer(_SHARED, k))


def _writer(shared: Any, k: int) -> Callable[[int, int], None]:
    """Task ``k``'s ``tick`` in a worker: its counts written where the parent reads."""
    def tick(done: int, total: int) -> None:
        shared[2 * k + 1] = total  # (first: the parent skips a chunk whose total is 0)
        shared[2 * k] = done
    return tick


def _run_dask(client: Any, tasks: list[ChunkTask]
              ) -> Iterator[tuple[ChunkTask, dict[str, pl.DataFrame]]]:
    from distributed import as_completed
    futures = client.map(solve_chunk, tasks, pure=False)
    by_key = {f.key: t for f, t in zip(futures, tasks)}
    try:
        for f in as_completed(futures, loop=client.loop):
            yield by_key[f.key], f.result()
    finally:
        client.cancel(futures)


# --------------------------------------------------------------------------- the runner
#: The most deals one run takes.
MAX_DEALS = 10 ** 7


def default_chunk_size(deals: int) -> int:
    """Deals per chunk: about 200 chunks for a big run, at most 25 deals, at least 1."""
    return max(1, min(25, math.ceil(deals / 200)))


def run_stats(out_dir: str | Path, *, deals: int, seed: int, rules: str | Rules | None = None,
              contracts: Sequence[str] | str | None = None, workers: int | None = None,
              scheduler: str | None = None, cluster: str | None = None,
              resume: bool = False, progress: Callable[[int, int], Any] | None = None,
              chunk_size: int | None = None, brackets: str = "best",
              warn: Callable[[str], Any] | None = None,
              working: Working | None = None) -> dict[str, Any]:
    """Solve every option of ``deals`` random deals for every declarer into a dataset.

    Parameters
    ----------
    out_dir : path
        The dataset folder (created). It must not exist or be empty, unless ``resume``.
    deals : int
        Number of deals (deal ``i`` is :func:`deal_for` ``(seed, i, deck)``).
    seed : int
        Seed of the run (non-negative).
    rules : preset name, file or Rules, optional
        Default: the default preset (``tournament``).
    contracts : contract ids or aliases, optional
        Restrict to these contracts (list, or comma-separated text). Default: the preset's
        match contracts. Trumps are solved for each trump suit, Dominoes for each starting
        rank.
    workers : int, optional
        Local processes (default or 0: every core); with ``cluster="local"``, Dask workers.
        ``1`` solves in this process.
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://host:port``).
    cluster : ``"local"``, optional
        Start a local Dask cluster for the run.
    resume : bool
        Finish a stopped run in ``out_dir``: solve only the missing chunks. The run's
        parameters must be those of the manifest.
    progress : callable, optional
        ``progress(done, total)`` in deals, called at the start and after each chunk.
    chunk_size : int, optional
        Deals per chunk (default :func:`default_chunk_size`; fixed by the manifest).
    brackets : ``"none"``, ``"best"`` or ``"all"``
        Doubling brackets to store: none, the declarer's best option against each opponent
        (default), or every option against each opponent (6 more solves per option).
    warn : callable, optional
        ``warn(line)`` once the inputs are checked and before any deal is solved, when the
        run includes contracts whose 52-card solves take seconds to minutes each today
        (:func:`analyzer.advise.slow_ids`): each deal solves them for all four
        declarers.
    working : callable, optional
        ``working({chunk: (solves made, solves in all)})`` for the chunks under way: a
        deal's solves can take minutes on 52 cards, and ``progress`` only moves when a
        chunk ends. Called when a chunk starts and then at most every ``WORKING_EVERY``
        seconds in this process, or about every ``analyzer.pools.POLL`` seconds with
        local processes, and after each finished chunk (without it); not with a Dask back
        end.

    Returns
    -------
    dict
        ``{"out", "rules", "contracts", "seed", "deals", "chunks", "chunks_resumed",
        "chunks_solved", "rows", "backend", "workers", "seconds", "deals_per_minute"}``.

    Raises
    ------
    BarbuError
        Bad arguments, an existing non-empty ``out_dir`` without ``resume``, a manifest
        that does not match, an unreachable scheduler. Nothing is overwritten.
    """
    t0 = time.perf_counter()
    check_whole(deals, "--deals", 1)
    if deals > MAX_DEALS:
        # (every chunk's task is built up front, 400,000 of them at this cap: some
        # 10^9 deals needed 12 GB before the first solve; 10^7 deals of 32 cards are
        # already weeks of CPU)
        raise BarbuError(f"bad --deals {deals}: at most {MAX_DEALS:,}")
    check_whole(seed, "--seed", 0)
    if workers is not None:
        check_workers(workers)
        if workers == 0:  # as in solve and advise
            workers = None
    if scheduler and cluster:
        raise BarbuError("give --scheduler or --cluster, not both")
    if scheduler and workers is not None:
        raise BarbuError("--workers is for local runs: a --scheduler brings its own workers")
    if brackets not in BRACKET_MODES:
        raise BarbuError(f"bad brackets mode {brackets!r}: expected one of "
                         + ", ".join(BRACKET_MODES))
    if cluster is not None and cluster != "local":
        raise BarbuError(f"bad --cluster {cluster!r}: expected 'local'")
    r = load_rules(rules)
    cids = resolve_contracts(r, contracts)
    from analyzer.compile import solver_refusals
    refused = solver_refusals(r, cids)  # (refused before any file)
    if refused:
        raise BarbuError(refused[0])
    deals = int(deals)
    seed = int(seed)

    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise BarbuError(f"--out {out_dir} exists and is not a folder")
    if out.is_dir() and not (out / MANIFEST).exists():
        with contextlib.suppress(OSError):  # a run stopped while writing its first manifest
            (out / (MANIFEST + ".tmp")).unlink(missing_ok=True)
    nonempty = out.is_dir() and any(out.iterdir())
    if nonempty and not resume:
        raise BarbuError(f"--out {out_dir} exists and is not empty: add --resume to finish "
                         "the run in it, or choose another folder")
    if resume and not nonempty:  # (a mistyped folder would start a whole new run)
        raise BarbuError(f"cannot resume {out_dir}: no run there (no manifest.json); drop "
                         "--resume to start one")
    want = {"format": "barbu-stats", "version": FORMAT_VERSION, "rules": r.name,
            "rules_hash": _rules_hash(r), "deck": r.deck, "contracts": list(cids),
            "seed": seed, "deals": deals, "brackets": brackets, "doubling": r.doubling,
            "features": {c: contract_feature(r, c) for c in cids}}
    if nonempty:
        man = read_manifest(out)
        for k in ("rules", "rules_hash", "contracts", "seed", "deals", "brackets"):
            if k == "rules" and man.get("rules_hash") == want["rules_hash"]:
                continue  # (the same file under another name: a saved preset given by
                # path was named by the name inside it before)
            if man.get(k) != want[k]:
                raise BarbuError(f"cannot resume {out_dir}: it was run with {k} = "
                                 f"{man.get(k)!r}, not {want[k]!r}")
        csize = int(man["chunk_size"])
        if chunk_size is not None and int(chunk_size) != csize:
            raise BarbuError(f"cannot resume {out_dir}: it was run with chunk_size = "
                             f"{csize}, not {chunk_size}")
    else:
        csize = int(chunk_size) if chunk_size is not None else default_chunk_size(deals)
        if csize < 1:
            raise BarbuError(f"bad chunk size {chunk_size!r}: expected a positive number")
        man = None
    n_chunks = math.ceil(deals / csize)
    from analyzer.advise import slow_ids
    slow = slow_ids(r, cids)
    if warn is not None and slow:
        warn(f"note: on 52 cards the guaranteed value in {', '.join(slow)} takes seconds "
             "to minutes a solve today, and each deal solves it for all four declarers: "
             "expect minutes of CPU a deal (--contracts trumps,dominoes,no-king took "
             "36 s a deal on 2 cores, tournament, 4 deals)")

    # connect the back end before anything is written
    client = lc = None
    if scheduler or cluster:
        client, lc = _connect_dask(scheduler, cluster, workers)
    try:
        if man is None:
            with _writing(out):
                out.mkdir(parents=True, exist_ok=True)
                man = dict(want, chunk_size=csize, chunks=n_chunks, complete=False,
                           created=time.strftime("%Y-%m-%dT%H:%M:%S%z"))
                _write_json(out / MANIFEST, man)
        done = _done_chunks(out)
        resumed = len(done)
        tasks = [ChunkTask(k, k * csize, min(deals, (k + 1) * csize), seed, r, cids, brackets)
                 for k in range(n_chunks) if k not in done]
        done_deals = sum(min(deals, (k + 1) * csize) - k * csize for k in done)
        if progress is not None:
            progress(done_deals, deals)
        if client is not None:
            backend = "dask"
            n_workers = len(client.scheduler_info().get("workers", {}))
            results = _run_dask(client, tasks)
        else:
            n_workers = workers if workers is not None else (os.cpu_count() or 1)
            backend = "serial" if n_workers == 1 or len(tasks) <= 1 else "processes"
            # (the summary reports the processes used: never more than the chunks)
            n_workers = 1 if backend == "serial" else min(n_workers, len(tasks))
            results = (_run_serial(tasks, working) if backend == "serial"
                       else _run_processes(tasks, n_workers, working))
        try:
            for task, tables in results:
                with _writing(out):
                    _write_chunk(out, task.chunk, tables, man)
                done_deals += task.stop - task.start
                if progress is not None:
                    progress(done_deals, deals)
        finally:
            results.close()  # stop the workers when stopped early
    finally:
        if client is not None:
            client.close()
        if lc is not None:
            lc.close()
    data = load_dataset(out, complete=True)
    man["complete"] = True
    with _writing(out):
        _write_json(out / MANIFEST, man)
    secs = time.perf_counter() - t0
    solved = sum(t.stop - t.start for t in tasks)
    return {"out": str(out), "rules": r.name, "contracts": list(cids), "seed": seed,
            "deals": deals, "chunks": n_chunks, "chunks_resumed": resumed,
            "chunks_solved": len(tasks), "rows": {t: data[t].height for t in TABLES},
            "backend": backend, "workers": n_workers, "seconds": round(secs, 3),
            "deals_per_minute": round(60 * solved / secs, 3) if secs > 0 else None}


__all__ = ["run_stats", "load_dataset", "read_manifest", "solve_chunk", "ChunkTask",
           "deal_for", "resolve_contracts", "contract_options", "default_chunk_size",
           "TABLES", "SCHEMAS", "SORT_KEYS", "FORMAT_VERSION", "BRACKET_MODES"]

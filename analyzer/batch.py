"""Batches of solve jobs: read a job file, solve on several processes, keep the order.

Each line of a batch file is a PBN deal (the command-line options apply) or a JSON
object ``{"deal": …, option: value, …}`` whose keys override them; blank lines and lines
starting with ``#``, ``%`` or ``;`` are skipped. A whole PBN file is a batch too: each
``[Deal "…"]`` tag is a job, and the other tags, the sections after ``[Auction]``,
``[Play]`` and the ``…Table`` tags, and ``{…}`` commentary are skipped (``_job_lines``;
``[Deal "#"]`` is the deal of the game before).
Results come back in input order, one dict per job (a PBN game's ``[Board]`` label as
``"board"``); a job that fails (a line that is not a job, bad options, a search past its
node limit) becomes ``{"line": n, "error": "…"}``, so one bad line does not stop the
batch; ``barbu solve --batch`` then exits with status 2 once every line is done.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Iterator, Mapping, TextIO

from analyzer.errors import BarbuError, check_workers
from analyzer.jobs import PBN_BOARD, batch_worker, parse_batch_line
from analyzer.pools import fork_pool, load_kernels, watched


#: a PBN tag pair, ``[Name "value"]``: its name and value (a comment may follow it on
#: its line)
PBN_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')


def _has_section(tag: str) -> bool:
    """Whether PBN puts section lines after this tag: the auction, the play, and the
    tables (``OptimumResultTable``, ``ScoreTable``, …)."""
    t = tag.lower()
    return t in ("auction", "play") or t.endswith("table")


def _opens(text: str) -> bool:
    """Whether PBN commentary (``{…}``) is still open at the end of ``text``."""
    return text.rfind("{") > text.rfind("}")


def _job_lines(lines: list[str]) -> Iterator[tuple[int, str, str | None]]:
    """The lines of a batch that hold jobs, numbered from 1: the PBN deals and JSON
    objects of a job file, or a PBN file's ``[Deal "…"]`` tags, each with its game's
    ``[Board]`` label where one came before it in the game (else None).

    Skipped: blank lines, comment lines (``#``, or PBN's ``%`` and ``;``), tags other than
    ``Deal`` (several may share a line, and a ``;`` or ``{`` comment follow them) and the
    section lines after an ``Auction``, ``Play`` or ``…Table`` tag (up to the next tag or
    blank line), and, once a tag has been seen, PBN's ``{…}`` commentary (a line starting
    with ``{`` but not ``{"``; commentary opened on a skipped line runs to the line that
    closes it). A line that is none of these is a job, to be parsed (and refused, if need
    be) as one. A tag whose value is ``#`` takes the value the same tag had last (PBN's
    "as in the previous game"): ``[Deal "#"]`` solves the deal before it again, under this
    game's ``[Board]``.

    >>> pbn = ['% a PBN file', '[Event "club"] [Board "1"] {first', '', 'board}',
    ...        '[Deal "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"]', '[Auction "N"]', 'Pass {a',
    ...        '', 'remark} Pass', '{more', 'on two lines}', '',
    ...        '[Deal "E:AK.2.. QJ.3.. ..AK.2 ..QJ.3"] {rotated}']
    >>> [(n, t[:6], b) for n, t, b in _job_lines(pbn)]
    [(5, '[Deal ', '1'), (13, '[Deal ', None)]
    >>> list(_job_lines(['[Board "7"] [Deal "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"]', '',
    ...                  '[Board "8"]', '[Deal "#"]']))[1]
    (4, '[Deal "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"]', '8')
    >>> [n for n, _, _ in _job_lines(['{"deal": "x"}', '# note', 'N:x', '{"deal": '])]
    [1, 3, 4]
    """
    section = tagged = comment = False
    board: str | None = None
    last: dict[str, str] = {}  # each tag's latest value: PBN's "#" repeats it
    for i, line in enumerate(lines, 1):
        t = line.strip()
        if comment:
            comment = _opens("{" + t)
            continue
        if not t:
            section = False
            board = None  # (a blank line ends a PBN game)
            continue
        if t[0] in "#%;":
            continue
        tags, end = [], 0  # (PBN allows several tags on a line)
        while (tag := PBN_TAG.match(t, end)) is not None:
            tags.append(tag)
            end = len(t) - len(t[tag.end():].lstrip())
        rest = t[end:]
        if tags and (not rest or rest[0] in ";{"):
            tagged = True
            section = _has_section(tags[-1].group(1))
            comment = rest.startswith("{") and _opens(rest)
            for tag in tags:
                name, value = tag.group(1).lower(), tag.group(2)
                if value == "#":  # (the value of the same tag in the game before)
                    value = last.get(name, value)
                last[name] = value
                if name == "board":
                    board = value
                elif name == "deal":
                    yield i, f'[Deal "{value}"]', board
            continue
        if section or (tagged and t.startswith("{") and not t[1:].lstrip().startswith('"')):
            comment = _opens(t)
            continue
        yield i, t, None


def read_batch(source: str | Path | TextIO | None, defaults: Mapping[str, Any]
               ) -> list[tuple[int, dict[str, Any]]]:
    """``[(line number, job), …]`` from a batch file or stream.

    Lines end at ``\n`` only (``\r\n`` too): a form feed or a Unicode line separator
    inside a line does not split it, so the line numbers are those of any editor. A
    UTF-8 byte-order mark is skipped; bytes that are not UTF-8 refuse the whole batch,
    from a file or a stream alike, unless it holds PBN tags: a PBN file is read as
    ISO 8859-1 (Latin-1), as the PBN standard has it, when it is not UTF-8.
    """
    if isinstance(source, (str, Path)):
        p = Path(source)
        name = f"batch file {source}"
        if p.is_dir():
            raise BarbuError(f"{name} is a folder")
        try:
            data: bytes | str = p.read_bytes()
        except FileNotFoundError:
            raise BarbuError(f"batch file not found: {source}") from None
        except OSError as e:
            raise BarbuError(f"cannot read {name}: {e.strerror or e}") from None
    else:
        name = "the batch on stdin"
        if source is None:  # (python's stdin when the shell closed it: <&-)
            raise BarbuError("standard input is closed: no batch to read")
        buffer = getattr(source, "buffer", None)
        data = buffer.read() if buffer is not None else source.read()
    if isinstance(data, bytes):
        bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        try:
            text = data[bom:].decode("utf-8")
        except UnicodeDecodeError as e:  # (the byte counted from 1, the mark included)
            text = data.decode("latin-1")
            if bom or not any(PBN_TAG.match(ln.strip()) for ln in text.split("\n")):
                raise BarbuError(f"{name}: not UTF-8 text (byte {bom + e.start + 1})"
                                 ) from None
            # (a PBN file: ISO 8859-1 is PBN's own character set)
    else:
        text = data.removeprefix("\ufeff")
    jobs: list[tuple[int, Any]] = []
    for i, t, board in _job_lines(text.split("\n")):
        try:
            job = parse_batch_line(t, defaults)
        except BarbuError as e:  # reported as that line's result
            jobs.append((i, e))
            continue
        if board is not None:
            job[PBN_BOARD] = board
        jobs.append((i, job))
    if not jobs:
        raise BarbuError("the batch holds no job")
    return jobs


def run_batch(jobs: list[tuple[int, dict[str, Any]]], workers: int = 1
              ) -> Iterator[dict[str, Any]]:
    """Solve every job, yielding results in input order (``workers`` processes, 0: one
    a core)."""
    check_workers(workers)
    if workers == 0:
        workers = os.cpu_count() or 1
    if workers <= 1 or len(jobs) == 1:
        for item in jobs:
            yield batch_worker(item)
        return
    load_kernels()  # (inherited by the workers: each would load or compile them)
    with fork_pool(min(workers, len(jobs))) as pool:
        yield from watched(pool, pool.imap(batch_worker, jobs, chunksize=1))

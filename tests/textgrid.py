"""Read back the plain text tables the commands print (``reports.text._grid``), so that
tests can compare each cell with the JSON of the same result.

A table is a header line, a line of dashes (one run per column, two spaces apart), then
rows up to the first line that does not fit those columns (a blank line, a note, an
indented reason).

>>> t = grids("x\\nopt   a  b\\n----  -  --\\nno-k  1  +2\\nkept: note")[0]
>>> t.head, t.rows
(['opt', 'a', 'b'], [['no-k', '1', '+2']])
>>> t.col("b")
['+2']
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass
class Grid:
    head: list[str]
    rows: list[list[str]]

    def col(self, name: str) -> list[str]:
        """The cells of the column headed ``name``, top to bottom."""
        i = self.head.index(name)
        return [r[i] for r in self.rows]

    def row(self, first: str) -> dict[str, str]:
        """The row whose first cell is ``first``, by heading."""
        (r,) = [r for r in self.rows if r[0] == first]
        return dict(zip(self.head, r))


def grids(text: str) -> list[Grid]:
    """Every table in ``text``, in order."""
    lines = text.splitlines()
    out = []
    for i in range(1, len(lines)):
        dashes = lines[i]
        if not dashes or not re.fullmatch(r"-+( {2}-+)*", dashes):
            continue
        spans = [(m.start(), m.end()) for m in re.finditer(r"-+", dashes)]
        head = [_cell(lines[i - 1], a, b, k, spans) for k, (a, b) in enumerate(spans)]
        rows = []
        for line in lines[i + 1:]:
            if not _fits(line, spans):
                break
            rows.append([_cell(line, a, b, k, spans) for k, (a, b) in enumerate(spans)])
        out.append(Grid(head, rows))
    return out


def _fits(line: str, spans: list[tuple[int, int]]) -> bool:
    if not line or line[0] == " ":
        return False
    return all(line[a - 2:a] == "  " for a, _ in spans[1:] if a <= len(line))


def _cell(line: str, a: int, b: int, k: int, spans: list[tuple[int, int]]) -> str:
    end = spans[k + 1][0] if k + 1 < len(spans) else len(line)
    return line[a:end].strip()


def number(cell: str) -> float:
    """``+13.75``, ``-7.30``, ``0.29``, ``62%`` (as 62.0), ``+15``."""
    return float(cell.rstrip("%").replace("+", "").replace("−", "-"))

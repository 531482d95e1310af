"""The progress bar of long commands, on a terminal's stderr.

Drawn only once there is progress to show (an input refused at once leaves no empty
bar behind), at most ten times a second, as wide as the terminal allows, and cleared
when the work ends or fails, so that what the command prints next starts on a clean
line. Lines printed while it runs (:meth:`Bar.write_above`: notes, a batch's results)
go above it. The time left counts only the work done in this run (a resumed run's
finished part does not make it look fast), or is the caller's own guess where its units
differ in cost (:meth:`Bar.time_left`: the advisor's solves), and the share shown never
goes back when the total grows. No bar where stderr is not a terminal, or where
``TERM=dumb``.

>>> import io
>>> out = io.StringIO()
>>> with Bar("deals", 4, file=out, enabled=True, show_pos=True, show_eta=True, columns=60,
...          clock=lambda: 10.0) as bar:
...     bar.update(1)
...     print(repr(bar.line()))
'deals  [#########--------------------------]  1/4  --:--:--'
>>> out.getvalue().endswith("\\r")       # cleared at the end
True
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import Any, Callable, TextIO

BAR_MAX, BAR_MIN = 36, 10
#: seconds between two drawings; seconds of work before the time left is guessed
REDRAW, ETA_AFTER = 0.1, 1.0


def enabled_on(file: TextIO) -> bool:
    """Whether a bar goes to ``file``: a terminal that is not ``TERM=dumb``."""
    try:
        tty = file.isatty()
    except (AttributeError, ValueError):
        return False
    return tty and os.environ.get("TERM", "") != "dumb"


def clock_text(seconds: float) -> str:
    """``HH:MM:SS`` (hours past 99 shown as they are).

    >>> clock_text(3725.4), clock_text(0)
    ('01:02:05', '00:00:00')
    """
    s = int(round(max(seconds, 0.0)))
    return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"


class Bar:
    """A progress bar (see the module docstring).

    ``show_pos``: ``done/total`` rather than a percentage; ``show_eta``: the time left;
    ``item``: a short text after it (what is being solved, a rate).
    """

    #: the bar on screen now, if any: a note from elsewhere (:meth:`note`) goes above it
    live: "Bar | None" = None

    @classmethod
    def note(cls, text: str) -> None:
        """Print ``text`` (a line) to stderr, above the bar on screen if there is one
        (written into its line, the note and the bar ran together)."""
        bar = cls.live
        if bar is not None and bar.drawn:
            bar.write_above(text, err=True)
        else:
            print(text, file=sys.stderr, flush=True)

    def __init__(self, label: str, length: int, *, file: TextIO | None = None,
                 enabled: bool | None = None, show_pos: bool = False, show_eta: bool = False,
                 columns: int | None = None, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.file = sys.stderr if file is None else file
        self.enabled = enabled_on(self.file) if enabled is None else enabled
        self.label, self.length = label, max(int(length), 0)
        self.show_pos, self.show_eta = show_pos, show_eta
        self.columns, self.clock = columns, clock
        self.pos = self.base = 0
        self.item = ""
        self.hint: tuple[float, float] | None = None  # (seconds left, when told)
        self.end: float | None = None  # the clock's time by which the work ends at the latest
        self.t0 = clock()
        self.shown = 0.0          # the share last shown (never goes back)
        self.drawn = 0            # characters of the line on screen (0: none)
        self.last = float("-inf")

    # ------------------------------------------------------------------ progress
    def skip(self, n: int) -> None:
        """``n`` units done before this run (a resumed run): counted in the position, not
        in the rate that the time left comes from."""
        self.pos += n
        self.base += n

    def update(self, n: int = 1, item: str | None = None, length: int | None = None
               ) -> None:
        """``n`` more units done; optionally a new item text and a new total."""
        self.pos += n
        if item is not None:
            self.item = item
        if length is not None:
            self.length = max(int(length), 0)
        self._draw()

    def time_left(self, seconds: float) -> None:
        """The caller's own guess of the seconds left, where units of work differ in
        cost: from then on the time left counts down from it, and the share drawn is
        the share of the time (spent against spent and left) where that is below the
        share of the units."""
        self.hint = (max(float(seconds), 0.0), self.clock())
        self._draw()

    def deadline(self, seconds: float) -> None:
        """The work ends ``seconds`` from now at the latest (a time limit): the time
        left shown is never more, and the share drawn never less than the share of that
        time spent.

        >>> import io
        >>> t = [0.0]
        >>> bar = Bar("x", 100, enabled=True, file=io.StringIO(), columns=40,
        ...           show_eta=True, clock=lambda: t[0])
        >>> bar.deadline(60)
        >>> t[0] = 15.0
        >>> bar.line()
        'x  [####--------------]   25%  00:00:45'
        """
        self.end = self.clock() + max(float(seconds), 0.0)
        self._draw()

    def write_above(self, text: str, err: bool = False) -> None:
        """Print ``text`` (a line) to stdout, or stderr with ``err``, above the bar."""
        was_drawn = self.drawn > 0
        self._clear()
        print(text, file=self.file if err else sys.stdout, flush=True)
        if was_drawn:
            self._draw(force=True)

    # ------------------------------------------------------------------ drawing
    def line(self) -> str:
        """The bar's line as drawn now."""
        frac = min(1.0, self.pos / self.length) if self.length else 0.0
        left = self._left()
        if left is not None and frac < 1.0:
            spent = self.clock() - self.t0
            frac = min(frac, spent / (spent + left)) if spent + left > 0 else 0.0
        if self.end is not None and self.end > self.t0 and frac < 1.0:
            frac = max(frac, min(1.0, (self.clock() - self.t0) / (self.end - self.t0)))
        self.shown = max(self.shown, frac)
        tail = (f"  {self.pos}/{self.length}" if self.show_pos
                else f"  {100 * self.shown:3.0f}%")
        if self.show_eta:
            tail += f"  {self._eta()}"
        if self.item:
            tail += f"  {self.item}"
        cols = self.columns or shutil.get_terminal_size((80, 24)).columns
        room = cols - 1 - len(self.label) - 4 - len(tail)
        width = max(BAR_MIN, min(BAR_MAX, room))
        full = int(round(width * self.shown))
        text = f"{self.label}  [{'#' * full}{'-' * (width - full)}]{tail}"
        return text[:max(cols - 1, 1)]

    def _eta(self) -> str:
        done = self.pos - self.base
        spent = self.clock() - self.t0
        if self.pos >= self.length:
            return clock_text(0)
        left = self._left()  # (the caller's guess, shown from the start)
        if left is not None:
            return clock_text(left)
        if done <= 0 or spent < ETA_AFTER:
            return "--:--:--"
        return clock_text(spent / done * (self.length - self.pos))

    def _left(self) -> float | None:
        """The caller's guess of the time left, counted down since it came (at most
        the time to the deadline, if any)."""
        to_end = None if self.end is None else max(0.0, self.end - self.clock())
        if self.hint is None:
            return to_end
        left = max(0.0, self.hint[0] - (self.clock() - self.hint[1]))
        return left if to_end is None else min(left, to_end)

    def _draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if not force and now - self.last < REDRAW:
            return
        self.last = now
        text = self.line()
        pad = " " * max(0, self.drawn - len(text))
        self.file.write("\r" + text + pad)
        self.file.flush()
        self.drawn = len(text)
        Bar.live = self

    def _clear(self) -> None:
        if self.enabled and self.drawn:
            self.file.write("\r" + " " * self.drawn + "\r")
            self.file.flush()
            self.drawn = 0
        if Bar.live is self:
            Bar.live = None

    # ------------------------------------------------------------------ context
    def __enter__(self) -> "Bar":
        return self

    def __exit__(self, *exc: Any) -> None:
        self._clear()

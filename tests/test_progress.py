"""The progress bar (reports.progress): drawn only once there is progress, cleared at
the end, the time left from this run's work, never going back, within the terminal."""

from __future__ import annotations

import io

import pytest

from reports.progress import Bar, enabled_on


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _bar(length: int, **kw):
    out, clock = io.StringIO(), Clock()
    return Bar("deals", length, file=out, enabled=True, clock=clock, **kw), out, clock


def test_nothing_is_drawn_before_progress_and_the_line_is_cleared_at_the_end():
    bar, out, _ = _bar(5)
    with pytest.raises(ValueError):
        with bar:
            raise ValueError("bad input")   # refused before any progress: no bar left
    assert out.getvalue() == ""
    bar, out, _ = _bar(5, columns=80)
    with bar:
        bar.update(2)
    text = out.getvalue()
    assert text.startswith("\rdeals  [") and "40%" in text
    assert text.endswith("\r" + " " * len(bar.line()) + "\r")


def test_the_time_left_counts_only_this_runs_work():
    """A resumed run with 90 of 200 deals done: 10 more in 10 s leave 100 deals, 100 s."""
    bar, _, clock = _bar(200, show_pos=True, show_eta=True, columns=100)
    bar.skip(90)
    assert bar.line().endswith("90/200  --:--:--")
    clock.t += 10
    bar.update(10)
    assert bar.line().endswith("100/200  00:01:40")
    bar.update(100)
    assert bar.line().endswith("200/200  00:00:00")


def test_a_callers_guess_of_the_time_left_counts_down():
    """Where units differ in cost (the advisor's solves), the caller's own guess of the
    seconds left is shown, counting down between guesses, and the share drawn is that
    of the time (spent against spent and left) where it is the smaller: 8 of 10 units
    done in 10 s with 40 s left is 20%, not 80%."""
    bar, _, clock = _bar(10, show_eta=True, columns=100)
    clock.t += 8
    bar.update(8)
    assert bar.line().endswith(" 80%  00:00:02")   # (the units' rate: 2 more at 1 s)
    bar.time_left(40)
    assert bar.line().endswith(" 80%  00:00:40")   # (the share shown never goes back)
    clock.t += 15
    assert bar.line().endswith(" 80%  00:00:25")
    fresh, _, clock2 = _bar(10, show_eta=True, columns=100)
    clock2.t += 10
    fresh.time_left(40)
    fresh.update(8)
    assert fresh.line().endswith(" 20%  00:00:40")
    clock2.t += 50
    assert fresh.line().endswith(" 80%  00:00:00")  # (past the guess: the units' share)
    fresh.update(2)
    assert fresh.line().endswith("100%  00:00:00")


def test_the_share_never_goes_back_and_the_line_fits():
    bar, _, _ = _bar(10, columns=80)
    bar.update(5)
    assert bar.line().endswith(" 50%")
    bar.update(1, length=40)            # the total grew (more solves than first thought)
    assert bar.line().endswith(" 50%")
    for cols in (20, 40, 60, 200):
        bar, _, _ = _bar(1000, columns=cols, show_pos=True, show_eta=True)
        bar.update(10, item="123.4 deals/min")
        assert len(bar.line()) <= cols - 1


def test_lines_go_above_the_bar(capsys):
    bar, out, _ = _bar(3, columns=80)
    bar.write_above("before any progress")
    assert out.getvalue() == "" and capsys.readouterr().out == "before any progress\n"
    bar.update(1)
    drawn = out.getvalue()
    bar.write_above('{"line": 1}')
    assert capsys.readouterr().out == '{"line": 1}\n'
    # cleared, then drawn again below
    after = out.getvalue()[len(drawn):]
    assert after.startswith("\r" + " " * len(bar.line()) + "\r") and after.endswith(
        bar.line())


def test_no_bar_off_a_terminal_or_on_a_dumb_one(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("TERM", "xterm")
    assert enabled_on(Tty()) and not enabled_on(io.StringIO())
    monkeypatch.setenv("TERM", "dumb")
    assert not enabled_on(Tty())


def test_a_note_from_elsewhere_goes_above_the_bar_on_screen(capsys, monkeypatch):
    """The kernels' compile note came while a bar was drawn, and was written into its
    line; now the bar is cleared, the note printed, and the bar drawn again."""
    monkeypatch.setattr(Bar, "live", None)  # (the other tests' bars are left drawn)
    Bar.note("no bar: a plain line")
    assert capsys.readouterr().err == "no bar: a plain line\n"
    bar, out, _ = _bar(3, columns=80)
    with bar:
        bar.update(1)
        assert Bar.live is bar
        drawn = out.getvalue()
        Bar.note("note: compiling")
        after = out.getvalue()[len(drawn):]
        assert after == ("\r" + " " * len(bar.line()) + "\r" + "note: compiling\n" + "\r"
                         + bar.line())
    assert Bar.live is None  # (cleared at the end: later notes are plain lines)
    Bar.note("after")
    assert capsys.readouterr().err == "after\n" and out.getvalue().endswith("\r")

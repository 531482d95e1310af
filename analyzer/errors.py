"""The one exception type users see.

Every bad input (a deal, a card, a seat, a contract, a rules file, an option) raises
:class:`BarbuError` with a one-line message naming the problem. The command line turns it
into that line on stderr and exit status 2 (status 1 for :class:`CannotWrite`: a result
that cannot be written is not the input's fault); nothing else should reach the user as
a traceback. :class:`SearchStopped` is the one kind that carries data: a search stopped by
a limit or a request, and the :class:`Bounds` its finished tests proved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral


class BarbuError(ValueError):
    """A user-facing error: the message is one line that names what is wrong."""


class CannotWrite(BarbuError):
    """A result that cannot be written (a full disk, a folder without permission, a file
    in the way): one line as for bad input, but the command line exits with status 1,
    as for any failure that is not the input's."""


@dataclass(frozen=True)
class Bounds:
    """What a stopped search proved: the value lies between ``low`` and ``high`` (exact,
    both included)."""

    low: Fraction
    high: Fraction


class SearchStopped(BarbuError):
    """A search stopped by its node limit (``reason`` "nodes"), time limit ("time") or a
    stop request ("stop") before its value was known. ``bounds``: what its finished
    tests proved (every value of the position where they proved nothing). The message:
    ``head``, then where ``what`` (the quantity searched) lies.

    >>> e = SearchStopped("search stopped: node limit 9 reached",
    ...                   Bounds(Fraction(-4), Fraction(0)), "nodes")
    >>> print(e)
    search stopped: node limit 9 reached (the value lies between -4 and 0)
    >>> print(e.naming("E's value"))
    search stopped: node limit 9 reached (E's value lies between -4 and 0)
    """

    def __init__(self, head: str, bounds: Bounds, reason: str,
                 what: str = "the value") -> None:
        super().__init__(f"{head} ({what} lies between {bounds.low} and {bounds.high})")
        self.head, self.bounds, self.reason = head, bounds, reason

    def naming(self, what: str) -> SearchStopped:
        """The same stop, its message naming ``what`` was searched."""
        return SearchStopped(self.head, self.bounds, self.reason, what)


def check_whole(value: object, option: str, least: int, expected: str | None = None
                ) -> None:
    """Raise :class:`BarbuError` unless ``value`` is a whole number (not a bool) of at
    least ``least``, naming the command-line ``option`` it came from: "bad --seed -1:
    expected a non-negative whole number" (or ``expected``, where 0 means something).

    >>> check_whole(0, "--seed", 0), check_whole(3, "--deals", 3)
    (None, None)
    >>> for v, opt, least in ((True, "--seed", 0), (0, "--deals", 1), (-1, "--seed", 0),
    ...                       (2, "--hands", 3), (1.0, "--seed", 0)):
    ...     try:
    ...         check_whole(v, opt, least)
    ...     except BarbuError as e:
    ...         print(e)
    bad --seed True: expected a non-negative whole number
    bad --deals 0: expected a positive whole number
    bad --seed -1: expected a non-negative whole number
    bad --hands 2: expected a whole number of at least 3
    bad --seed 1.0: expected a non-negative whole number
    """
    if isinstance(value, bool) or not isinstance(value, Integral) or value < least:
        what = expected or ("a positive whole number" if least == 1
                            else "a non-negative whole number" if least == 0
                            else f"a whole number of at least {least}")
        raise BarbuError(f"bad {option} {value!r}: expected {what}")


def check_workers(workers: object) -> None:
    """``--workers``: 0 (every core) or a positive count of processes."""
    check_whole(workers, "--workers", 0, "0 (every core) or more")


#: the most seconds a time limit may be (some 116 days: larger ones are typing slips,
#: and drawn as a countdown they fill the progress bar)
MAX_SECONDS = 10_000_000


def check_seconds(value: object, option: str) -> float | None:
    """A number of seconds above 0 and at most ``MAX_SECONDS`` (text or a number), or
    None for None.

    >>> check_seconds("2.5", "--time-limit")
    2.5
    >>> check_seconds("0", "--time-limit")
    Traceback (most recent call last):
    ...
    analyzer.errors.BarbuError: bad --time-limit '0': a number of seconds above 0, at most 10000000
    """
    if value is None:
        return None
    try:
        v = float(value) if not isinstance(value, bool) else math.nan  # type: ignore[arg-type]
    except (TypeError, ValueError):
        v = math.nan
    if not 0 < v <= MAX_SECONDS:
        raise BarbuError(f"bad {option} {value!r}: a number of seconds above 0, at most "
                         f"{MAX_SECONDS}")
    return v


def check_given(options: dict[str, object]) -> None:
    """Raise :class:`BarbuError` for a command-line option given as empty text (``-c ""``,
    from an unset shell variable, say): it would otherwise read as "not given" and answer
    another question (the table of every contract instead of one)."""
    for name, value in options.items():
        if isinstance(value, str) and not value.strip():
            flag = "--" + name.replace("_", "-")
            raise BarbuError(f"empty {flag}: give a value, or leave the option out")

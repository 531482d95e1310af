"""The one exception type users see.

Every bad input (a deal, a card, a seat, a contract, a rules file, an option) raises
:class:`BarbuError` with a one-line message naming the problem. The command line turns it
into that line on stderr and exit status 2; nothing else should reach the user as a
traceback.
"""

from __future__ import annotations


class BarbuError(ValueError):
    """A user-facing error: the message is one line that names what is wrong."""

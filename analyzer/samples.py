"""Built-in sample deals (``data/samples/deals.pbn``) and seeded random deals."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources

from analyzer.cards import format_deal, random_deal
from analyzer.errors import BarbuError, check_whole
from analyzer.rules import load_rules


def sample_deals() -> list[str]:
    """The PBN deals shipped in ``data/samples/deals.pbn`` (comments and blanks skipped)."""
    text = resources.files("data").joinpath("samples", "deals.pbn").read_text("utf-8")
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def example_deal(rules: str | None = None) -> str:
    """The deal ``barbu solve --example`` solves: the first sample of the preset's deck."""
    from analyzer.cards import parse_deal
    deck = load_rules(rules).deck
    for text in sample_deals():
        if parse_deal(text).deck == deck:
            return text
    raise BarbuError(f"no sample deal for a {deck}-card deck")


def example_hand(rules: str | None = None) -> str:
    """North's hand of the example deal (what ``barbu advise --example`` advises)."""
    from analyzer.cards import format_hand, parse_deal
    return format_hand(parse_deal(example_deal(rules)).hands[0])


def fresh_seed() -> int:
    """A random seed to draw with where none was given, so that the draw can be told
    and repeated (as ``barbu advise`` does): 0 to 2**32 - 1, from the system's entropy."""
    import numpy as np
    return int(np.random.SeedSequence().entropy % (1 << 32))


#: a board's vulnerability by its number, 1 to 16, as bridge rotates it (then again)
_VULNERABLE = ("None", "NS", "EW", "All", "NS", "EW", "All", "None",
               "EW", "All", "None", "NS", "All", "None", "NS", "EW")


def pbn_board(number: int, deal: str, event: str) -> str:
    """One board of a PBN file, as bridge programs read it: its tags, then a blank line.
    The dealer and the vulnerability rotate with the board number as at bridge (Barbu
    reads neither: ``barbu solve`` takes the declarer and the leader from its options).

    >>> print(pbn_board(2, "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", "x"), end="")
    [Event "x"]
    [Board "2"]
    [Dealer "E"]
    [Vulnerable "NS"]
    [Deal "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"]
    <BLANKLINE>
    """
    ev = event.replace("\\", "\\\\").replace('"', '\\"')
    return (f'[Event "{ev}"]\n[Board "{number}"]\n[Dealer "{"NESW"[(number - 1) % 4]}"]\n'
            f'[Vulnerable "{_VULNERABLE[(number - 1) % 16]}"]\n[Deal "{deal}"]\n\n')


def pbn_file(deals: Iterator[str], seed: int, rules: str | None = None,
             length: int | None = None) -> Iterator[str]:
    """``barbu deal --pbn``: a PBN file's text, piece by piece (its header, then each
    board), the event naming the command that deals these boards again. Not "% EXPORT":
    it writes no player, scoring or contract tags."""
    import shlex
    event = shlex.join(["barbu", "deal", "--seed", str(seed)]
                       + (["-r", rules] if rules is not None else [])
                       + (["--length", str(length)] if length is not None else []))
    yield "% PBN 2.1\n\n"
    for n, d in enumerate(deals, 1):
        yield pbn_board(n, d, event)


def random_deals(count: int, seed: int | None, rules: str | None = None,
                 length: int | None = None) -> Iterator[str]:
    """``count`` seeded random deals of the preset's deck, as PBN, one at a time (the
    arguments are checked before the first)."""
    if count < 1:
        raise BarbuError(f"--count must be at least 1, got {count}")
    if seed is not None:
        check_whole(seed, "--seed", 0)
    import numpy as np

    r = load_rules(rules)
    rng = np.random.default_rng(seed)
    first = format_deal(random_deal(rng, deck=r.deck, length=length))  # checks length

    def deals() -> Iterator[str]:
        yield first
        for _ in range(count - 1):
            yield format_deal(random_deal(rng, deck=r.deck, length=length))
    return deals()

"""Rules presets as data: load, validate and query the TOML files of ``data/rules/``.

A preset names a deck, the match structure, the variant switches of ``rules.md`` and a
table per contract. This module turns a file into frozen dataclasses and checks every key,
type and value; :mod:`analyzer.compile` turns a contract into the arrays the kernels see.

File format (see ``data/rules/tournament.toml`` for a commented example)::

    name, description, deck            top level
    [match]     hands, run, order, contracts
    [variants]  chooser, dealer, lead, dominoes_first, doubles, declarer_doubles,
                positive_declarer_only,
                redouble, quota, positive_settlement, undoubled_negative, heart_lead,
                forced_discard, void_must_ruff
    [contracts.ID]  kind = "tricks" | "dominoes" and that kind's keys (CONTRACT_KEYS)

Card point keys: a card (``"HA"``), a suit (``"H"``) or a rank (``"Q"``). A card's points
are its own key if present, else its suit's plus its rank's.

Presets are found by name in the package's ``data/rules/``, then in the per-user
directory (``$BARBU_HOME/rules``, default ``~/.config/barbu-dd/rules``), or read from a
path.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tomllib
import unicodedata
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from analyzer.cards import DECK_RANKS, RANK_CHARS, Rank, Suit, card_index, card_name
from analyzer.errors import BarbuError, CannotWrite

BUILTIN_PRESETS = ("tournament", "fr-52", "classic-32", "barbu-32", "bridge")
DEFAULT_PRESET = "tournament"

TOP_KEYS = {"name": str, "description": str, "deck": int, "match": dict, "variants": dict,
            "contracts": dict}
MATCH_KEYS = {"hands": int, "run": int, "order": str, "contracts": list}
VARIANT_KEYS: dict[str, Any] = {
    "chooser": ("declarer", "dealer"),
    "dealer": ("right", "declarer"),
    "lead": ("declarer", "left"),
    "dominoes_first": ("declarer", "left"),
    "doubles": ("any", "declarer-only", "none"),
    "declarer_doubles": ("redouble", "any"),
    "positive_declarer_only": bool,
    "redouble": bool,
    "quota": int,
    "positive_settlement": ("difference", "sum"),
    "undoubled_negative": ("play", "split"),
    "heart_lead": ("always", "first-trick", "free"),
    "forced_discard": bool,
    "void_must_ruff": bool,
}
VARIANT_DEFAULTS: dict[str, Any] = {
    "chooser": "declarer", "dealer": "right", "lead": "declarer", "dominoes_first": "declarer",
    "doubles": "any", "declarer_doubles": "redouble", "positive_declarer_only": True,
    "redouble": True, "quota": 2,
    "positive_settlement": "difference", "undoubled_negative": "play", "heart_lead": "always",
    "forced_discard": False, "void_must_ruff": True,
}
NUMBER = (int, float)
TRICK_KEYS: dict[str, Any] = {
    "kind": str, "aliases": list, "trick_points": NUMBER, "last_tricks": list,
    "card_points": dict, "components": list, "trumps": bool, "trump_lead_must_beat": bool,
    "must_overtrump": bool, "heart_lead_ban": bool, "stop_when_taken": list,
    "forced_discard_cards": list, "all_tricks_score": NUMBER, "all_cards_score": NUMBER,
    "ravage": NUMBER,
}
DOMINO_KEYS: dict[str, Any] = {
    "kind": str, "aliases": list, "places": list, "start": str, "start_rank": str,
    "ace": str, "ace_replay": bool,
}
CONTRACT_ID = re.compile(r"^[a-z][a-z0-9-]*$")


#: the largest number of points a rules file may give one card, trick, place or bonus, and
#: the finest division of a point (so that every exact sum the solvers add up fits in
#: 64-bit integers with room to spare)
POINTS_LIMIT = 10 ** 9
POINTS_DENOMINATOR_LIMIT = 10 ** 6


def _frac(x: int | float, what: str = "points") -> Fraction:
    """A rules file's number as an exact fraction, refused when infinite, not a number,
    beyond ``POINTS_LIMIT`` or finer than ``1 / POINTS_DENOMINATOR_LIMIT``.

    >>> _frac(0.000001), _frac(-1_000_000_000), _frac(2.5)
    (Fraction(1, 1000000), Fraction(-1000000000, 1), Fraction(5, 2))
    >>> _frac(0.0000005)
    Traceback (most recent call last):
    analyzer.errors.BarbuError: points: 5e-07 has too many decimals (at most 6)
    >>> _frac(1_000_000_001)
    Traceback (most recent call last):
    analyzer.errors.BarbuError: points: 1000000001 is too large (at most 1,000,000,000 points either way)
    """
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        raise BarbuError(f"{what}: {x} is not a number of points")
    f = Fraction(str(x)) if isinstance(x, float) else Fraction(x)
    if abs(f) > POINTS_LIMIT:
        raise BarbuError(f"{what}: {x} is too large (at most {POINTS_LIMIT:,} points either "
                         "way)")
    if f.denominator > POINTS_DENOMINATOR_LIMIT:
        raise BarbuError(f"{what}: {x} has too many decimals (at most 6)")
    return f


def _name_key(name: object) -> str:
    """A contract name as compared: stripped, lower case, Unicode NFC.

    >>> _name_key(" Re\u0301ussite ") == _name_key("réussite")
    True
    """
    return unicodedata.normalize("NFC", str(name)).strip().lower()


@dataclass(frozen=True)
class Contract:
    """One contract of a preset, validated. Points are exact :class:`Fraction` s."""

    id: str
    kind: str                                   # "tricks" or "dominoes"
    aliases: tuple[str, ...] = ()
    # trick contracts
    trick_points: Fraction = Fraction(0)
    last_tricks: tuple[Fraction, ...] = ()      # ..., second-last, last
    card_points_spec: tuple[tuple[str, Fraction], ...] = ()
    components: tuple[str, ...] = ()
    trumps: bool = False
    trump_lead_must_beat: bool = False
    must_overtrump: bool = False
    heart_lead_ban: bool = False
    stop_when_taken: tuple[int, ...] = ()
    forced_discard_cards: tuple[int, ...] = ()
    all_tricks_score: Fraction | None = None
    all_cards_score: Fraction | None = None
    ravage: Fraction | None = None
    # dominoes
    places: tuple[Fraction, ...] = ()
    start: str = "named"                        # named | fixed | first-card
    start_rank: int | None = None
    ace: str = "high"                           # high | low
    ace_replay: bool = False

    @property
    def is_tricks(self) -> bool:
        return self.kind == "tricks"

    @property
    def is_dominoes(self) -> bool:
        return self.kind == "dominoes"

    @property
    def has_bonus(self) -> bool:
        """True when a whole-hand bonus can replace the additive score (capot, all cards)."""
        return self.all_tricks_score is not None or self.all_cards_score is not None


@dataclass(frozen=True)
class Rules:
    """A validated preset. ``contracts`` maps contract id to :class:`Contract`."""

    name: str
    description: str
    deck: int
    hands: int
    run: int
    order: str
    match_contracts: tuple[str, ...]
    variants: dict[str, Any]
    contracts: dict[str, Contract]
    source: str = ""
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    # ----------------------------------------------------------------- queries
    @property
    def tricks_per_hand(self) -> int:
        return self.deck // 4

    @property
    def doubling(self) -> bool:
        return self.variants["doubles"] != "none"

    def opening_leader(self, declarer: int) -> int:
        """Who leads the first trick of a trick contract (variant ``lead``): the declarer,
        or his left-hand opponent (seats 0-3 = N E S W).

        >>> load_rules("classic-32").opening_leader(3), load_rules("tournament").opening_leader(3)
        (0, 3)
        """
        return declarer if self.variants["lead"] == "declarer" else (declarer + 1) % 4

    def contract(self, name: str) -> Contract:
        """Find a contract by id or alias (case-insensitive, accents however composed:
        a terminal may send "réussite" as e + a combining accent); error names the
        choices."""
        key = _name_key(name)
        if key in self.contracts:
            return self.contracts[key]
        for c in self.contracts.values():
            if key in (_name_key(a) for a in c.aliases):
                return c
        raise BarbuError(
            f"unknown contract {name!r} for preset {self.name!r}: expected one of "
            + ", ".join(self.contracts))

    def _memo(self, key: tuple, make):
        """``make()``, computed once per key for this (frozen) preset: the solver asks the
        same questions on every solve, and Fraction arithmetic made them a third of a
        small solve's Python time."""
        memo = self.__dict__.get("_memo_cache")
        if memo is None:
            memo = {}
            object.__setattr__(self, "_memo_cache", memo)  # (frozen: no plain assignment)
        if key not in memo:
            memo[key] = make()
        return memo[key]

    def card_points(self, contract: Contract | str) -> dict[int, Fraction]:
        """Points of each card of the deck (card index → points; zeros left out).

        Salad-like contracts (``components``) add up their components' card points.
        """
        c = self.contract(contract) if isinstance(contract, str) else contract
        return dict(self._memo(("card_points", c), lambda: self._card_points(c)))

    def _card_points(self, c: Contract) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        if c.components:
            for comp in c.components:
                for card, p in self.card_points(comp).items():
                    out[card] = out.get(card, Fraction(0)) + p
            return {k: v for k, v in out.items() if v != 0}
        spec = dict(c.card_points_spec)
        for s in range(4):
            for r in DECK_RANKS[self.deck]:
                card = 13 * s + r
                name = card_name(card)
                if name in spec:
                    p = spec[name]
                else:
                    p = spec.get("SHDC"[s], Fraction(0)) + spec.get(RANK_CHARS[r], Fraction(0))
                if p != 0:
                    out[card] = p
        return out

    def trick_points(self, contract: Contract | str) -> Fraction:
        """Points for each trick taken (components added up)."""
        c = self.contract(contract) if isinstance(contract, str) else contract
        if c.components:
            return sum((self.trick_points(x) for x in c.components), Fraction(0))
        return c.trick_points

    def last_tricks(self, contract: Contract | str) -> tuple[Fraction, ...]:
        """Extra points of the final tricks, ending with the last (components added up)."""
        c = self.contract(contract) if isinstance(contract, str) else contract
        if not c.components:
            return c.last_tricks
        n = max((len(self.last_tricks(x)) for x in c.components), default=0)
        acc = [Fraction(0)] * n
        for x in c.components:
            lt = self.last_tricks(x)
            for i, p in enumerate(lt):
                acc[n - len(lt) + i] += p
        return tuple(acc)

    def total(self, contract: Contract | str) -> Fraction | None:
        """The points a whole hand of this contract hands out, or None where a bonus or a
        non-additive rule makes it vary (rules.md: "the seven totals sum to zero")."""
        c = self.contract(contract) if isinstance(contract, str) else contract
        return self._memo(("total", c), lambda: self._total(c))

    def _total(self, c: Contract) -> Fraction | None:
        if c.is_dominoes:
            return sum(c.places, Fraction(0))
        if c.has_bonus:
            return None
        if self.stops_early(c):
            return None  # the hand may stop before those points are taken
        return self.normal_total(c)

    def normal_total(self, contract: Contract | str) -> Fraction:
        """What a hand of a trick contract played to its end hands out without a bonus:
        every card's points, every trick's, the last tricks' and Ravage City's."""
        c = self.contract(contract) if isinstance(contract, str) else contract
        return (sum(self.card_points(c).values(), Fraction(0))
                + self.trick_points(c) * self.tricks_per_hand
                + sum(self.last_tricks(c), Fraction(0))
                + (c.ravage if c.ravage is not None else 0))

    def score_range(self, contract: Contract | str, bonus: bool = True
                    ) -> tuple[Fraction, Fraction]:
        """The least and the most one player can score in a whole hand of the contract:
        every negative point his (each trick, scoring card, last trick and Ravage City's
        points), or every positive one; a whole-hand bonus widens it (``bonus``); Dominoes:
        its places. Bounds, not always reached (a trick's points and a card's are counted
        independently).

        >>> r = load_rules("tournament")
        >>> [tuple(map(str, r.score_range(c))) for c in ("no-king", "trumps", "dominoes")]
        [('-20', '0'), ('0', '65'), ('-5', '45')]
        """
        c = self.contract(contract) if isinstance(contract, str) else contract
        if c.is_dominoes:
            return min(c.places), max(c.places)
        comps = [self.trick_points(c) * self.tricks_per_hand, *self.card_points(c).values(),
                 *self.last_tricks(c), c.ravage if c.ravage is not None else 0]
        lo = sum((x for x in comps if x < 0), Fraction(0))
        hi = sum((x for x in comps if x > 0), Fraction(0))
        for b in (c.all_tricks_score, c.all_cards_score) if bonus else ():
            if b is not None:
                lo, hi = min(lo, b), max(hi, b)
        return lo, hi

    def stops_early(self, contract: Contract | str) -> bool:
        """Whether a hand may end (its stop cards all taken) before every point of the
        contract is scored: tricks, last tricks or other cards still count."""
        c = self.contract(contract) if isinstance(contract, str) else contract
        return bool(c.stop_when_taken) and bool(
            self.trick_points(c) or any(self.last_tricks(c))
            or any(p for k, p in self.card_points(c).items() if k not in c.stop_when_taken))

    def is_positive(self, contract: Contract | str) -> bool:
        """Trumps and Dominoes (and bridge contracts): the contracts scored upwards. A
        tricks contract is positive by its points, not by its trumps: a rules file's
        Trumps that hands out -2 a trick settles as the negative contracts. By
        :meth:`normal_total` (the total where it is fixed; where a bonus or stop cards
        make it vary, a stop card that scores nothing, or a bonus, changes nothing)."""
        c = self.contract(contract) if isinstance(contract, str) else contract
        return c.is_dominoes or self.normal_total(c) > 0

    def to_toml(self) -> str:
        """The preset's source text (as loaded)."""
        return self.raw.get("__text__", "")


# --------------------------------------------------------------------------- loading
def user_path(text: str | Path, what: str) -> Path:
    """``text`` as a path, ``~`` expanded; one line naming ``what`` when it cannot be
    (``~nosuchuser``, or no home directory: a container's user without one).

    >>> user_path("rules/house.toml", "rules file")
    PosixPath('rules/house.toml')
    """
    try:
        return Path(text).expanduser()
    except RuntimeError:
        raise BarbuError(f"cannot expand the {what} {str(text)!r}: no such user or no "
                         "home directory") from None


class _NoHome(BarbuError):
    """No home directory and no BARBU_HOME: the user has no presets of his own."""


def user_home() -> Path:
    """The per-user directory: ``$BARBU_HOME`` or ``~/.config/barbu-dd``."""
    env = os.environ.get("BARBU_HOME")
    if env:
        return user_path(env, "BARBU_HOME")
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg:
        return user_path(xdg, "XDG_CONFIG_HOME") / "barbu-dd"
    try:
        return Path.home() / ".config" / "barbu-dd"
    except RuntimeError:
        raise _NoHome("no home directory to keep presets in: set BARBU_HOME") from None


def user_rules_dir() -> Path:
    return user_home() / "rules"


def _user_rules_dir() -> Path | None:
    """:func:`user_rules_dir`, or None without a home: the built-in presets need none (a
    BARBU_HOME that cannot be read is still an error)."""
    try:
        return user_rules_dir()
    except _NoHome:
        return None


def _is_dir(p: Path) -> bool:
    """``p.is_dir()``, False where the name cannot be a folder at all (too long, say)."""
    try:
        return p.is_dir()
    except (OSError, ValueError):
        return False


def _is_file(p: Path) -> bool:
    """``p.is_file()``, False where the name cannot be a file at all (too long, say)."""
    try:
        return p.is_file()
    except OSError:
        return False


def builtin_path(name: str) -> Path | None:
    res = resources.files("data").joinpath("rules", f"{name}.toml")
    try:
        with resources.as_file(res) as p:
            return Path(p) if _is_file(Path(p)) else None
    except (OSError, TypeError):
        return None


def list_presets() -> list[tuple[str, str, str]]:
    """``(name, where, description)`` of every preset: built-in first, then the user's."""
    out = []
    for name in BUILTIN_PRESETS:
        out.append((name, "built-in", load_rules(name).description))
    d = _user_rules_dir()
    if d is not None and d.is_dir():
        for p in sorted(d.glob("*.toml")):
            if not p.is_file():
                continue
            try:
                desc = load_rules(str(p)).description
            except BarbuError as e:
                desc = f"(invalid: {e})"
            if p.stem.lower() in BUILTIN_PRESETS:  # (names are read in any case)
                desc = (f"(ignored: --rules {p.stem} is the built-in preset "
                        f"{p.stem.lower()}) {desc}")
            out.append((p.stem, str(d), desc))
    return out


#: Loaded rules files by path and content (not by modification time: a file rewritten
#: within the same timestamp, or copied over with ``cp -p``, must not keep its old rules).
_CACHE: dict[tuple[str, bytes, str | None], Rules] = {}


def load_rules(name_or_path: str | Path | Rules | None = None, *,
               own_name: bool = True) -> Rules:
    """Load a preset by name (built-in, then user) or from a TOML file path.

    A file that calls itself by a built-in preset's name must hold that preset's rules
    (an edited copy would label every result with the built-in's name): refused
    otherwise, unless ``own_name`` is False (``rules save``, which names it anew)."""
    if isinstance(name_or_path, Rules):
        return name_or_path
    spec = DEFAULT_PRESET if name_or_path is None else str(name_or_path)
    path: Path | None = None
    builtin = False  # (a built-in preset by its name: neither saved nor to be checked)
    p = user_path(spec, "rules file")
    if spec.endswith(".toml") or os.sep in spec or "/" in spec:
        if not _is_file(p):
            if _is_dir(p):
                raise BarbuError(f"rules file {spec!r} is a folder")
            raise BarbuError(f"rules file not found: {spec!r}")
        path = p
    else:
        if spec.strip().lower() in BUILTIN_PRESETS:  # (names in any case, as contracts)
            spec = spec.strip().lower()
        path = builtin_path(spec)
        builtin = path is not None
        d = None if builtin else _user_rules_dir()
        if path is None and d is not None:
            # (saved names are lower-case, and answer in any case, as the built-ins do)
            for name in dict.fromkeys((spec, spec.strip().lower())):
                cand = d / f"{name}.toml"
                if _is_file(cand):
                    path, spec = cand, name
                    break
        if path is None:
            if _is_file(p):
                path = p
            else:
                names = list(BUILTIN_PRESETS)
                if d is not None and d.is_dir():
                    names += [q.stem for q in sorted(d.glob("*.toml")) if _is_file(q)
                              and q.stem.lower() not in BUILTIN_PRESETS]
                raise BarbuError(f"unknown rules preset {spec!r}: expected one of "
                                 + ", ".join(names) + " or a .toml file")
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise BarbuError(f"cannot read rules file {path}: {e.strerror or e}") from None
    # a saved preset answers to the name it was saved under, not to the one in its file
    # (an edited copy of a built-in preset keeps the built-in's name there): that name is
    # part of the key, as two names may lead to one file (a link, or a path and a name)
    # (by name or by path alike, or through a link to it: a saved file is the preset of
    # its name)
    saved = None if builtin else _saved_name(path)
    own_name = own_name and not builtin
    key = (str(path.resolve()), raw, saved)
    if key in _CACHE:
        return _checked_name(_CACHE[key], path) if own_name else _CACHE[key]
    try:
        # (a BOM dropped; newlines as read_text gives them, so a file's hash is as before)
        text = (raw.decode("utf-8").removeprefix("\ufeff")
                .replace("\r\n", "\n").replace("\r", "\n"))
    except UnicodeDecodeError:
        raise BarbuError(f"rules file {path}: not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BarbuError(f"rules file {path}: not valid TOML ({e})") from None
    except RecursionError:
        raise BarbuError(f"rules file {path}: not valid TOML (nested too deeply)") from None
    rules = parse_rules(data, str(path))
    if saved is not None and rules.name != saved:
        rules = replace(rules, name=saved)
    rules.raw["__text__"] = text
    _CACHE[key] = rules
    return _checked_name(rules, path) if own_name else rules


def _saved_name(path: Path) -> str | None:
    """The name of the saved preset ``path`` is (a file of the user's rules folder, or a
    link to one), else None. A user folder that cannot be worked out (a BARBU_HOME that
    cannot be expanded) holds no file here: the built-ins and other files still load."""
    try:
        udir = _user_rules_dir()
    except BarbuError:
        return None
    if udir is None:
        return None
    try:
        home = udir.resolve()
        for p in (path, path.resolve()):
            if p.parent.resolve() == home and p.stem not in BUILTIN_PRESETS:
                return p.stem
    except (OSError, RuntimeError):  # (a link loop)
        return None
    return None


#: contract settings whose order changes nothing (the most specific card points apply
#: whatever their order; a set of cards; a salad's parts add up)
_UNORDERED = ("card_points_spec", "stop_when_taken", "forced_discard_cards", "components")


def _canon(game: tuple) -> tuple:
    """:func:`_game_of`'s tuple with the order of the settings in :data:`_UNORDERED`
    left out (the order of the last tricks' points or of the places does count)."""
    *head, contracts = game
    return (*head, tuple((cid, tuple((k, tuple(sorted(v, key=repr)) if k in _UNORDERED
                                      else v) for k, v in c)) for cid, c in contracts))


def _checked_name(rules: Rules, path: Path) -> Rules:
    """``rules``, read from ``path``, unless it bears a built-in preset's name but plays,
    scores or settles doubles otherwise (names, aliases, descriptions and a free-order
    match's listing order aside, :func:`_game_of`)."""
    b = rules.name.strip().lower()
    if b not in BUILTIN_PRESETS:
        return rules
    home = builtin_path(b)
    if home is None or home.resolve() == path.resolve():
        return rules
    ref = load_rules(b)
    dbl = {k: v for k, v in rules.variants.items() if k in DOUBLING_VARIANTS}
    ref_dbl = {k: v for k, v in ref.variants.items() if k in DOUBLING_VARIANTS}
    if (_canon(_game_of(rules)) == _canon(_game_of(ref))
            and (dbl == ref_dbl or not (rules.doubling or ref.doubling))):
        return rules  # (the doubling settings count only where there is doubling)
    raise BarbuError(f"rules file {path}: it is named {rules.name!r}, a built-in preset, "
                     "but its rules differ from that preset's: give it a name of its own "
                     "(its `name = ...` line), or save it with `barbu rules save NAME FILE`")


#: Variants that change only how doubles are made and settled, not how a hand is played
#: or scored raw (so not the guaranteed values of the contracts).
DOUBLING_VARIANTS = ("doubles", "declarer_doubles", "positive_declarer_only", "redouble",
                     "quota", "positive_settlement", "undoubled_negative")


def _contract_game(c: Contract) -> tuple:
    """What of a contract changes how it plays and scores: every setting that differs
    from its default (so a setting added later leaves older games alike), aliases aside."""
    out = []
    for f in fields(c):
        v = getattr(c, f.name)
        if f.name != "aliases" and v != f.default:
            out.append((f.name, v))
    return tuple(out)


def _game_of(r: Rules) -> tuple:
    """How ``r`` plays and scores its hands, in a canonical form: names, aliases,
    descriptions, the doubling variants and (in a free-order match) the listing order of
    the contracts aside."""
    v = tuple(sorted((k, x) for k, x in r.variants.items() if k not in DOUBLING_VARIANTS))
    match = r.match_contracts if r.order == "fixed" else tuple(sorted(r.match_contracts))
    contracts = tuple(sorted((cid, _contract_game(c)) for cid, c in r.contracts.items()))
    return r.deck, r.hands, r.run, r.order, match, v, contracts


def game_fingerprint(rules: Rules) -> str:
    """A short digest of :func:`_game_of`: data made from a game's values (the run-of-seven
    tables) records it, so that data made for other rules is never read for these.

    >>> game_fingerprint(load_rules("barbu-32")) == game_fingerprint(load_rules("barbu-32"))
    True
    >>> game_fingerprint(load_rules("barbu-32")) == game_fingerprint(load_rules("classic-32"))
    False
    """
    return hashlib.sha256(repr(_game_of(rules)).encode()).hexdigest()[:16]


def same_game_as_builtin(rules: Rules) -> bool:
    """True when ``rules`` plays and scores its hands as the built-in preset whose name
    it carries: the same deck, match, contracts and variants (the doubling ones aside,
    and descriptions and comments). An edited copy that kept the name is not."""
    return rules.name in BUILTIN_PRESETS and _game_of(rules) == _game_of(load_rules(rules.name))


def builtin_game(rules: Rules) -> str | None:
    """The built-in preset whose game ``rules`` plays (:func:`same_game_as_builtin`),
    whatever name they carry: its own name first, else any built-in's (a copy saved under
    a new name). Data made for a built-in from the values of its contracts (the
    run-of-seven tables) applies exactly then."""
    game = _game_of(rules)
    names = sorted(BUILTIN_PRESETS, key=lambda n: n != rules.name)
    return next((n for n in names if game == _game_of(load_rules(n))), None)


def save_rules(name: str, file: str | Path, replace: bool = False) -> Path:
    """Validate ``file`` and keep it in the user directory under ``name``; a preset of
    that name already there is replaced only with ``replace`` (saving a preset's own file
    onto itself just validates it)."""
    if not isinstance(name, str) or not CONTRACT_ID.fullmatch(name):
        raise BarbuError(f"bad preset name {name!r}: use lower-case letters, digits and '-'")
    if name in BUILTIN_PRESETS:
        raise BarbuError(f"{name!r} is a built-in preset: save under another name")
    src = user_path(file, "rules file")
    if src.is_dir():
        raise BarbuError(f"rules file {file} is a folder")
    if not src.is_file():
        raise BarbuError(f"rules file not found: {file}")
    load_rules(str(src) if str(src).endswith(".toml") or "/" in str(src) else f"./{src}",
               own_name=False)
    d = user_rules_dir()
    dest = d / f"{name}.toml"
    if dest.exists() and src.resolve() == dest.resolve():
        return dest  # validated in place
    if dest.exists() and not replace:  # (built-in names are refused above, --force or not)
        raise BarbuError(f"preset {name!r} already exists ({dest}): add --force to "
                         "replace it")
    try:
        d.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    except OSError as e:
        raise CannotWrite(f"cannot save {name} in {d}: {e.strerror or e}") from None
    return dest


# --------------------------------------------------------------------------- validation
def _check_keys(where: str, table: dict, allowed: dict) -> None:
    for k, v in table.items():
        if k not in allowed:
            raise BarbuError(f"{where}: unknown key {k!r} (expected one of {', '.join(allowed)})")
        want = allowed[k]
        if isinstance(want, tuple) and all(isinstance(x, str) for x in want):
            if v not in want:
                raise BarbuError(f"{where}: {k} = {v!r} is not one of {', '.join(want)}")
        else:
            types = want if isinstance(want, tuple) else (want,)
            if isinstance(v, bool) and bool not in types:
                raise BarbuError(f"{where}: {k} must be {_type_name(types)}, not a boolean")
            if not isinstance(v, types):
                raise BarbuError(f"{where}: {k} must be {_type_name(types)}, "
                                 f"not {type(v).__name__}")


def _type_name(types: tuple) -> str:
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
             list: "a list", dict: "a table"}
    if set(types) == {int, float}:
        return "a number"
    return " or ".join(names.get(t, t.__name__) for t in types)


def _numbers(where: str, key: str, xs: list) -> tuple[Fraction, ...]:
    out = []
    for x in xs:
        if isinstance(x, bool) or not isinstance(x, NUMBER):
            raise BarbuError(f"{where}: {key} must hold numbers, found {x!r}")
        out.append(_frac(x, f"{where}: {key}"))
    return tuple(out)


def _cards(where: str, key: str, xs: list, deck: int) -> tuple[int, ...]:
    out = []
    for x in xs:
        try:
            c = card_index(str(x))
        except BarbuError:
            raise BarbuError(f"{where}: {key} holds {x!r}, which is not a card") from None
        if c % 13 not in DECK_RANKS[deck]:
            raise BarbuError(f"{where}: {key} holds {x!r}, which is not in the {deck}-card deck")
        out.append(c)
    return tuple(out)


def parse_rules(data: dict[str, Any], source: str = "<rules>") -> Rules:
    """Validate a parsed TOML document and build :class:`Rules`."""
    where = f"rules file {source}"
    _check_keys(where, data, TOP_KEYS)
    for k in ("name", "deck", "contracts"):
        if k not in data:
            raise BarbuError(f"{where}: missing key {k!r}")
    if not str(data["name"]).strip():
        raise BarbuError(f"{where}: name is empty (it names the rules in every output)")
    deck = data["deck"]
    if deck not in (52, 32):
        raise BarbuError(f"{where}: deck = {deck} is impossible (expected 52 or 32)")
    variants = dict(VARIANT_DEFAULTS)
    vt = data.get("variants", {})
    _check_keys(f"{where} [variants]", vt, VARIANT_KEYS)
    variants.update(vt)
    if variants["quota"] < 0:
        raise BarbuError(f"{where} [variants]: quota must not be negative")
    if variants["chooser"] == "dealer" and variants["lead"] == "declarer":
        # (``chooser`` says who chooses; ``lead`` and ``dominoes_first`` move the play)
        raise BarbuError(f"{where} [variants]: chooser = \"dealer\" leads from the dealer's "
                         "left (rules.md): set lead = \"left\" (and dominoes_first as the "
                         "rules you play say)")

    contracts: dict[str, Contract] = {}
    ctab = data["contracts"]
    if not ctab:
        raise BarbuError(f"{where}: no contracts")
    ntricks = deck // 4
    for cid, t in ctab.items():
        cw = f"{where} [contracts.{cid}]"
        if not CONTRACT_ID.fullmatch(cid):
            raise BarbuError(f"{cw}: bad contract id (use lower-case letters, digits and '-')")
        if not isinstance(t, dict):
            raise BarbuError(f"{cw}: must be a table")
        kind = t.get("kind")
        if kind not in ("tricks", "dominoes"):
            raise BarbuError(f"{cw}: kind must be \"tricks\" or \"dominoes\", not {kind!r}")
        aliases = t.get("aliases", [])
        if not isinstance(aliases, list):
            raise BarbuError(f"{cw}: aliases must be a list of texts, not {aliases!r}")
        aliases = tuple(aliases)
        if not all(isinstance(a, str) and a.strip() for a in aliases):
            raise BarbuError(f"{cw}: aliases must be non-empty texts, not "
                             f"{next(a for a in aliases if not isinstance(a, str) or not a.strip())!r}")
        if kind == "dominoes":
            _check_keys(cw, t, DOMINO_KEYS)
            places = _numbers(cw, "places", t.get("places", []))
            if len(places) != 4:
                raise BarbuError(f"{cw}: places must list 4 numbers (1st to 4th)")
            start = t.get("start", "named")
            if start not in ("named", "fixed", "first-card"):
                raise BarbuError(f"{cw}: start = {start!r} is not one of named, fixed, first-card")
            ace = t.get("ace", "high")
            if ace not in ("high", "low"):
                raise BarbuError(f"{cw}: ace = {ace!r} is not one of high, low")
            srank = None
            if "start_rank" in t:
                srank = int(Rank.parse(t["start_rank"])) if _is_rank(t["start_rank"]) else -1
                if srank not in DECK_RANKS[deck]:
                    raise BarbuError(f"{cw}: start_rank = {t['start_rank']!r} is not a rank "
                                     f"of the {deck}-card deck")
            if start == "fixed" and srank is None:
                raise BarbuError(f"{cw}: start = \"fixed\" needs start_rank")
            if start != "fixed" and srank is not None:
                raise BarbuError(f"{cw}: start_rank applies only with start = \"fixed\" "
                                 f"(start = {start!r} takes its rank from the "
                                 + ("player's first card)" if start == "first-card"
                                    else "declarer's choice)"))
            contracts[cid] = Contract(id=cid, kind=kind, aliases=aliases, places=places,
                                      start=start, start_rank=srank, ace=ace,
                                      ace_replay=t.get("ace_replay", False))
            continue
        _check_keys(cw, t, TRICK_KEYS)
        spec = []
        for k, v in t.get("card_points", {}).items():
            if isinstance(v, bool) or not isinstance(v, NUMBER):
                raise BarbuError(f"{cw}: card_points.{k} must be a number")
            ku = str(k).upper()
            if len(ku) == 1 and ku in "SHDC":
                pass
            elif _is_rank(ku):
                ku = RANK_CHARS[Rank.parse(ku)]
                if Rank.parse(ku) not in DECK_RANKS[deck]:
                    raise BarbuError(f"{cw}: card_points.{k}: rank not in the {deck}-card deck")
            else:
                try:
                    c = card_index(ku)
                except BarbuError:
                    raise BarbuError(f"{cw}: card_points key {k!r} is not a card, suit or "
                                     "rank") from None
                if c % 13 not in DECK_RANKS[deck]:
                    raise BarbuError(f"{cw}: card_points.{k}: card not in the {deck}-card deck")
                ku = card_name(c)
            if any(ku == x for x, _ in spec):  # (hk and HK, or q and Q: one key)
                raise BarbuError(f"{cw}: card_points names {ku} twice ({k!r} again)")
            spec.append((ku, _frac(v, f"{cw}: card_points.{k}")))
        last = _numbers(cw, "last_tricks", t.get("last_tricks", []))
        if len(last) > ntricks:
            raise BarbuError(f"{cw}: last_tricks lists {len(last)} tricks, a hand has {ntricks}")
        comps = tuple(str(x) for x in t.get("components", []))
        trumps = t.get("trumps", False)
        ravage = _frac(t["ravage"], f"{cw}: ravage") if "ravage" in t else None
        if ravage == 0:
            raise BarbuError(f"{cw}: ravage = 0 scores nothing (leave it out)")
        if ravage is not None and trumps:
            raise BarbuError(f"{cw}: ravage is played without trumps")
        for k in ("trump_lead_must_beat", "must_overtrump"):
            if t.get(k) and not trumps:
                raise BarbuError(f"{cw}: {k} needs trumps = true (this contract has no "
                                 "trump suit)")
        contracts[cid] = Contract(
            id=cid, kind=kind, aliases=aliases,
            trick_points=_frac(t.get("trick_points", 0), f"{cw}: trick_points"),
            last_tricks=last,
            card_points_spec=tuple(spec), components=comps, trumps=trumps,
            trump_lead_must_beat=t.get("trump_lead_must_beat", False),
            must_overtrump=t.get("must_overtrump", False),
            heart_lead_ban=t.get("heart_lead_ban", False),
            stop_when_taken=_cards(cw, "stop_when_taken", t.get("stop_when_taken", []), deck),
            forced_discard_cards=_cards(cw, "forced_discard_cards",
                                        t.get("forced_discard_cards", []), deck),
            all_tricks_score=(_frac(t["all_tricks_score"], f"{cw}: all_tricks_score")
                              if "all_tricks_score" in t else None),
            all_cards_score=(_frac(t["all_cards_score"], f"{cw}: all_cards_score")
                             if "all_cards_score" in t else None),
            ravage=ravage,
        )
    names: dict[str, str] = {}
    for c in contracts.values():  # an id or alias may name one contract only
        for a in (c.id, *c.aliases):
            k = _name_key(a)
            if names.get(k, c.id) != c.id:
                raise BarbuError(f"{where} [contracts.{c.id}]: alias {a!r} also names "
                                 f"{names[k]}")
            names[k] = c.id
    for c in contracts.values():
        for comp in c.components:
            if comp not in contracts:
                raise BarbuError(f"{where} [contracts.{c.id}]: component {comp!r} is not a "
                                 "contract of this preset")
            if contracts[comp].components or contracts[comp].kind != "tricks":
                raise BarbuError(f"{where} [contracts.{c.id}]: component {comp!r} must be a "
                                 "plain trick contract")
            if contracts[comp].ravage is not None:
                raise BarbuError(f"{where} [contracts.{c.id}]: component {comp!r} is scored "
                                 "by Ravage City, which a sum of components cannot take "
                                 "(only card and trick points add up)")
        if c.components and (c.card_points_spec or c.trick_points or c.last_tricks):
            raise BarbuError(f"{where} [contracts.{c.id}]: a contract with components takes "
                             "its points from them only")
        if c.is_tricks and c.ravage is None and not c.components and not (
                any(v for _, v in c.card_points_spec) or c.trick_points
                or any(c.last_tricks)):
            raise BarbuError(f"{where} [contracts.{c.id}]: scores nothing (give trick_points, "
                             "last_tricks, card_points, components or ravage)")

    match = data.get("match", {})
    _check_keys(f"{where} [match]", match, MATCH_KEYS)
    mc = tuple(str(x) for x in match.get("contracts", list(contracts)))
    for x in mc:
        if x not in contracts:
            raise BarbuError(f"{where} [match]: contract {x!r} is not defined under [contracts]")
    if len(set(mc)) != len(mc):
        raise BarbuError(f"{where} [match]: a contract is listed twice")
    if not mc:
        raise BarbuError(f"{where} [match]: contracts is empty: list the contracts played")
    order = match.get("order", "free")
    if order not in ("free", "fixed"):
        raise BarbuError(f"{where} [match]: order = {order!r} is not one of free, fixed")
    run = match.get("run", len(mc))
    hands = match.get("hands", 4 * run)
    if run < 1 or hands < 1:
        raise BarbuError(f"{where} [match]: hands and run must be positive")
    if hands % run:
        raise BarbuError(f"{where} [match]: hands = {hands} is not a whole number of runs "
                         f"of {run} (a declarer's run would be cut short)")
    if run > len(mc):
        raise BarbuError(f"{where} [match]: run = {run} is longer than the match's {len(mc)} "
                         "contracts (a declarer plays each contract once a run)")
    r = Rules(name=str(data["name"]), description=str(data.get("description", "")),
              deck=deck, hands=hands, run=run, order=order, match_contracts=mc,
              variants=variants, contracts=contracts, source=source, raw={})
    if variants["undoubled_negative"] == "split":
        # (the split shares a negative contract's total: both must exist)
        if variants["doubles"] == "none":
            raise BarbuError(f"{where} [variants]: undoubled_negative = \"split\" with "
                             "doubles = \"none\" would play no negative contract: choose one")
        for cid in mc:
            if not r.is_positive(cid) and r.total(cid) is None:
                raise BarbuError(f"{where} [contracts.{cid}]: undoubled_negative = "
                                 "\"split\" shares a negative contract's total, and this "
                                 "one has none (a bonus, or cards that end the hand, make "
                                 "it vary)")
    return r


def _is_rank(x: Any) -> bool:
    try:
        Rank.parse(str(x))
        return True
    except BarbuError:
        return False


def describe(rules: Rules) -> dict[str, Any]:
    """A JSON-able description of a preset (for ``barbu rules show --json``)."""
    def num(f: Fraction) -> int | float:
        return int(f) if f.denominator == 1 else float(f)

    contracts = {}
    for cid, c in rules.contracts.items():
        d: dict[str, Any] = {"kind": c.kind, "aliases": list(c.aliases),
                             "in_match": cid in rules.match_contracts}
        if c.is_tricks:
            d["card_points"] = {card_name(k): num(v) for k, v in rules.card_points(c).items()}
            d["trick_points"] = num(rules.trick_points(c))
            d["last_tricks"] = [num(x) for x in rules.last_tricks(c)]
            d.update(trumps=c.trumps, heart_lead_ban=c.heart_lead_ban,
                     stop_when_taken=[card_name(x) for x in c.stop_when_taken])
            if c.trumps:
                d.update(trump_lead_must_beat=c.trump_lead_must_beat,
                         must_overtrump=c.must_overtrump)
            if c.components:
                d["components"] = list(c.components)
            if c.forced_discard_cards:
                d["forced_discard_cards"] = [card_name(x) for x in c.forced_discard_cards]
            for k in ("all_tricks_score", "all_cards_score", "ravage"):
                v = getattr(c, k)
                if v is not None:
                    d[k] = num(v)
        else:
            d.update(places=[num(x) for x in c.places], start=c.start, ace=c.ace,
                     ace_replay=c.ace_replay)
            if c.start_rank is not None:
                d["start_rank"] = RANK_CHARS[c.start_rank]
        t = rules.total(c)
        d["total"] = None if t is None else num(t)
        contracts[cid] = d
    return {"name": rules.name, "description": rules.description, "deck": rules.deck,
            "source": rules.source,
            "match": {"hands": rules.hands, "run": rules.run, "order": rules.order,
                      "contracts": list(rules.match_contracts)},
            "variants": dict(rules.variants), "contracts": contracts}


__all__ = ["Contract", "Rules", "load_rules", "save_rules", "list_presets", "parse_rules",
           "describe", "user_home", "user_rules_dir", "BUILTIN_PRESETS", "DEFAULT_PRESET",
           "Suit"]

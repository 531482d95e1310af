"""Rules presets: every built-in preset loads; validation names the problem; user presets."""

from __future__ import annotations

import tomllib
from fractions import Fraction

import pytest

from analyzer.cards import card_index
from analyzer.errors import BarbuError
from analyzer.rules import (BUILTIN_PRESETS, describe, list_presets, load_rules, parse_rules,
                            same_game_as_builtin, save_rules, builtin_game)


@pytest.mark.parametrize("name", BUILTIN_PRESETS)
def test_builtin_presets_load_and_describe(name):
    r = load_rules(name)
    assert r.name == name
    d = describe(r)
    assert set(d["match"]["contracts"]) <= set(d["contracts"])


def test_preset_values_follow_rules_md():
    t = load_rules("tournament")
    assert t.card_points("no-hearts")[card_index("HA")] == -6
    assert t.card_points("no-hearts")[card_index("H2")] == -2
    assert t.contract("barbu").id == "no-king"          # alias
    assert t.contract("Atout").id == "trumps"
    assert t.last_tricks("no-last-two") == (-10, -20)
    assert t.contract("dominoes").places == (45, 20, 5, -5)
    assert load_rules("fr-52").contract("dominoes").places == (45, 20, 10, -10)
    b = load_rules("barbu-32")
    assert b.trick_points("trumps") == Fraction(5, 2) and b.variants["heart_lead"] == "first-trick"
    c = load_rules("classic-32")
    assert c.match_contracts == ("no-tricks", "no-hearts", "no-queens", "no-king", "salad",
                                 "dominoes")
    assert c.contract("dominoes").start_rank == 8 and c.contract("dominoes").ace_replay
    assert load_rules("bridge").total("notrump") == 13


def _doc(**changes):
    data = tomllib.loads(load_rules("tournament").to_toml())
    for path, value in changes.items():
        node = data
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    return data


def test_a_negative_trumps_contract_settles_as_a_negative_one():
    """is_positive went by the trumps, not the points: a rules file's Trumps handing out
    -2 a trick was settled by the positive contracts' rules (the sum rule, no split)."""
    data = _doc(contracts__trumps__trick_points=-2)
    r = parse_rules(data, "test.toml")
    assert not r.is_positive("trumps") and r.is_positive("dominoes")
    assert load_rules("tournament").is_positive("trumps")


@pytest.mark.parametrize("changes,match", [
    ({"deck": 48}, "deck = 48 is impossible"),
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"variants__heart_lead": "sometimes"}, "heart_lead = 'sometimes' is not one of"),
    ({"variants__forced_discard": "yes"}, "forced_discard must be true or false"),
    ({"contracts__no_tricks": {"kind": "tricks"}}, "bad contract id"),
    ({"contracts__no-king__card_points": {"HZ": -20}}, "not a card, suit or rank"),
    ({"contracts__no-king__card_points": {"HK": "lots"}}, "must be a number"),
    ({"contracts__dominoes__places": [45, 20, 5]}, "places must list 4"),
    ({"contracts__trumps__trick_points": True}, "not a boolean"),
    ({"match__contracts": ["no-tricks", "salad"]}, "'salad' is not defined"),
    ({"match__contracts": []}, "contracts is empty"),
    ({"contracts__no-king__components": ["ravage-city"], "contracts__no-king__card_points": {}},
     "component 'ravage-city' is scored by Ravage City"),
    ({"contracts__no-queens__aliases": ["barbu"]}, "alias 'barbu' also names no-queens"),
    ({"contracts__no-king__aliases": ["No-Tricks"]}, "alias 'No-Tricks' also names no-tricks"),
    ({"contracts__no-king__kind": "cards"}, "kind must be"),
    ({"variants__chooser": "dealer"}, "set lead = \"left\""),
    ({"contracts__no-tricks__trick_points": float("inf")}, "trick_points: inf is not a number"),
    ({"contracts__no-king__card_points": {"HK": float("nan")}}, "card_points.HK: nan is not"),
    ({"contracts__no-tricks__trick_points": -1e12}, "trick_points: .* is too large"),
    ({"contracts__no-tricks__trick_points": -2 ** 60}, "is too large"),
    ({"contracts__dominoes__places": [45, 20, 1e300, 5]}, "places: .* is too large"),
    ({"contracts__no-tricks__trick_points": 0.1234567}, "too many decimals"),
    ({"contracts__no-king__aliases": 5}, "aliases must be a list of texts, not 5"),
    ({"match__run": 9, "match__hands": 36}, "run = 9 is longer than the match.s 7 contracts"),
    ({"variants__undoubled_negative": "split", "variants__doubles": "none"},
     "would play no negative contract"),
    ({"variants__undoubled_negative": "split",
      "contracts__no-king__stop_when_taken": ["HK"],
      "contracts__no-king__card_points": {"HK": -20, "HA": -5}},
     r"\[contracts.no-king\]: undoubled_negative = \"split\" shares"),
])
def test_validation_names_the_problem(changes, match):
    with pytest.raises(BarbuError, match=match) as e:
        parse_rules(_doc(**changes), "test.toml")
    assert "\n" not in str(e.value)


def test_unknown_preset_and_missing_file():
    with pytest.raises(BarbuError, match="unknown rules preset 'nope'"):
        load_rules("nope")
    with pytest.raises(BarbuError, match="rules file not found"):
        load_rules("/no/such/file.toml")


def test_save_and_use_by_name(tmp_path, monkeypatch):
    monkeypatch.setenv("BARBU_HOME", str(tmp_path / "home"))
    text = load_rules("tournament").to_toml().replace('name = "tournament"', 'name = "house"')
    text = text.replace("forced_discard = false", "forced_discard = true")
    f = tmp_path / "house.toml"
    f.write_text(text)
    dest = save_rules("house", f)
    assert dest.parent == tmp_path / "home" / "rules"
    r = load_rules("house")
    assert r.variants["forced_discard"] is True
    assert ("house", str(tmp_path / "home" / "rules")) in [(n, w) for n, w, _ in list_presets()]
    with pytest.raises(BarbuError, match="built-in preset"):
        save_rules("tournament", f)
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 'x'\ndeck = 52\n[contracts]\n[contracts.a]\nkind = 'tricks'\n")
    with pytest.raises(BarbuError, match="scores nothing"):
        save_rules("bad", bad)


def test_an_edited_copy_of_a_builtin_is_not_the_builtin(tmp_path, monkeypatch):
    """A copy of a built-in preset's file, edited but still carrying its name, is a game
    of its own: the run-of-seven table made for the built-in does not apply to it, and
    saved under a new name it answers to that name."""
    from analyzer.advise import load_future_values
    monkeypatch.setenv("BARBU_HOME", str(tmp_path / "home"))
    b32 = load_rules("barbu-32")
    assert same_game_as_builtin(b32) and load_future_values(b32) is not None
    text = b32.to_toml()
    assert "trick_points = 2.5" in text
    f = tmp_path / "my.toml"
    f.write_text(text.replace("trick_points = 2.5", "trick_points = 100", 1))
    # used under the built-in's name it would label every result "barbu-32": refused
    with pytest.raises(BarbuError, match=r"my.toml: it is named 'barbu-32', a built-in "
                       r"preset, but its rules differ from that preset's: give it a name"):
        load_rules(str(f))
    mine = load_rules(str(f), own_name=False)
    assert mine.name == "barbu-32" and not same_game_as_builtin(mine)
    assert load_future_values(mine) is None
    same = tmp_path / "same.toml"       # the same game, only the description changed
    same.write_text(text.replace('description = "', 'description = "my copy: ', 1))
    assert same_game_as_builtin(load_rules(str(same)))
    t = load_rules("tournament").to_toml()
    assert 'undoubled_negative = "play"' in t and "heart_lead = \"always\"" in t
    split = tmp_path / "split.toml"     # settled otherwise, played and scored the same
    split.write_text(t.replace('undoubled_negative = "play"', 'undoubled_negative = "split"'))
    assert same_game_as_builtin(load_rules(str(split), own_name=False))
    ban = tmp_path / "ban.toml"         # played otherwise: other contract values
    ban.write_text(t.replace('heart_lead = "always"', 'heart_lead = "free"'))
    assert not same_game_as_builtin(load_rules(str(ban), own_name=False))
    for other in (split, ban):  # (settled or played otherwise: not "tournament")
        with pytest.raises(BarbuError, match="a built-in preset, but its rules differ"):
            load_rules(str(other))
    assert load_rules(str(same)).name == "barbu-32"  # (only its description differs)
    save_rules("house2", f)
    assert load_rules("house2").name == "house2"
    assert load_rules(" HOUSE2").name == "house2"  # (any case, as the built-ins)
    with pytest.raises(BarbuError, match="rules file .* is a folder"):
        save_rules("house4", tmp_path)
    # an unchanged copy saved under a new name plays the built-in's game: its table applies
    save_rules("house3", same)
    h3 = load_rules("house3")
    assert builtin_game(h3) == "barbu-32" and not same_game_as_builtin(h3)
    assert load_future_values(h3) == load_future_values(b32)
    assert builtin_game(load_rules("house2")) is None and load_future_values(mine) is None
    # two names for one file (a link; a path, then a name): each answers to its own
    home = tmp_path / "home" / "rules"
    (home / "linked.toml").symlink_to(home / "house2.toml")
    assert load_rules(str(home / "house2.toml")).name == "house2"  # (by path: as saved)
    assert load_rules("house2").name == "house2" and load_rules("linked").name == "linked"
    # neither an alias nor the listing order of a free-order match changes the game
    data = tomllib.loads(b32.to_toml())
    data["contracts"]["trumps"]["aliases"] = ["atout", "my-trumps"]
    data["match"]["contracts"] = data["match"]["contracts"][::-1]
    assert builtin_game(parse_rules(data)) == "barbu-32"


def test_a_rules_file_that_is_not_text(tmp_path):
    f = tmp_path / "bin.toml"
    f.write_bytes(b"\xff\xfe name")
    with pytest.raises(BarbuError, match="not UTF-8"):
        load_rules(str(f))


def test_a_rules_file_rewritten_with_the_same_timestamp_is_read_again(tmp_path):
    """Loaded files were kept by path and modification time: a file rewritten with other
    points and the same timestamp (``cp -p``, ``touch -r``, an archive) kept the old
    points for the rest of the process."""
    import os
    f = tmp_path / "mine.toml"
    text = load_rules("barbu-32").to_toml().replace('name = "barbu-32"', 'name = "mine"')
    f.write_text(text)
    os.utime(f, ns=(1_700_000_000_000_000_000,) * 2)
    assert load_rules(str(f)).trick_points("no-tricks") == -1
    f.write_text(text.replace("trick_points = -1", "trick_points = -7", 1))
    os.utime(f, ns=(1_700_000_000_000_000_000,) * 2)
    assert load_rules(str(f)).trick_points("no-tricks") == -7
    f.chmod(0)
    if not os.access(f, os.R_OK):  # (root reads it anyway)
        with pytest.raises(BarbuError, match="cannot read rules file"):
            load_rules(str(f))


def test_memoised_answers_cannot_be_changed_by_a_caller():
    """card_points, total and compile_contract are computed once per preset: what one
    caller does with its answer must not change the next caller's."""
    import numpy as np

    from analyzer.compile import compile_contract
    r = load_rules("tournament")
    cid = next(c for c in r.contracts if r.contracts[c].is_tricks and r.card_points(c))
    first = r.card_points(cid)
    first.clear()
    assert r.card_points(cid) and r.card_points(cid) == r._card_points(r.contract(cid))
    assert r.total(cid) == r._total(r.contract(cid))
    c1 = compile_contract(r, cid, None if not r.contract(cid).trumps else 0)
    c2 = compile_contract(r, cid, None if not r.contract(cid).trumps else 0)
    assert c1 is c2
    for a in (c1.pts, c1.tpl, c1.cls):
        with pytest.raises(ValueError):
            a[0] = np.int64(1)
    # a fresh load of the preset file is a new preset: nothing carries over
    r2 = parse_rules(tomllib.loads(r.to_toml()))
    assert r2 is not r and "_memo_cache" not in r2.__dict__
    assert r2.card_points(cid) == r.card_points(cid)


def test_saving_where_the_user_folder_cannot_be(tmp_path, monkeypatch):
    """BARBU_HOME naming a file: one line, not a NotADirectoryError; a folder named like a
    preset file is not listed as a preset."""
    home = tmp_path / "home"
    home.write_text("not a folder")
    monkeypatch.setenv("BARBU_HOME", str(home))
    f = tmp_path / "mine.toml"
    f.write_text(load_rules("barbu-32").to_toml().replace('name = "barbu-32"', 'name = "mine"'))
    with pytest.raises(BarbuError, match="cannot save mine in"):
        save_rules("mine", f)
    home2 = tmp_path / "home2"
    (home2 / "rules" / "odd.toml").mkdir(parents=True)
    monkeypatch.setenv("BARBU_HOME", str(home2))
    assert "odd" not in [n for n, _, _ in list_presets()]


def test_settings_that_cannot_apply_are_refused():
    """A contract whose points are all zero scores nothing, however it spells them; a
    start_rank under a start that ignores it, or an overtrump obligation on a contract
    without trumps, would be read and silently dropped."""
    base = tomllib.loads(load_rules("tournament").to_toml())

    def with_contract(cid, **keys):
        data = tomllib.loads(load_rules("tournament").to_toml())
        data["contracts"][cid].update(keys)
        return data

    for zero in ({"card_points": {"HK": 0}}, {"last_tricks": [0, 0]}):
        data = tomllib.loads(load_rules("tournament").to_toml())
        data["contracts"]["x"] = {"kind": "tricks", **zero}
        with pytest.raises(BarbuError, match="scores nothing"):
            parse_rules(data)
    with pytest.raises(BarbuError, match="start_rank applies only"):
        parse_rules(with_contract("dominoes", start_rank="9"))
    for k in ("must_overtrump", "trump_lead_must_beat"):
        with pytest.raises(BarbuError, match=f"{k} needs trumps"):
            parse_rules(with_contract("no-tricks", **{k: True}))
    parse_rules(with_contract("no-tricks", must_overtrump=False))   # false is harmless
    parse_rules(base)
    # Ravage City at 0 scores nothing either; an empty name would name nothing in outputs
    data = tomllib.loads(load_rules("tournament").to_toml())
    data["contracts"]["x"] = {"kind": "tricks", "ravage": 0}
    with pytest.raises(BarbuError, match="ravage = 0 scores nothing"):
        parse_rules(data)
    for name in ("", "  "):
        with pytest.raises(BarbuError, match="name is empty"):
            parse_rules({**base, "name": name})


def test_no_home_directory_needs_none_for_built_in_presets(monkeypatch, tmp_path):
    """A user without a home (a container's arbitrary uid) got a traceback from any
    preset name; `~nosuchuser` paths too. Built-in presets need no user directory."""
    from pathlib import Path

    from analyzer.rules import list_presets, user_path

    def no_home():
        raise RuntimeError("Could not determine home directory.")
    monkeypatch.delenv("BARBU_HOME", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert load_rules("barbu-32").name == "barbu-32"
    assert [n for n, _, _ in list_presets()][:5] == list(BUILTIN_PRESETS)
    f = tmp_path / "x.toml"
    f.write_text(load_rules("barbu-32").to_toml())
    with pytest.raises(BarbuError, match="set BARBU_HOME"):
        save_rules("mine", f)
    with pytest.raises(BarbuError, match="cannot expand the rules file"):
        load_rules("~nosuch-user-here/x.toml")
    with pytest.raises(BarbuError, match="cannot expand the match file"):
        user_path("~nosuch-user-here/m.toml", "match file")


def test_saving_presets_never_loses_one_silently(tmp_path, monkeypatch):
    """A second save under a name replaced the first without a word; saving a preset's
    own file onto itself failed with Python reprs; a user preset named like a built-in
    was listed as if usable; hands not a whole number of runs gave a contradictory
    sheet."""
    monkeypatch.setenv("BARBU_HOME", str(tmp_path / "home"))
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(load_rules("barbu-32").to_toml())
    b.write_text(load_rules("tournament").to_toml())
    dest = save_rules("house", a)
    with pytest.raises(BarbuError, match="already exists.*--force"):
        save_rules("house", b)
    assert load_rules("house").deck == 32
    assert save_rules("house", dest) == dest          # validated in place
    save_rules("house", b, replace=True)
    assert load_rules("house").deck == 52
    (tmp_path / "home" / "rules" / "tournament.toml").write_text(a.read_text())
    listed = [(n, d) for n, w, d in list_presets() if w != "built-in"]
    assert any(n == "tournament" and d.startswith("(ignored") for n, d in listed)
    data = tomllib.loads(load_rules("tournament").to_toml())
    data["match"]["hands"] = 9
    with pytest.raises(BarbuError, match="not a whole number of runs"):
        parse_rules(data)


def test_match_defaults_run_to_the_contracts_and_hands_to_four_runs():
    """README: in [match], run left out is one hand per contract, and hands four runs
    (every player declares one run)."""
    data = tomllib.loads(load_rules("tournament").to_toml())
    data["match"] = {"contracts": data["match"]["contracts"][:5]}
    r = parse_rules(data)
    assert (r.run, r.hands) == (5, 20)
    data["match"]["run"] = 3
    assert (parse_rules(data).run, parse_rules(data).hands) == (3, 12)


def test_a_user_preset_named_like_a_built_in_in_another_case_is_marked(tmp_path,
                                                                       monkeypatch):
    """Preset names are read in any case, so a saved Barbu-32.toml is never loaded:
    `rules list` says so instead of listing it as usable."""
    monkeypatch.setenv("BARBU_HOME", str(tmp_path))
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "Barbu-32.toml").write_text(load_rules("barbu-32").to_toml())
    mine = [d for n, w, d in list_presets() if n == "Barbu-32"]
    assert mine and mine[0].startswith("(ignored: --rules Barbu-32 is the built-in")
    assert load_rules("Barbu-32").source == load_rules("barbu-32").source


def test_contract_names_with_accents_however_composed():
    """A terminal may send "réussite" decomposed (e + combining accent): it named no
    contract."""
    r = load_rules("tournament")
    assert r.contract("re\u0301ussite").id == "dominoes"
    assert r.contract("PAS DE C\u0152URS").id == "no-hearts"


def test_one_card_spelt_twice_empty_aliases_and_a_bom(tmp_path):
    """card_points = {HK = -20, hk = -5} kept -5 without a word; blank aliases were
    taken; a rules or match file starting with a byte-order mark was "not valid TOML"."""
    from analyzer.match import score_match
    for extra in ({"HK": -20, "hk": -5}, {"Q": -6, "q": -1}):
        data = tomllib.loads(load_rules("tournament").to_toml())
        data["contracts"]["no-king"]["card_points"] = extra
        with pytest.raises(BarbuError, match="names .* twice"):
            parse_rules(data)
    data = tomllib.loads(load_rules("tournament").to_toml())
    data["contracts"]["trumps"]["aliases"] = ["atout", " "]
    with pytest.raises(BarbuError, match="aliases must be non-empty texts"):
        parse_rules(data)
    f = tmp_path / "bom.toml"
    f.write_bytes(b"\xef\xbb\xbf" + load_rules("barbu-32").to_toml().encode())
    assert load_rules(str(f)).deck == 32
    m = tmp_path / "m.toml"
    m.write_bytes(b"\xef\xbb\xbf" + b'rules = "barbu-32"\n')
    assert score_match(m).to_json()["rules"] == "barbu-32"


def test_a_contract_of_components_adds_their_tricks_and_last_tricks():
    """A component's last tricks count from the hand's end (its last trick is the last
    trick), and every component's trick points add up: components a (-2 a trick, last
    two -10 and -20) and b (-1 a trick, last -5) make -3 a trick, last two -10 and -25.
    On a 2-card endgame (each seat plays its last legal card) N takes the first trick
    (-3 - 10), W the last (-3 - 25)."""
    from analyzer.cards import parse_deal
    from analyzer.engine import TrickGame
    d = tomllib.loads(load_rules("tournament").to_toml())
    d["contracts"]["a"] = {"kind": "tricks", "trick_points": -2, "last_tricks": [-10, -20]}
    d["contracts"]["b"] = {"kind": "tricks", "trick_points": -1, "last_tricks": [-5]}
    d["contracts"]["mix"] = {"kind": "tricks", "components": ["a", "b"]}
    r = parse_rules(d, "mix")
    assert r.last_tricks("mix") == (-10, -25) and r.trick_points("mix") == -3
    g = TrickGame(r, "mix", parse_deal("N:A2... K3... Q4... J5...").hands, 0)
    while not g.over:
        g.play(g.legal()[-1])
    assert list(g.score()) == [-13, 0, 0, -28]


def test_a_copy_that_only_lists_things_in_another_order_keeps_the_builtins_name(tmp_path):
    """The name check compares what the rules play and score: the order of card points,
    of the cards that stop a contract, of a salad's parts, and the doubling settings of
    rules without doubling change nothing, so such a copy is the built-in."""
    t = load_rules("tournament").to_toml()
    c32 = load_rules("classic-32").to_toml()
    b32 = load_rules("barbu-32").to_toml()
    edits = [
        (t, 'card_points = { H = -2, HA = -6 }', 'card_points = { HA = -6, H = -2 }'),
        (t, 'stop_when_taken = ["SQ", "HQ", "DQ", "CQ"]',
         'stop_when_taken = ["HQ", "SQ", "CQ", "DQ"]'),
        (c32, 'components = ["no-tricks", "no-hearts", "no-queens", "no-king"]',
         'components = ["no-king", "no-queens", "no-hearts", "no-tricks"]'),
        (b32, "quota = 0", "quota = 1"),  # (no doubling: no quota to meet)
    ]
    for k, (text, old, new) in enumerate(edits):
        assert old in text
        f = tmp_path / f"copy{k}.toml"
        f.write_text(text.replace(old, new, 1))
        assert load_rules(str(f)).name in ("tournament", "classic-32", "barbu-32")
    refused = [  # (with doubling, the quota is part of the game; some orders count)
        (t, "quota = 2", "quota = 1"),
        (t, "last_tricks = [-10, -20]", "last_tricks = [-20, -10]"),
        (c32, 'contracts = ["no-tricks", "no-hearts", "no-queens", "no-king", "salad", '
              '"dominoes"]', 'contracts = ["no-hearts", "no-tricks", "no-queens", '
                             '"no-king", "salad", "dominoes"]'),  # (a fixed order)
    ]
    for k, (text, old, new) in enumerate(refused):
        assert old in text
        f = tmp_path / f"other{k}.toml"
        f.write_text(text.replace(old, new, 1))
        with pytest.raises(BarbuError, match="its rules differ"):
            load_rules(str(f))


def test_a_user_folder_that_cannot_be_worked_out_spoils_only_saved_presets(tmp_path,
                                                                          monkeypatch):
    """A BARBU_HOME that cannot be expanded broke every load once the saved-name check
    looked at it: built-ins and rules files by path do not need it."""
    copy = tmp_path / "copy.toml"
    copy.write_text(load_rules("barbu-32").to_toml())
    monkeypatch.setenv("BARBU_HOME", "~nosuchuser-barbu/x")
    assert load_rules("barbu-32").name == "barbu-32"
    assert load_rules(str(copy)).name == "barbu-32"
    with pytest.raises(BarbuError, match="BARBU_HOME"):
        load_rules("house")


def test_a_link_to_a_saved_preset_answers_to_its_saved_name(tmp_path, monkeypatch):
    monkeypatch.setenv("BARBU_HOME", str(tmp_path / "home"))
    f = tmp_path / "edited.toml"
    f.write_text(load_rules("barbu-32").to_toml().replace("trick_points = 2.5",
                                                          "trick_points = 3", 1))
    save_rules("house", f)
    (tmp_path / "links").mkdir()
    link = tmp_path / "links" / "other.toml"
    link.symlink_to(tmp_path / "home" / "rules" / "house.toml")
    assert load_rules(str(link)).name == "house"
    with pytest.raises(BarbuError, match=r"rules file '.*links' is a folder"):
        load_rules(str(tmp_path / "links"))

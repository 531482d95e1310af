"""Match sheets (analyzer/match.py, reports/sheet.py): the sample files, the JSON shape,
and every inconsistency reported as one line naming the hand."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.errors import BarbuError
from analyzer.match import check_raw, possible_raw, score_match
from analyzer.rules import load_rules
from reports.sheet import render_match

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"


def write(tmp_path: Path, body: str, name: str = "m.toml") -> Path:
    p = tmp_path / name
    p.write_text(body, encoding="utf-8")
    return p


def hand(decl: str | None, contract: str, raw: str, doubles: str = "[]", extra: str = "") -> str:
    d = f'declarer = "{decl}"\n' if decl else ""
    return (f'[[hand]]\n{d}contract = "{contract}"\ndoubles = {doubles}\nraw = {raw}\n'
            f"{extra}\n")


# --------------------------------------------------------------------------- samples
def test_tournament_sample():
    r = score_match(SAMPLES / "match-tournament.toml")
    assert r.rules.name == "tournament" and r.complete and len(r.hands) == 28
    h1 = r.hands[0]
    # source 001's worked hand is the sample's hand 1
    assert [int(x) for x in h1.net] == [-12, 24, -12, -24]
    assert [int(x) for x in h1.entry] == [12, 48, 12, 0]
    assert sum(r.totals) == 0                      # the seven totals sum to zero, 4 runs
    assert all(h.settlement.check == "ok" for h in r.hands)
    assert [run.declarer for run in r.runs] == [0, 1, 2, 3]
    assert all(run.complete for run in r.runs)
    # running totals are the sums of the nets
    for k in range(4):
        assert r.totals[k] == sum(h.net[k] for h in r.hands)
        assert r.sheet_totals[k] == sum(h.entry[k] for h in r.hands)
    # quota counts: doubles of the declarer in the run (redoubles do not count)
    assert r.hands[0].quota == (0, 1, 1, 0)
    assert r.runs[0].doubles_of_declarer == r.hands[6].quota


def test_tournament_sample_json_and_text():
    r = score_match(SAMPLES / "match-tournament.toml")
    j = r.to_json()
    json.dumps(j)                                  # JSON-able
    assert j["rules"] == "tournament" and j["hands_played"] == 28 and j["complete"]
    h = j["hands"][0]
    assert h["raw"] == {"N": -6, "E": 0, "S": -6, "W": -12}
    assert h["net"] == {"N": -12, "E": 24, "S": -12, "W": -24}
    assert h["above_lowest"] == {"N": 12, "E": 48, "S": 12, "W": 0}
    assert h["pairs"] == {"NE": 1, "NS": 2, "ES": 1, "EW": 1}
    assert h["check"] == {"status": "ok", "total": -24, "net_sum": -24, "note": ""}
    assert h["quota"] == {"E": 1, "S": 1, "W": 0}
    assert j["runs"][0]["quota"] == 2 and set(j["runs"][0]["doubles_of_declarer"]) == {
        "E", "S", "W"}
    assert j["players"]["N"] == "Anne" and j["leaders"] == ["E"]
    text = render_match(r)
    assert "Run 1: declarer N (Anne)" in text and "Quota (2 doubles of N" in text
    assert "E>NSW S>N N>S" in text and "Winner: E (Beth)" in text


def test_fr52_sample_skips_check_and_says_so():
    r = score_match(SAMPLES / "match-fr52.toml")
    assert r.rules.name == "fr-52" and not r.complete
    j = r.to_json()
    assert j["checks_skipped"] == [4, 5]
    assert j["hands"][4]["check"]["status"] == "skipped"
    assert "sum rule" in j["hands"][4]["check"]["note"]
    # source 002 "Compte des points": Jérôme +18, Delphine −36, Jérémy 0, Jean −6
    assert j["hands"][6]["net"] == {"N": 18, "E": -36, "S": 0, "W": -6}
    # the Trumps hand: Jean (2 tricks) doubled Delphine (1): 10 + 5 and 5 − 10
    assert j["hands"][4]["net"]["W"] == 15 and j["hands"][4]["net"]["E"] == -5
    text = render_match(r)
    assert "skipped*" in text and "total check skipped" in text
    assert "Leader: E (Delphine)" in text
    # rules.md: fr-52 is "as tournament, except ..." and the quota is not excepted
    assert j["runs"][0]["quota"] == 2 and "short: W by 1" in text


def test_works_from_another_directory(tmp_path, monkeypatch):
    """Nothing is located relative to the CWD except the file given; a shipped sample's
    path works from anywhere (read from the installed package)."""
    monkeypatch.chdir(tmp_path)
    a = score_match(str(SAMPLES / "match-tournament.toml")).to_json()
    b = score_match("data/samples/match-tournament.toml").to_json()
    assert a["totals"] == b["totals"]
    with pytest.raises(BarbuError, match="match file not found"):
        score_match("nope/missing.toml")


# --------------------------------------------------------------------------- options
def test_rules_override_and_default(tmp_path):
    body = hand("N", "no-queens", "[-6, 0, -6, -12]")
    p = write(tmp_path, body)
    assert score_match(p).rules.name == "tournament"
    assert score_match(p, rules="fr-52").rules.name == "fr-52"
    # a doubled Trumps between non-declarers: fine in fr-52, illegal in tournament
    p2 = write(tmp_path, 'rules = "fr-52"\n' + hand("N", "trumps", "[25, 5, 15, 20]",
                                                    '["E>S"]'), "t.toml")
    assert score_match(p2).hands[0].settlement.method == "sum"
    with pytest.raises(BarbuError, match="hand 1: illegal double E>S"):
        score_match(p2, rules="tournament")


def test_rules_file_relative_to_match_file(tmp_path, monkeypatch):
    """``rules = "house.toml"`` is read next to the match file; split variant applies."""
    text = (ROOT / "data" / "rules" / "tournament.toml").read_text(encoding="utf-8")
    text = text.replace('name = "tournament"', 'name = "house"').replace(
        'undoubled_negative = "play"', 'undoubled_negative = "split"')
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "house.toml").write_text(text, encoding="utf-8")
    body = ('rules = "house.toml"\nfirst_declarer = "E"\n'
            '[[hand]]\ncontract = "no-tricks"\n\n'
            + hand(None, "no-queens", "[0, -6, -12, -6]", '["N>E"]')
            + '[[hand]]\ncontract = "no-king"\nraw = [-7, 1, -7, -7]\n')
    p = write(tmp_path / "sub", body)
    monkeypatch.chdir(tmp_path)
    r = score_match(p)
    assert r.rules.name == "house"
    j = r.to_json()
    assert j["hands"][0]["net"] == {"N": -9, "E": 1, "S": -9, "W": -9}
    assert j["hands"][0]["settlement"] == "split" and j["hands"][0]["declarer"] == "E"
    assert j["hands"][1]["settlement"] == "difference"
    assert j["hands"][2]["net"] == {"N": -7, "E": 1, "S": -7, "W": -7}
    assert "not played" in render_match(r)


def test_fixed_order_preset(tmp_path):
    """classic-32: contracts in the listed order; the contract may be left out."""
    body = 'rules = "classic-32"\n[[hand]]\ndeclarer = "S"\nraw = [-10, -15, -5, -10]\n\n'
    body += hand(None, "no-hearts", "[-20, -30, -30, 0]")
    r = score_match(write(tmp_path, body))
    assert [h.contract for h in r.hands] == ["no-tricks", "no-hearts"]
    bad = 'rules = "classic-32"\n' + hand("N", "no-hearts", "[-20, -30, -30, 0]")
    with pytest.raises(BarbuError, match="hand 1: contract no-hearts out of order"):
        score_match(write(tmp_path, bad, "b.toml"))
    # the all-tricks bonus: +40 for 8 tricks, others 0
    ok = 'rules = "classic-32"\n' + hand("N", "no-tricks", "[40, 0, 0, 0]")
    assert score_match(write(tmp_path, ok, "c.toml")).hands[0].settlement.check == "n/a"


def test_fractional_barbu32(tmp_path):
    body = ('rules = "barbu-32"\n'
            + hand("W", "trumps", "[2.5, \"5/2\", 5, 10]", extra='trump = "H"'))
    r = score_match(write(tmp_path, body))
    assert r.to_json()["hands"][0]["net"] == {"N": 2.5, "E": 2.5, "S": 5, "W": 10}
    assert "♥" in render_match(r)


# --------------------------------------------------------------------------- inconsistencies
BAD = [
    # (hands, message)
    (hand("N", "no-king", "{N = 0, E = -20, S = 0, W = 0, north = 0}"), "N is named twice"),
    ('declarer = 0\ncontract = "no-king"\nraw = [0, -20, 0, 0]\n'.join(["[[hand]]\n", ""]),
     "0 is not a seat"),
    ('players = {N = "Ann", north = "Bea"}\n' + hand("N", "no-king", "[0, -20, 0, 0]"),
     "players: N is named twice"),
    (hand("N", "no-queens", "[-6, 0, -6, -6]"), "hand 1: raw results -6 0 -6 -6 add up to "
                                                "-18, not the no-queens total -24"),
    (hand("N", "no-tricks", "[-3, -7, -6, -10]"), "hand 1: raw result -3 of N is impossible "
                                                  "in no-tricks \\(not a multiple"),
    (hand("N", "no-hearts", "[-32, 0, 2, 0]"), "hand 1: raw result -32 of N is impossible"),
    (hand("N", "dominoes", "[45, 20, 10, -10]"), "hand 1: raw results .* are not the "
                                                 "dominoes places 45 20 5 -5"),
    (hand("N", "no-king", "[-20, 0, 0, 0]") + hand("N", "no-king", "[-20, 0, 0, 0]"),
     "hand 2: N already played no-king in this run"),
    (hand("N", "no-king", "[-20, 0, 0, 0]") + hand("E", "no-queens", "[-24, 0, 0, 0]"),
     "hand 2: declarer E out of turn: hand 2 is hand 2 of N's run"),
    (hand("N", "ravage-city", "[-36, 0, 0, 0]"), "hand 1: contract ravage-city is not in a "
                                                 "tournament match"),
    (hand("N", "no-kings", "[-20, 0, 0, 0]"), "hand 1: unknown contract 'no-kings'"),
    (hand("N", "trumps", "[25, 5, 15, 20]", '["E>S"]'),
     "hand 1: illegal double E>S: in trumps only the declarer \\(N\\) may be doubled"),
    (hand("N", "no-queens", "[-6, 0, -6, -12]", '["N>E"]'),
     "hand 1: illegal double N>E: the declarer may only redouble"),
    (hand("N", "no-queens", "[-6, 0, -6, -12]", '["E>E"]'), "hand 1: bad double 'E>E'"),
    (hand("N", "no-queens", "[-6, 0, -6]"), "hand 1: raw must be 4 scores"),
    (hand("N", "no-queens", '{ N = -6, E = 0, S = -6 }'), "hand 1: raw: no score for W"),
    (hand("N", "no-queens", '[-6, 0, "x", -12]'), "hand 1: raw of S 'x' is not a number"),
    ('[[hand]]\ndeclarer = "N"\ncontract = "no-queens"\n', "hand 1: raw results missing"),
    (hand("N", "no-queens", "[-6, 0, -6, -12]", extra="trumps = \"H\""),
     "hand 1: unknown key 'trumps'"),
    (hand("N", "no-queens", "[-6, 0, -6, -12]", extra="trump = \"H\""),
     "hand 1: trump given for no-queens"),
    (hand("N", "dominoes", "[45, 20, 5, -5]", extra="rank = \"Z\""), "hand 1: .*rank"),
    ('[[hand]]\ncontract = "no-queens"\nraw = [-6, 0, -6, -12]\n', "hand 1: declarer missing"),
    ("players = [1, 2]\n" + hand("N", "no-king", "[-20, 0, 0, 0]"), "players must be 4"),
    ('wrong = 1\n', "unknown key 'wrong'"),
    ('rules = "nope"\n', "unknown rules preset 'nope'"),
    ("[[hand]\n", "not valid TOML"),
]


@pytest.mark.parametrize("body,msg", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_inconsistent_input_is_one_line_error(tmp_path, body, msg):
    with pytest.raises(BarbuError, match=msg) as e:
        score_match(write(tmp_path, body))
    assert "\n" not in str(e.value)


def test_too_many_hands(tmp_path):
    body = 'rules = "bridge"\n' + hand("N", "notrump", "[4, 3, 3, 3]") * 2
    with pytest.raises(BarbuError, match="hand 2: a bridge match has only 1 hands"):
        score_match(write(tmp_path, body))


def test_run_boundary_and_quota(tmp_path):
    """After run of 7 hands, the declarer is the left of the previous one; contracts may
    repeat in the new run; the quota count restarts (shown, never blocking)."""
    cs = ["no-tricks", "no-queens", "no-last-two", "no-hearts", "no-king", "trumps",
          "dominoes"]
    raws = {"no-tricks": "[-2, -8, -8, -8]", "no-queens": "[0, -6, -6, -12]",
            "no-last-two": "[-30, 0, 0, 0]", "no-hearts": "[-6, -8, -8, -8]",
            "no-king": "[0, 0, -20, 0]", "trumps": "[20, 15, 15, 15]",
            "dominoes": "[45, 20, 5, -5]"}
    body = "".join(hand("N" if i == 0 else None, c, raws[c], '["E>N"]') for i, c in
                   enumerate(cs))
    body += hand("E", "no-king", "[0, 0, -20, 0]", '["N>E", "S>E"]')
    r = score_match(write(tmp_path, body))
    assert r.runs[0].doubles_of_declarer == (0, 7, 0, 0)
    assert r.runs[0].short() == {2: 2, 3: 2}
    assert r.runs[1].declarer == 1 and r.runs[1].hands == 1 and not r.runs[1].complete
    assert r.hands[7].quota == (1, 0, 1, 0)
    text = render_match(r)
    assert "short: S by 2, W by 2" in text and "run in progress: 1 of 7 hands" in text
    with pytest.raises(BarbuError, match="hand 8: declarer S out of turn"):
        score_match(write(tmp_path, body.replace('declarer = "E"', 'declarer = "S"'),
                          "x.toml"))


def test_checks_skipped_lists_only_skipped_hands(tmp_path):
    """A hand whose zero-sum check does not apply ("n/a": classic-32 has no doubling) is
    not a skipped check (match-format.md: "ok" | "skipped" | "n/a")."""
    j = score_match(write(tmp_path, 'rules = "classic-32"\n[[hand]]\ndeclarer = "N"\n'
                                    'contract = "no-tricks"\nraw = [-20, -10, -5, -5]\n',
                          "c32.toml")).to_json()
    assert j["hands"][0]["check"]["status"] == "n/a" and j["checks_skipped"] == []


def test_possible_raw_sets():
    t = load_rules("tournament")
    assert possible_raw(t, t.contract("no-king")) == {0, -20}
    assert max(possible_raw(t, t.contract("no-hearts"))) == 0
    assert -30 in possible_raw(t, t.contract("no-hearts"))
    assert -7 not in possible_raw(t, t.contract("no-hearts"))
    assert possible_raw(t, t.contract("no-last-two")) == {0, -10, -20, -30}
    check_raw(t, t.contract("ravage-city"), (-18, -18, 0, 0))
    # one player takes every trick (no bonus in tournament): the whole total is his
    check_raw(t, t.contract("no-tricks"), (-26, 0, 0, 0))
    check_raw(t, t.contract("trumps"), (65, 0, 0, 0))
    with pytest.raises(BarbuError, match="share -36"):
        check_raw(t, t.contract("ravage-city"), (-18, -9, -9, 0))


def test_bonus_contracts_never_score_the_full_penalty():
    """classic-32 (rules.md): whoever takes all 8 tricks scores +40 in No Tricks, all 8
    hearts +80 in No Hearts, all 4 queens +80 in No Queens, all 8 tricks +250 in the
    Salad, *instead* of the penalty, the others 0: -40, -80, -80 and -250 never occur."""
    c = load_rules("classic-32")
    for cid, bonus, full in (("no-tricks", 40, -40), ("no-hearts", 80, -80),
                             ("no-queens", 80, -80), ("salad", 250, -250)):
        ok = possible_raw(c, c.contract(cid))
        assert bonus in ok and full not in ok, cid
        check_raw(c, c.contract(cid), (bonus, 0, 0, 0))
        with pytest.raises(BarbuError, match="impossible"):
            check_raw(c, c.contract(cid), (full, 0, 0, 0))
    with pytest.raises(BarbuError, match="40 for whoever takes every trick and 0 for the "):
        check_raw(c, c.contract("no-tricks"), (40, -5, 0, 0))
    check_raw(c, c.contract("no-tricks"), (-35, -5, 0, 0))     # 7 tricks and 1: normal


def test_an_all_cards_bonus_leaves_the_others_only_their_tricks():
    """Whoever takes every scoring card scores the bonus; the others took no scoring
    card, so they have what their tricks, last tricks and Ravage shares give them: in
    classic-32's No Hearts and No Queens (no other points) 0 each. The check accepted
    any other results once the bonus appeared."""
    import tomllib

    from analyzer.rules import parse_rules
    c = load_rules("classic-32")
    F = Fraction
    for cid, other in (("no-hearts", -10), ("no-queens", -20)):
        check_raw(c, c.contract(cid), (0, 0, F(80), 0))
        with pytest.raises(BarbuError, match="nor 80 for whoever takes every scoring card"):
            check_raw(c, c.contract(cid), (F(80), F(other), 0, 0))
    data = tomllib.loads(load_rules("barbu-32").to_toml())
    for extra, good, bad in (
            ({}, ((20, -1, -2, 0), (20, -7, 0, 0), (-3, 20, -4, -1)),
             ((20, -1, -2, -9), (20, -5, -5, 0))),  # (8 tricks a hand)
            ({"ravage": -12}, ((20, -1, 0, -12), (-3, 20, -7, -4)),
             ((20, -1, -2, -30), (20, -13, -13, 0)))):
        data["contracts"]["x"] = dict(kind="tricks", trick_points=-1, card_points={"H": -1},
                                      all_cards_score=20, **extra)
        r = parse_rules(data, "x.toml")
        x = r.contract("x")
        for raw in good:
            check_raw(r, x, tuple(F(v) for v in raw))
        for raw in bad:
            with pytest.raises(BarbuError, match="impossible|add up to"):
                check_raw(r, x, tuple(F(v) for v in raw))


def test_a_long_list_of_card_points_checks_the_range_without_the_bonus(tmp_path):
    """Where the raw scores are too many to list (20 hearts and diamonds at -1, -2, -4,
    ... points), check_raw checks the points' own range, with the all-cards bonus (+100)
    as a value apart: +50 is neither."""
    text = load_rules("tournament").to_toml()
    pts = ", ".join(f"{s}{r} = -{2 ** i}" for i, (s, r) in enumerate(
        (s, r) for s in "HD" for r in "23456789TJ"))
    text = text.replace("card_points = { H = -2, HA = -6 }",
                        f"card_points = {{ {pts} }}\nall_cards_score = 100")
    f = tmp_path / "many.toml"
    f.write_text(text.replace('name = "tournament"', 'name = "many"'), encoding="utf-8")
    r = load_rules(str(f))
    c = r.contract("no-hearts")
    assert possible_raw(r, c) is None and r.score_range(c) == (1 - 2 ** 20, 100)
    full = r.normal_total(c)
    check_raw(r, c, (full + 1, -1, 0, 0))
    check_raw(r, c, (100, 0, 0, 0))
    with pytest.raises(BarbuError, match="raw result 50 of N is impossible"):
        check_raw(r, c, (50, full - 50, 0, 0))


def test_last_tricks_go_to_one_player_each():
    t = load_rules("tournament")
    nl2 = t.contract("no-last-two")
    for raw in ((-10, -20, 0, 0), (-30, 0, 0, 0), (0, 0, -20, -10)):
        check_raw(t, nl2, raw)
    with pytest.raises(BarbuError, match="each of the last tricks goes to one player"):
        check_raw(t, nl2, (-10, -10, -10, 0))


def test_a_number_with_a_huge_exponent_is_refused_at_once():
    from analyzer.doubling import to_fraction
    with pytest.raises(BarbuError, match="not a plain number"):
        to_fraction("1e999999999")
    assert to_fraction(" -5/2 ") == Fraction(-5, 2)


def test_empty_match(tmp_path):
    r = score_match(write(tmp_path, 'title = "empty"\n'))
    assert r.hands == () and not r.complete and r.to_json()["totals"]["N"] == 0
    assert render_match(r).startswith("empty: rules tournament, 0 of 28 hands")


def test_group_titles_fit_over_narrow_columns(tmp_path):
    """One-digit results: the "above lowest" title was cut to "above lowe"."""
    p = write(tmp_path, 'rules = "barbu-32"\n' + hand("N", "no-tricks", "[-1, -2, -3, -2]"))
    line = next(x for x in render_match(score_match(p)).splitlines() if "raw" in x)
    assert "-above lowest-" in line and "-raw-" in line


def test_no_doubling_columns_where_the_rules_have_no_doubling(tmp_path):
    """barbu-32 has no doubling: no doubles column, count of doubles or quota line; each
    group title stays over its own four columns."""
    body = hand("N", "no-tricks", "[-1, -2, -3, -2]") + hand("N", "trumps", "[10, 2.5, 5, 2.5]",
                                                             extra='trump = "S"')
    text = render_match(score_match(write(tmp_path, 'rules = "barbu-32"\n' + body)))
    assert "doubles" not in text.lower() and "quota" not in text.lower()
    assert "  (run in progress: 2 of 7 hands)" in text.splitlines()
    lines = text.splitlines()
    head = next(x for x in lines if x.lstrip().startswith("#"))
    assert head.split() == ["#", "contract", *"NESW" * 4, "check"]
    groups = next(x for x in lines if "-raw-" in x)
    row = next(x for x in lines if x.lstrip().startswith("1 "))
    assert row.split()[2:6] == ["-1", "-2", "-3", "-2"]
    for g in ("raw", "net", "total", "above lowest"):  # (each title spans its columns)
        assert groups.index(g) < len(row)
    first_n = head.index(" N ") + 1
    assert groups.index("-") <= first_n  # (the raw title starts over N's raw column)
    tourney = render_match(score_match(write(tmp_path, hand("N", "no-tricks", "[-2, -4, -6, -14]"),
                                             "t.toml")))
    assert "doubles of decl." in tourney and "Quota" in tourney


def test_long_exact_results_keep_every_digit(tmp_path):
    """fmt and the JSON went through floats: -999999999999999/4000000 printed as
    -249999999.99999976."""
    from analyzer.doubling import fmt, to_number
    x = Fraction(-999999999999999, 4000000)
    assert fmt(x) == "-249999999.99999975" and Fraction(fmt(x)) == x
    assert to_number(x) == "-999999999999999/4000000" and to_number(Fraction(5, 2)) == 2.5


def test_only_the_documented_sample_paths_fall_back_to_the_package(tmp_path, monkeypatch):
    """`barbu score __init__.py` in an empty folder scored the package's empty
    data/samples/__init__.py as a match; `nowhere/data/samples/x.toml` and a bare sample
    name read the shipped sample too. A bad rules key names its match file."""
    from analyzer.match import read_match_file
    monkeypatch.chdir(tmp_path)
    for missing in ("__init__.py", "match-fr52.toml", "nowhere/data/samples/match-fr52.toml"):
        with pytest.raises(BarbuError, match="match file not found"):
            read_match_file(missing)
    assert read_match_file("data/samples/match-fr52.toml")[0].is_file()
    f = tmp_path / "m.toml"
    f.write_text('rules = "nope"\n')
    with pytest.raises(BarbuError, match=r"match file .*m.toml: rules = 'nope': unknown"):
        score_match(f)


def test_a_hand_that_stops_early_has_no_total_to_check():
    """No King with the heart ace worth +2.5 and the hand ending when the king falls: the
    ace may never be taken, so (0, -10, 0, 0) is a hand the engine plays; it was refused as
    "not the total -7.5"."""
    import tomllib

    from analyzer.rules import parse_rules
    data = tomllib.loads(load_rules("tournament").to_toml())
    nk = data["contracts"]["no-king"]
    nk["card_points"] = {"HK": -10, "HA": 2.5}
    nk["stop_when_taken"] = ["HK"]
    r = parse_rules(data, "stop.toml")
    assert r.total("no-king") is None
    check_raw(r, r.contract("no-king"), tuple(Fraction(x) for x in (0, -10, 0, 0)))
    check_raw(r, r.contract("no-king"), tuple(Fraction(x) for x in (2.5, -10, 0, 0)))
    with pytest.raises(BarbuError, match="impossible"):
        check_raw(r, r.contract("no-king"), tuple(Fraction(x) for x in (0, -10, 0, -5)))
    with pytest.raises(BarbuError, match="outside what a no-king hand can hand out"):
        check_raw(r, r.contract("no-king"), tuple(Fraction(x) for x in (0, 0, 0, 0)))


def test_no_quota_where_nobody_may_double(tmp_path):
    """A rules file with doubles = "none" and quota left out (the default, 2): the sheet
    asked each player for 2 doubles nobody may make."""
    import tomllib

    data = load_rules("tournament").to_toml().replace('doubles = "any"', 'doubles = "none"')
    data = data.replace('name = "tournament"', 'name = "nodbl"')
    data = "\n".join(line for line in data.splitlines() if not line.startswith("quota"))
    assert tomllib.loads(data)["variants"]["doubles"] == "none"
    (tmp_path / "nodbl.toml").write_text(data)
    body = 'rules = "nodbl.toml"\n' + hand("N", "no-king", "[-20, 0, 0, 0]")
    r = score_match(write(tmp_path, body))
    assert r.runs[0].quota == 0 and not r.runs[0].short()
    assert "Quota" not in render_match(r)


def test_every_played_hand_of_a_stopping_contract_passes_the_check():
    """Hands played by the reference engine under rules files whose hand stops when the
    king falls, with a bonus too (all-cards, all-tricks): check_raw refused most of them
    ("not the no-king total")."""
    import random
    import tomllib

    from analyzer.engine import TrickGame
    from analyzer.rules import parse_rules
    mods = ({"card_points": {"HK": -20, "HA": -5}, "stop_when_taken": ["HK"],
             "all_cards_score": 30},
            {"card_points": {"HK": -20}, "trick_points": -1, "stop_when_taken": ["HK"],
             "all_tricks_score": 10},
            {"card_points": {"HK": -20, "HA": 3}, "trick_points": 1, "last_tricks": [-4, 7],
             "stop_when_taken": ["HK"]})
    rng = random.Random(1)
    for mod in mods:
        data = tomllib.loads(load_rules("tournament").to_toml())
        data["contracts"]["no-king"].update(mod)
        r = parse_rules(data, "stop.toml")
        for _ in range(40):
            cards = list(range(52))
            rng.shuffle(cards)
            g = TrickGame(r, "no-king", [set(cards[13 * k:13 * k + 13]) for k in range(4)],
                          rng.randrange(4))
            while not g.over:
                g.play(rng.choice(g.legal()))
            check_raw(r, r.contract("no-king"), tuple(g.score()))


def _random_contract(rng: random.Random) -> dict:
    """A tricks contract mixing what rules files may: trick, card and last-trick points of
    either sign, cards that end the hand, whole-hand bonuses of any sign and size, Ravage
    City."""
    pts = (1, -1, 2, -2, -5, 2.5, -0.5, 10, -20)
    c: dict = {"kind": "tricks"}
    if rng.random() < 0.6:
        c["trick_points"] = rng.choice(pts)
    if rng.random() < 0.4:
        c["last_tricks"] = [rng.choice(pts) for _ in range(rng.randrange(1, 3))]
    if rng.random() < 0.6:
        c["card_points"] = {rng.choice(["H", "Q", "HK", "SA", "CT", "K"]): rng.choice(pts)
                            for _ in range(rng.randrange(1, 3))}
        if rng.random() < 0.3:
            c["stop_when_taken"] = [rng.choice(["HK", "SA", "CT"])]
        if rng.random() < 0.3:
            c["all_cards_score"] = rng.choice(pts) * rng.choice((0, 1, 4))
    if rng.random() < 0.3:
        c["all_tricks_score"] = rng.choice(pts) * rng.choice((0, 1, 4))
    if rng.random() < 0.3:
        c["ravage"] = rng.choice((-36, 36, -9))
    if not any(k in c for k in ("trick_points", "last_tricks", "card_points", "ravage")):
        c["trick_points"] = -1
    return c


def test_every_played_hand_of_a_random_contract_passes_the_check():
    """Whole hands played at random by the reference engine under random rules-file
    contracts: `barbu score`'s check of raw results accepts every one (it refused real
    results where trick and card points had opposite signs beside a bonus, where a bonus
    equalled an ordinary score, where an all-cards bonus left the others their tricks,
    where Ravage City came with other points, and a capot in a last-tricks contract)."""
    import tomllib

    from analyzer.engine import TrickGame
    from analyzer.rules import parse_rules
    rng = random.Random(7)
    base = tomllib.loads(load_rules("barbu-32").to_toml())
    played = bonuses = 0
    while played < 400:
        data = json.loads(json.dumps(base))
        data["contracts"]["x"] = _random_contract(rng)
        try:
            r = parse_rules(data, "random.toml")
        except BarbuError:
            continue
        cards = [c for c in range(52) if c % 13 >= 5]
        rng.shuffle(cards)
        g = TrickGame(r, "x", [set(cards[8 * k:8 * k + 8]) for k in range(4)],
                      rng.randrange(4))
        while not g.over:
            g.play(rng.choice(g.legal()))
        raw = tuple(g.score())
        check_raw(r, r.contract("x"), raw)
        lo, hi = r.score_range("x")  # (the advisor's separation test relies on it)
        assert all(lo <= x <= hi for x in raw), (data["contracts"]["x"], raw)
        played += 1
        c = r.contract("x")
        bonuses += any(b is not None and b in raw
                       for b in (c.all_tricks_score, c.all_cards_score))
    assert bonuses >= 10


@pytest.mark.parametrize("preset", ["tournament", "fr-52", "barbu-32", "classic-32"])
def test_score_range_holds_every_played_hand_of_the_presets(preset):
    """Every player's score of hands played at random lies in the contract's
    :meth:`Rules.score_range`: the advisor's separation test bets within it."""
    from analyzer.engine import TrickGame
    r = load_rules(preset)
    rng = random.Random(3)
    deck = [c for c in range(52) if c % 13 >= 13 - r.deck // 4]
    n = r.deck // 4
    for c in r.contracts.values():
        if not c.is_tricks:
            assert r.score_range(c) == (min(c.places), max(c.places))
            continue
        lo, hi = r.score_range(c)
        seen = []
        for trump in ([None] if not c.trumps else range(4)):
            for _ in range(60):
                rng.shuffle(deck)
                g = TrickGame(r, c.id, [set(deck[n * k:n * k + n]) for k in range(4)],
                              rng.randrange(4), trump=trump)
                while not g.over:
                    g.play(rng.choice(g.legal()))
                seen.extend(g.score())
        assert lo <= min(seen) and max(seen) <= hi, (c.id, lo, hi, min(seen), max(seen))
        assert lo < 0 or hi > 0


def test_the_auditors_hands_pass_and_impossible_ones_still_fail():
    """The real results the check refused (each played out by the engine first), and
    results no hand can give, which it must still refuse."""
    import tomllib

    from analyzer.rules import parse_rules
    base = tomllib.loads(load_rules("barbu-32").to_toml())

    def rules(**x):
        data = json.loads(json.dumps(base))
        data["contracts"]["x"] = dict(kind="tricks", **x)
        r = parse_rules(data, "x.toml")
        return r, r.contract("x")

    F = Fraction
    for kw, raw in (
            (dict(trick_points=-1, card_points={"HA": 1}, all_tricks_score=10), (-7, 0, 0, 0)),
            (dict(trick_points=-1, last_tricks=[3], all_tricks_score=10), (-5, -1, -1, 2)),
            (dict(trick_points=-5, all_tricks_score=-10), (-10, -20, -10, 0)),
            (dict(trick_points=-1, card_points={"H": -1}, all_cards_score=20), (-1, -2, 20, 0)),
            (dict(trick_points=-1, ravage=-36), (0, -41, 0, -3)),
            (dict(last_tricks=[-10, -20], all_tricks_score=50), (50, 0, 0, 0))):
        check_raw(*rules(**kw), tuple(F(x) for x in raw))
    r, c = rules(trick_points=-5, all_tricks_score=-10)
    with pytest.raises(BarbuError, match="add up to -45, not the x total -40, nor are"):
        check_raw(r, c, tuple(F(x) for x in (-10, -20, -10, -5)))
    r, c = rules(trick_points=-1, ravage=-36)
    with pytest.raises(BarbuError, match="impossible"):
        check_raw(r, c, tuple(F(x) for x in (0, -50, 0, 6)))
    r, c = rules(last_tricks=[-10, -20], all_tricks_score=50)
    with pytest.raises(BarbuError, match="goes to one player"):
        check_raw(r, c, tuple(F(x) for x in (-10, -10, -10, 0)))
    # a stop card that scores nothing does not make a negative contract positive
    r, _ = rules(trick_points=1, ravage=-36)
    r2, _ = rules(trick_points=1, ravage=-36, stop_when_taken=["SA"])
    assert r2.total("x") is None and not r.is_positive("x") and not r2.is_positive("x")


def test_many_unlike_scoring_cards_are_checked_by_range():
    """A rules file's 24 cards at -1, -2, -4, ...: listing every subset sum took minutes
    (20 cards: a minute, 300 MB). Past MAX_RAW_VALUES the check is a range."""
    import tomllib

    from analyzer.rules import parse_rules
    data = tomllib.loads(load_rules("tournament").to_toml())
    names = [s + r for s in "SHDC" for r in "AKQJT98765432"][:24]
    data["contracts"]["no-hearts"] = {"kind": "tricks",
                                      "card_points": {c: -2 ** i for i, c in enumerate(names)}}
    r = parse_rules(data, "pow.toml")
    c = r.contract("no-hearts")
    assert possible_raw(r, c) is None
    full = -(2 ** 24 - 1)
    check_raw(r, c, (Fraction(full + 5), Fraction(-5), Fraction(0), Fraction(0)))
    with pytest.raises(BarbuError, match="impossible"):
        check_raw(r, c, (Fraction(full - 1), Fraction(1), Fraction(0), Fraction(0)))
    with pytest.raises(BarbuError, match="add up to"):
        check_raw(r, c, (Fraction(full), Fraction(-5), Fraction(0), Fraction(0)))
    # 15 such cards and 8 unlike last tricks: each part under the limit, their sums (and
    # the work of listing them) 250 times over it; given up before the work
    data["contracts"]["no-hearts"] = {
        "kind": "tricks", "card_points": {c: -2 ** i for i, c in enumerate(names[:15])},
        "last_tricks": [0] * 5 + [-2 ** (15 + i) for i in range(8)]}
    r = parse_rules(data, "pow2.toml")
    assert possible_raw(r, r.contract("no-hearts")) is None


def test_json_doubles_in_bidding_order():
    """match-format.md: the doubles in bidding order, from the declarer's left, his
    redoubles last, as the text sheet prints them (the JSON sorted them by seat, the
    declarer's redouble first)."""
    r = score_match(Path(__file__).resolve().parents[1] / "data/samples/match-tournament.toml")
    h = r.to_json()["hands"][0]
    assert h["declarer"] == "N" and h["doubles"] == ["E>N", "E>S", "E>W", "S>N", "N>S"]
    assert render_match(r).count("E>NSW S>N N>S") == 1


def test_ravage_city_with_a_capot_bonus():
    """Ravage City alone with an all-tricks bonus: whoever takes every trick scores the
    bonus, the others 0, which the Ravage check refused (rules-files audit)."""
    import tomllib

    from analyzer.engine import TrickGame
    from analyzer.rules import parse_rules
    data = tomllib.loads(load_rules("barbu-32").to_toml())
    data["contracts"]["x"] = {"kind": "tricks", "ravage": -20, "all_tricks_score": 30}
    r = parse_rules(data, "rb.toml")
    hands = [{13 * s + k for s in range(4) for k in (12, 11)}, *[
        {13 * s + k for s in range(4) for k in ks} for ks in ((10, 9), (8, 7), (6, 5))]]
    g = TrickGame(r, "x", hands, 0)
    while not g.over:
        g.play(max(g.legal(), key=lambda c: c % 13))
    assert tuple(g.score()) == (30, 0, 0, 0)
    check_raw(r, r.contract("x"), tuple(g.score()))
    with pytest.raises(BarbuError, match="share -20"):
        check_raw(r, r.contract("x"), (Fraction(-10), Fraction(-5), Fraction(0), Fraction(0)))


def _sheet_rows(text: str) -> list[tuple[str, list[str], list[str], str]]:
    """Each hand row of a sheet: (number, the 16 seat cells raw/net/total/above lowest,
    the quota cells, the check), read from the right (contract and doubles hold spaces)."""
    rows = []
    for line in text.splitlines():
        t = line.split()
        if len(t) > 20 and t[0].isdigit() and t[-1] in ("ok", "skipped*"):
            rows.append((t[0], t[-20:-4], t[-4:-1], t[-1]))
    return rows


def test_the_sheet_shows_each_hands_figures_under_their_heading():
    """The text sheet read back against the JSON, hand by hand (a mutation audit printed
    raw points under "net", running totals under "above lowest", the declarer in his own
    quota, and no test saw it). Hand 1 is match-format.md's worked example: net -12 +24
    -12 -24, sheet entry 12 / 48 / 12 / 0."""
    r = score_match(SAMPLES / "match-tournament.toml")
    j, text = r.to_json(), render_match(r)
    titles = [re.findall(r"-*(raw|net|total|above lowest)-*", x) for x in text.splitlines()]
    assert [t for t in titles if t][0] == ["raw", "net", "total", "above lowest"]
    rows = _sheet_rows(text)
    assert len(rows) == 28
    for (num, cells, quota, check), h in zip(rows, j["hands"]):
        assert int(num) == h["hand"]
        want = [h[k][s] for k in ("raw", "net", "totals", "above_lowest") for s in "NESW"]
        assert [Fraction(c) for c in cells] == [Fraction(x) for x in want], num
        assert all(c.startswith(("+", "-")) or c == "0" for c in cells[4:12])
        assert quota == [f"{s}{n}" for s, n in h["quota"].items()] and h["declarer"] not in \
            "".join(q[0] for q in quota)
        assert check == h["check"]["status"]
    assert rows[0][1][4:] == ["-12", "+24", "-12", "-24", "-12", "+24", "-12", "-24",
                              "12", "48", "12", "0"]
    assert "Totals (net):          N -103  E +416  S -97  W -216" in text
    assert "Totals (above lowest): N 789  E 1308  S 795  W 676" in text
    assert j["totals"] == {"N": -103, "E": 416, "S": -97, "W": -216}
    assert j["sheet_totals"] == {"N": 789, "E": 1308, "S": 795, "W": 676}


def test_a_dominoes_row_names_its_rank_and_a_tie_is_called_one(tmp_path):
    r = score_match(SAMPLES / "match-tournament.toml")
    assert re.search(r"^\s+3  dominoes from 9 ", render_match(r), re.M)
    f = tmp_path / "tie.toml"
    f.write_text('title = "tie"\nrules = "tournament"\n[[hand]]\ndeclarer = "N"\n'
                 'contract = "no-queens"\nraw = [0, 0, -12, -12]\n')
    text = render_match(score_match(f))
    assert "Leaders (tie): N, E" in text.splitlines()

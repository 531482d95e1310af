"""The command line: shapes of the JSON, one-line errors with exit 2, help texts."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENDGAME = "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"     # three cards a hand


def run(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, input=input,
                          capture_output=True, text=True, timeout=600)


def ok_json(*args: str) -> dict:
    p = run(*args, "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def _oracle(deal: str, contract: str, team: tuple[int, ...], leader: int = 0,
            rules: str = "tournament", trick: tuple[str, ...] = (),
            cards: bool = False):
    """The brute-force value (or each legal card's) of ``team`` playing together against
    the others, by the reference engine: independent of the numba solver."""
    from analyzer.cards import card_index, card_name, parse_deal
    from analyzer.engine import TrickGame
    from analyzer.rules import load_rules
    from tests.oracle import brute_card_values, brute_value

    r = load_rules(rules)
    played = {card_index(c) for c in trick}  # (the command line takes them from the hands)
    hands = [set(h) - played for h in parse_deal(deal).hands]
    game = TrickGame(r, contract, hands, leader, trick=trick)
    w = [1 if p in team else 0 for p in range(4)]
    if cards:
        return {card_name(c): v for c, v in brute_card_values(game, w, team).items()}
    return brute_value(game, w, team)


def test_solve_one_value_and_all_seats_and_cards():
    d = ok_json("solve", ENDGAME, "--contract", "no-tricks", "--seat", "N")
    assert d["seat"] == "N" and d["contract"] == "no-tricks" and d["leader"] == "N"
    # N leads from SA SK H2: E wins the heart and returns a spade, so N takes two tricks
    assert d["value"] == _oracle(ENDGAME, "no-tricks", (0,)) == -4
    a = ok_json("solve", ENDGAME, "--contract", "no-tricks", "--all-seats")
    assert a["values"] == {s: _oracle(ENDGAME, "no-tricks", (p,))
                           for p, s in enumerate("NESW")}
    assert sum(a["values"].values()) <= -6          # never more than the total
    c = ok_json("solve", ENDGAME, "-c", "no-tricks", "--cards")
    assert {x["card"]: x["value"] for x in c["cards"]} == \
        _oracle(ENDGAME, "no-tricks", (0,), cards=True)
    assert max(x["value"] for x in c["cards"]) == c["value"]
    # a hand already over (No King with the king out of play): no card, and says so
    over = "N:A... K... Q... J..."
    assert ok_json("solve", over, "-c", "no-king", "--cards")["cards"] == []
    p = run("solve", over, "-c", "no-king", "--cards")
    assert p.returncode == 0 and p.stdout.endswith("\n\nno card to play: the hand is over\n")
    line = ok_json("solve", over, "-c", "no-king", "--play")
    assert line["play"] == [] and line["play_complete"]
    p = run("solve", over, "-c", "no-king", "--play")
    assert p.returncode == 0 and p.stdout.endswith("\n\nno card to play: the hand is over\n")
    p = run("solve", over, "-c", "no-king", "--review", "SA")
    assert p.returncode == 2 and p.stderr == (
        "barbu: error: card 1 of the play (SA): the hand is over after 0 cards (the HK is "
        "out of play: nothing is left to score)\n")


def test_solve_line_json_and_text():
    """``--play``: the value and one line of perfect play, each trick's leader, cards
    and winner; the brute-force value for the points along it."""
    res = ok_json("solve", ENDGAME, "-c", "no-tricks", "--play")
    assert res["value"] == _oracle(ENDGAME, "no-tricks", (0,)) == -4
    assert [len(t["cards"]) for t in res["play"]] == [4, 4, 4] and res["play_complete"]
    assert res["play"][0]["leader"] == "N" and res["play_points"]["N"] == -4
    p = run("solve", ENDGAME, "-c", "no-tricks", "--play")
    assert p.returncode == 0 and "a line of perfect play" in p.stdout
    assert "raw points along it: N -4" in p.stdout


def test_solve_review_json_and_text():
    """``--review``: the value after each card played, against the brute force."""
    res = ok_json("solve", ENDGAME, "-c", "no-tricks", "--review", "SA,SQ,DA,DJ,SK")
    assert res["value"] == _oracle(ENDGAME, "no-tricks", (0,)) and res["review_complete"]
    assert [e["card"] for e in res["review"]] == ["SA", "SQ", "DA", "DJ", "SK"]
    # after the first trick (N takes it: -2), the rest from the hands left
    rest = _oracle("N:K.2.. J.3.. ..K.2 ..Q.3", "no-tricks", (0,))
    assert res["review"][3]["value"] == -2 + rest
    p = run("solve", ENDGAME, "-c", "no-tricks", "--review", "SA,SQ,DA,DJ")
    assert p.returncode == 0 and "the play reviewed: guaranteed value of seat N" in p.stdout


def test_solve_side_and_trick_in_progress():
    d = ok_json("solve", ENDGAME, "-c", "notrump", "--rules", "bridge", "--side", "NS",
                "--leader", "N")
    assert d["side"] == "NS"
    assert d["value"] == _oracle(ENDGAME, "notrump", (0, 2), rules="bridge")
    t = ok_json("solve", ENDGAME, "-c", "no-tricks", "--trick", "SA,SQ", "--leader", "N")
    assert t["trick"] == ["SA", "SQ"]
    assert t["value"] == _oracle(ENDGAME, "no-tricks", (0,), trick=("SA", "SQ"))


def test_dominoes_json_names_the_first_player_leader():
    deal = "N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"
    d = ok_json("solve", deal, "-r", "barbu-32", "-c", "dominoes", "--rank", "J")
    assert d["leader"] == d["first"] == "N" and d["seat"] == "N"
    assert d["rank"] == "J" and isinstance(d["value"], (int, float))


def test_table_of_every_contract_on_a_32_card_endgame():
    deal = "N:AK.7.. QJ.8.. ..AK.7 ..QJ.8"
    d = ok_json("solve", deal, "--rules", "classic-32")
    contracts = {r["contract"] for r in d["rows"]}
    assert {"no-tricks", "no-hearts", "no-queens", "no-king", "salad"} <= contracts
    for r in d["rows"]:
        assert set(r) >= {"contract", "trump", "rank", "seat", "value"}


def _row_value(deal: str, rules: str, r: dict, declarer: str = "N") -> float:
    """A table row's option solved alone through the API (the declarer's leader)."""
    from analyzer.cards import parse_deal
    from analyzer.dominoes import dominoes_first_seat, solve_dominoes
    from analyzer.rules import load_rules
    from analyzer.solve import solve
    rr, hands, d = load_rules(rules), parse_deal(deal), "NESW".index(declarer)
    if r["contract"] == "dominoes":
        v = solve_dominoes(hands, rr, "dominoes", first=dominoes_first_seat(rr, d),
                           start_rank=r["rank"], seat=r["seat"])
    else:
        v = solve(hands, rr, r["contract"], trump=r["trump"], leader=rr.opening_leader(d),
                  seat=r["seat"])
    return float(v)


def test_table_rows_are_each_options_value_and_the_best_is_marked():
    """Every row of the table (design.md's ``rows``) is its option's value for its seat,
    ``best`` is the largest, and the text lists the best first with the mark. (Only the
    rows' keys were checked: every Trumps row could carry the spades value, all seats
    North's, and ``best`` the worst option, with no test failing.)"""
    deal = "N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"
    d = ok_json("solve", deal, "-r", "barbu-32")
    vals = [r["value"] for r in d["rows"]]
    assert len({r["trump"] for r in d["rows"] if r["contract"] == "trumps"}) == 4
    assert len(set(vals)) > 3  # (the check below tells options apart)
    for r in d["rows"]:
        assert r["seat"] == "N" and r["value"] == _row_value(deal, "barbu-32", r), r
    assert d["best"]["value"] == max(vals) and [r for r in d["rows"] if r["best"]] == [d["best"]]
    lines = run("solve", deal, "-r", "barbu-32").stdout.splitlines()
    body = lines[lines.index(next(x for x in lines if x.startswith("---"))) + 1:]
    assert body[0].endswith("<- best") and sum("<- best" in x for x in body) == 1
    shown = [float(x.split()[-3] if x.endswith("<- best") else x.split()[-1]) for x in body]
    assert shown == sorted(shown, reverse=True) and shown[0] == max(vals)
    # every seat: each seat's rows are that seat's values (a 4-card endgame: cheap)
    end = "N:AK.7.. QJ.8.. ..AK.7 ..QJ.8"
    rows = ok_json("solve", end, "-r", "barbu-32", "--all-seats")["rows"]
    assert {r["seat"] for r in rows} == set("NESW")
    assert len({(r["contract"], r["trump"], r["value"]) for r in rows}) > len(rows) // 4
    for r in rows:
        assert r["value"] == _row_value(end, "barbu-32", r), r
    # Dominoes' starting ranks (52 cards, the rank named): each rank's value, the best
    big = "N:K64.AQJ.AKJ6.764 A53.762.874.AK82 Q2.KT94.53.JT953 JT987.853.QT92.Q"
    dom = ok_json("solve", big, "-c", "dominoes")["rows"]
    assert [r["rank"] for r in dom] == list("23456789TJQKA")
    for r in dom:
        assert r["value"] == _row_value(big, "tournament", r), r
    best = [r for r in dom if r["best"]]
    assert len(best) == 1 and best[0]["value"] == max(r["value"] for r in dom)
    assert min(r["value"] for r in dom) < best[0]["value"]


def test_table_dominoes_follows_the_leader_given():
    """With ``--leader E`` on a first-card preset, E plays Dominoes' first card and chooses
    the rank: the table's Dominoes row is the solve without a rank (it used to list the
    declarer's ranks, or fail when E held none of the declarer's first rank)."""
    for deal in ("N:T987.T987.. ..AKQJT987. AKQJ.AKQJ.. ...AKQJT987",
                 "N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"):
        rows = [r for r in ok_json("solve", deal, "-r", "barbu-32", "--leader", "E")["rows"]
                if r["contract"] == "dominoes"]
        one = ok_json("solve", deal, "-r", "barbu-32", "--leader", "E", "-c", "dominoes")
        assert one["first"] == "E" and one["rank"] is None
        assert [(r["rank"], r["value"]) for r in rows] == [(None, one["value"])]


def test_dominoes_side_is_the_partnership():
    """``--side NS`` in Dominoes: the two seats' places added, maximised together (it
    was refused, though design.md offers --side for every contract)."""
    from analyzer.cards import parse_deal
    from analyzer.dominoes import solve_dominoes
    deal = "N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"
    d = ok_json("solve", deal, "-r", "classic-32", "-c", "dominoes", "--side", "NS")
    assert d["side"] == "NS" and "seat" not in d
    assert d["value"] == solve_dominoes(parse_deal(deal), "classic-32", "dominoes", first=1,
                                        weights=[1, 0, 1, 0], maximizers=[0, 2])
    cards = ok_json("solve", deal, "-r", "classic-32", "-c", "dominoes", "--side", "EW",
                    "--cards")
    assert cards["to_move"] == "E" and cards["cards"][0]["value"] == cards["value"]
    p = run("solve", deal, "-r", "classic-32", "-c", "dominoes", "--side", "NS", "--seat", "E")
    assert p.returncode == 2 and "seat E is not in side NS" in p.stderr
    p = run("solve", deal, "-r", "barbu-32", "-c", "dominoes", "--side", "NS")
    assert p.returncode == 0, p.stderr
    p = run("solve", "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 "
            "432.AKQJ.T98.765", "-r", "fr-52", "-c", "dominoes", "--side", "NS")
    assert p.returncode == 2 and "--side needs the starting rank" in p.stderr


def test_dominoes_json_layout_is_canonical():
    """The JSON echoes the layout in its canonical form (S H D C, every suit), not as
    typed; two seats out need their order."""
    deal = "N:A... ... K... ..."
    d = ok_json("solve", deal, "-c", "dominoes", "--rank", "7", "--layout",
                "♠:2-q h:x D:x C:x", "--out", "WE")
    assert d["layout"] == "S:2-Q H:2-A D:2-A C:2-A" and d["value"] == -5
    # who went out first changes the places: the answer echoes it as it echoes the layout
    big = "N:... ... ...98765432 ...AKQJT"
    kw = ("-c", "dominoes", "--rank", "7", "--layout", "S:2-A H:2-A D:2-A C:-", "--leader",
          "S", "--all-seats")
    ne, en = ok_json("solve", big, *kw, "--out", "NE"), ok_json("solve", big, *kw, "--out", "en")
    assert (ne["out"], en["out"]) == ("NE", "EN") and ne["values"] != en["values"]
    assert "out       NE (in the order they went out)" in run("solve", big, *kw, "--out",
                                                               "NE").stdout
    p = run("solve", deal, "-c", "dominoes", "--rank", "7", "--layout", "S:2-Q H:x D:x C:x")
    assert p.returncode == 2 and "give the order they went out in with --out" in p.stderr


@pytest.mark.parametrize("args,needle", [
    (("solve", ENDGAME, "-c", "nope"), "unknown contract 'nope'"),
    (("solve", ENDGAME, "-c", "trumps"), "needs a trump suit"),
    (("solve", ENDGAME, "-c", "no-tricks", "--seat", "E", "--side", "NS"), "not in side"),
    (("solve", "N:AK.2.. QJ.3.. ..AK.2 ..QJ.", "-c", "no-tricks"), "unequal"),
    (("solve", "N:AK.2.. QJ.3.. ..AK.2", "-c", "no-tricks"), "four hands"),
    (("solve", ENDGAME, "-c", "no-tricks", "--seat", "X"), "bad seat"),
    (("solve", ENDGAME, "-c", "no-tricks", "--rules", "nope"), "unknown rules preset"),
    (("solve", ENDGAME, "--bogus"), "No such option"),
    (("solve", ENDGAME, "--bogus="), "No such option: --bogus"),
    (("solve", ENDGAME, "--json="), "Option '--json' does not take a value"),
    (("solve",), "no deal given"),
    (("solve", "--example", "-c", "no-tricks", "--node-limit", "1000"), "node limit 1000 reached"),
    (("solve", ENDGAME, "-c", "no-tricks", "--node-limit", "0"), "bad --node-limit"),
    (("solve", ENDGAME, "-c", "no-tricks", "--node-limit", str(2 ** 63)), "below 2^62"),
    (("solve", "--example", "-c", "dominoes", "--all-seats"), "--all-seats needs the starting rank"),
    (("solve", "--example", "-c", "dominoes", "--cards"), "--cards needs the starting rank"),
    (("solve", ENDGAME, "-c", "no-tricks", "--out", "E"), "--out is for dominoes"),
    (("solve", ENDGAME, "-t", "S"), "--trump picks an option of one contract"),
    (("solve", ENDGAME, "--rank", "7"), "--rank picks an option of one contract"),
    (("solve", ENDGAME, "-c", "dominoes", "--trick", "SA"), "dominoes has no tricks"),
    (("solve", "N:... ... ... ...", "-c", "no-king"), "the deal has no cards"),
    (("advise", "--example", "-n", "100000000000"), "at most 1,000,000"),
    (("solve", "--example", "-c", ""), "empty --contract"),
    (("score", "no\nsuch.toml"), "match file not found: no\\nsuch.toml"),
    (("solve", ENDGAME, "-c", "no-king", "--seat", " "), "empty --seat"),
    (("advise", "--example", "--remaining", ""), "empty --remaining"),
    (("stats", "--out", "unused-dir", "-n", "2", "--contracts", ""), "empty --contracts"),
    (("solve", ENDGAME, "-c", "no-king", "--side", "NN"), "a seat is named twice"),
    (("solve", ENDGAME, "-c", "no-tricks", "--all-seats", "--seat", "N"), "drop --seat"),
    (("solve", ENDGAME, "-c", "no-tricks", "--all-seats", "--cards"), "choose one"),
    (("solve", ENDGAME, "--cards"), "name a --contract"),
    (("solve", ENDGAME, "--play"), "--play plays out one contract: name the --contract"),
    (("solve", ENDGAME, "-c", "no-king", "--play", "--cards"), "drop --cards"),
    (("solve", "--example", "-c", "dominoes", "--play"), "--play needs the starting rank"),
    (("solve", ENDGAME, "-c", "no-tricks", "--review", "SA,S2"),
     "card 2 of the play: illegal card S2 by E: E does not hold S2"),
    (("solve", ENDGAME, "-c", "no-tricks", "--review", "SA,,SQ"), "an empty card"),
    (("solve", ENDGAME, "-c", "no-tricks", "--review", "SA,SQ,S1"),
     "card 3 of the play: bad card 'S1'"),
    (("solve", ENDGAME, "-c", "no-tricks", "--review", "SA,pass"),
     "card 2 of the play: 'pass' is a Dominoes move"),
    (("solve", ENDGAME, "-c", "no-tricks", "--review", "SA", "--play"), "drop --play"),
    (("solve", ENDGAME, "--review", "SA"), "--review follows one contract"),
    (("advise", "AK72.Q5.A963.KJ4", "--seed", "-1"), "bad --seed -1"),
    (("advise", "AK72.Q5.A963.KJ4", "--workers", "-2"), "bad --workers -2"),
    (("advise", "--example", "--time-limit", "0"), "bad --time-limit '0'"),
    (("solve", ENDGAME, "-c", "no-king", "--time-limit", "-1"), "bad --time-limit '-1'"),
    (("solve", ENDGAME, "-c", "no-king", "--time-limit", "2s"), "bad --time-limit '2s'"),
    (("solve", ENDGAME, "-c", "no-king", "--time-limit", "1e8"), "at most 10000000"),
    (("advise", "--example", "--time-limit", "1m"), "bad --time-limit '1m'"),
    (("advise", "--example", "--time-limit", ""), "empty --time-limit"),
    (("deal", "--seed", "-1"), "bad --seed -1"),
    (("score", "/no/such/file.toml"), "not found"),
    (("rules", "show", "nope"), "unknown rules preset"),
])
def test_bad_input_gives_one_line_and_exit_2(args, needle):
    p = run(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert needle in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert "Traceback" not in p.stderr


def test_solve_time_limit_gives_bounds_in_json_and_text():
    """A limit that strikes at once (1e-9 s): the value is null with bounds around it (the
    example's No King value for East is -20: its bounds hold it), exit 0; the text says
    "between" and that the limit was reached; in a batch the limit is a job key too."""
    full = ok_json("solve", "--example", "-c", "no-king", "--seat", "E")
    cut = ok_json("solve", "--example", "-c", "no-king", "--seat", "E", "--time-limit", "1e-9")
    assert cut["timed_out"] is True and cut["time_limit"] == 1e-9
    assert cut["value"] is None and cut["bounds"][0] <= full["value"] <= cut["bounds"][1]
    p = run("solve", "--example", "-c", "no-king", "--seat", "E", "--time-limit", "1e-9")
    assert p.returncode == 0, p.stderr
    assert "time limit 1e-09 s (reached" not in p.stdout  # (plain decimals)
    assert "(reached: where a search ran out" in p.stdout
    assert f"guaranteed value of seat E: between {cut['bounds'][0]} and " in p.stdout
    p = run("solve", "--batch", "-", "-c", "no-king", input=(
        '{"deal": "%s", "time_limit": 1e-9}\n{"deal": "%s", "time_limit": true}\n'
        % (full["deal"], full["deal"])))
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert lines[0]["timed_out"] is True and lines[0]["value"] is None
    assert "bad time_limit True" in lines[1]["error"] and p.returncode == 2


def test_batch_one_json_line_per_job_in_order(tmp_path):
    f = tmp_path / "jobs.txt"
    f.write_text("\n".join([
        ENDGAME,
        json.dumps({"deal": ENDGAME, "seat": "E"}),
        "# a comment",
        json.dumps({"deal": ENDGAME, "contract": "nope"}),
    ]))
    good = tmp_path / "good.txt"
    good.write_text("\n".join(f.read_text().splitlines()[:2]) + "\n")
    p = run("solve", "--batch", str(good), "-c", "no-tricks", "--workers", "2", "--json")
    assert p.returncode == 0, p.stderr
    # a job that fails is its line's result, the others are solved, and the exit status
    # says that something failed
    p = run("solve", "--batch", str(f), "-c", "no-tricks", "--workers", "2", "--json")
    assert p.returncode == 2 and "1 of 3 batch jobs failed" in p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert [x["line"] for x in lines] == [1, 2, 4]
    assert lines[0]["seat"] == "N" and lines[1]["seat"] == "E"
    assert "unknown contract" in lines[2]["error"]
    bad = run("solve", "--batch", str(f), "-c", "no-tricks", "--workers", "-1")
    assert bad.returncode == 2 and "bad --workers -1" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1 and not bad.stdout


def test_batch_lines_of_the_wrong_shape_are_their_own_errors(tmp_path):
    """A line that is not JSON, or an option of the wrong type (a JSON seat must be a
    letter, a flag true or false), fails alone: one error line each, no traceback, the
    good jobs solved."""
    f = tmp_path / "jobs.txt"
    f.write_text("\n".join([
        '{"deal": "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3", "seat": ',
        json.dumps({"deal": ENDGAME, "trick": 5}),
        json.dumps({"deal": ENDGAME, "seat": True}),
        json.dumps({"deal": ENDGAME, "declarer": 2}),
        json.dumps({"deal": ENDGAME, "cards": "false"}),
        json.dumps({"deal": ENDGAME, "seat": "E", "side": "NS"}),
        json.dumps({"deal": ENDGAME, "seat": "S"}),
        # (a key twice was answered for the last value, silently)
        f'{{"deal": "{ENDGAME}", "contract": "no-king", "contract": "no-queens"}}',
        f'{{"deal": "{ENDGAME}", "trick": {{"a": 1, "a": 2}}}}',
    ]))
    for workers in ("1", "2"):
        p = run("solve", "--batch", str(f), "-c", "no-tricks", "--workers", workers)
        assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
        assert "8 of 9 batch jobs failed" in p.stderr
        out = [json.loads(x) for x in p.stdout.splitlines()]
        assert [x["line"] for x in out] == list(range(1, 10))
        assert out[7]["error"] == "option 'contract' given twice"
        assert out[8]["error"].startswith("bad trick")  # (a repeat inside a value)
        errors = [x.get("error", "") for x in out]
        assert "bad JSON" in errors[0]
        assert "bad trick 5" in errors[1]
        assert "bad seat True" in errors[2] and "bad declarer 2" in errors[3]
        assert "bad cards 'false'" in errors[4]
        assert "seat E is not in side NS" in errors[5]
        assert out[6]["seat"] == "S" and out[6]["value"] == _oracle(ENDGAME, "no-tricks", (2,))
    bin_ = tmp_path / "bin.txt"
    bin_.write_bytes(b"\xff\xfe")
    p = run("solve", "--batch", str(bin_))
    assert p.returncode == 2 and "not UTF-8" in p.stderr and "Traceback" not in p.stderr


def test_a_whole_pbn_file_is_a_batch_of_its_deal_tags(tmp_path):
    """A PBN file as bridge programs write it: each [Deal] tag is a job, answered with
    its own line number; the other tags, the auction and play sections, the tables,
    commentary and % / ; comment lines are not jobs (each used to be an error line, and
    the batch exited 2). A line outside those that is no job is still an error."""
    from analyzer.batch import read_batch
    from analyzer.jobs import batch_worker, parse_batch_line
    p = run("solve", "--batch", str(ROOT / "data" / "samples" / "boards.pbn"),
            "-c", "no-king")
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    text = (ROOT / "data" / "samples" / "boards.pbn").read_text().splitlines()
    assert [x["line"] for x in out] == [i for i, t in enumerate(text, 1)
                                        if t.startswith("[Deal ")] and len(out) == 2
    assert [x["deal"] for x in out] == [t.split('"')[1] for t in text
                                        if t.startswith("[Deal ")]
    assert [x["board"] for x in out] == ["1", "2"]  # (the game's [Board], from the workers)
    f = tmp_path / "club.pbn"
    f.write_text("\n".join([
        '% exported',                                            # 1
        '[Event "club"]',
        '[Deal "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"]',                # 3: a job
        '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]',
        'N NT 1',                                                # a table's row
        'S NT 1',
        '',
        '{ a remark',                                            # 8: commentary
        '  over two lines }',
        '; a comment line',
        '[Board "2"] [Dealer "E"]',                              # (two tags a line)
        '[Deal "E:AK.2.. QJ.3.. ..AK.2 ..QJ.3"] ; rotated',      # 12: a job
        '[Play "E"]',
        'SA SQ D2 H3',
        '*',
        '',
        '[Note "1:an ordinary tag; the line after it is read"]',
        'not a deal',                                            # 18: an error
        ENDGAME,                                                 # 19: a job
        '[Board "3"] {a comment opened here',
        '',
        'N:not a deal, inside the comment}',
        '[Deal "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"] {the same}',     # 23: a job
        '',
        '[Deal "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"]',                # 25: a game of no board
    ]))
    jobs = read_batch(str(f), {"contract": "no-tricks", "seat": "S"})
    assert [n for n, _ in jobs] == [3, 12, 18, 19, 23, 25]
    res = [batch_worker(j) for j in jobs]
    assert res[0]["value"] == _oracle(ENDGAME, "no-tricks", (2,))
    assert res[1]["deal"] == "N:..QJ.3 AK.2.. QJ.3.. ..AK.2" and "error" not in res[1]
    assert "bad deal" in res[2]["error"] and res[3]["value"] == res[0]["value"]
    assert res[4]["value"] == res[0]["value"]
    # each result names its game's [Board], where the game has one before its [Deal]
    assert [r.get("board") for r in res] == [None, "2", None, None, "3", None]
    assert "board" not in jobs[1][1]  # (a key no JSON job can give: not an option)
    assert "unknown" in batch_worker((1, parse_batch_line(json.dumps(
        {"deal": ENDGAME, "board": "1"}), {"contract": "no-tricks"})))["error"]
    # PBN's own character set is ISO 8859-1: such a file is read, not refused as not UTF-8
    f.write_bytes('[West "M\u00fcller"]\n[Deal "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"]\n'
                  .encode("latin-1"))
    assert [n for n, _ in read_batch(str(f), {})] == [2]


def test_a_pbn_tag_of_value_hash_repeats_the_tag_of_the_game_before(tmp_path):
    """PBN's "#": [Deal "#"] is the deal of the game before (another tag's "#" too, the
    board label included); with no deal before it, that line alone is an error that
    says so (it used to be a "bad deal" with no reason given)."""
    from analyzer.batch import read_batch
    from analyzer.jobs import batch_worker
    f = tmp_path / "repeat.pbn"
    f.write_text("\n".join([
        '[Board "1"]',
        '[Deal "#"]',                                            # 2: nothing to repeat
        '',
        '[Board "2"]',
        '[Deal "N:AK.2.. QJ.3.. ..AK.2 ..QJ.3"]',                # 5
        '',
        '[Board "3"]',
        '[Deal "#"]',                                            # 8: board 2's deal
        '',
        '[Board "#"] [Deal "E:AK.2.. QJ.3.. ..AK.2 ..QJ.3"]',    # 10: board "3" again
        '[Deal "#"]',                                            # 11: the line before's
    ]))
    jobs = read_batch(str(f), {"contract": "no-tricks", "seat": "S"})
    assert [n for n, _ in jobs] == [2, 5, 8, 10, 11]
    res = [batch_worker(j) for j in jobs]
    assert 'deal "#" repeats the deal of the game before' in res[0]["error"]
    assert res[2]["deal"] == res[1]["deal"] and res[2]["value"] == res[1]["value"]
    assert res[1]["value"] == _oracle(ENDGAME, "no-tricks", (2,))
    assert res[4]["deal"] == res[3]["deal"] != res[1]["deal"]
    assert [r.get("board") for r in res] == ["1", "2", "3", "3", "3"]
    p = run("solve", "--batch", str(f), "-c", "no-tricks", "--seat", "S")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert [json.loads(x)["line"] for x in p.stdout.splitlines()] == [2, 5, 8, 10, 11]


def test_batch_lines_are_an_editors_lines(tmp_path):
    """A form feed or U+2028 inside a line used to split it (str.splitlines), so every
    later result carried the wrong line number; a byte-order mark spoiled line 1; an
    empty text in a JSON job read as "not given" (a side dropped: a seat solved alone);
    a deeply nested line ended the whole batch with a traceback."""
    from analyzer.batch import read_batch
    from analyzer.errors import BarbuError
    from analyzer.jobs import batch_worker
    f = tmp_path / "jobs.txt"
    f.write_bytes(("\ufeff# from the club\u2028night\f\r\n" + ENDGAME + "\n"
                   + json.dumps({"deal": ENDGAME, "all-seats": True, "seat": None}) + "\n"
                   + json.dumps({"deal": ENDGAME, "side": ""}) + "\n"
                   + '{"deal": ' + "[" * 5000 + "]" * 5000 + "}\n"
                   + json.dumps({"deal": ENDGAME, "seat": "E"}) + "\n"
                   + "x" * 5000 + "\n").encode())
    jobs = read_batch(str(f), {"contract": "no-tricks", "seat": "S"})
    assert [n for n, _ in jobs] == [2, 3, 4, 5, 6, 7]
    out = [batch_worker(j) for j in jobs]
    assert out[0]["seat"] == "S" and "error" not in out[0]
    assert set(out[1]["values"]) == set("NESW")  # all-seats spelt as on the command line
    assert "empty 'side'" in out[2]["error"]
    assert "nested too deeply" in out[3]["error"]
    assert out[4]["seat"] == "E"
    assert len(out[5]["error"]) < 500 and "characters)" in out[5]["error"]
    bad = subprocess.run([sys.executable, "-m", "cli", "solve", "--batch", "-"], cwd=ROOT,
                         input=ENDGAME.encode() + b"\n\xff\xfe\n", capture_output=True,
                         timeout=120)
    assert bad.returncode == 2 and b"stdin: not UTF-8 text" in bad.stderr and not bad.stdout
    for data, byte in ((b"ab\xffc", 3), (b"\xef\xbb\xbfab\xffc", 6)):  # (from 1, the mark too)
        f.write_bytes(data)
        with pytest.raises(BarbuError, match=rf"not UTF-8 text \(byte {byte}\)$"):
            read_batch(str(f), {})
    for args, message in (((str(tmp_path),), "is a folder"), (("",), "empty --batch"),
                          ((str(tmp_path / "none"),), "batch file not found")):
        p = run("solve", "--batch", *args)
        assert p.returncode == 2 and message in p.stderr, p.stderr
    p = run("solve", ENDGAME, "-c", "no-tricks", "--workers", "2")
    assert p.returncode == 2 and "--workers is for --batch" in p.stderr


def test_rules_and_score_commands(tmp_path):
    p = run("rules", "list")
    assert p.returncode == 0 and "tournament" in p.stdout and "bridge" in p.stdout
    d = ok_json("rules", "show", "classic-32")
    assert d["contracts"]["salad"]["all_tricks_score"] == 250
    s = ok_json("score", "data/samples/match-tournament.toml")
    assert s["hands"][0]["net"] == {"N": -12, "E": 24, "S": -12, "W": -24}
    v = run("--version")
    assert v.returncode == 0 and v.stdout.startswith("barbu-dd ")
    h = run("--help")
    assert h.returncode == 0 and "solve" in h.stdout and "score" in h.stdout
    assert run("solve", "--help").stdout.count("--contract") >= 1


def test_deal_command_is_seeded(tmp_path):
    import re
    a = run("deal", "--seed", "5", "-n", "3")
    b = run("deal", "--seed", "5", "-n", "3")
    assert a.returncode == 0 and a.stdout == b.stdout and len(a.stdout.splitlines()) == 3
    j = run("deal", "--seed", "5", "-n", "3", "--json")
    assert [json.loads(x)["deal"] for x in j.stdout.splitlines()] == a.stdout.splitlines()
    assert a.stderr == ""
    # a PBN file of the same deals, whose [Deal] tags a batch reads back, board by board
    from analyzer.batch import read_batch
    f = tmp_path / "deals.pbn"
    f.write_text(run("deal", "--seed", "5", "-n", "3", "--pbn", "-r", "tournament").stdout)
    jobs = read_batch(str(f), {})
    assert [j["deal"] for _, j in jobs] == [f'[Deal "{d}"]' for d in a.stdout.splitlines()]
    text = f.read_text()
    assert text.startswith("% PBN 2.1\n") and text.count('[Event "barbu deal --seed 5 '
                                                        '-r tournament"]') == 3
    assert [x[1] for x in re.findall(r'\[(Dealer|Vulnerable) "(\w+)"\]', text)] == [
        "N", "None", "E", "NS", "S", "EW"]
    p = run("deal", "--pbn", "--json")
    assert p.returncode == 2 and "give --json or --pbn, not both" in p.stderr
    # without --seed, the seed drawn is told, and deals the same again
    c = run("deal", "-n", "2", "-r", "barbu-32")
    m = re.fullmatch(r"note: seed (\d+) \(--seed \1 deals these again\)\n", c.stderr)
    assert c.returncode == 0 and m, c.stderr
    assert run("deal", "-n", "2", "-r", "barbu-32", "--seed", m.group(1)).stdout == c.stdout


def test_every_command_that_prints_has_json(tmp_path):
    """README: every command has --json."""
    import re
    top = run("--help").stdout
    commands = re.findall(r"^\s{2}(\w+)\s", top.split("Commands:")[1], re.M)
    assert {"solve", "advise", "deal", "score", "stats", "report", "rules"} <= set(commands)
    for cmd in [c for c in commands if c != "rules"] + ["rules list", "rules show",
                                                        "rules save"]:
        assert "--json" in run(*cmd.split(), "--help").stdout, cmd
    env = {**os.environ, "BARBU_HOME": str(tmp_path / "home")}
    f = tmp_path / "r.toml"
    f.write_text(run("rules", "show", "barbu-32").stdout)
    p = subprocess.run([sys.executable, "-m", "cli", "rules", "save", "mine", str(f), "--json"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["name"] == "mine"
    p = subprocess.run([sys.executable, "-m", "cli", "rules", "list", "--json"], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=600)
    from analyzer.rules import load_rules
    listed = json.loads(p.stdout)  # (one object, as every --json)
    assert [x["name"] for x in listed["presets"]][-2:] == ["bridge", "mine"]
    assert listed["presets"][-1]["description"] == load_rules("barbu-32").description


def test_stats_then_report(tmp_path):
    ds = tmp_path / "ds"
    p = run("stats", "--deals", "2", "--seed", "3", "--rules", "barbu-32", "--contracts",
            "no-tricks,no-king", "--out", str(ds), "--workers", "1", "--json")
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    assert summary["deals"] == 2 and summary["rows"]["values"] == 16
    again = run("stats", "--deals", "2", "--seed", "3", "--rules", "barbu-32", "--out", str(ds))
    assert again.returncode == 2 and "--resume" in again.stderr
    r = run("report", str(ds), "--out", str(tmp_path / "r.html"), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["files"] == [str(tmp_path / "r.html")]
    assert (tmp_path / "r.html").stat().st_size > 10_000
    # without --out the file is named by its format
    md = subprocess.run([sys.executable, "-m", "cli", "report", str(ds), "-f", "md"],
                        cwd=tmp_path, capture_output=True, text=True, timeout=600,
                        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert md.returncode == 0, md.stderr
    assert (tmp_path / "report.md").read_text().startswith("#")
    assert not (tmp_path / "report.html").exists()
    bad = run("report", str(tmp_path / "nothing"), "--out", str(tmp_path / "x.html"))
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1


def test_advise_race_json_and_table():
    d = ok_json("advise", "AK9.T8.A.Q7", "-r", "barbu-32", "--samples", "40", "--seed", "1",
                "--race", "--workers", "1")
    assert d["race"] and d["samples"] == 40
    assert d["options"][0]["samples"] == 40
    assert all(o["samples"] in (20, 40) for o in d["options"])
    p = run("advise", "AK9.T8.A.Q7", "-r", "barbu-32", "--samples", "40", "--seed", "1",
            "--race", "--workers", "1")
    assert p.returncode == 0, p.stderr
    assert "(race)" in p.stdout
    p = run("advise", "AK9.T8.A.Q7", "-r", "barbu-32", "--samples", "0")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


def _default_sigint() -> None:
    """In the child before it runs: Ctrl-C as a terminal gives it, whatever this test
    run inherited (a shell's background job starts with SIGINT ignored, and Python then
    keeps ignoring it)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupted(args: tuple[str, ...], after) -> tuple[int, str, str]:
    """Run ``barbu *args``, send it SIGINT ``after`` seconds in (or once ``after(p)``
    returns), and return its exit status, stdout and the rest of stderr (the child killed
    if it does not end within two minutes)."""
    import signal
    import time
    p = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                         preexec_fn=_default_sigint)
    try:
        after(p) if callable(after) else time.sleep(after)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:  # (a failure must not leave a 52-card run going)
            p.kill()
            p.communicate()
    return p.returncode, out, err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_says_interrupted():
    """Ctrl-C in the middle of a long command: exit 130 with one line, no traceback."""
    def started(p: subprocess.Popen) -> None:
        # the 52-card note: inputs checked, solving starts
        assert p.stderr is not None and p.stderr.readline().startswith("note:")
    rc, out, err = _interrupted(("advise", "AK72.Q5.A963.KJ4", "--samples", "50",
                                 "--workers", "1", "--seed", "1"), started)
    assert rc == 130 and out == ""
    assert err.strip().splitlines()[-1] == "barbu: interrupted" and "Traceback" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX terminal")
def test_a_long_solve_on_a_terminal_tells_how_far_it_is():
    """A single search that runs for more than half a second shows, on a terminal's
    stderr, the bounds proved so far and the nodes searched (the bar moved only when a
    whole solve ended: under a time limit it stood still at 0% the whole time)."""
    import pty
    import re
    deal = "N:AK72.Q5.A963.KJ4 4.98632.754.T732 QJT9653.JT7.KJT. 8.AK4.Q82.AQ9865"
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "solve", deal, "-c",
                          "no-tricks", "--time-limit", "2"], stdout=subprocess.PIPE,
                         stderr=slave, text=True, cwd=ROOT, preexec_fn=_default_sigint,
                         env={**os.environ, "TERM": "xterm", "COLUMNS": "150"})
    os.close(slave)
    chunks = []
    try:
        while True:
            try:
                b = os.read(master, 4096)
            except OSError:  # (EIO: the command ended, and its terminal with it)
                break
            if not b:
                break
            chunks.append(b)
        out, _ = p.communicate(timeout=120)
    finally:
        os.close(master)
        if p.poll() is None:
            p.kill()
            p.communicate()
    err = b"".join(chunks).decode()
    assert p.returncode == 0 and "guaranteed value of seat N: between" in out, (out, err)
    seen = re.findall(r"between (-?\d+) and (-?\d+), ([\d.,]+(?: M)?) nodes", err)
    assert len(seen) >= 2 and seen[-1][2] != "0", err
    assert "Traceback" not in err


def test_ctrl_c_while_the_modules_load_says_interrupted():
    """Ctrl-C in the first tenth of a second, while ``cli`` imports typer and the
    packages: the same one line and exit 130, not an import's traceback. (The
    interrupt is made to strike at ``import typer``: a signal's timing is not
    reproducible.)"""
    code = ("import builtins, runpy\n"
            "real = builtins.__import__\n"
            "def imp(name, *a, **k):\n"
            "    if name == 'typer':\n"
            "        raise KeyboardInterrupt\n"
            "    return real(name, *a, **k)\n"
            "builtins.__import__ = imp\n"
            "runpy.run_module('cli', run_name='__main__')\n")
    p = subprocess.run([sys.executable, "-c", code, "--help"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert (p.returncode, p.stdout, p.stderr) == (130, "", "barbu: interrupted\n")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_advise_first_ctrl_c_gives_the_advice_so_far():
    """The first Ctrl-C ends `advise` with the advice on the deals solved so far (exit
    0, `interrupted` in the JSON), and those figures are what `--samples N` gives."""
    args = ("advise", "AK9.T8.A.Q7", "-r", "barbu-32", "--seed", "3", "--workers", "1")
    # (the 20,000 deals take minutes: 8 s in, the run is mid-way)
    rc, out, err = _interrupted((*args, "--samples", "20000", "--json"), 8)
    assert rc == 0, err
    assert "barbu: stopping: the advice will cover the deals solved so far" in err
    d = json.loads(out)
    n = d["samples"]
    assert d["interrupted"] is True and 1 <= n < 20000
    again = ok_json(*args, "--samples", str(n))
    assert again["interrupted"] is False and again["options"] == d["options"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_solve_first_ctrl_c_gives_bounds_for_what_is_open():
    """The first Ctrl-C during the example's table of every option (tens of seconds):
    exit 0, `interrupted`, the searches still open as bounds; the quick options (Trumps,
    Dominoes), solved first, are exact."""
    rc, out, err = _interrupted(("solve", "--example", "--json"), 4)
    assert rc == 0, err
    d = json.loads(out)
    assert d["interrupted"] is True
    assert any(r["value"] is None for r in d["rows"])
    for r in d["rows"]:
        if r["contract"] in ("trumps", "dominoes"):
            assert isinstance(r["value"], int), r
        if r["value"] is None:
            assert r["bounds"][0] <= r["bounds"][1]


def test_an_endgame_table_with_only_dominoes_in_the_match(tmp_path):
    """Dominoes needs a whole deal: an endgame under a match of Dominoes alone has no
    option, which is said in one line (a ValueError traceback before)."""
    from analyzer.rules import load_rules
    text = load_rules("tournament").to_toml()
    start = text.index("contracts = [", text.index("[match]"))
    end = text.index("]", start)
    f = tmp_path / "dom.toml"
    text = text[:start] + 'contracts = ["dominoes"]' + text[end + 1:]
    assert "\nrun = 7" in text
    f.write_text(text.replace("\nrun = 7", "\nrun = 1")  # (a run of one contract)
                 .replace('name = "tournament"', 'name = "dom"'))
    p = run("solve", ENDGAME, "-r", str(f))
    assert p.returncode == 2 and "no option of" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_an_output_that_cannot_be_written_is_one_line():
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "cli", "deal", "-n", "3", "--seed", "1"],
                           cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stderr.strip() == "barbu: error: cannot write the output: No space left on device"


@pytest.mark.parametrize("exc,want", [
    ('MemoryError("Unable to allocate 32.0 MiB for an array")',
     "barbu: error: out of memory: Unable to allocate 32.0 MiB for an array"),
    ('OSError("Could not find/load shared object file \'libllvmlite.so\'")',
     "barbu: error: Could not find/load shared object file 'libllvmlite.so'"),
])
def test_memory_and_load_failures_are_one_line(exc, want):
    """Running out of memory printed a traceback; a library that cannot be loaded was
    called "cannot write the output"."""
    code = ("import cli\nimport analyzer.jobs as J\n"
            f"def boom(*a, **k):\n    raise {exc}\n"
            "J.Job.run = boom\n"
            f"cli.main(['solve', {ENDGAME!r}, '-c', 'no-tricks'])\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 1 and p.stderr.strip() == want, p.stderr


def test_deal_streams_its_deals():
    """barbu deal prints deal by deal: a huge --count piped into head answers at once
    (it built every deal before printing the first)."""
    p = subprocess.Popen([sys.executable, "-m", "cli", "deal", "-n", str(10 ** 22), "--seed", "1"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert p.stdout is not None
        first = p.stdout.readline()
    finally:
        p.kill()
        p.wait()
    assert first.startswith("N:") and first.strip() == run("deal", "--seed", "1").stdout.strip()


def test_outputs_that_cannot_take_the_suit_symbols_or_are_closed():
    """A cp1252 console or file raised UnicodeEncodeError once the work was done; closed
    standard output lost the results and exited 0; closed standard input under --batch -
    gave a traceback."""
    env = dict(os.environ, PYTHONIOENCODING="cp1252")
    deal32 = "N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"
    p = subprocess.run([sys.executable, "-m", "cli", "solve", deal32, "-r", "barbu-32"],
                       cwd=ROOT, env=env, capture_output=True, timeout=300)
    assert p.returncode == 0, p.stderr.decode()
    assert "trumps S" in p.stdout.decode("cp1252")
    base = f"{shlex.quote(sys.executable)} -m cli solve {shlex.quote(ENDGAME)} -c no-tricks"
    p = subprocess.run(["bash", "-c", base + " >&-"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 1 and "standard output is closed" in p.stderr
    p = subprocess.run(["bash", "-c", f"{shlex.quote(sys.executable)} -m cli solve --batch - "
                        "-c no-tricks <&-"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 2 and "standard input is closed" in p.stderr
    assert "Traceback" not in p.stderr


def test_a_reader_that_stops_early_is_not_an_error():
    """`barbu deal | head -1` exited 1 (click's answer to a closed pipe)."""
    p = subprocess.run(["bash", "-o", "pipefail", "-c",
                        f"{shlex.quote(sys.executable)} -m cli deal -n 200000 --seed 1 "
                        "| head -1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and p.stdout.startswith("N:") and not p.stderr


def test_an_option_given_twice_is_refused():
    """`-c no-king -c no-queens` answered no-queens only, without a word; repeatable
    options (advise --known) stay repeatable."""
    for args, message in ((("-c", "no-king", "-c", "no-queens"), "-c is given twice"),
                          (("--contract=no-king", "-c", "no-queens"),
                           "--contract and -c name one option")):
        p = run("solve", ENDGAME, *args)
        assert p.returncode == 2 and message in p.stderr and not p.stdout, p.stderr
    p = run("advise", "KQJ7..AK9.8", "-r", "barbu-32", "--known", "E:SA", "--known",
            "W:HA", "-n", "2", "--seed", "1", "--remaining", "trumps", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["constraints"]["known"] == {"E": ["SA"], "W": ["HA"]}


def test_messages_name_the_option_and_take_any_case(tmp_path):
    """Preset names and formats in any case (contracts and seats already were); errors
    that name the option or say what is wrong; an unquoted deal gets a hint."""
    assert run("rules", "show", "BARBU-32").returncode == 0
    p = run("deal", "--length", "20")
    assert p.returncode == 2 and "(--length)" in p.stderr and "1 to 13 cards" in p.stderr
    p = run("score", str(tmp_path))
    assert p.returncode == 2 and "is a folder" in p.stderr
    p = run("solve", "N:KQJ7..AK9.8", "98.AT8..AQJ", "T.J7.Q8.T97", "A.KQ9.JT7.K")
    assert p.returncode == 2 and "quote it" in p.stderr
    p = run("report", str(tmp_path), "-o", str(tmp_path / "r.pdf"))
    assert p.returncode == 2 and "name the report .html, .md or .png" in p.stderr
    p = run("solve", ENDGAME, "-c", "no-tricks", "-cno-king")
    assert p.returncode == 2 and "-c is given twice" in p.stderr
    p = run("score", "data/samples/match-fr52.toml", "other.toml")
    assert p.returncode == 2 and "quote it" not in p.stderr


def test_the_left_hand_opponent_leads_where_the_rules_say():
    """classic-32 (lead = "left"): the declarer's left-hand opponent leads when no
    --leader is given. On this deal it matters: E leading holds N to -20, W to -25."""
    from analyzer.solve import solve
    deal = "N:KJ.T.J9.J98 A8.A7.A7.T7 Q7.J9.KQT.K T9.KQ8.8.AQ"
    for decl, left in (("N", "E"), ("W", "N")):
        d = ok_json("solve", deal, "-r", "classic-32", "-c", "no-tricks", "-d", decl)
        assert d["leader"] == left
        assert d["value"] == solve(deal, "classic-32", "no-tricks", leader=left, seat=decl)
    assert solve(deal, "classic-32", "no-tricks", leader="W", seat="N") != -20
    assert ok_json("solve", deal, "-c", "no-tricks", "-r", "barbu-32")["leader"] == "N"


def test_the_installed_barbu_command(tmp_path):
    """README and design.md name the console script ``barbu``; every other test runs
    ``python -m cli`` from the sources. Run the installed command from elsewhere."""
    exe = Path(sys.executable).with_name("barbu")
    assert exe.exists(), f"{exe}: install the project (README) before testing it"
    p = subprocess.run([str(exe), "solve", ENDGAME, "-c", "no-tricks", "--json"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["value"] == ok_json("solve", ENDGAME, "-c", "no-tricks")["value"]
    bad = subprocess.run([str(exe), "solve", "N:AK.2.. QJ.3..", "-c", "no-tricks"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr


def test_inputs_the_fuzzer_found(tmp_path):
    """A CLI fuzz audit's findings: a deeply nested TOML file raised RecursionError (a
    traceback); a name too long for a file name gave exit status 1 naming the presets
    folder; an empty path option wrote the dataset into the current folder ("" read as
    "."); a JSON list in a batch was read as a deal; a player's name with a newline split
    the sheet's lines; a huge value filled the error line."""
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 500 + "]" * 500 + "\n")
    long = "a" * 256
    for args, want in [
            (("rules", "show", str(deep)), "not valid TOML (nested too deeply)"),
            (("score", str(deep)), "match file"),
            (("solve", "--example", "-r", long), "unknown rules preset"),
            (("score", long + ".toml"), "file name too long"),
            (("report", long), "file name too long"),
            (("stats", "-n", "1", "-o", "", "-r", "barbu-32"), "empty --out"),
            (("solve", "--example", "--contract="), "empty --contract"),
            (("score", ""), "an empty argument"),
            (("solve", "--example", "-r", "barbu-32", "-c", "x" * 100_000),
             "(100,"), ]:
        p = run(*args)
        assert p.returncode == 2 and p.stderr.count("\n") == 1, (args, p.stderr[-300:])
        assert want in p.stderr and len(p.stderr) < 1200, (args, p.stderr[:300])
    assert not (ROOT / "manifest.json").exists()
    ds = tmp_path / "ds"
    ds.mkdir()
    (ds / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)
    p = run("report", str(ds))
    assert p.returncode == 2 and "nested too deeply" in p.stderr, p.stderr[-300:]
    # the quoting hint, for a deal with or without its seat prefix
    for deal in ("N:T.J.8.KQJT8", "T.J.8.KQJT8"):
        p = run("solve", deal, "7.AQT9.AJ.A", "K98.87.97.9", "AQJ.K.KQT.7", "-r", "barbu-32")
        assert p.returncode == 2 and "quote it" in p.stderr, p.stderr
    batch = tmp_path / "jobs.txt"
    batch.write_text('["N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"]\n'
                     '"N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"\n'
                     '[Deal "N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"] ; PBN\n'
                     '[Event "club night"]\n')
    p = run("solve", "--batch", str(batch), "-r", "barbu-32", "-c", "no-king")
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert "not a JSON list" in lines[0]["error"] and lines[1]["value"] == 0  # quoted: a deal
    assert lines[2]["value"] == 0 and lines[2]["deal"].startswith("N:KQJ7")  # a PBN tag line
    # (another tag pair is skipped now, as in a whole PBN file; a bracketed line that is
    # no tag pair is still its own error)
    assert len(lines) == 3
    batch.write_text('[Event club night]\n')
    p = run("solve", "--batch", str(batch), "-r", "barbu-32", "-c", "no-king")
    assert "not a JSON list or another tag" in json.loads(p.stdout)["error"]
    sheet = tmp_path / "m.toml"
    sheet.write_text('rules = "barbu-32"\ntitle = "T\\nU"\n'
                     'players = ["A\\nB", "C", "D", "E\\u0000F"]\n'
                     '[[hand]]\ndeclarer = "N"\ncontract = "no-king"\nraw = [-8, 0, 0, 0]\n')
    p = run("score", str(sheet))
    assert p.returncode == 0, p.stderr
    assert "N A\\nB" in p.stdout and "W E\\x00F" in p.stdout and "T\\nU:" in p.stdout
    sheet.write_text('rules = "barbu-32"\ntitle = "Tournoi\\u00a0: finale"\n'
                     'players = ["Anne\\u00a0Marie", "C", "D", "\\u5c71\\u3000\\u7530"]\n'
                     '[[hand]]\ndeclarer = "N"\ncontract = "no-king"\nraw = [-8, 0, 0, 0]\n')
    p = run("score", str(sheet))  # (text characters print as they are)
    assert "Tournoi\u00a0: finale" in p.stdout and "Anne\u00a0Marie" in p.stdout
    assert "\u5c71\u3000\u7530" in p.stdout


D32 = "N:KQJ7..AK9.8 98.AT8..AQJ T.J7.Q8.T97 A.KQ9.JT7.K"


def test_each_option_reaches_the_analyzer(tmp_path):
    """Valid options change the answer as documented (a mutation audit dropped about a
    dozen of them in cli.py, each answering another question with exit 0, and no test
    saw it): the JSON echoes what was asked, and the figures are those of the API."""
    from analyzer.advise import advise
    from analyzer.jobs import solve_job
    d = ok_json("solve", D32, "-r", "barbu-32", "-c", "no-queens", "--bet", "W")
    assert d["bracket"] == solve_job(dict(deal=D32, rules="barbu-32", contract="no-queens",
                                          bet="W"))["bracket"]
    assert d["bet"] == "W" and "bracket" in d
    base = ("advise", "KQJ7..AK9.8", "-r", "barbu-32", "-n", "6", "--seed", "0",
            "--doubling", "none", "--workers", "1")
    a = ok_json(*base, "--seat", "E", "--remaining", "no-king,trumps", "--void", "W:S",
                "--length", "W:H:0-2")
    assert (a["seat"], a["seed"], a["samples"]) == ("E", 0, 6)
    assert sorted(a["remaining"]) == ["no-king", "trumps"] and len(a["options"]) == 5
    assert a["constraints"] == {"known": {}, "voids": {"W": "S"},
                                "lengths": {"W": {"H": [0, 2]}}}
    want = advise("KQJ7..AK9.8", seat="E", rules="barbu-32", remaining="no-king,trumps",
                  samples=6, seed=0, doubling="none", workers=1,
                  constraints={"voids": {"W": "S"}, "lengths": {"W": {"H": (0, 2)}}})
    assert [o["mean"] for o in a["options"]] == [o["mean"] for o in want["options"]]
    assert ok_json(*base, "--seat", "E", "--remaining", "no-king,trumps", "--void", "W:S",
                   "--length", "W:H:0-2")["options"] == a["options"]      # seed 0 repeats
    # solve's name for the declarer's seat works here too
    assert ok_json(*base, "-d", "E", "--remaining", "no-king,trumps", "--void", "W:S",
                   "--length", "W:H:0-2")["options"] == a["options"]
    assert a["time_limit"] is None
    t = ok_json(*base, "--seat", "E", "--remaining", "no-king,trumps", "--void", "W:S",
                "--length", "W:H:0-2", "--time-limit", "600")
    assert (t["time_limit"], t["timed_out"], t["options"]) == (600, False, a["options"])
    # the documented default of --samples (100)
    assert ok_json("advise", "KQJ7..AK9.8", "-r", "barbu-32", "--seed", "1", "--remaining",
                   "no-king", "--doubling", "none", "--workers", "1")["samples"] == 100
    # the 52-card note goes to stderr: stdout stays one JSON document
    p = run("advise", "AK72.Q5.A963.KJ4", "-n", "1", "--seed", "1", "--remaining",
            "no-last-two", "--doubling", "none", "--workers", "1", "--json")
    assert p.returncode == 0 and p.stderr.startswith("note: on 52 cards")
    assert json.loads(p.stdout)["samples"] == 1
    # --doubling none on a preset with doubling
    rules = tmp_path / "dbl.toml"
    rules.write_text((ROOT / "data/rules/barbu-32.toml").read_text(encoding="utf-8").replace(
        'doubles = "none"', 'doubles = "any"').replace('name = "barbu-32"', 'name = "dbl"'))
    dbl = ("advise", "KQJ7..AK9.8", "-r", str(rules), "-n", "4", "--seed", "1",
           "--remaining", "no-king", "--workers", "1")
    assert ok_json(*dbl, "--doubling", "none")["doubling"] == []
    assert ok_json(*dbl)["doubling"] != []
    # deal and score take --rules; stats takes --seed
    for line in run("deal", "-r", "barbu-32", "--seed", "1", "-n", "2").stdout.split("\n"):
        if line:
            assert all(len(h) - 3 == 8 for h in line[2:].split())    # 8 cards, 3 dots
    p = run("score", str(ROOT / "data/samples/match-tournament.toml"), "--rules", "fr-52",
            "--json")
    assert p.returncode == 2 and "dominoes places" in p.stderr
    s = ok_json("stats", "-n", "1", "--seed", "3", "-r", "barbu-32", "--contracts",
                "no-king", "-o", str(tmp_path / "ds"), "--workers", "1")
    assert s["seed"] == 3
    again = ok_json("stats", "-n", "1", "--seed", "3", "-r", "barbu-32", "--contracts",
                    "no-king", "-o", str(tmp_path / "ds"), "--workers", "1", "--resume")
    assert again["chunks_resumed"] == 1
    # --example follows --rules
    assert ok_json("advise", "--example", "-r", "barbu-32", "-n", "2", "--remaining",
                   "no-king", "--workers", "1")["hand"] == "KQJ7..AK9.8"


def test_the_compile_cache_note_goes_to_stderr():
    """Where NUMBA_CACHE_DIR cannot be written, the kernels are cached elsewhere and the
    command says so on stderr, after its work: stdout stays one JSON document."""
    env = {**os.environ, "NUMBA_CACHE_DIR": "/proc/barbu-dd-cannot-write-here"}
    p = subprocess.run([sys.executable, "-m", "cli", "solve", ENDGAME, "-c", "no-tricks",
                        "--json"], cwd=ROOT, capture_output=True, text=True, timeout=600,
                       env=env)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["value"] == _oracle(ENDGAME, "no-tricks", (0,))
    assert p.stderr.startswith("note: NUMBA_CACHE_DIR (/proc/barbu-dd-cannot-write-here) "
                               "cannot be written"), p.stderr


def test_the_advise_bar_shows_the_advisors_time_left(monkeypatch, capsys):
    """On a terminal the bar takes the advisor's own guess of the time left (solves
    differ in cost by a hundred times on 52 cards); off one, no guess is asked for."""
    import cli
    import analyzer.advise as A
    import reports.progress as P
    seen: dict = {}

    def fake(hand, **kw):
        seen.update(kw)
        if kw["eta"] is not None:
            kw["progress"](1, 4)
            kw["eta"](3725.0)
            seen["line"] = bar_line()
        return {"fake": True}

    bars: list = []
    real_bar = P.Bar

    class Bar(real_bar):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            bars.append(self)

    def bar_line():
        return bars[-1].line()

    monkeypatch.setattr(A, "advise", fake)
    monkeypatch.setattr(cli, "Bar", Bar)
    for tty in (False, True):
        monkeypatch.setattr(P, "enabled_on", lambda f, tty=tty: tty)
        seen.clear()
        with pytest.raises(SystemExit) as e:
            cli.main(["advise", "KQJ7..AK9.8", "-r", "barbu-32", "--json"])
        assert e.value.code == 0
        assert json.loads(capsys.readouterr().out) == {"fake": True}
        assert (seen["eta"] is not None) is tty
    assert seen["line"].endswith(" 01:02:05")
    # a time limit reaches the advisor as seconds, and caps the bar's time left; Ctrl-C
    # gives a stop request where SIGINT is Python's own (not where it came in ignored)
    import signal
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(SystemExit) as e:
            cli.main(["advise", "KQJ7..AK9.8", "-r", "barbu-32", "--json", "--time-limit",
                      "90"])
        assert e.value.code == 0 and seen["time_limit"] == 90.0 and callable(seen["stop"])
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored
        capsys.readouterr()
        assert seen["line"].endswith((" 00:01:30", " 00:01:29"))
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        with pytest.raises(SystemExit):
            cli.main(["advise", "KQJ7..AK9.8", "-r", "barbu-32", "--json"])
        assert seen["stop"] is None and signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, old)


def test_rules_save_names_the_contracts_the_solver_cannot_play(tmp_path):
    """A rules file whose contract the solver refuses (an all-cards bonus with trick
    points) is good for scoring: it is saved, with a note on stderr naming what the
    solver will refuse (it used to pass in silence and fail at the first solve)."""
    f = tmp_path / "mine.toml"
    f.write_text(run("rules", "show", "barbu-32").stdout + "\n[contracts.capot]\n"
                 'kind = "tricks"\ncard_points = { H = -2 }\ntrick_points = -1\n'
                 "all_cards_score = 10\n")
    env = {**os.environ, "BARBU_HOME": str(tmp_path / "home")}
    p = subprocess.run([sys.executable, "-m", "cli", "rules", "save", "mine", str(f),
                        "--json"], cwd=ROOT, capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["solver_refuses"] == [
        "capot: the solver does not handle an all-cards bonus together with trick points"]
    assert p.stderr == ("note: capot: the solver does not handle an all-cards bonus "
                        "together with trick points: barbu score takes it, solve, advise "
                        "and stats do not\n")
    p = subprocess.run([sys.executable, "-m", "cli", "solve",
                        "N:AK.7.. QJ.8.. ..AK.7 ..QJ.8",
                        "-c", "capot", "-r", "mine"], cwd=ROOT, capture_output=True,
                       text=True, env=env, timeout=120)
    assert p.returncode == 2 and "all-cards bonus together with trick points" in p.stderr
    f.write_text(run("rules", "show", "barbu-32").stdout.replace('"barbu-32"', '"plain"'))
    p = subprocess.run([sys.executable, "-m", "cli", "rules", "save", "plain", str(f),
                        "--json", "--force"], cwd=ROOT, capture_output=True, text=True,
                       env=env, timeout=120)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert json.loads(p.stdout)["solver_refuses"] == []


def test_stats_passes_its_notes_to_stderr(monkeypatch, capsys, tmp_path):
    """`stats` hands run_stats a warn that prints above the bar on stderr (the 52-card
    note on slow contracts), stdout keeping the summary."""
    import cli
    import analyzer.stats as S

    def fake(out, **kw):
        kw["warn"]("note: slow")
        return {"fake": True}

    monkeypatch.setattr(S, "run_stats", fake)
    with pytest.raises(SystemExit) as e:
        cli.main(["stats", "--out", str(tmp_path / "x"), "-n", "1", "--json"])
    assert e.value.code == 0
    got = capsys.readouterr()
    assert json.loads(got.out) == {"fake": True} and got.err == "note: slow\n"


def test_an_unknown_option_is_offered_only_close_ones():
    """click offered "--out" for "--bogus"; the near misses stay."""
    from cli import _close_options
    assert _close_options("No such option: --bogus (Possible options: --out)") == \
        "No such option: --bogus"
    assert _close_options("No such option: --seet (Possible options: --bet, --seat, "
                          "--side)") == "No such option: --seet (did you mean --seat?)"
    assert _close_options("No such option: --jsn (Did you mean --json?)") == \
        "No such option: --jsn (did you mean --json?)"
    assert _close_options("Missing argument 'HAND'.") == "Missing argument 'HAND'."
    assert _close_options("No such option: --dec (Possible options: --declarer, --rec)") \
        == "No such option: --dec (did you mean --declarer?)"  # (the start of an option)
    p = run("solve", "--sample", "3")
    assert p.returncode == 2
    assert p.stderr == ("barbu: error: No such option: --sample (did you mean --example?) "
                        "(see --help)\n")

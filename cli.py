"""barbu: the command line. Parse, call analyzer/reports, print. No logic lives here.

Every bad input ends as one line on stderr, ``barbu: error: …``, and exit status 2.
"""

from __future__ import annotations

import sys

try:  # (a Ctrl-C while the modules load: the same one line as later, not a traceback)
    import contextlib
    import difflib
    import errno
    import json
    import os
    import re
    import signal
    import threading
    from pathlib import Path
    from typing import Any, Optional

    import typer

    from analyzer.errors import BarbuError, CannotWrite, check_given, check_seconds, \
        check_workers
    from analyzer.pools import WorkerDied
    from reports.progress import Bar
except KeyboardInterrupt:
    sys.stderr.write("barbu: interrupted\n")
    sys.exit(130)

app = typer.Typer(
    name="barbu",
    help="Double-dummy analyser and contract advisor for Barbu.\n\n"
         "Seats N E S W, suits S H D C, ranks 2-9 T J Q K A, cards suit then rank (SA, HT). "
         "Deals in PBN: \"N:AKQ2.JT9.876.543 <E> <S> <W>\" (suits S.H.D.C).",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version
        try:
            typer.echo(f"barbu-dd {version('barbu-dd')}")
        except PackageNotFoundError:
            typer.echo("barbu-dd (not installed)")
        raise typer.Exit()


@app.callback()
def _root(_v: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                  help="Print the version and exit.")) -> None:
    """Double-dummy analyser and contract advisor for Barbu."""


rules_app = typer.Typer(help="List, show and save rules presets.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")


def _emit(obj: Any) -> None:
    typer.echo(json.dumps(obj, ensure_ascii=False))


# ------------------------------------------------------------------------------ solve
SOLVE_HELP = """Solve a deal or an endgame double dummy.

DEAL is a PBN deal ("N:AKQ2.JT9.876.543 …", hands clockwise from the named seat; a PBN
file's [Deal "…"] line too), a full deal or an endgame with equal hands. With --trick,
the cards already played to the current trick (the leader's first), taken from the
hands if they are still there.

The value is the *guaranteed* value of a seat: what it can make for sure when the other
three, seeing every card, play against it. Without --contract: a table of every option
of the preset (each trump suit, each Dominoes starting rank) for the declarer.

--batch FILE: one job a line, a PBN deal (the command-line options apply) or a JSON
object {"deal": …, "contract": …} whose keys (the options' names, like all_seats or
all-seats) override them; a key set to null clears its option. Blank lines and lines
starting with #, % or ; are skipped. A whole PBN file is a batch too: its [Deal "…"]
tags are the jobs ([Deal "#"]: the deal before; its other tags, auctions and plays are
not read). Out: one JSON line per job, in input order, with its "line" number (and its
PBN game's "board"); a job that fails gives {"line": n, "error": …} and the others go
on, and the exit status is then 2.

Slow searches (52-card negative contracts: seconds to minutes): --time-limit SECONDS
answers in about that time, with the bounds a search proved ("between -14 and -12")
where it could not finish; the first Ctrl-C (not with --batch) stops the searches
likewise (the one it cuts short takes up to a second more to narrow its bounds), the
second quits. On a terminal, a search running past half a second shows on stderr the
bounds proved so far and the nodes searched.
"""


@app.command(help=SOLVE_HELP)
def solve(
    deal: Optional[str] = typer.Argument(None, metavar="DEAL", help="PBN deal (omit with --batch or --example)."),
    contract: Optional[str] = typer.Option(None, "--contract", "-c",
                                           help="Contract id or alias (see `barbu rules show`)."),
    trump: Optional[str] = typer.Option(None, "--trump", "-t", help="Trump suit for trumps: S H D C."),
    rank: Optional[str] = typer.Option(None, "--rank", help="Dominoes starting rank (2-9 T J Q K A)."),
    declarer: str = typer.Option("N", "--declarer", "-d", help="The declarer's seat."),
    leader: Optional[str] = typer.Option(None, "--leader", "-l",
                                         help="Leader of the current trick (default: as the preset says, "
                                              "usually the declarer)."),
    seat: Optional[str] = typer.Option(None, "--seat", "-s",
                                       help="Seat whose guaranteed value to solve (default the declarer, -d: "
                                            "advise's --seat is the declarer)."),
    side: Optional[str] = typer.Option(None, "--side",
                                       help="A partnership maximising its combined score, e.g. NS."),
    bet: Optional[str] = typer.Option(None, "--bet", metavar="SEAT",
                                      help="The seat's bet against SEAT (a double): the value is "
                                           "what he can guarantee of his score minus SEAT's, the "
                                           "other three against him; also the doubling bracket "
                                           "[value, minus SEAT's own end]."),
    rules: Optional[str] = typer.Option(None, "--rules", "-r",
                                        help="Preset name or rules file (default: tournament)."),
    cards: bool = typer.Option(False, "--cards", help="Also the value of every legal card for the player to move."),
    all_seats: bool = typer.Option(False, "--all-seats", help="Guaranteed value of each seat."),
    play: bool = typer.Option(False, "--play", help="Also one line of perfect play to the end, "
                              "trick by trick (Dominoes: a move a turn); every card keeps "
                              "the value. One contract, not with --cards, --all-seats or "
                              "--bet."),
    review: Optional[str] = typer.Option(
        None, "--review", metavar="CARDS",
        help="Review a play: the cards played from the position on, in order (e.g. "
             "\"S2,S5,S4,S3 / SJ,S8\": commas or spaces, '/' between tricks if you like; "
             "Dominoes moves may be 'pass'). Gives the value after each "
             "card, and marks each card that changed it against perfect play (a loss "
             "for the seat's side, a gift from the others) with a card that would have "
             "kept it. With --all-seats, each card is judged by its own player's "
             "guaranteed value instead. One contract; not with --cards, --bet or --play."),
    trick: Optional[str] = typer.Option(None, "--trick",
                                        help="Cards already played to the current trick, e.g. SA,S2."),
    layout: Optional[str] = typer.Option(None, "--layout",
                                         help="Dominoes table in progress, e.g. \"S:5-9 H:- D:7 C:-\"."),
    out: Optional[str] = typer.Option(None, "--out", help="Dominoes: seats already out, first out first, e.g. EN (needed when two or more are out)."),
    batch: Optional[str] = typer.Option(None, "--batch",
                                         help="File of jobs, one a line: a PBN deal or a JSON object "
                                              "{\"deal\": …, option: value}; '-' reads stdin."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w",
                                          help="Processes for --batch (0, the default: all cores)."),
    node_limit: Optional[int] = typer.Option(None, "--node-limit",
                                             help="Stop a trick-contract search after this many nodes "
                                                  "(about 2 million a second) with an error "
                                                  "that says what it proved, instead of waiting."),
    time_limit: Optional[str] = typer.Option(
        None, "--time-limit", metavar="SECONDS",
        help="Answer within about this many seconds: each search gets an equal share of "
             "the time left, and one that runs out gives the bounds it proved (\"between "
             "-8 and -4\"; JSON: \"value\": null, \"bounds\": [-8, -4]) instead of its "
             "value. For every job of --batch alike."),
    example: bool = typer.Option(False, "--example", help="Solve the built-in example deal."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (one object); --batch always prints one JSON line per job. "
                                 "Values are numbers, or exact \"a/b\" strings where no decimal "
                                 "holds them (a third of Ravage City's points)."),
) -> None:
    from analyzer.jobs import solve_job
    from analyzer.samples import example_deal
    from reports.text import render_solve, search_status

    opts = {"rules": rules, "contract": contract, "trump": trump, "rank": rank,
            "declarer": declarer, "leader": leader, "seat": seat, "side": side, "bet": bet,
            "cards": cards, "all_seats": all_seats, "trick": trick, "layout": layout,
            "out": out, "node_limit": node_limit, "time_limit": time_limit, "play": play,
            "review": review}
    check_given({**opts, "batch": batch})
    limit = check_seconds(time_limit, "--time-limit")  # (before a batch: once, not a line)
    if batch is not None:
        if deal is not None or example:
            raise BarbuError("give a DEAL or --batch FILE, not both")
        _solve_batch(batch, opts, 0 if workers is None else workers)
        return
    if workers is not None:
        raise BarbuError("--workers is for --batch (one solve runs in this process)")
    if example:
        if deal is not None:
            raise BarbuError("give a DEAL or --example, not both")
        deal = example_deal(rules)
    if deal is None:
        raise BarbuError("no deal given (a PBN deal, --batch FILE or --example)")
    with Bar("solving", 1, show_pos=True, show_eta=limit is not None) as bar, \
            _first_ctrl_c() as asked:
        now = [""]  # (the option of the table being solved)

        def progress(done: int, total: int, label: str) -> None:
            now[0] = label
            bar.update(done - bar.pos, item=label, length=total)

        def searching(nodes: int, low: Any, high: Any) -> None:
            status = search_status(nodes, low, high)
            bar.update(0, item=f"{now[0]}: {status}" if now[0] else status)

        show = bar.enabled and contract is None
        if asked is not None and bar.enabled:
            asked.searching = searching  # (a long search tells how far it is)
        if limit is not None:
            bar.deadline(limit)
        res = solve_job({**opts, "deal": deal}, progress=progress if show else None,
                        stop=asked)
    _emit(res) if as_json else typer.echo(render_solve(res))


def _solve_batch(path: str, opts: dict[str, Any], workers: int) -> None:
    from analyzer.batch import read_batch, run_batch

    check_workers(workers)
    jobs = read_batch(sys.stdin if path == "-" else path, opts)
    failed = 0
    with Bar("solving", len(jobs), show_pos=True, show_eta=True) as bar:
        for res in run_batch(jobs, workers):
            failed += "error" in res
            bar.update(1)
            bar.write_above(json.dumps(res, ensure_ascii=False))
    if failed:
        raise BarbuError(f"{failed} of {len(jobs)} batch jobs failed (their lines say why)")


# ------------------------------------------------------------------------------ advise
ADVISE_HELP = """Which contract should I declare with this hand? Is this double worth it?

HAND is the declarer's hand in PBN ("AKQ2.JT9.876.543", suits S.H.D.C). The unseen cards
are dealt to the other three at random (seeded) many times; every option still available
(each contract, each trump suit, each Dominoes starting rank) is solved double dummy on
each deal, as the declarer's guaranteed value. Options are ranked by their score: the
mean, plus the expected value of the contracts kept for the later hands of the run (those
of --remaining, by default all of the preset's; the preset's shipped table), with the
noise shown (standard error, 95% interval, chance of being the best). Doubling: per
opponent, the bracket of the bet declarer vs opponent and whether to double / redouble.

Known limit: each sample is solved as if everyone saw every card (strategy fusion): the
declarer is credited with playing each deal as if he knew it, while the guaranteed value
assumes three opponents who see everything and play together against him (a floor,
pessimistic in a real game).

Speed: a 32-card deal takes well under a second for every option. On 52 cards the
declarer's guaranteed value in No Tricks, No Queens, No Hearts and No Last Two takes
seconds to minutes a deal, and so do the doubling brackets of those contracts (all seven
contracts with the brackets: from about 5 s to a few minutes a deal on 2 cores, rare
solves over 10 minutes); leave them out with --remaining, skip the brackets with
--doubling none, let --race stop solving the options that are clearly behind, or bound
the wait with --time-limit (the advice then covers the deals solved in time: on the README
hand, seed 1, 6 deals of all seven contracts in 60 s on 2 cores, the brackets 2 of
them; BENCHMARKS.md in the barbu-dd sources, "Advisor"). The first Ctrl-C
also ends the run with the advice on the deals solved so far; a second quits.
"""


@app.command(help=ADVISE_HELP)
def advise(
    hand: Optional[str] = typer.Argument(None, metavar="HAND", help="The declarer's hand, e.g. AKQ2.JT9.876.543."),
    seat: str = typer.Option("N", "--seat", "-s", "--declarer", "-d",
                             help="The declarer's seat (--declarer and -d as in solve)."),
    rules: Optional[str] = typer.Option(None, "--rules", "-r",
                                        help="Preset name or rules file (default: tournament)."),
    remaining: Optional[str] = typer.Option(None, "--remaining",
                                            help="Contracts still to play in the run, comma-separated "
                                                 "(default: all of the preset's)."),
    samples: str = typer.Option("100", "--samples", "-n",
                                help="Deals to sample, or 'auto' (batches of 20 until the best "
                                     "option is separated from the next at 95%, by a test "
                                     "that holds however often it looks, or 400 deals)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed (printed, to repeat the run)."),
    workers: int = typer.Option(0, "--workers", "-w", help="Processes (0: all cores); results do not depend on it."),
    known: list[str] = typer.Option([], "--known", metavar="SEAT:CARDS", help="Cards known in a hand: SEAT:CARDS, e.g. E:SA,HK (repeatable)."),
    void: list[str] = typer.Option([], "--void", metavar="SEAT:SUITS", help="A known void: SEAT:SUITS, e.g. W:H (repeatable)."),
    length: list[str] = typer.Option([], "--length", metavar="SEAT:SUIT:LO-HI", help="Suit length range: SEAT:SUIT:LO-HI, e.g. S:C:0-2 (repeatable)."),
    doubling: str = typer.Option("best", "--doubling",
                                 help="Doubling brackets for the best option, all options, or none."),
    race: bool = typer.Option(False, "--race",
                              help="Solve in batches (20 deals; 10 on 52 cards) and stop "
                                   "solving an option once the leader beats it at 99% "
                                   "(paired); its figures then "
                                   "cover fewer deals. Much faster when some options are "
                                   "clearly worse."),
    time_limit: Optional[str] = typer.Option(
        None, "--time-limit", metavar="SECONDS",
        help="Stop solving after SECONDS: the figures cover the deals solved for every "
             "option by then (a note gives the --samples that repeats them), the "
             "doubling brackets the deals whose bracket solves ended too."),
    example: bool = typer.Option(False, "--example", help="Advise the built-in example hand (N of the example deal)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    from analyzer.advise import advise as run_advise
    from analyzer.jobs import constraint_spec
    from analyzer.samples import example_hand
    from reports.advise import render_advice

    check_given({"rules": rules, "seat": seat, "remaining": remaining, "samples": samples,
                 "doubling": doubling, "time-limit": time_limit})
    if example:
        if hand is not None:
            raise BarbuError("give a HAND or --example, not both")
        hand = example_hand(rules)
    if hand is None:
        raise BarbuError("no hand given (a PBN hand like AKQ2.JT9.876.543, or --example)")
    n: int | str = samples.strip().lower()
    if n != "auto":
        try:
            n = int(samples)
        except ValueError:
            raise BarbuError(f"bad --samples {samples!r}: a number or 'auto'") from None
    spec = constraint_spec(known, void, length)
    limit = check_seconds(time_limit, "--time-limit")
    with Bar("sampling", 1, show_eta=True) as bar, _first_ctrl_c_stops(bar) as stop:
        def progress(done: int, total: int) -> None:
            bar.update(done - bar.pos, length=total)

        if limit is not None:
            bar.deadline(limit)

        res = run_advise(hand, seat=seat, rules=rules, remaining=remaining, samples=n,
                         seed=seed, workers=workers or None, progress=progress,
                         constraints=spec or None, doubling=doubling, race=race,
                         warn=lambda line: bar.write_above(line, err=True),
                         eta=bar.time_left if bar.enabled else None,
                         time_limit=limit, stop=stop)
    _emit(res) if as_json else typer.echo(render_advice(res))


@contextlib.contextmanager
def _first_ctrl_c():
    """A ``threading.Event`` that the first Ctrl-C (SIGINT) sets, asking the work to end
    with what it has; the second quits (KeyboardInterrupt, exit 130). None where SIGINT
    is not Python's own default (inherited as ignored, or handled by a host program) or
    no handler can be set (not the main thread)."""
    asked = threading.Event()

    def on_int(signum: int, frame: Any) -> None:
        if asked.is_set():
            raise KeyboardInterrupt
        asked.set()

    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield None  # (ignored, as in a script's background job, or handled by a host)
        return
    try:
        old = signal.signal(signal.SIGINT, on_int)
    except ValueError:
        yield None
        return
    try:
        yield asked
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def _first_ctrl_c_stops(bar: Bar):
    """A ``stop()`` for the advisor (:func:`_first_ctrl_c`): true once Ctrl-C asked the
    run to end with the advice on the deals solved so far, which it says then."""
    with _first_ctrl_c() as asked:
        if asked is None:
            yield None
            return
        told: list[bool] = []

        def stop() -> bool:
            if asked.is_set() and not told:  # (said here, between results, not inside
                told.append(True)              # the handler)
                bar.write_above("barbu: stopping: the advice will cover the deals solved "
                                "so far (Ctrl-C again quits)", err=True)
            return asked.is_set()

        yield stop


# ------------------------------------------------------------------------------ deal
@app.command("deal")
def deal_cmd(
    count: int = typer.Option(1, "--count", "-n", help="How many deals."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed (random when omitted)."),
    rules: Optional[str] = typer.Option(None, "--rules", "-r",
                                        help="Preset (sets the deck; default: tournament)."),
    length: Optional[int] = typer.Option(None, "--length", help="Cards a hand (an endgame)."),
    as_json: bool = typer.Option(False, "--json",
                                 help='One JSON object a line, {"deal": PBN} (a batch job).'),
    pbn: bool = typer.Option(False, "--pbn",
                             help="A PBN file instead, as bridge programs read it: "
                                  "[Event], [Board], [Dealer], [Vulnerable] and [Deal] "
                                  "tags a board (`barbu solve --batch` reads it too)."),
) -> None:
    """Print random deals in PBN, one a line (feed them to `barbu solve --batch -`).
    Without --seed, the seed drawn is told on stderr, to deal the same again."""
    from analyzer.samples import fresh_seed, pbn_file, random_deals

    check_given({"rules": rules})
    if as_json and pbn:
        raise BarbuError("give --json or --pbn, not both")
    drawn = fresh_seed() if seed is None else seed
    deals = random_deals(count, drawn, rules, length)  # (the arguments checked first)
    if seed is None:
        typer.echo(f"note: seed {drawn} (--seed {drawn} deals these again)", err=True)
    if pbn:
        for text in pbn_file(deals, drawn, rules, length):
            typer.echo(text, nl=False)
        return
    for d in deals:
        _emit({"deal": d}) if as_json else typer.echo(d)


# ------------------------------------------------------------------------------ score
@app.command()
def score(
    match_file: Path = typer.Argument(..., metavar="MATCH_FILE", help="Match sheet file (TOML; its format: docs/match-format.md in the barbu-dd sources)."),
    rules: Optional[str] = typer.Option(None, "--rules", "-r",
                                        help="Preset or rules file (default: the file's own, else tournament)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Score a match sheet: raw and net per hand, running totals, checks and the quota."""
    from analyzer.match import score_match
    from reports.sheet import render_match

    check_given({"rules": rules})
    result = score_match(match_file, rules)
    _emit(result.to_json()) if as_json else typer.echo(render_match(result))


# ------------------------------------------------------------------------------ stats
@app.command()
def stats(
    deals: int = typer.Option(..., "--deals", "-n", help="How many random deals (1 to 10,000,000)."),
    out: Path = typer.Option(..., "--out", "-o", help="Dataset directory (Parquet chunks)."),
    seed: int = typer.Option(0, "--seed", help="Seed: deal i depends only on (seed, i)."),
    rules: Optional[str] = typer.Option(None, "--rules", "-r",
                                        help="Preset name or rules file (default: tournament)."),
    contracts: Optional[str] = typer.Option(None, "--contracts",
                                            help="Comma-separated contracts (default: the preset's match)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w",
                                          help="Local processes (default or 0: all cores; 1: this process)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                            help="Run on an existing Dask cluster, e.g. tcp://host:8786."),
    cluster: Optional[str] = typer.Option(None, "--cluster", help="'local': start a local Dask cluster."),
    resume: bool = typer.Option(False, "--resume", help="Finish a stopped run in --out, without duplicates."),
    as_json: bool = typer.Option(False, "--json", help="Print the run summary as JSON."),
) -> None:
    """Solve every option of N random deals for every declarer into a Parquet dataset.

    Each deal is solved for each seat as declarer: every contract, every trump suit, every
    Dominoes starting rank (the declarer's guaranteed value), with hand features and
    doubling brackets. Chunks are written as they finish: a stopped run keeps them and
    --resume finishes it. On a terminal a bar shows the deals done and the solves made in
    the deals under way. Schema: docs/stats.md in the barbu-dd sources.
    """
    from analyzer.stats import run_stats
    from reports.text import rate_label, under_way_label

    check_given({"rules": rules, "contracts": contracts, "scheduler": scheduler,
                 "cluster": cluster})
    cluster = None if cluster is None else cluster.strip().lower()
    try:
        with Bar("deals", deals, show_pos=True, show_eta=True) as bar:
            started = []
            texts = {"rate": "", "under": ""}  # the bar's item: the rate, then the chunks

            def show(n: int = 0) -> None:
                bar.update(n, item="  ".join(t for t in texts.values() if t))

            def progress(done: int, total: int) -> None:
                if not started:  # a resumed run starts at the deals already done
                    started.append(True)
                    bar.skip(done)
                    bar.update(0)
                else:
                    texts["rate"] = rate_label(done - bar.base, bar.clock() - bar.t0, "deals")
                    show(done - bar.pos)

            def working(under: dict) -> None:
                texts["under"] = under_way_label(under)
                show()

            summary = run_stats(out, deals=deals, seed=seed, rules=rules, contracts=contracts,
                                workers=workers, scheduler=scheduler, cluster=cluster,
                                resume=resume, progress=progress, working=working,
                                warn=lambda line: bar.write_above(line, err=True))
    except KeyboardInterrupt:
        typer.echo(f"barbu: interrupted; finished chunks are kept in {out}: "
                   "run again with --resume to finish", err=True)
        sys.exit(130)
    except WorkerDied as e:
        typer.echo(f"barbu: error: {e}; finished chunks are kept in {out}: "
                   "run again with --resume to finish", err=True)
        sys.exit(1)
    if as_json:
        _emit(summary)
    else:
        from reports.text import render_stats_summary
        typer.echo(render_stats_summary(summary))


@app.command()
def report(
    data_dir: Path = typer.Argument(..., metavar="DATA_DIR", help="A dataset written by `barbu stats`."),
    out: Optional[Path] = typer.Option(None, "--out", "-o",
                                       help="Output file (default: report.html, report.md "
                                            "or report.png, by --format)."),
    fmt: Optional[str] = typer.Option(None, "--format", "-f",
                                      help="html (one self-contained page), md or png "
                                           "(default: by --out's extension, else html)."),
    as_json: bool = typer.Option(False, "--json", help='Print {"files": [the files written]}.'),
) -> None:
    """Tables and figures from a `barbu stats` dataset: HTML, Markdown or PNG."""
    from reports.html import build_report, report_format

    fmt = report_format(out, fmt)
    files = build_report(data_dir, out if out is not None else Path(f"report.{fmt}"), fmt)
    if as_json:
        _emit({"files": [str(p) for p in files]})
    else:
        for p in files:
            typer.echo(str(p))


# ------------------------------------------------------------------------------ rules
@rules_app.command("list")
def rules_list(as_json: bool = typer.Option(
        False, "--json",
        help='Print {"presets": [{"name": …, "where": …, "description": …}, …]}.')) -> None:
    """The presets: built-in ones, then yours ($BARBU_HOME/rules, else
    $XDG_CONFIG_HOME/barbu-dd/rules, by default ~/.config/barbu-dd/rules)."""
    from analyzer.rules import list_presets
    from reports.text import render_rules_list

    rows = list_presets()
    if as_json:
        _emit({"presets": [{"name": n, "where": w, "description": d} for n, w, d in rows]})
    else:
        typer.echo(render_rules_list(rows))


@rules_app.command("show")
def rules_show(name: str = typer.Argument("tournament", metavar="NAME", help="Preset name or rules file."),
               as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Show a preset: its TOML text, or with --json every contract's points resolved."""
    from analyzer.rules import describe, load_rules

    r = load_rules(name)
    _emit(describe(r)) if as_json else typer.echo(r.to_toml().rstrip())


@rules_app.command("save")
def rules_save(name: str = typer.Argument(..., metavar="NAME", help="Name to save it under (not a built-in preset's)."),
               file: Path = typer.Argument(..., metavar="FILE", help="The rules file (TOML) to validate and keep."),
               force: bool = typer.Option(False, "--force",
                                          help="Replace a preset of that name."),
               as_json: bool = typer.Option(False, "--json",
                                            help='Print {"name": …, "path": …, '
                                                 '"solver_refuses": […]}.')) -> None:
    """Validate a rules file and keep it under NAME, usable everywhere as --rules NAME
    (an existing preset of that name is replaced only with --force). Contracts that
    score a match sheet but that the solver cannot play are named on stderr."""
    from analyzer.compile import solver_refusals
    from analyzer.rules import load_rules, save_rules

    dest = save_rules(name, file, replace=force)
    refused = solver_refusals(load_rules(name))
    _emit({"name": name, "path": str(dest), "solver_refuses": refused}) if as_json \
        else typer.echo(f"saved {name} to {dest}")
    for line in refused:
        typer.echo(f"note: {line}: barbu score takes it, solve, advise and stats do not",
                   err=True)


# ------------------------------------------------------------------------------ main
def _close_options(msg: str) -> str:
    """click's "No such option: --x (Possible options: …)" keeping only the options
    close to the one given ("--bogus" was offered "--out")."""
    m = re.fullmatch(r"No such option: (\S+) \((?:Possible options: (.*)|Did you mean (\S+)\?)\)",
                     msg)
    if not m:
        return msg
    given = m.group(1).lstrip("-")
    offered = [o.strip() for o in (m.group(2) or m.group(3)).split(",")]
    score = {o: difflib.SequenceMatcher(None, given, o.lstrip("-")).ratio() for o in offered}
    close = sorted((o for o in offered  # (or the start of one: --dec for --declarer)
                    if score[o] >= 0.7 or (len(given) >= 3 and o.lstrip("-").startswith(given))),
                   key=lambda o: -score[o])
    head = f"No such option: {m.group(1)}"
    if not close:
        return head
    return f"{head} (did you mean {' or '.join(close)}?)"


def _compile_notice() -> None:
    """On a terminal, a note before the kernels are compiled (the first search after
    installing sits a minute with nothing else to show); elsewhere nothing."""
    try:
        tty = sys.stderr is not None and sys.stderr.isatty()
    except (ValueError, OSError):  # (a closed stderr)
        tty = False
    if tty:
        from analyzer import kernels
        kernels.NOTICE = Bar.note  # (above a progress bar already drawn)


def _fit_output() -> None:
    """Standard output that cannot take the suit symbols (a cp1252 or Latin-1 console or
    file) gets the letters S H D C instead, and any other character it lacks replaced,
    rather than a UnicodeEncodeError after the work is done. Closed standard output is an
    error up front: the results would be lost without a word."""
    out = sys.stdout
    if out is None:
        typer.echo("barbu: error: standard output is closed: nowhere to write the "
                   "results", err=True)
        sys.exit(1)
    try:
        "♠♥♦♣".encode(getattr(out, "encoding", None) or "utf-8")
    except UnicodeEncodeError:
        from reports.text import SUIT_SYMBOL
        SUIT_SYMBOL.update({s: s for s in SUIT_SYMBOL})
        try:
            out.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass
    except LookupError:
        pass


def _check_args(cmd: Any, args: list[str]) -> None:
    """Refused before the command runs: an option given twice (``-c no-king -c
    no-queens`` asks two questions, and click would answer the last one only), unless it
    is repeatable; and empty text as an option's value or an argument."""
    group = cmd
    i = 0
    while hasattr(group, "commands") and i < len(args):  # the (sub)command named
        nxt = group.commands.get(args[i]) if not args[i].startswith("-") else None
        if nxt is None:
            if args[i].startswith("-"):
                i += 1
                continue
            return
        group, i = nxt, i + 1
    names = {}
    valued = {}  # the options that take a value, by flag: their long name
    for p in getattr(group, "params", []):
        if getattr(p, "param_type_name", "") != "option":
            continue
        if not getattr(p, "is_flag", False) and not getattr(p, "count", False):
            long = next((o for o in p.opts if o.startswith("--")), p.opts[0])
            valued.update({o: long for o in p.opts})
        if not getattr(p, "multiple", False) and not getattr(p, "count", False):
            for o in (*p.opts, *p.secondary_opts):
                names[o] = p.name
    # empty text: a path option or argument would read it as "." (the current folder),
    # the others as "not given"
    for k, a in enumerate(args[i:], i):
        if a == "--":
            break
        flag, eq, val = a.partition("=")
        if a.startswith("--") and eq and not val and flag in valued:
            raise BarbuError(f"empty {valued[flag]}: give a value, or leave the option out")
        if a == "":
            prev = args[k - 1] if k > i else ""
            if prev in valued:
                raise BarbuError(f"empty {valued[prev]}: give a value, or leave the option "
                                 "out")
            raise BarbuError("an empty argument: give a value")
    seen: dict[str, str] = {}
    for a in args[i:]:
        if a == "--":
            break
        flag = a.split("=", 1)[0] if a.startswith("--") else a
        if not a.startswith("--") and a[:2] in names:  # -cno-king: -c with its value
            flag = a[:2]
        if flag in names:
            name = names[flag]
            if name in seen:
                raise BarbuError(f"{flag} is given twice: give it once" if flag == seen[name]
                                 else f"{seen[name]} and {flag} name one option, given "
                                      "twice: give it once")
            seen[name] = flag


#: OSError numbers that mean "the output cannot be written" (other OSErrors are named
#: as they are)
_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG, errno.EBADF,
                 errno.EROFS}


class _Terminated(BaseException):
    """SIGTERM (``kill``): unwinds like Ctrl-C, so that worker pools are stopped."""


def _on_term(signum: int, frame: Any) -> None:
    raise _Terminated()


def main(argv: list[str] | None = None) -> None:
    """Entry point: one-line errors, exit status 2 for bad input."""
    try:
        signal.signal(signal.SIGTERM, _on_term)
    except ValueError:  # (main called from another thread: keep the default)
        pass
    _fit_output()
    _compile_notice()
    cmd = typer.main.get_command(app)
    try:
        _check_args(cmd, list(sys.argv[1:] if argv is None else argv))
    except BarbuError as e:
        typer.echo(f"barbu: error: {e}", err=True)
        sys.exit(2)
    try:
        rv = cmd.main(args=argv, prog_name="barbu", standalone_mode=False)
    except SystemExit as e:
        # click answers a closed pipe (`barbu deal | head -1`) with exit status 1 after
        # wrapping stdout to silence it; the reader simply had enough: 0, as below
        if e.code == 1 and type(sys.stdout).__name__ == "PacifyFlushWrapper":
            sys.exit(0)
        raise
    except BarbuError as e:  # one line, whatever text the user's input put in it
        msg = str(e).replace("\r", "\\r").replace("\n", "\\n")
        if len(msg) > 1000:  # (a huge value echoed: its start and the message's end)
            msg = f"{msg[:500]} ... ({len(msg):,} characters) ... {msg[-300:]}"
        typer.echo(f"barbu: error: {msg}", err=True)
        sys.exit(1 if isinstance(e, CannotWrite) else 2)
    except KeyboardInterrupt:
        typer.echo("barbu: interrupted", err=True)
        sys.exit(130)
    except _Terminated:
        typer.echo("barbu: terminated", err=True)
        sys.exit(143)
    except WorkerDied as e:  # not the input's fault: exit status 1
        typer.echo(f"barbu: error: {e}", err=True)
        sys.exit(1)
    except BrokenPipeError:
        sys.exit(0)
    except MemoryError as e:  # (numpy's allocation errors among them)
        typer.echo(f"barbu: error: out of memory: {' '.join(str(e).split())}", err=True)
        sys.exit(1)
    except OSError as e:
        where = f": {e.filename}" if e.filename else ""
        if e.errno == errno.ENAMETOOLONG:  # the input's fault: a path or name too long
            name = str(e.filename or "")
            name = name if len(name) <= 80 else f"{name[:60]}... ({len(name)} characters)"
            typer.echo(f"barbu: error: file name too long: {name}", err=True)
            sys.exit(2)
        if e.errno in _WRITE_ERRNOS:  # the output cannot be written (a full disk, /dev/full)
            try:
                sys.stdout = open(os.devnull, "w")  # nothing more to flush at exit
            except OSError:
                pass
            typer.echo(f"barbu: error: cannot write the output: {e.strerror or e}{where}",
                       err=True)
        else:  # (a library that cannot be loaded, under a memory limit say)
            typer.echo(f"barbu: error: {' '.join(str(e.strerror or e).split())}{where}",
                       err=True)
        sys.exit(1)
    except Exception as e:  # typer's (vendored) click errors, matched by shape
        name = type(e).__name__
        if name == "NoArgsIsHelpError":
            ctx = getattr(e, "ctx", None)
            typer.echo(ctx.get_help() if ctx is not None else str(e))
            sys.exit(0)
        if name == "Abort":
            typer.echo("barbu: aborted", err=True)
            sys.exit(130)
        if hasattr(e, "format_message") and hasattr(e, "exit_code"):
            msg = _close_options(" ".join(str(e.format_message()).split()))
            words = [a for a in (sys.argv[1:] if argv is None else argv)
                     if not a.startswith("-")]
            # (the hint only where a deal was split at its spaces: N:... unquoted)
            if ("unexpected extra argument" in msg and words[:1] == ["solve"]
                    and any(w[:2].upper() in ("N:", "E:", "S:", "W:")
                            or (w.count(".") == 3 and " " not in w) for w in words[1:])):
                msg += ' (a PBN deal has spaces: quote it, "N:... ... ... ...")'
            hint = " (see --help)" if getattr(e, "ctx", None) is not None else ""
            typer.echo(f"barbu: error: {msg}{hint}", err=True)
            sys.exit(e.exit_code)
        raise
    config = sys.modules.get("solvers.config")  # (loaded only by commands that solve)
    if config is not None and getattr(config, "CACHE_NOTE", None):
        typer.echo(config.CACHE_NOTE, err=True)
    if rv == 130:  # typer turns Ctrl-C inside a command into a returned 130
        typer.echo("barbu: interrupted", err=True)
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()

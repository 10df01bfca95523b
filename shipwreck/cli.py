"""The ``shipwreck`` command: ``sim``, ``scenario run`` (and, later, ``serve``, ``play``, …)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from shipwreck import _native
from shipwreck.engine.core import ChoosesFleets
from shipwreck.games import games, get_ruleset, registry


def _cmd_sim(args: argparse.Namespace) -> int:
    from shipwreck.sim import check_seats, default_seats, format_summary, simulate

    if args.games < 1:
        print("shipwreck sim: --games must be at least 1", file=sys.stderr)
        return 2
    seats = args.seats or default_seats(args.game)
    try:
        check_seats(args.game, seats)
    except ValueError as e:
        print(f"shipwreck sim: {e}", file=sys.stderr)
        return 2
    if args.trace and not args.bots:
        print("shipwreck sim: --trace needs --bots (whose decisions to show)", file=sys.stderr)
        return 2
    if args.trace:
        return _sim_trace(args, seats)
    if args.bots:
        from shipwreck.lang.bots import BotError
        from shipwreck.sim import format_bot_summary, simulate_bots

        try:
            options = _sim_options(args, seats)
            bots = simulate_bots(
                args.game,
                args.games,
                args.bots.split(","),
                args.seed,
                seats,
                timed=args.times,
                options=options,
            )
        except (BotError, ValueError) as e:
            print(f"shipwreck sim: {e}", file=sys.stderr)
            return 2
        for line in format_bot_summary(bots, times=args.times):
            print(line)
        return 0
    summary = simulate(args.game, args.games, args.seed, seats)
    for line in format_summary(summary, args.game):
        print(line)
    return 0


def _sim_options(args: argparse.Namespace, seats: int) -> dict[str, object] | None:
    """``sim --fleets``: each seat's preset fleet, as the game's ``fleet_options`` makes the
    table options of them (ValueError, one line, for a game without fleets or a bad name)."""
    if not args.fleets:
        return None
    rules = get_ruleset(args.game)
    if not isinstance(rules, ChoosesFleets):
        raise ValueError(f"--fleets: {args.game} has no fleets to choose")
    try:
        options = rules.fleet_options(seats, args.fleets.split(","))
    except ValueError as e:
        raise ValueError(f"--fleets: {e}") from None
    return options


def _sim_trace(args: argparse.Namespace, seats: int) -> int:
    """``sim --bots … --trace SEAT|BOT [--game-no N]`` (:mod:`shipwreck.sim_trace`)."""
    from shipwreck.sim_trace import BotError, trace_game

    try:
        options = _sim_options(args, seats)
        lines = trace_game(
            args.game, args.bots.split(","), args.seed, seats, args.game_no, args.trace, options
        )
    except (BotError, ValueError) as e:
        print(f"shipwreck sim: {e}", file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    return 0


def _cmd_arena(args: argparse.Namespace) -> int:
    from shipwreck.arena.command import run

    return run(args)


def _arena_arguments(p: argparse.ArgumentParser) -> None:
    from shipwreck.arena.command import add_arguments

    add_arguments(p)


def _cmd_bot_check(args: argparse.Namespace) -> int:
    from pathlib import Path

    from shipwreck.lang.bots.lint import Finding, check_source
    from shipwreck.lang.bots.registry import header_name

    errors = 0
    named: dict[str, tuple[str, str]] = {}
    for f in args.files:
        try:
            source = Path(f).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            print(f"{f}:1:1: error: cannot read: {e}")
            errors += 1
            continue
        findings = check_source(source, f)
        name = header_name(source)  # (a bot goes by its header's name: one name, one bot)
        first, known = named.setdefault(name or "", (f, source))
        if name and known != source:
            why = f"{first} is called {name!r} too; rename one in its first line"
            findings.append(Finding(f, 1, 1, "error", why))
        for finding in findings:
            print(finding)
        n = sum(1 for x in findings if x.level == "error")
        errors += n
        if not findings:
            print(f"{f}: ok")
    return 1 if errors else 0


def _cmd_scenario_run(args: argparse.Namespace) -> int:
    from shipwreck import scenario

    try:
        sc = scenario.load(args.file)
        result = scenario.run(sc)
        seat = None if args.as_seat is None else scenario.seat_number(sc, result, args.as_seat)
    except scenario.ScenarioError as e:
        print(f"shipwreck scenario: {e}", file=sys.stderr)
        return 2
    if args.json:
        out = dict(result.summary)
        out["log"] = scenario.log_lines(result, seat)
        if result.error:
            out["error"] = result.error
        print(json.dumps(out, indent=2))
    else:
        for line in scenario.log_lines(result, seat):
            print(line)
        print("--")
        s = result.summary
        report = registry.get(sc.game).summary_lines
        for line in report(s) if report is not None else []:
            print(line)
    if result.error:
        print(result.error, file=sys.stderr)
        return 2
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    """The app in this terminal against bots: no server, no setup."""
    import getpass

    from shipwreck.lang.bots import BotError, is_bot_name
    from shipwreck.lang.bots.checked import load_named
    from shipwreck.runtime import Lobby, SeatSpec, TableCreateError
    from shipwreck.tui import ShipwreckApp
    from shipwreck.tui._textual import install_patches

    install_patches()  # the Textual the server runs (off ones are in the report, not shown here)
    lobby = Lobby(seed=args.seed)
    user = args.name or getpass.getuser() or "player"
    if args.tutorial is not None:
        try:
            tutorial = lobby.create_tutorial(args.tutorial, user)
        except TableCreateError as e:
            print(f"shipwreck play: {e}", file=sys.stderr)
            return 2
        ShipwreckApp(lobby, user, open_table=tutorial.id, local=True).run()
        return 0
    default = registry.default_game()
    words = args.bots.split(",") if args.bots else list(default.default_bots)
    game = default.name
    try:  # checked as `bot check` checks it, each named by its header (as sim and arena do)
        scripts = load_named(game, words)
    except BotError as e:
        print(f"shipwreck play: {e}", file=sys.stderr)
        return 2
    bots = [s.bot_name for s in scripts]
    for word, script in zip(words, scripts, strict=True):
        if not is_bot_name(word):  # the local user's own file: seated by its name (BotBook)
            lobby.book.local[script.bot_name] = script
    seats = [SeatSpec("human")] + [
        SeatSpec("bot", bots[i % len(bots)]) for i in range(args.seats - 1)
    ]
    try:
        table = lobby.create_table(game, seats, creator=user, seed=args.seed)
    except TableCreateError as e:
        print(f"shipwreck play: {e}", file=sys.stderr)
        return 2
    ShipwreckApp(lobby, user, open_table=table.id, local=True).run()
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    """The SSH game server on server.toml's settings (flags override the file)."""
    import asyncio
    import logging

    from shipwreck.config import ConfigError, load_server_config
    from shipwreck.server.textual_pin import installed_textual_problem

    problem = installed_textual_problem()
    if problem:
        print(f"shipwreck serve: {problem}", file=sys.stderr)
        return 2
    from shipwreck.server.exclusive import AlreadyServed
    from shipwreck.server.service import serve, setup_logging
    from shipwreck.server.ssh import HostKeyError

    warnings: list[str] = []
    try:
        config = load_server_config(args.config, warnings.append)
    except ConfigError as e:
        print(f"shipwreck serve: {e}", file=sys.stderr)
        return 2
    if args.port is not None:
        config.server.port = args.port
    if args.db is not None:
        config.server.database = args.db
    if args.host_key is not None:
        config.server.host_key = args.host_key
    if args.listen is not None:
        config.server.listen = args.listen
    if args.bus is not None:
        config.cluster.bus = args.bus
    if args.worker is not None:
        config.cluster.worker = args.worker
    setup_logging(config.server.log_file, config.cluster.worker)
    if args.workers:
        return _run_workers(args, config.server.database, config.server.listen, config.server.port)
    for warning in warnings:
        logging.getLogger("shipwreck").warning("%s", warning)
    try:
        with _own_database(config.server.database, shared=bool(config.cluster.bus)):
            asyncio.run(serve(config))
    except KeyboardInterrupt:  # (a second Ctrl+C while stopping)
        pass
    except (HostKeyError, AlreadyServed) as e:
        print(f"shipwreck serve: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"shipwreck serve: {e}", file=sys.stderr)
        return 1
    logging.getLogger("shipwreck").info("stopped")
    return 0


def _own_database(database: str, shared: bool) -> contextlib.AbstractContextManager[object]:
    """The lock a server that owns every table of its database holds on it (server/exclusive.py):
    not for servers joined by a bus (``shared``: their leases are on it), nor for a database
    URL (servers on several machines share PostgreSQL through a bus)."""
    from shipwreck.server.exclusive import DatabaseLock
    from shipwreck.store.sql import is_database_url

    if shared or is_database_url(database):
        return contextlib.nullcontext()
    return DatabaseLock(database)


def _run_workers(args: argparse.Namespace, database: str, listen: str, port: int) -> int:
    """``serve --workers N``: the supervisor (server/workers.py); the workers do the serving."""
    from shipwreck.server.exclusive import AlreadyServed, check_port_free
    from shipwreck.server.workers import Supervisor
    from shipwreck.store.sql import is_database_url

    if args.workers < 1:
        print("shipwreck serve: --workers N needs N of 1 or more", file=sys.stderr)
        return 2
    if args.bus is not None:
        print(
            "shipwreck serve: --workers starts its own bus; use --bus URL without --workers"
            " to join another's",
            file=sys.stderr,
        )
        return 2
    base = Path(".") if is_database_url(database) else Path(database).parent
    serve_args = args.words[args.words.index("serve") + 1 :]
    try:
        check_port_free(listen, port)  # (the workers will share it: no one else may)
        with _own_database(database, shared=False):
            return Supervisor(args.workers, serve_args, base / "nats").run()
    except AlreadyServed as e:
        print(f"shipwreck serve: {e}", file=sys.stderr)
        return 2


def _open_game(source: str, db: str) -> object:
    """A game file path, or a table id in the database."""
    from shipwreck import replay
    from shipwreck.store import Store

    if source.isdigit() and not Path(source).exists():
        if not Path(db).exists():
            raise replay.ReplayError(f"no database at {db}; pass --db PATH")
        return replay.export_table(Store(db), int(source))
    return replay.read(source)


def _cmd_export(args: argparse.Namespace) -> int:
    from shipwreck import replay

    try:
        gf = _open_game(str(args.table), args.db)
    except replay.ReplayError as e:
        print(f"shipwreck export: {e}", file=sys.stderr)
        return 2
    assert isinstance(gf, replay.GameFile)
    out = args.output or f"table-{gf.table_id}.json"
    replay.write(gf, out)
    print(f"wrote {out}: {gf.game}, seed {gf.seed}, {len(gf.commands)} commands")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from shipwreck import replay
    from shipwreck.tui.replay import ReplayApp

    try:
        gf = _open_game(args.source, args.db)
        assert isinstance(gf, replay.GameFile)
        final = replay.table_at(gf)
    except replay.ReplayError as e:
        print(f"shipwreck replay: {e}", file=sys.stderr)
        return 2
    if args.as_seat is not None and not final.over:
        print(
            "shipwreck replay: --as shows a seat's secrets, so only once the game is over",
            file=sys.stderr,
        )
        return 2
    seat = args.as_seat - 1 if args.as_seat is not None else None
    ReplayApp(gf, seat).run()
    return 0


def version_line() -> str:
    """``shipwreck 0.1.0 (engine: compiled with mypyc)``: which engine runs is worth knowing
    when a figure is compared (``shipwreck/_native.py``)."""
    try:
        number = metadata.version("shipwreck")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        number = "(not installed)"
    return f"shipwreck {number} (engine: {_native.build()})"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="shipwreck", description="Hidden-information sea games.")
    p.add_argument("--version", action="version", version=version_line())
    sub = p.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("sim", help="play whole games headless with random legal moves")
    sim.add_argument("--game", choices=games(), default=registry.default_game().name)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument(
        "--seats",
        type=int,
        default=None,
        help="seats per game (default: 6 Lifeboat, 2 Spanish Main)",
    )
    sim.add_argument(
        "--bots", default="", help="comma-separated bot scripts, cycled over the seats"
    )
    sim.add_argument(
        "--times",
        action="store_true",
        help="with --bots: each script's decision times (ms: 50th, 90th, 99th percentile, max)",
    )
    sim.add_argument(
        "--trace",
        default="",
        metavar="SEAT|BOT",
        help="with --bots: print one game's decisions for a seat (1-6) or a bot: file:line,"
        " the command, and why a default was played",
    )
    sim.add_argument(
        "--game-no", type=int, default=1, metavar="N", help="with --trace: game N (default 1)"
    )
    sim.add_argument(
        "--fleets",
        default="",
        metavar="NAME,…",
        help="with --bots, Spanish Main: each seat's preset fleet, seat by seat (e.g."
        " navy,armada); 'crewed': the crewed presets, as 'new sm N fleet' deals them",
    )
    sim.set_defaults(func=_cmd_sim)

    arena = sub.add_parser(
        "arena",
        help="a rated tournament between bots: league table, ratings (docs/arena.md)",
        description="Play seeded games between bots, the seats rotating, rate every bot"
        " (openskill) and print a league table.",
    )
    _arena_arguments(arena)
    arena.set_defaults(func=_cmd_arena)

    serve = sub.add_parser(
        "serve",
        help="run the SSH game server (settings: server.toml)",
        description="Run the SSH game server: players connect with 'ssh -p PORT NAME@HOST',"
        " and their first key keeps their name. Settings come from a TOML file (the project's"
        " server.toml lists them all); the flags below override it. Ctrl+C stops it.",
    )
    serve.add_argument(
        "--config",
        default="server.toml" if Path("server.toml").exists() else None,
        metavar="FILE",
        help="settings file (default: server.toml in this folder, if there is one; else the"
        " built-in settings)",
    )
    serve.add_argument(
        "--port", type=int, default=None, help="port to listen on (default: the file's, or 2222)"
    )
    serve.add_argument(
        "--db",
        default=None,
        metavar="FILE",
        help="SQLite file for players, tables and saved bots (default: shipwreck.db), or a"
        " postgresql:// URL (the 'postgres' extra)",
    )
    serve.add_argument(
        "--host-key",
        default=None,
        metavar="FILE",
        help="the server's SSH host key, made on first start (default: shipwreck_host_key)",
    )
    serve.add_argument(
        "--listen",
        default=None,
        metavar="ADDRESS",
        help="address to listen on (default: 127.0.0.1, this machine only; 0.0.0.0 for all)",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=0,
        metavar="N",
        help="run N worker processes on the port, joined by a NATS server started here"
        " (needs the 'workers' extra; see docs/deploy.md)",
    )
    serve.add_argument(
        "--bus",
        default=None,
        metavar="URL",
        help="join the workers of an existing NATS server (nats://HOST:PORT) as one more",
    )
    serve.add_argument(
        "--worker", default=None, metavar="NAME", help="this worker's name on the bus"
    )
    serve.set_defaults(func=_cmd_serve)

    export = sub.add_parser("export", help="write a table's game file (seed, seats, command log)")
    export.add_argument("table", type=int)
    export.add_argument("--db", default="shipwreck.db")
    export.add_argument("-o", "--output", default="")
    export.set_defaults(func=_cmd_export)

    rep = sub.add_parser("replay", help="step through a game file or a table in the app")
    rep.add_argument("source", help="a game file, or a table id in --db")
    rep.add_argument("--db", default="shipwreck.db")
    rep.add_argument("--as", dest="as_seat", type=int, default=None, help="seat N (1-6), once over")
    rep.set_defaults(func=_cmd_replay)

    play = sub.add_parser(
        "play",
        help="play in this terminal against bots, no server (Lifeboat; 'new sm' for Spanish Main)",
        description="Play in this terminal, with no server: a Lifeboat table against bots opens"
        " at once; Escape goes to the lobby, where 'new sm' starts Spanish Main, 'new' another"
        " Lifeboat table and 'help' lists the rest. Nothing is kept after you quit.",
    )
    play.add_argument(
        "--seats",
        type=int,
        default=6,
        choices=(4, 5, 6),
        help="seats at the first Lifeboat table, yours included (default: 6)",
    )
    play.add_argument(
        "--bots",
        default="",
        metavar="BOT,...",
        help="who plays the other seats, in turn: shipped bots (random, survivor, loyal,"
        " predator, hoarder) or your own .bot files (default: the five shipped bots)",
    )
    play.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the table's seed: the same seed and moves make the same game (default: random)",
    )
    play.add_argument(
        "--name", default="", help="your name at the table (default: your login name)"
    )
    play.add_argument(
        "--tutorial",
        nargs="?",
        const=registry.default_game().name,
        default=None,
        metavar="GAME",
        help="a short game with a coach: Lifeboat, or 'sm' for Spanish Main",
    )
    play.set_defaults(func=_cmd_play)

    bot = sub.add_parser("bot", help="bot scripts (docs/bots.md)")
    bot_sub = bot.add_subparsers(dest="bot_command", required=True)
    check = bot_sub.add_parser("check", help="lint bot scripts; exit 1 on errors")
    check.add_argument("files", nargs="+")
    check.set_defaults(func=_cmd_bot_check)

    sc = sub.add_parser("scenario", help="scenario files (docs/scenarios.md)")
    sc_sub = sc.add_subparsers(dest="scenario_command", required=True)
    run = sc_sub.add_parser("run", help="play a scenario; print the log and the final state")
    run.add_argument("file")
    run.add_argument("--json", action="store_true", help="one JSON object on stdout")
    run.add_argument(
        "--as",
        dest="as_seat",
        metavar="N",
        default=None,
        help="show the log seat N may see (0 = the first of `seats`), or name its character",
    )
    run.set_defaults(func=_cmd_scenario_run)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(words)
    args.words = words  # (``serve --workers`` gives its workers the same flags)
    try:
        code: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``shipwreck sim | head``): stop quietly, as other tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE
    return code


if __name__ == "__main__":
    sys.exit(main())

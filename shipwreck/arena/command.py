"""``shipwreck arena``: its arguments, and running it (cli.py only adds the subcommand)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from shipwreck.games import games
from shipwreck.games.registry import default_game

if TYPE_CHECKING:  # the arena's modules load when it runs, not whenever the parser is built
    from shipwreck.arena.match import ArenaBot
    from shipwreck.arena.tournament import Tournament


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("bots", nargs="*", metavar="BOT", help="shipped bot names or .bot files")
    p.add_argument("--game", choices=games(), default=default_game().name)
    p.add_argument("--games", type=int, default=100, help="games to play (default: 100)")
    p.add_argument("--seed", type=int, default=1, help="game g has seed SEED + g (default: 1)")
    p.add_argument("--seats", type=int, default=None, help="seats a game (default: the game's)")
    p.add_argument(
        "--workers", type=int, default=1, help="play in K processes (same results for any K)"
    )
    p.add_argument(
        "--cluster",
        default="",
        metavar="ADDRESS",
        help="play on the Dask cluster whose scheduler is at ADDRESS (pip install"
        " 'shipwreck[cluster]'; docs/arena.md)",
    )
    p.add_argument(
        "--trace",
        default="",
        metavar="SEAT|BOT",
        help="play no tournament: print game N's decisions for a seat or a bot (--game-no N)",
    )
    p.add_argument(
        "--game-no", type=int, default=1, metavar="N", help="with --trace: game N (default 1)"
    )
    p.add_argument("--json", default="", metavar="FILE", help="write every game's record")
    p.add_argument("--plot", default="", metavar="FILE.svg", help="chart rating against games")
    p.add_argument(
        "--rerate", default="", metavar="FILE", help="rate the games of a --json file, no play"
    )
    p.add_argument(
        "--replay",
        default="",
        metavar="FILE",
        help="play the games of a --json file again and say whether any came out different",
    )


def _fail(message: str) -> int:
    print(f"shipwreck arena: {message}", file=sys.stderr)
    return 2


@contextmanager
def _progress(total: int, shown: bool) -> Iterator[Callable[[int], None]]:
    """A Rich progress bar (games done, rate, time left) on a terminal; nothing otherwise."""
    if not shown:
        yield lambda n: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=total, rate="")
        start = time.perf_counter()
        done = 0

        def advance(n: int) -> None:
            nonlocal done
            done += n
            rate = done / max(time.perf_counter() - start, 1e-9)
            bar.update(task, advance=n, rate=f"{rate:.1f} games/s")

        yield advance


def _report(t: Tournament, args: argparse.Namespace, workers: str) -> int:
    """Write the files asked for (first: a long tournament is not lost to a closed pipe), then
    print the league table."""
    from shipwreck.arena.league import format_league, league
    from shipwreck.arena.tournament import save

    lg = league(t)
    failed = ""
    try:
        if args.json:
            save(t, args.json)
        if args.plot:
            from shipwreck.arena.plot import svg

            title = f"{t.game}: rating against games played ({len(t.games)} games)"
            Path(args.plot).write_text(svg(lg.history, title), encoding="utf-8")
    except OSError as e:
        failed = f"cannot write {e.filename}: {e.strerror}"
    lines = format_league(t, lg)
    if t.seconds:
        rate = len(t.games) / t.seconds
        lines.append(
            f"games={len(t.games)} seconds={t.seconds:.3f} games_per_s={rate:.1f} {workers}"
        )
    try:
        print("\n".join(lines), flush=True)
    except BrokenPipeError:  # `| head`: the reader has gone; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return _fail(failed) if failed else 0


def _unwritable(*paths: str) -> str:
    """Why one of these output files could not be written, before any game is played."""
    for p in paths:
        if p and not Path(p).resolve().parent.is_dir():
            return f"cannot write {p}: its folder does not exist"
    return ""


def _trace(args: argparse.Namespace, bots: list[ArenaBot], seats: int) -> int:
    """``--trace SEAT|BOT [--game-no N]``: game N of this tournament, one seat's or one bot's
    decisions (the same game the tournament plays as game N)."""
    from shipwreck.arena.match import compiled
    from shipwreck.sim_trace import trace_scripts

    scripts = [compiled(b.source, b.path) for b in bots]
    try:
        lines = trace_scripts(
            args.game, scripts, [b.name for b in bots], args.seed, seats, args.game_no, args.trace
        )
    except ValueError as e:
        return _fail(str(e))
    print("\n".join(lines))
    return 0


def run(args: argparse.Namespace) -> int:
    from shipwreck.arena.run import ClusterError
    from shipwreck.arena.tournament import load, load_bots, play, replay
    from shipwreck.lang.bots import BotError
    from shipwreck.sim import check_seats, default_seats

    shown = sys.stdout.isatty()
    if args.rerate or args.replay:
        try:
            t = load(args.rerate or args.replay)
        except ValueError as e:
            return _fail(str(e))
        if args.rerate:
            t.seconds = 0.0
            return _report(t, args, "")
        with _progress(len(t.games), shown) as advance:
            changed = replay(t, max(1, args.workers), advance)
        if changed:
            shown_games = ", ".join(str(n) for n in changed[:10])
            print(f"{len(changed)} of {len(t.games)} games came out different: {shown_games}")
            return 1
        print(f"all {len(t.games)} games came out the same")
        return 0
    if len(args.bots) < 1:
        return _fail("name at least one bot, e.g. shipwreck arena hoarder random")
    if args.games < 1:
        return _fail("--games must be at least 1")
    if args.workers < 1:
        return _fail("--workers must be at least 1")
    seats = args.seats or default_seats(args.game)
    try:
        check_seats(args.game, seats)
        bots = load_bots(args.game, args.bots)
    except (ValueError, BotError) as e:
        return _fail(str(e))
    if args.trace:
        return _trace(args, bots, seats)
    if why := _unwritable(args.json, args.plot):
        return _fail(why)
    where = f"cluster={args.cluster}" if args.cluster else f"workers={args.workers}"
    try:
        with _progress(args.games, shown) as advance:
            t = play(
                args.game, bots, args.games, args.seed, seats, args.workers, args.cluster, advance
            )
    except ClusterError as e:
        return _fail(str(e))
    return _report(t, args, where)

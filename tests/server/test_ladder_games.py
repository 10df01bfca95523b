"""Background ladder games for saved bots: a real server, bots saved over real SSH, games played
in a worker process, rated in the real SQLite store, listed by ``ssh host ladder`` and told by
``ssh host bot status NAME``; the choice of the next bot (fewest games, per-owner limit, a cap
per script, a script saved again starts afresh); a script that no longer compiles is set
aside; and the server's loop keeps its turns while the games are played."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest

from shipwreck.arena.ladder_game import LadderJob, play_ladder_game, seating
from shipwreck.bus import Bus
from shipwreck.bus.nats_server import NatsServer
from shipwreck.config import ClusterSection, Config, ConfigError, LadderSection, load_server_config
from shipwreck.resources import bots_dir
from shipwreck.runtime.ownership import LADDER_LEASE, while_held
from shipwreck.server.ladder_games import LadderGames
from shipwreck.store import Entrant, Store
from shipwreck.tasks import stop_task

from sshclient import loopback_config, running

ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")
BOB_KEY = asyncssh.generate_private_key("ssh-ed25519")

ROWER = (bots_dir() / "loyal.bot").read_text().replace('bot "Loyal"', 'bot "Rower"', 1)
HAULER = (bots_dir() / "sm_hauler.bot").read_text().replace('"SM Hauler"', '"Hauler"', 1)


async def ssh(port: int, user: str, key: asyncssh.SSHKey, command: str, data: str = "") -> str:
    async with asyncssh.connect(
        "127.0.0.1",
        port,
        username=user,
        client_keys=[key],
        known_hosts=None,
        config=None,
        agent_path=None,
    ) as conn:
        done = await asyncio.wait_for(conn.run(command, input=data), 30)
    return f"{done.exit_status}\n{done.stdout}"


def fast(config: Config, games_per_bot: int = 3) -> Config:
    """Background games every 0.1 s (the shipped default is two a minute)."""
    config.ladder = LadderSection(
        games_per_minute=600, games_per_bot=games_per_bot, games_per_owner_per_hour=3600
    )
    return config


async def test_a_saved_bot_plays_ladder_games_in_the_background_and_joins_the_ladder(
    tmp_path: Path,
) -> None:
    """ann saves a Lifeboat bot and a Spanish Main bot over SSH; the server plays each one's
    three games in a worker process, rates them, and stops at the cap; ``ladder`` lists them
    and ``bot status`` tells their place and games. Meanwhile no turn of the server's loop
    took more than 0.3 s (a Spanish Main game played on the loop takes about 0.7 s)."""
    config = fast(loopback_config(tmp_path))
    async with running(config) as svc:
        games = svc.ladder_games
        assert games is not None
        said = await ssh(svc.port, "ann", ANN_KEY, "bot status rower")
        assert (
            said == "1\nshipwreck: you have no saved bot 'rower'; save one: bot save NAME < FILE\n"
        )
        assert (await ssh(svc.port, "ann", ANN_KEY, "bot save rower", ROWER)).startswith("0\n")
        assert (await ssh(svc.port, "ann", ANN_KEY, "bot save hauler", HAULER)).startswith("0\n")
        longest = 0.0
        async with asyncio.timeout(120):
            while True:
                runs = svc.store.ratings.ladder_runs()
                if all(runs.get(n) and runs[n].games >= 3 for n in ("ann/rower", "ann/hauler")):
                    break
                before = time.perf_counter()
                await asyncio.sleep(0.01)
                longest = max(longest, time.perf_counter() - before - 0.01)
        assert longest < 0.3, f"the loop lost a turn of {longest:.2f} s"
        await asyncio.sleep(10 * games.interval)
        assert games.played == 6  # three each, then no more: the cap
        rower = svc.store.ratings.get("lifeboat", Entrant("bot", "ann/rower"))
        assert rower is not None and rower.games == 3
        hauler = svc.store.ratings.get("spanish_main", Entrant("bot", "ann/hauler"))
        assert hauler is not None and hauler.games == 3
        history = svc.store.ratings.history("lifeboat", Entrant("bot", "ann/rower"))
        assert all(h.source.startswith("ladder game, seed ") for h in history)

        board = (await ssh(svc.port, "bob", BOB_KEY, "ladder")).splitlines()
        assert board[0] == "0"
        row = next(r for r in board if "ann/rower (bot)" in r)
        assert row.split()[-1] == "3"  # games
        sea = await ssh(svc.port, "bob", BOB_KEY, "ladder sm")
        assert "ann/hauler (bot)" in sea

        status = (await ssh(svc.port, "ann", ANN_KEY, "bot status rower")).splitlines()
        assert status[:2] == ["0", "bot rower (on the ladder as ann/rower)"]
        place = next(i for i, r in enumerate(board[3:], 1) if "ann/rower" in r)
        assert status[2].startswith(f"Lifeboat: #{place} of {len(board) - 3}, rating ")
        assert status[2].endswith(", 3 rated games")
        assert status[3] == "3 ladder games since it was last saved"
        assert status[4].startswith(("its last game's default moves: ", "its last game: every"))
        other = await ssh(svc.port, "bob", BOB_KEY, "bot status rower")
        assert other.startswith("1\nshipwreck: you have no saved bot 'rower'")  # ann's, not bob's
        bad = await ssh(svc.port, "ann", ANN_KEY, "bot status ../x")
        assert bad.startswith("2\nshipwreck: bot status NAME: NAME is lower-case letters")


async def test_with_background_games_off_nothing_plays_and_status_says_so(tmp_path: Path) -> None:
    config = loopback_config(tmp_path)
    config.ladder.games_per_minute = 0
    async with running(config) as svc:
        assert svc.ladder_games is None
        assert (await ssh(svc.port, "ann", ANN_KEY, "bot save rower", ROWER)).startswith("0\n")
        status = await ssh(svc.port, "ann", ANN_KEY, "bot status rower")
        assert status == (
            "0\nbot rower (on the ladder as ann/rower)\n"
            "this server plays no background ladder games ([ladder] games_per_minute = 0)\n"
        )
        assert "bot status NAME" in await ssh(svc.port, "ann", ANN_KEY, "help")


def _store_with_bots(tmp_path: Path, bots: dict[tuple[str, str], str]) -> Store:
    store = Store(str(tmp_path / "s.db"))
    for owner in {o for o, _ in bots}:
        store.identify(owner, f"SHA256:{owner}", f"ssh-ed25519 {owner}")
    for (owner, name), source in bots.items():
        store.save_bot(owner, name, source)
    return store


def test_the_next_bot_has_the_fewest_games_and_its_owner_a_game_left(tmp_path: Path) -> None:
    store = _store_with_bots(
        tmp_path, {("ann", "a"): ROWER, ("ann", "b"): ROWER, ("bob", "c"): ROWER}
    )
    now = [0.0]
    settings = LadderSection(games_per_owner_per_hour=2, games_per_bot=5)
    games = LadderGames(store, settings, seed=1, clock=lambda: now[0])
    first = games.choose()
    assert first is not None and first.entrant == "ann/a"  # (none has played: by name)
    second = games.choose()
    assert second is not None and second.entrant == "bob/c"  # ann's hour is used up
    assert games.choose() is None  # bob's too
    now[0] = 30 * 60.0  # half an hour later each owner has one game again
    from shipwreck.store.ratings import LadderRun

    saved = {(o, n): t for o, n, t in store.saved_bots()}
    store.ratings.record_run(LadderRun("ann/a", saved[("ann", "a")], "lifeboat", 5))
    store.ratings.record_run(LadderRun("ann/b", saved[("ann", "b")], "lifeboat", 2))
    nxt = games.choose()
    assert nxt is not None and nxt.entrant == "bob/c"  # no games: before ann/b's two
    nxt = games.choose()
    assert nxt is not None and nxt.entrant == "ann/b"  # ann/a is at the cap of five
    now[0] = 2 * 3600.0
    store.save_bot("ann", "a", ROWER + "\n# better now\n")  # saved again: starts afresh
    nxt = games.choose()
    assert nxt is not None and nxt.entrant == "ann/a"


async def test_a_script_that_no_longer_compiles_is_set_aside_until_saved_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """(A script saved by an older server whose language has changed: ``bot save`` checks every
    script, so one is put in the store directly here.) Its game is not played, the reason is
    kept for ``bot status``, and the ladder does not choose it again until it is saved again.
    (The ladder's clock is the test's: ann's games an hour are not what holds it back.)"""
    caplog.set_level(logging.INFO, logger="shipwreck.ladder")  # (why, if no run is recorded)
    store = _store_with_bots(tmp_path, {("ann", "old"): 'bot "Old" for lifeboat\non turn:\n  ??\n'})
    now = [0.0]
    games = LadderGames(
        store, LadderSection(games_per_owner_per_hour=3600), seed=1, clock=lambda: now[0]
    )
    try:
        assert games.start_next()
        async with asyncio.timeout(60):
            while games.playing:
                await asyncio.sleep(0.05)
    finally:
        await games.close()
    run = store.ratings.ladder_run("ann/old")
    assert run is not None, f"no run recorded; the ladder logged:\n{caplog.text}"
    assert run.error.startswith("ann/old:3:")
    assert run.games == 0 and games.played == 0
    assert store.ratings.board("lifeboat") == []  # nothing was rated
    now[0] += 3600.0  # (ann may have a game again: only the set-aside keeps it back)
    assert games.choose() is None
    from shipwreck.server.ladder_games import bot_status

    text, status = bot_status(store, "ann", "old", on=True)
    assert status == 0 and f"set aside, it does not play: {run.error}" in text
    assert "fix it, then: bot save old < FILE" in text
    store.save_bot("ann", "old", ROWER)
    chosen = games.choose()
    assert chosen is not None and chosen.entrant == "ann/old"


async def test_a_due_game_waits_while_the_loop_runs_late(tmp_path: Path) -> None:
    """Players first: while something keeps the server's loop busy (here a task that holds it
    0.15 s at a time), a due ladder game is held back, look after look; once the loop is on
    time again the game starts and is played."""
    store = _store_with_bots(tmp_path, {("ann", "rower"): ROWER})
    games = LadderGames(store, LadderSection(games_per_minute=600), seed=1)  # one due each 0.1 s
    games.PROBE = 0.05
    busy = True

    async def hog() -> None:
        while busy:
            time.sleep(0.15)  # (blocks the loop: what a stalled server does)
            await asyncio.sleep(0)

    hogging = asyncio.create_task(hog())
    runner = asyncio.create_task(games.run())
    try:
        await asyncio.sleep(2.0)
        assert games.held >= 2 and not games.playing and games.played == 0
        busy = False
        await hogging
        async with asyncio.timeout(60):
            while games.played == 0:
                await asyncio.sleep(0.05)
        run = store.ratings.ladder_run("ann/rower")
        assert run is not None and run.games >= 1 and not run.error
    finally:
        busy = False
        await stop_task(runner)
        await games.close()


def test_a_ladder_job_plays_the_same_game_every_time_with_the_saved_bot_seated_once() -> None:
    job = LadderJob("ann/rower", ROWER, 7, ("random", "hoarder", "sm_raider"))
    game = play_ladder_game(job)
    assert game.game == "lifeboat" and not game.error
    assert game.seats.count("ann/rower") == 1
    assert set(game.seats) - {"ann/rower"} <= {"random", "hoarder"}  # only its game's bots
    assert len(game.seats) == 6 and len(game.scores) == 6
    assert play_ladder_game(job) == game
    assert seating(6, 2, 7) == seating(6, 2, 7) and seating(6, 2, 7).count(0) == 1


def test_ladder_opponents_must_be_shipped_bots(tmp_path: Path) -> None:
    toml = tmp_path / "server.toml"
    toml.write_text('[ladder]\nopponents = ["random", "../../etc/passwd"]\n')
    with pytest.raises(ConfigError, match=r"\[ladder\] opponents: '../../etc/passwd' is not"):
        load_server_config(toml)


async def test_with_two_workers_one_plays_the_ladder_games_and_the_other_takes_over(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    """Two workers share one store and one bus, each with its background games run under the
    ladder's lease: only the holder plays (ann's bot plays its three games once, not twice);
    when the holder stops, the other plays bob's bot, saved afterwards."""
    bus_a, bus_b = buses
    store = _store_with_bots(tmp_path, {("ann", "rower"): ROWER})
    settings = LadderSection(games_per_minute=600, games_per_bot=3, games_per_owner_per_hour=3600)
    # (niceness 0: at the server's niceness of 19 the games wait for any other busy process on
    # the machine, as they should on a server, and this test is about the lease, not priority)
    games = {
        name: LadderGames(store, settings, seed=seed, niceness=0)
        for name, seed in (("a", 1), ("b", 2))
    }
    tasks = {
        name: asyncio.create_task(while_held(bus, LADDER_LEASE, name, games[name].run))
        for name, bus in (("a", bus_a), ("b", bus_b))
    }
    try:
        async with asyncio.timeout(60):
            while sum(g.played for g in games.values()) < 3:
                await asyncio.sleep(0.05)
            await asyncio.sleep(10 * games["a"].interval)  # (a second player would have played)
        assert sorted(g.played for g in games.values()) == [0, 3], "both workers played"
        rower = store.ratings.get("lifeboat", Entrant("bot", "ann/rower"))
        assert rower is not None and rower.games == 3
        holder = next(name for name, g in games.items() if g.played)
        other = next(name for name in games if name != holder)
        tasks.pop(holder).cancel()  # the holder stops (its lease handed back)
        store.identify("bob", "SHA256:bob", "ssh-ed25519 bob")
        store.save_bot("bob", "rower", ROWER)
        async with asyncio.timeout(60):
            while games[other].played < 3:
                await asyncio.sleep(0.05)
        bobs = store.ratings.get("lifeboat", Entrant("bot", "bob/rower"))
        assert bobs is not None and bobs.games == 3
        assert games[holder].played == 3, "the stopped worker went on playing"
    finally:
        for task in tasks.values():
            task.cancel()
        for task in tasks.values():
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for g in games.values():
            await g.close()
        store.close()


async def test_serve_with_a_bus_plays_the_ladder_games_on_one_worker_only(tmp_path: Path) -> None:
    """Two servers joined by a real NATS server, on one database: ann saves a bot on one;
    its three games are played once, by one of them (before, a worker played none)."""
    with NatsServer(tmp_path / "nats") as nats:
        configs = []
        for name in ("w1", "w2"):
            config = fast(loopback_config(tmp_path))
            config.server.host_key = str(tmp_path / f"host_key_{name}")
            config.cluster = ClusterSection(bus=nats.url, worker=name, heartbeat_seconds=0.2)
            configs.append(config)
        async with running(configs[0]) as one, running(configs[1]) as two:
            saved = await ssh(one.port, "ann", ANN_KEY, "bot save rower", ROWER)
            assert saved.startswith("0\n"), saved
            both = [svc.ladder_games for svc in (one, two)]
            assert all(g is not None for g in both), "a worker plays no ladder games"
            async with asyncio.timeout(60):
                while sum(g.played for g in both if g is not None) < 3:
                    await asyncio.sleep(0.05)
            await asyncio.sleep(10 * both[0].interval if both[0] is not None else 0)
            assert sorted(g.played for g in both if g is not None) == [0, 3]


LADDER_WHILE_AN_APP_RUNS = """
import asyncio, sys, tempfile
from pathlib import Path
from textual.app import App
from shipwreck.config import LadderSection
from shipwreck.resources import bots_dir
from shipwreck.server.ladder_games import LadderGames
from shipwreck.store import Store

async def main() -> None:
    store = Store(str(Path(tempfile.mkdtemp()) / "ladder.db"))
    store.identify("ann", "SHA256:ann", "ssh-ed25519 ann")
    store.save_bot("ann", "robber", (bots_dir() / "hoarder.bot").read_text())
    games = LadderGames(store, LadderSection(games_per_minute=600, games_per_bot=1), seed=1)
    async with App().run_test():  # a player's app: sys.stderr is its capture (fileno -1)
        assert sys.stderr.fileno() == -1, "Textual no longer captures stderr here"
        assert games.start_next()
        while games.playing:
            await asyncio.sleep(0.05)
    await games.close()
    print(games.played, store.ratings.ladder_runs()["ann/robber"].games)

asyncio.run(main())
"""


def test_a_ladder_game_starts_its_worker_while_a_players_app_holds_stderr() -> None:
    """Found by bench/ssh_load.py: every ladder game failed while anyone played, because a new
    worker pool was made while a Textual app had replaced ``sys.stderr`` (its descriptor -1 was
    handed to the process that multiprocessing starts: "bad value(s) in fds_to_keep"). In a
    fresh interpreter, as a server is: that process starts only once per interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", LADDER_WHILE_AN_APP_RUNS],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.stdout.split() == ["1", "1"], done.stderr[-2000:]

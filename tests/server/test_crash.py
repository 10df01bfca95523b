"""The crash test: ``kill -9`` the real server in the middle of a game, start it again on the same
database, and the game goes on exactly where its command log says it was.

``shipwreck serve`` runs as a subprocess (its own cwd, database, host key and a free port; it
imports this checkout's ``shipwreck``). Two players sign in over real SSH (pyte terminals): ann
types ``new 6 free …`` for a table with one free seat and four bots, and bob joins it. They play
by reading the ``choices:`` line and typing one of them; at every step the test replays the
committed command log straight from the SQLite file, and whoever must act there must see exactly
those choices on screen. Then one of them types one more choice and, as soon as that player's
screen shows its effect, the server is killed with SIGKILL. Checked:

* nothing accepted was lost: every log the test read while playing is a prefix of the log on disk
  after the kill, the command whose effect was seen is in it, and every line of each player's log
  panel is an event the log replays to;
* the server's rebuild (``Lobby.attach_store``) of the killed game equals the game replayed from
  that log (``shipwreck.replay``), byte for byte, and still has bob in the seat he joined;
* after the restart both reconnect and land in their seats ("you are …", the same choices), the
  log is unchanged (the game continues from the last acknowledged command), and they play on to
  the end of the game, every command committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncssh
import msgspec
import pytest
from paths import ROOT

from shipwreck.lang import format_command
from shipwreck.replay import FORMAT, GameFile, export_table, table_at
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.store import Store

from pgserver import PgServer
from sshclient import Client, choices_shown, open_terminal

ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")
BOB_KEY = asyncssh.generate_private_key("ssh-ed25519")
AT_TABLE = "· lifeboat · you are"
IN_LOBBY = "new [4-6]"  # the lobby's help, shown only there
BOTS = ["survivor", "loyal", "predator", "hoarder"]
BEFORE_KILL = 10
"""Commands ann and bob play (together) before the one the server is killed under."""
MAX_COMMANDS = 600
"""Bound on their commands for the rest of the game (a game takes far fewer)."""
ACCEPTED_WITHIN = 10.0
"""Seconds for a typed choice to reach the log on disk (and for choices to be shown)."""
SERVER_UP_WITHIN = 20.0
CHECKOUT = ROOT


# The server process -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m shipwreck.cli serve`` in ``home``, logging to ``home/server-N.log``, on a
    SQLite file in ``home`` or, given ``pg``, a fresh database of that PostgreSQL server."""

    def __init__(self, home: Path, port: int, pg: PgServer | None = None) -> None:
        self.home = home
        self.port = port
        self.pg = pg
        self.db = pg.new_database() if pg is not None else str(home / "shipwreck.db")
        self.starts = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def log_path(self) -> Path:
        return self.home / f"server-{self.starts}.log"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def start(self) -> None:
        self.starts += 1
        command = [sys.executable, "-m", "shipwreck.cli", "serve", "--port", str(self.port)]
        command += ["--db", self.db, "--host-key", str(self.home / "host_key")]
        command += ["--listen", "127.0.0.1"]
        env = os.environ.copy()  # this checkout's shipwreck, whatever is installed
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CHECKOUT), env.get("PYTHONPATH")]))
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                command, cwd=self.home, stdout=log, stderr=subprocess.STDOUT, env=env
            )
        deadline = time.monotonic() + SERVER_UP_WITHIN
        while "listening on" not in self.log():
            assert self.proc.poll() is None, f"the server exited:\n{self.log()}"
            assert time.monotonic() < deadline, f"the server did not start:\n{self.log()}"
            await asyncio.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, nothing is flushed or closed."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        assert self.proc.returncode == -signal.SIGKILL

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def snapshot(self, into: Path, running: bool = False) -> str:
        """The database as the killed server left it, to read or rebuild from without touching
        it: a copy of the SQLite file (with its WAL), or of the PostgreSQL database. While the
        server runs (``running``), PostgreSQL's own database is read as it is."""
        if self.pg is None:
            return str(snapshot(Path(self.db), into))
        return self.db if running else self.pg.copy_database(self.db)


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """The crash tests run on both databases the server keeps its logs in (issue 21)."""
    pg: PgServer | None = None
    if request.param == "postgresql":
        pg = request.getfixturevalue("pg_server")
    srv = Server(tmp_path, free_port(), pg)
    try:
        yield srv
    finally:
        srv.stop()


# Reading the database and the screen ------------------------------------------------------------


def query(db: str, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Rows read by another process than the server's while it runs: a read-only SQLite
    connection (WAL allows it), or a PostgreSQL one."""
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as pconn:
            return list(pconn.execute(sql.replace("?", "%s"), params).fetchall())
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as conn:
        return list(conn.execute(sql, params).fetchall())


def read_log(db: str, table_id: int) -> list[tuple[int, str]]:
    """The committed command log."""
    rows = query(db, "SELECT seat, text FROM commands WHERE table_id = ? ORDER BY n", (table_id,))
    return [(int(seat), str(text)) for seat, text in rows]


@dataclass(frozen=True)
class TableRow:
    id: int
    seed: int
    seats: list[SeatSpec]
    over: bool


def read_table(db: str, table_id: int | None = None) -> TableRow:
    """A table (the newest by default) as the database has it."""
    where = "WHERE id = ?" if table_id is not None else "ORDER BY id DESC LIMIT 1"
    args = (table_id,) if table_id is not None else ()
    (row,) = query(db, f"SELECT id, seed, seats, over FROM tables {where}", args)
    seats = msgspec.json.decode(row[2], type=list[SeatSpec])
    return TableRow(int(row[0]), int(row[1]), seats, bool(row[3]))


def is_over(db: str, table_id: int) -> bool:
    return read_table(db, table_id).over


def on_disk(db: str, table_id: int) -> Table:
    """The game as its committed log replays (read by another process while the server runs)."""
    row = read_table(db, table_id)
    return table_at(GameFile(FORMAT, "lifeboat", row.id, row.seed, row.seats, read_log(db, row.id)))


def must_act(table: Table, seat: int) -> bool:
    return any(p.seat == seat and p.blocking for p in table.rules.prompts(table.state))


def snapshot(db: Path, into: Path) -> Path:
    """A copy of the database as the killed server left it (with its WAL)."""
    into.mkdir()
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{db}{suffix}")
        if source.exists():
            shutil.copyfile(source, into / f"{db.name}{suffix}")
    return into / db.name


def choices_on_screen(client: Client) -> list[str]:
    """The choices a player can see (each shown whole)."""
    return choices_shown(client.term.text())


_SCROLLBAR = " ▁▂▃▄▅▆▇█▔▕▎▏▐▌"


def log_panel(client: Client) -> list[str]:
    """The lines of a player's game-log panel (the box left of the chat box)."""
    lines = []
    for line in client.term.screen.display:
        if line.startswith("│") and "││" in line:
            text = line[1 : line.index("││")].rstrip(_SCROLLBAR).strip()
            if text:
                lines.append(text)
    return lines


def squeeze(text: str) -> str:
    return " ".join(text.split())


async def wait_until(
    predicate: Callable[[], object], timeout: float, what: str, *clients: Client
) -> None:
    try:
        async with asyncio.timeout(timeout):
            while not predicate():
                await asyncio.sleep(0.02)
    except TimeoutError:
        screens = "\n\n".join(c.term.text() for c in clients)
        raise AssertionError(f"{what}; screens:\n{screens}") from None


@dataclass
class Player:
    name: str
    key: asyncssh.SSHKey
    client: Client
    seat: int = -1
    typed_at: float = 0.0

    async def connect(self, port: int) -> None:
        self.client = await open_terminal(port, self.name, self.key)

    async def pace(self) -> None:
        """Keep under the server's 10 lines a second per session (a faster line is refused with
        "slow down", and its command never reaches the log)."""
        wait = self.typed_at + 0.15 - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)

    def type_line(self, line: str) -> None:
        self.client.type(line + "\r")
        self.typed_at = time.monotonic()


Shown = tuple[list[str], list[str]]


def what_shows(client: Client) -> Shown:
    """A player's log panel and choices: a command's effect changes one or both (``done`` in a
    fight writes no log line, but the choices give way to "waiting for ...")."""
    return log_panel(client), choices_on_screen(client)


async def panel_changes(player: Player, before: Shown, timeout: float) -> None:
    """Wait for the player's screen to show something new (the effect of a command)."""
    client = player.client
    await wait_until(lambda: what_shows(client) != before, timeout, "no effect shown", client)


async def shows(player: Player, expected: list[str]) -> list[str]:
    """Wait until the player's screen offers the choices the log on disk gives the seat."""

    def agrees() -> bool:
        on_screen = choices_on_screen(player.client)
        return bool(on_screen) and on_screen == expected[: len(on_screen)]

    await wait_until(
        agrees, ACCEPTED_WITHIN, f"{player.name} never saw {expected[:6]}", player.client
    )
    return choices_on_screen(player.client)


async def next_to_act(players: list[Player], db: str, table_id: int) -> Table:
    """The game on disk once a player must act (the bots' answers to the last command are
    committed one by one after it), or once it is over."""
    state: list[Table] = []

    def ready() -> bool:
        table = on_disk(db, table_id)
        state[:] = [table]
        return table.over or any(must_act(table, p.seat) for p in players)

    await wait_until(ready, ACCEPTED_WITHIN, "nobody must act", *(p.client for p in players))
    return state[0]


async def type_choice(
    players: list[Player], db: str, table_id: int, pick: random.Random
) -> tuple[Player, str, Shown] | None:
    """The log on disk says who must act: that player (one of them, at random, if both must)
    must see those choices on screen, and types one of them. Returns who typed what, and that
    player's log panel and choices from before; ``None`` if the game is over."""
    table = await next_to_act(players, db, table_id)
    if table.over:
        return None
    player = pick.choice([p for p in players if must_act(table, p.seat)])
    await player.pace()  # before the screen is read: nothing may come between that and typing
    expected = [format_command(c) for c in table.view(player.seat).choices]
    choice = pick.choice(await shows(player, expected))
    panel = what_shows(player.client)
    player.type_line(choice)
    return player, choice, panel


async def play_one(
    players: list[Player], db: str, table_id: int, pick: random.Random
) -> str | None:
    """One command by whoever must act, waited for in the log on disk and on the screen."""
    before = len(read_log(db, table_id))
    typed = await type_choice(players, db, table_id, pick)
    if typed is None:
        return None
    player, choice, panel = typed

    def committed() -> bool:
        return (player.seat, choice) in read_log(db, table_id)[before:]

    await wait_until(committed, ACCEPTED_WITHIN, f"{choice!r} never reached the log", player.client)
    # Its effect reaches the screen after the commit; wait for that before reading choices.
    with contextlib.suppress(AssertionError):
        await panel_changes(player, panel, 2.0)
    return choice


async def new_game(ann: Player, bob: Player, db: str) -> int:
    """From the lobby: ann makes a table with a free seat and four bots, bob joins it."""
    await ann.client.line("new 6 free " + " ".join(BOTS))
    await ann.client.term.wait_for(AT_TABLE)
    row = read_table(db)
    assert [s.kind for s in row.seats] == ["human", "empty"] + ["bot"] * 4
    await bob.client.line(f"join {row.id}")
    await bob.client.term.wait_for(AT_TABLE)
    await ann.client.term.wait_for("every seat is taken")  # the table waits for ann's start
    await ann.client.line("start")
    seats = read_table(db, row.id).seats
    ann.seat = next(i for i, s in enumerate(seats) if s.player == "ann")
    bob.seat = next(i for i, s in enumerate(seats) if s.player == "bob")
    return row.id


async def back_to_lobby(player: Player) -> None:
    """After a game that ended before the test was done with it: close the scores, leave."""
    client = player.client
    await client.term.wait_for("land! final scores")
    client.type("\r")
    await wait_until(lambda: "land! final scores" not in client.term.text(), 5, "scores", client)
    await client.line("lobby")
    await client.term.wait_for(IN_LOBBY)


def rebuilt(db: str) -> Table:
    """What the server's own start-up makes of the database: ``Lobby.attach_store``."""
    lobby = Lobby()
    assert lobby.attach_store(Store(db)) == 1
    (table,) = lobby.tables.values()
    return table


# The test ---------------------------------------------------------------------------------------


async def test_kill_9_mid_game_then_restart_loses_nothing(server: Server, tmp_path: Path) -> None:
    pick = random.Random(20)
    await server.start()
    ann = Player("ann", ANN_KEY, await open_terminal(server.port, "ann", ANN_KEY))
    bob = Player("bob", BOB_KEY, await open_terminal(server.port, "bob", BOB_KEY))
    players = [ann, bob]
    for p in players:
        await p.client.term.wait_for(f"signed in as {p.name}")
    games = 0
    while True:  # a game may end before the kill: then another
        games += 1
        assert games <= 3, "three games ended before the server could be killed mid-game"
        table_id = await new_game(ann, bob, server.db)

        # Play, reading the log on disk after every command.
        seen_logs: list[list[tuple[int, str]]] = []
        for _ in range(BEFORE_KILL):
            if await play_one(players, server.db, table_id, pick) is None:
                break
            seen_logs.append(read_log(server.db, table_id))
        before = len(read_log(server.db, table_id))
        typed = None
        if len(seen_logs) == BEFORE_KILL:
            # One more, and SIGKILL the moment its player's screen shows its effect.
            typed = await type_choice(players, server.db, table_id, pick)
        if typed is None:
            for p in players:
                await back_to_lobby(p)
            continue
        last_player, last, panel = typed
        await panel_changes(last_player, panel, ACCEPTED_WITHIN)
        server.kill()
        panels_at_kill = {p.name: log_panel(p.client) for p in players}
        for p in players:
            await asyncio.wait_for(p.client.term.closed.wait(), 10)
            p.client.close()

        # What the killed server left on disk: nothing accepted is lost.
        snap = server.snapshot(tmp_path / f"after-kill-{games}")
        log = Store(snap).commands(table_id)
        for seen in seen_logs:
            assert log[: len(seen)] == seen, "a committed command was lost or rewritten"
        assert (last_player.seat, last) in log[before:], (
            f"{last_player.name} saw the effect of {last!r}; the log lost it"
        )

        # The log replays, and everything each player's log panel showed is in that game.
        replayed = table_at(export_table(Store(snap), table_id))
        for p in players:
            events = squeeze(" ".join(e.text for e in replayed.log(p.seat)))
            shown = squeeze(" ".join(panels_at_kill[p.name]))
            assert shown and shown in events, f"{p.name} saw events the log does not hold:\n{shown}"

        await server.start()
        for p in players:
            await p.connect(server.port)
        if not replayed.over:
            break
        # The killed command ended the game: nothing to restore. Another game.
        for p in players:
            await p.client.term.wait_for(IN_LOBBY)

    # The server's own rebuild of the killed game is the replayed game, byte for byte, with bob
    # still in the seat he joined (not the free seat's stand-in bot).
    restored = rebuilt(snap)  # (the database as the killed server left it)
    assert restored.commands == log, "the rebuild moved on by itself"
    assert msgspec.json.encode(restored.state) == msgspec.json.encode(replayed.state)
    assert [restored.seats[p.seat].player for p in players] == ["ann", "bob"]
    assert "restored 1 unfinished table " in server.log()

    # After the restart both land in their seats, where the log says they are, and whoever must
    # act sees the same choices as before the kill.
    for p in players:
        view = restored.view(p.seat)
        await p.client.term.wait_for(f"{AT_TABLE} {view.me}")
        if must_act(restored, p.seat):
            await shows(p, [format_command(c) for c in view.choices])
        elif not restored.over:
            await p.client.term.wait_for("waiting for")
    assert read_log(server.db, table_id) == log, "the restarted server changed the log"

    # And they play on from exactly there to the end.
    played = 0
    while await play_one(players, server.db, table_id, pick) is not None:
        played += 1
        assert played < MAX_COMMANDS, "the game did not end"
    for p in players:
        await p.client.term.wait_for("land! final scores")
    final = read_log(server.db, table_id)
    assert final[: len(log)] == log
    assert table_at(
        export_table(Store(server.snapshot(tmp_path / "end", running=True)), table_id)
    ).over
    mine = Counter(seat for seat, _text in final)
    for p in players:
        p.client.close()
    out = sys.__stdout__
    if out is not None:
        out.write(
            f"\n[crash] game {games}: killed after {len(log)} commands ({BEFORE_KILL + 1} of ann's "
            f"and bob's), rebuilt equal to the replay; {played} more of theirs to the end "
            f"({len(final)} commands in all: ann {mine[ann.seat]}, bob {mine[bob.seat]})\n"
        )


class _Held:
    def cancel(self) -> None:
        pass


def _hold(_delay: float, _callback: Callable[[], None]) -> _Held:
    """A scheduler whose turns never come: a rebuilt table's bots stay where the log left them."""
    return _Held()


async def test_kill_9_while_the_timers_run_then_restart_rebuilds_the_same_game(
    server: Server, tmp_path: Path
) -> None:
    """Timers of a second: ann sits at a table and does nothing, so her decisions time out
    (commands of the system seat: her lone table is timed by `solo_timers`) and then her
    autopilot plays, while the bots go on. SIGKILL
    the server once two timeouts are on disk: the log it left holds them, the server's own
    rebuild of it is the replayed game byte for byte, and the server starts again on the file
    (tests-2026-12 M3: a timeout applied but not saved left a file no server could start from)."""
    kinds = ("turn", "respond", "fight", "navigate", "thirst", "supply", "overboard", "keep")
    timers = "[timers]\n" + "".join(f"{k} = 1\n" for k in kinds)
    (server.home / "server.toml").write_text("[tables]\nsolo_timers = true\n" + timers)
    await server.start()
    ann = await open_terminal(server.port, "ann", ANN_KEY)
    await ann.term.wait_for("signed in as ann")
    await ann.line("new 6 free " + " ".join(BOTS))
    await ann.term.wait_for(AT_TABLE)
    await ann.line("start")
    table_id = read_table(server.db).id

    def timeouts() -> int:
        return sum(seat == -1 for seat, _text in read_log(server.db, table_id))

    await wait_until(lambda: timeouts() >= 2, 20, "ann's decisions never timed out", ann)
    server.kill()
    ann.close()

    snap = server.snapshot(tmp_path / "after-kill")
    log = Store(snap).commands(table_id)
    assert sum(seat == -1 for seat, _text in log) >= 2
    replayed = table_at(export_table(Store(snap), table_id))
    lobby = Lobby(schedule=_hold)
    assert lobby.attach_store(Store(snap)) == (0 if replayed.over else 1)
    if not replayed.over:
        restored = lobby.tables[table_id]
        assert restored.commands == log
        assert msgspec.json.encode(restored.state) == msgspec.json.encode(replayed.state)

    await server.start()  # raises if the server cannot start on the file the kill left
    if not replayed.over:
        assert "restored 1 unfinished table " in server.log()
    assert read_log(server.db, table_id)[: len(log)] == log

"""The crash test: ``kill -9`` the real server in the middle of a game, start it again on the same
database, and the game goes on exactly where its command log says it was.

``shipwreck serve`` runs as a subprocess (its own cwd, database, host key and a free port). ann
signs in over real SSH (a pyte terminal), types ``new`` for a table with five bots, and plays by
reading the ``choices:`` line and typing one of them. Along the way the test reads the committed
command log straight from the SQLite file. Then it types one more choice and, as soon as ann's
screen shows its effect, kills the server with SIGKILL. Checked:

* nothing accepted was lost: every log the test read while playing is a prefix of the log on disk
  after the kill, the command whose effect ann saw is in it, and every line of her log panel is
  an event the log replays to;
* the server's rebuild (``Lobby.attach_store``) of the killed game equals the game replayed from
  that log (``shipwreck.replay``), byte for byte;
* after the restart ann lands in her seat ("you are …", the same choices), the log is unchanged,
  and she plays on to the end of the game, every command committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import msgspec
import pytest

from shipwreck.lang import format_command
from shipwreck.replay import export_table, table_at
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.store import Store

from sshclient import Client, open_terminal

ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")
AT_TABLE = "· lifeboat · you are"
IN_LOBBY = "new [4-6]"  # the lobby's help, shown only there
BEFORE_KILL = 8
"""Commands ann plays before the one the server is killed under."""
MAX_COMMANDS = 400
"""Bound on ann's commands for the rest of the game (a game takes far fewer)."""
ACCEPTED_WITHIN = 10.0
"""Seconds for a typed choice to reach the log on disk."""
SERVER_UP_WITHIN = 20.0


# The server process -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m shipwreck.cli serve`` in ``home``, logging to ``home/server-N.log``."""

    def __init__(self, home: Path, port: int) -> None:
        self.home = home
        self.port = port
        self.db = home / "shipwreck.db"
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
        command += ["--db", str(self.db), "--host-key", str(self.home / "host_key")]
        command += ["--listen", "127.0.0.1"]
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                command, cwd=self.home, stdout=log, stderr=subprocess.STDOUT, env=os.environ.copy()
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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path, free_port())
    try:
        yield srv
    finally:
        srv.stop()


# Reading the database and the screen ------------------------------------------------------------


def read_log(db: Path, table_id: int) -> list[tuple[int, str]]:
    """The committed command log, read by another process (SQLite WAL allows it)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as conn:
        rows = conn.execute(
            "SELECT seat, text FROM commands WHERE table_id = ? ORDER BY n", (table_id,)
        ).fetchall()
    return [(int(seat), str(text)) for seat, text in rows]


def read_table(db: Path, table_id: int | None = None) -> tuple[int, list[SeatSpec], bool]:
    """A table (the newest by default): its id, its seats as created, and whether it is over."""
    where = "WHERE id = ?" if table_id is not None else "ORDER BY id DESC LIMIT 1"
    args = (table_id,) if table_id is not None else ()
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as conn:
        row = conn.execute(f"SELECT id, seats, over FROM tables {where}", args).fetchone()
    return int(row[0]), msgspec.json.decode(row[1], type=list[SeatSpec]), bool(row[2])


def is_over(db: Path, table_id: int) -> bool:
    return read_table(db, table_id)[2]


def snapshot(db: Path, into: Path) -> Path:
    """A copy of the database as the killed server left it (with its WAL)."""
    into.mkdir()
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{db}{suffix}")
        if source.exists():
            shutil.copyfile(source, into / f"{db.name}{suffix}")
    return into / db.name


def choices_on_screen(client: Client) -> list[str]:
    """The choices ann can see, without a last one that the line may have cut."""
    m = re.search(r"choices:\s+(.*)", client.term.text())
    if not m:
        return []
    items = [c.strip() for c in m.group(1).split("|")]
    if len(items) > 1:
        items = items[:-1]  # the choices line may wrap in the middle of its last item
    return [c for c in items if c and "…" not in c]


_SCROLLBAR = " ▁▂▃▄▅▆▇█▔▕▎▏▐▌"


def log_panel(client: Client) -> list[str]:
    """The lines of ann's game-log panel (the box left of the chat box)."""
    lines = []
    for line in client.term.screen.display:
        if line.startswith("│") and "││" in line:
            text = line[1 : line.index("││")].rstrip(_SCROLLBAR).strip()
            if text:
                lines.append(text)
    return lines


def squeeze(text: str) -> str:
    return " ".join(text.split())


async def wait_until(predicate: object, timeout: float, what: str, client: Client) -> None:
    assert callable(predicate)
    try:
        async with asyncio.timeout(timeout):
            while not predicate():
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"{what}; screen:\n{client.term.text()}") from None


async def panel_changes(client: Client, panel: list[str], timeout: float) -> None:
    """Wait for ann's log panel to show something new (the effect of what she typed)."""
    await wait_until(lambda: log_panel(client) != panel, timeout, "no effect shown", client)


async def my_turn(client: Client, db: Path, table_id: int) -> list[str] | None:
    """ann's choices once she has some; ``None`` if the game ended instead."""
    await wait_until(
        lambda: choices_on_screen(client) or is_over(db, table_id),
        ACCEPTED_WITHIN,
        "ann has no choices and the game is not over",
        client,
    )
    await asyncio.sleep(0.05)  # let a redraw in progress finish
    return None if is_over(db, table_id) else choices_on_screen(client)


async def play_one(
    client: Client, db: Path, table_id: int, seat: int, pick: random.Random
) -> str | None:
    """Type one of ann's choices and wait until it is in the log on disk and its effect on her
    screen; ``None`` if the game ended before she had one."""
    choices = await my_turn(client, db, table_id)
    if not choices:
        return None
    before = len(read_log(db, table_id))
    choice = pick.choice(choices)
    panel = log_panel(client)
    client.type(choice + "\r")

    def committed() -> bool:
        return (seat, choice) in read_log(db, table_id)[before:]

    await wait_until(committed, ACCEPTED_WITHIN, f"{choice!r} never reached the log", client)
    # Its effect reaches ann's screen after the commit; wait for that before reading choices.
    with contextlib.suppress(AssertionError):
        await panel_changes(client, panel, 2.0)
    return choice


async def new_game(client: Client, db: Path) -> tuple[int, int]:
    """From the lobby: ``new`` (a table with five bots). Returns the table and ann's seat."""
    await client.line("new")
    await client.term.wait_for(AT_TABLE)
    table_id, seats, _over = read_table(db)
    assert [s.kind for s in seats].count("bot") == 5
    return table_id, next(i for i, s in enumerate(seats) if s.player == "ann")


async def back_to_lobby(client: Client) -> None:
    """After a game that ended before the test was done with it: close the scores, leave."""
    await client.term.wait_for("land! final scores")
    client.type("\r")
    await wait_until(lambda: "land! final scores" not in client.term.text(), 5, "scores", client)
    await client.line("lobby")
    await client.term.wait_for(IN_LOBBY)


def rebuilt(db: Path) -> Table:
    """What the server's own start-up makes of the database: ``Lobby.attach_store``."""
    lobby = Lobby()
    assert lobby.attach_store(Store(db)) == 1
    (table,) = lobby.tables.values()
    return table


# The test ---------------------------------------------------------------------------------------


async def test_kill_9_mid_game_then_restart_loses_nothing(server: Server, tmp_path: Path) -> None:
    pick = random.Random(20)
    await server.start()
    ann = await open_terminal(server.port, "ann", ANN_KEY)
    await ann.term.wait_for("signed in as ann")
    games = 0
    while True:  # a game may end before the kill (ann's character can die): then another
        games += 1
        assert games <= 3, "three games ended before the server could be killed mid-game"
        table_id, seat = await new_game(ann, server.db)

        # Play, reading the log on disk after every command.
        seen_logs: list[list[tuple[int, str]]] = []
        for _ in range(BEFORE_KILL):
            if await play_one(ann, server.db, table_id, seat, pick) is None:
                break
            seen_logs.append(read_log(server.db, table_id))
        choices = await my_turn(ann, server.db, table_id)
        if len(seen_logs) < BEFORE_KILL or not choices:
            await back_to_lobby(ann)
            continue

        # One more, and SIGKILL the moment ann's screen shows its effect.
        last = pick.choice(choices)
        before = len(read_log(server.db, table_id))
        panel = log_panel(ann)
        ann.type(last + "\r")
        await panel_changes(ann, panel, ACCEPTED_WITHIN)
        server.kill()
        panel_at_kill = log_panel(ann)
        await asyncio.wait_for(ann.term.closed.wait(), 10)
        ann.close()

        # What the killed server left on disk: nothing accepted is lost.
        snap = snapshot(server.db, tmp_path / f"after-kill-{games}")
        log = Store(snap).commands(table_id)
        for seen in seen_logs:
            assert log[: len(seen)] == seen, "a committed command was lost or rewritten"
        assert (seat, last) in log[before:], f"ann saw the effect of {last!r}; the log lost it"

        # The log replays, and everything ann's log panel showed is in that game.
        replayed = table_at(export_table(Store(snap), table_id))
        events = squeeze(" ".join(e.text for e in replayed.log(seat)))
        shown = squeeze(" ".join(panel_at_kill))
        assert shown and shown in events, f"ann saw events the log does not hold:\n{shown}"

        await server.start()
        ann = await open_terminal(server.port, "ann", ANN_KEY)
        if not replayed.over:
            break
        # The killed command ended the game: nothing to restore. Another game.
        await ann.term.wait_for(IN_LOBBY)

    # The server's own rebuild of the killed game is the replayed game, byte for byte.
    restored = rebuilt(snapshot(server.db, tmp_path / "rebuild"))
    assert restored.commands == log, "the rebuild moved on by itself"
    assert msgspec.json.encode(restored.state) == msgspec.json.encode(replayed.state)
    assert "restored 1 unfinished tables" in server.log()

    # After the restart ann lands in her seat, where the log says she is.
    view = restored.view(seat)
    await ann.term.wait_for(f"{AT_TABLE} {view.me}")
    expected = [format_command(c) for c in view.choices]
    await wait_until(lambda: choices_on_screen(ann), ACCEPTED_WITHIN, "no choices after", ann)
    on_screen = choices_on_screen(ann)
    assert on_screen == expected[: len(on_screen)], (on_screen, expected)
    assert read_log(server.db, table_id) == log, "the restarted server changed the log"

    # And plays on to the end.
    played = 0
    while await play_one(ann, server.db, table_id, seat, pick) is not None:
        played += 1
        assert played < MAX_COMMANDS, "the game did not end"
    await ann.term.wait_for("land! final scores")
    final = read_log(server.db, table_id)
    assert final[: len(log)] == log
    assert table_at(export_table(Store(snapshot(server.db, tmp_path / "end")), table_id)).over
    ann.close()
    out = sys.__stdout__
    if out is not None:
        out.write(
            f"\n[crash] game {games}: killed after {len(log)} commands ({BEFORE_KILL + 1} of "
            f"ann's), rebuilt equal to the replay; {played} more of ann's to the end "
            f"({len(final)} commands in all)\n"
        )

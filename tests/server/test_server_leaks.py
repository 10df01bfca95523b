"""Leaks and isolation of the real server (`Service`) under many SSH sessions on 127.0.0.1.

* 20 sessions: half sit at tables (or stay in the lobby) and leave politely (``quit`` in the
  lobby, Ctrl+Q at a table), half drop their connection; afterwards the live-apps gauge is back at
  zero and no app or screen object survives a garbage collection.
* A client that stops reading while its table keeps changing is dropped, and another player at
  the same table keeps getting answers within a bound meanwhile.
* OpenSSH's own ``ssh`` signs in, opens a table and quits.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import shutil
import time
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from shipwreck.config import Config
from shipwreck.server.service import STOP_WAIT, Service
from shipwreck.server.ssh import LiveApps
from shipwreck.tui.app import ShipwreckApp
from shipwreck.tui.lifeboat.screen import TableScreen
from shipwreck.tui.lobby.screen import LobbyScreen

from sshclient import Client, PtyReader, Terminal, needs_openssh, set_winsize

TIMEOUT = 15.0
SIZE = (120, 40)
KEYS = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(20)]
CTRL_Q = "\x11"
COLLECT_WITHIN = 3.0
IN_LOBBY = "new [4-6] [BOT|free …]"  # the lobby's help, shown only there


# Fixtures ----------------------------------------------------------------------------------------


def make_service(tmp_path: Path, write_buffer: int | None = None) -> Service:
    config = Config()
    config.server.listen = "127.0.0.1"
    config.server.port = 0
    config.server.database = str(tmp_path / "shipwreck.db")
    config.server.host_key = str(tmp_path / "host_key")
    config.limits.sessions_per_address = 100  # every client here comes from 127.0.0.1
    config.limits.commands_per_second = 1000  # the stalled-client test types as fast as it can
    if write_buffer is not None:
        config.limits.write_buffer_bytes = write_buffer
    return Service(config, live=LiveApps())


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    svc = make_service(tmp_path)
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


class Tracked(list[weakref.ref[Any]]):
    """Weak references to objects, and how many of each class were made."""

    def __init__(self) -> None:
        super().__init__()
        self.made: Counter[str] = Counter()


@pytest.fixture
def tracked(monkeypatch: pytest.MonkeyPatch) -> Iterator[Tracked]:
    """A weak reference to every ShipwreckApp, LobbyScreen and TableScreen made in the test."""
    refs = Tracked()
    for cls in (ShipwreckApp, LobbyScreen, TableScreen):
        monkeypatch.setattr(cls, "__init__", _recording(cls.__init__, refs))
    yield refs


def _recording(init: Callable[..., None], refs: Tracked) -> Callable[..., None]:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        refs.append(weakref.ref(self))
        refs.made[type(self).__name__] += 1

    return __init__


# Client helpers ----------------------------------------------------------------------------------


async def open_terminal(
    port: int, name: str, key: asyncssh.SSHKey, window: int | None = None
) -> Client:
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        username=name,
        client_keys=[key],
        known_hosts=None,
        config=None,
        agent_path=None,
    )
    term = Terminal(*SIZE)
    extra: dict[str, Any] = {} if window is None else {"window": window}
    chan, _ = await conn.create_session(
        lambda: term, term_type="xterm-256color", term_size=SIZE, encoding=None, **extra
    )
    return Client(conn, chan, term)


async def signed_in(port: int, name: str, key: asyncssh.SSHKey, **kw: Any) -> Client:
    client = await open_terminal(port, name, key, **kw)
    await client.term.wait_for(f"signed in as {name}")
    return client


def at_table(table_id: int) -> str:
    return f"table {table_id} · lifeboat · you are"


async def exit_status(client: Client) -> int | None:
    try:
        async with asyncio.timeout(TIMEOUT):
            await client.chan.wait_closed()
    except TimeoutError:
        raise AssertionError(f"the session did not end; screen:\n{client.term.text()}") from None
    return client.chan.get_exit_status()


async def all_collected(refs: list[weakref.ref[Any]], within: float) -> None:
    """Every referent is garbage within ``within`` seconds (collecting as we wait)."""
    deadline = time.monotonic() + within
    while True:
        gc.collect()
        alive = [r() for r in refs if r() is not None]
        if not alive:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"still alive {within}s after the sessions ended: {alive!r}")
        del alive
        await asyncio.sleep(0.05)


class Records(logging.Handler):
    """Collects the messages of one logger (whatever the logging setup around the test)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture
def driver_log() -> Iterator[Records]:
    logger = logging.getLogger("shipwreck.server.driver")
    records = Records()
    logger.addHandler(records)
    try:
        yield records
    finally:
        logger.removeHandler(records)


# Tests -------------------------------------------------------------------------------------------


async def test_twenty_sessions_leave_nothing_behind(service: Service, tracked: Tracked) -> None:
    n = 20
    names = [f"p{i:02d}" for i in range(n)]
    clients = await asyncio.gather(*(signed_in(service.port, names[i], KEYS[i]) for i in range(n)))
    assert service.live.count == n

    # Two tables of six with five free seats each; four players more sit at bot tables; the
    # rest stay in the lobby. Even-numbered sessions leave politely, odd ones just drop.
    await clients[0].line("new 6 free free free free free")
    await clients[0].term.wait_for(at_table(1))
    await clients[1].line("new 6 free free free free free")
    await clients[1].term.wait_for(at_table(2))
    joiners = {1: [2, 3, 4, 5, 6], 2: [7, 8, 9, 10, 11]}
    for table_id, seats in joiners.items():
        for i in seats:
            clients[i].type(f"join {table_id}\r")
        for i in seats:
            await clients[i].term.wait_for(at_table(table_id))
        creator = clients[table_id - 1]  # (p00 made table 1, p01 table 2)
        await creator.term.wait_for("every seat is taken")
        await creator.line("start")  # the table waited for its players (issue 16)
    for i in (12, 13, 14, 15):
        clients[i].type("new\r")
    for i, table_id in zip((12, 13, 14, 15), (3, 4, 5, 6), strict=True):
        await clients[i].term.wait_for(f"table {table_id} · lifeboat")
    # 16..19 stay in the lobby; one of them watches a table and comes back.
    await clients[16].line("watch 1")
    await clients[16].term.wait_for("table 1 · lifeboat · spectator")
    await clients[16].line("lobby")
    await clients[16].term.wait_for(IN_LOBBY)
    assert len(service.lobby.tables) == 6
    assert all(not t.free_seats() for t in (service.lobby.tables[1], service.lobby.tables[2]))
    seated = range(16)

    # Everybody at a table changes it once, so every screen has had something to redraw.
    for i in seated:
        clients[i].type("say hello\r")
    await clients[0].term.wait_for("hello")

    polite = [i for i in range(n) if i % 2 == 0]
    rude = [i for i in range(n) if i % 2 == 1]
    for k, i in enumerate(polite):
        if i < 16 and k % 2 == 0:
            clients[i].type(CTRL_Q)  # straight out from the table
        elif i < 16:
            clients[i].type("lobby\r")  # back to the lobby, then quit there
        else:
            clients[i].type("quit\r")
    for k, i in enumerate(rude):
        if k % 2 == 0:
            clients[i].conn.abort()  # the TCP connection just goes away
        else:
            clients[i].conn.close()  # a clean SSH disconnect, no goodbye from the app
    for k, i in enumerate(polite):
        if i < 16 and k % 2 == 1:
            await clients[i].term.wait_for(IN_LOBBY)
            clients[i].type("quit\r")  # (seated at a game not over: it asks first)
            await clients[i].term.wait_for("quit Shipwreck?")
            clients[i].type("y")
    for i in polite:
        assert await exit_status(clients[i]) == 0, names[i]

    await service.live.wait_for(0, timeout=TIMEOUT)
    assert service.live.started_total == service.live.ended_total == n
    for client in clients:
        client.close()
    del clients

    # Nobody is left subscribed to the lobby or a table (only the lobby's own table listener).
    assert service.lobby.listeners == []
    for table in service.lobby.tables.values():
        assert len(table.listeners) == 1, table.name
        for i, seat in enumerate(table.seats):
            if seat.kind == "human" and not table.over:  # away, not on autopilot (issue 16)
                assert not seat.connected and not seat.autopilot, (table.name, i)

    # A lobby screen for every session, and a new one each time a table sends a player back
    # (the spectator, and every second polite player seated at a table).
    back = 1 + sum(1 for k, i in enumerate(polite) if i < 16 and k % 2 == 1)
    assert tracked.made["ShipwreckApp"] == n
    assert tracked.made["LobbyScreen"] == n + back
    assert tracked.made["TableScreen"] == 17  # 16 seats and one spectator
    # Promptly: well before the server's 5 s stop timeout (its timer once kept the apps of
    # dropped sessions alive that long).
    await all_collected(tracked, within=COLLECT_WITHIN)


async def test_a_client_that_stops_reading_is_dropped_without_slowing_the_table(
    tmp_path: Path, tracked: Tracked, driver_log: Records
) -> None:
    service = make_service(tmp_path, write_buffer=64 * 1024)
    await service.start()
    try:
        ann = await signed_in(service.port, "ann", KEYS[0])
        stalled = await signed_in(service.port, "sid", KEYS[1], window=1024)
        await ann.line("new 6 free free free free free")
        await ann.term.wait_for(at_table(1))
        await stalled.line("join 1")
        await stalled.term.wait_for(at_table(1))
        await ann.line("start")  # the table waited for its players (issue 16)
        table = service.lobby.tables[1]
        assert table.seat_of_player("sid") is not None
        assert service.live.count == 2

        stalled.chan.pause_reading()  # the client stops reading; its window stays closed
        bound = 2.0
        worst = 0.0
        start = time.monotonic()
        k = 0
        while not stalled.term.closed.is_set():
            assert time.monotonic() - start < TIMEOUT, "the stalled session was never dropped"
            k += 1
            # The table changes: a long public chat line (every screen redraws its chat)...
            table.say("ben", f"chatter {k} " + "x" * 300, None)
            # ... and ann's own command must come back to her quickly all the same.
            token = f"t{k}q"
            sent = time.monotonic()
            ann.type(f"say {token}\r")
            await ann.term.wait_for(token, timeout=bound * 2)
            worst = max(worst, time.monotonic() - sent)
        await service.live.wait_for(1)
        assert any("client is not reading" in m and "(sid)" in m for m in driver_log.messages)
        seat = table.seat_of_player("sid")  # away: at a table of two, his clock runs on
        assert seat is not None and not table.seats[seat].connected
        assert not table.seats[seat].autopilot

        for j in range(k + 1, k + 6):  # after the drop too
            token = f"t{j}q"
            sent = time.monotonic()
            ann.type(f"say {token}\r")
            await ann.term.wait_for(token, timeout=bound * 2)
            worst = max(worst, time.monotonic() - sent)
        assert worst < bound, f"a command took {worst:.2f}s to show while a client stalled"

        ann.type(CTRL_Q)
        assert await exit_status(ann) == 0
        await service.live.wait_for(0)
        ann.close()
        stalled.close()
        del ann, stalled
        await all_collected(tracked, within=COLLECT_WITHIN)
    finally:
        await service.stop()


async def test_lines_typed_ahead_keep_their_boundaries(service: Service) -> None:
    """A fast typist's lines arrive in one packet: each is its own command, and editing keys
    (Backspace, Ctrl+U) apply where they were typed, not after the keys that followed them."""
    ann = await signed_in(service.port, "ann", KEYS[0])
    await ann.line("new")
    await ann.term.wait_for(at_table(1))
    table = service.lobby.tables[1]

    async def said(count: int) -> list[str]:
        """ann's table chat once it has ``count`` lines (or more)."""
        async with asyncio.timeout(TIMEOUT):
            while len(lines := [c.text for c in table.chat if c.sender == "ann"]) < count:
                await asyncio.sleep(0.02)
        return lines

    ann.type("chat first1\rchat second2\r")  # two lines in one packet
    assert await said(2) == ["first1", "second2"]
    # Ctrl+U erases "chat oops", Backspace the "x"; then a fourth line right behind.
    ann.type("chat oops\x15chat third3x\x7f\rchat fourth4\r")
    assert await said(4) == ["first1", "second2", "third3", "fourth4"]
    await ann.term.wait_for(f"ann ({table.seat_name(0)}): fourth4")  # who, and where she sits
    assert "first1chat" not in ann.term.text()
    ann.close()


@needs_openssh
async def test_openssh_client_signs_in_opens_a_table_and_quits(
    service: Service, tmp_path: Path
) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = tmp_path / "id_ed25519"
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, key.export_private_key("openssh"))
    os.close(fd)

    master, slave = os.openpty()
    set_winsize(master, *SIZE)
    ssh = shutil.which("ssh")
    assert ssh is not None
    # fmt: off
    argv = [
        ssh, "-tt", "-p", str(service.port), "-i", str(key_file), "-F", "/dev/null",
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR",
        "dora@127.0.0.1",
    ]
    # fmt: on
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    env["TERM"] = "xterm-256color"
    proc = await asyncio.create_subprocess_exec(
        *argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
    )
    os.close(slave)
    reader = PtyReader(master, *SIZE)
    try:
        term = reader.term
        await term.wait_for(f"signed in as dora ({key.get_fingerprint('sha256')})")
        os.write(master, b"new\r")
        await term.wait_for(at_table(1))
        await term.wait_for("choices:" if _dora_must_act(service) else "waiting for")
        os.write(master, CTRL_Q.encode())
        async with asyncio.timeout(TIMEOUT):
            assert await proc.wait() == 0
        await service.live.wait_for(0)
        table = service.lobby.tables[1]
        seat = table.seat_of_player("dora")  # her table waits for her (issue 16)
        assert seat is not None and not table.seats[seat].autopilot and table.paused
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        if not reader.eof.is_set():
            reader.stop()
        os.close(master)


def _dora_must_act(service: Service) -> bool:
    table = service.lobby.tables[1]
    seat = table.seat_of_player("dora")
    return any(p.seat == seat and p.blocking for p in table.rules.prompts(table.state))


async def test_the_server_stops_while_a_client_stays_connected(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Ctrl+C on the server: it stops within seconds, and ends the session, even while a
    client keeps its SSH connection open. Within seconds means before any of ``stop``'s
    fallbacks (:data:`STOP_WAIT` for the listener, as long again for the apps) had to fire:
    it takes well under a second today."""
    service = make_service(tmp_path)
    await service.start()
    ann = await signed_in(service.port, "ann", KEYS[0])
    try:
        started = time.monotonic()
        async with asyncio.timeout(TIMEOUT):
            await service.stop()
        elapsed = time.monotonic() - started
        assert elapsed < STOP_WAIT, f"stopping took {elapsed:.1f} s: a fallback fired"
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
        assert service.live.count == 0
        async with asyncio.timeout(STOP_WAIT):  # the client sees its session end
            await ann.chan.wait_closed()
    finally:
        ann.close()

"""End-to-end tests of the SSH side over real SSH on 127.0.0.1.

A tiny Textual app (defined here) runs per session; asyncssh clients with a PTY feed every byte
they receive into a `pyte` screen, and the tests assert on what a user would see.
"""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import signal
import sys
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
import pyte
import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Label

from shipwreck.server.ssh import (
    NO_COMMANDS_MESSAGE,
    NO_PTY_MESSAGE,
    ClientKey,
    LiveApps,
    SessionInfo,
    color_system_for,
    ensure_host_key,
    start_server,
)

from sshclient import PtyReader, needs_openssh, set_winsize

CLIENT_KEY = asyncssh.generate_private_key("ssh-ed25519")
OTHER_KEY = asyncssh.generate_private_key("ssh-ed25519")
TIMEOUT = 10.0


# The app served in these tests ---------------------------------------------------------------


class DemoScreen(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Label(id="status", markup=False)
        yield Label(id="who", markup=False)
        yield Label(id="flood", markup=False)

    def on_mount(self) -> None:
        app = self.app
        assert isinstance(app, DemoApp)
        info = app.info
        self.query_one("#who", Label).update(f"fp={info.key_fingerprint} term={info.term_type}")
        app.show_status()

    def on_resize(self, event: events.Resize) -> None:
        app = self.app
        assert isinstance(app, DemoApp)
        app.show_status()


class DemoApp(App[None]):
    """Shows who is connected, the terminal size and the last key; q / Ctrl+C quit."""

    BINDINGS = [
        Binding("q", "quit"),
        Binding("ctrl+c", "quit", priority=True),
        Binding("x", "crash"),
        Binding("f", "flood"),
    ]

    def __init__(self, info: SessionInfo) -> None:
        super().__init__()
        self.info = info
        self.last_key = "-"
        self.frame = 0

    def get_default_screen(self) -> Screen[None]:
        return DemoScreen()

    def on_key(self, event: events.Key) -> None:
        self.last_key = event.key
        self.show_status()

    def show_status(self) -> None:
        width, height = self.size
        self.screen.query_one("#status", Label).update(
            f"user={self.info.identity} size={width}x{height} key={self.last_key}"
        )

    def action_crash(self) -> None:
        raise RuntimeError("the demo app crashed on purpose")

    def action_flood(self) -> None:
        self.set_interval(0.005, self._flood_frame)

    def _flood_frame(self) -> None:
        self.frame += 1
        width, height = self.size
        text = "\n".join(chr(0x41 + (self.frame + row) % 26) * width for row in range(height))
        self.screen.query_one("#flood", Label).update(text)


# Server and client helpers ----------------------------------------------------------------------


def authorize(username: str, key: ClientKey) -> bool | str:
    if username == "mallory":
        return False
    if username == "bob":
        return True  # identity = the login name
    return username.title()  # identity chosen by the callback


@dataclass
class Server:
    port: int
    live: LiveApps
    fingerprint: str
    host_key: Path
    apps: list[weakref.ref[DemoApp]] = field(default_factory=list)


async def _start(
    tmp_path: Path, factory_delay: float = 0.0, **options: Any
) -> tuple[Server, asyncssh.SSHAcceptor]:
    live = LiveApps()
    host_key = tmp_path / "keys" / "host_ed25519"
    fingerprint = ensure_host_key(host_key)
    apps: list[weakref.ref[DemoApp]] = []

    async def factory(info: SessionInfo) -> DemoApp:
        if factory_delay:
            await asyncio.sleep(factory_delay)  # e.g. a store lookup
        app = DemoApp(info)
        apps.append(weakref.ref(app))
        return app

    acceptor = await start_server(
        "127.0.0.1", 0, host_key, factory, authorize, live=live, stop_timeout=3.0, **options
    )
    return Server(acceptor.get_port(), live, fingerprint, host_key, apps), acceptor


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    srv, acceptor = await _start(tmp_path)
    try:
        yield srv
    finally:
        acceptor.close()
        await srv.live.shutdown(timeout=3.0)


class Terminal(asyncssh.SSHClientSession[bytes]):
    """A client terminal: everything received is drawn on a pyte screen."""

    def __init__(self, width: int, height: int) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.received = 0
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.received += len(data)
        self.stream.feed(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(lines=height, columns=width)

    async def wait_for(self, needle: str, timeout: float = TIMEOUT) -> None:
        try:
            async with asyncio.timeout(timeout):
                while needle not in self.text():
                    await asyncio.sleep(0.01)
        except TimeoutError:
            raise AssertionError(f"{needle!r} never appeared; screen:\n{self.text()}") from None


@dataclass
class Client:
    conn: asyncssh.SSHClientConnection
    chan: asyncssh.SSHClientChannel[bytes]
    term: Terminal

    def type(self, keys: str | bytes) -> None:
        self.chan.write(keys.encode() if isinstance(keys, str) else keys)

    async def wait_closed(self, timeout: float = TIMEOUT) -> int | None:
        async with asyncio.timeout(timeout):
            await self.chan.wait_closed()
        return self.chan.get_exit_status()


async def connect(
    port: int, username: str = "alice", key: asyncssh.SSHKey = CLIENT_KEY
) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1",
        port,
        username=username,
        client_keys=[key],
        known_hosts=None,
        config=None,
        agent_path=None,
    )


async def open_terminal(
    port: int,
    username: str = "alice",
    size: tuple[int, int] = (80, 24),
    window: int | None = None,
) -> Client:
    conn = await connect(port, username)
    term = Terminal(*size)
    extra: dict[str, Any] = {} if window is None else {"window": window}
    chan, _ = await conn.create_session(
        lambda: term, term_type="xterm-256color", term_size=size, encoding=None, **extra
    )
    return Client(conn, chan, term)


def status(identity: str, width: int, height: int, key: str = "-") -> str:
    return f"user={identity} size={width}x{height} key={key}"


# Tests ------------------------------------------------------------------------------------------


async def test_typing_keys(server: Server) -> None:
    client = await open_terminal(server.port)
    term = client.term
    await term.wait_for(status("Alice", 80, 24))
    await term.wait_for(f"fp={CLIENT_KEY.get_fingerprint()} term=xterm-256color")
    assert server.live.count == 1

    client.type("a")
    await term.wait_for(status("Alice", 80, 24, "a"))
    client.type("Z")
    await term.wait_for(status("Alice", 80, 24, "Z"))
    client.type("\x1b[A")  # an escape sequence: the up arrow
    await term.wait_for(status("Alice", 80, 24, "up"))
    client.type("\x1b")  # a lone Esc only arrives once the parser's tick fires
    await term.wait_for(status("Alice", 80, 24, "escape"))
    client.type("é".encode())  # multi-byte UTF-8
    await term.wait_for(status("Alice", 80, 24, "é"))

    client.type("q")
    assert await client.wait_closed() == 0
    await server.live.wait_for(0)
    client.conn.close()


async def test_keys_arrive_with_the_input_parser_patch_off(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were the fence's ``input_parser`` guard to fail, sessions read input with Textual's own
    parser, and a lone Esc still arrives (the driver ticks the parser after each input)."""
    from shipwreck.tui._textual import parser

    monkeypatch.setattr(parser, "_on", False)
    client = await open_terminal(server.port)
    term = client.term
    await term.wait_for(status("Alice", 80, 24))
    client.type("\x1b[A")
    await term.wait_for(status("Alice", 80, 24, "up"))
    client.type("\x1b")
    await term.wait_for(status("Alice", 80, 24, "escape"))
    client.type("a")
    await term.wait_for(status("Alice", 80, 24, "a"))
    client.type("q")
    assert await client.wait_closed() == 0


async def test_keys_typed_while_the_app_is_built_are_kept(tmp_path: Path) -> None:
    srv, acceptor = await _start(tmp_path, factory_delay=0.3)
    try:
        client = await open_terminal(srv.port)
        client.type("w")  # the async app factory is still running
        await client.term.wait_for(status("Alice", 80, 24, "w"))
        client.conn.close()
        await srv.live.wait_for(0)
    finally:
        acceptor.close()
        await srv.live.shutdown(timeout=3.0)


async def test_resize(server: Server) -> None:
    client = await open_terminal(server.port, size=(80, 24))
    await client.term.wait_for(status("Alice", 80, 24))
    client.chan.change_terminal_size(100, 30)
    client.term.resize(100, 30)
    await client.term.wait_for(status("Alice", 100, 30))
    client.chan.change_terminal_size(60, 20)
    client.term.resize(60, 20)
    await client.term.wait_for(status("Alice", 60, 20))
    client.conn.close()
    await server.live.wait_for(0)


@pytest.mark.parametrize("key", ["q", "\x03"], ids=["q", "ctrl+c"])
async def test_quit_key_ends_the_session(server: Server, key: str) -> None:
    client = await open_terminal(server.port)
    await client.term.wait_for(status("Alice", 80, 24))
    client.type(key)
    assert await client.wait_closed() == 0
    await server.live.wait_for(0)
    # The terminal was handed back: main screen, cursor visible.
    assert client.term.screen.cursor.hidden is False
    client.conn.close()


async def test_abrupt_disconnect_stops_the_app(server: Server) -> None:
    client = await open_terminal(server.port)
    await client.term.wait_for(status("Alice", 80, 24))
    assert server.live.count == 1
    client.conn.abort()
    await server.live.wait_for(0)


async def test_two_clients_each_see_their_own_app(server: Server) -> None:
    alice = await open_terminal(server.port, "alice", size=(80, 24))
    bob = await open_terminal(server.port, "bob", size=(90, 30))
    await alice.term.wait_for(status("Alice", 80, 24))
    await bob.term.wait_for(status("bob", 90, 30))
    assert server.live.count == 2

    alice.type("a")
    bob.type("b")
    await alice.term.wait_for(status("Alice", 80, 24, "a"))
    await bob.term.wait_for(status("bob", 90, 30, "b"))
    assert "bob" not in alice.term.text()
    assert "Alice" not in bob.term.text()

    alice.type("q")
    assert await alice.wait_closed() == 0
    await server.live.wait_for(1)
    bob.type("c")
    await bob.term.wait_for(status("bob", 90, 30, "c"))
    bob.conn.close()
    alice.conn.close()
    await server.live.wait_for(0)


async def test_session_without_pty_is_refused(server: Server) -> None:
    async with await connect(server.port) as conn:
        result = await conn.run(check=False)  # a shell request, no PTY
        assert result.exit_status == 1
        assert result.stderr == NO_PTY_MESSAGE
        result = await conn.run("ls /", check=False)
        assert result.exit_status == 2
        assert str(result.stderr).strip() == NO_COMMANDS_MESSAGE.strip()
    assert server.live.started_total == 0


async def test_forwarding_and_sftp_are_refused(server: Server) -> None:
    async with await connect(server.port) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", server.port)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", server.port)
        with pytest.raises((asyncssh.Error, OSError)):
            await conn.start_sftp_client()
    assert server.live.started_total == 0


async def test_unknown_key_is_refused(server: Server) -> None:
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server.port, "mallory")


async def test_host_key_is_kept(server: Server) -> None:
    assert ensure_host_key(server.host_key) == server.fingerprint
    assert server.host_key.stat().st_mode & 0o777 == 0o600
    async with await connect(server.port) as conn:
        host_key = conn.get_server_host_key()
        assert host_key is not None
        assert host_key.get_fingerprint() == server.fingerprint


async def test_live_apps_gauge_returns_to_zero(server: Server) -> None:
    n = 20
    clients = await asyncio.gather(*(open_terminal(server.port) for _ in range(n)))
    for client in clients:
        await client.term.wait_for(status("Alice", 80, 24))
    assert server.live.count == n
    for i, client in enumerate(clients):
        if i % 3 == 0:
            client.type("q")
        elif i % 3 == 1:
            client.type("\x03")
        else:
            client.conn.abort()
    await server.live.wait_for(0)
    assert server.live.started_total == server.live.ended_total == n
    for client in clients:
        client.conn.close()

    # Nothing keeps the finished apps alive (Textual's stdout redirection used to).
    assert not hasattr(sys.stdout, "app")
    assert not hasattr(sys.stderr, "app")
    async with asyncio.timeout(TIMEOUT):
        while any(ref() is not None for ref in server.apps):
            gc.collect()
            await asyncio.sleep(0.05)


async def test_a_crashing_app_ends_only_its_own_session(server: Server) -> None:
    victim = await open_terminal(server.port, "alice")
    bystander = await open_terminal(server.port, "bob")
    await victim.term.wait_for(status("Alice", 80, 24))
    await bystander.term.wait_for(status("bob", 80, 24))

    victim.type("x")
    assert await victim.wait_closed() == 1
    await victim.term.wait_for("internal error")
    await server.live.wait_for(1)

    bystander.type("k")
    await bystander.term.wait_for(status("bob", 80, 24, "k"))
    bystander.type("q")
    assert await bystander.wait_closed() == 0
    await server.live.wait_for(0)
    victim.conn.close()
    bystander.conn.close()


async def test_a_client_that_stops_reading_is_dropped(tmp_path: Path) -> None:
    srv, acceptor = await _start(tmp_path, max_write_buffer=32 * 1024)
    try:
        stalled = await open_terminal(srv.port, window=16 * 1024)
        await stalled.term.wait_for(status("Alice", 80, 24))
        stalled.chan.pause_reading()
        stalled.type("f")  # the app starts repainting the whole screen every few ms
        async with asyncio.timeout(TIMEOUT):
            await stalled.conn.wait_closed()
        await srv.live.wait_for(0)

        healthy = await open_terminal(srv.port, "bob")
        await healthy.term.wait_for(status("bob", 80, 24))
        healthy.type("q")
        assert await healthy.wait_closed() == 0
        healthy.conn.close()
    finally:
        acceptor.close()
        await srv.live.shutdown(timeout=3.0)


def test_color_system_follows_the_client_terminal() -> None:
    assert color_system_for("xterm-256color", {}) == "256"
    assert color_system_for("xterm-256color", {"COLORTERM": "truecolor"}) == "truecolor"
    assert color_system_for("xterm-direct", {}) == "truecolor"
    assert color_system_for("xterm", {}) == "standard"
    assert color_system_for("vt100", {}) == "standard"


@needs_openssh
async def test_openssh_client(server: Server, tmp_path: Path) -> None:
    key_file = tmp_path / "id_ed25519"
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, CLIENT_KEY.export_private_key("openssh"))
    os.close(fd)

    master, slave = os.openpty()
    set_winsize(master, 80, 24)
    ssh = shutil.which("ssh")
    assert ssh is not None
    # fmt: off
    argv = [
        ssh, "-tt", "-p", str(server.port), "-i", str(key_file), "-F", "/dev/null",
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR",
        "carol@127.0.0.1",
    ]
    # fmt: on
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    env["TERM"] = "xterm-256color"
    proc = await asyncio.create_subprocess_exec(
        *argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
    )
    os.close(slave)
    reader = PtyReader(master, 80, 24)
    try:
        term = reader.term
        await term.wait_for(status("Carol", 80, 24))
        os.write(master, b"k")
        await term.wait_for(status("Carol", 80, 24, "k"))

        # ssh is not in the pty's foreground group here, so deliver its SIGWINCH by hand.
        set_winsize(master, 100, 30)
        term.resize(100, 30)
        proc.send_signal(signal.SIGWINCH)
        await term.wait_for(status("Carol", 100, 30, "k"))

        os.write(master, b"q")
        async with asyncio.timeout(TIMEOUT):
            assert await proc.wait() == 0
        await server.live.wait_for(0)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        if not reader.eof.is_set():
            reader.stop()
        os.close(master)

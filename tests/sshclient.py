"""A real SSH client terminal for end-to-end tests: asyncssh with a PTY, drawn on pyte; OpenSSH's
``ssh`` run in a pty as a person runs it, drawn the same way; and what a player reads there."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import re
import shutil
import struct
import subprocess
import termios
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh
import pyte
import pytest

from shipwreck.config import Config
from shipwreck.server.service import Service
from shipwreck.server.ssh import LiveApps

TIMEOUT = 15.0
COACH = re.compile(r"coach\s+type: (.+?)(?:  |$)", re.M)
"""The tutorial coach's panel: the command it asks for."""
_ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")


async def eventually(check: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    """Wait until ``check()`` holds (a state the server reaches asynchronously): the sync point
    a test needs, instead of a sleep that hopes the server got there."""
    try:
        async with asyncio.timeout(timeout):
            while not check():
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"never happened within {timeout} s: {what}") from None


needs_openssh = pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client (ssh)")
"""For the tests that run OpenSSH's ``ssh``: skipped, with the reason, where it is missing."""


class Terminal(asyncssh.SSHClientSession[bytes]):
    """Everything received is drawn on a pyte screen, and kept as raw bytes."""

    def __init__(self, width: int, height: int) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.raw += data
        self.stream.feed(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(lines=height, columns=width)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def plain_bytes(self) -> str:
        """Every byte received, escape sequences removed: what could ever have been shown."""
        return _ESCAPES.sub(b"", bytes(self.raw)).decode("utf-8", "replace")

    async def wait_for(self, needle: str, timeout: float = TIMEOUT) -> None:
        try:
            async with asyncio.timeout(timeout):
                while needle not in self.text():
                    await asyncio.sleep(0.02)
        except TimeoutError:
            raise AssertionError(f"{needle!r} never appeared; screen:\n{self.text()}") from None


@dataclass(eq=False)
class Client:
    conn: asyncssh.SSHClientConnection
    chan: asyncssh.SSHClientChannel[bytes]
    term: Terminal

    def type(self, keys: str) -> None:
        self.chan.write(keys.encode())

    async def line(self, text: str) -> None:
        self.type(text + "\r")
        await asyncio.sleep(0.05)

    def close(self) -> None:
        self.conn.close()


async def connect(port: int, username: str, key: asyncssh.SSHKey) -> asyncssh.SSHClientConnection:
    """An SSH connection to the server on 127.0.0.1 as ``username`` with ``key`` (and nothing
    from this machine's own SSH set-up)."""
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
    port: int, username: str, key: asyncssh.SSHKey, size: tuple[int, int] = (120, 40)
) -> Client:
    conn = await connect(port, username, key)
    term = Terminal(*size)
    chan, _ = await conn.create_session(
        lambda: term, term_type="xterm-256color", term_size=size, encoding=None
    )
    return Client(conn, chan, term)


def set_winsize(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


class PtyReader:
    """Reads the master side of a pty into a pyte screen."""

    def __init__(self, fd: int, width: int, height: int) -> None:
        self.fd = fd
        self.term = Terminal(width, height)
        self.eof = asyncio.Event()
        os.set_blocking(fd, False)
        asyncio.get_running_loop().add_reader(fd, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the child side closed
            data = b""
        if data:
            self.term.data_received(data, None)
        else:
            self.stop()

    def stop(self) -> None:
        asyncio.get_running_loop().remove_reader(self.fd)
        self.eof.set()


@dataclass(eq=False)
class OpenSSH:
    """OpenSSH's ``ssh -tt`` in a pty of its own, as a person runs it in a terminal: the keys
    typed go to the pty, and what ``ssh`` prints is drawn on ``term``."""

    proc: asyncio.subprocess.Process
    master: int
    reader: PtyReader

    @property
    def term(self) -> Terminal:
        return self.reader.term

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    async def line(self, text: str) -> None:
        self.type(text + "\r")
        await asyncio.sleep(0.05)

    async def close(self) -> None:
        """End ``ssh`` if it still runs (SIGKILL: the server sees the connection drop)."""
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        if not self.reader.eof.is_set():
            self.reader.stop()
        os.close(self.master)


async def open_openssh(
    port: int, username: str, key: asyncssh.SSHKey, home: Path, size: tuple[int, int] = (120, 40)
) -> OpenSSH:
    """``ssh -tt -p PORT USERNAME@127.0.0.1`` in a pty of ``size`` with ``key`` (written to
    ``home``, which is also its ``$HOME``), and nothing from this machine's own SSH set-up."""
    key_file = home / f"{username}_ed25519"
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, key.export_private_key("openssh"))
    os.close(fd)
    master, child = pty.openpty()
    set_winsize(child, *size)
    # fmt: off
    argv = [
        "ssh", "-tt", "-p", str(port), "-i", str(key_file), "-F", "/dev/null",
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR",
        f"{username}@127.0.0.1",
    ]
    # fmt: on
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
    env["TERM"] = "xterm-256color"
    proc = await asyncio.create_subprocess_exec(
        *argv, stdin=child, stdout=child, stderr=subprocess.DEVNULL, env=env
    )
    os.close(child)
    return OpenSSH(proc, master, PtyReader(master, *size))


async def run_openssh(
    port: int, username: str, key: asyncssh.SSHKey, home: Path, command: str | None = None
) -> tuple[int | None, str, str]:
    """``ssh -T -p PORT USERNAME@127.0.0.1 [COMMAND] < /dev/null`` with ``key``, nothing from
    this machine's SSH set-up: its exit status, stdout and stderr."""
    key_file = home / f"{username}_ed25519"
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, key.export_private_key("openssh"))
    os.close(fd)
    # fmt: off
    argv = [
        "ssh", "-T", "-p", str(port), "-i", str(key_file), "-F", "/dev/null",
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR",
        f"{username}@127.0.0.1", *([command] if command is not None else []),
    ]
    # fmt: on
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
    proc = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    out, err = await asyncio.wait_for(proc.communicate(), TIMEOUT)
    return proc.returncode, out.decode(), err.decode()


async def coach_asks(term: Terminal) -> str:
    """The command the tutorial coach's panel shows, read from the screen."""
    for _ in range(250):
        found = COACH.search(term.text())
        if found:
            return found.group(1).strip()
        await asyncio.sleep(0.02)
    raise AssertionError(f"no coach on screen:\n{term.text()}")


def loopback_config(tmp_path: Path) -> Config:
    """The shipped settings on 127.0.0.1, a free port, and a fresh SQLite file and host key."""
    config = Config()
    config.server.listen = "127.0.0.1"
    config.server.port = 0
    config.server.database = str(tmp_path / "shipwreck.db")
    config.server.host_key = str(tmp_path / "host_key")
    return config


@contextlib.asynccontextmanager
async def running(config: Config) -> AsyncIterator[Service]:
    """``shipwreck serve`` with ``config``, for as long as the ``async with`` lasts."""
    svc = Service(config, live=LiveApps())
    await svc.start()
    try:
        yield svc
    finally:
        await svc.stop()


def choices_shown(text: str) -> list[str]:
    """The choices on a Lifeboat screen's ``choices:`` row (the first of the prompt's rows of
    choices): each shown whole, separated by `` · ``; a count of those that did not fit
    ("+3 more: Tab") is not a choice."""
    m = re.search(r"choices:\s+(.*)", text)
    if not m:
        return []
    items = [c.strip() for c in m.group(1).split(" · ")]
    return [c for c in items if c and not re.fullmatch(r"\+\d+ more: \w+", c)]


BOB = asyncssh.generate_private_key("ssh-ed25519")


SSH = shutil.which("ssh")


needs_ssh = pytest.mark.skipif(SSH is None, reason="OpenSSH's ssh is not installed")


def key_file(tmp_path: Path, key: asyncssh.SSHKey, name: str) -> Path:
    path = tmp_path / name
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, key.export_private_key("openssh"))
    os.close(fd)
    return path


async def ssh(
    port: int, user: str, tmp_path: Path, *options: str, timeout: float = 20.0
) -> tuple[int, bytes, bytes]:
    """Run OpenSSH's ``ssh`` (nothing from this machine's set-up; input at EOF): its exit
    status, standard output and standard error."""
    assert SSH is not None
    # fmt: off
    argv = [
        SSH, "-p", str(port), "-F", "/dev/null",
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "IdentitiesOnly=yes", "-o", "ConnectTimeout=10", *options, f"{user}@127.0.0.1",
    ]
    # fmt: on
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    env["TERM"] = "xterm-256color"
    proc = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    try:
        async with asyncio.timeout(timeout):
            out, err = await proc.communicate()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, out, err


def assert_nothing_hidden_leaked(
    table: object, clients: dict[Client, int | None], received: dict[Client, str] | None = None
) -> None:
    """No private event meant for another seat, and no other seat's friend/enemy, was ever
    sent to a client before the end (checked on every byte received, escapes removed;
    ``received``: each client's bytes as read earlier, when ``table`` is as it was then)."""
    from shipwreck.runtime import Table

    assert isinstance(table, Table)
    if table.over:
        return
    for client, seat in clients.items():
        seen = client.term.plain_bytes() if received is None else received[client]
        for e in table.events:
            if e.to is not None and seat not in e.to and len(e.text) > 12:
                # a whole log line: followed by padding, a box edge or the end of a line
                line = re.escape(e.text) + r"(?:\s{2,}|\s*[│┃]|\s*$)"
                assert not re.search(line, seen, re.M), f"seat {seat} received {e.text!r}"
        for other, c in table.state.chars.items():
            if table.state.players.index(other) == seat:
                continue
            assert f"{other}: friend {c.friend}, enemy {c.enemy}" not in seen


ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")
"""ann's key, for the tests that sign her in over an exec request."""


async def run(service: Service, user: str, key: asyncssh.SSHKey, command: str, data: str) -> Any:
    """``ssh user@server command < data`` (an exec request, no terminal): its result."""
    async with asyncssh.connect(
        "127.0.0.1",
        service.port,
        username=user,
        client_keys=[key],
        known_hosts=None,
        config=None,
        agent_path=None,
    ) as conn:
        return await conn.run(command, input=data)

"""Property (F1, the whole class): no line a player types, at the lobby or at a table, makes
the server open a file.

The server runs in this process, on its own thread and event loop; a real SSH client types
Hypothesis's lines (biased towards paths, device files, bot names and odd digits). An audit hook
(``sys.addaudithook``: every ``open()``, ``os.open`` and ``io.open_code`` in the process raises an
``open`` event) records what is opened while the lines are typed. Allowed: Python's own files
(imports), the package and its data (grammar, shipped bots), and the database. Anything else,
or any path built from a typed word, fails the test.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import asyncssh
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shipwreck
from shipwreck.server.service import Service
from shipwreck.server.ssh import LiveApps

from harness import make_config
from sshclient import Client, open_terminal

T = TypeVar("T")
KEY = asyncssh.generate_private_key("ssh-ed25519")

_opened: list[str] = []
_armed = threading.Event()


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and _armed.is_set() and args and isinstance(args[0], str | bytes | Path):
        _opened.append(str(args[0]))


sys.addaudithook(_audit)  # (an audit hook cannot be removed; it records only while armed)

PATHS = [
    "/dev/zero",
    "/dev/stdin",
    "/dev/urandom",
    "/etc/passwd",
    "/etc/hostname",
    "../../../etc/hostname",
    "~/.ssh/id_rsa",
    "host_key",
    "shipwreck.db",
    "server.toml",
    "bots/random.bot",
    "random.bot",
    "./survivor",
    "grammar/base.lark",
    "/proc/self/environ",
    "C:\\boot.ini",
    "file:///etc/passwd",
]
WORDS = st.one_of(
    st.sampled_from(PATHS),
    st.sampled_from(["random", "survivor", "sm_raider", "free", "autopilot", "1", "2", "²", "9"]),
    # (no control characters: ctrl+c and ctrl+q end the session; keys are tested elsewhere)
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=12),
)
LINES = st.one_of(
    st.builds(lambda n, ws: f"new {n} " + " ".join(ws), st.sampled_from(["4", "5", "6", "²"]),
              st.lists(WORDS, min_size=1, max_size=3)),
    st.builds(lambda n, ws: f"new sm {n} " + " ".join(ws), st.sampled_from(["2", "3"]),
              st.lists(WORDS, min_size=1, max_size=2)),
    st.builds(lambda cmd, w: f"{cmd} {w}",
              st.sampled_from(["join", "watch", "open", "say", "tell", "chat", "help", "rules",
                               "bot", "load", "row", "take", "lobby"]), WORDS),
    WORDS,
)  # fmt: skip


class Server:
    """A real server on its own event loop thread, and a client typing at it."""

    def __init__(self, tmp: Path) -> None:
        self.config = make_config(tmp)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.service = Service(self.config, live=LiveApps())
        self.service.lobby.new_tables_per_minute = 10**6  # let every `new` reach the bot words
        self.service.lobby.open_tables_per_player = 10**6
        self.run(self.service.start())
        self.client: Client = self.run(open_terminal(self.service.port, "prober", KEY))
        self.run(self.client.term.wait_for("signed in as prober"))
        self.marks = iter(range(1, 10**6))

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=60)

    async def _type(self, lines: list[str]) -> None:
        for line in lines:
            self.client.type(line + "\r")
            await asyncio.sleep(0.2)  # well under the rate limit: every line is handled
        self.client.type("\x1b")  # out of any help screen
        await asyncio.sleep(0.2)
        self.client.type("lobby\r")
        mark = f"mark{next(self.marks)}x"
        await asyncio.sleep(0.2)
        self.client.type(f"say {mark}\r")
        await self.client.term.wait_for(mark, timeout=10)

    def type(self, lines: list[str]) -> None:
        self.run(self._type(lines))

    def close(self) -> None:
        self.client.close()
        self.run(self.service.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("no-file-opens"))
    try:
        yield s
    finally:
        s.close()


def _allowed(path: str, server: Server) -> bool:
    p = Path(path)
    if not p.is_absolute():
        return False  # the server never opens anything relative to its working directory
    roots = [Path(sys.prefix), Path(sys.base_prefix), Path(shipwreck.__file__).parent.parent]
    database = Path(server.config.server.database)
    return any(p.is_relative_to(r) for r in roots) or p.name.startswith(database.name)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(lines=st.lists(LINES, min_size=1, max_size=6))
def test_f1_no_typed_line_opens_a_file(server: Server, lines: list[str]) -> None:
    _opened.clear()
    _armed.set()
    try:
        server.type(lines)
    finally:
        _armed.clear()
    bad = [p for p in _opened if not _allowed(p, server)]
    assert not bad, f"typing {lines!r} opened {bad}"
    typed = {w for line in lines for w in line.split() if len(w) > 2}
    assert not [p for p in _opened if any(p == w or p.endswith("/" + w) for w in typed)], _opened

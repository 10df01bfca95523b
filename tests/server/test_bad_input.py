"""Bad input at every door of the real server: `Service` in-process, real SSH clients.

Attackers (eve at her table, mal who never sits down) knock at the doors while a bystander (bob)
plays at his own table. The doors:

* the PTY at the lobby and at a table (both at once): random bytes and escape sequences
  (Hypothesis, derandomized) and a fixed list (lone ESC, broken CSI, mouse reports, in-band resize
  reports, a 1 MB bracketed paste, NUL, invalid UTF-8, Ctrl+C, Ctrl+Q, ...), each then Enter;
* keys Textual's parser cannot decode (kitty keys beyond U+10FFFF, malformed fields, a mouse
  report after an in-band resize report with no pixels), pastes holding control keys, and a
  paste that never ends;
* long lines: typed (twice the line length) and pasted (100 KB), at the lobby and at a table;
* a burst of 30,000 keys, and a flood of 500 commands written as fast as the channel takes them;
* the terminal size: PTY requests and window changes from 0×0 to 65535×65535;
* ``bot check`` / ``bot save``: a 10 MB script, 10,000 nested parentheses, bad names;
* unknown exec commands (with standard input, with none, and with no EOF at all);
* port forwarding (direct-tcpip, a local listener, remote listeners, UNIX sockets);
* SFTP, other subsystems, scp and a shell without a PTY.

For every door: the attacker gets a clear answer (an error line naming the input, a bell, an
exit status with a message, a refused channel, or its own session ends cleanly), bob keeps
getting answers within ``ANSWER_WITHIN`` seconds, bob's game state is byte for byte unchanged,
and every table's command log replays from its seed to the live state (so every accepted command
was a legal one). Each door records how many inputs it tried in ``TRIED`` and prints a line
(``pytest -s`` shows them).

A burst of typed keys does not stall the other players: the driver hands each session's app its
input a turn at a time (``keys_per_turn`` events; see `shipwreck.server.driver`), and a session
whose unparsed input piles up stops being read. Keys typed ahead are handled in order, lines keep
their boundaries (`shipwreck.tui.widgets.CommandLine`), so the attackers here type "Ctrl+U Ctrl+K
line Enter" in one write.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import string
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import asyncssh
import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from shipwreck.games.registry import default_timers
from shipwreck.lang import format_command
from shipwreck.replay import export_table, table_at
from shipwreck.runtime import SeatSpec, Table
from shipwreck.server.driver import DEFAULT_KEYS_PER_SECOND, PASTE_IDLE_TIMEOUT
from shipwreck.server.service import Service
from shipwreck.server.ssh import MAX_TERMINAL_SIZE

from sshclient import Client, loopback_config, open_terminal, running

BOB_KEY = asyncssh.generate_private_key("ssh-ed25519")
EVE_KEY = asyncssh.generate_private_key("ssh-ed25519")
MAL_KEY = asyncssh.generate_private_key("ssh-ed25519")

ANSWER_WITHIN = 3.0
"""Seconds within which the bystander must get an answer, whatever the attacker does."""
IN_LOBBY = "new [4-6]"  # the lobby's help, shown only there
AT_TABLE = "· lifeboat · you are"
CRASH = "internal error"
BOTS = ["random", "survivor", "loyal", "predator", "hoarder"]
SIZE = (120, 40)

GENERATED = 15
"""Hypothesis inputs per PTY door (besides the fixed list)."""

TRIED: dict[str, int] = {}
"""Door -> inputs tried (filled by the tests, printed by each)."""

Where = Literal["lobby", "table"]


# Inputs ----------------------------------------------------------------------------------------

FIXED: list[tuple[str, bytes]] = [
    ("lone ESC", b"\x1b"),
    ("ESC ESC ESC", b"\x1b\x1b\x1b"),
    ("broken CSI", b"\x1b["),
    ("CSI, no final byte", b"\x1b[1;2;3"),
    ("CSI with a 5000-digit parameter", b"\x1b[" + b"9" * 5000 + b"m"),
    ("CSI with 1000 parameters", b"\x1b[" + b";".join([b"7"] * 1000) + b"H"),
    ("unknown CSI finals", b"\x1b[5z\x1b[?1;2c\x1b[>0;95;0c\x1b[6n"),
    ("unterminated OSC", b"\x1b]0;" + b"x" * 2000),
    ("OSC 52 clipboard", b"\x1b]52;c;aGVsbG8=\x07"),
    ("DCS and APC", b"\x1bP1$r0m\x1b\\\x1b_Gi=1;AAAA\x1b\\"),
    ("SGR mouse click", b"\x1b[<0;10;5M\x1b[<0;10;5m"),
    ("SGR mouse far outside", b"\x1b[<0;99999;99999M\x1b[<0;-5;-5m"),
    ("X10 mouse", b"\x1b[M !!\x1b[M#!!"),
    ("urxvt mouse", b"\x1b[32;10;5M"),
    ("mouse wheel storm", b"\x1b[<64;20;20M" * 300),
    ("focus in and out", b"\x1b[I\x1b[O" * 20),
    # Textual's parser makes a Resize of these whether or not they were asked for; the driver
    # must drop them (the moderate one first: if that is ever obeyed, the test fails cleanly
    # before the huge one can take the machine's memory).
    ("in-band resize report 900x300", b"\x1b[48;300;900;0;0t"),
    ("in-band resize report 99999x99999", b"\x1b[48;1;1;1;1t\x1b[48;99999;99999;0;0t"),
    ("kitty keys", b"\x1b[97;5u\x1b[13;2u\x1b[57399u\x1b[9999999u"),
    ("function keys", b"\x1bOP\x1b[15~\x1b[24~\x1b[200;5~"),
    ("history storm", b"\x1b[A" * 200 + b"\x1b[B" * 200),
    ("backspace storm", b"\x7f" * 1000 + b"\x08" * 1000),
    ("tab storm", b"\t" * 300),
    ("1 MB bracketed paste", b"\x1b[200~" + b"A" * 1_000_000 + b"\x1b[201~"),
    ("paste with newlines and keys", b"\x1b[200~take\r\nrow\x1b[A\x03\x11\x1b[201~"),
    ("paste end without start", b"\x1b[201~"),
    ("NUL", b"\x00"),
    ("1000 NULs", b"\x00" * 1000),
    ("invalid UTF-8", b"\xff\xfe\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc"),
    ("overlong UTF-8 and a surrogate", b"\xc0\xaf\xe0\x80\xaf\xed\xa0\x80"),
    ("half a character", b"\xe2\x82"),
    ("wide, combining, bidi", "日本語\u0301\u200b\u202e\U0001f6a2".encode()),
    ("C0 controls", bytes(range(1, 32)).replace(b"\x03", b"").replace(b"\x11", b"")),
    ("Ctrl+C", b"\x03"),
    ("Ctrl+Q", b"\x11"),
]

_PIECES = [
    b"\x1b",
    b"\x1b[",
    b"\x1bO",
    b"\x1b]",
    b"\x1bP",
    b"\x1b[<",
    b"\x1b[M",
    b"\x1b[200~",
    b"\x1b[201~",
    b"\x07",
    b"\x1b\\",
    b"\r",
    b"\t",
    b"\x7f",
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b";",
    b"~",
]


def _csi(params: list[int], private: bytes, final: int) -> bytes:
    return b"\x1b[" + private + b";".join(str(p).encode() for p in params) + bytes([final])


_ESCAPES = st.builds(
    _csi,
    st.lists(st.integers(0, 2**40), max_size=6),
    st.sampled_from([b"", b"?", b"<", b">", b"="]),
    st.integers(0x40, 0x7E),
)
JUNK = st.one_of(
    st.binary(min_size=1, max_size=48),
    st.lists(
        st.one_of(st.sampled_from(_PIECES), _ESCAPES, st.binary(min_size=1, max_size=6)),
        min_size=1,
        max_size=10,
    ).map(b"".join),
).filter(lambda data: b"\x03" not in data and b"\x11" not in data)
"""Random input. Ctrl+C and Ctrl+Q (quit) are left to the fixed list: drawn at random they would
end most sessions, and the test would mostly measure reconnecting."""


def generated_junk(n: int) -> list[bytes]:
    """``n`` distinct inputs drawn by Hypothesis (derandomized: the same list on every run)."""
    found: list[bytes] = []

    @settings(
        max_examples=n,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(JUNK)
    def collect(data: bytes) -> None:
        if data not in found:
            found.append(data)

    collect()
    return found


# Helpers ---------------------------------------------------------------------------------------


def state_bytes(table: Table) -> bytes:
    return msgspec.json.encode(table.state)


def words(prefix: str) -> Iterator[str]:
    """Fresh unknown words (letters only, so the parser reads each as one word)."""
    for letters in itertools.product(string.ascii_lowercase, repeat=4):
        yield prefix + "".join(letters)


def report(door: str, tried: int, detail: str) -> None:
    """Record and print one summary line (to the real stdout: Textual redirects sys.stdout
    while apps run)."""
    TRIED[door] = tried
    out = sys.__stdout__
    if out is not None:
        out.write(f"\n[bad input] {door}: {tried} inputs; {detail}\n")
        out.flush()


def assert_every_table_replays(service: Service) -> None:
    """Every table's log is on disk as played, and replays from its seed to the live state:
    a log holding a command the seat could not legally send would not replay."""
    for table in service.lobby.tables.values():
        assert service.store.commands(table.id) == table.commands
        replayed = table_at(export_table(service.store, table.id))
        assert state_bytes(replayed) == state_bytes(table), f"table {table.id} diverged"


PARSER_FAILED = "input parser failed"
"""What the driver logs when Textual's input parser raises (it then drops that session)."""


def assert_screens_bounded(service: Service) -> None:
    """No session's screen is bigger than the server draws (nor was resized by its input)."""
    max_width, max_height = MAX_TERMINAL_SIZE
    for app in service.live.apps():
        width, height = app.size
        assert width <= max_width and height <= max_height, f"a {width}x{height} screen"


def assert_no_errors_logged(caplog: pytest.LogCaptureFixture) -> None:
    bad = [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR
        and r.name.startswith("shipwreck")
        and PARSER_FAILED not in r.getMessage()
    ]
    assert not bad, f"the server logged errors: {bad[:3]}"


def parser_failures(caplog: pytest.LogCaptureFixture, name: str) -> int:
    return sum(
        PARSER_FAILED in r.getMessage() and f"({name})" in r.getMessage() for r in caplog.records
    )


async def rings(client: Client, bells: int, what: str, within: float = 30.0) -> None:
    """Wait for a bell after the first ``bells`` (rung once the server has digested the keys)."""
    try:
        async with asyncio.timeout(within):
            while client.term.raw.count(b"\x07") <= bells:
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(what) from None


async def connect(
    service: Service, user: str, key: asyncssh.SSHKey
) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1",
        service.port,
        username=user,
        client_keys=[key],
        known_hosts=None,
        config=None,
        agent_path=None,
    )


def new_table(service: Service, player: str, seed: int) -> Table:
    seats = [SeatSpec("human")] + [SeatSpec("bot", b) for b in BOTS]
    return service.lobby.create_table("lifeboat", seats, creator=player, seed=seed)


# Fixtures --------------------------------------------------------------------------------------


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    config = loopback_config(tmp_path)
    config.timers = dict.fromkeys(default_timers(), 0)  # no timeouts: nothing moves unless typed
    async with running(config) as svc:
        yield svc


@dataclass
class Bystander:
    """bob, at his own table: asks something after every attack and must get an answer."""

    service: Service
    client: Client
    table: Table
    before: bytes
    words: Iterator[str] = field(default_factory=lambda: words("zb"))
    asked: int = 0
    worst: float = 0.0
    _last: float = 0.0
    _turn: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def check(self, within: float = ANSWER_WITHIN) -> None:
        async with self._turn:  # two doors may be attacked at once; bob asks one at a time
            await self._check(within)

    async def _check(self, within: float) -> None:
        # Stay well under the session's rate limit (commands_per_second).
        rest = 1.0 / self.service.config.limits.commands_per_second - (
            time.monotonic() - self._last
        )
        if rest > 0:
            await asyncio.sleep(rest * 1.5)
        word = next(self.words)
        start = time.monotonic()
        self.client.type(word + "\r")
        await self.client.term.wait_for(f"'{word}'", timeout=within)
        self._last = time.monotonic()
        self.worst = max(self.worst, self._last - start)
        self.asked += 1
        assert CRASH not in self.client.term.plain_bytes()
        assert state_bytes(self.table) == self.before, "bob's game changed without a command"
        assert self.table.commands == self.service.store.commands(self.table.id)


@pytest.fixture
async def bob(service: Service) -> AsyncIterator[Bystander]:
    table = new_table(service, "bob", seed=11)
    client = await open_terminal(service.port, "bob", BOB_KEY, SIZE)
    await client.term.wait_for(AT_TABLE)
    by = Bystander(service, client, table, state_bytes(table))
    await by.check()
    try:
        yield by
    finally:
        client.close()


class Attacker:
    """A player who types garbage. Knows where she should be and how to get back there."""

    def __init__(self, service: Service, name: str, key: asyncssh.SSHKey) -> None:
        self.service = service
        self.name = name
        self.key = key
        self.client: Client | None = None
        self.words = words("zv")
        self.seeds = itertools.count(100)
        self.sessions = 0

    @property
    def c(self) -> Client:
        assert self.client is not None
        return self.client

    def alive(self) -> bool:
        return self.client is not None and not self.client.term.closed.is_set()

    def write(self, data: bytes) -> None:
        with contextlib.suppress(OSError, asyncssh.Error):  # ended under us: the caller sees it
            self.c.chan.write(data)

    async def connect(self) -> None:
        if self.client is not None:
            self.client.close()
            await self.client.conn.wait_closed()
            async with asyncio.timeout(10):  # her old app has ended (sessions per key)
                while any(getattr(a, "user", "") == self.name for a in self.service.live.apps()):
                    await asyncio.sleep(0.02)
        self.client = await open_terminal(self.service.port, self.name, self.key, SIZE)
        self.sessions += 1
        async with asyncio.timeout(10):
            while IN_LOBBY not in self.c.term.text() and AT_TABLE not in self.c.term.text():
                await asyncio.sleep(0.02)

    async def type_line(self, text: str) -> None:
        """Clear the line (Ctrl+U, Ctrl+K), then type ``text`` and Enter, all in one write."""
        self.write(b"\x15\x0b" + text.encode() + b"\r")

    def click_command_line(self) -> None:
        """Click the command line (how a player gets the focus back after clicking elsewhere:
        a click outside every widget leaves nothing focused, and keys go nowhere)."""
        rows = self.c.term.screen.display
        row = next(
            (i + 1 for i, line in enumerate(rows) if line.startswith("▊") and "▔" not in line),
            len(rows) - 2,
        )
        self.write(f"\x1b[<0;6;{row}M\x1b[<0;6;{row}m".encode())

    async def probe(self, behind: int = 0) -> str | None:
        """Type a fresh unknown word and wait for the error naming it; says how it got there.
        ``behind``: keys typed just before, which the session's key budget may still be reading
        (at `DEFAULT_KEYS_PER_SECOND`), so the first try waits for them too."""
        for attempt in range(3):
            if not self.alive():
                return None
            if attempt:
                self.click_command_line()
            word = next(self.words)
            await self.type_line(word)
            wait = 2.0 * (attempt + 1) + behind / DEFAULT_KEYS_PER_SECOND
            try:  # long enough that only lost focus (not a busy machine) fails the first try
                await self.c.term.wait_for(f"'{word}'", timeout=wait)
            except AssertionError:
                continue  # a modal ate the keys, a rate limit, or nothing has the focus
            return "answered" if attempt == 0 else "answered after a click on the command line"
        return None

    def seat_table(self) -> Table | None:
        mine = self.service.lobby.seats_of(self.name)
        return mine[-1] if mine else None

    async def goto(self, where: Where) -> None:
        for _ in range(3):
            text = self.c.term.text() if self.alive() else ""
            if where == "lobby":
                if IN_LOBBY in text:
                    return
                if AT_TABLE in text:
                    await self.type_line("lobby")
                    await self.c.term.wait_for(IN_LOBBY)
                    return
            else:
                table = self.seat_table()
                if table is None:
                    table = new_table(self.service, self.name, next(self.seeds))
                elif AT_TABLE in text and "land! final scores" not in text:
                    return
                elif IN_LOBBY in text:
                    await self.type_line(f"open {table.id}")
                    await self.c.term.wait_for(AT_TABLE)
                    return
            await self.connect()
        raise AssertionError(f"{self.name} could not get back to the {where}")

    async def close(self) -> None:
        if self.client is not None:
            self.client.close()
            await self.client.conn.wait_closed()


async def attack(
    attacker: Attacker,
    bob: Bystander,
    where: Where,
    data: bytes,
    outcomes: Counter[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """One input, then: did the attacker get an answer (or end cleanly), and did bob?"""
    await attacker.goto(where)
    dropped = parser_failures(caplog, attacker.name)
    attacker.write(data + b"\r")
    await asyncio.sleep(0.12)  # past the parser's escape delay: a lone ESC is a key by now
    # (a long input is read at the session's key budget: the probe waits for it, e.g. 22 s for
    # the 5000-digit CSI, which comes through as keys)
    answered, _ = await asyncio.gather(attacker.probe(behind=len(data)), bob.check())
    assert_screens_bounded(attacker.service)
    raw = attacker.c.term.plain_bytes()
    assert CRASH not in raw, f"{data[:60]!r} crashed the session:\n{raw[-500:]}"
    if answered:
        outcomes[answered] += 1
        return
    if not attacker.alive():
        status = attacker.c.chan.get_exit_status()
        if status == 0:
            outcomes["ended cleanly (quit)"] += 1
        else:
            # Textual's parser raised on it (none known: the driver guards against those that
            # were): the driver ends that one session, says so in the log, and everybody else
            # plays on. Counted, and asserted to be none.
            assert status == 1 and parser_failures(caplog, attacker.name) > dropped, (
                f"{data[:60]!r}: {status}"
            )
            outcomes["session dropped (unparsable)"] += 1
    else:
        outcomes["stopped answering (reconnected)"] += 1
    await attacker.connect()


async def attackers_at_each_door(service: Service) -> AsyncIterator[tuple[Where, Attacker]]:
    """An attacker signed in and in place at each PTY door: mal in the lobby, eve at a table."""
    doors: tuple[tuple[Where, str, asyncssh.SSHKey], ...] = (
        ("lobby", "mal", MAL_KEY),
        ("table", "eve", EVE_KEY),
    )
    for where, name, key in doors:
        attacker = Attacker(service, name, key)
        if where == "table":
            new_table(service, name, next(attacker.seeds))
        await attacker.connect()
        await attacker.goto(where)
        yield where, attacker


async def pty_door(
    service: Service, bob: Bystander, where: Where, caplog: pytest.LogCaptureFixture
) -> tuple[int, Counter[str]]:
    name, key = ("mal", MAL_KEY) if where == "lobby" else ("eve", EVE_KEY)
    attacker = Attacker(service, name, key)
    if where == "table":
        new_table(service, name, next(attacker.seeds))
    await attacker.connect()
    outcomes: Counter[str] = Counter()
    inputs = [data for _label, data in FIXED] + generated_junk(GENERATED)
    for data in inputs:
        await attack(attacker, bob, where, data, outcomes, caplog)
    await attacker.goto(where)
    # The junk's own Enters count as lines: let the rate limit's second pass, so that a refusal
    # ("slow down") is not taken for lost focus.
    await asyncio.sleep(1.1)
    assert await attacker.probe() == "answered"
    await attacker.close()
    return len(inputs), outcomes


class Sink(asyncssh.SSHClientSession[bytes]):
    """A client terminal that only counts what it receives (drawing is not the server's cost)."""

    def __init__(self) -> None:
        self.received = 0
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.received += len(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()


# The PTY -----------------------------------------------------------------------------------------


async def test_garbage_keys_at_the_lobby_and_at_a_table(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture
) -> None:
    """Both doors at once (mal at the lobby, eve at her table), bob asking after every input."""
    (lobby_tried, lobby), (table_tried, table) = await asyncio.gather(
        pty_door(service, bob, "lobby", caplog), pty_door(service, bob, "table", caplog)
    )
    assert_every_table_replays(service)
    assert_no_errors_logged(caplog)
    for door, tried, outcomes in (
        ("pty at the lobby", lobby_tried, lobby),
        ("pty at a table", table_tried, table),
    ):
        assert tried >= len(FIXED) + GENERATED - 5  # Hypothesis found enough distinct inputs
        assert sum(outcomes.values()) == tried, outcomes  # one outcome per input
        assert outcomes["answered"] >= tried * 2 // 3, outcomes
        # every input left a session that answers (if only after a click), or ended it cleanly
        assert outcomes["stopped answering (reconnected)"] == 0, outcomes
        # Ctrl+Q quits; Ctrl+C asks first (issue 16), and the Enter typed after it answers no
        assert outcomes["ended cleanly (quit)"] == 1, outcomes
        assert outcomes["session dropped (unparsable)"] == 0, outcomes
        report(door, tried, f"{dict(outcomes)}; bob's slowest answer {bob.worst:.2f}s")


async def test_very_long_lines(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture
) -> None:
    """Twice ``line_length`` typed, or 100 KB pasted: the command line stops at ``line_length``
    and rings the bell for the rest; what is submitted is refused with an error; chat and the
    log stay within it.

    The server digests the key events a turn at a time, within the session's key budget, while
    bob is answered as usual; the attacker's answer (and her bell) come once her keys are
    through. (Typed lines are not 100 KB: the budget reads a flood of keys at
    `DEFAULT_KEYS_PER_SECOND`, 200 a second, so 100,000 would take eight minutes.)"""
    limit = service.config.limits.line_length
    tried = 0
    async for where, attacker in attackers_at_each_door(service):
        chat = "say " if where == "lobby" else "tell kid "
        for line in ("zq" + "y" * 2 * limit, chat + "w" * 2 * limit):
            bells = attacker.c.term.raw.count(b"\x07")
            await attacker.type_line(line)
            tried += 1
            if line.startswith("zq"):  # refused, the word shown cut to 40 characters
                needle = "unknown lobby command 'zqyyyy" if where == "lobby" else "'zqyyyyyyyyyy"
                await asyncio.gather(attacker.c.term.wait_for(needle, timeout=30), bob.check())
            await bob.check()
            await rings(attacker.c, bells, "no bell for the cut line")
            assert await attacker.probe(behind=len(line)) == "answered"
        for text in ("p" * 100_000, chat + "q" * 100_000):
            bells = attacker.c.term.raw.count(b"\x07")
            attacker.write(b"\x1b[200~" + text.encode() + b"\x1b[201~\r")
            tried += 1
            await bob.check()
            assert await attacker.probe() == "answered"
            await rings(attacker.c, bells, "no bell for the refused paste")
        await attacker.close()
    said = [line.text for line in service.lobby.chat] + [
        c.text for table in service.lobby.tables.values() for c in table.chat
    ]
    assert said and all(len(text) <= limit for text in said)
    for table in service.lobby.tables.values():
        assert all(len(text) <= limit for _seat, text in table.commands)
    assert_every_table_replays(service)
    assert_no_errors_logged(caplog)
    report(
        "long lines",
        tried,
        f"typed: cut at {limit} characters with a bell, then refused ('unknown … command'); "
        f"pasted: refused whole with a bell; bob's slowest {bob.worst:.2f}s",
    )


async def test_a_burst_of_typed_keys_does_not_stall_other_players(
    service: Service, bob: Bystander
) -> None:
    """What one client costs everybody else: 30,000 NUL keys (as fast as SSH carries them; a
    paste is one event and is not the problem). Measured before the driver handed input over a
    turn at a time: ~2.5 s for bob's next answer; now ~0.2 s, as when nobody attacks."""
    async with await connect(service, "mal", MAL_KEY) as conn:
        chan, _sink = await conn.create_session(
            Sink, term_type="xterm", term_size=SIZE, encoding=None
        )
        await service.live.wait_for(2)
        chan.write(b"\x00" * 30_000)
        TRIED["key burst"] = 1
        await bob.check(within=0.75)


async def test_a_burst_is_digested_to_the_last_key_while_others_play(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture
) -> None:
    """The burst is slowed down, not dropped: a line typed right behind a burst of keys is
    answered once they are all through, and bob is answered within 0.75 s all along. (3,000
    keys, not 30,000: past its burst, the session's key budget reads them at 200 a second.)"""
    mal = Attacker(service, "mal", MAL_KEY)
    await mal.connect()
    await mal.goto("lobby")
    word = next(mal.words)
    start = time.monotonic()
    burst = 3_000
    mal.write(b"\x00" * burst + b"\x15\x0b" + word.encode() + b"\r")
    answered = asyncio.create_task(mal.c.term.wait_for(f"'{word}'", timeout=60))
    checks = 0
    while not answered.done():
        await bob.check(within=0.75)
        checks += 1
    await answered
    took = time.monotonic() - start
    assert mal.alive() and await mal.probe() == "answered"
    await mal.close()
    assert_no_errors_logged(caplog)
    report(
        "key burst",
        burst + 1,
        f"mal's line behind the burst answered after {took:.1f}s; meanwhile bob answered "
        f"{checks} times, slowest {bob.worst:.2f}s",
    )


async def test_a_flood_of_500_commands(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture
) -> None:
    """500 lines, the seat's legal choices among them, written without waiting: the session's
    rate limit refuses most of them, and the rest are only ever legal commands."""
    eve = Attacker(service, "eve", EVE_KEY)
    table = new_table(service, "eve", seed=5)
    seat = table.seat_of_player("eve")
    assert seat is not None
    await eve.connect()
    await eve.goto("table")
    choices = [format_command(c) for c in table.view(seat).choices] or ["rest"]
    lines = [choices[i % len(choices)] if i % 3 == 0 else f"zz{i}" for i in range(500)]
    before = len(table.commands)
    start = time.monotonic()
    for line in lines:
        eve.write(line.encode() + b"\r")
    await bob.check()
    await eve.c.term.wait_for("slow down", timeout=10)
    await asyncio.sleep(1.1)  # the rate window passes
    assert await eve.probe(behind=sum(len(line) + 1 for line in lines))
    elapsed = time.monotonic() - start
    mine = [text for s, text in table.commands[before:] if s == seat]
    rate = service.config.limits.commands_per_second
    assert len(mine) <= rate * (elapsed + 1), f"{len(mine)} commands in {elapsed:.1f}s"
    await bob.check()
    await eve.close()
    assert_every_table_replays(service)
    assert_no_errors_logged(caplog)
    report(
        "flood",
        len(lines),
        f"{len(mine)} of eve's commands accepted, the rest refused ('slow down: at most "
        f"{rate} commands a second', or refused as unknown); "
        f"bob's slowest {bob.worst:.2f}s",
    )


# Keys the parser cannot decode, and pastes ------------------------------------------------------

UNDECODABLE: list[tuple[str, bytes]] = [
    ("kitty key beyond U+10FFFF", b"\x1b[1114112u"),
    ("kitty key at 2**40", b"\x1b[1099511627776u"),
    ("kitty key of 25 digits", b"\x1b[" + b"9" * 25 + b"u"),
    ("kitty text beyond U+10FFFF", b"\x1b[97;1;1114112u"),
    ("kitty modifiers with a colon", b"\x1b[97;5:3u"),
    ("kitty code point with a colon", b"\x1b[1:2;3u"),
    ("kitty surrogate", b"\x1b[55296u\x1b[97;1;55296u"),
    # A resize report claiming 0x0 pixels, then a mouse move: Textual's parser switched to
    # pixel coordinates on the report and divided by zero on the move.
    ("mouse move after an in-band resize of no pixels", b"\x1b[48;40;120;0;0t\x1b[<35;10;5M"),
]


async def test_keys_the_parser_cannot_decode_are_ignored(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture
) -> None:
    """Each used to raise inside Textual's parser, and the driver then dropped the session. Now
    each is ignored: the same session answers the next line at once."""
    tried = 0
    async for _where, attacker in attackers_at_each_door(service):
        for label, data in UNDECODABLE:
            attacker.write(data)
            tried += 1
            assert await attacker.probe() == "answered", f"{label}: no answer"
            assert attacker.sessions == 1, f"{label}: the session was dropped"
            await bob.check()
        await attacker.close()
    assert parser_failures(caplog, "mal") == parser_failures(caplog, "eve") == 0
    assert_no_errors_logged(caplog)
    report("undecodable keys", tried, "ignored; the same session answered every next line")


PASTES: list[tuple[str, bytes, str]] = [
    # (what, the paste as sent, what reaches the command line)
    ("Ctrl+C and Ctrl+Q", b"zpa\x03zpb\x11zpc", "zpazpbzpc"),
    ("Esc, Alt+b, an arrow key's ESC", b"zpd\x1b\x1bbzpe\x1bzpf", "zpdbzpezpf"),
    ("NUL, DEL, Backspace, C1 CSI", "zpg\x00\x7f\x08\u009bzph".encode(), "zpgzph"),
    ("Ctrl+U and Ctrl+W", b"zpi\x15\x17zpj", "zpizpj"),
    ("Enter: only the first line is taken, never submitted", b"zpk\r\nzpl\rzpm", "zpk"),
    ("a paste start inside a paste", b"zpn\x1b[200~zpo", "zpnzpo"),
]


async def test_pasted_text_never_acts_as_keys(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture
) -> None:
    """At a table, where Ctrl+Q quits, Ctrl+C and Esc ask to leave and Enter submits: a paste
    holding those is text with its control characters removed, inserted into the command line
    and submitted only by the Enter typed after it."""
    eve = Attacker(service, "eve", EVE_KEY)
    table = new_table(service, "eve", seed=7)
    before = state_bytes(table)
    await eve.connect()
    await eve.goto("table")
    for label, paste, text in PASTES:
        eve.write(b"\x15\x0b\x1b[200~" + paste + b"\x1b[201~zpz\r")
        await eve.c.term.wait_for(f"'{text}zpz'")
        assert eve.alive() and eve.sessions == 1, f"{label}: the session ended"
        assert AT_TABLE in eve.c.term.text(), f"{label}: left the table"
        await bob.check()
    shown = eve.c.term.plain_bytes()
    assert "'zpk'" not in shown and "zpl" not in shown, "a pasted Enter submitted a line"
    assert state_bytes(table) == before, "a paste played a move"
    await eve.close()
    assert_every_table_replays(service)
    assert_no_errors_logged(caplog)
    report("pastes with keys", len(PASTES), "control characters removed; the session stayed")


async def test_a_paste_that_never_ends_ends_after_a_second_of_silence(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture
) -> None:
    """``ESC [200~`` with no ``ESC [201~``: what follows is pasted text (an Enter and a Ctrl+C
    typed into it act as nothing) until the input stops for ``PASTE_IDLE_TIMEOUT``; then the
    paste ends, its text is in the command line, and keys are keys again."""
    eve = Attacker(service, "eve", EVE_KEY)
    table = new_table(service, "eve", seed=8)
    before = state_bytes(table)
    await eve.connect()
    await eve.goto("table")
    start = time.monotonic()
    eve.write(b"\x15\x0b\x1b[200~zpq")
    eve.write(b"zpr\r\x03")  # typed into the paste
    await bob.check()
    await eve.c.term.wait_for("zpqzpr", timeout=PASTE_IDLE_TIMEOUT + 5)
    assert time.monotonic() - start >= PASTE_IDLE_TIMEOUT * 0.9
    eve.write(b"zps\r")
    await eve.c.term.wait_for("'zpqzprzps'")
    assert "'zpqzpr'" not in eve.c.term.plain_bytes(), "the Enter inside the paste submitted"
    assert eve.alive() and eve.sessions == 1 and AT_TABLE in eve.c.term.text()
    assert await eve.probe() == "answered"
    assert state_bytes(table) == before
    await bob.check()
    await eve.close()
    assert_no_errors_logged(caplog)
    report("unterminated paste", 1, f"ended after {PASTE_IDLE_TIMEOUT}s without input")


# The terminal size ------------------------------------------------------------------------------


async def test_absurd_terminal_sizes(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture
) -> None:
    """A PTY request or a window change for a 65535×65535 terminal must not make the server
    draw billions of cells: it draws at most ``MAX_TERMINAL_SIZE``, and bob does not wait."""
    max_width, max_height = MAX_TERMINAL_SIZE
    # 900x300 first: drawn as asked it is still cheap, so a lost limit fails here, cleanly.
    sizes = [(900, 300), (0, 0), (1, 1), (65535, 65535), (65535, 40), (120, 65535), (20000, 20000)]
    tried = 0
    for initial in sizes[:3]:
        conn = await connect(service, "mal", MAL_KEY)
        chan, _sink = await conn.create_session(
            Sink, term_type="xterm", term_size=initial, encoding=None
        )
        tried += 1
        await service.live.wait_for(2)
        await bob.check()
        assert_screens_bounded(service)
        for change in sizes:
            chan.change_terminal_size(*change)
            tried += 1
            await bob.check()
            assert_screens_bounded(service)
        conn.close()
        await conn.wait_closed()
        await service.live.wait_for(1)
    assert_no_errors_logged(caplog)
    report(
        "terminal sizes",
        tried,
        f"drawn at most {max_width}x{max_height}; bob's slowest {bob.worst:.2f}s",
    )


# Exec requests ----------------------------------------------------------------------------------


@dataclass
class Ran:
    stdout: str
    stderr: str
    status: int | None


async def run(
    service: Service,
    command: str,
    data: str | None,
    user: str = "mal",
    key: asyncssh.SSHKey = MAL_KEY,
) -> Ran:
    """``ssh mal@host COMMAND`` with ``data`` on standard input (then EOF); ``None`` sends
    nothing at all, not even EOF, like a terminal that is waiting for its user."""
    async with await connect(service, user, key) as conn:
        async with asyncio.timeout(10):
            process = await conn.create_process(command)
            if data is not None:
                # A command that reads nothing answers at once and closes: writing is refused.
                with contextlib.suppress(BrokenPipeError, ConnectionError):
                    if data:
                        process.stdin.write(data)
                    process.stdin.write_eof()
            result = await process.wait()
    return Ran(str(result.stdout or ""), str(result.stderr or ""), result.exit_status)


async def test_bot_scripts_of_10_mb_and_10000_nested_parentheses(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture
) -> None:
    limit = service.config.limits.bot_script_bytes
    head = 'bot "Deep" for lifeboat\non turn:\n    when '
    deep = head + "(" * 10_000 + "me.wounds" + ")" * 10_000 + " > 1 -> row\n    else -> rest\n"
    cases: list[tuple[str, str, str]] = [
        ("bot check", "#" * 10_000_000, f"larger than {limit} bytes"),
        ("bot save big", "x" * 10_000_000, f"larger than {limit} bytes"),
        ("bot check", deep, "nest deeper than"),
        ("bot save deep", deep, "nest deeper than"),
        ("bot check", "(" * 10_000, "nest deeper than"),
        ("bot check", head + "not " * 10_000 + "me.thirsty -> row\n", "nest deeper than"),
        ("bot check", head + "-" * 10_000 + "1 > 0 -> row\n", "nest deeper than"),
        ("bot check", "\x00\xff" * 1000, "error"),
        ("bot save ../../etc/passwd", deep, "letters, digits"),
        ("bot save " + "n" * 40, deep, "letters, digits"),
    ]
    answers: list[str] = []
    for command, script, expected in cases:
        ran = await run(service, command, script)
        text = ran.stdout + ran.stderr
        assert ran.status in (1, 2), f"{command}: exit {ran.status}: {text[:200]}"
        assert expected in text, f"{command}: {text[:300]}"
        assert "the command failed" not in text
        answers.append(text.strip().splitlines()[-1][:90])
        await bob.check()
    saved = service.store.db.execute("SELECT owner, name FROM bots").fetchall()
    assert saved == [], f"refused scripts were saved: {saved}"
    assert_no_errors_logged(caplog)
    report("bot scripts", len(cases), "refused: " + " | ".join(sorted(set(answers))))


UNKNOWN_COMMANDS = [
    "sh -c id",
    "ls -la /",
    "cat /etc/passwd",
    "exit",
    "bot",
    "bot frobnicate",
    "bot check extra",
    "bot save a b",
    "bot check; id",
    "$(id)",
    "scp -t /tmp",
    "scp -f /etc/passwd",
    "rsync --server . /tmp",
    "git-upload-pack '/repo'",
    "bot\x00check",
    "bot check\x1b[2J",
    "x" * 10_000,
]


async def test_unknown_exec_commands(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture
) -> None:
    """Every other command is refused at once with the list of what exists, whether or not the
    client sends standard input (an unknown command must not wait for an EOF)."""
    tried = 0
    for command in UNKNOWN_COMMANDS:
        for data in (None, "", "id\n"):
            ran = await run(service, command, data)
            tried += 1
            assert ran.status == 2, f"{command[:40]!r}: exit {ran.status}"
            assert "unknown command" in ran.stdout and "bot check" in ran.stdout
        await bob.check()
    assert_no_errors_logged(caplog)
    report("unknown exec commands", tried, "exit 2: 'shipwreck: unknown command; available: …'")


# Channels that are not sessions ------------------------------------------------------------------


async def test_port_forwarding_is_refused(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture
) -> None:
    answers: Counter[str] = Counter()
    tried = 0
    async with await connect(service, "mal", MAL_KEY) as conn:
        for host, port in (("127.0.0.1", service.port), ("localhost", 22), ("10.0.0.1", 80)):
            with pytest.raises(asyncssh.ChannelOpenError) as refused:
                await conn.create_connection(asyncssh.SSHTCPSession, host, port)
            answers[f"direct-tcpip: {refused.value.reason}"] += 1
            tried += 1
        listener = await conn.forward_local_port("127.0.0.1", 0, "127.0.0.1", service.port)
        for _ in range(3):  # ssh -L: the tunnel opens locally, and is shut at the first use
            reader, writer = await asyncio.open_connection("127.0.0.1", listener.get_port())
            assert await asyncio.wait_for(reader.read(100), 5) == b""
            writer.close()
            answers["ssh -L: closed at once"] += 1
            tried += 1
        listener.close()
        for listen in (("127.0.0.1", 0), ("", 2222)):
            with pytest.raises(asyncssh.ChannelListenError) as refused_listen:
                await conn.forward_remote_port(*listen, "127.0.0.1", 22)
            answers[f"ssh -R: {refused_listen.value}"] += 1
            tried += 1
        with pytest.raises(asyncssh.ChannelOpenError) as refused:
            await conn.open_unix_connection("/var/run/docker.sock")
        answers[f"direct-streamlocal: {refused.value.reason}"] += 1
        tried += 1
        with pytest.raises(asyncssh.ChannelListenError) as refused_listen:
            await conn.forward_remote_path("/tmp/shipwreck-test.sock", "/tmp/elsewhere.sock")
        answers[f"streamlocal listen: {refused_listen.value}"] += 1
        tried += 1
        await bob.check()
        ran = await conn.run("bot check", input='bot "A" for lifeboat\non turn:\n    else -> row\n')
        assert ran.exit_status == 0, "the connection should still serve its sessions"
    await bob.check()
    assert_no_errors_logged(caplog)
    report("port forwarding", tried, f"{dict(answers)}")


async def test_sftp_subsystems_and_scp_are_refused(
    service: Service, bob: Bystander, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    answers: Counter[str] = Counter()
    tried = 0
    async with await connect(service, "mal", MAL_KEY) as conn:
        for _ in range(2):
            with pytest.raises(asyncssh.ChannelOpenError) as refused:
                await conn.start_sftp_client()
            answers[f"sftp: {refused.value.reason}"] += 1
            tried += 1
        for subsystem in ("sftp", "netconf", "x" * 1000):
            with pytest.raises(asyncssh.ChannelOpenError) as refused:
                await conn.run(subsystem=subsystem)
            answers[f"subsystem: {refused.value.reason}"] += 1
            tried += 1
        upload = tmp_path / "upload"
        upload.write_text("x")
        for source, target in (((conn, "/etc/passwd"), tmp_path / "x"), (upload, (conn, "/tmp"))):
            with pytest.raises((asyncssh.Error, OSError)) as failed:
                await asyncio.wait_for(asyncssh.scp(source, target), 10)
            answers[f"scp: {type(failed.value).__name__} {failed.value}"] += 1
            tried += 1
        ran = await conn.run(input="")  # a shell without a PTY
        assert ran.exit_status == 1 and "needs a terminal" in str(ran.stderr)
        answers["shell without a PTY: needs a terminal"] += 1
        tried += 1
        await bob.check()
    assert not (tmp_path / "x").exists()
    await bob.check()
    assert_no_errors_logged(caplog)
    report("sftp/subsystems/scp", tried, f"{dict(answers)}")

"""F6: keystrokes at a Spanish Main table were expensive, and keys had no rate limit.

The audit's reproduction, over real SSH: each typist types ``move SHIP L 3`` at its own
``new sm 2`` table, then streams digit/backspace pairs (``5`` ⌫) at about 4,000 keys a second.
Before the fix every key parsed the line, asked the table for a preview and drew the map again;
the bystander's round trips grew to a quarter of a second with three typists and stayed there for
ten seconds after they stopped (their input sat in the SSH window and the session's backlog).

Now a preview is computed at most ~10 times a second (on idle, the last line always), every
session has a key budget (`SessionIO`'s token bucket), and a session over its budget stops being
read, so SSH flow control holds a flooder's keys at the client.

Run as a script to measure the bystander with 1 or 3 typists (the figures in the report)::

    .venv/bin/python tests/hostile/test_f06_typing.py --typists 3 --seconds 5
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh
import pytest

from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.lang import parse_command
from shipwreck.server.driver import (
    BEHIND_BACKLOG,
    DEFAULT_KEY_BURST,
    DEFAULT_KEYS_PER_SECOND,
    RUN_AS_PASTE,
    SESSION_WINDOW,
    KeyBudget,
    SessionIO,
    session_io_for,
)
from shipwreck.server.service import Service

if __name__ == "__main__":  # (as a script: the test folder's modules, as pytest finds them)
    sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]

from harness import BYSTANDER_LIMIT, Bystander, eventually
from sshclient import Client, open_terminal

KEY_BURST_SLACK = 256
"""Keys parsed but not yet handed over (one parse slice at most)."""

KEYS_PER_SECOND = 4000
"""How fast each typist tries to type (the audit's figure)."""

TICK = 0.01
"""Seconds between a typist's writes (each ``KEYS_PER_SECOND * TICK`` keys)."""

MAX_BACKLOG = BEHIND_BACKLOG + SESSION_WINDOW
"""The most unread input a typist's session may hold: what it keeps while behind, and one SSH
packet (at most a window) delivered before it stopped reading."""

HELD_AT_MOST = MAX_BACKLOG + SESSION_WINDOW + KEY_BURST_SLACK
FINAL_WAIT = 2 * HELD_AT_MOST / DEFAULT_KEYS_PER_SECOND + 5.0
"""Seconds after the typists stop within which their last line is previewed: what the server
holds of a typist's keys (the session's backlog, asyncssh's buffer of one window) at the key
budget's rate, with room for a loaded machine."""


@dataclass(eq=False)
class Typist:
    """A player at their own two-seat Spanish Main table, typing a move and then streaming
    digit/backspace pairs after it."""

    client: Client
    name: str
    table_id: int
    seat: int
    ship: str
    sent: int = 0
    """Keys written to the channel."""
    held: int = 0
    """Keys not written because SSH flow control held the channel (the server's window was
    full): the client waits, as ``ssh`` reading from a pipe does, rather than buffer them."""
    paused: list[int] = field(default_factory=list)

    def line(self, legs: str) -> str:
        return f"move {self.ship} {legs}"

    async def stream(self, stop: asyncio.Event, unit: str = "5\x7f") -> None:
        """Type ``KEYS_PER_SECOND`` characters a second, as whole ``unit``s (catching up after
        a slow turn of the loop, which this process shares with the server) until ``stop``."""
        start = time.monotonic()
        while not stop.is_set():
            await asyncio.sleep(TICK)
            owed = int((time.monotonic() - start) * KEYS_PER_SECOND) - self.sent - self.held
            units = owed // len(unit)
            if units <= 0:
                continue
            if self.client.chan.get_write_buffer_size() == 0:
                self.client.type(unit * units)
                self.sent += len(unit) * units
            else:
                self.held += len(unit) * units


async def sit_typist(service: Service, name: str) -> Typist:
    """Sign ``name`` in, open a ``new sm 2`` table, and find a ship of theirs whose base move
    starts with an L leg (``move SHIP L 3`` is then legal; the audit's ``dover`` may not be)."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    client = await open_terminal(service.port, name, key, size=(120, 40))
    await client.term.wait_for(f"signed in as {name}")
    await client.line("new sm 2")
    await client.term.wait_for("waiting to start")
    await client.line("start")
    table = None

    def seated() -> bool:
        nonlocal table
        tables = service.lobby.seats_of(name)
        table = tables[0] if tables else None
        return table is not None

    await eventually(seated, what=f"{name}'s table")
    assert table is not None
    seat = table.seat_of_player(name)
    assert seat is not None
    await client.term.wait_for("moves are drawn before Enter")  # the sea screen's prompt
    started = table  # SM-2 rolls who goes first: the free seat's stand-in may move first
    await eventually(lambda: bool(started.view(seat).choices), what=f"{name}'s turn")
    view = table.view(seat)
    assert isinstance(view, SpanishMainView)
    ship = next(s.id for s in view.ships if s.owner == seat and s.move[:1] == ("L",))
    assert ship in client.term.text(), "the ship is listed on the typist's screen"
    return Typist(client, name, table.id, seat, ship)


def preview_text(service: Service, typist: Typist, legs: str) -> str:
    """What the screen says the move would do, computed by the table itself."""
    table = service.lobby.get(typist.table_id)
    assert table is not None
    p = table.preview(typist.seat, parse_command("spanish_main", typist.line(legs)))
    return f"would end with her bow at ({p.x:.1f}, {p.y:.1f}) heading {p.heading:.0f}°"


async def timed_say(client: Client, token: str) -> float:
    start = time.monotonic()
    client.type(f"say {token}\r")
    await client.term.wait_for(token, timeout=10.0)
    return time.monotonic() - start


@dataclass
class Flood:
    typists: list[Typist]
    during: list[float]
    """The bystander's round trips while the typists typed."""
    after_stop: float
    """A lobby player's ``say`` round trip sent the moment the typists stopped."""
    max_backlog: int
    """The most unread input any typist's session held (characters)."""
    ios: list[SessionIO]
    events_in: list[int]
    """Input events each typist's session handed its app while they streamed."""
    elapsed: float
    """Seconds they streamed."""


async def flood(
    service: Service,
    bystander: Bystander,
    typists: int,
    seconds: float,
    listener: Client,
    unit: str = "5\x7f",
) -> Flood:
    """The audit's reproduction with ``typists`` typists for ``seconds``, each typing ``unit``
    over and over (the audit's digit and backspace by default)."""
    seated = [await sit_typist(service, f"typist{i}") for i in range(typists)]
    for t in seated:
        t.client.type(t.line("L 3"))
    for t in seated:
        await t.client.term.wait_for(preview_text(service, t, "L 3"))
    ios = [
        io
        for app in service.live.apps()
        if getattr(app, "user", None) in {t.name for t in seated}
        and (io := session_io_for(app)) is not None
    ]
    assert len(ios) == typists
    stop = asyncio.Event()
    first = len(bystander.rtts)
    events_before = [io.events_in for io in ios]
    start = time.monotonic()
    tasks = [asyncio.create_task(t.stream(stop, unit)) for t in seated]
    max_backlog = 0
    while time.monotonic() < start + seconds:
        max_backlog = max(max_backlog, *(io.pending_input for io in ios))
        await asyncio.sleep(0.02)
    stop.set()
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - start
    events_in = [io.events_in - n for io, n in zip(ios, events_before, strict=True)]
    during = bystander.rtts[first:]
    after_stop = await timed_say(listener, "after-stop-token")
    return Flood(seated, during, after_stop, max_backlog, ios, events_in, elapsed)


def report(line: str) -> None:
    """Print, past the running apps (Textual redirects ``sys.stdout`` while an app runs)."""
    out = sys.__stdout__
    if out is not None:
        out.write(line + "\n")
        out.flush()


def summary(label: str, rtts: list[float]) -> str:
    if not rtts:
        return f"{label}: no round trips"
    p50 = statistics.median(rtts) * 1000
    return f"{label}: n={len(rtts)} p50={p50:.0f} ms max={max(rtts) * 1000:.0f} ms"


async def test_streaming_keys_at_a_sea_table_does_not_stall_the_server(
    service: Service, bystander: Bystander
) -> None:
    """F6: three typists stream ~4,000 keys a second each at their own Spanish Main tables for
    five seconds. The bystander's round trips stay under a second throughout; the moment the
    typists stop a lobby ``say`` comes back within a second (the lag does not outlast the
    typing); each typist's session held a bounded backlog (the rest waited at the client), and
    each typist's last line is previewed in the end."""
    listener = await open_terminal(
        service.port, "listener", asyncssh.generate_private_key("ssh-ed25519")
    )
    await listener.term.wait_for("signed in as listener")
    result = await flood(service, bystander, typists=3, seconds=5.0, listener=listener)
    report(summary("bystander while typing", result.during))
    report(f"say sent as they stopped: {result.after_stop * 1000:.0f} ms")
    assert result.after_stop < BYSTANDER_LIMIT, "the lag outlasted the typing"
    budget = DEFAULT_KEY_BURST + DEFAULT_KEYS_PER_SECOND * result.elapsed
    for t, events in zip(result.typists, result.events_in, strict=True):
        assert t.sent > budget, f"{t.name} typed within the budget: not a flood"
        assert events <= budget, f"{t.name}'s session took {events} keys (budget {budget:.0f})"
        assert t.held > 0, f"{t.name} was never held back by SSH flow control"
    assert result.max_backlog <= MAX_BACKLOG, result.max_backlog

    # The last line typed is previewed: a different leg than the one streamed after.
    for t in result.typists:
        t.client.type("\x7f2")
    final = {t.name: preview_text(service, t, "L 2") for t in result.typists}
    for t in result.typists:
        assert final[t.name] != preview_text(service, t, "L 3")
        await t.client.term.wait_for(final[t.name], timeout=FINAL_WAIT)
        assert t.line("L 2") in t.client.term.text()
    bystander.check()
    listener.close()
    for t in result.typists:
        t.client.close()


PASTED_LINE = "L 3 " + "x" * 2 * RUN_AS_PASTE + "\r"
"""A run of printable characters long enough to be one paste (not keys), and Enter."""


async def test_printable_runs_and_enter_at_a_sea_table_do_not_stall_the_server(
    service: Service, bystander: Bystander
) -> None:
    """F6, the paste path: a run of 64 or more printable characters is one input event (a
    paste), not one per character. Three typists stream such runs, each ended by Enter, at
    ~4,000 characters a second each for five seconds: every run lands on the move line being
    typed (the preview's work) and every Enter runs a command. The bystander's round trips stay
    under a second, a lobby ``say`` sent as they stop comes back within a second, each session
    was handed no more events than its key budget although it was sent four times as many
    characters, and no typed line changed a game: each is refused, the tables are where they
    were."""
    listener = await open_terminal(
        service.port, "listener", asyncssh.generate_private_key("ssh-ed25519")
    )
    await listener.term.wait_for("signed in as listener")
    result = await flood(
        service, bystander, typists=3, seconds=5.0, listener=listener, unit=PASTED_LINE
    )
    report(summary("bystander while pasting", result.during))
    report(f"say sent as they stopped: {result.after_stop * 1000:.0f} ms")
    assert result.after_stop < BYSTANDER_LIMIT, "the lag outlasted the pasting"
    budget = DEFAULT_KEY_BURST + DEFAULT_KEYS_PER_SECOND * result.elapsed
    for t, events in zip(result.typists, result.events_in, strict=True):
        report(f"{t.name}: {t.sent} characters sent, {t.held} held, {events} events")
        assert events <= budget, f"{t.name}'s session took {events} events (budget {budget:.0f})"
        assert t.sent > 4 * budget, f"{t.name}: as keys, not a flood"
        table = service.lobby.get(t.table_id)
        assert table is not None and not table.over
        assert table.view(t.seat).choices, f"{t.name}'s turn was spent"
        pasted = "x" * RUN_AS_PASTE
        assert all(pasted not in str(e) for e in table.log(None)), "a pasted line was played"
    assert result.max_backlog <= MAX_BACKLOG, result.max_backlog
    for t in result.typists:  # each session still answers: a line typed now is read (once
        # the lines still in its backlog are, which may spend this second's commands first)
        for attempt in range(3):
            t.client.type("\x15say still-here-" + t.name + "\r")
            try:
                await t.client.term.wait_for("still-here-" + t.name, timeout=FINAL_WAIT)
                break
            except AssertionError:
                assert attempt < 2, f"{t.name}'s session no longer reads what is typed"
    bystander.check()
    listener.close()
    for t in result.typists:
        t.client.close()


def test_the_key_budget_refills_at_its_rate_up_to_its_burst() -> None:
    """F6: the token bucket behind every session's key budget."""
    now = [0.0]
    budget = KeyBudget(200.0, 500, clock=lambda: now[0])
    assert budget.available() == 500  # a burst at once
    budget.spend(500)
    assert budget.available() == 0
    assert budget.delay(10) == pytest.approx(0.05)
    now[0] += 0.05
    assert budget.available() == 10
    now[0] += 60.0
    assert budget.available() == 500, "saved up to the burst, no more"
    assert budget.delay(10_000) == 0.0, "never waits for more than a burst"
    unlimited = KeyBudget(0, 32, clock=lambda: now[0])
    unlimited.spend(10_000)
    assert unlimited.available() == 32 and unlimited.delay(1) == 0.0


async def main(typists: int, seconds: float) -> None:
    import tempfile

    from shipwreck.server.ssh import LiveApps

    from harness import BYSTANDER_KEY, make_config

    with tempfile.TemporaryDirectory() as tmp:
        service = Service(make_config(Path(tmp)), live=LiveApps())
        await service.start()
        try:
            client = await open_terminal(service.port, "bystander", BYSTANDER_KEY)
            await client.term.wait_for("signed in as bystander")
            bystander = Bystander(client)
            bystander.start()
            await asyncio.sleep(2.0)
            report(summary("baseline", bystander.rtts))
            listener = await open_terminal(
                service.port, "listener", asyncssh.generate_private_key("ssh-ed25519")
            )
            await listener.term.wait_for("signed in as listener")
            result = await flood(service, bystander, typists, seconds, listener)
            report(summary(f"{typists} typist(s), while typing", result.during))
            report(f"say sent as they stopped: {result.after_stop * 1000:.0f} ms")
            first = len(bystander.rtts)
            stopped = time.monotonic()
            for t in result.typists:
                t.client.type("\x7f2")
            for t in result.typists:
                await t.client.term.wait_for(preview_text(service, t, "L 2"), timeout=300)
            took = time.monotonic() - stopped
            report(f"last line previewed {took:.1f} s after the typists stopped")
            report(summary("bystander after they stopped", bystander.rtts[first:]))
            sent = sum(t.sent for t in result.typists)
            held = sum(t.held for t in result.typists)
            report(f"keys sent {sent}, held back by flow control {held}")
            report(f"largest session backlog {result.max_backlog} characters")
            rates = [round(n / result.elapsed) for n in result.events_in]
            report(f"keys handed to each typist's app per second while typing: {rates}")
            await bystander.stop()
        finally:
            await service.stop()


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--typists", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    asyncio.run(main(args.typists, args.seconds))

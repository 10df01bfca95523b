"""The table screen of a table another worker owns (issue 21): a player whose session is on
worker B joins, chats and plays a table worker A owns, through the same screen as a local one.

Two workers in one process share a SQLite store and a bus (in memory, and a real NATS
server); the app is Textual's Pilot on worker B's lobby. The screen reads a ``RemoteTable``
(the seat's own updates), and what B subscribes to is recorded: only its player's seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.css.query import NoMatches
from textual.pilot import Pilot
from tui_helpers import screen_text

from shipwreck.bus import Bus, MemoryBus, Subscription
from shipwreck.bus.core import Handler
from shipwreck.engine.core import IllegalCommand
from shipwreck.games.spanish_main import commands as C
from shipwreck.lang import format_command, parse_command
from shipwreck.runtime import Lobby, SeatSpec, Table, updates
from shipwreck.runtime.lobby_link import LobbyLink
from shipwreck.runtime.ownership import Leaseholder
from shipwreck.runtime.remote_table import PREVIEW_SECONDS, RemoteTable, RemoteTables
from shipwreck.runtime.updates import TableMirror
from shipwreck.store.db import Store
from shipwreck.tui import seat_return
from shipwreck.tui.app import ShipwreckApp
from shipwreck.tui.base import AppScreen, SeatScreen
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.lobby.words import lobby_completions

SM_MOVES = (C.Move, C.MoveToward, C.MoveDock)


class Recording:
    """Worker B's connection to the bus, noting every pattern it subscribes to."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.patterns: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bus, name)

    async def subscribe(self, pattern: str, handler: Handler) -> Subscription:
        self.patterns.append(pattern)
        return await self.bus.subscribe(pattern, handler)


async def until(pilot: Pilot[None], check: Callable[[], bool], what: str) -> None:
    for _ in range(750):  # 15 s: a loaded machine
        if check():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never happened: {what}")


def _error_line(app: ShipwreckApp) -> str:
    """The error line of the app's screen ("" while it is being built)."""
    try:
        return app.screen.panel_text("error") if isinstance(app.screen, AppScreen) else ""
    except NoMatches:
        return ""


def _worker(path: Path) -> Lobby:
    lobby = Lobby(seed=1)
    lobby.attach_store(Store(path), restore=False)
    return lobby


async def test_a_player_on_another_worker_joins_chats_and_plays_through_the_table_screen(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    bus_a, plain_b = buses
    bus_b = Recording(plain_b)
    db = tmp_path / "shipwreck.db"
    lobby_a, lobby_b = _worker(db), _worker(db)
    seats = [SeatSpec("human"), SeatSpec("empty"), SeatSpec("empty"), SeatSpec("bot", "random")]
    table: Table = lobby_a.create_table("lifeboat", seats, creator="ann", seed=11, gather=True)
    assert table.sit(2, "cat") is None  # a third player, on worker A
    holder = Leaseholder(bus_a, lobby_a, "a")
    assert await holder.claim_new(table.id)
    link_a = LobbyLink(bus_a, lobby_a, "a", heartbeat=0.1)
    link_b = LobbyLink(bus_b, lobby_b, "b", heartbeat=0.1)  # type: ignore[arg-type]
    await link_a.start()
    await link_b.start()
    lobby_b.remote_tables = RemoteTables(bus_b)  # type: ignore[arg-type]
    app = ShipwreckApp(lobby_b, "bob")
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: lobby_b.elsewhere(table.id), "B lists A's table")
            assert isinstance(app.screen, LobbyScreen)
            before = list(bus_b.patterns)
            await pilot.press(*f"join {table.id}", "enter")
            await until(pilot, lambda: isinstance(app.screen, SeatScreen), "bob's table screen")
            screen = app.screen
            assert isinstance(screen, SeatScreen)
            remote = screen.table
            assert isinstance(remote, RemoteTable), "the screen should follow A's table"
            assert table.seat_of_player("bob") == 1, "bob sat in the first free seat, on A"
            assert screen.seat == 1

            # B subscribed to the spectators' subject (to read the seats) and to bob's seat
            # only: never to another seat's.
            table_subjects = [p for p in bus_b.patterns[len(before) :] if p.startswith("table.")]
            assert table_subjects == [f"table.{table.id}.public", f"table.{table.id}.seat.1"]

            # ann starts the table on A; bob's screen shows his prompt.
            assert table.start("ann") is None
            await until(pilot, lambda: remote.started, "bob's screen hears the start")

            # Table chat both ways; a whisper between ann and cat never reaches bob.
            await pilot.press(*"say hello from b", "enter")
            await until(
                pilot, lambda: any(c.text == "hello from b" for c in table.chat), "bob's say on A"
            )
            assert table.chat[-1].sender == "bob" and table.chat[-1].from_seat == 1
            assert table.say("ann", "hi bob", 0) is None
            assert table.say("ann", "cat only", 0, to=2) is None
            assert table.say("ann", "to everyone", 0) is None
            await until(
                pilot, lambda: "to everyone" in [c.text for c in remote.mirror.chat], "ann's say"
            )
            texts = [c.text for c in remote.mirror.chat]
            assert texts == ["hello from b", "hi bob", "to everyone"], texts
            await until(
                pilot,
                lambda: any("to everyone" in t.plain for t in screen.chat_log().texts),
                "ann's say on bob's screen",
            )
            shown = "\n".join(t.plain for t in screen.chat_log().texts)
            assert "ann (" in shown and "hi bob" in shown
            assert "cat only" not in shown

            # bob plays: each of his lines goes to A, which saves and applies it.
            played = 0
            for _ in range(400):
                if table.over or played >= 3:
                    break
                waiting = {p.seat for p in table.rules.prompts(table.state) if p.blocking}
                if 1 not in waiting:
                    for seat in waiting - {1}:  # ann and cat answer on A
                        options = table.rules.choices(table.state, seat)
                        assert table.submit(seat, options[0]).ok
                    await pilot.pause(0.02)
                    continue
                line = format_command(table.rules.choices(table.state, 1)[0])
                count = len(table.commands)
                await pilot.press(*line, "enter")
                await until(pilot, lambda n=count: len(table.commands) > n, f"bob's {line!r} on A")
                assert table.commands[count] == (1, line)
                played += 1
            assert played == 3, "bob never got his turn"
            await until(pilot, lambda: remote.log(1) == table.log(1), "bob's log is A's")

            # A line the game refuses: its reason, from A, on bob's error line.
            await pilot.press(*"rob nobody", "enter")
            await until(pilot, lambda: "nobody" in screen.panel_text("error"), "A's refusal")
    finally:
        await link_b.stop()
        await link_a.stop()
        await holder.stop()
        await asyncio.sleep(0)


async def test_signing_in_on_another_worker_lands_in_the_seat_and_a_second_session_takes_it(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    """bob's seat is at a table A owns; signing in on B lands him there (his screen tells A
    it showed him the game, so A's clock may run); a second session of his on B takes the
    seat (the first goes back to the lobby, saying so) and A still counts him here until the
    last of them goes."""
    bus_a, bus_b = buses
    db = tmp_path / "shipwreck.db"
    lobby_a, lobby_b = _worker(db), _worker(db)
    seats = [SeatSpec("human"), SeatSpec("empty"), SeatSpec("bot", "random"), SeatSpec("bot")]
    table = lobby_a.create_table("lifeboat", seats, creator="ann", seed=12)
    assert table.sit(1, "bob") is None
    table.set_connected("bob", False)  # (his session is not here yet)
    holder = Leaseholder(bus_a, lobby_a, "a")
    assert await holder.claim_new(table.id)
    links = [LobbyLink(bus_a, lobby_a, "a", heartbeat=0.1), LobbyLink(bus_b, lobby_b, "b", 0.1)]
    for link in links:
        await link.start()
    lobby_b.remote_tables = RemoteTables(bus_b)
    for _ in range(100):
        if lobby_b.elsewhere(table.id):
            break
        await asyncio.sleep(0.02)
    first, second = ShipwreckApp(lobby_b, "bob"), ShipwreckApp(lobby_b, "bob")
    try:
        async with first.run_test(size=(120, 40)) as one:
            await until(one, lambda: isinstance(first.screen, SeatScreen), "bob back in his seat")
            assert isinstance(first.screen, SeatScreen) and first.screen.seat == 1
            assert isinstance(first.screen.table, RemoteTable)
            await until(one, lambda: table.seats[1].connected, "A hears bob is here")
            await until(one, lambda: 1 in table.seen, "A hears bob's screen showed the game")
            async with second.run_test(size=(120, 40)) as two:
                await until(two, lambda: isinstance(second.screen, SeatScreen), "the second")
                await until(one, lambda: isinstance(first.screen, LobbyScreen), "first: lobby")
                said = "your other session has your seat"
                await until(one, lambda: said in _error_line(first), "the first says why")
                await asyncio.sleep(0.3)
                assert table.seats[1].connected, "the first session's goodbye sent bob away"
            await until(one, lambda: not table.seats[1].connected, "A hears bob has gone")
    finally:
        for link in links:
            await link.stop()
        await holder.stop()


async def test_a_screen_on_a_table_its_worker_lost_follows_the_table_to_its_new_owner(
    tmp_path: Path,
) -> None:
    """Worker A, cut off past its lease (its clock moved on), loses ann's table to B, which
    rebuilds it from the store. Ann's session stays on A: her screen leaves A's dead copy for
    B's table (through the bus), and her next line is played there."""
    now = [0.0]
    bus = MemoryBus(lease_seconds=1.0, clock=lambda: now[0])
    db = tmp_path / "shipwreck.db"
    lobby_a, lobby_b = _worker(db), _worker(db)
    seats = [SeatSpec("human"), *(SeatSpec("bot", "random") for _ in range(3))]
    table_a = lobby_a.create_table("lifeboat", seats, creator="ann", seed=14)
    a, b = Leaseholder(bus, lobby_a, "a"), Leaseholder(bus, lobby_b, "b")
    assert await a.claim_new(table_a.id)
    links = [LobbyLink(bus, lobby_a, "a", heartbeat=0.1), LobbyLink(bus, lobby_b, "b", 0.1)]
    for link in links:
        await link.start()
    lobby_a.remote_tables = lobby_b.remote_tables = RemoteTables(bus)
    app = ShipwreckApp(lobby_a, "ann")
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SeatScreen), "ann at her table")
            assert isinstance(app.screen, SeatScreen) and app.screen.table is table_a
            now[0] += 2.0  # A is cut off past its lease: B takes the table, A lets go
            assert await b.adopt() == [] and await b.adopt() == [table_a.id]
            assert await a.renew() == [table_a.id]
            table_b = lobby_b.get(table_a.id)
            assert table_b is not None and lobby_a.get(table_a.id) is None

            def following() -> bool:
                screen = app.screen
                return isinstance(screen, SeatScreen) and isinstance(screen.table, RemoteTable)

            await until(pilot, following, "ann's screen follows B's table")
            screen = app.screen
            assert isinstance(screen, SeatScreen) and screen.seat == 0
            assert not screen.greeting, "ann, who never left, was welcomed back"
            tables = [s for s in app.screen_stack if isinstance(s, SeatScreen)]
            assert tables == [screen], "the dead copy's screen stayed under the new one"
            waiting = {p.seat for p in table_b.rules.prompts(table_b.state) if p.blocking}
            assert waiting == {0}, "the bots should have answered"
            line = format_command(table_b.rules.choices(table_b.state, 0)[0])
            count = len(table_b.commands)
            await until(
                pilot,
                lambda: (focus := app.focused) is not None and focus.screen is screen,
                "the new screen takes the keys",
            )
            await pilot.press(*line, "enter")
            await until(
                pilot,
                lambda: len(table_b.commands) > count,
                f"ann's {line!r} played on B (her screen says {_error_line(app)!r})",
            )
            assert table_b.commands[count] == (0, line)
            assert len(table_a.commands) == count, "A's dead copy took the line"
    finally:
        for link in links:
            await link.stop()
        await a.stop()
        await b.stop()
        await bus.close()


async def _until(check: Callable[[], bool], what: str) -> None:
    for _ in range(500):  # 10 s: a loaded machine
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never happened: {what}")


async def test_a_whisper_to_a_spectator_on_another_worker_reaches_them_and_no_one_else(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    """kay and lee watch A's table from B; ann (on A) whispers to kay: the table accepts it
    (kay counts as watching), kay's screen reads it, and no subject but kay's own carries its
    bytes (lee's, the spectators', the seats'). kay whispers back to ann; bob, seated on B,
    may name kay (every screen lists who watches). When kay's screen closes, A forgets her."""
    bus_a, bus_b = buses
    db = tmp_path / "shipwreck.db"
    lobby_a = _worker(db)
    seats = [SeatSpec("human"), SeatSpec("human"), SeatSpec("bot"), SeatSpec("bot")]
    table = lobby_a.create_table("lifeboat", seats, creator="ann", seed=15)
    assert table.sit(1, "bob") is None
    holder = Leaseholder(bus_a, lobby_a, "a")
    assert await holder.claim_new(table.id)
    heard: list[tuple[str, bytes]] = []  # every byte B's subscribers could ever receive

    async def record(subject: str, data: bytes) -> None:
        heard.append((subject, data))

    spy = await bus_b.subscribe(f"table.{table.id}.>", record)
    remote = RemoteTables(bus_b)
    try:
        kay = await remote.open(table.id, "kay", None, watching=True)
        lee = await remote.open(table.id, "lee", None, watching=True)
        bob = await remote.open(table.id, "bob", 1)
        assert isinstance(kay, RemoteTable) and isinstance(lee, RemoteTable)
        assert isinstance(bob, RemoteTable)
        assert set(table.watchers) == {"kay", "lee"}, "A should count B's spectators"
        await _until(lambda: set(bob.watchers) == {"kay", "lee"}, "bob's screen lists them")

        assert table.say("ann", "psst-for-kay", 0, to_watcher="kay") is None
        assert table.say("ann", "all-hear", 0) is None
        await _until(lambda: "psst-for-kay" in [c.text for c in kay.mirror.chat], "kay reads it")
        await _until(lambda: "all-hear" in [c.text for c in lee.mirror.chat], "lee reads on")
        await _until(lambda: "all-hear" in [c.text for c in bob.mirror.chat], "bob reads on")
        assert "psst-for-kay" not in [c.text for c in lee.mirror.chat]
        assert "psst-for-kay" not in [c.text for c in bob.mirror.chat]
        await _until(lambda: any(b"all-hear" in d for s, d in heard if "public" in s), "spy")
        carried = {s for s, d in heard if b"psst-for-kay" in d}  # kay's, and ann's (she said it)
        assert carried == {f"table.{table.id}.watcher.kay", f"table.{table.id}.seat.0"}, carried

        assert await kay.say("kay", "back-to-ann", None, to=0) is None
        assert "back-to-ann" in [c.text for c in table.chat_for("ann")]
        assert "back-to-ann" not in [c.text for c in table.chat_for("bob")]
        await _until(lambda: "back-to-ann" in [c.text for c in kay.mirror.chat], "kay's own")
        await _until(lambda: "back-to-ann" in [c.text for c in table.chat_for("ann")], "on A")
        sent = {s for s, d in heard if b"back-to-ann" in d} - {f"table.{table.id}.commands"}
        assert f"table.{table.id}.watcher.kay" in sent and sent <= carried, sent  # (the request)

        await kay.close()
        assert set(table.watchers) == {"lee"}, "kay's closed screen still counts as watching"
        refused = table.say("ann", "too late", 0, to_watcher="kay")
        assert refused == "kay is not watching this table now"
        await lee.close()
        await bob.close()
    finally:
        await spy.stop()
        await holder.stop()


async def test_two_sessions_of_one_player_on_two_workers_the_newer_takes_the_seat(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    """As on one worker, the newer session takes the seat and the older is told so. bob's
    first session is on A (the owner): his second, on B, takes the seat, and the first
    watches, saying why. A third, on A again, takes it back: the one on B goes to the lobby,
    saying so, and its leaving does not tell A that bob has gone (he is here, on A)."""
    bus_a, bus_b = buses
    db = tmp_path / "shipwreck.db"
    lobby_a, lobby_b = _worker(db), _worker(db)
    seats = [SeatSpec("human"), SeatSpec("empty"), SeatSpec("bot", "random"), SeatSpec("bot")]
    table = lobby_a.create_table("lifeboat", seats, creator="ann", seed=16)
    assert table.sit(1, "bob") is None
    holder = Leaseholder(bus_a, lobby_a, "a")
    assert await holder.claim_new(table.id)
    links = [LobbyLink(bus_a, lobby_a, "a", heartbeat=0.1), LobbyLink(bus_b, lobby_b, "b", 0.1)]
    for link in links:
        await link.start()
    lobby_a.remote_tables, lobby_b.remote_tables = RemoteTables(bus_a), RemoteTables(bus_b)
    await _until(lambda: lobby_b.elsewhere(table.id), "B lists A's table")
    first, second, third = (ShipwreckApp(lobby, "bob") for lobby in (lobby_a, lobby_b, lobby_a))
    try:
        async with first.run_test(size=(120, 40)) as one:
            await until(one, lambda: isinstance(first.screen, SeatScreen), "bob at his seat")
            assert isinstance(first.screen, SeatScreen) and first.screen.seat == 1
            assert first.screen.table is table
            async with second.run_test(size=(120, 40)) as two:
                await until(two, lambda: isinstance(second.screen, SeatScreen), "the second")
                assert isinstance(second.screen, SeatScreen) and second.screen.seat == 1
                assert isinstance(second.screen.table, RemoteTable)
                said = "your other session has this seat"
                await until(one, lambda: said in _error_line(first), "the first says why")
                assert isinstance(first.screen, SeatScreen) and first.screen.seat is None
                assert lobby_a.controllers.get((table.id, "bob")) is None
                async with third.run_test(size=(120, 40)) as three:
                    await until(three, lambda: isinstance(third.screen, SeatScreen), "third")
                    assert isinstance(third.screen, SeatScreen) and third.screen.seat == 1
                    await until(
                        two, lambda: isinstance(second.screen, LobbyScreen), "the second: lobby"
                    )
                    elsewhere = f"your other session has your seat at table {table.id}"
                    await until(two, lambda: elsewhere in _error_line(second), "it says why")
                    assert lobby_a.controllers.get((table.id, "bob")) is third
                    # (the screen it left lets go of the seat as it unmounts, a moment later)
                    followers = lobby_b.remote_tables.followers
                    await until(two, lambda: not followers, "B stops following the seat")
                    await asyncio.sleep(0.3)  # (a goodbye from B would have arrived by now)
                    assert table.seats[1].connected, "the second session's goodbye sent bob away"
    finally:
        for link in links:
            await link.stop()
        await holder.stop()


async def test_tab_after_join_watch_open_lists_the_tables_of_every_worker(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    """Tab in bob's lobby on B offers A's tables too, by the same rules as B's own: ``join``
    a table with a free seat or his seat, ``watch`` any not over, ``open`` his own."""
    bus_a, bus_b = buses
    db = tmp_path / "shipwreck.db"
    lobby_a, lobby_b = _worker(db), _worker(db)
    bots = [SeatSpec("bot", "random")] * 3
    one_free = [SeatSpec("human"), SeatSpec("empty"), *bots[:2]]
    free = lobby_a.create_table("lifeboat", one_free, "ann")
    full = lobby_a.create_table("lifeboat", [SeatSpec("human"), *bots], "ann")
    his = lobby_a.create_table("lifeboat", [SeatSpec("human"), *bots], "bob")
    here = lobby_b.create_table("lifeboat", [SeatSpec("human"), *bots], "bob")
    links = [LobbyLink(bus_a, lobby_a, "a", heartbeat=0.1), LobbyLink(bus_b, lobby_b, "b", 0.1)]
    for link in links:
        await link.start()
    try:
        await _until(lambda: all(lobby_b.elsewhere(t.id) for t in (free, full, his)), "A's rows")

        def tab(text: str) -> list[str]:
            return lobby_completions(lobby_b, "bob", text)

        assert tab("join ") == [str(t.id) for t in (free, his, here)]
        assert tab("watch ") == [str(t.id) for t in (free, full, his, here)]
        assert tab("open ") == [str(t.id) for t in (his, here)]
        assert tab(f"join {free.id}") == [str(free.id)]
    finally:
        for link in links:
            await link.stop()


class Counting:
    """A worker's connection to the bus, counting the preview requests it sends."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.previews: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bus, name)

    async def request(self, subject: str, data: bytes, timeout: float = 2.0) -> bytes:
        if b'"kind":"preview"' in data:
            self.previews.append(time.monotonic())
        return await self.bus.request(subject, data, timeout)


async def test_a_spanish_main_move_typed_on_another_worker_is_previewed_by_the_owner(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    """bob's Spanish Main seat is on A's table, his screen on B: the preview of a move he
    types is the owner's (the same as A's table gives, a refusal in its words too), it comes
    with a redraw of his screen, and however fast he types at most one preview request goes
    every 0.1 s (as the local preview's pace)."""
    bus_a, plain_b = buses
    bus_b = Counting(plain_b)
    lobby_a = _worker(tmp_path / "shipwreck.db")
    seats = [SeatSpec("human"), SeatSpec("bot", "sm_random")]
    table = lobby_a.create_table("spanish_main", seats, creator="bob", seed=3)
    holder = Leaseholder(bus_a, lobby_a, "a")
    assert await holder.claim_new(table.id)
    try:
        remote = await RemoteTables(bus_b).open(table.id, "bob", 0)  # type: ignore[arg-type]
        assert isinstance(remote, RemoteTable)
        redrawn: list[object] = []
        unsubscribe = remote.subscribe(redrawn.append)
        moves = [c for c in table.rules.choices(table.state, 0) if isinstance(c, SM_MOVES)]
        assert len(moves) > 20 and table.preview(0, moves[0]) is not None

        assert remote.preview(0, moves[0]) is None  # asked of A
        await _until(lambda: bool(redrawn), "the answer redraws bob's screen")
        assert remote.preview(0, moves[0]) == table.preview(0, moves[0])
        assert len(bus_b.previews) == 1
        assert remote.preview(0, moves[0]) == table.preview(0, moves[0]), "asked again"
        assert len(bus_b.previews) == 1

        began = time.monotonic()
        for cmd in moves[1:21]:  # typed fast: a new line every 5 ms
            assert remote.preview(0, cmd) is None
            await asyncio.sleep(0.005)
        last = moves[20]
        await _until(lambda: remote.preview(0, last) is not None, "the last line's preview")
        took = time.monotonic() - began
        assert remote.preview(0, last) == table.preview(0, last)
        sent = bus_b.previews[1:]
        assert len(sent) <= took / PREVIEW_SECONDS + 1, f"{len(sent)} requests in {took:.2f} s"
        assert all(b - a >= PREVIEW_SECONDS * 0.9 for a, b in zip(sent, sent[1:], strict=False)), (
            sent
        )

        illegal = parse_command("spanish_main", "move dover S 0 S 0 S 0 S 0 S 0")
        with pytest.raises(IllegalCommand) as local:
            table.preview(0, illegal)
        assert remote.preview(0, illegal) is None

        def refused() -> bool:
            try:
                remote.preview(0, illegal)
            except IllegalCommand:
                return True
            return False

        await _until(refused, "A's refusal")
        with pytest.raises(IllegalCommand) as there:
            remote.preview(0, illegal)
        assert str(there.value) == str(local.value)
        unsubscribe()
        await remote.close()
    finally:
        await holder.stop()


@pytest.mark.parametrize("buses", ["nats"], indirect=True)
async def test_a_spectator_whose_worker_dies_is_no_longer_listed_or_whispered_to(
    buses: tuple[Bus, Bus], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kay watches A's table from worker B, lee from A. B dies (its connection to the bus
    closes; no ``unwatch`` ever comes): within a few beats A's table stops listing kay and
    refuses a whisper to her, while lee, whose screen keeps saying it watches, stays listed
    throughout. Before, kay stayed listed until the table moved to another worker."""
    monkeypatch.setattr(updates, "WATCH_RENEW_SECONDS", 0.1)
    bus_a, bus_b = buses
    lobby_a = _worker(tmp_path / "shipwreck.db")
    seats = [SeatSpec("human"), SeatSpec("bot"), SeatSpec("bot"), SeatSpec("bot")]
    table = lobby_a.create_table("lifeboat", seats, creator="ann", seed=15)
    holder = Leaseholder(bus_a, lobby_a, "a")
    assert await holder.claim_new(table.id)
    kay = TableMirror(bus_b, table.id, None, watcher="kay")
    lee = TableMirror(bus_a, table.id, None, watcher="lee")
    try:
        await kay.start()
        await lee.start()
        await _until(lambda: set(table.watchers) == {"kay", "lee"}, "both watch")
        await asyncio.sleep(1.0)  # ten beats, three of them the owner's limit: both renewed
        assert set(table.watchers) == {"kay", "lee"}
        assert table.say("ann", "psst", 0, to_watcher="kay") is None

        await bus_b.close()  # B dies
        await _until(lambda: set(table.watchers) == {"lee"}, "A forgets kay")
        assert table.say("ann", "psst", 0, to_watcher="kay") is not None
        await _until(lambda: lee.update is not None and "kay" not in lee.update.watchers, "lee")
    finally:
        await lee.stop()
        with contextlib.suppress(Exception):  # (its bus is gone)
            await kay.stop()
        await holder.stop()


class DeadWorker:
    """Workers A, B and C on one bus (its lease clock ``now``) and one store; A owned ann's
    table, and has just died (its leases left to run out, its rows no longer sent)."""

    def __init__(self, tmp_path: Path) -> None:
        self.now = [0.0]
        self.bus = MemoryBus(lease_seconds=1.0, clock=lambda: self.now[0])
        db = tmp_path / "shipwreck.db"
        self.lobbies = {name: _worker(db) for name in "abc"}
        seats = [SeatSpec("human"), *(SeatSpec("bot", "random") for _ in range(3))]
        self.table = self.lobbies["a"].create_table("lifeboat", seats, creator="ann", seed=16)
        self.holders = {
            name: Leaseholder(self.bus, lob, name) for name, lob in self.lobbies.items()
        }
        self.links = {
            name: LobbyLink(self.bus, lob, name, 0.1) for name, lob in self.lobbies.items()
        }

    async def start(self, die: bool = True) -> None:
        assert await self.holders["a"].claim_new(self.table.id)
        for name, link in self.links.items():
            await link.start()
            self.lobbies[name].remote_tables = RemoteTables(self.bus)
        await _until(lambda: self.lobbies["b"].elsewhere(self.table.id), "B lists A's table")
        if die:
            await self.die()

    async def die(self) -> None:
        await self.holders["a"].stop(release=False)  # A dies: no owner answers
        await self.links["a"].stop()

    @contextlib.asynccontextmanager
    async def ann_on_b(self) -> AsyncIterator[RemoteTable]:
        """ann playing A's table from worker B, A dying as she does (then cleaned up)."""
        await self.start(die=False)
        remote_tables = self.lobbies["b"].remote_tables
        assert remote_tables is not None
        link = await remote_tables.open(self.table.id, "ann", 0)
        assert isinstance(link, RemoteTable)
        try:
            await self.die()
            yield link
        finally:
            await link.close()
            await self.stop()

    async def take_over(self, heir: str) -> None:
        self.now[0] += 2.0  # A's lease runs out: the heir takes the table over
        holder = self.holders[heir]
        assert await holder.adopt() == [] and await holder.adopt() == [self.table.id]

    async def stop(self) -> None:
        for link in self.links.values():
            await link.stop()
        for holder in self.holders.values():
            await holder.stop()
        await self.bus.close()


@pytest.mark.parametrize("heir", ["b", "c"])
async def test_signing_in_while_a_dead_workers_table_moves_seats_the_player_when_it_is_back(
    tmp_path: Path, heir: str
) -> None:
    """Worker A dies with ann's table. ann signs in again on B before any worker has taken the
    table over: the lobby says it is moving, and the moment it is back (rebuilt on B itself, or
    on a third worker C) she is in her seat without typing anything. Before, she stayed in the
    lobby, and had to guess when to type 'open N'."""
    dead = DeadWorker(tmp_path)
    await dead.start()
    lobby_b, table = dead.lobbies["b"], dead.table
    app = ShipwreckApp(lobby_b, "ann")
    moving = f"table {table.id} is moving to another server process"
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: moving in _error_line(app), "the lobby says it moves")
            assert isinstance(app.screen, LobbyScreen)
            await asyncio.sleep(0.5)  # A's row is forgotten meanwhile: she still waits
            assert isinstance(app.screen, LobbyScreen) and moving in _error_line(app)
            await pilot.pause()
            listed = screen_text(app)
            assert "no tables yet" not in listed, "the lobby says she has no table"
            assert re.search(rf"\b{table.id}\b.*\bmoving\b.*\bann\b", listed), listed
            await dead.take_over(heir)

            def seated() -> bool:
                screen = app.screen
                return isinstance(screen, SeatScreen) and screen.seat == 0

            await until(pilot, seated, f"ann back in her seat once {heir} has the table")
            screen = app.screen
            assert isinstance(screen, SeatScreen)
            if heir == "b":
                assert screen.table is lobby_b.get(table.id)
            else:
                assert isinstance(screen.table, RemoteTable) and lobby_b.get(table.id) is None
    finally:
        await dead.stop()


async def test_a_table_that_does_not_come_back_in_time_is_left_to_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the wait, the lobby says the table has not come back and how to try again, and a
    later takeover no longer moves ann, who may be doing something else by then."""
    monkeypatch.setattr(seat_return, "RETURN_SECONDS", 0.5)
    dead = DeadWorker(tmp_path)
    await dead.start()
    app = ShipwreckApp(dead.lobbies["b"], "ann")
    table_id = dead.table.id
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            said = f"table {table_id} has not come back yet; 'open {table_id}' tries again"
            await until(pilot, lambda: said in _error_line(app), "the lobby gives up, saying so")
            await dead.take_over("b")
            await asyncio.sleep(0.3)
            assert isinstance(app.screen, LobbyScreen), "ann was moved after the wait"
            await pilot.press(*f"open {table_id}", "enter")  # (and 'open' takes her there)
            await until(pilot, lambda: isinstance(app.screen, SeatScreen), "ann opens it")
    finally:
        await dead.stop()


@pytest.mark.parametrize("heir", ["b", "c"])
async def test_lines_typed_while_the_table_moves_land_in_order_once_it_is_back(
    tmp_path: Path, heir: str
) -> None:
    """ann plays from worker B at A's table; A dies. What she types before the table is back
    waits for its new owner and lands, in the order typed. Before, each line was refused
    with "the table is moving to another server; try again", an error that stayed on her
    screen after the table was back (play-test, issue 21)."""
    dead = DeadWorker(tmp_path)
    async with dead.ann_on_b() as link:
        typed = [asyncio.create_task(link.say("ann", f"line {n}", 0)) for n in range(1, 4)]
        await asyncio.sleep(0.5)
        assert not any(t.done() for t in typed), "a line was answered with no owner"
        await dead.take_over(heir)
        assert await asyncio.gather(*typed) == [None, None, None]  # (no refusal)
        table = dead.lobbies[heir].get(dead.table.id)
        assert table is not None
        said = [c.text for c in table.chat_for("ann") if c.sender == "ann"]
        assert said == ["line 1", "line 2", "line 3"]


async def test_a_line_waits_for_a_moving_table_only_so_long(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No worker takes the table over: the line is refused after the wait, saying so."""
    monkeypatch.setattr(updates, "MOVE_WAIT_SECONDS", 0.3)
    async with DeadWorker(tmp_path).ann_on_b() as link:
        assert await link.say("ann", "hello", 0) == (
            "the table is moving to another server process and is not back yet; try again in"
            " a moment"
        )


async def test_open_while_the_table_moves_says_so_and_seats_the_player_when_it_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann types 'open N' for her moving table, during the wait at sign-in and again once it
    has given up: each time the lobby says the table is moving (before: "did not answer; try
    again", or "there is no table N"), and she is seated the moment it is back."""
    monkeypatch.setattr(seat_return, "RETURN_SECONDS", 0.6)
    dead = DeadWorker(tmp_path)
    await dead.start()
    app = ShipwreckApp(dead.lobbies["b"], "ann")
    table_id = dead.table.id
    moving = f"table {table_id} is moving to another server process"
    gave_up = f"table {table_id} has not come back yet"
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: moving in _error_line(app), "the lobby says it moves")
            await pilot.press(*f"open {table_id}", "enter")
            await pilot.pause()
            still = f"table {table_id} is still moving; you will be seated the moment it is back"
            assert _error_line(app) == still
            await until(pilot, lambda: gave_up in _error_line(app), "the wait gives up")
            await pilot.press(*f"open {table_id}", "enter")
            await until(pilot, lambda: moving in _error_line(app), "'open' waits again")
            assert f"no table {table_id}" not in _error_line(app)
            await dead.take_over("c")
            await until(pilot, lambda: isinstance(app.screen, SeatScreen), "ann is seated")
    finally:
        await dead.stop()


@pytest.mark.parametrize("heir", ["b", "c"])
async def test_the_chat_is_shown_once_after_the_table_moves(tmp_path: Path, heir: str) -> None:
    """ann plays A's table from B; A dies and B (or C) takes the table over. Her screen then
    follows a copy rebuilt from the store, whose chat lines are new objects: it showed the
    whole chat again below itself, once more at each move (play-test, issue 21)."""
    dead = DeadWorker(tmp_path)
    await dead.start(die=False)
    app = ShipwreckApp(dead.lobbies["b"], "ann")
    try:
        async with app.run_test(size=(120, 40)) as pilot:

            def seated() -> bool:
                return isinstance(app.screen, SeatScreen) and app.screen.seat == 0

            await until(pilot, seated, "ann lands in her seat on B")
            screen = app.screen
            assert isinstance(screen, SeatScreen)
            for n in (1, 2):
                assert dead.table.say("ann", f"before-move-{n}", 0) is None

            def shown() -> str:
                screen = app.screen
                assert isinstance(screen, SeatScreen)
                try:
                    return "\n".join(t.plain for t in screen.chat_log().texts)
                except NoMatches:  # (a screen not composed yet)
                    return ""

            await until(pilot, lambda: "before-move-2" in shown(), "the chat on her screen")
            await dead.die()
            await dead.take_over(heir)
            heirs_table = dead.lobbies[heir].get(dead.table.id)
            assert heirs_table is not None
            await until(pilot, lambda: heirs_table.say("ann", "after-move", 0) is None, "said")
            await until(pilot, lambda: "after-move" in shown(), "the new line on her screen")
            await pilot.pause()
            text = shown()
            assert [text.count(f"before-move-{n}") for n in (1, 2)] == [1, 1], text
            assert text.count("after-move") == 1, text
    finally:
        await dead.stop()

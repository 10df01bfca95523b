"""One lobby, many sessions: a change there reaches every lobby screen, paced (issue 15).

A change in the lobby (a table made, a player sitting down) repaints every session in it. Queued
at once, two hundred repaints ran in one turn of the event loop and every timer waited behind
them (3.7 s with 200 sessions signing in and sitting down). These tests hold the pacing to its
word (at most K lobby repaints per turn of the loop, each screen at most so often), and check
that nothing is lost on the way: every screen ends up showing the lobby as it is.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import shown_rows

from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.board import Board
from shipwreck.tui.lobby.screen import LobbyScreen, lobby_pacer, tables_panel
from shipwreck.tui.pacer import RepaintPacer
from shipwreck.tui.widgets import EventLog

SIZE = (120, 40)


def open_table(lobby: Lobby, creator: str, seed: int = 1) -> Table:
    seats = [SeatSpec("human"), SeatSpec("empty"), *[SeatSpec("bot", "random")] * 4]
    return lobby.create_table("lifeboat", seats, creator=creator, seed=seed)


class Fake:
    """A screen, for the pacer on its own."""

    def __init__(self, n: int) -> None:
        self.n = n


class Turns:
    """Counts the turns of the running event loop (a callback that queues itself again runs
    once a turn)."""

    def __init__(self) -> None:
        self.count = 0
        self._handle: asyncio.Handle | None = None

    def _tick(self) -> None:
        self.count += 1
        self._handle = asyncio.get_running_loop().call_soon(self._tick)

    def start(self) -> None:
        self._handle = asyncio.get_running_loop().call_soon(self._tick)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()


@asynccontextmanager
async def lobby_sessions(
    lobby: Lobby, n: int
) -> AsyncIterator[tuple[list[ShipwreckApp], list[Pilot[None]]]]:
    """``n`` sessions in ``lobby``'s lobby, in one event loop as on the server."""
    apps = [ShipwreckApp(lobby, f"p{i:02d}") for i in range(n)]
    async with AsyncExitStack() as stack:
        pilots = [await stack.enter_async_context(app.run_test(size=SIZE)) for app in apps]
        await pilots[-1].pause()
        assert all(isinstance(app.screen, LobbyScreen) for app in apps)
        yield apps, pilots


def shows(app: ShipwreckApp, lobby: Lobby) -> bool:
    """Whether ``app`` shows every table's row as the lobby lists it now."""
    text = "\n".join(shown_rows(app))
    return all(
        all(part in text for part in (row[0], row[2], row[4], row[5])) for row in lobby.listing()
    )


async def until(test: Callable[[], bool], timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not test():
            await asyncio.sleep(0.02)


def record_repaints(monkeypatch: pytest.MonkeyPatch, turns: Turns) -> list[tuple[int, Any]]:
    """(loop turn, screen) of every lobby repaint from now on."""
    done: list[tuple[int, Any]] = []
    repaint = LobbyScreen._repaint

    def recorded(self: LobbyScreen) -> None:
        done.append((turns.count, self))
        repaint(self)

    monkeypatch.setattr(LobbyScreen, "_repaint", recorded)
    return done


# ------------------------------------------------------------------ the lobby tells less


def test_a_move_inside_a_game_is_not_told_to_the_lobby_a_seat_taken_is() -> None:
    lobby = Lobby(seed=1)
    told: list[int] = []
    lobby.subscribe(lambda lb: told.append(lb.version))
    table = open_table(lobby, "ann", seed=3)
    rows = lobby.listing()
    assert lobby.listing() is rows  # one list for every session that shows it
    told.clear()
    assert table.submit_text(0, "say ahoy").ok  # a move: the table's row stays the same
    assert told == []
    assert lobby.listing() is rows
    assert table.sit(1, "bob") is None  # a seat taken: its row changes
    assert told == [lobby.version]
    assert lobby.listing() is not rows
    assert lobby.listing()[0][5] == "ann, bob"


def test_a_change_to_a_row_is_told_even_when_nobody_listed_the_lobby_since() -> None:
    lobby = Lobby(seed=1)
    told: list[int] = []
    lobby.subscribe(lambda lb: told.append(lb.version))
    first = open_table(lobby, "ann")
    second = open_table(lobby, "bob")
    told.clear()
    assert first.sit(1, "cy") is None
    assert second.sit(1, "di") is None  # (nobody has read the list in between)
    assert len(told) == 2
    assert [r[5] for r in lobby.listing()] == ["ann, cy", "bob, di"]


# ------------------------------------------------------------------ the pacer on its own


async def test_the_pacer_queues_at_most_at_once_repaints_and_serves_everybody() -> None:
    turns = Turns()
    posted: list[tuple[int, int]] = []
    pacer: RepaintPacer[Fake]

    def post(screen: Fake) -> bool:
        posted.append((turns.count, screen.n))
        loop.call_soon(pacer.done, screen)  # the repaint runs in the next turn
        return True

    loop = asyncio.get_running_loop()
    pacer = RepaintPacer(post, at_once=4, every=0.3, per_second=1000)
    screens = [Fake(n) for n in range(20)]
    turns.start()
    try:
        for screen in screens:
            pacer.want(screen)
            pacer.want(screen)  # asking twice before the repaint: one repaint
        await until(lambda: pacer.waiting == 0 and pacer.posted == 0, 5)
        per_turn = collections.Counter(turn for turn, _ in posted)
        assert max(per_turn.values()) <= 4
        assert sorted(n for _, n in posted) == list(range(20))
        asked = time.monotonic()
        pacer.want(screens[0])  # it has just repainted: not again within ``every``
        await until(lambda: len(posted) == 21, 5)
        assert time.monotonic() - asked >= 0.25
    finally:
        turns.stop()


async def test_the_pacer_spreads_repaints_over_time_at_per_second() -> None:
    times: list[float] = []
    pacer: RepaintPacer[Fake]

    def post(screen: Fake) -> bool:
        times.append(time.monotonic())
        asyncio.get_running_loop().call_soon(pacer.done, screen)
        return True

    pacer = RepaintPacer(post, at_once=5, every=0.0, per_second=50)
    started = time.monotonic()
    for screen in [Fake(n) for n in range(30)]:
        pacer.want(screen)
    await until(lambda: len(times) == 30, 5)
    # 5 at once, then 50 a second: the other 25 take half a second at least
    assert times[-1] - started >= 0.45


async def test_a_refused_or_failing_repaint_does_not_hold_a_place() -> None:
    posted: list[int] = []

    def post(screen: Fake) -> bool:
        posted.append(screen.n)
        if screen.n == 1:
            raise RuntimeError("a broken screen")
        return screen.n != 0  # screen 0 is closing: its repaint is refused

    pacer = RepaintPacer(post, at_once=1, every=0.0)
    screens = [Fake(n) for n in range(3)]
    for screen in screens:
        pacer.want(screen)
    await until(lambda: posted == [0, 1, 2], 2)
    assert pacer.posted == 1  # screen 2's repaint is queued; 0 and 1 hold nothing


# ------------------------------------------------------------------ lobby screens


async def test_one_lobby_change_repaints_at_most_k_lobby_screens_per_loop_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """12 sessions in the lobby, a player sits down at a table: every lobby screen repaints
    and shows it, never more than K in one turn of the event loop (unpaced, all 12 did)."""
    lobby = Lobby(seed=1)
    table = open_table(lobby, "ann")
    async with lobby_sessions(lobby, 12) as (apps, _):
        pacer = lobby_pacer(lobby)
        pacer.at_once = 3
        await until(lambda: pacer.waiting == 0 and pacer.posted == 0)
        turns = Turns()
        repaints = record_repaints(monkeypatch, turns)
        turns.start()
        try:
            assert table.sit(1, "zed") is None
            await until(lambda: {id(s) for _, s in repaints} >= {id(a.screen) for a in apps})
        finally:
            turns.stop()
        per_turn = collections.Counter(turn for turn, _ in repaints)
        assert max(per_turn.values()) <= 3, per_turn
        for app in apps:
            assert any("ann, zed" in row for row in shown_rows(app)), shown_rows(app)


async def test_every_lobby_screen_ends_up_showing_a_burst_of_changes() -> None:
    """Many changes while the screens are paced (tables made, seats taken, chat): no update
    is lost, every screen shows the lobby as it is once the burst is over."""
    lobby = Lobby(seed=1, open_tables_per_player=50, new_tables_per_minute=50)
    async with lobby_sessions(lobby, 8) as (apps, _):
        pacer = lobby_pacer(lobby)
        pacer.at_once, pacer.every = 2, 0.2
        tables = [open_table(lobby, f"host{i}", seed=i) for i in range(4)]
        for i in range(24):
            if i % 3 == 0:
                lobby.say("crier", f"news {i}")
            else:
                tables[i % 4].sit(1 + i // 4 % 5, f"guest{i}")
            await asyncio.sleep(0.01 * (i % 4))
        await until(lambda: pacer.waiting == 0 and pacer.posted == 0)
        for app in apps:
            assert shows(app, lobby), (shown_rows(app), lobby.listing())
            chat = app.screen.query_one("#lobby-chat", EventLog)
            assert "news 21" in chat.texts[-1].plain


async def test_what_a_player_types_in_the_lobby_is_drawn_at_once_not_paced() -> None:
    lobby = Lobby(seed=1)
    async with lobby_sessions(lobby, 2) as (apps, pilots):
        pacer = lobby_pacer(lobby)
        pacer.every = 60.0  # a paced repaint would not come during this test
        lobby.say("crier", "first")  # both screens repaint once: the next is a minute away
        await until(lambda: pacer.waiting == 0 and pacer.posted == 0)
        await pilots[0].press(*"say ahoy", "enter")
        await pilots[0].pause()
        chat = apps[0].screen.query_one("#lobby-chat", EventLog)
        assert "ahoy" in chat.texts[-1].plain  # drawn by the typed line itself
        assert pacer.waiting == 1  # the other screen waits its turn (a minute here)


async def test_lobby_screens_of_one_size_share_the_tables_rows() -> None:
    """The tables' rows are drawn once for every lobby screen that shows them alike: the
    second screen's board holds the very rows the first drew (it draws nothing itself)."""
    lobby = Lobby(seed=1)
    async with lobby_sessions(lobby, 3) as (apps, _):
        pacer = lobby_pacer(lobby)
        open_table(lobby, "ann")
        await until(lambda: pacer.waiting == 0 and pacer.posted == 0)
        boards = [app.screen.query_one("#board", Board) for app in apps]
        rows = [board._rows["tables"] for board in boards]
        assert rows[0] is rows[1] is rows[2]
        for app in apps:
            assert shows(app, lobby), shown_rows(app)


async def test_a_join_goes_to_the_table_without_drawing_the_lobby_list_first() -> None:
    """The joiner's lobby is about to be replaced by the table: it does not draw the changed
    list (the costliest part of a crowd sitting down), and its table screen shows the seat."""
    lobby = Lobby(seed=1)
    async with lobby_sessions(lobby, 2) as (apps, pilots):
        table = open_table(lobby, "ann")
        pacer = lobby_pacer(lobby)
        await until(lambda: pacer.waiting == 0 and pacer.posted == 0)
        drawn: list[object] = []
        make = tables_panel

        def counted(rows: list[Any], height: int) -> Any:
            drawn.append(rows)
            return make(rows, height)

        pacer.every = 60.0  # the other screen's paced repaint would not come during this test
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr("shipwreck.tui.lobby.screen.tables_panel", counted)
            await pilots[0].press(*f"join {table.id}", "enter")
            await until(lambda: isinstance(apps[0].screen, SeatScreen))
        assert drawn == []
        screen = apps[0].screen
        assert isinstance(screen, SeatScreen)
        assert (screen.table.id, screen.seat) == (table.id, 1)
        assert table.seat_of_player(apps[0].user) == 1


async def test_a_burst_of_table_repaints_is_spread_over_turns_of_the_loop() -> None:
    """TurnBudget: under the budget a repaint is queued at once (no turn added to what a player
    waits); a burst past it goes out ``per_turn`` a turn, in order, and none is lost."""
    from shipwreck.tui.pacer import TurnBudget

    budget = TurnBudget(per_turn=4)
    turn = [0]
    posted: list[tuple[int, int]] = []

    def post(i: int) -> Callable[[], None]:
        return lambda: posted.append((i, turn[0]))

    budget.run(post(0))
    assert posted == [(0, 0)]  # at once
    for i in range(1, 11):
        budget.run(post(i))
    for t in range(1, 6):
        turn[0] = t
        await asyncio.sleep(0)  # one turn of the event loop
    assert [i for i, _ in posted] == list(range(11))
    per_turn = collections.Counter(t for _, t in posted)
    assert max(per_turn.values()) <= 4 and per_turn[0] == 4


async def test_a_turn_takes_screen_work_until_its_learnt_cost_is_spent() -> None:
    """TurnBudget by cost: once repaints of a kind are known to take 15 ms, a 40 ms turn takes
    two of them (not sixteen); opening a table (counted at 20 ms) goes alone or with one; a
    kind that costs more than a whole turn still goes, one a turn; order is kept, none lost."""
    from shipwreck.tui.pacer import TurnBudget

    budget = TurnBudget(per_turn=16, seconds=0.04, costs={"open": 0.02})
    budget.measured("table", 0.015)
    budget.measured("huge", 0.5)
    turn = [0]
    posted: list[tuple[str, int]] = []

    def post(name: str) -> Callable[[], None]:
        return lambda: posted.append((name, turn[0]))

    work = ["table"] * 5 + ["open", "open", "huge", "table", "table"]
    for i, kind in enumerate(work):
        budget.run(post(f"{kind}{i}"), kind)
    for t in range(1, 10):
        turn[0] = t
        await asyncio.sleep(0)
    assert [name for name, _ in posted] == [f"{kind}{i}" for i, kind in enumerate(work)]
    by_turn: dict[int, list[str]] = collections.defaultdict(list)
    for name, t in posted:
        by_turn[t].append(name)
    assert list(by_turn.values()) == [
        ["table0", "table1"],
        ["table2", "table3"],
        ["table4", "open5"],
        ["open6"],  # 20 ms + 500 ms would not fit: the huge one waits for a turn of its own
        ["huge7"],
        ["table8", "table9"],
    ], by_turn
    budget.measured("table", 0.005)  # a moving average: one cheap repaint lowers it a little
    assert 0.012 < budget.cost["table"] < 0.015


def _typed(app: ShipwreckApp, text: str) -> None:
    """Queue ``text`` as keys to ``app``, as one packet from its client would."""
    from textual import events

    for ch in text:
        if ch == "\r":
            app.post_message(events.Key("enter", "\r"))
        else:
            app.post_message(events.Key("space" if ch == " " else ch, ch))


async def test_each_kind_of_typed_line_has_its_own_cost() -> None:
    """Lines by their first word: a crowd's ``join``s (learnt at 18 ms) go two a turn while
    cheap ``say``s (2 ms) fill the rest of it, where one learnt cost for every line let
    sixteen joins into one turn (0.3 s, ``bench/ssh_load.py --sessions 100``: the seating
    phase's longest turn). A kind never measured counts as ``unknown``; a typed word is a
    kind, so only so many kinds are learnt (the rest count as unknown)."""
    from shipwreck.tui.pacer import TurnBudget, line_kind

    assert line_kind("JOIN 12") == "line:join" and line_kind("say hi") == "line:say"
    assert line_kind("   ") == "line:"
    budget = TurnBudget(per_turn=16, seconds=0.04, unknown=0.01, kinds=3)
    budget.measured("line:join", 0.018)
    budget.measured("line:say", 0.002)
    turn = [0]
    posted: list[tuple[str, int]] = []

    def post(name: str) -> Callable[[], None]:
        return lambda: posted.append((name, turn[0]))

    work = ["line:join"] * 4 + ["line:say"] * 3 + ["line:new"] * 5
    for i, kind in enumerate(work):
        budget.run(post(f"{kind}{i}"), kind)
    for t in range(1, 10):
        turn[0] = t
        await asyncio.sleep(0)
    by_turn: dict[int, list[str]] = collections.defaultdict(list)
    for name, t in posted:
        by_turn[t].append(name)
    assert list(by_turn.values()) == [
        ["line:join0", "line:join1"],
        ["line:join2", "line:join3", "line:say4", "line:say5"],
        ["line:say6", "line:new7", "line:new8", "line:new9"],
        ["line:new10", "line:new11"],
    ], by_turn
    budget.measured("line:start", 0.005)  # a third kind is learnt
    budget.measured("line:xyzzy", 0.5)  # a fourth is not: kinds are bounded
    assert set(budget.cost) == {"line:join", "line:say", "line:start"}


async def test_lines_typed_by_a_crowd_in_one_turn_are_spread_over_turns_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """TurnBudget for typed lines: once a line is known to cost 30 ms, a turn runs one
    (a crowd's lines no longer run all in the turn their keys came in); each session's lines
    still run in the order typed, and none is lost."""
    from shipwreck.tui.pacer import LINE_TURNS
    from shipwreck.tui.widgets import CommandLine

    lobby = Lobby(seed=1)
    async with lobby_sessions(lobby, 6) as (apps, pilots):
        turns = Turns()
        ran: list[tuple[int, str, str]] = []
        for app in apps:
            line = app.screen.query_one(CommandLine)
            run = line.run

            def recorded(text: str, user: str = app.user, run: Callable[[str], None] = run) -> None:
                ran.append((turns.count, user, text))
                run(text)

            line.run = recorded
        monkeypatch.setitem(LINE_TURNS.cost, "line:say", 0.03)
        monkeypatch.setattr(LINE_TURNS, "measured", lambda kind, seconds: None)
        turns.start()
        try:
            for app in apps:
                _typed(app, f"say {app.user} a\rsay {app.user} b\r")
            await until(lambda: len(ran) == 12)
        finally:
            turns.stop()
        for app in apps:
            assert [t for _, u, t in ran if u == app.user] == [
                f"say {app.user} a",
                f"say {app.user} b",
            ]
        per_turn = collections.Counter(turn for turn, _, _ in ran)
        assert max(per_turn.values()) == 1, per_turn  # one 30 ms line a turn (25 ms budget)
        said = [(c.sender, c.text) for c in lobby.chat]
        assert sorted(said) == sorted((a.user, f"{a.user} {x}") for a in apps for x in "ab")


async def test_a_typed_line_does_not_wait_behind_the_screens_queued_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lines have a budget of their own: fifty costly repaints queued before a line (one a
    turn) do not hold it; it runs as soon as its keys are handled."""
    from shipwreck.tui.pacer import TABLE_TURNS
    from shipwreck.tui.widgets import CommandLine

    lobby = Lobby(seed=1)
    async with lobby_sessions(lobby, 1) as (apps, _pilots):
        line = apps[0].screen.query_one(CommandLine)
        run, ran, posted = line.run, [], []

        def recorded(text: str) -> None:
            ran.append(len(posted))
            run(text)

        line.run = recorded
        monkeypatch.setitem(TABLE_TURNS.cost, "busy", 1.0)  # each takes a turn of its own
        for i in range(50):
            TABLE_TURNS.run(lambda i=i: posted.append(i), "busy")
        _typed(apps[0], "say ahoy\r")
        await until(lambda: bool(ran))
        assert ran[0] < 50, "the line waited for every repaint queued before it"
        await until(lambda: len(posted) == 50)
        assert [c.text for c in lobby.chat][-1:] == ["ahoy"]

"""Fixes from the third stranger play-test (issue 16) and its small items left open: Ctrl+Q at
a waiting table, Spanish Main's prompts, hints and texts, the 80×24 screens, the lobby's help
and its tutorial tables."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.pilot import Pilot

from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.app import QUIT_WAITING
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.confirm import Confirm

SIZES = [(80, 24), (120, 40)]


def seat_screen(app: ShipwreckApp) -> SeatScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, SeatScreen))
    return screen


async def wait_screen(pilot: Pilot[Any], kind: type) -> None:
    for _ in range(50):
        if isinstance(pilot.app.screen, kind):
            return
        await pilot.pause(0.02)
    raise AssertionError(f"no {kind.__name__}: {pilot.app.screen!r}")


# ------------------------------------------------------------------ 1. Ctrl+Q at a waiting table


@pytest.mark.parametrize("size", SIZES)
async def test_ctrl_q_at_a_waiting_table_asks_before_quitting(size: tuple[int, int]) -> None:
    """A table waiting for its players starts by a word typed at it: Ctrl+Q there asks
    (n stays, Ctrl+Q again quits), as Ctrl+C and Esc ask elsewhere."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), *[SeatSpec("empty")] * 3]
    table = lobby.create_table("lifeboat", seats, "ann", gather=True)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, SeatScreen)
        assert not table.started
        await pilot.press("ctrl+q")
        await wait_screen(pilot, Confirm)
        assert app.is_running
        text = str(app.screen.query_one("#question").render())
        assert text == f"{QUIT_WAITING} y/n" and "waits to start" in text
        await pilot.press("n")
        await wait_screen(pilot, SeatScreen)
        assert app.is_running and table.seat_of_player("ann") == 0  # nothing changed
        await pilot.press("ctrl+q")
        await wait_screen(pilot, Confirm)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running
    assert table.seat_of_player("ann") == 0  # the seat is kept, as the question says


async def test_ctrl_q_at_a_started_table_still_quits_at_once() -> None:
    """Only a waiting table asks: at a game under way Ctrl+Q quits (the seat waits)."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), *[SeatSpec("bot", "loyal")] * 3]
    table = lobby.create_table("lifeboat", seats, "ann")
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, SeatScreen)
        assert table.started
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


# ------------------------------------------------------------------ 2. Spanish Main's texts

from shipwreck.engine.core import Event  # noqa: E402
from shipwreck.games.spanish_main import RULES as SEA  # noqa: E402
from shipwreck.games.spanish_main import commands as C  # noqa: E402
from shipwreck.games.spanish_main.codes import ship_codes  # noqa: E402
from shipwreck.games.spanish_main.setup import IslandPosition, Position, ShipPosition  # noqa: E402
from shipwreck.games.spanish_main.state import SpanishMainState  # noqa: E402
from shipwreck.games.spanish_main.view import SpanishMainView  # noqa: E402
from shipwreck.lang import parse_command  # noqa: E402
from shipwreck.lang.spanish_main import suggested_moves  # noqa: E402
from shipwreck.tui.packed import Packed  # noqa: E402
from shipwreck.tui.spanish_main import render as R  # noqa: E402

RED, BLUE = 0, 1
ISLANDS = [
    IslandPosition(10, 28, 5, id="isla-1", home=RED),
    IslandPosition(60, 28, 5, id="isla-2", home=BLUE),
    IslandPosition(35, 45, 5, id="isla-3", coins=[3, 1, 5]),
    IslandPosition(35, 10, 4, id="isla-4", coins=[2, 6]),
]


def sea_game(*ships: ShipPosition, dice: tuple[int, ...] = ()) -> SpanishMainState:
    """A fixed sea (two homes, two wild islands with coins) with ``ships``."""
    pos = Position(seed=7, seats=2, islands=list(ISLANDS), ships=list(ships), dice=list(dice))
    state, _ = SEA.from_position(pos)
    return state


def sea_view(state: SpanishMainState, seat: int) -> SpanishMainView:
    view = SEA.view(state, seat)
    assert isinstance(view, SpanishMainView)
    return view


def prompt_items(view: SpanishMainView) -> tuple[str, list[str]]:
    """The prompt panel's head and its items, as drawn."""
    drawn = R.prompt(view, suggested_moves(view))
    assert isinstance(drawn, Packed)
    return drawn.head.plain, [item.plain for item in drawn.items]


def test_sm18_the_hit_prompt_names_the_ship_that_was_hit() -> None:
    """SM-18: a ram's hit asks the target's owner for a mast; the prompt says which ship."""
    state = sea_game(
        ShipPosition("el-picador", RED, 37, 26, 0),
        ShipPosition("dover", BLUE, 40, 30, 90),
        dice=(6,),
    )
    SEA.apply(state, RED, C.Move("el-picador", (("S", 0.0, None),)))
    SEA.apply(state, RED, C.Ram("el-picador", "dover"))
    view = sea_view(state, BLUE)
    assert view.hit == "dover"
    head, items = prompt_items(view)
    assert head.startswith("dover is hit: eliminate N"), head
    assert items[0] == "choices: eliminate 1"


def test_sm15_a_loaded_ship_is_hinted_home_first() -> None:
    """SM-15: gold counts once it is unloaded at home. A ship carrying coins gets a move that
    sails home (toward or docking at her home island), first on the hints line, ahead of
    another ship's explore; and it works as typed."""
    state = sea_game(
        ShipPosition("dover", RED, 35, 30, 0, cargo=[4]),
        ShipPosition("plantagenet", RED, 35, 40, 0),  # docked at isla-3: may explore
        ShipPosition("el-leon", BLUE, 60, 52, 90),
    )
    view = sea_view(state, RED)
    _, items = prompt_items(view)
    assert "explore plantagenet" in items, items
    assert items[0].startswith("move dover ") and "isla-1" in items[0], items
    SEA.apply(state, RED, parse_command("spanish_main", items[0], view))  # legal as typed
    assert state.ships["dover"].x < 35  # she sailed west, toward home


def test_sm10_hints_count_a_move_made_earlier_in_the_same_turn() -> None:
    """SM-10: after one ship has sailed for a wild island this turn, the hints no longer send
    my other ships after the same island (seed 6, red first by SM-2's roll: dover and
    lord-walpole are both sent to isla-2 until dover sails)."""
    state, _ = SEA.new_game(6, 2)
    seat = SEA.prompts(state)[0].seat
    assert seat == RED
    view = sea_view(state, seat)
    before = suggested_moves(view)
    first = before["dover"]
    assert first == "move dover toward isla-2"
    assert before["lord-walpole"] == "move lord-walpole toward isla-2"
    SEA.apply(state, seat, parse_command("spanish_main", first, view))
    while SEA.prompts(state)[0].kind == "after_move":
        SEA.apply(state, seat, C.Pass())
    after = suggested_moves(sea_view(state, seat))
    assert set(after) == {"lord-walpole", "plantagenet"}, after
    assert not any("isla-2" in text for text in after.values()), after


def test_headings_read_0_to_359() -> None:
    """The preview's heading: 359.7 reads 0°, not 360°; -0.2 reads 0°, not -0°."""
    assert [R.compass(h) for h in (359.7, -0.2, 0.0, 90.4, 180.5, -90.0)] == [0, 0, 0, 90, 180, 270]


def test_sm12_a_leg_that_turns_a_hair_left_is_logged_as_plus_0_degrees() -> None:
    """SM-12: the move's log line writes each leg's turn rounded; never '-0°'."""
    state = sea_game(ShipPosition("dover", RED, 35, 30, 0), ShipPosition("el-leon", BLUE, 60, 52))
    events: list[Event] = SEA.apply(state, RED, C.Move("dover", (("S", -0.3, None),)))
    line = next(e.text for e in events if "sails" in e.text)
    assert "S +0° " in line and "-0°" not in line, line


def test_the_fleet_screen_explains_masts_of_different_ranks() -> None:
    """The fleet screen's 'Reading the fleet' explains a mast notation like 3S2L3S in words,
    with a ship at the table that has one as its example."""
    from rich.console import Console

    state = sea_game(ShipPosition("dover", RED, 35, 30, 0), ShipPosition("el-leon", BLUE, 60, 52))
    view = sea_view(state, RED)
    mixed = [s for s in view.ships if len({m.rank for m in s.masts}) > 1]
    console = Console(width=100, record=True)
    console.print(R.fleet_info(view))
    text = console.export_text()
    assert "masts whose cannons differ in rank" in text, text
    example = R._masts(mixed[0]).plain if mixed else "3S2L3S"
    assert example in text


# ------------------------------------------------------------------ 4. the lobby: help, tutorials

from shipwreck.lang.help import SHELL_TITLE  # noqa: E402
from shipwreck.runtime.tutorial import TutorialTable  # noqa: E402
from shipwreck.tui.base import TABLE_TITLE, CommandHelp  # noqa: E402
from shipwreck.tui.lobby.screen import LOBBY_HELP, LobbyHelpScreen, LobbyScreen  # noqa: E402


def rows(app: ShipwreckApp) -> list[str]:
    """The screen as the terminal shows it, row by row."""
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


async def type_line(pilot: Pilot[Any], line: str) -> None:
    await pilot.press(*line, "enter")
    await pilot.pause()


def test_the_lobby_panel_names_quit_and_both_tutorials_on_rows_that_fit_80_columns() -> None:
    lines = LOBBY_HELP.plain.split("\n")
    assert all(len(line) <= 78 for line in lines), lines  # (the board pads one each side)
    text = LOBBY_HELP.plain
    for words in ("new tutorial [sm]", "quit", "help", "say TEXT", "rules [sm]"):
        assert words in text


@pytest.mark.parametrize("size", SIZES)
async def test_lobby_help_lists_quit_tell_and_the_sea_tutorial_and_scrolls_to_them(
    size: tuple[int, int],
) -> None:
    """Third play-test: the lobby's help ended below the fold at 80×24 with no word of
    scrolling, and had no 'tell' nor 'new tutorial sm'. Now it says how to scroll, lists the
    table's words (tell, chat) under the same title as a table's help, and ↓/PgDn reach quit."""
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=size) as pilot:
        await type_line(pilot, "help")
        screen = app.screen
        assert isinstance(screen, LobbyHelpScreen)
        assert "Escape closes · ↑ ↓ PgUp PgDn scroll" in "\n".join(rows(app))
        titles = [title for title, _ in screen.sections()]
        assert titles == ["Lobby commands", TABLE_TITLE, "Keys", SHELL_TITLE]
        usages = [e.usage for _, entries in screen.sections() for e in entries]
        assert any("new tutorial [sm]" in u for u in usages), usages
        assert any(u.startswith("tell WHO TEXT") for u in usages), usages
        assert "quit" in usages
        for _ in range(3):
            if any("█ quit  end this session" in r for r in rows(app)):
                break
            await pilot.press("pagedown")
            await pilot.pause()
        assert any("█ quit  end this session" in r for r in rows(app))


@pytest.mark.parametrize("size", SIZES)
async def test_table_help_lists_say_once_and_chat_as_the_same(size: tuple[int, int]) -> None:
    """'say' at a table is always the table's chat (Lifeboat's own 'say' too), so its help
    lists it once, with the table's words; 'chat' was described as if 'say' went elsewhere."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), *[SeatSpec("bot", "loyal")] * 3]
    table = lobby.create_table("lifeboat", seats, "ann")
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, SeatScreen)
        await type_line(pilot, "help")
        screen = app.screen
        assert isinstance(screen, CommandHelp)
        sections = dict(screen.sections())
        assert list(sections) == ["Lifeboat commands", TABLE_TITLE, "Keys"]
        assert not any(e.usage.startswith("say") for e in sections["Lifeboat commands"])
        table_words = {e.usage.split()[0]: e.description for e in sections[TABLE_TITLE]}
        assert table_words["chat"] == "the same as 'say'"
        assert "players and spectators" in table_words["say"]
        assert "Escape closes · ↑ ↓ PgUp PgDn scroll" in "\n".join(rows(app))


@pytest.mark.parametrize("size", SIZES)
async def test_a_tutorial_row_in_the_lobby_says_it_is_a_tutorial(size: tuple[int, int]) -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=size) as pilot:
        await type_line(pilot, "new tutorial sm")
        await wait_screen(pilot, SeatScreen)
        await type_line(pilot, "lobby")
        await wait_screen(pilot, LobbyScreen)
        await pilot.pause()
        row = next(r for r in rows(app) if r.lstrip().startswith("1 "))
        assert "Spanish Main tutorial" in row, row


def test_a_tutorial_leaves_memory_when_its_game_ends() -> None:
    """A tutorial is never saved and no one else may join it: once over, it is dropped at once
    (ordinary tables stay ``keep_finished_seconds`` for their watchers)."""
    lobby = Lobby(seed=1)
    table = lobby.create_tutorial("lifeboat", "ann")
    assert isinstance(table, TutorialTable) and lobby.get(table.id) is table
    while not table.over:
        command = table.coach_line().command
        assert command is not None
        assert table.submit_text(0, command).ok
    assert lobby.get(table.id) is None
    assert all(r[0] != str(table.id) for r in lobby.listing_for("ann"))
    assert lobby.seats_of("ann") == []


def test_a_tutorial_leaves_memory_when_its_player_leaves_it() -> None:
    """'leave' gives the seat up: nobody can come back to the tutorial, and it is dropped
    (before, it stayed until its player began another tutorial, playing on with a bot)."""
    lobby = Lobby(seed=1)
    table = lobby.create_tutorial("sm", "ann")
    other = lobby.create_table("lifeboat", [SeatSpec("human"), *[SeatSpec("bot")] * 3], "bob")
    table.leave("ann")
    assert lobby.get(table.id) is None
    assert lobby.get(other.id) is other  # (only the tutorial)
    assert len(table.commands) == 0  # no bot played the seat she left


# ------------------------------------------------------------------ 3. 80×24: seats line, chat

from shipwreck.games.lifeboat.cards import CHAR  # noqa: E402
from shipwreck.tui.lifeboat.screen import CHAT_KEYS, TableScreen  # noqa: E402
from shipwreck.tui.widgets import EventLog  # noqa: E402


def lifeboat_with_bots(bots: list[str]) -> tuple[Lobby, int]:
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), *[SeatSpec("bot", b) for b in bots]]
    return lobby, lobby.create_table("lifeboat", seats, "ann").id


@pytest.mark.parametrize("size", SIZES)
async def test_the_seats_line_names_the_bots_at_every_size(size: tuple[int, int]) -> None:
    """Third play-test: at 80×24 the seats line said 'mate: bot' without the bot's name. Now
    every seat keeps its name and each bot is named (at 80×24, with the bots together by
    their characters' letters: 'bots: L=loyal', session 29), never 'bot' alone; with room,
    'bot loyal' as before."""
    bots = ["loyal", "survivor", "loyal", "predator", "hoarder"]
    lobby, table_id = lifeboat_with_bots(bots)
    table = lobby.get(table_id)
    assert table is not None
    app = ShipwreckApp(lobby, "ann", open_table=table_id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, TableScreen)
        await pilot.pause()
        line = rows(app)[1]
        assert len(line.rstrip()) <= size[0] - 1, line
        assert not re.search(r": bot(?! [a-z])", line), line  # never 'bot' alone
        for i, bot in enumerate(bots, 1):
            seat = table.seat_name(i)
            if size == (80, 24):
                assert f"{CHAR[seat].letter}={bot}" in line, (seat, line)
            else:
                assert f"{seat}: bot {bot}" in line, (seat, line)


async def test_the_seats_line_keeps_each_bots_seat_when_the_row_has_room() -> None:
    lobby, table_id = lifeboat_with_bots(["loyal"] * 3)  # (four seats: room for each)
    app = ShipwreckApp(lobby, "ann", open_table=table_id)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, TableScreen)
        await pilot.pause()
        line = rows(app)[1]
    assert line.count(": bot loyal") == 3 and "bots:" not in line, line


@pytest.mark.parametrize("size", SIZES)
async def test_the_chat_pane_says_how_to_read_back_and_ctrl_up_pages_it(
    size: tuple[int, int],
) -> None:
    """Third play-test: at 80×24 the chat pane has three rows and nothing said there was more.
    Once it has more lines than rows its border says 'Ctrl+↑: earlier'; Ctrl+↑ pages it back
    (the command line keeps the focus) and the border then counts the newer lines."""
    lobby, table_id = lifeboat_with_bots(["loyal"] * 5)
    app = ShipwreckApp(lobby, "ann", open_table=table_id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, TableScreen)
        await type_line(pilot, "say ahoy")  # (80×24, bots only: the chat shows once said in)
        chat = app.screen.query_one("#chat", EventLog)
        for k in range(chat.size.height + 2):
            await type_line(pilot, f"say line{k}")
        await pilot.pause()
        assert chat.border_subtitle == f"{CHAT_KEYS.split('/')[0]}: earlier"
        assert any("Ctrl+↑: earlier" in r for r in rows(app))
        await pilot.press("ctrl+up")
        await pilot.pause()
        assert chat.scroll_offset.y < chat.max_scroll_y
        assert (chat.border_subtitle or "").startswith("↓ ") and "(Ctrl+↓, End)" in (
            chat.border_subtitle or ""
        )
        assert app.focused is not None and app.focused.id == "command"
        await pilot.press("ctrl+down")
        await pilot.pause()
        assert chat.scroll_offset.y == chat.max_scroll_y


def test_a_docked_ships_code_goes_next_to_her_hull_not_her_box(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Third play-test: at 80×24 a docked ship's code sat far from her (beside the empty corner
    of her slanted hull's box). Codes go to the free place nearest her own hull's dots: at the
    start (every ship docked at home), seeds 1-20 with 2-4 fleets on the 80×24 map (35×15), 482
    of 640 codes touch their hull (419 before)."""
    placed: list[tuple[str, set[int]]] = []
    real = R._label_ship

    def spy(cv: Any, code: str, *args: Any, **kw: Any) -> bool:
        before = set(cv.text)
        done = real(cv, code, *args, **kw)
        placed.append((code, set(cv.text) - before))
        return done

    near = total = 0
    monkeypatch.setattr(R, "_label_ship", spy)
    for seed in range(1, 21):
        for seats in (2, 3, 4):
            state, _ = SEA.new_game(seed, seats)
            view = sea_view(state, 0)
            codes = ship_codes(view)
            ships = {codes[s.id]: s for s in view.ships}
            placed.clear()
            R.sea_map(view, 35, 15)
            cv = R._Canvas(35, 14, view.width, view.height)  # (the map's, less its legend)
            for code, cells in placed:
                dots = R._hull_cells(cv, ships[code])
                total += 1
                near += any(
                    max(abs(c % 35 - col), abs(c // 35 - row)) <= 1
                    for c in cells
                    for col, row in dots
                )
    assert total == 640
    assert near >= 480, f"{near} of {total} codes touch their ship"

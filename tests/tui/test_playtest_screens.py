"""Fixes from a stranger's play-test (issue 16): the Lifeboat prompt's choices, the tutorial's
log at 80×24, typing over the end screen, and the end screen's words."""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec
import pytest
from textual.pilot import Pilot
from tui_helpers import drawn, lobby_with_table, plain, play_my_seat_to_end, type_line

from shipwreck.games.lifeboat import RULES, explain
from shipwreck.games.lifeboat.cards import CHAR
from shipwreck.games.lifeboat.rules import _Log, start_round
from shipwreck.games.lifeboat.view import LifeboatView
from shipwreck.lang import format_command
from shipwreck.runtime import Lobby, Table
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.lifeboat.render import final, me_panel
from shipwreck.tui.lifeboat.screen import EndScreen, TableScreen
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.tutorial import LifeboatTutorialScreen
from shipwreck.tui.widgets import CommandLine, EventLog


async def to_a_long_turn(pilot: Pilot[Any], table: Table, seat: int, width: int) -> list[str]:
    """Play until it is ``seat``'s turn with more choices than two rows of ``width`` hold;
    those choices, as typed."""
    pick = random.Random(7)
    for _ in range(400):
        view = table.view(seat)
        choices = [format_command(c) for c in view.choices]
        if view.step == "turn" and view.actor == view.me and len(" · ".join(choices)) > 2 * width:
            return choices
        await type_line(pilot, pick.choice(choices))
    raise AssertionError("no long turn came")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_choices_wrap_by_whole_items_and_count_what_does_not_fit(
    size: tuple[int, int],
) -> None:
    """Each choice is shown whole or not at all, on the prompt's rows below what to decide;
    what does not fit is counted ("+N more: Tab"), never cut mid-word."""
    lobby, table = lobby_with_table(seed=21)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        seat = app.screen.seat
        assert isinstance(app.screen, TableScreen) and seat is not None
        choices = await to_a_long_turn(pilot, table, seat, size[0])
        await pilot.pause()
        rows = drawn(app, "foot", "prompt")
        assert rows[0].startswith("your turn:"), rows
        assert rows[1].startswith("choices: "), rows
        items = " · ".join(r for r in rows[1:] if r).removeprefix("choices: ").split(" · ")
        more = items.pop() if items[-1].startswith("+") else ""
        for item in items:
            assert item in choices, f"{item!r} is cut: {rows}"
        assert items == choices[: len(items)], rows
        if len(items) < len(choices):
            assert more == f"+{len(choices) - len(items)} more: Tab", rows
        assert all(r for r in rows[1:]), f"a choices row is left blank: {rows}"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_typing_over_the_end_screen_closes_it_and_goes_on_the_command_line(
    size: tuple[int, int],
) -> None:
    """The coach says ``type: lobby`` when the game ends: typed over the end screen, the word
    closes it and reaches the command line whole, and Enter runs it."""
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await play_my_seat_to_end(pilot, app, table)
        assert isinstance(app.screen, EndScreen)
        await type_line(pilot, "lobby")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen), app.screen_stack


async def test_enter_and_escape_still_close_the_end_screen_and_type_nothing() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        seat = getattr(app.screen, "seat", None)
        await play_my_seat_to_end(pilot, app, table)
        table_screen = app.screen_stack[-2]
        for key in ("enter", "escape"):
            if not isinstance(app.screen, EndScreen):
                app.push_screen(EndScreen(table.view(seat)))
                await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is table_screen
            assert table_screen.query_one("#command", CommandLine).value == ""


# ------------------------------------------------------------------ the end screen's words


def over(view: LifeboatView, me: str | None) -> LifeboatView:
    """``view`` at the end of a game, as ``me`` (a character id, or a spectator) sees it:
    ``me`` wins; every character scored."""
    chars = [c.id for c in view.characters]
    return msgspec.structs.replace(
        view,
        me=me,
        phase="over",
        scores={c: 20 - i for i, c in enumerate(chars)},
        score_parts={c: {"treasure": 10, "survival": 10 - i} for i, c in enumerate(chars)},
        winners=(me or chars[0],),
    )


@pytest.mark.parametrize("width", [68, 76, 116])
@pytest.mark.parametrize("me", ["lauren", "stephen", "mate"])
def test_the_end_screen_names_me_whole_and_apart_from_the_state(me: str, width: int) -> None:
    """``Lady Lauren ★ (you) alive``, never ``(y…alive`` nor ``(you)dead``; rows fit."""
    _, table = lobby_with_table()
    view = over(table.view(0), me)
    text = plain(final(view, width), width)
    mine = [line for line in text.splitlines() if line.startswith("▸")]
    assert len(mine) == 1, text
    assert re.search(rf"{explain.name(me)} ★ \(you\) +(alive|out|dead) ", mine[0]), mine[0]
    for line in text.splitlines():
        if re.match(r"^(▸ |  )\s*\d+(st|nd|rd|th) ", line):
            assert re.search(r"\S +(alive|out|dead) +\d+ ", line), f"no space: {line!r}"
            assert len(line.rstrip()) <= width


def test_a_spectators_end_screen_has_no_you_in_its_key() -> None:
    """The key of the bars says "alive" to a spectator (no "you" watches)."""
    _, table = lobby_with_table()
    watched = plain(final(over(table.view(None), None), 76))
    assert "▓ alive" in watched and "you alive" not in watched, watched
    played = plain(final(over(table.view(0), table.view(0).me), 76))
    assert "▓ you alive" in played


def test_one_supply_card_is_passed_in_the_singular() -> None:
    """LB-11: with one card left to pass, the log says "1 supply card is passed"."""
    state, _ = RULES.new_game(3, 6)
    state.supply_deck = state.supply_deck[:1]
    log = _Log(state)
    start_round(state, log)
    assert any("1 supply card is passed" in e.text for e in log.events), log.events
    state.supply_deck = ["water", "cash"]
    log = _Log(state)
    start_round(state, log)
    assert any("2 supply cards are passed" in e.text for e in log.events), log.events


def test_the_you_panel_keeps_the_first_mates_strength_and_survival_at_80x24() -> None:
    """Compact, 27 columns: ``─ First Mate◂ str 8 surv 3`` whole (the panel's title rule,
    session 30), for every character."""
    _, table = lobby_with_table()
    view = table.view(0)
    for c in view.characters:
        as_c = msgspec.structs.replace(view, me=c.id)
        first = plain(me_panel(as_c, compact=True), 27).splitlines()[0]
        card = CHAR[c.id]
        assert f"─ {explain.name(c.id)}◂ str {card.strength} surv {card.bonus}" in first, first


# ------------------------------------------------------------------ the tutorial at 80×24


async def test_the_lifeboat_tutorial_at_80x24_keeps_rows_of_log() -> None:
    """The coach's panel once took the log's last rows at 80×24 (a box with no line in it):
    the log keeps two rows at least, with every panel still on screen, the coach's three rows
    and what to decide with a row of choices."""
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new tutorial")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LifeboatTutorialScreen) and screen.compact
        log = screen.query_one("#log", EventLog)
        assert log.size.height >= 2, f"the log shows {log.size.height} rows"
        assert screen.max_scroll_y == 0
        for wid in ("title", "boat", "me", "nav", "log", "coach", "prompt", "error", "command"):
            region = screen.panel_region(wid)
            assert region and region.bottom <= 24, f"{wid} is not all on screen"
        coach = drawn(app, "foot", "coach")
        assert len(coach) == 3 and coach[0].startswith("coach  type: "), coach
        prompt = drawn(app, "foot", "prompt")
        assert prompt[1].startswith("choices: "), prompt
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert screen.panel_region("seats"), "the seats line is back at 120×40"
        assert len(drawn(app, "foot", "prompt")) == 3

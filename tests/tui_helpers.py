"""Pilot helpers the TUI tests share: type a line, read the screen, a Lifeboat table with a
human in it, play a seat to the end, the tutorial's coach. Plain functions, not tests."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from rich.console import Console
from textual._context import active_app
from textual.pilot import Pilot

from shipwreck.lang import format_command
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.runtime.tutorial import TutorialTable
from shipwreck.store import Entrant, Store
from shipwreck.store.ratings import RatingRow
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import AppScreen, SeatScreen
from shipwreck.tui.board import Board


async def type_line(pilot: Pilot[Any], line: str, enter: bool = True) -> None:
    await pilot.press(*line, *(["enter"] if enter else []))
    await pilot.pause()


def error(app: ShipwreckApp) -> str:
    screen = app.screen
    assert isinstance(screen, AppScreen)
    return screen.panel_text("error")


def screen_text(app: ShipwreckApp) -> str:
    """What the terminal shows now, row by row."""
    return "\n".join(
        "".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()
    )


SIZE = (120, 40)


BOTS = ["survivor", "loyal", "predator", "hoarder", "random"]


def lobby_with_table(humans: tuple[str, ...] = ("ann",), seed: int = 11) -> tuple[Lobby, Table]:
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human")] + [SeatSpec("empty") for _ in humans[1:]]
    seats += [SeatSpec("bot", b) for b in BOTS[: 6 - len(seats)]]
    table = lobby.create_table("lifeboat", seats, creator=humans[0], seed=seed)
    for h in humans[1:]:
        assert table.sit(table.free_seats()[0], h) is None
    return lobby, table


async def play_to_end(pilot: Pilot[Any], table: Table, seat: int, seed: int = 3) -> None:
    """Type random legal answers for ``seat`` until the game ends."""
    pick = random.Random(seed)
    for _ in range(400):
        if table.over:
            return
        view = table.view(seat)
        assert view.choices, f"{seat} has nothing to do in {view.step}: the table stalled"
        await type_line(pilot, format_command(pick.choice(list(view.choices))))
    raise AssertionError("the game did not end")


async def play_my_seat_to_end(pilot: Pilot[Any], app: ShipwreckApp, table: Table) -> None:
    """Play the seat ``app`` shows until the game ends, and let the end screen come up."""
    seat = getattr(app.screen, "seat", None)
    assert seat is not None
    await play_to_end(pilot, table, seat)
    await pilot.pause()


async def open_a_fight(pilot: Pilot[Any], table: Table, seat: int) -> None:
    """Play until it is ``seat``'s turn, then ask the strongest other character for its seat;
    the bots there resist what they can win, so keep trying until a fight is open."""
    pick = random.Random(5)
    for _ in range(400):
        view = table.view(seat)
        if view.fight is not None and any(p.seat == seat for p in view.prompts):
            return
        if view.step == "turn" and view.actor == view.me:
            others = [c for c in view.characters if c.id != view.me and c.state == "ok"]
            target = max(others, key=lambda c: c.strength)
            await type_line(pilot, f"swap {target.id}")
            continue
        await type_line(pilot, format_command(pick.choice(list(view.choices))))
    raise AssertionError("no fight opened")


def plain(renderable: object, width: int = 76) -> str:
    console = Console(width=width, color_system=None)
    with console.capture() as cap:
        console.print(renderable)
    return cap.get()


def drawn(app: ShipwreckApp, board_id: str, wid: str) -> list[str]:
    """The rows panel ``wid`` shows on its board now, as drawn."""
    board = app.screen.query_one(f"#{board_id}", Board)
    region = board.spot(wid)
    assert region is not None, f"{wid} is not shown"
    return [strip.text.strip() for strip in board.render_lines(region)]


def shown_rows(app: ShipwreckApp) -> list[str]:
    """The rows of the lobby's tables panel as the screen's board draws them now."""
    token = active_app.set(app)  # (several apps share this test's context)
    try:
        board = app.screen.query_one("#board", Board)
        region = board.spot("tables")
        assert region is not None
        return [strip.text for strip in board.render_lines(region)]
    finally:
        active_app.reset(token)


def rows(app: ShipwreckApp) -> list[str]:
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


def seat_screen(app: ShipwreckApp) -> SeatScreen:
    assert isinstance(app.screen, SeatScreen), app.screen
    return app.screen


WANTED = re.compile(r"type: (.+?)(?:  |$)")


def asked(screen: Any) -> str | None:
    """The command the coach's panel asks for, as the screen shows it."""
    found = WANTED.search(screen.panel_text("coach"))
    return found.group(1) if found else None


async def open_tutorial(pilot: Pilot[Any], word: str) -> TutorialTable:
    await type_line(pilot, f"new {word}".strip())
    table = pilot.app.screen.table  # type: ignore[attr-defined]
    assert isinstance(table, TutorialTable)
    return table


async def follow_the_coach(pilot: Pilot[Any], table: TutorialTable) -> list[str]:
    """Type what the coach asks until the game is over; the commands typed."""
    screen: Any = pilot.app.screen  # (the end screen comes on top of it at the end)
    typed: list[str] = []
    while not table.over:
        assert len(typed) < 40, f"the tutorial did not end: {typed}"
        command = asked(screen)
        assert command, f"the coach asks for nothing: {screen.panel_text('coach')!r}"
        before = len(table.commands)
        await type_line(pilot, command)
        assert len(table.commands) > before, f"{command!r} was refused"
        assert screen.panel_text("error") == ""
        typed.append(command)
    return typed


def two_humans(lobby: Lobby) -> Table:
    seats = [SeatSpec("human"), SeatSpec("empty")] + [SeatSpec("bot", "loyal")] * 4
    table = lobby.create_table("lifeboat", seats, creator="alice", seed=5)
    assert table.sit(1, "bob") is None
    return table


def texts(table: Table, viewer: str | None) -> set[str]:
    return {c.text for c in table.chat_for(viewer)}


def lobby_with_tables() -> Any:
    lobby, _ = lobby_with_table()
    lobby_with_table(seed=12)
    lobby.say("bob", "anyone for a game?")
    return lobby


RATED = [
    (Entrant("bot", "hoarder"), 31.0, 2.5, 40),
    (Entrant("player", "bob"), 27.5, 4.0, 12),
    (Entrant("bot", "loyal"), 24.0, 2.0, 40),
    (Entrant("bot", "carol/rower_the_long_named_bot"), 26.0, 5.5, 9),
    (Entrant("player", "dave"), 22.0, 6.0, 3),
    (Entrant("bot", "random"), 15.0, 2.2, 40),
]


def rated_lobby(tmp_path: Path) -> Lobby:
    """A lobby on a real store where six players and bots have Lifeboat ratings, and ann has
    played two rated games (so her last change is known)."""
    store = Store(str(tmp_path / "ladder.db"))
    rows = [RatingRow("lifeboat", e, mu, sigma, games) for e, mu, sigma, games in RATED]
    store.ratings.record("lifeboat", rows, "test")
    ann = Entrant("player", "ann")
    store.ratings.record("lifeboat", [RatingRow("lifeboat", ann, 24.0, 7.0, 1)], "table 1")
    store.ratings.record("lifeboat", [RatingRow("lifeboat", ann, 25.5, 6.0, 2)], "table 2")
    lobby = Lobby(seed=1)
    lobby.attach_store(store)
    return lobby

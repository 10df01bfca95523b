"""Every screen at 80x24 (and 120x40 where the layout changed): the lobby, a Lifeboat table,
a Spanish Main table, its goal and fleet screen, both help screens (issue 16, section 4)."""

from __future__ import annotations

import random
from typing import Any

from sea_helpers import both_explored, bow_on_her_island, two_humans
from textual.pilot import Pilot
from tui_helpers import lobby_with_table, lobby_with_tables

from shipwreck.games.lifeboat.cards import CHAR
from shipwreck.lang import format_command
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.lifeboat.screen import TableScreen

SMALL, LARGE = (80, 24), (120, 40)


def rows(app: ShipwreckApp) -> list[str]:
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


# ------------------------------------------------------------------ the lobby


def test_snapshot_lobby_at_80x24(snap_compare: Any) -> None:
    assert snap_compare(ShipwreckApp(lobby_with_tables(), "bob", "SHA256:b"), terminal_size=SMALL)


async def test_the_lobby_shows_every_command_at_80x24() -> None:
    """Play-test problem 5: 'join ID', 'watch ID', 'say' and 'quit' were cut off."""
    app = ShipwreckApp(lobby_with_tables(), "bob", "SHA256:b")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        text = "\n".join(rows(app))
        for word in ("new [4-6]", "new sm", "join ID", "watch ID", "open ID", "say TEXT", "help"):
            assert word in text, f"{word!r} is not on screen"
        assert "quit" in text and "end this session" in text
        assert "Lifeboat" in text  # and the tables are still listed


# ------------------------------------------------------------------ Lifeboat


def test_snapshot_lifeboat_at_80x24(snap_compare: Any) -> None:
    """Six seats: who plays each seat on one row, the choices on two."""
    lobby, table = lobby_with_table()
    assert snap_compare(
        ShipwreckApp(lobby, "ann", "SHA256:a", open_table=table.id), terminal_size=SMALL
    )


async def test_lifeboat_at_80x24_shows_who_sits_where_and_every_choice() -> None:
    """Play-test problem 5: no line said who plays which seat, and the choices line was cut
    after 'swap captain | rob'. Played until ann has more choices than one row holds."""
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", "SHA256:a", open_table=table.id)
    pick = random.Random(4)
    async with app.run_test(size=SMALL) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.seat is not None
        seat = screen.seat
        seats = screen.panel_text("seats")
        assert f"{table.seat_name(seat)}: ann" in seats
        for i, s in enumerate(table.seats):  # each bot by its name (reserved for bots), whole,
            if s.kind == "bot" and s.bot:  # by its character's letter (session 29's play-test)
                assert f"{CHAR[table.seat_name(i)].letter}={s.bot}" in seats, seats
        long = False
        for _ in range(200):
            view = table.view(seat)
            texts = [format_command(c) for c in view.choices]
            if len(" | ".join(texts)) > 80:
                long = True
                break
            await _type(pilot, format_command(pick.choice(list(view.choices))))
        assert long, "ann never had a long list of choices"
        await pilot.pause()
        shown = " ".join(r.strip() for r in rows(app))
        for text in texts[:8]:
            assert text in shown, f"{text!r} is cut from the choices"


async def _type(pilot: Pilot[Any], line: str) -> None:
    await pilot.press(*line, "enter")
    await pilot.pause()


def test_snapshot_lifeboat_help_at_80x24(snap_compare: Any) -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", "SHA256:a", open_table=table.id)
    assert snap_compare(app, terminal_size=SMALL, press=["f1"])


# ------------------------------------------------------------------ Spanish Main


def test_snapshot_sea_at_80x24_with_coins_known(snap_compare: Any) -> None:
    lobby, table = two_humans()
    both_explored(table)
    assert snap_compare(
        ShipwreckApp(lobby, "ann", "SHA256:a", open_table=table.id), terminal_size=SMALL
    )


def test_snapshot_sea_fleet_screen_at_80x24(snap_compare: Any) -> None:
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", "SHA256:a", open_table=table.id)
    assert snap_compare(app, terminal_size=SMALL, press=["f3"])


def test_snapshot_sea_fleet_screen_at_120x40(snap_compare: Any) -> None:
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", "SHA256:a", open_table=table.id)
    assert snap_compare(app, terminal_size=LARGE, press=["f3"])


def test_snapshot_sea_help_at_80x24(snap_compare: Any) -> None:
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", "SHA256:a", open_table=table.id)
    assert snap_compare(app, terminal_size=SMALL, press=["f1"])


def test_snapshot_sea_blocked_move_refused_at_80x24(snap_compare: Any) -> None:
    """SM-13: a move her bow cannot begin (docked, bow on her island) is refused, naming what
    is in the way and the line to type instead; nothing is sent."""
    lobby, table = two_humans()
    ship = bow_on_her_island(table)
    commands = list(table.commands)
    app = ShipwreckApp(lobby, "ann", "SHA256:a", open_table=table.id)
    assert snap_compare(app, terminal_size=SMALL, press=[*f"move {ship} S", "enter"])
    assert table.commands == commands

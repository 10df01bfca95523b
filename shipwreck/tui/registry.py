"""Each game's screens, one record per game: the table screen a seat (or a spectator) sees, its
tutorial screen, and how the lobby's ``new`` lays out its seats.

A game's screen module registers its record once, as it loads (``tui/lifeboat/screen.py`` for
Lifeboat, ``tui/spanish_main/screen.py``, ``tui/tutorial.py`` for the tutorials); the built-in
ones are imported on first use, so the app opens a table's screen without naming a game (and without
importing the screens that import it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from shipwreck.games import registry as games

if TYPE_CHECKING:
    from textual.screen import Screen

    from shipwreck.lang.words import New
    from shipwreck.runtime import SeatSpec
    from shipwreck.runtime.seat_link import SeatLink
    from shipwreck.tui.base import AnySeatScreen

_load = games.BuiltIns(
    "shipwreck.tui.lifeboat.screen", "shipwreck.tui.spanish_main.screen", "shipwreck.tui.tutorial"
)
"""The modules imported on first use: each registers its game's screens as it loads."""

SeatsFor = Callable[["New"], "list[SeatSpec] | str"]
"""A lobby ``new`` -> the table's seats (the creator's first), or why not (one line)."""

SeatsScreen = Callable[["New", "list[SeatSpec]"], "Screen[list[SeatSpec] | None] | None"]
"""A lobby ``new`` and its seats -> a screen where the creator completes them before the
table is made (Spanish Main's fleet building), dismissed with the seats or None; None: no
screen, the table is made at once."""


class TuiGame(msgspec.Struct):
    """One game's screens."""

    name: str
    """The game's id (as in :mod:`shipwreck.games.registry`)."""
    screen: Callable[[SeatLink, int | None], AnySeatScreen]
    """Its table screen (a ``base.SeatScreen``): ``screen(table, seat)``; seat None watches."""
    lobby_seats: SeatsFor
    tutorial_screen: Callable[[SeatLink, int | None], AnySeatScreen] | None = None
    """Its tutorial's table screen (the table screen with the coach), if it has a tutorial."""
    seats_screen: SeatsScreen | None = None
    """What the creator completes before a ``new`` table is made, if the game asks anything."""


_GAMES: dict[str, TuiGame] = {}


def register(game: TuiGame) -> TuiGame:
    """Add a game's screens (its game must be in the games registry)."""
    games.get(game.name)
    _GAMES[game.name] = game
    return game


def set_tutorial_screen(name: str, screen: Callable[[SeatLink, int | None], AnySeatScreen]) -> None:
    """Give the game called ``name`` its tutorial screen (the coach's module does)."""
    _GAMES[name].tutorial_screen = screen


def unregister(name: str) -> None:
    """Take a game's screens out again (a test's toy game)."""
    _GAMES.pop(name, None)


def find(name: str) -> TuiGame | None:
    """The screens of the game called ``name``, or None."""
    _load()
    return _GAMES.get(name)


def get(name: str) -> TuiGame:
    """The screens of the game called ``name``; KeyError (one line) if none."""
    found = find(name)
    if found is None:
        known = ", ".join(games.in_game_order(_GAMES, lambda game: game))
        raise games.UnknownGame(f"no screens for {name!r}; known games: {known}")
    return found


def table_screen(table: SeatLink, seat: int | None, tutorial: bool = False) -> AnySeatScreen:
    """The screen of ``table`` for ``seat``: its game's (with the coach, for a tutorial)."""
    game = get(table.game)
    if tutorial and game.tutorial_screen is not None:
        return game.tutorial_screen(table, seat)
    return game.screen(table, seat)

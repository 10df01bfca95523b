"""Tally, a toy third game defined entirely in the tests (issue 17): :func:`register` adds it
to every layer's registry the way a game package does, :func:`unregister` takes it out."""

from __future__ import annotations

from shipwreck.games import registry as games
from shipwreck.lang import registry as langs
from shipwreck.tui import registry as screens
from toygame import lang, screen
from toygame.rules import NAME, RULES

GAME = games.Game(
    name=NAME,
    title="Tally",
    ruleset=lambda: RULES,
    min_seats=2,
    max_seats=2,
    default_seats=2,
    aliases=("tl",),
    seat_names=("north", "south"),
)


def register() -> None:
    games.register(GAME)
    langs.register(lang.LANG)
    screens.register(screens.TuiGame(NAME, screen.TallyScreen, screen.lobby_seats))


def unregister() -> None:
    screens.unregister(NAME)
    langs.unregister(NAME)
    games.unregister(NAME)

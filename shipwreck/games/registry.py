"""The games Shipwreck plays, one record each: the one place a game is named.

Each game package registers itself once, in its ``__init__`` (:func:`register`); callers look a
game up by its name or any alias a player types (:func:`get`) and never import a game package
by name. The built-in games are imported on first use; another game (a test's toy game) is
registered by whoever defines it. ``lang/registry.py`` and ``tui/registry.py`` hold each game's
parts in the layers above.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterable
from typing import Any, TypeAlias, TypeVar

import msgspec

from shipwreck.engine.core import Ruleset

AnyRuleset: TypeAlias = Ruleset[Any, Any]
"""A ruleset handed out by name: which game's state and commands it takes is known only to that
game's own modules (and its screen, formatter and bot environment above), so the registry
erases the two parameters here, in one place."""


class BuiltIns:
    """A registry's built-in modules, imported once, on first use, each registering its game.

    Why lazily: a registry must not import the games it lists (they import it). Why a lock: a
    session's thread (a player's saved bots compiled off the event loop) may come first; the
    others wait until every module has registered."""

    def __init__(self, *modules: str) -> None:
        self.modules = modules
        self.loaded = False
        self._lock = threading.RLock()

    def __call__(self) -> None:
        if self.loaded:
            return
        with self._lock:
            if not self.loaded:
                for module in self.modules:
                    importlib.import_module(module)
                self.loaded = True


_load = BuiltIns("shipwreck.games.lifeboat", "shipwreck.games.spanish_main")
"""The packages imported on first use: each registers its game as it loads."""


class Game(msgspec.Struct, frozen=True):
    """What the layers above need to know of a game, without importing its rules."""

    name: str
    """The game's id: table records, logs, scenario files and bot headers use it."""
    title: str
    """The name players read (``Spanish Main``)."""
    ruleset: Callable[[], AnyRuleset]
    """The engine's ``Ruleset`` object of the game (the loader keeps its import lazy)."""
    min_seats: int
    max_seats: int
    default_seats: int
    """Seats when none are asked for (``sim``, ``new`` with no count)."""
    aliases: tuple[str, ...] = ()
    """Other names a player may type for it (Spanish Main: ``sm``, ``spanish``)."""
    short: str = ""
    """The word players are told to type for it (``sm``), when that is not its name."""
    rules_file: str = ""
    """Its rules document in ``docs/rules/`` (a file name)."""
    default_bots: tuple[str, ...] = ()
    """The bots that fill a table's other seats when none are named."""
    seat_names: tuple[str, ...] = ()
    """The names its seats go by (Lifeboat's characters, Spanish Main's colours)."""
    summary_lines: Callable[[dict[str, Any]], list[str]] | None = None
    """A scenario's final state (the ruleset's ``summary``) as lines of text."""
    default: bool = False
    """The game a player gets when they name none (one game says so)."""
    timers: dict[str, int] = {}
    """Seconds a player has for each kind of decision (prompt kind) at a timed table; 0 = it
    waits. Every blocking kind the game can ask belongs here: a kind with no timer can hold a
    table of several players for as long as one of them is away (``server.toml [timers]``
    overrides any of them; a kind no game names gets ``other``)."""

    @property
    def word(self) -> str:
        """What a message tells a player to type for it."""
        return self.short or self.name

    @property
    def names(self) -> tuple[str, ...]:
        """Every name it answers to: its id first, then its aliases."""
        return (self.name, *self.aliases)


class UnknownGame(KeyError):
    """A name that is no game's; its message is one line that lists the known games."""

    def __str__(self) -> str:
        return str(self.args[0])


_GAMES: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}


def register(game: Game) -> Game:
    """Add ``game`` (once per name; registering the same record again is a no-op). ValueError if
    one of its names is already another game's."""
    for name in game.names:
        owner = _ALIASES.get(name)
        if owner is not None and owner != game.name:
            raise ValueError(f"the name {name!r} is already the game {owner!r}")
    _GAMES[game.name] = game
    for name in game.names:
        _ALIASES[name] = game.name
    return game


def unregister(name: str) -> None:
    """Take a game out again (a test's toy game, when the test is done)."""
    game = _GAMES.pop(name, None)
    if game is not None:
        for alias in game.names:
            _ALIASES.pop(alias, None)


def all_games() -> tuple[Game, ...]:
    """Every registered game, in :func:`in_game_order`."""
    return in_game_order(_GAMES.values(), lambda game: game.name)


T = TypeVar("T")


def in_game_order(items: Iterable[T], name: Callable[[T], str]) -> tuple[T, ...]:
    """``items`` (one per game, ``name`` giving its game) in the one order players are shown
    the games: the built-in ones as `_load` lists them, then the others as ``items`` has them.
    (Not the order the games registered in: a module that imported one game's package first
    changed every list of games a player was shown.)"""
    _load()
    built_in = [module.rsplit(".", 1)[-1] for module in _load.modules]
    rank = {game: i for i, game in enumerate(built_in)}
    return tuple(sorted(items, key=lambda item: rank.get(name(item), len(rank))))


def find(name_or_alias: str) -> Game | None:
    """The game ``name_or_alias`` names, or None."""
    _load()
    name = _ALIASES.get(name_or_alias)
    return _GAMES[name] if name is not None else None


def get(name_or_alias: str) -> Game:
    """The game ``name_or_alias`` names; KeyError with one line listing the known games."""
    game = find(name_or_alias)
    if game is None:
        known = ", ".join(g.name for g in all_games())
        raise UnknownGame(f"unknown game {name_or_alias!r}; known games: {known}")
    return game


OTHER_TIMER = "other"
"""The ``[timers]`` key for a decision kind no game lists (a game added later)."""
OTHER_SECONDS = 60


def default_timers() -> dict[str, int]:
    """Every game's decision timers in one table (a kind two games share, such as ``turn``,
    takes the longer of their times), and ``other``: what ``server.toml [timers]`` starts from."""
    out: dict[str, int] = {}
    for game in all_games():
        for kind, seconds in game.timers.items():
            out[kind] = max(seconds, out.get(kind, seconds))
    out.setdefault(OTHER_TIMER, OTHER_SECONDS)
    return out


def default_game() -> Game:
    """The game played when none is named."""
    games = all_games()
    return next((g for g in games if g.default), games[0])

"""Each game's language, one record per game: its grammar, how a parse tree becomes a command
and a command becomes text, the names its messages use, its help, completion, bot environment
and the words that teach it.

A game's language module registers its record once, as it loads (``lang/lifeboat.py``,
``lang/spanish_main.py``); the built-in ones are imported on first use, so the rest of the
language (parsing, errors, help, completion, bots) looks a game up here and never names one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeAlias, TypeVar, get_args

import msgspec
from lark import Token, Transformer

from shipwreck.games import registry as games

if TYPE_CHECKING:
    from shipwreck.lang.help import CommandHelp

_load = games.BuiltIns(
    "shipwreck.lang.lifeboat", "shipwreck.lang.spanish_main", "shipwreck.lang.words"
)
"""The modules imported on first use: each registers its game's language (or the lobby's and
the table's words) as it loads."""


class Term(NamedTuple):
    """How a grammar terminal is named to a player: ``a character`` + the words listed after."""

    what: str
    show: bool = True
    """List the terminal's words after ``what`` ("a character (lauren, stephen, ...)")."""
    open: bool = False
    """Its pattern stands for names not known in advance (ids): matching it does not make a
    word known, and its words are listed only when a view gives them."""


HelpSections: TypeAlias = "tuple[tuple[str, dict[str, CommandHelp]], ...]"
"""A game's help table: (section title, command word -> ``help.CommandHelp``) pairs."""


V = TypeVar("V")
C = TypeVar("C")


class LangGame(msgspec.Struct, Generic[V, C], frozen=True):
    """One game's language: ``V`` is its seats' view, ``C`` its command union."""

    name: str
    """The game's id (as in :mod:`shipwreck.games.registry`)."""
    to_command: Callable[[], Transformer[Token, C]]
    """A new parse tree -> command struct transformer (Lark ``Transformer``)."""
    command_type: object
    """The game's command union: the commands :attr:`format` writes."""
    format: Callable[[C], str]
    """A command's canonical text."""
    names: Callable[[], tuple[str, ...]]
    """The names its grammar's name patterns stand for (characters, items, seats...)."""
    terms: Mapping[str, Term]
    """How its named terminals read in messages."""
    legal_texts: Callable[[V], Iterator[str]]
    """Every legal command text of a seat's view now, as typed (completion)."""
    view_type: type[V]
    """The class of its seats' views (a view says which game it is of)."""
    help: HelpSections = ()
    term_names: Callable[[], dict[str, tuple[str, ...]]] | None = None
    """The names each open terminal stands for when no view is at hand."""
    view_names: Callable[[V], dict[str, tuple[str, ...]]] | None = None
    """The ids in play a view shows, for a game whose commands name open ids."""
    aliases: Callable[[V], dict[str, dict[str, str]]] | None = None
    """Other words an id in play goes by, per open terminal, and the id (a Spanish Main ship's
    map code: ``{"SHIP": {"lw": "lord-walpole"}, ...}``): a line parsed with a view may name
    an id so, and the command read names the id."""
    more_words: Callable[[V, list[str]], set[str]] | None = None
    """Words completion offers beyond the legal texts (a move's legs and numbers)."""
    upper_words: frozenset[str] = frozenset()
    """Upper-case words a lower-case partial word completes to (``s`` -> ``S``)."""
    any_case: bool = False
    """Its commands read in any case (``REST`` is ``rest``): every word of it is lower case but
    its ``upper_words`` (``s`` is the leg ``S``)."""
    how_to_win: str = ""
    """The rules screen's first section (Markdown)."""
    legend: str | None = None
    """What every mark on its board means (Markdown), if it has a legend."""
    scenario_form: str = "'SEAT: COMMAND'"
    """How a scenario file writes a command line (who sends it, then the command)."""
    tutorial: str | None = None
    """Its tutorial's file in ``runtime/tutorials/`` (no ``.toml``), if it has one."""
    bot_env: ModuleType | None = None
    """What a bot script's guards can read (``VIEW``, ``DECISIONS``, ``ATTRS``, ...), if bots
    play it."""
    bot_words: Mapping[str, str] = {}
    """How its bot grammar's terminals read in a script's syntax errors."""
    bot_tokens: bool = False
    """Its command builder reads tokens (every word of a bot's command becomes a token)."""
    grammar_dir: Path | None = None
    """Where ``NAME.lark`` and ``NAME_bot.lark`` are (None: the shipped ``grammar/``)."""
    scenario_view: bool = False
    """A scenario's commands are parsed against the public view (ids in play)."""


class Words(NamedTuple):
    """The words of a place that is not a game (the lobby, a table): how its parse trees become
    structs, and the names its open terminals stand for."""

    transformer: Transformer[Token, object]
    names: Callable[[], tuple[str, ...]] | None = None


AnyLang: TypeAlias = LangGame[Any, Any]
"""A game's language looked up by name: which view and commands it takes is known to its own
module only (a caller holds a view or command of that game), so the registry erases them here."""

_GAMES: dict[str, AnyLang] = {}
_WORDS: dict[str, Words] = {}


def register_words(where: str, words: Words) -> None:
    """Add the words of ``where`` (``lang/words.py`` adds the lobby's and the table's)."""
    _WORDS[where] = words


def words(where: str) -> Words | None:
    """The words of ``where`` (``lobby``, ``table``), or None."""
    _load()
    return _WORDS.get(where)


_FORGET: list[Callable[[], None]] = []


def on_games_changed(forget: Callable[[], None]) -> None:
    """Call ``forget`` whenever a game's language is added or taken out. What is worked out
    from the list of games is forgotten then: the lobby's grammar names every game (``new``,
    ``rules``, ``ladder``), and its parser, vocabulary and first words are kept."""
    _FORGET.append(forget)


def _games_changed() -> None:
    for forget in _FORGET:
        forget()


def register(game: LangGame[V, C]) -> LangGame[V, C]:
    """Add a game's language (its game must be in the games registry)."""
    games.get(game.name)
    _GAMES[game.name] = game
    _games_changed()
    return game


def unregister(name: str) -> None:
    """Take a game's language out again (a test's toy game)."""
    if _GAMES.pop(name, None) is not None:
        _games_changed()


def find(name: str) -> AnyLang | None:
    """The language of the game called ``name`` (its id: what a player types is resolved to it
    by ``games.registry``), or None."""
    _load()
    return _GAMES.get(name)


def get(name: str) -> AnyLang:
    """The language of the game called ``name``; KeyError (one line) if none."""
    found = find(name)
    if found is None:
        known = ", ".join(g.name for g in all_langs())
        raise games.UnknownGame(f"no command language for {name!r}; known games: {known}")
    return found


def all_langs() -> tuple[AnyLang, ...]:
    """Every registered game's language, in the order of the games registry."""
    _load()
    return games.in_game_order(_GAMES.values(), lambda lang: lang.name)


def of_view(view: object) -> AnyLang | None:
    """The language of the game ``view`` is a view of."""
    return next((g for g in all_langs() if isinstance(view, g.view_type)), None)


def of_command(cmd: object) -> AnyLang | None:
    """The language whose commands include ``cmd``'s type."""
    cls = type(cmd)
    for g in all_langs():
        members = get_args(g.command_type) or (g.command_type,)
        if cls in members:
            return g
    return None

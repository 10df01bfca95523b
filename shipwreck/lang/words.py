"""The lobby's and the tables' own words: ``new``, ``join``, ``say``, ``tell``, ``rules``, ...

They are a language like a game's commands (``grammar/lobby.lark``, ``grammar/table.lark``),
read into the structs below, so that errors, "did you mean" and Tab completion treat them as
they treat a game's commands (:mod:`shipwreck.lang.errors`). The screens dispatch on the
structs (``tui/lobby/screen.py``, ``tui/base.py``); what a word means (which bots exist, which table
or seat) is theirs and the lobby's to check.

A line is read a word at a time (the errors module's :class:`Walker`), never by Lark's lexer
alone, so a word is never split in two: ``new 4x`` is not ``new 4 x``.

At a table a line is first one of the table's words, else the game's command. ``say`` is both
in Lifeboat: a seated player's ``say`` goes into the game's log, a spectator's into the table's
chat (:func:`is_table_word`).
"""

from __future__ import annotations

import difflib
from functools import cache
from typing import Literal, cast, overload

import msgspec
from lark import Token, Transformer
from lark.exceptions import UnexpectedInput

from shipwreck.games.registry import default_game, find
from shipwreck.lang import registry
from shipwreck.lang.bots.registry import shipped_names
from shipwreck.lang.commands import lower_ascii
from shipwreck.lang.errors import (
    Names,
    Walker,
    check_line,
    diagnose,
    split_words,
)
from shipwreck.lang.grammar import command_parser

Where = Literal["lobby", "table"]


def _default_game() -> str:
    return default_game().name


@cache
def game_names() -> dict[str, str]:
    """What players may call each game in the lobby (the words of the lobby's ``game`` rule:
    see ``grammar.game_rule``), and the game it is."""
    parser = command_parser("lobby")
    words = [
        parser.get_terminal(sym.name).pattern.value
        for rule in parser.rules
        if rule.origin.name == "game"
        for sym in rule.expansion
    ]
    return {w: game.name for w in words if (game := find(w)) is not None}


# --------------------------------------------------------------------------- the words


class New(msgspec.Struct, frozen=True):
    """``new [GAME] [SEATS] [BOT|free ...]``: a table, the player in its first seat."""

    game: str = msgspec.field(default_factory=_default_game)
    seats: int | None = None
    bots: tuple[str, ...] = ()
    fleets: tuple[str, ...] = ()
    """``new sm 3 fleet corsairs navy``: preset fleets, seat by seat from the creator's (the
    game's lobby seats check them: Spanish Main's crewed presets)."""


class Tutorial(msgspec.Struct, frozen=True):
    """``new tutorial [GAME]``: a scripted table that teaches the game."""

    game: str = msgspec.field(default_factory=_default_game)


class JoinTable(msgspec.Struct, frozen=True):
    """``join ID [SEAT]``: SEAT counted from 1, as the table shows them, or a seat's id
    (``join 9 frenchy``), which the table checks."""

    table: int
    seat: int | str | None = None


class Watch(msgspec.Struct, frozen=True):
    table: int


class Open(msgspec.Struct, frozen=True):
    """``open ID``: back to my seat at table ID."""

    table: int


class Say(msgspec.Struct, frozen=True):
    text: str


class Help(msgspec.Struct, frozen=True):
    pass


class Rules(msgspec.Struct, frozen=True):
    """``rules [GAME]``: ``None`` is the table's game (in the lobby: ask which)."""

    game: str | None = None


class Ladder(msgspec.Struct, frozen=True):
    """``ladder [GAME]``: the ratings of a game's players and bots (``None``: the default game)."""

    game: str | None = None


class Quit(msgspec.Struct, frozen=True):
    pass


class Legend(msgspec.Struct, frozen=True):
    pass


class ToLobby(msgspec.Struct, frozen=True):
    """``lobby``: back to the lobby, keeping the seat."""


class Leave(msgspec.Struct, frozen=True):
    """``leave``: give up the seat and go back to the lobby."""


class Tell(msgspec.Struct, frozen=True):
    """``tell NAME TEXT`` / ``whisper NAME TEXT``: NAME a player's name, a seat's id, or a
    spectator's name."""

    to: str
    text: str


class Chat(msgspec.Struct, frozen=True):
    """``chat TEXT``: to the whole table, outside the game's log."""

    text: str


class Start(msgspec.Struct, frozen=True):
    """``start`` / ``start with bots``: the creator starts a table waiting for players."""

    with_bots: bool = False


class Takeover(msgspec.Struct, frozen=True):
    """``takeover``: take my seat back from the autopilot."""


LobbyWord = New | Tutorial | JoinTable | Watch | Open | Say | Help | Rules | Ladder | Quit
TableWord = Help | Rules | Legend | ToLobby | Leave | Quit | Say | Tell | Chat | Start | Takeover


class _ToWord(Transformer[Token, object]):
    """Builds a word's struct from a tree of ``grammar/lobby.lark`` or ``grammar/table.lark``."""

    def game(self, a: list[Token]) -> str:
        return game_names()[str(a[0])]

    def new(self, a: list[str | tuple[str, ...] | None]) -> New:
        game, seats, *bots, fleets = a
        return New(
            str(game) if game else _default_game(),
            int(str(seats)) if seats is not None else None,
            tuple(str(b) for b in bots),
            fleets if isinstance(fleets, tuple) else (),
        )

    def fleets(self, a: list[str]) -> tuple[str, ...]:
        return tuple(a)

    def fleet_name(self, a: list[Token]) -> str:
        return str(a[0])

    def tutorial(self, a: list[str | Token | None]) -> Tutorial:
        return Tutorial(str(a[0]) if a[0] is not None else _default_game())

    def join(self, a: list[Token | None]) -> JoinTable:
        seat = a[1]
        if seat is None:
            return JoinTable(int(str(a[0])))
        return JoinTable(int(str(a[0])), int(str(seat)) if seat.type == "INT" else str(seat))

    def watch(self, a: list[Token]) -> Watch:
        return Watch(int(str(a[0])))

    def open(self, a: list[Token]) -> Open:
        return Open(int(str(a[0])))

    def say(self, a: list[Token]) -> Say:
        return Say(str(a[0]).strip())

    def help(self, _: list[Token]) -> Help:
        return Help()

    def rules(self, a: list[str | None]) -> Rules:
        return Rules(a[0])

    def ladder(self, a: list[str | None]) -> Ladder:
        return Ladder(a[0])

    def quit(self, _: list[Token]) -> Quit:
        return Quit()

    def legend(self, _: list[Token]) -> Legend:
        return Legend()

    def lobby(self, _: list[Token]) -> ToLobby:
        return ToLobby()

    def leave(self, _: list[Token]) -> Leave:
        return Leave()

    def tell(self, a: list[Token]) -> Tell:
        return Tell(str(a[0]), str(a[1]).strip())

    def chat(self, a: list[Token]) -> Chat:
        return Chat(str(a[0]).strip())

    def with_bots(self, _: list[Token]) -> bool:
        return True

    def start_table(self, a: list[bool | None]) -> Start:
        return Start(bool(a[0]))

    def takeover(self, _: list[Token]) -> Takeover:
        return Takeover()


TO_WORD = _ToWord()


def _lobby_names() -> tuple[str, ...]:
    """What the lobby's open terminals stand for: the shipped bots' names, and ``free``."""
    return (*shipped_names(), "free")


registry.register_words("lobby", registry.Words(TO_WORD, _lobby_names))
registry.register_words("table", registry.Words(TO_WORD))


class _Stopped(UnexpectedInput):
    """Where the word-by-word reading stopped, for :func:`diagnose` (as Lark's own error)."""

    def __init__(self, index: int) -> None:
        super().__init__(f"stopped at {index}")
        self.pos_in_stream = index  # type: ignore[assignment]  # (Lark: None until set)


# --------------------------------------------------------------------------- reading a line


@overload
def parse_words(where: Literal["lobby"], text: str, names: Names | None = None) -> LobbyWord: ...


@overload
def parse_words(where: Literal["table"], text: str, names: Names | None = None) -> TableWord: ...


def parse_words(where: Where, text: str, names: Names | None = None) -> LobbyWord | TableWord:
    """One line of the lobby's (``where="lobby"``) or a table's words, as its struct. Anything
    else raises :class:`CommandSyntaxError` with one line saying what is wrong and, when a close
    correction reads, the corrected line. ``names``: at a table, whom ``tell`` may name
    (``{"NAME": (...)}``), for "did you mean".

    Any case reads: a word is taken as typed (a player's name keeps its case), else in lower
    case (``Help``, ``NEW SM``, ``Start With Bots``); free text (``say TEXT``) keeps its case."""
    line, offset = check_line(text)
    walker = Walker(where, names)
    folded = line
    for start, word in split_words(line):
        if not walker.feed(word, line[start:]):
            low = lower_ascii(word)
            if low == word or not walker.feed(low, line[start:]):
                raise diagnose(where, folded, offset, _Stopped(start), names)
            folded = folded[:start] + low + folded[start + len(word) :]
        if walker.text:
            break
    if not walker.complete():
        raise diagnose(where, folded, offset, _Stopped(len(line)), names)
    tree = walker.finish()
    return cast("LobbyWord | TableWord", TO_WORD.transform(tree))  # (what its rules build)


def first_words(where: str) -> list[str]:
    """The words a line of ``where`` (``lobby``, ``table`` or a game) may start with, sorted;
    read from its grammar once."""
    return list(_first_words(where))


@cache
def _first_words(where: str) -> tuple[str, ...]:
    walker = Walker(where)
    return tuple(sorted(walker.vocab.candidates(walker.accepts())))


registry.on_games_changed(game_names.cache_clear)
registry.on_games_changed(_first_words.cache_clear)


def is_table_word(line: str, game_words: list[str]) -> bool:
    """Is ``line`` (at a table) meant as one of the table's words rather than the game's
    command? Its first word is a table word and not a command of the game (``say`` in
    Lifeboat is the game's own)."""
    words = split_words(line)
    if not words:
        return False
    word = words[0][1]
    return word in first_words("table") and word not in game_words


def unknown_first_word(word: str, choices: list[str], what: str = "command") -> str:
    """The error for a line starting with ``word``, which none of ``choices`` is: the closest
    ones, or the list."""
    shown = "".join(ch if ch.isprintable() else "?" for ch in word[:40])
    close = difflib.get_close_matches(word.lower(), choices, n=3, cutoff=0.6)
    if close:
        quoted = [f"'{c}'" for c in close]
        either = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
        return f"unknown {what} {shown!r}; did you mean {either}?"
    return f"unknown {what} {shown!r}; try: {', '.join(choices)}"


def complete_words(where: Where, text: str, names: Names | None = None) -> list[str]:
    """The words that may come next after ``text`` (or complete its last word), sorted. With
    ``names`` (at a table: the players and seats), ``tell`` completes whom."""
    from shipwreck.lang.errors import MAX_LINE

    if len(text) > MAX_LINE:
        return []
    words = [w for _, w in split_words(text)]
    partial = words.pop() if words and text[-1] not in " \t" else ""
    walker = Walker(where, names)
    for word in words:  # (any case reads, as parse_words reads it: ``NEW s`` completes)
        low = lower_ascii(word)
        if not (walker.feed(word) or (low != word and walker.feed(low))) or walker.text:
            return []
    accepted = walker.accepts()
    if accepted & walker.vocab.text:
        return []
    low = lower_ascii(partial)
    return sorted(
        w for w in walker.vocab.candidates(accepted) if w.startswith(partial) or w.startswith(low)
    )

"""Loading the ``.lark`` files from ``grammar/`` (LALR, contextual lexer), once per process."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from lark import Lark

from shipwreck.games import registry as games
from shipwreck.lang import registry
from shipwreck.resources import grammar_dir


def grammar_folders(game: str) -> list[Path]:
    """Where ``game``'s grammars are: its own folder, if its language names one (a game defined
    outside the package), then the shipped ``grammar/`` (``base.lark``)."""
    lang = registry.find(game)
    own = lang.grammar_dir if lang is not None else None
    return [own, grammar_dir()] if own is not None else [grammar_dir()]


def load_grammar(file: str, game: str, propagate_positions: bool, extra: str = "") -> Lark:
    """The LALR parser of the grammar ``file`` (in ``game``'s folders), with the rules
    ``extra`` added."""
    folders = grammar_folders(game)
    path = next((f / file for f in folders if (f / file).is_file()), None)
    if path is None:
        raise KeyError(f"no grammar for {game!r} in {folders[0]}")
    return Lark(
        path.read_text(encoding="utf-8") + extra,
        parser="lalr",
        lexer="contextual",
        import_paths=[str(f) for f in folders],
        maybe_placeholders=True,
        propagate_positions=propagate_positions,
    )


@cache
def command_parser(game: str) -> Lark:
    """The LALR parser for one game's commands (``grammar/<game>.lark``), or for the lobby's
    or the table's words (``lobby.lark``, ``table.lark``: both name the games, ``rules sm``)."""
    extra = game_rule() if game in ("lobby", "table") else ""
    return load_grammar(f"{game}.lark", game, propagate_positions=False, extra=extra)


registry.on_games_changed(command_parser.cache_clear)

GAME_WORD = re.compile(r"[a-z][a-z0-9_-]{0,31}")
"""A name or alias of a game that the lobby takes as a word."""


def game_rule() -> str:
    """The lobby's and the table's ``game`` rule: every name a game with a language goes by
    (its id and its aliases in the games registry). Made here, not written in ``lobby.lark``,
    so that a game registered from outside the package (a test's toy game) is started with
    ``new`` too."""
    words = [
        word
        for lang in registry.all_langs()
        for word in games.get(lang.name).names
        if GAME_WORD.fullmatch(word)
    ]
    return "\n!game: " + " | ".join(f'"{word}"' for word in dict.fromkeys(words)) + "\n"

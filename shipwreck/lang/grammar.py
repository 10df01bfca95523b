"""Loading the ``.lark`` files from ``grammar/`` (LALR, contextual lexer), once per process."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lark import Lark

from shipwreck.lang import registry
from shipwreck.resources import grammar_dir


def grammar_folders(game: str) -> list[Path]:
    """Where ``game``'s grammars are: its own folder, if its language names one (a game defined
    outside the package), then the shipped ``grammar/`` (``base.lark``)."""
    lang = registry.find(game)
    own = lang.grammar_dir if lang is not None else None
    return [own, grammar_dir()] if own is not None else [grammar_dir()]


def load_grammar(file: str, game: str, propagate_positions: bool) -> Lark:
    """The LALR parser of the grammar ``file`` (in ``game``'s folders)."""
    folders = grammar_folders(game)
    path = next((f / file for f in folders if (f / file).is_file()), None)
    if path is None:
        raise KeyError(f"no grammar for {game!r} in {folders[0]}")
    return Lark(
        path.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        import_paths=[str(f) for f in folders],
        maybe_placeholders=True,
        propagate_positions=propagate_positions,
    )


@cache
def command_parser(game: str) -> Lark:
    """The LALR parser for one game's commands (``grammar/<game>.lark``)."""
    return load_grammar(f"{game}.lark", game, propagate_positions=False)

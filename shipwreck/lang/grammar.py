"""Loading the ``.lark`` files from ``grammar/`` (LALR, contextual lexer), once per process."""

from __future__ import annotations

from functools import cache

from lark import Lark

from shipwreck.resources import grammar_dir


@cache
def command_parser(game: str) -> Lark:
    """The LALR parser for one game's commands (``grammar/<game>.lark``)."""
    folder = grammar_dir()
    path = folder / f"{game}.lark"
    if not path.is_file():
        raise KeyError(f"no grammar for {game!r} in {folder}")
    return Lark(
        path.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        import_paths=[str(folder)],
        maybe_placeholders=True,
        propagate_positions=False,
    )

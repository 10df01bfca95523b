"""Parsing and formatting commands of any game, by game name."""

from __future__ import annotations

from functools import cache
from typing import Any

from lark import Transformer
from lark.exceptions import UnexpectedInput, VisitError

from shipwreck.lang.errors import CommandSyntaxError, check_line, diagnose
from shipwreck.lang.grammar import command_parser

__all__ = ["CommandSyntaxError", "format_command", "parse_command"]


@cache
def _transformer(game: str) -> Transformer[Any, Any]:
    if game == "lifeboat":
        from shipwreck.lang.lifeboat import ToCommand

        return ToCommand()
    raise KeyError(f"unknown game {game!r}")


def parse_command(game: str, text: str) -> Any:
    """Parse one line of ``game``'s command language into its command struct.

    Anything that is not a command raises :class:`CommandSyntaxError`, and nothing else: one
    line with the column, what was expected there and, when a close correction parses, the
    corrected line (:mod:`shipwreck.lang.errors`).
    """
    line, offset = check_line(text)
    try:
        tree = command_parser(game).parse(line)
    except UnexpectedInput as e:
        raise diagnose(game, line, offset, e) from None
    try:
        return _transformer(game).transform(tree)
    except VisitError as e:  # pragma: no cover - the grammar only admits valid shapes
        why = " ".join(str(e.orig_exc).split())
        raise CommandSyntaxError(
            f"column {offset + 1}: cannot read this: {why}", offset + 1
        ) from None


def format_command(cmd: Any) -> str:
    """The canonical text of a command (any game)."""
    from shipwreck.games.lifeboat.commands import Command as LifeboatCommand
    from shipwreck.lang.lifeboat import format_lifeboat

    if isinstance(cmd, LifeboatCommand):
        return format_lifeboat(cmd)
    raise TypeError(f"no format for {cmd!r}")

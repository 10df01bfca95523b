"""Parsing and formatting commands of any game, by game name."""

from __future__ import annotations

from typing import Any

from lark import Transformer
from lark.exceptions import UnexpectedInput, VisitError

from shipwreck.lang.grammar import command_parser


class CommandSyntaxError(ValueError):
    """A line that is not a command. The message is one line, with the column."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message)
        self.column = column


def _transformer(game: str) -> Transformer[Any, Any]:
    if game == "lifeboat":
        from shipwreck.lang.lifeboat import ToCommand

        return ToCommand()
    raise KeyError(f"unknown game {game!r}")


def parse_command(game: str, text: str) -> Any:
    """Parse one line of ``game``'s command language into its command struct."""
    line = text.strip()
    if not line:
        raise CommandSyntaxError("empty command; type 'help' for the list of commands")
    try:
        tree = command_parser(game).parse(line)
    except UnexpectedInput as e:
        col = getattr(e, "column", 0) or 0
        raise CommandSyntaxError(
            f"column {col}: cannot read {line!r} here: {_short(e)}", col
        ) from None
    try:
        return _transformer(game).transform(tree)
    except VisitError as e:  # pragma: no cover - the grammar only admits valid shapes
        raise CommandSyntaxError(f"cannot read {line!r}: {e.orig_exc}") from None


def _short(e: UnexpectedInput) -> str:
    expected = sorted(getattr(e, "expected", None) or getattr(e, "allowed", None) or [])
    shown = ", ".join(x.strip("\"'").lower() for x in expected[:8])
    return f"expected {shown}" if shown else "unexpected end"


def format_command(cmd: Any) -> str:
    """The canonical text of a command (any game)."""
    from shipwreck.games.lifeboat.commands import Command as LifeboatCommand
    from shipwreck.lang.lifeboat import format_lifeboat

    if isinstance(cmd, LifeboatCommand):
        return format_lifeboat(cmd)
    raise TypeError(f"no format for {cmd!r}")

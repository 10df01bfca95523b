"""Tally's language: its grammar is ``tally.lark`` beside this file; ``take`` is its command."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lark import Token, Transformer

from shipwreck.lang import registry
from shipwreck.lang.help import CommandHelp
from toygame import bot_env
from toygame.rules import NAME, Take, TallyView


class ToCommand(Transformer[Token, Take]):
    def take(self, _: list[Token]) -> Take:
        return Take()


def format_tally(cmd: Any) -> str:
    if isinstance(cmd, Take):
        return "take"
    raise TypeError(f"not a Tally command: {cmd!r}")


def legal_texts(view: TallyView) -> Iterator[str]:
    yield from (format_tally(c) for c in view.choices)


LANG = registry.LangGame(
    name=NAME,
    to_command=ToCommand,
    command_type=Take,
    format=format_tally,
    names=tuple,
    terms={},
    legal_texts=legal_texts,
    view_type=TallyView,
    help=(("Tally", {"take": CommandHelp("take", "one more on your tally", "")}),),
    how_to_win="## How to win\n\n- Be the first to take three.\n",
    scenario_form="'SEAT: COMMAND', e.g. 'north: take'",
    bot_env=bot_env,
    grammar_dir=Path(__file__).parent,
)

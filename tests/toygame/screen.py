"""Tally's table screen: a title, the two tallies, the prompt, the log and the command line."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.geometry import Region, Size
from textual.screen import ModalScreen

from shipwreck.lang.words import New
from shipwreck.runtime import SeatSpec
from shipwreck.tui.base import ClosingModal, SeatScreen
from shipwreck.tui.board import Board, Spot
from shipwreck.tui.widgets import EventLog
from toygame.rules import TallyView


class TallyScreen(SeatScreen):
    PANELS = {"title": "board", "tallies": "board", "prompt": "foot", "error": "foot"}

    def compose(self) -> ComposeResult:
        yield Board(self.board_layout, id="board")
        yield EventLog(id="log", max_lines=100)
        yield from self.compose_foot()

    def board_layout(self, size: Size) -> list[Spot]:
        return [
            Spot("title", Region(0, 0, size.width, 1), pad=1),
            Spot("tallies", Region(0, 1, size.width, 1), pad=1),
        ]

    def complete(self, text: str) -> list[str]:
        return []

    def placeholder(self) -> str:
        return "type take"

    def paint(self, view: TallyView) -> None:
        self.show("title", self.table.name, lambda: Text(f"Tally · {self.table.name}"))
        marks = tuple(view.tallies)
        self.show(
            "tallies",
            marks,
            lambda: Text("  ".join(f"{s} {n}" for s, n in zip(view.seats, marks, strict=True))),
        )
        mine = view.me == view.turn and not view.over
        self.show_prompt(mine, lambda: Text("your turn: take" if mine else "waiting"))

    def end_screen(self, view: Any) -> ModalScreen[None]:
        return ClosingModal()

    def help_screen(self) -> ModalScreen[None]:
        return ClosingModal()


def lobby_seats(word: New) -> list[SeatSpec] | str:
    return [SeatSpec("human"), SeatSpec("empty")]

"""A yes/no question before something a stray key must not do at once (leave a table, quit)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

BACK_TO_LOBBY = "back to the lobby? your seat is kept ·"
"""Esc or Ctrl+C at a table: the seat stays (``leave`` is the word that gives it up)."""


class Confirm(ModalScreen[bool]):
    """``question`` and ``y/n``: y answers yes; n, Escape (and Enter) answer no. Ctrl+C asks
    nothing more here (the app's binding leaves an open question alone)."""

    DEFAULT_CSS = """
    Confirm { align: center middle; }
    Confirm > Vertical {
        width: 40; height: auto; padding: 1 2;
        border: round $warning; background: $surface;
    }
    Confirm #question { width: 100%; text-align: center; text-style: bold; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "yes"),
        Binding("n,escape,enter", "answer(False)", "no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.question} y/n", id="question")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

"""A yes/no question before something a stray key must not do at once (leave a table, quit)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.widgets import Static

from shipwreck.tui.handoff import HandsKeysOn

BACK_TO_LOBBY = "back to the lobby? your seat is kept ·"
"""Esc or Ctrl+C at a table: the seat stays (``leave`` is the word that gives it up)."""


class Confirm(HandsKeysOn[bool]):
    """``question`` and ``y/n``: y answers yes; n, Escape (and Enter) answer no. Ctrl+C asks
    nothing more here (the app's binding leaves an open question alone).

    Every other printable key answers no too, and goes on to the command line below with the
    keys after it: a player who pressed Esc (to clear the line, say) and typed a command
    finds it typed, not lost on the question (no table or lobby word starts with y or n,
    except the lobby's ``new``: ``n`` answers no)."""

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

    CLOSED_BY_TYPING_BELOW = True

    def closes_on(self, event: Key) -> bool:
        """A printable key that is not an answer (``y``, ``n``) says no, and is typed below."""
        answer = event.key in ("y", "n") or event.character in ("y", "n", "Y", "N")
        return event.is_printable and event.character is not None and not answer

    def action_answer(self, yes: bool) -> None:
        if not self._shut:
            self._shut = True
            self.dismiss(yes)

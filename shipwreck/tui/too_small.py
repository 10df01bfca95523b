"""The notice shown while a terminal is smaller than the app's 80×24."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Static


class TooSmallScreen(ModalScreen[None]):
    """Shown while the terminal is smaller than 80×24; keys are ignored."""

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.update_size()

    def update_size(self, size: tuple[int, int] | None = None) -> None:
        w, h = size or self.app.size
        for notice in self.query("#too-small").results(Static):  # (none before it is composed)
            notice.update(
                Text(f"please enlarge your terminal to 80×24\n(it is {w}×{h})", justify="center")
            )

    def on_key(self, event: Key) -> None:
        event.stop()
        event.prevent_default()

"""ShipwreckApp: one per player session, over SSH or in the local terminal."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.events import Resize
from textual.widgets import Static

from shipwreck.runtime import Lobby, Table
from shipwreck.tui.screens import LobbyScreen, TableScreen, TooSmallScreen

MIN_WIDTH, MIN_HEIGHT = 80, 24


class ShipwreckApp(App[None]):
    CSS_PATH = "shipwreck.tcss"
    TITLE = "Shipwreck"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+q", "quit", "quit", priority=True),
        Binding("ctrl+c", "quit", "quit", show=False, priority=True),
    ]

    def __init__(
        self,
        lobby: Lobby,
        user: str,
        fingerprint: str = "",
        open_table: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.lobby = lobby
        self.user = user
        self.fingerprint = fingerprint
        self._open_first = open_table

    def signed_in_line(self) -> str:
        key = f" ({self.fingerprint})" if self.fingerprint else ""
        return f"signed in as {self.user}{key}"

    def on_mount(self) -> None:
        self.push_screen(LobbyScreen())
        if self._open_first is not None:
            table = self.lobby.get(self._open_first)
            if table is not None:
                self.open_table(table)
        self._check_size()

    def open_table(self, table: Table, spectate: bool = False) -> None:
        seat = None if spectate else table.seat_of_player(self.user)
        if seat is not None:
            table.set_connected(self.user, True)
        self.push_screen(TableScreen(table, seat))

    def on_unmount(self) -> None:
        """The session is over (quit or dropped): my seats go on autopilot."""
        for table in self.lobby.tables.values():
            if table.seat_of_player(self.user) is not None and not table.over:
                table.set_connected(self.user, False)

    def on_resize(self, _event: Resize) -> None:
        self._check_size()

    def _check_size(self) -> None:
        small = self.size.width < MIN_WIDTH or self.size.height < MIN_HEIGHT
        top = self.screen_stack[-1] if self.screen_stack else None
        if small and not isinstance(top, TooSmallScreen):
            self.push_screen(TooSmallScreen())
        elif small and isinstance(top, TooSmallScreen):
            top.update_size()
        elif not small and isinstance(top, TooSmallScreen):
            self.pop_screen()


class RefusedApp(App[None]):
    """A session that may not play: shows why in one line, then ends."""

    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+c,ctrl+q,q,escape,enter", "quit", "quit", priority=True)]

    def __init__(self, message: str, seconds: float = 5.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = message
        self.seconds = seconds

    def compose(self) -> ComposeResult:
        yield Static(Text(f"shipwreck: {self.message}"), id="refused")

    def on_mount(self) -> None:
        self.set_timer(self.seconds, self.exit)

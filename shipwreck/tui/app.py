"""ShipwreckApp: one per player session, over SSH or in the local terminal."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.events import Resize

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
        self.push_screen(TableScreen(table, seat))

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

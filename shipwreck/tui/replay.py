"""Stepping through a game file in the app: as a spectator, or as one seat once it is over."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.events import Mount

from shipwreck.replay import GameFile, table_at
from shipwreck.runtime import Lobby
from shipwreck.tui.app import ShipwreckApp
from shipwreck.tui.lifeboat.screen import TableScreen
from shipwreck.tui.widgets import EventLog


class ReplayScreen(TableScreen):
    BINDINGS = [
        Binding("right", "step(1)", "next", priority=True),
        Binding("left", "step(-1)", "back", priority=True),
        Binding("pagedown", "step(20)", "+20", show=False, priority=True),
        Binding("pageup", "step(-20)", "-20", show=False, priority=True),
        Binding("end", "step(100000)", "end", priority=True),
        Binding("home", "step(-100000)", "start", priority=True),
        Binding("f1", "help", "help"),
    ]

    def __init__(self, gf: GameFile, seat: int | None) -> None:
        self.gf = gf
        self.step = len(gf.commands)
        super().__init__(table_at(gf, self.step), seat)
        self._ended = True  # no end screen until the replay reaches the end

    def placeholder(self) -> str:
        return "replay: → next, ← back, Home/End; or type 'go N', 'quit'"

    def action_step(self, delta: int) -> None:
        self.go(self.step + delta)

    def go(self, step: int) -> None:
        self.step = max(0, min(len(self.gf.commands), step))
        self.table = table_at(self.gf, self.step)
        self._log_shown, self._chat_last = 0, None
        self.query_one("#log", EventLog).clear()
        self.query_one("#chat", EventLog).clear()
        self._ended = self.step < len(self.gf.commands)  # the end screen only at the end
        self.refresh_all()
        seat, text = self.gf.commands[self.step - 1] if self.step else (None, "the deal")
        who = "timer" if seat == -1 else (self.table.seat_name(seat) if seat is not None else "")
        self.error(f"step {self.step}/{len(self.gf.commands)}: {who} {text}", style="cyan")

    def on_mount(self) -> None:  # Textual runs the base classes' on_mount after this one
        self.go(0)

    def run_line(self, line: str) -> None:
        word, _, rest = line.partition(" ")
        if word == "go" and rest.strip().isdigit():
            self.go(int(rest))
        elif word == "quit":
            self.app.exit()
        else:
            self.error("replay: 'go N', → / ← to step, 'quit'")


class ReplayApp(ShipwreckApp):
    def __init__(self, gf: GameFile, seat: int | None = None, **kwargs: Any) -> None:
        super().__init__(Lobby(), "replay", **kwargs)
        self.gf = gf
        self.seat = seat

    def on_mount(self, event: Mount) -> None:  # type: ignore[override]
        event.prevent_default()  # not the lobby: Textual would also run ShipwreckApp.on_mount
        self.push_screen(ReplayScreen(self.gf, self.seat))
        self._check_size()

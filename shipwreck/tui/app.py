"""ShipwreckApp: one per player session, over SSH or in the local terminal."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.events import Resize
from textual.geometry import Size
from textual.message import Message

from shipwreck.runtime import Lobby
from shipwreck.runtime.remote_table import RemoteTable
from shipwreck.runtime.seat_link import SeatLink
from shipwreck.runtime.tutorial import TutorialTable
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.clock import welcome_back
from shipwreck.tui.confirm import BACK_TO_LOBBY, Confirm
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.pacer import TABLE_TURNS, post_callback
from shipwreck.tui.registry import table_screen
from shipwreck.tui.remote import follow_moves
from shipwreck.tui.seat_return import SeatReturn, open_moving, return_to_seat
from shipwreck.tui.too_small import TooSmallScreen
from shipwreck.tui.typed import QUIT_LOCAL, quit_in_lobby_question

MIN_WIDTH, MIN_HEIGHT = 80, 24


class SeatTakenOver(Message):
    """Another session of the same player now controls this table's seat."""

    def __init__(self, table_id: int) -> None:
        super().__init__()
        self.table_id = table_id


class ShipwreckApp(App[None]):
    CSS_PATH = "shipwreck.tcss"
    TITLE = "Shipwreck"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+q", "quit_or_ask", "quit", priority=True),
        Binding("ctrl+c", "ask_leave", "leave", show=False, priority=True),
    ]

    def __init__(
        self,
        lobby: Lobby,
        user: str,
        fingerprint: str = "",
        open_table: int | None = None,
        on_close: Callable[[], None] | None = None,
        line_length: int = 500,
        commands_per_second: int = 10,
        local: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.local = local
        """``shipwreck play``: no server keeps the games; they end with the app."""
        self.lobby = lobby
        self.user = user
        self.fingerprint = fingerprint
        self._open_first = open_table
        self._on_close = on_close
        self.line_length = line_length
        """The longest line the command input accepts."""
        self.commands_per_second = commands_per_second
        self._sent: deque[float] = deque()

    def allow_command(self) -> bool:
        """Rate limit: at most ``commands_per_second`` lines in any second of this session."""
        now = time.monotonic()
        while self._sent and now - self._sent[0] >= 1.0:
            self._sent.popleft()
        if len(self._sent) >= self.commands_per_second:
            return False
        self._sent.append(now)
        return True

    def signed_in_line(self) -> str:
        key = f" ({self.fingerprint})" if self.fingerprint else ""
        return f"signed in as {self.user}{key}"

    def on_mount(self) -> None:
        self.lobby.book.warm(self.user)  # the player's saved bots, compiled off the event loop
        first = self.lobby.get(self._open_first) if self._open_first is not None else None
        if first is None:  # coming back: land in the seat of an unfinished game
            mine = self.lobby.seats_of(self.user)
            first = mine[-1] if mine else None
        if first is not None:
            self.open_table(first, paced=False)
        else:
            self.push_screen(lobby := LobbyScreen())
            self._seat_return = return_to_seat(lobby)  # (a table another worker owns or takes)
        self._unfollow = follow_moves(self)  # (tables moving between workers)
        self._check_size()

    _unfollow: Callable[[], None] = staticmethod(lambda: None)
    _seat_return: SeatReturn | None = None

    def open_moving(self, screen: LobbyScreen, table_id: int) -> bool:
        """``open N`` of the player's table while it moves between workers: wait for it
        (tui/seat_return.py); ``False`` if it is not moving."""
        back = open_moving(screen, table_id, self._seat_return)
        if back is not None:
            self._seat_return = back
        return back is not None

    def action_ask_leave(self) -> None:
        """Ctrl+C (a shell habit) never quits at once: at a table it asks to leave the table
        (for the lobby; the seat is kept; a spectator or a player whose game is over goes at
        once), in the lobby to quit. A question already open is left alone."""
        if any(isinstance(s, Confirm) for s in self.screen_stack):
            return
        table = next((s for s in self.screen_stack if isinstance(s, SeatScreen)), None)
        if table is None:
            self.push_screen(Confirm("quit Shipwreck?"), self._quit_if)
        elif table.seat_waits():
            self.push_screen(Confirm(BACK_TO_LOBBY), self._lobby_if)
        else:  # (a spectator, or a game over: nothing waits, nothing to ask)
            self._from_table_to_lobby()

    def action_quit_or_ask(self) -> None:
        """Ctrl+Q quits at once, except at a table still waiting for its players, where it
        asks first (:data:`QUIT_WAITING`): a table there is started by a word typed there,
        and quitting by mistake leaves it waiting; and in a local game (``shipwreck play``),
        which ends with the app. Ctrl+Q again, with the question open, quits (as the question
        says)."""
        if any(isinstance(s, Confirm) for s in self.screen_stack):
            self.exit()
            return
        if self._at_waiting_table():
            self.push_screen(Confirm(QUIT_WAITING), self._quit_if)
        elif self.local and quit_in_lobby_question(self.lobby, self.user, local=True):
            self.push_screen(Confirm(QUIT_LOCAL), self._quit_if)  # (a local game ends)
        else:
            self.exit()

    def _at_waiting_table(self) -> bool:
        """Is this session seated at a table that has not started yet?"""
        table = next((s for s in self.screen_stack if isinstance(s, SeatScreen)), None)
        return table is not None and table.seat is not None and not table.table.started

    def _quit_if(self, yes: bool | None) -> None:
        if yes:
            self.exit()

    def _lobby_if(self, yes: bool | None) -> None:
        if yes:
            self._from_table_to_lobby()

    def _from_table_to_lobby(self, notice: str = "") -> None:
        while len(self.screen_stack) > 1 and not isinstance(self.screen, SeatScreen):
            self.pop_screen()  # a help or end screen over the table
        self.show_lobby(notice)

    def show_lobby(self, notice: str = "") -> None:
        """Back to the lobby from a table: a new lobby screen takes the table's place, with
        ``notice`` (what was done on the way, e.g. a seat given up) on its message line.

        Why not keep the lobby under the table: a session then holds one screen, not two
        (a covered lobby kept its widgets and caches, and stopped following changes anyway)."""
        self.switch_screen(LobbyScreen(notice))

    def open_table(
        self, table: SeatLink, spectate: bool = False, paced: bool = True, greet: bool = True
    ) -> None:
        """Sit at (or watch) ``table``: the seat is taken now, and its screen is built when
        the screens' shared budget allows (``paced``; see :class:`~shipwreck.tui.pacer.TurnBudget`:
        building a table screen is the costliest piece of screen work there is, and a crowd
        sitting down at once held every other session for over half a second)."""
        seat = None if spectate else table.seat_of_player(self.user)
        if seat is not None:
            previous = self.lobby.claim(table.id, self.user, self, self._taken_over(table.id))
            if isinstance(previous, ShipwreckApp):  # never two controllers for one seat
                previous.post_message(SeatTakenOver(table.id))
        greeting = welcome_back(table, seat) if seat is not None and greet else ""
        if seat is not None:
            table.set_connected(self.user, True)
        self._opening = (table, seat, greeting)
        if paced:
            TABLE_TURNS.run(self._post_opening, kind="open")
        else:
            self._show_opening()

    _opening: tuple[SeatLink, int | None, str] | None = None
    """The table a lobby command asked for, until its screen is built (the last one asked)."""

    @property
    def opening(self) -> bool:
        """Is a table's screen about to replace the current one (asked for, not built yet)?"""
        return self._opening is not None

    def _post_opening(self) -> None:
        post_callback(self, self._show_opening)

    def _show_opening(self) -> None:
        if self._opening is None or not self.is_running:
            return
        (table, seat, greeting), self._opening = self._opening, None
        screen = table_screen(table, seat, tutorial=isinstance(table, TutorialTable))
        screen.greeting = greeting
        if isinstance(self.screen, TooSmallScreen):  # (a resize came first): it goes on top
            self.pop_screen()
        if isinstance(self.screen, LobbyScreen) or _watching(self.screen, table):
            self.switch_screen(screen)  # the table takes the lobby's place (see show_lobby)
        else:
            self.push_screen(screen)

    def _taken_over(self, table_id: int) -> Callable[[], None]:
        """What a session on another worker taking this seat does here (from its worker's bus
        task: only a message)."""

        def tell() -> None:
            self.post_message(SeatTakenOver(table_id))

        return tell

    def on_seat_taken_over(self, message: SeatTakenOver) -> None:
        self.lobby.release_one(message.table_id, self.user, self)
        for screen in self.screen_stack:
            if not isinstance(screen, SeatScreen) or screen.table.id != message.table_id:
                continue
            if isinstance(screen.table, RemoteTable):  # (it follows the seat's updates only)
                screen.table.handed_over = True  # (the other session is here: no goodbye)
                self._from_table_to_lobby(TAKEN_OVER_ELSEWHERE.format(id=message.table_id))
                return
            screen.become_spectator(TAKEN_OVER)

    def on_unmount(self) -> None:
        """The session is over (quit or dropped): the seats it played go on autopilot."""
        self._unfollow()
        if self._seat_return is not None:
            self._seat_return.stop()
        for table_id, player in self.lobby.release(self):
            table = self.lobby.get(table_id)
            if table is not None and not table.over:
                table.set_connected(player, False)
        if self._on_close is not None:
            self._on_close()
            self._on_close = None

    def on_resize(self, event: Resize) -> None:
        self._check_size(event.size)  # (the app's own size is updated after this handler)

    def _check_size(self, size: Size | None = None) -> None:
        width, height = size or self.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        top = self.screen_stack[-1] if self.screen_stack else None
        if small and not isinstance(top, TooSmallScreen):
            self.push_screen(TooSmallScreen())
        elif small and isinstance(top, TooSmallScreen):
            top.update_size((width, height))
        elif not small and isinstance(top, TooSmallScreen):
            self.pop_screen()


QUIT_WAITING = "quit Shipwreck? this table waits to start; your seat is kept (Ctrl+Q again quits) ·"
"""Ctrl+Q at a table still waiting for its players (the box wraps it; y or Ctrl+Q quits)."""

TAKEN_OVER = "watching: your other session has this seat · 'takeover' takes it back"
"""The first session's notice when a second one takes its seat (one line at 80 columns)."""
TAKEN_OVER_ELSEWHERE = "your other session has your seat at table {id} · 'open {id}' takes it back"
"""The same, at a table another worker owns (the session goes back to the lobby)."""


def _watching(screen: object, table: SeatLink) -> bool:
    """Is ``screen`` a spectator's view of ``table`` (which a seat's view of it replaces), or
    a view of a copy of it that moved to another worker (which its new view replaces)?"""
    if not isinstance(screen, SeatScreen):
        return False
    moved = screen.table is not table and screen.table.id == table.id
    return moved or (screen.table is table and screen.seat is None)

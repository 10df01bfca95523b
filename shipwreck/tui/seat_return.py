"""Back to your seat when you sign in, even while your table moves between workers (issue 21).

A player signing in with a seat at a table another worker owns lands in that seat. When that
worker has just died, the table has no owner for a moment: the next live worker's scan finds it
orphaned and rebuilds it from the store (:class:`~shipwreck.runtime.ownership.Leaseholder`),
within about two lease lifetimes. A player whose connection died with the worker usually signs in
again sooner than that. Without :class:`SeatReturn` they would land in the lobby and have to
guess when to type ``open N``; with it the lobby says the table is moving, and seats them the
moment it is back, on this worker or another.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from shipwreck.lang import words as W
from shipwreck.runtime.remote_table import RemoteTables
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.pacer import after, post_callback
from shipwreck.tui.remote import Told, enter_quietly, remote_seat

if TYPE_CHECKING:
    from shipwreck.runtime.lobby import Row
    from shipwreck.tui.app import ShipwreckApp

RETURN_SECONDS = 30.0
"""How long a player who signed in waits in the lobby for their table to come back."""
MOVING_SEAT = (
    "your table {id} is moving to another server process; you will be seated when it is back"
)
STILL_MOVING = "table {id} is still moving; you will be seated the moment it is back"
NOT_BACK = "table {id} has not come back yet; 'open {id}' tries again"


def return_to_seat(screen: Told) -> SeatReturn | None:
    """At sign-in, in the lobby: follow the player back to their seat at a table this worker
    does not hold (owned by another worker, or moving), if they have one."""
    lobby = screen.shipwreck.lobby
    if lobby.remote_tables is None:
        return None
    user = screen.shipwreck.user
    table_id = remote_seat(lobby, user)
    if table_id is None:
        table_id = lobby.unlisted_seat(user)
    if table_id is None:
        return None
    back = SeatReturn(screen, table_id, lobby.remote_tables)
    back.start()
    return back


def open_moving(screen: Told, table_id: int, waiting: SeatReturn | None) -> SeatReturn | None:
    """``open N`` of the player's own table while it moves between workers: wait for it as
    at sign-in, saying so (``waiting``, the wait already running, is told to look again);
    ``None`` if it is not moving (``open`` goes on as usual). Before, ``open N`` answered "did
    not answer; try again" or "there is no table N" while the player was about to be seated
    (play-test)."""
    if waiting is not None and not waiting.done and waiting.table_id == table_id:
        waiting.again()
        return waiting
    lobby = screen.shipwreck.lobby
    if lobby.remote_tables is None or lobby.get(table_id) is not None:
        return None
    if lobby.unlisted_seat(screen.shipwreck.user) != table_id:
        return None
    back = SeatReturn(screen, table_id, lobby.remote_tables)
    back.start()
    return back


@runtime_checkable
class ShowsMoving(Protocol):
    """A screen that lists the player's table while it moves (the lobby's)."""

    def show_moving(self, row: Row | None) -> None: ...


class SeatReturn:
    """Seats the player at ``table_id`` once it can be reached: at once if a worker owns it,
    else when the lobby changes and it is there (rebuilt here, or listed by another worker).
    Ends when seated, when the player opens a table of their own accord or leaves the lobby,
    or after :data:`RETURN_SECONDS` (saying so)."""

    def __init__(self, screen: Told, table_id: int, remote: RemoteTables) -> None:
        self.screen, self.table_id, self.remote = screen, table_id, remote
        self.app: ShipwreckApp = screen.shipwreck
        self.done = False
        self._trying = False
        self._due = False
        self._told = False
        self._unsubscribe: Callable[[], None] = lambda: None
        self._deadline: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._unsubscribe = self.app.lobby.subscribe(self._changed)
        self._deadline = after(self.app, RETURN_SECONDS, self._give_up)
        self._try()

    def again(self) -> None:
        """The player asked for the table (``open N``) meanwhile: answer that it is still on its
        way (a line of its own: the same line again looked like no answer, play-test), look for
        it now, and wait the whole time again."""
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = after(self.app, RETURN_SECONDS, self._give_up)
        self.screen.error(STILL_MOVING.format(id=self.table_id), "yellow")
        self._told = True
        if not self._trying:
            self._try()

    def stop(self) -> None:
        self.done = True
        self._unsubscribe()
        if self._deadline is not None:
            self._deadline.cancel()
        if self._told and isinstance(self.screen, ShowsMoving):
            self.screen.show_moving(None)

    def _moved_on(self) -> bool:
        """Has the player gone elsewhere (a table, or away from this lobby screen)?"""
        stack: list[object] = list(self.app.screen_stack)
        return (
            not self.app.is_running
            or self.app.opening
            or all(s is not self.screen for s in stack)
            or any(isinstance(s, SeatScreen) for s in stack)
        )

    def _changed(self, _lobby: object) -> None:
        """(Told by the lobby, from whichever session changed it: only a post.)"""
        if not self._due and not self.done:
            self._due = post_callback(self.app, self._try)

    def _try(self) -> None:
        self._due = False
        if self.done or self._trying:
            return
        if self._moved_on():
            self.stop()
            return
        lobby = self.app.lobby
        listed = next((r for r in lobby.listing() if r[0] == str(self.table_id)), None)
        if listed is not None:
            self._row = listed
        here = lobby.get(self.table_id)
        if here is not None and here.seat_of_player(self.app.user) is not None:
            self.stop()  # (rebuilt on this worker)
            self.app.open_table(here, paced=False)
        elif lobby.elsewhere(self.table_id):
            self._trying = True
            self._entering = asyncio.get_running_loop().create_task(self._enter())
        else:
            self._tell()

    _entering: asyncio.Task[None] | None = None
    """(Held: the loop keeps only a weak reference to a task.)"""

    async def _enter(self) -> None:
        """Enter the table another worker lists (it may be the dead worker's row, not yet
        forgotten: then no owner answers, and the next change of the lobby tries again)."""
        try:
            refused = await enter_quietly(self.screen, self.remote, W.Open(self.table_id))
        finally:
            self._trying = False
        if refused is None or self.done:
            self.stop()
        else:
            self._tell()

    _row: Row | None = None
    """The table's row as a worker last listed it."""

    def _tell(self) -> None:
        if not self._told:
            self._told = True
            self.screen.error(MOVING_SEAT.format(id=self.table_id), "yellow")
        if isinstance(self.screen, ShowsMoving):  # (listed meanwhile, not as "no tables yet")
            known = self._row or (str(self.table_id), "", "", "-", "", self.app.user)
            self.screen.show_moving((*known[:4], "moving", known[5]))

    def _give_up(self) -> None:
        if self.done:
            return
        self.stop()
        if not self._moved_on():
            self.screen.error(NOT_BACK.format(id=self.table_id))

"""``join``, ``watch`` and ``open`` of a table another worker owns (issue 21).

The lobby lists every worker's tables; one held elsewhere is followed through a
:class:`~shipwreck.runtime.remote_table.RemoteTable`, which the table screens read as they read
a local table. Entering takes a few requests to the owner (the seats and their ids, then
sitting down, then the seat's own updates), so it runs as a task and the lobby screen shows a
refusal when one comes, in the same words as a local ``join``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from shipwreck.lang import words as W
from shipwreck.runtime.remote_table import RemoteTable, RemoteTables
from shipwreck.runtime.seat_link import SeatLink
from shipwreck.runtime.table import Table
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.pacer import post_callback

if TYPE_CHECKING:
    from shipwreck.runtime import Lobby
    from shipwreck.runtime.lobby import Row
    from shipwreck.tui.app import ShipwreckApp


class Told(Protocol):
    """A screen that says what went wrong (the lobby's, or a table's)."""

    @property
    def shipwreck(self) -> ShipwreckApp: ...
    def error(self, text: str, style: str = "red") -> None: ...


SeatFor = Callable[[SeatLink, int | str | None], int | str]
"""The lobby's ``join`` seat choice (``screens.seat_to_join``: the seat, or why none)."""
FreeSeats = Callable[[SeatLink], str]
"""The end of a refused ``join`` (``screens.free_seats_hint``)."""

log = logging.getLogger("shipwreck.tui.remote")

_entering: set[asyncio.Task[None]] = set()


def _players(row: Row) -> list[str]:
    """The players a lobby row names (``ann, bob (away)``: ann and bob)."""
    return [name.removesuffix(" (away)") for name in row[5].split(", ")]


def remote_seat(lobby: Lobby, player: str) -> int | None:
    """The last unfinished table another worker owns where ``player`` sits, as the lobby
    lists it (a player coming back lands there, as at a table of this worker)."""
    mine = [
        int(row[0])
        for row in lobby.listing()
        if int(row[0]) not in lobby.tables and row[4] != "over" and player in _players(row)
    ]
    return mine[-1] if mine else None


def remote_ids(lobby: Lobby, player: str, word: str) -> list[int]:
    """The tables other workers own that Tab offers after ``word`` (``join``: with a free
    seat, or ``player``'s; ``watch``: not over; ``open``: ``player``'s), as the lobby lists
    them (a row says which seats are free: ``.`` in its seats column)."""
    if lobby.remote_rows is None:
        return []
    rows = [r for r in lobby.remote_rows() if r[4] != "over" and int(r[0]) not in lobby.tables]
    if word == "join":
        rows = [r for r in rows if "." in r[2] or player in _players(r)]
    elif word == "open":
        rows = [r for r in rows if player in _players(r)]
    return [int(r[0]) for r in rows]


def enter_remote(
    screen: Told,
    remote: RemoteTables,
    word: W.JoinTable | W.Watch | W.Open,
    seat_to_join: SeatFor | None = None,
    free_seats_hint: FreeSeats | None = None,
    greet: bool = True,
) -> None:
    """Enter the table ``word`` names, which another worker owns (a task: see the module),
    choosing a seat and saying why not as the lobby does for a local table. ``greet``: a
    player coming back to their seat is welcomed (not one whose screen follows a table that
    moved)."""
    entering = _enter(screen, remote, word, seat_to_join, free_seats_hint, greet)
    task = asyncio.get_running_loop().create_task(entering)
    _entering.add(task)
    task.add_done_callback(_entering.discard)


class _Quiet:
    """A :class:`Told` that keeps what went wrong instead of showing it."""

    def __init__(self, screen: Told) -> None:
        self.shipwreck = screen.shipwreck
        self.refused: str | None = None

    def error(self, text: str, style: str = "red") -> None:
        self.refused = text


async def enter_quietly(screen: Told, remote: RemoteTables, word: W.Open) -> str | None:
    """Enter the player's seat at the table ``word`` names, which another worker owns, as
    ``open`` does; why not (one line, not shown), or ``None`` once entered."""
    quiet = _Quiet(screen)
    await _enter(quiet, remote, word, None, None)
    return quiet.refused


async def _enter(
    screen: Told,
    remote: RemoteTables,
    word: W.JoinTable | W.Watch | W.Open,
    seat_to_join: SeatFor | None,
    free_seats_hint: FreeSeats | None,
    greet: bool = True,
) -> None:
    app = screen.shipwreck
    number, user = word.table, app.user
    link: RemoteTable | str | None
    if isinstance(word, W.Watch):  # a spectator's screen: the table counts them as watching
        link = await remote.open(number, user, None, watching=True)
    else:
        link = await _seat_link(screen, remote, word, seat_to_join, free_seats_hint)
    if link is None:
        return
    if isinstance(link, str):
        screen.error(link)
        return
    if not app.is_running:
        await link.close()
        return
    app.open_table(link, spectate=isinstance(word, W.Watch), greet=greet)


async def _seat_link(
    screen: Told,
    remote: RemoteTables,
    word: W.JoinTable | W.Open,
    seat_to_join: SeatFor | None,
    free_seats_hint: FreeSeats | None,
) -> RemoteTable | str | None:
    """The player's seat at the table (``join`` sits them first), else a spectator's view of
    it; ``None`` when the refusal is already on the screen."""
    number, user = word.table, screen.shipwreck.user
    seen = await remote.open(number, user, None)  # a look: who sits where, seat ids
    if isinstance(seen, str):
        return seen
    seat = seen.seat_of_player(user)
    if isinstance(word, W.JoinTable) and seat is None:
        assert seat_to_join is not None and free_seats_hint is not None, "join chooses a seat"
        chosen = seat_to_join(seen, word.seat)
        problem = await seen.sit(chosen) if isinstance(chosen, int) else chosen
        if problem or isinstance(chosen, str):
            hint = free_seats_hint(seen) if isinstance(chosen, int) else ""
            await seen.close()
            screen.error(f"{problem}{hint}")
            return None
        seat = chosen
    await seen.close()
    return await remote.open(number, user, seat, watching=seat is None)


def follow_moves(app: ShipwreckApp) -> Callable[[], None]:
    """Keep ``app``'s table screens on their tables when a table moves between workers (this
    worker lost its lease, and another rebuilt the table): a screen left on the old copy is
    opened again where the table is now. Returns the call that stops following."""
    lobby = app.lobby
    if lobby.remote_tables is None:
        return lambda: None
    due = False

    def moved(screen: object) -> bool:
        if not isinstance(screen, SeatScreen) or not isinstance(screen.table, Table):
            return False
        now = lobby.get(screen.table.id)
        return now is not screen.table and (now is not None or lobby.elsewhere(screen.table.id))

    def changed(_lobby: object) -> None:
        """(Told by the lobby, from whichever session changed it: only a look, then a post.)"""
        nonlocal due
        if not due and any(moved(s) for s in app.screen_stack):
            due = post_callback(app, reopen)

    def reopen() -> None:
        nonlocal due
        due = False
        for screen in app.screen_stack:
            if not moved(screen):
                continue
            assert isinstance(screen, SeatScreen)
            table_id, seated = screen.table.id, screen.seat is not None
            here = lobby.get(table_id)
            if here is not None:  # (moved back to this worker)
                app.open_table(here, spectate=not seated, paced=False, greet=False)
            elif lobby.remote_tables is not None:
                word = W.Open(table_id) if seated else W.Watch(table_id)
                enter_remote(screen, lobby.remote_tables, word, greet=False)
            screen.error("the table moved to another server process; following it", "yellow")

    return lobby.subscribe(changed)

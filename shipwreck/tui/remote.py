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
from typing import TYPE_CHECKING

from shipwreck.lang import words as W
from shipwreck.runtime.remote_table import RemoteTable, RemoteTables
from shipwreck.runtime.seat_link import SeatLink

if TYPE_CHECKING:
    from shipwreck.runtime import Lobby
    from shipwreck.tui.screens import LobbyScreen

SeatFor = Callable[[SeatLink, int | str | None], int | str]
"""The lobby's ``join`` seat choice (``screens.seat_to_join``: the seat, or why none)."""
FreeSeats = Callable[[SeatLink], str]
"""The end of a refused ``join`` (``screens.free_seats_hint``)."""

log = logging.getLogger("shipwreck.tui.remote")

_entering: set[asyncio.Task[None]] = set()


def remote_seat(lobby: Lobby, player: str) -> int | None:
    """The last unfinished table another worker owns where ``player`` sits, as the lobby
    lists it (a player coming back lands there, as at a table of this worker)."""
    mine = [
        int(row[0])
        for row in lobby.listing()
        if int(row[0]) not in lobby.tables
        and row[4] != "over"
        and player in (name.removesuffix(" (away)") for name in row[5].split(", "))
    ]
    return mine[-1] if mine else None


def enter_remote(
    screen: LobbyScreen,
    remote: RemoteTables,
    word: W.JoinTable | W.Watch | W.Open,
    seat_to_join: SeatFor,
    free_seats_hint: FreeSeats,
) -> None:
    """Enter the table ``word`` names, which another worker owns (a task: see the module),
    choosing a seat and saying why not as the lobby does for a local table."""
    entering = _enter(screen, remote, word, seat_to_join, free_seats_hint)
    task = asyncio.get_running_loop().create_task(entering)
    _entering.add(task)
    task.add_done_callback(_entering.discard)


async def _enter(
    screen: LobbyScreen,
    remote: RemoteTables,
    word: W.JoinTable | W.Watch | W.Open,
    seat_to_join: SeatFor,
    free_seats_hint: FreeSeats,
) -> None:
    app = screen.shipwreck
    number, user = word.table, app.user
    seen = await remote.open(number, user, None)  # as a spectator: who sits where, seat ids
    if isinstance(seen, str):
        screen.error(seen)
        return
    seat = seen.seat_of_player(user)
    if isinstance(word, W.JoinTable) and seat is None:
        chosen = seat_to_join(seen, word.seat)
        problem = await seen.sit(chosen) if isinstance(chosen, int) else chosen
        if problem or isinstance(chosen, str):
            hint = free_seats_hint(seen) if isinstance(chosen, int) else ""
            await seen.close()
            screen.error(f"{problem}{hint}")
            return
        seat = chosen
    link: RemoteTable | str = seen
    if seat is not None and not isinstance(word, W.Watch):
        await seen.close()
        link = await remote.open(number, user, seat)
    if isinstance(link, str):
        screen.error(link)
        return
    if not app.is_running:
        await link.close()
        return
    app.open_table(link, spectate=isinstance(word, W.Watch))

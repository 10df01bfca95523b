"""A table another worker owns, as its screen on this worker reads it: a :class:`SeatLink`
over a :class:`~shipwreck.runtime.updates.TableMirror`.

Why: a player's connection lands on whichever worker the kernel picks, and their table may be
owned by another. The screen reads this as it reads a local table; what it reads is the one
seat's update the owner published (its view, its log lines, its chat: never another seat's),
and what it asks (a typed line, ``say``, ``start``) goes to the owner, whose answer arrives
later (an awaitable, see :func:`~shipwreck.runtime.seat_link.when_answered`). Nothing here
holds the game's state: a seat it does not follow raises rather than guesses.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable, Coroutine

import msgspec

from shipwreck.bus import Bus
from shipwreck.engine.core import Event, IllegalCommand, Seat
from shipwreck.lang import format_command
from shipwreck.runtime.seat_link import SeatLink
from shipwreck.runtime.table import ChatLine, SeatInfo, Submitted
from shipwreck.runtime.updates import (
    PreviewAnswer,
    RequestKind,
    SeatUpdate,
    TableMirror,
    TableRequest,
    preview_type,
)

log = logging.getLogger("shipwreck.remote_table")

NO_ANSWER = "table {id} did not answer; try again in a moment"
UNUSED_SECONDS = 30.0
"""A link no screen has followed this long after it opened is closed."""

Key = tuple[int, Seat | None, str]
PreviewKey = tuple[str, int, int]
"""A preview asked for: the line (as the game formats it), and the update's epoch and seq."""
PREVIEW_SECONDS = 0.1
"""At most one preview request per this long, per screen (as the local screen's preview)."""


class RemoteTable:
    """One seat (``None``: a spectator) of a table owned by another worker."""

    def __init__(self, mirror: TableMirror, player: str, followers: Counter[Key]) -> None:
        self.mirror, self.player = mirror, player
        self.seat = mirror.seat_followed
        self.id = mirror.id
        self.followers = followers
        """How many links of this worker follow each (table, seat, player): the last to
        close tells the owner the player has gone."""
        followers[self._key] += 1
        self._listeners: dict[Callable[[SeatLink], None], Callable[[TableMirror], None]] = {}
        self._tasks: set[asyncio.Task[object]] = set()
        self._shown = False
        self.closed = False
        self._preview: tuple[PreviewKey, PreviewAnswer] | None = None
        """The owner's latest preview answer, and what it answered (line, epoch, seq)."""
        self._preview_wanted: PreviewKey | None = None
        self._preview_asking: asyncio.TimerHandle | None = None
        self._preview_at = 0.0
        self.handed_over = False
        """Another session of the player took the seat: closing says no goodbye to the owner
        (the player is still here, in that session)."""
        self._unused = asyncio.get_running_loop().call_later(UNUSED_SECONDS, self._close_unused)

    @property
    def _key(self) -> Key:
        return (self.id, self.seat, self.player)

    def _close_unused(self) -> None:
        """Nobody followed this link (the screen it was opened for was never built: another
        table was asked for first, or the session ended): let the bus go."""
        if not self._listeners:
            self._spawn(self.close())

    @classmethod
    async def open(
        cls,
        bus: Bus,
        table_id: int,
        player: str,
        seat: Seat | None,
        followers: Counter[Key] | None = None,
        watching: bool = False,
    ) -> RemoteTable | str:
        """Follow ``seat`` (``None``: as a spectator) of table ``table_id``; the table, or why
        not (one line). ``watching``: a spectator's screen (the table counts ``player`` as
        watching it, and whispers to them reach them), not a look at who sits where."""
        mirror = TableMirror(
            bus,
            table_id,
            seat,
            player=player if seat is not None else None,
            watcher=player if watching and seat is None else None,
        )
        await mirror.start()
        if mirror.update is None:
            await mirror.stop()
            return NO_ANSWER.format(id=table_id)
        return cls(mirror, player, followers if followers is not None else Counter())

    async def close(self) -> None:
        """Stop following the table (the owner hears that the player has gone)."""
        if not self.closed:
            self.closed = True
            self._unused.cancel()
            self.followers[self._key] -= 1
            last = self.followers[self._key] <= 0
            if last:
                del self.followers[self._key]
            await self.mirror.stop(away=last and not self.handed_over)

    # ------------------------------------------------------------------ reading

    @property
    def _update(self) -> SeatUpdate:
        return self.mirror._need()

    @property
    def game(self) -> str:
        return self._update.game

    @property
    def name(self) -> str:
        return self._update.name

    @property
    def seats(self) -> list[SeatInfo]:
        return list(self._update.seats)

    @property
    def started(self) -> bool:
        return self._update.started

    @property
    def over(self) -> bool:
        return self._update.over

    @property
    def paused(self) -> bool:
        return self._update.paused

    @property
    def timed(self) -> bool:
        return self._update.timed

    @property
    def host(self) -> str | None:
        return self._update.host

    @property
    def watchers(self) -> dict[str, int]:
        """Who watches the table, on any worker, as the owner last said."""
        return dict.fromkeys(self._update.watchers, 1)

    @property
    def autopilot_after(self) -> int:
        return self._update.autopilot_after

    def view(self, seat: Seat | None) -> object:
        return self.mirror.view(seat)

    def log(self, seat: Seat | None) -> list[Event]:
        return self.mirror.log(seat)

    def chat_for(self, viewer: str | None) -> list[ChatLine]:
        """The chat this seat's player may read (the owner filtered it for them)."""
        return [c for c in self.mirror.chat if c.readable_by(viewer)]

    def seat_name(self, seat: Seat) -> str:
        return self._update.seat_names[seat]

    def seat_of_player(self, player: str) -> Seat | None:
        for i, s in enumerate(self._update.seats):
            if s.kind == "human" and s.player == player:
                return i
        return None

    def free_seats(self) -> list[Seat]:
        return [i for i, s in enumerate(self._update.seats) if s.kind == "empty"]

    def deadline(self, seat: Seat | None) -> float | None:
        """Seconds left for ``seat``'s decision, counted down since the update arrived (only
        the clocks this seat's screen shows are sent)."""
        left = dict(self._update.clocks).get(seat) if seat is not None else None
        if left is None:
            return None
        return max(0.0, left - (time.monotonic() - self.mirror.received_at))

    def default_text(self, seat: Seat) -> str | None:
        return self._update.default_text if seat == self.seat else None

    def host_here(self) -> bool:
        return self._update.host_here

    def start_refusal(self, player: str | None) -> str | None:
        """As the owner said for this seat's player (whoever else asks is not seated here)."""
        if player is not None and self.seat is not None and player == self.player:
            return self._update.start_refusal
        return (
            "the table has already started"
            if self.started
            else "only a player at this table can start it"
        )

    def preview(self, seat: Seat, cmd: object) -> object:
        """What ``cmd`` would do for this seat, as the owner said for the latest update
        (raises :class:`IllegalCommand` as the table would). Only the owner has the game's
        state, so the first call for a line (or after a change) asks it and returns ``None``;
        the answer, when it comes, is drawn as an update is (the listeners are called). At
        most one request is on its way, and one per :data:`PREVIEW_SECONDS`, whatever is
        typed: the last line asked for is the one sent."""
        if seat != self.seat or self.mirror.update is None:
            return None
        wanted = (format_command(cmd), self.mirror.update.epoch, self.mirror.update.seq)
        if self._preview is not None and self._preview[0] == wanted:
            return self._previewed(self._preview[1])
        self._preview_wanted = wanted
        if self._preview_asking is None:
            wait = self._preview_at + PREVIEW_SECONDS - time.monotonic()
            self._preview_asking = asyncio.get_running_loop().call_later(
                max(0.0, wait), lambda: self._spawn(self._ask_preview())
            )
        return None

    def _previewed(self, answer: PreviewAnswer) -> object:
        if not answer.ok:
            if answer.message:
                raise IllegalCommand(answer.message)
            return None
        kind = preview_type(self.game)
        if kind is None:
            return None
        return msgspec.json.decode(answer.preview, type=kind | None)

    async def _ask_preview(self) -> None:
        try:
            while (wanted := self._preview_wanted) is not None:
                self._preview_at = time.monotonic()
                answer = await self.mirror.ask_preview(wanted[0])
                self._preview = (wanted, answer)
                if self._preview_wanted == wanted:
                    self._preview_wanted = None
                    for heard in list(self._listeners.values()):
                        heard(self.mirror)
                    return
                await asyncio.sleep(max(0.0, self._preview_at + PREVIEW_SECONDS - time.monotonic()))
        finally:
            self._preview_asking = None

    # ------------------------------------------------------------------ asking the owner

    async def _request(
        self,
        kind: RequestKind,
        text: str = "",
        to: Seat | None = None,
        to_watcher: str | None = None,
        with_bots: bool = False,
    ) -> Submitted:
        request = TableRequest(
            self.player,
            self.seat,
            text,
            kind=kind,
            to=to,
            to_watcher=to_watcher,
            with_bots=with_bots,
        )
        return await self.mirror.ask(request)

    def _later(self, kind: RequestKind) -> None:
        """Send a request whose answer nobody waits for (it changes what the updates say)."""
        self._spawn(self._request(kind))

    def _spawn(self, work: Coroutine[object, None, object]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def submit_text(self, seat: Seat, text: str) -> Submitted:
        if seat != self.seat:
            return Submitted(False, "you have no seat at this table now")
        return await self.mirror.submit_text(text)

    async def say(
        self,
        sender: str,
        text: str,
        from_seat: Seat | None,
        to: Seat | None = None,
        to_watcher: str | None = None,
    ) -> str | None:
        said = await self._request("say", text=text, to=to, to_watcher=to_watcher)
        return None if said.ok else said.message

    async def start(self, player: str | None, with_bots: bool = False) -> str | None:
        started = await self._request("start", with_bots=with_bots)
        return None if started.ok else started.message

    async def sit(self, seat: Seat) -> str | None:
        """Sit this player in ``seat`` (a spectator's link, before following the seat)."""
        req = TableRequest(self.player, seat, kind="sit")
        sat = await self.mirror.ask(req)
        return None if sat.ok else sat.message

    def leave(self, player: str) -> None:
        if self.seat is not None:
            self._later("leave")

    def take_back(self, player: str) -> bool:
        """Typing anything takes the seat back from the autopilot: said at once if this seat
        is on autopilot (as far as the last update says), and asked of the owner."""
        if self.seat is None or not self._update.seats[self.seat].autopilot:
            return False
        self._later("takeback")
        return True

    def set_connected(self, player: str, connected: bool) -> None:
        if self.seat is not None:
            self._later("here" if connected else "away")

    def prompt_shown(self, seat: Seat | None) -> None:
        """The started table's prompt is on this player's screen: the owner's clock may run."""
        if seat is None or self._shown or not self.started:
            return
        self._shown = True
        self._later("shown")

    def watch(self, player: str) -> Callable[[], None]:
        return lambda: None

    def subscribe(self, listener: Callable[[SeatLink], None]) -> Callable[[], None]:
        """``listener(self)`` after each update; the last one to go stops the mirror."""

        def heard(_mirror: TableMirror) -> None:
            listener(self)

        self._listeners[listener] = heard
        self.mirror.listeners.append(heard)

        def unsubscribe() -> None:
            gone = self._listeners.pop(listener, None)
            if gone is not None and gone in self.mirror.listeners:
                self.mirror.listeners.remove(gone)
            if not self._listeners and not self.closed:
                self._spawn(self.close())

        return unsubscribe


class RemoteTables:
    """How this worker's screens reach tables other workers own (set on the lobby by the
    worker's :class:`~shipwreck.runtime.lobby_link.LobbyLink`)."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.followers: Counter[Key] = Counter()

    async def open(
        self, table_id: int, player: str, seat: Seat | None, watching: bool = False
    ) -> RemoteTable | str:
        return await RemoteTable.open(
            self.bus, table_id, player, seat, self.followers, watching=watching
        )

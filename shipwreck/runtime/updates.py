"""A table seen from another worker: each seat's own update, published by the table's owner.

Why: with several workers (issue 21), a player's session may live on a worker that does not own
their table. The owner publishes, after every change, one :class:`SeatUpdate` per seat on that
seat's own subject (``table.7.seat.2``) and one for spectators (``table.7.public``). An update
is made from the ruleset's one ``view()`` and the log that seat may read (``Table.log``), so the
hidden-information filter stays where it is: a worker subscribed to seat 2 never receives
anything seat 2 may not know. A :class:`TableMirror` on the other worker keeps the latest update
of the seats it follows and answers the same reading calls as the table.

Events are sent once: an update carries the seat's new log lines since the last one
(``first`` is the index of the first line it carries). A mirror that sees a gap (it subscribed
late, or missed a message) asks the owner for the whole update (``table.7.snapshot``).

A player's commands travel the other way: the mirror sends a :class:`TableRequest` to the owner
(``table.7.commands``, one request, one answer), the owner checks that the player sits in that
seat, submits it to the table (which saves it before anyone sees it) and answers with the
outcome, filtered for that seat like everything else it sends.

The table's words travel the same way (``say``, ``start``, sitting down, leaving); table chat
comes back in the updates, each seat's player's own (:meth:`ChatLine.readable_by`). The screens
read a mirror through :class:`~shipwreck.runtime.remote_table.RemoteTable`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
import typing
from collections.abc import Callable
from typing import Literal

import msgspec

from shipwreck.bus import Bus, NoOneServes, NoResponder, Subscription
from shipwreck.bus.core import valid_subject
from shipwreck.engine.core import Event, IllegalCommand, Seat
from shipwreck.games import get_ruleset
from shipwreck.lang import CommandSyntaxError, parse_command
from shipwreck.runtime.seat_link import waited_seats
from shipwreck.runtime.table import CHAT_KEPT, ChatLine, SeatInfo, Submitted, Table
from shipwreck.tasks import stop_task

log = logging.getLogger("shipwreck.updates")

SPECTATOR = "public"
WATCHER = "watcher"
MOVING = "the table is moving to another server process and is not back yet; try again in a moment"
NO_ANSWER_IN_TIME = (
    "the table did not answer in time (it may be moving to another server process); if what"
    " you typed does not show up on the table in a moment, type it again"
)
"""(Not asked again by itself: the owner may have played it before it died.)"""
MOVE_WAIT_SECONDS = 8.0
"""How long a line waits for a table with no owner to have one again (a dead worker's tables
are taken over within about two lease lifetimes: 1.4-1.8 s measured with the default 1 s)."""
ASK_AGAIN_SECONDS = 0.2
WATCH_RENEW_SECONDS = 5.0
"""A spectator's screen on another worker says it still watches this often; the owner forgets
one it has not heard from for :data:`WATCH_KEPT_BEATS` of these (its worker died: no
``unwatch`` will ever come)."""
WATCH_KEPT_BEATS = 3
"""A request no owner answered (between a dead owner and the next)."""


class SeatUpdate(msgspec.Struct, frozen=True):
    """What one seat (``None``: a spectator) may know of a table after its ``seq``-th change."""

    table: int
    game: str
    name: str
    epoch: int
    """Which owner made it: its lease's revision at the claim (0 for a single process). A new
    owner after a failover counts its changes afresh, so a mirror orders by (epoch, seq)."""
    seq: int
    seat: Seat | None
    view: msgspec.Raw
    """The game's view for this seat, encoded (the mirror decodes it with the game's type)."""
    first: int
    """The index, in this seat's log, of ``events[0]``."""
    events: tuple[Event, ...]
    seats: tuple[SeatInfo, ...]
    started: bool
    over: bool
    paused: bool
    timed: bool
    host: str | None
    seconds_left: float | None
    """This seat's decision timer when the update was made (a clock is not shared)."""
    seat_names: tuple[str, ...] = ()
    """Each seat's id as players type it (``lauren``; public)."""
    clocks: tuple[tuple[Seat, float], ...] = ()
    """Seconds left of this seat's timer and of each seat its view says the table waits for
    (what its own screen would count down), when the update was made."""
    default_text: str | None = None
    """What the table would play for this seat if its deadline passed now."""
    autopilot_after: int = 2
    host_here: bool = False
    start_refusal: str | None = None
    """Why this seat's player may not ``start`` the table now (None: they may)."""
    chat: tuple[ChatLine, ...] = ()
    """The chat lines this seat's player may read (a spectator: the table's), from the first
    one not yet sent."""
    watchers: tuple[str, ...] = ()
    """Who watches the table, on any worker (public: every screen may ``tell`` them)."""


RequestKind = Literal[
    "line",
    "here",
    "away",
    "say",
    "start",
    "sit",
    "leave",
    "takeback",
    "shown",
    "watch",
    "unwatch",
    "preview",
]


class TableRequest(msgspec.Struct, frozen=True):
    """From a player's worker to the table's owner: a typed line, that the player's session
    came (``here``) or went (``away``), or one of the table's words (``say``, ``start``,
    ``sit``, ``leave``, ``takeback``, ``shown``: the prompt has been shown, the clock may run),
    or that a spectator's screen opened (``watch``) or closed (``unwatch``). ``seat`` is the
    player's seat (``None``: a spectator, who may only ``say``); for ``sit``, the seat asked
    for."""

    player: str
    seat: Seat | None
    text: str = ""
    kind: RequestKind = "line"
    to: Seat | None = None
    """``say``: a whisper to this seat."""
    to_watcher: str | None = None
    """``say``: a whisper to this spectator."""
    with_bots: bool = False
    """``start``: the free seats' bots become theirs."""
    screen: str = ""
    """``watch``/``unwatch``: which of the player's watching screens (a renewal of a screen's
    ``watch`` is not another screen)."""


class PreviewAnswer(msgspec.Struct, frozen=True):
    """The owner's answer to a ``preview`` request: what the typed line would do for the
    seat (``Table.preview``, encoded), or why the table would refuse it (``ok`` false, with
    ``message``; no message: the line is not a command yet)."""

    ok: bool
    message: str = ""
    preview: msgspec.Raw = msgspec.Raw(b"null")
    """The game's preview, encoded (``null``: the game has none)."""


def seat_subject(table_id: int, seat: Seat | None) -> str:
    return f"table.{table_id}.{SPECTATOR if seat is None else f'seat.{seat}'}"


def watcher_subject(table_id: int, player: str) -> str:
    """A spectator's own subject: the spectators' update with the whispers to and from them
    (a whisper to a spectator must reach no other spectator)."""
    return f"table.{table_id}.{WATCHER}.{player}"


def snapshot_subject(table_id: int) -> str:
    return f"table.{table_id}.snapshot"


def commands_subject(table_id: int) -> str:
    return f"table.{table_id}.commands"


def seat_update(
    table: Table,
    seat: Seat | None,
    seq: int,
    first: int = 0,
    epoch: int = 0,
    chat_from: int = 0,
    watcher: str | None = None,
) -> SeatUpdate:
    """The update for ``seat`` with its log from line ``first`` on and its chat from line
    number ``chat_from`` on (a spectator ``watcher``'s: with the whispers to and from them).
    Everything in it comes from the table's filtered readers (``view``, ``log``,
    ``chat_for``), never from the state itself; of the other seats it carries what every
    screen shows (who sits there), not what the table played for them."""
    view = table.view(seat)
    player = table.seats[seat].player if seat is not None else watcher
    clocks = [seat, *waited_seats(view)] if seat is not None else list(waited_seats(view))
    # (a deadline of 0 s left is due now: it is played before anyone could read it)
    return SeatUpdate(
        table=table.id,
        game=table.game,
        name=table.name,
        epoch=epoch,
        seq=seq,
        seat=seat,
        view=msgspec.Raw(msgspec.json.encode(view)),
        first=first,
        events=tuple(table.log(seat)[first:]),
        seats=tuple(_as_seen_by(table.seats, seat)),
        started=table.started,
        over=table.over,
        paused=table.paused,
        timed=table.timed,
        host=table.host,
        seconds_left=table.deadline(seat),
        seat_names=tuple(table.seat_name(i) for i in range(len(table.seats))),
        clocks=tuple((s, left) for s in dict.fromkeys(clocks) if (left := table.deadline(s))),
        default_text=table.default_text(seat)
        if seat is not None and table.deadline(seat) is not None
        else None,
        autopilot_after=table.autopilot_after,
        host_here=table.host_here(),
        start_refusal=table.start_refusal(player),
        chat=tuple(c for c in table.chat_for(player) if c.n >= chat_from),
        watchers=tuple(sorted(table.watchers)),
    )


def _as_seen_by(seats: list[SeatInfo], seat: Seat | None) -> list[SeatInfo]:
    """The seats as ``seat`` may read them: the move the table played for another seat at its
    deadline is that seat's own business (a safe default may name what it holds)."""
    return [
        info if i == seat or not info.played_for else msgspec.structs.replace(info, played_for="")
        for i, info in enumerate(seats)
    ]


@functools.cache
def preview_type(game: str) -> type | None:
    """The struct ``game``'s ``preview`` returns (``None``: the game has no preview)."""
    method = getattr(type(get_ruleset(game)), "preview", None)
    if method is None:
        return None
    found: type = typing.get_type_hints(method)["return"]
    return found


@functools.cache
def view_type(game: str) -> type:
    """The struct ``game``'s ``view`` returns (a mirror given none decodes views with it)."""
    found: type = typing.get_type_hints(type(get_ruleset(game)).view)["return"]
    return found


Follower = Seat | str | None
"""Whom an owner publishes for: a seat, the spectators (``None``), or one spectator by name."""

_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(SeatUpdate)
_REQUEST = msgspec.json.Decoder(TableRequest)
_ANSWER = msgspec.json.Decoder(Submitted)
_PREVIEW = msgspec.json.Decoder(PreviewAnswer)


class TableOwner:
    """On the owner: after each change of ``table``, publish every seat's update; answer
    snapshot requests and players' commands.

    The table's listeners are called synchronously inside its changes; publishing is
    asynchronous, so updates are queued and sent, in order, by one task.
    """

    def __init__(self, table: Table, bus: Bus, epoch: int = 0) -> None:
        self.table, self.bus, self.epoch = table, bus, epoch
        self.seq = 0
        self._sent: dict[Follower, int] = {}
        """Per seat (or spectator by name), how many of its log lines have been published."""
        self._chat_sent: dict[Follower, int] = {}
        """Per seat (or spectator), the number of the first chat line not yet published."""
        self._watching: dict[str, dict[str, _Watching]] = {}
        """Spectators on other workers: per player, per screen of theirs, its ``Table.watch``
        ending and when the screen last said it watches."""
        self.clock: Callable[[], float] = time.monotonic
        self._expiry: asyncio.Task[None] | None = None
        self._queue: asyncio.Queue[list[tuple[str, bytes]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._served: list[Subscription] = []
        self._unsubscribe: Callable[[], None] | None = None

    async def start(self) -> None:
        self._served = [
            await self.bus.serve(snapshot_subject(self.table.id), self._snapshot),
            await self.bus.serve(commands_subject(self.table.id), self._command),
        ]
        self._task = asyncio.get_running_loop().create_task(self._send())
        self._expiry = asyncio.get_running_loop().create_task(self._forget_silent_watchers())
        # First: the updates for other workers' readers are sent before this worker's own
        # screens of the same change repaint (each wakes behind those woken before it).
        self._unsubscribe = self.table.subscribe(self._changed, first=True)
        self._changed(self.table)

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        await stop_task(self._expiry)
        for screens in self._watching.values():
            for watching in screens.values():
                watching.unwatch()
        self._watching.clear()
        for served in self._served:
            await served.stop()
        await self._queue.join()
        await stop_task(self._task)

    def _followers(self) -> list[Follower]:
        return [*range(len(self.table.seats)), None, *self._watching]

    def _changed(self, table: Table) -> None:
        self.seq += 1
        batch: list[tuple[str, bytes]] = []
        for who in self._followers():
            first, chat_from = self._sent.get(who, 0), self._chat_sent.get(who, 0)
            seat, watcher = (None, who) if isinstance(who, str) else (who, None)
            update = seat_update(table, seat, self.seq, first, self.epoch, chat_from, watcher)
            self._sent[who] = first + len(update.events)
            if update.chat:
                self._chat_sent[who] = update.chat[-1].n + 1
            subject = (
                watcher_subject(table.id, watcher) if watcher else seat_subject(table.id, seat)
            )
            batch.append((subject, _ENCODER.encode(update)))
        self._queue.put_nowait(batch)

    async def _send(self) -> None:
        while True:
            batch = await self._queue.get()
            try:
                await self.bus.publish_all(batch)
            except Exception:  # the bus is down: mirrors catch up by snapshot when it is back
                log.exception("table %s: updates not published", self.table.id)
            finally:
                self._queue.task_done()

    async def _snapshot(self, data: bytes) -> bytes:
        """A mirror's request for a seat's whole update (its log from the first line)."""
        text = data.decode(errors="replace")
        watcher = text.removeprefix(f"{WATCHER}.") if text.startswith(f"{WATCHER}.") else None
        seat: Seat | None = None if text == SPECTATOR or watcher else int(text)
        if seat is not None and not 0 <= seat < len(self.table.seats):
            return b""
        update = seat_update(self.table, seat, self.seq, epoch=self.epoch, watcher=watcher)
        return _ENCODER.encode(update)

    async def _command(self, data: bytes) -> bytes:
        """A player's line from another worker: theirs only if they sit in that seat."""
        try:
            req = _REQUEST.decode(data)
        except msgspec.DecodeError:
            return _ENCODER.encode(Submitted(False, "the server could not read that; try again"))
        if req.kind == "preview":
            return _ENCODER.encode(self._preview(req))
        return _ENCODER.encode(self._answer(req))

    def _preview(self, req: TableRequest) -> PreviewAnswer:
        """What the player's typed line would do for their seat (as a local screen's preview,
        from the same ``Table.preview``)."""
        t = self.table
        if req.seat is None or t.seat_of_player(req.player) != req.seat:
            return PreviewAnswer(False, "you have no seat at this table now")
        try:
            cmd = parse_command(t.game, req.text)
        except CommandSyntaxError:
            return PreviewAnswer(False)
        try:
            preview = t.preview(req.seat, cmd)
        except IllegalCommand as e:
            return PreviewAnswer(False, str(e))
        if preview is None:
            return PreviewAnswer(True)
        return PreviewAnswer(True, preview=msgspec.Raw(_ENCODER.encode(preview)))

    def _answer(self, req: TableRequest) -> Submitted:
        t = self.table
        if req.kind == "sit":
            if req.seat is None:
                return Submitted(False, "which seat?")
            problem = t.sit(req.seat, req.player)
            return Submitted(problem is None, problem or "")
        if req.kind in ("watch", "unwatch"):
            return Submitted(self._watch(req.player, req.kind == "watch", req.screen))
        if t.seat_of_player(req.player) != req.seat:
            return Submitted(False, "you have no seat at this table now")
        if req.kind == "say":
            said = t.say(req.player, req.text, req.seat, req.to, to_watcher=req.to_watcher)
            return Submitted(said is None, said or "")
        if req.seat is None:
            return Submitted(False, "you are watching this table: you have no seat to play")
        match req.kind:
            case "line":
                done = t.submit_text(req.seat, req.text)
                mine = tuple(e for e in done.events if e.visible_to(req.seat))
                return Submitted(done.ok, done.message, mine)
            case "start":
                problem = t.start(req.player, req.with_bots)
                return Submitted(problem is None, problem or "")
            case "leave":
                t.leave(req.player)
            case "takeback":
                return Submitted(t.take_back(req.player))
            case "shown":
                t.prompt_shown(req.seat)
            case "here" | "away":
                t.set_connected(req.player, req.kind == "here")
        return Submitted(True)

    def _watch(self, player: str, on: bool, screen: str = "") -> bool:
        """A screen of ``player``'s on another worker began (``on``; or says again that it
        still) watches, or stopped: the table counts them as a spectator (whispers to them are
        accepted) while any does, and their own subject carries the spectators' update with
        their whispers."""
        if not valid_subject(watcher_subject(self.table.id, player)):
            return False
        screens = self._watching.setdefault(player, {})
        if on and screen in screens:
            screens[screen].heard = self.clock()  # (a renewal: nothing else changes)
            return True
        if on:
            screens[screen] = _Watching(self.table.watch(player), self.clock())
        elif screens:
            screens.pop(screen if screen in screens else next(iter(screens))).unwatch()
        self._forget_unwatched(player)
        self._changed(self.table)  # (every screen lists who watches)
        return True

    def _forget_unwatched(self, player: str) -> None:
        if not self._watching.get(player):
            self._watching.pop(player, None)
            self._sent.pop(player, None)
            self._chat_sent.pop(player, None)

    async def _forget_silent_watchers(self) -> None:
        """Every beat, forget the watching screens not heard from for a while: their worker
        died, so the table must stop listing them (and accepting whispers to them)."""
        while True:
            await asyncio.sleep(WATCH_RENEW_SECONDS)
            oldest = self.clock() - WATCH_KEPT_BEATS * WATCH_RENEW_SECONDS
            gone = False
            for player, screens in list(self._watching.items()):
                for screen, watching in list(screens.items()):
                    if watching.heard < oldest:
                        del screens[screen]
                        watching.unwatch()
                        gone = True
                self._forget_unwatched(player)
            if gone:
                self._changed(self.table)


class _Watching:
    """One watching screen on another worker, as the owner counts it."""

    __slots__ = ("heard", "unwatch")

    def __init__(self, unwatch: Callable[[], None], heard: float) -> None:
        self.unwatch, self.heard = unwatch, heard


def _order(update: SeatUpdate) -> tuple[int, int]:
    return (update.epoch, update.seq)


class TableMirror:
    """On another worker: one table as a seat (or spectator) of it may read it.

    ``view_type`` is the game's view struct (the mirror decodes the view with it). The reading
    calls match :class:`~shipwreck.runtime.table.Table`'s for the seat followed. A mirror with a
    ``player`` is that player's session at the table: it tells the owner they are here when it
    starts (and again to a new owner after a failover, whose rebuilt table thinks everyone
    away) and that they are away when it stops. A spectators' mirror with a ``watcher`` is
    that player's screen watching the table: it follows their own subject (the spectators'
    update and their whispers) and tells the owner when it starts and stops watching.
    """

    def __init__(
        self,
        bus: Bus,
        table_id: int,
        seat: Seat | None,
        view_type: type | None = None,
        player: str | None = None,
        watcher: str | None = None,
    ) -> None:
        self.bus, self.id, self.seat_followed = bus, table_id, seat
        self.view_type, self.player = view_type, player
        self.watcher = watcher if seat is None else None
        self.update: SeatUpdate | None = None
        self.events: list[Event] = []
        self.chat: list[ChatLine] = []
        """The chat lines the followed seat's player may read (a spectator: the table's)."""
        self.received_at = 0.0
        """When the latest update arrived (its clocks count down from then)."""
        self._view: object = None
        self._sub: Subscription | None = None
        self.listeners: list[Callable[[TableMirror], None]] = []
        self._screen = secrets.token_hex(6)
        """This watching screen's name to the owner (``TableRequest.screen``)."""
        self._renewing: asyncio.Task[None] | None = None
        self._moving = asyncio.Lock()
        """Held while a request waits for the table's new owner: the requests after it queue
        behind it, so lines typed while the table moves land in typed order (else requests
        go at once, side by side)."""

    async def start(self) -> None:
        """Follow the seat's subject, then catch up with a snapshot (in that order, so no
        change falls between the two)."""
        subject = (
            watcher_subject(self.id, self.watcher)
            if self.watcher is not None
            else seat_subject(self.id, self.seat_followed)
        )
        self._sub = await self.bus.subscribe(subject, self._received)
        await self.catch_up()
        if self.watcher is not None:
            self._renewing = asyncio.get_running_loop().create_task(self._renew_watch())

    async def _renew_watch(self) -> None:
        """Tell the owner, every beat, that this screen still watches (it forgets one whose
        worker has died); a failed beat is tried again at the next."""
        while True:
            await asyncio.sleep(WATCH_RENEW_SECONDS)
            try:
                await self._presence("here")
            except Exception:  # (the bus is down: the next beat tries again)
                log.debug("table %s: a watching beat failed", self.id, exc_info=True)

    async def stop(self, away: bool = True) -> None:
        """Stop following; ``away``: tell the owner the player has gone (not when another
        session of theirs on this worker still follows the seat)."""
        await stop_task(self._renewing)
        if self._sub is not None:
            await self._sub.stop()
        if away or self.watcher is not None:  # (each watching screen is counted by the owner)
            await self._presence("away")

    async def _presence(self, kind: Literal["here", "away"]) -> None:
        if self.watcher is not None:
            watch: RequestKind = "watch" if kind == "here" else "unwatch"
            req = _ENCODER.encode(TableRequest(self.watcher, None, kind=watch, screen=self._screen))
        elif self.player is None or self.seat_followed is None:
            return
        else:
            req = _ENCODER.encode(TableRequest(self.player, self.seat_followed, kind=kind))
        with contextlib.suppress(NoResponder):  # no owner now: the next one is told on arrival
            await self.bus.request(commands_subject(self.id), req)

    async def catch_up(self) -> None:
        who = SPECTATOR if self.seat_followed is None else str(self.seat_followed)
        if self.watcher is not None:
            who = f"{WATCHER}.{self.watcher}"
        try:
            data = await self.bus.request(snapshot_subject(self.id), who.encode())
        except NoResponder:
            log.warning("table %s: no owner answered for a snapshot", self.id)
            return
        if not data:
            return
        update = _DECODER.decode(data)
        new_owner = self.update is None or update.epoch != self.update.epoch
        self._apply(update, whole=True)
        if new_owner:
            await self._presence("here")

    async def _received(self, subject: str, data: bytes) -> None:
        update = _DECODER.decode(data)
        if self.update is not None and _order(update) <= _order(self.update):
            return  # older than what a snapshot already gave us
        if update.first != len(self.events) or (
            self.update is not None and update.epoch != self.update.epoch
        ):
            await self.catch_up()  # a gap, or a new owner: take the whole log again
            return
        self._apply(update, whole=False)

    def _apply(self, update: SeatUpdate, *, whole: bool) -> None:
        if self.update is not None and _order(update) < _order(self.update):
            return
        self.events = list(update.events) if whole else [*self.events, *update.events]
        if whole:
            self.chat = list(update.chat)
        elif update.chat:
            last = self.chat[-1].n if self.chat else -1
            self.chat.extend(c for c in update.chat if c.n > last)
        del self.chat[:-CHAT_KEPT]
        self.update = update
        self.received_at = time.monotonic()
        self._view = msgspec.json.decode(update.view, type=self.view_type or view_type(update.game))
        for listener in list(self.listeners):
            listener(self)

    async def submit_text(self, text: str) -> Submitted:
        """The player's line for the seat this mirror follows, sent to the table's owner."""
        seat, player = self.seat_followed, self.player
        if seat is None or player is None:
            return Submitted(False, "you are watching this table: you have no seat to play")
        return await self.ask(TableRequest(player, seat, text))

    async def ask_preview(self, text: str) -> PreviewAnswer:
        """What ``text`` would do for the seat this mirror follows, as its owner sees it."""
        if self.seat_followed is None or self.player is None:
            return PreviewAnswer(False)
        req = TableRequest(self.player, self.seat_followed, text, kind="preview")
        try:
            data = await self.bus.request(commands_subject(self.id), _ENCODER.encode(req))
        except NoResponder:
            return PreviewAnswer(False)
        return _PREVIEW.decode(data)

    async def ask(self, req: TableRequest) -> Submitted:
        """Send ``req`` to the table's owner; its answer (a refusal if no owner answers).

        While the table has no owner (its worker died; the next takes it over in a second or
        two) the request is asked again until one serves it, for up to
        :data:`MOVE_WAIT_SECONDS`: the player's line lands instead of being refused with "try
        again" (play-test, issue 21). Only a request no one received is asked again; one that
        timed out may have been played, and is not."""
        data = _ENCODER.encode(req)
        if not self._moving.locked() and (answer := await self._ask_once(data)) is not None:
            return answer
        async with self._moving:
            deadline = time.monotonic() + MOVE_WAIT_SECONDS
            while (answer := await self._ask_once(data)) is None:
                if time.monotonic() >= deadline:
                    return Submitted(False, MOVING)
                await asyncio.sleep(ASK_AGAIN_SECONDS)
            return answer

    async def _ask_once(self, data: bytes) -> Submitted | None:
        """The owner's answer to a request; ``None`` if no one serves the table now."""
        try:
            return _ANSWER.decode(await self.bus.request(commands_subject(self.id), data))
        except NoOneServes:
            return None
        except NoResponder:
            return Submitted(False, NO_ANSWER_IN_TIME)

    # ------------------------------------------------------------------ reading, as Table

    def _need(self) -> SeatUpdate:
        if self.update is None:
            raise LookupError(f"table {self.id}: no update received yet")
        return self.update

    def view(self, seat: Seat | None) -> object:
        self._check(seat)
        self._need()
        return self._view

    def log(self, seat: Seat | None) -> list[Event]:
        self._check(seat)
        return list(self.events)

    def _check(self, seat: Seat | None) -> None:
        if seat != self.seat_followed:
            raise LookupError(f"this mirror follows seat {self.seat_followed}, not {seat}")

    @property
    def seats(self) -> list[SeatInfo]:
        return list(self._need().seats)

    @property
    def over(self) -> bool:
        return self._need().over

    @property
    def started(self) -> bool:
        return self._need().started

    @property
    def game(self) -> str:
        return self._need().game

    @property
    def name(self) -> str:
        return self._need().name

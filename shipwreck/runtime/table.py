"""A live table: one game, its seats (human, bot, empty), its log, and who is watching.

Everything that changes a game goes through :meth:`Table.submit` — typed by a human, emitted
by a bot, or sent by the table's timer — so there is one door into the engine. After every
accepted command the table lets its bots answer their prompts, then tells every listener.

A table runs inside one asyncio event loop and is only touched from it, so it needs no locks:
each call runs to completion before the next begins.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Literal, Protocol

import msgspec

from shipwreck.botseat import RandomPlayer, SeatBot, answer, bot_move
from shipwreck.engine.core import (
    SYSTEM,
    ChoosesFleets,
    Event,
    IllegalCommand,
    NamesView,
    Previews,
    Prompt,
    Seat,
    visible,
)
from shipwreck.games import AnyRuleset, get_ruleset
from shipwreck.games.registry import OTHER_TIMER
from shipwreck.lang import CommandSyntaxError, format_command, parse_command
from shipwreck.lang.bots import BotError, BotPlayer, BotScript, Decision
from shipwreck.lang.commands import has_aliases
from shipwreck.lang.text import clean_text, without_rule_ids
from shipwreck.runtime.bots import BotBook

log = logging.getLogger("shipwreck.table")

SeatKind = Literal["human", "bot", "empty"]
"""``empty`` is a free seat: a stand-in bot plays it until a player sits down (LB-2).

Bot scripts are written for one game. A seat whose script is for another game (a free seat of a
Spanish Main table gets the default ``random``, a Lifeboat script) is played by the engine-level
:class:`~shipwreck.botseat.RandomPlayer` instead: a random legal answer, so such a table never
stalls."""


class SeatSpec(msgspec.Struct, frozen=True):
    """How a seat is filled when a table is created."""

    kind: SeatKind = "empty"
    bot: str = "random"
    """The bot's name (never a path) for a bot seat, and for a free seat's stand-in."""
    player: str | None = None
    """For a human seat: who sits there."""
    owner: str | None = None
    """Whose saved bot ``bot`` is; ``None`` for a shipped bot (see :mod:`.bots`)."""
    waiting: bool = False
    """The table has not started: its creator is still gathering players (``new N free``).
    Set on every seat while it waits, so that a table rebuilt after a restart waits again."""
    fleet: str = ""
    """The preset fleet this seat sails, where the game builds fleets (Spanish Main's ``new sm
    N fleet NAME``); "" for the game's default. Kept with the seats, so a rebuild deals the
    same game."""


class SeatInfo(msgspec.Struct):
    kind: SeatKind
    player: str | None = None
    bot: str | None = None
    owner: str | None = None
    """Whose saved bot plays this seat (``None``: a shipped bot)."""
    connected: bool = False
    autopilot: bool = False
    """A human seat played by a bot while its player is away or keeps missing deadlines."""
    misses: int = 0
    """Deadlines missed in a row."""
    played_for: str = ""
    """The safe default the table played for this seat when its last deadline passed (until
    the player acts again): their screen says so."""


class ChatLine(msgspec.Struct, frozen=True):
    """One line of table chat. A whisper belongs to two players, not to seats (audit F8):
    whoever takes a seat later reads none of what was whispered to or from it before."""

    sender: str
    """The player who said it."""
    text: str
    to: Seat | None = None
    """A whisper to one seat; ``None`` is the whole table (or a spectator: ``to_player``)."""
    from_seat: Seat | None = None
    """Where the sender sat (``None``: a spectator)."""
    to_player: str | None = None
    """Who sat in seat ``to`` then (``None``: a bot or nobody, so only the sender reads it);
    with ``to`` ``None``, the spectator whispered to."""
    n: int = 0
    """Its place in the table's chat (the store's key)."""
    at: float = 0.0

    @property
    def whisper(self) -> bool:
        return self.to is not None or self.to_player is not None

    def readable_by(self, viewer: str | None) -> bool:
        return not self.whisper or (viewer is not None and viewer in (self.sender, self.to_player))


class Submitted(msgspec.Struct, frozen=True):
    """The outcome of a submission: accepted (with its events) or refused (with a reason)."""

    ok: bool
    message: str = ""
    events: tuple[Event, ...] = ()


Listener = Callable[["Table"], None]
_ids = itertools.count(1)

NOT_SAVED = "the server could not save that move; try again"
"""What a player is told when the store refuses their command (the table is as before)."""
CHAT_NOT_SAVED = "the server could not save that; try again"
CHAT_KEPT = 500
"""Chat lines a table keeps in memory (all of them are in the store)."""
BOT_SLICE_SECONDS = 0.005
"""At most about this much bot work per loop turn (with a scheduler), whatever the move count."""
RETRY_SECONDS = 1.0
"""Bot work the store refused is tried again this much later, not at once (no busy loop)."""


class NotSaved(Exception):
    """The store refused a command: the table was rebuilt from the log the store holds.
    ``moved_on``: that log had moves the table had not played (another process saved them),
    so the table is not where it was."""

    def __init__(self, message: str, moved_on: bool = False) -> None:
        super().__init__(message)
        self.moved_on = moved_on


class Handle(Protocol):
    def cancel(self) -> None: ...


Schedule = Callable[[float, Callable[[], None]], Handle]
"""``schedule(delay, callback)``: run ``callback`` on a later loop turn (``delay`` seconds
from now; 0 = the next turn). Given one, a table never plays a long stretch of bot moves in
one go (security audit F4: a whole Spanish Main game froze every session for 0.8 s)."""


class LoopTurns:
    """The server's :data:`Schedule`: every table's bot slices share one budget of about
    :data:`BOT_SLICE_SECONDS` per turn of the running asyncio loop, first come first served,
    so a hundred busy tables cost the other sessions no more per turn than one.

    Its callbacks run in an empty :mod:`contextvars` context: a loop handle keeps the context
    it was made in, and that of the session whose command started the bots would keep the
    session's app alive for as long as the bots play on after it has gone."""

    def __init__(self, budget: float = BOT_SLICE_SECONDS) -> None:
        self.budget = budget
        self.ready: deque[_Slice] = deque()
        self._turn: asyncio.Handle | None = None

    def __call__(self, delay: float, callback: Callable[[], None]) -> Handle:
        job = _Slice(callback)
        if delay > 0:
            loop = asyncio.get_running_loop()
            job.timer = loop.call_later(delay, self._ready, job, context=contextvars.Context())
        else:
            self._ready(job)
        return job

    def _ready(self, job: _Slice) -> None:
        job.timer = None
        if not job.cancelled:
            self.ready.append(job)
            if self._turn is None:
                self._turn = self._next_turn()

    def _run(self) -> None:
        # `_turn` stays set while this runs: a slice that asks for more joins `ready` and
        # waits for the one next turn scheduled below (never a turn of its own).
        start = time.perf_counter()
        while self.ready and time.perf_counter() - start < self.budget:
            job = self.ready.popleft()
            if not job.cancelled:
                job.callback()
        self._turn = self._next_turn() if self.ready else None

    def _next_turn(self) -> asyncio.Handle:
        return asyncio.get_running_loop().call_soon(self._run, context=contextvars.Context())


class _Slice:
    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False
        self.timer: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        self.cancelled = True
        if self.timer is not None:
            self.timer.cancel()


class Table:
    """One game being played. See the module docstring for the rules of the road."""

    def __init__(
        self,
        game: str,
        seats: list[SeatSpec],
        seed: int,
        name: str = "",
        table_id: int | None = None,
        on_command: Callable[[Table, Seat, str], None] | None = None,
        on_seats: Callable[[Table], None] | None = None,
        saved_log: Callable[[Table], list[tuple[Seat, str]]] | None = None,
        replay: list[tuple[Seat, str]] | None = None,
        timers: dict[str, int] | None = None,
        autopilot_after: int = 2,
        autopilot_bot: Callable[[str], BotScript] | None = None,
        clock: Callable[[], float] = time.monotonic,
        book: BotBook | None = None,
        schedule: Schedule | None = None,
        bot_moves_per_turn: int = 4,
        unattended_move_seconds: float = 0.3,
        on_chat: Callable[[Table, ChatLine], None] | None = None,
        solo_timers: bool = False,
    ) -> None:
        self.id = table_id if table_id is not None else next(_ids)
        self.game = game
        self.name = name or f"table {self.id}"
        self.seed = seed
        self.rules: AnyRuleset = get_ruleset(game)
        self.fleets = [s.fleet for s in seats]
        """Each seat's chosen fleet (:attr:`SeatSpec.fleet`), for :meth:`_new_game`."""
        self.state, self.events = self._new_game(len(seats))
        self.events = list(self.events)
        self._readable: dict[Seat | None, tuple[list[Event], int, list[Event]]] = {}
        """Each seat's readable events (see :meth:`log`): the event list they were read from,
        how many of its events were read, and those the seat may read."""
        self.commands: list[tuple[Seat, str]] = []
        """The command log: (seat, canonical text). With the seed it rebuilds the game."""
        # A restored table's players are not back yet: away (shown so) until their session
        # comes (`set_connected`). Not on autopilot: a restart must not play their games.
        back = replay is None
        self.seats = [
            SeatInfo(kind="human", player=s.player, connected=back)
            if s.kind == "human" and s.player
            else SeatInfo(kind="bot" if s.kind == "bot" else "empty", bot=s.bot, owner=s.owner)
            for s in seats
        ]
        self.book = book if book is not None else BotBook()
        """Where bot seats find their scripts, by name."""
        self.bots: dict[Seat, SeatBot] = {}
        for i, info in enumerate(self.seats):
            if info.kind != "human":  # free seats are played by a bot until someone sits down
                self.bots[i] = self._named_player(info.bot or "random", info.owner, i)
        self.chat: list[ChatLine] = []
        self._chat_n = 0
        self.on_chat = on_chat
        """Called with each chat line before anyone reads it (persistence, like commands)."""
        self.listeners: list[Listener] = []
        self.watchers: dict[str, int] = {}
        """Who is watching (spectators, by name: sessions open), for a whisper to reach them."""
        self.started = not any(s.waiting for s in seats)
        """A table made with free seats waits until its host types ``start`` (or the lobby's
        ``auto_start_seconds`` pass): until then nothing is played, by a bot or anyone."""
        self.host = next((s.player for s in seats if s.kind == "human" and s.player), None)
        """Who may start the table: its creator (while they sit at it)."""
        self.created_at = clock()
        self.solo_timers = solo_timers
        """Whether a table with one human runs decision timers (off: the game waits)."""
        self.seen: set[Seat] = set()
        """Human seats whose screen has shown them the started table (`prompt_shown`): the
        clock runs only once every connected human seat is in here (`clock_waits`)."""
        self._replay(replay or ())  # a restored table: its log is the truth
        if self.commands:  # a game under way: its players have seen it before
            self.seen = {i for i, s in enumerate(self.seats) if s.kind == "human"}
        self.on_command = on_command
        """Called with each accepted command before anyone sees its effect (persistence)."""
        self.saved_log = saved_log
        """The commands the store holds for this table (read when it refuses one: the table
        goes back to them, see :meth:`_accepted`)."""
        self.on_seats = on_seats
        """Called when a player sits down or leaves, before anyone sees it (persistence: a
        rebuilt table seats its players where they sat, see `seat_specs`)."""
        self.timers = dict(timers or {})
        """Seconds a human has for each kind of decision; 0 or missing = no timer."""
        self.autopilot_after = autopilot_after
        self.autopilot_bot = autopilot_bot or (lambda _player: self.book.script("random"))
        self.clock = clock
        self.deadlines: dict[Seat, float] = {}
        self.schedule = schedule
        """Without one (``shipwreck play``, ``sim``, tests) bots answer at once, to the end of
        their stretch; with one (the server) see :meth:`_run_bots`."""
        self.bot_moves_per_turn = max(1, bot_moves_per_turn)
        self.unattended_move_seconds = unattended_move_seconds
        self._bots_pending: Handle | None = None
        self._thinking: tuple[tuple[Seat, str, int, int], Decision] | None = None
        """A bot's search under way, a slice a turn (with a scheduler): (what it answers, the
        decision); dropped if the table changes before it is done."""
        self._offers_left: set[tuple[Seat, int]] = set()
        """Offers to bot seats their bots left unanswered: (seat, commands then). Asked again
        once the game has moved on (the bot may answer differently), not at every turn."""
        self._run_bots()
        self._arm_timers()

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        return bool(self.rules.is_over(self.state))

    def view(self, seat: Seat | None) -> object:
        return self.rules.view(self.state, seat)

    def log(self, seat: Seat | None) -> list[Event]:
        """The events ``seat`` (``None`` = spectator) may read. Only the events added since
        the seat's last call are looked at: every screen at the table asks after every change,
        and filtering the whole log each time grew with the game."""
        events = self.events
        kept = self._readable.get(seat)
        if kept is None or kept[0] is not events or kept[1] > len(events):
            kept = (events, 0, [])
        _, read, readable = kept
        if read < len(events):
            readable = readable + visible(events[read:], seat)
            self._readable[seat] = (events, len(events), readable)
        return list(readable)

    def chat_for(self, viewer: str | None) -> list[ChatLine]:
        """The chat player ``viewer`` (``None``: nobody in particular) may read: the table's,
        and the whispers they sent or that were sent to them, wherever they sit now."""
        return [c for c in self.chat if c.readable_by(viewer)]

    def restore_chat(self, lines: list[ChatLine]) -> None:
        """A restored table's chat, as the store has it."""
        self.chat = lines[-CHAT_KEPT:]
        self._chat_n = lines[-1].n + 1 if lines else 0

    def preview(self, seat: Seat, cmd: object) -> object:
        """What ``cmd`` would do for ``seat`` now, without doing it, if the game can tell (a
        Spanish Main move: where it ends and what stops it). ``None`` if the game has no
        preview; raises :class:`IllegalCommand` when :meth:`submit` would refuse it."""
        if not isinstance(self.rules, Previews):
            return None
        try:
            return self.rules.preview(self.state, seat, cmd)
        except IllegalCommand as e:
            raise IllegalCommand(without_rule_ids(str(e))) from None

    def seat_name(self, seat: Seat) -> str:
        return str(self.rules.seat_name(self.state, seat))

    def seat_of_player(self, player: str) -> Seat | None:
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.player == player:
                return i
        return None

    def seat_specs(self) -> list[SeatSpec]:
        """Who sits where now, as a table would be created with it."""
        waiting = not self.started
        return [
            SeatSpec("human", player=s.player, waiting=waiting, fleet=fleet)
            if s.kind == "human"
            else SeatSpec(s.kind, s.bot or "random", owner=s.owner, waiting=waiting, fleet=fleet)
            for s, fleet in zip(self.seats, self.fleets, strict=True)
        ]

    def free_seats(self) -> list[Seat]:
        return [i for i, s in enumerate(self.seats) if s.kind == "empty"]

    def humans(self) -> list[Seat]:
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    @property
    def paused(self) -> bool:
        """The table's one player is away: nothing is played until they come back (a lone
        player's dropped connection must not cost them the game)."""
        humans = self.humans()
        if not self.started or len(humans) != 1:
            return False
        me = self.seats[humans[0]]
        return not me.connected and not me.autopilot

    @property
    def timed(self) -> bool:
        """Whether decisions have deadlines here: with several players (one player's table
        waits for them, unless the server says ``solo_timers``)."""
        return self.started and (len(self.humans()) > 1 or self.solo_timers)

    def clock_waits(self) -> bool:
        """The clock has not started: a player here has not yet been shown the game. One who
        is away does not hold it (their clock runs, as at any table of several)."""
        return any(i not in self.seen and self.seats[i].connected for i in self.humans())

    def default_text(self, seat: Seat) -> str | None:
        """What the table would play for ``seat`` if its deadline passed now, as typed."""
        cmd = self.rules.default(self.state, seat) if not self.over else None
        return format_command(cmd) if cmd is not None else None

    def summary(self) -> str:
        kinds = {"human": "H", "bot": "B", "empty": "."}
        return "".join(kinds[s.kind] for s in self.seats)

    # ------------------------------------------------------------------ changing

    def sit(self, seat: Seat, player: str) -> str | None:
        """Seat a player in an empty seat; returns why not, or None."""
        if not 0 <= seat < len(self.seats):
            return f"there is no seat {seat + 1}"
        if self.seat_of_player(player) is not None:
            return "you already have a seat at this table"
        if self.seats[seat].kind != "empty":
            return f"seat {seat + 1} is taken"
        self.seats[seat] = SeatInfo(kind="human", player=player, connected=True)
        self.bots.pop(seat, None)
        self._seats_changed()
        return None

    def start(self, player: str | None, with_bots: bool = False) -> str | None:
        """Start a table that waits for players; returns why not, or None. ``player`` is who
        typed ``start`` (``None``: the lobby's clock). Seats still free get their stand-in bot
        now; ``with_bots`` makes those bots the seats' own (nobody can join them later)."""
        problem = self.start_refusal(player)
        if problem:
            return problem
        if with_bots:
            for i in self.free_seats():
                info = self.seats[i]
                self.seats[i] = SeatInfo(kind="bot", bot=info.bot, owner=info.owner)
        self.started = True
        self._seats_changed()
        return None

    def start_refusal(self, player: str | None) -> str | None:
        """Why ``player`` may not :meth:`start` this table now, or None if they may."""
        if self.started:
            return "the table has already started"
        if player is not None:
            if self.seat_of_player(player) is None:
                return "only a player at this table can start it"
            host = self.host
            if host is not None and player != host and self.host_here():
                return f"{host} starts this table; waiting for them (once they drop, you may)"
        return None

    def waiting_for_players(self) -> frozenset[str]:
        """The players whose decision the game waits for now (each told of their own only);
        before the start, its host (who is to type ``start``)."""
        if self.over:
            return frozenset()
        if not self.started:
            here = self.host is not None and self.seat_of_player(self.host) is not None
            return frozenset({self.host}) if here and self.host is not None else frozenset()
        seats = {p.seat for p in self.rules.prompts(self.state) if p.blocking}
        return frozenset(
            s.player for i, s in enumerate(self.seats) if i in seats and s.player is not None
        )

    def host_here(self) -> bool:
        """The player who made this table is at it and connected: only they may start it.
        (Once they drop or leave, any player seated here may: a table whose host walked away
        would otherwise wait for ever.)"""
        seat = self.seat_of_player(self.host) if self.host is not None else None
        return seat is not None and self.seats[seat].connected

    def _seats_changed(self) -> None:
        """Who sits where (or whether the table has started) changed: save the seats, let the
        bots play on, arm the clocks, tell the screens."""
        if self.on_seats is not None:
            self.on_seats(self)
        self._run_bots()
        self._arm_timers()
        self._notify()

    def prompt_shown(self, seat: Seat | None) -> None:
        """A screen has shown ``seat``'s player the started table (its prompt): the clock
        runs once every connected player has been shown it (a first-timer is not timed while
        their screen is still on its way)."""
        if seat is None or not self.started or seat in self.seen:
            return
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            return
        self.seen.add(seat)
        if self.timed and not self.clock_waits():
            before = dict(self.deadlines)
            self._arm_timers()
            if self.deadlines != before:
                self._notify()

    def leave(self, player: str) -> None:
        """A player gives up the seat; a bot plays it from now on."""
        seat = self.seat_of_player(player)
        if seat is None:
            return
        self.seen.discard(seat)
        self.seats[seat] = SeatInfo(kind="empty", bot="random")
        self.bots[seat] = self._named_player("random", None, seat)
        self.deadlines.pop(seat, None)
        if self.on_seats is not None:
            self.on_seats(self)
        self._run_bots()
        self._arm_timers()
        self._notify()

    def submit_text(self, seat: Seat, text: str) -> Submitted:
        """A line typed by the player in ``seat``: parse it, then submit it. Typing anything
        at all takes the seat back from the autopilot."""
        player = self.seats[seat].player if 0 <= seat < len(self.seats) else None
        if player is not None and self.take_back(player) and text.strip() == "takeover":
            return Submitted(True, "you have your seat back")
        view = self._names_view(seat) if has_aliases(self.game) and self.started else None
        try:  # (with the seat's view: the other names of ids in play, a ship's map code)
            cmd = parse_command(self.game, text, view, check_ids=False)
        except CommandSyntaxError as e:
            return Submitted(False, str(e))
        return self.submit(seat, cmd)

    def _names_view(self, seat: Seat) -> object:
        """The seat's view to read a typed line with: without its legal commands where the
        game can leave them out (working them out is most of a Spanish Main view's cost)."""
        if isinstance(self.rules, NamesView):
            return self.rules.names_view(self.state, seat)
        return self.view(seat)

    def submit(self, seat: Seat, cmd: object) -> Submitted:
        """The one door into the engine. A refused command changes nothing."""
        if self.over:
            return Submitted(False, "the game is over")
        if not self.started:
            return Submitted(False, "the game has not started yet: waiting for its players")
        try:
            events = self.rules.apply(self.state, seat, cmd)
        except IllegalCommand as e:
            return Submitted(False, without_rule_ids(str(e)))
        try:
            self._accepted(seat, cmd, events)
        except NotSaved as e:
            if e.moved_on:  # (the store's log had moves this table had not seen: show them)
                self._run_bots()
                self._arm_timers()
                self._notify()
            return Submitted(False, NOT_SAVED)
        if 0 <= seat < len(self.seats):
            if not self._is_free(cmd):  # (a free action answers nothing: the clock runs on)
                self.deadlines.pop(seat, None)
            self.seats[seat].misses = 0
            self.seats[seat].played_for = ""
        self._run_bots()
        self._arm_timers()
        self._notify()
        return Submitted(True, "", tuple(events))

    # ------------------------------------------------------------------ timers and autopilot

    def _is_free(self, cmd: object) -> bool:
        """Is ``cmd`` a free action (``say``, an offer, a gift...), which answers no prompt?
        It must never give its player a fresh deadline, or chatting would stall the table."""
        return type(cmd) in getattr(self.rules, "free_types", frozenset())

    def deadline(self, seat: Seat | None) -> float | None:
        """Seconds left for ``seat``'s open decision, if a timer runs for it."""
        if seat is None or seat not in self.deadlines:
            return None
        return max(0.0, self.deadlines[seat] - self.clock())

    def tick(self) -> int:
        """Apply the safe default, from the system seat, to every decision past its deadline.
        Returns how many timed out. The server calls this about twice a second."""
        now, fired = self.clock(), 0
        for seat, when in sorted(self.deadlines.items()):
            if when > now or self.over or seat not in self.deadlines:
                continue
            del self.deadlines[seat]
            played = self.default_text(seat) or ""
            timeout = parse_command(self.game, f"timeout {self.seat_name(seat)}")
            try:
                events = self.rules.apply(self.state, SYSTEM, timeout)
            except IllegalCommand:
                continue  # the decision was taken meanwhile
            try:
                self._accepted(SYSTEM, timeout, events)
            except NotSaved:
                self.deadlines[seat] = when  # not applied: the next tick tries again
                continue
            fired += 1
            info = self.seats[seat]
            info.misses += 1
            info.played_for = played
            if info.kind == "human" and info.misses >= self.autopilot_after:
                self._autopilot(seat, True)
        if fired:
            self._run_bots()
            self._arm_timers()
            self._notify()
        return fired

    def set_connected(self, player: str, connected: bool) -> None:
        """A player's session came or went. Away is not autopilot: a table with one player
        pauses until they are back (:attr:`paused`); at a table of several their clock runs
        on, and missed deadlines lead to the autopilot as for anyone (docs/architecture.md).
        Coming back ends the autopilot."""
        seat = self.seat_of_player(player)
        if seat is None:
            return
        self.seats[seat].connected = connected
        if connected and self.seats[seat].autopilot:  # back: the player has the seat again
            self._autopilot(seat, False)
        self._run_bots()
        self._arm_timers()
        self._notify()

    def take_back(self, player: str) -> bool:
        """The player acts again: autopilot off. Returns whether it was on."""
        seat = self.seat_of_player(player)
        if seat is None or not self.seats[seat].autopilot:
            return False
        self._autopilot(seat, False)
        self._arm_timers()
        self._notify()
        return True

    def _autopilot(self, seat: Seat, on: bool) -> None:
        info = self.seats[seat]
        info.autopilot = on
        info.misses = 0
        if not on:
            info.played_for = ""
        if on and info.player is not None:
            script = self.autopilot_bot(info.player)
            self.bots[seat] = self._player(script, seat)
            self.deadlines.pop(seat, None)
        elif not on:
            self.bots.pop(seat, None)

    def _arm_timers(self) -> None:
        """Start a deadline for every human decision that has none; drop finished ones. No
        deadlines while the table is untimed or paused; none new until every connected player
        has been shown the game (:meth:`prompt_shown`)."""
        if not self.timed or self.paused:
            self.deadlines.clear()
            return
        arm = not self.clock_waits()
        now = self.clock()
        waiting: dict[Seat, str] = {}
        for p in self.rules.prompts(self.state):
            if p.blocking and p.seat not in self.bots and p.seat not in waiting:
                waiting[p.seat] = p.kind
        for seat in list(self.deadlines):
            if seat not in waiting:
                del self.deadlines[seat]
        for seat, kind in waiting.items():
            seconds = self.timers.get(kind, self.timers.get(OTHER_TIMER, 0))
            if arm and seconds > 0 and seat not in self.deadlines:
                self.deadlines[seat] = now + seconds

    def watch(self, player: str) -> Callable[[], None]:
        """``player`` watches this table (one more session) until the returned call. The
        screens are told when a name comes or goes (an 80x24 screen shows its chat while
        someone else may read it)."""
        self.watchers[player] = self.watchers.get(player, 0) + 1
        if self.watchers[player] == 1:
            self._notify()
        done = False

        def unwatch() -> None:
            nonlocal done
            if done:
                return
            done = True
            self.watchers[player] -= 1
            if not self.watchers[player]:
                del self.watchers[player]
                self._notify()

        return unwatch

    def say(
        self,
        sender: str,
        text: str,
        from_seat: Seat | None,
        to: Seat | None = None,
        to_watcher: str | None = None,
    ) -> str | None:
        """A line to the table, or a whisper to the seat ``to`` or to the spectator
        ``to_watcher`` (read by the two of them only)."""
        text = clean_text(text)
        if not text:
            return "say what?"
        if len(text) > 500:
            return "that is too long: at most 500 characters"
        if to is not None and not 0 <= to < len(self.seats):
            return "there is no such seat"
        if to_watcher is not None and to_watcher not in self.watchers:
            return f"{to_watcher[:32]} is not watching this table now"
        to_player = to_watcher
        if to is not None and self.seats[to].kind == "human":
            to_player = self.seats[to].player
        line = ChatLine(sender, text, to, from_seat, to_player, self._chat_n, time.time())
        if self.on_chat is not None:
            try:
                self.on_chat(self, line)  # saved before anyone reads it
            except Exception:
                log.exception("%s: could not save a chat line", self.name)
                return CHAT_NOT_SAVED
        self._chat_n += 1
        self.chat.append(line)
        del self.chat[:-CHAT_KEPT]
        self._notify()
        return None

    def subscribe(self, listener: Listener, first: bool = False) -> Callable[[], None]:
        """Call ``listener`` after each change (``first``: before those already listening)."""
        if first:
            self.listeners.insert(0, listener)
        else:
            self.listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self.listeners:
                self.listeners.remove(listener)

        return unsubscribe

    # ------------------------------------------------------------------ inside

    def _player(self, script: BotScript, seat: Seat) -> SeatBot:
        """Who plays ``seat`` for the table: the script, if it is written for this game;
        otherwise the engine's random player (no bot language for this game yet)."""
        seed = self.seed * 100 + seat
        if script.game != self.game:
            return RandomPlayer(seed=seed)
        return BotPlayer(script, seed=seed)

    def _named_player(self, name: str, owner: str | None, seat: Seat) -> SeatBot:
        """Who plays a bot seat named ``(name, owner)``. A saved bot that is gone (or no longer
        compiles after an upgrade) must not stop the table: the random player takes over."""
        try:
            return self._player(self.book.script(name, owner), seat)
        except BotError as e:
            log.warning("%s seat %d: bot %r of %s: %s", self.name, seat + 1, name, owner, e)
            return RandomPlayer(seed=self.seed * 100 + seat)

    def _accepted(self, seat: Seat, cmd: object, events: list[Event]) -> None:
        """Log a command just applied to the state: on disk (``on_command``) before anyone
        sees its effect. If the store refuses it, the table goes back to the log the store
        holds (seed plus the commands saved) and :class:`NotSaved` is raised: memory never runs
        ahead of the log, so a restart replays the game everyone saw (audit F15).

        The store's log, not the table's own commands less this one: they differ when another
        process saved moves of this table meanwhile (two owners for a moment, when a lease ran
        out under load). Then every later save here failed too (its place in the log was taken)
        and the table was stuck; going back to the store's log, it plays on from there."""
        text = format_command(cmd)
        self.commands.append((seat, text))
        if self.on_command is not None:
            try:
                self.on_command(self, seat, text)
            except Exception as e:
                log.exception("%s: could not save %r; rebuilding from the log", self.name, text)
                stored = self._stored_commands()
                moved_on = stored != self.commands[:-1]
                self._rebuild(stored)
                raise NotSaved(str(e), moved_on=moved_on) from e
        self.events.extend(events)

    def _stored_commands(self) -> list[tuple[Seat, str]]:
        """The commands the store holds (this table's own, less the one it just refused, if
        the store cannot be read either)."""
        if self.saved_log is not None:
            try:
                return self.saved_log(self)
            except Exception:
                log.exception("%s: could not read the saved log", self.name)
        return self.commands[:-1]

    def _new_game(self, seats: int) -> tuple[object, list[Event]]:
        """The game's start, dealt from the seed (a tutorial starts from a fixed position)."""
        if any(self.fleets) and isinstance(self.rules, ChoosesFleets):
            options = self.rules.fleet_options(seats, self.fleets)
            state, events = self.rules.new_game(self.seed, seats, options)
        else:
            state, events = self.rules.new_game(self.seed, seats)
        return state, list(events)

    def _replay(self, commands: Iterable[tuple[Seat, str]]) -> None:
        for seat, text in commands:
            events = self.rules.apply(self.state, seat, parse_command(self.game, text))
            self.commands.append((seat, text))
            self.events.extend(events)

    def _rebuild(self, commands: list[tuple[Seat, str]]) -> None:
        """The game from the seed and ``commands`` alone (the saved log)."""
        self.state, events = self._new_game(len(self.seats))
        self.events, self.commands = list(events), []
        self._replay(commands)

    # ------------------------------------------------------------------ bots

    def _run_bots(self) -> None:
        """Let bot seats answer their prompts until a human must act (or the game ends).

        Without a scheduler, all at once. With one (the server, where every session shares
        the loop), at most ``bot_moves_per_turn`` moves (and about :data:`BOT_SLICE_SECONDS`)
        now and the same again on each later loop turn; and a table nobody is playing at (its
        humans away or on autopilot) makes one move every ``unattended_move_seconds``, so
        spectators can follow it. The moves are the same either way: only when they are made
        changes. A human's command that comes in between is applied then, in the order typed,
        and is in the log where it was applied."""
        if self.schedule is None:
            if self._bot_moves(100_000):
                raise RuntimeError(f"table {self.id}: bots did not settle")
            return
        if self._bots_pending is not None:
            return  # a slice is already on its way
        more = self._bot_moves(self.bot_moves_per_turn) if self._attended() else True
        if more:
            self._bots_later()

    def _bots_later(self, delay: float | None = None) -> None:
        if self.schedule is None or self._bots_pending is not None or self._bot_prompt() is None:
            return
        if delay is None:
            busy = self._attended() or self._thinking is not None  # a search thinks on at once
            delay = 0.0 if busy else self.unattended_move_seconds
        self._bots_pending = self.schedule(delay, self._bots_turn)

    def _bots_turn(self) -> None:
        """One scheduled slice of bot work (see :meth:`_run_bots`)."""
        self._bots_pending = None
        try:
            before = len(self.commands)
            limit = self.bot_moves_per_turn if self._attended() else 1
            try:
                self._bot_moves(limit, raise_not_saved=True)
            except NotSaved as e:
                if e.moved_on:  # (see submit)
                    self._arm_timers()
                    self._notify()
                self._bots_later(RETRY_SECONDS)
                return
            if len(self.commands) != before:
                self._arm_timers()
                self._notify()
            self._bots_later()
        except Exception:  # a callback on the shared loop: log it, never raise into the loop
            log.exception("%s: bot turn failed", self.name)

    def close(self) -> None:
        """Stop any bot work still scheduled (the server is stopping)."""
        if self._bots_pending is not None:
            self._bots_pending.cancel()
            self._bots_pending = None

    def _attended(self) -> bool:
        """Someone is playing here now (connected, not on autopilot)."""
        return any(s.kind == "human" and s.connected and not s.autopilot for s in self.seats)

    def _bot_prompt(self) -> Prompt | None:
        """The first open decision a bot must take now, if any."""
        if self.over or not any(s.kind == "human" for s in self.seats):
            return None  # nobody to play for yet: the table waits for its first player
        if not self.started or self.paused:
            return None  # (a bot never plays a free seat before the start)
        prompts = self.rules.prompts(self.state)
        blocking = (p for p in prompts if p.blocking and p.seat in self.bots)
        n = len(self.commands)  # then an offer to a bot, which its `on offer:` answers
        offers = (
            p
            for p in prompts
            if not p.blocking and p.seat in self.bots and (p.seat, n) not in self._offers_left
        )
        return next(blocking, None) or next(offers, None)

    def _bot_moves(self, limit: int, raise_not_saved: bool = False) -> bool:
        """Up to ``limit`` bot moves (fewer once a slice's time is used up, with a scheduler).
        Returns whether a bot still has a decision to take."""
        start = time.perf_counter()
        for _ in range(limit):
            prompt = self._bot_prompt()
            if prompt is None:
                return False
            seat = prompt.seat
            if self.schedule is None:
                cmd, events = bot_move(self.rules, self.state, seat, prompt.kind, self.bots[seat])
            else:
                moved = self._bot_think(seat, prompt.kind, start + BOT_SLICE_SECONDS)
                if moved is None:
                    return True  # still thinking: the next slice goes on
                cmd, events = moved
            if cmd is None:
                if prompt.blocking:
                    return False
                n = len(self.commands)  # left open (safe); the older ones are moot
                self._offers_left = {k for k in self._offers_left if k[1] == n} | {(seat, n)}
                continue
            try:
                self._accepted(seat, cmd, events)
            except NotSaved:
                if raise_not_saved:
                    raise
                self._bots_later(RETRY_SECONDS)  # the bots wait; later or the next event
                return False
            if self.schedule is not None and time.perf_counter() - start > BOT_SLICE_SECONDS:
                break
        return self._bot_prompt() is not None

    def _bot_think(
        self, seat: Seat, kind: str, deadline: float
    ) -> tuple[object | None, list[Event]] | None:
        """A bot's move, thought a slice at a time: a script's ``search`` runs its playouts
        until ``deadline`` and goes on in the next slice (None: not done yet). A search whose
        table changed meanwhile (a command, another bot) is dropped and begun again."""
        bot = self.bots[seat]
        key = (seat, kind, len(self.commands), id(bot))
        if self._thinking is not None and self._thinking[0] == key:
            decision = self._thinking[1]
        else:
            if self._thinking is not None:
                self._thinking[1].entry.note = "the table changed while it thought; thinks again"
            decision = bot.decide(self.view(seat), kind, defer=True)
        thinking = decision.thinking
        if thinking is not None:
            thinking.run_until(deadline)
            if not thinking.finished:
                self._thinking = (key, decision)
                return None
            decision.conclude()
        self._thinking = None
        return answer(self.rules, self.state, seat, kind, bot, decision)

    def _notify(self) -> None:
        for listener in list(self.listeners):
            try:
                listener(self)
            except Exception:  # one broken screen must not stop the table (nor go unsaid)
                log.exception("%s: a listener failed and no longer follows the table", self.name)
                self.listeners.remove(listener)

"""The lobby: every table on this server, the lobby chat, and who is looking.

The Textual app talks to a :class:`Lobby` and its :class:`~shipwreck.runtime.table.Table`s,
never to SSH: the same lobby serves ``shipwreck serve`` and ``shipwreck play``.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict

import msgspec

from shipwreck.engine.core import Seat
from shipwreck.games import get_ruleset, title
from shipwreck.lang.bots import BotError, BotScript
from shipwreck.lang.text import clean_text
from shipwreck.runtime.bots import BotBook
from shipwreck.runtime.table import ChatLine, Schedule, SeatSpec, Table
from shipwreck.runtime.tutorial import TutorialError, TutorialTable, load_script
from shipwreck.store import Store
from shipwreck.store.db import ChatRow

if TYPE_CHECKING:
    from shipwreck.runtime.remote_table import RemoteTables

log = logging.getLogger("shipwreck.lobby")


class Pacing(TypedDict):
    """How a lobby's tables pace their bots (:class:`Table`'s keywords of the same names)."""

    schedule: Schedule | None
    bot_moves_per_turn: int
    unattended_move_seconds: float


class TableOptions(Pacing):
    """The keywords every table a lobby makes is given (its persistence hooks, clocks, bots)."""

    on_command: Callable[[Table, Seat, str], None]
    on_seats: Callable[[Table], None]
    saved_log: Callable[[Table], list[tuple[Seat, str]]]
    on_chat: Callable[[Table, ChatLine], None]
    timers: dict[str, int]
    autopilot_after: int
    autopilot_bot: Callable[[str], BotScript]
    solo_timers: bool
    clock: Callable[[], float]
    book: BotBook


class LobbyChat(msgspec.Struct, frozen=True):
    sender: str
    text: str


class TableCreateError(ValueError):
    """A table that cannot be made (seat count, unknown bot script)."""


Listener = Callable[["Lobby"], None]
Row = tuple[str, ...]
"""One table in the lobby's list: id, game, seats, round, status, players."""


class Lobby:
    def __init__(
        self,
        default_bot: str = "random",
        seed: int | None = None,
        timers: dict[str, int] | None = None,
        autopilot_after: int = 2,
        clock: Callable[[], float] = time.monotonic,
        open_tables_per_player: int = 5,
        new_tables_per_minute: int = 6,
        keep_finished_seconds: float = 600.0,
        schedule: Schedule | None = None,
        bot_moves_per_turn: int = 4,
        unattended_move_seconds: float = 0.3,
        solo_timers: bool = False,
        auto_start_seconds: float = 0.0,
    ) -> None:
        self.tables: dict[int, Table] = {}
        self.chat: list[LobbyChat] = []
        self.listeners: list[Listener] = []
        self._turn_listeners: dict[str, list[Listener]] = {}
        self._waits: dict[int, frozenset[str]] = {}
        """Each table's players its game waited for when it last changed."""
        self.default_bot = default_bot
        self.timers = dict(timers or {})
        self.autopilot_after = autopilot_after
        self.solo_timers = solo_timers
        """Whether a table with one player has decision timers (by default it waits)."""
        self.auto_start_seconds = auto_start_seconds
        """A table waiting for players starts by itself this long after it was made (0: only
        when its host types ``start``)."""
        self.clock = clock
        self.pacing: Pacing = {
            "schedule": schedule,
            "bot_moves_per_turn": bot_moves_per_turn,
            "unattended_move_seconds": unattended_move_seconds,
        }
        """How tables pace their bots (see `Table._run_bots`); the server gives a schedule."""
        self.controllers: dict[tuple[int, str], object] = {}
        self._on_lost: dict[tuple[int, str], Callable[[], None]] = {}
        """How each controlling session hears that a session on another worker took its seat."""
        self.hide_new_tables = False
        """A new table's row stays out of the store's list until :meth:`Leaseholder.claim_new`
        shows it (workers: see :mod:`shipwreck.runtime.ownership`)."""
        self.on_claim: Callable[[int, str], None] | None = None
        """Told when a session here takes a player's seat (the other workers hear of it)."""
        """(table, player) -> the session that plays that seat now: never two at once."""
        self.book = BotBook()
        """Bots by name: shipped ones, and players' saved ones once a store is attached."""
        self.open_tables_per_player = open_tables_per_player
        self.new_tables_per_minute = new_tables_per_minute
        self.keep_finished_seconds = keep_finished_seconds
        """A finished table leaves memory this long after its end (its log stays on disk)."""
        self._created: dict[str, list[float]] = {}
        self._finished_at: dict[int, float] = {}
        self.broken: dict[int, str] = {}
        """Tables that could not be restored or whose timer failed: id -> why (logged)."""
        self._rng = random.Random(seed)
        self._next_id = 1
        self.store: Store | None = None
        self.version = 0
        """Counts the changes the lobby's watchers were told of (see :meth:`listing`)."""
        self._listing: tuple[int, list[Row]] = (-1, [])
        self._tutorials: dict[str, str | None] = {}
        """The listed tutorials' owners, by table id (as listed)."""
        self._listed: dict[int, Row] = {}
        self.remote_rows: Callable[[], list[Row]] | None = None
        """Other workers' tables, when several share the lobby (runtime/lobby_link.py)."""
        self.on_say: Callable[[LobbyChat], None] | None = None
        """Told of each lobby chat line said here (the link sends it to the other workers)."""
        self.on_created: Callable[[Table], None] | None = None
        """Told of each table made here, at once (a worker claims it: runtime/ownership.py)."""
        self.remote_tables: RemoteTables | None = None
        """How a screen here follows a table another worker owns (runtime/remote_table.py)."""
        self.on_turns: Callable[[str], None] | None = None
        """Told of each player whose turn came or went at a table here (the link tells the
        worker where they are)."""
        self.on_turn_watch: Callable[[str, bool], None] | None = None
        """Told when a player's screens begin (``True``) or stop following their turns here."""
        self.remote_turns: Callable[[str], frozenset[int]] | None = None
        """The other workers' tables where the game waits for a player."""

    def create_table(
        self,
        game: str,
        seats: list[SeatSpec],
        creator: str | None = None,
        seed: int | None = None,
        gather: bool = False,
    ) -> Table:
        """A new table; the creator (if any) takes the first human seat. With ``gather`` (the
        lobby's ``new``) a table with free seats waits for players until its creator starts it
        (:meth:`Table.start`, or ``auto_start_seconds``)."""
        try:
            rules = get_ruleset(game)
        except KeyError as e:
            raise TableCreateError(str(e.args[0])) from None
        if not rules.min_seats <= len(seats) <= rules.max_seats:
            raise TableCreateError(f"{game} is for {rules.min_seats}-{rules.max_seats} seats")
        if creator is not None:
            self._check_caps(creator)
        named: list[SeatSpec] = []
        for s in seats:
            if s.kind != "bot":  # a free seat's stand-in: the default (any game's tables)
                named.append(SeatSpec("empty", "random"))
                continue
            try:  # a word the player typed: a bot's name, never a path
                name, owner = self.book.resolve(s.bot, creator, game)
            except BotError as e:
                raise TableCreateError(str(e)) from None
            named.append(SeatSpec(s.kind, name, owner=owner))
        humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        specs = [
            msgspec.structs.replace(n, fleet=s.fleet) for n, s in zip(named, seats, strict=True)
        ]
        if creator is not None and humans:  # the creator sits in the first human seat
            specs[humans[0]] = SeatSpec("human", player=creator, fleet=seats[humans[0]].fleet)
        seed = seed if seed is not None else self._rng.randrange(1 << 31)
        if gather and creator is not None and any(s.kind == "empty" for s in specs):
            specs = [msgspec.structs.replace(s, waiting=True) for s in specs]
        table_id = self._next_id
        if self.store is not None:  # the table exists on disk before its first command
            seats_json = msgspec.json.encode(specs).decode()
            table_id = self.store.new_table(game, seed, seats_json, hidden=self.hide_new_tables)
        table = Table(game, specs, seed, table_id=table_id, **self._table_options())
        self._next_id = max(self._next_id, table_id) + 1
        self.tables[table.id] = table
        table.subscribe(self._table_changed)
        if self.on_created is not None:
            self.on_created(table)
        if creator is not None:
            self._created.setdefault(creator, []).append(self.clock())
        self._notify()
        return table

    def create_tutorial(self, name: str, player: str) -> Table:
        """A tutorial table for ``player`` (:mod:`.tutorial`): no timers, not saved, not one of
        the player's open tables. A player has one tutorial at a time: a new one replaces it."""
        try:
            script = load_script(name)
        except TutorialError as e:
            raise TableCreateError(str(e)) from None
        self._check_rate(player)
        for old in [t for t in self.tables.values() if isinstance(t, TutorialTable)]:
            if old.seat_of_player(player) is not None:
                del self.tables[old.id]
                self._finished_at.pop(old.id, None)
        table_id = self.store.reserve_id() if self.store is not None else self._next_id
        table = TutorialTable(script, player, table_id=table_id, book=self.book)
        self._next_id = max(self._next_id, table_id) + 1
        self.tables[table.id] = table
        self._created.setdefault(player, []).append(self.clock())
        table.subscribe(self._table_changed)
        self._notify()
        return table

    def check_creator(self, creator: str) -> None:
        """:class:`TableCreateError` (one line) if ``creator`` may not make a table now: asked
        before a screen has the player complete a table's seats (a fleet to build), so that
        the work is not refused at the end."""
        self._check_caps(creator)

    def _check_caps(self, creator: str) -> None:
        """What one player may create: a few unfinished tables, a few new ones a minute."""
        mine = [t for t in self.seats_of(creator) if not isinstance(t, TutorialTable)]
        if len(mine) >= self.open_tables_per_player:
            ids = ", ".join(str(t.id) for t in mine)
            raise TableCreateError(
                f"you already play at {len(mine)} unfinished tables ({ids}); finish one, "
                f"or 'open ID' and 'leave' it, before starting another"
            )
        self._check_rate(creator)

    def _check_rate(self, creator: str) -> None:
        """A few new tables a minute, tutorials included (each builds a table and a screen)."""
        now = self.clock()
        recent = [t for t in self._created.get(creator, []) if now - t < 60.0]
        self._created[creator] = recent
        if len(recent) >= self.new_tables_per_minute:
            wait = int(60.0 - (now - recent[0])) + 1
            raise TableCreateError(
                f"at most {self.new_tables_per_minute} new tables a minute; try again in {wait} s"
            )

    def _persist(self, table: Table, seat: int, text: str) -> None:
        """Commit each accepted command before anyone sees its effect."""
        if self.store is not None:
            self.store.append(table.id, len(table.commands) - 1, seat, text, over=table.over)
            if table.over:
                self._rate(table)

    def _rate(self, table: Table) -> None:
        """A finished game updates its players' and bots' ratings (:mod:`.ladder`). The game
        is already on disk: a rating that cannot be stored is logged, not raised into it."""
        from shipwreck.runtime.ladder import rate_finished

        assert self.store is not None
        try:
            rate_finished(self.store.ratings, table)
        except Exception:
            log.exception("table %s: its ratings could not be stored", table.id)

    def _saved_log(self, table: Table) -> list[tuple[Seat, str]]:
        """The commands the store holds for ``table`` (without a store nothing refuses one:
        the table's own)."""
        return self.store.commands(table.id) if self.store is not None else table.commands[:-1]

    def _persist_seats(self, table: Table) -> None:
        """A player sat down or left: a rebuild must seat them as they are now."""
        if self.store is not None:
            self.store.set_seats(table.id, msgspec.json.encode(table.seat_specs()).decode())

    def _persist_chat(self, table: Table, line: ChatLine) -> None:
        """Table chat and whispers are kept with the game (a restart loses none)."""
        if self.store is not None:
            row = ChatRow(
                line.n, line.sender, line.to_player, line.from_seat, line.to, line.text, line.at
            )
            self.store.add_chat(table.id, row)

    def _stored_chat(self, store: Store, table_id: int) -> list[ChatLine]:
        return [
            ChatLine(r.sender, r.text, r.to_seat, r.from_seat, r.to_player, r.n, r.at)
            for r in store.chat(table_id)
        ]

    def attach_store(self, store: Store, *, restore: bool = True) -> int:
        """Persist to ``store`` from now on, and (``restore``) rebuild every unfinished table
        from its log. Returns how many tables were restored. A worker among several restores
        only the tables it owns (:mod:`shipwreck.runtime.ownership`), so it passes ``False``."""
        self.store = store
        self.book.store = store
        restored = 0
        if restore:
            for table_id, game, seed, seats_json in store.tables(unfinished_only=True):
                if self.restore_table(table_id, game, seed, seats_json) is not None:
                    restored += 1
        ids = [t[0] for t in store.tables()]
        self._next_id = max(ids, default=0) + 1  # (the store gives ids from now on)
        return restored

    def restore_table(self, table_id: int, game: str, seed: int, seats_json: str) -> Table | None:
        """Rebuild one table from the store's log and list it. A table that no longer rebuilds
        is set aside in :attr:`broken` (logged; its log is kept) and ``None`` returned: one bad
        table must not keep the others (or the server) down."""
        store = self.store
        assert store is not None, "attach a store first"
        try:
            specs = msgspec.json.decode(seats_json, type=list[SeatSpec])
            table = Table(
                game,
                specs,
                seed,
                table_id=table_id,
                replay=store.commands(table_id),
                **self._table_options(),
            )
            table.restore_chat(self._stored_chat(store, table_id))
        except Exception as e:
            self.broken[table_id] = f"{type(e).__name__}: {e}"
            log.exception("table %d could not be restored; set aside (its log is kept)", table_id)
            return None
        self.tables[table_id] = table
        table.subscribe(self._table_changed)
        self._notify()
        return table

    def drop_table(self, table_id: int) -> None:
        """Forget a table without ending it: another worker owns it now (its log stays)."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.close()
            self._notify()

    def _table_options(self) -> TableOptions:
        return {
            "on_command": self._persist,
            "on_seats": self._persist_seats,
            "saved_log": self._saved_log,
            "on_chat": self._persist_chat,
            "timers": self.timers,
            "autopilot_after": self.autopilot_after,
            "autopilot_bot": self._autopilot_script,
            "solo_timers": self.solo_timers,
            "clock": self.clock,
            "book": self.book,
            **self.pacing,
        }

    def _autopilot_script(self, player: str) -> BotScript:
        """The player's saved bot ``autopilot`` if it loads (and is ready), else the server's
        default bot."""
        if self.store is not None and self.store.bot(player, "autopilot") is not None:
            try:
                return self.book.script("autopilot", player)
            except BotError:
                pass
        return self.book.script(self.default_bot)

    def tick(self) -> int:
        """Time out overdue decisions at every table (the server calls this periodically), and
        let finished tables leave memory. A table whose timer fails is logged once and skipped;
        the clock goes on for the others."""
        fired, now = 0, self.clock()
        for table in list(self.tables.values()):
            if table.over:
                self._forget_when_done(table, now)
                continue
            if table.id in self.broken:
                continue
            try:
                if self._start_due(table, now):
                    table.start(None)
                fired += table.tick()
            except Exception as e:
                self.broken[table.id] = f"{type(e).__name__}: {e}"
                log.exception("table %d: its timer failed; its clock is stopped", table.id)
        return fired

    def _start_due(self, table: Table, now: float) -> bool:
        wait = self.auto_start_seconds
        return not table.started and wait > 0 and now - table.created_at >= wait

    def _forget_when_done(self, table: Table, now: float) -> None:
        """A finished table stays in memory ``keep_finished_seconds`` for its end screen and
        who watches, then leaves (its seed and log stay in the store, for replays)."""
        ended = self._finished_at.setdefault(table.id, now)
        if now - ended >= self.keep_finished_seconds:
            del self.tables[table.id]
            del self._finished_at[table.id]
            self._notify()

    def close(self) -> None:
        """Stop every table's scheduled bot work (the server is stopping)."""
        for table in self.tables.values():
            table.close()

    def claim(
        self,
        table_id: int,
        player: str,
        session: object,
        on_lost: Callable[[], None] | None = None,
    ) -> object | None:
        """``session`` now controls ``player``'s seat; returns the session it took it from.
        ``on_lost``: called if a session on another worker takes the seat from it."""
        previous = self.controllers.get((table_id, player))
        self.controllers[(table_id, player)] = session
        self._on_lost.pop((table_id, player), None)
        if on_lost is not None:
            self._on_lost[(table_id, player)] = on_lost
        if self.on_claim is not None:
            self.on_claim(table_id, player)
        return previous if previous is not session else None

    def claimed_elsewhere(self, table_id: int, player: str) -> bool:
        """A session on another worker took ``player``'s seat: the session here that
        controlled it is told, and controls it no more. Whether there was one."""
        if self.controllers.pop((table_id, player), None) is None:
            return False
        on_lost = self._on_lost.pop((table_id, player), None)
        if on_lost is not None:
            on_lost()
        return True

    def release(self, session: object) -> list[tuple[int, str]]:
        """Forget every seat ``session`` controls; returns them."""
        mine = [k for k, v in self.controllers.items() if v is session]
        for k in mine:
            del self.controllers[k]
            self._on_lost.pop(k, None)
        return mine

    def release_one(self, table_id: int, player: str, session: object) -> None:
        if self.controllers.get((table_id, player)) is session:
            del self.controllers[(table_id, player)]
            self._on_lost.pop((table_id, player), None)

    def seats_of(self, player: str) -> list[Table]:
        """Unfinished tables where ``player`` has a seat."""
        return [
            t for t in self.tables.values() if not t.over and t.seat_of_player(player) is not None
        ]

    def get(self, table_id: int) -> Table | None:
        return self.tables.get(table_id)

    def say(self, sender: str, text: str) -> str | None:
        text = clean_text(text)
        if not text:
            return "say what?"
        if len(text) > 500:
            return "that is too long: at most 500 characters"
        line = LobbyChat(sender, text)
        self.hear(line)
        if self.on_say is not None:
            self.on_say(line)
        return None

    def hear(self, line: LobbyChat) -> None:
        """A lobby chat line, said here or on another worker."""
        self.chat.append(line)
        del self.chat[:-200]
        self._notify()

    def remote_changed(self) -> None:
        """Another worker's tables changed: the list is made again."""
        self._notify()

    @staticmethod
    def row(table: Table) -> Row:
        """``table`` as the lobby lists it."""
        if table.over:
            status = "over"
        elif not table.started and not any(s.player for s in table.seats):
            status = "empty"  # everyone left before it started: nobody will start it
        elif not table.started:
            status = "waiting"  # for players: its host starts it
        elif table.paused:
            status = "paused"  # its one player is away
        else:
            status = "open" if table.free_seats() else "running"
        away = {"paused": " (away)"}.get(status, "")
        players = ", ".join(s.player + away for s in table.seats if s.player) or "-"
        game = title(table.game)
        if isinstance(table, TutorialTable):
            game += " tutorial"
        rnd = getattr(table.state, "round", "-")  # (every game's state counts rounds)
        return (str(table.id), game, table.summary(), str(rnd), status, players)

    def listing(self) -> list[Row]:
        """Every table's row, worked out once per change however many sessions show it (the
        same list each time until the lobby changes again)."""
        if self._listing[0] != self.version:
            rows = [self.row(t) for t in self.tables.values()]
            self._listed = {int(r[0]): r for r in rows}
            self._tutorials = {
                str(t.id): t.owner for t in self.tables.values() if isinstance(t, TutorialTable)
            }
            if self.remote_rows is not None:
                rows = sorted([*rows, *self.remote_rows()], key=lambda r: int(r[0]))
            self._listing = (self.version, rows)
        return self._listing[1]

    def elsewhere(self, table_id: int) -> bool:
        """Is ``table_id`` listed by another worker (not held in this process)?"""
        if table_id in self.tables or self.remote_rows is None:
            return False
        return any(r[0] == str(table_id) for r in self.remote_rows())

    def unlisted_seat(self, player: str) -> int | None:
        """The last unfinished table in the store where ``player`` sits that no worker lists:
        its worker died, and no other has taken it over yet (``None`` without a store, or
        outside a cluster, where every unfinished table is rebuilt before anyone signs in)."""
        if self.store is None or self.remote_rows is None:
            return None
        listed = {int(r[0]) for r in self.listing()}
        for table_id, _game, _seed, seats_json in reversed(self.store.tables(unfinished_only=True)):
            if table_id in listed or table_id in self.broken:
                continue
            specs = msgspec.json.decode(seats_json, type=list[SeatSpec])
            if any(s.player == player for s in specs):
                return table_id
        return None

    def own_listing(self, public_only: bool = False) -> list[Row]:
        """The rows of the tables this process holds (``public_only``: not the tutorials,
        which are each one player's)."""
        return [
            self.row(t)
            for t in self.tables.values()
            if not (public_only and isinstance(t, TutorialTable))
        ]

    def listing_for(self, player: str) -> list[Row]:
        """The rows ``player`` sees: :meth:`listing` without other players' tutorials (each
        is one player's, private)."""
        rows = self.listing()
        if not self._tutorials:
            return rows
        return [r for r in rows if self._tutorials.get(r[0], player) == player]

    def entry_refusal(self, table: Table, player: str) -> str | None:
        """Why ``player`` may not join or watch ``table`` (another player's tutorial), or
        None."""
        if isinstance(table, TutorialTable) and table.owner != player:
            return (
                f"table {table.id} is another player's tutorial, and private; "
                "'new tutorial' starts one of your own"
            )
        return None

    def _table_changed(self, table: Table) -> None:
        """A table changed. Its watchers are told by the table; the lobby's only if its row
        changed: most changes are moves inside a game, and each change told to the lobby
        repaints every session in it. A player whose turn came or went there is told alone
        (:meth:`subscribe_turns`: their lobby marks the tables waiting for them)."""
        if self._drop_done_tutorial(table):
            return
        if self._listed.get(table.id) != self.row(table):
            self._notify()
        waits = table.waiting_for_players()
        before = self._waits.get(table.id, frozenset())
        if waits != before:
            if waits:
                self._waits[table.id] = waits
            else:  # (a finished table keeps no entry: finished tables leave memory)
                self._waits.pop(table.id, None)
            for player in waits ^ before:
                if self.on_turns is not None:
                    self.on_turns(player)
                self.turns_heard(player)

    def _drop_done_tutorial(self, table: Table) -> bool:
        """A tutorial is one player's and is never saved: once its game is over or its player
        has left it, nobody can come back to it, so it leaves memory at once (its player's
        screen keeps what it shows until they go). Returns whether ``table`` is such a one."""
        if not isinstance(table, TutorialTable) or not (table.over or table.owner is None):
            return False
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._finished_at.pop(table.id, None)
            self._waits.pop(table.id, None)
            table.close()  # (a seat left to a bot: it plays no more)
            self._notify()
        return True

    def waits_for(self, player: str) -> list[Table]:
        """``player``'s unfinished tables where the game waits for their decision."""
        return [t for t in self.seats_of(player) if player in t.waiting_for_players()]

    def subscribe_turns(self, player: str, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` whenever a game's wait for ``player`` begins or ends."""
        listeners = self._turn_listeners.setdefault(player, [])
        listeners.append(listener)
        if len(listeners) == 1 and self.on_turn_watch is not None:
            self.on_turn_watch(player, True)

        def unsubscribe() -> None:
            if listener not in listeners:  # (called again: a later list is not this one's)
                return
            listeners.remove(listener)
            if not listeners and self._turn_listeners.get(player) is listeners:
                del self._turn_listeners[player]
                if self.on_turn_watch is not None:
                    self.on_turn_watch(player, False)

        return unsubscribe

    def turn_ids(self, player: str) -> frozenset[int]:
        """The ids of the tables, here or on another worker, that wait for ``player``."""
        here = frozenset(t.id for t in self.waits_for(player))
        return here | self.remote_turns(player) if self.remote_turns is not None else here

    def turns_heard(self, player: str) -> None:
        """A game's wait for ``player`` began or ended (here, or another worker says so): tell
        their screens."""
        for listener in list(self._turn_listeners.get(player, ())):
            try:
                listener(self)
            except Exception:  # a broken screen must not stop the table's change
                log.exception("a lobby screen could not be told of a turn")

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self.listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self.listeners:
                self.listeners.remove(listener)

        return unsubscribe

    def _notify(self) -> None:
        self.version += 1
        for listener in list(self.listeners):
            try:
                listener(self)
            except Exception:  # a broken screen must not stop the lobby
                self.listeners.remove(listener)

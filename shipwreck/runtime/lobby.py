"""The lobby: every table on this server, the lobby chat, and who is looking.

The Textual app talks to a :class:`Lobby` and its :class:`~shipwreck.runtime.table.Table`s,
never to SSH: the same lobby serves ``shipwreck serve`` and ``shipwreck play``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import msgspec

from shipwreck.games import get_ruleset
from shipwreck.lang.bots import BotError, BotScript, load_bot, load_source
from shipwreck.runtime.table import ChatLine, Schedule, SeatSpec, Table
from shipwreck.store import Store
from shipwreck.store.db import ChatRow


class LobbyChat(msgspec.Struct, frozen=True):
    sender: str
    text: str


class TableCreateError(ValueError):
    """A table that cannot be made (seat count, unknown bot script)."""


Listener = Callable[["Lobby"], None]


class Lobby:
    def __init__(
        self,
        default_bot: str = "random",
        seed: int | None = None,
        timers: dict[str, int] | None = None,
        autopilot_after: int = 2,
        clock: Callable[[], float] = time.monotonic,
        schedule: Schedule | None = None,
        bot_moves_per_turn: int = 4,
        unattended_move_seconds: float = 0.3,
    ) -> None:
        self.tables: dict[int, Table] = {}
        self.chat: list[LobbyChat] = []
        self.listeners: list[Listener] = []
        self.default_bot = default_bot
        self.timers = dict(timers or {})
        self.autopilot_after = autopilot_after
        self.clock = clock
        self.pacing: dict[str, Any] = {
            "schedule": schedule,
            "bot_moves_per_turn": bot_moves_per_turn,
            "unattended_move_seconds": unattended_move_seconds,
        }
        """How tables pace their bots (see `Table._run_bots`); the server gives a schedule."""
        self.controllers: dict[tuple[int, str], object] = {}
        """(table, player) -> the session that plays that seat now: never two at once."""
        self.saved_bot: Callable[[str], str | None] = lambda _player: None
        """The source of a player's own saved autopilot script, if any (set by the server)."""
        self._rng = random.Random(seed)
        self._next_id = 1
        self.store: Store | None = None

    def create_table(
        self, game: str, seats: list[SeatSpec], creator: str | None = None, seed: int | None = None
    ) -> Table:
        """A new table; the creator (if any) takes the first human seat."""
        try:
            rules = get_ruleset(game)
        except KeyError as e:
            raise TableCreateError(str(e.args[0])) from None
        if not rules.min_seats <= len(seats) <= rules.max_seats:
            raise TableCreateError(f"{game} is for {rules.min_seats}-{rules.max_seats} seats")
        for s in seats:
            if s.kind != "human":
                try:
                    load_bot(s.bot)
                except BotError as e:
                    raise TableCreateError(f"bot {s.bot!r}: {e}") from None
        humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        specs = [SeatSpec("empty", s.bot) if s.kind == "human" else s for s in seats]
        if creator is not None and humans:  # the creator sits in the first human seat
            specs[humans[0]] = SeatSpec("human", player=creator)
        seed = seed if seed is not None else self._rng.randrange(1 << 31)
        if self.store is not None:  # the table exists on disk before its first command
            self.store.create_table(self._next_id, game, seed, msgspec.json.encode(specs).decode())
        table = Table(game, specs, seed, table_id=self._next_id, **self._table_options())
        self._next_id += 1
        self.tables[table.id] = table
        table.subscribe(lambda _t: self._notify())
        self._notify()
        return table

    def _persist(self, table: Table, seat: int, text: str) -> None:
        """Commit each accepted command before anyone sees its effect."""
        if self.store is not None:
            self.store.append(table.id, len(table.commands) - 1, seat, text, over=table.over)

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

    def attach_store(self, store: Store) -> int:
        """Persist to ``store`` from now on, and rebuild every unfinished table from its log.
        Returns how many tables were restored."""
        self.store = store
        restored = 0
        for table_id, game, seed, seats_json in store.tables(unfinished_only=True):
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
            self.tables[table_id] = table
            table.subscribe(lambda _t: self._notify())
            restored += 1
        ids = [t[0] for t in store.tables()]
        self._next_id = max(ids, default=0) + 1
        return restored

    def _table_options(self) -> dict[str, Any]:
        return {
            "on_command": self._persist,
            "on_seats": self._persist_seats,
            "on_chat": self._persist_chat,
            "timers": self.timers,
            "autopilot_after": self.autopilot_after,
            "autopilot_bot": self._autopilot_script,
            "clock": self.clock,
            **self.pacing,
        }

    def _autopilot_script(self, player: str) -> BotScript:
        """The player's saved bot if it loads, else the server's default bot."""
        source = self.saved_bot(player)
        if source is not None:
            try:
                return load_source(source, f"{player}'s autopilot")
            except BotError:
                pass
        return load_bot(self.default_bot)

    def tick(self) -> int:
        """Time out overdue decisions at every table (the server calls this periodically)."""
        return sum(t.tick() for t in list(self.tables.values()) if not t.over)

    def close(self) -> None:
        """Stop every table's scheduled bot work (the server is stopping)."""
        for table in self.tables.values():
            table.close()

    def claim(self, table_id: int, player: str, session: object) -> object | None:
        """``session`` now controls ``player``'s seat; returns the session it took it from."""
        previous = self.controllers.get((table_id, player))
        self.controllers[(table_id, player)] = session
        return previous if previous is not session else None

    def release(self, session: object) -> list[tuple[int, str]]:
        """Forget every seat ``session`` controls; returns them."""
        mine = [k for k, v in self.controllers.items() if v is session]
        for k in mine:
            del self.controllers[k]
        return mine

    def release_one(self, table_id: int, player: str, session: object) -> None:
        if self.controllers.get((table_id, player)) is session:
            del self.controllers[(table_id, player)]

    def seats_of(self, player: str) -> list[Table]:
        """Unfinished tables where ``player`` has a seat."""
        return [
            t for t in self.tables.values() if not t.over and t.seat_of_player(player) is not None
        ]

    def get(self, table_id: int) -> Table | None:
        return self.tables.get(table_id)

    def say(self, sender: str, text: str) -> str | None:
        text = " ".join(text.split())
        if not text:
            return "say what?"
        if len(text) > 500:
            return "that is too long: at most 500 characters"
        self.chat.append(LobbyChat(sender, text))
        del self.chat[:-200]
        self._notify()
        return None

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self.listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self.listeners:
                self.listeners.remove(listener)

        return unsubscribe

    def _notify(self) -> None:
        for listener in list(self.listeners):
            try:
                listener(self)
            except Exception:  # a broken screen must not stop the lobby
                self.listeners.remove(listener)

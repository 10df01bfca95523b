"""Players and their keys, tables, and every table's command log: SQLite or PostgreSQL.

The command log is the source of truth: a command is committed here before anyone sees its
effect, and a table is rebuilt by replaying it from the seed. The SQL is written once for both
databases (:mod:`.sql`); SQLite's WAL mode keeps readers and the writer out of each other's way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import msgspec

from shipwreck.names import skeleton
from shipwreck.store.ratings import RatingStore
from shipwreck.store.sql import Database, connect

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    public_key TEXT NOT NULL,
    created {real} NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id {id},
    game TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seats TEXT NOT NULL,          -- msgspec JSON of the seats (who sits where, now)
    created {real} NOT NULL,
    over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS commands (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    text TEXT NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS bots (
    owner TEXT NOT NULL REFERENCES players(name),
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    saved {real} NOT NULL,
    PRIMARY KEY (owner, name)
);
"""

CHAT_SCHEMA = """
CREATE TABLE IF NOT EXISTS chat (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    sender TEXT NOT NULL,         -- the player who said it
    to_player TEXT,               -- a whisper's reader (NULL: the table, or a seat nobody held)
    from_seat INTEGER,            -- NULL: a spectator
    to_seat INTEGER,              -- NULL: the whole table
    text TEXT NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


class ChatRow(msgspec.Struct, frozen=True):
    """One line of a table's chat as stored (see ``runtime.table.ChatLine``)."""

    n: int
    sender: str
    to_player: str | None
    from_seat: int | None
    to_seat: int | None
    text: str
    at: float


class Player(msgspec.Struct, frozen=True):
    name: str
    fingerprint: str


class Identity(msgspec.Struct, frozen=True):
    """The answer to "may NAME sign in with this key?"."""

    ok: bool
    registered_now: bool = False
    message: str = ""
    wrong_key: bool = False
    """Refused because the name belongs to another key (a try that counts toward a lock)."""


class Store:
    """The server's durable state. ``path`` is a SQLite file, or a ``postgresql://`` URL."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.db: Database = connect(path)
        self.db.script(SCHEMA)
        self.db.script(CHAT_SCHEMA)
        self._add_skeletons()
        self.ratings = RatingStore(self.db)
        """Players' and bots' ratings per game (:mod:`.ratings`)."""

    def _add_skeletons(self) -> None:
        """Names are unique by :func:`~shipwreck.names.skeleton` (a database made before that
        gets the column; of names that already collide, the first registered keeps the plain
        skeleton and the others stay usable under their own)."""
        if "skeleton" not in self.db.columns("players"):
            self.db.execute("ALTER TABLE players ADD COLUMN skeleton TEXT")
        rows = self.db.execute(
            "SELECT name FROM players WHERE skeleton IS NULL ORDER BY created, name"
        ).fetchall()
        for (name,) in rows:
            key = skeleton(name)
            if self._skeleton_owner(key) is not None:
                key = f"{key}#{name}"
            self.db.execute("UPDATE players SET skeleton = ? WHERE name = ?", (key, name))
        self.db.execute("CREATE UNIQUE INDEX IF NOT EXISTS players_skeleton ON players (skeleton)")

    def _skeleton_owner(self, key: str) -> Player | None:
        row = self.db.execute(
            "SELECT name, fingerprint FROM players WHERE skeleton = ?", (key,)
        ).fetchone()
        return Player(row[0], row[1]) if row else None

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ identity

    def player(self, name: str) -> Player | None:
        row = self.db.execute(
            "SELECT name, fingerprint FROM players WHERE name = ?", (name,)
        ).fetchone()
        return Player(row[0], row[1]) if row else None

    def identify(
        self,
        name: str,
        fingerprint: str,
        public_key: str,
        register: bool = True,
        sign_in: Callable[[str], str] = lambda name: f"ssh {name}@host",
    ) -> Identity:
        """The first login as a new name registers the key (unless ``register`` is false);
        another key for it is refused, and so is a name that looks like one already taken.
        No message shows the owner's key: a fingerprint can be looked up, and would unmask them.
        ``sign_in(name)``: the command that signs in as ``name`` (the server knows its host and
        port), for a refusal to suggest."""
        known = self.player(name)
        if known is not None:
            if known.fingerprint == fingerprint:
                return Identity(True)
            return Identity(
                False,
                wrong_key=True,
                message=(
                    f"the name '{name}' belongs to another key; sign in with that key, "
                    f"or pick another name, e.g. {sign_in(self.free_name(name))}"
                ),
            )
        lookalike = self._skeleton_owner(skeleton(name))
        if lookalike is not None:
            mine = lookalike.fingerprint == fingerprint
            return Identity(
                False,
                message=(
                    f"you are '{lookalike.name}' here: {sign_in(lookalike.name)}"
                    if mine
                    else f"the name '{name}' is too like '{lookalike.name}', who is already "
                    f"here; pick another name, e.g. {sign_in(self.free_name(name))}"
                ),
            )
        if not register:
            return Identity(True)
        try:
            self.db.execute(
                "INSERT INTO players (name, fingerprint, public_key, created, skeleton) "
                "VALUES (?,?,?,?,?)",
                (name, fingerprint, public_key, time.time(), skeleton(name)),
            )
        except self.db.integrity_errors:  # registered by a concurrent login a moment ago
            return self.identify(name, fingerprint, public_key, sign_in=sign_in)
        return Identity(True, registered_now=True)

    def free_name(self, name: str) -> str:
        """A name like ``name`` that nobody has yet (for a refusal to suggest)."""
        stem = name[:28]
        for n in range(2, 10000):
            candidate = f"{stem}{n}"
            if self._skeleton_owner(skeleton(candidate)) is None:
                return candidate
        return "OTHERNAME"

    # ------------------------------------------------------------------ tables and commands

    def new_table(self, game: str, seed: int, seats_json: str, hidden: bool = False) -> int:
        """A new table's row, with the next free id. The id is given inside the insert, so
        several workers sharing the database never hand out one id twice. ``hidden``: not
        listed by :meth:`tables` until :meth:`show_table` (a worker's new table, until it
        holds the table's lease: no other worker's scan for orphans can see it before)."""
        return self.db.insert_id(
            "INSERT INTO tables (game, seed, seats, created) VALUES (?,?,?,?)",
            ("" if hidden else game, seed, seats_json, time.time()),
        )

    def show_table(self, table_id: int, game: str) -> None:
        """List a table made ``hidden`` (its maker holds its lease now)."""
        self.db.execute("UPDATE tables SET game = ? WHERE id = ? AND game = ''", (game, table_id))

    def append(self, table_id: int, n: int, seat: int, text: str, over: bool = False) -> None:
        """Commit one accepted command, and with ``over`` the end of its game, in one
        transaction: on disk when this returns, or neither is (and it raises)."""
        with self.db.transaction():
            self.db.execute(
                "INSERT INTO commands (table_id, n, seat, text, at) VALUES (?,?,?,?,?)",
                (table_id, n, seat, text, time.time()),
            )
            if over:
                self.db.execute("UPDATE tables SET over = 1 WHERE id = ?", (table_id,))

    def set_seats(self, table_id: int, seats_json: str) -> None:
        """A player sat down or left: the seats a rebuild starts from (committed at once)."""
        self.db.execute("UPDATE tables SET seats = ? WHERE id = ?", (seats_json, table_id))

    def finish(self, table_id: int) -> None:
        self.db.execute("UPDATE tables SET over = 1 WHERE id = ?", (table_id,))

    def commands(self, table_id: int) -> list[tuple[int, str]]:
        rows = self.db.execute(
            "SELECT seat, text FROM commands WHERE table_id = ? ORDER BY n", (table_id,)
        ).fetchall()
        return [(int(r[0]), str(r[1])) for r in rows]

    def reserve_id(self) -> int:
        """An id no table will ever take, for a table that is not saved (a tutorial): its row
        has no game and is over, and :meth:`tables` never lists it."""
        return self.db.insert_id(
            "INSERT INTO tables (game, seed, seats, created, over) VALUES ('', 0, '[]', ?, 1)",
            (time.time(),),
        )

    def tables(self, unfinished_only: bool = False) -> list[tuple[int, str, int, str]]:
        sql = "SELECT id, game, seed, seats FROM tables WHERE game != ''"
        if unfinished_only:
            sql += " AND over = 0"
        rows = self.db.execute(sql + " ORDER BY id").fetchall()
        return [(int(r[0]), str(r[1]), int(r[2]), str(r[3])) for r in rows]

    # ------------------------------------------------------------------ saved bots

    def save_bot(self, owner: str, name: str, source: str) -> None:
        self.db.execute(
            "INSERT INTO bots (owner, name, source, saved) VALUES (?,?,?,?) ON CONFLICT "
            "(owner, name) DO UPDATE SET source = excluded.source, saved = excluded.saved",
            (owner, name, source, time.time()),
        )

    def saved_bots(self) -> list[tuple[str, str, float]]:
        """Every saved bot as ``(owner, name, saved)``: when it was last saved, which tells a
        new script from the one the ladder's games played (the sources stay on disk)."""
        rows = self.db.execute("SELECT owner, name, saved FROM bots ORDER BY owner, name")
        return [(str(o), str(n), float(t)) for o, n, t in rows.fetchall()]

    def bot_names(self, owner: str) -> list[str]:
        rows = self.db.execute(
            "SELECT name FROM bots WHERE owner = ? ORDER BY name", (owner,)
        ).fetchall()
        return [str(r[0]) for r in rows]

    def bot_count(self, owner: str) -> int:
        row = self.db.execute("SELECT count(*) FROM bots WHERE owner = ?", (owner,)).fetchone()
        return int(row[0])

    def bot(self, owner: str, name: str) -> str | None:
        row = self.db.execute(
            "SELECT source FROM bots WHERE owner = ? AND name = ?", (owner, name)
        ).fetchone()
        return str(row[0]) if row else None

    # ------------------------------------------------------------------ table chat

    def add_chat(self, table_id: int, row: ChatRow) -> None:
        """Commit one line of table chat or a whisper (before anyone reads it)."""
        self.db.execute(
            "INSERT INTO chat (table_id, n, sender, to_player, from_seat, to_seat, text, at) "
            "VALUES (?,?,?,?,?,?,?,?)",
            (
                table_id,
                row.n,
                row.sender,
                row.to_player,
                row.from_seat,
                row.to_seat,
                row.text,
                row.at,
            ),
        )

    def chat(self, table_id: int, last: int = 500) -> list[ChatRow]:
        """A table's last ``last`` chat lines, oldest first."""
        rows = self.db.execute(
            "SELECT n, sender, to_player, from_seat, to_seat, text, at FROM chat "
            "WHERE table_id = ? ORDER BY n DESC LIMIT ?",
            (table_id, last),
        ).fetchall()
        return [ChatRow(*r) for r in reversed(rows)]

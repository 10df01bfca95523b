"""SQLite: players and their keys, tables, and every table's command log.

The command log is the source of truth: a command is committed here before anyone sees its
effect, and a table is rebuilt by replaying it from the seed. WAL mode keeps readers and the
writer out of each other's way. The SQL is plain so PostgreSQL could take its place.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import msgspec

from shipwreck.names import skeleton
from shipwreck.store.ratings import RatingStore

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    public_key TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,          -- msgspec JSON of the seats (who sits where, now)
    created REAL NOT NULL,
    over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS commands (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS bots (
    owner TEXT NOT NULL REFERENCES players(name),
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    saved REAL NOT NULL,
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
    at REAL NOT NULL,
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


FILE_MODE = 0o600
"""The database holds every running game's seed and command log (every hidden hand): only the
server's user may read it. SQLite gives its -wal and -shm files the database file's mode."""


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
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, FILE_MODE))  # new: 0600
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        self.db.executescript(CHAT_SCHEMA)
        self._add_skeletons()
        self.ratings = RatingStore(self.db)
        """Players' and bots' ratings per game (:mod:`.ratings`)."""

    def _add_skeletons(self) -> None:
        """Names are unique by :func:`~shipwreck.names.skeleton` (a database made before that
        gets the column; of names that already collide, the first registered keeps the plain
        skeleton and the others stay usable under their own)."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(players)")}
        if "skeleton" not in columns:
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
        except sqlite3.IntegrityError:  # registered by a concurrent login a moment ago
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

    def create_table(self, table_id: int, game: str, seed: int, seats_json: str) -> None:
        self.db.execute(
            "INSERT INTO tables (id, game, seed, seats, created) VALUES (?,?,?,?,?)",
            (table_id, game, seed, seats_json, time.time()),
        )

    def append(self, table_id: int, n: int, seat: int, text: str, over: bool = False) -> None:
        """Commit one accepted command, and with ``over`` the end of its game, in one
        transaction: on disk when this returns, or neither is (and it raises)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute(
                "INSERT INTO commands (table_id, n, seat, text, at) VALUES (?,?,?,?,?)",
                (table_id, n, seat, text, time.time()),
            )
            if over:
                self.db.execute("UPDATE tables SET over = 1 WHERE id = ?", (table_id,))
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

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

    def tables(self, unfinished_only: bool = False) -> list[tuple[int, str, int, str]]:
        sql = "SELECT id, game, seed, seats FROM tables"
        if unfinished_only:
            sql += " WHERE over = 0"
        rows = self.db.execute(sql + " ORDER BY id").fetchall()
        return [(int(r[0]), str(r[1]), int(r[2]), str(r[3])) for r in rows]

    # ------------------------------------------------------------------ saved bots

    def save_bot(self, owner: str, name: str, source: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO bots (owner, name, source, saved) VALUES (?,?,?,?)",
            (owner, name, source, time.time()),
        )

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

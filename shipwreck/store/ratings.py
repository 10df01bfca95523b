"""Ratings in SQLite: each (game, player-or-bot)'s current rating, and every change to it.

Plain numbers only (``mu``, ``sigma``): the store knows no rating model, so it stays importable
without one; :mod:`shipwreck.arena.ratings` computes the changes. The tables are created if
missing, so a database made before ratings existed gains them when it is next opened.

The SQL is the portable subset of SQLite and PostgreSQL (``?`` placeholders, ``ON CONFLICT``,
``DOUBLE PRECISION``), and only the connection's ``execute`` (and its ``transaction``, where it
has one) is used, so the ratings work on whichever database the store opens.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import msgspec

from shipwreck.store.sql import Database

# No ';' or braces inside a comment: Database.script splits the schema and fills in words.
RATINGS_SCHEMA = """
CREATE TABLE IF NOT EXISTS ratings (
    game TEXT NOT NULL,
    kind TEXT NOT NULL,           -- 'player' or 'bot'
    name TEXT NOT NULL,           -- a player's name, or a bot's ('owner/name' if saved)
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, kind, name)
);
CREATE TABLE IF NOT EXISTS rating_history (
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    n INTEGER NOT NULL,           -- 1 for the first rated game, 2 for the next, ...
    mu DOUBLE PRECISION NOT NULL, -- after that game
    sigma DOUBLE PRECISION NOT NULL,
    source TEXT NOT NULL,         -- what was rated: 'table 12', 'arena', ...
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, kind, name, n)
);
CREATE TABLE IF NOT EXISTS ladder_bots (
    name TEXT PRIMARY KEY,        -- a saved bot, as 'owner/name'
    saved DOUBLE PRECISION NOT NULL, -- when the script its games played was saved
    game TEXT NOT NULL,           -- its script's game ('' when it did not compile)
    games INTEGER NOT NULL,       -- ladder games played by that script
    faults TEXT NOT NULL,         -- its last game's default moves by reason (JSON)
    notes TEXT NOT NULL,          -- its last faults, as the trace words them (JSON)
    error TEXT NOT NULL,          -- why it could not play ('' if it did)
    at DOUBLE PRECISION NOT NULL
);
"""

KINDS = ("player", "bot")


class Entrant(msgspec.Struct, frozen=True):
    """Who holds a rating: a player, or a bot (a shipped bot by its name, a saved bot as
    ``owner/name``)."""

    kind: str
    name: str


class RatingRow(msgspec.Struct, frozen=True):
    """A stored rating: the model's ``mu`` and ``sigma`` after ``games`` rated games."""

    game: str
    entrant: Entrant
    mu: float
    sigma: float
    games: int
    updated: float = 0.0


class HistoryRow(msgspec.Struct, frozen=True):
    n: int
    mu: float
    sigma: float
    source: str
    at: float


class LadderRun(msgspec.Struct, frozen=True):
    """A saved bot's background ladder games (:mod:`shipwreck.server.ladder_games`): the
    script they played (by when it was saved), how many, and what its last game's trace said."""

    name: str
    saved: float
    game: str = ""
    games: int = 0
    faults: dict[str, int] = {}
    notes: list[str] = []
    error: str = ""
    at: float = 0.0


class RatingStore:
    """The ratings part of :class:`~shipwreck.store.db.Store`, on the store's connection."""

    KEEP_SECONDS = 30.0
    """How long :meth:`recent` keeps a rating it read (another worker's games may change it)."""
    KEEP_MOST = 4096

    def __init__(self, db: Database, clock: Callable[[], float] = time.monotonic) -> None:
        self.db = db
        self.clock = clock
        self._kept: dict[tuple[str, Entrant], tuple[float, RatingRow | None]] = {}
        db.script(RATINGS_SCHEMA)

    def recent(self, game: str, entrant: Entrant) -> RatingRow | None:
        """:meth:`get`, kept a while: the tables' seat lists show each seat's rating at every
        repaint of every session, which must not be a query each. This process's own new
        ratings replace the kept ones at once (:meth:`record`)."""
        now = self.clock()
        kept = self._kept.get((game, entrant))
        if kept is not None and now - kept[0] < self.KEEP_SECONDS:
            return kept[1]
        row = self.get(game, entrant)
        if len(self._kept) >= self.KEEP_MOST:
            self._kept.clear()
        self._kept[(game, entrant)] = (now, row)
        return row

    def get(self, game: str, entrant: Entrant) -> RatingRow | None:
        row = self.db.execute(
            "SELECT mu, sigma, games, updated FROM ratings"
            " WHERE game = ? AND kind = ? AND name = ?",
            (game, entrant.kind, entrant.name),
        ).fetchone()
        if row is None:
            return None
        return RatingRow(game, entrant, float(row[0]), float(row[1]), int(row[2]), float(row[3]))

    def record(self, game: str, rows: Sequence[RatingRow], source: str) -> None:
        """Write the new ratings of one rated game, and a history line each, in one
        transaction: all of them are on disk when this returns, or none is (and it raises)."""
        for r in rows:
            if r.entrant.kind not in KINDS:
                raise ValueError(f"a rating is held by a player or a bot, not {r.entrant.kind!r}")
        now = time.time()
        with self.db.transaction():
            for r in rows:
                e = r.entrant
                self.db.execute(
                    "INSERT INTO ratings (game, kind, name, mu, sigma, games, updated)"
                    " VALUES (?,?,?,?,?,?,?) ON CONFLICT (game, kind, name) DO UPDATE SET"
                    " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
                    " updated = excluded.updated",
                    (game, e.kind, e.name, r.mu, r.sigma, r.games, now),
                )
                self.db.execute(
                    "INSERT INTO rating_history (game, kind, name, n, mu, sigma, source, at)"
                    " VALUES (?,?,?,?,?,?,?,?)",
                    (game, e.kind, e.name, r.games, r.mu, r.sigma, source, now),
                )
        for r in rows:  # (only once they are on disk)
            self._kept.pop((game, r.entrant), None)

    def board(self, game: str, z: float = 3.0) -> list[RatingRow]:
        """Every rating of ``game``, best first by the conservative rating ``mu - z * sigma``."""
        rows = self.db.execute(
            "SELECT kind, name, mu, sigma, games, updated FROM ratings WHERE game = ?"
            " ORDER BY mu - ? * sigma DESC, name",
            (game, z),
        ).fetchall()
        return [
            RatingRow(game, Entrant(str(k), str(n)), float(m), float(s), int(g), float(u))
            for k, n, m, s, g, u in rows
        ]

    def history(self, game: str, entrant: Entrant) -> list[HistoryRow]:
        rows = self.db.execute(
            "SELECT n, mu, sigma, source, at FROM rating_history"
            " WHERE game = ? AND kind = ? AND name = ? ORDER BY n",
            (game, entrant.kind, entrant.name),
        ).fetchall()
        return [
            HistoryRow(int(n), float(m), float(s), str(src), float(at)) for n, m, s, src, at in rows
        ]

    def ladder_runs(self) -> dict[str, LadderRun]:
        """Every saved bot's ladder games so far, by ``owner/name``."""
        rows = self.db.execute(
            "SELECT name, saved, game, games, faults, notes, error, at FROM ladder_bots"
        ).fetchall()
        return {str(r[0]): _run(r) for r in rows}

    def ladder_run(self, name: str) -> LadderRun | None:
        row = self.db.execute(
            "SELECT name, saved, game, games, faults, notes, error, at FROM ladder_bots"
            " WHERE name = ?",
            (name,),
        ).fetchone()
        return _run(row) if row is not None else None

    def record_run(self, run: LadderRun) -> None:
        self.db.execute(
            "INSERT INTO ladder_bots (name, saved, game, games, faults, notes, error, at)"
            " VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (name) DO UPDATE SET saved = excluded.saved,"
            " game = excluded.game, games = excluded.games, faults = excluded.faults,"
            " notes = excluded.notes, error = excluded.error, at = excluded.at",
            (
                run.name,
                run.saved,
                run.game,
                run.games,
                msgspec.json.encode(run.faults).decode(),
                msgspec.json.encode(run.notes).decode(),
                run.error,
                run.at or time.time(),
            ),
        )


def _run(row: Sequence[object]) -> LadderRun:
    name, saved, game, games, faults, notes, error, at = row
    return LadderRun(
        str(name),
        float(saved),  # type: ignore[arg-type]
        str(game),
        int(games),  # type: ignore[call-overload]
        msgspec.json.decode(str(faults), type=dict[str, int]),
        msgspec.json.decode(str(notes), type=list[str]),
        str(error),
        float(at),  # type: ignore[arg-type]
    )

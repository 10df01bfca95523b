"""Background ladder games: every player's saved bot plays rated games against the shipped bots.

Why it is shaped so: one event loop serves every player, and a game costs from 15 ms of CPU
(Lifeboat) to most of a second (Spanish Main). So the loop only chooses the next bot and stores
the result (a few small queries); the game is compiled and played in a worker process at the
lowest CPU priority (:func:`~shipwreck.server.lint_pool.low_priority_pool`), at most
``[ladder] workers`` at once and ``games_per_minute`` server-wide, so the games take a small
share of one core and never a turn of the loop.

Which bot plays next: the saved script with the fewest ladder games, among those whose owner has
a game left this hour (``games_per_owner_per_hour``, all their bots together) and that have not
reached ``games_per_bot``. A script is known by when it was saved: saving a bot again starts its
count afresh (its rating goes on). A script that no longer compiles is set aside, with why,
until it is saved again. ``ssh host bot status NAME`` reads what was kept
(:class:`~shipwreck.store.ratings.LadderRun`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import msgspec

from shipwreck.arena.ladder_game import LadderGame, LadderJob, play_ladder_game
from shipwreck.arena.ratings import Rating, record_game
from shipwreck.config import LadderSection
from shipwreck.games.registry import all_games
from shipwreck.server.limits import TokenBuckets
from shipwreck.server.lint_pool import low_priority_pool, run_in_pool
from shipwreck.store import Entrant, Store
from shipwreck.store.ratings import LadderRun

log = logging.getLogger("shipwreck.ladder")

NICENESS = 19
"""The lowest CPU priority: players' sessions always come first."""


class Chosen(msgspec.Struct, frozen=True):
    """The saved bot chosen for the next game: its owner, name, and when it was saved."""

    owner: str
    name: str
    saved: float

    @property
    def entrant(self) -> str:
        """As the ladder names it: ``owner/name``."""
        return f"{self.owner}/{self.name}"


class LadderGames:
    """Plays saved bots' ladder games while :meth:`run` runs (the server starts it)."""

    def __init__(
        self,
        store: Store,
        settings: LadderSection,
        seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        niceness: int = NICENESS,
    ) -> None:
        self.store = store
        self.niceness = niceness
        """The games' processes run this much nicer than the server (players first)."""
        self.settings = settings
        self.clock = clock
        self._owners = TokenBuckets(settings.games_per_owner_per_hour / 60.0, burst=1)
        self._rng = random.Random(seed)
        self._pool: ProcessPoolExecutor | None = None
        self.playing: set[str] = set()
        """The bots (``owner/name``) whose game is being played now."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.played = 0
        """Games played and rated since the server started (for tests and the log)."""
        self.held = 0
        """Times a due game was held back because the loop ran late."""

    PROBE = 1.0
    """Seconds until the next look at the loop when a due game was held back."""
    HOLD_LAG = 0.1
    """A due game is not started while a sleep of the loop wakes this many seconds late: one
    event loop serves every player, and a game's result is rated and stored on it."""

    @property
    def interval(self) -> float:
        return 60.0 / self.settings.games_per_minute

    async def run(self) -> None:
        """Start a game every :attr:`interval` seconds while a worker is free and a bot waits,
        but not while the loop runs late (its sleep woke more than :attr:`HOLD_LAG` late): the
        game due then waits for a later look, :attr:`PROBE` seconds on, that finds it on time."""
        loop = asyncio.get_running_loop()
        wait = self.interval
        while True:
            asked = loop.time()
            await asyncio.sleep(wait)
            if loop.time() - asked - wait > self.HOLD_LAG:
                self.held += 1  # (players first: the loop is busy)
                wait = self.PROBE
                continue
            wait = self.interval
            try:
                self.start_next()
            except Exception:  # one bad row must not stop the ladder (nor the server)
                log.exception("a ladder game could not be started")

    def start_next(self) -> bool:
        """Start the next game in a worker if one is free and a bot is due; whether it did."""
        if len(self.playing) >= max(1, self.settings.workers):
            return False
        chosen = self.choose()
        if chosen is None:
            return False
        source = self.store.bot(chosen.owner, chosen.name)
        if source is None:  # (deleted meanwhile)
            return False
        job = LadderJob(
            chosen.entrant,
            source,
            self._rng.randrange(1 << 31),
            tuple(self.settings.opponents),
        )
        self.playing.add(chosen.entrant)
        task = asyncio.create_task(self._play(chosen, job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return True

    def choose(self) -> Chosen | None:
        """The saved script with the fewest ladder games whose owner may have one now."""
        runs = self.store.ratings.ladder_runs()
        due: list[tuple[int, str, Chosen]] = []
        for owner, name, saved in self.store.saved_bots():
            c = Chosen(owner, name, saved)
            run = runs.get(c.entrant)
            if c.entrant in self.playing:
                continue
            if run is None or run.saved != saved:
                due.append((0, c.entrant, c))
            elif not run.error and run.games < self.settings.games_per_bot:
                due.append((run.games, c.entrant, c))
        now = self.clock()
        for _, _, c in sorted(due, key=lambda d: (d[0], d[1])):
            if self._owners.take(c.owner, now) == 0.0:
                return c
        return None

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = low_priority_pool(max(1, self.settings.workers), self.niceness)
        return self._pool

    async def _play(self, chosen: Chosen, job: LadderJob) -> None:
        try:
            played = await run_in_pool(self._workers(), play_ladder_game, job)
            self.finish(chosen, job, played)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("ladder game of %s (seed %d) failed", chosen.entrant, job.seed)
            self._drop_pool()  # (a worker may have died: start afresh next time)
        finally:
            self.playing.discard(chosen.entrant)

    def finish(self, chosen: Chosen, job: LadderJob, played: LadderGame) -> None:
        """Rate a played game and keep what its trace said of the saved bot (on the loop: a
        rating of a few seats and two small writes)."""
        ratings = self.store.ratings
        before = ratings.ladder_run(chosen.entrant)
        games = before.games if before is not None and before.saved == chosen.saved else 0
        if played.error:
            run = LadderRun(chosen.entrant, chosen.saved, games=games, error=played.error)
            ratings.record_run(run)
            log.info("ladder: %s set aside: %s", chosen.entrant, played.error)
            return
        record_game(
            ratings,
            played.game,
            [Entrant("bot", s) for s in played.seats],
            played.scores,
            f"ladder game, seed {job.seed}",
            played.winners,
        )
        run = LadderRun(
            chosen.entrant,
            chosen.saved,
            played.game,
            games + 1,
            played.faults,
            played.notes,
        )
        ratings.record_run(run)
        self.played += 1

    def _drop_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop: games being played are abandoned (unrated), their workers let go."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        pool, self._pool = self._pool, None
        if pool is not None:  # (a game in a worker ends within a second or so)
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)


def bot_status(store: Store, owner: str, name: str, on: bool) -> tuple[str, int]:
    """``ssh host bot status NAME``: the saved bot's ratings (place, rating, games) in each game
    it has played, its ladder games, and its last game's default moves with why, as the trace
    words them. ``on``: whether this server plays background games. Text and exit status."""
    if store.bot(owner, name) is None:
        mine = store.bot_names(owner)
        yours = f"; yours: {', '.join(mine)}" if mine else "; save one: bot save NAME < FILE"
        return f"shipwreck: you have no saved bot {name!r}{yours}\n", 1
    entrant = Entrant("bot", f"{owner}/{name}")
    lines = [f"bot {name} (on the ladder as {entrant.name})"]
    for game in all_games():
        board = store.ratings.board(game.name)
        place = next((i for i, r in enumerate(board, 1) if r.entrant == entrant), None)
        if place is None:
            continue
        r = board[place - 1]
        rating = Rating(r.mu, r.sigma, r.games)
        lines.append(
            f"{game.title}: #{place} of {len(board)}, rating {rating.ordinal:.1f}"
            f" (μ ± σ {rating.shown()}), {r.games} rated games"
        )
    saved = next((t for o, n, t in store.saved_bots() if (o, n) == (owner, name)), None)
    run = store.ratings.ladder_run(entrant.name)
    if run is None or run.saved != saved:
        lines.append(
            "no ladder games of this script yet: they start within a few minutes"
            if on
            else "this server plays no background ladder games ([ladder] games_per_minute = 0)"
        )
    elif run.error:
        lines.append(f"set aside, it does not play: {run.error}")
        lines.append(f"fix it, then: bot save {name} < FILE")
    else:
        lines.append(f"{run.games} ladder games since it was last saved")
        if run.faults:
            counted = ", ".join(f"{n} {why}" for why, n in run.faults.items())
            lines.append(f"its last game's default moves: {counted}")
            lines += [f"  {note}" for note in run.notes]
        else:
            lines.append("its last game: every move was its own (no default move)")
    return "\n".join(lines) + "\n", 0

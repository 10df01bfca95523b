"""One arena game, and the records a tournament keeps of it.

Everything here is plain data so that a game can be played in another process, or on another
machine of a Dask cluster: a bot travels as its source text (a worker may not have the file),
and a game comes back as a :class:`GameRecord`. A game depends only on its seed and who sits
where, so where it was played never changes its result.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

import msgspec

from shipwreck.arena.ratings import ranks
from shipwreck.batch_gc import batch_gc
from shipwreck.lang.bots import BotPlayer, BotScript, TraceEntry, load_source
from shipwreck.sim import play_seated, seat_bots

TRACE_ENTRIES = 100_000
"""Decisions kept per seat and game: all of them, so every default move is counted."""

FAULTS = ("no handler", "no match", "error", "budget", "refused", "other")
"""Why a bot's decision fell back to the safe default, as the league table counts them."""


class ArenaBot(msgspec.Struct, frozen=True):
    """A bot in a tournament: its name (from its script's header), where it was read from,
    and its source (so a tournament file can be replayed without the bot files)."""

    name: str
    path: str
    source: str


class GameRecord(msgspec.Struct):
    """One finished arena game, seat by seat (seat 1 first)."""

    no: int
    """0 for the tournament's first game."""
    seed: int
    seats: list[str]
    """The bot (:attr:`ArenaBot.name`) at each seat."""
    characters: list[str]
    scores: list[int]
    winners: list[bool]
    """Seats the game names as winners (the best scores; Spanish Main breaks ties, SM-41)."""
    ranks: list[int]
    """1 is best; equal scores share a rank."""
    faults: list[dict[str, int]]
    """Each seat's default moves by reason (:data:`FAULTS`; reasons with none left out)."""
    rounds: int = 0
    commands: int = 0


class Job(msgspec.Struct, frozen=True):
    """A game to play: its number, seed, and which bot (an index) sits at each seat."""

    no: int
    seed: int
    order: list[int]


def schedule(games: int, seed: int, seats: int, bots: int) -> list[Job]:
    """Game ``g`` has seed ``seed + g``; the bots rotate one seat a game
    (:func:`~shipwreck.sim.seat_bots`), so over every ``bots`` games each bot holds each seat
    equally often, the same games ``shipwreck sim --bots`` plays."""
    return [Job(g, seed + g, seat_bots(g, seats, bots)) for g in range(games)]


def fault(entry: TraceEntry) -> str | None:
    """Why this decision was the safe default (one of :data:`FAULTS`), or ``None`` if the
    script's own command was played."""
    note = entry.note
    if not note:
        return None
    if note.startswith("no '"):
        return "no handler"
    if note.startswith("no rule matched"):
        return "no match"
    if note.startswith("refused ("):
        return "refused"
    if note.startswith("line "):
        return "budget" if "over the budget" in note else "error"
    return "other"


def count_faults(trace: Sequence[TraceEntry]) -> dict[str, int]:
    counted = Counter(f for f in map(fault, trace) if f is not None)
    return {k: counted[k] for k in FAULTS if counted[k]}


@functools.lru_cache(maxsize=64)
def compiled(source: str, path: str) -> BotScript:
    """A worker compiles each bot once, however many games it plays."""
    return load_source(source, path)


def play_game(game: str, bots: Sequence[ArenaBot], job: Job) -> GameRecord:
    """Play one game of ``job`` (:func:`shipwreck.sim.play_seated`) and record it."""
    return play_traced(game, bots, job)[0]


def play_traced(
    game: str, bots: Sequence[ArenaBot], job: Job
) -> tuple[GameRecord, list[BotPlayer]]:
    """:func:`play_game`, and each seat's player with its trace (the server's ladder games
    keep a saved bot's last faults to show its author)."""
    scripts = [compiled(b.source, b.path) for b in bots]
    result, chars, players = play_seated(game, job.seed, scripts, job.order, TRACE_ENTRIES)
    seats = range(len(job.order))
    scores = [result.scores[chars[s]] for s in seats]
    winners = [chars[s] in result.winners for s in seats]
    record = GameRecord(
        no=job.no,
        seed=job.seed,
        seats=[bots[k].name for k in job.order],
        characters=[chars[s] for s in seats],
        scores=scores,
        winners=winners,
        ranks=ranks(scores, winners),
        faults=[count_faults(p.trace) for p in players],
        rounds=result.rounds,
        commands=result.commands,
    )
    return record, players


def play_jobs(game: str, bots: Sequence[ArenaBot], jobs: Sequence[Job]) -> list[GameRecord]:
    """Play a batch of games (one task for a worker process or a Dask worker)."""
    with batch_gc():
        return [play_game(game, bots, job) for job in jobs]

"""One ladder game for a player's saved bot, played away from the server's event loop.

The server (:mod:`shipwreck.server.ladder_games`) hands a worker process a :class:`LadderJob`:
the saved bot's source, a seed, and the shipped bots it may meet. The worker compiles the
script (the game is its header's), seats it once among shipped bots drawn from the seed, plays
the game as the arena does (:func:`~shipwreck.arena.match.play_traced`) and hands back a
:class:`LadderGame`: plain data, rated by the server in its store. The same job always plays
the same game.
"""

from __future__ import annotations

import random

import msgspec

from shipwreck.arena.match import ArenaBot, Job, compiled, count_faults, fault, play_traced
from shipwreck.games.registry import get as get_game
from shipwreck.lang.bots import BotError, shipped_bot
from shipwreck.lang.bots.registry import shipped_names, shipped_source

NOTES_KEPT = 5
"""The saved bot's last faults (file:line and why) a game hands back, for ``bot status``."""


class LadderJob(msgspec.Struct, frozen=True):
    """A game to play: the saved bot (``owner/name``, as the ladder names it), its source, the
    seed, and the shipped bots it may meet (those of its game are drawn from)."""

    entrant: str
    source: str
    seed: int
    opponents: tuple[str, ...]


class LadderGame(msgspec.Struct, frozen=True):
    """A played ladder game, seat by seat (seat 1 first): who sat there (``owner/name`` or a
    shipped bot's name), the scores and the game's winners; and the saved bot's default moves by
    reason and its last faults. ``error``: why no game was played (its script no longer
    compiles), and nothing else is set."""

    game: str = ""
    seats: list[str] = []
    scores: list[int] = []
    winners: list[bool] = []
    faults: dict[str, int] = {}
    notes: list[str] = []
    error: str = ""


def seating(seats: int, opponents: int, seed: int) -> list[int]:
    """Which bot sits at each seat: ``0`` (the saved bot) at one seat, and shipped bots (``1``
    to ``opponents``) at the others, all drawn from ``seed``."""
    rng = random.Random(seed)
    mine = rng.randrange(seats)
    return [0 if s == mine else 1 + rng.randrange(opponents) for s in range(seats)]


def play_ladder_game(job: LadderJob) -> LadderGame:
    """Play ``job`` (in a worker process: it compiles and plays, which the loop must not)."""
    try:
        script = compiled(job.source, job.entrant)
    except BotError as e:
        return LadderGame(error=str(e).splitlines()[0] if str(e) else "it does not compile")
    game = script.game
    pool = [n for n in job.opponents if n in shipped_names() and shipped_bot(n).game == game]
    pool = pool or shipped_names(game)
    bots = [ArenaBot(job.entrant, job.entrant, job.source)]
    bots += [ArenaBot(n, f"bots/{n}.bot", shipped_source(n)) for n in pool]
    order = seating(get_game(game).default_seats, len(pool), job.seed)
    record, players = play_traced(game, bots, Job(0, job.seed, order))
    mine = order.index(0)
    trace = players[mine].trace
    notes = [f"round {e.round}: {e.note}" for e in trace if fault(e) is not None]
    return LadderGame(
        game=game,
        seats=record.seats,
        scores=record.scores,
        winners=record.winners,
        faults=count_faults(trace),
        notes=notes[-NOTES_KEPT:],
    )

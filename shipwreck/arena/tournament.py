"""A tournament: its bots, its games' records, and the file ``--json`` writes (msgspec JSON).

The file holds every game's seed, seats, scores and ranking, and each bot's source, so a
tournament can be re-rated (``--rerate``) or played again (``--replay``) from the file alone.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from shipwreck.arena.match import ArenaBot, GameRecord, Job, schedule
from shipwreck.arena.run import Progress, play_all
from shipwreck.lang.bots.checked import load_named

FORMAT = 1
"""The version of the tournament file."""


class Tournament(msgspec.Struct):
    game: str
    seed: int
    seats: int
    bots: list[ArenaBot]
    games: list[GameRecord]
    format: int = FORMAT
    seconds: float = 0.0
    """How long the games took to play (not part of the results: it varies run to run)."""


def load_bots(game: str, names: list[str]) -> list[ArenaBot]:
    """The bots named on the command line (shipped names or script files), each once.

    A bot is named by its script's header (``bot "Hoarder" for lifeboat`` is ``hoarder``),
    never by its file name; two different scripts with one name are refused rather than
    merged. A script that fails ``shipwreck bot check`` is refused with the same messages.
    """
    bots: dict[str, ArenaBot] = {}
    for script in load_named(game, names):
        bots.setdefault(script.bot_name, ArenaBot(script.bot_name, script.path, script.source))
    return list(bots.values())


def play(
    game: str,
    bots: list[ArenaBot],
    games: int,
    seed: int,
    seats: int,
    workers: int = 1,
    cluster: str = "",
    progress: Progress = lambda n: None,
) -> Tournament:
    import time

    jobs = schedule(games, seed, seats, len(bots))
    start = time.perf_counter()
    records = play_all(game, bots, jobs, workers, cluster, progress)
    return Tournament(game, seed, seats, bots, records, seconds=time.perf_counter() - start)


def replay(t: Tournament, workers: int = 1, progress: Progress = lambda n: None) -> list[int]:
    """Play every game of ``t`` again from its seed and seats; the numbers of the games whose
    record came out different (none, unless the engine or a bot changed since)."""
    index = {b.name: i for i, b in enumerate(t.bots)}
    jobs = [Job(r.no, r.seed, [index[name] for name in r.seats]) for r in t.games]
    again = play_all(t.game, t.bots, jobs, workers, "", progress)
    return [a.no for a, b in zip(again, t.games, strict=True) if a != b]


def save(t: Tournament, path: str | Path) -> None:
    Path(path).write_bytes(msgspec.json.format(msgspec.json.encode(t)))


def load(path: str | Path) -> Tournament:
    """A tournament file; ValueError with a one-line reason if it is not one."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise ValueError(f"{path}: cannot read: {e.strerror}") from None
    try:
        t = msgspec.json.decode(data, type=Tournament)
    except msgspec.ValidationError as e:
        raise ValueError(f"{path}: not a tournament file written by --json ({e})") from None
    except msgspec.DecodeError as e:
        raise ValueError(f"{path}: not JSON ({e})") from None
    if t.format != FORMAT:
        raise ValueError(f"{path}: a tournament file of format {t.format}; this reads {FORMAT}")
    names = {b.name for b in t.bots}
    for r in t.games:
        if not set(r.seats) <= names or len(r.seats) != t.seats:
            raise ValueError(f"{path}: game {r.no} seats bots the file does not list")
    return t

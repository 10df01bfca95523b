"""Game files: a finished or running game as (seed, seats, command log), and replaying one.

``shipwreck export TABLE`` writes one; ``shipwreck replay FILE|TABLE`` steps through it. Because
the engine is deterministic, replaying the log from the seed rebuilds the same game byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from shipwreck.runtime.table import SeatSpec, Table
from shipwreck.store import Store

FORMAT = "shipwreck-game/1"


class GameFile(msgspec.Struct, forbid_unknown_fields=True):
    format: str
    game: str
    table_id: int
    seed: int
    seats: list[SeatSpec]
    commands: list[tuple[int, str]]
    """(seat, canonical command text); seat -1 is the table's timer."""


class ReplayError(ValueError):
    pass


def export_table(store: Store, table_id: int) -> GameFile:
    for tid, game, seed, seats_json in store.tables():
        if tid == table_id:
            seats = msgspec.json.decode(seats_json, type=list[SeatSpec])
            return GameFile(FORMAT, game, tid, seed, seats, store.commands(tid))
    raise ReplayError(f"there is no table {table_id} in {store.path}")


def write(gf: GameFile, path: str | Path) -> None:
    Path(path).write_bytes(msgspec.json.format(msgspec.json.encode(gf)) + b"\n")


def read(path: str | Path) -> GameFile:
    try:
        gf = msgspec.json.decode(Path(path).read_bytes(), type=GameFile)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError) as e:
        raise ReplayError(f"{path}: not a game file: {e}") from None
    if gf.format != FORMAT:
        raise ReplayError(f"{path}: unknown format {gf.format!r}; expected {FORMAT}")
    return gf


def table_at(gf: GameFile, step: int | None = None) -> Table:
    """The game after its first ``step`` commands (all of them by default), as a table no bot
    plays: every seat is shown as its player, and nothing moves unless replayed."""
    seats = [
        SeatSpec("human", player=s.player or f"{s.kind} {i + 1}", fleet=s.fleet)
        for i, s in enumerate(gf.seats)
    ]
    log = gf.commands if step is None else gf.commands[: max(0, step)]
    try:
        return Table(gf.game, seats, gf.seed, table_id=gf.table_id, replay=log)
    except Exception as e:  # a corrupt or foreign log: say so in one line
        raise ReplayError(f"the log does not replay: {e}") from None

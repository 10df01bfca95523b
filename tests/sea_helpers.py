"""Spanish Main screen helpers the TUI tests share: a two-human table, a seat's view, the sea
screen's rows, positions used by several tests. Plain functions, not tests."""

from __future__ import annotations

from pathlib import Path

import msgspec

from shipwreck import replay
from shipwreck.games.spanish_main.commands import (
    Command,
    EndTurn,
    Explore,
    Load,
    MoveDock,
    MoveToward,
    Pass,
)
from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.lang.spanish_main import suggested_moves
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.store import Store
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.packed import Packed
from shipwreck.tui.spanish_main import render as R

SEED = 3


PLAN = {0: ("plantagenet", "isla-3"), 1: ("el-picador", "isla-2")}
"""Seed 3 (red moves first, SM-2): a ship of each fleet and a wild island near her home that
she heads for; each explores where she docks, a different wild island each."""


def kept_fleets(db: Path, table: Table) -> list[str]:
    """SM-4: the fleets of ``table`` as a restart finds them (a new lobby on its store ``db``),
    each of the restarted table and the exported game's replay checked to deal its state."""
    state = msgspec.json.encode(table.state)
    again = Lobby(seed=1)
    assert again.attach_store(Store(db)) == 1
    back = again.tables[table.id]
    assert msgspec.json.encode(back.state) == state
    game = replay.export_table(Store(db), table.id)
    assert [s.fleet for s in game.seats] == back.fleets
    replayed = replay.table_at(game)
    assert msgspec.json.encode(replayed.state) == state
    assert replayed.seed == table.seed
    return back.fleets


def two_humans(seed: int = SEED) -> tuple[Lobby, Table]:
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("empty")]
    table = lobby.create_table("spanish_main", seats, creator="ann", seed=seed)
    assert table.sit(1, "bob") is None
    return lobby, table


def sm_view(table: Table, seat: int | None) -> SpanishMainView:
    view = table.view(seat)
    assert isinstance(view, SpanishMainView)
    return view


def ok(table: Table, seat: int, cmd: Command) -> None:
    result = table.submit(seat, cmd)
    assert result.ok, f"{cmd}: {result.message}"


def turn_toward(table: Table, seat: int, ship: str, island: str) -> bool:
    """One turn of ``seat``: explore and load all she can if ``ship`` may explore where she is
    docked, else sail toward ``island`` (docking when she can). Returns whether she explored."""
    view = sm_view(table, seat)
    explored = False
    if Explore(ship) in view.choices:
        ok(table, seat, Explore(ship))
        loads = [c for c in sm_view(table, seat).choices if isinstance(c, Load)]
        ok(table, seat, max(loads, key=lambda c: len(c.coins)))
        explored = True
    elif not any(s.id == ship and s.docked == island for s in view.ships):
        dock = MoveDock(ship, island)
        ok(table, seat, dock if dock in view.choices else MoveToward(ship, island))
        while sm_view(table, seat).step == "after_move":
            ok(table, seat, Pass())
    ok(table, seat, EndTurn())
    return explored


def both_explored(table: Table) -> None:
    """Play until each seat has explored a different island; it is then blue's turn, so red's
    session closing (its seat on autopilot) changes nothing before blue's screen is taken."""
    done = {0: False, 1: False}
    for _ in range(10):
        for seat in (0, 1):
            if done[0] and done[1] and seat == 0:
                ok(table, 0, EndTurn())
                return
            if done[seat]:
                ok(table, seat, EndTurn())
            else:
                done[seat] = turn_toward(table, seat, *PLAN[seat])
    raise AssertionError("the fleets never explored")


def bow_on_her_island(table: Table) -> str:
    """Red's PLAN ship sails to her island and docks there, bow on (blue passes meanwhile); it
    is red's turn again. Returns the ship."""
    ship, island = PLAN[0]
    for _ in range(5):
        if any(s.id == ship and s.docked == island for s in sm_view(table, 0).ships):
            return ship
        turn_toward(table, 0, ship, island)
        ok(table, 1, EndTurn())
    raise AssertionError(f"{ship} never docked at {island}")


def screen_rows(app: ShipwreckApp) -> list[str]:
    """The text of every row of the screen, as the terminal shows it."""
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


def hint_items(view: SpanishMainView) -> list[str]:
    """The items of the prompt panel of ``view``'s seat on its turn, as drawn."""
    drawn = R.prompt(view, suggested_moves(view))
    assert isinstance(drawn, Packed)
    return [item.plain for item in drawn.items]

"""Spanish Main learnable at the table, at 80x24 and 120x40: the goal and fleet screen (F3,
``ships``, ``fleet``), a move to try for every ship from the home harbour on the hint line,
and a move that would not move her refused with what to type instead (play-test problems 2, 5,
6; SM-13)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from shipwreck.games.spanish_main.commands import EndTurn
from shipwreck.games.spanish_main.ships import CARDS, PRESETS
from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.lang.spanish_main import legal_texts, suggested_moves
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.spanish_main import render as R
from shipwreck.tui.spanish_main.screen import SeaFleetScreen, SpanishMainScreen

SIZES = ((80, 24), (120, 40))


def new_table(seats: int = 2, seed: int = 3) -> tuple[Lobby, Table]:
    lobby = Lobby(seed=1)
    specs = [SeatSpec("human")] + [SeatSpec("empty")] * (seats - 1)
    table = lobby.create_table("spanish_main", specs, creator="ann", seed=seed)
    for seat in range(1, seats):
        assert table.sit(seat, f"p{seat}") is None
    return lobby, table


def sm_view(table: Table, seat: int) -> SpanishMainView:
    view = table.view(seat)
    assert isinstance(view, SpanishMainView)
    return view


def screen_rows(app: ShipwreckApp) -> list[str]:
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


async def type_line(pilot: Pilot[Any], line: str) -> None:
    await pilot.press(*line, "enter")
    await pilot.pause()


# ------------------------------------------------------------------ the goal and the fleet


@pytest.mark.parametrize("size", SIZES)
async def test_f3_and_the_words_ships_and_fleet_open_the_goal_and_fleet(
    size: tuple[int, int],
) -> None:
    """SM-40 (the goal), SM-5 (masts, cannons, base move), SM-6 (abilities off): all one key
    away, readable at this size; nothing is sent to the table."""
    lobby, table = new_table()
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        assert isinstance(app.screen, SpanishMainScreen)
        assert "ships & goal" in screen_rows(app)[-1]  # the key line says how
        commands = list(table.commands)
        for how in ("f3", "ships", "fleet"):
            if how == "f3":
                await pilot.press("f3")
            else:
                await type_line(pilot, how)
            await pilot.pause()
            assert isinstance(app.screen, SeaFleetScreen), how
            rows = screen_rows(app)
            assert any("Escape closes" in r for r in rows), "the way out is below the fold"
            assert any("How to win" in r for r in rows)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, SpanishMainScreen)
        assert table.commands == commands


def test_the_fleet_screen_says_the_goal_the_notation_and_every_ability() -> None:
    """SM-40: more than half the gold at home, or the last fleet afloat; SM-41 the tie; the
    notation of the fleet panel; each ship's ability text from the card list."""
    _, table = new_table(seats=4)
    view = sm_view(table, 0)
    text = " ".join(_plain(R.fleet_info(view), 100).split())  # (as one line: it wraps)
    assert "more than half of all the gold" in text
    assert "only one player still has a ship afloat" in text
    assert "larger points value of ships still afloat" in text
    for term in ("3:SLLS", "S+S", "0/5", "28 pts"):
        assert term in text
    assert "3 or more hits" in text  # hit_rule gte (SM-25)
    for ship in view.ships:
        ability = CARDS[ship.card].ability
        assert (ability or "no ability") in text, ship.id
    assert "abilities are on: each ship and crew plays its card" in text  # (SM-6, SM-60)


def test_the_fleet_screen_shows_only_my_coin_values() -> None:
    """Hidden stays hidden: the coins listed are the ones this seat explored."""
    from sea_helpers import both_explored, two_humans

    _, table = two_humans()
    both_explored(table)
    mine, theirs = sm_view(table, 0), sm_view(table, 1)
    text = _plain(R.fleet_info(mine), 100)
    for isl in theirs.islands:
        for coin in isl.coins:
            seen_by_me = any(
                c.id == coin.id and c.value is not None for i in mine.islands for c in i.coins
            )
            if coin.value is not None and not seen_by_me:
                assert f"#{coin.id}={coin.value}" not in text


def _plain(renderable: Any, width: int) -> str:
    from rich.console import Console

    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


# ------------------------------------------------------------------ first moves


RED_FIRST = {2: (2, 3, 6, 8, 9), 3: (3, 4, 6, 11, 19), 4: (4, 7, 22, 27, 28)}
"""Seeds where red (seat 0) moves first (SM-2 rolls the first player), by number of seats: no
free seat's stand-in has moved before, so every fleet starts in its home harbour."""


@pytest.mark.parametrize(
    "seats,seed", [(seats, seed) for seats, seeds in RED_FIRST.items() for seed in seeds]
)
def test_every_preset_ship_has_a_useful_first_move_on_the_hint_line(seats: int, seed: int) -> None:
    """SM-12, SM-13: from the home harbour, each ship of every preset fleet gets a suggested
    move; it is legal and sails her at least half her move (or docks her)."""
    from shipwreck.games.spanish_main.geometry import LEG_LENGTH

    _, table = new_table(seats, seed)
    assert table.commands == [], "a stand-in moved before red: not every fleet is at home"
    for seat in range(seats):
        view = sm_view(table, seat)
        mine = [s for s in view.ships if s.owner == seat]
        assert {s.card for s in mine} <= set(sum(PRESETS.values(), ()))
        hints = suggested_moves(view)
        assert set(hints) == {s.id for s in mine}, f"seat {seat}: no move to try for some ship"
        hint_line = str(R.prompt(view, hints))
        for ship in mine:
            line = hints[ship.id]
            assert line in hint_line
            from shipwreck.lang import parse_command

            preview = table.preview(seat, parse_command("spanish_main", line, view))
            ran = sum(d for _, d in preview.legs)
            whole = sum(LEG_LENGTH[k] for k in ship.move)
            assert ran >= 0.5 * whole or " dock " in line, f"{line}: only {ran:.1f}"
        for ship in mine:  # and played one after the other, each as the sea is then
            line = suggested_moves(sm_view(table, seat)).get(ship.id)
            if line is not None:
                assert table.submit_text(seat, line).ok, line
        assert table.submit(seat, EndTurn()).ok


@pytest.mark.parametrize("size", ((80, 24), (120, 40)))
async def test_the_hint_line_is_never_cut(size: tuple[int, int]) -> None:
    """Every item on the hint line is whole at this size (a command as typed, play-test #14):
    what does not fit is counted."""
    lobby, table = new_table(seats=4)
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        rows = screen_rows(app)
        hints = suggested_moves(sm_view(table, 0))
        first = next(i for i, r in enumerate(rows) if "your turn" in r)
        shown = rows[first + 1] + " · " + rows[first + 2]
        assert "…" not in shown
        items = [i.strip() for i in shown.split(" · ") if i.strip()]
        legal = set(legal_texts(sm_view(table, 0)))
        for item in items:
            if item.startswith("+"):
                assert item.endswith(" more: Tab"), item
                continue
            assert item in legal or item in hints.values(), f"{item!r} is cut or not a command"
        assert any(i.startswith("move ") for i in items)


# ------------------------------------------------------------------ a move that goes nowhere


async def test_a_move_blocked_where_she_stands_is_refused_with_what_to_do() -> None:
    """SM-13: a move her bow cannot even begin (docked, bow on her island) is refused: nothing
    is sent, her action is not spent, and the line says what is in the way and what to type
    instead, whole at 80 columns; typed, that works."""
    from sea_helpers import PLAN, bow_on_her_island, two_humans

    lobby, table = two_humans()
    ship = bow_on_her_island(table)
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        before = list(table.commands)
        await type_line(pilot, f"move {ship} S")
        assert table.commands == before, "a move that goes nowhere spent her action"
        assert not any(s.id == ship and s.acted for s in sm_view(table, 0).ships)
        said = screen.panel_text("error")
        assert said.startswith(f"{ship} cannot go that way: her bow is against {PLAN[0][1]}")
        fix = f"'come about {ship}'"
        assert said.endswith(fix)
        shown = " ".join(r.strip() for r in screen_rows(app))
        assert " ".join(said.split()) in shown and "…" not in shown, "the refusal is cut"
        await type_line(pilot, fix.strip("'"))
        assert len(table.commands) == len(before) + 1
        assert any(s.id == ship and s.acted for s in sm_view(table, 0).ships)


# ------------------------------------------------------------------ wide terminals


async def test_at_200_columns_no_fleet_column_is_cut() -> None:
    """Play-test: `towed by…` and `pescados-de…` were cut even at 200 columns. From
    `WIDE_FROM` columns the side is wider: the longest id and 'towed by pescados-de-plata'
    fit."""
    import msgspec

    lobby, table = new_table(seats=2)
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen) and screen.has_class("-wide")
        await pilot.pause()
        text = "\n".join(screen_rows(app))
        assert "pescados-de-plata" in text and "pescados-de…" not in text
        fleet = screen.panel_region("fleet")
        assert fleet is not None
        view = sm_view(table, 0)
        towed = msgspec.structs.replace(view.ships[0], towed_by="pescados-de-plata")
        ships = (towed, *view.ships[1:])
        drawn = _plain(R.fleet(msgspec.structs.replace(view, ships=ships), wide=True), fleet.width)
        assert "towed by pescados-de-plata" in drawn
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not screen.has_class("-wide")


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("seed", RED_FIRST[2][::2])
def test_every_preset_fleet_gets_a_first_move_for_each_ship(preset: str, seed: int) -> None:
    """SM-4, SM-12: the same for each preset fleet (``plain`` too: five ships in one harbour),
    sailed by red, through the rules' own game and view."""
    from shipwreck.games.spanish_main import RULES as game
    from shipwreck.games.spanish_main import rules

    state, _ = game.new_game(seed, 2, {"fleets": [[preset], ["spanish"]]})
    assert state.turn == 0, "SM-2: red moves first at these seeds"
    view = game.view(state, 0)
    hints = suggested_moves(view)
    assert set(hints) == {s.id for s in view.ships if s.owner == 0}
    from shipwreck.lang import parse_command

    for ship, line in hints.items():
        preview = rules.preview(state, 0, parse_command("spanish_main", line, view))
        assert sum(d for _, d in preview.legs) > 2.0 or " dock " in line, f"{ship}: {line}"

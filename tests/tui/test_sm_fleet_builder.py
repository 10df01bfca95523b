"""Building one's own Spanish Main fleet in the app (SM-4, SM-61): ``new sm N fleet build``
opens the fleet-building screen; typed words build a fleet within the point limit, each refusal
one line; ``done`` makes the table with it, kept through a restart and a replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sea_helpers import kept_fleets, sm_view
from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import error, screen_text, type_line

from shipwreck.lang.words import complete_words
from shipwreck.runtime import Lobby
from shipwreck.store import Store
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.spanish_main.fleet_builder import FleetBuilder, change, info
from shipwreck.tui.spanish_main.screen import SpanishMainScreen
from shipwreck.tui.widgets import CommandLine


def said(app: ShipwreckApp) -> str:
    """The builder's message line."""
    return str(app.screen.query_one("#fb-error", Static).render())


def title(app: ShipwreckApp) -> str:
    return str(app.screen.query_one("#fb-title", Static).render())


async def test_sm4_sm61_a_fleet_typed_at_80x24_sails_at_the_new_table(tmp_path: Path) -> None:
    """SM-4, SM-61: add ships and crew, every refusal one line that says why and what to do
    (over the limit, too many crew for her slots, a crew of another nation, a name that is no
    card), points left in the title; ``done`` seats me with that fleet, the bot with a crewed
    preset, and a restart and an exported game keep it."""
    lobby = Lobby(seed=1)
    lobby.attach_store(Store(tmp_path / "s.db"))
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new sm 2 sm_hauler fleet build")
        assert isinstance(app.screen, FleetBuilder)
        assert not lobby.tables  # (no table until the fleet is built)
        assert "30 points · 30 left" in title(app)
        shown = screen_text(app)
        assert "dover" in shown and "Your fleet is empty" in shown
        line = app.screen.query_one("#command", CommandLine)
        assert "first ship?" in line.placeholder
        await type_line(pilot, "add dover")
        assert "20 left" in title(app)
        assert "first ship?" not in line.placeholder and "'done' to sail" in line.placeholder
        await type_line(pilot, "crew explorer-english on dover")
        await type_line(pilot, "add gallowglass")
        assert "13 left · 2 ships" in title(app)
        await type_line(pilot, "add titan")  # 17 > 13
        assert said(app).startswith("34 points, over the limit of 30: drop a ship or crew")
        assert "13 left" in title(app)
        await type_line(pilot, "crew explorer-spanish on gallowglass")
        assert said(app).startswith("explorer-spanish is Spanish crew")
        await type_line(pilot, "crew powder-pete on gallowglass")
        await type_line(pilot, "crew explorer-english on gallowglass")
        await type_line(pilot, "crew musketeer-english on gallowglass")
        assert said(app) == (
            "gallowglass has 2 cargo slots, and her crew would take 3: put the crew on another ship"
        )
        await type_line(pilot, "add galowglass")
        assert said(app) == (
            "no ship or crew card 'galowglass': did you mean 'gallowglass'? the list below has"
            " them all"
        )
        await type_line(pilot, "drop explorer-english")  # (the last one aboard: gallowglass's)
        await type_line(pilot, "add el-picador")
        assert "6 left · 3 ships" in title(app)
        for line in ("info el-picador", "show pirate"):
            await type_line(pilot, line)
            assert "\n" not in said(app)
        await type_line(pilot, "done")
        assert isinstance(app.screen, SpanishMainScreen)
        table = app.screen.table
        mine = "dover+explorer-english gallowglass+powder-pete el-picador"
        assert table.fleets == [mine, "navy"]
        view = sm_view(table, 0)
        red = [s for s in view.ships if s.owner == 0]
        assert [s.card for s in red] == ["dover", "gallowglass", "el-picador"]
        assert [[c.card for c in s.aboard] for s in red] == [
            ["explorer-english"],
            ["powder-pete"],
            [],
        ]
    assert kept_fleets(tmp_path / "s.db", table) == [mine, "navy"]


async def test_done_with_no_ship_and_esc_leave_no_table() -> None:
    """``done`` with an empty fleet says what to do; Esc goes back to the lobby, no table."""
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new sm 2 fleet build")
        await type_line(pilot, "done")
        assert said(app) == "an empty fleet: add a ship"
        await type_line(pilot, "jump")
        assert said(app).startswith("no word 'jump' here: add SHIP")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert not lobby.tables


async def test_build_comes_first_and_the_others_take_the_presets_named() -> None:
    """``fleet build corsairs``: mine built, the next seat corsairs; 'build' elsewhere is
    refused in one line."""
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new sm 2 fleet navy build")
        assert "'build' comes first, for your own fleet" in error(app)
        await type_line(pilot, "new sm 3 fleet build corsairs")
        assert isinstance(app.screen, FleetBuilder)
        await type_line(pilot, "add el-picador")
        await type_line(pilot, "done")
        assert isinstance(app.screen, SpanishMainScreen)
        assert app.screen.table.fleets == ["el-picador", "corsairs", "navy"]


async def test_a_player_who_may_not_make_a_table_is_told_before_building() -> None:
    """At the cap of unfinished tables, ``new sm 2 fleet build`` is refused at once (the
    lobby's line), not after the fleet is built."""
    lobby = Lobby(seed=1, open_tables_per_player=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new sm 2 sm_raider")
        await type_line(pilot, "lobby")
        assert isinstance(app.screen, LobbyScreen)
        await type_line(pilot, "new sm 2 fleet build")
        assert isinstance(app.screen, LobbyScreen)
        assert "you already play at 1 unfinished tables" in error(app)
        assert len(lobby.tables) == 1


def test_snapshot_the_fleet_builder_at_80x24(snap_compare: Any) -> None:
    """The title with the points left, two ships with their crew, the list, a refusal."""
    app = ShipwreckApp(Lobby(seed=1), "ann", "SHA256:ann")

    async def run_before(pilot: Pilot[Any]) -> None:
        for line in (
            "new sm 2 fleet build",
            "add dover",
            "crew explorer on dover",
            "add gallowglass",
            "add titan",
        ):
            await type_line(pilot, line)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_the_lobby_offers_build_after_fleet() -> None:
    assert "build" in complete_words("lobby", "new sm 2 fleet ")


def test_changes_name_repeated_ships_and_drop_the_one_named() -> None:
    """Two el-picadors are el-picador and el-picador-2; ``drop el-picador-2`` drops that one
    with her crew; a crew card typed as a ship says how to crew it."""
    fleet = change([], "add el-picador el-picador")
    assert fleet == [["el-picador"], ["el-picador"]]
    fleet = change(fleet, "crew explorer-spanish on el-picador-2")
    assert fleet == [["el-picador"], ["el-picador", "explorer-spanish"]]
    assert change(fleet, "drop el-picador-2") == [["el-picador"]]
    assert change(fleet, "add explorer-english") == (
        "explorer-english is crew: 'crew explorer-english on SHIP' puts it aboard one of your ships"
    )
    assert change(fleet, "crew explorer-spanish") == (
        "on which ship? 'crew explorer-spanish on el-picador-2' (yours: el-picador, el-picador-2)"
    )
    assert info("dover").startswith("HMS Dover (English, 10 points): move S+S, cannons 3S 3L")


@pytest.mark.parametrize(
    "line",
    [
        "add",
        "add 💥",
        "add dover+explorer-english",
        "crew",
        "crew on",
        "crew dover on dover",
        "crew explorer-english on",
        "crew explorer-english on titan",
        "drop",
        "drop titan",
        "add " + "x" * 300,
        "fly away",
    ],
)
def test_any_bad_line_is_one_line_and_changes_nothing(line: str) -> None:
    """A stranger's bad line: one line saying what to type instead; the fleet is unchanged."""
    fleet = [["dover", "explorer-english"]]
    result = change(fleet, line)
    assert isinstance(result, str), result
    assert result and "\n" not in result and len(result) < 200
    assert fleet == [["dover", "explorer-english"]]


def test_sm61_a_crew_card_of_several_nations_may_be_named_without_its_nation() -> None:
    """``crew explorer on dover``: the Explorer of dover's nation (SM-61: it works there)."""
    assert change([["dover"]], "crew explorer on dover") == [["dover", "explorer-english"]]
    assert change([["el-picador"]], "crew explorer on el-picador") == [
        ["el-picador", "explorer-spanish"]
    ]
    assert change([["dover"]], "crew explorer-spanish on dover") == (
        "explorer-spanish is Spanish crew: it works only on Spanish ships (or one whose card"
        " takes Spanish crew), and dover is English"
    )

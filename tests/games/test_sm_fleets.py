"""Fleets with crew (SM-4, SM-61): the crewed presets (equal points, crew only where it works),
the lobby's ``new sm N fleet NAME…``, a table that keeps its fleets through a restart and a
replay, and the scenario files' ``[fleet]`` section."""

from __future__ import annotations

from pathlib import Path

import pytest
from sea_helpers import kept_fleets, sm_view
from tui_helpers import error, type_line

from shipwreck.games.spanish_main import abilities
from shipwreck.games.spanish_main.fleets import (
    CREWED,
    CREWED_POINTS,
    FleetError,
    entry_problem,
    fleet_cost,
    points,
    split,
    table_fleets,
)
from shipwreck.games.spanish_main.setup import Position, SetupError, from_position, new_game
from shipwreck.games.spanish_main.ships import CARDS, CREW
from shipwreck.lang.words import New, complete_words, parse_words
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.scenario import ScenarioError, from_dict, run
from shipwreck.store import Store
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.spanish_main.screen import SpanishMainScreen
from shipwreck.tui.widgets import CommandLine

# --------------------------------------------------------------------------- the presets


def test_sm4_sm61_every_crewed_preset_costs_the_same_and_carries_crew() -> None:
    """SM-4: the crewed presets are fair to one another: each costs exactly the point limit
    (crew included, SM-61), and each ship's crew fits her cargo slots."""
    for name, entries in CREWED.items():
        assert points(entries) == CREWED_POINTS, name
        assert sum(1 for e in entries if "+" in e) >= 2, f"{name}: a crewed fleet without crew"
        for e in entries:
            assert entry_problem(e) is None, (name, e)
            ship, crew = split(e)
            room = CARDS[ship].cargo - sum(abilities.crew_slots(c) for c in crew)
            assert room >= 1, f"{name}: {ship}'s crew leaves her no room for a coin"


def test_sm61_crew_in_the_presets_works_aboard_the_ship_it_sails() -> None:
    """SM-61: every crew card of a preset uses its ability aboard: in a new game, each piece's
    ability is among her ship's (abilities.of), Royal Fortune's Spanish and Bonny Kate's
    English crew too."""
    state, _ = new_game(4, 4, {"fleets": [[name] for name in CREWED]})
    pieces = 0
    for s in state.ships.values():
        for c in s.aboard:
            text = CREW[c.card].ability
            if text in abilities.TEXTS:
                assert abilities.TEXTS[text] in abilities.of(state, s), (s.id, c.card)
            pieces += 1
    assert pieces == sum(len(split(e)[1]) for es in CREWED.values() for e in es)
    assert {c.card for c in state.ships["royal-fortune"].aboard} == {
        "master-bianco",
        "explorer-spanish",
    }


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        (
            "dover+explorer-spanish",
            "explorer-spanish is Spanish crew: it works only on Spanish ships (or one whose card"
            " takes Spanish crew), and dover is English",
        ),
        ("royal-fortune+explorer-english", "royal-fortune is Pirate"),
        ("dovr+explorer-english", "'dovr' is not on the ship list; did you mean 'dover'?"),
        ("dover+explorr-english", "'explorr-english' is not a crew card; did you mean"),
        (
            "snipe+explorer-pirate+shipwright-pirate",
            "snipe has 1 cargo slots, and her crew would take 2",
        ),
    ],
)
def test_sm61_fleet_building_refuses_crew_that_cannot_sail_there(entry: str, says: str) -> None:
    """SM-61: a crew card naming a nation is bought only onto a ship where it works; unknown
    cards get the closest; crew needs cargo slots. One line, with the fix."""
    with pytest.raises(SetupError, match="options.fleets\\[0\\]: ") as e:
        new_game(1, 2, {"fleets": [[entry], ["armada"]]})
    assert says in str(e.value)
    assert "\n" not in str(e.value)


def test_sm61_a_card_that_takes_any_crew_lets_foreign_crew_aboard() -> None:
    """SM-61: Brother Virgil lets crew of any nation work on his ship, so fleet building
    takes them there; Royal Fortune takes Spanish crew."""
    assert entry_problem("el-picador+brother-virgil+explorer-english") is None
    assert entry_problem("royal-fortune+explorer-spanish") is None
    state, _ = new_game(
        1, 2, {"fleets": [["el-picador+brother-virgil+explorer-english"], ["navy"]]}
    )
    picador = state.ships["el-picador"]
    assert len(abilities.of(state, picador)) == 2  # both crew's, the ship has none
    assert fleet_cost("el-picador+brother-virgil+explorer-english") == 5 + 3 + 1


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_sm4_crewed_tables_of_every_size_set_up(seats: int, seed: int) -> None:
    """SM-4: every table size sails the crewed presets (distinct ones: the lobby's default),
    docked at home, every crew piece aboard as bought."""
    names = table_fleets(seats, [])
    assert len(set(names)) == seats
    state, _ = new_game(seed, seats, {"fleets": [[n] for n in names]})
    for seat, name in enumerate(names):
        mine = [s for s in state.ships.values() if s.owner == seat]
        assert [s.card for s in mine] == [split(e)[0] for e in CREWED[name]]
        for s, e in zip(mine, CREWED[name], strict=True):
            assert [c.card for c in s.aboard] == split(e)[1]
            assert s.docked is not None
            assert s.free_cargo >= 0


def test_table_fleets_fills_the_seats_and_refuses_in_one_line() -> None:
    """``new sm N fleet NAME…``: mine first, the seats left take the crewed presets not named;
    a name that is not a preset, or more names than seats, is refused in one line."""
    assert table_fleets(3, ["corsairs"]) == ["corsairs", "navy", "armada"]
    assert table_fleets(2, ["navy", "navy"]) == ["navy", "navy"]
    assert table_fleets(4, ["smugglers", "navy"]) == ["smugglers", "navy", "armada", "corsairs"]
    with pytest.raises(FleetError, match="did you mean 'navy'"):
        table_fleets(2, ["navvy"])
    with pytest.raises(FleetError, match="3 fleets named for 2 seats"):
        table_fleets(2, ["navy", "armada", "corsairs"])


# --------------------------------------------------------------------------- the lobby


def test_the_lobby_grammar_names_exactly_the_crewed_presets() -> None:
    """The words after ``fleet`` are the crewed presets and ``build`` (one's own: the fleet
    builder) (Tab completes them; a typo gets the closest)."""
    assert complete_words("lobby", "new sm 2 fleet ") == sorted([*CREWED, "build"])
    assert complete_words("lobby", "new sm 2 fleet co") == ["corsairs"]
    assert parse_words("lobby", "new sm 3 sm_raider fleet corsairs navy") == New(
        "spanish_main", 3, ("sm_raider",), ("corsairs", "navy")
    )
    with pytest.raises(ValueError, match="did you mean 'new sm 2 fleet navy'"):
        parse_words("lobby", "new sm 2 fleet navvy")


async def test_new_sm_with_a_fleet_seats_crewed_presets(tmp_path: Path) -> None:
    """SM-4, SM-61: ``new sm 3 sm_hauler fleet corsairs`` sails corsairs for me and the other
    crewed presets for the bots; the table keeps them through a restart (the store) and an
    exported game file replays to the same sea."""
    lobby = Lobby(seed=1)
    lobby.attach_store(Store(tmp_path / "s.db"))
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new sm 3 sm_hauler fleet corsairs")
        assert isinstance(app.screen, SpanishMainScreen)
        table = app.screen.table
        assert table.fleets == ["corsairs", "navy", "armada"]
        view = sm_view(table, 0)
        mine = [s for s in view.ships if s.owner == 0]
        assert [s.card for s in mine] == ["pandora", "greyhound", "treachery"]
        assert [c.card for c in mine[0].aboard] == ["explorer-pirate", "lucky-the-parrot"]
    assert kept_fleets(tmp_path / "s.db", table) == ["corsairs", "navy", "armada"]


async def test_tab_in_the_lobby_completes_a_fleets_name() -> None:
    """Tab after ``fleet`` completes the crewed presets' names."""
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new sm 2 fleet sm", enter=False)
        await pilot.press("tab")
        assert app.screen.query_one("#command", CommandLine).value == "new sm 2 fleet smugglers "


async def test_new_sm_fleet_refusals_are_one_line_and_create_nothing() -> None:
    """A fleet for Lifeboat, an unknown fleet, more fleets than seats: one line each, no table."""
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new 4 fleet navy")
        assert "fleets are Spanish Main's: new sm 2 fleet navy" in error(app)
        await type_line(pilot, "new sm 2 fleet navvy")
        assert "did you mean 'new sm 2 fleet navy'" in error(app)
        await type_line(pilot, "new sm 2 fleet navy armada corsairs")
        assert "3 fleets named for 2 seats" in error(app)
        assert isinstance(app.screen, LobbyScreen)
        assert not lobby.tables


def test_a_table_without_fleets_deals_the_default_game() -> None:
    """No fleet named: the table's game is the default one (no options), as before."""
    lobby = Lobby(seed=1)
    table = lobby.create_table("spanish_main", [SeatSpec("human"), SeatSpec("empty")], "ann", 5)
    _, events = new_game(5, 2)
    assert table.fleets == ["", ""]
    assert table.events[: len(events)] == events  # the same sea, homes, coins and fleets


# --------------------------------------------------------------------------- [fleet] in scenarios


def _scenario(**extra: object) -> dict[str, object]:
    return {"rule": "SM-61", "game": "spanish_main", "seed": 3, "seats": 2, **extra}


def test_sm61_a_scenario_fleet_section_names_each_seats_ships_and_crew() -> None:
    """SM-4, SM-61: ``[fleet]`` names a seat's fleet by entries or a preset; a seat left out
    takes its default preset; the ships are docked at home with their crew aboard."""
    sc = from_dict(
        _scenario(
            fleet={"red": ["dover+explorer-english+powder-pete", "plantagenet"], "blue": "armada"},
            commands=["red: end turn"],
            expect={"ships.dover.crew": ["explorer-english", "powder-pete"]},
        )
    )
    result = run(sc)
    assert result.error is None
    red = {k: v for k, v in result.summary["ships"].items() if v["owner"] == "red"}
    assert list(red) == ["dover", "plantagenet"]
    assert red["dover"]["crew"] == ["explorer-english", "powder-pete"]
    assert red["dover"]["docked"] is not None
    blue = [s for s in result.state.ships.values() if s.owner == 1]
    assert [s.card for s in blue] == [split(e)[0] for e in CREWED["armada"]]
    only_red, _ = from_position(Position(seed=3, fleet={"red": ["dover"]}))
    assert [s.id for s in only_red.ships.values() if s.owner == 1] == [
        "el-picador",
        "el-leon",
        "el-tirador",
        "pescados-de-plata",
    ]  # blue's default preset, 'spanish'


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ({"fleet": {"purple": "navy"}}, "fleet.purple: not a seat at this table (red, blue)"),
        ({"fleet": {"red": ["dover+explorer-spanish"]}}, "fleet.red: explorer-spanish is Spanish"),
        ({"fleet": {"red": ["titan", "leicester"]}}, "fleet.red: 35 points, over the limit of 30"),
        ({"fleet": {"red": "navy"}, "options": {"fleets": [["navy"], ["armada"]]}}, "named twice"),
        (
            {"fleet": {"red": "navy"}, "ships": [{"card": "dover", "x": 30, "y": 30}]},
            "[[ships]] places every ship",
        ),
        ({"fleet": {"red": 3}}, "Expected `str | array`, got `int` - at `$.fleet[...]`"),
    ],
)
def test_a_bad_fleet_section_is_refused_with_the_key(extra: dict[str, object], says: str) -> None:
    """A ``[fleet]`` that cannot be: the key and the reason, in one line."""
    with pytest.raises((ScenarioError, SetupError)) as e:
        run(from_dict(_scenario(**extra)))
    assert says in str(e.value)
    assert "\n" not in str(e.value)


def test_the_crewed_presets_name_only_cards_on_the_list() -> None:
    for entries in CREWED.values():
        for e in entries:
            ship, crew = split(e)
            assert ship in CARDS and all(c in CREW for c in crew)

"""Fleet building (SM-4, SM-61), the game's one check of a fleet: the point limit, crew slots,
crew only where it works, and a built fleet kept as one seat's fleet word (how a table keeps it
with its seats)."""

from __future__ import annotations

import pytest

from shipwreck.games.spanish_main.fleets import (
    POINT_LIMIT,
    FleetError,
    built,
    fleet_options,
    fleet_problem,
    points,
    seat_fleet,
)
from shipwreck.games.spanish_main.setup import SetupError, new_game


def test_sm4_the_point_limit_is_30_and_a_fleet_at_it_sails() -> None:
    """SM-4: 30 points by default; a fleet of exactly 30 sails, 31 is refused with the total,
    the limit and what to do."""
    assert POINT_LIMIT == 30
    crewed = ["dover+explorer-english", "lord-walpole", "el-picador+explorer-spanish"]
    assert points(crewed) == 10 + 1 + 10 + 5 + 1  # (crew cost their points, SM-61)
    thirty = ["dover", "lord-walpole", "el-picador", "el-picador"]
    assert points(thirty) == 30
    assert fleet_problem(thirty) is None
    over = [*thirty[:3], "gallowglass"]  # 10 + 10 + 5 + 6
    problem = fleet_problem(over)
    assert problem is not None
    assert problem.startswith("31 points, over the limit of 30: drop a ship or crew")
    assert fleet_problem(over, limit=31) is None


def test_sm4_an_empty_fleet_is_refused_with_what_to_do() -> None:
    assert fleet_problem([]) == "an empty fleet: add a ship"


def test_sm61_crew_take_cargo_slots_and_no_more_than_the_ship_has() -> None:
    """SM-61: each crew takes a slot unless its card says it takes none (oarsmen); gallowglass
    has 2 cargo slots."""
    assert fleet_problem(["gallowglass+explorer-english+powder-pete"]) is None
    problem = fleet_problem(["gallowglass+explorer-english+powder-pete+musketeer-english"])
    assert problem == (
        "gallowglass has 2 cargo slots, and her crew would take 3: put the crew on another ship"
    )
    assert fleet_problem(["gallowglass+explorer-english+powder-pete+oarsman-english"]) is None


def test_sm61_crew_work_only_on_their_nations_ships() -> None:
    problem = fleet_problem(["dover+explorer-spanish"])
    assert problem is not None
    assert problem.startswith("explorer-spanish is Spanish crew: it works only on Spanish ships")


def test_sm61_crew_need_abilities_on() -> None:
    assert fleet_problem(["dover+explorer-english"], with_abilities=False) == (
        "crew play only with abilities on"
    )


def test_setup_refuses_what_fleet_problem_refuses_with_where() -> None:
    """The setup's check is the same one (a scenario's or a table option's fleet)."""
    with pytest.raises(SetupError, match=r"options.fleets\[0\]: an empty fleet: add a ship"):
        new_game(1, 2, {"fleets": [[], ["navy"]]})


def test_sm4_a_built_fleet_is_one_seat_word_and_deals_its_ships_and_crew() -> None:
    """A built fleet kept with a table's seats (one word per seat) becomes the table's options:
    the seat sails those ships with that crew aboard."""
    entries = ["dover+explorer-english+powder-pete", "el-picador", "gallowglass"]
    word = built(entries)
    assert word == "dover+explorer-english+powder-pete el-picador gallowglass"
    assert seat_fleet(word) == entries
    assert seat_fleet("navy") == ["navy"]
    assert seat_fleet("dover") == ["dover"]  # (a fleet of one ship)
    options = fleet_options(2, [word, "armada"])
    assert options == {"fleets": [entries, ["armada"]]}
    state, _ = new_game(7, 2, options)
    red = [s for s in state.ships.values() if s.owner == 0]
    assert [s.card for s in red] == ["dover", "el-picador", "gallowglass"]
    assert [c.card for c in red[0].aboard] == ["explorer-english", "powder-pete"]


@pytest.mark.parametrize(
    ("word", "says"),
    [
        ("titan leicester", "fleet 'titan leicester': 35 points, over the limit of 30"),
        ("dover+explorer-spanish", "explorer-spanish is Spanish crew"),
        ("navvy", "no fleet 'navvy'; did you mean 'navy'?"),
    ],
)
def test_a_built_fleet_that_cannot_sail_is_refused_in_one_line(word: str, says: str) -> None:
    """SM-4, SM-61: the table's options refuse a seat's built fleet that fleet building refuses."""
    with pytest.raises(FleetError, match=says) as e:
        fleet_options(2, [word, "navy"])
    assert "\n" not in str(e.value)

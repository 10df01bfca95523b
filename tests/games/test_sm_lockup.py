"""Spanish Main ships never lock up (SM-12: a turn is a placement), a move that goes nowhere is
refused rather than spent (SM-13), and the bow runs from the tip to the first mast (SM-6).

Each lock-up the audit found has its regression test: a ship that sails ``L 0`` into the sea's
edge, one stopped bow to bow with a friend, one stopped short of an enemy home. Then a property
over seeded random games: every sailing, unpinned ship has a move that takes her somewhere.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec
import pytest
from sm_moves import random_game, runs_somewhere, should_sail, stuck

from shipwreck.engine.core import IllegalCommand
from shipwreck.games.spanish_main import RULES, rules
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main import geometry as geo
from shipwreck.games.spanish_main.setup import IslandPosition, Position, ShipPosition
from shipwreck.games.spanish_main.state import Options, SpanishMainState

RED, BLUE = 0, 1
ISLANDS = [
    IslandPosition(10, 28, 5, id="isla-1", home=RED),
    IslandPosition(60, 28, 5, id="isla-2", home=BLUE),
    IslandPosition(35, 45, 5, id="isla-3", coins=[3, 1, 5]),
]
FAR_BLUE = ShipPosition("albion", BLUE, 60, 52, 90, id="far-blue")


def game(*ships: ShipPosition, **options: Any) -> SpanishMainState:
    pos = Position(
        seed=7, seats=2, islands=list(ISLANDS), ships=[*ships, FAR_BLUE], options=Options(**options)
    )
    state, _ = RULES.from_position(pos)
    return state


def sail(state: SpanishMainState, cmd: C.Command) -> list[str]:
    """Apply a red command, pass any free action it opens; the log lines."""
    out = [e.text for e in RULES.apply(state, RED, cmd)]
    if rules.prompt_of(state, RED) == "after_move":
        out += [e.text for e in RULES.apply(state, RED, C.Pass())]
    return out


def next_turn(state: SpanishMainState) -> None:
    """Red ends the turn, blue ends its own: red's turn again, no action given."""
    RULES.apply(state, RED, C.EndTurn())
    RULES.apply(state, BLUE, C.EndTurn())


def frozen(state: SpanishMainState) -> bytes:
    return msgspec.json.encode(state)


def test_sm12_ship_run_into_the_sea_edge_sails_off_it() -> None:
    """SM-12: el-leon sails ``L 0`` into the south edge at a slant; then she can turn away and
    sail (before, every turn pivoted her bow into the edge: locked up for good)."""
    state = game(ShipPosition("el-leon", RED, 30, 5, 196, id="el-leon"))
    log = sail(state, C.Move("el-leon", (("L", 0.0, None),)))
    assert any("touches the edge of the sea" in line for line in log)
    next_turn(state)
    leon = state.ships["el-leon"]
    stopped = leon.y
    assert should_sail(state, leon) and runs_somewhere(state, leon)
    sail(state, C.Move("el-leon", (("L", 90.0, None),)))
    assert leon.y > stopped + 1.0 and leon.heading == pytest.approx(286.0)


def test_sm12_ship_bow_to_bow_with_a_friend_turns_away() -> None:
    """SM-12: dover runs bow to bow into plantagenet (a friend: no pin); a turn about her bow's
    rounding leaves her bow where it was, so she can turn either way and sail off."""
    state = game(
        ShipPosition("dover", RED, 28, 30, 90, id="dover"),
        ShipPosition("plantagenet", RED, 32, 30, 270, id="plantagenet"),
    )
    log = sail(state, C.Move("dover", (("S", 0.0, None),)))
    assert any("her bow touches plantagenet" in line for line in log)
    next_turn(state)
    stopped = state.ships["dover"]
    for turn, heading in ((90.0, 180.0), (-90.0, 0.0)):
        turned = msgspec.json.decode(frozen(state), type=SpanishMainState)
        sail(turned, C.Move("dover", (("S", turn, None),)))
        dover = turned.ships["dover"]
        assert dover.heading == pytest.approx(heading)
        assert abs(dover.y - stopped.y) == pytest.approx(geo.HULL_RADIUS + geo.S)


def test_sm12_ship_stopped_short_of_an_enemy_home_turns_away() -> None:
    """SM-12, SM-14: el-leon stops short of blue's home (no one docks there) and can leave."""
    state = game(ShipPosition("el-leon", RED, 48, 28, 90, id="el-leon"))
    log = sail(state, C.Move("el-leon", (("L", 0.0, None),)))
    assert any("stops short of isla-2" in line for line in log)
    next_turn(state)
    assert runs_somewhere(state, state.ships["el-leon"])
    sail(state, C.Move("el-leon", (("L", -90.0, None),)))
    assert state.ships["el-leon"].y > 30.0


def boxed_in() -> SpanishMainState:
    """Where raider against raider left el-tirador (seed 9, round 6): her bow against the
    derelict dover, a rock astern and el-leon to starboard. Every turn about her bow swings her
    into one of them, and running straight ahead runs into dover."""
    pos = Position(
        seed=7,
        seats=2,
        islands=[*ISLANDS, IslandPosition(35.49, 10.72, 5.24, id="rock")],
        ships=[
            ShipPosition("el-tirador", RED, 33.80, 17.91, 268.3, id="el-tirador"),
            ShipPosition("dover", RED, 33.71, 15.66, 160.1, id="dover", masts=0),
            ShipPosition("el-leon", RED, 32.99, 20.03, 248.2, id="el-leon"),
            FAR_BLUE,
        ],
    )
    state, _ = RULES.from_position(pos)
    return state


def test_sm12_sm16_a_ship_boxed_in_with_her_bow_against_something_comes_about() -> None:
    """SM-12's promise (every sailing, unpinned ship has a move), kept where a turn about the
    bow cannot keep it: no move of el-tirador's takes her anywhere, so she may come about as a
    docked ship may (SM-16, this server's rule: her bow is against something). Coming about
    takes exactly the water she lies in; her bow is then where her stern was, and next turn
    she sails out. The refusals of her moves name it."""
    state = boxed_in()
    tirador = state.ships["el-tirador"]
    assert tirador.docked is None and not tirador.derelict
    assert rules.pinned_by(state, tirador) is None
    assert not runs_somewhere(state, tirador, come_about=False)  # boxed in: no move runs her
    assert C.ComeAbout("el-tirador") in RULES.choices(state, RED)
    with pytest.raises(IllegalCommand) as err:
        RULES.apply(state, RED, C.Move("el-tirador", (("L", 0.0, None),)))
    assert str(err.value) == (
        "el-tirador cannot go that way: her bow is against dover;"
        " to take her in tow where she lies: 'tow el-tirador dover'"
    )
    with pytest.raises(IllegalCommand) as err:
        RULES.apply(state, RED, C.Move("el-tirador", (("L", 60.0, None),)))
    assert str(err.value).endswith(
        "no turn takes her clear: 'come about el-tirador' turns her round"
    )
    stern = rules.come_about_pose(tirador)
    log = sail(state, C.ComeAbout("el-tirador"))
    assert log == ["el-tirador comes about against dover"]
    assert (tirador.x, tirador.y, tirador.heading) == stern
    assert tirador.heading == pytest.approx(88.3)
    next_turn(state)
    assert runs_somewhere(state, tirador, come_about=False)  # now she sails out
    sail(state, C.Move("el-tirador", (("L", 0.0, None),)))
    assert tirador.x > stern[0] + 5.0


def test_sm16_a_ship_whose_bow_is_clear_does_not_come_about_at_sea() -> None:
    """SM-16: at sea with nothing against her bow, coming about is refused (her move takes her
    somewhere), with a line that says when a ship may."""
    state = game(ShipPosition("dover", RED, 30, 20, 90, id="dover"))
    before = frozen(state)
    assert C.ComeAbout("dover") not in RULES.choices(state, RED)
    with pytest.raises(IllegalCommand) as err:
        RULES.apply(state, RED, C.ComeAbout("dover"))
    assert str(err.value).startswith("dover is not docked and her bow is against nothing:")
    assert frozen(state) == before


def test_sm12_every_sailing_unpinned_ship_has_a_move_in_random_games() -> None:
    """SM-12's promise, over seeded random games (each checked at every round's end): every
    sailing ship that is not pinned (SM-19) has a move that runs her somewhere, or (docked) may
    come about (SM-16)."""
    start = time.perf_counter()
    checked = 0
    for seed in range(4):
        for rounds in (6, 14):
            state = random_game(seed, 2, rounds)
            checked += sum(1 for s in state.ships.values() if should_sail(state, s))
            assert stuck(state) == [], f"seed {seed}, round {rounds}"
    assert checked >= 40
    assert time.perf_counter() - start < 60


def test_sm13_a_move_blocked_where_it_begins_is_refused_not_spent() -> None:
    """SM-13: a move stopped by a touch before she has gone anywhere is refused: the state is
    unchanged, her action is not spent, and the one-line error says why and what to try."""
    state = game(
        ShipPosition("dover", RED, 28, 30, 90, id="dover"),
        ShipPosition("plantagenet", RED, 32, 30, 270, id="plantagenet"),
    )
    sail(state, C.Move("dover", (("S", 0.0, None),)))
    next_turn(state)
    before = frozen(state)
    with pytest.raises(IllegalCommand) as err:
        RULES.apply(state, RED, C.Move("dover", (("S", 0.0, None),)))
    text = str(err.value)
    assert text.startswith("dover cannot go that way: her bow is against plantagenet; try 'move")
    assert "\n" not in text
    assert frozen(state) == before and "dover" not in state.acted
    tried = text.split("try '", 1)[1].rstrip("'")
    words = tried.split()
    legs = ((words[2], float(words[3]) if len(words) > 3 else 0.0, None),)
    sail(state, C.Move("dover", legs))  # what it suggests works
    assert "dover" in state.acted


def test_sm12_a_first_turn_onto_something_is_refused() -> None:
    """SM-12: a first leg whose turn would set her down on a ship she does not sail clear of is
    refused (nothing changes), naming the ship and a move to try."""
    state = game(
        ShipPosition("dover", RED, 30, 30, 0, id="dover"),
        ShipPosition("plantagenet", RED, 33, 28, 0, id="plantagenet"),
    )
    before = frozen(state)
    with pytest.raises(IllegalCommand) as err:
        RULES.apply(state, RED, C.Move("dover", (("S", -45.0, 1.0),)))
    assert str(err.value) == (
        "dover cannot turn -45° there: her port side would swing onto plantagenet;"
        " try 'move dover S -45'"
    )
    assert frozen(state) == before
    sail(state, C.Move("dover", (("S", -45.0, None),)))  # the whole leg sails her clear of it
    assert "dover" in state.acted


def test_sm6_the_bow_runs_from_the_tip_to_the_first_mast() -> None:
    """SM-6: the bow is the hull from the bow tip to the first mast (SM-5: at 30 % of the hull's
    length, 60 % for one mast): it decides ram contacts (SM-18) and pins (SM-19)."""
    assert geo.bow_length(geo.hull_length(4)) == pytest.approx(0.3 * 6.5)
    assert geo.bow_length(geo.hull_length(1)) == pytest.approx(0.6 * 3.5)

    def touching_at(along: float) -> bool:
        """Does dover's bow touch an enemy whose stern touches her side ``along`` from her tip?"""
        gap = 2 * geo.HULL_RADIUS + 0.005
        enemy = ShipPosition("albion", BLUE, 30 - along, 30 + gap - geo.HULL_RADIUS + 3.5, 0)
        state = game(ShipPosition("dover", RED, 30, 30, 90, id="dover"), enemy)
        dover, albion = state.ships["dover"], state.ships["albion"]
        assert rules.touches_island is not None and geo.segment_segment(
            rules._axis(dover), rules._axis(albion)
        )[0] == pytest.approx(gap)
        return rules.bow_touches(dover, albion)

    assert touching_at(1.8)  # past the old 1.2 units, before dover's first mast (1.95)
    assert not touching_at(2.2)

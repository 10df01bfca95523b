"""Spanish Main rules: one test per rule id (SM-…) and per oracle of §7, then properties of random
games (they end, they replay byte for byte, views and events hide coin values, illegal commands
change nothing, every listed choice applies).

Positions are fixed with :class:`Position` and dice forced with its ``dice`` list. The standard
sea below: red's home isla-1 on the west, blue's home isla-2 on the east, two wild islands with
coins 1-3 (values 3, 1, 5) on isla-3 and 4-5 (2, 6) on isla-4, and a small ship of each side far
off in the north so that both sides have a fleet. Headings are compass degrees (0 north, 90
east); a ship's x, y is its bow tip.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sm_helpers import (
    BLUE,
    ISLANDS,
    RED,
    S0,
    clone,
    do,
    encode,
    end_turns,
    game,
    kinds,
    known_to,
    refused,
    scramble,
)

from shipwreck.engine.core import SYSTEM, Event, IllegalCommand
from shipwreck.games import get_ruleset
from shipwreck.games.spanish_main import RULES, rules
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main import geometry as geo
from shipwreck.games.spanish_main.setup import (
    SEA,
    SHEET,
    IslandPosition,
    SetupError,
    ShipPosition,
    new_game,
)
from shipwreck.games.spanish_main.ships import CARDS, PRESETS, fleet_points, offered
from shipwreck.games.spanish_main.state import Options, SpanishMainState
from shipwreck.games.spanish_main.view import SpanishMainView


def gap_to_island(state: SpanishMainState, sid: str, iid: str) -> float:
    s, i = state.ships[sid], state.islands[iid]
    return geo.island(i.id, i.x, i.y, i.r).gap(rules._axis(s))


L0: C.Leg = ("L", 0.0, None)


# =========================================================================== §1 the sea


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_sm1_sea_size_by_players(seats: int) -> None:
    """SM-1: 70 x 56 for 2, 84 x 63 for 3, 98 x 70 for 4; S = 5, L = 7."""
    state, _ = new_game(3, seats)
    assert (state.width, state.height) == {2: (70, 56), 3: (84, 63), 4: (98, 70)}[seats]
    assert (geo.S, geo.L) == (5.0, 7.0)


def test_sm1_edge_stops_a_move_and_no_one_docks_there() -> None:
    """SM-1: the edge stops a move like an island; the ship is not docked."""
    state = game(ShipPosition("dover", RED, 64, 40, 90))
    log = do(state, RED, C.Move("dover", (S0, S0)))
    s = state.ships["dover"]
    assert any("touches the edge of the sea" in line for line in log)
    assert 70 - geo.HULL_RADIUS - s.x <= geo.CONTACT + 1e-9
    assert s.docked is None


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_sm2_islands_placed_by_seed(seats: int) -> None:
    """SM-2: 3 islands per player, radius 4-6, edges at least 2 L apart and each within 4 L of
    another; one home per player, the rest wild; the same seed gives the same sea."""
    seas = set()
    for seed in range(12):
        state, _ = new_game(seed, seats)
        isl = list(state.islands.values())
        assert len(isl) == 3 * seats
        for i in isl:
            assert 4.0 <= i.r <= 6.0
            assert i.r <= i.x <= state.width - i.r and i.r <= i.y <= state.height - i.r
            gaps = [((i.x - j.x) ** 2 + (i.y - j.y) ** 2) ** 0.5 - i.r - j.r for j in isl if j != i]
            assert min(gaps) >= 2 * geo.L - 1e-9
            assert min(gaps) <= 4 * geo.L + 1e-9
        assert sorted(i.home for i in isl if i.home is not None) == list(range(seats))
        seas.add(encode(state.islands))
        again, _ = new_game(seed, seats)
        assert encode(again.islands) == encode(state.islands)
    assert len(seas) == 12


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_sm3_treasure_dealt_face_down(seats: int) -> None:
    """SM-3: 6 coins per player with values from the sheets, evenly over the wild islands, and no
    one knows any value (every view shows None); the total is announced."""
    state, events = new_game(11, seats)
    assert len(state.coins) == 6 * seats
    pool = Counter(SHEET * 2)
    assert not Counter(c.value for c in state.coins) - pool
    wild = [i for i in state.islands.values() if i.home is None]
    assert {len(i.coins) for i in wild} == {3}
    assert all(not c.known for c in state.coins)
    assert state.gold_total == sum(c.value for c in state.coins)
    assert any(f"{state.gold_total} gold in {6 * seats} coins" in e.text for e in events)
    for seat in [None, *range(seats)]:
        v = RULES.view(state, seat)
        assert all(c.value is None for i in v.islands for c in i.coins)


# =========================================================================== §2 fleets and ships


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_sm4_fleets_to_the_point_limit_docked_facing_out(seats: int) -> None:
    """SM-4: each fleet is within the point limit and starts docked at its home island, touching
    it, facing out (heading away from the island's centre)."""
    state, _ = new_game(5, seats)
    for seat in range(seats):
        fleet = [s for s in state.ships.values() if s.owner == seat]
        assert fleet and sum(s.points for s in fleet) <= 30
        home = next(i for i in state.islands.values() if i.home == seat)
        for s in fleet:
            assert s.docked == home.id
            assert abs(gap_to_island(state, s.id, home.id)) <= geo.TOUCH
            assert abs(geo.turn_between(geo.bearing(home.x, home.y, s.x, s.y), s.heading)) < 1e-3


def test_sm4_point_limit_presets_and_bow_in_start() -> None:
    """SM-4: a fleet over the limit is refused; presets are at most 30 points; the 'in' start
    docks bow first, so a ship must come about before sailing straight on."""
    assert all(fleet_points(f) <= 30 for f in PRESETS.values())
    with pytest.raises(SetupError, match="over the limit"):
        new_game(1, 2, {"fleets": [["titan", "leicester"], ["spanish"]]})
    state, _ = new_game(1, 2, {"fleets": [["pirate"], ["dover", "el-picador"]], "start": "in"})
    assert [s.id for s in state.ships.values() if s.owner == BLUE] == ["dover", "el-picador"]
    dover = state.ships["dover"]
    home = state.islands[dover.docked or ""]
    assert abs(geo.turn_between(geo.bearing(dover.x, dover.y, home.x, home.y), dover.heading)) < 1
    if state.turn == RED:  # (SM-2: the first player is rolled)
        end_turns(state, RED)
    refused(state, BLUE, C.Move("dover", (S0,)), "come about first")
    do(state, BLUE, C.ComeAbout("dover"))


def test_sm5_ship_data_and_hull() -> None:
    """SM-5: ships come from the list: HMS Dover is 10 points, 4 masts 3S-3L-3L-3S, 5 cargo, S+S;
    her hull is 2.5 + 4 = 6.5 long with radius 0.8; ids are unique per table."""
    d = CARDS["dover"]
    assert (d.points, d.masts, d.cargo, d.move) == (10, 4, 5, ("S", "S"))
    assert d.cannons == ((3, "S"), (3, "L"), (3, "L"), (3, "S"))
    assert all(len(c.cannons) == c.masts for c in CARDS.values())
    state = game(
        ShipPosition("el-picador", RED, 40, 20, 90), ShipPosition("el-picador", BLUE, 40, 35, 90)
    )
    assert sorted(state.ships) == ["el-picador", "el-picador-2", "far-blue", "far-red"]
    assert state.ships["el-picador"].length == 4.5
    dover = game(ShipPosition("dover", RED, 40, 20, 90)).ships["dover"]
    assert dover.length == 6.5 and [f"{m.rank}{m.range}" for m in dover.masts] == [
        "3S",
        "3L",
        "3L",
        "3S",
    ]


def test_sm6_abilities_on_by_default() -> None:
    """SM-6: abilities are part of the game and on by default; every ship is offered, with or
    without them (``abilities = false`` plays plain hulls: tests/games/test_sm_cards.py)."""
    assert Options().abilities is True
    assert len(offered()) == len(offered(False)) == len(CARDS) > 50
    state, _ = new_game(2, 2)
    assert state.options.abilities and all(s.crew == 0 for s in state.ships.values())
    state, _ = new_game(2, 2, {"abilities": False, "fleets": [["plain"], ["plain"]]})
    assert {s.card for s in state.ships.values()} == {"dover", "el-picador"}


# =========================================================================== §3 turns and actions


def test_sm10_one_action_per_ship_then_end_turn() -> None:
    """SM-10: whole turns in order; each ship one action; the player ends the turn."""
    state = game(ShipPosition("dover", RED, 40, 20, 90), ShipPosition("el-leon", BLUE, 40, 35, 90))
    assert kinds(state) == [(RED, "turn")]
    refused(state, BLUE, C.Move("el-leon", (L0,)), "cannot move now")
    do(state, RED, C.Move("dover", (S0,)))
    refused(state, RED, C.Move("dover", (S0,)), "had her action")
    refused(state, RED, C.Shoot("dover", "el-leon"), "had her action")
    assert not any(isinstance(c, C.Move) and c.ship == "dover" for c in RULES.choices(state, RED))
    do(state, RED, C.EndTurn())
    assert kinds(state) == [(BLUE, "turn")] and state.round == 1
    refused(state, RED, C.Move("far-red", (L0,)), "cannot move now")
    do(state, BLUE, C.EndTurn())
    assert kinds(state) == [(RED, "turn")] and state.round == 2
    do(state, RED, C.Move("dover", (S0,)))


def test_oracle3_sm11_derelict_cannot_move_or_shoot_and_one_hit_sinks_it() -> None:
    """Oracle 3, SM-11: a ship with 0 masts cannot move or shoot; it still carries treasure;
    one hit sinks it, with its cargo."""
    state = game(
        ShipPosition("dover", RED, 40, 30, 90),
        ShipPosition("el-picador", BLUE, 38, 34, 90, masts=0, cargo=[2]),
        dice=(6,),
        turn=BLUE,
    )
    pic = state.ships["el-picador"]
    assert pic.derelict and len(pic.cargo) == 1
    refused(state, BLUE, C.Move("el-picador", (S0,)), "derelict")
    refused(state, BLUE, C.MoveToward("el-picador", "isla-3"), "derelict")
    refused(state, BLUE, C.Shoot("el-picador", "dover"), "derelict")
    do(state, BLUE, C.EndTurn())
    log = do(state, RED, C.Shoot("dover", "el-picador", (1,)))
    assert "el-picador" not in state.ships and state.sunk == ["el-picador"]
    assert any("sinks with 1 coin" in line for line in log)
    assert state.coins[-1].place == "lost"


def test_sm12_legs_in_either_order() -> None:
    """SM-12: a combination move (S+L) may be sailed in either order."""
    for legs in ((S0, L0), (L0, S0)):
        state = game(ShipPosition("plantagenet", RED, 20, 20, 90))
        do(state, RED, C.Move("plantagenet", legs))
        assert state.ships["plantagenet"].x == pytest.approx(32.0)


def test_sm12_arcs_and_lengths_are_enforced() -> None:
    """SM-12: each leg turns at most 90° either way and runs at most its length; only the base
    move's legs; a shorter distance is honoured."""
    state = game(ShipPosition("dover", RED, 40, 20, 90))
    refused(state, RED, C.Move("dover", (S0, ("S", 120.0, None))), "leg 2 turns 120°, at most 90°")
    refused(state, RED, C.Move("dover", (("S", 0.0, 6.0),)), r"leg 1 is S: at most 5, not 6")
    refused(state, RED, C.Move("dover", (L0,)), "has no L leg")
    refused(state, RED, C.Move("dover", (S0, S0, S0)), "at most 2 legs")
    refused(state, RED, C.Move("dover", ()), "at least one leg")
    refused(state, RED, C.Move("dover", (("S", 0.0, 0.0),)), "does not move")
    do(state, RED, C.Move("dover", (("S", 0.0, 3.5),)))
    assert state.ships["dover"].x == pytest.approx(43.5)


def test_sm12_turn_about_the_centre_of_the_bow_rounding() -> None:
    """SM-12: the ship turns about the centre of her bow's rounding (it stays put: here at
    (39.2, 20)), then runs; she turns only between legs."""
    state = game(ShipPosition("dover", RED, 40, 20, 90))
    do(state, RED, C.Move("dover", (("S", -90.0, 0.0), ("S", 45.0, 2.0))))
    s = state.ships["dover"]
    assert s.heading == pytest.approx(45.0)
    r, d = geo.HULL_RADIUS * 0.7071068, 2 * 0.7071068
    assert (s.x, s.y) == pytest.approx((40 - geo.HULL_RADIUS + r + d, 20 + r + d))


def test_sm13_cannot_pass_through_a_ship() -> None:
    """SM-13: a ship in the way stops the move at the touch; the rest of the move is lost."""
    state = game(
        ShipPosition("dover", RED, 30, 25, 90),
        ShipPosition("el-leon", BLUE, 36, 28, 0),  # lying north-south across dover's path
    )
    log = do(state, RED, C.Move("dover", (S0, S0)))
    s = state.ships["dover"]
    assert s.x < 36 - 0.8 and 36 - 0.8 - s.x <= geo.CONTACT + 1e-9
    assert any("touches el-leon" in line and "is lost" in line for line in log)


def test_oracle7_sm13_sm14_touch_in_leg_1_stops_and_docks() -> None:
    """Oracle 7, SM-13, SM-14: a ship touching an island during leg 1 of S+L stops and docks;
    leg 2 is lost."""
    state = game(ShipPosition("plantagenet", RED, 26, 45, 90))
    log = do(state, RED, C.Move("plantagenet", (S0, L0)))
    s = state.ships["plantagenet"]
    assert s.docked == "isla-3"
    assert s.x == pytest.approx(30.0, abs=geo.CONTACT)
    assert any("after 4.0 of leg 1 (the rest of her move is lost)" in line for line in log)
    assert any("docks at isla-3" in line for line in log)


def test_sm13_preview_tells_where_a_move_stops_and_changes_nothing() -> None:
    """SM-13: a UI may preview a move: where it ends and what stops it, exactly as apply would
    make it, refused for the same reasons, and nothing changes."""
    state = game(ShipPosition("plantagenet", RED, 26, 45, 90))
    before = encode(state)
    pv = RULES.preview(state, RED, C.Move("plantagenet", (("S", 0.0, None), L0)))
    assert pv.stop == "her bow touches isla-3 after 4.0 of leg 1"
    with pytest.raises(IllegalCommand, match="leg 1 turns 100°"):
        RULES.preview(state, RED, C.Move("plantagenet", (("S", 100.0, None),)))
    assert encode(state) == before
    do(state, RED, C.Move("plantagenet", (S0, L0)))
    s = state.ships["plantagenet"]
    assert (pv.x, pv.y, pv.heading) == (s.x, s.y, s.heading)


def test_oracle9_sm14_no_docking_at_an_enemy_home() -> None:
    """Oracle 9, SM-14: a ship cannot dock at an enemy home island; its move stops just short."""
    state = game(ShipPosition("dover", RED, 52, 28, 90))
    refused(state, RED, C.MoveDock("dover", "isla-2"), "blue's home")
    log = do(state, RED, C.Move("dover", (S0, S0)))
    s = state.ships["dover"]
    assert s.docked is None
    assert geo.TOUCH < gap_to_island(state, "dover", "isla-2") <= geo.STANDOFF
    assert any("stops short of isla-2" in line for line in log)
    end_turns(state, RED, BLUE)
    refused(state, RED, C.Move("dover", (S0,)), "against isla-2")


def test_sm14_dock_helper() -> None:
    """SM-14: 'move SHIP dock ISLAND' sails straight for the island and docks, or is refused."""
    state = game(ShipPosition("dover", RED, 40, 31, 0))
    do(state, RED, C.MoveDock("dover", "isla-3"))
    assert state.ships["dover"].docked == "isla-3"
    state = game(ShipPosition("dover", RED, 40, 20, 180))
    refused(state, RED, C.MoveDock("dover", "isla-3"), "cannot")
    state = game(ShipPosition("dover", RED, 40, 22, 0))
    refused(state, RED, C.MoveDock("dover", "isla-3"), "cannot reach isla-3 this turn")


def test_oracle8_sm15_unload_at_home() -> None:
    """Oracle 8, SM-15: docking at home with coins 1, 4, 6 adds 11 gold and empties the cargo;
    the coins are revealed to everyone."""
    state = game(ShipPosition("dover", RED, 22, 28, 270, cargo=[1, 4, 6]))
    log = do(state, RED, C.Move("dover", (S0, S0)))
    assert state.ships["dover"].docked == "isla-1"
    assert state.gold == [11, 0] and state.ships["dover"].cargo == []
    assert any("11 gold for red" in line for line in log)
    home = RULES.view(state, BLUE).home_coins[RED]
    assert sorted(state.coins[k - 1].value for k in home) == [1, 4, 6]
    assert all(BLUE in state.coins[k - 1].known for k in RULES.view(state, None).home_coins[RED])


def test_sm16_come_about() -> None:
    """SM-16: a docked ship's move may instead come about: the bow ends where the stern was; it
    is that ship's action. Only docked ships come about."""
    state = game(
        ShipPosition("dover", RED, 35, 39.995, 0), ShipPosition("el-leon", RED, 20, 20, 90)
    )
    assert state.ships["dover"].docked == "isla-3"
    refused(state, RED, C.Move("dover", (S0,)), "come about first")
    refused(state, RED, C.ComeAbout("el-leon"), "not docked")
    stern = geo.axis(35, 39.995, 0, 6.5)
    do(state, RED, C.ComeAbout("dover"))
    s = state.ships["dover"]
    assert (s.x, s.y, s.heading) == pytest.approx((35, 39.995 - 6.5, 180))
    assert stern[3] == pytest.approx(s.y + 0.8)
    assert s.docked == "isla-3" and "dover" in state.acted
    end_turns(state, RED, BLUE)
    do(state, RED, C.Move("dover", (S0,)))
    assert state.ships["dover"].y == pytest.approx(39.995 - 11.5)


def _tow_scene(**kw: Any) -> SpanishMainState:
    """Plantagenet (red, S+L) sails south onto the bow of a blue derelict el-picador."""
    state = game(
        ShipPosition("plantagenet", RED, 30.5, 33, 180),
        ShipPosition("el-picador", BLUE, 30, 28, 270, masts=0, **kw),
    )
    do(state, RED, C.Move("plantagenet", (S0,)))
    return state


def test_oracle6_sm17_a_tower_moves_a_single_s_leg() -> None:
    """Oracle 6, SM-17: a ship with base move L+S that tows moves a single S leg."""
    state = _tow_scene()
    assert kinds(state) == [(RED, "after_move")]
    assert C.Tow("plantagenet", "el-picador") in RULES.choices(state, RED)
    do(state, RED, C.Tow("plantagenet", "el-picador"))
    assert RULES.view(state, RED).ships[0].move == ("S",)
    assert kinds(state) == [(RED, "turn")]  # the tow made her no enemy: nothing left to ram
    end_turns(state, RED, BLUE)
    refused(state, RED, C.Move("plantagenet", (S0, L0)), "at most 1 leg")
    refused(state, RED, C.Move("plantagenet", (L0,)), "towing, her base move is S")
    y0 = state.ships["plantagenet"].y
    do(state, RED, C.Move("plantagenet", (S0,)))
    assert state.ships["plantagenet"].y == pytest.approx(y0 - 5.0)


def test_sm17_tow_joins_the_fleet_follows_astern_docks_along() -> None:
    """SM-17: the towed derelict joins the tower's fleet with its cargo, rides astern, docks with
    the tower (unloading at home), and once repaired sails again; the tow may be broken."""
    state = _tow_scene(cargo=[4])
    log = do(state, RED, C.Tow("plantagenet", "el-picador"))
    # the towed ship joins the fleet: the line must not read as if the tower joined blue's
    assert "plantagenet takes el-picador in tow; el-picador joins red's fleet" in log
    p, d = state.ships["plantagenet"], state.ships["el-picador"]
    assert d.owner == RED and p.towing == "el-picador" and d.towed_by == "plantagenet"
    assert RED in state.coins[-1].known
    x, y, h = rules._astern(p, d.length)
    assert (d.x, d.y, d.heading) == (x, y, h)
    for _ in range(4):  # a wild island: both dock
        end_turns(state, RED, BLUE)
        do(state, RED, C.MoveToward("plantagenet", "isla-4"))
        if p.docked:
            break
    assert p.docked == d.docked == "isla-4"
    assert (d.x, d.y) == rules._astern(p, d.length)[:2]
    assert C.BreakTow("plantagenet") in RULES.legal(state, RED)
    do(state, RED, C.BreakTow("plantagenet"))
    assert p.towing is None and d.towed_by is None and d.owner == RED


def test_sm17_towed_ship_docks_at_home_unloads_and_is_repaired() -> None:
    """SM-17, SM-15, SM-32: a tower docking at home brings its tow in: its treasure is unloaded,
    and repairing it casts off the tow."""
    state = game(
        ShipPosition("dover", RED, 19, 28, 270, towing="el-picador"),
        ShipPosition("el-picador", RED, 40, 20, 90, masts=0, cargo=[5]),
    )
    t = state.ships["el-picador"]
    assert (t.x, t.y, t.heading) == rules._astern(state.ships["dover"], t.length)
    do(state, RED, C.Move("dover", (S0,)))
    assert state.ships["dover"].docked == "isla-1" == t.docked
    assert state.gold[RED] == 5
    end_turns(state, RED, BLUE)
    do(state, RED, C.Repair("el-picador"))
    assert t.towed_by is None and not t.derelict


def _ram_scene(*extra: ShipPosition, dice: tuple[int, ...] = (), **kw: Any) -> SpanishMainState:
    """El Picador (red, 2 masts) sails north and touches HMS Dover's side (blue, 4 masts)."""
    state = game(
        ShipPosition("el-picador", RED, 37, 26, 0, **kw.pop("picador", {})),
        ShipPosition("dover", BLUE, 40, 30, 90, **kw.pop("dover", {})),
        *extra,
        dice=dice,
        **kw,
    )
    do(state, RED, C.Move("el-picador", (S0,)))
    return state


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_oracle4_sm18_ramming_a_four_mast_ship(die: int) -> None:
    """Oracle 4, SM-18, SM-50: ramming a 4-mast ship: 1-4 does nothing, 5-6 eliminates a mast of
    the target owner's choice."""
    state = _ram_scene(dice=(die,))
    assert kinds(state) == [(RED, "after_move")]
    assert C.Ram("el-picador", "dover") in RULES.choices(state, RED)
    log = do(state, RED, C.Ram("el-picador", "dover"))
    hit = die >= 5
    assert any(f"ram d6 = {die} vs 4 masts: {'hit' if hit else 'no effect'}" in x for x in log)
    if hit:
        assert kinds(state) == [(BLUE, "eliminate")]
        assert RULES.choices(state, BLUE) == [C.Eliminate(i) for i in (1, 2, 3, 4)]
        refused(state, RED, C.Eliminate(1), "no mast of yours")
        do(state, BLUE, C.Eliminate(3))
        assert [m.up for m in state.ships["dover"].masts] == [True, True, False, True]
    else:
        assert state.ships["dover"].masts_up == 4
    assert kinds(state) == [(RED, "turn")]


def test_sm18_ram_needs_the_bow_and_a_new_contact() -> None:
    """SM-18: only a bow touching an enemy opens a ram, once per move; a side touch does not."""
    state = game(
        ShipPosition("el-leon", RED, 30, 20, 0),
        ShipPosition("dover", BLUE, 34.6, 26, 0),  # el-leon runs north alongside dover's hull
    )
    do(state, RED, C.Move("el-leon", (("L", 0.0, 7.0),)))
    assert kinds(state) == [(RED, "turn")]
    state = _ram_scene(dice=(1,))
    do(state, RED, C.Ram("el-picador", "dover"))
    refused(state, RED, C.Ram("el-picador", "dover"), "that follows a move")


def test_sm19_pinned_ship_cannot_move_until_the_other_moves_away() -> None:
    """SM-19 (as the seed words it): a ship whose bow touches an enemy ship is pinned and cannot
    move until the other ship moves away (or is derelict); the other ship may sail off."""
    state = _ram_scene(dice=(1,))
    do(state, RED, C.Ram("el-picador", "dover"))
    assert rules.pinned_by(state, state.ships["el-picador"]) is state.ships["dover"]
    assert rules.pinned_by(state, state.ships["dover"]) is None
    end_turns(state, RED)
    assert RULES.view(state, BLUE).ships[0].pinned_by == "dover"
    do(state, BLUE, C.Move("dover", (S0,)))  # slides off along el-picador's bow
    do(state, BLUE, C.EndTurn())
    assert rules.pinned_by(state, state.ships["el-picador"]) is None
    do(state, RED, C.Move("el-picador", (S0,)))


def test_sm19_pinned_refused() -> None:
    """SM-19: a pinned ship's move is refused with the reason."""
    state = _ram_scene(dice=(1,))
    do(state, RED, C.Ram("el-picador", "dover"))
    end_turns(state, RED, BLUE)
    refused(state, RED, C.Move("el-picador", (("S", 45.0, None),)), "pinned")
    refused(state, RED, C.MoveToward("el-picador", "isla-3"), "pinned")


def test_oracle5_sm20_boarding_defender_wins() -> None:
    """Oracle 5, SM-20: rammer with 2 masts rolls 3 (5); defender with 4 masts rolls 2 (6): the
    defender wins and chooses; a stolen coin is drawn at random and needs a free slot."""
    state = _ram_scene(dice=(1, 3, 2), picador={"cargo": [3]}, dover={"cargo": [4]})
    do(state, RED, C.Ram("el-picador", "dover"))
    assert kinds(state) == [(RED, "board")]
    assert RULES.choices(state, RED) == [C.Board("steal"), C.Pass()]
    log = do(state, RED, C.Board("steal"))
    assert any("= 3 + 2 masts = 5 vs d6 = 2 + 4 masts = 6" in x for x in log)
    assert any("dover's party wins" in x for x in log)
    assert kinds(state) == [(BLUE, "plunder")]
    events = RULES.apply(state, BLUE, C.Board("steal"))
    assert [len(state.ships[s].cargo) for s in ("el-picador", "dover")] == [0, 2]
    stolen = state.ships["dover"].cargo[-1]
    assert BLUE in state.coins[stolen - 1].known
    assert all("(3)" not in e.text for e in events if e.to is None)


def test_sm20_boarding_attacker_wins_tie_and_kill() -> None:
    """SM-20: the winner takes what it chose; a tie does nothing; with crew on, a party may
    eliminate one crew; the other side may board if the first declines."""
    state = _ram_scene(dice=(1, 6, 1), dover={"cargo": [4]})
    do(state, RED, C.Ram("el-picador", "dover"))
    do(state, RED, C.Board("steal"))
    assert len(state.ships["el-picador"].cargo) == 1 and state.ships["dover"].cargo == []
    state = _ram_scene(dice=(1, 4, 2), dover={"cargo": [4]})
    do(state, RED, C.Ram("el-picador", "dover"))
    log = do(state, RED, C.Board("steal"))
    assert any("a tie" in x for x in log) and state.ships["dover"].cargo != []
    state = _ram_scene(dice=(1, 6, 1), crew=2)
    do(state, RED, C.Ram("el-picador", "dover"))
    do(state, RED, C.Pass())
    assert kinds(state) == [(BLUE, "board")]
    do(state, BLUE, C.Board("kill"))
    assert state.ships["el-picador"].crew == 1 and state.ships["dover"].crew == 2


# --- shoot (SM-25)


def _gun_scene(*dice: int, **kw: Any) -> SpanishMainState:
    """HMS Dover (red) with HMS Titan (blue) alongside, 6 from every mast of Dover's."""
    return game(
        ShipPosition("dover", RED, 40, 30, 90),
        ShipPosition("titan", BLUE, 40, 36.8, 90),
        dice=dice,
        **kw,
    )


def test_oracle1_sm25_range_from_each_mast() -> None:
    """Oracle 1, SM-25: Dover (3S-3L-3L-3S) at a target 6 away: only the two L cannons fire."""
    state = _gun_scene(1, 1)
    for m in range(4):
        px, py = geo.mast_point(40, 30, 90, 6.5, m, 4)
        assert geo.hull_distance(px, py, rules._axis(state.ships["titan"])) == pytest.approx(6.0)
    log = do(state, RED, C.Shoot("dover", "titan"))
    fired = [x for x in log if "'s cannon" in x]
    assert [x.split(" (")[0] for x in fired] == ["dover's cannon 2", "dover's cannon 3"]
    assert state.dice == []
    refused(_gun_scene(), RED, C.Shoot("dover", "titan", (1,)), "titan is 6.0 away")


@pytest.mark.parametrize(("rule", "die", "hits"), [("gte", 3, True), ("gte", 2, False),
                                                   ("gt", 3, False), ("gt", 4, True)])  # fmt: skip
def test_oracle2_sm25_rank_3_cannon(rule: str, die: int, hits: bool) -> None:
    """Oracle 2, SM-25: a rank-3 cannon hits on a 3, misses on a 2 (hit_rule 'gte'); with
    hit_rule 'gt' it needs more than 3."""
    state = _gun_scene(die, hit_rule=rule)
    log = do(state, RED, C.Shoot("dover", "titan", (2,)))
    assert any(f"d6 = {die} {'hits' if hits else 'misses'}" in x for x in log)
    assert kinds(state) == ([(BLUE, "eliminate")] if hits else [(RED, "turn")])


def test_sm25_each_hit_the_target_owner_eliminates_a_mast() -> None:
    """SM-25: cannon by cannon; each hit, the target's owner eliminates one mast (a lone mast
    goes without asking); the ship becomes derelict with none left."""
    state = _gun_scene(6, 6)
    do(state, RED, C.Shoot("dover", "titan"))
    do(state, BLUE, C.Eliminate(5))
    assert kinds(state) == [(BLUE, "eliminate")]
    do(state, BLUE, C.Eliminate(1))
    assert state.ships["titan"].masts_up == 3 and kinds(state) == [(RED, "turn")]
    state = game(
        ShipPosition("dover", RED, 40, 30, 90),
        ShipPosition("el-picador", BLUE, 38, 34, 90, masts=1),
        dice=(6, 6, 6, 6),
    )
    log = do(state, RED, C.Shoot("dover", "el-picador"))
    assert any("el-picador is derelict" in x for x in log)
    assert any("el-picador sinks" in x for x in log)  # the next hit on the derelict


def test_sm25_line_of_fire_and_targets() -> None:
    """SM-25: islands and other ships block the line of fire; only enemy ships are targets."""
    state = game(
        ShipPosition("dover", RED, 33, 35, 270),
        ShipPosition("el-leon", BLUE, 39.5, 35, 270),
        ShipPosition("el-picador", RED, 38, 30, 90),
    )
    refused(state, RED, C.Shoot("dover", "el-picador"), "not an enemy")
    state = game(
        ShipPosition("dover", RED, 29, 45, 0),
        ShipPosition("el-leon", BLUE, 41, 45, 0),  # across isla-3 (35, 45), r 5
    )
    msg = refused(state, RED, C.Shoot("dover", "el-leon"), "no cannon of dover can fire")
    assert "away" in msg or "isla-3 blocks" in msg
    state = game(
        ShipPosition("dover", RED, 30, 20, 0),
        ShipPosition("el-leon", BLUE, 33.5, 20, 0),
        ShipPosition("el-picador", BLUE, 37, 20, 0),
    )
    refused(state, RED, C.Shoot("dover", "el-picador"), "el-leon blocks the line of fire")
    do(state, RED, C.Shoot("dover", "el-leon"))


# --- explore, load, repair (SM-30, SM-32)


def test_sm30_explore_only_after_beginning_docked_at_a_wild_island() -> None:
    """SM-30: only a ship that began its turn docked at a wild island explores; its player sees
    the coins there (no one else does) and loads any of them up to free cargo."""
    state = game(ShipPosition("plantagenet", RED, 26, 45, 90))
    do(state, RED, C.Move("plantagenet", (S0,)))
    assert state.ships["plantagenet"].docked == "isla-3"
    refused(state, RED, C.Explore("plantagenet"), "did not begin this turn docked")
    end_turns(state, RED, BLUE)
    events = RULES.apply(state, RED, C.Explore("plantagenet"))
    private = [e for e in events if e.to is not None]
    assert [e.to for e in private] == [(RED,)]
    assert "coin 1 (3), coin 2 (1), coin 3 (5)" in private[0].text
    assert kinds(state) == [(RED, "load")]
    assert [c.value for c in RULES.view(state, RED).islands[2].coins] == [3, 1, 5]
    assert [c.value for c in RULES.view(state, BLUE).islands[2].coins] == [None] * 3
    assert len(RULES.choices(state, RED)) == 8  # any of 3 coins, room for 3
    refused(state, RED, C.Load("plantagenet", (4,)), "not at isla-3")
    do(state, RED, C.Load("plantagenet", (1, 3)))
    assert state.ships["plantagenet"].cargo == [1, 3] and state.islands["isla-3"].coins == [2]
    blue = RULES.view(state, BLUE).ships[0]
    assert [c.value for c in blue.cargo] == [None, None]
    assert [c.value for c in RULES.view(state, RED).ships[0].cargo] == [3, 5]


def test_sm30_load_up_to_free_cargo_and_home_is_not_wild() -> None:
    """SM-30: loading is capped by free cargo; a home island is not explored."""
    state = game(ShipPosition("el-picador", RED, 35, 39.995, 0, cargo=[1]))
    do(state, RED, C.Explore("el-picador"))
    refused(state, RED, C.Load("el-picador", (1, 2)), "room for 1")
    do(state, RED, C.Load("el-picador", (2,)))
    state = game(ShipPosition("dover", RED, 15.005, 28, 270))
    assert state.ships["dover"].docked == "isla-1"
    refused(state, RED, C.Explore("dover"), "home island")


def test_sm32_repair_at_home() -> None:
    """SM-32: a ship docked at its home island restores one eliminated mast, derelicts too;
    elsewhere it cannot."""
    state = game(
        ShipPosition("dover", RED, 15.005, 28, 270, masts=[1, 4]),
        ShipPosition("el-picador", RED, 10, 33.005, 180, masts=0),
        ShipPosition("el-leon", RED, 40, 20, 90, masts=1),
    )
    assert state.ships["el-picador"].docked == "isla-1"
    do(state, RED, C.Repair("dover", 3))
    assert [m.up for m in state.ships["dover"].masts] == [True, False, True, True]
    refused(state, RED, C.Repair("dover"), "had her action")
    do(state, RED, C.Repair("el-picador"))
    assert state.ships["el-picador"].masts_up == 1
    refused(state, RED, C.Repair("el-leon"), "not docked at your home")


# =========================================================================== §4 end and victory


def test_sm40_more_than_half_of_the_gold_ends_the_game() -> None:
    """SM-40: the game ends when a player's unloaded gold is more than half of all gold; SM-41:
    most gold wins."""
    state = game(ShipPosition("dover", RED, 22, 28, 270, cargo=[5, 5]))
    state.gold_total = 21
    do(state, RED, C.Move("dover", (S0, S0)))
    assert not state.over
    state = game(ShipPosition("dover", RED, 22, 28, 270, cargo=[5, 6]))
    state.gold_total = 21
    log = do(state, RED, C.Move("dover", (S0, S0)))
    assert state.over and state.winners == [RED] and RULES.prompts(state) == []
    assert any("more than half" in x for x in log)
    assert RULES.scores(state) == {RED: 11, BLUE: 0}
    refused(state, BLUE, C.EndTurn(), "game is over")


def test_sm40_every_coin_unloaded_or_lost_option() -> None:
    """SM-40 (table option): the game ends when every coin is unloaded or lost."""
    bare = [IslandPosition(i.x, i.y, i.r, id=i.id, home=i.home) for i in ISLANDS]
    state = game(ShipPosition("dover", RED, 22, 28, 270, cargo=[1]), islands=bare, end="all")
    state.gold_total = 100
    do(state, RED, C.Move("dover", (S0, S0)))
    assert state.over and "every coin" in state.end_reason


def test_sm40_one_sailing_fleet_left_ends_the_game() -> None:
    """SM-40: the game ends when only one player has a ship that is not derelict."""
    state = game(
        ShipPosition("dover", RED, 40, 30, 90),
        ShipPosition("el-picador", BLUE, 38, 34, 90, masts=1),
        dice=(6,),
        far=False,
    )
    do(state, RED, C.Shoot("dover", "el-picador", (1,)))
    assert state.over and "only red" in state.end_reason


def test_sm41_tie_goes_to_the_larger_fleet_afloat() -> None:
    """SM-41: with equal gold, the larger value of ships still afloat wins (here when the round
    limit, a safeguard option, ends the game)."""
    state = game(ShipPosition("dover", RED, 40, 20, 90), max_rounds=1)
    end_turns(state, RED, BLUE)
    assert state.over and state.winners == [RED]
    assert "1 rounds have been played" in state.end_reason


def test_sm50_every_die_is_logged_with_its_purpose_and_comes_from_the_rng() -> None:
    """SM-50: dice come from the seeded RNG (forced dice only in positions) and each is logged
    with its purpose; the same seed rolls the same dice."""
    a, b = _ram_scene(), _ram_scene()
    la, lb = do(a, RED, C.Ram("el-picador", "dover")), do(b, RED, C.Ram("el-picador", "dover"))
    assert la == lb and any(re.search(r"ram d6 = [1-6] vs 4 masts", x) for x in la)
    assert a.rng.state != _ram_scene().rng.state
    state = _gun_scene()
    log = do(state, RED, C.Shoot("dover", "titan"))
    assert all(re.search(r"cannon \d \(3L\) at titan: d6 = [1-6] (hits|misses)", x)
               for x in log if "'s cannon" in x)  # fmt: skip


def test_timeout_applies_the_safe_default() -> None:
    """The system seat's 'timeout SEAT' applies that seat's default: end turn, lose the bow-most
    mast, pass."""
    state = _gun_scene(6)
    do(state, RED, C.Shoot("dover", "titan", (2,)))
    assert RULES.default(state, BLUE) == C.Eliminate(1)
    RULES.apply(state, SYSTEM, C.Timeout("blue"))
    assert not state.ships["titan"].masts[0].up
    RULES.apply(state, SYSTEM, C.Timeout("red"))
    assert kinds(state) == [(BLUE, "turn")]
    with pytest.raises(IllegalCommand):
        RULES.apply(state, SYSTEM, C.Timeout("red"))
    with pytest.raises(IllegalCommand):
        RULES.apply(state, BLUE, C.Timeout("red"))


def test_registered() -> None:
    assert get_ruleset("spanish_main") is RULES
    assert RULES.min_seats == 2 and RULES.max_seats == 4


# =========================================================================== random games


def random_pick(state: SpanishMainState, rng: random.Random) -> tuple[int, C.Command]:
    """A random answer to the open prompt: first a kind of command, evenly, then one of it (a
    plain uniform pick would almost always sail). Now and then a free action (break a tow)."""
    (p,) = RULES.prompts(state)
    if rng.random() < 0.05:
        free = rules.free_actions(state, p.seat)
        if free:
            return p.seat, rng.choice(free)
    by: dict[type, list[C.Command]] = {}
    for c in RULES.choices(state, p.seat):
        by.setdefault(type(c), []).append(c)
    kind = rng.choice(sorted(by, key=lambda t: t.__name__))
    return p.seat, rng.choice(by[kind])


def random_game(
    seed: int, seats: int, max_commands: int = 3000
) -> Iterator[tuple[SpanishMainState, int | None, C.Command | None, list[Event]]]:
    rng = random.Random(seed)
    # (uniformly random play seldom ends by SM-40; the table's safety cap, an option, ends it)
    state, events = RULES.new_game(seed, seats, {"max_rounds": 40})
    yield state, None, None, events
    for _ in range(max_commands):
        if RULES.is_over(state):
            return
        seat, cmd = random_pick(state, rng)
        events = RULES.apply(state, seat, cmd)
        yield state, seat, cmd, events
    raise AssertionError(f"game {seed} ({seats} seats) did not end in {max_commands} commands")


SEEDS = st.integers(0, 2**62)
SEAT_COUNTS = st.sampled_from([2, 3, 4])


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, seats=SEAT_COUNTS)
def test_every_random_game_ends(seed: int, seats: int) -> None:
    """SM-10, SM-40: random legal play always ends, with exactly one seat prompted at every step
    before that and none after; scores are the gold at home."""
    for state, _, _, _ in random_game(seed, seats):
        if not state.over:
            assert len(RULES.prompts(state)) == 1
    assert RULES.prompts(state) == [] and state.winners
    assert RULES.scores(state) == dict(enumerate(state.gold))


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, seats=SEAT_COUNTS)
def test_same_seed_and_commands_replay_byte_for_byte(seed: int, seats: int) -> None:
    """SM-50 (every die from the table's seeded RNG), determinism: a game is (seed, options,
    command log); replaying the log from a new game with the same seed gives identical state
    bytes after every command, and a saved state resumes."""
    log: list[tuple[int, C.Command]] = []
    states: list[bytes] = []
    for state, seat, cmd, _ in random_game(seed, seats):
        if cmd is not None and seat is not None:
            log.append((seat, cmd))
        states.append(encode(state))
    again, _ = RULES.new_game(seed, seats, {"max_rounds": 40})
    assert encode(again) == states[0]
    for k, (seat, cmd) in enumerate(log, 1):
        wire = msgspec.json.decode(encode(cmd), type=C.Command)
        assert wire == cmd
        RULES.apply(again, seat, wire)
        assert encode(again) == states[k]


COIN_RE = re.compile(r"coin (\d+) \((\d+)\)")


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, seats=SEAT_COUNTS)
def test_hidden_coin_values_do_not_leak(seed: int, seats: int) -> None:
    """Rules §6, SM-3, SM-30: redrawing every coin value a seat does not know (even once the next
    command is done) changes neither its view nor the events it reads from that command; every
    coin value in an event a seat can read is one it knows; a spectator knows unloaded coins and
    lost ones (SM-40: a sunk coin is revealed)."""
    rng = random.Random(seed ^ 0x5EED)
    checked = 0
    for state, _, _, events in random_game(seed, seats):
        for e in events:
            for seat in [None, *range(seats)]:
                if not e.visible_to(seat):
                    continue
                for cid, _ in COIN_RE.findall(e.text):
                    coin = state.coins[int(cid) - 1]
                    assert (
                        state.over
                        or (seat is not None and seat in coin.known)
                        or (coin.place.startswith("home:"))
                        or coin.place == "lost"  # SM-40: a sunk coin is revealed
                    ), f"seat {seat} reads a coin it has not seen: {e.text}"
        if state.over or rng.random() > 0.12:
            continue
        seat_, nxt = random_pick(clone(state), random.Random(rng.random()))
        for seat in [None, *range(seats)]:
            a = clone(state)
            ea = RULES.apply(a, seat_, nxt)
            # what the seat knows once the command is done: everything else is redrawn
            b = scramble(state, known_to(a, seat), rng)
            if not a.over:
                assert encode(RULES.view(b, seat)) == encode(RULES.view(state, seat))
            eb = RULES.apply(b, seat_, nxt)
            va = [e.text for e in ea if e.visible_to(seat)]
            vb = [e.text for e in eb if e.visible_to(seat)]
            assert va == vb, f"seat {seat} tells hidden values apart after {nxt!r}"
            assert encode(RULES.view(a, seat)) == encode(RULES.view(b, seat))
        checked += 1
    assert checked > 0, "no position was checked"  # p < 1e-6: every game has 130+ positions


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, seats=SEAT_COUNTS)
def test_illegal_commands_change_nothing_and_choices_apply(seed: int, seats: int) -> None:
    """Engine contract: at random points every listed choice applies (on a copy), the default is
    one of them and a timeout applies it; other seats' commands and nonsense raise
    IllegalCommand with a one-line reason and leave the state byte-identical."""
    rng = random.Random(seed ^ 0x111)
    names = ["dover", "isla-1", "nowhere", "", "el-leon"]
    junk: list[C.Command] = [
        C.Move(rng.choice(names), (("S", 95.0, None),)),
        C.Move("dover", (("L", 0.0, -1.0),)),
        C.Shoot(rng.choice(names), rng.choice(names)),
        C.Load("dover", (99,)),
        C.Eliminate(9),
        C.Board("kill"),
        C.Pass(),
        C.Tow("dover", "el-leon"),
        C.Ram("dover", "el-leon"),
        C.BreakTow("dover"),
        C.Repair("nowhere"),
        C.Timeout("red"),
    ]
    points = 0
    for state, _, _, _ in random_game(seed, seats):
        if state.over or rng.random() > 0.1:
            continue
        points += 1
        (p,) = RULES.prompts(state)
        choices = RULES.choices(state, p.seat)
        assert RULES.default(state, p.seat) in choices
        RULES.apply(clone(state), SYSTEM, C.Timeout(state.seats[p.seat]))
        for cmd in rng.sample(choices, min(12, len(choices))):
            RULES.apply(clone(state), p.seat, cmd)
        for seat in range(seats):
            legal = RULES.legal(state, seat)
            others = [c for s in range(seats) if s != seat for c in RULES.legal(state, s)]
            for cmd in [*junk, *rng.sample(others, min(6, len(others)))]:
                if cmd in legal:
                    continue
                copy = clone(state)
                before = encode(copy)
                try:
                    RULES.apply(copy, seat, cmd)
                except IllegalCommand as e:
                    assert encode(copy) == before and str(e) and "\n" not in str(e)
                    continue
                # apply() may take commands legal() samples but does not list: other headings
                assert isinstance(cmd, C.Move | C.MoveToward | C.Load | C.Shoot), cmd
    assert points > 0, "no position was checked"  # p < 1e-5: every game has 130+ positions


@settings(max_examples=5, deadline=None)
@given(seed=SEEDS, seats=SEAT_COUNTS)
def test_views_round_trip_and_ships_never_overlap(seed: int, seats: int) -> None:
    """Views survive msgspec JSON; SM-13: after every command no hull overlaps an island, another
    hull or the edge; SM-5: cargo never exceeds slots; coins are conserved."""
    n_coins = 0
    for state, _, _, _ in random_game(seed, seats):
        for seat in [None, *range(seats)]:
            v = RULES.view(state, seat)
            assert msgspec.json.decode(encode(v), type=SpanishMainView) == v
        for s in state.ships.values():
            seg = rules._axis(s)
            assert len(s.cargo) <= s.cargo_slots
            skip = {s.id} | ({s.towing} if s.towing else set()) | (
                {s.towed_by} if s.towed_by else set())  # fmt: skip
            for ob in rules.obstacles(state, s, skip):
                assert ob.gap(seg) >= -1e-6, f"{s.id} overlaps {ob.id}"
        placed = [c for i in state.islands.values() for c in i.coins]
        placed += [c for s in state.ships.values() for c in s.cargo]
        placed += [k + 1 for k, c in enumerate(state.coins) if c.place.startswith("home:")]
        placed += [k + 1 for k, c in enumerate(state.coins) if c.place == "lost"]
        n_coins = len(state.coins)
        assert sorted(placed) == list(range(1, n_coins + 1))
    assert sum(state.gold) <= state.gold_total


def test_sea_sizes_match_the_rules_table() -> None:
    """SM-1: the sea is 70x56 for 2 players, 84x63 for 3, 98x70 for 4."""
    assert SEA == {2: (70.0, 56.0), 3: (84.0, 63.0), 4: (98.0, 70.0)}

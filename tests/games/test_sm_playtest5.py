"""Spanish Main fixes from a stranger's play-test (issue 18): whole-degree suggestions, hints
and ``toward`` that see what is in the way, towing what lies against the bow, boarding skipped
with a reason, gold (not coins) in the summary, and the last two crew cards."""

from __future__ import annotations

import copy
import math
import re

import pytest
from paths import ROOT
from rich.text import Text
from sea_helpers import hint_items
from sm_helpers import BLUE, RED, S0, game

from shipwreck.engine.core import IllegalCommand
from shipwreck.games.spanish_main import RULES, rules
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.previews import MovePreview
from shipwreck.games.spanish_main.setup import IslandPosition, ShipPosition
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.lang import parse_command

# =========================================================================== suggested turns


def _bow_against_a_slanting_hull(heading: float, slant: float) -> SpanishMainState:
    """HMS Dover (red) with her bow just touching the side of HMS Titan (red too, so no pin),
    whose hull lies at ``slant`` degrees: the turn that lays Dover along Titan is no whole
    number of degrees."""
    ux, uy = math.sin(math.radians(heading)), math.cos(math.radians(heading))
    x, y = 40.0, 25.0
    cx, cy = x - 0.8 * ux, y - 0.8 * uy  # her bow cap's centre
    vx, vy = math.sin(math.radians(slant)), math.cos(math.radians(slant))
    nx, ny = -vy, vx
    if nx * ux + ny * uy < 0:
        nx, ny = -nx, -ny
    px, py = cx + nx * 1.605, cy + ny * 1.605  # (two hull radii and a little apart)
    tip = (round(px + 3 * vx, 4), round(py + 3 * vy, 4))
    return game(
        ShipPosition("titan", RED, tip[0], tip[1], slant),
        ShipPosition("dover", RED, x, y, heading),
    )


SLANTS = [(h, t) for h in (10.0, 25.0, 33.0, 47.0) for t in (93.7, 101.3, 77.2)]


@pytest.mark.parametrize(("heading", "slant"), SLANTS)
def test_sm12_a_refused_move_suggests_a_whole_degree_turn_that_is_legal(
    heading: float, slant: float
) -> None:
    """SM-12, SM-13: a move refused because her bow is against something suggests a turn in
    whole degrees ('try 'move dover S 84'', not 'S 83.7'), rounded past the line along what
    she touches, and that suggestion, typed as shown, is taken. Rounded the other way (into
    what she touches) it would be refused: the rounding is the safe one, not any."""
    state = _bow_against_a_slanting_hull(heading, slant)
    with pytest.raises(IllegalCommand) as e:
        RULES.apply(copy.deepcopy(state), RED, C.Move("dover", (S0,)))
    found = re.search(r"try '(move dover S (-?[0-9.]+))'", str(e.value))
    assert found, str(e.value)
    typed, turn = found.group(1), found.group(2)
    assert re.fullmatch(r"-?\d+", turn), f"not a whole number of degrees: {typed!r}"
    cmd = parse_command("spanish_main", typed, RULES.view(state, RED))
    events = RULES.apply(copy.deepcopy(state), RED, cmd)
    assert any(e.text.startswith("dover sails S") for e in events)
    inward = int(turn) - 1 if int(turn) > 0 else int(turn) + 1
    with pytest.raises(IllegalCommand, match="against titan"):
        RULES.apply(copy.deepcopy(state), RED, C.Move("dover", (("S", float(inward), None),)))


@pytest.mark.parametrize(("heading", "slant"), SLANTS[:4])
def test_sm12_sampled_moves_and_hints_turn_whole_degrees(heading: float, slant: float) -> None:
    """SM-12: the moves the engine lists (Tab, the hint line, the bots) turn whole degrees."""
    state = _bow_against_a_slanting_hull(heading, slant)
    for c in RULES.choices(state, RED):
        if isinstance(c, C.Move):
            assert all(float(t).is_integer() for _, t, _ in c.legs), c


# =========================================================================== toward and hints


@pytest.mark.parametrize("owner", [RED, BLUE])
def test_toward_sails_around_a_ship_in_the_way(owner: int) -> None:
    """``move SHIP toward ISLAND`` sees what is in its way: with a ship across the straight
    line, Dover turns aside on her first leg and back on her second, passing it, instead of
    running into it and losing the rest of her move (SM-13), friend or enemy in the way. Each
    turn is the one its leg sails (the engine's own sweep), so the preview says the same."""
    state = game(ShipPosition("dover", RED, 35, 22, 0), ShipPosition("snipe", owner, 36.75, 29, 90))
    before = math.hypot(35 - 35, 45 - 22)
    shown = _preview(state, C.MoveToward("dover", "isla-3"))
    log = [e.text for e in RULES.apply(state, RED, C.MoveToward("dover", "isla-3"))]
    d = state.ships["dover"]
    assert not any("touches snipe" in line or "stops" in line for line in log), log
    legs = re.findall(r"S ([+-]\d+)° ([0-9.]+)", log[0])
    assert [float(r) for _, r in legs] == [5.0, 5.0] and int(legs[0][0]) != 0
    assert math.hypot(d.x - 35, d.y - 45) < before - 7.0  # (ran 10, turned aside a little)
    assert (shown.x, shown.y) == pytest.approx((d.x, d.y))


def _preview(state: SpanishMainState, cmd: C.MoveToward) -> MovePreview:
    return rules.preview(state, RED, cmd)


EMPTIED = [
    IslandPosition(10, 28, 5, id="isla-1", home=RED),
    IslandPosition(60, 28, 5, id="isla-2", home=BLUE),
    IslandPosition(35, 45, 5, id="isla-3", coins=[3, 1, 5]),
    IslandPosition(35, 10, 4, id="isla-4"),  # (its treasure is gone)
]


def test_hints_never_suggest_docking_at_an_emptied_island() -> None:
    """Dover can dock at isla-4 this turn (the engine lists it), but no coin is left there:
    the hint line suggests sailing for isla-3, which still holds treasure, and names no dock at
    isla-4; with a coin there again, the dock is suggested."""
    state = game(ShipPosition("dover", RED, 35, 22, 180), islands=EMPTIED)
    assert C.MoveDock("dover", "isla-4") in RULES.choices(state, RED)
    items = hint_items(RULES.view(state, RED))
    assert not any("isla-4" in item for item in items), items
    assert "move dover toward isla-3" in items
    stocked = [*EMPTIED[:3], IslandPosition(35, 10, 4, id="isla-4", coins=[2])]
    state = game(ShipPosition("dover", RED, 35, 22, 180), islands=stocked)
    assert any("dock isla-4" in item for item in hint_items(RULES.view(state, RED)))


# =========================================================================== tow where she lies


def _bow_to_bow(**kw: object) -> SpanishMainState:
    """Plantagenet (red) with her bow against Snipe's bow (blue, 1 mast), as after a ram."""
    return game(
        ShipPosition("plantagenet", RED, 30, 20, 0),
        ShipPosition("snipe", BLUE, 30, 20, 180, **kw),  # type: ignore[arg-type]
        dice=(6,),
    )


def test_sm17_a_ship_shot_derelict_against_the_bow_can_be_taken_in_tow() -> None:
    """SM-17: Snipe, bow to bow with Plantagenet, is made derelict (here by a ram's lost mast
    on blue's turn, any way will do). On red's turn every run takes Plantagenet off Snipe's bow
    or into it, so a move never ends touching it: the tow is offered as her move, where she
    lies. The refused move says so, the hint line offers it, and taking it spends her action."""
    state = _bow_to_bow(masts=0)
    cmd = C.Tow("plantagenet", "snipe")
    assert cmd in RULES.choices(state, RED)
    assert "tow plantagenet snipe" in hint_items(RULES.view(state, RED))
    with pytest.raises(IllegalCommand, match="'tow plantagenet snipe'"):
        RULES.apply(copy.deepcopy(state), RED, C.Move("plantagenet", (S0,)))
    log = [e.text for e in RULES.apply(state, RED, cmd)]
    assert "takes snipe in tow; snipe joins red's fleet" in log[0]
    p, t = state.ships["plantagenet"], state.ships["snipe"]
    assert (p.towing, t.towed_by, t.owner) == ("snipe", "plantagenet", RED)
    assert (t.x, t.y, t.heading) == rules._astern(p, t.length)
    assert (p.x, p.y) == (30, 20)  # (she did not sail)
    with pytest.raises(IllegalCommand, match="had her action"):
        RULES.apply(copy.deepcopy(state), RED, C.Move("plantagenet", (S0,)))


def test_sm17_no_tow_in_place_without_a_derelict_bow_or_a_move_left() -> None:
    """SM-17: the tow where she lies needs a derelict, its bow, and her move action unspent;
    each refusal says which."""
    state = _bow_to_bow()  # (snipe still has her mast)
    assert C.Tow("plantagenet", "snipe") not in RULES.choices(state, RED)
    with pytest.raises(IllegalCommand, match="not derelict"):
        RULES.apply(state, RED, C.Tow("plantagenet", "snipe"))
    side = game(  # plantagenet's bow against the derelict's side, not its bow
        ShipPosition("plantagenet", RED, 30, 20, 0),
        ShipPosition("snipe", BLUE, 28, 21.6, 90, masts=0),
    )
    with pytest.raises(IllegalCommand, match="does not touch snipe's bow"):
        RULES.apply(side, RED, C.Tow("plantagenet", "snipe"))
    state = _bow_to_bow(masts=0)
    RULES.apply(state, RED, C.Tow("plantagenet", "snipe"))
    with pytest.raises(IllegalCommand, match="had her action"):
        RULES.apply(state, RED, C.Tow("plantagenet", "snipe"))


# =========================================================================== boarding skipped


def _ram(picador: dict[str, object], dover: dict[str, object]) -> list[str]:
    """El Picador (red, 2 masts, 2 slots) rams HMS Dover's side (blue); the ram misses."""
    state = game(
        ShipPosition("el-picador", RED, 37, 26, 0, **picador),  # type: ignore[arg-type]
        ShipPosition("dover", BLUE, 40, 30, 90, **dover),  # type: ignore[arg-type]
        dice=(1,),
    )
    RULES.apply(state, RED, C.Move("el-picador", (S0,)))
    return [e.text for e in RULES.apply(state, RED, C.Ram("el-picador", "dover"))]


def test_sm20_a_boarding_party_not_offered_says_why_in_one_line() -> None:
    """SM-20: after a ram, a side whose party could take nothing is not asked; the log says
    so, one plain line per side skipped, to everyone (crew and coin counts are public)."""
    log = _ram({}, {})
    assert log[1:] == [
        "red cannot board dover: dover has no crew and no coins aboard",
        "blue cannot board el-picador: el-picador has no crew and no coins aboard",
    ]
    full = _ram({"cargo": [1, 2]}, {"cargo": [4]})  # (red's two slots are full)
    assert (
        "red cannot board dover: dover has no crew aboard, and el-picador has no free cargo slot"
        in full
    )
    assert not any(line.startswith("blue cannot board") for line in full)  # (blue is asked)


def test_sm20_the_skipped_boarding_line_shows_no_hidden_coin() -> None:
    """Hidden stays hidden: the line about a skipped party names counts, never a coin's value,
    and every seat reads the same line."""
    state = game(
        ShipPosition("el-picador", RED, 37, 26, 0, cargo=[5, 6]),
        ShipPosition("dover", BLUE, 40, 30, 90, cargo=[3]),
        dice=(1,),
    )
    RULES.apply(state, RED, C.Move("el-picador", (S0,)))
    events = RULES.apply(state, RED, C.Ram("el-picador", "dover"))
    skipped = [e for e in events if "cannot board" in e.text]
    assert len(skipped) == 1 and skipped[0].to is None
    assert not re.search(r"\d", skipped[0].text)


# =========================================================================== gold lost


def test_the_treasure_panel_counts_lost_gold_not_lost_coins() -> None:
    """A derelict carrying coins worth 5 and 1 sinks (SM-11): the panel says 6 gold lost (two
    coins), in both its wide and its compact form, to a player and to a spectator."""
    from shipwreck.tui.spanish_main import render as R

    state = game(
        ShipPosition("dover", RED, 40, 30, 90),
        ShipPosition("titan", BLUE, 40, 36.8, 90, masts=0, cargo=[5, 1]),
        dice=(6, 6, 6, 6),
    )
    RULES.apply(state, RED, C.Shoot("dover", "titan"))
    assert "titan" not in state.ships
    for seat in (RED, None):
        view = RULES.view(state, seat)
        assert view.coins_lost == 2
        drawn = R.treasure(view)
        assert isinstance(drawn, Text)
        assert "6 gold lost" in drawn.plain and "2 gold lost" not in drawn.plain
    compact = R.treasure(RULES.view(state, RED), compact=True)
    assert "gold, 6 lost" in compact.head.plain


# =========================================================================== the last two crew


def _charlie_home(cargo: list[int], **kw: object) -> SpanishMainState:
    """HMS Dover (red, English) with Carbon Charlie aboard sails home to isla-1 with coins,
    unloading them (SM-15); blue's HMS Titan lies far off."""
    state = game(
        ShipPosition("dover", RED, 19, 28, 270, cargo=cargo, aboard=["carbon-charlie"]),
        **kw,  # type: ignore[arg-type]
    )
    RULES.apply(state, RED, C.Move("dover", (S0,)))
    assert state.ships["dover"].docked == "isla-1"
    return state


def _coin_at_home(state: SpanishMainState, value: int) -> int:
    return next(k for k, c in enumerate(state.coins, 1) if c.value == value and c.place == "home:0")


def test_sm60_sm61_carbon_charlie_turns_a_coin_at_home_into_a_cannon() -> None:
    """SM-60, SM-61, Carbon Charlie: docked at home, once per turn, one coin unloaded there is
    eliminated (its gold leaves her owner's gold and the gold in play, SM-40) and the ship gains
    a rank 3 short-range cannon, numbered after her masts, that no hit takes away."""
    state = _charlie_home([4, 2])
    assert state.gold[RED] == 6
    four = _coin_at_home(state, 4)
    in_play = rules.gold_in_play(state)
    cmd = C.Arm("dover", four)
    assert cmd in RULES.legal(state, RED)
    log = [e.text for e in RULES.apply(state, RED, cmd)]
    assert log == [f"dover turns coin {four} (4) into cannon 5 (3S); red has 2 gold"]
    assert state.gold[RED] == 2 and rules.gold_in_play(state) == in_play - 4
    assert state.coins[four - 1].place == "lost" and state.ships["dover"].guns == 1
    with pytest.raises(IllegalCommand, match="once per turn"):
        RULES.apply(state, RED, C.Arm("dover", _coin_at_home(state, 2)))
    assert not any(isinstance(c, C.Arm) for c in RULES.legal(state, RED))


def test_sm60_carbon_charlies_cannon_fires_3s_from_her_and_is_no_mast() -> None:
    """SM-60, Carbon Charlie: the treasure cannon fires as one of her own, numbered after her
    masts (rank 3, S range: a 3 hits), and it is no mast: a hit on her takes a mast, never it."""
    snipe = ShipPosition("snipe", BLUE, 17, 31.5, 270)  # (alongside her home dock, within S)
    state = game(
        ShipPosition("dover", RED, 19, 28, 270, cargo=[4], aboard=["carbon-charlie"]),
        snipe,
        dice=(3,),
    )
    RULES.apply(state, RED, C.Move("dover", (S0,)))
    RULES.apply(state, RED, C.Arm("dover", _coin_at_home(state, 4)))
    RULES.apply(state, RED, C.EndTurn())
    RULES.apply(state, BLUE, C.EndTurn())
    log = [e.text for e in RULES.apply(state, RED, C.Shoot("dover", "snipe", (5,)))]
    assert any("cannon 5 (3S)" in line and "d6 = 3" in line and "hit" in line for line in log), log
    assert state.ships["snipe"].derelict
    assert state.ships["dover"].guns == 1 and len(state.ships["dover"].masts) == 4


def test_sm60_carbon_charlie_needs_her_home_dock_and_a_coin_there() -> None:
    """SM-60, Carbon Charlie: no cannon away from home, nor from a coin not at her home, nor
    on a ship without her; each refusal names the cause and changes nothing."""
    at_sea = game(ShipPosition("dover", RED, 30, 20, 0, aboard=["carbon-charlie"]))
    with pytest.raises(IllegalCommand, match="not docked at your home island"):
        RULES.apply(at_sea, RED, C.Arm("dover", 1))
    state = _charlie_home([4])
    with pytest.raises(IllegalCommand, match="not one of your coins at home"):
        RULES.apply(state, RED, C.Arm("dover", 1 if state.coins[0].place != "home:0" else 2))
    plain = game(ShipPosition("dover", RED, 19, 28, 270, cargo=[4]))
    RULES.apply(plain, RED, C.Move("dover", (S0,)))
    with pytest.raises(IllegalCommand, match="no card that turns treasure into a cannon"):
        RULES.apply(plain, RED, C.Arm("dover", _coin_at_home(plain, 4)))


def _nemesio(**snipe: object) -> SpanishMainState:
    """Cazador del Pirata (red, Spanish, three 3L cannons) with Nemesio Diaz aboard, and Snipe
    (blue, Pirate: L-range cannons cannot hit her) 4 off her side."""
    return game(
        ShipPosition("cazador-del-pirata", RED, 30, 20, 0, aboard=["nemesio-diaz"]),
        ShipPosition("snipe", BLUE, 35, 18, 0, **snipe),  # type: ignore[arg-type]
        dice=(6, 6, 6),
    )


def test_sm60_sm61_nemesio_diaz_cancels_an_enemy_ships_ability_for_the_turn() -> None:
    """SM-60, SM-61, Nemesio Diaz: once per turn, an enemy ship within S loses her card's
    ability until the turn ends: Snipe's "L-range cannons cannot hit this ship" no longer keeps
    Cazador del Pirata's L cannons off her. Next turn it holds again."""
    state = _nemesio()
    with pytest.raises(IllegalCommand):
        RULES.apply(copy.deepcopy(state), RED, C.Shoot("cazador-del-pirata", "snipe"))
    cmd = C.Cancel("snipe", "cazador-del-pirata")
    assert cmd in RULES.legal(state, RED)
    log = [e.text for e in RULES.apply(state, RED, cmd)]
    assert log == ["cazador-del-pirata cancels the ability of snipe until this turn ends"]
    with pytest.raises(IllegalCommand, match="once per turn"):
        RULES.apply(copy.deepcopy(state), RED, cmd)
    shot = [e.text for e in RULES.apply(state, RED, C.Shoot("cazador-del-pirata", "snipe"))]
    assert any("hit" in line for line in shot), shot
    state = _nemesio()
    RULES.apply(state, RED, cmd)
    RULES.apply(state, RED, C.EndTurn())
    RULES.apply(state, BLUE, C.EndTurn())
    assert rules.abilities.range_immune(state, state.ships["snipe"], "L")
    assert C.Cancel("snipe", "cazador-del-pirata") in RULES.legal(state, RED)


def test_sm60_nemesio_diaz_cancels_a_crew_aboard_and_only_an_enemy_within_s() -> None:
    """SM-60, SM-61, Nemesio Diaz: a crew piece aboard an enemy ship within S may be cancelled
    instead of the ship (her card still plays); a ship beyond S, or one's own, may not."""
    state = _nemesio(aboard=["shipwright-pirate"])
    snipe = state.ships["snipe"]
    crew = snipe.aboard[0].id
    assert rules.abilities.repairs_anywhere(state, snipe)
    RULES.apply(state, RED, C.Cancel(crew, "cazador-del-pirata"))
    assert not rules.abilities.repairs_anywhere(state, snipe)
    assert rules.abilities.range_immune(state, snipe, "L")
    far = game(ShipPosition("cazador-del-pirata", RED, 30, 20, 0, aboard=["nemesio-diaz"]))
    with pytest.raises(IllegalCommand, match="not within S"):
        RULES.apply(far, RED, C.Cancel("far-blue", "cazador-del-pirata"))
    with pytest.raises(IllegalCommand, match="is yours"):
        RULES.apply(far, RED, C.Cancel("far-red", "cazador-del-pirata"))


def test_sm61_every_crew_card_plays_and_the_rules_document_says_so() -> None:
    """SM-60, SM-61: every crew card's printed text plays (Carbon Charlie and Nemesio Diaz were
    the last two), and docs/rules/spanish-main.md §4b marks each one so."""

    from shipwreck.games.spanish_main.abilities import crew_plays
    from shipwreck.games.spanish_main.ships import CREW

    docs = (ROOT / "docs" / "rules" / "spanish-main.md").read_text()
    for card in CREW.values():
        assert crew_plays(card.ability), card.name
        assert f"| {card.name} (`{card.id}`) | plays |" in docs, card.name


def test_a_corrected_line_never_names_a_ship_not_in_play() -> None:
    """'epair about' (found by the fuzz test): the correction was 'repair about', which names no
    ship in play and is itself refused. With the seat's view, a suggested line names only ids
    in play; here the closest command is suggested instead."""
    from shipwreck.lang import CommandSyntaxError

    view = RULES.view(game(ShipPosition("dover", RED, 30, 20, 0)), RED)
    with pytest.raises(CommandSyntaxError) as e:
        parse_command("spanish_main", "epair about", view)
    assert "'repair about'" not in str(e.value)
    assert "did you mean 'repair'" in str(e.value)
    with pytest.raises(CommandSyntaxError, match="did you mean 'repair dover'"):
        parse_command("spanish_main", "epair dover", view)

"""Spanish Main: split fire (SM-25), ship abilities (SM-60) and crew (SM-61).

Each ability test names its card (the rule is SM-60). Positions and dice are fixed as in
``test_spanish_main.py``, whose scene helpers this file uses.
"""

from __future__ import annotations

from typing import Any

import pytest
from paths import ROOT
from sm_helpers import BLUE, RED, clone, do, game, kinds, raider_beside_a_derelict, refused

from shipwreck.games.spanish_main import RULES, rules
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.setup import ShipPosition
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.lang.commands import format_command, parse_command

# --------------------------------------------------------------------------- split fire (SM-25)


def _two_targets(*dice: int, **kw: Any) -> SpanishMainState:
    """HMS Dover (red, 3S-3L-3L-3S) sailing east; El Leon (blue) alongside to the south within
    S of every mast; El Picador (blue) across to the north, 6 away (only the L cannons reach)."""
    return game(
        ShipPosition("dover", RED, 40, 30, 90),
        ShipPosition("el-leon", BLUE, 40, 27.5, 90),
        ShipPosition("el-picador", BLUE, 40, 36.8, 90),
        dice=dice,
        **kw,
    )


def test_sm25_split_fire_one_target_per_cannon() -> None:
    """SM-25: one shoot action may split its cannons: 1 and 4 at El Leon, 2 and 3 at El Picador;
    each cannon rolls once, against its own target, in order."""
    state = _two_targets(1, 1, 1, 1)
    log = do(state, RED, C.Shoot("dover", "el-leon", (1, 4), (("el-picador", (2, 3)),)))
    fired = [x.split(":")[0] for x in log if "'s cannon" in x]
    assert fired == [
        "dover's cannon 1 (3S) at el-leon",
        "dover's cannon 4 (3S) at el-leon",
        "dover's cannon 2 (3L) at el-picador",
        "dover's cannon 3 (3L) at el-picador",
    ]
    assert state.dice == [] and "dover" in state.acted and kinds(state) == [(RED, "turn")]


def test_sm25_split_fire_hits_each_target() -> None:
    """SM-25: a hit on the first target asks its owner for a mast, then the volley goes on at
    the second target."""
    state = _two_targets(6, 1, 6)
    do(state, RED, C.Shoot("dover", "el-leon", (1,), (("el-picador", (2, 3)),)))
    assert kinds(state) == [(BLUE, "eliminate")]
    do(state, BLUE, C.Eliminate(1))
    assert state.ships["el-leon"].masts_up == 2
    assert kinds(state) == [(BLUE, "eliminate")]  # cannon 3's 6 hit el-picador
    do(state, BLUE, C.Eliminate(2))
    assert state.ships["el-picador"].masts_up == 1 and kinds(state) == [(RED, "turn")]


def test_sm25_split_fire_no_masts_takes_the_cannons_left() -> None:
    """SM-25: an aim without masts takes every cannon that can fire at it and is named nowhere
    else."""
    state = _two_targets(1, 1, 1, 1)
    log = do(state, RED, C.Shoot("dover", "el-leon", (), (("el-picador", (2, 3)),)))
    assert [x.split(" at ")[0] for x in log if "'s cannon" in x] == [
        "dover's cannon 1 (3S)",
        "dover's cannon 4 (3S)",
        "dover's cannon 2 (3L)",
        "dover's cannon 3 (3L)",
    ]


@pytest.mark.parametrize(
    ("cmd", "match"),
    [
        (C.Shoot("dover", "el-leon", (1, 2), (("el-picador", (2,)),)), "mast 2 is listed twice"),
        (C.Shoot("dover", "el-leon", (1,), (("el-leon", (2,)),)), "el-leon is named twice"),
        (C.Shoot("dover", "el-leon", (), (("el-picador", (1,)),)), "cannot fire mast 1"),
        (C.Shoot("dover", "el-leon", (), (("el-picador", ()),)), "given another target"),
        (C.Shoot("dover", "el-leon", (1,), (("far-red", ()),)), "not an enemy"),
        (C.Shoot("dover", "el-leon", (1,), (("nobody", ()),)), "there is no ship 'nobody'"),
    ],
)
def test_sm25_split_fire_refusals(cmd: C.Shoot, match: str) -> None:
    """SM-25: one target per cannon; a refused split shot changes nothing (one-line error)."""
    refused(_two_targets(), RED, cmd, match)


def test_sm25_split_fire_text_and_choices() -> None:
    """SM-25: the text form reads back (comma optional), and the choices offer a split shot
    when no single target takes every cannon that can fire."""
    text = "shoot dover at el-leon with 1 4, at el-picador with 2 3"
    cmd = parse_command("spanish_main", text)
    assert cmd == C.Shoot("dover", "el-leon", (1, 4), (("el-picador", (2, 3)),))
    assert format_command(cmd) == text
    assert parse_command("spanish_main", text.replace(",", "")) == cmd
    state = game(
        ShipPosition("dover", RED, 40, 30, 90),
        ShipPosition("el-leon", BLUE, 46, 26, 90),  # off the bow: cannons 1, 2, 3 reach
        ShipPosition("el-picador", BLUE, 34, 35, 90),  # off the stern, across: 2, 3, 4 reach
    )
    shots = [c for c in RULES.choices(state, RED) if isinstance(c, C.Shoot)]
    assert C.Shoot("dover", "el-leon") in shots and C.Shoot("dover", "el-picador") in shots
    split = [c for c in shots if c.also]
    assert split == [C.Shoot("dover", "el-leon", (1, 2, 3), (("el-picador", (4,)),))]
    do(state, RED, split[0])


# --------------------------------------------------------------------------- abilities (SM-60)


def _duel(shooter: str, target: str, *dice: int, **kw: Any) -> SpanishMainState:
    """``shooter`` (red) sailing east with ``target`` (blue) alongside, 2.5 to the north: every
    S cannon of the shooter reaches her. ``shooter_at``/``target_at``: other positions."""
    sx, sy = kw.pop("shooter_at", (40, 30))
    tx, ty = kw.pop("target_at", (40, 32.5))
    return game(
        ShipPosition(shooter, RED, sx, sy, 90, **kw.pop("s", {})),
        ShipPosition(target, BLUE, tx, ty, 90, **kw.pop("t", {})),
        *kw.pop("extra", ()),
        dice=dice,
        **kw,
    )


def _fire(state: SpanishMainState, shooter: str, target: str, mast: int) -> list[str]:
    return do(state, RED, C.Shoot(shooter, target, (mast,)))


def _hits(log: list[str]) -> bool:
    return any("'s cannon" in x and " hits " in x for x in log)


@pytest.mark.parametrize(
    ("card", "target"),
    [
        ("revenge", "dover"),  # +1 against English ships
        ("muerta-de-la-corona", "el-picador"),  # +1 against Spanish ships
        ("plantagenet", "venture"),  # +1 against Pirate ships
        ("cazador-del-pirata", "venture"),  # +1 against Pirate ships
    ],
)
def test_sm60_cannon_bonus_against_a_nationality(card: str, target: str) -> None:
    """SM-60: "+1 to her cannon rolls against <nation> ships": a roll one short of the rank hits
    that nation's ships (the log shows the sum), and misses as a plain hull."""
    from shipwreck.games.spanish_main.ships import CARDS

    rank = CARDS[card].cannons[0][0]
    log = _fire(_duel(card, target, rank - 1), card, target, 1)
    assert _hits(log) and any(f"d6 = {rank - 1} +1 = {rank} hits" in x for x in log)
    assert not _hits(_fire(_duel(card, target, rank - 1, abilities=False), card, target, 1))


@pytest.mark.parametrize(("card", "shooter"), [("treachery", "dover"), ("el-chico", "el-picador")])
def test_sm60_nation_gets_plus_one_against_this_ship(card: str, shooter: str) -> None:
    """SM-60, Treachery / El Chico: English (Spanish) ships get +1 to their cannon rolls against
    this ship: a 2 hits with a rank-3 cannon."""
    assert _hits(_fire(_duel(shooter, card, 2), shooter, card, 1))
    assert not _hits(_fire(_duel(shooter, card, 2, abilities=False), shooter, card, 1))


@pytest.mark.parametrize("card", ["el-garante", "la-repulsa"])
def test_sm60_plus_one_per_friendly_ship_within_s(card: str) -> None:
    """SM-60, El Garante / La Repulsa: +1 to her cannon rolls for every friendly ship within S:
    with two friends alongside, a roll two short of the rank hits; alone it misses."""
    friends = (
        ShipPosition("el-picador", RED, 40, 27, 90, id="f1"),
        ShipPosition("el-picador", RED, 47, 30, 90, id="f2"),
    )
    log = _fire(_duel(card, "dover", 1, extra=friends), card, "dover", 1)
    assert any("d6 = 1 +2 = 3 hits" in x for x in log)
    assert not _hits(_fire(_duel(card, "dover", 1), card, "dover", 1))


@pytest.mark.parametrize(
    ("card", "a", "b"),
    [("zephyr", 4, 1), ("pandora", 2, 1), ("birkenhead", 4, 3), ("la-joya-del-sol", 3, 3)],
)
def test_sm60_plus_one_to_boarding_rolls(card: str, a: int, b: int) -> None:
    """SM-60, "+1 to her boarding rolls" (Zephyr, Pandora, HMS Birkenhead, La Joya del Sol):
    rolls that tie as plain hulls win the boarding party with the +1."""
    from shipwreck.games.spanish_main.ships import CARDS

    for on in (True, False):
        state = game(
            ShipPosition(card, RED, 37, 25, 0),
            ShipPosition("dover", BLUE, 40, 30, 90, cargo=[4]),
            dice=(1, a, b),
            abilities=on,
        )
        leg = CARDS[card].move[0]
        do(state, RED, C.Move(card, ((leg, 0.0, None),)))  # (her bow stops against dover)
        do(state, RED, C.Ram(card, "dover"))
        log = do(state, RED, C.Board("steal"))
        if on:
            assert any("+ 1 ability" in x for x in log) and any(
                f"{card}'s party wins" in x for x in log
            )
            assert len(state.ships[card].cargo) == 1
        else:
            assert any("a tie" in x for x in log)


@pytest.mark.parametrize("card", ["snipe", "silverback", "batavian-bat", "santa-teresa"])
def test_sm60_l_range_cannons_cannot_hit_this_ship(card: str) -> None:
    """SM-60, "L-range cannons cannot hit this ship": HMS Dover's L cannons may not fire at her
    (6 away only they reach); as a plain hull she can be shot."""
    at = {"target_at": (40, 36.8)}
    refused(_duel("dover", card, **at), RED, C.Shoot("dover", card), "cannot be hit by L")
    do(_duel("dover", card, 1, 1, abilities=False, **at), RED, C.Shoot("dover", card))


@pytest.mark.parametrize("card", ["revenant", "bolingbroke", "bloody-throne"])
def test_sm60_other_ships_do_not_block_her_line_of_fire(card: str) -> None:
    """SM-60, "Other ships do not block this ship's line of fire" (Revenant, HMS Bolingbroke,
    Bloody Throne): she fires past El Leon at El Picador; a plain hull is blocked."""

    def scene(**kw: Any) -> SpanishMainState:
        return game(
            ShipPosition(card, RED, 30, 20, 0),
            ShipPosition("el-leon", BLUE, 33.5, 20, 0),
            ShipPosition("el-picador", BLUE, 37, 20, 0),
            dice=(1,) * 5,
            **kw,
        )

    do(scene(), RED, C.Shoot(card, "el-picador"))
    refused(scene(abilities=False), RED, C.Shoot(card, "el-picador"), "el-leon blocks")


def test_sm60_meresman_doubles_her_range_but_needs_a_6() -> None:
    """SM-60, HMS Meresman: her S cannons reach a ship 6 away at double range, and such a shot
    hits only on a 6 (choice: the range doubles whenever a target is beyond the printed one)."""
    at = {"target_at": (40, 36.8)}
    log = _fire(_duel("meresman", "dover", 5, **at), "meresman", "dover", 1)
    assert any("d6 = 5 misses (needs a 6 at double range)" in x for x in log)
    assert _hits(_fire(_duel("meresman", "dover", 6, **at), "meresman", "dover", 1))
    assert _hits(_fire(_duel("meresman", "dover", 3), "meresman", "dover", 1))  # (within S)
    state = _duel("meresman", "dover", abilities=False, **at)
    refused(state, RED, C.Shoot("meresman", "dover"), "away")


@pytest.mark.parametrize("card", ["sea-nymph", "albion", "el-corazon-del-mar"])
def test_sm60_derelict_gains_a_base_move_of_s(card: str) -> None:
    """SM-60, "If derelict, this ship gains a base move of S" (Sea Nymph, HMS Albion, El Corazon
    del Mar): with no masts she still sails one S leg (SM-11 otherwise)."""
    state = game(ShipPosition(card, RED, 30, 20, 0, masts=0))
    assert RULES.view(state, RED).ships[0].move == ("S",)
    do(state, RED, C.Move(card, (("S", 0.0, None),)))
    assert state.ships[card].y == pytest.approx(25)
    state = game(ShipPosition(card, RED, 30, 20, 0, masts=0), abilities=False)
    refused(state, RED, C.Move(card, (("S", 0.0, None),)), "derelict")


def test_sm60_move_abilities_change_the_base_move() -> None:
    """SM-60: Darkhawk II's base move becomes S at her cargo limit; Greyhound gets +S with no
    cargo; Silver Dagger gets +L with all her masts."""
    legs = lambda state: RULES.view(state, RED).ships[0].move  # noqa: E731
    assert legs(game(ShipPosition("darkhawk-ii", RED, 30, 20, 0, cargo=[1] * 8))) == ("S",)
    assert legs(game(ShipPosition("darkhawk-ii", RED, 30, 20, 0, cargo=[1] * 7))) == ("L",)
    assert legs(game(ShipPosition("greyhound", RED, 30, 20, 0))) == ("L", "S")
    assert legs(game(ShipPosition("greyhound", RED, 30, 20, 0, cargo=[1]))) == ("L",)
    assert legs(game(ShipPosition("silver-dagger", RED, 30, 20, 0))) == ("S", "L")
    assert legs(game(ShipPosition("silver-dagger", RED, 30, 20, 0, masts=2))) == ("S",)
    assert legs(game(ShipPosition("greyhound", RED, 30, 20, 0), abilities=False)) == ("L",)
    state = game(ShipPosition("greyhound", RED, 30, 10, 0))
    do(state, RED, C.Move("greyhound", (("L", 0.0, None), ("S", 0.0, None))))
    assert state.ships["greyhound"].y == pytest.approx(22)


@pytest.mark.parametrize("card", ["leicester", "oxley", "la-furia"])
def test_sm60_two_masts_with_one_hit(card: str) -> None:
    """SM-60, "This ship eliminates two masts with one hit" (HMS Leicester, HMS Oxley, La Furia):
    one hit on El Leon (3 masts) asks for two masts."""
    state = _duel(card, "el-leon", 6)
    _fire(state, card, "el-leon", 1)
    do(state, BLUE, C.Eliminate(1))
    assert kinds(state) == [(BLUE, "eliminate")]
    do(state, BLUE, C.Eliminate(2))
    assert state.ships["el-leon"].masts_up == 1 and kinds(state) == [(RED, "turn")]


def test_sm60_lord_walpole_chooses_the_mast() -> None:
    """SM-60, HMS Lord Walpole: when she hits, her player chooses the mast eliminated."""
    state = _duel("lord-walpole", "el-leon", 6)
    _fire(state, "lord-walpole", "el-leon", 1)
    assert kinds(state) == [(RED, "eliminate")]
    refused(state, BLUE, C.Eliminate(1), "waiting for red|red")
    do(state, RED, C.Eliminate(2))
    assert [m.up for m in state.ships["el-leon"].masts] == [True, False, True]


def test_sm60_el_acorazado_needs_two_hits_of_one_shoot_action() -> None:
    """SM-60, El Acorazado: two hits from the same shoot action take one mast; one hit does
    nothing, and a hit does not carry over to the next shoot action."""
    state = _duel("dover", "el-acorazado", 6, 6)
    log = do(state, RED, C.Shoot("dover", "el-acorazado", (1, 4)))
    assert any("needs a second hit" in x for x in log)
    assert kinds(state) == [(BLUE, "eliminate")]
    state = _duel("dover", "el-acorazado", 6, 1)
    do(state, RED, C.Shoot("dover", "el-acorazado", (1, 4)))
    assert state.ships["el-acorazado"].masts_up == 5 and state.soak == ["el-acorazado"]
    do(state, RED, C.EndTurn())
    state.dice = [6]
    do(state, BLUE, C.EndTurn())
    do(state, RED, C.Shoot("dover", "el-acorazado", (1,)))
    assert kinds(state) == [(RED, "turn")] and state.ships["el-acorazado"].masts_up == 5


def test_sm60_lord_algernon_ignores_the_first_hit_each_turn() -> None:
    """SM-60, HMS Lord Algernon: with all her masts she ignores the first hit each turn."""
    state = _duel("dover", "lord-algernon", 6, 6)
    log = do(state, RED, C.Shoot("dover", "lord-algernon", (1, 4)))
    assert any("ignores the first hit" in x for x in log)
    assert kinds(state) == [(BLUE, "eliminate")]
    state = _duel("dover", "lord-algernon", 6, t={"masts": 4})
    _fire(state, "dover", "lord-algernon", 1)
    assert kinds(state) == [(BLUE, "eliminate")]


def test_sm60_asesino_eliminates_a_cargo_with_a_hit() -> None:
    """SM-60, Asesino de la Nave: a hit also eliminates one of the target's coins (a die picks
    it); the coin is revealed and leaves play (choice: "may" is always taken)."""
    state = _duel("asesino-de-la-nave", "el-leon", 6, 2, t={"cargo": [3, 5]})
    log = _fire(state, "asesino-de-la-nave", "el-leon", 1)
    assert any("d2 = 2 picks it" in x and "(5) leaves play" in x for x in log)
    assert len(state.ships["el-leon"].cargo) == 1
    assert [c.place for c in state.coins if c.value == 5][-1] == "lost"


@pytest.mark.parametrize("card", ["el-ladron", "gallowglass"])
def test_sm60_repairs_a_mast_when_she_sinks_a_ship(card: str) -> None:
    """SM-60, El Ladron / HMS Gallowglass: sinking a ship repairs one of her masts."""
    state = _duel(card, "el-leon", 6, s={"masts": [1]}, t={"masts": 0})
    log = _fire(state, card, "el-leon", 1)
    assert "el-leon" in state.sunk and any("repairs mast 2" in x for x in log)
    assert state.ships[card].masts_up == 2


def test_sm60_venture_sinks_with_her_last_mast() -> None:
    """SM-60, Venture: she sinks when her last mast is eliminated (no derelict)."""
    state = _duel("dover", "venture", 6, t={"masts": 1})
    _fire(state, "dover", "venture", 1)
    assert "venture" in state.sunk and "venture" not in state.ships


def test_sm60_carrion_crow_loses_a_mast_on_a_1() -> None:
    """SM-60, Carrion Crow: a 1 on a cannon roll eliminates one of her masts (choice: the mast
    of the cannon that rolled it)."""
    state = _duel("carrion-crow", "el-leon", 1)
    log = _fire(state, "carrion-crow", "el-leon", 2)
    assert any("rolled a 1" in x for x in log)
    assert [m.up for m in state.ships["carrion-crow"].masts] == [True, False]


@pytest.mark.parametrize("card", ["wycliffe", "el-leon"])
def test_sm60_ramming_cannot_eliminate_her_masts(card: str) -> None:
    """SM-60, HMS Wycliffe / El Leon: a ram rolls nothing and takes no mast (boarding still
    follows)."""
    state = game(
        ShipPosition("el-picador", RED, 37, 26, 0),
        ShipPosition(card, BLUE, 40, 30, 90),
        dice=(6,),
    )
    do(state, RED, C.Move("el-picador", (("S", 0.0, None),)))
    log = do(state, RED, C.Ram("el-picador", card))
    assert any("ramming cannot eliminate" in x for x in log)
    assert state.dice == [6] and state.ships[card].masts_up == 3


@pytest.mark.parametrize("card", ["titan", "europa"])
def test_sm60_extra_action_on_a_5_or_6(card: str) -> None:
    """SM-60, HMS Titan / HMS Europa: once per turn, as the turn begins, a d6: on 5-6 she may
    be given an extra action; otherwise one."""
    for die, twice in ((5, True), (4, False)):
        state = game(ShipPosition(card, BLUE, 30, 20, 0), turn=BLUE, dice=(die,))
        assert state.dice == [] and (card in state.extra) == twice
        leg = "L" if card == "titan" else "S"
        do(state, BLUE, C.Move(card, ((leg, 0.0, 1.0),)))
        if twice:
            do(state, BLUE, C.Move(card, ((leg, 0.0, 1.0),)))
        refused(state, BLUE, C.Move(card, ((leg, 0.0, 1.0),)), "has had her action")


def test_sm60_longshanks_never_loads_the_last_coin() -> None:
    """SM-60, Longshanks: she may never load the last treasure from an island."""
    from sm_helpers import end_turns

    state = game(ShipPosition("longshanks", RED, 35, 39.9, 0))
    do(state, RED, C.Move("longshanks", (("S", 0.0, None),)))
    end_turns(state, RED, BLUE)
    do(state, RED, C.Explore("longshanks"))
    assert max(len(c.coins) for c in RULES.choices(state, RED) if isinstance(c, C.Load)) == 2
    refused(state, RED, C.Load("longshanks", (1, 2, 3)), "never load the last coin")
    do(state, RED, C.Load("longshanks", (1, 2)))


def test_sm60_every_text_that_plays_is_named_in_the_docs() -> None:
    """SM-60: docs/rules/spanish-main.md lists each ship card and whether its ability plays."""

    from shipwreck.games.spanish_main.abilities import plays
    from shipwreck.games.spanish_main.ships import CARDS

    docs = (ROOT / "docs" / "rules" / "spanish-main.md").read_text()
    for card in CARDS.values():
        mark = "plays" if plays(card.ability) else "not yet"
        assert f"| {card.name} | {mark} |" in docs, card.name


# --------------------------------------------------------------------------- crew (SM-61)


def _docked_pair(**kw: Any) -> SpanishMainState:
    """Red's HMS Dover and HMS Plantagenet, both docked at red's home isla-1."""
    return game(
        ShipPosition("dover", RED, 15.005, 28, 270, aboard=kw.pop("dover", [])),
        ShipPosition("plantagenet", RED, 10, 33.005, 180, aboard=kw.pop("plantagenet", [])),
        **kw,
    )


def test_sm61_crew_start_aboard_in_cargo_slots() -> None:
    """SM-61: crew start aboard and take a cargo slot each; an Oarsman takes none; Master Bianco
    takes none and adds one. Crew is public: every seat sees it."""
    state = _docked_pair(dover=["explorer-english", "oarsman-english"])
    dover = state.ships["dover"]
    assert [c.id for c in dover.aboard] == ["explorer-english", "oarsman-english"]
    assert dover.free_cargo == 5 - 1
    state = game(ShipPosition("el-picador", RED, 30, 20, 0, aboard=["master-bianco"]))
    assert state.ships["el-picador"].free_cargo == 3
    for seat in (RED, BLUE, None):
        ship = RULES.view(state, seat).ships[0]
        assert [c.name for c in ship.aboard] == ["Master Bianco"]


def test_sm61_crew_gives_its_ship_its_ability_by_nation() -> None:
    """SM-61: Thomas Gunn the Elder (English, +1 vs Spanish ships) works aboard HMS Dover, not
    aboard the pirate Venture; Bonny Kate lets English crew work aboard her (SM-60); Brother
    Virgil lets crew of any nation work."""

    def shot(card: str, aboard: list[str]) -> bool:
        state = _duel(card, "el-picador", 2, s={"aboard": aboard})
        return _hits(_fire(state, card, "el-picador", 1))

    assert shot("dover", ["thomas-gunn-the-elder"]) and not shot("dover", [])
    assert not shot("venture", ["thomas-gunn-the-elder"])
    assert shot("bonny-kate", ["thomas-gunn-the-elder"])
    assert shot("el-chico", ["thomas-gunn-the-elder", "brother-virgil"])


def test_sm61_drop_off_pick_up_and_transfer_at_a_dock() -> None:
    """SM-14, SM-61: at a dock, crew may be dropped off, picked up, or moved between ships
    docked at the same island: free actions in your turn, listed as such."""
    state = _docked_pair(dover=["explorer-english"])
    free = RULES.view(state, RED).free
    assert C.DropOff("explorer-english", "dover") in free
    assert C.Transfer("explorer-english", "dover", "plantagenet") in free
    do(state, RED, C.Transfer("explorer-english", "dover", "plantagenet"))
    assert [c.id for c in state.ships["plantagenet"].aboard] == ["explorer-english"]
    do(state, RED, C.DropOff("explorer-english", "plantagenet"))
    assert [c.id for c in state.islands["isla-1"].crew] == ["explorer-english"]
    assert [c.id for c in RULES.view(state, BLUE).islands[0].crew] == ["explorer-english"]
    do(state, RED, C.PickUp("explorer-english", "dover"))
    assert [c.id for c in state.ships["dover"].aboard] == ["explorer-english"]
    assert state.acted == [] and kinds(state) == [(RED, "turn")]  # (free: no action spent)


@pytest.mark.parametrize(
    ("cmd", "match"),
    [
        (C.DropOff("gunner", "dover"), "'gunner' is not aboard dover; aboard: explorer-english"),
        (C.PickUp("nobody", "dover"), "no crew of yours called 'nobody' waits at isla-1"),
        (C.Transfer("explorer-english", "dover", "far-red"), "far-red is not docked at isla-1"),
        (C.DropOff("explorer-english", "far-red"), "far-red is not docked"),
        (C.DropOff("explorer-english", "far-blue"), "blue's ship, not yours"),
    ],
)
def test_sm61_crew_moves_refused(cmd: C.Command, match: str) -> None:
    """SM-61: a crew move that cannot be made is refused in one line and changes nothing."""
    refused(_docked_pair(dover=["explorer-english"]), RED, cmd, match)


def test_sm61_no_room_for_a_crew() -> None:
    """SM-61: a crew needs a free cargo slot aboard the ship that takes it."""
    state = game(
        ShipPosition("dover", RED, 15.005, 28, 270, aboard=["explorer-english"]),
        ShipPosition("albion", RED, 10, 33.005, 180, cargo=[1, 2]),
        far=False,
        islands=None,
    )
    refused(state, RED, C.Transfer("explorer-english", "dover", "albion"), "no free cargo slot")


def test_sm61_sm20_boarding_eliminates_a_crew_piece_and_ghost_crew_protects() -> None:
    """SM-20, SM-61: a won boarding party may eliminate one crew piece (a die picks which);
    Ghost Crew aboard: her crew cannot be eliminated."""

    def scene(aboard: list[str], *dice: int) -> SpanishMainState:
        state = game(
            ShipPosition("el-picador", RED, 37, 26, 0),
            ShipPosition("venture", BLUE, 40, 30, 90, aboard=aboard),
            dice=dice,
        )
        do(state, RED, C.Move("el-picador", (("S", 0.0, None),)))
        do(state, RED, C.Ram("el-picador", "venture"))
        return state

    state = scene(["oarsman-pirate", "explorer-pirate"], 1, 6, 1, 2)
    assert C.Board("kill") in RULES.choices(state, RED)
    log = do(state, RED, C.Board("kill"))
    assert any("eliminates Explorer of venture's crew (d2 = 2 picks it)" in x for x in log)
    assert [c.id for c in state.ships["venture"].aboard] == ["oarsman-pirate"]
    state = scene(["ghost-crew"], 1)
    assert C.Board("kill") not in RULES.choices(state, RED)


def test_sm61_a_sinking_ship_takes_her_crew() -> None:
    """SM-61: a ship that sinks takes her crew with her (it is nowhere afterwards)."""
    state = _duel("dover", "venture", 6, t={"masts": 0, "aboard": ["explorer-pirate"]})
    _fire(state, "dover", "venture", 1)
    assert "venture" in state.sunk
    assert all(not i.crew for i in state.islands.values())
    assert all(c.id != "explorer-pirate" for s in state.ships.values() for c in s.aboard)


@pytest.mark.parametrize("card", ["recreant", "el-tirador"])
def test_sm60_a_hit_also_eliminates_one_crew_once_per_turn(card: str) -> None:
    """SM-60, Recreant / El Tirador: once per turn a hit also eliminates one crew from the
    ship hit."""
    state = _duel(card, "el-leon", 6, 6, t={"aboard": ["explorer-spanish", "oarsman-spanish"]})
    log = do(state, RED, C.Shoot(card, "el-leon", (1, 2)))
    assert sum("of el-leon's crew" in x for x in log) == 1
    assert len(state.ships["el-leon"].aboard) == 1


def test_sm61_crew_abilities_through_the_same_hooks() -> None:
    """SM-61 with SM-60: Oarsman (derelict base move S), Silver Helmsman (+S), Master Gunner
    Rogelio Vazquez (all cannons L), Shipwright (repairs at sea), Genny Gallows (+2 gold on
    unloading), Captain crew for El Duque (+1 cannon rolls)."""
    legs = lambda state: RULES.view(state, RED).ships[0].move  # noqa: E731
    state = game(ShipPosition("venture", RED, 30, 20, 0, masts=0, aboard=["oarsman-pirate"]))
    assert legs(state) == ("S",)
    assert legs(game(ShipPosition("venture", RED, 30, 20, 0, aboard=["silver-helmsman"]))) == (
        "S",
        "S",
        "S",
    )
    at = {"target_at": (40, 36.8)}
    state = _duel("el-picador", "dover", 6, s={"aboard": ["master-gunner-rogelio-vazquez"]}, **at)
    assert _hits(_fire(state, "el-picador", "dover", 1))
    refused(_duel("el-picador", "dover", **at), RED, C.Shoot("el-picador", "dover"), "away")
    state = game(ShipPosition("dover", RED, 40, 20, 90, masts=2, aboard=["shipwright-english"]))
    do(state, RED, C.Repair("dover"))
    assert state.ships["dover"].masts_up == 3
    state = game(ShipPosition("venture", RED, 22, 28, 270, cargo=[5], aboard=["genny-gallows"]))
    do(state, RED, C.Move("venture", (("S", 0.0, None), ("S", 0.0, None))))
    assert state.gold == [7, 0]
    state = _duel("el-duque", "dover", 3, s={"aboard": ["capitan-alarico-castro"]})
    assert _hits(_fire(state, "el-duque", "dover", 1))
    assert not _hits(_fire(_duel("el-duque", "dover", 3), "el-duque", "dover", 1))


def test_sm61_fleet_entries_buy_crew() -> None:
    """SM-4, SM-61: a fleet entry ``SHIP+CREW+…`` buys the crew (Countess Diana Doone makes the
    other crew on her ship 1 cheaper); crew needs abilities on."""
    from shipwreck.games.spanish_main.setup import SetupError, fleet_cost, new_game

    assert fleet_cost("dover+explorer-english") == 11
    assert fleet_cost("dover+countess-diana-doone+governor-lynch") == 10 + 2 + 2
    fleets = [["dover+explorer-english", "plantagenet"], ["el-picador"]]
    state, _ = new_game(2, 2, {"fleets": fleets})
    assert [c.card for c in state.ships["dover"].aboard] == ["explorer-english"]
    with pytest.raises(SetupError, match="crew play only with abilities on"):
        new_game(2, 2, {"fleets": fleets, "abilities": False})
    with pytest.raises(SetupError, match="'gunner' is not a crew card"):
        new_game(2, 2, {"fleets": [["dover+gunner"], ["el-picador"]]})


@pytest.mark.parametrize(
    ("text", "cmd"),
    [
        ("drop off explorer-english from dover", C.DropOff("explorer-english", "dover")),
        ("pick up explorer-english with dover", C.PickUp("explorer-english", "dover")),
        (
            "transfer explorer-english from dover to plantagenet",
            C.Transfer("explorer-english", "dover", "plantagenet"),
        ),
    ],
)
def test_sm61_crew_commands_text(text: str, cmd: C.Command) -> None:
    """SM-61: the crew commands read back to their text."""
    assert parse_command("spanish_main", text) == cmd
    assert format_command(cmd) == text


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("drop explorer-english from dover", "unexpected 'explorer-english'; expected 'off'"),
        ("pick up", "incomplete command; expected a crew"),
        ("transfer explorer-english dover", "unexpected 'dover'; expected 'from'"),
    ],
)
def test_sm61_crew_commands_strangers(text: str, match: str) -> None:
    """SM-61: a mistyped crew command gets one line pointing at the problem."""
    from shipwreck.lang.commands import CommandSyntaxError

    with pytest.raises(CommandSyntaxError, match=match) as e:
        parse_command("spanish_main", text)
    assert "\n" not in str(e.value)


def test_sm60_belle_of_exeter_keeps_her_cannons() -> None:
    """SM-60, HMS Belle of Exeter: her cannons are not eliminated with their masts (she fires
    mast 1's cannon with mast 1 down); derelict, she cannot shoot."""
    state = _duel("belle-of-exeter", "el-leon", 6, s={"masts": [2, 3]})
    assert _hits(_fire(state, "belle-of-exeter", "el-leon", 1))
    state = _duel("belle-of-exeter", "el-leon", s={"masts": [2, 3]}, abilities=False)
    refused(state, RED, C.Shoot("belle-of-exeter", "el-leon", (1,)), "no mast 1 standing")
    state = _duel("belle-of-exeter", "el-leon", s={"masts": 0})
    refused(state, RED, C.Shoot("belle-of-exeter", "el-leon"), "derelict")


@pytest.mark.parametrize(
    ("card", "aboard"), [("el-ballista", []), ("revenge", ["captain-jack-hawkins"])]
)
def test_sm60_pinned_she_eliminates_one_crew_of_the_enemy(card: str, aboard: list[str]) -> None:
    """SM-60, El Ballista (and Captain Jack Hawkins aboard): on the turn she is pinned, one crew
    of the enemy ship is eliminated (choice: as her player's turn begins)."""
    from sm_helpers import end_turns

    state = game(
        ShipPosition(card, RED, 37, 29.2, 0, aboard=aboard),  # (her bow against venture's side)
        ShipPosition("venture", BLUE, 40, 30, 90, aboard=["explorer-pirate"]),
        turn=BLUE,
    )
    assert RULES.view(state, RED).ships[0].pinned_by == "venture"
    log = [e.text for e in RULES.apply(state, BLUE, C.EndTurn())]
    assert any(f"{card}, pinned, eliminates Explorer of venture's crew" in x for x in log)
    assert state.ships["venture"].aboard == []
    end_turns(state, RED)


def test_sm60_silver_captain_moves_and_shoots_with_one_action() -> None:
    """SM-60 via SM-61, Silver Captain: she may move and shoot using the same move action."""
    state = _duel("dover", "el-leon", 6, shooter_at=(35, 30), s={"aboard": ["silver-captain"]})
    do(state, RED, C.Move("dover", (("S", 0.0, 4.0),)))
    assert any(isinstance(c, C.Shoot) for c in RULES.choices(state, RED))
    do(state, RED, C.Shoot("dover", "el-leon", (1,)))
    assert kinds(state) == [(BLUE, "eliminate")] and "dover" in state.acted
    state = _duel("dover", "el-leon", shooter_at=(35, 30))
    do(state, RED, C.Move("dover", (("S", 0.0, 4.0),)))
    refused(state, RED, C.Shoot("dover", "el-leon"), "has had her action")


def test_sm60_explorer_docks_and_explores_with_one_action() -> None:
    """SM-60 via SM-61, Explorer: she may dock and explore a wild island with the same move."""
    state = game(ShipPosition("dover", RED, 35, 32, 0, aboard=["explorer-english"]))
    do(state, RED, C.Move("dover", (("S", 0.0, None), ("S", 0.0, None))))
    assert state.ships["dover"].docked == "isla-3"
    assert C.Explore("dover") in RULES.choices(state, RED)
    do(state, RED, C.Explore("dover"))
    assert kinds(state) == [(RED, "load")]
    state = game(ShipPosition("dover", RED, 35, 32, 0))
    do(state, RED, C.Move("dover", (("S", 0.0, None), ("S", 0.0, None))))
    refused(state, RED, C.Explore("dover"), "did not begin this turn docked")


def test_sm60_pescados_de_plata_moves_s_after_unloading() -> None:
    """SM-60, Pescados de Plata: once per turn she may move S after unloading."""
    state = game(ShipPosition("pescados-de-plata", RED, 22, 28, 270, cargo=[3]))
    do(state, RED, C.Move("pescados-de-plata", (("S", 0.0, None), ("S", 0.0, None))))
    assert state.gold == [3, 0]
    assert RULES.view(state, RED).ships[0].move == ("S",)
    refused(state, RED, C.Move("pescados-de-plata", (("L", 0.0, None),)), "no L leg")
    state2 = game(ShipPosition("pescados-de-plata", RED, 22, 28, 270, cargo=[3]), abilities=False)
    do(state2, RED, C.Move("pescados-de-plata", (("S", 0.0, None), ("S", 0.0, None))))
    refused(state2, RED, C.Move("pescados-de-plata", (("S", 0.0, None),)), "had her action")


def _touch_scene(card: str, target: str, *dice: int, **kw: Any) -> SpanishMainState:
    """``card`` (red) sails north one S leg and touches ``target``'s side (blue, laden)."""
    state = game(
        ShipPosition(card, RED, 37, 25, 0, aboard=kw.pop("aboard", [])),
        ShipPosition(target, BLUE, 40, 30, 90, cargo=kw.pop("cargo", [4, 6])),
        dice=dice,
        **kw,
    )
    leg = RULES.view(state, RED).ships[0].move[0]
    do(state, RED, C.Move(card, ((leg, 0.0, None),)))  # (her bow stops against the target)
    return state


@pytest.mark.parametrize(
    ("card", "aboard"), [("la-resolucion", []), ("revenge", ["skyme-the-monkey"])]
)
def test_sm60_takes_one_coin_from_a_ship_she_touches(card: str, aboard: list[str]) -> None:
    """SM-60, La Resolucion (and Skyme the Monkey aboard a pirate): once per turn she takes one
    coin at random from a ship she touches; the coin's value is shown to her player only."""
    state = _touch_scene(card, "dover", 2, aboard=aboard)
    assert len(state.ships[card].cargo) == 1 and len(state.ships["dover"].cargo) == 1
    coin = state.ships[card].cargo[0]
    assert state.coins[coin - 1].value == 6 and RED in state.coins[coin - 1].known
    assert [c.value for c in RULES.view(state, None).ships[0].cargo] == [None]


def test_sm60_l_aguila_loads_what_she_can_from_a_pirate_ship() -> None:
    """SM-60, L'Aguila: touching a Pirate ship, she loads as much of its treasure as she can
    carry; a ship of another nation she leaves alone."""
    state = _touch_scene("laguila", "revenge", 1, 1, cargo=[4, 6, 2])
    assert len(state.ships["laguila"].cargo) == 3 and state.ships["revenge"].cargo == []
    state = _touch_scene("laguila", "dover", cargo=[4, 6])
    assert state.ships["laguila"].cargo == []


def test_sm60_biancos_haulers_unload_from_within_s_of_home() -> None:
    """SM-60 via SM-61, Bianco's Haulers (Spanish crew, on a Spanish ship): she unloads at her
    home island from within S of it, without docking."""
    state = game(ShipPosition("el-leon", RED, 26, 28, 270, cargo=[5], aboard=["biancos-haulers"]))
    do(state, RED, C.Move("el-leon", (("L", 0.0, None),)))  # (her bow ends 3.2 from isla-1)
    assert state.ships["el-leon"].docked is None and state.gold == [5, 0]


@pytest.mark.parametrize(
    ("card", "aboard"), [("revenge", ["calico-cat"]), ("el-leon", ["capitan-alarico-castro"])]
)
def test_sm60_same_action_twice_on_a_5_or_6(card: str, aboard: list[str]) -> None:
    """SM-60 via SM-61, Calico Cat (Capitán Alarico Castro): a d6 before her action (choice:
    as her turn begins); on 5-6 she may be given the same action twice, not another."""
    state = game(ShipPosition(card, BLUE, 30, 20, 0, aboard=aboard), turn=BLUE, dice=(6,))
    assert card in state.extra
    leg = RULES.view(state, BLUE).ships[0].move[0]
    do(state, BLUE, C.Move(card, ((leg, 0.0, 1.0),)))
    refused(state, BLUE, C.Repair(card), "must be the same as her first: move")
    assert all(not isinstance(c, C.Repair) for c in RULES.choices(state, BLUE))
    do(state, BLUE, C.Move(card, ((leg, 0.0, 1.0),)))
    refused(state, BLUE, C.Move(card, ((leg, 0.0, 1.0),)), "had her action")


@pytest.mark.parametrize(
    ("card", "aboard"), [("shadow", []), ("freedom", []), ("revenge", ["el-fantasma"])]
)
def test_sm60_docks_at_an_enemy_home_and_loads_one_coin(card: str, aboard: list[str]) -> None:
    """SM-60, Shadow / Freedom (and El Fantasma aboard): she may dock at an enemy home island and
    load one treasure (a die picks it; it leaves that player's gold). Choice: "she must leave on
    your next turn" is not enforced. A plain hull stops short (SM-14)."""
    from sm_helpers import end_turns

    for on in (True, False):
        state = game(
            ShipPosition("dover", BLUE, 48, 28, 90, cargo=[5, 2]),
            ShipPosition(card, RED, 60, 16, 0, aboard=aboard if on else []),
            turn=BLUE,
            dice=(2,),
            abilities=on,
        )
        do(state, BLUE, C.Move("dover", (("S", 0.0, None), ("S", 0.0, None))))
        assert state.gold == [0, 7]
        end_turns(state, BLUE)
        do(state, RED, C.Move(card, (("L", 0.0, None),)))
        if on:
            assert state.ships[card].docked == "isla-2" and state.gold == [0, 5]
            assert [state.coins[c - 1].value for c in state.ships[card].cargo] == [2]
        else:
            assert state.ships[card].docked is None and state.gold == [0, 7]


def test_sm60_sm17_a_raider_that_must_leave_may_not_tow_where_she_lies() -> None:
    """SM-60 (Shadow: "she must leave on your next turn", here: her action is a move that takes
    her away) with SM-17's tow where she lies, a move of no distance that keeps her docked: it
    is refused in one line that says she must leave and what to type, and not offered."""
    state = raider_beside_a_derelict()
    free = raider_beside_a_derelict()
    free.marks.remove("leave:shadow")  # (the same place without the raid: the tow is hers)
    assert C.Tow("shadow", "snipe") in RULES.choices(free, RED)
    why = refused(state, RED, C.Tow("shadow", "snipe"), "shadow must leave isla-2 this turn")
    assert "a tow where she lies keeps her there" in why and "; try 'move shadow L" in why
    assert C.Tow("shadow", "snipe") not in RULES.choices(state, RED)


def test_sm60_a_raider_that_must_leave_is_offered_only_legal_moves_and_one_at_least() -> None:
    """SM-60 (Shadow): while she must leave, every choice offered applies, one is a move of
    hers, the turn's end is not offered, and the default (timeouts, failing bots) is her
    leaving move, which applies and takes her away."""
    state = raider_beside_a_derelict()
    choices = RULES.choices(state, RED)
    assert C.EndTurn() not in choices
    assert any(isinstance(c, C.Move) and c.ship == "shadow" for c in choices)
    for cmd in choices:
        RULES.apply(clone(state), RED, cmd)
    fallback = RULES.default(state, RED)
    assert fallback in choices and isinstance(fallback, C.Move) and fallback.ship == "shadow"
    do(state, RED, fallback)
    assert state.ships["shadow"].docked is None


def test_sm60_sm17_a_tow_where_she_lies_is_a_move_for_the_same_action_twice() -> None:
    """SM-60 via SM-61, Calico Cat (the same action twice on a 5-6) with SM-17: a tow where she
    lies is her move action, so after a shot she may not take it (nor is it offered)."""
    state = game(
        ShipPosition("revenge", RED, 30, 20, 0, aboard=["calico-cat"]),
        ShipPosition("snipe", BLUE, 30, 20, 180, masts=0),  # (bow to bow, derelict)
        ShipPosition("dover", BLUE, 34, 22, 0),
        dice=(6, 1, 1, 1, 1),
    )
    assert C.Tow("revenge", "snipe") in RULES.choices(state, RED)
    do(state, RED, C.Shoot("revenge", "dover"))
    refused(state, RED, C.Tow("revenge", "snipe"), "must be the same as her first: shoot")
    assert C.Tow("revenge", "snipe") not in RULES.choices(state, RED)


@pytest.mark.parametrize(
    ("card", "aboard", "coin_on"),
    [("ravens-neck", [], "island"), ("revenge", ["lucky-the-parrot"], "ship")],
)
def test_sm60_look_at_one_face_down_coin(card: str, aboard: list[str], coin_on: str) -> None:
    """SM-60, Raven's Neck (a coin on an island) / Lucky the Parrot (a coin aboard a ship):
    once per turn, a free look at one face-down coin; only her player sees its value."""
    state = game(
        ShipPosition(card, RED, 30, 20, 0, aboard=aboard),
        ShipPosition("dover", BLUE, 50, 15, 90, cargo=[4]),
    )
    coin = 1 if coin_on == "island" else state.ships["dover"].cargo[0]
    other = 6 if coin_on == "ship" else state.ships["dover"].cargo[0]
    assert C.Look(card, coin) in RULES.view(state, RED).free
    events = RULES.apply(state, RED, C.Look(card, coin))
    secret = [e for e in events if e.to is not None]
    assert [e.to for e in secret] == [(RED,)] and "worth" in secret[0].text
    assert RULES.view(state, RED).islands[2].coins[0].value is not None or coin_on == "ship"
    refused(state, RED, C.Look(card, other), "once per turn")
    refused(game(ShipPosition("dover", RED, 30, 20, 0)), RED, C.Look("dover", 1), "no card")


def test_sm60_look_text() -> None:
    """SM-60: 'look SHIP at COIN' reads back."""
    assert parse_command("spanish_main", "look ravens-neck at 7") == C.Look("ravens-neck", 7)
    assert format_command(C.Look("ravens-neck", 7)) == "look ravens-neck at 7"


@pytest.mark.parametrize(
    ("card", "aboard"), [("harbinger", []), ("el-dorado", []), ("dover", ["commander-temple"])]
)
def test_sm60_explores_a_derelict_and_owns_it(card: str, aboard: list[str]) -> None:
    """SM-60, Harbinger / El Dorado (and Commander Temple aboard): exploring a derelict she
    touches makes it hers, and both ships dock at her home island (where they unload)."""
    state = game(
        ShipPosition(card, RED, 37, 29.2, 0, aboard=aboard),  # (her bow against dover-2)
        ShipPosition("dover", BLUE, 40, 30, 90, masts=0, cargo=[4], id="wreck"),
    )
    assert C.Explore(card) in RULES.choices(state, RED)
    do(state, RED, C.Explore(card))
    assert state.ships["wreck"].owner == RED
    assert state.ships[card].docked == state.ships["wreck"].docked == "isla-1"
    assert state.gold == [4, 0]
    if not aboard:  # (as a plain hull she cannot explore a derelict)
        state = game(
            ShipPosition(card, RED, 37, 29.2, 0),
            ShipPosition("dover", BLUE, 40, 30, 90, masts=0, id="wreck"),
            abilities=False,
        )
        refused(state, RED, C.Explore(card), "did not begin this turn docked")


def test_sm60_bones_wiley_trades_a_coin_with_an_enemy_within_s() -> None:
    """SM-60 via SM-61, David "Bones" Wiley: once per turn, a laden ship within S of a laden
    enemy swaps one coin each at random (free); each side sees only the coin it gets."""
    state = game(
        ShipPosition("revenge", RED, 40, 30, 90, cargo=[1], aboard=["david-bones-wiley"]),
        ShipPosition("dover", BLUE, 40, 33, 90, cargo=[6, 5]),
        dice=(1, 2),
    )
    assert C.Trade("revenge", "dover") in RULES.view(state, RED).free
    events = RULES.apply(state, RED, C.Trade("revenge", "dover"))
    got = [state.coins[c - 1].value for c in state.ships["revenge"].cargo]
    assert got == [5] and sorted(state.coins[c - 1].value for c in state.ships["dover"].cargo) == [
        1,
        6,
    ]
    assert {e.to for e in events if e.to is not None} == {(RED,), (BLUE,)}
    assert all("(5)" not in e.text and "(1)" not in e.text for e in events if e.to is None)
    refused(state, RED, C.Trade("revenge", "dover"), "once per turn")
    far = game(
        ShipPosition("revenge", RED, 40, 30, 90, cargo=[1], aboard=["david-bones-wiley"]),
        ShipPosition("dover", BLUE, 40, 38, 90, cargo=[6]),
    )
    refused(far, RED, C.Trade("revenge", "dover"), "not within S")
    assert parse_command("spanish_main", "trade revenge with dover") == C.Trade("revenge", "dover")
    assert format_command(C.Trade("revenge", "dover")) == "trade revenge with dover"


def test_sm60_captain_blackheart_trades_a_crew_for_an_extra_action() -> None:
    """SM-60 via SM-61, Captain Blackheart (pirate crew on a pirate ship): once per turn, lose
    one of her crew for an extra action; she also moves and shoots with one action."""
    state = game(
        ShipPosition("revenge", RED, 30, 20, 0, aboard=["captain-blackheart", "explorer-pirate"])
    )
    assert C.Sacrifice("explorer-pirate", "revenge") in RULES.view(state, RED).free
    do(state, RED, C.Sacrifice("explorer-pirate", "revenge"))
    assert [c.id for c in state.ships["revenge"].aboard] == ["captain-blackheart"]
    do(state, RED, C.Move("revenge", (("L", 0.0, 1.0),)))
    do(state, RED, C.Move("revenge", (("L", 0.0, 1.0),)))
    refused(state, RED, C.Sacrifice("captain-blackheart", "revenge"), "extra action this turn")
    assert parse_command("spanish_main", "sacrifice explorer-pirate from revenge") == C.Sacrifice(
        "explorer-pirate", "revenge"
    )


# --------------------------------------------------------------------------- random games


CREWED = [
    ["revenge+calico-cat+david-bones-wiley", "shadow+captain-blackheart", "zephyr"],
    ["dover+explorer-english+silver-captain", "titan+shipwright-english", "albion"],
]
"""Two fleets rich in abilities and crew (points: options.points = 60)."""


def _random_game(seed: int) -> tuple[SpanishMainState, list[tuple[int, C.Command]]]:
    """A random game with CREWED fleets: each prompted seat takes a random choice, free actions
    (crew moves, looks, trades, sacrifices) now and then; SM-60 and SM-61 in play."""
    import random

    from shipwreck.games.spanish_main.setup import new_game

    rng = random.Random(seed)
    state, _ = new_game(seed, 2, {"fleets": CREWED, "points": 60})
    played: list[tuple[int, C.Command]] = []
    for _ in range(300):
        if state.over:
            break
        seat = RULES.prompts(state)[0].seat
        free = [c for c in RULES.legal(state, seat) if type(c) in rules.FREE_TYPES]
        options = free if free and rng.random() < 0.3 else RULES.choices(state, seat)
        kinds_ = sorted({type(c).__name__ for c in options})
        kind = rng.choice(kinds_)
        cmd = rng.choice([c for c in options if type(c).__name__ == kind])
        RULES.apply(state, seat, cmd)
        played.append((seat, cmd))
    return state, played


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sm60_sm61_random_games_replay_and_hide_coins(seed: int) -> None:
    """SM-50, SM-60, SM-61: with abilities and crew, every listed choice applies, the same seed
    and commands give the same game byte for byte, and no seat's view shows a coin value it has
    not seen."""
    import msgspec

    from shipwreck.games.spanish_main.setup import new_game

    state, played = _random_game(seed)
    again, _ = new_game(seed, 2, {"fleets": CREWED, "points": 60})
    for seat, cmd in played:
        RULES.apply(again, seat, cmd)
    assert msgspec.json.encode(again) == msgspec.json.encode(state)
    for seat in (RED, BLUE):
        v = RULES.view(state, seat)
        shown = [c for s in v.ships for c in s.cargo] + [c for i in v.islands for c in i.coins]
        for c in shown:
            if c.value is not None:
                assert seat in state.coins[c.id - 1].known or state.over


def test_sm60_musketeer_adds_a_3s_cannon_from_any_mast() -> None:
    """SM-60 via SM-61, Musketeer: one more rank-3 S cannon (numbered after her masts: Dover's
    is 5) that fires from any mast, even with every mast down but one, and gets no bonus."""
    state = _duel("dover", "el-leon", 3, s={"aboard": ["musketeer-english"], "masts": [4]})
    log = do(state, RED, C.Shoot("dover", "el-leon", (5,)))
    assert any("dover's cannon 5 (3S) at el-leon: d6 = 3 hits (needs >= 3)" in x for x in log)
    state = _duel("dover", "el-leon", s={"masts": [4]})
    refused(state, RED, C.Shoot("dover", "el-leon", (5,)), "no mast 5 standing")
    state = _duel(
        "dover", "el-picador", 2, s={"aboard": ["musketeer-english", "thomas-gunn-the-elder"]}
    )
    log = do(state, RED, C.Shoot("dover", "el-picador", (1, 5)))
    assert any("cannon 1 (3S) at el-picador: d6 = 2 +1 = 3 hits" in x for x in log)

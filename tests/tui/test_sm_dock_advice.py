"""A refused dock says what to do when her heading or her distance is why (play-test #14b):
come about, sail clear first, or sail closer, each as a command that is legal now; one line,
no rule ids. Through the engine, the table and the screen at 80x24."""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterator

import pytest

from shipwreck.engine.core import IllegalCommand
from shipwreck.games.spanish_main import RULES as GAME
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.lang import parse_command
from shipwreck.runtime import Lobby, SeatSpec, Table

ADVICE = re.compile(r"; (she faces the wrong way|she cannot turn toward it here|sail closer)")
QUOTED = re.compile(r"'([^']+)'")


def refusals(seeds: range, rounds: int = 3) -> Iterator[tuple[SpanishMainState, int, str, str]]:
    """(state, seat, command text, refusal) for every refused ``move SHIP dock ISLAND`` of
    the seat on turn, over a few rounds of play (each seat moves a ship toward an island)."""
    for seed in seeds:
        state, _ = GAME.new_game(seed, 2)
        for _ in range(2 * rounds):
            seat = next(p.seat for p in GAME.prompts(state) if p.kind == "turn")
            for ship in [s for s in state.ships.values() if s.owner == seat]:
                for isl in state.islands:
                    try:
                        GAME.apply(copy.deepcopy(state), seat, C.MoveDock(ship.id, isl))
                    except IllegalCommand as e:
                        yield state, seat, f"move {ship.id} dock {isl}", str(e)
            for c in GAME.choices(state, seat):
                if isinstance(c, C.MoveToward):
                    GAME.apply(state, seat, c)
                    break
            while (p := GAME.prompts(state)[0]).kind != "turn":
                answer = GAME.default(state, p.seat)
                assert answer is not None
                GAME.apply(state, p.seat, answer)
            if GAME.prompts(state)[0].seat == seat:
                GAME.apply(state, seat, C.EndTurn())


def suggested(refusal: str) -> str:
    m = ADVICE.search(refusal)
    assert m is not None, refusal
    found = QUOTED.findall(refusal[m.start() :])
    assert len(found) == 1, refusal
    return str(found[0])


def ship_xy(state: SpanishMainState, ship: str) -> tuple[float, float]:
    s = state.ships[ship]
    return s.x, s.y


def test_every_advised_command_is_legal_now_and_does_what_it_says() -> None:
    """SM-14, SM-16: each kind of advice is given somewhere in these seas; the command it names
    parses and the engine takes it as the sea is; 'sail closer' ends nearer the island, and
    'come about' leaves her facing the other way. The advice is one line without rule ids."""
    seen: dict[str, int] = {}
    for state, seat, typed, refusal in refusals(range(1, 6)):
        assert "\n" not in refusal
        m = ADVICE.search(refusal)
        if m is None:
            continue
        assert "SM-" not in refusal[m.start() :], refusal  # (the table drops the rest's ids)
        kind = m.group(1)
        seen[kind] = seen.get(kind, 0) + 1
        if kind.startswith("she faces"):
            assert "her action this turn" in refusal
        line = suggested(refusal)
        view = GAME.view(state, seat)
        after = copy.deepcopy(state)
        GAME.apply(after, seat, parse_command("spanish_main", line, view))  # legal now
        ship, island = typed.split()[1], typed.split()[3]
        isl = state.islands[island]
        if kind == "sail closer":
            before_d = math.dist(ship_xy(state, ship), (isl.x, isl.y))
            assert math.dist(ship_xy(after, ship), (isl.x, isl.y)) < before_d, line
        elif kind.startswith("she faces"):
            turned = (after.ships[ship].heading - state.ships[ship].heading) % 360
            assert abs(turned - 180) < 1e-6, line
        else:
            assert ship_xy(after, ship) != ship_xy(state, ship), line
    # SM-12: a turn is a placement and a helper move turns as far as it is free, so in these seas
    # no ship is any more unable to start toward an island ("she cannot turn toward it here")
    assert set(seen) == {"she faces the wrong way", "sail closer"}


def test_a_dock_refused_for_another_cause_gets_no_advice() -> None:
    """SM-14: an enemy home, or a dock where she already is: the refusal is the whole line."""
    for _, _, _, refusal in refusals(range(1, 3), rounds=1):
        if "home: no one docks there" in refusal or "already docked" in refusal:
            assert ";" not in refusal, refusal


# ------------------------------------------------------------------ the table and the screen


def table_at_start(seed: int) -> tuple[Lobby, Table]:
    lobby = Lobby(seed=1)
    table = lobby.create_table(
        "spanish_main", [SeatSpec("human"), SeatSpec("empty")], creator="ann", seed=seed
    )
    assert table.sit(1, "bob") is None
    return lobby, table


def harbour_refusal(table: Table) -> tuple[str, str]:
    """A dock from the home harbour refused because she cannot turn there (the first found)."""
    state = table.state
    for ship in [s for s in state.ships.values() if s.owner == 0]:
        for isl in state.islands:
            try:
                GAME.apply(copy.deepcopy(state), 0, C.MoveDock(ship.id, isl))
            except IllegalCommand as e:
                if ADVICE.search(str(e)):
                    return f"move {ship.id} dock {isl}", str(e)
    raise AssertionError("no dock from the harbour is refused with advice")


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_the_table_says_the_advice_in_one_line_and_changes_nothing(seed: int) -> None:
    """The typed line through Table.submit_text: refused, nothing played, the advice kept and
    rule ids left out; the advised line then goes through."""
    _, table = table_at_start(seed)
    typed, _ = harbour_refusal(table)
    before = list(table.commands)
    said = table.submit_text(0, typed)
    assert not said.ok and table.commands == before
    assert ADVICE.search(said.message) and "(SM-" not in said.message, said.message
    assert "\n" not in said.message
    assert table.submit_text(0, suggested(said.message)).ok


async def test_the_screen_shows_the_advice_at_80x24() -> None:
    """Typed at the Spanish Main screen: the error panel says the refusal and the advice,
    whole (it wraps, it is not cut), and nothing is sent to the table."""
    from shipwreck.tui import ShipwreckApp
    from shipwreck.tui.spanish_main.screen import SpanishMainScreen

    lobby, table = table_at_start(2)
    typed, refusal = harbour_refusal(table)
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        before = list(table.commands)
        await pilot.press(*typed, "enter")
        await pilot.pause()
        said = " ".join(screen.panel_text("error").split())
        assert suggested(refusal) in said, said
        assert "SM-" not in said
        assert table.commands == before

"""What a stranger's play-test (session 29, real OpenSSH at 80x24 and 120x40) found, each fixed
and held here: a ship named by her map code is previewed and sails (the language's side:
tests/lang/test_sm_codes.py); an ``end turn`` that leaves a ship idle asks first; each ship's
nation shows; the 80x24 fleet panel's ``where`` reads; ``tell`` takes the seat numbers the board
shows; lobby words typed at a table point at the lobby."""

from __future__ import annotations

import re

import msgspec
import pytest
from sea_helpers import ok, sm_view, two_humans
from tui_helpers import drawn, error, lobby_with_table, plain, type_line

from shipwreck.games.lifeboat.view import LifeboatView
from shipwreck.games.spanish_main import RULES
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.codes import ship_codes
from shipwreck.games.spanish_main.setup import IslandPosition, Position, ShipPosition
from shipwreck.games.spanish_main.view import waiting_ships
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.spanish_main import render as R
from shipwreck.tui.spanish_main.screen import PREVIEW_INTERVAL, SeaMap, SpanishMainScreen
from shipwreck.tui.typed import in_the_lobby

# ------------------------------------------------------------------ 1. a ship by her code


async def test_a_move_typed_with_a_code_is_previewed_and_sails() -> None:
    """The line being typed is previewed as the map's codes name the ship (``move lw L 30``),
    and Enter sails her: the log names her id."""
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        await type_line(pilot, "move lw L 30", enter=False)
        await pilot.pause(2 * PREVIEW_INTERVAL)
        assert error(app).startswith("preview: lord-walpole would end")
        assert screen.query_one("#sea", SeaMap).ship == "lord-walpole"
        await pilot.press("enter")
        await pilot.pause()
        assert table.commands[-1] == (0, "move lord-walpole L 30")


# ------------------------------------------------------------------ 2. end turn with a ship idle


def act_with_all(table: Table, seat: int) -> None:
    """Give every ship of ``seat`` that may act an action (a move, passing after it)."""
    while waiting := waiting_ships(sm_view(table, seat)):
        view = sm_view(table, seat)
        ok(table, seat, next(c for c in view.choices if getattr(c, "ship", None) == waiting[0]))
        if sm_view(table, seat).step == "after_move":
            ok(table, seat, C.Pass())


async def test_end_turn_with_a_ship_idle_asks_first() -> None:
    """The play-test: a refused move, then ``end turn`` went through silently. Now it names the
    ships that could still act and a second ``end turn`` ends the turn (SM-10)."""
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.screen, SpanishMainScreen)
        await type_line(pilot, "move lw S 0")  # (refused: lord-walpole's move is L)
        assert "lord-walpole" in error(app)
        await type_line(pilot, "end turn")
        assert error(app) == (
            "dover, lord-walpole and plantagenet have not acted; 'end turn' again to end it anyway"
        )
        assert sm_view(table, 0).turn == 0 and table.commands[-1:] != [(0, "end turn")]
        await type_line(pilot, "END TURN")
        assert table.commands[-1] == (0, "end turn")
        assert sm_view(table, 0).turn == 1


async def test_end_turn_asks_again_once_the_ships_waiting_change() -> None:
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "end turn")
        assert error(app).startswith("dover, lord-walpole and plantagenet have not acted")
        view = sm_view(table, 0)
        ok(table, 0, next(c for c in view.choices if getattr(c, "ship", None) == "dover"))
        if sm_view(table, 0).step == "after_move":
            ok(table, 0, C.Pass())
        await type_line(pilot, "end turn")
        assert error(app) == (
            "lord-walpole and plantagenet have not acted; 'end turn' again to end it anyway"
        )
        assert sm_view(table, 0).turn == 0


async def test_end_turn_with_every_ship_done_ends_at_once() -> None:
    lobby, table = two_humans()
    act_with_all(table, 0)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, "end turn")
        assert error(app) == ""
        assert table.commands[-1] == (0, "end turn")


def test_the_table_and_bots_end_a_turn_at_once() -> None:
    """Only a person at the screen is asked: the table's ``end turn`` (bots, the engine) is
    as it was."""
    _, table = two_humans()
    assert waiting_ships(sm_view(table, 0))
    assert table.submit_text(0, "end turn").ok
    assert sm_view(table, 0).turn == 1


def test_ships_that_cannot_act_are_not_waiting() -> None:
    """SM-10, SM-11: a derelict has no action (no move, no shot), so it is not waited for;
    nor is a ship that has acted; nobody waits when it is not their turn."""
    pos = Position(
        seed=7,
        seats=2,
        islands=[
            IslandPosition(10, 28, 5, id="isla-1", home=0),
            IslandPosition(60, 28, 5, id="isla-2", home=1),
        ],
        ships=[
            ShipPosition("dover", 0, 30, 10, 90),
            ShipPosition("dover", 0, 30, 50, 90, masts=0, id="hulk"),
            ShipPosition("el-picador", 1, 50, 30, 270),
        ],
    )
    state, _ = RULES.from_position(pos)
    assert waiting_ships(RULES.view(state, 0)) == ["dover"]
    assert waiting_ships(RULES.view(state, 1)) == []
    move = next(c for c in RULES.view(state, 0).choices if isinstance(c, C.Move))
    RULES.apply(state, 0, move)
    if RULES.view(state, 0).step == "after_move":
        RULES.apply(state, 0, C.Pass())
    assert waiting_ships(RULES.view(state, 0)) == []


# ------------------------------------------------------------------ 3. each ship's nation


def test_ship_cards_say_her_nation() -> None:
    """plantagenet's card reads "+1 to her cannon rolls against Pirate ships": F3's cards say
    each ship's nation (the card list's faction)."""
    _, table = two_humans()
    view = sm_view(table, 0)
    text = plain(R.fleet_info(view), width=96)
    assert re.search(r"plantagenet \(HMS Plantagenet\) · English · 8 pts", text)
    assert "Pirate ships" in text and "el-picador · Spanish · " in text
    pirate = msgspec.structs.replace(view.ships[0], card="pandora", id="pandora")
    assert " · Pirate · " in plain(R.ship_card(pirate), width=96)


def test_the_wide_fleet_panel_has_a_nation_column() -> None:
    """From 150 columns the fleet panel has room for it (46 columns have none: F3 says it)."""
    _, table = two_humans()
    view = sm_view(table, 0)
    wide = plain(R.fleet(view, wide=True), width=83).splitlines()
    assert "nation" in wide[0]
    assert any("plantagenet" in r and "English" in r for r in wide)
    assert any("el-leon" in r and "Spanish" in r for r in wide)
    assert "nation" not in plain(R.fleet(view), width=45)


# ------------------------------------------------------------------ 4. the 80x24 fleet's where


def four_plain_fleets() -> tuple[Lobby, Table]:
    """Four seats of five ships each (the ``plain`` fleet): green's home is ``isla-12``."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human", fleet="plain")] + [SeatSpec("empty", fleet="plain")] * 3
    table = lobby.create_table("spanish_main", seats, creator="ann", seed=3)
    assert table.sit(2, "cat") is None
    return lobby, table


async def test_the_compact_fleet_says_where_in_full() -> None:
    """The play-test, at 80x24 with five ships: ``at isla...``. The column is "where", so it
    says the island alone, whole (``isla-12``)."""
    lobby, table = four_plain_fleets()
    view = sm_view(table, 2)
    home = next(i.id for i in view.islands if i.home == 2)
    assert len(home) == len("isla-12")
    app = ShipwreckApp(lobby, "cat", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = drawn(app, "side", "fleet")
        codes = ship_codes(view)
        mine = [r for r in shown for s in view.ships if s.owner == 2 and f" {codes[s.id]} " in r]
        assert len(mine) == 5, shown
        for row in mine:
            assert row.endswith(f" {home}"), row  # (a 13-letter id is shortened: see below)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_fleet_s_ship_column_tells_every_ship_apart(size: tuple[int, int]) -> None:
    """Session 30: in the fleet panel's ship column (12 columns), ``el-picador-10`` to ``-12``
    all read ``el-picador-…`` (their codes beside them were whole). A longer id keeps her
    number, ``el-picad…-10``: every row's id is whole or such a shortening, no two alike."""
    lobby, table = four_plain_fleets()
    view = sm_view(table, 2)
    codes = ship_codes(view)
    app = ShipwreckApp(lobby, "cat", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        shown = drawn(app, "side", "fleet")
    mine = [s for s in view.ships if s.owner == 2]
    assert "el-picador-10" in [s.id for s in mine]
    labels = []
    for s in mine:
        (row,) = [r for r in shown if f" {codes[s.id]} " in r]
        label = row.split()[2]
        assert label == s.id or label == R.ship_label(s.id, R.SHIP_ID_NARROW), row
        labels.append(label)
    assert "el-picad…-10" in labels and len(set(labels)) == len(labels), labels


@pytest.mark.parametrize("width", [R.SHIP_ID_NARROW, R.SHIP_ID_WIDE])
def test_every_ship_id_fits_the_ship_column_and_stays_told_apart(width: int) -> None:
    """Every card's id, as the first of her card at a table or numbered (up to 16 of a card at
    a table of four), fits the column whole or shortened, no two alike, her number kept."""
    from shipwreck.games.spanish_main.ships import CARDS

    numbers = ["", *(f"-{k}" for k in range(2, 17))]
    labels = {(card, n): R.ship_label(card + n, width) for card in CARDS for n in numbers}
    assert all(len(label) <= width for label in labels.values())
    assert len(set(labels.values())) == len(labels)
    for (card, n), label in labels.items():
        assert label == card + n or label.endswith("…" + n), label


# ------------------------------------------------------------------ 5. tell by the board's #


def boat_number(table: Table, seat: int) -> int:
    """The ``#`` the Lifeboat board shows for the character of table seat ``seat``."""
    view = table.view(seat)
    assert isinstance(view, LifeboatView)
    return next(c.seat for c in view.characters if c.player == seat)


async def test_tell_takes_the_number_the_board_shows() -> None:
    """The play-test: ``tell 2 hi`` (seat 2 was alice's) was refused, though help says "name or
    seat". The number is the board's ``#`` (1 = bow), not the table's seat order."""
    lobby, table = lobby_with_table(("ann", "bob"))
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"tell {boat_number(table, 1)} meet me at the stern")
        assert error(app) == ""
        (line,) = [c for c in table.chat_for("bob") if c.text == "meet me at the stern"]
        assert (line.sender, line.to, line.to_player) == ("ann", 1, "bob")
        await type_line(pilot, f"tell {boat_number(table, 0)} me")
        assert error(app) == "that is your own seat: tell someone else"
        await type_line(pilot, "tell 7 hi")
        assert error(app) == "there is no seat 7 on the board: seats 1 to 6 (its #)"


async def test_a_board_without_numbers_says_so() -> None:
    """Spanish Main's seats go by their names (``red``); a number names none."""
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, "tell 2 hi")
        assert error(app).startswith("'2' is not at this table: tell a player or a seat; ")
        await type_line(pilot, "tell blue hi")
        assert error(app) == ""


# ------------------------------------------------------------------ 6. lobby words at a table


LOBBY_LINES = ["open 5", "new sm 2", "join 3", "watch 2", "ladder", "OPEN 5"]


@pytest.mark.parametrize("game", ["lifeboat", "spanish_main"])
async def test_lobby_words_at_a_table_say_to_go_to_the_lobby(game: str) -> None:
    """The play-test: ``open 5`` at a table said ``unknown command 'open'``. Every lobby word
    (``new``, ``join``, ``watch``, ``open``, ``ladder``) says where to type it, in one line;
    nothing is sent to the game."""
    lobby, table = lobby_with_table(("ann", "bob")) if game == "lifeboat" else two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        before = list(table.commands)
        for line in LOBBY_LINES:
            await type_line(pilot, line)
            word, typed = line.split()[0].lower(), line[:1].lower() + line[1:].lower()
            assert error(app) == f"'{word}' is a lobby command: type 'lobby' first, then '{typed}'"
        assert table.commands == before


def test_lifeboats_own_join_is_the_games() -> None:
    """Lifeboat's ``join attacker`` (a fight) is the game's command, not the lobby's."""
    assert in_the_lobby("lifeboat", "join", "join attacker") is None
    assert in_the_lobby("lifeboat", "join", "join") is None  # (the game says what it wants)
    assert in_the_lobby("lifeboat", "join", "join 2 lauren") is not None
    assert in_the_lobby("spanish_main", "join", "join") is not None
    assert in_the_lobby("lifeboat", "say", "say hi") is None

"""The "you" panel's words and its score-now line (issue 16, section 1).

Score now is computed from the seat's own view only (``score_now.score_now``); here it is
checked against the real scoring (LB-61..LB-64) in random games and fixed positions, and shown
not to move when only what the seat cannot see changes.
"""

from __future__ import annotations

import itertools
import random

import pytest
from lb_helpers import clone, random_game
from rich.console import Console

from shipwreck.games.lifeboat import RULES, explain
from shipwreck.games.lifeboat.cards import CHAR_IDS
from shipwreck.games.lifeboat.score_now import score_now
from shipwreck.games.lifeboat.scoring import breakdown, score_all
from shipwreck.games.lifeboat.setup import CharacterPosition, Position
from shipwreck.tui.lifeboat.render import me_panel


def text_of(renderable: object, width: int) -> str:
    console = Console(width=width, record=True, color_system=None)
    with console.capture() as cap:
        console.print(renderable)
    return cap.get()


@pytest.mark.parametrize("seed, seats", [(1, 6), (2, 5), (3, 4), (4, 6), (5, 4)])
def test_score_now_is_the_real_score_at_every_point_of_random_games(seed: int, seats: int) -> None:
    """LB-61..LB-64: if land came now, each seat would score exactly what score_now says."""
    checked = 0
    for state, _ in random_game(seed, seats):
        for seat, cid in enumerate(state.players):
            now = score_now(RULES.view(state, seat))
            assert now is not None
            assert now.parts == breakdown(state, cid)
            assert now.total == score_all(state)[cid]
            checked += 1
    assert checked > 100


def position(friend: str, enemy: str, dead: tuple[str, ...] = ()) -> Position:
    chars = {
        cid: CharacterPosition(
            friend=friend if cid == "lauren" else "mate",
            enemy=enemy if cid == "lauren" else "kid",
            hidden=["jewels", "jewels"] if cid == "lauren" else ["cash"],
            dead=cid in dead,
        )
        for cid in CHAR_IDS
    }
    return Position(seed=3, characters=chars)


@pytest.mark.parametrize(
    "friend, enemy, dead, expected",
    [
        # LB-61: jewels x2 for Lady Lauren (2 jewels = 4, doubled), own survival 8, friend 4
        ("mate", "kid", (), {"treasure": 8, "survival": 8, "friend": 4, "enemy": 0}),
        ("mate", "kid", ("kid",), {"treasure": 8, "survival": 8, "friend": 4, "enemy": 3}),
        # LB-62 narcissist: own survival twice
        ("lauren", "kid", (), {"treasure": 8, "survival": 8, "friend": 8, "enemy": 0}),
        # LB-63 psychopath: every death but its own and its friend's, and its friend's survival
        ("kid", "lauren", ("mate", "kid"), {"treasure": 8, "deaths": 8, "friend": 0}),
        # LB-63 with LB-62: its own survival once
        ("lauren", "lauren", ("captain",), {"treasure": 8, "deaths": 7, "friend": 8}),
        # LB-64 same friend and enemy: survival if alive, strength if dead
        ("stephen", "stephen", (), {"treasure": 8, "survival": 8, "friend": 7, "enemy": 0}),
        (
            "stephen",
            "stephen",
            ("stephen",),
            {"treasure": 8, "survival": 8, "friend": 0, "enemy": 5},
        ),
    ],
)
def test_score_now_in_known_positions(
    friend: str, enemy: str, dead: tuple[str, ...], expected: dict[str, int]
) -> None:
    state, _ = RULES.from_position(position(friend, enemy, dead))
    seat = state.players.index("lauren")
    now = score_now(RULES.view(state, seat))
    assert now is not None and now.parts == expected == breakdown(state, "lauren")
    assert now.total == sum(expected.values())


def test_score_now_ignores_what_the_seat_cannot_see() -> None:
    """Hidden stays hidden: others' hidden items, friends and enemies, and the decks' order
    change nothing in what lauren's panel says (text and score)."""
    state, _ = RULES.from_position(position("mate", "kid"))
    seat = state.players.index("lauren")
    before_view = RULES.view(state, seat)
    before = text_of(me_panel(before_view), 40), score_now(before_view)
    other = clone(state)
    for cid in ("stephen", "captain", "mate", "frenchy", "kid"):
        c = other.chars[cid]
        c.hidden = ["jewels", "painting:3", "cash"][: len(c.hidden)]
        c.friend, c.enemy = "lauren", "lauren"
    other.supply_deck.reverse()
    other.nav_deck.reverse()
    after_view = RULES.view(other, seat)
    assert score_all(other) != score_all(state)  # the change matters to the others' scores
    assert (text_of(me_panel(after_view), 40), score_now(after_view)) == before


def test_a_spectator_has_no_score_now() -> None:
    state, _ = RULES.from_position(position("mate", "kid"))
    assert score_now(RULES.view(state, None)) is None


def test_relations_say_each_special_case_in_plain_words_and_fit_the_panel() -> None:
    """LB-62..LB-64 in words; every line fits the panel (36 columns, 25 compact), and no
    line is cut mid-name (the play-test saw 'enemy: the' / 'Captain')."""
    for me, friend, enemy in itertools.product(CHAR_IDS, repeat=3):
        for short, width in ((False, 36), (True, 25)):
            lines = explain.relations(me, friend, enemy, short)
            assert all(len(line) <= width for line in lines), lines
    assert explain.relations("lauren", "lauren", "kid")[0] == "friend is you: +8 again if alive"
    assert "enemy is you" in explain.relations("kid", "mate", "kid")[1]
    assert "your own survival scores nothing" in " ".join(explain.relations("kid", "mate", "kid"))
    assert explain.relations("kid", "kid", "kid")[0] == "friend and enemy are both you:"
    assert explain.relations("kid", "mate", "mate") == [
        "friend and enemy: First Mate",
        "+4 if alive, or +8 if dead",
    ]
    assert explain.relations("kid", "captain", "lauren") == [
        "friend: Captain, +5 if alive",
        "enemy: Lady Lauren, +4 if dead",
    ]


@pytest.mark.parametrize(
    "char, words",
    [
        ("lauren", "jewels score double"),  # LB-1, LB-61
        ("stephen", "paintings score double"),
        ("captain", "cash scores double"),
        ("frenchy", "no wound for falling in"),  # LB-43
        ("kid", "hidden item with no fight"),  # LB-24
    ],
)
def test_the_you_panel_states_the_ability(char: str, words: str) -> None:
    chars = {c: CharacterPosition(friend="mate", enemy="kid") for c in CHAR_IDS}
    state, _ = RULES.from_position(Position(seed=1, characters=chars))
    view = RULES.view(state, state.players.index(char))
    full = text_of(me_panel(view), 40)
    assert words in full and "score now" in full
    compact = text_of(me_panel(view, compact=True), 27)
    assert explain.ability(char, short=True) in compact and "score now" in compact


async def test_the_score_now_line_follows_the_game_live() -> None:
    """After every move of a whole game (deaths included), ann's panel shows the score her
    own view gives."""
    from tui_helpers import lobby_with_table, type_line

    from shipwreck.lang import format_command
    from shipwreck.tui import ShipwreckApp
    from shipwreck.tui.board import Board
    from shipwreck.tui.lifeboat.screen import TableScreen

    lobby, table = lobby_with_table(seed=11)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    deaths = 0
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.seat is not None
        seat = screen.seat
        pick = random.Random(3)
        while not table.over:
            view = table.view(seat)
            now = score_now(view)
            assert now is not None
            board = screen.query_one("#board", Board)
            assert f"score now {now.total}" in text_of(board.content("me"), 27)
            deaths = sum(c.state == "dead" for c in view.characters)
            await type_line(pilot, format_command(pick.choice(list(view.choices))))
    assert deaths > 0  # (the game tried the panel with a death in it)

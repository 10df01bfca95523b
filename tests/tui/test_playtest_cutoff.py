"""A stranger's play-test over OpenSSH (issue 16): what a player needs to decide is never cut
off without a marker at 80×24 (and 120×40): every navigation card shown whole (the rest
counted, F4 lists them all), both sides of a fight with their totals, and every hidden item
of my own hand."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from tui_helpers import drawn, lobby_with_table, open_a_fight, plain

from shipwreck.games.lifeboat import RULES
from shipwreck.games.lifeboat.cards import CHAR, CHAR_IDS, NAV_NUMBERS, describe_nav
from shipwreck.games.lifeboat.setup import CharacterPosition, Position
from shipwreck.games.lifeboat.view import FightView, RequestView
from shipwreck.runtime import Lobby, Table
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.learn import CardsScreen
from shipwreck.tui.lifeboat.render import card_chip, fight
from shipwreck.tui.lifeboat.screen import TableScreen

HAND = ["water", "water", "water", "cash", "compass", "oar", "knife"]
"""Seven hidden items: the play-test's hand that showed as ``hid: water, cash, compas…``."""
SIZES = [(80, 24), (120, 40)]


def table_at(nav: list[int], hand: list[str]) -> tuple[Lobby, Table]:
    """A table whose first seat (ann's) holds ``hand``, with ``nav`` on the navigation table,
    in the action phase: a real game set to that position (the scenario files' format)."""
    lobby, table = lobby_with_table(seed=11)
    seats = [table.view(i).me or "" for i in range(6)]
    chars = {c: CharacterPosition(friend="mate", enemy="kid") for c in CHAR_IDS}
    chars[seats[0]] = CharacterPosition(friend="mate", enemy="kid", hidden=hand)
    deck = [n for n in NAV_NUMBERS if n not in nav]
    position = Position(
        seed=1,
        phase="actions",
        seats=seats,
        characters=chars,
        navigation_table=nav,
        navigation_deck=deck,
    )
    table.state, _ = RULES.from_position(position)
    return lobby, table


def boat(table: Table) -> list[str]:
    """The characters in the boat, bow to stern (the order cards name them in)."""
    return [c.id for c in table.view(0).characters]


@pytest.mark.parametrize("size", SIZES)
async def test_every_navigation_card_shown_is_whole(size: tuple[int, int]) -> None:
    """LB-6: the play-test's cards: #25 (nobody overboard, +1 seagull, nobody thirsty) looked
    blank and #31 lost its ``‖oar``. Each card shown has all its parts."""
    nav = [32, 29, 25, 31]
    lobby, table = table_at(nav, ["water"])
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        rows = drawn(app, "board", "nav")
        text = "\n".join(rows)
        assert "…" not in text and "more" not in text, rows
        present = boat(table)
        if size == (80, 24):  # one chip a card, each whole on one row
            for n in nav:
                chip = card_chip(n, present).plain
                assert any(chip in row for row in rows), (chip, rows)
            assert "#25 ≈- v +1 th -" in text
            assert "#31 ≈all v +1 th all ⚔ ‖oar" in text
        else:  # drawn cards, side by side: every part of each
            assert all(f"#{n}" in text for n in nav)
            assert text.count("‖oar") == 1 and text.count("⚔") == 2
            assert text.count("v +1") == 3 and "thirst -" in text


@pytest.mark.parametrize("size", SIZES)
async def test_cards_that_do_not_fit_are_counted_and_f4_lists_them_all(
    size: tuple[int, int],
) -> None:
    """Six cards on the table: those that fit are whole, the rest counted with where to see
    them ("+1 more: F4"); F4 lists every card in words."""
    nav = [32, 29, 25, 31, 22, 28]
    lobby, table = table_at(nav, ["water"])
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        rows = drawn(app, "board", "nav")
        text = "\n".join(rows)
        shown = [n for n in nav if any(card_chip(n, boat(table)).plain in r for r in rows)]
        assert shown == nav[: len(shown)], rows
        if len(shown) < len(nav):
            assert f"+{len(nav) - len(shown)} more: F4" in text, rows
        assert "…" not in text, rows
        await pilot.press("f4")
        await pilot.pause()
        assert isinstance(app.screen, CardsScreen)
        for n in nav:
            assert describe_nav(n, boat(table)) in app.screen.markdown
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)


@pytest.mark.parametrize("size", SIZES)
async def test_my_whole_hand_shows_in_the_you_panel(size: tuple[int, int]) -> None:
    """Seven hidden items: each kind with its count, wrapped, none cut; friend, enemy and the
    score now still show."""
    lobby, table = table_at([32], HAND)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = " ".join(" ".join(drawn(app, "board", "me")).replace("│", " ").split())
        assert "7: water×3, cash, compass, oar, knife" in text, text
        assert "…" not in text.split("score now")[0], text
        assert "friend:" in text and "enemy:" in text and "score now" in text


def test_the_you_panel_never_shows_another_seats_hand() -> None:
    """Hidden stays hidden: the panel is built from my view, which has only my hand."""
    _, table = table_at([32], HAND)
    me = table.view(0).me
    for seat in range(1, 6):
        view = table.view(seat)
        others = [c for c in view.characters if c.id == me]
        assert others and others[0].hidden is None


@pytest.mark.parametrize("width", [27, 40])
def test_a_fight_with_six_seats_shows_both_sides_and_totals(width: int) -> None:
    """LB-30: three attackers, three defenders: both totals and every side member show in the
    three compact rows (by letter when the names do not fit)."""
    _, table = lobby_with_table()
    view = table.view(0)
    f = FightView(
        request=RequestView("swap", "stephen", "captain", None),
        attackers=("stephen", "captain", "frenchy"),
        defenders=("mate", "lauren", "kid"),
        attack_power=12,
        defense_power=15,
        done=("stephen", "captain"),
    )
    out = plain(fight(msgspec.structs.replace(view, fight=f), compact=True), width).splitlines()
    assert len(out) == 3, out
    assert out[0].startswith("attack 12: ") and out[1].startswith("defend 15: "), out
    for row, side in zip(out, (f.attackers, f.defenders), strict=False):
        names = row.split(": ", 1)[1]
        letters = ",".join(CHAR[c].letter for c in side)
        assert names in (", ".join(side), letters), row
        assert len(row) <= width


async def test_an_open_fight_at_80x24_shows_both_totals() -> None:
    lobby, table = lobby_with_table(seed=21)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        seat: Any = app.screen.seat
        await open_a_fight(pilot, table, seat)
        await pilot.pause()
        f = table.view(seat).fight
        assert f is not None
        rows = drawn(app, "board", "fight")
        assert rows[0].startswith(f"attack {f.attack_power}: "), rows
        assert rows[1].startswith(f"defend {f.defense_power}: "), rows
        assert rows[2].startswith("deciding: "), rows

"""A stranger's play-test over OpenSSH (issue 16): the small texts a player reads. The rules
screen speaks to players (no notes for whoever builds the game), the games by their names
("Spanish Main", not ``spanish_main``), one glyph a part in the end screen's key, a name too
long said to be too long (not echoed cut)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import SIZE, lobby_with_table, plain, type_line

from shipwreck.lang import format_command
from shipwreck.lang.rules_text import reader_text, rules_markdown
from shipwreck.names import MAX_NAME, player_name_refusal
from shipwreck.resources import rules_dir
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.server.service import Service
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.lifeboat.render import END_PARTS
from shipwreck.tui.lifeboat.screen import TableScreen
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.standings import key

from sshclient import BOB, key_file, needs_ssh, ssh

DEVELOPER_WORDS = re.compile(r"seed|hit_rule|configurable|RNG|cells?\b|redeal_self|PC adaptation")
"""What the play-test read on the rules screen that is there for whoever builds the game."""


@pytest.mark.parametrize("game", ["lifeboat", "spanish_main"])
def test_the_rules_screen_has_no_notes_for_developers(game: str) -> None:
    """The rules as shown: no "The seed calls hidden slots 'cells'", no "Move (the seed)", no
    ``hit_rule = "gte"``; the document itself keeps its rule ids and notes."""
    shown = rules_markdown(game)
    assert not DEVELOPER_WORDS.search(shown), DEVELOPER_WORDS.findall(shown)
    assert "### Move\n" in shown or game == "lifeboat"
    assert "hit on a roll ≥ rank**." in shown or game == "lifeboat"
    doc = (rules_dir() / ("lifeboat.md" if game == "lifeboat" else "spanish-main.md")).read_text()
    assert re.search(r"\*\*(LB|SM)-\d+\*\*", doc) and DEVELOPER_WORDS.search(doc)
    assert "Items start hidden." in reader_text("lifeboat")


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_the_lobby_lists_games_by_their_names(size: tuple[int, int]) -> None:
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("bot", "sm_random")]
    lobby.create_table("spanish_main", seats, creator="bob", seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        screen = "\n".join(s.text for s in app.screen._compositor.render_strips())
        assert "Spanish Main" in screen and "spanish_main" not in screen, screen


async def test_a_bot_of_the_other_game_is_refused_by_game_names() -> None:
    """``new 4 sm_raider``: the refusal names both games as players read them."""
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new 4 sm_raider")
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        error = str(screen.query_one("#foot").content("error"))  # type: ignore[attr-defined]
        assert "bot 'sm_raider' plays Spanish Main, not Lifeboat" in error, error
        assert "spanish_main" not in error


def test_the_end_screens_key_draws_each_part_its_own_way() -> None:
    """LB-61..LB-64: "enemy dead" and "deaths" once shared ``░``; each part has its glyph."""
    glyphs = [p.glyph for p in END_PARTS.values()]
    assert len(set(glyphs)) == len(glyphs), glyphs
    shown = plain(key(list(END_PARTS.values())), 120)
    for part in END_PARTS.values():
        assert shown.count(part.glyph) == 1 and f"{part.glyph} {part.label}" in shown


def test_a_name_too_long_is_said_to_be_too_long() -> None:
    name = "averyveryveryverylongnamethatgoesonandon"
    refusal = player_name_refusal(name)
    assert f"too long: {len(name)} characters, at most {MAX_NAME}" in refusal
    assert name[:MAX_NAME] not in refusal  # never echoed cut
    assert player_name_refusal("no.dots").startswith("'no.dots' is not a name here: ")
    assert player_name_refusal("a\x1b[2Jb").startswith("'a?[2Jb' is not a name here")
    assert player_name_refusal("ann") == ""


@needs_ssh
async def test_a_name_too_long_over_openssh(service: Service, tmp_path: Path) -> Any:
    """Over real SSH: the refusal is on standard error, says "too long", echoes no cut name."""
    bob = key_file(tmp_path, BOB, "bob_key")
    name = "averyveryveryverylongnamethatgoesonandon"
    status, _out, err = await ssh(service.port, name, tmp_path, "-i", str(bob))
    text = err.decode()
    assert status == 255
    assert f"that name is too long: {len(name)} characters, at most {MAX_NAME}" in text, text
    assert name[:MAX_NAME] + "'" not in text


# ------------------------------------------------------------------ what a typed line is told


def error_of(app: ShipwreckApp) -> str:
    screen = app.screen
    assert isinstance(screen, TableScreen)
    return screen.panel_text("error")


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_take_alone_lists_what_is_on_offer_now(size: tuple[int, int]) -> None:
    """LB-11: ``take`` (or ``take fish``) in the supply step names the cards passed to me,
    not all fourteen items; nothing changes."""
    lobby, table = lobby_with_table(seed=11)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        view = table.view(0)
        offer = [format_command(c) for c in view.choices if format_command(c).startswith("take ")]
        assert view.step == "pick" and 0 < len(offer) < 14
        before = list(table.commands)
        for line in ("take", "take fish"):
            await type_line(pilot, line)
            error = error_of(app)
            assert f"now: {', '.join(offer)}" in error, error
            assert "preserver" not in error and "umbrella" not in error
        assert table.commands == before


async def test_an_unknown_word_mid_game_lists_only_words_that_apply() -> None:
    """A started table: ``start`` is not offered; nor is ``takeover`` with nobody playing for
    me. A spectator is offered the table's words, not the game's commands."""
    lobby, table = lobby_with_table(seed=11)
    assert table.started
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "frobnicate")
        words = error_of(app).split("try: ", 1)[1].split(", ")
        assert "start" not in words and "takeover" not in words, words
        assert "row" in words and "say" in words and "lobby" in words
    watcher = ShipwreckApp(lobby, "zed", open_table=table.id)
    async with watcher.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "frobnicate")
        words = error_of(watcher).split("try: ", 1)[1].split(", ")
        assert "row" not in words and "take" not in words and "lobby" in words, words


# ------------------------------------------------------------------ a table waiting for players


def screen_text(app: ShipwreckApp) -> str:
    return "\n".join(s.text for s in app.screen._compositor.render_strips())


@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_a_waiting_table_shows_no_game_yet(size: tuple[int, int]) -> None:
    """Not started: the log has no "round 1 begins", nothing is "passed to you"; once
    started, the log shows the game from its first line."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("empty"), SeatSpec("empty"), SeatSpec("bot", "loyal")]
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=5, gather=True)
    assert not table.started  # (the deal is made already: the game's log has begun)
    assert any("round 1 begins" in e.text for e in table.log(0))
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "waiting to start" in text
        assert "round 1 begins" not in text and "passed to you" not in text, text
        assert "friends can join later" in text  # two seats are free
        await type_line(pilot, "start with bots")
        await pilot.pause()
        assert table.started
        text = screen_text(app)
        assert "round 1 begins" in text, text


async def test_a_full_waiting_table_says_just_start() -> None:
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("empty"), SeatSpec("bot", "loyal"), SeatSpec("bot")]
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=5, gather=True)
    assert table.sit(1, "bob") is None and not table.free_seats() and not table.started
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "every seat is taken" in text and "type 'start'" in text, text
        assert "friends can join later" not in text and "start with bots" not in text


# ------------------------------------------------------------------ Tab in the lobby


async def test_tab_after_join_watch_open_offers_the_tables_ids() -> None:
    """``join`` + Tab: the tables with a free seat (or mine); ``watch``: every table not over;
    ``open``: mine. ``new s`` + Tab: the game names, not bots named ``s…``."""
    lobby = Lobby(seed=1)
    free = lobby.create_table("lifeboat", [SeatSpec("human"), SeatSpec("empty")] + [
        SeatSpec("bot", "loyal")] * 2, creator="bob", seed=1, gather=True)  # fmt: skip
    full = lobby.create_table("lifeboat", [SeatSpec("human")] + [
        SeatSpec("bot", "loyal")] * 3, creator="cy", seed=2)  # fmt: skip
    mine = lobby.create_table("lifeboat", [SeatSpec("human")] + [
        SeatSpec("bot", "loyal")] * 3, creator="ann", seed=3)  # fmt: skip
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        if isinstance(app.screen, TableScreen):  # (back at my table first: to the lobby)
            await type_line(pilot, "lobby")
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        assert screen.complete("join ") == [str(free.id), str(mine.id)]
        assert screen.complete("watch ") == [str(free.id), str(full.id), str(mine.id)]
        assert screen.complete("open ") == [str(mine.id)]
        assert screen.complete(f"join {free.id}") == [str(free.id)]
        assert screen.complete("new s") == ["sm", "spanish", "spanish-main", "spanish_main"]
        assert screen.complete("new pred") == ["predator"]
        assert "loyal" in screen.complete("new 4 ")
        await pilot.press(*"join ", "tab")
        await pilot.pause()
        shown = str(screen.query_one("#foot").content("error"))  # type: ignore[attr-defined]
        assert shown.split() == [str(free.id), str(mine.id)], shown

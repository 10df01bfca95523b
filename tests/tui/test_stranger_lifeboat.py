"""The stranger's second play-test (session 29) of Lifeboat and the lobby, over real OpenSSH at
80x24 and 120x40, each finding fixed and held here: the "you" panel's special cases, the log
and the chat at 80x24, the navigation line's labels, the seats line's bot names, the board's
columns in the legend, the lobby's seat codes and F3, and messages that name what they mean."""

from __future__ import annotations

import itertools
import random
import re

import msgspec
import pytest
from tui_helpers import (
    lobby_with_table,
    lobby_with_tables,
    plain,
    screen_text,
    seat_screen,
    two_humans,
    type_line,
)

from shipwreck.games.lifeboat import RULES, explain
from shipwreck.games.lifeboat.cards import CHAR, CHAR_IDS
from shipwreck.games.lifeboat.view import LifeboatView
from shipwreck.lang.rules_text import LEGEND
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.runtime.ladder import nobody_rated
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.clock import clock_parts
from shipwreck.tui.learn import LOBBY_LEGEND, SEAT_CODES, LobbyLegendScreen
from shipwreck.tui.lifeboat import render as R
from shipwreck.tui.lobby.screen import LobbyHelpScreen, LobbyScreen
from shipwreck.tui.widgets import EventLog

# ------------------------------------------------- 1. the "you" panel when my enemy is me


def dealt(wanted: str) -> LifeboatView:
    """Seat 0's view of a new four-seat table whose deal is the special case ``wanted``:
    ``enemy``: my enemy is me (and my friend another); ``both``: both are me."""
    lobby = Lobby(seed=1)
    for seed in range(1, 400):
        seats = [SeatSpec("human"), *[SeatSpec("bot", "loyal")] * 3]
        view = lobby.create_table("lifeboat", seats, f"p{seed}", seed=seed).view(0)
        assert isinstance(view, LifeboatView)
        me = next(c for c in view.characters if c.id == view.me)
        if me.enemy == me.id and (me.friend == me.id) == (wanted == "both"):
            return view
    raise AssertionError(f"no seat dealt {wanted}")


def holding(view: LifeboatView, items: tuple[str, ...]) -> LifeboatView:
    """``view`` with my hidden items replaced by ``items``."""
    chars = tuple(
        msgspec.structs.replace(c, hidden=items) if c.id == view.me else c for c in view.characters
    )
    return msgspec.structs.replace(view, characters=chars)


ITEMS = ("umbrella", "compass", "preserver", "medkit", "flare", "bait", "gaff", "cash")


@pytest.mark.parametrize("held", [1, 2, 4, 8])
def test_at_80_columns_the_you_panel_says_my_own_survival_scores_0(held: int) -> None:
    """LB-63: at 80x24 the panel read 'enemy = you: +str of dead' and 'score now 6' beside
    'surv 5', and 'friend +6' seemed to make 11. The short form now says the friend's death
    does not count and that my own survival scores 0, and the score says what it is made of;
    with many items the items give way, never the score or these words."""
    view = holding(dealt("enemy"), ITEMS[:held])
    drawn = plain(R.me_panel(view, compact=True), 27)
    assert "enemy = you: +str of dead" in drawn, drawn
    assert "(not friend); your surv 0" in drawn, drawn
    assert "score now" in drawn, drawn
    if held == 1:  # (room for the parts: the friend's bonus, and no survival of my own)
        assert "(friend " in drawn and "you " not in drawn.split("score now")[1], drawn


def test_at_80_columns_friend_and_enemy_both_me_says_survival_once() -> None:
    """LB-63 with LB-62: my survival once, and the strength of the others who die."""
    drawn = plain(R.me_panel(dealt("both"), compact=True), 27)
    assert "friend+enemy = you: +" in drawn and "alive, +str of other dead" in drawn, drawn


def test_the_short_relations_fit_25_columns_and_say_each_case() -> None:
    for me, friend, enemy in itertools.product(CHAR_IDS, repeat=3):
        lines = explain.relations(me, friend, enemy, short=True)
        assert all(len(line) <= 25 for line in lines), lines
        tight = explain.relations_tight(me, friend, enemy)  # (the panel at 120, when full)
        assert len(tight) <= 2 and all(len(line) <= 34 for line in tight), tight
        if enemy == me != friend:
            assert tight[1].endswith("; surv 0"), tight
    assert explain.relations("kid", "mate", "kid", short=True)[-1] == "(not friend); your surv 0"


def test_the_legend_says_each_special_case_in_plain_words() -> None:
    """F3 (the legend) now explains the "you" panel and LB-62..LB-64 in words."""
    legend = " ".join(LEGEND["lifeboat"].split())
    for case in (
        "Your friend is you",
        "Your enemy is you",
        "nothing for your own survival",
        "Your friend and enemy are both you",
        "Your friend is also your enemy",
    ):
        assert case in legend, case


# ------------------------------------------------- 5. the board's columns, as the legend says


@pytest.mark.parametrize("width", [50, 80])
def test_every_column_of_the_board_is_in_the_legend(width: int) -> None:
    """The narrow board said 'hd' where the legend said 'hid'; 'st', 'surv', 'state' and
    'marks' were not explained. Every column head the board draws (at 80 and 120 columns),
    and the panel's 'str'/'surv', is now in the legend."""
    view = dealt("enemy")
    head = R.Boat(view, compact=True).lines(width)[0].plain.split()
    assert "hid" in head and "hd" not in head
    legend = LEGEND["lifeboat"]
    for word in [*head, "surv", "out", "row", "fgt"]:
        assert f"`{word}`" in legend, word


# ------------------------------------------------- 2. the log and the chat at 80x24


def panes(app: ShipwreckApp) -> dict[str, tuple[bool, int, str]]:
    """The log's and the chat's (shown, width, title)."""
    screen = seat_screen(app)
    out = {}
    for name in ("log", "chat"):
        pane = screen.query_one(f"#{name}", EventLog)
        out[name] = (pane.display, pane.outer_size.width, str(pane.border_title))
    return out


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_table_of_bots_gives_the_chat_s_width_to_the_log(size: tuple[int, int]) -> None:
    """The log showed 2-3 lines beside an untitled chat box, empty at a table of bots. With
    nobody else to talk to, the log now takes the whole width, at 80x24 and (session 30: the
    box stayed there) at 120x40; a spectator brings the chat back (and its going hides it
    again); a line said keeps it."""
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    width = size[0]
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert panes(app) == {"log": (True, width, "log"), "chat": (False, 0, "chat")}
        stop = table.watch("carol")
        await pilot.pause()
        shown = panes(app)
        assert shown["chat"][0] and shown["chat"][2] == "chat", shown
        assert shown["log"][1] + shown["chat"][1] == width, shown
        stop()
        await pilot.pause()
        assert not panes(app)["chat"][0]
        await type_line(pilot, "say ahoy")
        assert panes(app)["chat"][0], "a line said: the chat shows it"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_another_player_at_the_table_keeps_the_titled_chat(size: tuple[int, int]) -> None:
    """Another human seated: the chat is shown, titled "chat", at 80x24 as at 120x40."""
    lobby = Lobby(seed=1)
    table = two_humans(lobby)
    app = ShipwreckApp(lobby, "alice", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        shown = panes(app)
        assert shown["chat"][0] and shown["chat"][2] == "chat" and shown["chat"][1] > 20, shown


async def test_at_80x24_the_log_has_four_rows_and_the_you_panel_loses_no_line() -> None:
    """Session 30: at 80x24 the log showed three rows. The "you" panel's title rule is now its
    character's line (``─ Frenchy◂ str 6 surv 6 ───``, on the boat's header row), so the boat
    and the panel take seven rows, not eight: the log has four, and the panel still shows
    every line it did (ability, hidden items, friend, enemy, score) with the whole board."""
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = seat_screen(app)
        assert screen.query_one("#log", EventLog).scrollable_content_region.height == 4
        assert screen.max_scroll_y == 0
        for wid in ("title", "seats", "boat", "me", "nav", "log", "prompt", "error", "command"):
            region = screen.panel_region(wid)
            assert region and region.bottom <= 24, f"{wid} is not all on screen"
        view = table.view(screen.seat)
        me = next(c for c in view.characters if c.id == view.me)
        text = screen_text(app)
        head = f"─ {explain.name(me.id)}◂ str {me.strength} surv {CHAR[me.id].bonus} ─"
        assert head in text.splitlines()[2], text  # (beside the boat's header)
        for words in (explain.ability(me.id, True), "hid 1: ", "friend", "enemy", "score now"):
            assert words in text, words
        for c in view.characters:
            assert f"{c.seat}{'⎈' if c.id == R.navigator_of(view) else ' '} {c.id}" in text


# ------------------------------------------------- 3. the navigation line keeps its labels


@pytest.mark.parametrize(
    ("offer", "width", "more"),
    [
        (("jewels", "water", "painting:3", "medkit"), 78, ""),  # the tutorial's round 2
        (("jewels", "water", "painting:3", "medkit", "umbrella", "flare", "compass"), 50, "+5"),
    ],
)
def test_the_navigation_line_keeps_its_labels_and_shortens_only_the_list(
    offer: tuple[str, ...], width: int, more: str
) -> None:
    """At 80x24 (the tutorial's round 2) the line 'navigation table: empty  supply passed to
    you: jewels, water, painting:3, medkit' (80 columns, in 78) became a bare '+1 more: F4'.
    Now both labels always show; only the list of items gives way, counted (F4 lists it)."""
    lobby, table = lobby_with_table()
    view = msgspec.structs.replace(table.view(0), supply_offer=offer)
    drawn = plain(R.navigation(view, compact=True), width)
    assert "navigation table: empty" in drawn and "supply passed to you: jewels" in drawn, drawn
    assert len(drawn.rstrip("\n").splitlines()) == 3, drawn  # the track and two rows
    if more:
        assert f"{more} more: F4" in drawn, drawn
    else:
        assert "more" not in drawn and all(item in drawn for item in offer), drawn


# ------------------------------------------------- 4. the bots' names in the seats line


@pytest.mark.parametrize(
    ("bots", "whole"),
    [
        (["survivor", "loyal", "predator", "hoarder", "random"], True),  # the stranger's table
        (["carol/rower_the_long_named_bot"] * 5, False),  # (a saved bot: too long whole)
    ],
)
async def test_at_80x24_the_seats_line_never_cuts_a_bot_name_to_a_stub(
    bots: list[str], whole: bool
) -> None:
    """The header read 'mate: sur… frenchy: pre… kid: hoa…'. The bots now go together at the
    end by their characters' letters, as the cards name them ('bots: M=survivor'), each name
    whole; names too long even so are cut only to four letters or more, else said 'bot'."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), *[SeatSpec("bot", "loyal") for b in bots]]
    table = lobby.create_table("lifeboat", seats, "ann", seed=11)
    for seat, bot in zip(table.seats[1:], bots, strict=True):
        seat.bot = bot  # (as a saved bot's seat is named; no store needed to draw it)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        line = screen_text(app).splitlines()[1].rstrip()
    assert len(line) <= 79, line
    assert f"{table.seat_name(0)}: ann" in line, line
    if whole:
        assert "…" not in line and line.count("=") == 5, line
        for i, bot in enumerate(bots, 1):
            assert f"{CHAR[table.seat_name(i)].letter}={bot}" in line, line
    else:
        assert not re.search(r"\b\w{1,3}…", line), line  # (no 'sur…')
    assert "letter" in LEGEND["lifeboat"] and "`bots: M=loyal K=random`" in LEGEND["lifeboat"]


# ------------------------------------------------- 6, 7. the lobby's seat codes, and its F3


async def test_the_lobby_explains_its_seat_codes_and_f3_shows_the_lobby_s_marks() -> None:
    """'HBBBBB' was never explained, and F3 in the lobby opened the Lifeboat board's legend.
    A line under the list now says what the letters mean; F3 (its footer says 'legend')
    explains the list itself, and the lobby's help says so."""
    app = ShipwreckApp(lobby_with_tables(), "bob", "SHA256:b")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "HBBBBB" in text and SEAT_CODES in text, text
        assert "f3 legend" in text.splitlines()[-1]
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, LobbyLegendScreen)
        body = " ".join(LOBBY_LEGEND.split())
        assert "`H` a player, `B` a bot, `.` a free seat" in body
        for status in ("waiting", "open", "running", "paused", "over", "empty"):
            assert f"`{status}`" in body, status
        assert "F3" in body and "Lifeboat's board" in body  # (where the board's legend is)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        keys = {e.usage: e.description for e in LobbyHelpScreen().sections()[2][1]}
        assert "list of tables" in keys["F3"], keys


# ------------------------------------------------- 8. messages that name what they mean


def test_every_form_of_the_time_out_message_names_the_move() -> None:
    """The first two forms said "the table played 'take medkit'", the third only "the table
    played for you": now every form, the shortest too, names the move."""
    lobby, table = lobby_with_table()
    seat = table.seats[0]
    seat.played_for, seat.misses = "take medkit", 1
    (about,) = clock_parts(table, 0)
    assert len(about.forms) >= 4
    for form in about.forms:
        assert "'take medkit'" in form.plain, form.plain


def test_a_waiting_player_is_told_the_step_and_its_public_names() -> None:
    """LB-42, LB-50: while only the overboard or thirst step's hidden prompts are open (who
    is asked would tell who holds a preserver, bait or water), 'waiting for the table' said
    nothing. Now the step is named with who is in the water, or who is still thirsty; one
    asked for what it holds (and not itself in the water or thirsty) is never named."""
    seen: set[str] = set()
    for seed in range(40):
        state, _ = RULES.new_game(seed, 6)
        pick = random.Random(seed)
        for _ in range(400):
            asked = [p for p in RULES.prompts(state) if p.blocking]
            if state.phase == "over" or not asked:
                break
            view = RULES.view(state, 0)
            if not any(p.blocking for p in view.prompts):
                said = plain(R.prompt(view), 200)
                assert "the table" not in said, (state.step, said)
                public = set(view.overboard) | {c for c, n in view.thirst.items() if n > 0}
                for p in asked:
                    if state.players[p.seat] not in public:
                        assert state.players[p.seat] not in said, (said, p)
                seen.add(state.step)
            p = asked[0]
            RULES.apply(state, p.seat, pick.choice(list(RULES.view(state, p.seat).choices)))
        if seen == {"thirst", "overboard"}:
            return
    raise AssertionError(f"only {seen} seen waiting on hidden prompts")


@pytest.mark.parametrize(("game", "word"), [("spanish_main", "new sm"), ("lifeboat", "new")])
def test_an_empty_ladder_says_the_word_that_starts_its_game(game: str, word: str) -> None:
    assert f"('{word}' starts one)" in nobody_rated(game)

"""Fixes from a stranger's play-test at 80x24 (issue 16): the clocks in the title bar (every
seat and spectator sees whom the table waits for, and for how long), a title that fits, the
Spanish Main fleet list that leaves no ship out, errors shown whole under the choices, help
rows that keep a command with its words, and Tab offering only words that apply."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from tui_helpers import rows, seat_screen

from shipwreck.games.spanish_main.codes import ship_codes
from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.lang.help import usage_forms
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import HelpList, help_grid
from shipwreck.tui.board import Board
from shipwreck.tui.lifeboat.screen import HelpScreen
from shipwreck.tui.lobby.screen import LobbyHelpScreen
from shipwreck.tui.spanish_main import render as R
from shipwreck.tui.spanish_main.screen import SeaHelpScreen

SIZES = [(80, 24), (120, 40)]
LIFEBOAT_KINDS = ("supply", "turn", "keep", "respond", "fight", "navigate", "thirst", "overboard")
SEA_KINDS = ("turn", "after_move", "eliminate", "load", "board", "plunder")
BOTS = ["survivor", "loyal", "predator", "hoarder"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def timed_lobby(game: str, clock: Clock, seconds: int = 40, **kw: Any) -> Lobby:
    kinds = LIFEBOAT_KINDS if game == "lifeboat" else SEA_KINDS
    return Lobby(seed=1, timers=dict.fromkeys(kinds, seconds), clock=clock, **kw)


def two_players(lobby: Lobby, game: str, seed: int = 11, sea_bots: int = 1) -> Table:
    """Ann (first seat) and bob (second) against bots; both have been shown the game, so
    the clock runs."""
    if game == "lifeboat":
        bots = [SeatSpec("bot", b) for b in BOTS]
    else:
        bots = [SeatSpec("bot", "sm_raider")] * sea_bots
    table = lobby.create_table(game, [SeatSpec("human"), SeatSpec("empty"), *bots], "ann", seed)
    assert table.sit(1, "bob") is None
    table.prompt_shown(0)
    table.prompt_shown(1)
    return table


async def title_row(app: ShipwreckApp, pilot: Pilot[Any]) -> str:
    """The title bar as the terminal shows it, after the screen's one-second clock ran."""
    seat_screen(app).refresh_clock()
    await pilot.pause()
    return rows(app)[0]


# ------------------------------------------------------------------ 1. the clocks in the title


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["lifeboat", "spanish_main"])
async def test_every_seat_and_spectators_see_the_countdown_of_the_seat_the_table_waits_for(
    game: str, size: tuple[int, int]
) -> None:
    """Ann decides: her title counts down her seconds; bob's and carol's (watching) say whom
    the table waits for and how long is left, at every size, whole (nothing cut)."""
    clock = Clock()
    lobby = timed_lobby(game, clock)
    table = two_players(lobby, game)
    assert table.deadline(0) == 40 and table.deadline(1) is None, "ann decides first"
    name = table.seat_name(0)
    ann = ShipwreckApp(lobby, "ann", open_table=table.id)
    bob = ShipwreckApp(lobby, "bob", open_table=table.id)
    carol = ShipwreckApp(lobby, "carol", open_table=table.id)
    async with (
        ann.run_test(size=size) as p0,
        bob.run_test(size=size) as p1,
        carol.run_test(size=size) as p2,
    ):
        assert seat_screen(carol).seat is None, "carol watches"
        clock.now += 18
        assert "⏱ 22 s to decide" in await title_row(ann, p0)
        for app, pilot in ((bob, p1), (carol, p2)):
            title = await title_row(app, pilot)
            assert f"⏱ waiting for {name} (ann) · 0:22" in title, title
            assert "…" not in title, f"the title is cut: {title}"
        clock.now += 15  # 7 s left: the waiting seats see it, in words that stand out
        assert "waiting for" in await title_row(bob, p1) and "0:07" in rows(bob)[0]


async def test_no_countdown_tells_of_a_decision_the_view_hides() -> None:
    """LB: who may drink water in the thirst step is hidden (it tells who holds water); bob's
    clock there must not show on ann's screen, nor a spectator's, while bob sees his own."""
    clock = Clock()
    lobby = timed_lobby("lifeboat", clock)
    table = two_players(lobby, "lifeboat", seed=1)
    pick = random.Random(1)
    for _ in range(400):
        hidden = table.deadline(1) is not None and not any(
            p.seat == 1 and p.blocking for p in table.view(0).prompts
        )
        if hidden:
            break
        seat = next(s for s in (0, 1) if table.view(s).choices)
        table.submit(seat, pick.choice(list(table.view(seat).choices)))
    else:
        raise AssertionError("bob never had a hidden decision")
    kinds = {p.kind for p in table.view(1).prompts if p.seat == 1 and p.blocking}
    assert kinds <= {"thirst", "overboard", "offer"}, kinds
    bob_seat = table.seat_name(1)
    for user in ("ann", "carol", "bob"):
        app = ShipwreckApp(lobby, user, open_table=table.id)
        async with app.run_test(size=(120, 40)) as pilot:
            title = await title_row(app, pilot)
            if user == "bob":
                assert "s to decide" in title, title
            else:
                assert "(bob)" not in title and f"{bob_seat} 0:" not in title, title
                assert f"waiting for {bob_seat}" not in title, title


@pytest.mark.parametrize("game", ["lifeboat", "spanish_main"])
async def test_after_a_missed_deadline_the_seconds_stay_on_the_title_at_80x24(game: str) -> None:
    """What the table played for me, said beside my new countdown: the seconds come first
    and never fall off the end of the bar (they did, after a long Spanish Main move)."""
    clock = Clock()
    lobby = timed_lobby(game, clock, autopilot_after=3)
    table = two_players(lobby, game)
    ann = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with ann.run_test(size=(80, 24)) as pilot:
        table.set_connected("bob", False)  # (his clock runs too)
        for _ in range(40):
            clock.now += 41
            lobby.tick()
            if table.seats[0].played_for and table.deadline(0) is not None:
                break
        else:
            raise AssertionError("ann never missed a deadline and was asked again")
        left = int(table.deadline(0) or 0)
        title = await title_row(ann, pilot)
        assert title.startswith(f" ⏱ {left} s to decide · "), title
        assert f"played '{table.seats[0].played_for}'" in title, title  # (named: session 29)
        assert "more" in title and "a bot plays" in title, title
        assert "…" not in title, title


@pytest.mark.parametrize("user", ["ann", "bob", "carol"])
async def test_the_spanish_main_title_fits_80_columns(user: str) -> None:
    """Four seats at 80x24: the least useful parts go first ("signed in as", the game's
    name); who I am, the round and whose turn it is stay, and nothing is cut."""
    clock = Clock()
    lobby = timed_lobby("spanish_main", clock)
    table = two_players(lobby, "spanish_main", sea_bots=2)
    app = ShipwreckApp(lobby, user, open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        title = await title_row(app, pilot)
        assert "…" not in title, title
        me = {"ann": "you are red", "bob": "you are blue", "carol": "spectator"}[user]
        for word in (me, "round 1", "red's turn"):
            assert word in title, title
        assert ("0:40" in title) == (user != "ann") and ("40 s to decide" in title) == (
            user == "ann"
        ), title


# ------------------------------------------------------------------ 2. the fleet list at 80x24


def drawn(app: ShipwreckApp, board_id: str, wid: str) -> list[str]:
    """The rows panel ``wid`` shows on its board now, as drawn."""
    board = app.screen.query_one(f"#{board_id}", Board)
    region = board.spot(wid)
    assert region is not None, f"{wid} is not shown"
    return [strip.text for strip in board.render_lines(region)]


def listed(view: SpanishMainView, text: str) -> list[str]:
    """The ships of ``view`` that the fleet panel's ``text`` names: by id on a row of its own,
    or by its map code after its seat's name."""
    codes = ship_codes(view)
    words = text.replace(":", " ").split()
    plain = [w.lstrip(R.ARROWS) for w in words]
    return [s.id for s in view.ships if s.id in words or codes[s.id] in plain]


@pytest.mark.parametrize("user", ["ann", "bob", "carol"])
async def test_the_fleet_panel_lists_every_ship_of_four_fleets_at_80x24(user: str) -> None:
    """SM-4: four fleets (14 ships) on a panel of six rows: my ships keep their rows, the
    others are listed by their map codes after their seat's name; none is left out."""
    lobby = Lobby(seed=1)
    table = two_players(lobby, "spanish_main", sea_bots=2)
    app = ShipwreckApp(lobby, user, open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = seat_screen(app)
        view = table.view(screen.seat)
        assert isinstance(view, SpanishMainView) and len(view.ships) == 14
        rows_ = drawn(app, "side", "fleet")
        text = "\n".join(rows_)
        assert sorted(listed(view, text)) == sorted(s.id for s in view.ships), text
        assert "more: F3" not in text
        codes = ship_codes(view)
        own = [s for s in view.ships if s.owner == (screen.seat or 0)]
        for s in own:  # mine (a spectator: the first fleet) on rows of their own
            assert any(r.split()[1:2] == [codes[s.id]] for r in rows_), f"{s.id}: {text}"


@pytest.mark.parametrize("rows", [1, 2, 3])
def test_fleets_that_do_not_fit_even_in_brief_are_counted_with_where_to_see_them(rows: int) -> None:
    """Never silent: what the rows cannot hold is counted, "+N more: F3" (the fleet screen)."""
    lobby = Lobby(seed=1)
    table = two_players(lobby, "spanish_main", sea_bots=2)
    view = table.view(0)
    assert isinstance(view, SpanishMainView)
    console = Console(width=45, record=True)
    console.print(R.fleet(view, rows=rows))
    text = console.export_text()
    shown = listed(view, text)
    more = re.search(r"\+(\d+) more: F3", text)
    assert (more is not None) == (rows < 3), text  # (three rows hold all 14 in brief)
    assert len(shown) + int(more.group(1) if more else 0) == len(view.ships), text
    assert len(text.rstrip("\n").split("\n")) <= rows + 1, text


# ------------------------------------------------------------------ 4. help: each command whole


def help_sections(where: str) -> list[tuple[str, list[Any]]]:
    screen = {"lobby": LobbyHelpScreen, "lifeboat": HelpScreen, "sm": SeaHelpScreen}[where]()
    return screen.sections()


@pytest.mark.parametrize("width", [76, 116])
@pytest.mark.parametrize("where", ["lobby", "lifeboat", "sm"])
def test_help_keeps_each_command_and_its_words_together(where: str, width: int) -> None:
    """Each command's description starts on its command's row and goes on, indented, on the
    rows right under it, before the next command: never beside another command's forms."""
    console = Console(width=width, record=True)
    console.print(help_grid(help_sections(where)))
    lines = console.export_text().split("\n")
    assert all(len(line.rstrip()) <= width for line in lines)
    at = 0
    for _, entries in help_sections(where):
        for entry in entries:  # (in order: 'say' is both a game's word and a table's)
            forms = " / ".join(usage_forms(entry.usage)) + "  "
            starts = [i for i, line in enumerate(lines) if i >= at and line.startswith(forms)]
            assert starts, f"{forms!r} is not at the start of a row"
            i = at = starts[0]
            words = [lines[i][len(forms) :].strip()]
            for line in lines[i + 1 :]:
                if not line.startswith(HelpList.INDENT * " ") or line.strip().startswith("e.g."):
                    break
                words.append(line.strip())
            assert " ".join(words) == " ".join(entry.description.split()), (entry, words)


async def test_the_help_screen_at_80x24_shows_a_command_and_its_words_on_one_row() -> None:
    lobby = Lobby(seed=1)
    table = two_players(lobby, "lifeboat")
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        shown = rows(app)
        assert any("row  draw 2 navigation cards" in r for r in shown), "\n".join(shown)
        swap = next(i for i, r in enumerate(shown) if "swap X  ask X for its seat" in r)
        assert shown[swap + 1].split("█")[1].startswith("     "), "the words go on, indented"


# ------------------------------------------------------------------ 5. Tab and the placeholder


async def tab_offers(app: ShipwreckApp, pilot: Pilot[Any]) -> list[str]:
    screen = seat_screen(app)
    return screen.complete("")


@pytest.mark.parametrize("game", ["lifeboat", "spanish_main"])
async def test_tab_on_an_empty_line_offers_start_and_takeover_only_when_they_apply(
    game: str,
) -> None:
    clock = Clock()
    lobby = timed_lobby(game, clock, autopilot_after=1)
    table = two_players(lobby, game)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        offered = await tab_offers(app, pilot)
        assert "start" not in offered and "takeover" not in offered, offered
        assert {"help", "lobby", "leave", "rules"} <= set(offered), offered
        for _ in range(40):  # ann misses her deadline: a bot plays her seat
            clock.now += 41
            lobby.tick()
            if table.seats[0].autopilot:
                break
        assert table.seats[0].autopilot
        assert "takeover" in await tab_offers(app, pilot)
    seats = [SeatSpec("human")] + [SeatSpec("empty")] * (3 if game == "lifeboat" else 1)
    waiting = lobby.create_table(game, seats, "ann", gather=True)
    host = ShipwreckApp(lobby, "ann", open_table=waiting.id)
    async with host.run_test(size=(80, 24)) as pilot:
        assert not waiting.started and "start" in await tab_offers(host, pilot)
        seat_screen(host).start_table(False)
        assert waiting.started and "start" not in await tab_offers(host, pilot)


@pytest.mark.parametrize("game", ["lifeboat", "spanish_main"])
async def test_the_placeholder_tells_lobby_from_leave_at_80_columns(game: str) -> None:
    lobby = Lobby(seed=1)
    table = two_players(lobby, game)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = next(r for r in rows(app) if "'lobby'" in r)
        assert "'lobby' keeps your seat, 'leave' gives it up" in line, line


# ------------------------------------------------------------------ 3. errors whole, choices kept


@pytest.mark.parametrize("game", ["lifeboat", "spanish_main"])
async def test_a_long_error_is_shown_whole_under_the_choices_at_80x24(game: str) -> None:
    """The longest error a stranger meets (an unknown word: every command there is) wraps
    onto as many rows as it needs, the log giving them up; what to decide and the choices
    keep their rows above it, and the log has its rows back after the next line."""
    lobby = Lobby(seed=1)
    table = two_players(lobby, game)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = seat_screen(app)
        before = drawn(app, "foot", "prompt")
        assert before[1].strip().startswith(("choices:", "move ", "shoot", "explore")), before
        log_rows = screen.query_one("#log").size.height
        await pilot.press(*"jump overboard now", "enter")
        await pilot.pause()
        message = screen.panel_text("error")
        assert message.startswith("unknown command 'jump'"), message
        assert len(message) > 2 * 78, "not long enough to need three rows"
        shown = drawn(app, "foot", "error")
        assert " ".join(" ".join(shown).split()) == " ".join(message.split()), shown
        assert drawn(app, "foot", "prompt") == before, "the prompt lost rows to the error"
        on_screen = rows(app)
        assert any(r.strip() == before[1].strip() for r in on_screen), "the choices are gone"
        assert "'lobby' keeps your seat" in on_screen[-2], "the command line is gone"
        await pilot.press(*"help", "enter")  # (any line: the error goes)
        await pilot.press("escape")
        await pilot.pause()
        assert screen.query_one("#log").size.height == log_rows


# ------------------------------------------------------------------ snapshots


@pytest.mark.parametrize("game", ["lifeboat", "spanish_main"])
def test_snapshot_a_waiting_seat_at_80x24(snap_compare: Any, game: str) -> None:
    """Bob waits for ann: her countdown in his title; Spanish Main with four fleets, his
    rows and the others in brief."""
    clock = Clock()
    lobby = timed_lobby(game, clock)
    table = two_players(lobby, game, sea_bots=2)
    clock.now += 18
    app = ShipwreckApp(lobby, "bob", "SHA256:b", open_table=table.id)
    assert snap_compare(app, terminal_size=(80, 24))

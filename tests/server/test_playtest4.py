"""Fixes from the fourth stranger play-test of the merged product (issue 16, s26): keys typed
after Esc, the log that follows again, a long line, Spanish Main's title and hints after a
move, Lifeboat's hidden supplies at 80×24, and the small texts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import asyncssh
import pytest
from textual import events
from textual.pilot import Pilot

from shipwreck.games.spanish_main.commands import EndTurn
from shipwreck.lang import parse_command
from shipwreck.lang.commands import format_command
from shipwreck.lang.rules_text import item_effects
from shipwreck.lang.spanish_main import suggested_moves
from shipwreck.names import player_name_refusal
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.server.driver import session_io_for
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.confirm import Confirm
from shipwreck.tui.learn import CardsScreen
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.spanish_main import render as R
from shipwreck.tui.widgets import CommandLine, EventLog

from sshclient import eventually, loopback_config, open_terminal, running

SIZES = [(80, 24), (120, 40)]
GAMES = ["lifeboat", "spanish_main"]


def bot_table(lobby: Lobby, game: str) -> Table:
    """Ann against bots (one human: no timers)."""
    if game == "lifeboat":
        seats = [SeatSpec("human"), *[SeatSpec("bot", "loyal")] * 3]
    else:
        seats = [SeatSpec("human"), SeatSpec("bot", "sm_raider")]
    return lobby.create_table(game, seats, "ann", seed=5)


async def wait_screen(pilot: Pilot[Any], kind: type) -> None:
    for _ in range(100):
        if isinstance(pilot.app.screen, kind):
            return
        await pilot.pause(0.02)
    raise AssertionError(f"no {kind.__name__}: {pilot.app.screen_stack!r}")


def command_line(app: ShipwreckApp) -> CommandLine:
    return app.screen.query_one("#command", CommandLine)


async def burst(pilot: Pilot[Any], keys: list[str]) -> None:
    """Post ``keys`` (key names) to the app all at once, as one SSH packet delivers them."""
    for key in keys:
        character = {"escape": "\x1b", "enter": "\r", "space": " "}.get(key, key)
        pilot.app.post_message(events.Key(key, character))
    await pilot.pause()
    await pilot.pause()


# ------------------------------------------------------------------ 1. keys typed after Esc


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
async def test_a_command_typed_after_escape_lands_on_the_command_line(
    game: str, size: tuple[int, int]
) -> None:
    """Esc at a table asks "back to the lobby?"; typing a command then answers no, and what is
    typed is on the command line (it vanished into the question)."""
    lobby = Lobby(seed=1)
    table = bot_table(lobby, game)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, SeatScreen)
        await pilot.press("escape")
        await wait_screen(pilot, Confirm)
        await pilot.press(*"help")
        await wait_screen(pilot, SeatScreen)
        assert command_line(app).value == "help"
        assert app.focused is command_line(app)
        await pilot.press("enter")  # the line runs as typed: the help opens
        await pilot.pause()
        assert "Help" in type(app.screen).__name__, app.screen_stack
        assert table.seat_of_player("ann") == 0


@pytest.mark.parametrize("game", GAMES)
async def test_escape_and_a_command_in_one_burst_keep_every_key(game: str) -> None:
    """Esc and the keys after it in one packet (a fast typist over SSH): the question closes
    once, and every key is on the line below, in order."""
    lobby = Lobby(seed=1)
    table = bot_table(lobby, game)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, SeatScreen)
        screen = app.screen
        await burst(pilot, ["escape", *"rules"])
        await wait_screen(pilot, SeatScreen)
        assert app.screen is screen and command_line(app).value == "rules"


async def test_the_answers_to_the_question_still_answer_it() -> None:
    """y still leaves for the lobby, n stays (and types nothing): only other keys go below."""
    lobby = Lobby(seed=1)
    table = bot_table(lobby, "lifeboat")
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, SeatScreen)
        await pilot.press("escape")
        await wait_screen(pilot, Confirm)
        await pilot.press("n")
        await wait_screen(pilot, SeatScreen)
        assert command_line(app).value == ""
        await pilot.press("escape")
        await wait_screen(pilot, Confirm)
        await pilot.press("y")
        await wait_screen(pilot, LobbyScreen)
        assert table.seat_of_player("ann") == 0


async def test_typing_after_ctrl_c_in_the_lobby_lands_on_the_lobby_line() -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, LobbyScreen)
        await pilot.press("ctrl+c")
        await wait_screen(pilot, Confirm)
        await pilot.press(*"watch 1")
        await wait_screen(pilot, LobbyScreen)
        assert app.is_running and command_line(app).value == "watch 1"


# ------------------------------------------------------------------ 2. the log follows again


def at_end(log: EventLog) -> bool:
    return log.max_scroll_y > 0 and log.scroll_offset.y == log.max_scroll_y


async def page_back(pilot: Pilot[Any], log: EventLog) -> None:
    await pilot.press("pageup")
    await pilot.pause()
    assert not at_end(log) and "newer" in (log.border_subtitle or "")


@pytest.mark.parametrize("size", SIZES)
async def test_my_own_move_and_end_bring_the_spanish_main_log_back_to_its_end(
    size: tuple[int, int],
) -> None:
    """A player who paged back stays there while others' lines come (reading is not
    interrupted), but their own move shows its outcome: the log jumps to its end and follows
    again; End on the empty line does the same."""
    lobby = Lobby(seed=1)
    table = lobby.create_table("spanish_main", [SeatSpec("human"), SeatSpec("empty")], "ann", 3)
    assert table.sit(1, "bob") is None
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, SeatScreen)
        log = app.screen.query_one("#log", EventLog)
        while log.max_scroll_y < 6 or table.view(0).turn != 0:
            result = table.submit(table.view(0).turn, EndTurn())
            assert result.ok, result.message
            await pilot.pause()
        assert at_end(log)
        await page_back(pilot, log)
        back = log.scroll_offset.y
        assert table.say("bob", "look north", 1, None) is None  # (chat shares this log)
        await pilot.pause()
        assert log.scroll_offset.y == back, "someone else's line moved a reader"
        await pilot.press(*"end turn", "enter")  # (ships idle: it asks, and the second ends)
        await pilot.press(*"end turn", "enter")
        await pilot.pause()
        assert table.view(0).turn == 1, "the move was not played"
        assert at_end(log) and "newer" not in (log.border_subtitle or "")
        assert table.submit(1, EndTurn()).ok
        await pilot.pause()
        assert at_end(log), "after my move the log follows new lines again"
        await page_back(pilot, log)
        await pilot.press("end")
        await pilot.pause()
        assert at_end(log) and "newer" not in (log.border_subtitle or "")


@pytest.mark.parametrize("size", SIZES)
async def test_my_own_move_brings_the_lifeboat_log_back_to_its_end(size: tuple[int, int]) -> None:
    lobby = Lobby(seed=1)
    table = bot_table(lobby, "lifeboat")
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, SeatScreen)
        log = app.screen.query_one("#log", EventLog)

        async def move() -> None:
            before = len(table.commands)
            await pilot.press(*format_command(table.view(0).choices[0]), "enter")
            await pilot.pause()
            assert len(table.commands) > before

        while log.max_scroll_y < 6:
            await move()
        await page_back(pilot, log)
        assert "(PgDn, End)" in (log.border_subtitle or "")  # the keys back are named
        await move()
        assert at_end(log)
        await page_back(pilot, log)
        await pilot.press(*"say", "left")  # End with the cursor mid-line: only the cursor
        await pilot.press("end")
        await pilot.pause()
        assert not at_end(log) and command_line(app).cursor_position == 3
        await pilot.press("end")  # at the end of the line already: the log's end
        await pilot.pause()
        assert at_end(log)


# ------------------------------------------------------------------ 3. a very long line


async def test_1500_keys_fill_the_line_and_say_so_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """1,500 keys, a turn at a time as the server hands them over: the line keeps its most
    (500), says so once (it said so for every key past the end: a thousand messages drawn),
    and Ctrl+U then empties it for the next line. (What it costs: ``bench/long_line.py``.)"""
    told: list[str] = []
    real = CommandLine.tell_cut

    def counted(line: CommandLine) -> None:
        told.append(line.value)
        real(line)

    monkeypatch.setattr(CommandLine, "tell_cut", counted)
    lobby = Lobby(seed=1)
    table = bot_table(lobby, "lifeboat")
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, SeatScreen)
        typed = ("say " + "abcdefghij" * 150)[:1500]
        for i in range(0, len(typed), 32):
            await burst(pilot, ["space" if c == " " else c for c in typed[i : i + 32]])
        line = command_line(app)
        assert line.value == typed[: app.line_length] and len(told) == 1
        error = app.screen.panel_text("error")
        assert f"cut at {app.line_length} characters" in error and "Ctrl+U" in error
        await pilot.press("ctrl+u", *"say hi", "enter")
        await pilot.pause()
        assert table.chat and table.chat[-1].text == "hi"


async def test_a_paste_on_the_question_answers_no_and_lands_below() -> None:
    """The server hands a long run of typed characters over as one paste: on the "back to
    the lobby?" question it does what a typed key does."""
    lobby = Lobby(seed=1)
    table = bot_table(lobby, "spanish_main")
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, SeatScreen)
        await pilot.press("escape")
        await wait_screen(pilot, Confirm)
        app.screen.post_message(events.Paste("say " + "x" * 80))
        await wait_screen(pilot, SeatScreen)
        assert command_line(app).value == "say " + "x" * 80


async def test_1500_characters_over_ssh_are_a_few_events_not_1500(tmp_path: Path) -> None:
    """Over real SSH, 1,500 characters in one write (a terminal without bracketed paste) were
    1,500 keys of the session's key budget: after the first 500 it handed them over at 60 a
    second, and the session answered nothing for 17 s. A run of printable characters is now
    one paste event per slice the driver reads; the line after it runs at once."""
    async with running(loopback_config(tmp_path)) as service:
        key = asyncssh.generate_private_key("ssh-ed25519")
        client = await open_terminal(service.port, "ann", key, size=(80, 24))
        await client.term.wait_for("signed in as ann")
        await client.line("new 4 loyal")
        await client.term.wait_for("you are")
        (app,) = service.live.apps()
        io = session_io_for(app)
        assert io is not None
        before = io.events_in
        client.type(("say " + "abcdefghij" * 150)[:1500])
        await client.term.wait_for("the line was cut at 500 characters")
        client.type("\x15say heard-you\r")
        await client.term.wait_for("heard-you")
        handed = io.events_in - before
        assert handed < 60, f"{handed} events for 1,500 characters and a short line"
        assert io.budget.available() > 400, "the key budget was spent on one long line"
        client.close()


# ------------------------------------------------------------------ 4. the title after a start


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lobby_seed", [2, 6])
async def test_the_spanish_main_title_names_the_turn_once_started_with_bots(
    size: tuple[int, int], lobby_seed: int
) -> None:
    """``new sm``, then ``start with bots``, as a stranger does it in the lobby: the title
    said "waiting to start" for good when starting changed nothing else it shows (red moves
    first: same round, same turn; these lobby seeds deal such games)."""
    lobby = Lobby(seed=lobby_seed)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, LobbyScreen)
        await pilot.press(*"new sm", "enter")
        await wait_screen(pilot, SeatScreen)
        screen = app.screen
        assert isinstance(screen, SeatScreen)
        assert "waiting" in screen.panel_text("title")
        await pilot.press(*"start with bots", "enter")
        await pilot.pause()
        table = screen.table
        assert table.started and table.view(0).turn == 0  # (the case the title missed)
        title = screen.panel_text("title")
        assert "red's turn" in title and "waiting" not in title, title


# ------------------------------------------------------------------ 7. the small ones


def test_a_non_ascii_name_is_echoed_as_typed_and_controls_are_not() -> None:
    """'Ωmega' was echoed '?mega': only what a terminal cannot print is a '?'."""
    assert player_name_refusal("Ωmega").startswith("'Ωmega' is not a name here: ")
    assert player_name_refusal("añа").startswith("'añа' is not a name here")
    assert player_name_refusal("a\x1b[2Jb").startswith("'a?[2Jb' is not a name here")
    assert player_name_refusal("evil\u202etxt").startswith("'evil?txt' is not a name here")


@pytest.mark.parametrize("size", SIZES)
async def test_tell_to_a_free_seat_says_nobody_sits_there(size: tuple[int, int]) -> None:
    """``tell kid hi`` at a table whose kid seat is free said nothing and sent nothing."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("empty"), SeatSpec("empty"), SeatSpec("bot", "loyal")]
    table = lobby.create_table("lifeboat", seats, "ann", seed=5, gather=True)
    assert table.sit(1, "bob") is None
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, SeatScreen)
        screen = app.screen
        assert isinstance(screen, SeatScreen)
        free = table.seat_name(2)
        await pilot.press(*f"tell {free} hi", "enter")
        await pilot.pause()
        error = " ".join(screen.panel_text("error").split())
        assert f"nobody sits at {free} (a free seat)" in error, error
        assert f"bob ({table.seat_name(1)})" in error  # whom to tell instead
        assert not table.chat
        await pilot.press(*"tell bob hi", "enter")
        await pilot.pause()
        assert table.chat and table.chat[-1].to == 1


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("new 4 free×6", "'free×6': name each seat's bot (or free) once, e.g. new 4 free free"),
        ("new sm 3 loyal*2", "e.g. new sm 3 loyal loyal"),
        (
            "new 4 free free free free free free",
            "6 seats named, but a table of 4 has 3 besides yours: new 4 free free free,"
            " or more seats (up to 6)",
        ),
        ("new sm 2 free sm_raider", "2 seats named, but a table of 2 has 1 besides yours"),
    ],
)
async def test_odd_seat_lists_for_new_get_a_one_line_error(
    size: tuple[int, int], line: str, said: str
) -> None:
    """``new 4 free×6`` was refused as "no bot 'free6'" (its × dropped), and six names for a
    table of four were dropped without a word: each now says how to write it."""
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, LobbyScreen)
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        screen.run_typed(line)
        await pilot.pause()
        error = " ".join(screen.panel_text("error").split())
        assert said in error, error
        assert not lobby.tables and isinstance(app.screen, LobbyScreen)


@pytest.mark.parametrize("size", SIZES)
async def test_a_table_everyone_left_is_listed_empty_and_open_does_not_watch_it(
    size: tuple[int, int],
) -> None:
    """Ann makes a table for friends and gives her seat up before it starts: the lobby listed
    it "waiting" (for nobody: no one may start it), and ``open`` on it made her a spectator."""
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, LobbyScreen)
        await pilot.press(*"new 4 free", "enter")
        await wait_screen(pilot, SeatScreen)
        (table,) = lobby.tables.values()
        assert Lobby.row(table)[4] == "waiting"
        await pilot.press(*"leave", "enter")
        await wait_screen(pilot, Confirm)
        await pilot.press("y")
        await wait_screen(pilot, LobbyScreen)
        assert Lobby.row(table)[4] == "empty"
        await pilot.pause()
        assert any(f" {table.id} " in r and "empty" in r for r in screen_rows(app))
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        screen.run_typed(f"open {table.id}")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen) and app.user not in table.watchers
        error = " ".join(screen.panel_text("error").split())
        assert f"you have no seat at table {table.id}: 'watch {table.id}'" in error, error


def screen_rows(app: ShipwreckApp) -> list[str]:
    """The screen as the terminal shows it, row by row."""
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize("size", SIZES)
async def test_new_sm_seats_its_creator_first_and_says_how_to_fill_the_free_seat(
    size: tuple[int, int],
) -> None:
    """``new sm``: the creator sits in the first seat (red) and the other (blue) is free for a
    friend; the screen says so, and how to play a bot there instead."""
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, LobbyScreen)
        await pilot.press(*"new sm", "enter")
        await wait_screen(pilot, SeatScreen)
        screen = app.screen
        assert isinstance(screen, SeatScreen)
        table = screen.table
        assert table.seat_of_player("ann") == 0 and table.seat_name(0) == "red"
        assert table.free_seats() == [1] and not table.started
        assert "you are red" in screen.panel_text("title")
        prompt = " ".join(screen.panel_text("prompt").split())
        assert "blue" in prompt and "start with bots" in prompt, prompt


# ------------------------------------------------------------------ 5. F4 shows the hidden supply


@pytest.mark.parametrize("size", SIZES)
async def test_f4_lists_the_supply_passed_to_me_as_well_as_the_cards(size: tuple[int, int]) -> None:
    """At 80×24 the navigation panel packs the supply passed to me with the cards, and cuts
    what does not fit as "+1 more: F4"; F4 listed only the navigation cards. It now lists the
    supply passed to me first (LB-11: a card taken from the supply passed round)."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), *[SeatSpec("bot", "loyal")] * 5]
    table = lobby.create_table("lifeboat", seats, "ann", seed=5)
    offer = table.view(0).supply_offer
    assert table.view(0).phase == "supply" and len(offer) >= 2
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, SeatScreen)
        await pilot.press("f4")
        await wait_screen(pilot, CardsScreen)
        screen = app.screen
        assert isinstance(screen, CardsScreen)
        assert "Supply passed to you" in screen.title_text
        listed = screen.markdown.splitlines()
        for item in offer:  # each with what it does (a stranger saw only their names)
            (line,) = [row for row in listed if row.startswith(f"- {item} — ")]
            assert line == f"- {item} — {item_effects('lifeboat')[item.partition(':')[0]]}"
        assert "- water — Water: Pay one to cancel one thirst." in listed or "water" not in offer
        assert "## Your items" in listed  # (and mine, the same way)
        await pilot.press("escape")
        await wait_screen(pilot, SeatScreen)


# ------------------------------------------------------------------ 6. hints after my own moves


@pytest.mark.parametrize("size", SIZES)
async def test_spanish_main_hints_follow_my_own_moves(size: tuple[int, int]) -> None:
    """After each move I type, the hints under the map are those of the sea as it is now
    (the moved ship's hint gone, the others' worked out again), and every move they suggest
    is one the table would play (not reproduced as stale in s26: this keeps it so)."""
    lobby = Lobby(seed=1)
    table = bot_table(lobby, "spanish_main")
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, SeatScreen)
        screen = app.screen
        assert isinstance(screen, SeatScreen)
        moved = 0
        for _ in range(12):
            view = table.view(0)
            if view.turn != 0:
                break
            hints = R.hint_commands(view.choices, suggested_moves(view))
            shown = " ".join(screen.panel_text("prompt").split())
            assert all(h in shown for h in hints[:2]), (hints, shown)
            for hint in hints:
                if hint.startswith("move "):
                    preview = table.preview(0, parse_command("spanish_main", hint))
                    assert sum(d for _, d in preview.legs) > 0 or " dock " in hint, hint
            move = next((h for h in hints if h.startswith("move ")), "end turn")
            await pilot.press(*move, "enter")
            await pilot.pause()
            moved += move != "end turn"
            ship = move.split()[1] if move != "end turn" else None
            after = table.view(0)
            if ship is not None and after.turn == 0:
                shown = " ".join(screen.panel_text("prompt").split())
                assert f"move {ship} " not in shown, f"{ship} moved, yet: {shown}"
        assert moved >= 2


async def test_over_ssh_a_command_typed_after_escape_is_on_the_line(tmp_path: Path) -> None:
    """Item 1 over real SSH: Esc (a lone one: the driver gives it up as a key after its
    delay), then a command typed a moment later: the question closes, the line holds it."""
    async with running(loopback_config(tmp_path)) as service:
        key = asyncssh.generate_private_key("ssh-ed25519")
        client = await open_terminal(service.port, "ann", key, size=(80, 24))
        await client.term.wait_for("signed in as ann")
        await client.line("new 4 loyal")
        await client.term.wait_for("you are")
        client.type("\x1b")
        await client.term.wait_for("back to the lobby?")
        client.type("rules")
        (app,) = service.live.apps()

        def typed() -> list[str]:
            return [c.value for c in app.screen.query("#command").results(CommandLine)]

        await eventually(lambda: typed() == ["rules"], what=f"'rules' on the line: {typed()}")
        shown = client.term.text
        await eventually(lambda: "back to the lobby?" not in shown(), what="the question closed")
        client.type("\r")
        await client.term.wait_for("Lifeboat rules")
        client.close()


def test_the_enemy_is_you_line_is_never_cut_mid_sentence() -> None:
    """LB-63 (enemy = self): with several hidden items the "you" panel cut its four-line
    explanation after "enemy is you: a death (not your", a line that only said the enemy is
    you. When the whole text does not fit, the panel says it in brief, whole."""
    import msgspec
    from rich.console import Console

    from shipwreck.tui.lifeboat import render as RL

    lobby = Lobby(seed=1)
    for seed in range(1, 300):
        seats = [SeatSpec("human"), *[SeatSpec("bot", "loyal")] * 3]
        table = lobby.create_table("lifeboat", seats, f"p{seed}", seed=seed)
        view = table.view(0)
        me = next(c for c in view.characters if c.id == view.me)
        if me.enemy == me.id and me.friend != me.id:
            break
    else:
        raise AssertionError("no seat dealt itself as enemy")
    items = ["umbrella", "compass", "preserver", "medkit", "flare", "bait", "gaff"]
    for held in (1, 4, 7):
        mine = msgspec.structs.replace(me, hidden=tuple(items[:held]))
        chars = tuple(mine if c.id == me.id else c for c in view.characters)
        shown = msgspec.structs.replace(view, characters=chars)
        console = Console(width=38, record=True)
        console.print(RL.me_panel(shown))
        text = console.export_text()
        whole = "own survival scores nothing" in text or "enemy = you: +str of dead" in text
        assert whole, text
        assert "score now" in text, text


# ------------------------------------------------------------------ fifth play-test


@pytest.mark.parametrize("game", GAMES)
async def test_quit_typed_at_my_table_asks_first(game: str) -> None:
    """Play-test 5: 'quit' typed at a table ended the session at once while the table's clock
    ran. Now it asks, as Ctrl+C and Esc do: n stays at the table, y quits (the seat is kept)."""
    from shipwreck.tui.typed import QUIT_SEATED

    lobby = Lobby(seed=1)
    table = bot_table(lobby, game)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, SeatScreen)
        await pilot.press(*"quit", "enter")
        await wait_screen(pilot, Confirm)
        assert str(app.screen.query_one("#question").render()) == f"{QUIT_SEATED} y/n"
        await pilot.press("n")
        await wait_screen(pilot, SeatScreen)
        assert app.is_running
        await pilot.press(*"quit", "enter")
        await wait_screen(pilot, Confirm)
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
    assert table.seat_of_player("ann") == 0


async def test_quitting_a_local_game_says_it_ends_not_that_the_seat_is_kept() -> None:
    """Play-test 6: ``shipwreck play`` (no server keeps the game) asked "your seat at table 1
    is kept, and its clock runs on". A local app says the game ends with it, whether 'quit' is
    typed at the table or in the lobby, and Ctrl+Q at the table asks too (it ends the game);
    n changes nothing, Ctrl+Q again quits."""
    from shipwreck.tui.typed import QUIT_LOCAL

    lobby = Lobby(seed=1)
    table = bot_table(lobby, "lifeboat")
    app = ShipwreckApp(lobby, "ann", open_table=table.id, local=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, SeatScreen)
        for keys in (("q", "u", "i", "t", "enter"), ("ctrl+q",)):
            await pilot.press(*keys)
            await wait_screen(pilot, Confirm)
            assert str(app.screen.query_one("#question").render()) == f"{QUIT_LOCAL} y/n"
            assert "kept" not in QUIT_LOCAL and "{" not in QUIT_LOCAL  # (a stranger saw {which})
            await pilot.press("n")
            await wait_screen(pilot, SeatScreen)
            assert app.is_running
        await pilot.press("escape")
        await wait_screen(pilot, Confirm)
        await pilot.press("y")
        await wait_screen(pilot, LobbyScreen)
        await pilot.press(*"quit", "enter")
        await wait_screen(pilot, Confirm)
        assert str(app.screen.query_one("#question").render()) == f"{QUIT_LOCAL} y/n"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("game", "key"), [(g, k) for g in GAMES for k in ("f1", "f2", "f3", "f4")])
async def test_a_command_typed_over_a_reading_screen_is_not_lost(
    game: str, key: str, size: tuple[int, int]
) -> None:
    """Play-test 5: with F1-F4 open (help, rules, legend or fleet, cards), 'say two' and Enter
    vanished. Typing closes the page and the line runs at the table; the page's own keys
    (Escape, the arrows) still work, and the rules' g still shows the other game."""
    lobby = Lobby(seed=1)
    table = bot_table(lobby, game)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, SeatScreen)
        await pilot.press(key)
        await pilot.pause()
        if isinstance(app.screen, SeatScreen):
            return  # (no such page for this game: F4 is Lifeboat's cards)
        page = app.screen
        await pilot.press("down", "pagedown", "up")
        assert app.screen is page, "scrolling keeps the page open"
        await pilot.press(*"say two", "enter")
        await wait_screen(pilot, SeatScreen)
        await eventually(lambda: any(c.text == "two" for c in table.chat), what="the say")
        await pilot.press(key)
        await pilot.pause()
        await pilot.press("escape")
        await wait_screen(pilot, SeatScreen)
        assert command_line(app).value == ""

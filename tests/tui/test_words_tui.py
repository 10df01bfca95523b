"""The lobby's and the tables' words on the screens, driven with Textual's Pilot: what each
does, the errors (a caret under the word, wrapped, never cut), Tab completion, help, chat by
name, spectators' chat, and offers in the prompt panel."""

from __future__ import annotations

import pytest
from tui_helpers import error, screen_text, type_line
from tui_helpers import lobby_with_table as lifeboat

from shipwreck.games.lifeboat import commands as LC
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import CommandHelp, SeatScreen
from shipwreck.tui.learn import LegendScreen
from shipwreck.tui.lifeboat.screen import TableScreen
from shipwreck.tui.lobby.screen import LobbyHelpScreen, LobbyScreen
from shipwreck.tui.spanish_main.screen import SpanishMainScreen
from shipwreck.tui.widgets import CommandLine, EventLog

SIZES = [(80, 24), (120, 40)]
BOTS = ["survivor", "loyal", "predator", "hoarder", "random"]


# ------------------------------------------------------------------ the lobby


@pytest.mark.parametrize("size", SIZES)
async def test_lobby_help_lists_the_lobby_commands_with_examples(size: tuple[int, int]) -> None:
    """Problem 7: 'help' in the lobby is the lobby's help, and how to close it shows at once."""
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=size) as pilot:
        await type_line(pilot, "help")
        assert isinstance(app.screen, LobbyHelpScreen)
        shown = screen_text(app)
        assert "Escape closes · ↑ ↓ PgUp PgDn scroll" in shown  # without scrolling
        screen = app.screen
        listed = {e.usage.split()[0]: e.example for e in screen.sections()[0][1]}  # (lobby's)
        for word, example in [
            ("new", "new 4 free loyal"),
            ("join", "join 1"),
            ("watch", "watch 1"),
            ("open", "open 1"),
            ("say", "say hello all"),
            ("rules", "rules sm"),
            ("help", "help"),
            ("quit", "quit"),
        ]:
            assert listed[word] == example
            if size == (120, 40):  # all of it shows at once
                assert f"e.g. {example}" in shown, example
        assert "Lifeboat commands" not in shown
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)


async def test_lobby_help_gives_the_descriptions_the_width() -> None:
    """At 80 columns no lobby description wraps: the command column is as wide as its longest
    form, each form on its own line."""
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "help")
        screen = app.screen
        assert isinstance(screen, LobbyHelpScreen)
        shown = screen_text(app)
        assert "take a free seat at table ID (listed above)" in shown  # on one row
        assert "new sm [2-4] [BOT...]" in shown  # a form on a row of its own


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("hlep", "unknown lobby command 'hlep'; did you mean 'help'?"),
        (
            "zq",
            "unknown lobby command 'zq'; try: help, join, ladder, new, open, quit, rules, say,"
            " watch",
        ),
        ("new ²", "'²' is not a seat count: new 4, new 5 or new 6"),
        ("new sm ³", "'³' is not a seat count: new sm 2, new sm 3 or new sm 4"),
        ("join x", "join which table? a table's id, e.g. 'join 1'"),
        ("join 1 ²", "join 1 SEAT: a seat's number or id, e.g. 'join 1 2'"),
        ("watch 9", "there is no table 9; the list above shows the tables"),
        ("new 7", "Lifeboat is for 4 to 6 seats: new 4, new 5 or new 6"),
        ("new 4 ../bots/x.bot", "bot names are a-z, 0-9 and _ (up to 32), not files"),
    ],
)
async def test_lobby_errors(line: str, expected: str) -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, line)
        assert isinstance(app.screen, LobbyScreen)
        assert expected in " ".join(error(app).split()), error(app)
        assert "column" not in error(app)
        assert not lobby.tables


async def test_lobby_words_call_the_screens_that_have_them() -> None:
    """``rules`` and ``new tutorial`` open what the app provides, when it does."""
    app = ShipwreckApp(Lobby(seed=1), "ann")
    calls: list[tuple[str, str | None]] = []
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        screen.show_rules = lambda game: calls.append(("rules", game))  # type: ignore[attr-defined]
        screen.new_tutorial = lambda game: calls.append(("tutorial", game))  # type: ignore[attr-defined]
        await type_line(pilot, "rules sm")
        await type_line(pilot, "rules")
        await type_line(pilot, "new tutorial")
        assert calls == [("rules", "spanish_main"), ("rules", None), ("tutorial", "lifeboat")]
        assert error(app).strip() == ""


async def test_lobby_tab_completes_lobby_words() -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("w", "tab")
        assert app.screen.query_one("#command", CommandLine).value == "watch "


async def test_new_sm_and_join_work_as_before() -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, "new sm 3 sm_hauler")
        assert isinstance(app.screen, SpanishMainScreen)
        table = app.screen.table
        assert [(s.kind, s.bot) for s in table.seats[1:]] == [("bot", "sm_hauler")] * 2
    other = lobby.create_table("lifeboat", [SeatSpec("human"), *[SeatSpec("empty")] * 3], "cy")
    app = ShipwreckApp(lobby, "bob")
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, f"join {other.id} 3")
        assert isinstance(app.screen, TableScreen)
        assert other.seat_of_player("bob") == 2


# ------------------------------------------------------------------ errors on a table


async def test_a_long_error_wraps_and_the_caret_points_at_the_word() -> None:
    """The play-test's 'cut at the screen edge': an error longer than the screen wraps onto
    the rows it needs, and shows the whole reason."""
    lobby, table = lifeboat()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "rob captain")
        screen = app.screen
        assert isinstance(screen, TableScreen)
        text = error(app)
        assert text.startswith("incomplete command; expected 'hidden' or an item")  # (too long
        # for the line and a caret too: the reason alone)
        joined = " ".join(text.split())
        assert "incomplete command" in joined and "usage: rob X ITEM | rob X hidden" in joined
        assert screen.error_rows == 3
        assert "column" not in text
        on_screen = " ".join(screen_text(app).split())
        assert "usage: rob X ITEM | rob X hidden" in on_screen  # all of it, not cut
        await type_line(pilot, "rest")  # a command that reads clears it, and gives back rows
        assert screen.error_rows == 1


async def test_the_caret_is_under_the_word_at_80_columns() -> None:
    lobby, table = lifeboat()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "swap captian")
        shown, caret = error(app).split("\n")
        assert shown == "swap captian"
        assert caret == "     ^ unknown word 'captian'; did you mean 'swap captain'?"
        assert caret in screen_text(app)


async def test_unknown_first_word_suggests_table_words_and_commands() -> None:
    lobby, table = lifeboat()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, "hlep")
        assert "did you mean 'help'?" in error(app)
        await type_line(pilot, "lgend")
        assert "did you mean 'legend'?" in error(app)
        await type_line(pilot, "legend")
        assert isinstance(app.screen, LegendScreen)
        await pilot.press("escape")
        await type_line(pilot, "start with bots")
        assert "the table has already started" in error(app)


async def test_table_words_call_the_screens_that_have_them() -> None:
    lobby, table = lifeboat()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    calls: list[tuple[str, object]] = []
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        screen.show_rules = lambda game: calls.append(("rules", game))  # type: ignore[attr-defined]
        screen.show_legend = lambda: calls.append(("legend", None))  # type: ignore[attr-defined]
        screen.start_table = lambda bots: calls.append(("start", bots))  # type: ignore[attr-defined]
        for line in ("rules", "legend", "start", "start with bots"):
            await type_line(pilot, line)
        assert calls == [("rules", None), ("legend", None), ("start", False), ("start", True)]


@pytest.mark.parametrize("size", SIZES)
async def test_table_help_lists_the_game_and_the_table_words(size: tuple[int, int]) -> None:
    lobby, table = lifeboat()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await type_line(pilot, "help")
        assert isinstance(app.screen, CommandHelp)
        shown = screen_text(app)
        assert "Escape closes · ↑ ↓ PgUp PgDn scroll" in shown
        assert "Lifeboat commands" in shown
        titles = [title for title, _ in app.screen.sections()]
        assert titles == ["Lifeboat commands", "Table commands (any game)", "Keys"]
        words = [e.usage.split()[0] for e in app.screen.sections()[1][1]]
        for word in ("rules", "legend", "tell", "start", "takeover", "lobby", "leave", "quit"):
            assert word in words


# ------------------------------------------------------------------ chat


async def test_tell_by_name_or_seat_and_the_chat_names_people_the_same_way() -> None:
    """Problem 10: 'tell bob hi' works; so does the seat; the line reads 'ann (lauren) → bob
    (kid)'."""
    lobby, table = lifeboat(("ann", "bob"))
    ann_seat, bob_seat = table.seat_of_player("ann"), table.seat_of_player("bob")
    assert ann_seat is not None and bob_seat is not None
    ann_char, bob_char = table.seat_name(ann_seat), table.seat_name(bob_seat)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, "tell bob Zk1 by name")
        await type_line(pilot, f"whisper {bob_char} Zk2 by seat")
        await type_line(pilot, "tell nobody hi")
        assert "'nobody' is not at this table" in error(app)
        assert f"ann ({ann_char})" in error(app) and f"bob ({bob_char})" in error(app)
        await type_line(pilot, f"tell {ann_char} me")
        assert "that is your own seat" in error(app)
        whispers = [(c.to, c.to_player, c.text) for c in table.chat]
        assert whispers == [(bob_seat, "bob", "Zk1 by name"), (bob_seat, "bob", "Zk2 by seat")]
        await pilot.pause()
        chat = app.screen.query_one("#chat", EventLog)
        shown = "\n".join(line.plain for line in chat.texts)
        assert f"ann ({ann_char}) → bob ({bob_char}): Zk1 by name" in shown


async def test_tab_completes_tell_with_names_and_seats() -> None:
    lobby, table = lifeboat(("ann", "bob"))
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"tell bo", "tab")
        assert app.screen.query_one("#command", CommandLine).value == "tell bob "


async def test_spectators_talk_to_the_table_and_whisper_to_players() -> None:
    """Problem 10: a spectator's 'say' reaches the table (not 'spectators cannot play'); a
    spectator's whisper reaches its addressee only (F8); a spectator cannot play."""
    lobby, table = lifeboat(("ann", "bob"))
    ann_seat = table.seat_of_player("ann")
    assert ann_seat is not None
    app = ShipwreckApp(lobby, "carol")
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, f"watch {table.id}")
        screen = app.screen
        assert isinstance(screen, SeatScreen) and screen.seat is None
        await type_line(pilot, "say Zs1 hello table")
        await type_line(pilot, "chat Zs2 also")
        await type_line(pilot, "tell ann Zs3 psst")
        await type_line(pilot, "row")
        assert "you are watching this table" in error(app)
    said = [(c.sender, c.from_seat, c.to, c.text) for c in table.chat]
    assert said == [
        ("carol", None, None, "Zs1 hello table"),
        ("carol", None, None, "Zs2 also"),
        ("carol", None, ann_seat, "Zs3 psst"),
    ]
    assert [c.text for c in table.chat_for("bob")] == ["Zs1 hello table", "Zs2 also"]
    assert [c.text for c in table.chat_for("dave")] == ["Zs1 hello table", "Zs2 also"]
    assert "Zs3 psst" in [c.text for c in table.chat_for("ann")]


# ------------------------------------------------------------------ offers


def an_offer(table: Table, seat: int, to: str) -> LC.Offer:
    view = table.view(seat)
    offers = [c for c in view.free if isinstance(c, LC.Offer) and c.target == to]
    assert offers, "no offer is legal now"
    return offers[0]


def offers_open(table: Table, seat: int, to: str) -> bool:
    view = table.view(seat)
    return any(isinstance(c, LC.Offer) and c.target == to for c in view.free)


async def test_an_offer_waiting_shows_in_the_prompt_and_tab_keeps_the_line_whole() -> None:
    """The play-test: the offer showed only in the log, and Tab after 'offer ITEM to X '
    typed 'for', making the line incomplete."""
    lobby, table = lifeboat(("ann", "bob"), seed=5)
    ann, bob = table.seat_of_player("ann"), table.seat_of_player("bob")
    assert ann is not None and bob is not None
    ann_char, bob_char = table.seat_name(ann), table.seat_name(bob)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(300):  # past the supply, to where the two may trade
            if offers_open(table, bob, ann_char) and offers_open(table, ann, bob_char):
                break
            for seat in (ann, bob):
                view = table.view(seat)
                if view.choices:
                    assert table.submit(seat, view.choices[0]).ok
            await pilot.pause()
        offer = an_offer(table, bob, ann_char)
        assert table.submit(bob, offer).ok
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        prompt = " ".join(screen.panel_text("prompt").split())
        assert f"{table.seat_name(bob)} offers you {offer.item}" in prompt
        assert "'accept' or 'decline'" in prompt
        mine = an_offer(table, ann, table.seat_name(bob))
        line = f"offer {mine.item.split(':')[0]} to {mine.target} "
        await pilot.press(*line, "tab")
        command = screen.query_one("#command", CommandLine)
        assert command.value == line  # 'for' not typed
        assert "for" in error(app) and "Enter" in error(app)
        command.value = ""
        await pilot.press(*"accept ", "tab")  # a name leaves it whole: typed as before
        assert command.value == f"accept {bob_char} "

"""Fixes from the second stranger play-test (issue 16) that no other file covers."""

from __future__ import annotations

from pathlib import Path

import asyncssh
from tui_helpers import rows, seat_screen

from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp

from sshclient import loopback_config, needs_openssh, run_openssh, running

KEY = asyncssh.generate_private_key("ssh-ed25519")


async def test_a_spanish_main_table_waiting_for_its_players_has_no_turn_in_its_title() -> None:
    """Before 'start', the title said "red's turn" though nobody could move yet."""
    lobby = Lobby(seed=1)
    table = lobby.create_table(
        "spanish_main", [SeatSpec("human"), SeatSpec("empty")], "ann", gather=True
    )
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        title = rows(app)[0]
        assert not table.started
        assert "waiting" in title and "'s turn" not in title, title
        seat_screen(app).start_table(True)  # start with bots
        await pilot.pause()
        assert table.started
        title = rows(app)[0]
        assert "'s turn" in title and "waiting" not in title, title


def test_a_table_whose_host_walked_away_can_be_started_by_a_player_there() -> None:
    """The host made a table with free seats and dropped before 'start': a friend who sat
    down waited for ever. While the host is connected only they start it; once away, any
    player seated there may, and the waiting panel says so."""
    from shipwreck.tui.clock import waiting_panel

    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("empty"), SeatSpec("empty"), SeatSpec("empty")]
    table = lobby.create_table("lifeboat", seats, creator="bob", gather=True)
    table.set_connected("bob", True)
    assert table.sit(1, "cat") is None
    assert "bob starts this table" in (table.start("cat") or "")
    assert "bob starts the game when ready" in waiting_panel(table, "cat").plain
    table.set_connected("bob", False)
    panel = waiting_panel(table, "cat").plain
    assert "bob is away: type 'start'" in panel, panel
    assert table.start("eve") == "only a player at this table can start it"
    assert table.start("cat") is None and table.started


@needs_openssh
async def test_every_command_over_openssh_answers_even_with_no_input(tmp_path: Path) -> None:
    """``ssh host help`` (and any unknown command) with standard input at its end printed
    nothing, now and then: the client's EOF closed the channel before the answer went out.
    Each of them answers every time; ``help`` lists the commands and succeeds."""
    async with running(loopback_config(tmp_path)) as service:
        for _ in range(5):
            status, out, _err = await run_openssh(service.port, "ann", KEY, tmp_path, "help")
            assert status == 0 and "bot save NAME < FILE" in out, (status, out)
            status, out, _err = await run_openssh(service.port, "ann", KEY, tmp_path, "foo")
            assert status == 2 and "unknown command" in out and "'help'" in out, (status, out)


async def test_the_lobby_marks_my_tables_where_the_game_waits_for_me() -> None:
    """Back in the lobby, a player saw nothing of a game waiting for their decision. Their
    own rows now say 'your turn' (on their screen only), and stop once they have played: a
    move changes no lobby row, so the lobby tells the player whose turn came or went."""
    from tui_helpers import shown_rows

    from shipwreck.tui.lobby.screen import LobbyScreen

    lobby = Lobby(seed=1)
    bots = [SeatSpec("bot", b) for b in ("loyal", "survivor", "hoarder")]
    table = lobby.create_table("lifeboat", [SeatSpec("human"), *bots], "ann", seed=3)
    seat = table.seat_of_player("ann")
    assert seat is not None and "ann" in table.waiting_for_players()
    ann = ShipwreckApp(lobby, "ann")
    async with ann.run_test(size=(120, 40)) as pilot:
        ann.show_lobby()
        await pilot.pause()
        assert isinstance(ann.screen, LobbyScreen)
        mine = [r for r in shown_rows(ann) if r.lstrip().startswith(str(table.id))]
        assert mine and "your turn · ann" in mine[0], mine
        bob = ShipwreckApp(lobby, "bob")
        async with bob.run_test(size=(120, 40)) as bob_pilot:
            await bob_pilot.pause()
            assert not any("your turn" in r for r in shown_rows(bob))
        while "ann" in table.waiting_for_players():  # ann plays on (elsewhere) to the end
            assert table.submit(seat, table.rules.default(table.state, seat)).ok
        assert table.over
        assert table.id not in lobby._waits  # (a finished table keeps no entry there)
        await pilot.pause(0.6)  # (the lobby's repaints are paced: at most two a second)
        assert not any("your turn" in r for r in shown_rows(ann))


async def test_a_host_in_the_lobby_sees_that_their_waiting_table_waits_for_their_start() -> None:
    """Third play-test: alice made a table with free seats and went back to the lobby; bob
    joined and could not start it, and nothing told alice. Her row now says it waits for her."""
    from tui_helpers import shown_rows

    from shipwreck.tui.lobby.screen import LobbyScreen

    lobby = Lobby(seed=1)
    seats = [
        SeatSpec("human"),
        SeatSpec("empty"),
        SeatSpec("bot", "loyal"),
        SeatSpec("bot", "loyal"),
    ]
    table = lobby.create_table("lifeboat", seats, "alice", gather=True)
    alice = ShipwreckApp(lobby, "alice")
    async with alice.run_test(size=(120, 40)) as pilot:
        alice.show_lobby()
        await pilot.pause()
        assert isinstance(alice.screen, LobbyScreen)
        row = next(r for r in shown_rows(alice) if r.lstrip().startswith(str(table.id)))
        assert "waiting" in row and "your turn · alice" in row, row
        assert table.start("alice") is None
        await pilot.pause(0.6)  # (lobby repaints are paced)
        row = next(r for r in shown_rows(alice) if r.lstrip().startswith(str(table.id)))
        assert "waiting" not in row, row  # started (and now waiting for her first move, maybe)


def test_seat_names_are_reserved_for_new_players() -> None:
    """Third play-test: a player named ``mate`` (a Lifeboat seat) or ``red`` (a Spanish Main
    fleet) could not be told from the seat, and ``tell mate`` reached the seat's player."""
    from shipwreck.games import seat_names
    from shipwreck.lang.bots import shipped_names
    from shipwreck.names import reserved_player_name

    reserved = set(shipped_names()) | seat_names()
    for name in ("mate", "Kid", "red", "g0ld", "bot", "survivor"):
        assert reserved_player_name(name, reserved), name
    for name in ("ann", "matey", "redbeard"):
        assert not reserved_player_name(name, reserved), name

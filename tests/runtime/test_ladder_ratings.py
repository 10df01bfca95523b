"""The ladder's ratings: a live table's finished game rates its players and bots in the real
SQLite store, and a restart keeps them."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import asyncssh
import pytest

from shipwreck.arena.ratings import Rating
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.runtime.ladder import format_ladder, ladder, rated_seats
from shipwreck.runtime.table import Table
from shipwreck.store import Entrant, Store

from sshclient import connect, loopback_config, running


def _finish(table: Table, seat: int = 0, seed: int = 1) -> None:
    """Play the player's seat with random legal answers until the game ends (the bots play
    themselves: no schedule)."""
    pick = random.Random(seed)
    for _ in range(5000):
        if table.over:
            return
        choices = list(table.view(seat).choices)
        if choices:
            assert table.submit(seat, pick.choice(choices)).ok
    raise AssertionError("the game did not end")


def test_a_finished_game_rates_its_player_and_bots_and_a_restart_keeps_them(database: str) -> None:
    store = Store(database)
    lobby = Lobby(seed=5)
    lobby.attach_store(store)
    seats = [SeatSpec("human")] + [SeatSpec("bot", b) for b in ("loyal", "survivor", "hoarder")]
    table = lobby.create_table("lifeboat", seats, creator="ann")
    assert store.ratings.board("lifeboat") == []
    _finish(table)
    board = {r.entrant: r for r in store.ratings.board("lifeboat")}
    ann = Entrant("player", "ann")
    assert set(board) == {ann} | {Entrant("bot", b) for b in ("loyal", "survivor", "hoarder")}
    assert all(r.games == 1 and r.sigma < Rating().sigma for r in board.values())
    scores = table.rules.scores(table.state)
    best = max(scores, key=lambda s: scores[s])
    worst = min(scores, key=lambda s: scores[s])
    by_seat = [ann] + [Entrant("bot", b) for b in ("loyal", "survivor", "hoarder")]
    if scores[best] > scores[worst]:
        assert board[by_seat[best]].mu > board[by_seat[worst]].mu
    store.close()

    again = Store(database)  # a restart
    assert again.ratings.get("lifeboat", ann) == board[ann]
    assert [h.source for h in again.ratings.history("lifeboat", ann)] == [f"table {table.id}"]
    lobby2 = Lobby(seed=6)
    lobby2.attach_store(again)
    second = lobby2.create_table("lifeboat", seats, creator="ann")
    _finish(second, seed=2)
    assert again.ratings.get("lifeboat", ann).games == 2  # type: ignore[union-attr]


def test_a_game_with_nobody_else_rated_counts_for_nobody(database: str) -> None:
    """One player and free seats only: the stand-ins hold no rating, so the game is not rated;
    a game of bots alone (no player) is not either."""
    store = Store(database)
    lobby = Lobby(seed=5)
    lobby.attach_store(store)
    alone = lobby.create_table(
        "lifeboat", [SeatSpec("human")] + [SeatSpec("empty")] * 3, creator="ann"
    )
    _finish(alone)
    assert alone.over
    assert store.ratings.board("lifeboat") == []
    bots = lobby.create_table("lifeboat", [SeatSpec("bot", "loyal")] * 4)
    assert rated_seats(bots) == []
    mixed = lobby.create_table(
        "lifeboat",
        [SeatSpec("human"), SeatSpec("empty")] + [SeatSpec("bot", "loyal")] * 2,
        creator="bob",
    )
    assert [s for s, _ in rated_seats(mixed)] == [0, 2, 3]  # the free seat is left out


def test_the_ladder_lists_the_best_and_the_players_own_place(database: str) -> None:
    store = Store(database)
    lobby = Lobby(seed=5)
    lobby.attach_store(store)
    seats = [SeatSpec("human")] + [SeatSpec("bot", b) for b in ("loyal", "survivor", "hoarder")]
    _finish(lobby.create_table("lifeboat", seats, creator="ann"))
    best, mine = ladder(store.ratings, "lifeboat", "ann")
    assert [p.place for p in best] == [1, 2, 3, 4]
    assert [p.rating.ordinal for p in best] == sorted(
        (p.rating.ordinal for p in best), reverse=True
    )
    assert mine is not None and mine.entrant == Entrant("player", "ann")
    assert best[mine.place - 1].entrant == mine.entrant
    assert mine.change == pytest.approx(mine.rating.ordinal - Rating().ordinal)  # first game
    _finish(lobby.create_table("lifeboat", seats, creator="ann"), seed=3)
    best, mine = ladder(store.ratings, "lifeboat", "ann")
    assert mine is not None and mine.rating.games == 2
    history = store.ratings.history("lifeboat", mine.entrant)
    first = Rating(history[0].mu, history[0].sigma)
    assert mine.change == pytest.approx(mine.rating.ordinal - first.ordinal)

    lines = format_ladder("lifeboat", best, mine)
    assert lines[0].startswith("Lifeboat ladder")
    assert any(line.split()[1:3] == ["hoarder", "(bot)"] for line in lines)
    assert lines[-1].startswith(f"you are #{mine.place} (last game ")
    assert all(len(line) <= 78 for line in lines)  # fits an 80-column terminal

    top1, me = ladder(store.ratings, "lifeboat", "ann", top=1)
    shown = format_ladder("lifeboat", top1, me)
    assert me is not None and me.place > 1  # (so with these seeds)
    assert len(shown) == 5  # title, heading, the top one, her own line, her place
    assert shown[-2].split()[:2] == [str(me.place), "ann"]
    assert ladder(store.ratings, "lifeboat", "nobody")[1] is None
    assert format_ladder("spanish_main", *ladder(store.ratings, "spanish_main"))[1].startswith(
        "nobody is rated in Spanish Main yet"
    )


ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")


async def _ssh(port: int, command: str) -> tuple[int | None, str]:
    async with await connect(port, "ann", ANN_KEY) as conn:
        result = await asyncio.wait_for(conn.run(command), 10)
    return result.exit_status, str(result.stdout or "")


async def test_ssh_ladder_prints_the_ladder_and_a_server_restart_keeps_it(tmp_path: Path) -> None:
    """A real server: ann finishes a game at a table with bots; ``ssh host ladder`` shows her
    place; after the server stops and starts again on the same database, it still does."""
    config = loopback_config(tmp_path)
    async with running(config) as svc:
        seats = [SeatSpec("human")] + [SeatSpec("bot", b) for b in ("loyal", "hoarder", "random")]
        table = svc.lobby.create_table("lifeboat", seats, creator="ann", seed=4)
        pick = random.Random(4)
        async with asyncio.timeout(60):  # the server's bots move on its event loop's turns
            while not table.over:
                choices = list(table.view(0).choices)
                if choices:
                    assert table.submit(0, pick.choice(choices)).ok
                await asyncio.sleep(0.005)
        status, before = await _ssh(svc.port, "ladder")
        assert status == 0
    rows = before.splitlines()
    assert rows[0].startswith("Lifeboat ladder")
    assert any(r.split()[1:2] == ["ann"] for r in rows)
    assert rows[-1].startswith("you are #")

    config.server.port = 0
    async with running(config) as again:  # a restart, the same database file
        status, after = await _ssh(again.port, "ladder lifeboat")
        assert status == 0
        assert after == before
        status, sm = await _ssh(again.port, "ladder sm")
        assert (
            status == 0
            and "Spanish Main ladder" in sm
            and "nobody is rated in Spanish Main yet" in sm
        )
        status, bad = await _ssh(again.port, "ladder chess")
        assert (
            status == 2 and bad == "shipwreck: ladder GAME: GAME is lifeboat or sm (Spanish Main)\n"
        )
        status, listed = await _ssh(again.port, "help")
        assert "ladder [GAME]" in listed

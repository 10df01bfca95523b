"""The lobby's ``ladder [GAME]`` screen, driven with Textual's Pilot at 80×24 and 120×40 over
a real SQLite store: the ratings table (place, who, rating, μ ± σ, games), the player's own
place and last change, ``g`` for the other game, Escape back to the lobby, and the errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from tui_helpers import error, rated_lobby, screen_text, type_line

from shipwreck.arena.ratings import Rating
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.runtime.ladder import Place, ladder
from shipwreck.store import Entrant, Store
from shipwreck.store.ratings import RatingRow
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.ladder_screen import LadderScreen, ladder_table
from shipwreck.tui.lifeboat.screen import TableScreen
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.spanish_main.screen import SpanishMainScreen

SIZES = [(80, 24), (120, 40)]


def box_lines(app: ShipwreckApp) -> list[str]:
    """The rows inside the ladder's box (between its side borders), as the terminal shows
    them."""
    lines = screen_text(app).splitlines()
    return [line.split("█")[1] for line in lines if line.count("█") >= 2]


@pytest.mark.parametrize("size", SIZES)
async def test_ladder_shows_the_ratings_best_first_and_your_place(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    lobby = rated_lobby(tmp_path)
    assert lobby.store is not None
    best, mine = ladder(lobby.store.ratings, "lifeboat", "ann")
    assert mine is not None
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=size) as pilot:
        await type_line(pilot, "ladder")
        assert isinstance(app.screen, LadderScreen)
        lines = box_lines(app)
        text = "\n".join(lines)
        assert "Lifeboat ladder — Escape: back · g: Spanish Main" in text
        header = next(line for line in lines if " who " in line)
        assert header.split() == [
            "#",
            "who",
            "rating",
            "μ",
            "±",
            "σ",
            "games",
        ]
        # Every place is on screen, in the store's order, with its numbers.
        at = [
            next(i for i, line in enumerate(lines) if f" {p.entrant.name[:12]}" in line)
            for p in best
        ]
        assert at == sorted(at), "the places are not in the ladder's order"
        for p, i in zip(best, at, strict=True):
            cells = lines[i].split()
            assert cells[cells.index(str(p.place)) + 1].startswith(p.entrant.name[:12])
            assert f"{p.rating.ordinal:.1f}" in lines[i]
            assert p.rating.shown() in lines[i]
            assert lines[i].rstrip().endswith(f" {p.rating.games}")
        assert "hoarder (bot)" in text
        assert f"you are #{mine.place}, {mine.change:+.1f} in your last game" in text
        assert "rating = μ − 3σ" in text
        await pilot.press("g")
        await pilot.pause()
        text = screen_text(app)
        assert "Spanish Main ladder — Escape: back · g: Lifeboat" in text
        assert "nobody is rated in Spanish Main yet" in text
        assert "hoarder" not in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)


async def test_ladder_sm_and_a_word_that_is_no_game(tmp_path: Path) -> None:
    app = ShipwreckApp(rated_lobby(tmp_path), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "ladder sm")
        assert isinstance(app.screen, LadderScreen) and app.screen.game == "spanish_main"
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        await type_line(pilot, "ladder chess")
        assert isinstance(app.screen, LobbyScreen)  # nothing opened, one line says why
        said = error(app)
        line, why = said.strip("\n").split("\n")  # the line typed, a caret under the word
        assert line.strip() == "ladder chess"
        assert why.strip().startswith("^ unknown word 'chess'; expected a game (lifeboat, sm)")
        assert why.index("^") == line.index("chess")
        assert why.endswith("usage: ladder [GAME]")


async def test_a_lobby_without_a_server_store_says_there_is_no_ladder() -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "ladder")
        assert isinstance(app.screen, LadderScreen)
        assert "no ladder here: ratings are kept by a Shipwreck server" in screen_text(app)


async def test_a_newcomer_reads_that_they_have_no_rating_yet(tmp_path: Path) -> None:
    app = ShipwreckApp(rated_lobby(tmp_path), "erin")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "ladder lifeboat")
        text = screen_text(app)
        assert "you have no Lifeboat rating yet: finish a game with another player" in text
        assert "you are #" not in text


def test_your_place_below_the_top_comes_last_after_a_gap() -> None:
    best = [
        Place(1, Entrant("bot", "hoarder"), Rating(31, 2.5, 40)),
        Place(2, Entrant("player", "bob"), Rating(27.5, 4, 12)),
    ]
    mine = Place(9, Entrant("player", "ann"), Rating(20, 6, 2), 1.5)
    console = Console(width=78, record=True)
    console.print(ladder_table(best, mine))
    rows = [r for r in console.export_text().splitlines() if r.strip()]
    assert rows[-2].split()[0] == "…"
    assert rows[-1].split()[:2] == ["9", "ann"]
    assert rows[-3].split()[:2] == ["2", "bob"]
    console = Console(width=78, record=True)
    console.print(ladder_table([*best, mine], mine))  # within the top: listed once, no gap
    shown = console.export_text()
    assert "…" not in shown and shown.count(" ann ") == 1


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_ladder(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    app = ShipwreckApp(rated_lobby(tmp_path), "ann", "SHA256:ladder")
    assert snap_compare(app, terminal_size=size, press=[*"ladder", "enter"])


# ------------------------------------------------------------------ ratings in the seat lists


@pytest.mark.parametrize("size", SIZES)
async def test_lifeboat_seats_line_shows_the_ratings_of_those_who_have_one(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """ann and hoarder are rated in Lifeboat, survivor is not: the seats line says
    ``ann (rated 8)`` and ``bot hoarder (rated 24)`` where it has room (120×40), and keeps to
    its one row at 80×24 (the shorter forms there leave the ratings out)."""
    lobby = rated_lobby(tmp_path)
    seats = [SeatSpec("human"), SeatSpec("bot", "hoarder"), SeatSpec("bot", "survivor")]
    seats += [SeatSpec("bot", "hoarder")]
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=3)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        line = screen.panel_text("seats")
        ann = round(Rating(25.5, 6.0).ordinal)
        hoarder = round(Rating(31.0, 2.5).ordinal)
        if size == (120, 40):
            assert f"ann (rated {ann})" in line
            assert line.count(f"bot hoarder (rated {hoarder})") == 2
            assert "bot survivor" in line and "survivor (rated" not in line
        else:
            assert "\n" not in line and len(line) <= size[0] - 2
            assert "survivor (rated" not in line
        assert "(rated" not in line.split("survivor")[1].split(":")[0]  # none for survivor


@pytest.mark.parametrize("size", SIZES)
async def test_spanish_main_seats_show_the_ratings(tmp_path: Path, size: tuple[int, int]) -> None:
    lobby = rated_lobby(tmp_path)
    assert lobby.store is not None
    hauler = RatingRow("spanish_main", Entrant("bot", "sm_hauler"), 30.0, 3.0, 20)
    lobby.store.ratings.record("spanish_main", [hauler], "test")
    seats = [SeatSpec("human"), SeatSpec("bot", "sm_hauler"), SeatSpec("bot", "sm_raider")]
    table = lobby.create_table("spanish_main", seats, creator="ann", seed=3)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SpanishMainScreen)
        lines = screen_text(app).splitlines()
        head = next(line for line in lines if " seat  player " in line)
        cols = head[head.index(" seat ") :].split()
        assert cols == ["seat", "player", "rated", "gold", "afloat"]
        rows = {
            line[head.index(" seat ") :].split()[0]: line[head.index(" seat ") :]
            for line in lines[lines.index(head) + 1 : lines.index(head) + 4]
        }
        assert set(rows) == {"red", "blue", "green"}
        at = head.index(" rated") - head.index(" seat ")
        rated = {seat: row[at : at + 6].strip() for seat, row in rows.items()}
        assert rated == {"red": "", "blue": "21", "green": ""}  # ann: no Spanish Main rating
        assert "sm_haul" in rows["blue"] and "sm_raid" in rows["green"]
    # Nobody rated at the table: no column.
    plain = Lobby(seed=1)
    table = plain.create_table("spanish_main", seats, creator="ann", seed=3)
    app = ShipwreckApp(plain, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        head = next(line for line in screen_text(app).splitlines() if " seat  player " in line)
        assert head[head.index(" seat ") :].split() == ["seat", "player", "gold", "afloat"]


def test_a_seat_rating_is_read_once_a_while_and_a_new_one_at_once(tmp_path: Path) -> None:
    """The seat lists read ratings at every repaint: :meth:`RatingStore.recent` keeps what it
    read for a while, shows this process's new ratings at once, and another process's (another
    worker on the same database) once the kept one is older than ``KEEP_SECONDS``."""
    path = str(tmp_path / "r.db")
    now = [0.0]
    here, there = Store(path), Store(path)
    here.ratings.clock = lambda: now[0]
    bob = Entrant("player", "bob")
    assert here.ratings.recent("lifeboat", bob) is None
    there.ratings.record("lifeboat", [RatingRow("lifeboat", bob, 30.0, 3.0, 5)], "table 1")
    assert here.ratings.recent("lifeboat", bob) is None  # kept: not read again yet
    now[0] = here.ratings.KEEP_SECONDS + 1
    row = here.ratings.recent("lifeboat", bob)
    assert row is not None and row.mu == 30.0
    there.ratings.record("lifeboat", [RatingRow("lifeboat", bob, 31.0, 3.0, 6)], "table 2")
    assert here.ratings.recent("lifeboat", bob) == row  # still the kept one
    here.ratings.record("lifeboat", [RatingRow("lifeboat", bob, 32.0, 2.9, 7)], "table 3")
    kept = here.ratings.recent("lifeboat", bob)
    assert kept is not None and kept.mu == 32.0 and kept.games == 7  # its own: at once

"""The end screens (issue 16, section 1): my row marked, my placing ("2nd of 6", ties shared),
every hidden item, friend and enemy revealed by name, each score as a bar of its parts; at
80×24 (scrolling) and 120×40, for both games."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest
from sea_helpers import ok, sm_view
from textual.containers import VerticalScroll
from tui_helpers import lobby_with_table, plain, play_my_seat_to_end, play_to_end

from shipwreck.games.lifeboat import explain
from shipwreck.games.lifeboat.view import LifeboatView
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import EndOfGame
from shipwreck.tui.lifeboat.render import END_PARTS, final
from shipwreck.tui.spanish_main.screen import SeaEndScreen
from shipwreck.tui.standings import ordinal, placing, rank


def test_placing_shares_ties() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
    ]  # fmt: skip
    scores = [25, 19, 19, 12, 9, 9]
    assert [rank(scores, s) for s in scores] == [1, 2, 2, 4, 5, 5]
    assert placing(scores, 25) == "1st of 6"
    assert placing(scores, 19) == "tied 2nd of 6"
    assert placing(scores, 12) == "4th of 6"
    assert placing([(3, 10), (3, 8)], (3, 8)) == "2nd of 2"  # Spanish Main: gold, then points


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_lifeboat_end_screen_tells_me_everything(size: tuple[int, int]) -> None:
    """LB-61..LB-64 and rules §5 (at the end everything is revealed)."""
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await play_my_seat_to_end(pilot, app, table)
        screen = app.screen
        assert isinstance(screen, EndOfGame)
        view = screen.view
        assert isinstance(view, LifeboatView) and view.scores and view.score_parts
        hint = screen.query_one(".hint")
        assert hint.region.y >= 0 and hint.region.bottom <= size[1], "the hint is off screen"
        if size == (80, 24):
            assert screen.query_one(VerticalScroll).max_scroll_y > 0  # it scrolls to the rest
        text = plain(screen.result())
        scores = list(view.scores.values())
        mine = view.scores[view.me or ""]
        assert f"you came {placing(scores, mine)} with {mine} points" in text
        mark = [line for line in text.splitlines() if line.startswith("▸")]
        assert len(mark) == 1 and "(you)" in mark[0]
        assert explain.name(view.me or "") in mark[0]
        flat = " ".join(text.split())  # (long lines wrap)
        for c in view.characters:
            held = ", ".join(list(c.hidden or ()) + list(c.revealed)) or "nothing"
            assert c.friend and c.enemy
            friend, enemy = (  # by name; LB-62, LB-63: "self"
                "self" if x == c.id else explain.name(x) for x in (c.friend, c.enemy)
            )
            assert f"friend {friend}, enemy {enemy} · held: {held}" in flat
            row = next(
                r for r in text.splitlines()
                if re.match(rf"^(▸ |  )\s*\d+(st|nd|rd|th)\s+{explain.name(c.id)}\b", r)
            )  # fmt: skip
            for part, value in view.score_parts[c.id].items():  # its bar: a glyph per part
                assert (END_PARTS[part].glyph in row) == (value > 0), f"{c.id}'s {part}"


def test_the_lifeboat_bar_is_its_parts_in_proportion() -> None:
    lobby, table = lobby_with_table()
    view = table.view(0)
    parts = {"treasure": 10, "survival": 5, "friend": 5, "enemy": 0}
    chars = tuple(c for c in view.characters)
    over = msgspec.structs.replace(
        view,
        phase="over",
        scores={c.id: 20 if i == 0 else 10 for i, c in enumerate(chars)},
        score_parts={c.id: parts if i == 0 else {"treasure": 10} for i, c in enumerate(chars)},
        winners=(chars[0].id,),
    )
    text = plain(final(over, 76), 76)  # (76 columns: a bar of 36 cells after the names)
    top = next(line for line in text.splitlines() if re.match(r"^(▸ |  )\s*1st", line))
    bar = top.split()[-1]
    assert bar == "█" * 18 + "▓" * 9 + "▒" * 9  # 36 cells for 20 points: 10, 5, 5


async def test_the_spanish_main_end_screen_marks_me_and_my_placing() -> None:
    """SM-40, SM-41: gold at home ranks, ships' points break ties."""
    lobby = Lobby(seed=1)
    table = lobby.create_table("spanish_main", [SeatSpec("human"), SeatSpec("empty")], "ann", 5)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(300):
            if table.over:
                break
            ok(table, 0, sm_view(table, 0).choices[-1])
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SeaEndScreen)
        view = screen.view
        text = plain(screen.result())
        ships = [sum(s.points for s in view.ships if s.owner == i) for i in range(2)]
        standing = [(view.gold[i], ships[i]) for i in range(2)]
        assert f"you came {placing(standing, standing[0])}" in text
        mark = [line for line in text.splitlines() if line.startswith("▸")]
        assert len(mark) == 1 and "(you)" in mark[0] and view.seats[0] in mark[0]
        assert f"of the {view.gold_in_play // 2 + 1} that wins" in text  # (SM-40: still in play)


def snapshot_end(snap_compare: Any, size: tuple[int, int]) -> bool:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)

    async def run_before(pilot: Any) -> None:
        seat = app.screen.seat
        assert seat is not None
        await play_to_end(pilot, table, seat)

    return bool(snap_compare(app, terminal_size=size, run_before=run_before))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_lifeboat_end(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snapshot_end(snap_compare, size)

"""Fixes from a stranger's play-test at 80x24 (issue 16): the clocks in the title bar (every
seat and spectator sees whom the table waits for, and for how long), a title that fits, the
Spanish Main fleet list that leaves no ship out, errors shown whole under the choices, help
rows that keep a command with its words, and Tab offering only words that apply."""

from __future__ import annotations

import random
from typing import Any

import pytest
from textual.pilot import Pilot

from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import SeatScreen

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


def rows(app: ShipwreckApp) -> list[str]:
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


def seat_screen(app: ShipwreckApp) -> SeatScreen:
    assert isinstance(app.screen, SeatScreen), app.screen
    return app.screen


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
        assert title.startswith(f" ⏱ {left} s to decide · time ran out: the table played "), title
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

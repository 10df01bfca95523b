"""Tutorial tables: `new tutorial [sm]` and `shipwreck play --tutorial [sm]`.

The Pilot tests play each tutorial to the end by typing only what the coach's panel asks (read
from the screen, never from the script); a wrong command gets a coach hint and changes nothing;
another legal command is taken and the game goes on; a tutorial has no timers, no autopilot, and
is not one of the player's open tables.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import asked, follow_the_coach, open_tutorial, type_line

from shipwreck.cli import build_parser, main
from shipwreck.runtime import Lobby, SeatSpec, TableCreateError
from shipwreck.runtime.tutorial import load_script, start
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.tutorial import LifeboatTutorialScreen, SeaTutorialScreen

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES)
async def test_the_lifeboat_tutorial_plays_to_land_typing_only_what_the_coach_asks(
    size: tuple[int, int],
) -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=size) as pilot:
        table = await open_tutorial(pilot, "tutorial")
        screen = app.screen
        assert isinstance(screen, LifeboatTutorialScreen)
        assert "Welcome" in screen.panel_text("coach")
        typed = await follow_the_coach(pilot, table)
        # a supply pick, rowing, a fight with an ally, thirst, and a seagull to land
        assert typed == [
            "take water", "row", "keep 29", "join defender", "done", "drink",
            "take jewels", "row", "keep 25",
        ]  # fmt: skip
        view = table.view(0)
        assert view.birds == 4  # LB-41: the fourth seagull is land
        assert view.scores is not None and view.scores["lauren"] == 25
        await pilot.pause()
        await pilot.press("enter")  # the end screen
        await pilot.pause()
        assert app.screen is screen
        coach = screen.panel_text("coach")
        assert "Land! You scored 25" in coach and "survival 8" in coach


@pytest.mark.parametrize("size", SIZES)
async def test_the_spanish_main_tutorial_brings_the_gold_home_typing_only_what_the_coach_asks(
    size: tuple[int, int],
) -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=size) as pilot:
        table = await open_tutorial(pilot, "tutorial sm")
        assert isinstance(app.screen, SeaTutorialScreen)
        typed = await follow_the_coach(pilot, table)
        # a move of two legs, a volley, explore and load, come about, sailing home (SM-12..SM-30)
        assert typed[0] == "move windjammer S -30 L -30"
        for needed in ("shoot dover at titan", "explore windjammer", "load windjammer 1 2"):
            assert needed in typed
        assert typed[-1] == "move windjammer dock isla-1"
        view = table.view(0)
        assert view.over and view.gold == (11, 0)  # SM-15 unload, SM-40 more than half
        log = [e.text for e in table.log(None)]
        assert "windjammer docks at isla-3" in log


async def test_a_wrong_command_gets_a_coach_hint_and_changes_nothing() -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_tutorial(pilot, "tutorial")
        screen: Any = app.screen
        first = screen.panel_text("coach")
        view, commands, log = table.view(0), list(table.commands), len(table.events)
        for wrong in ("take rum", "row", "keep 29"):  # unknown; not now; not yours yet
            await type_line(pilot, wrong)
            assert table.view(0) == view and table.commands == commands
            assert len(table.events) == log
            assert screen.panel_text("error")
            coach = screen.panel_text("coach")
            assert "Not quite; nothing changed" in coach
            assert asked(screen) == "take water"  # the step is not lost
        assert first != coach
        await type_line(pilot, "take water")
        assert table.commands[len(commands)][1] == "take water"
        assert "Good." in screen.panel_text("coach")


async def test_another_legal_command_is_taken_and_the_coach_adapts_to_the_end() -> None:
    """Off the script the bots play safe defaults and the coach hints with legal commands:
    the tutorial never dead-ends."""
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        table = await open_tutorial(pilot, "tutorial")
        await type_line(pilot, "take cash")  # not what the coach asked: taken all the same
        assert (0, "take cash") in table.commands
        assert "water would have saved a wound" in app.screen.panel_text("coach")  # type: ignore[attr-defined]
        await type_line(pilot, "rest")
        typed = await follow_the_coach(pilot, table)
        assert table.over and typed


def test_a_step_taken_out_of_order_keeps_the_others() -> None:
    """Shooting before moving: the coach counts the shot and still teaches the two-leg move."""
    table = start("sm", "ann")
    assert table.coach_line().command == "move windjammer S -30 L -30"
    assert table.submit_text(0, "shoot dover at titan").ok
    line = table.coach_line()
    assert line.note == "Good." and line.command == "move windjammer S -30 L -30"
    assert table.submit_text(0, line.command).ok
    assert table.coach_line().command == "end turn"


def test_a_keep_worse_than_the_coach_asked_is_not_praised() -> None:
    """LB-20, LB-40 (the stranger's play-test): asked to keep #25 (a seagull: land), the
    player keeps #22 (everyone overboard and thirsty). The coach says what it may cost and
    what was better, judged from the player's own view, not "that works too"; and the line
    still fits the coach's panel at 80 columns."""
    from rich.console import Console

    from shipwreck.tui.tutorial import CoachPanel, coach_text

    table = start("lifeboat", "ann")
    for _ in range(100):
        line = table.coach_line()
        assert line.command is not None
        if line.command == "keep 25":
            break
        assert table.submit_text(0, line.command).ok
    else:
        raise AssertionError("the coach never asked for 'keep 25'")
    assert table.submit_text(0, "keep 22").ok
    line = table.coach_line()
    assert line.note == (
        "Risky: #22 overboard ALL, thirsty ALL, fight."
        " 'keep 25' was better: its seagull would bring the boat to land now."
    )
    rows = Console(width=78).render_lines(coach_text(line), pad=False)
    assert len(rows) <= CoachPanel.COACH_ROWS, line


def test_off_the_script_the_coach_still_brings_the_game_to_its_end() -> None:
    """A player who keeps nothing, rests and never joins: the bots' lines no longer fit (they
    play safe defaults), the coach hints with legal commands, and the boat still lands."""
    table = start("lifeboat", "ann")
    for _ in range(200):
        if table.over:
            break
        command = table.coach_line().command
        assert command is not None
        view = table.view(0)
        off = {"take water": "take cash", "row": "rest", "join defender": "done"}
        typed = off.get(command, command)
        assert table.submit_text(0, typed).ok, (typed, view.step)
    assert table.over


def test_a_tutorial_is_the_same_game_every_time() -> None:
    games = []
    for _ in range(2):
        table = start("lifeboat", "ann")
        while not table.over:
            command = table.coach_line().command
            assert command is not None
            assert table.submit_text(0, command).ok
        games.append((table.commands, [e.text for e in table.events]))
    assert games[0] == games[1]


def test_a_tutorial_has_no_timers_and_waits_for_its_player() -> None:
    now = [0.0]
    lobby = Lobby(seed=1, timers={"supply": 5, "turn": 5}, clock=lambda: now[0])
    table = lobby.create_tutorial("lifeboat", "ann")
    assert table.deadline(0) is None
    now[0] += 1000
    assert lobby.tick() == 0 and table.commands == []
    table.set_connected("ann", False)  # gone: no autopilot plays the tutorial
    assert not table.seats[0].autopilot and table.commands == []
    table.set_connected("ann", True)
    assert table.submit_text(0, "take water").ok


def test_a_tutorial_is_not_one_of_the_players_open_tables() -> None:
    lobby = Lobby(seed=1, open_tables_per_player=1)
    lobby.create_table("lifeboat", [SeatSpec("human")] + [SeatSpec("bot")] * 3, creator="ann")
    with pytest.raises(TableCreateError, match="unfinished tables"):
        lobby.create_table("lifeboat", [SeatSpec("human")] + [SeatSpec("bot")] * 3, creator="ann")
    first = lobby.create_tutorial("lifeboat", "ann")  # allowed all the same
    second = lobby.create_tutorial("sm", "ann")  # one tutorial a player: it replaces the first
    assert lobby.get(first.id) is None and lobby.get(second.id) is second
    assert second.game == "spanish_main"


def test_new_tutorials_count_in_the_new_tables_a_minute() -> None:
    """Security audit F7: each tutorial builds a table (and a screen), so typing 'new tutorial'
    again and again is rate-limited like 'new'; the one a player has is left as it is."""
    now = [0.0]
    lobby = Lobby(seed=1, new_tables_per_minute=3, clock=lambda: now[0])
    made = [lobby.create_tutorial("lifeboat", "ann") for _ in range(3)]
    with pytest.raises(TableCreateError, match="at most 3 new tables a minute"):
        lobby.create_tutorial("lifeboat", "ann")
    assert lobby.get(made[-1].id) is made[-1]  # the refusal replaced nothing
    now[0] = 61.0
    assert lobby.create_tutorial("lifeboat", "ann").id != made[-1].id


def test_an_unknown_tutorial_is_one_clear_line() -> None:
    lobby = Lobby(seed=1)
    with pytest.raises(TableCreateError, match=r"there is no tutorial 'chess'; try: lifeboat, sm"):
        lobby.create_tutorial("chess", "ann")
    with pytest.raises(TableCreateError, match="no tutorial"):
        lobby.create_tutorial("../../etc/passwd", "ann")  # a word, never a path


async def test_new_tutorial_with_an_unknown_game_says_so_in_the_lobby() -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new tutorial chess")
        assert "there is no tutorial 'chess'" in app.screen.panel_text("error")  # type: ignore[attr-defined]
        assert not app.lobby.tables


async def test_a_spectator_sees_no_coach_reading_the_players_hand() -> None:
    """The lobby refuses to let bob watch ann's tutorial (test_tutorial_private); a screen
    that shows it to someone else all the same (opened directly) reads no coach line."""
    lobby = Lobby(seed=1)
    table = lobby.create_tutorial("lifeboat", "ann")
    app = ShipwreckApp(lobby, "bob", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        coach = app.screen.panel_text("coach")  # type: ignore[attr-defined]
        assert "watching someone's tutorial" in coach and "take water" not in coach


def test_play_tutorial_flag() -> None:
    parser = build_parser()
    assert parser.parse_args(["play", "--tutorial"]).tutorial == "lifeboat"
    assert parser.parse_args(["play", "--tutorial", "sm"]).tutorial == "sm"
    assert parser.parse_args(["play"]).tutorial is None


def test_play_with_an_unknown_tutorial_fails_with_one_line(capsys: Any) -> None:
    assert main(["play", "--tutorial", "chess", "--name", "ann"]) == 2
    assert "there is no tutorial 'chess'" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["lifeboat", "sm"])
def test_every_step_asks_for_a_command_of_its_game(name: str) -> None:
    """The script's data: every step names a decision and a command that parses."""
    from shipwreck.lang import parse_command

    script = load_script(name)
    assert script.steps
    for step in script.steps:
        parse_command(script.game, step.type)
        assert step.kind in script.hints, f"no hint for {step.kind!r} decisions"


@pytest.mark.parametrize("name", ["lifeboat", "sm"])
def test_every_coach_line_fits_its_panel_at_80_columns(name: str) -> None:
    """The panel has three rows; at 80 columns a line with the longest note must fit."""
    from rich.console import Console

    from shipwreck.runtime.coach import CoachLine
    from shipwreck.tui.tutorial import CoachPanel, coach_text

    script = load_script(name)
    w = script.coach
    notes = [w.good, w.other, w.wrong, w.free] + [s.other for s in script.steps]
    note = max(notes, key=len)
    lines = [CoachLine(s.say, s.type, note) for s in script.steps]
    lines += [CoachLine(h.say, max(h.commands(), key=len), note) for h in script.hints.values()]
    lines.append(CoachLine(w.finish.format(score=25, parts="treasure 8 + survival 8 + friend 9")))
    console = Console(width=78)  # 80 columns less the panel's padding
    for line in lines:
        rows = console.render_lines(coach_text(line), pad=False)
        assert len(rows) <= CoachPanel.COACH_ROWS, f"too long at 80 columns: {line}"


# ------------------------------------------------------------------ snapshots


def snapshot_tutorial(snap_compare: Any, word: str, size: tuple[int, int], steps: int) -> bool:
    app = ShipwreckApp(Lobby(seed=1), "ann", "SHA256:tutorial")

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_tutorial(pilot, word)
        for _ in range(steps):
            command = asked(app.screen)
            assert command
            await type_line(pilot, command)

    return bool(snap_compare(app, terminal_size=size, run_before=run_before))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_snapshot_lifeboat_tutorial_first_screen(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snapshot_tutorial(snap_compare, "tutorial", size, 0)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_snapshot_lifeboat_tutorial_fight(snap_compare: Any, size: tuple[int, int]) -> None:
    """Mid-tutorial: the fight with an ally (after take, row, keep)."""
    assert snapshot_tutorial(snap_compare, "tutorial", size, 3)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_snapshot_sea_tutorial_first_screen(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snapshot_tutorial(snap_compare, "tutorial sm", size, 0)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_snapshot_sea_tutorial_explore(snap_compare: Any, size: tuple[int, int]) -> None:
    """Mid-tutorial: docked at a wild island, about to explore (after move, shoot, end turn)."""
    assert snapshot_tutorial(snap_compare, "tutorial sm", size, 3)

"""The tutorial coach's keep advice weighs the player's friend, from the player's own view.

Fifth stranger play-test: off the script, the coach asked for the first legal keep, `keep none`,
while keeping a card would have saved the Kid, the player's friend. The position below is the
tutorial's own, played as that stranger did (resting in round 1 instead of rowing).
"""

from __future__ import annotations

import msgspec
from tui_helpers import asked, open_tutorial, type_line

from shipwreck.games.lifeboat.advice import best_keep
from shipwreck.lang import format_command
from shipwreck.runtime import Lobby
from shipwreck.runtime.tutorial import TutorialTable, load_script, start
from shipwreck.tui import ShipwreckApp

OFF_SCRIPT = ["take water", "rest", "join defender", "done", "drink", "take jewels", "row"]
"""The tutorial as the stranger played it: a rest in round 1, so round 2's row draws #31 and
#25 with an empty table, and 'keep none' leaves the Kid (the navigator) the deck's #22."""


def at_the_keep(table: TutorialTable) -> TutorialTable:
    for command in OFF_SCRIPT:
        assert table.submit_text(0, command).ok, command
    view = table.view(0)
    assert view.drawn == (31, 25) and view.navigation_table == ()
    return table


def states(table: TutorialTable) -> dict[str, str]:
    return {c.id: c.state for c in table.view(0).characters}


def test_the_coach_keeps_the_card_that_saves_your_friend_where_keep_none_did_not() -> None:
    """LB-20, LB-41, LB-61: the old advice (the first legal keep) let the friend faint; the new
    one brings the boat to land with the friend alive, worth his bonus to the player."""
    table = at_the_keep(start("lifeboat", "ann"))
    assert format_command(table.view(0).choices[0]) == "keep none"  # what the coach used to ask
    line = table.coach_line()
    assert line.command == "keep 25"
    assert "land" in line.text

    old = at_the_keep(start("lifeboat", "ann"))
    assert old.submit_text(0, "keep none").ok
    assert states(old)["kid"] == "unconscious"  # #22: overboard and thirsty, the Kid faints

    assert table.submit_text(0, line.command).ok
    view = table.view(0)
    assert table.over and view.birds == 4
    assert states(table)["kid"] == "ok"
    assert view.score_parts is not None and view.score_parts["lauren"]["friend"] == 9


def test_the_advice_reads_only_the_players_own_view() -> None:
    """Others' friends and enemies (hidden, as their items are) change nothing the coach says:
    it never sees them (the hidden-information contract)."""
    script = load_script("lifeboat")
    position = msgspec.to_builtins(script.position)
    position["characters"]["captain"]["friend"] = "lauren"
    position["characters"]["mate"]["enemy"] = "lauren"
    position["characters"]["kid"]["friend"] = "kid"
    other = msgspec.structs.replace(script, position=position)
    ours = at_the_keep(start("lifeboat", "ann"))
    theirs = at_the_keep(TutorialTable(other, "ann"))
    assert ours.view(0) == theirs.view(0)
    assert best_keep(ours.view(0)) == best_keep(theirs.view(0))
    assert ours.coach_line() == theirs.coach_line()


def test_a_safe_card_beats_the_unknown_when_no_card_brings_land() -> None:
    """LB-40, LB-42: far from land, a card that throws no one overboard beats both #22 (all
    overboard) and keeping none (the deck's unknown top card), and the coach says why."""
    script = load_script("lifeboat")
    position = msgspec.to_builtins(script.position)
    position["birds"] = 1
    position["phase"] = "supply"
    position["navigation_deck"] = [22, 25, 29, 31]
    table = TutorialTable(msgspec.structs.replace(script, position=position), "ann")
    for command in ["take water", "row"]:
        assert table.submit_text(0, command).ok, command
    view = table.view(0)
    assert view.drawn == (22, 25)
    advice = best_keep(view)
    assert advice is not None and advice.command == "keep 25"
    assert (
        advice.why
        == "Keep #25: whatever card the navigator picks then, the Kid, your friend, lives."
    )


async def test_the_coach_panel_asks_for_the_saving_keep() -> None:
    """On screen, at 80x24: the coach's panel says 'type: keep 25' off the script."""
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_tutorial(pilot, "tutorial")
        for command in OFF_SCRIPT:
            await type_line(pilot, command)
        assert table.view(0).drawn == (31, 25)
        assert asked(app.screen) == "keep 25"


def test_the_longest_advice_fits_the_coach_panel_at_80_columns() -> None:
    """The advice's words are made up in play: the longest (three cards, the longest friend's
    name) with the longest note still fits the panel's rows at 80 columns."""
    from rich.console import Console

    from shipwreck.runtime.coach import CoachLine
    from shipwreck.tui.tutorial import CoachPanel, coach_text

    script = load_script("lifeboat")
    w = script.coach
    note = max([w.good, w.other, w.wrong, w.free] + [s.other for s in script.steps], key=len)
    why = "Keep #19 and #20 and #21: whatever card the navigator picks then, the First Mate,"
    why += " your friend, lives."
    console = Console(width=78)
    rows = console.render_lines(coach_text(CoachLine(why, "keep 19 20 21", note)), pad=False)
    assert len(rows) <= CoachPanel.COACH_ROWS

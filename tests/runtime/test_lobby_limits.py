"""The lobby's own defences: caps on what one player creates (F7), finished tables leaving
memory (F7), one broken table not stopping the others' clocks (F13), and bot words that are
names, never paths (F1)."""

from __future__ import annotations

import pytest

from shipwreck.engine.core import SYSTEM
from shipwreck.games.registry import default_timers
from shipwreck.lang.bots import BotError
from shipwreck.lang.text import clean_text, whole_number
from shipwreck.runtime import Lobby, SeatSpec, TableCreateError
from shipwreck.store import Store

BOTS = [SeatSpec("bot", b) for b in ("survivor", "loyal", "random")]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_f7_open_tables_per_player_and_new_tables_per_minute() -> None:
    clock = Clock()
    lobby = Lobby(clock=clock, open_tables_per_player=3, new_tables_per_minute=4)
    for _ in range(3):
        lobby.create_table("lifeboat", [SeatSpec("human"), *BOTS], creator="ann")
    with pytest.raises(TableCreateError, match="already play at 3 unfinished tables"):
        lobby.create_table("lifeboat", [SeatSpec("human"), *BOTS], creator="ann")
    lobby.tables[1].leave("ann")  # leaving a table frees a place ...
    lobby.create_table("lifeboat", [SeatSpec("human"), *BOTS], creator="ann")
    lobby.tables[2].leave("ann")
    with pytest.raises(TableCreateError, match="at most 4 new tables a minute; try again in"):
        lobby.create_table("lifeboat", [SeatSpec("human"), *BOTS], creator="ann")
    assert len(lobby.tables) == 4
    clock.now += 61  # ... and the minute passes
    lobby.create_table("lifeboat", [SeatSpec("human"), *BOTS], creator="ann")
    lobby.create_table("lifeboat", [SeatSpec("human"), *BOTS], creator="bob")  # others unaffected


def test_f7_finished_tables_leave_memory_but_not_the_store(tmp_path: object) -> None:
    clock = Clock()
    lobby = Lobby(clock=clock, keep_finished_seconds=30)
    store = Store(":memory:")
    lobby.attach_store(store)
    table = lobby.create_table("lifeboat", [SeatSpec("human"), *BOTS], creator="ann", seed=2)
    table.leave("ann")
    table.sit(0, "ann")
    table.set_connected("ann", False)  # a lone player away: the table pauses (issue 16)
    assert table.paused and not table.over
    table.set_connected("ann", True)
    while not table.over:  # ann plays the safe default to the end
        assert table.submit(0, table.rules.default(table.state, 0)).ok
    assert table.over
    lobby.tick()
    assert table.id in lobby.tables  # its end screen is still there for a while
    clock.now += 31
    lobby.tick()
    assert table.id not in lobby.tables
    assert store.commands(table.id) == table.commands


def test_f13_one_broken_table_does_not_stop_the_others_clocks() -> None:
    clock = Clock()
    kinds = default_timers()
    lobby = Lobby(clock=clock, timers=dict.fromkeys(kinds, 5), solo_timers=True)
    tables = [
        lobby.create_table("lifeboat", [SeatSpec("human"), *BOTS], creator=p, seed=i)
        for i, p in enumerate(["ann", "bob", "cy"])
    ]
    for t in tables:
        t.prompt_shown(0)

    def broken() -> int:
        raise RuntimeError("this table's timer is broken")

    tables[0].tick = broken  # type: ignore[method-assign]
    clock.now += 10
    for _ in range(3):
        lobby.tick()
    assert 1 in lobby.broken and "broken" in lobby.broken[1]
    for t in tables[1:]:  # the tables after the broken one timed out their decisions
        assert any(seat == SYSTEM and text.startswith("timeout") for seat, text in t.commands)


@pytest.mark.parametrize(
    "word",
    ["/dev/zero", "../bots/random.bot", "random.bot", "RANDOM", "a" * 33, "ran dom", "é", ""],
)
def test_f1_a_bot_word_that_is_not_a_name_is_refused_without_a_file(word: str) -> None:
    lobby = Lobby()
    with pytest.raises(BotError) as e:
        lobby.book.resolve(word, "ann", "lifeboat")
    assert "\n" not in str(e.value) and "cannot read" not in str(e.value)


def test_f12_only_ascii_digits_are_numbers() -> None:
    assert whole_number("12") == 12
    for word in ["²", "١٢", "１", "1.0", "-1", "", "1" * 10]:
        assert whole_number(word) is None


def test_f11_clean_text_drops_format_characters_and_caps_marks() -> None:
    assert clean_text("a\u202eb\u2066c\u200bd\ufeffe\ue000f") == "abcdef"
    assert clean_text("x" + "\u0301" * 50) == "x\u0301\u0301"
    assert clean_text("  many   spaces\t\nhere ") == "many spaces here"
    assert clean_text("\u0301alone") == "alone"
    assert clean_text("Żółć naïve café") == "Żółć naïve café"

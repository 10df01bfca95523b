"""Live tables: timers, autopilot, the one door into the engine (issue: never stall a table)."""

from __future__ import annotations

from shipwreck.runtime import Lobby, SeatSpec, Table

BOTS = ("survivor", "loyal", "predator", "hoarder", "random")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def table_with(clock: FakeClock, timers: dict[str, int], autopilot_after: int = 2) -> Table:
    lobby = Lobby(seed=1, timers=timers, autopilot_after=autopilot_after, clock=clock)
    seats = [SeatSpec("human")] + [SeatSpec("bot", b) for b in BOTS]
    return lobby.create_table("lifeboat", seats, creator="ann", seed=7)


def test_a_missed_deadline_plays_the_safe_default_from_the_system_seat() -> None:
    clock = FakeClock()
    table = table_with(clock, {"supply": 30, "turn": 30, "keep": 30, "fight": 30, "respond": 30,
                               "navigate": 30, "thirst": 30, "overboard": 30})  # fmt: skip
    view = table.view(0)
    assert view.choices, "ann has a decision to take"
    left = table.deadline(0)
    assert left is not None and 29.9 < left <= 30
    before = len(table.commands)
    clock.now += 29
    assert table.tick() == 0 and len(table.commands) == before
    clock.now += 2
    assert table.tick() == 1
    assert table.commands[before][0] == -1  # the system seat
    assert table.commands[before][1] == f"timeout {table.seat_name(0)}"
    assert any(e.kind == "timeout" for e in table.events)
    assert table.seats[0].misses == 1 and not table.seats[0].autopilot


def test_missing_deadlines_in_a_row_starts_the_autopilot_and_acting_takes_it_back() -> None:
    clock = FakeClock()
    kinds = ("supply", "turn", "keep", "fight", "respond", "navigate", "thirst", "overboard")
    table = table_with(clock, dict.fromkeys(kinds, 10), autopilot_after=2)
    for _ in range(2):
        clock.now += 11
        assert table.tick() == 1
    assert table.seats[0].autopilot
    rounds_before = table.state.round
    for _ in range(50):  # the autopilot plays on without a deadline ever firing
        clock.now += 11
        table.tick()
    assert table.deadline(0) is None
    assert table.over or table.state.round > rounds_before
    if not table.over:
        result = table.submit_text(0, "takeover")
        assert result.ok and not table.seats[0].autopilot


def test_a_disconnected_player_is_on_autopilot_and_the_table_goes_on() -> None:
    clock = FakeClock()
    table = table_with(clock, {})
    table.set_connected("ann", False)
    assert table.seats[0].autopilot and not table.seats[0].connected
    assert table.over, "with everyone else a bot, the autopilot plays the game out"


def test_no_timer_means_the_table_waits() -> None:
    clock = FakeClock()
    table = table_with(clock, {})
    before = len(table.commands)
    clock.now += 10_000
    assert table.tick() == 0 and len(table.commands) == before
    assert table.deadline(0) is None

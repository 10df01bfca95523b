"""``Table.log`` reads only the events added since a seat last asked (issue 21: every screen
asked after every change, and filtering the whole log each time grew with the game), and is
still exactly the events that seat may read (LB-4: a seat reads its own hidden items only)."""

from __future__ import annotations

import random

from shipwreck.engine.core import visible
from shipwreck.lang import format_command
from shipwreck.runtime import Lobby, SeatSpec

SEATS: list[int | None] = [0, 1, 2, 3, 4, 5, None]


def test_each_seat_reads_its_own_events_as_the_game_grows_and_after_a_rebuild() -> None:
    lobby = Lobby(seed=1)
    table = lobby.create_table("lifeboat", [SeatSpec("human")] * 6, creator="p0", seed=3)
    for n in range(1, 6):
        assert table.sit(table.free_seats()[0], f"p{n}") is None
    rng = random.Random(8)
    for step in range(150):
        if table.over:
            break
        seat = next(s for s in range(6) if table.view(s).choices)
        choice = rng.choice(list(table.view(seat).choices))
        assert table.submit_text(seat, format_command(choice)).ok
        for s in rng.sample(SEATS, 3):  # (some seats ask after each change, some later)
            assert table.log(s) == visible(table.events, s), (step, s)
        if step == 60:  # the game rebuilt from a shorter saved log: a new, shorter event list
            table._rebuild(table.commands[:30])
            for s in SEATS:
                assert table.log(s) == visible(table.events, s), s
    for s in SEATS:
        log = table.log(s)
        assert log == visible(table.events, s)
        log.clear()  # (a caller changing what it was given changes nothing kept)
        assert table.log(s) == visible(table.events, s)
    logs = [table.log(s) for s in SEATS]
    private = sum(1 for e in table.events if e.to is not None)
    assert private > 0 and all(len(log) < len(table.events) for log in logs)

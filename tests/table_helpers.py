"""Runtime helpers the table tests share: fake clocks, a turn recorder, two-player tables and the
bot line-ups they seat. Plain functions, not tests."""

from __future__ import annotations

from collections.abc import Callable

from shipwreck.runtime import Lobby, SeatSpec, Table

BOTS = ("survivor", "loyal", "predator", "hoarder", "random")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Turns:
    """The event loop as a table's scheduler sees it: callbacks wait until the test runs
    them, one loop turn at a time (the server's is :class:`LoopTurns`, tested over SSH
    in tests/hostile/test_f04_bot_bursts.py)."""

    def __init__(self) -> None:
        self.queue: list[Turn] = []

    def __call__(self, delay: float, callback: Callable[[], None]) -> Turn:
        turn = Turn(delay, callback)
        self.queue.append(turn)
        return turn

    def run_one(self) -> Turn:
        """Run the next callback still wanted; returns it (its ``delay`` is what was asked)."""
        while self.queue:
            turn = self.queue.pop(0)
            if not turn.cancelled:
                turn.callback()
                return turn
        raise AssertionError("no bot work is scheduled")

    def drain(self) -> int:
        n = 0
        while any(not t.cancelled for t in self.queue):
            self.run_one()
            n += 1
        return n


class Turn:
    def __init__(self, delay: float, callback: Callable[[], None]) -> None:
        self.delay, self.callback, self.cancelled = delay, callback, False

    def cancel(self) -> None:
        self.cancelled = True


FORGIVING_BOTS = ["survivor", "loyal", "predator", "hoarder"]


LIFEBOAT_KINDS = ("supply", "turn", "keep", "respond", "fight", "navigate", "thirst", "overboard")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def two_player_table(lobby: Lobby, game: str = "lifeboat", seed: int = 11) -> Table:
    """Ann and bob (who sits at the second seat) against bots."""
    if game == "lifeboat":
        bots = [SeatSpec("bot", b) for b in FORGIVING_BOTS]
    else:
        bots = [SeatSpec("bot", "sm_raider")]
    seats = [SeatSpec("human"), SeatSpec("empty"), *bots]
    table = lobby.create_table(game, seats, creator="ann", seed=seed)
    assert table.sit(1, "bob") is None
    return table

"""What a seat's screen says about its clock: the countdown, the warning before the table plays
for the player, what it played, and the autopilot.

Pure functions of the table (no widget): both games' table screens put the line at the start
of their title bar, which every size shows (an 80×24 Lifeboat table has no seats line)."""

from __future__ import annotations

from rich.text import Text

from shipwreck.runtime import Table

WARN_SECONDS = 10
"""From this many seconds left, the countdown says what the table will play."""


def clock_line(table: Table, seat: int | None) -> Text | None:
    """The seat's clock in words, or ``None`` when there is nothing to say."""
    if seat is None or not 0 <= seat < len(table.seats) or table.over:
        return None
    info = table.seats[seat]
    if info.kind != "human":
        return None
    if info.autopilot:
        return Text(
            " you are on autopilot — type anything to take your seat back ",
            style="bold black on yellow",
        )
    left = table.deadline(seat)
    if left is not None and left <= WARN_SECONDS:
        move = table.default_text(seat)
        what = f"the table plays '{move}' for you" if move else "the table plays for you"
        return Text(f" ⏱ {int(left)} s left: type your choice or {what} ", "bold white on red")
    line = Text()
    if info.played_for:
        rest = table.autopilot_after - info.misses
        then = f"; {rest} more and a bot plays for you" if rest > 0 else ""
        line.append(f"time ran out: the table played '{info.played_for}'{then} ", "bold yellow")
    if left is not None:
        line.append(f"⏱ {int(left)} s to decide ", "bold")
    return line if line else None


def welcome_back(table: Table, seat: int) -> str:
    """What a player coming back to their seat is told (before the table knows they are back):
    that it waited, or that a bot played for them; "" if they were not away."""
    info = table.seats[seat]
    if info.connected or table.over:
        return ""
    if table.paused:
        return "welcome back: the table waited for you"
    if info.autopilot:
        return "welcome back: a bot played your seat while you were away; it is yours again"
    return "welcome back: your clock ran while you were away" if table.timed else ""


def waiting_panel(table: Table, user: str) -> Text:
    """The prompt panel of a table that has not started: who has joined, which seats are
    free, and who starts it (``start`` for its host). Two rows, each cut rather than wrapped
    (an 80×24 table has two rows for its prompt)."""
    joined = [f"{table.seat_name(i)} {s.player}" for i, s in enumerate(table.seats) if s.player]
    free = [table.seat_name(i) for i in table.free_seats()]
    first = Text("waiting to start · ", style="bold", no_wrap=True, overflow="ellipsis")
    first.append(f"joined: {', '.join(joined) or 'nobody yet'}")
    first.append(f" · free: {', '.join(free)}" if free else " · every seat is taken")
    host = table.host
    if host is None or host == user or table.seat_of_player(host) is None:
        second = (
            "type 'start' (friends can join later) or 'start with bots'" if free else "type 'start'"
        )
    else:
        second = f"{host} starts the game when ready ('say TEXT' to talk meanwhile)"
    first.append("\n" + second, style="")
    return first

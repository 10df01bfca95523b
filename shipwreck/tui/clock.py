"""What a seat's screen says about its clock: the countdown, the warning before the table plays
for the player, what it played, and the autopilot.

Pure functions of the table (no widget): both games' table screens put these parts at the
start of their title bar, which every size shows (an 80×24 Lifeboat table has no seats line),
and the bar shortens its other parts first (:mod:`shipwreck.tui.title`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from shipwreck.runtime.seat_link import SeatLink
from shipwreck.runtime.seat_link import waited_seats as waited_seats  # (moved: the owner uses it)
from shipwreck.tui.title import Part, part

WARN_SECONDS = 10
"""From this many seconds left, the countdown says what the table will play."""


MINE, ABOUT, WAITING = 9, 8, 6
"""Ranks of the clock's parts of the title bar (:mod:`shipwreck.tui.title`): my countdown is
shortened last, then what the table played for me; others' countdown before them, but after
what I am (7) and the table's name (2)."""


def clock_parts(table: SeatLink, seat: int | None, waited: Sequence[int] = ()) -> list[Part]:
    """The clock's parts of the title bar: mine (the countdown, the warning before the table
    plays for me, what it played, the autopilot), then the countdown of each seat in
    ``waited`` that has one. ``waited``: the seats the view shown says the table waits for
    (:func:`waited_seats`), so no countdown tells more than the view does."""
    if table.over:
        return []
    parts = _my_clock(table, seat) if seat is not None and 0 <= seat < len(table.seats) else []
    others = [(s, left) for s in waited if s != seat and (left := table.deadline(s)) is not None]
    if others:
        parts.append(_their_clock(table, others))
    return parts


def _my_clock(table: SeatLink, seat: int) -> list[Part]:
    info = table.seats[seat]
    if info.kind != "human":
        return []
    if info.autopilot:
        style = "bold black on yellow"
        whole = " you are on autopilot — type anything to take your seat back "
        return [part(whole, " on autopilot: type anything ", rank=MINE, style=style)]
    left = table.deadline(seat)
    if left is not None and left <= WARN_SECONDS:
        move = table.default_text(seat)
        what = f"the table plays '{move}' for you" if move else "the table plays for you"
        now = f" ⏱ {int(left)} s left"
        warn = (f"{now}: type your choice or {what} ", f"{now}: or {what} ", f"{now} ")
        return [part(*warn, rank=MINE, style="bold white on red")]
    parts = []
    if left is not None:
        parts.append(part(f"⏱ {int(left)} s to decide", f"⏱ {int(left)} s", rank=MINE))
    if info.played_for:
        rest = table.autopilot_after - info.misses
        then = f"; {rest} more and a bot plays for you" if rest > 0 else ""
        short = f"; {rest} more: a bot plays" if rest > 0 else ""
        played = f"time ran out: the table played '{info.played_for}'"
        brief = f"timed out: played '{info.played_for}'"  # (every form names the move)
        forms = (f"{played}{then}", f"{played}{short}", f"{brief}{short}", played, brief)
        parts.append(part(*forms, rank=ABOUT, style="bold yellow"))
    return parts


def _their_clock(table: SeatLink, others: list[tuple[int, float]]) -> Part:
    """``waiting for frenchy (bob) · 0:42``, shortened to ``frenchy 0:42``; several seats:
    ``waiting for frenchy 0:42, kid 0:40``."""
    style = "bold yellow" if min(left for _, left in others) <= WARN_SECONDS else "bold"
    names = [(table.seat_name(s), table.seats[s].player, mmss(left)) for s, left in others]
    short = ", ".join(f"{name} {time}" for name, _, time in names)
    forms: tuple[str, ...]
    if len(names) == 1:
        ((name, player, time),) = names
        who = f"{name} ({player})" if player else name
        forms = (f"⏱ waiting for {who} · {time}", f"⏱ waiting for {name} · {time}", f"⏱ {short}")
    else:
        forms = (f"⏱ waiting for {short}", f"⏱ {short}")
    return part(*forms, rank=WAITING, style=style)


def mmss(seconds: float) -> str:
    """``0:42``, ``2:00``."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def welcome_back(table: SeatLink, seat: int) -> str:
    """What a player coming back to their seat is told (before the table knows they are back):
    that it waited, that a bot played for them, or the time left for the decision that waits
    for them (not that "it ran": a table moved to another worker starts its clocks afresh);
    "" if they were not away."""
    info = table.seats[seat]
    if info.connected or table.over:
        return ""
    if table.paused:
        return "welcome back: the table waited for you"
    if info.autopilot:
        return "welcome back: a bot played your seat while you were away; it is yours again"
    left = table.deadline(seat) if table.timed else None
    if left is None:  # (no decision of theirs waits: nothing ran out meanwhile)
        return ""
    return f"welcome back: {int(left)} s left for your decision"


def waiting_panel(table: SeatLink, user: str) -> Text:
    """The prompt panel of a table that has not started: who has joined, which seats are
    free, and who starts it (``start`` for its host). Two rows, each cut rather than wrapped
    (an 80×24 table has two rows for its prompt)."""
    joined = [f"{table.seat_name(i)} {s.player}" for i, s in enumerate(table.seats) if s.player]
    free = [table.seat_name(i) for i in table.free_seats()]
    first = Text("waiting to start · ", style="bold", no_wrap=True, overflow="ellipsis")
    first.append(f"joined: {', '.join(joined) or 'nobody yet'}")
    first.append(f" · free: {', '.join(free)}" if free else " · every seat is taken")
    host = table.host
    if host is None or host == user or not table.host_here():
        second = (
            "type 'start' (friends can join later) or 'start with bots'" if free else "type 'start'"
        )
        if host is not None and host != user and table.seat_of_player(host) is not None:
            second = f"{host} is away: {second}"
    else:
        second = f"{host} starts the game when ready ('say TEXT' to talk meanwhile)"
    first.append("\n" + second, style="")
    return first

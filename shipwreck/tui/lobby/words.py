"""The lobby's words that need its tables: Tab's table numbers, and the seat ``join`` takes."""

from __future__ import annotations

from shipwreck.lang import words as W
from shipwreck.lang.commands import lower_ascii
from shipwreck.runtime import Lobby
from shipwreck.runtime.seat_link import SeatLink
from shipwreck.tui.remote import remote_ids


def lobby_games() -> frozenset[str]:
    """The words of ``new``'s game position (``tutorial`` too: ``new tutorial``)."""
    return frozenset({*W.game_names(), "tutorial"})


def lobby_completions(lobby: Lobby, user: str, text: str) -> list[str]:
    """Tab in the lobby: the grammar's next words, and where the grammar takes a table's
    number, the tables' ids that fit (``join``: tables with a free seat or mine; ``watch``:
    every table not over; ``open``: mine). Right after ``new``, the game names only, unless
    what is typed starts none (``new pred`` still completes a bot)."""
    words = [lower_ascii(w) for w in text.split()]  # (any case reads)
    partial = "" if not words or text[-1:].isspace() else words.pop()
    if len(words) == 1 and words[0] in ("join", "watch", "open"):
        tables = [t for t in lobby.tables.values() if not t.over]
        if words[0] == "join":
            tables = [t for t in tables if t.free_seats() or t.seat_of_player(user) is not None]
        elif words[0] == "open":
            tables = [t for t in tables if t.seat_of_player(user) is not None]
        ids = [t.id for t in tables] + remote_ids(lobby, user, words[0])  # (other workers')
        return sorted((str(i) for i in ids if str(i).startswith(partial)), key=int)
    options = W.complete_words("lobby", text)
    if words == ["new"]:
        games = [o for o in options if o in lobby_games()]
        return games or options
    return options


def seat_to_join(table: SeatLink, seat: int | str | None) -> int | str:
    """The seat ``join N [SEAT]`` asks for (a number from 1, a seat's id, or the first free
    one), or why there is none."""
    if isinstance(seat, int):
        return seat - 1
    free = table.free_seats()
    if seat is None:
        if free:
            return free[0]
        return f"table {table.id} has no free seat; 'watch {table.id}' instead"
    for i in range(len(table.seats)):
        if table.seat_name(i) == seat:
            return i
    return f"table {table.id} has no seat {seat[:32]!r}" + free_seats_hint(table)


def free_seats_hint(table: SeatLink) -> str:
    """The end of a refused ``join``: the free seats by id, as ``join`` takes them."""
    free = [table.seat_name(i) for i in table.free_seats()]
    if not free:
        return f"; no seat is free: 'watch {table.id}' instead"
    return f"; free: {', '.join(free)} (e.g. 'join {table.id} {free[0]}')"

"""Tutorial tables: a short scripted game from a fixed position, with a coach.

A tutorial is data, one TOML file per game in ``tutorials/`` beside this module (shipped in the
wheel): the starting position (a scenario's, docs/scenarios.md), the fixed lines the bots play,
and the coach's steps (:mod:`shipwreck.runtime.coach`). The same position and lines make the same
game every time. If the player goes another way, a bot whose next line is not legal plays its
seat's safe default, and the coach adapts, so the game always goes on.

A tutorial table belongs to one player: it has no timers, no autopilot (the game waits for the
player), is not saved (a restart forgets it: 'new tutorial' starts it again) and does not count
among the player's open tables.
"""

from __future__ import annotations

import tomllib
from collections import deque
from importlib import resources
from typing import Any, cast

import msgspec

from shipwreck.botseat import SeatBot
from shipwreck.engine.core import Event, Seat
from shipwreck.games import get_ruleset, positions
from shipwreck.games.registry import all_games, default_game
from shipwreck.games.registry import find as find_game
from shipwreck.lang import CommandSyntaxError, format_command, parse_command, registry
from shipwreck.lang.bots import Decision, TraceEntry
from shipwreck.runtime.bots import BotBook
from shipwreck.runtime.coach import Coach, CoachedView, CoachLine, CoachWords, Hint, Step
from shipwreck.runtime.table import SeatSpec, Submitted, Table


def tutorial_file(word: str) -> str | None:
    """The tutorial's file for the word typed after ``new tutorial`` (a game's name or alias),
    or None: each game's language names its tutorial, if it has one."""
    game = find_game(word)
    lang = registry.find(game.name) if game is not None else None
    return lang.tutorial if lang is not None else None


class TutorialError(ValueError):
    """No such tutorial (the word typed names no game with a tutorial)."""


class Script(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One tutorial file."""

    title: str
    game: str
    seat: int
    """The player's seat."""
    position: dict[str, Any]
    """A scenario's position (the game's ``Position``)."""
    bots: dict[str, list[str]]
    """Each bot seat's lines (by seat name): a bot plays its first line that is legal now."""
    steps: list[Step]
    hints: dict[str, Hint]
    coach: CoachWords


def load_script(name: str | None = None) -> Script:
    """The tutorial of the game called ``name`` (a game's name or alias, never a path; by
    default the default game's)."""
    file = tutorial_file(name or default_game().name)
    if file is None:
        known = ", ".join(sorted(g.word for g in all_games() if tutorial_file(g.name)))
        raise TutorialError(f"there is no tutorial {name!r}; try: {known}")
    text = resources.files("shipwreck.runtime").joinpath(f"tutorials/{file}.toml").read_text()
    return msgspec.convert(tomllib.loads(text), type=Script)


class ScriptedBot:
    """A bot seat that plays fixed lines: the first of its lines that answers its decision now
    (used up once played); none does, and the table plays the decision's safe default."""

    def __init__(self, name: str, game: str, lines: list[str]) -> None:
        self.name = name
        self.game = game
        self.lines = list(lines)
        self.trace: deque[TraceEntry] = deque(maxlen=100)

    def decide(self, view: object, decision: str, defer: bool = False) -> Decision:
        entry = TraceEntry(int(getattr(view, "round", 0)), decision, None, None)
        legal = {format_command(c): c for c in cast(CoachedView, view).choices}
        # A game's bot view may wrap the seat's view (Spanish Main's ``BotView`` lists legal
        # moves lazily); the ids a line names are read from the view inside it.
        seen = getattr(view, "view", view)
        for i, line in enumerate(self.lines):
            try:
                text = format_command(parse_command(self.game, line, seen))
            except CommandSyntaxError:
                continue
            if text in legal:
                del self.lines[i]
                entry.rule, entry.command = "tutorial line", text
                self.trace.append(entry)
                return Decision(legal[text], entry)
        entry.note = "no line fits: safe default"
        self.trace.append(entry)
        return Decision(None, entry)

    def refused(self, decision: Decision, reason: str, fallback: object | None) -> None:
        decision.entry.note = f"refused ({reason}): safe default"

    def defaulted(self, decision: Decision, fallback: object | None) -> None:
        decision.entry.command = None if fallback is None else format_command(fallback)


def _seat_count(position: dict[str, Any]) -> int:
    seats = position.get("seats", 2)
    return len(seats) if isinstance(seats, list) else int(seats)


class TutorialTable(Table):
    """A table playing a :class:`Script` for one player (see the module docstring)."""

    def __init__(
        self, script: Script, player: str, table_id: int | None = None, book: BotBook | None = None
    ) -> None:
        self.script = script
        position_type = positions(get_ruleset(script.game)).position_type
        self._position = msgspec.convert(script.position, type=position_type)
        seats = [
            SeatSpec("human", player=player) if i == script.seat else SeatSpec("bot", "tutorial")
            for i in range(_seat_count(script.position))
        ]
        seed = int(script.position.get("seed", 0))
        super().__init__(script.game, seats, seed, table_id=table_id, book=book)
        self.name = f"{self.name} (tutorial)"
        self.coach = Coach(script.game, script.seat, script.steps, script.hints, script.coach)

    def _new_game(self, seats: int) -> tuple[object, list[Event]]:
        state, events = positions(self.rules).from_position(self._position)
        return state, list(events)

    def _named_player(self, name: str, owner: str | None, seat: Seat) -> SeatBot:
        lines = self.script.bots.get(self.seat_name(seat), [])
        return ScriptedBot(f"tutorial {self.seat_name(seat)}", self.game, lines)

    def submit_text(self, seat: Seat, text: str) -> Submitted:
        """As any table; the coach hears what the player typed and how it went."""
        before = self.view(seat)
        result = super().submit_text(seat, text)
        if seat == self.script.seat:
            self.coach.heard(before, text, result.ok)
        return result

    @property
    def owner(self) -> str | None:
        """The player whose tutorial this is (it is private: no one else lists, joins or
        watches it)."""
        return self.seats[self.script.seat].player

    def coach_line(self) -> CoachLine:
        """What the coach says now: from the player's view and the public log only."""
        return self.coach.line(self.view(self.script.seat), self.log(None))

    def set_connected(self, player: str, connected: bool) -> None:
        """Away is only away: no autopilot plays a tutorial; it waits for its player."""
        seat = self.seat_of_player(player)
        if seat is not None:
            self.seats[seat].connected = connected
            self._notify()


def start(
    name: str, player: str, table_id: int | None = None, book: BotBook | None = None
) -> TutorialTable:
    """A new tutorial table ``name`` for ``player``."""
    return TutorialTable(load_script(name), player, table_id=table_id, book=book)

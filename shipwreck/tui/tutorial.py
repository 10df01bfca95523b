"""Tutorial table screens: a game's table screen with the coach's panel above the prompt.

The coach's words come from the table (:meth:`TutorialTable.coach_line`: the player's view and
the public log only); this module only draws them, after every change and every typed line (a
refused line changes nothing at the table, but the coach has a hint for it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.geometry import Offset, Size

from shipwreck.games.lifeboat import GAME as LIFEBOAT
from shipwreck.runtime.coach import CoachLine
from shipwreck.runtime.tutorial import TutorialTable
from shipwreck.tui.base import AnySeatScreen
from shipwreck.tui.board import Spot
from shipwreck.tui.lifeboat.screen import TableScreen
from shipwreck.tui.registry import set_tutorial_screen, table_screen
from shipwreck.tui.spanish_main.screen import GAME as SEA_GAME
from shipwreck.tui.spanish_main.screen import SpanishMainScreen

COACH_LABEL = " coach "
TYPE_LABEL = "type: "
"""The coach's panel reads ``coach  type: <command>  <note> <explanation>``."""


def coach_text(line: CoachLine) -> Text:
    """The coach's panel: what to type first (so that a narrow screen never cuts it), then
    the coach's reaction to the last command and the lesson."""
    t = Text()
    t.append(COACH_LABEL, style="bold reverse yellow")
    t.append(" ")
    if line.command:
        t.append(TYPE_LABEL, style="bold")
        t.append(line.command, style="bold yellow")
        t.append("  ")
    if line.note:
        t.append(line.note + " ", style="italic yellow")
    t.append(line.text)
    return t


if TYPE_CHECKING:
    _Screen = AnySeatScreen
else:
    _Screen = object


class CoachPanel(_Screen):
    """What both tutorial screens add to their table screen: the coach's panel on the foot
    board, above the prompt.

    A mixin, not a screen: Textual's CSS follows a widget's first base class only, and the
    table screens' CSS (``TableScreen {...}``) must still apply."""

    COACH_ROWS = 3
    """Enough for the coach's longest line at 80 columns (what to type comes first)."""

    def foot_layout(self, size: Size) -> list[Spot]:
        rows = self.COACH_ROWS
        below = super().foot_layout(size)
        spots = [Spot("coach", below[0].region._replace(height=rows), pad=1)]
        return spots + [s._replace(region=s.region.translate(Offset(0, rows))) for s in below]

    def coach_line(self) -> CoachLine:
        assert isinstance(self.table, TutorialTable)
        return self.table.coach_line()

    def show_coach(self) -> None:
        if self.seat is None:  # the coach reads the player's own view: not for spectators
            line = CoachLine("You are watching someone's tutorial.")
        else:
            line = self.coach_line()
        self.show("coach", line, lambda: coach_text(line))

    def paint_key(self, view: object) -> object:
        key = super().paint_key(view)
        return None if key is None else (key, self.seat is None or self.coach_line())

    def paint(self, view: object) -> None:
        super().paint(view)
        self.show_coach()

    def after_command(self) -> None:
        super().after_command()
        self.show_coach()


class LifeboatTutorialScreen(CoachPanel, TableScreen):
    """The Lifeboat table with the coach. Compact (80×24), the coach's rows come from the
    seats line (every other seat is a bot) and the prompt's second row of choices (the coach
    says what to type; Tab lists the rest), so that the log keeps three rows."""

    PANELS = {**TableScreen.PANELS, "coach": "foot"}

    def board_layout(self, size: Size) -> list[Spot]:
        spots = super().board_layout(size)
        if not self.compact:
            return spots
        seats = next(s.region for s in spots if s.name == "seats")
        up = Offset(0, -seats.height)
        return [
            s._replace(region=s.region.translate(up)) if s.region.y >= seats.bottom else s
            for s in spots
            if s.name != "seats"
        ]

    def prompt_rows(self) -> int:
        return 2 if self.compact else super().prompt_rows()


class SeaTutorialScreen(CoachPanel, SpanishMainScreen):
    """The Spanish Main table with the coach."""

    PANELS = {**SpanishMainScreen.PANELS, "coach": "foot"}
    CONFIRM_IDLE_END = False  # (the coach says when to end a turn)


def tutorial_screen(table: TutorialTable, seat: int | None) -> AnySeatScreen:
    """The screen for a tutorial table (its game's, with the coach)."""
    return table_screen(table, seat, tutorial=True)


set_tutorial_screen(LIFEBOAT.name, LifeboatTutorialScreen)
set_tutorial_screen(SEA_GAME, SeaTutorialScreen)

"""What every screen shares, and what every game's table screen shares.

A table screen repaints when its table changes. Dozens of sessions share one process, so a
change must cost each of them as little as possible; three rules keep it cheap:

* **Coalesce.** Changes arriving together (a bot's moves, a timer) repaint once: the first
  :meth:`AppScreen.notify_change` queues one repaint after the messages already queued.
* **Only what changed.** :meth:`SeatScreen.show` keeps a key per panel (the part of the view
  the panel draws) and updates the panel only when its key differs.
* **No layout when the size stays.** A panel is a place on a :class:`Board` (fixed by the
  board's layout), and a log grows inside its box: both repaint in place, where re-arranging
  the whole screen costs ten times more.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.events import Callback, Resize
from textual.geometry import Region, Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from shipwreck.engine.core import Event
from shipwreck.lang.rules_text import LEGEND
from shipwreck.runtime import ChatLine, Table
from shipwreck.tui.board import Board, Spot
from shipwreck.tui.draw_now import draw_now
from shipwreck.tui.learn import RULES_KEY, RULES_USAGE, LegendScreen, RulesScreen, rules_game
from shipwreck.tui.pacer import TABLE_TURNS
from shipwreck.tui.widgets import CommandLine, EventLog, new_since

log = logging.getLogger("shipwreck.tui")

if TYPE_CHECKING:
    from shipwreck.tui.app import ShipwreckApp


class AppScreen(Screen[None]):
    """A screen of :class:`ShipwreckApp`, told of changes by the lobby or a table."""

    @property
    def shipwreck(self) -> ShipwreckApp:
        from shipwreck.tui.app import ShipwreckApp

        assert isinstance(self.app, ShipwreckApp)
        return self.app

    _repaint_due = False

    def notify_change(self, _source: object) -> None:
        """Called by the lobby or a table, from whichever session changed it: queue one repaint
        (a callback message, the only way to reach another session's screen). Changes made
        before it runs share it. Queued here, not from a handler of a posted message, so that the
        repaint is one turn of the event loop away, not two: under load each turn is a wait
        behind every other session's work."""
        if self._repaint_due:
            return
        self._repaint_due = True
        TABLE_TURNS.run(self._post_repaint)  # at once, unless a burst has spent this turn

    def _post_repaint(self) -> None:
        # (``call_later``'s message would name the session that made the change as its sender,
        # and a screen keeps the last message it handled: that session's screen stayed alive.)
        message = Callback(callback=self._repaint)
        message._sender = self
        if not self.post_message(message):  # refused: normally, a closing screen
            self._repaint_due = False
            if not (self._closing or self._closed):
                log.warning("%s: a repaint was refused; the screen may now be stale", self)

    def run_typed(self, line: str) -> None:
        """Run a line the command line was given (see ``CommandLine.run``), and draw what it
        did at once (unless a repaint is queued: it will draw it all)."""
        self.run_line(line.strip())
        if not self._repaint_due:
            draw_now(self)

    def run_line(self, line: str) -> None:
        """Run one typed line."""
        raise NotImplementedError

    def _repaint(self) -> None:
        self._repaint_due = False
        self.refresh_all()
        draw_now(self)  # the other sessions' work would delay Textual's own drawing

    def refresh_all(self) -> None:
        """Show the lobby or table as it is now."""
        raise NotImplementedError

    PANELS: dict[str, str] = {}
    """The panels drawn on a :class:`Board`, and the id of the board that draws each."""

    def panel_text(self, wid: str) -> str:
        """The text panel ``wid`` (on a board) shows, unstyled."""
        return str(self.query_one(f"#{self.PANELS[wid]}", Board).content(wid))

    def panel_region(self, wid: str) -> Region | None:
        """Where on the screen panel (or widget) ``wid`` is; ``None`` if it is not shown."""
        if wid not in self.PANELS:
            widget = self.query_one(f"#{wid}")
            return widget.region if widget.display else None
        board = self.query_one(f"#{self.PANELS[wid]}", Board)
        spot = board.spot(wid)
        return spot.translate(board.content_region.offset) if spot else None

    def _max_line(self) -> int:
        return int(getattr(self.app, "line_length", 500))


class SeatScreen(AppScreen):
    """One table as one seat (or a spectator) sees it: what Lifeboat's and Spanish Main's
    table screens share — following the table, typed lines, chat, leaving."""

    TELL_EXAMPLE = "tell X hello"
    """An example for the error line when ``tell`` names nobody."""

    BINDINGS = [
        Binding("pageup", "log_page(-1)", "earlier", show=False),
        Binding("pagedown", "log_page(1)", "later", show=False),
        Binding(RULES_KEY, "rules", "rules"),
    ]

    def __init__(self, table: Table, seat: int | None) -> None:
        super().__init__()
        self.table = table
        self.seat = seat
        self._ended = False
        self._log_shown = 0
        self._chat_last: ChatLine | None = None
        self._keys: dict[str, object] = {}

    # ------------------------------------------------------------------ for each game

    def paint(self, view: Any) -> None:
        """Update the panels from ``view`` (with :meth:`show`)."""
        raise NotImplementedError

    def event_line(self, event: Event) -> Text:
        return Text(event.text)

    def chat_log(self) -> EventLog:
        """Where table chat goes."""
        return self.query_one("#log", EventLog)

    def end_screen(self, view: Any) -> ModalScreen[None]:
        raise NotImplementedError

    def help_screen(self) -> ModalScreen[None]:
        raise NotImplementedError

    def after_command(self) -> None:
        """Called after every typed line."""

    def placeholder(self) -> str:
        raise NotImplementedError

    # ------------------------------------------------------------------ following the table

    COMPACT_BELOW = 34
    """Fewer rows than this and the screen is compact (CSS class ``-compact``, and
    :meth:`compacted` is told), so that an 80×24 terminal shows every panel and a log."""
    compact = False

    def compacted(self, compact: bool) -> None:
        """The screen has just become compact (or full): set what CSS cannot (per table)."""

    def _set_compact(self, compact: bool) -> bool:
        """Switch the layout; ``True`` if it changed."""
        if compact == self.compact:
            return False
        self.compact = compact
        self.set_class(compact, "-compact")
        self.compacted(compact)
        return True

    def on_resize(self, event: Resize) -> None:
        if self._set_compact(event.size.height < self.COMPACT_BELOW):
            self._keys.clear()  # every panel is drawn again, the compact way or the full one
            self.refresh_all()

    def on_mount(self) -> None:
        self._set_compact(self.app.size.height < self.COMPACT_BELOW)
        self._unsub = self.table.subscribe(self.notify_change)
        self.refresh_all()
        self.query_one("#command", CommandLine).focus()

    def on_unmount(self) -> None:
        self._unsub()

    def refresh_all(self) -> None:
        t, seat = self.table, self.seat
        view = t.view(seat)
        self.paint(view)
        events = t.log(seat)  # only what this seat may read; new lines are appended
        if len(events) > self._log_shown:
            log = self.query_one("#log", EventLog)
            for e in events[max(self._log_shown, len(events) - 200) :]:
                log.write(self.event_line(e))
            self._log_shown = len(events)
        lines = new_since(t.chat_for(self.shipwreck.user), self._chat_last)
        if lines:
            chat = self.chat_log()
            for c in lines[-100:]:
                to = f" → {t.seat_name(c.to)}" if c.to is not None else ""
                chat.write(Text(f"{c.sender}{to}: {c.text}", style=self.chat_style))
            self._chat_last = lines[-1]
        if t.over and not self._ended:
            self._ended = True
            self.app.push_screen(self.end_screen(view))

    chat_style = ""

    def prompt_rows(self) -> int:
        """How many rows the prompt (what I must decide, and my choices) has."""
        return 2

    def foot_layout(self, size: Size) -> list[Spot]:
        """The board under the log: the prompt, then the error line."""
        width, h = size.width, self.prompt_rows()
        return [
            Spot("prompt", Region(0, 0, width, h), pad=1),
            Spot("error", Region(0, h, width, 1), pad=1),
        ]

    def show(self, wid: str, key: object, render: Callable[[], RenderableType]) -> None:
        """Update panel ``wid`` (on its board, see :attr:`PANELS`) with ``render()`` unless
        ``key`` (what it draws) is unchanged. Keys are compared with ``==``: tuples of the
        view's own parts work. A panel's place is fixed by its board's layout, so updating it
        repaints its changed rows only, never re-arranging the screen."""
        if wid in self._keys and self._keys[wid] == key:
            return
        self._keys[wid] = key
        self.query_one(f"#{self.PANELS[wid]}", Board).update(wid, render())

    # ------------------------------------------------------------------ typed lines

    def error(self, text: str, style: str = "red") -> None:
        self.show("error", (text, style), lambda: Text(text, style=style))

    def run_line(self, line: str) -> None:
        self.error("")
        if not self.shipwreck.allow_command():
            limit = self.shipwreck.commands_per_second
            self.error(f"slow down: at most {limit} commands a second")
            return
        word, _, rest = line.partition(" ")
        t = self.table
        if word == "":
            return
        if word == "help":
            self.action_help()
        elif word == "lobby":
            self.action_lobby()
        elif word == "leave":
            t.leave(self.shipwreck.user)
            self.action_lobby()
        elif word == "quit":
            self.app.exit()
        elif word in ("tell", "whisper", "chat"):
            self.chat(word, rest)
        elif word in ("rules", "legend"):
            self.show_rules(rest or None) if word == "rules" else self.show_legend()
        elif self.seat is None:
            self.error("spectators cannot play; 'lobby' to go back")
        else:
            result = t.submit_text(self.seat, line)
            if not result.ok:
                self.error(result.message)
        self.after_command()

    def chat(self, word: str, rest: str) -> None:
        t = self.table
        to = None
        if word != "chat":
            name, _, rest = rest.partition(" ")
            seats = [s for s in range(len(t.seats)) if t.seat_name(s) == name]
            if not seats:
                self.error(f"tell whom? e.g. '{self.TELL_EXAMPLE}' (not {name!r})")
                return
            to = seats[0]
        problem = t.say(self.shipwreck.user, rest, self.seat, to)
        if problem:
            self.error(problem)

    def action_log_page(self, pages: int) -> None:
        """Page the event log (the command line keeps the focus)."""
        for log in self.query("#log").results(EventLog):
            log.page(pages)

    def action_help(self) -> None:
        self.app.push_screen(self.help_screen())

    def show_rules(self, game: str | None = None) -> None:
        """``rules`` (or F2): this table's game's rules; ``rules lifeboat``, ``rules sm``."""
        chosen = rules_game(game, self.table.game)
        if chosen is None:
            self.error(RULES_USAGE)
            return
        self.app.push_screen(RulesScreen(chosen))

    def action_rules(self) -> None:
        self.show_rules()

    def show_legend(self) -> None:
        """``legend``: what the marks on the board mean (a game without a legend: its rules,
        whose "how to win" explains its marks)."""
        if self.table.game in LEGEND:
            self.app.push_screen(LegendScreen(self.table.game))
        else:
            self.show_rules()

    def action_legend(self) -> None:
        self.show_legend()

    def action_lobby(self) -> None:
        self.shipwreck.show_lobby()

    def become_spectator(self, why: str) -> None:
        self.seat = None
        self.query_one("#command", CommandLine).placeholder = self.placeholder()
        self.refresh_all()
        self.error(why, style="yellow")


class ClosingModal(ModalScreen[None]):
    """A modal that Escape, Enter or q closes."""

    BINDINGS = [Binding("escape,enter,q", "close", "close")]

    def action_close(self) -> None:
        self.dismiss()


class EndOfGame(ClosingModal):
    """A game's end: its final table, over a board where everything is revealed."""

    BOX_ID = "end"

    def __init__(self, view: Any) -> None:
        super().__init__()
        self.view = view

    def result(self) -> RenderableType:
        raise NotImplementedError

    HINT = "Enter or Escape closes · ↑ ↓ PgUp PgDn scroll"

    def compose(self) -> ComposeResult:
        with VerticalScroll(id=self.BOX_ID):  # (the hint first: seen without scrolling)
            yield Static(self.HINT, classes="hint")
            yield Static(self.result())


class CommandHelp(ClosingModal):
    """Every command of a game (from its language's command list) and the table's own."""

    GAME_TITLE = ""
    BOX_ID = "help"
    HINT = "press Escape to close"

    def commands(self) -> list[tuple[str, str]]:
        raise NotImplementedError

    def extra(self) -> RenderableType | None:
        """Shown under the commands (Lifeboat: the legend of the board's marks)."""
        return None

    def compose(self) -> ComposeResult:
        t = RichTable(title=f"{self.GAME_TITLE} commands", expand=True)
        t.add_column("command", style="bold cyan", no_wrap=True)
        t.add_column("what it does")
        for usage, description in self.commands():
            t.add_row(usage, description)
        t.add_row("tell X TEXT", "whisper to one seat (table chat)")
        t.add_row("chat TEXT", "talk to the whole table without it entering the game log")
        t.add_row("lobby / leave", "back to the lobby (keeping / giving up your seat)")
        t.add_row("Tab, ↑ ↓", "complete a word; earlier lines you typed")
        t.add_row("PgUp / PgDn", "read back through the game log, and forward again")
        t.add_row("rules [GAME] / F2", "how to win, and the whole rules of this game (or GAME)")
        t.add_row("legend / F3", "what the marks on the board mean")
        with VerticalScroll(id=self.BOX_ID):
            yield Static(t)
            extra = self.extra()
            if extra is not None:
                yield Static(extra)
            yield Static(self.HINT, classes="hint")

"""What every screen shares, and what every game's table screen shares.

A table screen repaints when its table changes. Dozens of sessions share one process, so a
change must cost each of them as little as possible; four rules keep it cheap:

* **Coalesce.** Changes arriving together (a bot's moves, a timer) repaint once: the first
  :meth:`AppScreen.notify_change` queues one repaint after the messages already queued.
* **Only what changed.** :meth:`SeatScreen.show` keeps a key per panel (the part of the view
  the panel draws) and updates the panel only when its key differs.
* **No layout when the size stays.** A panel is a place on a :class:`Board` (fixed by the
  board's layout), and a log grows inside its box: both repaint in place, where re-arranging
  the whole screen costs ten times more.
* **Drawn once for the table.** What several sessions show alike is drawn by the first and
  kept for the others: a panel keyed on all it draws (`board.SharedRender`: the lobby's
  tables, Lifeboat's fight and cards), each line of a `rows.Rows` panel (the boat), each line
  of a log. A seat's own view is in its key, so nothing one seat may see is drawn for another.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar, cast

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.events import Key, Resize
from textual.geometry import Region, Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from shipwreck.engine.core import Event
from shipwreck.lang.help import CommandHelp as CommandEntry
from shipwreck.lang.help import player_commands, usage_forms
from shipwreck.lang.rules_text import LEGEND
from shipwreck.runtime import ChatLine
from shipwreck.runtime.seat_link import SeatLink, when_answered
from shipwreck.runtime.table import SeatInfo
from shipwreck.tui._textual.draw_now import draw_now, is_closing
from shipwreck.tui.board import Board, Spot
from shipwreck.tui.clock import clock_parts, waited_seats, waiting_panel
from shipwreck.tui.confirm import BACK_TO_LOBBY, Confirm
from shipwreck.tui.handoff import HandsKeysOn
from shipwreck.tui.learn import RULES_KEY, RULES_USAGE, LegendScreen, RulesScreen, rules_game
from shipwreck.tui.pacer import TABLE_TURNS, after, post_callback
from shipwreck.tui.title import Part, TitleBar
from shipwreck.tui.typed import (
    END_OF_LINE,
    MAX_ERROR_ROWS,
    TABLE_CHAT,
    chat_line_text,
    complete_table_words,
    cut_visibly,
    error_width,
    fit_error,
    run_table_line,
)
from shipwreck.tui.widgets import CommandLine, EventLog, KeyLine, new_since

log = logging.getLogger("shipwreck.tui")

if TYPE_CHECKING:
    from shipwreck.tui.app import ShipwreckApp


def _chat_number(line: ChatLine) -> int:
    return line.n


def player_label(seat: SeatInfo, viewer: str | None = None) -> str:
    """A player's seat as the seat lists show it: the name, and "(autopilot)" or "(away)".
    The ``viewer``'s own seat is never "(away)": they are here, looking at it (a session that
    opens a table another worker owns showed its player away until the owner heard of it)."""
    who = seat.player or "?"
    if seat.autopilot:
        return who + " (autopilot)"
    return who if seat.connected or seat.player == viewer else who + " (away)"


class AppScreen(Screen[None]):
    """A screen of :class:`ShipwreckApp`, told of changes by the lobby or a table."""

    @property
    def shipwreck(self) -> ShipwreckApp:
        """The app (a screen of this module is only ever shown by a ``ShipwreckApp``; named for
        the type checker only, as the app's module imports this one)."""
        return cast("ShipwreckApp", self.app)

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
        TABLE_TURNS.run(self._post_repaint, type(self).__name__)  # at once, unless a burst
        # has spent this turn

    def _post_repaint(self) -> None:
        if not post_callback(self, self._repaint):  # refused: normally, a closing screen
            self._repaint_due = False
            if not is_closing(self):
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
        started = time.perf_counter()
        self._repaint_due = False
        self.refresh_all()
        draw_now(self)  # the other sessions' work would delay Textual's own drawing
        TABLE_TURNS.measured(type(self).__name__, time.perf_counter() - started)

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


V = TypeVar("V")
"""A game's view: the type its table screen paints and its end screen shows."""


class SeatScreen(AppScreen, Generic[V]):
    """One table as one seat (or a spectator) sees it: what Lifeboat's and Spanish Main's
    table screens share — following the table, typed lines, chat, leaving."""

    BINDINGS = [
        Binding("pageup", "log_page(-1)", "earlier", show=False),
        Binding("pagedown", "log_page(1)", "later", show=False),
        Binding(RULES_KEY, "rules", "rules"),
    ]

    def __init__(self, table: SeatLink, seat: int | None) -> None:
        super().__init__()
        self.table = table
        self.seat = seat
        self._ended = False
        self._log_shown = 0
        self._chat_last: ChatLine | None = None
        self._keys: dict[str, object] = {}

    # ------------------------------------------------------------------ for each game

    def paint(self, view: V) -> None:
        """Update the panels from ``view`` (with :meth:`show`)."""
        raise NotImplementedError

    def paint_key(self, view: V) -> object:
        """Everything :meth:`paint` draws from (``view`` and what it reads of the table, the
        lobby and the screen), for a screen that can name it all; ``None`` (the default): paint
        on every change. A change that leaves the key as it was (a say, a chat line, a clock)
        then costs each screen at the table no painting: most of a say is the log's new line."""
        return None

    _painted: object = None
    """The :meth:`paint_key` of the last paint."""

    def event_line(self, event: Event) -> Text:
        return Text(event.text)

    def chat_log(self) -> EventLog:
        """Where table chat goes."""
        return self.query_one("#log", EventLog)

    def end_screen(self, view: V) -> ModalScreen[None]:
        raise NotImplementedError

    def help_screen(self) -> ModalScreen[None]:
        raise NotImplementedError

    def after_command(self) -> None:
        """Called after every typed line."""

    def placeholder(self) -> str:
        raise NotImplementedError

    def complete(self, text: str) -> list[str]:
        """Tab on the command line: what may come next after ``text``."""
        raise NotImplementedError

    def compose_foot(self, changes: bool = False) -> ComposeResult:
        """What every table screen ends with: the prompt and error board (``#foot``), the
        command line (``changes``: it posts each change, for a game that previews moves as they
        are typed) and the keys line."""
        yield Board(self.foot_layout, id="foot")
        yield CommandLine(
            completer=self.complete,
            changes=changes,
            run=self.run_typed,
            placeholder=self.placeholder(),
            id="command",
            max_length=self._max_line(),
        )
        yield KeyLine()

    SEAT_WORDS = "'lobby' keeps your seat, 'leave' gives it up"
    """The end of a seated player's placeholder: the two ways back to the lobby, told apart."""

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
            self._painted = None
            self.refresh_all()

    def on_mount(self) -> None:
        self._set_compact(self.app.size.height < self.COMPACT_BELOW)
        self.set_interval(1.0, self.refresh_clock)  # the countdown (a row, on change only)
        self._unsub = self.table.subscribe(self.notify_change)
        self._watch()
        self.refresh_all()
        self.query_one("#command", CommandLine).focus()
        if self.greeting:
            self.error(self.greeting, style="green")

    greeting = ""
    """Said on the error line when the screen opens (a player back at their seat)."""

    def on_unmount(self) -> None:
        self._unsub()
        self._unwatch()

    _unwatch: Callable[[], None] = staticmethod(lambda: None)
    """Ends this screen's watching of the table (a spectator: whispers reach them)."""

    def _watch(self) -> None:
        """A spectator's screen counts as watching the table while it is open."""
        if self.seat is None:
            self._unwatch()
            self._unwatch = self.table.watch(self.shipwreck.user)

    def refresh_all(self) -> None:
        t, seat = self.table, self.seat
        view = cast(V, t.view(seat))  # (the table is of this screen's game)
        self._decision = decision_of(view)  # (first: what paint shows on the error line is new)
        key = self.paint_key(view)
        if key is None or key != self._painted:
            self._painted = key
            self.paint(view)
        self._drop_stale_error()
        events = t.log(seat)  # only what this seat may read; new lines are appended
        if t.started and len(events) > self._log_shown:  # (a waiting table: no game yet)
            log = self.query_one("#log", EventLog)
            for e in events[max(self._log_shown, len(events) - 200) :]:
                log.write(self.event_line(e))
            self._log_shown = len(events)
        lines = new_since(t.chat_for(self.shipwreck.user), self._chat_last, _chat_number)
        if lines:
            chat = self.chat_log()
            for c in lines[-100:]:
                said = chat_line_text(t, c.sender, c.from_seat, c.to, c.to_player, c.text)
                chat.write(Text(said, style=self.chat_style))
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
            Spot("error", Region(0, h, width, self.error_rows), pad=1),
        ]

    _title: tuple[object, list[Part], tuple[int, ...]] = ((), [], ())

    def show_title(self, key: object, parts: list[Part], view: object) -> None:
        """The title bar: the clocks (:func:`clock.clock_parts`: mine, and the countdown of
        each seat ``view`` says the table waits for), then ``parts``, fitted to the width
        (:mod:`shipwreck.tui.title`)."""
        self._title = (key, parts, waited_seats(view))
        self.refresh_clock()

    def refresh_clock(self) -> None:
        """Draw the title bar again if a clock's text changed (every second, see on_mount)."""
        key, parts, waited = self._title
        clock = clock_parts(self.table, self.seat, waited)
        shown = [*clock, *parts]
        board = self.query_one(f"#{self.PANELS['title']}", Board)
        spot = board.spot("title") if board.size.width else None
        width = spot.width - 2 if spot is not None else None  # (not laid out yet: any)
        clocks = tuple(str(p.forms[0]) for p in clock)
        self.show("title", (key, clocks, width), lambda: TitleBar(shown, width or 10_000))

    def show_prompt(self, key: object, render: Callable[[], RenderableType]) -> None:
        """The prompt panel: the game's (reported to the table: its clock waits until every
        player has been shown the game), or who has joined while the table waits to start."""
        t = self.table
        if not t.started:
            seats = tuple((s.kind, s.player) for s in t.seats)
            self.show("prompt", ("waiting", seats), lambda: waiting_panel(t, self.shipwreck.user))
            return
        if _was_waiting(self._keys.get("prompt")):
            self.error("")  # what was refused while it waited is stale now that it has started
        self.show("prompt", key, render)
        t.prompt_shown(self.seat)

    def start_table(self, with_bots: bool) -> None:
        """``start`` / ``start with bots``: begin a table that waits for its players."""
        when_answered(self.table.start(self.shipwreck.user, with_bots), self.show_problem)

    def show_problem(self, problem: str | None) -> None:
        """A refusal from the table (a local one's at once, a remote one's when it comes)."""
        if problem and self.is_attached:
            self.error(problem)

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
        self.error_text(Text(text, style=style))

    error_rows = 1
    """Rows of the error line now: an error as long as the screen is wide wraps onto more
    (:data:`MAX_ERROR_ROWS` at most), and it is given them (the log gives them up)."""

    ERROR_ROWS_AT_LEAST = 1
    """Rows the error line keeps even when empty. A screen whose error rows are taken from
    something costly to draw again at another size (Spanish Main's map) keeps room for the
    usual two-row error (the typed line with a caret under it, then why), so that errors come
    and go without laying the screen out again."""

    ERROR_KEPT = 4.0
    """Seconds an error stays at least, even once the game has moved on (then it goes: an
    error about a turn long past misleads)."""

    _decision: object = None
    """What the game asks now (:func:`decision_of` the view last painted)."""
    _error_at: tuple[float, object] | None = None
    """When the error line was last given text, and what the game asked then."""

    def _drop_stale_error(self) -> None:
        """Empty the error line once the game asks something else than when it was shown (a
        new turn, a new decision), and it has been shown :attr:`ERROR_KEPT` seconds; before
        that, look again when they are up."""
        if self._error_at is None or self._error_at[1] == self._decision:
            return
        left = self._error_at[0] + self.ERROR_KEPT - time.monotonic()
        if left <= 0:
            self.error("")
        elif self.is_attached and not self._looking_again:
            self._looking_again = True
            after(self, left, self._look_again)

    _looking_again = False

    def _look_again(self) -> None:
        self._looking_again = False
        self._drop_stale_error()

    def error_text(self, text: Text) -> None:
        """Show ``text`` on the error line, wrapped, on as many rows as it needs (see
        :meth:`error_room`), under the prompt, which keeps its rows."""
        self._error_at = (time.monotonic(), self._decision) if text.plain else None
        room = self.error_room()
        text = cut_visibly(self, text, error_width(self), room)  # (no room left: cut, visibly)
        fit_error(self, "foot", "error", text, self.error_rows, room, self.ERROR_ROWS_AT_LEAST)
        self.show("error", (text.plain, text.spans), lambda: text)

    def error_room(self) -> int:
        """The most rows an error may take: :data:`MAX_ERROR_ROWS`, or more while the log
        has rows to give (it takes them back with the next line typed). At 80×24 a list of
        words can take four rows, and an error is shown whole."""
        log = self.query_one("#log", EventLog)
        return max(MAX_ERROR_ROWS, self.error_rows + log.content_size.height)

    def run_line(self, line: str) -> None:
        self.error("")
        if not self.shipwreck.allow_command():
            limit = self.shipwreck.commands_per_second
            self.error(f"slow down: at most {limit} commands a second")
            return
        if not line:
            return
        if self.seat is not None and self.table.take_back(self.shipwreck.user):  # typing anything
            self.error("you have your seat back", style="green")
            if line.split()[0] == "takeover":
                return
        before = self._acted()
        run_table_line(self, line)
        if self._acted() != before:  # my move or my chat line: its outcome is at the end
            self.follow_logs()
        self.after_command()

    def _acted(self) -> tuple[int, object]:
        """What changes when a typed line does something at the table: its commands (mine,
        and the bots' after it) and its chat."""
        t = self.table
        chat = t.chat_for(self.shipwreck.user)
        return len(t.log(self.seat)), chat[-1] if chat else None

    def follow_logs(self) -> None:
        """Show the newest lines of the log (and chat), and follow new ones again: a player
        who read back and then acts sees what came of it (the log stayed where they left it)."""
        for log in self.query(EventLog):
            log.follow()

    def action_log_end(self) -> None:
        """End on an empty line, or with the cursor at its end: the newest lines of the log
        (see ``CommandLine.action_end``)."""
        self.follow_logs()

    def complete_words(self, text: str, options: list[str]) -> list[str]:
        """The game's completions ``options`` of ``text``, and the table's own words (``tell``
        completes whom, ``start`` its ``with bots``)."""
        words = complete_table_words(self, text, options)
        if " " in text.strip() or text.endswith(" "):
            return words
        return [w for w in words if w not in self.words_that_do_not_apply()]

    def words_that_do_not_apply(self) -> set[str]:
        """The table's words Tab does not offer now: ``start`` once the table has started (or
        to whoever may not start it), ``takeover`` with no seat of mine on autopilot or in
        another session."""
        t, user = self.table, self.shipwreck.user
        out = set()
        if t.start_refusal(user):
            out.add("start")
        mine = t.seat_of_player(user)
        elsewhere = self.seat is None and mine is not None
        if not elsewhere and (mine is None or not t.seats[mine].autopilot):
            out.add("takeover")
        return out

    def show_options(self, options: list[str]) -> None:
        """Several completions: list them on the error line."""
        if len(options) > 1:
            done = "(or Enter: the command is whole)"
            shown = [done if o == END_OF_LINE else o for o in options]
            self.error("  ".join(shown[:30]), style="cyan")

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

    def numbered_seats(self) -> dict[int, int]:
        """The numbers the board shows for the seats, and the table seat each is (``tell 2
        hi``): none for a game whose board numbers no seat (its seats go by their names)."""
        return {}

    def action_lobby(self) -> None:
        self.shipwreck.show_lobby()

    def action_confirm_lobby(self) -> None:
        """Escape: back to the lobby (keeping the seat), once the player says so; at once for
        a spectator or a game that is over, where no seat waits (a stranger was asked "your
        seat is kept" at a finished game)."""
        if self.seat_waits():
            self.app.push_screen(Confirm(BACK_TO_LOBBY), self._leave_if)
        else:
            self.action_lobby()

    def seat_waits(self) -> bool:
        """Does a seat of the player's wait at this table for them to come back?"""
        return self.seat is not None and not self.table.over

    def _leave_if(self, yes: bool | None) -> None:
        if yes and self.is_current:
            self.action_lobby()

    def become_spectator(self, why: str) -> None:
        self.seat = None
        self._watch()
        self.query_one("#command", CommandLine).placeholder = self.placeholder()
        self.refresh_all()
        self.error(why, style="yellow")


AnySeatScreen: TypeAlias = SeatScreen[Any]
"""A table screen of whichever game: the screens registry hands them out by the table's game,
so which view it paints is known to that game's screen module only."""


class ClosingModal(ModalScreen[None]):
    """A modal that Escape, Enter or q closes."""

    BINDINGS = [Binding("escape,enter,q", "close", "close")]

    def action_close(self) -> None:
        self.dismiss()


class TypingCloses(HandsKeysOn[None], ClosingModal):
    """A modal that Enter, Escape or a printable key closes, the key then going on to the
    command line below (:class:`HandsKeysOn`); the arrows and PgUp PgDn stay its own."""

    def closes_on(self, event: Key) -> bool:
        """Enter, Escape and printable keys close (the arrows and PgUp PgDn scroll)."""
        return event.key in ("escape", "enter") or (
            event.is_printable and event.character is not None
        )

    def action_close(self) -> None:
        self.close_by_key()


class EndOfGame(TypingCloses, Generic[V]):
    """A game's end: its final table, over a board where everything is revealed. Enter,
    Escape or a printable key closes it, and a printable key goes on the command line below,
    so what the player types next (``lobby``, as the coach says) is not lost on the popup
    (:class:`HandsKeysOn`)."""

    BOX_ID = "end"
    BINDINGS = [
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
        Binding("pagedown", "scroll(10)", show=False),
    ]

    def __init__(self, view: V) -> None:
        super().__init__()
        self.view = view

    def result(self) -> RenderableType:
        raise NotImplementedError

    HINT = "Enter, Escape or typing closes · ↑ ↓ PgUp PgDn scroll"

    def compose(self) -> ComposeResult:
        with VerticalScroll(id=self.BOX_ID, can_focus=False):  # (the hint first: seen
            yield Static(self.HINT, classes="hint")  # without scrolling)
            yield Static(self.result())

    def action_scroll(self, rows: int) -> None:
        self.query_one(f"#{self.BOX_ID}", VerticalScroll).scroll_relative(
            y=rows, animate=False, immediate=True
        )


def help_grid(sections: list[tuple[str, list[CommandEntry]]]) -> HelpList:
    """Commands by section, each with its words (see :class:`HelpList`)."""
    return HelpList(sections)


class HelpList:
    """Commands by section, one command to a line: its forms (``keep CARD... / keep none``),
    then what it does, wrapped under it with an indent, then its example; so a command's
    words never run beside the next command (a two-column grid wrapped a description into the
    rows of the command below it, at 80 columns)."""

    INDENT = 4

    def __init__(self, sections: list[tuple[str, list[CommandEntry]]]) -> None:
        self.sections = sections

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        for i, (title, entries) in enumerate(self.sections):
            if i:
                yield Text("")
            yield Text(title, style="bold underline")
            for entry in entries:
                line = Text(" / ".join(usage_forms(entry.usage)), style="bold cyan")
                line.append(f"  {entry.description}", style="")
                yield from self._hanging(console, line, width)
                if entry.example:
                    yield from self._hanging(
                        console, Text(f"e.g. {entry.example}", "dim"), width, 1
                    )

    def _hanging(self, console: Console, text: Text, width: int, first: int = 0) -> list[Text]:
        """``text`` wrapped to ``width``, every row after the first indented (``first``:
        indents the first row too, by that many indents)."""
        pad = " " * self.INDENT
        head = text.wrap(console, max(1, width - first * self.INDENT))[0]
        rows = [Text(pad * first) + head]
        rest = text[len(head.plain) :]
        rest = rest[len(rest.plain) - len(rest.plain.lstrip()) :]
        if rest.plain:
            for row in rest.wrap(console, max(1, width - self.INDENT)):
                rows.append(Text(pad) + row)
        return rows


TABLE_TITLE = "Table commands (any game)"
"""Every help screen's title for the table's own words (the lobby's help lists them too)."""


class CommandHelp(TypingCloses):
    """Every command of a game (from its language's help table) and the table's own words.
    Typing closes it and goes on the command line (play-test: a command typed over F1 was
    lost)."""

    GAME_TITLE = ""
    BOX_ID = "help"
    HINT = "Escape closes · ↑ ↓ PgUp PgDn scroll"
    """The same words as the rules and other reading screens."""
    BINDINGS = [
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
        Binding("pagedown", "scroll(10)", show=False),
    ]

    def action_scroll(self, rows: int) -> None:
        self.query_one(f"#{self.BOX_ID}", VerticalScroll).scroll_relative(
            y=rows, animate=False, immediate=True
        )

    def commands(self) -> list[tuple[str, str]]:
        raise NotImplementedError

    def sections(self) -> list[tuple[str, list[CommandEntry]]]:
        """What the help lists, by section: the game's commands, then the table's words and
        keys."""
        table = list(player_commands("table").values())
        game = [
            CommandEntry(usage, description, "")
            for usage, description in self.commands()
            if usage.split()[0] not in TABLE_CHAT  # (the table's: listed there)
        ]
        keys = [
            CommandEntry("Tab", "complete a word; twice lists what may come next", ""),
            CommandEntry("↑ ↓", "the lines you typed before", ""),
            CommandEntry("PgUp / PgDn", "read back through the game's log, and forward", ""),
            CommandEntry("End", "the log's newest lines (your own move goes there too)", ""),
            CommandEntry("F2", "how to win, and the whole rules (as 'rules')", ""),
            *self.keys(),
        ]
        return [
            (f"{self.GAME_TITLE} commands", game),
            (TABLE_TITLE, table),
            ("Keys", keys),
        ]

    def keys(self) -> list[CommandEntry]:
        """This game's own keys (Lifeboat: F3 for the legend)."""
        return []

    def extra(self) -> RenderableType | None:
        """Shown under the commands (Lifeboat: the legend of the board's marks)."""
        return None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id=self.BOX_ID):
            yield Static(self.HINT, classes="hint")  # first: seen without scrolling
            yield Static(help_grid(self.sections()))
            extra = self.extra()
            if extra is not None:
                yield Static(extra)


def decision_of(view: object) -> object:
    """What a seat's view says the game asks now, any game's: the round, the step and whose
    prompts are open for what (a view's own ``round``, ``step`` and ``prompts``)."""
    return tuple(getattr(view, name, None) for name in ("round", "step", "prompts"))


def _was_waiting(prompt_key: object) -> bool:
    """Was the prompt panel drawn by ``show_prompt`` for a table waiting to start?"""
    return isinstance(prompt_key, tuple) and len(prompt_key) == 2 and prompt_key[0] == "waiting"

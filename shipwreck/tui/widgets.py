"""Widgets shared by the screens: the command line (Tab completion, history) and the log."""

from __future__ import annotations

import collections
import time
from bisect import bisect_right
from collections.abc import Callable, Hashable
from itertools import accumulate
from typing import ClassVar, Self, TypeVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.events import Resize
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Input

from shipwreck.tui._textual.draw_now import draw_now, needs_repaint
from shipwreck.tui._textual.echo import EchoStyles, echo_row
from shipwreck.tui._textual.keys import own_bindings
from shipwreck.tui._textual.scrolling import scroll_update
from shipwreck.tui.board import (
    Board,
    Kept,
    Spot,
    StyleKeyed,
    console_key,
    filter_key,
    text_key,
)
from shipwreck.tui.pacer import LINE_TURNS, line_kind, post_callback

T = TypeVar("T")


class CommandLine(Input):
    """An input line with history (up/down) and Tab completion from a completer callback.

    Keys are handled strictly in the order they arrive, so lines typed ahead keep their
    boundaries ("say a⏎say b⏎" in one packet is two commands). Textual looks up an `Input`'s
    own bindings (Enter, Backspace, Ctrl+U, ...) only once the key has bubbled up to the app, by
    which time printable keys that arrived after it have already been inserted
    (Textualize/textual#6605). Here the line runs its bindings itself as each key reaches it, and
    Enter empties the line at once and hands it to ``run``, which need not (and must not)
    clear it.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
    """Input sets it on every key, and with ``layout=True`` each key re-arranged the screen."""

    BINDINGS = [
        Binding("tab", "complete", "complete", show=False),
        Binding("up", "history(-1)", show=False),
        Binding("down", "history(1)", show=False),
    ]

    def __init__(
        self,
        run: Callable[[str], None],
        completer: Callable[[str], list[str]] | None = None,
        changes: bool = False,
        **kw: object,
    ) -> None:
        """``changes``: post an `Input.Changed` when the line has changed (a screen that
        previews what is typed needs it): once the keys queued are handled (on idle), not per
        key, so keys that came in one packet (a paste, a fast typist, a flood) make one message
        with the line as they left it. Off, typing posts no message at all: each would be
        handled by the line, then the screen, then the app, a tenth of what a key costs the
        server.

        ``run``: what Enter does with the line, called once the key is handled. (Not an
        `Input.Submitted`: its handler would get it a turn of the event loop later, and on a
        busy server each turn is a wait behind every other session's work.)"""
        super().__init__(**kw)  # type: ignore[arg-type]
        self.run = run
        self.changes = changes
        self._announced = ""
        """The line as the last `Input.Changed` posted on idle gave it."""
        self.cursor_blink = False  # steady: no idle redraws per session, stable snapshots
        self.completer = completer
        self.history: list[str] = []
        self._pos = 0
        self.offered: list[str] = []
        """The last completions offered (shown by the screen when there are several)."""
        self._lines: collections.deque[str] = collections.deque()
        """Lines entered and not yet run (see :meth:`_run_lines`)."""
        self._echo_styles = EchoStyles()

    _typing = False
    """True while a key is handled: see :meth:`refresh`."""

    async def _on_key(self, event: events.Key) -> None:
        if event.is_printable and self.app.screen is not self.screen:
            typed_below = getattr(self.app.screen, "typed_below", None)
            if callable(typed_below):  # (a popup this key was typed after: see `HandsKeysOn`)
                typed_below()
        self._typing = True
        try:
            with self.prevent(Input.Changed):  # (see `_on_idle`)
                await self._run_key(event)
        finally:
            self._typing = False
        line, self._entered_line = self._entered_line, None
        if line is not None:  # (not within ``prevent``: what it opens must post as it likes)
            self._lines.append(line)
            if len(self._lines) == 1:  # (else it runs after the lines before it)
                self._run_lines()

    def _run_lines(self) -> None:
        """Run the lines entered, in order, as many as this turn of the event loop's budget
        allows; the next one waits for a later turn (see :class:`TurnBudget`).

        Why: every session's keys are handled in one turn of the loop, and a line is what
        costs (joining a table writes to the database and tells the lobby; a move is applied,
        saved and sent to the table): a crowd sitting down ran dozens of lines in one turn,
        and every other session waited behind all of them. Under the budget a line runs at
        once, as before."""
        while self._lines:
            kind = line_kind(self._lines[0])
            if not LINE_TURNS.take_now(kind):
                LINE_TURNS.run(lambda: post_callback(self, self._run_granted), kind=kind)
                return
            self._run_first()

    def _run_granted(self) -> None:
        """A later turn's budget took the first line in: run it, then the rest as it allows."""
        if self._lines:
            self._run_first()
        self._run_lines()

    def _run_first(self) -> None:
        line = self._lines.popleft()
        started = time.perf_counter()
        try:
            self.run(line)
        finally:
            LINE_TURNS.measured(line_kind(line), time.perf_counter() - started)

    _entered_line: str | None = None
    """A line entered while a key is handled, to run (``run``) once it is."""

    _entered = False
    """Enter was pressed since the line was last idle: ``run`` draws what the line did (or a
    repaint it queued will)."""

    async def _on_idle(self, _event: events.Idle) -> None:
        """Draw the echo at once, not a few turns of the event loop later (each a wait behind
        every other session's work). Idle comes once the keys queued are all handled, so keys
        that came in one packet (a paste, a fast typist) are drawn once. (Textual then calls
        ``Widget._on_idle`` itself, which finds nothing left to draw.)

        With ``changes``, this is also when the line tells the screen it has changed: once for
        the keys handled since the last idle."""
        if self.changes and self.value != self._announced:
            self._announced = self.value
            self.post_message(self.Changed(self, self.value))
        if needs_repaint(self) and not self._entered:
            draw_now(self.screen)
        self._entered = False

    def _on_paste(self, event: events.Paste) -> None:
        """A paste longer than the line has room for keeps what fits and says so on the
        screen's message line (Input dropped all of it without a word). A paste that fits is
        left to ``Input._on_paste`` (Textual calls it after this one, unless prevented)."""
        text = event.text.splitlines()[0] if event.text else ""
        start, end = sorted(self.selection)
        room = self.max_length - (len(self.value) - (end - start)) if self.max_length else None
        if room is None or len(text) <= room:
            return
        event.prevent_default()
        event.stop()
        self.replace(text[: max(0, room)], start, end)
        self.app.bell()  # (as for a key typed past the end)
        self.tell_cut()

    def tell_cut(self) -> None:
        """Say on the screen's message line that the line was cut at its longest."""
        say = getattr(self.screen, "error", None)
        if callable(say):
            say(
                f"the line was cut at {self.max_length} characters, the most a line may have"
                " (Ctrl+U empties it)"
            )

    _told_full = False
    """The line is full and the screen was told so: keys typed on past the end are dropped
    without saying it again (one message per key was most of what a flood of them cost)."""

    async def _run_key(self, event: events.Key) -> None:
        full = len(self.value) >= (self.max_length or len(self.value) + 1)
        if full and event.is_printable and self.selection.is_empty:
            if not self._told_full:
                self.tell_cut()
            self._told_full = True
        elif not full:
            self._told_full = False
        for binding in own_bindings(self, event.key):
            # Priority bindings (the app's Ctrl+Q, ...) ran before the key was forwarded.
            if not binding.priority and await self.app.run_action(binding.action, self):
                event.stop()
                event.prevent_default()
                return
        if event.key in self.SCREEN_KEYS_IN_ORDER and await self._run_screen_binding(event):
            return
        await super()._on_key(event)

    SCREEN_KEYS_IN_ORDER = frozenset({"escape"})
    """Keys whose screen binding the line runs itself, in the order keys came: Esc asks
    "back to the lobby?" before the keys typed after it are handled, so that those answer the
    question (and are typed here: see `HandsKeysOn`) instead of being typed under it."""

    async def _run_screen_binding(self, event: events.Key) -> bool:
        """Run the screen's binding for ``event``'s key here; whether one ran."""
        for binding in own_bindings(self.screen, event.key):
            if not binding.priority and await self.app.run_action(binding.action, self.screen):
                event.stop()
                event.prevent_default()
                return True
        return False

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        """While a key is handled, what ``Input`` repaints in full is the text row only: the
        border and padding around it do not change as you type, and were two thirds of the
        rows (and of the bytes) each echoed key cost."""
        if self._typing and not (regions or layout or recompose) and self.is_mounted:
            regions = (Region(0, 0, *self.content_size),)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def render_line(self, y: int) -> Strip:
        """The text row, drawn for each key typed: the usual line without Rich's console
        (see :mod:`shipwreck.tui._textual.echo`), anything else by Input."""
        row = echo_row(self, self._echo_styles) if y == 0 else None
        return row if row is not None else super().render_line(y)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._echo_styles.forget()

    async def action_submit(self) -> None:
        """Enter: remember the line, empty it, and run it once the key is handled."""
        line = self.value
        self.remember(line.strip())
        self.value = ""
        self._entered_line = line
        self._entered = True

    def action_end(self, select: bool = False) -> None:
        """End: the cursor to the end of the line; already there (an empty line, say), the
        screen's log to its newest line (``action_log_end``), following new lines again."""
        at_end = self.cursor_position == len(self.value) and self.selection.is_empty
        super().action_end(select)
        log_end = getattr(self.screen, "action_log_end", None)
        if at_end and not select and callable(log_end):
            log_end()

    def remember(self, line: str) -> None:
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
            del self.history[:-200]
        self._pos = len(self.history)

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        self._pos = max(0, min(len(self.history), self._pos + step))
        self.value = self.history[self._pos] if self._pos < len(self.history) else ""
        self.cursor_position = len(self.value)

    def action_complete(self) -> None:
        if self.completer is None:
            return
        text = self.value
        options = self.completer(text)
        self.offered = options
        if not options:
            return
        cut = text.rfind(" ") + 1  # the unfinished last word starts here
        base, partial = text[:cut], text[cut:]
        if len(options) == 1:
            self.value = base + options[0] + " "
        else:
            common = _common_prefix(options)
            if len(common) > len(partial):
                self.value = base + common
        self.cursor_position = len(self.value)


class KeyLine(Board):
    """The keys the screen answers (what Textual's ``Footer`` shows), drawn as one line.

    Why not ``Footer``: it is a widget per key, built again whenever the bindings change, and
    was about a quarter of a seated session's memory. The keys here are read once, when the
    line is mounted, from the screen's and the app's bindings that are shown, and drawn like a
    board's panel (a ``Static`` kept a second, styled copy)."""

    DEFAULT_CSS = """
    KeyLine {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
    }
    """

    def __init__(self, **kw: object) -> None:
        super().__init__(lambda size: [Spot("keys", Region(0, 0, size.width, 1))], **kw)

    def on_mount(self) -> None:
        key_style = self.themed("footer-key-foreground") + Style(bold=True)
        line = Text(no_wrap=True, overflow="crop")
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if binding.show and binding.description:
                line.append(f" {self.app.get_key_display(binding)} ", style=key_style)
                line.append(binding.description + " ")
        self.update("keys", line)


def _common_prefix(words: list[str]) -> str:
    first, last = min(words), max(words)
    i = 0
    while i < min(len(first), len(last)) and first[i] == last[i]:
        i += 1
    return first[:i]


class EventLog(StyleKeyed, ScrollView):
    """A log of styled lines (game events, chat): wrapped to its width, drawn only where seen.

    Why not ``RichLog``: it keeps every line as a rendered ``Strip`` (each with seven caches:
    about a third of a seated session's memory), and each line written lays out the whole
    screen again. Here a line is kept as its ``Text`` with the number of rows it wraps to, is
    wrapped and rendered again only while on screen, and growth repaints only this widget. A
    full log (500 lines) so holds about a third less than a copy of every wrapped row did, and
    dropping its oldest line costs a few integer sums, not wrapping every line again.

    No scrollbar (``overflow: hidden``, yet it scrolls: see :attr:`allow_vertical_scroll`):
    redrawing one with every new line was a quarter of what a move cost each session to draw,
    and even a hidden one is a widget more in each session. Where the view is shows in the
    bottom border instead ("↓ 3 newer"), and the view follows new lines only while it is at
    the end (reading back is not interrupted).
    ``page_keys`` ("PgUp/PgDn") names the keys that page it, for that hint.
    """

    DEFAULT_CSS = """
    EventLog {
        overflow: hidden hidden;
        border-subtitle-align: right;
    }
    """
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def __init__(self, max_lines: int = 500, page_keys: str = "", **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.max_lines = max_lines
        self.page_keys = page_keys
        self._texts: list[Text] = []
        """What was written (the last ``max_lines``), oldest first."""
        self._counts: list[int] = []
        """How many rows each text wraps to at ``_width``."""
        self._ends: list[int] = []
        """The running sum of ``_counts``: the row after each text's last (for bisecting)."""
        self._width = 0
        self._strips: dict[int, Strip] = {}
        """Rows drawn (row → line), kept while on screen: a new line scrolls every row.
        Framed (with the side borders) while ``_edges`` is set."""
        self._frame: tuple[object, ...] = ()
        """What the rows were drawn for: sizes, style, border and labels' styles, filters."""
        self._width_drawn, self._style = 0, Style()
        """The content's width and style in ``_frame``."""
        self._edges: tuple[Strip, Strip, Strip] | None = None
        """The side borders and a framed blank row, when this log frames its own rows."""
        self._borders: dict[int, tuple[str | None, Strip]] = {}
        """The top and bottom border rows drawn (row → its label and the line)."""
        self._following = True
        """The view is at the newest line, so it follows new ones. Kept as a flag, not worked
        out from the scroll position when a line comes: a resize moves the end (the view shrinks,
        the lines wrap to more rows) before the log hears of it, and a log at its newest line
        then looked scrolled back for good."""

    @property
    def texts(self) -> list[Text]:
        """The lines written (the last ``max_lines``), oldest first."""
        return self._texts

    def write(self, text: Text | str) -> EventLog:
        line = text if isinstance(text, Text) else Text(text)
        self._texts.append(line)
        count = self._count(line) if self._width else 0
        self._counts.append(count)
        self._ends.append((self._ends[-1] if self._ends else 0) + count)
        if len(self._texts) > self.max_lines:
            del self._texts[: -self.max_lines]
            del self._counts[: -self.max_lines]
            self._ends = list(accumulate(self._counts))
            self._strips.clear()  # every row moved up
        self._grown()
        return self

    def clear(self) -> EventLog:
        self._texts.clear()
        self._counts.clear()
        self._ends.clear()
        self._strips.clear()
        self._grown()
        return self

    def first_row(self, index: int) -> int:
        """The row where text ``index`` (in :attr:`texts`) starts."""
        return self._ends[index - 1] if index else 0

    @property
    def rows(self) -> int:
        """How many rows the texts wrap to."""
        return self._ends[-1] if self._ends else 0

    def _wrap(self, text: Text) -> list[Text]:
        return list(text.wrap(self.app.console, self._width))

    _row_counts: ClassVar[Kept[Hashable, int]] = Kept(2048)
    """How many rows each text wraps to at each width, for every log that holds it: a line
    of a table's log is wrapped once for all the sessions there, not once each."""

    def _count(self, text: Text) -> int:
        """How many rows ``text`` wraps to at the log's width."""
        key = (text_key(text), self._width)
        return self._row_counts.get(key, lambda: len(self._wrap(text)))

    def _rewrap(self) -> None:
        self._counts = [self._count(t) for t in self._texts] if self._width else []
        self._ends = list(accumulate(self._counts))
        self._strips.clear()

    def _grown(self) -> None:
        """New rows (or new widths): show the last ones, as a log does, unless the reader has
        scrolled back."""
        follow = self._following
        self.virtual_size = Size(self._width, self.rows)
        if self.is_mounted:
            scroll_update(self, self.virtual_size)
            if follow:  # (not ``scroll_end``: it queues a callback for each line)
                self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)
            self._following = follow
        self._show_position()
        self.refresh()

    @property
    def allow_vertical_scroll(self) -> bool:
        """Scrolls (the keys, the mouse wheel, following new lines) though it shows no bar."""
        return not (self.disabled or self.loading)  # (as ``Widget._check_disabled``)

    def follow(self) -> None:
        """Show the newest line, and follow new ones again."""
        self._following = True
        if self.is_mounted:
            self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)
        self._show_position()

    def page(self, pages: int) -> None:
        """Scroll by ``pages`` views (negative: back), keeping a line of the last view."""
        step = max(1, self.scrollable_content_region.height - 1)
        self.scroll_to(y=self.scroll_offset.y + pages * step, animate=False, immediate=True)
        self._show_position()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        # Not ``super()``'s: it moves the (hidden, zero-width) scrollbar, and a widget that is
        # not on screen marked dirty makes the compositor arrange the whole screen again.
        if round(old_value) != round(new_value):
            self.refresh()
        self._following = round(new_value) >= self.max_scroll_y
        self._show_position()

    def _show_position(self) -> None:
        newer = max(0, self.max_scroll_y - self.scroll_offset.y)
        keys = self.page_keys
        if newer:
            hint = f"↓ {newer} newer" + (f" ({keys.split('/')[-1]}, End)" if keys else "")
        else:
            hint = f"{keys.split('/')[0]}: earlier" if keys and self.max_scroll_y else ""
        if hint != (self.border_subtitle or ""):  # (it reads back None for "")
            self.border_subtitle = hint

    def on_resize(self, _event: Resize) -> None:
        width = self.scrollable_content_region.width
        if width != self._width and width > 0:
            self._width = width
            self._rewrap()
        self._grown()

    def render_lines(self, crop: Region) -> list[Strip]:
        """Rows between the borders are drawn here and kept, border and all (see
        :meth:`_framed`), so a log scrolled by a new line draws one row, not every row again
        through Textual's styling. The top and bottom borders (with the title and the position
        hint) are Textual's; so is every row of a log styled some other way."""
        width = self.scrollable_content_region.width
        frame = (self.outer_size, width, *self.style_key())  # (see `StyleKeyed`)
        if frame != self._frame:
            self._frame = frame
            self._width_drawn, self._style = width, self.rich_style
            _, _, *style, _, background = frame  # (each app has filter objects of its own)
            filters = tuple(filter_key(f) for f in self.get_line_filters())
            self._drawn_as = (width, *style, filters, background, console_key(self.app))
            self._edges = None
            self._strips.clear()
            self._borders.clear()
            self._edges = self._framed()
            self._strips.clear()  # (the probe drew unframed rows)
        if self._edges is None:
            return super().render_lines(crop)
        width, height = self.outer_size
        top = self.scroll_offset.y - 1
        x1, x2 = crop.column_span
        lines = []
        for y in crop.line_range:
            line = self._border_row(y) if y in (0, height - 1) else self._row(top + y)
            lines.append(line if (x1, x2) == (0, width) else line.crop(x1, x2))
        return lines

    def work_out_style_key(self) -> tuple[object, ...]:
        styles = self.styles
        return (
            self.rich_style,
            styles.border,
            (styles.border_title_color, styles.border_title_style),
            (styles.border_subtitle_color, styles.border_subtitle_style),
            tuple(self.get_line_filters()),
            self.background_colors[1],
        )

    def _border_row(self, y: int) -> Strip:
        """The top or bottom border as Textual draws it, kept while its title and hint stay
        (Textual draws it again after every scroll, and a border with a label is costly)."""
        label = self.border_title if y == 0 else self.border_subtitle
        kept = self._borders.get(y)
        if kept is not None and kept[0] == label:
            return kept[1]
        line = super().render_lines(Region(0, y, self.outer_size.width, 1))[0]
        self._borders[y] = (label, line)
        return line

    def _framed(self) -> tuple[Strip, Strip, Strip] | None:
        """The left and right border cells and a framed blank row, as Textual draws them, if
        this log is styled simply enough to frame its rows itself: a one-cell border on every
        side, no padding, and no opacity, tint, hatch or outline."""
        styles = self.styles
        width, height = self.outer_size
        plain = styles.text_opacity == 1 and styles.opacity == 1 and not styles.tint.a
        plain &= styles.padding == (0, 0, 0, 0) and styles.gutter == (1, 1, 1, 1)
        plain &= not any(edge for edge, _ in styles.outline)
        plain &= not (styles.has_rule("hatch") and styles.hatch != "none")
        if not plain or height < 3 or width < 3:
            return None
        probe = super().render_lines(Region(0, 1, width, 1))[0]
        left, right = probe.crop(0, 1), probe.crop(width - 1, width)
        return left, right, self._frame_row(Strip.blank(width - 2, self._style), left, right)

    def _frame_row(self, content: Strip, left: Strip, right: Strip) -> Strip:
        background = self.background_colors[1]
        for line_filter in self.get_line_filters():
            content = content.apply_filter(line_filter, background)
        return Strip.join([left, content, right])

    def _row(self, row: int) -> Strip:
        """Row ``row`` of the texts, framed (kept while on screen)."""
        assert self._edges is not None
        left, right, blank = self._edges
        if row >= self.rows:
            return blank
        strip = self._strips.get(row)
        if strip is None:
            index = bisect_right(self._ends, row)
            key = (self._drawn_as, self._width, text_key(self._texts[index]))
            framed = self._shared.get(key, lambda: self._draw_framed(index, left, right))
            first = self.first_row(index)
            for n, line in enumerate(framed):
                self._strips[first + n] = line
            strip = self._strips[row]
            self._forget_above(self.scroll_offset.y)
        return strip

    _shared: ClassVar[Kept[Hashable, list[Strip]]] = Kept(2048)
    """Each text's framed rows, for every log that draws it alike: a line of a table's log
    is drawn once for all the sessions at the table that show it at one width."""
    _drawn_as: tuple[object, ...] = ()
    """All but the text and the wrap width that a framed row depends on (``_frame``, with the
    filters as keys). The wrap width is ``_width``, which can lag the width drawn for a
    repaint (Textual posts ``Resize`` after it), so it is in the key apart."""

    def _draw_framed(self, index: int, left: Strip, right: Strip) -> list[Strip]:
        _, rows = self._draw(self.first_row(index))
        return [self._frame_row(line, left, right) for line in rows]

    def render_line(self, y: int) -> Strip:
        """Row ``y`` of the view, unframed (Textual frames it; see :meth:`render_lines`)."""
        width, style = self._width_drawn, self._style
        top = self.scroll_offset.y
        row = top + y
        if row >= self.rows:
            return Strip.blank(width, style)
        if self._edges is not None:  # (`_strips` holds framed rows)
            first, rows = self._draw(row)
            return rows[row - first]
        strip = self._strips.get(row)
        if strip is None:
            first, rows = self._draw(row)
            for n, line in enumerate(rows):
                self._strips[first + n] = line
            strip = self._strips[row]
            self._forget_above(top)
        return strip

    def _draw(self, row: int) -> tuple[int, list[Strip]]:
        """Every row of the text that holds row ``row``, and the row where it starts."""
        width, style = self._width_drawn, self._style
        index = bisect_right(self._ends, row)
        console = self.app.console
        rows = []
        for line in self._wrap(self._texts[index]):
            if line.style:  # (`render` leaves a text's own style out: it is made a span)
                line.stylize_before(line.style)
            line.stylize_before(style)
            drawn = Strip(line.render(console), line.cell_len)
            rows.append(drawn.crop_extend(0, width, style))
        return self.first_row(index), rows

    def _forget_above(self, top: int) -> None:
        """Forget rows scrolled away."""
        if len(self._strips) > 3 * max(self.size.height, 1):
            for gone in [r for r in self._strips if r < top]:
                del self._strips[gone]


def new_since(items: list[T], last: T | None, number: Callable[[T], int] | None = None) -> list[T]:
    """The items after ``last`` in a list that may drop its oldest: what a screen has not
    shown yet of a chat it follows. Compared by identity, or by ``number`` (their place in the
    chat, which a copy of the chat keeps: a table rebuilt on another worker, or a mirror that
    caught up by snapshot, has new line objects, and the whole chat was shown again)."""
    if number is not None and last is not None:
        seen, i = number(last), len(items)
        while i > 0 and number(items[i - 1]) > seen:
            i -= 1
        return items[i:]
    for i in range(len(items) - 1, -1, -1):
        if items[i] is last:
            return items[i + 1 :]
    return items

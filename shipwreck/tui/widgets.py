"""Widgets shared by the screens: the command line (Tab completion, history) and the log."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.events import Resize
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Input, Static

T = TypeVar("T")


class CommandLine(Input):
    """An input line with history (up/down) and Tab completion from a completer callback.

    Keys are handled strictly in the order they arrive, so lines typed ahead keep their
    boundaries ("say a⏎say b⏎" in one packet is two commands). Textual looks up an `Input`'s
    own bindings (Enter, Backspace, Ctrl+U, ...) only once the key has bubbled up to the app, by
    which time printable keys that arrived after it have already been inserted
    (Textualize/textual#6605). Here the line runs its bindings itself as each key reaches it, and
    Enter empties the line at once: `Input.Submitted` carries the line, the screens' handlers
    need not (and must not) clear it.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
    """Input sets it on every key, and with ``layout=True`` each key re-arranged the screen."""

    BINDINGS = [
        Binding("tab", "complete", "complete", show=False),
        Binding("up", "history(-1)", show=False),
        Binding("down", "history(1)", show=False),
    ]

    def __init__(self, completer: Callable[[str], list[str]] | None = None, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.cursor_blink = False  # steady: no idle redraws per session, stable snapshots
        self.completer = completer
        self.history: list[str] = []
        self._pos = 0
        self.offered: list[str] = []
        """The last completions offered (shown by the screen when there are several)."""

    async def _on_key(self, event: events.Key) -> None:
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            # Priority bindings (the app's Ctrl+Q, ...) ran before the key was forwarded here.
            if not binding.priority and await self.app.run_action(binding.action, self):
                event.stop()
                event.prevent_default()
                return
        await super()._on_key(event)

    async def action_submit(self) -> None:
        """Enter: remember the line, empty it, and post it in an `Input.Submitted`."""
        line = self.value
        result = self.validate(line) if "submitted" in self.validate_on else None
        self.remember(line.strip())
        self.value = ""
        self.post_message(self.Submitted(self, line, result))

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
        self.post_message(self.Changed(self, self.value))


class KeyLine(Static):
    """The keys the screen answers (what Textual's ``Footer`` shows), drawn as one line.

    Why not ``Footer``: it is a widget per key, built again whenever the bindings change, and
    was about a quarter of a seated session's memory. The keys here are read once, when the
    line is mounted, from the screen's and the app's bindings that are shown."""

    DEFAULT_CSS = """
    KeyLine {
        dock: bottom;
        height: 1;
        text-wrap: nowrap;
        color: $footer-foreground;
        background: $footer-background;
    }
    """

    def on_mount(self) -> None:
        parts = []
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if binding.show and binding.description:
                key = Content(f" {self.app.get_key_display(binding)} ")
                key = key.stylize("bold $footer-key-foreground")
                parts.append(key + Content(binding.description + " "))
        self.update(Content("").join(parts))


def _common_prefix(words: list[str]) -> str:
    first, last = min(words), max(words)
    i = 0
    while i < min(len(first), len(last)) and first[i] == last[i]:
        i += 1
    return first[:i]


class EventLog(ScrollView):
    """A log of styled lines (game events, chat): wrapped to its width, drawn only where seen.

    Why not ``RichLog``: it keeps every line as a rendered ``Strip`` (each with seven caches:
    about a third of a seated session's memory), and each line written lays out the whole
    screen again. Here a line is kept as its ``Text``, rendered only while it is on screen,
    and growth repaints only this widget (the scrollbar is always shown, so the width of the
    text never changes with the number of lines).
    """

    DEFAULT_CSS = """
    EventLog {
        overflow-y: scroll;
        overflow-x: hidden;
        scrollbar-size-vertical: 1;
        scrollbar-background: $background;
        scrollbar-background-hover: $background;
        scrollbar-background-active: $background;
    }
    """
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def __init__(self, max_lines: int = 500, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.max_lines = max_lines
        self._texts: list[Text] = []
        """What was written, to wrap again when the width changes."""
        self._lines: list[Text] = []
        """The texts wrapped to ``_width``, one per row."""
        self._width = 0
        self._strips: dict[int, Strip] = {}
        """Rows drawn (row → line), kept while on screen: a new line scrolls every row."""
        self._frame: tuple[int, Style] = (0, Style())
        """The width and style the rows in ``_strips`` were drawn with."""

    @property
    def texts(self) -> list[Text]:
        """The lines written (the last ``max_lines``), oldest first."""
        return self._texts

    def write(self, text: Text | str) -> EventLog:
        line = text if isinstance(text, Text) else Text(text)
        self._texts.append(line)
        if len(self._texts) > self.max_lines:
            del self._texts[: -self.max_lines]
            self._rewrap()
        elif self._width:
            self._lines.extend(self._wrap(line))
        self._grown()
        return self

    def clear(self) -> EventLog:
        self._texts.clear()
        self._lines.clear()
        self._strips.clear()
        self._grown()
        return self

    def _wrap(self, text: Text) -> list[Text]:
        return list(text.wrap(self.app.console, self._width))

    def _rewrap(self) -> None:
        self._lines = [row for t in self._texts for row in self._wrap(t)] if self._width else []
        self._strips.clear()

    def _grown(self) -> None:
        """New rows (or new widths): show the last ones, as a log does."""
        self.virtual_size = Size(self._width, len(self._lines))
        if self.is_mounted:
            self._scroll_update(self.virtual_size)
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()

    def on_resize(self, _event: Resize) -> None:
        width = self.scrollable_content_region.width
        if width != self._width and width > 0:
            self._width = width
            self._rewrap()
        self._grown()

    def render_lines(self, crop: Region) -> list[Strip]:
        # The width and style once per frame, not once per row (each walks the DOM).
        frame = (self.scrollable_content_region.width, self.rich_style)
        if frame != self._frame:
            self._frame = frame
            self._strips.clear()
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width, style = self._frame
        top = self.scroll_offset.y
        row = top + y
        if row >= len(self._lines):
            return Strip.blank(width, style)
        strip = self._strips.get(row)
        if strip is None:
            text = self._lines[row].copy()
            text.stylize_before(style)
            strip = Strip(text.render(self.app.console), text.cell_len)
            strip = self._strips[row] = strip.crop_extend(0, width, style)
            if len(self._strips) > 3 * max(self.size.height, 1):  # forget rows scrolled away
                for gone in [r for r in self._strips if r < top]:
                    del self._strips[gone]
        return strip


def new_since(items: list[T], last: T | None) -> list[T]:
    """The items after ``last`` (compared by identity) in a list that may drop its oldest:
    what a screen has not shown yet of a chat it follows."""
    for i in range(len(items) - 1, -1, -1):
        if items[i] is last:
            return items[i + 1 :]
    return items

"""Widgets shared by the screens: the command line (Tab completion, history)."""

from __future__ import annotations

from collections.abc import Callable

from textual.binding import Binding
from textual.widgets import Input


class CommandLine(Input):
    """An input line with history (up/down) and Tab completion from a completer callback."""

    BINDINGS = [
        Binding("tab", "complete", "complete", show=False, priority=True),
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


def _common_prefix(words: list[str]) -> str:
    first, last = min(words), max(words)
    i = 0
    while i < min(len(first), len(last)) and first[i] == last[i]:
        i += 1
    return first[:i]

"""Widgets shared by the screens: the command line (Tab completion, history)."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.binding import Binding
from textual.widgets import Input


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


def _common_prefix(words: list[str]) -> str:
    first, last = min(words), max(words)
    i = 0
    while i < min(len(first), len(last)) and first[i] == last[i]:
        i += 1
    return first[:i]

"""A popup that a typed key closes, and that hands the keys typed after it to the command line
below: what the player types next is never lost on the popup (an end screen, a yes/no
question opened by a stray Esc)."""

from __future__ import annotations

from typing import TypeVar

from textual.events import Key, Paste
from textual.screen import ModalScreen

from shipwreck.tui.widgets import CommandLine

ResultT = TypeVar("ResultT")


class HandsKeysOn(ModalScreen[ResultT]):
    """A popup closed by the keys :meth:`closes_on` names, which then hands every key after
    that one (and that one too when it is printable) to the command line of the screen under
    it. It closes with no result (``None``: "no" for a question).

    Keys arriving in one burst are all queued here (nothing on the popup takes the focus, so no
    key waits in a widget's queue) before the first one is handled: the popup closes once, when
    it has handled them all, and those after the first go on to the command line below, in
    order (closing once per key popped the screen under it too, or crashed the session)."""

    _shut = False
    """Closing (one key closed it); not ``_closed``, which is the message pump's own."""

    def closes_on(self, event: Key) -> bool:
        """Does ``event`` close the popup (and go on to the line below if printable)?"""
        raise NotImplementedError

    def on_key(self, event: Key) -> None:
        """A key on the popup itself (nothing focused)."""
        self.take_key(event)

    def take_key(self, event: Key) -> None:
        if not (self._shut or self.closes_on(event)):
            return  # (the popup's own keys: scrolling, or its bindings)
        event.stop()
        event.prevent_default()
        first = not self._shut
        if first:
            self._shut = True  # (closes when idle: see on_idle)
        if first and not event.is_printable:
            return
        line = self._line_below()
        target = line or self.app.focused or self.app.screen
        if target is not self:
            target.post_message(Key(event.key, event.character))

    CLOSED_BY_TYPING_BELOW = False
    """Does a key that reaches the command line below while the popup is up (queued there
    before the popup opened, in the same burst as the key that opened it) close it?"""

    def typed_below(self) -> None:
        """The command line below took a printable key (see ``CommandLine._on_key``)."""
        if self.CLOSED_BY_TYPING_BELOW:
            self.close_by_key()

    def on_paste(self, event: Paste) -> None:
        """A paste (or a long run of typed characters, which the server hands over as one)
        closes the popup as a printable key does, and goes on to the line below."""
        if not (self._shut or self.closes_on(Key("x", "x"))):
            return
        event.stop()
        event.prevent_default()
        self._shut = True
        line = self._line_below()
        if line is not None:
            line.post_message(Paste(event.text))

    def _line_below(self) -> CommandLine | None:
        """The command line of the screen under this one (the keys' next home), if any."""
        stack = self.app.screen_stack
        below = stack[stack.index(self) - 1] if self in stack[1:] else self.app.screen
        return next(iter(below.query("#command").results(CommandLine)), None)

    def on_idle(self) -> None:
        """Every key queued here has been passed on: now the popup may go."""
        if self._shut:
            self._close_now()

    def close_by_key(self) -> None:
        """Close at once (a binding's action), unless a key already closes it."""
        if not self._shut:
            self._shut = True
            self._close_now()

    def _close_now(self) -> None:
        """Close, once; the command line below takes keys from now on (focused at once, so the
        keys the app routes from now on go there, after those forwarded by :meth:`take_key`)."""
        if self not in self.app.screen_stack:
            return
        line = self._line_below()
        self.dismiss()
        if line is not None and line.screen is self.app.screen:
            line.screen.set_focus(line, scroll_visible=False)

"""Two patches to ``textual.message_pump.MessagePump`` (every widget, screen and app is one).

``pump_timers``: every pump made a ``WeakSet`` for its timers, and most never have a timer.
Here the set is made when the pump first has one.

``pump_starter``: a pump's task does not keep whoever started it. Textual starts each pump's
task (``MessagePump._start_messages``) in a copy of the context it is called from, where
``active_message_pump`` is the pump that was running, and the task's first act sets it to
itself, keeping the old value (in a ``Token``) until the pump closes. So a table screen opened
from the lobby kept the whole lobby screen alive for as long as the table was open (~100 KiB a
session), and a lobby opened from a table kept the table screen. Here the task starts in a copy
where the pump is already the active one. This one is a Textual bug: ``docs/textual-notes.md``
has the reproduction to send upstream.
"""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any
from weakref import WeakSet

from textual._context import active_message_pump
from textual.app import App
from textual.message_pump import MessagePump

from shipwreck.tui._textual.fence import Patch, Reads, Source


class _LazyTimers:
    """``MessagePump._timers`` as a data descriptor: the ``WeakSet`` is made on first use, and
    the empty one ``MessagePump.__init__`` assigns is not kept."""

    def __get__(self, pump: Any, owner: Any = None) -> Any:
        if pump is None:
            return self
        timers = pump.__dict__.get("_timers")
        if timers is None:
            timers = pump.__dict__["_timers"] = WeakSet()
        return timers

    def __set__(self, pump: Any, timers: WeakSet[Any]) -> None:
        if timers:
            pump.__dict__["_timers"] = timers
        else:
            pump.__dict__.pop("_timers", None)


def _install_timers() -> None:
    MessagePump._timers = _LazyTimers()  # type: ignore[assignment]


def _start_messages(self: MessagePump) -> None:
    """``MessagePump._start_messages``, the task started in a context where this pump is the
    active one already."""
    self._thread_init()  # type: ignore[no-untyped-call]
    if self.app._running:
        context = contextvars.copy_context()
        context.run(active_message_pump.set, self)
        self._task = asyncio.create_task(
            self._process_messages(), name=f"message pump {self}", context=context
        )
    else:
        self._closing = True
        self._closed = True


def _install_starter() -> None:
    MessagePump._start_messages = _start_messages  # type: ignore[method-assign]


TIMERS = Patch(
    name="pump_timers",
    why="a widget's set of timers is made when it first has a timer",
    sources=(
        Source(
            MessagePump,
            "__init__",
            "4c13f534c77c6b67fdba6e9232f1e247320e50ac5c1a97eaf77694680bbb343f",
        ),
        Source(
            MessagePump,
            "set_timer",
            "37c0f402f0b15c758718f0945ef7568bc9f3c0fa7c26b47f831fe7bb1500118d",
        ),
        Source(
            MessagePump,
            "set_interval",
            "ba9cd3db6e04f4de317c03260845b259945f1f486f327b49731ae83761da4c17",
        ),
        Source(
            MessagePump,
            "_close_messages",
            "2e1d874dba92ba6810ffa284a5eea5aee9b9f98d9dc634e3e1f6ee9bad3951a3",
        ),
        Source(
            MessagePump,
            "_process_messages",
            "1087b5cdec4d4813215365a522aba94b0eb44452cf259bd6a6e4bc2f72ccb21a",
        ),
    ),
    reads=(Reads("MessagePump", MessagePump, ("_timers",)),),
    install=_install_timers,
)
STARTER = Patch(
    name="pump_starter",
    why="a pump's task does not keep the pump that started it (a Textual bug)",
    sources=(
        Source(
            MessagePump,
            "_start_messages",
            "3510c4c50d026583aad03dc6538fdf14d1b13e19c4ca4f9249259c4206451991",
        ),
        Source(
            MessagePump,
            "_context",
            "7b64ec429886866a78ce51b17f522ec1ccfb4dc03a31b69fe86cdc61f5681f28",
        ),
    ),
    reads=(
        Reads(
            "MessagePump",
            MessagePump,
            ("_thread_init", "_process_messages", "_task", "_closing", "_closed", "_context"),
        ),
        Reads("App", App, ("_running",)),
    ),
    install=_install_starter,
)

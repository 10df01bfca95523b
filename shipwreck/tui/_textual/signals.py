"""Signals make their table of subscribers when first subscribed to (``signal_tables``).

Every widget, screen and app has signals, each with a ``WeakKeyDictionary`` (about a kilobyte),
and almost none is ever subscribed to. Until one is, a signal shares one empty, read-only
table (``publish`` and ``unsubscribe`` only read or pop from it).
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary, ref

from textual.dom import DOMNode
from textual.signal import Signal

from shipwreck.tui._textual.fence import Patch, Reads, Source


class _NoSubscribers(dict[Any, Any]):
    """The empty table of subscribers every signal shares until one subscribes (read-only)."""

    def __setitem__(self, key: Any, value: Any) -> None:
        raise TypeError("a signal's shared empty table of subscribers is read-only")

    setdefault = __setitem__  # type: ignore[assignment]


_NO_SUBSCRIBERS = _NoSubscribers()
_signal_subscribe = Signal.subscribe


def _signal_init(self: Signal[Any], owner: Any, name: str) -> None:
    """``Signal.__init__`` without a ``WeakKeyDictionary`` (see :func:`_subscribe`)."""
    self._owner = ref(owner)
    self._name = name
    self._subscriptions = _NO_SUBSCRIBERS  # type: ignore[assignment]


def _subscribe(self: Signal[Any], node: Any, callback: Any, immediate: bool = False) -> None:
    """``Signal.subscribe``, making the signal's own table of subscribers first."""
    if self._subscriptions is _NO_SUBSCRIBERS:
        self._subscriptions = WeakKeyDictionary()
    _signal_subscribe(self, node, callback, immediate)


def _install() -> None:
    Signal.__init__ = _signal_init  # type: ignore[method-assign]
    Signal.subscribe = _subscribe  # type: ignore[method-assign]


TABLES = Patch(
    name="signal_tables",
    why="a signal makes its table of subscribers when first subscribed to",
    sources=(
        Source(
            Signal, "__init__", "108464ea40464e1ad4c909796afa3446c1266110a77251ce4673ccd88303b490"
        ),
        Source(
            Signal, "subscribe", "3d4f81854bf22f29bed5cec949547cf50f83c7462795eb071652b7a7e7f068fb"
        ),
        Source(
            Signal,
            "unsubscribe",
            "a108d414075e1cef9eba7319cd8d090c28a75b8483064ac520d80d48180eb769",
        ),
        Source(
            Signal, "publish", "aa62c809b0289a205bcb6faee83cd761ce01779cdf9185d6e2b5dfca216df655"
        ),
    ),
    reads=(
        Reads("Signal", lambda: Signal(DOMNode(), "probe"), ("_owner", "_name", "_subscriptions")),
    ),
    install=_install,
)

"""Put a screen's repainted widgets on the terminal in this turn of the event loop
(``draw_now``).

When a widget changes, Textual gets it to the terminal in four more turns of the event loop:
the widget's idle handler tells the screen (a message), the screen's idle handler starts its
update timer (another), the timer's task wakes (another) and draws. On a server with a hundred
sessions in one loop, every turn waits behind the work every other session has queued, so a
say took those turns times that wait to reach the other players: most of its latency.

:func:`draw_now` does the timer's work at once for widgets that only need repainting (new
rows, new text): it hands them to the compositor, which draws them and writes the frame, just
as Textual's update timer would (``Screen._on_timer_update``). Anything more (a layout, a
scroll Textual must arrange, new styles, a screen that is not on top) is left to Textual's own
way, which still runs and then finds nothing left to draw. Until the fence installs it (its
guard holding), it does nothing, and Textual draws as before, only later.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widget import Widget

from shipwreck.tui._textual.fence import Patch, Reads, Source

_on = False
"""Whether the guard held and the fence switched :func:`draw_now` on."""


def _switch_on() -> None:
    global _on
    _on = True


def _more_than_repaint(widget: Widget) -> bool:
    return bool(
        widget._layout_required
        or widget._scroll_required
        or widget._recompose_required
        or widget._refresh_styles_required
    )


def needs_repaint(widget: Widget) -> bool:
    """Whether ``widget`` waits for a repaint that :func:`draw_now` would draw (False while
    it is off: Textual draws it its own way)."""
    return _on and bool(widget._repaint_required)


def is_closing(pump: MessagePump) -> bool:
    """Whether ``pump`` (a screen, say) is closing or closed (False if that can't be told)."""
    return _on and bool(pump._closing or pump._closed)


def draw_now(screen: Screen[Any]) -> bool:
    """Draw the screen's widgets that are waiting for a repaint, now; ``True`` if it did (or
    had nothing to draw), ``False`` if it left the drawing to Textual."""
    app = screen.app
    if not _on or not screen.is_current or app._batch_count or screen._closing:
        return False
    if screen._layout_required or screen._scroll_required or screen._recompose_required:
        return False
    widgets = list(screen.walk_children(Widget))
    if any(_more_than_repaint(widget) for widget in widgets):
        return False
    dirty = [w for w in widgets if w._repaint_required and w.display]
    if not dirty:
        return True
    for widget in dirty:
        widget._repaint_required = False  # (its own idle handler would tell the screen)
    screen._dirty_widgets.update(dirty)
    screen._compositor.update_widgets(screen._dirty_widgets)
    screen._compositor_refresh()  # draws, writes the frame, clears ``_dirty_widgets``
    return True


_WIDGET_FLAGS = (
    "_repaint_required",
    "_layout_required",
    "_scroll_required",
    "_recompose_required",
    "_refresh_styles_required",
)

DRAW_NOW = Patch(
    name="draw_now",
    why="a change is drawn in the turn it is made, not four turns later by the update timer",
    sources=(
        Source(
            Screen,
            "_on_timer_update",
            "421401660de142c5973004a369930228e8b242dcf4921b17e5aff7cad51990da",
        ),
        Source(
            Screen,
            "_compositor_refresh",
            "7a40efe563816a061e3ee82fefdc73ac853717b4dbdeb4359f1202cdfbd2878d",
        ),
        Source(
            Widget,
            "_check_refresh",
            "ad1c8196be9747bff64e8e37a934439fcfd8160ed02c5127660989428d5711a6",
        ),
    ),
    reads=(
        Reads("Widget", Widget, _WIDGET_FLAGS),
        Reads(
            "Screen",
            Screen,
            (*_WIDGET_FLAGS, "_compositor", "_dirty_widgets", "_compositor_refresh"),
        ),
        Reads("MessagePump", MessagePump, ("_closing", "_closed")),
        Reads("App", App, ("_batch_count",)),
    ),
    install=_switch_on,
)

"""Put a screen's repainted widgets on the terminal in this turn of the event loop.

When a widget changes, Textual gets it to the terminal in four more turns of the event loop:
the widget's idle handler tells the screen (a message), the screen's idle handler starts its
update timer (another), the timer's task wakes (another) and draws. On a server with a hundred
sessions in one loop, every turn waits behind the work every other session has queued, so a
say took those turns times that wait to reach the other players: most of its latency.

:func:`draw_now` does the timer's work at once for widgets that only need repainting (new
rows, new text): it hands them to the compositor, which draws them and writes the frame, just
as Textual's update timer would (``Screen._on_timer_update``). Anything more (a layout, a
scroll Textual must arrange, new styles, a screen that is not on top) is left to Textual's own
way, which still runs and then finds nothing left to draw.

It reads Textual's internals, so it checks once that they are as written against and does
nothing otherwise (Textual then draws as before, only later).
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widget import Widget

_WIDGET_FLAGS = (
    "_repaint_required",
    "_layout_required",
    "_scroll_required",
    "_recompose_required",
    "_refresh_styles_required",
)
_SCREEN_PARTS = ("_compositor", "_dirty_widgets", "_layout_required", "_compositor_refresh")


def _as_known() -> bool:
    widget, screen = Widget(), Screen[None]()
    return all(hasattr(widget, flag) for flag in _WIDGET_FLAGS) and all(
        hasattr(screen, part) for part in _SCREEN_PARTS
    )


AS_KNOWN = _as_known()
"""Whether Textual's widgets and screens have the parts :func:`draw_now` uses."""


def _more_than_repaint(widget: Widget) -> bool:
    return bool(
        widget._layout_required
        or widget._scroll_required
        or widget._recompose_required
        or widget._refresh_styles_required
    )


def draw_now(screen: Screen[Any]) -> bool:
    """Draw the screen's widgets that are waiting for a repaint, now; ``True`` if it did (or
    had nothing to draw), ``False`` if it left the drawing to Textual."""
    app = screen.app
    if not AS_KNOWN or not screen.is_current or app._batch_count or screen._closing:
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

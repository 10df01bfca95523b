"""The log's scroll bars sized to its new rows at once (``scroll_update``).

When the log grows, it sets its ``virtual_size`` and scrolls to its end in the same call; the
scroll bars and the largest scroll offset must know the new size first. Textual updates them in
``Widget._scroll_update`` when it next arranges the widget (``ScrollView._size_updated``);
:func:`scroll_update` does it now. Until the fence switches this on it does nothing, and the
log follows its end once Textual has arranged it.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widget import Widget

from shipwreck.tui._textual.fence import Patch, Reads, Source

_on = False


def _switch_on() -> None:
    global _on
    _on = True


def scroll_update(view: ScrollView, virtual_size: Size) -> None:
    """Size ``view``'s scroll bars to ``virtual_size`` now."""
    if _on:
        view._scroll_update(virtual_size)


SCROLL = Patch(
    name="scroll_update",
    why="the log scrolls to a new last line in the turn the line comes",
    sources=(
        Source(
            Widget,
            "_scroll_update",
            "edb9f6257285830d14f94d0a27212a96275f14e21ae80350c6a7ce562628b7b8",
        ),
        Source(
            ScrollView,
            "_size_updated",
            "1606ca15d9392999c954bd802d2cf583ac1ef65bfa30b6e4324ffd5f92da2999",
        ),
    ),
    reads=(Reads("ScrollView", lambda: ScrollView, ("_scroll_update",)),),
    install=_switch_on,
)

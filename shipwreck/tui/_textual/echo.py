"""The command line's text row drawn without Rich (``echo_row``): what each typed key costs.

Every key a player types is echoed: ``Input.render_line`` draws the row again. It builds a
Rich ``Text``, styles the cursor, renders it through the console and looks the cursor's
component style up again (Textual forgets it on every repaint): about a third of what echoing
a key cost the server (``bench/render.py --keys 400``), and people type a key at a time.

For the usual line (plain printable ASCII, no selection, no suggestion shown, no password or
highlighter), :func:`echo_row` makes the same segments directly: the text before the cursor,
the cursor cell, the text after, with the styles looked up once per style change
(:class:`EchoStyles`). Anything else, or a Textual whose ``render_line`` is not the one this
imitates, gets ``None`` and Input draws the row itself. A test checks both draw the same
strips.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.widgets import Input

from shipwreck.tui._textual.fence import Patch, Reads, Source

_on = False


def _switch_on() -> None:
    global _on
    _on = True


_PLAIN = Style()
"""The style Rich gives a ``Text``'s unstyled parts (equal to the one it makes)."""


class EchoStyles:
    """The cursor's style and the line's own, looked up once while the styles and the focus
    stay (``forget`` when the CSS is applied again)."""

    def __init__(self) -> None:
        self.kept: tuple[bool, Style, Style] | None = None

    def forget(self) -> None:
        self.kept = None

    def get(self, line: Input) -> tuple[Style, Style]:
        focus = line.has_focus
        kept = self.kept
        if kept is None or kept[0] != focus:
            cursor = line.get_component_rich_style("input--cursor")
            kept = self.kept = (focus, cursor, line.rich_style)
        return kept[1], kept[2]


def echo_row(line: Input, styles: EchoStyles) -> Strip | None:
    """Row 0 of ``line`` as ``Input.render_line`` draws it, or ``None`` where this does not
    imitate it (see the module's docstring)."""
    value = line.value
    if not _on or not value or line.password or line.highlighter is not None:
        return None
    if not (value.isascii() and value.isprintable()) or not line.selection.is_empty:
        return None
    focus = line.has_focus
    if focus and len(line._suggestion) > len(value):
        return None
    cursor_style, own = styles.get(line)
    if focus and line._cursor_visible:
        at = line.cursor_position
        text = value + " " if at == len(value) else value
        segments = [Segment(text[:at], _PLAIN)] if at else []
        segments.append(Segment(text[at : at + 1], cursor_style))
        if at + 1 < len(text):
            segments.append(Segment(text[at + 1 :], _PLAIN))
    else:
        text = value
        segments = [Segment(text, _PLAIN)]
    width = line.scrollable_content_region.width
    scroll_x = line.scroll_offset.x
    strip = Strip(segments, len(text)).crop(scroll_x, scroll_x + width + 1)
    return strip.extend_cell_length(width + 1).apply_style(own)


ECHO = Patch(
    name="echo_row",
    why="a typed key's echo is drawn without Rich's console, a third of what a key cost",
    sources=(
        Source(
            Input,
            "render_line",
            "20fe97da621ba992e07784047f064206e3178c4e63ab4eea370efe951a6ad94d",
        ),
        Source(
            Input,
            "_value",
            "33f9515a42e79bd3c8743303e29ac5b3f96b8a2086172afc00be98b2324113af",
        ),
    ),
    reads=(Reads("Input", Input, ("_suggestion", "_cursor_visible")),),
    install=_switch_on,
)

"""A session's colours (``color_system``): the colour system Rich renders with, per session.

Textual renders with ``app.console._color_system`` (``textual.strip``); Rich has no public
setter, and rebuilding Textual's console would have to copy its private settings. Until the
fence switches this on, every session gets the colour system Textual chose for the process.
"""

from __future__ import annotations

from rich.color import ColorSystem
from rich.console import Console
from textual.strip import Strip

from shipwreck.tui._textual.fence import Patch, Reads, Source

_on = False


def _switch_on() -> None:
    global _on
    _on = True


def set_color_system(console: Console, system: ColorSystem) -> bool:
    """Make ``console`` render in ``system``; whether it did."""
    if _on:
        console._color_system = system
    return _on


COLOR_SYSTEM = Patch(
    name="color_system",
    why="each session renders in the colours its terminal has",
    sources=(
        Source(
            Console,
            "color_system",
            "c3afb9aef38d2a1b0057c7e531e6c5f0e4fa4ab6584879ed67f598a35a89e3b7",
        ),
        Source(
            Strip,
            "render",
            "2ba7a4913a72125d28739c6e4186ada18de833b8376b3a72ae227fdaa4ee7f69",
        ),
    ),
    reads=(Reads("Console", Console, ("_color_system",)),),
    install=_switch_on,
)

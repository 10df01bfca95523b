"""The fence around Textual's (and Rich's) internals: every use of them lives here.

Each module holds one or two :class:`~shipwreck.tui._textual.fence.Patch` records: a change to
Textual, or a use of its private parts, with its guard (the sha256 of the Textual code it
replaces or imitates, and every private attribute it reads). Nothing changes at import:
:func:`install_patches` installs each patch whose guard holds, on its own (the server calls it
at start-up and logs :func:`patch_report`; ``shipwreck play`` and the tests' ``conftest.py``
call it too, so every app runs on the same Textual). A patch whose guard fails stays off and
the app runs on Textual's own code: correct, maybe slower.

Written against Textual 8.2.8 (``pyproject.toml`` pins the range the server accepts). All
together, on 8.2.8: a seated app holds 409 KiB (836 KiB on Textual's own code) and a change
costs six apps 18.3 ms of CPU (23.1 ms), measured with
``bench/render.py --apps 6 --changes 100 --memory`` (and ``--no-patches``).
"""

from __future__ import annotations

from shipwreck.tui._textual import (
    compositor,
    console,
    css,
    draw_now,
    echo,
    keys,
    parser,
    pumps,
    scrolling,
    signals,
    strips,
)
from shipwreck.tui._textual.fence import Fence, Patch

PATCHES: tuple[Patch, ...] = (
    strips.CACHES,
    strips.DIVIDE,
    css.SHARED,
    compositor.ROWS,
    compositor.MOVES,
    signals.TABLES,
    pumps.TIMERS,
    pumps.STARTER,
    draw_now.DRAW_NOW,
    keys.KEYS,
    console.COLOR_SYSTEM,
    parser.INPUT,
    scrolling.SCROLL,
    echo.ECHO,
)
"""Every patch, in the order they are installed (each stands alone)."""

FENCE = Fence(PATCHES)
"""This process's patches."""


def install_patches() -> str:
    """Install every patch whose guard holds (once; later calls change nothing) and say
    which are active: ``patches: 11/11 active``, or which are off and why."""
    FENCE.install()
    return FENCE.report()


def patch_report() -> str:
    return FENCE.report()


__all__ = ["FENCE", "PATCHES", "install_patches", "patch_report"]

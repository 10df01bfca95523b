"""A script from the local command line (``sim``, ``arena``), refused as ``bot check`` refuses it.

``shipwreck sim`` and ``shipwreck arena`` play only scripts that ``shipwreck bot check`` finds no
error in, and say why with the check's own lines: an author reads one message whichever tool
they ran.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from shipwreck.lang.bots import load_bot
from shipwreck.lang.bots.lint import check_source
from shipwreck.lang.bots.registry import is_bot_name
from shipwreck.lang.bots.script import BotError, BotScript


def load_checked(arg: str) -> BotScript:
    """The script ``arg`` names (a shipped bot's name or a file), if ``shipwreck bot check``
    finds no error in it; else a :class:`BotError` with the check's lines."""
    try:
        script = load_bot(arg)
    except BotError:
        source = None
        if not is_bot_name(arg):
            with contextlib.suppress(OSError, UnicodeDecodeError):
                source = Path(arg).read_text(encoding="utf-8")
        if source is not None:
            refuse_errors(source, arg)
        raise
    refuse_errors(script.source, script.path)
    return script


def refuse_errors(source: str, path: str) -> None:
    """Raise :class:`BotError` with ``bot check``'s error lines for ``source``, if any."""
    errors = [f for f in check_source(source, path) if f.level == "error"]
    if errors:
        raise BotError("\n".join(str(f) for f in errors))

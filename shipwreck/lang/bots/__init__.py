"""Bot scripts: a small guarded-command language over a seat's own view (docs/bots.md).

- :mod:`.compile` — text -> closures (grammar/lifeboat_bot.lark)
- :mod:`.lifeboat_env` — every name, attribute and function a Lifeboat guard can read
- :mod:`.runner` — one seat's decisions, with a step budget and a trace
- :mod:`.lint` — ``shipwreck bot check``
- :mod:`.registry` — the shipped bots, by name (what a player may name: never a path)
"""

from __future__ import annotations

from pathlib import Path

from shipwreck.lang.bots import search as _search  # noqa: F401  (puts the `search` action in place)
from shipwreck.lang.bots.compile import load_source
from shipwreck.lang.bots.registry import BOT_NAME, is_bot_name, shipped_bot, shipped_names
from shipwreck.lang.bots.runner import BotPlayer, Decision, TraceEntry
from shipwreck.lang.bots.script import BotError, BotScript


def load_bot(path: str | Path) -> BotScript:
    """Load a script file, for the local command line (``sim --bots mine.bot``); a bare name
    (``survivor``) means a shipped bot. The server never calls this: what a player types names
    a bot (:mod:`.registry`), it is never a path."""
    if isinstance(path, str) and is_bot_name(path):
        return shipped_bot(path)
    p = Path(path)
    shown = str(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise BotError(f"{path}: cannot read: {e.strerror}") from None
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BotError(f"{path}:1:1: not UTF-8 text ({e.reason} at byte {e.start})") from None
    return load_source(source, shown)


__all__ = [
    "BOT_NAME",
    "BotError",
    "BotPlayer",
    "BotScript",
    "Decision",
    "TraceEntry",
    "load_bot",
    "is_bot_name",
    "load_source",
    "shipped_bot",
    "shipped_names",
]

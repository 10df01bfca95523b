"""Bot scripts: a small guarded-command language over a seat's own view (docs/bots.md).

- :mod:`.compile` — text -> closures (grammar/lifeboat_bot.lark)
- :mod:`.lifeboat_env` — every name, attribute and function a Lifeboat guard can read
- :mod:`.runner` — one seat's decisions, with a step budget and a trace
- :mod:`.lint` — ``shipwreck bot check``
"""

from __future__ import annotations

from pathlib import Path

from shipwreck.lang.bots.compile import load_source
from shipwreck.lang.bots.runner import BotPlayer, Decision, TraceEntry
from shipwreck.lang.bots.script import BotError, BotScript
from shipwreck.resources import bots_dir


def load_bot(path: str | Path) -> BotScript:
    """Load a script file; a bare name (``survivor``) means a shipped bot in ``bots/``."""
    p = Path(path)
    shown = str(path)
    if not p.suffix and not p.exists():  # a shipped bot by name
        p = bots_dir() / f"{path}.bot"
        shown = f"bots/{path}.bot"
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
    "BotError",
    "BotPlayer",
    "BotScript",
    "Decision",
    "TraceEntry",
    "load_bot",
    "load_source",
]

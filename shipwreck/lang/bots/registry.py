"""The shipped bots, by name only.

Why names and never paths: a word a player types (``new 6 survivor``) must not reach the file
system. ``/dev/zero`` froze the server, ``/etc/shadow`` leaked its first token in a parse error,
and a table restored from a relative path could not start from another working directory. So a
bot a player names is a word matching :data:`BOT_NAME`, looked up in the list of ``bots/*.bot``
made once (each by the name in its header, not its file's); nothing the player typed is ever
joined to a path. (Files are for the local command line only: ``shipwreck sim --bots mine.bot``
uses :func:`shipwreck.lang.bots.load_bot`.)
"""

from __future__ import annotations

import functools
import re

from shipwreck.lang.bots.compile import load_source
from shipwreck.lang.bots.script import BotError, BotScript, name_for
from shipwreck.names import BOT_NAME, valid_bot_name
from shipwreck.resources import bots_dir

__all__ = [
    "BOT_NAME",
    "header_name",
    "is_bot_name",
    "is_shipped",
    "shipped_bot",
    "shipped_names",
    "shipped_source",
]

is_bot_name = valid_bot_name
"""Every bot name, a shipped bot's and a player's saved bot's, is :data:`BOT_NAME`."""


_TITLE = re.compile(r'\A(?:[\t ]*(?:#[^\n]*)?\r?\n)*[\t ]*bot\s+"([^"\n]*)"')


def header_name(source: str) -> str | None:
    """The name a script's header gives its bot (:func:`name_for`), or None without a header."""
    m = _TITLE.match(source)
    return name_for(m.group(1)) if m is not None else None


@functools.cache
def _shipped_files() -> dict[str, tuple[str, str]]:
    """Each shipped bot by the name in its header (never its file's): (its file, its source).
    Two shipped files with one name are a packaging mistake, refused at once."""
    found: dict[str, tuple[str, str]] = {}
    for path in sorted(bots_dir().glob("*.bot")):
        source = path.read_text(encoding="utf-8")
        name = header_name(source)
        if name is None or not is_bot_name(name):
            continue
        if name in found:
            raise BotError(f"bots/{found[name][0]} and bots/{path.name} are both called {name!r}")
        found[name] = (path.name, source)
    return found


def _shipped_sources() -> dict[str, str]:
    return {name: source for name, (_, source) in _shipped_files().items()}


def shipped_names(game: str | None = None) -> list[str]:
    """The shipped bots' names (of one game, if given), sorted."""
    names = sorted(_shipped_sources())
    return names if game is None else [n for n in names if shipped_bot(n).game == game]


def shipped_source(name: str) -> str:
    """A shipped bot's source (KeyError if there is none): for playing it in another process,
    which compiles it there (:mod:`shipwreck.arena.match`)."""
    return _shipped_sources()[name]


def is_shipped(name: str) -> bool:
    return name in _shipped_sources()


@functools.cache
def shipped_bot(name: str) -> BotScript:
    """A shipped bot, compiled once per process (a script is read-only once compiled: each seat
    plays it with its own :class:`~shipwreck.lang.bots.runner.BotPlayer`)."""
    source = _shipped_sources().get(name)
    if source is None:
        shown = name if is_bot_name(name) else "that"
        raise BotError(
            f"there is no shipped bot {shown!r}; shipped bots: {', '.join(shipped_names())}"
        )
    return load_source(source, f"bots/{_shipped_files()[name][0]}")

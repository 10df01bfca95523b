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
from shipwreck.lang.bots.registry import is_bot_name, is_shipped, shipped_bot, shipped_source
from shipwreck.lang.bots.script import BotError, BotScript


def load_checked(arg: str) -> BotScript:
    """The script ``arg`` names (a shipped bot's name or a file), if ``shipwreck bot check``
    finds no error in it; else a :class:`BotError` with the check's lines. A shipped bot is not
    checked again here (the check costs two more parses, a second at ``play``'s start): the
    tests check every one (``test_every_shipped_bot_passes_the_kind_check``)."""
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
    if not is_bot_name(arg):
        refuse_errors(script.source, script.path)
    return script


def load_named(game: str, args: list[str]) -> list[BotScript]:
    """The scripts ``args`` name, one per argument (a script named twice is one bot, twice),
    each checked as :func:`load_checked` checks it and playing ``game``. A bot goes by the name
    in its header (:attr:`BotScript.bot_name`), never its file's: two different scripts with one
    name are refused, never merged (a shipped bot's name is taken), and one script under two
    file names is one bot."""
    scripts: list[BotScript] = []
    first: dict[str, tuple[str, BotScript]] = {}
    loaded: dict[str, BotScript] = {}
    for arg in args:
        script = loaded.get(arg) or loaded.setdefault(arg, load_checked(arg))  # (parsed once)
        if script.game != game:
            raise BotError(f"{arg}: this script plays {script.game}, not {game}")
        name = script.bot_name
        if not is_bot_name(arg) and is_shipped(name) and shipped_source(name) != script.source:
            first.setdefault(name, (name, shipped_bot(name)))  # (the shipped bot has the name)
        known_arg, known = first.setdefault(name, (arg, script))
        if known.source != script.source:
            raise BotError(
                f"{known_arg} and {arg} are two different bots both called {name!r};"
                f' rename one in its first line (bot "…" for {game})'
            )
        scripts.append(script)
    return scripts


def refuse_errors(source: str, path: str) -> None:
    """Raise :class:`BotError` with ``bot check``'s error lines for ``source``, if any."""
    errors = [f for f in check_source(source, path) if f.level == "error"]
    if errors:
        raise BotError("\n".join(str(f) for f in errors))

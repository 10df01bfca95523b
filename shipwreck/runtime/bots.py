"""Which script plays a bot seat: found by *name* only, never by a path.

A seat names its bot as ``(name, owner)``: ``owner`` is ``None`` for a shipped bot
(:mod:`shipwreck.lang.bots.registry`) and a player's name for that player's saved bot (its source
is in the store: ``ssh host bot save NAME < mine.bot``). So a table restored at start-up finds
its bots wherever the server was started from, and no word a player types reaches a file.

Compiling a saved script can take half a second for the largest one (64 KiB), and one event loop
serves every player, so a saved bot is compiled off the loop (a thread) when its owner signs in
(:meth:`BotBook.warm`) and kept; until then a small script is compiled at once and a large one
is not ready (``new`` says so; an autopilot plays the default bot meanwhile).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from typing import Protocol

from shipwreck.games import title
from shipwreck.lang.bots import BotError, BotScript, is_bot_name, load_source, shipped_bot
from shipwreck.lang.bots.registry import is_shipped, shipped_names

log = logging.getLogger("shipwreck.bots")

INLINE_BYTES = 4096
"""A saved script up to this size is compiled on the event loop when it is needed (a few ms)."""
CACHED_SCRIPTS = 512
"""Compiled saved scripts kept in memory (the least recently used go first)."""


class SavedBots(Protocol):
    """The part of the store a book reads."""

    def bot(self, owner: str, name: str) -> str | None: ...

    def bot_names(self, owner: str) -> list[str]: ...


class BotNotReady(BotError):
    """A saved bot that is being compiled off the event loop; ask again in a moment."""


class BotBook:
    """Shipped bots, players' saved bots, and (for ``shipwreck play``) scripts the local user
    loaded from files, all by name."""

    def __init__(self, store: SavedBots | None = None) -> None:
        self.store = store
        self.local: dict[str, BotScript] = {}
        """Scripts loaded from files by the local command line (``play --bots mine.bot``)."""
        self._compiled: dict[tuple[str, str], tuple[str, BotScript]] = {}
        """(owner, name) -> (digest of the source, script)."""
        self._warming: set[str] = set()

    # ------------------------------------------------------------------ looking up

    def script(self, name: str, owner: str | None = None) -> BotScript:
        """The script for a seat's ``(name, owner)``. Raises :class:`BotError` with a one-line
        reason (:class:`BotNotReady` for a large saved bot still being compiled)."""
        if owner is None:
            if name in self.local:
                return self.local[name]
            return shipped_bot(name)
        source = self.store.bot(owner, name) if self.store is not None else None
        if source is None:
            raise BotError(f"{owner} has no saved bot {name!r}")
        digest = _digest(source)
        known = self._compiled.get((owner, name))
        if known is not None and known[0] == digest:
            self._compiled[(owner, name)] = self._compiled.pop((owner, name))  # recently used
            return known[1]
        if len(source.encode()) > INLINE_BYTES and _loop_running():
            self.warm(owner)
            raise BotNotReady(f"your bot {name!r} is still loading; try again in a moment")
        return self._keep(owner, name, digest, load_source(source, f"{owner}'s {name}"))

    def resolve(self, word: str, player: str | None, game: str) -> tuple[str, str | None]:
        """What a player's word names, as ``(name, owner)``: a shipped bot or one of the
        player's own saved bots, playing ``game``. Raises :class:`BotError`: one line that
        names the word only if it is a bot name, and never echoes anything from a file.

        ``OWNER/NAME`` is how the ladder lists a saved bot: one's own is seated by it as by its
        name; another player's is theirs to seat (it plays others on the ladder)."""
        owner_word, slash, name_word = word.partition("/")
        if slash and is_bot_name(owner_word) and is_bot_name(name_word):
            if owner_word == player:
                return self.resolve(name_word, player, game)
            mine = " or one of yours (ssh host bot save NAME < FILE)" if player else ""
            if self.store is None or self.store.bot(owner_word, name_word) is None:
                raise BotError(f"there is no saved bot {word!r}; try {self._examples(game)}{mine}")
            raise BotError(
                f"{word!r} is {owner_word}'s saved bot: only they seat it at a table (it meets"
                f" others on the ladder); try {self._examples(game)}{mine}"
            )
        if not is_bot_name(word):
            raise BotError(
                f"bot names are a-z, 0-9 and _ (up to 32), not files; try {self._examples(game)}"
            )
        if word in self.local or is_shipped(word):
            owner = None
        elif player is not None and self.store is not None and self.store.bot(player, word):
            owner = player
        else:
            mine = " or one of yours (ssh host bot save NAME < FILE)" if player else ""
            raise BotError(f"there is no bot {word!r}; try {self._examples(game)}{mine}")
        script = self.script(word, owner)
        if script.game != game:
            plays = f"bot {word!r} plays {title(script.game)}, not {title(game)}"
            raise BotError(f"{plays}; try {self._examples(game)}")
        return word, owner

    def _examples(self, game: str) -> str:
        names = [*self.local, *shipped_names(game)]
        return ", ".join(names) or "free"

    # ------------------------------------------------------------------ compiling off the loop

    def warm(self, owner: str, done: Callable[[], None] | None = None) -> None:
        """Compile ``owner``'s saved bots in a thread, so using them later costs the event loop
        nothing. Does nothing without a running loop or a store, or if it is under way."""
        if self.store is None or owner in self._warming or not _loop_running():
            return
        todo: list[tuple[str, str]] = []
        for name in self.store.bot_names(owner):
            source = self.store.bot(owner, name)
            known = self._compiled.get((owner, name))
            if source is not None and (known is None or known[0] != _digest(source)):
                todo.append((name, source))
        if not todo:
            return
        self._warming.add(owner)

        def compile_all() -> list[tuple[str, str, BotScript | None]]:
            out: list[tuple[str, str, BotScript | None]] = []
            for name, source in todo:
                try:
                    out.append((name, source, load_source(source, f"{owner}'s {name}")))
                except BotError:
                    out.append((name, source, None))
            return out

        async def run() -> None:
            try:
                for name, source, script in await asyncio.to_thread(compile_all):
                    if script is not None:
                        self._keep(owner, name, _digest(source), script)
            except Exception:
                log.exception("compiling %s's saved bots failed", owner)
            finally:
                self._warming.discard(owner)
            if done is not None:
                done()

        asyncio.get_running_loop().create_task(run())

    def _keep(self, owner: str, name: str, digest: str, script: BotScript) -> BotScript:
        self._compiled[(owner, name)] = (digest, script)
        while len(self._compiled) > CACHED_SCRIPTS:
            del self._compiled[next(iter(self._compiled))]
        return script


def _digest(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True

"""``shipwreck serve``: the store, the lobby, the SSH listener and the table timers, wired.

This is the only place that knows all the layers: the SSH side (:mod:`.ssh`) runs one
:class:`~shipwreck.tui.app.ShipwreckApp` per session over the :class:`~shipwreck.runtime.Lobby`,
which persists to the :class:`~shipwreck.store.Store`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path
from typing import Any

import asyncssh

from shipwreck.config import Config
from shipwreck.runtime import Lobby
from shipwreck.runtime.table import LoopTurns
from shipwreck.server.gc_policy import FullCollector, tune_gc
from shipwreck.server.ssh import LIVE_APPS, LiveApps, SessionInfo, ensure_host_key, start_server
from shipwreck.store import Store
from shipwreck.tui.app import RefusedApp, ShipwreckApp

log = logging.getLogger("shipwreck.server")

TICK_SECONDS = 0.5
REFUSALS_BEFORE_LOCK = 5
LOCK_SECONDS = 60.0
STOP_WAIT = 5.0
"""Seconds ``stop`` waits for the SSH listener to close before going on."""


class Service:
    """One running server. ``await start()``, then ``await stop()`` (tests use both)."""

    def __init__(self, config: Config, live: LiveApps | None = None) -> None:
        self.config = config
        self.live = live if live is not None else LIVE_APPS
        self.store = Store(config.server.database)
        timers = {k: int(v) for k, v in _fields(config.timers).items()}
        self.lobby = Lobby(
            default_bot=config.bots.default,
            timers=timers,
            schedule=LoopTurns(),
            bot_moves_per_turn=config.bots.bot_moves_per_turn,
            unattended_move_seconds=config.bots.unattended_move_seconds,
        )
        self.restored = self.lobby.attach_store(self.store)
        self.lobby.saved_bot = lambda player: self.store.bot(player, "autopilot")
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self._by_key: dict[str, int] = {}
        self._by_address: dict[str, int] = {}
        self._refused: dict[str, list[float]] = {}
        self.fingerprint = ""
        self._ticker: asyncio.Task[None] | None = None
        self.collector = FullCollector(
            lambda: self.live.ended_total,
            every=config.limits.full_gc_seconds,
            after_ended=config.limits.full_gc_after_ended,
        )

    @property
    def port(self) -> int:
        assert self.acceptor is not None
        return int(self.acceptor.get_port())

    async def start(self) -> None:
        s = self.config.server
        self.fingerprint = ensure_host_key(s.host_key)
        log.info("host key %s (%s)", s.host_key, self.fingerprint)
        if self.restored:
            log.info("restored %d unfinished tables from %s", self.restored, s.database)
        self.acceptor = await start_server(
            s.listen,
            s.port,
            s.host_key,
            app_factory=self.app_for,
            authorize=self.authorize,
            live=self.live,
            max_write_buffer=self.config.limits.write_buffer_bytes,
            exec_handler=self.run_command,
            max_exec_input=self.config.limits.bot_script_bytes,
            exec_wants_input=_reads_script,
            input_batch=self.config.limits.keys_per_turn,
            max_paste=self.config.limits.paste_length,
        )
        self._ticker = asyncio.create_task(self._tick_forever())
        log.info("listening on %s:%d", s.listen, self.port)

    async def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        if self.acceptor is not None:
            self.acceptor.close()
            try:  # closing a listener may wait for its connections: never forever
                async with asyncio.timeout(STOP_WAIT):
                    await self.acceptor.wait_closed()
            except TimeoutError:
                log.warning("stopping: connections still open after %.0f s; going on", STOP_WAIT)
        await self.live.shutdown()
        self.lobby.close()
        self.store.close()

    def authorize(self, username: str, key: Any) -> bool:
        """Any well-formed public key may try; who it belongs to is settled in :meth:`app_for`
        (which runs only once the client has proved it holds the key). A name that keeps being
        tried with the wrong key is locked for a while against other keys (failed-auth back-off);
        its owner's key still gets in."""
        if not username or len(username) > 32:
            return False
        if self._refusals(username) < REFUSALS_BEFORE_LOCK:
            return True
        owner = self.store.player(username)
        return owner is not None and owner.fingerprint == getattr(key, "fingerprint", None)

    def _refusals(self, name: str) -> int:
        now = time.monotonic()
        recent = [t for t in self._refused.get(name, []) if now - t < LOCK_SECONDS]
        self._refused[name] = recent
        return len(recent)

    def app_for(self, info: SessionInfo) -> Any:
        name = info.username
        if not _valid_name(name):
            return RefusedApp(
                f"'{name[:32]}' is not a name here: use letters, digits, - and _ "
                "(up to 32), e.g. ssh ann@host"
            )
        who = self.store.identify(name, info.key_fingerprint, info.key.openssh)
        if not who.ok:
            log.info("refused %s with key %s: name taken", name, info.key_fingerprint)
            self._refused.setdefault(name, []).append(time.monotonic())
            return RefusedApp(who.message)
        if who.registered_now:
            log.info("registered %s with key %s", name, info.key_fingerprint)
        limits = self.config.limits
        key, address = info.key_fingerprint, info.peer[0]
        if self._by_key.get(key, 0) >= limits.sessions_per_key:
            return RefusedApp(f"this key already has {limits.sessions_per_key} sessions open")
        if self._by_address.get(address, 0) >= limits.sessions_per_address:
            return RefusedApp(f"{address} already has {limits.sessions_per_address} sessions open")
        self._by_key[key] = self._by_key.get(key, 0) + 1
        self._by_address[address] = self._by_address.get(address, 0) + 1

        def closed() -> None:
            self._by_key[key] -= 1
            self._by_address[address] -= 1

        return ShipwreckApp(
            self.lobby,
            name,
            key,
            on_close=closed,
            line_length=limits.line_length,
            commands_per_second=limits.commands_per_second,
        )

    async def run_command(self, info: SessionInfo, command: str, text: str) -> tuple[str, int]:
        """``ssh host bot check < mine.bot`` and ``ssh host bot save NAME < mine.bot``: the only
        commands. Output is text for the client's terminal; the status is its exit code."""
        from shipwreck.lang.bots.lint import check_source

        words = command.split()
        if words[:2] == ["bot", "check"] and len(words) == 2:
            findings = check_source(text, "stdin")
            errors = any(f.level == "error" for f in findings)
            lines = [str(f) for f in findings] or ["stdin: ok"]
            return "\n".join(lines) + "\n", 1 if errors else 0
        if words[:2] == ["bot", "save"] and len(words) == 3:
            name = words[2]
            if not _valid_name(name):
                return "bot save NAME: letters, digits, - and _ only\n", 2
            who = self.store.identify(info.username, info.key_fingerprint, info.key.openssh)
            if not who.ok:
                return f"shipwreck: {who.message}\n", 1
            findings = check_source(text, name)
            if any(f.level == "error" for f in findings):
                return "\n".join(str(f) for f in findings) + "\nnot saved\n", 1
            self.store.save_bot(info.username, name, text)
            use = " (your autopilot)" if name == "autopilot" else ""
            return f"saved bot '{name}' for {info.username}{use}\n", 0
        return (
            "shipwreck: unknown command; available: 'bot check < FILE', 'bot save NAME < FILE'\n",
            2,
        )

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                self.lobby.tick()
            except Exception:  # a broken table must not stop the clock for the others
                log.exception("table timer tick failed")
            self.collector.maybe_collect()


def _reads_script(command: str) -> bool:
    """Only ``bot check`` and ``bot save NAME`` read a script from standard input; any other
    command is answered at once instead of waiting for an EOF that ``ssh host bot`` never sends."""
    words = command.split()
    return words == ["bot", "check"] or (words[:2] == ["bot", "save"] and len(words) == 3)


def _valid_name(name: str) -> bool:
    return 0 < len(name) <= 32 and all(c.isalnum() or c in "-_" for c in name) and name.isascii()


def _fields(section: Any) -> dict[str, Any]:
    return {f: getattr(section, f) for f in section.__struct_fields__}


def setup_logging(log_file: str) -> None:
    """Log to a file, or to stderr; never to stdout (Textual owns it while an app runs)."""
    handler: logging.Handler = (
        logging.FileHandler(log_file) if log_file else logging.StreamHandler()
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger("shipwreck")
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    root.propagate = False


async def serve(config: Config) -> None:
    """Run until interrupted."""
    Path(config.server.database).parent.mkdir(parents=True, exist_ok=True)
    service = Service(config)
    await service.start()
    tune_gc()
    try:
        await asyncio.Event().wait()
    finally:
        await service.stop()

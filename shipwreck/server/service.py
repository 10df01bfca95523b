"""``shipwreck serve``: the store, the lobby, the SSH listener and the table timers, wired.

This is the only place that knows all the layers: the SSH side (:mod:`.ssh`) runs one
:class:`~shipwreck.tui.app.ShipwreckApp` per session over the :class:`~shipwreck.runtime.Lobby`,
which persists to the :class:`~shipwreck.store.Store`.
"""

from __future__ import annotations

import asyncio
import logging
import math
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import asyncssh

from shipwreck import _native
from shipwreck.config import Config, decision_timers
from shipwreck.games import seat_names
from shipwreck.lang.bots import shipped_bot, shipped_names
from shipwreck.lang.bots.registry import header_name
from shipwreck.names import (
    player_name_refusal,
    reserved_player_name,
    valid_bot_name,
    valid_player_name,
)
from shipwreck.runtime import Lobby
from shipwreck.runtime.table import LoopTurns
from shipwreck.server.asyncssh_fence import install_patches as install_asyncssh_patches
from shipwreck.server.gc_policy import FullCollector, tune_gc
from shipwreck.server.limits import Counts, TokenBuckets, WrongKeys
from shipwreck.server.lint_pool import LintPool
from shipwreck.server.ssh import (
    LIVE_APPS,
    STOPPING_MESSAGE,
    Admission,
    ClientKey,
    LiveApps,
    SessionInfo,
    ensure_host_key,
    start_server,
)
from shipwreck.store import Store
from shipwreck.tasks import stop_task
from shipwreck.tui._textual import install_patches
from shipwreck.tui.app import ShipwreckApp

if TYPE_CHECKING:
    from shipwreck.server.cluster import ClusterMember
    from shipwreck.server.ladder_games import LadderGames

log = logging.getLogger("shipwreck.server")

TICK_SECONDS = 0.5
REFUSALS_BEFORE_LOCK = 5
LOCK_SECONDS = 60.0
STOP_WAIT = 5.0
"""Seconds ``stop`` waits for the SSH listener to close before going on."""
BUSY = "server busy, try again in a minute"
BOT_NAME_RULE = (
    "lower-case letters, digits and _ (a-z, 0-9, _; up to 32), e.g. bot save rower < rower.bot"
)


class Service:
    """One running server. ``await start()``, then ``await stop()`` (tests use both)."""

    def __init__(self, config: Config, live: LiveApps | None = None) -> None:
        self.config = config
        self.live = live if live is not None else LIVE_APPS
        self.store = Store(config.server.database)
        timers = decision_timers(config)
        self.lobby = Lobby(
            default_bot=config.bots.default,
            timers=timers,
            autopilot_after=config.tables.autopilot_after,
            solo_timers=config.tables.solo_timers,
            auto_start_seconds=config.tables.auto_start_seconds,
            open_tables_per_player=config.limits.open_tables_per_player,
            new_tables_per_minute=config.limits.new_tables_per_minute,
            keep_finished_seconds=config.limits.finished_table_seconds,
            schedule=LoopTurns(),
            bot_moves_per_turn=config.bots.bot_moves_per_turn,
            unattended_move_seconds=config.bots.unattended_move_seconds,
        )
        clustered = bool(config.cluster.bus)
        # A worker among several restores only the tables it claims (ClusterMember.start).
        self.restored = self.lobby.attach_store(self.store, restore=not clustered)
        self.cluster: ClusterMember | None = None
        """This process's part among several workers (server/cluster.py), if any."""
        if clustered:  # (imported only here: one process never loads the NATS client)
            from shipwreck.server.cluster import ClusterMember

            self.cluster = ClusterMember(self.lobby, config.cluster)
        self.acceptor: asyncssh.SSHAcceptor | None = None
        limits = config.limits
        self._by_key = Counts()
        """Open sessions (games and commands) per key fingerprint."""
        self._by_address = Counts()
        """Open session channels per client address, refused ones included while they last."""
        self._wrong_keys = WrongKeys(LOCK_SECONDS)
        self._exec_by_key = TokenBuckets(limits.exec_per_minute, limits.exec_burst)
        self._exec_by_address = TokenBuckets(limits.exec_per_minute, limits.exec_burst)
        self.lint = LintPool(limits.lint_workers, limits.lint_queue)
        self.fingerprint = ""
        self._ticker: asyncio.Task[None] | None = None
        self.ladder_games: LadderGames | None = None
        self._ladder_task: asyncio.Task[None] | None = None
        self.collector = FullCollector(
            lambda: self.live.ended_total,
            every=config.limits.full_gc_seconds,
            after_ended=config.limits.full_gc_after_ended,
            min_gap=config.limits.full_gc_min_seconds,
        )

    @property
    def port(self) -> int:
        assert self.acceptor is not None
        return int(self.acceptor.get_port())

    async def start(self) -> None:
        s = self.config.server
        log.info("%s", install_patches())  # (once per process; each patch has its own guard)
        log.info("%s", install_asyncssh_patches())
        log.info("engine: %s", _native.build())
        self.fingerprint = ensure_host_key(s.host_key)
        log.info("host key %s (%s)", s.host_key, self.fingerprint)
        if self.restored:
            tables = "table" if self.restored == 1 else "tables"
            log.info("restored %d unfinished %s from %s", self.restored, tables, s.database)
        for name in shipped_names():  # compiled now, not on the loop when a first table seats it
            shipped_bot(name)
        if self.cluster is not None:
            await self.cluster.start()
        self.acceptor = await start_server(
            s.listen,
            s.port,
            s.host_key,
            app_factory=self.app_for,
            authorize=self.authorize,
            admit=self.admit,
            exec_input_timeout=self.config.limits.exec_input_seconds,
            auth_hint=self.auth_hint,
            live=self.live,
            max_write_buffer=self.config.limits.write_buffer_bytes,
            exec_handler=self.run_command,
            max_exec_input=self.config.limits.bot_script_bytes,
            exec_wants_input=_reads_script,
            input_batch=self.config.limits.keys_per_turn,
            max_paste=self.config.limits.paste_length,
            keys_per_second=self.config.limits.keys_per_second,
            key_burst=self.config.limits.key_burst,
            reuse_port=self.cluster is not None,  # workers share the port (SO_REUSEPORT)
        )
        self._ticker = asyncio.create_task(self._tick_forever())
        self._start_ladder_games()
        log.info("listening on %s:%d", s.listen, self.port)

    def _start_ladder_games(self) -> None:
        """Saved bots' background ladder games (server/ladder_games.py), unless ``[ladder]
        games_per_minute`` is 0; among several workers, by the one holding the ladder's
        lease only (each would play them)."""
        if self.config.ladder.games_per_minute <= 0:
            return
        from shipwreck.server.ladder_games import LadderGames

        self.ladder_games = LadderGames(self.store, self.config.ladder)
        cluster = self.cluster
        if cluster is not None and cluster.bus is not None:
            from shipwreck.runtime.ownership import LADDER_LEASE, while_held

            held = while_held(cluster.bus, LADDER_LEASE, cluster.worker, self.ladder_games.run)
            self._ladder_task = asyncio.create_task(held)
        else:
            self._ladder_task = asyncio.create_task(self.ladder_games.run())

    async def stop(self) -> None:
        if self._ladder_task is not None and self.ladder_games is not None:
            await stop_task(self._ladder_task)
            await self.ladder_games.close()
        if self._ticker is not None:
            await stop_task(self._ticker)
        if self.acceptor is not None:
            self.acceptor.close()
            try:  # closing a listener may wait for its connections: never forever
                async with asyncio.timeout(STOP_WAIT):
                    await self.acceptor.wait_closed()
            except TimeoutError:
                log.warning("stopping: connections still open after %.0f s; going on", STOP_WAIT)
        await self.live.shutdown(farewell=STOPPING_MESSAGE)
        if self.cluster is not None:
            await self.cluster.stop()
        self.lint.close()
        self.lobby.close()
        self.store.close()

    def authorize(self, username: str, key: ClientKey) -> bool:
        """Every well-formed public key may try a valid name; who it belongs to is settled in
        :meth:`admit` (which runs only once the client has proved it holds the key). A name that
        keeps being tried with the wrong key is locked for a while against other keys
        (failed-auth back-off); its owner's key still gets in. A name that can never be valid
        fails here, before any session costs anything. Reads only: nothing is stored."""
        if not valid_player_name(username):
            return False
        if self._wrong_keys.count(username) < REFUSALS_BEFORE_LOCK:
            return True
        owner = self.store.player(username)
        return owner is not None and owner.fingerprint == getattr(key, "fingerprint", None)

    def sign_in_command(self, name: str, local: tuple[str, int]) -> str:
        """The whole ``ssh`` command that signs in as ``name`` here, for a player to copy:
        ``-p PORT`` unless the port the client reached is 22; ``[server] public_host``, or
        else the address the client reached."""
        host, port = local
        if host.startswith("::ffff:") and "." in host:  # (IPv4 reached over an IPv6 socket)
            host = host.removeprefix("::ffff:")
        host = self.config.server.public_host or host or "HOST"
        return f"ssh -p {port} {name}@{host}" if port not in (0, 22) else f"ssh {name}@{host}"

    def auth_hint(self, username: str, offered_a_key: bool, local: tuple[str, int]) -> str:
        """What a client that could not sign in reads (its ``ssh`` prints it): how to make a
        key, or why its keys were refused. Names no owner and no fingerprint (F16)."""
        if not valid_player_name(username):
            return player_name_refusal(username, self.sign_in_command("ann", local)) + "."
        if offered_a_key:
            other = self.sign_in_command(self.store.free_name(username), local)
            return (
                f"none of your keys may sign in as '{username}' now: the name belongs to"
                " another key, or was tried too often with the wrong one. Use that key, wait a"
                f" while, or pick another name, e.g. {other}"
            )
        return (
            "Shipwreck signs you in with an SSH key, and your ssh offered none. Make one"
            " (press Enter at each question):\n"
            "    ssh-keygen -t ed25519\n"
            "then connect again; your name is yours from then on, with that key:\n"
            f"    {self.sign_in_command(username, local)}"
        )

    def open_sessions(self) -> tuple[dict[str, int], dict[str, int]]:
        """Open sessions per key and per address (for tests and the curious)."""
        return self._by_key.as_dict(), self._by_address.as_dict()

    def admit(self, info: SessionInfo, command: str | None) -> Admission:
        """May this session channel (a game, or ``command``) go on? Every channel counts against
        its address while it lives, refused or not; an admitted one against its key too."""
        key, address = info.key_fingerprint, info.peer[0]
        open_here = self._by_address[address]
        self._by_address.add(address)
        refusal = self._refusal(info, command, open_here)
        if refusal:
            return Admission(lambda: self._by_address.remove(address), refusal)
        self._by_key.add(key)

        def release() -> None:
            self._by_key.remove(key)
            self._by_address.remove(address)

        return Admission(release)

    def _refusal(self, info: SessionInfo, command: str | None, open_here: int) -> str:
        """Why this session may not go on ("" if it may), in one line."""
        limits = self.config.limits
        name, key, address = info.username, info.key_fingerprint, info.peer[0]
        if not valid_player_name(name):
            return player_name_refusal(name, self.sign_in_command("ann", info.local))
        if open_here >= limits.sessions_per_address:
            n = limits.sessions_per_address
            return f"{address} already has {n} sessions open; close one, or try again later"
        if self._by_key[key] >= limits.sessions_per_key:
            return f"this key already has {limits.sessions_per_key} sessions open; close one"
        if command is not None and _reads_script(command):  # (the rest is answered in a line)
            wait = max(self._exec_by_key.take(key), self._exec_by_address.take(address))
            if wait > 0:
                return f"too many commands; try again in {math.ceil(wait)} s"
        reserved = set(shipped_names()) | seat_names()
        if self.store.player(name) is None and reserved_player_name(name, reserved):
            other = self.sign_in_command(f"{name}_1", info.local)
            return (
                f"'{name}' reads like a seat or a bot's name, so no player may take it; pick"
                f" another name, e.g. {other}"
            )
        who = self.store.identify(
            name,
            key,
            info.key.openssh,
            register=command is None and info.pty,  # (a session refused for want of a PTY: no)
            sign_in=lambda other: self.sign_in_command(other, info.local),
        )
        if not who.ok:
            if who.wrong_key:
                log.info("refused %s with key %s: name taken", name, key)
                self._wrong_keys.add(name)
            return who.message
        if who.registered_now:
            log.info("registered %s with key %s", name, key)
        return ""

    def app_for(self, info: SessionInfo) -> ShipwreckApp:
        """The game for an admitted session."""
        limits = self.config.limits
        return ShipwreckApp(
            self.lobby,
            info.username,
            info.key_fingerprint,
            line_length=limits.line_length,
            commands_per_second=limits.commands_per_second,
        )

    async def run_command(self, info: SessionInfo, command: str, text: str) -> tuple[str, int]:
        """``ssh host bot check < mine.bot`` and ``ssh host bot save NAME < mine.bot``: the only
        commands. Output is text for the client's terminal; the status is its exit code.
        Scripts are checked in a worker process (see `LintPool`), never on the event loop."""
        if not valid_player_name(info.username):
            example = self.sign_in_command("ann", info.local)
            return f"shipwreck: {player_name_refusal(info.username, example)}\n", 1
        words = command.split()
        if words == ["bot", "check"]:
            checked = await self._check(text, "stdin")
            if isinstance(checked, str):
                return checked, 1
            lines, errors = checked
            return "\n".join(lines or ["stdin: ok"]) + "\n", 1 if errors else 0
        if words[:2] == ["bot", "save"] and len(words) == 3:
            return await self._save_bot(info, words[2], text)
        if words == ["bot", "save"]:  # (named by its header, as sim and arena name it)
            name = header_name(text)
            if name is None or not valid_bot_name(name):
                return (
                    "shipwreck: bot save: name the bot in its first line"
                    ' (bot "rower" for lifeboat), or here: bot save NAME < FILE\n',
                    2,
                )
            return await self._save_bot(info, name, text)
        if words[:1] == ["ladder"] and len(words) <= 2:
            return self._ladder(info.username, words[1:])
        if words[:2] == ["bot", "status"] and len(words) == 3:
            return self._bot_status(info.username, words[2])
        if words == ["help"]:
            return COMMANDS_HELP, 0
        return (
            "shipwreck: unknown command; available: 'bot check < FILE', 'bot save [NAME] < FILE',"
            " 'bot status NAME', 'ladder [GAME]', 'help'\n",
            2,
        )

    def _bot_status(self, owner: str, name: str) -> tuple[str, int]:
        """``ssh host bot status NAME``: a saved bot's ratings and ladder games."""
        from shipwreck.server.ladder_games import bot_status

        if not valid_bot_name(name):
            return f"shipwreck: bot status NAME: NAME is {BOT_NAME_RULE}\n", 2
        return bot_status(self.store, owner, name, on=self.ladder_games is not None)

    def _ladder(self, player: str, words: list[str]) -> tuple[str, int]:
        """``ssh host ladder [GAME]``: a game's ladder as plain text, for scripts."""
        from shipwreck.games.registry import all_games, default_game, find
        from shipwreck.runtime.ladder import format_ladder, ladder

        found = find(words[0].lower()) if words else default_game()
        if found is None:
            known = " or ".join(
                g.word if g.word.lower() == g.title.lower() else f"{g.word} ({g.title})"
                for g in all_games()
            )
            return f"shipwreck: ladder GAME: GAME is {known}\n", 2
        game = found.name
        best, mine = ladder(self.store.ratings, game, player)
        return "\n".join(format_ladder(game, best, mine)) + "\n", 0

    async def _save_bot(self, info: SessionInfo, name: str, text: str) -> tuple[str, int]:
        owner = info.username
        if not valid_bot_name(name):
            return f"shipwreck: bot save NAME: NAME is {BOT_NAME_RULE}\n", 2
        who = self.store.identify(
            owner,
            info.key_fingerprint,
            info.key.openssh,
            sign_in=lambda other: self.sign_in_command(other, info.local),
        )
        if not who.ok:
            if who.wrong_key:
                self._wrong_keys.add(owner)
            return f"shipwreck: {who.message}\n", 1
        if full := self._bots_full(owner, name):
            return full, 1
        checked = await self._check(text, name)
        if isinstance(checked, str):
            return checked, 1
        lines, errors = checked
        if errors:
            return "\n".join(lines) + "\nnot saved\n", 1
        if full := self._bots_full(owner, name):  # (another save may have landed meanwhile)
            return full, 1
        self.store.save_bot(owner, name, text)
        use = " (your autopilot)" if name == "autopilot" else ""
        return f"saved bot '{name}' for {owner}{use}\n", 0

    def _bots_full(self, owner: str, name: str) -> str:
        cap = self.config.limits.bots_per_player
        if self.store.bot(owner, name) is None and self.store.bot_count(owner) >= cap:
            return (
                f"shipwreck: you have {cap} saved bots, the most allowed; "
                "replace one instead: bot save EXISTING_NAME < FILE\n"
            )
        return ""

    async def _check(self, text: str, path: str) -> tuple[list[str], bool] | str:
        """A script's findings from a worker, or the one-line reason there are none."""
        try:
            checked = await self.lint.check(text, path)
        except Exception:
            log.exception("bot check failed")
            return "shipwreck: the check failed; try again in a minute\n"
        return f"shipwreck: {BUSY}\n" if checked is None else checked

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                self.lobby.tick()
            except Exception:  # a broken table must not stop the clock for the others
                log.exception("table timer tick failed")
            self.collector.maybe_collect()


COMMANDS_HELP = """\
shipwreck commands (ssh host COMMAND); ssh host alone opens the game:
  bot check < FILE       check a bot script and list its problems
  bot save NAME < FILE   save it as your bot NAME (then: new 4 NAME ... at the lobby)
  bot save < FILE        save it under the name in its first line (bot "Rower": rower)
  bot status NAME        its ratings, its background ladder games, its last default moves
  ladder [GAME]          the ratings of a game's players and bots (lifeboat, or sm)
  help                   this list
"""


def _reads_script(command: str) -> bool:
    """Only ``bot check`` and ``bot save NAME`` read a script from standard input; any other
    command is answered at once instead of waiting for an EOF that ``ssh host bot`` never sends."""
    words = command.split()
    return words == ["bot", "check"] or (words[:2] == ["bot", "save"] and len(words) <= 3)


def setup_logging(log_file: str, worker: str = "") -> None:
    """Log to a file, or to stderr; never to stdout (Textual owns it while an app runs).
    A worker among several (``worker``) names itself on every line: their lines interleave,
    and each counts its own sessions from 1."""
    handler: logging.Handler = (
        logging.FileHandler(log_file) if log_file else logging.StreamHandler()
    )
    who = f"[{worker}] " if worker else ""
    handler.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s {who}%(name)s: %(message)s"))
    root = logging.getLogger("shipwreck")
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    root.propagate = False


async def serve(config: Config) -> None:
    """Run until interrupted."""
    Path(config.server.database).parent.mkdir(parents=True, exist_ok=True)
    service = Service(config)
    try:
        await service.start()
    except BaseException:
        service.lint.close()
        service.store.close()
        raise
    tune_gc()
    try:
        await until_stopped()
    finally:
        await service.stop()


async def until_stopped() -> None:
    """Return on SIGTERM or SIGINT (Ctrl+C), so that ``serve`` stops as an operator expects
    either way: every player is told, tables are handed back, the exit status is 0. (SIGTERM
    used to end the process on the spot, with status -15 and players cut off mid-screen.) A
    second signal while stopping acts as the default would: SIGINT raises
    ``KeyboardInterrupt``, SIGTERM ends the process."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    def stopping(sig: signal.Signals) -> None:
        log.info("stopping (%s)", sig.name)
        for each in SIGNALS:
            loop.remove_signal_handler(each)
        stop.set()

    for sig in SIGNALS:
        loop.add_signal_handler(sig, stopping, sig)
    try:
        await stop.wait()
    finally:
        for sig in SIGNALS:
            loop.remove_signal_handler(sig)


SIGNALS = (signal.SIGTERM, signal.SIGINT)

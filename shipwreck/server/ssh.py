"""Serve Textual apps over SSH: one `App` per SSH session, in this process.

Usage::

    fingerprint = ensure_host_key(path)          # creates the key on first run
    acceptor = await start_server(
        "0.0.0.0", 2222, path,
        app_factory=lambda info: MyApp(info),     # info: SessionInfo
        authorize=lambda username, key: True,     # or a name, or an awaitable of either
    )
    ...
    acceptor.close(); await LIVE_APPS.shutdown()

Each accepted interactive session (a shell request with a PTY) gets ``app_factory(info)`` —
a fresh `textual.app.App` — run with ``app.run_async()`` in its own asyncio task, drawing through
`shipwreck.server.driver.SSHDriver`. A crash inside one app ends that session only. Sessions
without a PTY, ``exec`` requests, subsystems (SFTP), port forwarding, X11 and agent forwarding
are refused.

Decisions:

* ``encoding="utf-8", errors="replace"``: Textual consumes and produces ``str``, and asyncssh's
  incremental codec copes with characters split across packets; ``errors="replace"`` turns a
  client's invalid UTF-8 into U+FFFD instead of a decode error that would drop the connection.
* ``line_editor=False``: the app gets every byte (keys, mouse, paste) unedited and unechoed.
* Colour depth: Textual takes it from the server's environment. Unless ``TEXTUAL_COLOR_SYSTEM``
  is set for the server process (then it wins for everybody), each session's colour system is
  chosen from the client's terminal (see `color_system_for`): ``COLORTERM=truecolor|24bit`` if
  the client forwarded it → truecolor, a ``*-direct`` TERM → truecolor, ``*-256color`` → 256
  colours, anything else → the 16 standard colours.
* ``authorize`` runs during public-key authentication, once when the client offers a key and
  again when it proves it holds the private key — so it must be a pure check with no side
  effects (bind a new name to a key in ``app_factory``, which only runs after authentication).
* ``admit`` decides, for every session channel (shell or command) once it starts, whether it may
  go on; its `Admission` is released exactly once, when the channel closes, whatever ended it
  (so counts of open sessions can't leak). A refusal is one line written to the channel, which
  then ends: no app is built for it.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import io
import itertools
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TextIO, TypeAlias

import asyncssh
from rich.color import ColorSystem
from rich.console import Console
from textual.app import App

from shipwreck.server.asyncssh_fence import ENCRYPTION
from shipwreck.server.driver import (
    DEFAULT_INPUT_BATCH,
    DEFAULT_KEY_BURST,
    DEFAULT_KEYS_PER_SECOND,
    DEFAULT_MAX_PASTE,
    DEFAULT_MAX_WRITE_BUFFER,
    SESSION_WINDOW,
    SessionIO,
    SSHDriver,
    attach_session_io,
)
from shipwreck.tui._textual.console import set_color_system

__all__ = [
    "LIVE_APPS",
    "Admission",
    "Admit",
    "AppFactory",
    "Authorize",
    "ClientKey",
    "ColorChoice",
    "HostKeyError",
    "LiveApps",
    "SessionInfo",
    "color_system_for",
    "ensure_host_key",
    "load_or_create_host_key",
    "start_server",
]

log = logging.getLogger(__name__)

NO_PTY_MESSAGE = (
    "shipwreck: this is a terminal game and needs a terminal; connect with `ssh -t`.\r\n"
)
NO_COMMANDS_MESSAGE = "shipwreck: commands are not available here; connect without one.\r\n"
CRASH_MESSAGE = "\r\nshipwreck: the game hit an internal error; this session has ended.\r\n"
BUSY_MESSAGE = "shipwreck: could not start a session; please try again later.\r\n"
STOPPING_MESSAGE = (
    "\r\nshipwreck: the server is stopping (a restart or an upgrade); your tables are saved."
    "\r\nSign in again in a minute with the same ssh command.\r\n"
)
"""What every player reads in their terminal when the server stops under them (SIGTERM or
Ctrl+C): their session ends, their games do not."""
KEY_FILE_MODE = 0o600

MAX_TERMINAL_SIZE = (500, 200)
"""The largest screen drawn, (columns, rows). A client may claim any size up to 2**32-1 in a PTY
request or a window change; drawn as claimed, 65535×65535 would take the whole server's memory.
A bigger terminal gets the app drawn at this size in its top-left corner."""


def _clamp_size(width: int, height: int) -> tuple[int, int]:
    max_width, max_height = MAX_TERMINAL_SIZE
    return min(width, max_width), min(height, max_height)


@dataclass(frozen=True, slots=True)
class ClientKey:
    """The public key a client authenticated with."""

    algorithm: str
    """e.g. ``"ssh-ed25519"``."""
    fingerprint: str
    """``"SHA256:..."``, as ``ssh-keygen -lf`` prints it."""
    openssh: str
    """The public key as one ``authorized_keys`` line, without a comment."""

    @classmethod
    def from_ssh_key(cls, key: asyncssh.SSHKey) -> ClientKey:
        return cls(
            algorithm=key.get_algorithm(),
            fingerprint=key.get_fingerprint("sha256"),
            openssh=key.export_public_key("openssh").decode("ascii").strip(),
        )


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """What the app factory learns about a session."""

    session_id: int
    username: str
    """The name the client logged in with (``ssh NAME@host``)."""
    identity: str
    """The name ``authorize`` returned, or ``username`` when it returned ``True``."""
    key: ClientKey
    term_type: str
    size: tuple[int, int]
    """The terminal size at the start, ``(width, height)``; later changes reach the app as
    ``textual.events.Resize``."""
    peer: tuple[str, int]
    """The client's address and port."""
    env: Mapping[str, str] = field(default_factory=dict)
    """Environment variables the client sent (``LANG``, ``COLORTERM`` if forwarded, ...)."""
    local: tuple[str, int] = ("", 0)
    """The server's address and port as this client reached them (for a refusal to show the
    whole ``ssh`` command to copy); ``("", 0)`` if unknown."""
    pty: bool = True
    """The client asked for a terminal (a session without one, or a command, is refused
    after its sign-in is checked: that refusal comes first)."""

    @property
    def key_fingerprint(self) -> str:
        return self.key.fingerprint


@dataclass(frozen=True, slots=True)
class Admission:
    """``admit``'s answer for one session channel: ``release`` runs once when the channel
    closes (a refused channel included: it counts while it lives); a non-empty ``refusal`` is
    written to the channel as one line, and the channel ends with ``status``."""

    release: Callable[[], None]
    refusal: str = ""
    status: int = 1


def _admit_all(info: SessionInfo, command: str | None) -> Admission:
    return Admission(release=lambda: None)


AuthHint: TypeAlias = Callable[[str, bool, tuple[str, int]], str]
"""``auth_hint(username, offered_a_key, local)``: the text shown to a client none of whose keys (if
it offered any) signed it in, before it is refused. Shown as the instructions of a
keyboard-interactive challenge with no prompts: OpenSSH prints them (at its default log level)
and asks nothing; the challenge always fails. Players sign in by key only."""

AuthResult: TypeAlias = bool | str
Authorize: TypeAlias = Callable[[str, ClientKey], AuthResult | Awaitable[AuthResult]]
"""``authorize(username, key)``: ``False`` refuses the key; ``True`` accepts it and the session's
identity is ``username``; a string accepts it and becomes the identity."""
AppFactory: TypeAlias = Callable[[SessionInfo], App[Any] | Awaitable[App[Any]]]
Admit: TypeAlias = Callable[[SessionInfo, "str | None"], Admission]
"""``admit(info, command)`` (``command`` is None for an interactive session)."""
ColorChoice: TypeAlias = Literal["auto", "standard", "256", "truecolor"]


class LiveApps:
    """A gauge of running session apps (and a handle to stop them all)."""

    def __init__(self) -> None:
        self._running: dict[int, tuple[App[Any], asyncio.Task[None]]] = {}
        self.started_total = 0
        self.ended_total = 0
        self.peak = 0
        self.farewell = ""
        """Written to each session that ends from now on, after its app (:meth:`shutdown`)."""

    @property
    def count(self) -> int:
        return len(self._running)

    def __len__(self) -> int:
        return len(self._running)

    def apps(self) -> list[App[Any]]:
        return [app for app, _task in self._running.values()]

    def _started(self, session_id: int, app: App[Any], task: asyncio.Task[None]) -> None:
        self._running[session_id] = (app, task)
        self.started_total += 1
        self.peak = max(self.peak, len(self._running))

    def _ended(self, session_id: int) -> None:
        if self._running.pop(session_id, None) is not None:
            self.ended_total += 1

    async def wait_for(self, count: int, timeout: float = 10.0) -> None:
        """Wait until exactly ``count`` apps are running (``TimeoutError`` otherwise)."""
        async with asyncio.timeout(timeout):
            while len(self._running) != count:
                await asyncio.sleep(0.02)

    async def shutdown(self, timeout: float = 5.0, farewell: str = "") -> None:
        """Ask every running app to exit; cancel those still running after ``timeout``. Each
        session then ends with ``farewell`` in its terminal."""
        self.farewell = farewell
        entries = list(self._running.values())
        for app, _task in entries:
            app.exit()
        tasks = [task for _app, task in entries]
        if not tasks:
            return
        _done, pending = await asyncio.wait(tasks, timeout=timeout)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending, timeout=timeout)


LIVE_APPS = LiveApps()
"""The default gauge, used when `start_server` is not given one."""


class _StdStreamGuard:
    """Undo what overlapping ``App.run_async`` calls leave in ``sys.stdout``/``sys.stderr``.

    Each app wraps its run in ``redirect_stdout``/``redirect_stderr`` (process globals). With
    several apps whose runs overlap, the contexts unwind out of order and a finished app's
    capture object can be left installed — keeping that app and its widgets alive and swallowing
    anything written to stdout. We remember the streams from before the first app and put them
    back whenever a leftover capture belongs to an app that is no longer running.
    """

    def __init__(self) -> None:
        self._depth = 0
        self._saved: tuple[TextIO, TextIO] | None = None

    @staticmethod
    def _is_stale_capture(stream: object) -> bool:
        owner = getattr(stream, "app", None)
        return isinstance(owner, App) and not owner.is_running

    def enter(self) -> None:
        if self._depth == 0:
            self._saved = (sys.stdout, sys.stderr)
        self._depth += 1

    def exit(self) -> None:
        self._depth -= 1
        saved = self._saved
        if saved is None:
            return
        if self._depth == 0 or self._is_stale_capture(sys.stdout):
            sys.stdout = saved[0]
        if self._depth == 0 or self._is_stale_capture(sys.stderr):
            sys.stderr = saved[1]
        if self._depth == 0:
            self._saved = None


_STD_STREAMS = _StdStreamGuard()
_SESSION_IDS = itertools.count(1)


def color_system_for(term_type: str, env: Mapping[str, str]) -> ColorChoice:
    """The colour system to render with for a client terminal."""
    colorterm = env.get("COLORTERM", "").strip().lower()
    if colorterm in ("truecolor", "24bit"):
        return "truecolor"
    term = term_type.strip().lower()
    if term.endswith("-direct") or "truecolor" in term:
        return "truecolor"
    if term.endswith("256color"):
        return "256"
    return "standard"


_RICH_COLOR_SYSTEMS: dict[str, ColorSystem] = {
    "standard": ColorSystem.STANDARD,
    "256": ColorSystem.EIGHT_BIT,
    "truecolor": ColorSystem.TRUECOLOR,
}


def _apply_color_system(app: App[Any], choice: ColorChoice, info: SessionInfo) -> None:
    if os.environ.get("TEXTUAL_COLOR_SYSTEM"):
        return  # an explicit server-wide setting; Textual has applied it already
    name = color_system_for(info.term_type, info.env) if choice == "auto" else choice
    set_color_system(app.console, _RICH_COLOR_SYSTEMS[name])


# Host key ------------------------------------------------------------------------------------


class HostKeyError(Exception):
    """The host key can't be used as it is (the message says what to do)."""


def _check_key_mode(key_path: Path) -> None:
    mode = key_path.stat().st_mode & 0o777
    if mode & 0o077:
        raise HostKeyError(
            f"host key {key_path} is readable by other users (mode {mode:o}); "
            f"run: chmod 600 {key_path}"
        )


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, KEY_FILE_MODE)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def load_or_create_host_key(path: str | os.PathLike[str]) -> asyncssh.SSHKey:
    """Read the server's private host key, generating an Ed25519 key there on first use
    (mode 0600, and its ``.pub`` too). A key others may read is refused (`HostKeyError`)."""
    key_path = Path(path)
    if key_path.exists():
        _check_key_mode(key_path)
        return asyncssh.read_private_key(key_path)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="shipwreck host key")
    key_path.parent.mkdir(parents=True, exist_ok=True)
    data = key.export_private_key("openssh")
    tmp = key_path.with_name(key_path.name + f".tmp{os.getpid()}")
    _write_private(tmp, data)
    try:
        os.link(tmp, key_path)  # fails if another process created the key meanwhile
    except FileExistsError:
        return asyncssh.read_private_key(key_path)
    finally:
        tmp.unlink(missing_ok=True)
    _write_private(key_path.with_name(key_path.name + ".pub"), key.export_public_key("openssh"))
    log.info("generated SSH host key %s", key_path)
    return key


def ensure_host_key(path: str | os.PathLike[str]) -> str:
    """Make sure the host key exists; return its ``SHA256:...`` fingerprint for printing."""
    return load_or_create_host_key(path).get_fingerprint("sha256")


# SSH server ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Config:
    app_factory: AppFactory
    authorize: Authorize
    live: LiveApps
    max_write_buffer: int
    mouse: bool
    color_system: ColorChoice
    max_sessions_per_connection: int
    stop_timeout: float
    exec_handler: ExecHandler | None = None
    """Runs ``ssh host COMMAND < input``: (info, command, input) -> (output, exit status)."""
    max_exec_input: int = 65536
    exec_wants_input: Callable[[str], bool] = lambda _command: True
    """Whether a command reads standard input (else it runs at once, without waiting for EOF)."""
    input_batch: int = DEFAULT_INPUT_BATCH
    """Input events (keys, ...) a session's app is handed per turn (see `SessionIO`)."""
    max_paste: int = DEFAULT_MAX_PASTE
    keys_per_second: float = DEFAULT_KEYS_PER_SECOND
    """Input events a session's app is handed a second, at most (see `KeyBudget`)."""
    key_burst: int = DEFAULT_KEY_BURST
    admit: Admit = _admit_all
    exec_input_timeout: float = 30.0
    """Seconds a command's standard input may take to reach its EOF (its input is held in
    memory until then)."""
    auth_hint: AuthHint | None = None
    """What to tell a client that could not sign in with a key (see `AuthHint`)."""


@dataclass(slots=True)
class _Login:
    username: str
    identity: str
    key: ClientKey


class _Server(asyncssh.SSHServer):
    """One per SSH connection: authentication and session requests."""

    def __init__(self, config: _Config) -> None:
        self._config = config
        self._conn: asyncssh.SSHServerConnection | None = None
        self._peer: tuple[str, int] = ("?", 0)
        self.local: tuple[str, int] = ("", 0)
        """The server's address and port as the client reached them (`SessionInfo.local`)."""
        self._login: _Login | None = None
        self.open_sessions = 0

    # Connection -------------------------------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        if isinstance(peer, tuple) and len(peer) >= 2:
            self._peer = (str(peer[0]), int(peer[1]))
        here = conn.get_extra_info("sockname")
        if isinstance(here, tuple) and len(here) >= 2:
            self.local = (str(here[0]), int(here[1]))
        log.debug("connection from %s:%d", *self._peer)

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is not None:
            log.info("connection from %s:%d lost: %s", *self._peer, exc)
        else:
            log.debug("connection from %s:%d closed", *self._peer)

    def abort(self) -> None:
        if self._conn is not None:
            self._conn.abort()

    # Authentication ---------------------------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        # A hint only, once: it never signs anyone in, and once given it is no longer offered
        # (asyncssh asks again after each failure; a client would be told it again and again).
        return self._config.auth_hint is not None and not self._hinted

    def get_kbdint_challenge(
        self, username: str, lang: str, submethods: str
    ) -> tuple[str, str, str, list[tuple[str, bool]]] | bool:
        hint = self._config.auth_hint
        if hint is None or self._hinted:  # once: OpenSSH would ask again, and print it again
            return False
        self._hinted = True
        text = hint(username, self._keys_offered > 0, self.local)
        log.info("%s:%d: no key signed %r in; hint given", *self._peer, username[:32])
        return ("shipwreck", text, "", [])

    def validate_kbdint_response(self, username: str, responses: Sequence[str]) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    _keys_offered = 0
    """Public keys the client has offered on this connection."""
    _hinted = False
    """The client has been given the ``auth_hint``."""

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self._keys_offered += 1
        client_key = ClientKey.from_ssh_key(key)
        try:
            result = self._config.authorize(username, client_key)
            if inspect.isawaitable(result):
                result = await result
        except Exception:
            log.exception("authorize(%r, %s) failed", username, client_key.fingerprint)
            return False
        if result is False or result == "":
            return False
        identity = result if isinstance(result, str) else username
        # The last accepted key before authentication completes is the one the client proved.
        self._login = _Login(username=username, identity=identity, key=client_key)
        return True

    def auth_completed(self) -> None:
        if self._login is not None:
            log.info(
                "login %s (%s) from %s:%d with %s",
                self._login.identity,
                self._login.username,
                *self._peer,
                self._login.key.fingerprint,
            )

    # Channels ---------------------------------------------------------------------------------

    def session_requested(self) -> asyncssh.SSHServerSession[str] | bool:
        if self._login is None:
            return False
        if self.open_sessions >= self._config.max_sessions_per_connection:
            log.info("%s:%d: too many sessions on one connection", *self._peer)
            return False
        self.open_sessions += 1
        return _TUISession(self, self._config, self._login, self._peer)

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        return False  # ssh -L / -D

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False  # ssh -R

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False

    def tun_requested(self, unit: int | None) -> bool:
        return False

    def tap_requested(self, unit: int | None) -> bool:
        return False


ExecHandler = Callable[["SessionInfo", str, str], Awaitable[tuple[str, int]]]


class _TUISession(asyncssh.SSHServerSession[str]):
    """One SSH session channel, running one Textual app."""

    def __init__(
        self, server: _Server, config: _Config, login: _Login, peer: tuple[str, int]
    ) -> None:
        self._server = server
        self._config = config
        self._login = login
        self._peer = peer
        self._id = next(_SESSION_IDS)
        self._label = f"session {self._id} ({login.identity})"
        self._chan: asyncssh.SSHServerChannel[str] | None = None
        self._term_type: str | None = None
        self._size: tuple[int, int] = (80, 24)
        self._command: str | None = None
        self._io: SessionIO | None = None
        self._app: App[Any] | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._closed = False
        self._exec_input: list[str] | None = None
        self._exec_size = 0
        self._exec_timer: asyncio.TimerHandle | None = None
        self._release: Callable[[], None] | None = None

    # asyncssh callbacks -----------------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[str]) -> None:
        self._chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self._term_type = term_type or "xterm"
        width, height = term_size[0], term_size[1]
        self._size = _clamp_size(width if width > 0 else 80, height if height > 0 else 24)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._command = command
        return True  # accepted so that the client sees a one-line explanation

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("%s: refused subsystem %r", self._label, subsystem)
        return False  # sftp and the like

    def session_started(self) -> None:
        chan = self._chan
        assert chan is not None
        if self._command is not None and self._config.exec_handler is None:
            log.info("%s: refused command %r", self._label, self._command)
            self._refuse(NO_COMMANDS_MESSAGE, 2)
            return
        info = self._session_info()
        if not self._admitted(info):  # (an unknown key or a taken name is the first thing said)
            return
        if self._command is None and self._term_type is None:
            log.info("%s: refused a session without a PTY", self._label)
            self._refuse(NO_PTY_MESSAGE, 1)
            return
        if self._command is not None:
            if self._config.exec_wants_input(self._command):
                self._exec_input = []  # collect standard input until EOF, then run it
                self._exec_timer = asyncio.get_running_loop().call_later(
                    self._config.exec_input_timeout, self._exec_input_timed_out
                )
            else:
                self._task = asyncio.create_task(self._run_exec(""), name=f"exec {self._label}")
            return
        # Created now so that keys typed while the app is being built are kept for it.
        self._io = SessionIO(
            chan,
            self._size,
            term_type=info.term_type,
            env=dict(info.env),
            max_write_buffer=self._config.max_write_buffer,
            on_overflow=self._on_overflow,
            label=self._label,
            input_batch=self._config.input_batch,
            max_paste=self._config.max_paste,
            keys_per_second=self._config.keys_per_second,
            key_burst=self._config.key_burst,
        )
        self._task = asyncio.create_task(self._run(info, self._io), name=f"shipwreck {self._label}")

    def _admitted(self, info: SessionInfo) -> bool:
        """Ask ``admit``; on a refusal, say why and end the channel (no app, no command)."""
        try:
            admission = self._config.admit(info, self._command)
        except Exception:
            log.exception("%s: admit failed", self._label)
            self._refuse(BUSY_MESSAGE, 1)
            return False
        self._release = admission.release
        if self._closed:  # (the channel closed meanwhile: connection_lost has run)
            self._release_slot()
        if admission.refusal:
            log.info("%s: refused: %s", self._label, admission.refusal)
            self._refuse(f"shipwreck: {admission.refusal}\r\n", admission.status)
            return False
        return True

    def _release_slot(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            release()

    def _exec_input_timed_out(self) -> None:
        if self._exec_input is None:
            return
        self._exec_input = None
        seconds = self._config.exec_input_timeout
        self._refuse(
            f"shipwreck: no end of input within {seconds:g} s; "
            "send a file: ssh host bot check < mine.bot\r\n",
            1,
        )

    def _drop_exec_input(self) -> None:
        self._exec_input = None
        if self._exec_timer is not None:
            self._exec_timer.cancel()
            self._exec_timer = None

    def data_received(self, data: str, datatype: asyncssh.DataType) -> None:
        if self._exec_input is not None:
            self._exec_size += len(data.encode("utf-8", "surrogatepass"))
            if self._exec_size > self._config.max_exec_input:
                self._drop_exec_input()
                limit = self._config.max_exec_input
                self._refuse(f"shipwreck: the input is larger than {limit} bytes\r\n", 1)
                return
            self._exec_input.append(data)
            return
        if self._io is not None:
            self._io.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width <= 0 or height <= 0:
            return
        self._size = _clamp_size(width, height)
        if self._io is not None:
            self._io.resize(*self._size)

    def eof_received(self) -> bool:
        if self._exec_input is not None:
            text = "".join(self._exec_input)
            self._drop_exec_input()
            self._task = asyncio.create_task(self._run_exec(text), name=f"exec {self._label}")
            return True  # keep the channel open for the answer
        if self._command is not None:
            # A command that reads nothing (``ssh host help < /dev/null``) may still be on its
            # way: closing now lost its answer, and the client printed nothing. It closes the
            # channel itself once it has answered (``_end``).
            return True
        self._request_stop("client sent EOF")
        return False

    async def _run_exec(self, text: str) -> None:
        handler, chan, command = self._config.exec_handler, self._chan, self._command
        assert handler is not None and chan is not None and command is not None
        try:
            output, status = await handler(self._session_info(), command, text)
        except Exception:  # a broken command ends this channel only
            log.exception("%s: command %r failed", self._label, command)
            output, status = "shipwreck: the command failed\n", 1
        self._end(output.replace("\n", "\r\n") if self._term_type else output, status)

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        log.debug("%s: ignored signal %s", self._label, signal)

    def connection_lost(self, exc: Exception | None) -> None:
        """Every channel ends here, once, however it ended: its admission is released."""
        if self._closed:
            return
        self._closed = True
        try:
            self._server.open_sessions -= 1
            self._drop_exec_input()
            if self._io is not None:
                self._io.close()
            self._request_stop("channel closed" if exc is None else f"channel lost: {exc}")
        finally:
            self._release_slot()

    # Running the app --------------------------------------------------------------------------

    def _refuse(self, message: str, status: int) -> None:
        """Write ``message`` (if any) and end the channel."""
        self._end(message, status, stderr=True)

    def _end(self, message: str, status: int, stderr: bool = False) -> None:
        """Close the channel with an exit status, after ``message`` if it can still be sent.

        Also after the client's EOF: our side of the channel is then at EOF too (``is_closing``
        is true), but the channel stays open, and the client waits, until it is closed."""
        chan = self._chan
        if chan is None:
            return
        try:
            if message and not chan.is_closing():
                (chan.write_stderr if stderr else chan.write)(message)
            chan.exit(status)
        except OSError:
            chan.abort()

    def _session_info(self) -> SessionInfo:
        chan = self._chan
        assert chan is not None
        env = {str(k): str(v) for k, v in chan.get_environment().items()}
        return SessionInfo(
            session_id=self._id,
            username=self._login.username,
            identity=self._login.identity,
            key=self._login.key,
            term_type=self._term_type or "xterm",
            size=self._size,
            peer=self._peer,
            env=env,
            local=self._server.local,
            pty=self._term_type is not None,
        )

    def _on_overflow(self) -> None:
        # The client stopped reading: free everything it holds, now.
        self._request_stop("output backlog")
        self._server.abort()

    async def _run(self, info: SessionInfo, session_io: SessionIO) -> None:
        chan = self._chan
        assert chan is not None
        config = self._config
        try:
            made = config.app_factory(info)
            app = await made if inspect.isawaitable(made) else made
        except Exception:
            log.exception("%s: app factory failed", self._label)
            self._refuse(BUSY_MESSAGE, 1)
            return
        if self._stopping or chan.is_closing():  # e.g. the client sent EOF with its request
            log.info("%s: ended before its app started", self._label)
            self._refuse("", 0)
            return

        app.driver_class = SSHDriver
        attach_session_io(app, session_io)
        _apply_color_system(app, config.color_system, info)
        # Textual prints a crashed app's traceback to ``app.error_console`` (stderr by default,
        # which is process-wide). Capture it and log it instead.
        errors = io.StringIO()
        app.error_console = Console(
            file=errors, markup=False, highlight=False, color_system=None, width=120
        )
        self._app = app

        task = asyncio.current_task()
        assert task is not None
        config.live._started(self._id, app, task)
        _STD_STREAMS.enter()
        crashed = False
        size = session_io.size
        log.info("%s: started %s at %dx%d", self._label, type(app).__name__, *size)
        try:
            await app.run_async(size=size, mouse=config.mouse)
        except asyncio.CancelledError:
            log.warning("%s: app cancelled after not stopping in time", self._label)
        except Exception:
            crashed = True
            log.exception("%s: app raised", self._label)
        finally:
            _STD_STREAMS.exit()
            config.live._ended(self._id)
            session_io.close()
            self._app = None
        text = errors.getvalue()
        if text.strip():
            crashed = True
            log.error("%s: app crashed:\n%s", self._label, text.rstrip())
        code = app.return_code or 0
        if crashed and code == 0:
            code = 1
        log.info("%s: ended (exit status %d)", self._label, code)
        self._end(CRASH_MESSAGE if crashed else config.live.farewell, code)

    def _request_stop(self, reason: str) -> None:
        if self._stopping:
            return
        self._stopping = True
        app = self._app
        task = self._task
        if app is None or task is None or task.done():
            return
        log.debug("%s: stopping (%s)", self._label, reason)
        app.exit()
        # Neither the timer nor its context may keep the app alive once it has ended: a task
        # keeps its context, where Textual's ``active_app`` holds the app and every widget, and
        # a timer keeps the context it was made in (the app's own, on an output overflow).
        timer = asyncio.get_running_loop().call_later(
            self._config.stop_timeout, _cancel_if_running, task, context=contextvars.Context()
        )
        task.add_done_callback(lambda _task: timer.cancel())


def _cancel_if_running(task: asyncio.Task[None]) -> None:
    if not task.done():
        task.cancel()


async def start_server(
    host: str,
    port: int,
    host_key_path: str | os.PathLike[str],
    app_factory: AppFactory,
    authorize: Authorize,
    *,
    live: LiveApps | None = None,
    max_write_buffer: int = DEFAULT_MAX_WRITE_BUFFER,
    mouse: bool = True,
    color_system: ColorChoice = "auto",
    max_sessions_per_connection: int = 4,
    stop_timeout: float = 5.0,
    exec_handler: ExecHandler | None = None,
    max_exec_input: int = 65536,
    exec_wants_input: Callable[[str], bool] = lambda _command: True,
    input_batch: int = DEFAULT_INPUT_BATCH,
    max_paste: int = DEFAULT_MAX_PASTE,
    keys_per_second: float = DEFAULT_KEYS_PER_SECOND,
    key_burst: int = DEFAULT_KEY_BURST,
    admit: Admit = _admit_all,
    exec_input_timeout: float = 30.0,
    auth_hint: AuthHint | None = None,
    login_timeout: float = 30.0,
    keepalive_interval: float = 30.0,
    keepalive_count_max: int = 3,
    **ssh_options: Any,
) -> asyncssh.SSHAcceptor:
    """Listen for SSH clients on ``host:port`` and run ``app_factory(info)`` for each session.

    ``port=0`` picks a free port (``acceptor.get_port()`` tells which). ``live`` is the gauge of
    running apps (default: `LIVE_APPS`). ``max_write_buffer`` is the per-session cap on unsent
    output in bytes. ``input_batch`` is how many input events one session's app is handed before
    the others get a turn; ``max_paste`` the characters kept of one bracketed paste (see
    `shipwreck.server.driver`). ``admit`` decides, for each session channel once it starts,
    whether it may go on (see `Admission`); ``exec_input_timeout`` ends a command whose input
    has no EOF by then. ``ssh_options`` go to ``asyncssh.create_server`` as they are (e.g.
    ``window``). Closing the acceptor stops new connections; ``live.shutdown()`` ends sessions.
    """
    key = load_or_create_host_key(host_key_path)
    ssh_options.setdefault("window", SESSION_WINDOW)  # flow control holds a flood at the client
    config = _Config(
        app_factory=app_factory,
        authorize=authorize,
        live=LIVE_APPS if live is None else live,
        max_write_buffer=max_write_buffer,
        mouse=mouse,
        color_system=color_system,
        max_sessions_per_connection=max_sessions_per_connection,
        stop_timeout=stop_timeout,
        exec_handler=exec_handler,
        max_exec_input=max_exec_input,
        exec_wants_input=exec_wants_input,
        input_batch=input_batch,
        max_paste=max_paste,
        keys_per_second=keys_per_second,
        key_burst=key_burst,
        admit=admit,
        exec_input_timeout=exec_input_timeout,
        auth_hint=auth_hint,
    )
    acceptor = await asyncssh.create_server(
        lambda: _Server(config),
        host,
        port,
        server_host_keys=[key],
        encryption_algs=ENCRYPTION,  # (never CBC: see server/asyncssh_fence.py)
        line_editor=False,
        encoding="utf-8",
        errors="replace",
        allow_pty=True,
        x11_forwarding=False,
        agent_forwarding=False,
        allow_scp=False,
        sftp_factory=None,
        gss_host=None,
        login_timeout=login_timeout,
        keepalive_interval=keepalive_interval,
        keepalive_count_max=keepalive_count_max,
        **ssh_options,
    )
    log.info(
        "SSH server on %s:%d, host key %s",
        host,
        acceptor.get_port(),
        key.get_fingerprint("sha256"),
    )
    return acceptor

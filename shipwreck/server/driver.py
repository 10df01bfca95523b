"""A Textual driver that talks to one SSH channel instead of the local terminal.

Textual builds its driver itself, as ``driver_class(app, debug=..., mouse=..., size=...)``, so the
driver cannot be handed its channel directly. The SSH side wraps the channel in a `SessionIO`,
registers it for the app with `attach_session_io` before ``app.run_async()``, and sets
``app.driver_class = SSHDriver``; the driver looks its `SessionIO` up when it is constructed.

What the driver does, compared with Textual's ``LinuxDriver``:

* the same escape sequences on start and stop (alternate screen, mouse, bracketed paste, focus
  events, the kitty keyboard protocol, line wrap, cursor hide/show, the synchronized-output
  query), written to the channel;
* ``write()`` only appends to a list; ``flush()`` sends one channel write. A client that stops
  reading lets the channel's buffer grow; past ``SessionIO.max_write_buffer`` bytes the session
  is dropped (``SessionIO.on_overflow``), so one stalled client never holds the server's memory;
* input arrives from asyncssh as text and goes through Textual's ``XTermParser`` on the event
  loop (no input thread); the parser's ``tick()`` runs ~0.1 s after the last input so a lone Esc
  becomes an ``escape`` key;
* the size comes from the PTY request and later window-change requests (`SSHDriver.resize`);
  in-band resize reports (mode 2048) are not requested;
* no signal handlers, threads, ``termios`` calls, or ``sys.stdin``/``sys.stdout`` access;
  ``open_url`` and ``deliver_binary`` do nothing on the server (the latter tells the app the
  delivery failed).

Colour depth is not the driver's business: Textual renders with ``app.console``'s colour system,
which it reads from the *server's* environment (``TEXTUAL_COLOR_SYSTEM``, ``COLORTERM``,
``TERM``). `shipwreck.server.ssh` overrides it per session from the client's terminal type (see
``apply_color_system`` there).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, Protocol, TextIO

from textual import constants, events

# Textual has no public name for its terminal input parser; LinuxDriver uses this one.
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message
from textual.messages import InBandWindowResize

if TYPE_CHECKING:
    from textual.app import App

__all__ = [
    "DEFAULT_MAX_WRITE_BUFFER",
    "SSHDriver",
    "SessionChannel",
    "SessionIO",
    "attach_session_io",
    "session_io_for",
]

log = logging.getLogger(__name__)

DEFAULT_MAX_WRITE_BUFFER = 1 << 20
"""Bytes of unsent output a channel may hold before its session is dropped (1 MiB)."""

_MAX_PENDING_INPUT = 64 * 1024
"""Characters of input kept while the app is still starting; the rest is dropped."""

_TICK_SLACK = 0.01
"""Seconds added to Textual's escape delay before ticking the parser."""

# https://sw.kovidgoyal.net/kitty/keyboard-protocol/#progressive-enhancement, as LinuxDriver.
_KITTY_DISAMBIGUATE_ESCAPE_CODES = 0b00001
_KITTY_REPORT_ALL_KEYS = 0b01000
_KITTY_REPORT_ASSOCIATED_TEXT = 0b10000
_KITTY_PROTOCOL_FLAGS = (
    _KITTY_DISAMBIGUATE_ESCAPE_CODES | _KITTY_REPORT_ALL_KEYS | _KITTY_REPORT_ASSOCIATED_TEXT
)


class SessionChannel(Protocol):
    """The part of an asyncssh channel (opened with ``encoding="utf-8"``) the driver uses."""

    def write(self, data: str) -> None: ...

    def get_write_buffer_size(self) -> int: ...

    def is_closing(self) -> bool: ...


class SessionIO:
    """One session's terminal: where output goes, where input and size changes come from.

    The SSH session owns it: it calls `feed` with input, `resize` on window changes and `close`
    when the channel goes away. The driver attaches itself while the app runs.
    """

    def __init__(
        self,
        channel: SessionChannel,
        size: tuple[int, int],
        *,
        term_type: str = "xterm-256color",
        env: dict[str, str] | None = None,
        max_write_buffer: int = DEFAULT_MAX_WRITE_BUFFER,
        on_overflow: Callable[[], None] | None = None,
        label: str = "session",
    ) -> None:
        self.channel = channel
        self.size = size
        self.term_type = term_type
        self.env: dict[str, str] = dict(env or {})
        self.max_write_buffer = max_write_buffer
        self.on_overflow = on_overflow
        self.label = label
        self.closed = False
        self.overflowed = False
        self.bytes_sent = 0
        self._driver: SSHDriver | None = None
        self._pending: list[str] = []
        self._pending_chars = 0

    # Called by the SSH session ---------------------------------------------------------------

    def feed(self, data: str) -> None:
        """Input from the client."""
        if self.closed or not data:
            return
        driver = self._driver
        if driver is not None and driver.accepting_input:
            driver.feed(data)
            return
        if self._pending_chars + len(data) > _MAX_PENDING_INPUT:
            log.debug("%s: dropping %d characters of early input", self.label, len(data))
            return
        self._pending.append(data)
        self._pending_chars += len(data)

    def resize(self, width: int, height: int) -> None:
        """The client's window changed size."""
        self.size = (max(1, width), max(1, height))
        if self._driver is not None:
            self._driver.resize(*self.size)

    def close(self) -> None:
        """The channel is gone (or being dropped): discard further output and input."""
        self.closed = True
        self._pending.clear()
        self._pending_chars = 0

    # Called by the driver ----------------------------------------------------------------------

    def attach(self, driver: SSHDriver) -> None:
        self._driver = driver

    def detach(self, driver: SSHDriver) -> None:
        if self._driver is driver:
            self._driver = None

    def take_pending_input(self) -> str:
        data = "".join(self._pending)
        self._pending.clear()
        self._pending_chars = 0
        return data

    def send(self, data: str) -> None:
        """Write to the channel; drop the session if the client has stopped reading."""
        if self.closed or not data:
            return
        channel = self.channel
        if channel.is_closing():
            self.close()
            return
        try:
            channel.write(data)
        except OSError:  # BrokenPipeError: the channel closed under us
            self.close()
            return
        self.bytes_sent += len(data)
        backlog = channel.get_write_buffer_size()
        if backlog > self.max_write_buffer:
            log.warning(
                "%s: client is not reading (%d bytes unsent > %d); dropping the session",
                self.label,
                backlog,
                self.max_write_buffer,
            )
            self.overflowed = True
            self.close()
            if self.on_overflow is not None:
                self.on_overflow()


_SESSION_IO: weakref.WeakKeyDictionary[App[Any], SessionIO] = weakref.WeakKeyDictionary()


def attach_session_io(app: App[Any], io: SessionIO) -> None:
    """Make ``io`` the terminal of ``app``; `SSHDriver` finds it here."""
    _SESSION_IO[app] = io


def session_io_for(app: App[Any]) -> SessionIO | None:
    """The `SessionIO` registered for ``app``, if any."""
    return _SESSION_IO.get(app)


class SSHDriver(Driver):
    """Textual driver for one SSH session (see the module docstring)."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        io = session_io_for(app)
        if io is None:
            raise RuntimeError("SSHDriver needs a SessionIO: call attach_session_io(app, io)")
        self._io = io
        if self._size is None:
            self._size = io.size
        self._buffer: list[str] = []
        # debug=True would make the parser append to ./keys.log: never on a server.
        self._parser = XTermParser(debug=False)
        self._tick_handle: asyncio.TimerHandle | None = None
        self._accepting_input = False

    @property
    def accepting_input(self) -> bool:
        return self._accepting_input

    # Output -----------------------------------------------------------------------------------

    def write(self, data: str) -> None:
        self._buffer.append(data)

    def flush(self) -> None:
        if not self._buffer:
            return
        data = "".join(self._buffer)
        self._buffer.clear()
        self._io.send(data)

    # Input ------------------------------------------------------------------------------------

    def feed(self, data: str) -> None:
        """Parse input from the client and post the resulting events to the app."""
        if not self._accepting_input:
            return
        try:
            for message in self._parser.feed(data):
                self.process_message(message)
        except Exception:  # a parser bug must not take the server down
            log.exception("%s: input parser failed; dropping the session", self._io.label)
            self._app.exit(return_code=1)
            return
        self._schedule_tick()

    def _schedule_tick(self) -> None:
        if self._tick_handle is not None:
            self._tick_handle.cancel()
        self._tick_handle = self._loop.call_later(
            constants.ESCAPE_DELAY + _TICK_SLACK, self._on_tick
        )

    def _on_tick(self) -> None:
        self._tick_handle = None
        if not self._accepting_input:
            return
        for message in self._parser.tick():
            self.process_message(message)
        # The parser's clock may not have reached its deadline yet; try again shortly.
        if getattr(self._parser, "_timeout_time", None) is not None:
            self._tick_handle = self._loop.call_later(_TICK_SLACK * 5, self._on_tick)

    def process_message(self, message: Message) -> None:
        # The window size comes from SSH window-change requests, never from the input: the
        # parser turns an in-band resize report (ESC [48;H;W;…t) into a Resize event whether or
        # not mode 2048 was requested, so any client could type one for a 99999×99999 screen.
        if isinstance(message, (InBandWindowResize, events.Resize)):
            return
        super().process_message(message)

    def send_message(self, message: Message) -> None:
        # The base class schedules a coroutine thread-safely; everything here already runs on
        # the app's loop, so post directly.
        self._app.post_message(message)

    def resize(self, width: int, height: int) -> None:
        """The client's window changed: tell the app."""
        self._size = (width, height)
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))

    # Application mode -------------------------------------------------------------------------

    def _enable_mouse_support(self) -> None:
        if not self._mouse:
            return
        write = self.write
        write("\x1b[?1000h")  # SET_VT200_MOUSE
        write("\x1b[?1003h")  # SET_ANY_EVENT_MOUSE
        write("\x1b[?1015h")  # SET_VT200_HIGHLIGHT_MOUSE
        write("\x1b[?1006h")  # SET_SGR_EXT_MODE_MOUSE
        self.flush()

    def _disable_mouse_support(self) -> None:
        if not self._mouse:
            return
        write = self.write
        write("\x1b[?1000l")
        write("\x1b[?1003l")
        write("\x1b[?1015l")
        write("\x1b[?1006l")
        self.flush()

    def start_application_mode(self) -> None:
        self._io.attach(self)
        width, height = self._size or self._io.size
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))

        write = self.write
        write("\x1b[?1049h")  # alternate screen
        self._enable_mouse_support()
        write("\x1b[?25l")  # hide cursor
        write("\x1b[?1004h")  # FocusIn/FocusOut
        if not constants.DISABLE_KITTY_KEY:
            write(f"\x1b[>{_KITTY_PROTOCOL_FLAGS}u")
        self.flush()
        # Ask whether the terminal supports synchronized output (mode 2026). Apple's Terminal
        # prints a stray "p" for this query; LinuxDriver skips it there, and so do we when the
        # client forwarded TERM_PROGRAM.
        if self._io.env.get("TERM_PROGRAM", "") != "Apple_Terminal":
            write("\x1b[?2026$p")
        write("\x1b[?2004h")  # bracketed paste
        write("\x1b[?7l")  # no line wrap
        # LinuxDriver enables the mouse a second time (an iTerm 3.5.0 workaround).
        self._enable_mouse_support()
        self.flush()

        self._accepting_input = True
        pending = self._io.take_pending_input()
        if pending:
            self.feed(pending)

    def disable_input(self) -> None:
        if not self._accepting_input:
            return
        self._accepting_input = False
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        self._disable_mouse_support()

    def stop_application_mode(self) -> None:
        write = self.write
        write("\x1b[?2004l")  # bracketed paste off
        write("\x1b[?7h")  # line wrap on
        self.disable_input()
        write("\x1b[<u")  # kitty keyboard protocol off (before leaving the alternate screen)
        write("\x1b[?1049l")  # main screen
        write("\x1b[?25h")  # show cursor
        write("\x1b[?1004l")  # FocusIn/FocusOut off
        self.flush()

    def close(self) -> None:
        self._accepting_input = False
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        self.flush()
        self._io.detach(self)
        # End the parser's generator, as LinuxDriver does when its input thread stops. Besides
        # tidiness this matters: XTermParser caches kitty-key parses with ``lru_cache`` on a
        # method, so the cache keeps up to 1024 parser objects alive, and a parser whose
        # generator is still suspended holds its last key event and, through it, the app.
        try:
            for _message in self._parser.feed(""):
                pass
        except (EOFError, ParseError):
            pass

    # Things a local driver does that a server must not --------------------------------------

    def open_url(self, url: str, new_tab: bool = True) -> None:
        # The base class opens a browser on the *server*. There is no client-side equivalent.
        log.info("%s: app asked to open a URL; ignored on the SSH server", self._io.label)

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        # The base class writes the file on the *server* from a thread. Refuse instead.
        try:
            if not binary.closed:
                binary.close()
        finally:
            error = PermissionError("file delivery is not available over SSH")
            self._app.post_message(
                events.DeliveryFailed(key=delivery_key, exception=error, name=name)
            )

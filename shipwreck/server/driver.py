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
* input arrives from asyncssh as text and goes through Textual's ``XTermParser`` (the fence's
  ``shipwreck.tui._textual.parser``) on the event
  loop (no input thread); ~0.1 s after the last input a pending escape sequence is given up on,
  so a lone Esc becomes an ``escape`` key;
* a session's input is handed to its app a turn at a time: at most ``SessionIO.input_batch``
  events (keys, mouse reports, pastes), then the driver waits until the app has taken them in
  before it parses and posts more. Textual's message loops do not yield to the event loop while
  their queues hold messages, so 30,000 keys posted at once would run back to back and stall
  every other session on the server; a turn at a time, everybody's input interleaves. Unparsed
  input waits in the `SessionIO`; past ``SessionIO.max_input_backlog`` characters the channel
  stops being read (``pause_reading``), and SSH flow control makes the client wait;
* every session has a key budget (`KeyBudget`, a token bucket): ``keys_per_second`` input
  events a second, ``key_burst`` at once (a bracketed paste is one event). Turns interleave
  sessions but do not limit what one session costs: a client streaming thousands of keys a
  second kept the server busy with nothing else. Input beyond the budget is read later, not
  dropped: the driver waits for the bucket to refill;
* while a session's input comes faster than it is handed over (the budget, or the app's turns),
  its `SessionIO` keeps only `BEHIND_BACKLOG` characters before it stops reading the channel;
  with the small SSH channel window the server offers (`SESSION_WINDOW`), the rest waits at
  the client, and the lag a flood leaves behind is a few seconds of that session's own keys;
* bracketed pastes are cut out of the input before the parser sees it: a paste is one
  ``Paste`` event whose text has every control character removed (pasted text never acts as
  keys: Textual's parser would replay an escape sequence inside a paste as keys, Ctrl+C
  included), at most ``SessionIO.max_paste`` characters of it are kept, and a paste whose end
  marker does not come within `PASTE_IDLE_TIMEOUT` seconds of the last input ends there (a
  stray ``ESC [200~`` would otherwise leave the session deaf);
* a key the parser cannot decode (a kitty-protocol key beyond U+10FFFF, a malformed field) is
  ignored; should the parser raise anyway, that one session is ended and logged;
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
import math
import re
import time
import weakref
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, Protocol, TextIO

from textual import constants, events
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message
from textual.messages import InBandWindowResize

from shipwreck.tui._textual.parser import ParseError, escape_pending, expire_escape, new_parser

if TYPE_CHECKING:
    from textual.app import App

__all__ = [
    "BEHIND_BACKLOG",
    "DEFAULT_INPUT_BATCH",
    "DEFAULT_KEYS_PER_SECOND",
    "DEFAULT_KEY_BURST",
    "DEFAULT_MAX_INPUT_BACKLOG",
    "DEFAULT_MAX_PASTE",
    "DEFAULT_MAX_WRITE_BUFFER",
    "PASTE_IDLE_TIMEOUT",
    "SESSION_WINDOW",
    "KeyBudget",
    "SSHDriver",
    "SessionChannel",
    "SessionIO",
    "attach_session_io",
    "session_io_for",
]

log = logging.getLogger(__name__)

DEFAULT_MAX_WRITE_BUFFER = 1 << 20
"""Bytes of unsent output a channel may hold before its session is dropped (1 MiB)."""

DEFAULT_INPUT_BATCH = 32
"""Input events (keys, mouse reports, pastes) a session's app is handed per turn."""

DEFAULT_MAX_INPUT_BACKLOG = 16 * 1024
"""Characters of unparsed input a session holds before its channel stops being read (SSH flow
control then holds the rest at the client). Also what is kept while the app is starting."""

DEFAULT_KEYS_PER_SECOND = 60.0
"""Input events a session is handed per second, sustained: ten times a fast typist, and a held
key repeats at 30 to 50 a second. A flood of keys costs the server no more than this."""

DEFAULT_KEY_BURST = 500
"""Input events a session may send at once beyond the sustained rate: a line pasted by a
terminal without bracketed paste (as keys: a command line holds 500 characters) goes in at once."""

BEHIND_BACKLOG = 256
"""Characters of unparsed input a session holds before its channel stops being read while its
input comes faster than it is handed over (a turn at a time, within the key budget): what the
next turn takes, so the rest waits at the client, not in server memory."""

SESSION_WINDOW = 2048
"""Bytes of the SSH channel window the server offers a session (asyncssh's default is 2 MiB).
A session that stops being read holds at most this much in asyncssh's buffer; its client then
waits for the window to open. Interactive input needs little (a packet is a few keys), and a
paste takes a round trip per window."""

DEFAULT_MAX_PASTE = 64 * 1024
"""Characters kept of one bracketed paste; the rest of it is dropped."""

PASTE_IDLE_TIMEOUT = 1.0
"""Seconds without input after which a bracketed paste with no end marker ends anyway."""

_TICK_SLACK = 0.01
"""Seconds added to Textual's escape delay before giving up on a pending escape sequence."""

_PARSE_SLICE = 256
"""Characters of key input parsed at a time (Textual's parser costs about a microsecond each)."""

_THROTTLE_STEP = 0.05
"""Seconds of the key budget a session over it waits for before its next turn (200 keys a second
make it 10 events every 50 ms, not one event every 5 ms)."""

_PARSE_PER_TURN = 2048
"""Characters of key input parsed per turn at most, however few events they make."""

_PASTE_SLICE = 16 * 1024
"""Characters of a paste's text taken at a time (scanned for the end marker, not parsed)."""

_PASTE_PER_TURN = 64 * 1024
"""Characters of paste text taken per turn at most."""

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"

# Every C0 and C1 control and DEL, but the line feed (line breaks become "\n" first).
_PASTE_CONTROLS: dict[int, None] = dict.fromkeys(
    c for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)] if c != 0x0A
)

RUN_AS_PASTE = 64
"""Printable characters in a row, with nothing else between, from which input is a paste, not
keys (see ``SSHDriver._parse_keys``): people type a few characters per packet."""

_PRINTABLE_RUN = re.compile(rf"[^\x00-\x1f\x7f-\x9f]{{{RUN_AS_PASTE},}}")

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

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


class KeyBudget:
    """A token bucket of input events: ``rate`` a second, up to ``burst`` saved up. A ``rate``
    of 0 (or less) means no limit."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self._clock = clock
        self._tokens = float(self.burst)
        self._stamp = clock()

    @property
    def unlimited(self) -> bool:
        return self.rate <= 0

    def available(self) -> int:
        """Events that may be handed over now."""
        if self.unlimited:
            return self.burst
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        return int(self._tokens)

    def spend(self, events: int) -> None:
        if not self.unlimited:
            self._tokens -= events

    def delay(self, events: int) -> float:
        """Seconds until ``events`` may be handed over (at most ``burst`` are waited for)."""
        if self.unlimited:
            return 0.0
        missing = min(events, self.burst) - self.available()
        return max(0.0, missing / self.rate)


class SessionIO:
    """One session's terminal: where output goes, where input and size changes come from.

    The SSH session owns it: it calls `feed` with input, `resize` on window changes and `close`
    when the channel goes away. The driver attaches itself while the app runs and takes the
    input from here a turn at a time (`take_input`); input that has not been taken yet (also
    while the app is starting) waits here, and past ``max_input_backlog`` characters the channel
    stops being read until the driver has caught up (past `BEHIND_BACKLOG` while the driver is
    behind: see `set_behind`). The driver hands over input events within ``budget`` (see
    `KeyBudget`; ``keys_per_second`` 0 means no budget).
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
        input_batch: int = DEFAULT_INPUT_BATCH,
        max_input_backlog: int = DEFAULT_MAX_INPUT_BACKLOG,
        max_paste: int = DEFAULT_MAX_PASTE,
        keys_per_second: float = DEFAULT_KEYS_PER_SECOND,
        key_burst: int = DEFAULT_KEY_BURST,
        budget: KeyBudget | None = None,
    ) -> None:
        self.channel = channel
        self.size = size
        self.term_type = term_type
        self.env: dict[str, str] = dict(env or {})
        self.max_write_buffer = max_write_buffer
        self.on_overflow = on_overflow
        self.label = label
        self.input_batch = max(1, input_batch)
        """Input events handed to the app per turn."""
        self.max_input_backlog = max(1, max_input_backlog)
        self.max_paste = max(0, max_paste)
        self.budget = budget if budget is not None else KeyBudget(keys_per_second, key_burst)
        """Input events the driver may hand the app (each costs one). One budget may be shared
        by several sessions (all of a key's or an address's): pass it as ``budget``."""
        self.events_in = 0
        """Input events handed to the app so far."""
        self.behind = False
        """The driver had more input than it handed over in its last turn (see `set_behind`)."""
        self.closed = False
        self.overflowed = False
        self.bytes_sent = 0
        self.reading_paused = False
        self.read_pauses = 0
        """How many times reading the channel was paused for a backlog of input."""
        self._driver: SSHDriver | None = None
        self._input: deque[str] = deque()
        self._resuming = False  # (see `_resume_if_drained`)
        self._input_offset = 0  # characters of ``_input[0]`` already taken
        self._input_chars = 0

    # Called by the SSH session ---------------------------------------------------------------

    def feed(self, data: str) -> None:
        """Input from the client."""
        if self.closed or not data:
            return
        self._input.append(data)
        self._input_chars += len(data)
        self._pause_if_full()
        driver = self._driver
        if driver is not None:
            driver.input_arrived()

    @property
    def backlog_limit(self) -> int:
        """Characters of input held before the channel stops being read."""
        if self.behind:
            return min(self.max_input_backlog, BEHIND_BACKLOG)
        return self.max_input_backlog

    def _pause_if_full(self) -> None:
        if self._resuming:
            return  # (see `_resume_if_drained`)
        if self._input_chars > self.backlog_limit and not self.reading_paused:
            self.reading_paused = True
            self.read_pauses += 1
            log.debug("%s: %d characters of input waiting; pausing", self.label, self._input_chars)
            self.channel.pause_reading()

    def _resume_if_drained(self) -> None:
        if self.reading_paused and self._input_chars <= self.backlog_limit // 2:
            self.reading_paused = False
            if self.closed or self.channel.is_closing():
                return
            # asyncssh delivers what it buffered meanwhile right here, through `feed`: all of it
            # before reading is paused again. It opens the SSH window again as it delivers the
            # first packet, however much more it holds, so pausing after a packet or two let
            # its buffer grow by a window each time (without bound while a client floods).
            self._resuming = True
            try:
                self.channel.resume_reading()
            finally:
                self._resuming = False
            self._pause_if_full()

    def resize(self, width: int, height: int) -> None:
        """The client's window changed size."""
        self.size = (max(1, width), max(1, height))
        if self._driver is not None:
            self._driver.resize(*self.size)

    def close(self) -> None:
        """The channel is gone (or being dropped): discard further output and input."""
        self.closed = True
        self._input.clear()
        self._input_offset = 0
        self._input_chars = 0

    # Called by the driver ----------------------------------------------------------------------

    def attach(self, driver: SSHDriver) -> None:
        self._driver = driver

    def detach(self, driver: SSHDriver) -> None:
        if self._driver is driver:
            self._driver = None

    def set_behind(self, behind: bool) -> None:
        """The driver's last turn left input waiting (for the app to take its turn's events in,
        or for the key budget), or it took all there was: while behind, hold little input."""
        if behind != self.behind:
            self.behind = behind
            if behind:
                self._pause_if_full()
            else:
                self._resume_if_drained()

    @property
    def pending_input(self) -> int:
        """Characters of input not taken by the driver yet."""
        return self._input_chars

    def take_input(self, limit: int) -> str:
        """Up to ``limit`` characters of the input, oldest first; resumes reading the channel
        once the backlog is down to half its limit (`backlog_limit`)."""
        parts: list[str] = []
        taken = 0
        while self._input and taken < limit:
            head, offset = self._input[0], self._input_offset
            piece = head[offset : offset + limit - taken]
            parts.append(piece)
            taken += len(piece)
            if offset + len(piece) >= len(head):
                self._input.popleft()
                self._input_offset = 0
            else:
                self._input_offset = offset + len(piece)
        self._input_chars -= taken
        self._resume_if_drained()
        return "".join(parts)

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


def clean_paste(text: str) -> str:
    """Pasted text as it may be inserted: line breaks as ``"\\n"``, tabs as spaces, and no
    other control character (ESC, Ctrl+C, NUL, DEL, C1 controls ...) left to act as a key."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    return text.translate(_PASTE_CONTROLS)


def _partial_marker(data: str, marker: str) -> int:
    """How many characters at the end of ``data`` could begin ``marker`` (a shorter prefix)."""
    for size in range(min(len(marker) - 1, len(data)), 0, -1):
        if data.endswith(marker[:size]):
            return size
    return 0


class _PasteSplitter:
    """Cuts bracketed pastes (``ESC [200~`` ... ``ESC [201~``) out of a session's input.

    `split` returns the input in order as pieces: ``(False, keys)`` for the parser and
    ``(True, text)`` for each paste that ended, its text cleaned (`clean_paste`) and at most
    ``max_paste`` characters long. A marker split across two pieces of input is found: a possible
    start of one at the end of the input is held back until more input comes (or `release`).
    """

    def __init__(self, max_paste: int) -> None:
        self.max_paste = max_paste
        self.in_paste = False
        self.held = ""
        self.dropped = 0
        """Characters dropped from the paste in progress (beyond ``max_paste``)."""
        self._paste: list[str] = []
        self._paste_chars = 0

    def split(self, data: str) -> list[tuple[bool, str]]:
        data, self.held = self.held + data, ""
        pieces: list[tuple[bool, str]] = []
        while data:
            marker = PASTE_END if self.in_paste else PASTE_START
            at = data.find(marker)
            if at < 0:
                keep = _partial_marker(data, marker)
                if keep:
                    data, self.held = data[:-keep], data[-keep:]
                if self.in_paste:
                    self._add(data)
                elif data:
                    pieces.append((False, data))
                break
            if self.in_paste:
                self._add(data[:at])
                pieces.append((True, self.end_paste()))
            else:
                if at:
                    pieces.append((False, data[:at]))
                self.in_paste = True
            data = data[at + len(marker) :]
        return pieces

    def release(self) -> str:
        """The held-back keys (no more input came: they were not the start of a paste)."""
        held, self.held = ("", self.held) if self.in_paste else (self.held, "")
        return held

    def end_paste(self) -> str:
        """End the paste in progress (its end marker came, or never will); its cleaned text."""
        if self.held:
            self._add(self.held)
            self.held = ""
        text = clean_paste("".join(self._paste).replace(PASTE_START, ""))
        self._paste.clear()
        self._paste_chars = 0
        self.in_paste = False
        return text

    def _add(self, text: str) -> None:
        room = self.max_paste - self._paste_chars
        if len(text) > room:
            self.dropped += len(text) - max(room, 0)
            text = text[: max(room, 0)]
        if text:
            self._paste.append(text)
            self._paste_chars += len(text)


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
        self._wants_mouse = mouse
        """Whether the app asked for mouse reports (Textual keeps it as ``Driver._mouse``)."""
        io = session_io_for(app)
        if io is None:
            raise RuntimeError("SSHDriver needs a SessionIO: call attach_session_io(app, io)")
        self._io = io
        if self._size is None:
            self._size = io.size
        self._buffer: list[str] = []
        self._parser = new_parser()
        self._pastes = _PasteSplitter(io.max_paste)
        self._events: deque[Message] = deque()
        """Parsed input not yet handed to the app."""
        self._pump_handle: asyncio.Handle | None = None
        self._pumping = False
        self._app_busy = False
        """A batch was handed to the app, and the app has not taken it in yet."""
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

    def input_arrived(self) -> None:
        """The `SessionIO` has new input (it takes it from there a turn at a time). The first
        turn is taken at once: scheduled, it would wait a turn of the event loop behind every
        other session's work, and under load that wait was most of the time from a key to
        the app."""
        if not self._idle():
            self._io.set_behind(True)  # (a turn is waiting for the app, or for the budget)
        elif self._io.budget.available():
            self._pump()
        else:
            self._kick()

    def _idle(self) -> bool:
        return self._pump_handle is None and not (
            self._pumping or self._app_busy or not self._accepting_input
        )

    def _kick(self) -> None:
        """Take the next turn soon: on the next turn of the event loop if the key budget has
        events left, else once it has refilled by `_THROTTLE_STEP` (or a batch)."""
        if not self._idle():
            return
        budget = self._io.budget
        if budget.available():
            self._pump_handle = self._loop.call_soon(self._pump)
            return
        step = max(1, math.ceil(budget.rate * _THROTTLE_STEP))
        delay = budget.delay(min(step, self._io.input_batch))
        self._pump_handle = self._loop.call_later(delay, self._pump)

    def _pump(self) -> None:
        """One turn: hand the app up to ``input_batch`` events, parsing input as needed."""
        self._pump_handle = None
        if not self._accepting_input:
            return
        self._pumping = True  # (taking input may resume reading, and asyncssh then feeds more)
        try:
            self._take_turn()
        except Exception:  # a parser bug must not take the server down
            self._parser_failed()
            return
        finally:
            self._pumping = False
        if self._events or self._io.pending_input:
            # More than a turn's worth: the app takes this batch in first, and every other
            # session gets its turn meanwhile. The callback runs once the app has dispatched it.
            self._app_busy = self._app.call_later(self._app_took_batch)
        else:
            self._schedule_tick()

    def _take_turn(self) -> None:
        budget = self._io.budget
        sent = self._hand_over(min(self._io.input_batch, budget.available()))
        budget.spend(sent)
        self._io.events_in += sent
        # Input waiting after the turn: hold little of it (the rest waits at the client).
        self._io.set_behind(bool(self._events or self._io.pending_input))

    def _hand_over(self, batch: int) -> int:
        """Hand the app up to ``batch`` events, parsing input as needed; how many it got."""
        sent = parsed = pasted = 0
        while sent < batch:
            if self._events:
                self.process_message(self._events.popleft())
                sent += 1
                continue
            if self._pastes.in_paste:
                if pasted >= _PASTE_PER_TURN:
                    break
                data = self._io.take_input(_PASTE_SLICE)
                pasted += len(data)
            else:
                if parsed >= _PARSE_PER_TURN:
                    break
                data = self._io.take_input(_PARSE_SLICE)
                parsed += len(data)
            if not data:
                break
            self._parse(self._pastes.split(data))
        return sent

    def _app_took_batch(self) -> None:
        self._app_busy = False
        self._kick()

    def _parse(self, pieces: list[tuple[bool, str]]) -> None:
        for is_paste, text in pieces:
            if is_paste:
                # Whatever escape sequence was begun before the paste is over (keeps the order).
                self._expire_escape()
                if self._pastes.dropped:
                    log.info(
                        "%s: a paste of more than %d characters was cut",
                        self._io.label,
                        self._pastes.max_paste,
                    )
                    self._pastes.dropped = 0
                self._events.append(events.Paste(text))
            elif text:  # (feeding the parser "" would tell it the input has ended)
                self._parse_keys(text)

    def _parse_keys(self, text: str) -> None:
        """Keys, except that a run of `RUN_AS_PASTE` printable characters or more (no key or
        escape sequence inside: a terminal without bracketed paste, ``tmux send-keys``, a held
        key on a slow link) is one ``Paste`` of that text, unless the parser is in the middle
        of an escape sequence the run may finish. Typed in as keys, 1,500 characters cost
        1,500 events of the key budget: the session was deaf for 17 s while the budget doled
        them out to a line that was full at 500 (``bench/long_line.py``)."""
        start = 0
        for run in _PRINTABLE_RUN.finditer(text):
            before = text[start : run.start()]
            if before:
                self._events.extend(self._parser.feed(before))
            if escape_pending(self._parser):  # (the run may end that sequence: keys, then)
                self._events.extend(self._parser.feed(run.group()))
            else:
                self._events.append(events.Paste(run.group()))
            start = run.end()
        if text[start:]:
            self._events.extend(self._parser.feed(text[start:]))

    def _expire_escape(self) -> None:
        """Give up on the escape sequence the parser is in the middle of, as if the escape delay
        had passed (a lone Esc becomes ``escape``, a broken sequence its keys)."""
        self._events.extend(expire_escape(self._parser))

    def _parser_failed(self) -> None:
        log.exception("%s: input parser failed; dropping the session", self._io.label)
        self.disable_input()
        self._app.exit(return_code=1)

    def _schedule_tick(self) -> None:
        """All input is in: in ~0.1 s give up on a pending escape sequence; in
        `PASTE_IDLE_TIMEOUT` end a paste whose end marker has not come."""
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        if self._pastes.in_paste:
            delay = PASTE_IDLE_TIMEOUT
        elif self._pastes.held or escape_pending(self._parser):
            delay = constants.ESCAPE_DELAY + _TICK_SLACK
        else:
            return
        self._tick_handle = self._loop.call_later(delay, self._on_tick)

    def _on_tick(self) -> None:
        self._tick_handle = None
        busy = self._events or self._io.pending_input or self._pump_handle or self._app_busy
        if not self._accepting_input or busy:
            return  # more input came: the turn that takes the last of it schedules a tick
        try:
            if self._pastes.in_paste:
                log.info(
                    "%s: a bracketed paste had no end after %.1f s without input; ended it",
                    self._io.label,
                    PASTE_IDLE_TIMEOUT,
                )
                self._parse([(True, self._pastes.end_paste())])
            else:
                self._parse([(False, self._pastes.release())])
                self._expire_escape()
        except Exception:
            self._parser_failed()
            return
        self._kick()

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
        if not self._wants_mouse:
            return
        write = self.write
        write("\x1b[?1000h")  # SET_VT200_MOUSE
        write("\x1b[?1003h")  # SET_ANY_EVENT_MOUSE
        write("\x1b[?1015h")  # SET_VT200_HIGHLIGHT_MOUSE
        write("\x1b[?1006h")  # SET_SGR_EXT_MODE_MOUSE
        self.flush()

    def _disable_mouse_support(self) -> None:
        if not self._wants_mouse:
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
        self._kick()  # keys typed while the app was starting

    def disable_input(self) -> None:
        if not self._accepting_input:
            return
        self._accepting_input = False
        self._cancel_input_timers()
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

    def _cancel_input_timers(self) -> None:
        for handle in (self._tick_handle, self._pump_handle):
            if handle is not None:
                handle.cancel()
        self._tick_handle = self._pump_handle = None
        self._events.clear()

    def close(self) -> None:
        self._accepting_input = False
        self._cancel_input_timers()
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

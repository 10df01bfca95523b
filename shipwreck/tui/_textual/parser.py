"""The terminal input parser a session reads its client's bytes with (``input_parser``).

Textual has no public name for its terminal input parser (``LinuxDriver`` uses
``textual._xterm_parser.XTermParser``). :class:`SafeParser` is that parser minus two ways a
client's input made it raise (which ends the parser, and so the session, for good): a
kitty-protocol key it cannot decode is ignored (``ESC [9999999u``: ``chr()`` beyond U+10FFFF;
``ESC [97;5:3u``: a malformed field), and an in-band resize report no longer switches mouse
reports to pixels (a zero pixel size in it made every later mouse report divide by zero).

The parser keeps the deadline of the escape sequence it is in the middle of in
``_timeout_time`` (None when it is not), and ``tick`` acts once that has passed:
:func:`escape_pending` and :func:`expire_escape` read and move it. Until the fence switches
this on, :func:`new_parser` gives Textual's own parser (the driver then drops a session whose
input makes it raise), the driver ticks the parser (public, and a no-op with no sequence
pending) the escape delay after every input, and a paste does not hurry a pending Esc.
"""

from __future__ import annotations

from textual import events
from textual._parser import ParseError, Parser
from textual._xterm_parser import XTermParser
from textual.keys import Keys

from shipwreck.tui._textual.fence import Patch, Reads, Source

__all__ = ["ParseError", "SafeParser", "escape_pending", "expire_escape", "new_parser"]

_on = False


def _switch_on() -> None:
    global _on
    _on = True


class SafeParser(XTermParser):
    """Textual's parser, minus two ways a client's input made it raise (see above)."""

    @property
    def mouse_pixels(self) -> bool:
        """Never: pixel mouse coordinates (mode 1016) are not asked for. The parser turns it on
        when it reads an in-band resize report, which any client may type, and then divides
        by the pixel size that report claimed (zero, say)."""
        return False

    @mouse_pixels.setter
    def mouse_pixels(self, value: bool) -> None:
        pass

    # The base method is wrapped in ``functools.lru_cache``; this override is a plain method.
    def _parse_extended_key(self, sequence: str) -> list[events.Key] | None:  # type: ignore[override]
        try:
            return super()._parse_extended_key(sequence)
        except (ValueError, OverflowError):
            return [events.Key(Keys.Ignore, sequence)]


def new_parser() -> XTermParser:
    """A parser for one session's input (never in debug mode: it would write ./keys.log)."""
    return SafeParser(debug=False) if _on else XTermParser(debug=False)


def escape_pending(parser: XTermParser) -> bool:
    """Whether the parser may be in the middle of an escape sequence (True if that can't be
    told: then the driver ticks it anyway)."""
    return not _on or parser._timeout_time is not None


def expire_escape(parser: XTermParser) -> list[events.Event]:
    """Give up on the escape sequence the parser is in the middle of, as if the escape delay
    had passed: what that gives (a lone Esc becomes ``escape``, a broken sequence its keys)."""
    if not _on:
        return list(parser.tick())  # type: ignore[arg-type]  # (only once its delay passed)
    if parser._timeout_time is None:
        return []
    parser._timeout_time = 0.0
    return list(parser.tick())  # type: ignore[arg-type]


INPUT = Patch(
    name="input_parser",
    why="a client's odd input is ignored, not the end of its session; a lone Esc is a key",
    sources=(
        Source(
            XTermParser,
            "__init__",
            "d72babb3e40ab7da67ea8c3c489ee8d6410b49fbe3af8995ad085c473ee949d9",
        ),
        Source(
            XTermParser, "parse", "a5834ad1def86544712d43abd7e32d5cc4949a8896cabdde4dd8566df36e89b5"
        ),
        Source(
            XTermParser,
            "parse_mouse_code",
            "ceae22ff03d195e9251a09881d486178623a004d957fbd83009912f4683b8428",
        ),
        Source(
            XTermParser,
            "_parse_extended_key",
            "65eeaadaf41a7aa993df3f9fbdeb639d572469ce673276325f50528164f47eaf",
        ),
        Source(
            Parser,
            "tick",
            "44606084ad3bf7c1a27eb0e2afcb0b5752cdc1f399861006aa04c5654e87b24b",
        ),
        Source(
            Parser,
            "feed",
            "390106cde019dd29d613fc973baaeeb32dc42ef92e4a7cbdbea8cf5aed2e3591",
        ),
    ),
    reads=(
        Reads("XTermParser", XTermParser, ("_timeout_time", "mouse_pixels", "_parse_extended_key")),
    ),
    install=_switch_on,
)

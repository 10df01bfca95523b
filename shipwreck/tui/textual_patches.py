"""Changes to Textual for a server that runs one app per session in one process.

1. **Strips with lazy caches.** Every ``Strip`` (one rendered line) builds seven
   ``FIFOCache`` objects in ``__init__``, and a session keeps thousands of strips (every
   widget caches its rendered lines). Most of those caches are never used, yet they were about
   a fifth of a seated session's memory and an eighth of the CPU a repaint costs. Here each
   cache is a property that builds its ``FIFOCache`` on first access and keeps it in the same
   slot, so a strip behaves exactly as before.
2. **One parse of the CSS for all apps.** Each app has its own ``Stylesheet`` and parsed every
   widget's CSS again at start-up (tens of milliseconds and hundreds of KiB of rules per
   session). Parsed rules are never changed afterwards, so they are shared: one cache keyed
   on the CSS text, where it came from, and the theme's variables. So are the theme's
   variables as tokens (each app tokenized all of them, ~40 KiB, the first time a style
   such as ``bold $footer-key-foreground`` was parsed).

3. **Divided strips are not kept.** To put a screen together, the compositor cuts each line
   of each widget where other widgets overlap it (``Strip.divide``), and every strip kept
   the pieces it was cut into. Widgets keep their lines, so every session kept a second,
   cut copy of its screen: a ninth of its memory. Cutting again when a line is redrawn costs
   about 3 % more calls.

4. **A partial repaint draws only the rows it repaints.** For an update, the compositor asked
   every widget whose *parent* overlapped the rows to update for all of its lines, then threw
   away the rows it did not need: a new line in the log had every panel and container on the
   screen hand over all their lines. Here each widget is asked only for the rows between the
   first and the last row being repainted within it, and not at all if it has none; the
   bytes sent are the same. A new log line then costs a session about a tenth less.

5. **Signals make their table of subscribers when first subscribed to.** Every widget, screen
   and app has signals, each with a ``WeakKeyDictionary`` (about a kilobyte), and almost
   none is ever subscribed to.

6. **A widget's set of timers is made when it first has one.** Every message pump (each
   widget, screen and app) made a ``WeakSet`` for its timers, and most never have a timer.

7. **A message pump's task does not keep whoever started it.** Textual starts each pump's
   task (``MessagePump._start_messages``) in a copy of the context it is called from, where
   ``active_message_pump`` is the pump that was running, and the task's first act sets it to
   itself, keeping the old value (in a ``Token``) until the pump closes. So a table screen
   opened from the lobby kept the whole lobby screen alive for as long as the table was open
   (~100 KiB a session), and a lobby opened from a table kept the table screen. Here the
   task starts in a copy where the pump is already the active one.

This reaches into Textual's internals, so ``install()`` first checks that ``Strip``,
``Stylesheet`` and ``Compositor`` still look as they were written against, and leaves Textual
alone (and says so) otherwise. ``installed()`` tells which happened; a test checks it.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import logging
from collections.abc import Callable, Iterable
from typing import Any
from weakref import WeakKeyDictionary, WeakSet, ref

from rich.segment import Segment
from textual._compositor import Compositor
from textual._context import active_message_pump
from textual.cache import FIFOCache, LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.tokenize import tokenize_values
from textual.css.tokenizer import Token
from textual.css.types import CSSLocation
from textual.dom import DOMNode
from textual.geometry import Region
from textual.message_pump import MessagePump
from textual.signal import Signal
from textual.strip import Strip

log = logging.getLogger(__name__)

CACHE_SIZES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
"""The caches ``Strip.__init__`` makes (Textual 8.x), with their sizes."""

OTHER_SLOTS = ("_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count")

_installed = False


def _init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    """``Strip.__init__`` without the caches (they come when first used)."""
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _lazy(slot: Any, size: int) -> property:
    """A property over the member descriptor ``slot`` that fills it on first read."""

    def get(strip: Strip) -> FIFOCache[Any, Any]:
        try:
            cache: FIFOCache[Any, Any] = slot.__get__(strip, Strip)
        except AttributeError:
            cache = FIFOCache(size)
            slot.__set__(strip, cache)
        return cache

    return property(get, slot.__set__)


_parse_rules = Stylesheet._parse_rules
textual_render_chops = Compositor._render_chops
"""Textual's own, for a test to compare with."""
_parsed: LRUCache[tuple[object, ...], list[RuleSet]] = LRUCache(256)
"""Parsed rules for every app: (css, read_from, default?, tie breaker, scope, variables)."""


def _shared_parse_rules(
    self: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    variables = tuple(sorted(self._variables.items()))
    key = (css, read_from, is_default_rules, tie_breaker, scope, variables)
    rules = _parsed.get(key)
    if rules is None:
        rules = _parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        _parsed[key] = rules
    return rules


_tokens: LRUCache[tuple[tuple[str, str], ...], dict[str, list[Token]]] = LRUCache(16)
"""The theme's variables as tokens, for every app: keyed on the variables."""


def _shared_variable_tokens(self: Stylesheet) -> dict[str, list[Token]]:
    """``Stylesheet._variable_tokens``, tokenized once for all apps with the same variables
    (callers only read them)."""
    tokens: dict[str, list[Token]] | None = self._Stylesheet__variable_tokens  # type: ignore[attr-defined]
    if tokens is None:
        key = tuple(sorted(self._variables.items()))
        tokens = _tokens.get(key)
        if tokens is None:
            tokens = _tokens[key] = tokenize_values(self._variables)
        self._Stylesheet__variable_tokens = tokens  # type: ignore[attr-defined]
    return tokens


class _NoSubscribers(dict[Any, Any]):
    """The empty table of subscribers every signal shares until one subscribes (read-only)."""

    def __setitem__(self, key: Any, value: Any) -> None:
        raise TypeError("a signal's shared empty table of subscribers is read-only")

    setdefault = __setitem__  # type: ignore[assignment]


_NO_SUBSCRIBERS = _NoSubscribers()
_signal_subscribe = Signal.subscribe


def _signal_init(self: Signal[Any], owner: Any, name: str) -> None:
    """``Signal.__init__`` without a ``WeakKeyDictionary`` (see :func:`_subscribe`)."""
    self._owner = ref(owner)
    self._name = name
    self._subscriptions = _NO_SUBSCRIBERS  # type: ignore[assignment]


def _subscribe(self: Signal[Any], node: Any, callback: Any, immediate: bool = False) -> None:
    """``Signal.subscribe``, making the signal's own table of subscribers first."""
    if self._subscriptions is _NO_SUBSCRIBERS:
        self._subscriptions = WeakKeyDictionary()
    _signal_subscribe(self, node, callback, immediate)


class _LazyTimers:
    """``MessagePump._timers`` as a data descriptor: the ``WeakSet`` is made on first use, and
    the empty one ``MessagePump.__init__`` assigns is not kept."""

    def __get__(self, pump: Any, owner: Any = None) -> Any:
        if pump is None:
            return self
        timers = pump.__dict__.get("_timers")
        if timers is None:
            timers = pump.__dict__["_timers"] = WeakSet()
        return timers

    def __set__(self, pump: Any, timers: WeakSet[Any]) -> None:
        if timers:
            pump.__dict__["_timers"] = timers
        else:
            pump.__dict__.pop("_timers", None)


def _start_messages(self: MessagePump) -> None:
    """``MessagePump._start_messages``, the task started in a context where this pump is the
    active one already (see 7 above)."""
    self._thread_init()  # type: ignore[no-untyped-call]
    if self.app._running:
        context = contextvars.copy_context()
        context.run(active_message_pump.set, self)
        self._task = asyncio.create_task(
            self._process_messages(), name=f"message pump {self}", context=context
        )
    else:
        self._closing = True
        self._closed = True


def _divide(self: Strip, cuts: Iterable[int]) -> list[Strip]:
    """``Strip.divide`` without keeping the pieces in the strip's cache."""
    cell_length = self.cell_length
    cuts = [cut for cut in cuts if cut <= cell_length]
    if cuts == [cell_length]:
        return [self]
    strips, pos = [], 0
    for segments, cut in zip(Segment.divide(self._segments, cuts), cuts, strict=False):
        strips.append(Strip(segments, cut - pos))
        pos = cut
    return strips


def _render_chops(
    self: Compositor, crop: Region, is_rendered_line: Callable[[int], bool]
) -> list[dict[int, Strip | None]]:
    """``Compositor._render_chops`` asking each widget only for the rows it repaints.

    Front to back (the order of ``visible_widgets``), each widget's lines are cut where the
    screen's cuts fall, and the first strip to fill a cut wins, as in Textual."""
    cuts = self.cuts
    chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    top, bottom = crop.y, crop.bottom
    for widget, (region, clip) in self.visible_widgets.items():
        x, y, width, height = region.intersection(clip)
        first, end = max(y, top), min(y + height, bottom)
        while first < end and not is_rendered_line(first):
            first += 1
        while end > first and not is_rendered_line(end - 1):
            end -= 1
        if not width or first >= end:
            continue
        strips = widget.render_lines(Region(x - region.x, first - region.y, width, end - first))
        right = x + width
        for row, strip in zip(range(first, end), strips, strict=False):
            if not is_rendered_line(row):
                continue
            line = chops[row]
            row_cuts = [cut for cut in cuts[row] if right >= cut >= x]
            pieces = strip.divide([cut - x for cut in row_cuts[1:]])
            for cut, piece in zip(row_cuts, pieces, strict=False):
                if line.get(cut) is None:
                    line[cut] = piece
    return chops


def _parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)  # type: ignore[arg-type]


def install() -> bool:
    """Make every ``Strip``'s caches lazy, keep no divided strips, share parsed CSS and the
    theme's tokens, repaint only the rows asked for, give signals their subscribers' tables
    and pumps their timers' sets when first used, and start pumps' tasks without a hold on
    whoever started them; ``True`` if it did."""
    global _installed
    if _installed:
        return True
    slots = set(getattr(Strip, "__slots__", ()))
    strip_as_known = slots == set(CACHE_SIZES) | set(OTHER_SLOTS)
    strip_as_known &= _parameters(Strip.__init__) == ["self", "segments", "cell_length"]
    strip_as_known &= _parameters(Strip.divide) == ["self", "cuts"]
    parse_as_known = hasattr(Stylesheet(), "_variables") and _parameters(_parse_rules) == [
        "self",
        "css",
        "read_from",
        "is_default_rules",
        "tie_breaker",
        "scope",
    ]
    compositor_as_known = _parameters(Compositor._render_chops) == [
        "self",
        "crop",
        "is_rendered_line",
    ] and all(hasattr(Compositor, name) for name in ("cuts", "visible_widgets"))
    parse_as_known &= "_Stylesheet__variable_tokens" in vars(Stylesheet())
    parse_as_known &= isinstance(Stylesheet.__dict__.get("_variable_tokens"), property)
    signal: Signal[None] = Signal(DOMNode(), "probe")
    signal_as_known = set(vars(signal)) == {"_owner", "_name", "_subscriptions"}
    signal_as_known &= _parameters(Signal.subscribe) == ["self", "node", "callback", "immediate"]
    pump_as_known = isinstance(vars(MessagePump()).get("_timers"), WeakSet)
    pump_as_known &= "_timers" not in vars(MessagePump)
    pump_as_known &= _parameters(MessagePump._start_messages) == ["self"]
    pump_as_known &= all(
        hasattr(MessagePump, name) for name in ("_thread_init", "_process_messages", "_context")
    )
    known = strip_as_known and parse_as_known and compositor_as_known and signal_as_known
    if not (known and pump_as_known):
        log.warning("Textual's Strip, Stylesheet, Compositor, Signal or MessagePump has changed")
        return False
    for name, size in CACHE_SIZES.items():
        setattr(Strip, name, _lazy(Strip.__dict__[name], size))
    Strip.__init__ = _init  # type: ignore[method-assign]
    Strip.divide = _divide  # type: ignore[method-assign]
    Stylesheet._parse_rules = _shared_parse_rules  # type: ignore[method-assign]
    Stylesheet._variable_tokens = property(_shared_variable_tokens)  # type: ignore[method-assign,assignment]
    Signal.__init__ = _signal_init  # type: ignore[method-assign]
    Signal.subscribe = _subscribe  # type: ignore[method-assign]
    MessagePump._timers = _LazyTimers()  # type: ignore[assignment]
    MessagePump._start_messages = _start_messages  # type: ignore[method-assign]
    Compositor._render_chops = _render_chops  # type: ignore[method-assign,assignment]
    _installed = True
    return True


def installed() -> bool:
    return _installed

"""Repaints as background work: a few at a time, each screen at most so often.

Every session in the lobby shows the same list, so one change there (a table made, a player
sitting down) is a repaint for each of them. Queued at once, two hundred repaints ran in one
turn of the event loop, one after the other, and every timer, keystroke and table waited
behind all of them: during a busy seating, the loop's turns took seconds.

A :class:`RepaintPacer` lets at most ``at_once`` of its screens have a repaint queued (a
screen's repaint tells it when it is done, which lets the next one go), at most ``per_second``
a second in all, takes them in the order they asked (round robin: a screen that asks again goes
to the back), and repaints a screen at most once every ``every`` seconds. So a burst of changes
costs at most ``at_once`` repaints per turn of the loop, a lobby that keeps changing (players
sitting down all over) costs a bounded share of the server however many watch it, and each
screen coalesces what changed while it waited into one repaint, which reads the lobby as it is
then: nothing is lost, only shown a little later (with many watchers, later: 200 sessions in a
lobby that never stops changing see it change every two seconds).
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import logging
import time
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from textual.events import Callback
from textual.message_pump import MessagePump

S = TypeVar("S")
log = logging.getLogger("shipwreck.tui")

STALE = 5.0
"""Seconds after which a queued repaint that never said it was done stops holding its place
(a screen that closed meanwhile, say)."""


class RepaintPacer(Generic[S]):
    """Paces the repaints of many screens (see the module's docstring). ``post(screen)``
    queues one repaint of ``screen`` and says whether it did; the screen's repaint calls
    :meth:`done` when it has run."""

    def __init__(
        self,
        post: Callable[[S], bool],
        at_once: int = 8,
        every: float = 0.5,
        per_second: float = 100.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.post = post
        self.at_once = at_once
        self.every = every
        self.per_second = per_second
        self.clock = clock
        self._allowance = float(at_once)
        """Repaints that may be queued now (it grows by ``per_second``, to ``at_once``)."""
        self._pumped = clock()
        self._waiting: dict[S, None] = {}
        """Screens that want a repaint, in the order they asked (an ordered set)."""
        self._posted: dict[S, float] = {}
        """Screens with a repaint queued, and since when."""
        self._last: weakref.WeakKeyDictionary[S, float] = weakref.WeakKeyDictionary()
        self._handle: asyncio.Handle | None = None
        self._handle_at = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None

    def want(self, screen: S) -> None:
        """``screen`` should show what changed: it will repaint (once, however often it asks
        before then)."""
        if screen in self._posted or screen in self._waiting:
            return  # its queued repaint will show this change too
        self._waiting[screen] = None
        self._schedule()

    def done(self, screen: S) -> None:
        """``screen`` has repainted."""
        self._last[screen] = self.clock()
        if self._posted.pop(screen, None) is not None and self._waiting:
            self._schedule()

    def forget(self, screen: S) -> bool:
        """``screen`` is closing, or has just drawn itself: it needs no repaint. ``True`` if it
        was waiting for one."""
        self._posted.pop(screen, None)
        return self._waiting.pop(screen, 1) is None

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def posted(self) -> int:
        return len(self._posted)

    def _schedule(self, delay: float = 0.0) -> None:
        """Pump in ``delay`` seconds, unless a pump is due sooner."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test changing a lobby nobody shows): later
            return
        at = loop.time() + delay
        if self._handle is not None and self._loop is loop:
            if self._handle_at <= at:
                return  # a pump is already due by then
            self._handle.cancel()
        self._loop, self._handle_at = loop, at
        if delay > 0:
            self._handle = loop.call_at(at, self._pump)
        else:
            self._handle = loop.call_soon(self._pump)

    def _pump(self) -> None:
        """Queue the repaints of the next screens whose turn has come (as many as fit)."""
        self._handle = None
        now = self.clock()
        for screen, since in list(self._posted.items()):
            if now - since > STALE:
                del self._posted[screen]
        gained = (now - self._pumped) * self.per_second
        self._allowance, self._pumped = min(self.at_once, self._allowance + gained), now
        soonest: float | None = None
        for screen in list(self._waiting):
            if len(self._posted) >= self.at_once:  # a repaint that is done lets the next go
                self._schedule(min(self._posted.values()) + STALE - now)  # (or goes stale)
                return
            if self._allowance < 1:
                self._schedule((1 - self._allowance) / self.per_second)
                return
            due = self._last.get(screen, now - self.every) + self.every
            if due > now:
                soonest = due if soonest is None else min(soonest, due)
                continue
            del self._waiting[screen]
            try:
                queued = self.post(screen)
            except Exception:  # one broken screen must not stop the others' repaints
                log.exception("%s: its repaint could not be queued", screen)
                continue
            if queued:
                self._posted[screen] = now
                self._allowance -= 1
        if soonest is not None:
            self._schedule(max(soonest - now, 0.001))


TURN_SECONDS = 0.025
"""About how much screen work (or typed lines) one turn of the loop takes. At 40 ms, while
200 players signed in and sat down, the loop's worst lag was 315-354 ms in three runs; at 25 ms
it was 185-229 ms, with the seating done no later and say -> screen no slower (runs of the two
alternating, on a host slower than usual that day: ``bench/ssh_load.py --sessions 200
--seconds 10 --think 2,5``)."""


class TurnBudget:
    """At most ``per_turn`` pieces of screen work (a repaint, opening a table) queued in one
    turn of the event loop, and about ``seconds`` of it by what such work has been taking; the
    rest go out in the next turns, in the order they came.

    Table screens are not paced like the lobby's (a change at a table must reach its players at
    once), but a burst (dozens of players sitting down at once, each join repainting the others
    at that table) queued every repaint in the same turn, and every timer and keystroke waited
    behind all of them. A count alone was not enough: a table screen's repaint costs five times
    a lobby's, and opening a table screen (building its widgets) twenty, so sixteen of them in
    a turn still held the loop for over half a second while two hundred players sat down. Each
    kind's cost is learnt as it runs (:meth:`measured`), and a turn takes work until its
    estimate is spent (always at least one piece, so a slow kind still goes). Under the budget
    nothing changes: the work is queued at once."""

    def __init__(
        self,
        per_turn: int = 16,
        seconds: float = TURN_SECONDS,
        costs: dict[str, float] | None = None,
        unknown: float = 0.0,
        kinds: int = 64,
    ) -> None:
        self.per_turn = per_turn
        self.seconds = seconds
        self.unknown = unknown
        """What a kind of work never measured is counted as."""
        self.kinds = kinds
        """The most kinds whose cost is learnt (kinds can come from what players type: beyond
        this many, a new kind's cost is not kept)."""
        self.used = 0
        self.spent = 0.0
        """This turn's work, counted and estimated."""
        self.cost: dict[str, float] = dict(costs or {})
        """What each kind of work has been taking (a moving average, seconds), or is assumed
        to take (a kind never :meth:`measured`)."""
        self.waiting: collections.deque[tuple[Callable[[], object], str]] = collections.deque()
        self._armed: asyncio.AbstractEventLoop | None = None

    def run(self, post: Callable[[], object], kind: str = "repaint") -> None:
        """Call ``post`` (which queues one piece of ``kind`` work) now, or in a later turn if
        this one's budget is spent."""
        if not self.take_now(kind):
            self.waiting.append((post, kind))
            return
        post()

    def take_now(self, kind: str) -> bool:
        """Count one piece of ``kind`` work into this turn, if it fits and none waits before
        it; ``False``: it does not (queue it with :meth:`run`)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: nothing to share a turn with
            return True
        if self._armed is not loop:  # a new loop (tests run many): start afresh
            self._armed, self.used, self.spent = None, 0, 0.0
            self.waiting.clear()
        if self._armed is None:
            self._armed = loop
            loop.call_soon(self._next_turn, context=contextvars.Context())
        if self.waiting or not self._fits(kind):
            return False
        self._take(kind)
        return True

    def measured(self, kind: str, seconds: float) -> None:
        """One piece of ``kind`` work took ``seconds``: learn its cost."""
        old = self.cost.get(kind)
        if old is None and len(self.cost) >= self.kinds:
            return
        self.cost[kind] = seconds if old is None else old + (seconds - old) * COST_WEIGHT

    def _fits(self, kind: str) -> bool:
        if self.used == 0:
            return True
        return self.used < self.per_turn and self.spent + self._cost(kind) <= self.seconds

    def _take(self, kind: str) -> None:
        self.used += 1
        self.spent += self._cost(kind)

    def _cost(self, kind: str) -> float:
        return self.cost.get(kind, self.unknown)

    def _next_turn(self) -> None:
        self._armed, self.used, self.spent = None, 0, 0.0
        while self.waiting and self._fits(self.waiting[0][1]):
            post, kind = self.waiting.popleft()
            self._take(kind)
            try:
                post()
            except Exception:  # one broken screen must not stop the others' work
                log.exception("a repaint could not be queued")
        if self.used:
            self._armed = asyncio.get_running_loop()
            self._armed.call_soon(self._next_turn, context=contextvars.Context())


COST_WEIGHT = 0.2
"""How much one measurement moves a kind's learnt cost (an exponential moving average)."""

OPEN_SECONDS = 0.05
"""What opening a table screen is counted as in a turn's budget: its whole cost. Building one
takes about 50 ms of CPU in all (Textual 8.2.8, measured as ``ShipwreckApp.open_table`` then two
pauses, headless, 120×40), spread over three or four turns of the loop (compose, mount, first
frame); it is not measured as it runs because its parts run as Textual's own callbacks. Counted
at 20 ms (its first part), two opened a turn and the rest of their work piled up in the turns
after: while 100 players sat down the loop's worst lag was 385-434 ms, and 203 ms counted whole
(the same load: ``bench/ssh_load.py --sessions 100 --think 2,5``)."""

TABLE_TURNS = TurnBudget(costs={"open": OPEN_SECONDS})
"""The budget every screen's repaints and table openings share (see :class:`TurnBudget`)."""

LINE_TURNS = TurnBudget(unknown=0.01)
"""The budget of the lines players type (see ``CommandLine._run_lines``): a budget of their
own, not a share of the screens', where a line waited behind every repaint queued before it
(Enter → applied went from 70 to 200 ms at 200 sessions: Textual 8.2.8,
``bench/ssh_load.py --sessions 200``). Each line's kind is its first word (:func:`line_kind`),
and its cost is learnt per kind: one cost for every line let a crowd's ``join``s (~20 ms
each, a ``say`` ~2) run sixteen in one turn, 0.3 s in which every other session waited."""


def line_kind(line: str) -> str:
    """The budget kind of a typed line: its first word, lower-case (``line:join``)."""
    word = line.split(maxsplit=1)[0].lower() if line.strip() else ""
    return f"line:{word[:16]}"


def post_callback(target: MessagePump, callback: Callable[[], None]) -> bool:
    """Have ``target`` call ``callback`` from its own message queue (so in its app's context:
    the budget calls ``post`` from a context of its own); ``False`` if it refused (closing).

    The message's sender is ``target`` itself: ``call_later``'s would name the session that
    made a change, and a screen keeps the last message it handled, so that session's screen
    stayed alive."""
    message = Callback(callback=callback)
    message.set_sender(target)
    return target.post_message(message)


def after(target: MessagePump, seconds: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
    """Have ``target`` call ``callback`` from its own message queue in ``seconds``, once;
    ``cancel()`` the handle to call it off.

    Not Textual's ``set_timer``: a one-shot timer whose delay has already passed when its task
    first reads the clock is skipped, never called (bug 4 in ``docs/textual-notes.md``), and a
    delay computed as "what is left" can be a few microseconds. A screen that waited for such a
    timer before doing anything again (the move preview) then waited for good. This also costs
    a loop timer, not a task."""
    loop = asyncio.get_running_loop()
    return loop.call_later(
        max(0.0, seconds), post_callback, target, callback, context=contextvars.Context()
    )

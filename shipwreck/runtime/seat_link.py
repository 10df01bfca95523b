"""What a table screen holds: one seat's way into a table, wherever the table runs.

Why: with several workers (issue 21) a player's session may be on a worker that does not own
their table. The screens then read a :class:`~shipwreck.runtime.remote_table.RemoteTable` (the
seat's own updates from the owner, see :mod:`shipwreck.runtime.updates`) instead of the
:class:`~shipwreck.runtime.table.Table` itself. Both give what :class:`SeatLink` lists, so the
screens have one path.

The one difference a screen sees: a change it asks for (a typed line, ``say``, ``start``) is
answered at once by a local table (saved before the answer, as always), and later by a remote
one (when the owner's reply arrives). Each such call returns the answer or an awaitable of it;
:func:`when_answered` handles both, running the callback at once for a local answer, so the
local path behaves as before.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol, TypeAlias, TypeVar, cast

from shipwreck.engine.core import Event, Prompt, Seat
from shipwreck.runtime.table import ChatLine, SeatInfo, Submitted

log = logging.getLogger("shipwreck.seat_link")

T = TypeVar("T")

Answer: TypeAlias = "T | Awaitable[T]"
"""An answer now (a local table) or later (the owner's reply, for a remote one)."""


class SeatLink(Protocol):
    """What a table screen reads and asks of its table (a local ``Table`` is one)."""

    @property
    def id(self) -> int: ...
    @property
    def game(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def seats(self) -> list[SeatInfo]: ...
    @property
    def started(self) -> bool: ...
    @property
    def over(self) -> bool: ...
    @property
    def paused(self) -> bool: ...
    @property
    def timed(self) -> bool: ...
    @property
    def host(self) -> str | None: ...
    @property
    def watchers(self) -> dict[str, int]: ...
    @property
    def autopilot_after(self) -> int: ...

    def view(self, seat: Seat | None) -> object: ...
    def log(self, seat: Seat | None) -> list[Event]: ...
    def chat_for(self, viewer: str | None) -> list[ChatLine]: ...
    def seat_name(self, seat: Seat) -> str: ...
    def seat_of_player(self, player: str) -> Seat | None: ...
    def free_seats(self) -> list[Seat]: ...
    def deadline(self, seat: Seat | None) -> float | None: ...
    def default_text(self, seat: Seat) -> str | None: ...
    def host_here(self) -> bool: ...
    def start_refusal(self, player: str | None) -> str | None: ...
    def preview(self, seat: Seat, cmd: object) -> object: ...

    def submit_text(self, seat: Seat, text: str) -> Answer[Submitted]: ...
    def say(
        self,
        sender: str,
        text: str,
        from_seat: Seat | None,
        to: Seat | None = None,
        to_watcher: str | None = None,
    ) -> Answer[str | None]: ...
    def start(self, player: str | None, with_bots: bool = False) -> Answer[str | None]: ...
    def leave(self, player: str) -> None: ...
    def take_back(self, player: str) -> bool: ...
    def set_connected(self, player: str, connected: bool) -> None: ...
    def prompt_shown(self, seat: Seat | None) -> None: ...
    def watch(self, player: str) -> Callable[[], None]: ...
    def subscribe(self, listener: Callable[[SeatLink], None]) -> Callable[[], None]: ...


_pending: set[asyncio.Task[None]] = set()
"""Answers still on their way (kept here so a task is not collected before it is done)."""


def when_answered(answer: Answer[T], then: Callable[[T], None]) -> None:
    """Call ``then`` with the answer: at once if it is here, else when it arrives."""
    if not inspect.isawaitable(answer):
        then(answer)
        return

    async def wait(pending: Awaitable[T]) -> None:
        try:
            result = await pending
        except Exception:
            log.exception("an answer from a table's owner never came")
            return
        then(result)

    task = asyncio.get_running_loop().create_task(wait(answer))
    _pending.add(task)
    task.add_done_callback(_pending.discard)


class PromptedView(Protocol):
    """What the runtime reads of a game's view: the prompts it shows (a view leaves out the
    prompts that would tell what someone holds)."""

    @property
    def prompts(self) -> Sequence[Prompt]: ...


def waited_seats(view: object) -> tuple[Seat, ...]:
    """The seats a game's ``view`` says the table waits for (its blocking prompts; a view
    leaves out the prompts that would tell what someone holds)."""
    prompts = cast(PromptedView, view).prompts
    return tuple(sorted({p.seat for p in prompts if p.blocking}))

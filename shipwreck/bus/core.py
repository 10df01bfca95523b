"""What every bus offers: publish and subscribe, request and reply, and leases with a lifetime.

A lease is how a table gets exactly one owner among workers: a worker *claims* a key (the
table), *renews* it well inside its time-to-live while it lives, and *releases* it when it hands
the table over. A worker that dies stops renewing; its lease expires and another worker's claim
succeeds. Every claim and renewal names the revision it expects, so two workers can never both
believe they own a table.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

Handler = Callable[[str, bytes], Awaitable[None]]
"""Receives ``(subject, data)`` for each message on a subscription."""

Responder = Callable[[bytes], Awaitable[bytes]]
"""Answers a request: the request's data in, the reply's data out."""

_TOKEN = re.compile(r"[A-Za-z0-9_-]+")
MAX_SUBJECT = 256


class BusError(Exception):
    """The bus could not do what was asked; the message says what and what to check."""


class NoResponder(BusError):
    """A request found no one serving its subject (or no answer came in time)."""


class NoOneServes(NoResponder):
    """A request found no one serving its subject: unlike a request that timed out, no one
    received it, so asking again cannot have it done twice."""


def valid_subject(subject: str, *, pattern: bool = False) -> bool:
    """Is ``subject`` a subject we publish on (``pattern``: or subscribe to)?

    Tokens are letters, digits, ``_`` and ``-``; a pattern may also use ``*`` for one token and
    a final ``>`` for the rest. Kept narrower than NATS allows so a subject built from a table
    id or a seat number can never smuggle a wildcard or a space in.
    """
    if not subject or len(subject) > MAX_SUBJECT:
        return False
    tokens = subject.split(".")
    for i, tok in enumerate(tokens):
        if pattern and tok == "*":
            continue
        if pattern and tok == ">" and i == len(tokens) - 1:
            continue
        if not _TOKEN.fullmatch(tok):
            return False
    return True


def subject_matches(pattern: str, subject: str) -> bool:
    """Does a subscription to ``pattern`` receive a message on ``subject`` (NATS rules)?"""
    pat, sub = pattern.split("."), subject.split(".")
    for i, tok in enumerate(pat):
        if tok == ">":
            return len(sub) > i
        if i >= len(sub) or (tok != "*" and tok != sub[i]):
            return False
    return len(sub) == len(pat)


class Subscription(Protocol):
    async def stop(self) -> None:
        """Receive nothing more on this subscription."""


class Leases(Protocol):
    """Keys with one owner each and a time-to-live (the bus's ``lease_seconds``)."""

    async def claim(self, key: str, owner: str) -> int | None:
        """Take ``key`` for ``owner`` if no live lease holds it: its revision, else ``None``."""

    async def renew(self, key: str, owner: str, revision: int) -> int | None:
        """Extend our lease at ``revision``: the new revision, or ``None`` if it was lost
        (expired and claimed by another, or released)."""

    async def release(self, key: str, owner: str, revision: int) -> bool:
        """Give the lease up, if it is still ours at ``revision``."""

    async def owner(self, key: str) -> str | None:
        """Who holds a live lease on ``key``, if anyone."""


class Bus(Protocol):
    """The calls the server makes on its bus (see the package docstring)."""

    lease_seconds: float

    @property
    def leases(self) -> Leases: ...

    async def publish(self, subject: str, data: bytes) -> None:
        """Send ``data`` to every subscription matching ``subject`` (none: dropped)."""

    async def publish_all(self, messages: Sequence[tuple[str, bytes]]) -> None:
        """:meth:`publish` each ``(subject, data)`` in order, and hand them to the network now,
        not when the client's own writer next gets a turn of the event loop."""

    async def subscribe(self, pattern: str, handler: Handler) -> Subscription:
        """Call ``handler`` for each message whose subject matches ``pattern``, in order."""

    async def serve(self, subject: str, responder: Responder) -> Subscription:
        """Answer requests on ``subject``; with several servers, each request reaches one."""

    async def request(self, subject: str, data: bytes, timeout: float = 2.0) -> bytes:
        """Ask whoever serves ``subject``; raises :class:`NoResponder` if no one answers."""

    async def close(self) -> None:
        """Stop every subscription and let go of the connection."""


def check_subject(subject: str, *, pattern: bool = False) -> None:
    """Refuse a subject we would never build ourselves (a bug, not a player's input)."""
    if not valid_subject(subject, pattern=pattern):
        kind = "pattern" if pattern else "subject"
        raise BusError(f"bad bus {kind} {subject[:60]!r}: tokens are [A-Za-z0-9_-] joined by '.'")

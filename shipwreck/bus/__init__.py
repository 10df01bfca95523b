"""The message bus that joins worker processes (issue 21), behind one small interface.

Why an interface: ``shipwreck serve`` with no flags is one process, and its bus is
:class:`~shipwreck.bus.memory.MemoryBus` (no network, no extra package). With workers, the same
calls go to a NATS server (:class:`~shipwreck.bus.nats.NatsBus`, the ``workers`` extra). The
contract tests in ``tests/runtime/test_bus.py`` run against both, so code written against
:class:`Bus` behaves the same on one box and on many.

Subjects are NATS subjects: dot-separated tokens; in a subscription ``*`` matches one token and
``>`` the rest (``table.7.seat.*``). A table's owner publishes each seat's own update on that
seat's own subject, so a worker receives only the seats of its own players.
"""

from shipwreck.bus.core import (
    Bus,
    BusError,
    Handler,
    Leases,
    NoOneServes,
    NoResponder,
    Responder,
    Subscription,
    subject_matches,
    valid_subject,
)
from shipwreck.bus.memory import MemoryBus

__all__ = [
    "Bus",
    "BusError",
    "Handler",
    "Leases",
    "MemoryBus",
    "NoOneServes",
    "NoResponder",
    "Responder",
    "Subscription",
    "subject_matches",
    "valid_subject",
]

"""One server per database and per port, unless they share a bus on purpose.

Why: a server that keeps its tables' leases to itself (the single process, whose bus is in
memory, or ``serve --workers N``, whose NATS server is its own) believes it is the only owner
of every table in its database. A second such server on the same SQLite file rebuilt the
first one's tables and both played them: each refused the other's saved moves ("UNIQUE
constraint failed") and a table got stuck. And ``--workers`` listens with ``SO_REUSEPORT``,
so a second cluster on the same port was let in silently, and the kernel handed it half of
the new connections. So such a server holds a lock on its database file while it runs (the
lock file beside it says whose), and ``--workers`` checks that no one listens on its port
before its workers share it. Servers joined by one bus (``--bus URL``) share a database by
design (their leases are on that bus), and take no lock.
"""

from __future__ import annotations

import errno
import fcntl
import os
import socket
from pathlib import Path
from types import TracebackType


class AlreadyServed(Exception):
    """Another server holds this database or port (the message says which and what to do)."""


class DatabaseLock:
    """An exclusive lock on ``<database>.lock`` while the server runs (released when the
    process ends, however it ends: the kernel drops the lock with the file descriptor)."""

    def __init__(self, database: str) -> None:
        self.path = Path(f"{database}.lock")
        self.database = database
        self._fd: int | None = None

    def acquire(self) -> DatabaseLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "?"
            os.close(fd)
            if e.errno not in (errno.EWOULDBLOCK, errno.EACCES):
                raise
            raise AlreadyServed(
                f"another shipwreck serve (pid {holder}) is using the database {self.database}; "
                "stop it first, or give this one its own --db"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # (the lock goes with it; the file stays, harmless)
            self._fd = None

    def __enter__(self) -> DatabaseLock:
        return self.acquire()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


def check_port_free(host: str, port: int) -> None:
    """Raise :class:`AlreadyServed` if something listens on ``host:port``: binding without
    ``SO_REUSEPORT`` fails while any socket is bound there, with it or without."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (old connections don't count)
        try:
            s.bind((host, port))
        except OSError as e:
            if e.errno != errno.EADDRINUSE:
                raise
            raise AlreadyServed(
                f"port {port} on {host} is already in use (another shipwreck serve?); "
                "stop it first, or choose another --port"
            ) from None

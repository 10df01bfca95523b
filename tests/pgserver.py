"""A throwaway PostgreSQL server for the store's tests, from the Debian ``postgresql`` package.

Started once per test session in a temporary folder, on a free port of 127.0.0.1, with trust
authentication (nothing but the test reaches it) and stopped at the end. ``initdb`` refuses to
run as root, so as root the server runs as the ``postgres`` user the package creates. Where the
package is not installed, :func:`find_bin` says how to get it (the tests skip with that reason).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

INSTALL = "PostgreSQL is not installed here: apt-get install postgresql (or see .ci/run)"


def find_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: on PATH, else Debian's versioned folder."""
    found = shutil.which("initdb")
    if found is not None:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """Its folder is made here, not under pytest's temporary folders: those are the test
    user's alone (0700), and as root the server runs as ``postgres``."""

    def __init__(self) -> None:
        bindir = find_bin()
        assert bindir is not None, INSTALL
        self.bindir, self.root = bindir, Path(tempfile.mkdtemp(prefix="shipwreck-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._names = itertools.count(1)
        self._as: list[str] = []
        if os.geteuid() == 0:  # initdb will not run as root
            shutil.chown(self.root, "postgres", "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run(
            [*self._as, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    def start(self) -> PgServer:
        self._run(
            str(self.bindir / "initdb"), "-D", str(self.data), "--auth=trust", "-U", "postgres"
        )
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-t", "30",
            "-l", str(self.root / "log"), "start",
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"PostgreSQL did not listen on {self.port}")

    def stop(self) -> None:
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database's URL (one per test)."""
        import psycopg

        name = f"t{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")  # type: ignore[call-overload]
        return self.url(name)

    def copy_database(self, url: str) -> str:
        """A copy of the database at ``url`` as it stands (nobody may be connected to it): what
        a test reads or rebuilds from without touching the original."""
        import psycopg

        source = url.rsplit("/", 1)[1]
        name = f"t{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            for _ in range(50):  # a killed client's connection may take a moment to go
                try:
                    conn.execute(f"CREATE DATABASE {name} TEMPLATE {source}")  # type: ignore[call-overload]
                    return self.url(name)
                except psycopg.errors.ObjectInUse:
                    time.sleep(0.1)
        raise AssertionError(f"{source} is still in use: it cannot be copied")

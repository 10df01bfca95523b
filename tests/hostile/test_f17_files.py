"""Audit F17: the database (every hidden hand) and the host key's .pub were world-readable, a
loose host key was used as it was, and the host key's path followed the working directory."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import stat
import sys
from pathlib import Path

from shipwreck.server.service import Service
from shipwreck.server.ssh import ensure_host_key

from harness import Bystander, eventually

SERVE = [sys.executable, "-m", "shipwreck.cli", "serve"]
HOST_KEY_LINE = re.compile(r"host key .*\((SHA256:\S+)\)")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_database_and_host_key_files_are_private(
    service: Service, bystander: Bystander
) -> None:
    """The database, its -wal and -shm, the host key and its .pub: mode 0600 from creation."""
    db = Path(service.config.server.database)
    key = Path(service.config.server.host_key)
    assert service.store.player("bystander") is not None  # (written: the WAL is in use)
    files = [db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"), key]
    files.append(key.with_name(key.name + ".pub"))
    assert {str(f): oct(mode(f)) for f in files} == {str(f): "0o600" for f in files}
    await eventually(lambda: len(bystander.rtts) >= 2, what="the bystander's round trips")
    bystander.check()


async def serve(*args: str, cwd: Path) -> tuple[int | None, list[str]]:
    """Run ``shipwreck serve`` until it listens (then stop it with ^C) or exits: its status
    (None if it was stopped) and its log lines."""
    proc = await asyncio.create_subprocess_exec(
        *SERVE, *args, cwd=cwd, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
    )
    assert proc.stderr is not None
    lines: list[str] = []
    async with asyncio.timeout(60):
        while line := (await proc.stderr.readline()).decode():
            lines.append(line.rstrip("\n"))
            if "listening on" in line:
                proc.send_signal(signal.SIGINT)
                await proc.wait()
                return None, lines
        return await proc.wait(), lines


def write_config(folder: Path, extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "server.toml"
    path.write_text(
        '[server]\nport = 0\nhost_key = "keys/host_key"\ndatabase = "data/game.db"\n' + extra
    )
    return path


async def test_paths_in_server_toml_are_relative_to_its_folder(tmp_path: Path) -> None:
    """Started from two working directories, ``serve --config`` uses the same host key and
    database, next to the file; an old file's ``allow_guests`` is accepted with a warning."""
    config = write_config(tmp_path / "conf", extra="allow_guests = true\n")
    fingerprints = []
    for folder in ("a", "b"):
        cwd = tmp_path / folder
        cwd.mkdir()
        status, lines = await serve("--config", str(config), cwd=cwd)
        assert status is None, lines
        assert list(cwd.iterdir()) == []  # nothing made in the working directory
        found = [
            m.group(1) for line in lines if (m := re.search(r"host key .*\((SHA256:\S+)\)", line))
        ]
        assert found, lines
        fingerprints.append(found[0])
        assert any("allow_guests is no longer used" in line for line in lines), lines
    assert fingerprints[0] == fingerprints[1]
    key = tmp_path / "conf" / "keys" / "host_key"
    assert ensure_host_key(key) == fingerprints[0]
    assert (tmp_path / "conf" / "data" / "game.db").exists()


async def test_a_host_key_others_can_read_stops_serve(tmp_path: Path) -> None:
    """A host key readable by group or others: ``serve`` refuses to start, in one line saying
    how to fix it."""
    config = write_config(tmp_path)
    key = tmp_path / "keys" / "host_key"
    ensure_host_key(key)
    os.chmod(key, 0o644)
    status, lines = await serve("--config", str(config), cwd=tmp_path)
    assert status == 2
    assert lines[-1] == (
        f"shipwreck serve: host key {key} is readable by other users (mode 644); "
        f"run: chmod 600 {key}"
    )
    os.chmod(key, 0o600)
    status, lines = await serve("--config", str(config), cwd=tmp_path)
    assert status is None, lines

"""One server per database and per port (server/exclusive.py), and clean stops: Ctrl+C for
``serve --workers``, SIGTERM for ``serve`` (issue 21; found by trying the product as an operator
would).

Real ``shipwreck serve`` processes on loopback; nothing is mocked.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import asyncssh

from shipwreck.bus.nats_server import free_port
from tests.sshclient import open_terminal


class Server:
    """A ``shipwreck serve`` process whose stderr (its log) is read as it comes."""

    def __init__(self, tmp_path: Path, *args: str, own_group: bool = False) -> None:
        cmd = [sys.executable, "-m", "shipwreck", "serve", "--host-key", str(tmp_path / "key")]
        self.proc = subprocess.Popen(
            [*cmd, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=own_group,  # (its own process group: a terminal of its own)
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.decode(errors="replace").rstrip())

    def wait_log(self, pattern: str, count: int = 1, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if sum(1 for line in self.lines if re.search(pattern, line)) >= count:
                return
            time.sleep(0.05)
        raise AssertionError(f"no {count}x {pattern!r} in the log:\n" + "\n".join(self.lines))

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self._reader.join(5)
        return code


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _refused(tmp_path: Path, *args: str) -> str:
    """Run a ``serve`` that must refuse to start: its one line on stderr."""
    cmd = [sys.executable, "-m", "shipwreck", "serve", "--host-key", str(tmp_path / "key2")]
    done = subprocess.run([*cmd, *args], capture_output=True, timeout=60)
    err = done.stderr.decode(errors="replace").strip()
    assert done.returncode == 2, err
    return err.splitlines()[-1]


def test_a_second_server_on_the_same_database_is_refused_until_the_first_stops(
    tmp_path: Path,
) -> None:
    """Two servers that each own every table of one database would both play them (each
    refusing the other's saved moves). The second is refused, in one line saying what to do;
    once the first has stopped, a server starts on that database again."""
    db = str(tmp_path / "games.db")
    first = Server(tmp_path, "--port", str(free_port()), "--db", db)
    try:
        first.wait_log("listening on")
        line = _refused(tmp_path, "--port", str(free_port()), "--db", db)
        assert re.fullmatch(
            rf"shipwreck serve: another shipwreck serve \(pid {first.proc.pid}\) is using the "
            rf"database {re.escape(db)}; stop it first, or give this one its own --db",
            line,
        ), line
    finally:
        assert first.stop(signal.SIGINT) == 0  # (Ctrl+C)
    again = Server(tmp_path, "--port", str(free_port()), "--db", db)
    try:
        again.wait_log("listening on")
    finally:
        again.stop()


def test_workers_refuse_a_port_in_use_and_stop_on_ctrl_c_without_a_traceback(
    tmp_path: Path,
) -> None:
    """``serve --workers`` listens with SO_REUSEPORT, which would let a second cluster share
    its port (and half its connections): refused. Ctrl+C in the cluster's terminal (SIGINT to
    its whole process group) stops the workers first, then the bus: before, the bus got it at
    the same moment and the workers, unable to hand their tables back, printed tracebacks."""
    port = free_port()
    cluster = Server(
        tmp_path, "--workers", "2", "--port", str(port), "--db", str(tmp_path / "a.db"),
        own_group=True,
    )  # fmt: skip
    try:
        cluster.wait_log("listening on", count=2)
        line = _refused(
            tmp_path, "--workers", "2", "--port", str(port), "--db", str(tmp_path / "b.db")
        )
        assert line == (
            f"shipwreck serve: port {port} on 127.0.0.1 is already in use (another shipwreck "
            "serve?); stop it first, or choose another --port"
        )
        children = _children(cluster.proc.pid)
        assert len(children) == 3, children  # two workers and the bus
        group = os.getpgid(cluster.proc.pid)
        assert all(os.getpgid(child) != group for child in children), "Ctrl+C would reach them"
        os.killpg(cluster.proc.pid, signal.SIGINT)  # Ctrl+C, as a terminal sends it
        assert cluster.stop(signal.SIGINT) == 0
    finally:
        if cluster.proc.poll() is None:
            cluster.stop()
    log = "\n".join(cluster.lines)
    assert "Traceback" not in log and "Error" not in log, log
    assert "stopping (SIGINT): the workers first, then the bus" in log
    assert "workers stopped" in log


def test_a_killed_supervisor_takes_its_workers_and_bus_with_it(tmp_path: Path) -> None:
    """SIGKILL the supervisor of ``serve --workers 2``: its workers and its NATS server end
    too (in their own sessions, no terminal would end them), so none holds the port."""
    port = free_port()
    cluster = Server(
        tmp_path, "--workers", "2", "--port", str(port), "--db", str(tmp_path / "a.db"),
        own_group=True,
    )  # fmt: skip
    try:
        cluster.wait_log("listening on", count=2)
        children = _children(cluster.proc.pid)
        assert len(children) == 3, children
        cluster.proc.kill()
        cluster.proc.wait()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(c) for c in children):
            time.sleep(0.1)
        assert not [c for c in children if _alive(c)], "outlived their supervisor"
    finally:
        cluster.stop()
        for child in _children(cluster.proc.pid):
            os.kill(child, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """Running (not gone, not a zombie awaiting its reaper)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def test_sigterm_stops_serve_cleanly_and_tells_every_player_to_sign_in_again(
    tmp_path: Path,
) -> None:
    """``kill PID`` (SIGTERM, what systemd and ``docker stop`` send) used to end ``serve`` on
    the spot: exit status -15 and players cut off mid-screen with no word. Now it stops as
    Ctrl+C does, and each player's terminal says why their session ended and what to do."""
    port = free_port()
    server = Server(tmp_path, "--port", str(port), "--db", str(tmp_path / "games.db"))
    try:
        server.wait_log("listening on")
        ann = await open_terminal(port, "ann", asyncssh.generate_private_key("ssh-ed25519"))
        await ann.term.wait_for("signed in as ann")
        server.proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(ann.term.closed.wait(), 20)
        said = ann.term.plain_bytes()
        assert "the server is stopping (a restart or an upgrade); your tables are saved" in said
        assert "Sign in again in a minute with the same ssh command." in said
        code = await asyncio.to_thread(server.proc.wait, 30)
    finally:
        server.stop()
    assert code == 0, server.lines
    log = "\n".join(server.lines)
    assert "stopping (SIGTERM)" in log and log.rstrip().endswith("stopped"), log
    assert "Traceback" not in log, log

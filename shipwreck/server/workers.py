"""``shipwreck serve --workers N``: N server processes on one port, joined by a NATS server.

The parent process holds no players. It starts a NATS server on loopback (the binary the
``workers`` extra installs; its files beside the database), then N copies of ``shipwreck
serve`` that each listen on the same SSH port (``SO_REUSEPORT``: the kernel spreads new
connections over them) and join that bus as ``w1`` … ``wN``. It waits; Ctrl+C or SIGTERM stops
the workers (each hands its tables back), then the bus. The workers and the bus run in
sessions of their own, so a Ctrl+C in the terminal reaches only this process, which stops them
in that order (when it reached them all at once, the bus went first and the workers could not
hand their tables back); each of them dies with this process, however it ends.

A worker that dies is started again after :data:`RESTART_SECONDS`; meanwhile its leases expire
and the others take its tables over (a player whose connection it held signs in again and lands
on a live worker). ``--bus URL`` instead joins an existing NATS server and starts no workers of
its own: one ``shipwreck serve --bus URL`` per process, on as many machines as you like.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

from shipwreck.bus.nats_server import NatsServer

log = logging.getLogger("shipwreck.workers")

RESTART_SECONDS = 5.0
"""A dead worker is started again this long after it died (its tables have moved by then)."""


def worker_args(serve_args: list[str], bus: str, name: str) -> list[str]:
    """The command line of one worker: this ``serve``'s own flags, without ``--workers``."""
    out: list[str] = []
    skip = False
    for arg in serve_args:
        if skip:
            skip = False
            continue
        if arg == "--workers":
            skip = True
            continue
        if arg.startswith("--workers="):
            continue
        out.append(arg)
    return [sys.executable, "-m", "shipwreck", "serve", *out, "--bus", bus, "--worker", name]


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not Linux)
        return os.cpu_count() or 1


def too_many_workers(workers: int, cores: int) -> str | None:
    """The warning for more workers than cores, or None. Two workers sharing one core wait
    for each other's time slices: at 200 players, p50 361 ms and p95 777 ms against 31 / 182 ms
    for one process on that core (``bench/ssh_load.py --server-cpus``, docs/deploy.md)."""
    if workers <= cores:
        return None
    return (
        f"{workers} workers on {cores} core{'s' if cores != 1 else ''}: workers sharing a core"
        f" wait for each other's turns and every player's screen lags; --workers {cores} or"
        " fewer is faster (docs/deploy.md)"
    )


def die_with_parent() -> None:
    """(In a child, before it starts.) Linux: SIGTERM this child when its parent dies, even
    by SIGKILL, so no worker or bus outlives its supervisor; elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)


class Supervisor:
    def __init__(self, n: int, serve_args: list[str], nats_dir: Path) -> None:
        self.n, self.serve_args, self.nats_dir = n, serve_args, nats_dir
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.died_at: dict[str, float] = {}
        self.stopping = False

    def _spawn(self, name: str, bus: str) -> None:
        self.procs[name] = subprocess.Popen(
            worker_args(self.serve_args, bus, name),
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
        log.info("worker %s started (pid %d)", name, self.procs[name].pid)

    def run(self) -> int:
        def stop(signum: int, frame: FrameType | None) -> None:
            if not self.stopping:
                name = signal.Signals(signum).name
                log.info("stopping (%s): the workers first, then the bus", name)
            self.stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        if warning := too_many_workers(self.n, usable_cores()):
            log.warning("%s", warning)
        with NatsServer(self.nats_dir, preexec=die_with_parent) as nats:
            log.info("bus %s (NATS, files in %s)", nats.url, self.nats_dir)
            for i in range(1, self.n + 1):
                self._spawn(f"w{i}", nats.url)
            while not self.stopping:
                self._watch(nats.url)
                time.sleep(0.2)
            self._stop_all()
        return 0

    def _watch(self, bus: str) -> None:
        now = time.monotonic()
        for name, proc in list(self.procs.items()):
            code = proc.poll()
            if code is None:
                continue
            died = self.died_at.setdefault(name, now)
            if died == now:
                log.error("worker %s (pid %d) died with code %s", name, proc.pid, code)
            if now - died >= RESTART_SECONDS:
                del self.died_at[name]
                self._spawn(name, bus)

    def _stop_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)  # a worker stops as on Ctrl+C: leases back
        deadline = time.monotonic() + 15
        for proc in self.procs.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.info("workers stopped")

"""Load on the real SSH server: N players over loopback, seated six to a table, playing.

    .venv/bin/python bench/ssh_load.py --sessions 50
    .venv/bin/python bench/ssh_load.py --sessions 100 --seconds 40
    .venv/bin/python bench/ssh_load.py --sessions 50 --profile 30   # server under cProfile
    .venv/bin/python bench/ssh_load.py --sessions 100 --think 2,5 --keys-per-second 6  # people
    .venv/bin/python bench/ssh_load.py --sessions 50 --ladder-games 60  # saved bots' games too
    .venv/bin/python bench/ssh_load.py --sessions 200 --think 2,5 --workers 2 \\
        --server-cpus 0 --client-cpus 1   # the server's cores kept apart from the clients'

``shipwreck serve`` runs as a subprocess on a temporary database and host key; its RSS and CPU
time come from ``/proc/PID``. N asyncssh clients, each with its own key and a 120×40 PTY whose
output is drawn by pyte, sign in; the first of every six types ``new 6 free free free free free``
and the other five ``join ID``, and the first ``start`` (a table with free seats waits for it).
Then, for ``--seconds``, every player reads its own screen and types one of the "choices:" it
shows (after a 0.3-1 s think; ``--think LOW,HIGH``), and at every table one player after
another types ``say TOKEN`` (a game command that adds a public log line; an unconscious or
dead character cannot speak, so its player is skipped) about once a second:
the latency is the time from its Enter to each other player at the table having TOKEN on its
pyte screen. The load is closed: players answer what their screens show, so a faster server
gets more commands.

A client types a line, waits until it is drawn in its command box, presses Enter and waits until
the box is empty again before typing anything else — so no two lines share a packet (see the
type-ahead test in tests/server/test_server_leaks.py). A line goes in one write, unless
``--keys-per-second K`` types it key by key as a person would (each key then costs the server an
echo frame: the load of real typing).

The server runs with its decision timers off (players still waiting for the rest of their
table to sit down would otherwise be timed out onto the autopilot) and a little instrumentation
patched in by this script (the app itself is unchanged): when each Enter arrives
(``SessionIO.feed``), when each ``say`` is applied (``Table.say``: at a table it is chat;
``Table.submit_text`` for a game command; one refused is reported with its reason and left out
of the latencies), when each session's
output carrying its token is handed to the channel (``SSHDriver.flush``), how late a 50 ms timer
runs (event-loop lag), where the event loop is when it has not run that timer for 0.25 s (a
watchdog thread), and how long each full (generation 2) garbage collection takes. That splits
the latency into Enter → applied (input queued behind other sessions' work), applied → written to
each session (the fan-out: every session at the table re-renders) and written → on the client's
screen (transport, and this process's own terminal emulation: a saturated client inflates it).
The clients' screens are `TextScreen`s: pyte's, keeping the text but not the colours, at half
the CPU (a hundred full pyte screens took this process to ~45 % of a core, and added a third to
the p95); ``--check-screens`` checks every row against pyte's own screen as bytes arrive.

Printed: server RSS idle, with N seated, after play, after all left, and after a second wave of N
sign-ins (a leak would keep growing); server CPU for sign-in, seating and play; the server's load
once seated with nobody typing; unit costs (one keystroke echoed, one table change seen by its
six players, with that idle load subtracted); the latencies (p50/p95/max); a say that somebody
did not see within 5 s is either counted as pushed out of their log by later lines before any
frame showed it (a burst of events drawn as one frame: the screen is up to date), or reported
with whether the server applied it and wrote it to them and that player's screen; a table
screen told of a change that did not repaint within 3 s is reported with its state; event-loop
lag, stalls (``--stalls`` prints their stacks) and garbage-collection
pauses phase by phase (sign-in, seating, play, leaving...; the full collection the bench forces to
measure RSS is left out of them and shown apart), including the one that follows when one player
leaves and the rest stay; the server's
warnings; this process's CPU use. ``--profile K`` runs the server under cProfile
while they play and prints its top K functions by own and cumulative time, and shipwreck's own
among them.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import pstats
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
import pyte
from wcwidth import wcwidth

ROOT = Path(__file__).resolve().parent.parent
SIZE = (120, 40)
TICK = os.sysconf("SC_CLK_TCK")
CHOICES = re.compile(r"choices:\s+(.*)")
TABLE_TITLE = re.compile(r"table (\d+) · lifeboat · you are")
SEATED_PLACEHOLDER = "Tab completes · 'help'"
LOBBY_PLACEHOLDER = "lobby command ("
BOX_EMPTY = (SEATED_PLACEHOLDER, LOBBY_PLACEHOLDER, "watching:")
TOKEN = r"q\d{3}k\d{4}z"


def token_for(table_id: int, n: int) -> str:
    return f"q{table_id:03d}k{n:04d}z"


# The server process ---------------------------------------------------------------------------

# Every client comes from 127.0.0.1; decision timers are off, so that players still waiting for
# the others to be seated are not timed out and handed to the autopilot (which would add table
# changes nobody typed).
SERVER_CONFIG = """\
[limits]
sessions_per_address = 100000

[timers]
turn = 0
respond = 0
fight = 0
navigate = 0
thirst = 0
supply = 0
overboard = 0
keep = 0
offer = 0
"""

# ``--workers N``: a lease of 10 s. The default, 1 s, is for a fast failover; on this loaded
# 2-core machine (load average 6) a worker busy signing players in missed renewals, and a new
# table's claim (a task after the table is made) lost to the other worker's adoption scan, so
# tables moved back and forth during seating. The bench measures play, not failover.
CLUSTER_CONFIG = """
[cluster]
lease_seconds = 10.0
heartbeat_seconds = 0.5
"""

# Runs ``shipwreck serve`` with timestamps patched in (see the module docstring).
SERVER_BOOTSTRAP = r"""
import asyncio, atexit, gc, json, re, sys, time
out, profile, args = sys.argv[1], sys.argv[2], sys.argv[3:]
from shipwreck.runtime.table import Table
from shipwreck.server import driver, service

TOKEN = re.compile(r"%(token)s")
times = {"enter": {}, "submit": {}, "refused": {}, "flush": {}, "lag": [], "gc": [], "stalls": []}
times.update(frozen=[], unseen={}, forced=[], turns=[])

# What a long turn of the event loop did: each callback it ran is timed, and a turn whose
# callbacks took more than 0.25 s in all is kept with its biggest parts (by task name: Textual
# names a widget's message pump after the widget).
import asyncio.base_events, asyncio.events
handle_run = asyncio.events.Handle._run
in_turn = []
def timed_handle_run(self):
    started = time.perf_counter()
    try:
        return handle_run(self)
    finally:
        in_turn.append((time.perf_counter() - started, self))
asyncio.events.Handle._run = timed_handle_run
def handle_name(handle):
    owner = getattr(handle._callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        return re.sub(r"\(.*", "", owner.get_name())
    return getattr(handle._callback, "__qualname__", type(handle._callback).__name__)
run_once = asyncio.base_events.BaseEventLoop._run_once
def timed_run_once(self):
    in_turn.clear()
    run_once(self)
    work = sum(d for d, _ in in_turn)
    if work > 0.25:
        parts = {}
        for d, handle in in_turn:
            name = handle_name(handle)
            parts[name] = [parts.get(name, [0, 0])[0] + d, parts.get(name, [0, 0])[1] + 1]
        top = sorted(parts.items(), key=lambda kv: -kv[1][0])[:6]
        times["turns"].append([time.monotonic(), work, len(in_turn), top])
    in_turn.clear()
asyncio.base_events.BaseEventLoop._run_once = timed_run_once

gc_start = [0.0]
times["young_gc"] = []
def gc_timer(phase, info):
    if phase == "start":
        gc_start[0] = time.perf_counter()
    elif info["generation"] == 2:
        times["gc"].append([time.monotonic(), time.perf_counter() - gc_start[0]])
    else:
        took = time.perf_counter() - gc_start[0]
        times["young_gc"].append([time.monotonic(), info["generation"], took, info["collected"]])
gc.callbacks.append(gc_timer)

submit_text = Table.submit_text
def timed_submit_text(self, seat, text):
    m = TOKEN.search(text)
    started = time.monotonic()
    result = submit_text(self, seat, text)
    if m and result.ok:
        times["submit"][m.group(0)] = [started, self.seats[seat].player]
    elif m:
        times["refused"][m.group(0)] = result.message
    return result
Table.submit_text = timed_submit_text

say = Table.say  # (at a table, 'say' is table chat, not a game command)
def timed_say(self, sender, text, *args, **kw):
    m = TOKEN.search(text)
    started = time.monotonic()
    problem = say(self, sender, text, *args, **kw)
    if m and problem is None:
        times["submit"][m.group(0)] = [started, sender]
    elif m:
        times["refused"][m.group(0)] = problem
    return problem
Table.say = timed_say

feed = driver.SessionIO.feed
def timed_feed(self, data):
    if "\r" in data:
        times["enter"].setdefault(self.label, []).append(time.monotonic())
    return feed(self, data)
driver.SessionIO.feed = timed_feed

flush = driver.SSHDriver.flush
last_flush = {}
def timed_flush(self):
    if self._buffer:
        now = time.monotonic()
        for token in set(TOKEN.findall("".join(self._buffer))):
            times["flush"].setdefault(token, {}).setdefault(self._io.label, now)
        last_flush[self._io.label] = now
    return flush(self)
driver.SSHDriver.flush = timed_flush

tick = [time.monotonic()]
async def lag_monitor():
    while True:
        t = time.monotonic()
        await asyncio.sleep(0.05)
        tick[0] = time.monotonic()
        times["lag"].append([tick[0], tick[0] - t - 0.05])  # (when it ran, how late)

def watchdog(main_id):
    # What the event loop is doing when it has not ticked for 0.25 s: one stack per stall.
    import threading, traceback
    stalled = False
    while True:
        time.sleep(0.02)
        if time.monotonic() - tick[0] > 0.25:
            if not stalled:
                frame = sys._current_frames().get(main_id)
                stack = traceback.format_stack(frame, limit=40) if frame else []
                times["stalls"].append([time.monotonic(), "".join(stack[-18:])])
            stalled = True
        else:
            stalled = False

# Two checks, 3 s after the fact. A table screen told of a change that has not repainted
# (frozen: what state it is in); and a say written into a session's log that no frame has
# carried to it: "scrolled" if later lines pushed it out of the log's window before a frame
# showed it (a burst of events coalesced into one repaint), else "unsent" (a bug).
import weakref
from shipwreck.tui import base, widgets
told = weakref.WeakKeyDictionary()
notify_change = base.AppScreen.notify_change
def watched_notify(self, source):
    told.setdefault(self, time.monotonic())
    return notify_change(self, source)
base.AppScreen.notify_change = watched_notify
repaint = base.AppScreen._repaint
def watched_repaint(self):
    told.pop(self, None)
    return repaint(self)
base.AppScreen._repaint = watched_repaint

logged = []
log_write = widgets.EventLog.write
def watched_write(self, text):
    for token in TOKEN.findall(str(text)):
        logged.append((time.monotonic(), token, weakref.ref(self)))
    return log_write(self, text)
widgets.EventLog.write = watched_write

def task_stack(task):
    import io
    if task is None:
        return "no task"
    buf = io.StringIO()
    task.print_stack(limit=12, file=buf)
    return buf.getvalue()[-1500:]

def frozen(screen, since):
    app, timer = screen.app, getattr(screen, "_update_timer", None)
    return {
        "screen": repr(screen), "told": since, "repaint_due": screen._repaint_due,
        "queue": screen._message_queue.qsize(), "app_queue": app._message_queue.qsize(),
        "closing": [screen._closing, screen._closed], "current": screen.is_current,
        "batch": app._batch_count, "timer_active": timer is not None and timer._active.is_set(),
        "screen_task": task_stack(screen._task), "app_task": task_stack(app._task),
    }

async def stale_monitor():
    reported = weakref.WeakSet()
    while True:
        await asyncio.sleep(1.0)
        now = time.monotonic()
        while logged and now - logged[0][0] > 3.0:
            at, token, ref = logged.pop(0)
            log = ref()
            io = driver.session_io_for(log.app) if log is not None and log.is_attached else None
            if io is None or io.label in times["flush"].get(token, {}):
                continue
            rows = [log.first_row(i + 1) - 1 for i, t in enumerate(log.texts) if token in t.plain]
            past = last_flush.get(io.label, 0) > at and rows and rows[-1] < log.scroll_offset.y
            times["unseen"].setdefault(token, {})[io.label] = "scrolled" if past else "unsent"
        for screen, since in list(told.items()):
            if now - since > 3.0 and screen not in reported and not screen._closing:
                reported.add(screen)
                times["frozen"].append(frozen(screen, since))

start = service.Service.start
async def timed_start(self):
    await start(self)
    self._lag_monitor = asyncio.create_task(lag_monitor())
    self._stale_monitor = asyncio.create_task(stale_monitor())
    import threading
    threading.Thread(target=watchdog, args=(threading.get_ident(),), daemon=True).start()
service.Service.start = timed_start

def dump(*_):
    with open(out + ".part", "w") as f:
        json.dump(times, f)
    import os
    os.replace(out + ".part", out)
atexit.register(dump)
if profile:  # the bench turns the profiler on for one phase (SIGUSR1 on, SIGUSR2 off)
    import cProfile, signal
    prof = cProfile.Profile()
    signal.signal(signal.SIGUSR1, lambda *_: prof.enable())
    signal.signal(signal.SIGUSR2, lambda *_: prof.disable())
    atexit.register(lambda: prof.dump_stats(profile))
import faulthandler, signal as signals
def collect(*_):  # what the sessions really hold: garbage collected, freed memory returned
    import ctypes
    started = time.monotonic()
    frozen = gc.get_freeze_count()  # (the server's collector thaws what it froze, and so here)
    gc.unfreeze()
    gc.collect()
    if frozen:
        gc.freeze()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    times["forced"].append([started, time.monotonic()])  # (its pause is the bench's own)
signals.signal(signals.SIGRTMIN, collect)
signals.signal(signals.SIGRTMIN + 1, dump)  # the figures so far (a server that will not stop)
faulthandler.register(signals.SIGQUIT, all_threads=True)  # where a server that will not stop is
from shipwreck.cli import main
sys.exit(main(["serve", *args]))
"""


@dataclass
class Server:
    proc: asyncio.subprocess.Process
    port: int
    times_file: Path
    lines: list[str] = field(default_factory=list)
    drain: asyncio.Task[None] | None = None

    def rss_mib(self) -> float:
        """Resident set size (VmRSS) of the server process."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far."""
        stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / TICK  # utime and stime (fields 14, 15)


def server_warnings(lines: list[str]) -> list[str]:
    """The server's WARNING and ERROR lines; the first ERROR with its traceback (the lines after
    it that are not log lines), so that a failure the bench sees says where it came from."""
    out: list[str] = []
    traced = False
    keep = False
    for line in lines:
        logged = re.match(r"\d{4}-\d\d-\d\d ", line) is not None
        if logged:
            keep = False
            if " WARNING " in line or " ERROR " in line:
                out.append(line.rstrip())
                if " ERROR " in line and not traced:
                    traced = keep = True
        elif keep:
            out[-1] += "\n        " + line.rstrip()
    return out


def ladder_setup(workdir: Path, per_minute: float) -> str:
    """``--ladder-games X``: four saved bots (two Lifeboat, two Spanish Main, two owners) in the
    server's database before it starts, and background ladder games at X a minute, as many as
    they like (server/ladder_games.py); the config lines for it."""
    from shipwreck.resources import bots_dir
    from shipwreck.store import Store

    store = Store(str(workdir / "bench.db"))
    for owner, name, shipped in [
        ("lb_author", "rower", "loyal"),
        ("lb_author", "robber", "hoarder"),
        ("sm_author", "hauler", "sm_hauler"),
        ("sm_author", "raider", "sm_raider"),
    ]:
        store.identify(owner, f"SHA256:{owner}", f"ssh-ed25519 {owner}")
        store.save_bot(owner, name, (bots_dir() / f"{shipped}.bot").read_text())
    store.close()
    return (
        f"\n[ladder]\ngames_per_minute = {per_minute}\ngames_per_bot = 1000000\n"
        "games_per_owner_per_hour = 1000000\n"
    )


def ladder_games_played(workdir: Path) -> int:
    from shipwreck.store import Store

    store = Store(str(workdir / "bench.db"))
    try:
        return sum(run.games for run in store.ratings.ladder_runs().values())
    finally:
        store.close()


async def start_server(workdir: Path, profile: Path | None, ladder: float = 0.0) -> Server:
    times_file = workdir / "server_times.json"
    config = workdir / "server.toml"  # every client comes from 127.0.0.1
    config.write_text(SERVER_CONFIG + (ladder_setup(workdir, ladder) if ladder > 0 else ""))
    argv = [sys.executable, "-c", SERVER_BOOTSTRAP % {"token": TOKEN}]
    argv += [str(times_file), str(profile or "")]
    argv += ["--config", str(config), "--listen", "127.0.0.1", "--port", "0"]
    argv += ["--db", str(workdir / "bench.db"), "--host-key", str(workdir / "host_key")]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=workdir, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stderr is not None
    lines: list[str] = []
    async with asyncio.timeout(60):
        while True:
            raw = await proc.stderr.readline()
            if not raw:
                raise RuntimeError("the server exited:\n" + "".join(lines))
            line = raw.decode(errors="replace")
            lines.append(line)
            if m := re.search(r"listening on [\d.]+:(\d+)", line):
                server = Server(proc, int(m.group(1)), times_file, lines)
                break
    server.drain = asyncio.create_task(_drain(proc.stderr, lines))
    return server


async def _drain(stream: asyncio.StreamReader, lines: list[str]) -> None:
    while raw := await stream.readline():
        lines.append(raw.decode(errors="replace"))


# Several workers (``--workers N``) -------------------------------------------------------------


def proc_cpu_seconds(pid: int) -> float:
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Procs:
    """The workers' processes, signalled and awaited as one (what ``measure`` does to its
    server's process)."""

    def __init__(self, servers: list[Server]) -> None:
        self.servers = servers
        self.pid = ",".join(str(s.proc.pid) for s in servers)

    @property
    def returncode(self) -> int | None:
        codes = [s.proc.returncode for s in self.servers]
        return None if None in codes else max(codes, key=abs)

    def send_signal(self, sig: int) -> None:
        for s in self.servers:
            if s.proc.returncode is None:
                s.proc.send_signal(sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def wait(self) -> int:
        codes = [await s.proc.wait() for s in self.servers]
        return max(codes, key=abs)


class MergedTimes:
    """Every worker's figures as one (their session labels made unique: ``w1:session 3``)."""

    def __init__(self, servers: list[tuple[str, Server]]) -> None:
        self.servers = servers

    def exists(self) -> bool:
        return all(s.times_file.exists() for _, s in self.servers)

    def read_text(self) -> str:
        merged: dict[str, Any] = {}
        for name, s in self.servers:
            times = json.loads(s.times_file.read_text())
            times["enter"] = {f"{name}:{k}": v for k, v in times["enter"].items()}
            for key in ("flush", "unseen"):
                times[key] = {
                    token: {f"{name}:{k}": v for k, v in by.items()}
                    for token, by in times[key].items()
                }
            for key, value in times.items():
                if isinstance(value, list):
                    merged.setdefault(key, []).extend(value)
                elif key in ("flush", "unseen"):
                    for token, by in value.items():
                        merged.setdefault(key, {}).setdefault(token, {}).update(by)
                else:
                    merged.setdefault(key, {}).update(value)
        return json.dumps(merged)


class Cluster:
    """``--workers N``: N instrumented ``serve`` processes on one port, joined by a NATS
    server, measured as one server (RSS and CPU summed, the bus's CPU included)."""

    def __init__(self, servers: list[Server], nats: Any, port: int) -> None:
        self.servers, self.nats, self.port = servers, nats, port
        self.names = [f"w{i + 1}" for i in range(len(servers))]
        self.proc = Procs(servers)
        self.times_file = MergedTimes(list(zip(self.names, servers, strict=True)))

    @property
    def lines(self) -> list[str]:
        return [
            f"{name}| {line}" for name, s in zip(self.names, self.servers, strict=True)
            for line in s.lines
        ]  # fmt: skip

    def rss_mib(self) -> float:
        return sum(s.rss_mib() for s in self.servers)

    def cpu_seconds(self) -> float:
        return sum(s.cpu_seconds() for s in self.servers) + self.bus_cpu_seconds()

    def bus_cpu_seconds(self) -> float:
        return proc_cpu_seconds(self.nats.process.pid)

    def worker_of(self, player: Player) -> str:
        """Which worker holds ``player``'s connection (its socket, from /proc)."""
        local_port = player.conn.get_extra_info("sockname")[1]
        inodes: set[str] = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if int(fields[2].split(":")[1], 16) == local_port:
                    inodes.add(fields[9])
        for name, s in zip(self.names, self.servers, strict=True):
            for fd in Path(f"/proc/{s.proc.pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    target = os.readlink(fd)
                    if target.startswith("socket:[") and target[8:-1] in inodes:
                        return name
        return "?"

    def owners(self) -> dict[int, str]:
        """Table id → the worker that owns it, from the workers' logs."""
        out: dict[int, str] = {}
        for line in self.lines:
            if m := re.search(r"(w\d+): (?:owns new|took over) table (\d+)", line):
                out[int(m.group(2))] = m.group(1)
        return out


async def start_workers(workdir: Path, n: int) -> Cluster:
    from shipwreck.bus.nats_server import NatsServer, free_port

    nats = NatsServer(workdir / "nats").start()
    port = free_port()
    config = workdir / "server.toml"
    config.write_text(SERVER_CONFIG + CLUSTER_CONFIG)
    servers: list[Server] = []
    for i in range(n):
        times_file = workdir / f"server_times_w{i + 1}.json"
        argv = [sys.executable, "-c", SERVER_BOOTSTRAP % {"token": TOKEN}, str(times_file), ""]
        argv += ["--config", str(config), "--listen", "127.0.0.1", "--port", str(port)]
        argv += ["--db", str(workdir / "bench.db"), "--host-key", str(workdir / "host_key")]
        argv += ["--bus", nats.url, "--worker", f"w{i + 1}"]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        proc = await asyncio.create_subprocess_exec(
            *argv, cwd=workdir, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert proc.stderr is not None
        lines: list[str] = []
        async with asyncio.timeout(60):
            while not any("listening on" in line for line in lines):
                raw = await proc.stderr.readline()
                if not raw:
                    raise RuntimeError("a worker exited:\n" + "".join(lines))
                lines.append(raw.decode(errors="replace"))
        server = Server(proc, port, times_file, lines)
        server.drain = asyncio.create_task(_drain(proc.stderr, lines))
        servers.append(server)
    return Cluster(servers, nats, port)


def cross_worker_report(
    cluster: Cluster, says: list[Say], where: dict[str, str], seated_at: dict[str, int]
) -> list[str]:
    """The share of the say traffic that crossed workers, and what crossing cost: a say seen
    by a player is "same worker" when the speaker and that player are both on the table's
    owner, else it crossed the bus (the line to the owner, or the update from it, or both)."""
    owners = cluster.owners()
    same: list[float] = []
    cross: list[float] = []
    for s in says:
        owner = owners.get(s.table_id)
        for name, seen in s.seen.items():
            if seen is None:
                continue
            local = where.get(s.actor) == owner and where.get(name) == owner
            (same if local else cross).append(seen - s.sent)
    remote = sum(1 for name, t in seated_at.items() if where.get(name) != owners.get(t))
    total = len(same) + len(cross)
    share = len(cross) / total * 100 if total else 0.0
    per = collections.Counter(where.values())
    return [
        f"workers: {dict(sorted(per.items()))} sessions; {remote} of {len(seated_at)} sessions "
        f"play a table another worker owns; {share:.0f}% of say deliveries crossed workers",
        f"latency, say → screen, speaker and reader on the table's owner: {ms(same)}",
        f"latency, say → screen, crossing the bus (either on another worker): {ms(cross)}",
        f"the bus (nats-server) used {cluster.bus_cpu_seconds():.1f} s CPU in all",
    ]


async def stop_server(server: Server) -> int:
    """Ctrl+C, as an operator would; if the server has not stopped within two minutes, its
    threads' stacks (SIGQUIT, faulthandler) go to its log, and it is killed."""
    server.proc.send_signal(signal.SIGINT)
    try:
        async with asyncio.timeout(120):
            return await server.proc.wait()
    except TimeoutError:
        server.proc.send_signal(signal.SIGQUIT)
        await asyncio.sleep(2.0)
        server.proc.kill()
        return await server.proc.wait()


# A player's terminal --------------------------------------------------------------------------


class TextScreen(pyte.Screen):
    """A pyte screen that keeps the text and not its colours, which is all this bench reads.

    A hundred pyte screens in one process were most of this client's CPU, and a busy client
    delays what it measures (the written → on screen part of the latency). Text is placed by
    pyte's own rules (the same ``draw``, wrapping, wide and combining characters); only the
    colours and styles (SGR) are not kept, so each cell of a character is made once, not once
    per character drawn. ``--check-screens`` compares it with pyte's screen on every byte."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        self._cells: dict[str, Any] = {}
        self._widths: dict[str, int] = {}

    def select_graphic_rendition(self, *attrs: int, private: bool = False) -> None:
        pass

    def draw(self, data: str) -> None:
        """``pyte.Screen.draw`` with a character's cell and width looked up, not made."""
        data = data.translate(self.g1_charset if self.charset else self.g0_charset)
        cursor, columns, cells, widths = self.cursor, self.columns, self._cells, self._widths
        for char in data:
            width = widths.get(char)
            if width is None:
                width = widths[char] = wcwidth(char)
            if cursor.x == columns:
                if pyte.modes.DECAWM in self.mode:
                    self.dirty.add(cursor.y)
                    self.carriage_return()
                    self.linefeed()
                elif width > 0:
                    cursor.x -= width
            if width > 0 and pyte.modes.IRM in self.mode:
                self.insert_characters(width)
            line = self.buffer[cursor.y]
            if width == 1 or width == 2:
                cell = cells.get(char)
                if cell is None:
                    cell = cells[char] = cursor.attrs._replace(data=char)
                line[cursor.x] = cell
                if width == 2 and cursor.x + 1 < columns:
                    line[cursor.x + 1] = cursor.attrs._replace(data="")
            elif width == 0 and unicodedata.combining(char):
                super().draw(char)  # (rare: pyte joins it to the character before)
                continue
            else:
                break  # unprintable, or does not advance the cursor
            cursor.x = min(cursor.x + width, columns)
        self.dirty.add(cursor.y)


class CheckedScreen(TextScreen):
    """``--check-screens``: a `TextScreen` that also feeds pyte's own screen and fails on the
    first row where their text differs (slow: for checking, not for timing)."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        self.reference = pyte.Screen(columns, lines)
        self.reference_stream = pyte.ByteStream(self.reference)

    def check(self, data: bytes) -> None:
        self.reference_stream.feed(data)
        for y in range(self.lines):
            mine = row_text(self.buffer[y], self.columns)
            theirs = row_text(self.reference.buffer[y], self.columns)
            if mine != theirs:  # (printed: the exception only ends the SSH session)
                print(f"row {y} differs from pyte's:\n{mine!r}\n{theirs!r}", file=sys.stderr)
                raise AssertionError(f"row {y} differs from pyte's")


class Terminal(asyncssh.SSHClientSession[bytes]):
    """A PTY drawn by pyte. Tokens being watched for are timed as soon as a packet shows them.

    The screen's text is kept row by row and only the rows pyte marks dirty are read again
    (pyte's ``display`` reads all 4,800 cells: with a hundred clients in this one process,
    reading whole screens after every packet was most of its CPU)."""

    check_screens = False
    """``--check-screens``: compare every screen with pyte's own as bytes arrive."""

    def __init__(self) -> None:
        self.screen = (CheckedScreen if Terminal.check_screens else TextScreen)(*SIZE)
        self.stream = pyte.ByteStream(self.screen)
        self.rows = [""] * self.screen.lines
        self._text: str | None = None
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.watching: dict[str, float | None] = {}
        self.bytes = 0
        self.last_data = 0.0

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.bytes += len(data)
        self.last_data = time.monotonic()
        self.stream.feed(data)
        if isinstance(self.screen, CheckedScreen):
            self.screen.check(data)
        self._read_dirty_rows()
        if any(seen is None for seen in self.watching.values()):
            now = time.monotonic()
            text = self.text()
            for token, seen in self.watching.items():
                if seen is None and token in text:
                    self.watching[token] = now
        self.changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()

    def _read_dirty_rows(self) -> None:
        screen = self.screen
        if not screen.dirty:
            return
        for y in screen.dirty:
            if y < screen.lines:
                self.rows[y] = row_text(screen.buffer[y], screen.columns)
        screen.dirty.clear()
        self._text = None

    def text(self) -> str:
        if self._text is None:
            self._text = "\n".join(self.rows)
        return self._text

    async def until(self, test: str | re.Pattern[str], timeout: float) -> re.Match[str] | None:
        """Wait until the screen shows ``test``; the regex match (or None for a plain string)."""
        async with asyncio.timeout(timeout):
            while True:
                self.changed.clear()
                text = self.text()
                if isinstance(test, str):
                    if test in text:
                        return None
                elif m := test.search(text):
                    return m
                if self.closed.is_set():
                    raise ConnectionError("the session ended")
                await self.changed.wait()

    async def until_box(self, ok: str | tuple[str, ...], exact: bool = False) -> None:
        """Wait until the command box shows ``ok`` (exactly, or as a prefix)."""
        while True:
            self.changed.clear()
            box = self.command_box()
            if box == ok if exact else box.startswith(ok):
                return
            if self.closed.is_set():
                raise ConnectionError("the session ended")
            await self.changed.wait()

    def command_box(self) -> str:
        """The text in the command line (the row between its ▔ and ▁ borders)."""
        for line in self.rows:
            if line.startswith("▊ ") and "▔" not in line and "▁" not in line:
                return line.strip("▊▎ ")
        return ""


def row_text(line: Any, columns: int) -> str:
    """One row of a pyte screen as ``Screen.display`` shows it (a wide character's stub
    skipped)."""
    out = []
    wide = False
    for x in range(columns):
        if wide:
            wide = False
            continue
        char = line[x].data
        wide = bool(char) and not char.isascii() and wcwidth(char[0]) == 2
        out.append(char)
    return "".join(out)


@dataclass(eq=False)
class Player:
    name: str
    conn: asyncssh.SSHClientConnection
    chan: asyncssh.SSHClientChannel[bytes]
    term: Terminal
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    keys_per_second: float = 0.0
    """0: a line is typed in one write; else key by key at this pace (``--keys-per-second``)."""

    async def line(self, text: str, timeout: float = 30.0) -> float:
        """Type ``text``, see it in the command box, press Enter, wait until the box is empty
        again (the app took the line). Returns the time Enter was sent."""
        async with self.lock, asyncio.timeout(timeout):
            await self.term.until_box(BOX_EMPTY)
            if self.keys_per_second:
                for ch in text:  # each key its own packet, and its own echo
                    self.chan.write(ch.encode())
                    await asyncio.sleep(1 / self.keys_per_second)
            else:
                self.chan.write(text.encode())
            await self.term.until_box(text, exact=True)
            sent = time.monotonic()
            self.chan.write(b"\r")
            await self.term.until_box(BOX_EMPTY)
            return sent

    def awake(self) -> bool:
        """Whether my character (the boat's row marked ``◂``) is conscious and alive."""
        mine = [row for row in self.term.rows if "◂" in row]
        return bool(mine) and " unconscious " not in mine[0] and " dead " not in mine[0]

    def choices(self) -> list[str]:
        m = CHOICES.search(self.term.text())
        if not m:
            return []
        options = [c.strip() for c in m.group(1).split(" · ")]  # whole items, and a count
        return [c for c in options if c and not re.fullmatch(r"\+\d+ more: \w+", c)]


async def connect(port: int, name: str, key: asyncssh.SSHKey) -> Player:
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, client_keys=[key],
        known_hosts=None, config=None, agent_path=None,
    )  # fmt: skip
    term = Terminal()
    chan, _ = await conn.create_session(
        lambda: term, term_type="xterm-256color", term_size=SIZE, encoding=None
    )
    player = Player(name, conn, chan, term)
    await term.until(f"signed in as {name}", 120)
    return player


async def connect_all(port: int, names: list[str], concurrency: int) -> list[Player]:
    """Sign in, a few at a time (each is a key exchange on both sides)."""
    gate = asyncio.Semaphore(concurrency)

    async def one(name: str) -> Player:
        async with gate:
            return await connect(port, name, asyncssh.generate_private_key("ssh-ed25519"))

    return list(await asyncio.gather(*(one(name) for name in names)))


async def close_all(players: list[Player]) -> None:
    for p in players:
        p.conn.close()
    await asyncio.gather(*(p.conn.wait_closed() for p in players), return_exceptions=True)


# The run --------------------------------------------------------------------------------------


@dataclass
class Say:
    table_id: int
    token: str
    actor: str
    sent: float
    seen: dict[str, float | None]
    """Each other player's name → when its screen showed the token (None: not in time)."""
    missed: dict[str, str] = field(default_factory=dict)
    """Each player who did not see it in time → its screen then."""


@dataclass
class Stats:
    says: list[Say] = field(default_factory=list)
    plays: int = 0
    finished_tables: int = 0


async def seat(group: list[Player]) -> int:
    """The first player opens a table for the group; the others join it. Returns its id."""
    host = group[0]
    await host.line("new 6 free free free free free", timeout=120)
    m = await host.term.until(TABLE_TITLE, 120)
    assert m is not None
    table_id = int(m.group(1))
    for p in group[1:]:
        await p.term.until(host.name, 120)  # the table's row (from another worker: a beat)
        await p.line(f"join {table_id}", timeout=120)
        await p.term.until(TABLE_TITLE, 120)
    await host.line("start", timeout=120)  # a table with free seats waits for its players
    return table_id


SAY_WAIT = 5.0
"""Seconds a say waits to be seen by the rest of its table (its speaker waits meanwhile)."""


async def say(table_id: int, n: int, actor: Player, others: list[Player], wait: float) -> Say:
    """``actor`` says a fresh token; wait until every other player saw it (or ``wait`` s)."""
    token = token_for(table_id, n)
    for p in others:
        p.term.watching[token] = None
    try:
        sent = await actor.line(f"say {token}", timeout=30)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and any(p.term.watching[token] is None for p in others):
            await asyncio.sleep(0.05)
    finally:
        seen = {p.name: p.term.watching.pop(token, None) for p in others}
    now = time.monotonic()
    missed = {
        p.name: f"(its last bytes came {now - p.term.last_data:.1f} s ago)\n{p.term.text()}"
        for p in others
        if seen[p.name] is None
    }
    return Say(table_id, token, actor.name, sent, seen, missed)


async def play(
    player: Player,
    stop: asyncio.Event,
    rng: random.Random,
    stats: Stats,
    think: tuple[float, float] = (0.3, 1.0),
) -> None:
    """Read the screen, think a little, type one of the choices; until ``stop``."""
    while not stop.is_set():
        await asyncio.sleep(rng.uniform(*think))
        options = player.choices()
        if options and not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await player.line(rng.choice(options), timeout=30)
                stats.plays += 1


async def chatter(
    table_id: int, group: list[Player], stop: asyncio.Event, stats: Stats, first: int
) -> None:
    """One player after another says a token, about once a second, until ``stop``."""
    n = first
    while not stop.is_set() and len(group) > 1:
        actor = group[n % len(group)]
        if "the boat has reached land" in actor.term.text():
            stats.finished_tables += 1
            return
        n += 1
        if not actor.awake():  # an unconscious or dead character cannot speak
            if not any(p.awake() for p in group):
                await asyncio.sleep(1.0)  # nobody can: wait (without it, this loop never yields)
            continue
        with contextlib.suppress(TimeoutError):
            stats.says.append(
                await say(table_id, n, actor, [p for p in group if p != actor], SAY_WAIT)
            )
        await asyncio.sleep(1.0)


@dataclass
class Idle:
    waited: float
    """Seconds until the server's CPU use settled."""
    load: float
    """Its CPU use then, in cores (0.0: idle; more: work nobody asked for, e.g. timers)."""
    sent: float
    """Bytes a second the clients received meanwhile."""


async def settle(server: Server, players: list[Player], limit: float = 300.0) -> Idle:
    """Wait until the server's CPU use, in one-second windows, is under 3% of a core or steady
    (three windows within 15% of each other: work that does not go away, like a timer)."""
    start = time.monotonic()
    loads: list[float] = []
    sent: list[int] = []
    while time.monotonic() - start < limit:
        cpu, received = server.cpu_seconds(), sum(p.term.bytes for p in players)
        await asyncio.sleep(1.0)
        loads.append(server.cpu_seconds() - cpu)
        sent.append(sum(p.term.bytes for p in players) - received)
        if loads[-1] < 0.03:  # quiet: the load is this last window's
            return Idle(time.monotonic() - start, loads[-1], sent[-1])
        last = loads[-3:]
        if len(last) == 3 and max(last) - min(last) <= 0.15 * max(sum(last) / 3, 0.1):
            break  # steady: work that does not go away, like a timer
    return Idle(time.monotonic() - start, sum(loads[-3:]) / len(loads[-3:]), sum(sent[-3:]) / 3)


async def unit_costs(
    server: Server, group: list[Player], table_id: int, idle: Idle
) -> dict[str, float]:
    """Server CPU for one keystroke echoed and for one table change (the settled background load
    subtracted)."""
    host, others = group[0], group[1:]
    cpu, t = server.cpu_seconds(), time.monotonic()
    typed = ""
    for ch in "abcdefghijklmnop":
        typed += ch
        host.chan.write(ch.encode())
        await host.term.until_box(typed, exact=True)
    for _ in typed:
        typed = typed[:-1]
        host.chan.write(b"\x7f")
        await host.term.until_box(typed or BOX_EMPTY, exact=bool(typed))
    per_key = (server.cpu_seconds() - cpu - idle.load * (time.monotonic() - t)) / 32
    changes = 5
    cpu, t = server.cpu_seconds(), time.monotonic()
    for n in range(changes):
        await say(table_id, 9000 + n, host, others, 30)
    per_change = (server.cpu_seconds() - cpu - idle.load * (time.monotonic() - t)) / changes
    # A say is typed in one write (one echo frame) and then Enter (one more): two echoes.
    per_change_only = per_change - 2 * per_key
    return {"key": per_key, "change": per_change_only, "seated": len(group)}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def ms(values: Iterable[float]) -> str:
    v = list(values)
    if not v:
        return "no samples"
    return (
        f"p50 {pct(v, 0.5) * 1000:6.0f} ms   p95 {pct(v, 0.95) * 1000:6.0f} ms   "
        f"max {max(v) * 1000:6.0f} ms   (n={len(v)})"
    )


def split_latency(
    says: list[Say],
    times: dict[str, Any],
    labels: dict[str, str],
    on_owner: Callable[[str, int], bool] | None = None,
) -> list[str]:
    """Per say and observer: Enter → applied → written by the server → seen by the client.
    With workers (``on_owner``: is this player's connection on the table's owner?), the first
    two are also split by where the speaker, and the reader, sit: a line from another worker
    crosses the bus to the owner before it is applied, an update crosses it back to a reader
    on another worker before it is written. (The processes share one monotonic clock.)"""
    queued: dict[str, list[float]] = {"": [], "on the owner": [], "another worker": []}
    fanout: dict[str, list[float]] = {"": [], "on the owner": [], "another worker": []}
    fanout_last: list[float] = []
    delivery: list[float] = []

    def where(name: str, table_id: int) -> str:
        return "on the owner" if on_owner is None or on_owner(name, table_id) else "another worker"

    for s in says:
        submit = times["submit"].get(s.token)
        if submit is None:
            continue
        applied = submit[0]
        enters = [t for t in times["enter"].get(labels.get(s.actor, ""), []) if t <= applied]
        if enters:
            for key in ("", where(s.actor, s.table_id)):
                queued[key].append(applied - enters[-1])
        flushes = times["flush"].get(s.token, {})
        written = []
        for name, seen in s.seen.items():
            at = flushes.get(labels.get(name, ""))
            if at is None:
                continue
            written.append(at - applied)
            fanout[where(name, s.table_id)].append(at - applied)
            if seen is not None:
                delivery.append(seen - at)
        fanout[""] += written
        if written and len(written) == len(s.seen):
            fanout_last.append(max(written))
    lines = [
        f"  Enter arrives → command applied:        {ms(queued[''])}",
        f"  applied → written to each other player: {ms(fanout[''])}",
        f"  applied → written to the last of them:  {ms(fanout_last)}",
        f"  written → on the client's pyte screen:  {ms(delivery)}",
    ]
    if on_owner is not None:
        lines[1:1] = [f"    speaker {k}: {' ' * (21 - len(k))}{ms(queued[k])}" for k in WHERE]
        lines[3:3] = [f"    reader {k}: {' ' * (22 - len(k))}{ms(fanout[k])}" for k in WHERE]
    return lines


WHERE = ("on the owner", "another worker")


def loop_report(
    times: dict[str, Any], phases: dict[str, tuple[float, float]], show_stalls: bool
) -> list[str]:
    """The server's event-loop lag, stalls and garbage collections, phase by phase.

    The bench itself stops the server once, to measure its RSS (``gc.collect()`` and
    ``malloc_trim``, on a signal): that pause is the bench's, not the server's, so the lag
    samples it delayed, the stalls inside it and its collection are left out of the phases and
    shown on a line of their own."""
    forced = [(a, b) for a, b in times["forced"]]

    def in_forced(start: float, end: float) -> bool:
        return any(start < b and end > a for a, b in forced)

    def within(at: float, phase: tuple[float, float]) -> bool:
        return phase[0] <= at <= phase[1]

    lines = ["server event loop (a 50 ms timer's lag; the bench's forced collection left out):"]
    stacks: list[str] = []
    for name, span in phases.items():
        lag = [d for at, d in times["lag"] if within(at, span) and not in_forced(at - d - 0.05, at)]
        stalls = [s for at, s in times["stalls"] if within(at, span) and not in_forced(at, at)]
        full = [d for at, d in times["gc"] if within(at, span) and not in_forced(at - d, at)]
        gcs = f"full collections {len(full)}, longest {max(full, default=0) * 1000:.0f} ms"
        for gen in (0, 1):
            young = [(d, n) for at, g, d, n in times["young_gc"] if g == gen and within(at, span)]
            longest = max((d for d, _ in young), default=0)
            freed = sum(n for _, n in young)
            gcs += f"; gen {gen} {len(young)}, longest {longest * 1000:.0f} ms, {freed} freed"
        where = collections.Counter(stall.splitlines()[-2].strip() for stall in stalls)
        lines += [
            f"  {name:<13} lag {ms(lag)}",
            f"  {'':<13} {gcs}; stalls over 0.25 s: {len(stalls)}"
            + (f", in: {where.most_common(2)}" if stalls else ""),
        ]
        stacks += [f"--- stall in {name} ---\n{s}" for s in stalls]
        turns = [
            t for t in times["turns"] if within(t[0], span) and not in_forced(t[0] - t[1], t[0])
        ]
        if turns:
            where: dict[str, list[float]] = {}
            for _at, _work, _n, top in turns:
                for part, (took, count) in top:
                    where.setdefault(part, [0.0, 0])
                    where[part][0] += took
                    where[part][1] += count
            most = sorted(where.items(), key=lambda kv: -kv[1][0])[:4]
            longest = max(turns, key=lambda t: t[1])
            lines.append(
                f"  {'':<13} turns over 0.25 s: {len(turns)}, longest {longest[1] * 1000:.0f} ms "
                f"({longest[2]} callbacks); their time went to: "
                + "; ".join(f"{k} {v[0]:.1f} s in {v[1]}" for k, v in most)
            )
    for a, b in forced:
        delayed = [d for at, d in times["lag"] if in_forced(at - d - 0.05, at)]
        lines.append(
            f"  the bench's forced full collection + malloc_trim (for RSS): {(b - a) * 1000:.0f} "
            f"ms; the timer it delayed ran {max(delayed, default=0) * 1000:.0f} ms late"
        )
    return lines + (stacks if show_stalls else [])


def session_labels(lines: list[str]) -> dict[str, str]:
    """Player name → the server's session label, from its log ("session 7 (p003): started";
    a worker's, as :class:`MergedTimes` names it: "w1:session 7")."""
    labels: dict[str, str] = {}
    for line in lines:
        if m := re.search(r"^(?:(w\d+)\| )?.*?(session \d+ \((\w+)\)): started", line):
            labels[m.group(3)] = f"{m.group(1)}:{m.group(2)}" if m.group(1) else m.group(2)
    return labels


def pin_this_process(cpus: set[int]) -> None:
    """Run every thread of this process on ``cpus`` from now on (processes it starts later
    inherit them). ``--server-cpus``/``--client-cpus``: on a small machine the clients take
    a share of the CPU the server would have; pinned apart, each side has cores of its own, as
    clients on other machines would leave the server (e.g. the server's 2 workers on core 0
    and 200 clients on core 1: the load per server core of 400 players on 2 cores)."""
    for task in Path("/proc/self/task").iterdir():
        os.sched_setaffinity(int(task.name), cpus)


def _cpus(cpus: set[int]) -> str:
    return ",".join(str(c) for c in sorted(cpus))


def _cpu_list(text: str) -> set[int]:
    """``0`` or ``0,1``: CPUs this machine has."""
    cpus = {int(c) for c in text.split(",") if c.strip()}
    if not cpus or not cpus <= os.sched_getaffinity(0):
        raise argparse.ArgumentTypeError(
            f"{text!r}: CPUs this machine offers are {_cpus(os.sched_getaffinity(0))}"
        )
    return cpus


async def run(args: argparse.Namespace) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="shipwreck-ssh-load-"))
    profile = workdir / "server.prof" if args.profile else None
    if args.server_cpus:  # (what this process starts runs there: the server, NATS)
        pin_this_process(args.server_cpus)
    server: Any = (
        await start_workers(workdir, args.workers)
        if args.workers
        else await start_server(workdir, profile, args.ladder_games)
    )
    print(f"server pid {server.proc.pid} on 127.0.0.1:{server.port} ({workdir})")
    if args.server_cpus:
        pin_this_process(args.client_cpus)
        print(
            f"pinned: the server (and NATS) on CPU {_cpus(args.server_cpus)}, the clients"
            f" (this process) on CPU {_cpus(args.client_cpus)}"
        )
    try:
        await measure(args, server)
    except BaseException:
        print("the server's log ends:\n" + "".join(server.lines[-40:]))
        if os.environ.get("BENCH_OWNERS"):
            print(
                "".join(
                    line
                    for line in server.lines
                    if re.search(r"ownership|cluster|ERROR|WARNING|Error", line)
                )
            )
        raise
    finally:
        if server.proc.returncode is None:  # the run failed: do not leave the server behind
            server.proc.kill()
            await server.proc.wait()
        if isinstance(server, Cluster):
            server.nats.stop()
    if args.ladder_games > 0:
        print(f"background ladder games played and rated: {ladder_games_played(workdir)}")
    if profile is not None:
        show_profile(profile, args.profile)
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)


async def measure(args: argparse.Namespace, server: Any) -> None:
    n = args.sessions
    rng = random.Random(args.seed)
    await asyncio.sleep(1.0)  # let the idle server settle before measuring it
    rss_idle, cpu0 = server.rss_mib(), server.cpu_seconds()

    phases: dict[str, tuple[float, float]] = {}
    t = time.monotonic()
    players = await connect_all(server.port, [f"p{i:03d}" for i in range(n)], args.concurrency)
    phases["sign-in"] = (t, time.monotonic())
    t_connect = time.monotonic() - t
    cpu1 = server.cpu_seconds()

    t = time.monotonic()
    groups = [players[i : i + 6] for i in range(0, n, 6)]
    if args.profile and args.profile_phase == "seating":
        server.proc.send_signal(signal.SIGUSR1)
    table_ids = await asyncio.gather(*(seat(g) for g in groups))
    if args.profile and args.profile_phase == "seating":
        server.proc.send_signal(signal.SIGUSR2)
    phases["seating"] = (t, time.monotonic())
    t_seat = time.monotonic() - t
    cpu2 = server.cpu_seconds()
    where = {p.name: server.worker_of(p) for p in players} if args.workers else {}
    idle = await settle(server, players)
    phases["settling"] = (phases["seating"][1], time.monotonic())
    cpu_drain = server.cpu_seconds() - cpu2
    rss_seated = server.rss_mib()
    t = time.monotonic()
    server.proc.send_signal(signal.SIGRTMIN)
    await asyncio.sleep(3.0)
    phases["RSS measured"] = (t, time.monotonic())
    rss_collected = server.rss_mib()
    print(
        f"{n} signed in in {t_connect:.1f} s; {len(groups)} tables seated in {t_seat:.1f} s, "
        f"then {idle.waited:.0f} s until the server's load settled"
    )

    full = next(i for i, g in enumerate(groups) if len(g) == max(len(g) for g in groups))
    t = time.monotonic()
    unit = await unit_costs(server, groups[full], table_ids[full], idle)
    phases["unit costs"] = (t, time.monotonic())

    stats = Stats()
    stop = asyncio.Event()
    me = time.process_time()
    cpu3 = server.cpu_seconds()
    if args.profile and args.profile_phase == "play":
        server.proc.send_signal(signal.SIGUSR1)
    for p in players:
        p.keys_per_second = args.keys_per_second
    tasks = [
        asyncio.create_task(play(p, stop, random.Random(rng.random()), stats, args.think))
        for p in players
    ]
    tasks += [
        asyncio.create_task(chatter(tid, g, stop, stats, 0))
        for tid, g in zip(table_ids, groups, strict=True)
    ]
    t = play_from = time.monotonic()
    await asyncio.sleep(args.seconds)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    if args.profile and args.profile_phase == "play":
        server.proc.send_signal(signal.SIGUSR2)
    play_to = time.monotonic()
    phases["play"] = (play_from, play_to)
    t_play = play_to - t
    cpu4 = server.cpu_seconds()
    me = time.process_time() - me
    rss_played = server.rss_mib()
    received = sum(p.term.bytes for p in players)
    labels = session_labels(server.lines)
    warnings = server_warnings(server.lines)

    # One player leaves while the rest stay: the full collection that frees its session.
    one_left = time.monotonic()
    await close_all(players[-1:])
    await asyncio.sleep(5.0)
    one_done = time.monotonic()
    phases["one leaves"] = (one_left, one_done)
    await close_all(players[:-1])
    await asyncio.sleep(2.0)
    phases["all leave"] = (one_done, time.monotonic())
    rss_left = server.rss_mib()
    t = time.monotonic()
    again = await connect_all(server.port, [f"w{i:03d}" for i in range(n)], args.concurrency)
    await close_all(again)
    await asyncio.sleep(2.0)
    phases["second wave"] = (t, time.monotonic())
    rss_again = server.rss_mib()
    cpu_total = server.cpu_seconds() - cpu0
    server.proc.send_signal(signal.SIGRTMIN + 1)  # the figures, before it is asked to stop
    async with asyncio.timeout(60):
        while not server.times_file.exists():
            await asyncio.sleep(0.2)
    stopping = time.monotonic()
    code = await stop_server(server)
    if code == -signal.SIGKILL:
        print("the server did not stop within 120 s of SIGINT and was killed; its log ends:")
        print("".join(server.lines[-20:]))
    if not server.times_file.exists():
        tail = "".join(server.lines[-80:])
        raise RuntimeError(
            f"the server (exit status {code}, {time.monotonic() - stopping:.0f} s to stop) left "
            f"no figures; the end of its log:\n{tail}"
        )
    times = json.loads(server.times_file.read_text())

    per = (rss_seated - rss_idle) / n
    refused = [s for s in stats.says if s.token in times["refused"]]  # nothing to see: not timed
    says = [s for s in stats.says if s.token not in times["refused"]]
    each = [seen - s.sent for s in says for seen in s.seen.values() if seen is not None]
    last = [
        max(seen for seen in s.seen.values() if seen is not None) - s.sent
        for s in says
        if s.seen and all(seen is not None for seen in s.seen.values())
    ]
    # A say pushed out of a log's window by a burst of later lines before any frame showed
    # it was never on that screen, yet the screen is up to date: counted apart, not timed.
    why = {
        (s.token, name): times["unseen"].get(s.token, {}).get(labels.get(name, ""), "unlogged")
        for s in says
        for name in s.missed
    }
    scrolled = sum(
        1 for s in says if s.missed and all(why[s.token, n] == "scrolled" for n in s.missed)
    )
    missed = [s for s in says if any(why[s.token, n] != "scrolled" for n in s.missed)]
    unseen = len(missed)
    for s in refused[:3]:
        print(f"the game refused {s.actor}'s say {s.token}: {times['refused'][s.token]}")
    for s in missed[:1]:
        name = next(n for n in s.missed if why[s.token, n] != "scrolled")
        applied = "applied" if s.token in times["submit"] else "never applied"
        written = times["flush"].get(s.token, {})
        print(
            f"{name} did not see {s.token} ({s.actor} said it, the server {applied}, wrote it "
            f"to {len(written)} sessions; for {name}: {why[s.token, name]}; missed by "
            f"{', '.join(s.missed)}) within {SAY_WAIT:.0f} s; its screen:"
        )
        print(s.missed[name])
    for info in times["frozen"][:1]:
        print(
            f"table screens told of a change and not repainted within 3 s: {len(times['frozen'])}"
        )
        for key, value in info.items():
            print(f"  {key}: {value}")
    for line in warnings[:5]:
        print(f"server: {line}")
    commands = stats.plays + len(stats.says)
    print()
    print(f"sessions {n} at {len(groups)} tables; played {t_play:.1f} s")
    print(
        f"server RSS: idle {rss_idle:.1f} MiB; {n} seated {rss_seated:.1f} MiB "
        f"(+{per * 1024:.0f} KiB per session; after a full garbage collection and malloc_trim "
        f"{rss_collected:.1f} MiB, +{(rss_collected - rss_idle) / n * 1024:.0f} KiB per "
        f"session); after play {rss_played:.1f} MiB; "
        f"all left {rss_left:.1f} MiB; after {n} more signed in and left {rss_again:.1f} MiB"
    )
    print(
        f"server CPU: sign-in {cpu1 - cpu0:.1f} s ({(cpu1 - cpu0) / n * 1000:.0f} ms each), "
        f"seating {cpu2 - cpu1:.1f} s (+{cpu_drain:.1f} s until settled), "
        f"play {cpu4 - cpu3:.1f} s "
        f"({(cpu4 - cpu3) / t_play * 100:.0f}% of one core), total {cpu_total:.1f} s"
    )
    print(
        f"seated and idle (nobody typing): the server uses {idle.load * 100:.0f}% of one core "
        f"and sends {idle.sent / 1024:.0f} KiB/s"
    )
    print(
        f"unit costs (idle load subtracted, {n} sessions): {unit['key'] * 1000:.0f} ms CPU "
        f"to echo one keystroke; {unit['change'] * 1000:.0f} ms CPU for one change at a table of "
        f"{unit['seated']:.0f} ({unit['change'] / unit['seated'] * 1000:.1f} ms per player there; "
        f"the speaker's two echoes subtracted)"
    )
    k = args.keys_per_second
    typed = f"{k:g} keys a second" if k else "a line in one write"
    print(
        f"play: {stats.plays} choices + {len(stats.says)} says = {commands} commands "
        f"({commands / t_play:.1f}/s, {(cpu4 - cpu3) / max(commands, 1) * 1000:.0f} ms server "
        f"CPU each with the typing, {typed}); {len(refused)} says refused by the game; "
        f"{unseen} says not seen by everyone within {SAY_WAIT:.0f} s; {scrolled} pushed out of a "
        f"log by later "
        f"lines before a frame showed them; {stats.finished_tables} games over"
    )
    print(f"latency, say → each other player's screen: {ms(each)}")
    print(f"latency, say → the last player at the table: {ms(last)}")
    if args.workers:
        seated_at = {p.name: t for t, g in zip(table_ids, groups, strict=True) for p in g}
        print(*cross_worker_report(server, says, where, seated_at), sep="\n")
    on_owner = None
    if args.workers:
        owners = server.owners()
        on_owner = lambda name, table_id: where.get(name) == owners.get(table_id)  # noqa: E731
    print(*split_latency(says, times, labels, on_owner), sep="\n")
    print(*loop_report(times, phases, args.stalls), sep="\n")
    leaving = [d for at, d in times["gc"] if one_left <= at <= one_done]
    print(
        f"one player leaves, {n - 1} stay: {len(leaving)} full collection(s), "
        f"longest {max(leaving, default=0) * 1000:.0f} ms"
    )
    pauses = [d for _at, d in times["gc"]]
    in_play = [d for at, d in times["gc"] if play_from <= at <= play_to]
    print(
        f"server full (gen 2) garbage collections: {len(pauses)}, "
        f"{sum(pauses):.1f} s in all, longest {max(pauses, default=0) * 1000:.0f} ms; "
        f"in play {len(in_play)}, longest {max(in_play, default=0) * 1000:.0f} ms"
    )
    for gen in (0, 1):
        young = [d for at, g, d, _ in times["young_gc"] if g == gen and play_from <= at <= play_to]
        print(
            f"  generation {gen} collections in play: {len(young)}, {sum(young):.2f} s in all, "
            f"longest {max(young, default=0) * 1000:.0f} ms"
        )
    print(
        f"client (this process): {me:.1f} s CPU in play ({me / t_play * 100:.0f}% of one core), "
        f"{received / 1e6:.1f} MB received; server exit status {code}"
    )


def show_profile(path: Path, top: int) -> None:
    if not path.exists():
        print(f"no profile at {path}")
        return
    print(f"\nserver profile ({path}), top {top} by own time:")
    pstats.Stats(str(path)).strip_dirs().sort_stats("tottime").print_stats(top)
    print(f"server profile, top {top} by cumulative time:")
    pstats.Stats(str(path)).strip_dirs().sort_stats("cumulative").print_stats(top)
    print("server profile, shipwreck's own functions by cumulative time:")
    stats = pstats.Stats(str(path)).sort_stats("cumulative")
    stats.print_stats(r"shipwreck/(tui|runtime|server|games|botseat|lang)", top)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30.0, help="how long they play")
    ap.add_argument(
        "--think",
        type=lambda text: tuple(float(x) for x in text.split(",")),
        default=(0.3, 1.0),
        metavar="LOW,HIGH",
        help="seconds a player thinks before answering its choices (default 0.3,1.0)",
    )
    ap.add_argument(
        "--keys-per-second",
        type=float,
        default=0.0,
        metavar="K",
        help="type lines key by key at K keys a second, as people do (default: one write)",
    )
    ap.add_argument("--concurrency", type=int, default=8, help="sign-ins at a time")
    ap.add_argument(
        "--workers",
        type=int,
        default=0,
        metavar="N",
        help="N worker processes on one port joined by a NATS server (default: one process)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", type=int, default=0, metavar="K", help="cProfile the server")
    ap.add_argument(
        "--profile-phase",
        choices=("play", "seating"),
        default="play",
        help="the phase --profile covers (default: play)",
    )
    ap.add_argument(
        "--server-cpus",
        type=_cpu_list,
        default=None,
        metavar="LIST",
        help="run the server's processes (and NATS) on these CPUs only, e.g. 0",
    )
    ap.add_argument(
        "--client-cpus",
        type=_cpu_list,
        default=None,
        metavar="LIST",
        help="run the clients (this process) on these CPUs only, e.g. 1 (with --server-cpus)",
    )
    ap.add_argument("--stalls", action="store_true", help="print where the server stalled")
    ap.add_argument("--keep", action="store_true", help="keep the server's files (db, profile)")
    ap.add_argument(
        "--ladder-games",
        type=float,
        default=0.0,
        metavar="X",
        help="four saved bots play background ladder games, X a minute (default: none)",
    )
    ap.add_argument(
        "--check-screens",
        action="store_true",
        help="check every client screen against pyte's own (slow: not for timing)",
    )
    args = ap.parse_args()
    Terminal.check_screens = args.check_screens
    if args.sessions < 2:
        ap.error("--sessions must be at least 2")
    if (args.server_cpus is None) != (args.client_cpus is None):
        ap.error("--server-cpus and --client-cpus go together")
    if args.workers and args.profile:
        ap.error("--profile profiles one process: not with --workers")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()

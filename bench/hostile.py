"""The security audit's attacks on a real server, timed by a bystander in its lobby.

    .venv/bin/python bench/hostile.py                          # every attack, 10 s each
    .venv/bin/python bench/hostile.py --seconds 3              # a short trial
    .venv/bin/python bench/hostile.py --attack eof --attack refused
    .venv/bin/python bench/hostile.py --dev-zero               # paths also types new 6 /dev/zero

For each attack class of ``shared/audits/security-2026-12.md`` (and first, a quiet phase with no
attack: the baseline), a fresh ``shipwreck serve`` runs as a subprocess on the repository's
``server.toml`` (the documented defaults) with a temporary database and host key, its working
directory a fresh temporary directory. A **bystander** signs in and sits in the lobby: twice a
second it types ``say <token>`` and times how long the token takes to appear on its own pyte
screen (``tests/hostile/harness.py``'s `Bystander`: a full round trip through the server's one
event loop; a say not seen within 10 s counts as 10 s and as unanswered). Then the attack runs
for ``--seconds``; once it stops, the bench waits for the bystander's say in flight and one more
(the lag an attack leaves behind is part of it). The server's RSS (``VmRSS`` of
``/proc/PID/status``) is read before and after the attack, and sampled for its peak.

The attacks (one function each; they count what the server answered, since refusing them is the
point, and never fail on a refusal):

* ``paths`` (F1): lobby lines naming files as bots, ``new 6 /etc/hostname``, ``new 6
  ../../etc/passwd`` (enough ``../`` to reach ``/`` from the server's directory) and ``new 6
  server.toml``, over and over; counts the answers and those that echo a file's first token.
  ``new 6 /dev/zero`` is added only with ``--dev-zero`` (a vulnerable server reads until memory
  runs out; the server then runs under a 2.5 GiB address-space cap, so it is not the machine's
  OOM killer that stops it).
* ``eof`` (F2): five keys, each opening sessions that send EOF with the shell request, over and
  over; afterwards, whether a normal sign-in with the same key, and with a new key from the same
  address, succeeds.
* ``bot_check`` (F3): 8 connections, each running 5 concurrent ``bot check`` of a 64 KB script
  of ``when me.wounds > N and friend != none -> row`` rules, sustained.
* ``sm_burst`` (F4): 10 x ``new sm 4 sm_raider sm_hauler sm_raider`` then ``lobby``, then
  disconnect (the autopilot takes every seat), repeated while the phase lasts.
* ``refused`` (F5): rounds of 200 sessions (50 connections x 4), half with invalid names
  (``bad.nameN``), half with a name another key owns.
* ``typing`` (F6): 3 typists, each at their own ``new sm 2`` table, type ``move SHIP L 3`` and
  then stream digit/backspace pairs at about 4,000 keys a second.
* ``tables`` (F7): one key, three sessions, ``new 4 random random random`` then ``lobby``, as
  fast as the server takes them (each waits for its table screen, then for the lobby).
* ``unicode`` (F11, F12): says with RLO, zero-width characters and 300 combining marks, then
  ``new ²`` and ``join ²``; counts sessions that ended, and format characters that reached the
  bystander's terminal.

Printed: one table, attack | bystander p50 | p95 | max | RSS before -> after | notes, the quiet
baseline first, each row judged against the goal of issue 15 (p95 within +50 ms of the quiet
baseline, RSS growth under 20 MiB); then each attack's outcomes in full. A phase that does not
end within ``--seconds`` + 120 s is cut off (a frozen server), and says so; the bench always
finishes. This process's own CPU is printed per phase: it shares the machine with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "hostile")]

from ssh_load import Server, _drain, pct  # noqa: E402

from harness import BYSTANDER_KEY, Bystander  # noqa: E402
from sshclient import Client, Terminal, open_terminal  # noqa: E402

SETTLE = 1.0
"""Seconds the bystander measures a fresh server before the attack starts (not counted)."""
GRACE = 20.0
"""Seconds an attack has to wind down (and make its after-checks) once told to stop."""
SLACK = 120.0
"""Seconds past ``--seconds`` after which a phase is cut off."""
PACE = 0.15
"""Seconds between lines one attacker session types (the server takes 10 a second)."""
ADDRESS_SPACE = int(2.5 * 2**30)
"""The server's address-space cap with ``--dev-zero`` (as in the audit)."""
GOAL_P95 = 0.050
GOAL_RSS = 20.0
GOAL = "Goal: p95 within +50 ms of the quiet baseline and RSS growth under 20 MiB for every attack"
TABLE_TITLE = re.compile(r"\s*table \d+ · ")
BOX_TOP = "▊▔"


# The server ----------------------------------------------------------------------------------


async def start_server(workdir: Path, address_space: int | None) -> Server:
    """``shipwreck serve`` in ``workdir`` on the documented defaults, on a free port."""
    shutil.copy(ROOT / "server.toml", workdir / "server.toml")
    argv = [sys.executable, "-m", "shipwreck.cli", "serve", "--config", "server.toml"]
    argv += ["--listen", "127.0.0.1", "--port", "0"]
    argv += ["--db", str(workdir / "bench.db"), "--host-key", str(workdir / "host_key")]

    def cap() -> None:
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=workdir, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE, preexec_fn=cap,
    )  # fmt: skip
    assert proc.stderr is not None
    lines: list[str] = []
    async with asyncio.timeout(60):
        while True:
            raw = await proc.stderr.readline()
            if not raw:
                raise RuntimeError("the server exited:\n" + "".join(lines))
            lines.append(raw.decode(errors="replace"))
            if m := re.search(r"listening on [\d.]+:(\d+)", lines[-1]):
                break
    server = Server(proc, int(m.group(1)), workdir / "unused", lines)
    server.drain = asyncio.create_task(_drain(proc.stderr, lines))
    return server


async def stop_server(server: Server) -> int:
    """Ctrl+C; killed if it has not stopped within 15 s (a frozen server)."""
    if server.proc.returncode is None:
        server.proc.send_signal(signal.SIGINT)
    try:
        async with asyncio.timeout(15):
            return await server.proc.wait()
    except TimeoutError:
        server.proc.kill()
        return await server.proc.wait()


# Clients --------------------------------------------------------------------------------------


class Sink(Terminal):
    """A terminal that may stop drawing: a flood of frames drawn by pyte would take this
    process's CPU from the server it measures. Not drawing, it counts the bytes and keeps the
    last 64 KiB (enough for a refusal's first frame)."""

    def __init__(self, width: int, height: int, drawing: bool = True) -> None:
        super().__init__(width, height)
        self.drawing = drawing
        self.received = 0

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.received += len(data)
        if self.drawing:
            super().data_received(data, datatype)
        else:
            self.raw += data
            del self.raw[:-65536]


class EofSink(Sink):
    """Sends EOF right behind the shell request, before the server has answered it (as
    ``ssh -tt host </dev/null`` does)."""

    def connection_made(self, chan: asyncssh.SSHClientChannel[bytes]) -> None:  # type: ignore[override]
        asyncio.get_running_loop().call_soon(chan.write_eof)


async def connect(port: int, name: str, key: asyncssh.SSHKey) -> asyncssh.SSHClientConnection:
    return await asyncio.wait_for(
        asyncssh.connect(
            "127.0.0.1", port, username=name, client_keys=[key], known_hosts=None,
            config=None, agent_path=None,
        ),
        15.0,
    )  # fmt: skip


async def shell(conn: asyncssh.SSHClientConnection, term: Terminal) -> Client:
    """One more PTY session on ``conn`` drawn on ``term`` (``open_terminal`` makes one
    connection with one plain terminal; the attacks need several sessions, or other terminals)."""
    size = (term.screen.columns, term.screen.lines)
    chan, _ = await conn.create_session(
        lambda: term, term_type="xterm-256color", term_size=size, encoding=None
    )
    return Client(conn, chan, term)


def failure(e: BaseException) -> str:
    """An exception as an outcome: its kind and reason, numbers made N (to count alike)."""
    reason = getattr(e, "reason", "") or str(e)
    return normal(f"{type(e).__name__}: {reason}" if reason else type(e).__name__)


def normal(text: str, width: int = 90) -> str:
    text = re.sub(r"\d+", "N", " ".join(text.split()))
    return text if len(text) <= width else text[: width - 1] + "…"


def rows(client: Client) -> list[str]:
    return client.term.screen.display


def in_lobby(client: Client) -> bool:
    return rows(client)[0].strip().startswith("signed in as")


def at_table(client: Client) -> bool:
    return bool(TABLE_TITLE.match(rows(client)[0]))


def foot(client: Client) -> str:
    """The lobby's error line: the row above the command box."""
    screen = rows(client)
    for i, row in enumerate(screen):
        if row.lstrip().startswith(BOX_TOP):
            return screen[i - 1].strip() if i else ""
    return ""


def first_line(client: Client) -> str:
    return next((r.strip() for r in rows(client) if r.strip()), "(blank screen)")


async def until(check: Callable[[], bool], timeout: float) -> bool:
    """Whether ``check()`` came true within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


async def sign_in(port: int, name: str, key: asyncssh.SSHKey) -> Client | str:
    """A player in the lobby, or why not (the refusal on the screen, or the error)."""
    try:
        client = await open_terminal(port, name, key)
    except (OSError, asyncssh.Error, TimeoutError) as e:
        return failure(e)
    refused = client.term.closed.is_set
    await until(lambda: in_lobby(client) or refused() or "shipwreck:" in first_line(client), 10)
    if in_lobby(client):
        return client
    why = " ".join(first_line(client).split())
    client.close()
    return why[:90]


async def ask(client: Client, line: str, timeout: float = 3.0) -> str:
    """Type one lobby line; what came of it: ``opened a table``, the lobby's error line, ``the
    session ended``, or no answer. An error still shown is cleared first (an empty line), so
    the same error twice is seen twice."""
    await asyncio.sleep(PACE)
    if foot(client):
        client.type("\r")
        await until(lambda: not foot(client), 1.0)
        await asyncio.sleep(PACE)
    client.type(line + "\r")
    term = client.term
    if not await until(
        lambda: at_table(client) or bool(foot(client)) or term.closed.is_set(), timeout
    ):
        return f"no answer within {timeout:.0f} s"
    if term.closed.is_set():
        return "the session ended"
    return "opened a table" if at_table(client) else normal(foot(client))


async def back_to_lobby(client: Client) -> bool:
    await asyncio.sleep(PACE)
    client.type("lobby\r")
    return await until(lambda: in_lobby(client), 3.0)


# Phases ---------------------------------------------------------------------------------------


@dataclass
class Phase:
    """What an attack gets: where the server is, when to stop, where to count."""

    port: int
    workdir: Path
    stop: asyncio.Event
    bystander: Bystander
    dev_zero: bool
    outcomes: collections.Counter[str] = field(default_factory=collections.Counter)
    notes: list[str] = field(default_factory=list)
    """Short notes for the table's last column."""

    @property
    def running(self) -> bool:
        return not self.stop.is_set()


Attack = Callable[[Phase], Awaitable[None]]


@dataclass
class Result:
    name: str
    rtts: list[float]
    lost: int
    rss_before: float
    rss_after: float
    rss_peak: float
    cpu: float
    bench_cpu: float
    """CPU seconds this process used in the phase (it shares the machine with the server)."""
    seconds: float
    outcomes: collections.Counter[str]
    notes: list[str]
    log_lines: int
    tracebacks: int


async def sample_rss(server: Server, peak: list[float]) -> None:
    while True:
        with contextlib.suppress(OSError, RuntimeError):
            peak[0] = max(peak[0], server.rss_mib())
        await asyncio.sleep(0.25)


async def run_phase(name: str, attack: Attack | None, args: argparse.Namespace) -> Result:
    """A fresh server, the bystander, ``attack`` for ``args.seconds`` (none: the baseline)."""
    workdir = Path(tempfile.mkdtemp(prefix="hostile-"))
    server = await start_server(workdir, ADDRESS_SPACE if args.dev_zero else None)
    tasks: list[asyncio.Task[None]] = []
    watch: Bystander | None = None
    try:
        joined = await sign_in(server.port, "bystander", BYSTANDER_KEY)
        if isinstance(joined, str):
            raise RuntimeError(f"the bystander could not sign in: {joined}")
        watch = Bystander(joined)
        watch.start()
        await asyncio.sleep(SETTLE)
        first, lost = len(watch.rtts), watch.lost
        rss_before, cpu_before = server.rss_mib(), server.cpu_seconds()
        log_before = len(server.lines)
        peak = [rss_before]
        tasks.append(asyncio.create_task(sample_rss(server, peak)))
        phase = Phase(server.port, workdir, asyncio.Event(), watch, args.dev_zero)
        started, bench_cpu = time.monotonic(), time.process_time()
        try:
            async with asyncio.timeout(args.seconds + SLACK):
                await attack_for(phase, attack, args.seconds)
                # The say in flight when the attack stopped, and one sent after it.
                count = len(watch.rtts)
                await until(lambda: len(watch.rtts) >= count + 2, 30.0)
        except TimeoutError:
            phase.notes.append(f"cut off after {args.seconds + SLACK:.0f} s")
        seconds, bench_cpu = time.monotonic() - started, time.process_time() - bench_cpu
        alive = server.proc.returncode is None
        rss_after = server.rss_mib() if alive else 0.0
        if not alive:
            phase.notes.append(f"server exited ({server.proc.returncode})")
        lines = server.lines[log_before:]
        return Result(
            name, watch.rtts[first:], watch.lost - lost, rss_before, rss_after, peak[0],
            server.cpu_seconds() - cpu_before if alive else 0.0, bench_cpu, seconds, phase.outcomes,
            phase.notes, len(lines), sum("Traceback" in line for line in lines),
        )  # fmt: skip
    finally:
        for task in tasks:
            task.cancel()
        if watch is not None:
            await watch.stop()
            watch.client.close()
        await stop_server(server)
        shutil.rmtree(workdir, ignore_errors=True)


async def attack_for(phase: Phase, attack: Attack | None, seconds: float) -> None:
    """Run ``attack`` for ``seconds``, then tell it to stop; cancel it if it does not."""
    if attack is None:
        await asyncio.sleep(seconds)
        return
    task = asyncio.create_task(attack(phase))
    done, _ = await asyncio.wait([task], timeout=seconds)
    phase.stop.set()
    if not done:
        done, _ = await asyncio.wait([task], timeout=GRACE)
    if not done:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        phase.notes.append("attack cancelled")
    elif (e := task.exception()) is not None:
        phase.notes.append(f"attack failed: {failure(e)}")


# The attacks ----------------------------------------------------------------------------------


def first_token(path: str, sep: str | None = None) -> str:
    """What a parse error would echo of a file: its first word."""
    try:
        words = Path(path).read_text().split(sep)
    except OSError:
        return ""
    return words[0].split()[0] if words and words[0].split() else ""


async def paths(phase: Phase) -> None:
    """F1: bot names that are paths."""
    up = "../" * (len(phase.workdir.parts) - 1)
    secrets = {
        "new 6 /etc/hostname": first_token("/etc/hostname"),
        f"new 6 {up}etc/passwd": first_token("/etc/passwd", ":"),
        "new 6 server.toml": "[server]",
    }
    if phase.dev_zero:
        secrets = {"new 6 /dev/zero": "", **secrets}
    key = asyncssh.generate_private_key("ssh-ed25519")
    client: Client | str = "not signed in"
    echoed = answers = 0
    try:
        for line in itertools.cycle(secrets):
            if not phase.running:
                break
            if isinstance(client, str):
                client = await sign_in(phase.port, "mallory", key)
                if isinstance(client, str):
                    phase.outcomes[f"sign-in: {client}"] += 1
                    await asyncio.sleep(1.0)
                    continue
            answer = await ask(client, line)
            answers += 1
            secret = secrets[line]
            if secret and secret in foot(client):
                echoed += 1
            phase.outcomes[f"{line.split()[-1]}: {answer}"] += 1
            if answer == "opened a table":
                await back_to_lobby(client)
            elif answer == "the session ended":
                client = answer
    finally:
        if not isinstance(client, str):
            client.close()
    phase.notes.append(f"{echoed}/{answers} answers echo the file")


async def eof_session(port: int, name: str, key: asyncssh.SSHKey) -> str:
    try:
        conn = await connect(port, name, key)
    except (OSError, asyncssh.Error, TimeoutError) as e:
        return failure(e)
    try:
        term = EofSink(80, 24, drawing=False)
        await shell(conn, term)
        if await until(term.closed.is_set, 2.0):
            return "closed by the server"
        return "hung 2 s (closed by the client)"
    except (OSError, asyncssh.Error) as e:
        return failure(e)
    finally:
        conn.close()


async def eof(phase: Phase) -> None:
    """F2: sessions that send EOF with the shell request; then, may their keys still sign in?"""
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(5)]

    async def worker(i: int) -> None:
        while phase.running:
            phase.outcomes[await eof_session(phase.port, f"carol{i}", keys[i])] += 1

    await asyncio.gather(*(worker(i) for i in range(len(keys))))
    for who, name, key in (
        ("same key", "carol0", keys[0]),
        ("new key", "dave", asyncssh.generate_private_key("ssh-ed25519")),
    ):
        client = await sign_in(phase.port, name, key)
        if isinstance(client, str):
            phase.notes.append(f"sign-in after, {who}: REFUSED ({client})")
        else:
            phase.notes.append(f"sign-in after, {who}: ok")
            client.close()


def flood_script(limit: int = 65000) -> str:
    """A valid bot of ``when me.wounds > N and friend != none -> row`` rules, under ``limit``
    bytes (the server takes 64 KiB)."""
    head, tail = 'bot "Flood" for lifeboat\non navigate:\n', "    else -> row\n"
    rules: list[str] = []
    size = len(head) + len(tail)
    for n in itertools.count():
        rule = f"    when me.wounds > {n} and friend != none -> row\n"
        if size + len(rule) > limit:
            break
        rules.append(rule)
        size += len(rule)
    return head + "".join(rules) + tail


async def bot_check(phase: Phase) -> None:
    """F3: 8 connections x 5 concurrent ``bot check`` of a 64 KB script."""
    script = flood_script()

    async def checks(conn: asyncssh.SSHClientConnection) -> None:
        while phase.running:
            try:
                done = await conn.run("bot check", input=script, timeout=60)
                said = str(done.stdout or done.stderr or "").strip().splitlines()
                phase.outcomes[f"exit {done.exit_status}: {normal(said[0] if said else '')}"] += 1
            except (OSError, asyncssh.Error, TimeoutError) as e:
                phase.outcomes[failure(e)] += 1
                await asyncio.sleep(0.5)

    async def connection(i: int) -> None:
        try:
            conn = await connect(
                phase.port, f"eve{i}", asyncssh.generate_private_key("ssh-ed25519")
            )
        except (OSError, asyncssh.Error, TimeoutError) as e:
            phase.outcomes[f"connect: {failure(e)}"] += 1
            return
        try:
            await asyncio.gather(*(checks(conn) for _ in range(5)))
        finally:
            conn.close()

    await asyncio.gather(*(connection(i) for i in range(8)))
    phase.notes.append(f"{phase.outcomes.total()} checks answered or refused")


async def sm_burst(phase: Phase) -> None:
    """F4: ten bot-only Spanish Main tables, then disconnect (autopilot takes the seats)."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    rounds = 0
    while phase.running:
        client = await sign_in(phase.port, "raider", key)
        if isinstance(client, str):
            phase.outcomes[f"sign-in: {client}"] += 1
            await asyncio.sleep(1.0)
            continue
        try:
            for _ in range(10):
                if not phase.running:
                    break
                answer = await ask(client, "new sm 4 sm_raider sm_hauler sm_raider", timeout=5.0)
                phase.outcomes[answer] += 1
                if answer == "opened a table" and not await back_to_lobby(client):
                    phase.outcomes["did not get back to the lobby"] += 1
                    break
        finally:
            client.close()
        rounds += 1
    phase.notes.append(f"{rounds} disconnects")


async def refused_session(conn: asyncssh.SSHClientConnection) -> str:
    term = Sink(80, 24, drawing=False)
    try:
        await shell(conn, term)
    except (OSError, asyncssh.Error) as e:
        return failure(e)
    closed = await until(term.closed.is_set, 6.0)
    text = term.plain_bytes()
    m = re.search(r"shipwreck: [^\r\n]{0,45}", text)
    said = normal(m.group(0)) if m else ("signed in" if "signed in as" in text else "nothing shown")
    return f"{said} ({'closed' if closed else 'still open after 6 s'})"


async def refused(phase: Phase) -> None:
    """F5: rounds of 200 sessions, invalid names and a name another key owns."""
    owner = await sign_in(phase.port, "victim", asyncssh.generate_private_key("ssh-ed25519"))
    if isinstance(owner, str):
        phase.notes.append(f"'victim' not registered: {owner}")
    else:
        owner.close()
    serial = itertools.count()

    async def connection(i: int) -> None:
        name = f"bad.name{next(serial)}" if i % 2 else "victim"
        try:
            conn = await connect(phase.port, name, asyncssh.generate_private_key("ssh-ed25519"))
        except (OSError, asyncssh.Error, TimeoutError) as e:
            phase.outcomes[f"{name.rstrip('0123456789')}: connect: {failure(e)}"] += 4
            return
        try:
            for said in await asyncio.gather(*(refused_session(conn) for _ in range(4))):
                phase.outcomes[f"{name.rstrip('0123456789')}: {said}"] += 1
        finally:
            conn.close()

    rounds = 0
    while phase.running:
        await asyncio.gather(*(connection(i) for i in range(50)))
        rounds += 1
    phase.notes.append(f"{rounds} rounds of 200 sessions")


async def typist(phase: Phase, n: int, keys_per_second: float = 4000.0) -> int:
    """One player typing ``move SHIP L 3`` then digit/backspace pairs; returns keys sent."""
    try:
        conn = await connect(phase.port, f"typist{n}", asyncssh.generate_private_key("ssh-ed25519"))
    except (OSError, asyncssh.Error, TimeoutError) as e:
        phase.outcomes[f"connect: {failure(e)}"] += 1
        return 0
    try:
        term = Sink(120, 40)
        client = await shell(conn, term)
        if not await until(lambda: in_lobby(client), 10.0):
            phase.outcomes[f"sign-in: {normal(first_line(client))}"] += 1
            return 0
        answer = await ask(client, "new sm 2", timeout=5.0)
        phase.outcomes[f"new sm 2: {answer}"] += 1
        if answer != "opened a table":
            return 0
        await until(lambda: "move: " in term.text(), 5.0)
        m = re.search(r"move: ([a-z0-9-]+)", term.text())
        client.type(f"move {m.group(1) if m else 'dover'} L 3")
        term.drawing = False
        sent, start = 0, time.monotonic()
        while phase.running and not term.closed.is_set():
            owed = int((time.monotonic() - start) * keys_per_second) - sent
            pairs = max(0, owed // 2)
            client.type("4\x7f" * pairs)
            sent += 2 * pairs
            await asyncio.sleep(0.01)
        phase.outcomes[f"typist streamed {time.monotonic() - start:.1f} s"] += 1
        return sent
    except (OSError, asyncssh.Error) as e:
        phase.outcomes[failure(e)] += 1
        return 0
    finally:
        conn.close()


async def typing(phase: Phase) -> None:
    """F6: three typists streaming keys into a move being previewed."""
    sent = await asyncio.gather(*(typist(phase, n) for n in range(3)))
    phase.notes.append(f"{sum(sent)} keys sent")


async def tables(phase: Phase) -> None:
    """F7: one key making tables as fast as the server takes them."""
    key = asyncssh.generate_private_key("ssh-ed25519")

    async def session() -> None:
        client = await sign_in(phase.port, "tabler", key)
        if isinstance(client, str):
            phase.outcomes[f"sign-in: {client}"] += 1
            return
        try:
            while phase.running:
                answer = await ask(client, "new 4 random random random")
                phase.outcomes[answer] += 1
                if answer == "the session ended":
                    return
                if answer == "opened a table" and not await back_to_lobby(client):
                    phase.outcomes["did not get back to the lobby"] += 1
                    return
        finally:
            client.close()

    await asyncio.gather(*(session() for _ in range(3)))
    phase.notes.append(f"{phase.outcomes['opened a table']} tables")


FORMAT_CHARACTERS = "\u202e\u202c\u2066\u2069\u200b\u200d"
SAYS = [
    "say \u202etxt.exe\u202c fine \u2066x\u2069",
    "say zero\u200bwidth\u200djoin",
    "say a" + "\u0301" * 300,
]


async def unicode(phase: Phase) -> None:
    """F11, F12: format characters and combining marks in chat; Unicode digits as numbers."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    seen_from = len(phase.bystander.client.term.raw)
    client: Client | str = "not signed in"
    try:
        while phase.running:
            if isinstance(client, str):
                client = await sign_in(phase.port, "trojan", key)
                if isinstance(client, str):
                    phase.outcomes[f"sign-in: {client}"] += 1
                    await asyncio.sleep(1.0)
                    continue
            for line in SAYS:
                await asyncio.sleep(PACE)
                client.type(line + "\r")
                phase.outcomes["say sent"] += 1
            for line in ("new ²", "join ²"):
                answer = await ask(client, line)
                phase.outcomes[f"{line}: {answer}"] += 1
                if answer == "opened a table":
                    await back_to_lobby(client)
                elif answer == "the session ended":
                    client = answer
                    break
    finally:
        if not isinstance(client, str):
            client.close()
    shown = bytes(phase.bystander.client.term.raw[seen_from:]).decode("utf-8", "replace")
    reached = sum(shown.count(c) for c in FORMAT_CHARACTERS)
    marks = max((len(run) for run in re.findall("\u0301+", shown)), default=0)
    phase.notes.append(f"{reached} format chars reached the bystander")
    phase.notes.append(f"up to {marks} combining marks on one letter there")
    ended = sum(n for what, n in phase.outcomes.items() if what.endswith("the session ended"))
    phase.notes.append(f"{ended} sessions ended")


ATTACKS: dict[str, Attack] = {
    "paths": paths,
    "eof": eof,
    "bot_check": bot_check,
    "sm_burst": sm_burst,
    "refused": refused,
    "typing": typing,
    "tables": tables,
    "unicode": unicode,
}


# The report -----------------------------------------------------------------------------------


def verdict(r: Result, base: Result) -> str:
    if r is base:
        return "baseline"
    missed = []
    if not r.rtts:
        missed.append("no round trips")
    elif pct(r.rtts, 0.95) - pct(base.rtts, 0.95) > GOAL_P95:
        missed.append(f"p95 +{(pct(r.rtts, 0.95) - pct(base.rtts, 0.95)) * 1000:.0f} ms")
    if r.rss_after - r.rss_before >= GOAL_RSS or r.rss_after == 0.0:
        missed.append(f"RSS +{r.rss_after - r.rss_before:.0f} MiB")
    return "MISSED: " + ", ".join(missed) if missed else "met"


def report(results: list[Result]) -> None:
    base = results[0]
    head = ["attack", "p50 ms", "p95 ms", "max ms", "RSS before → after (MiB)", "goal", "notes"]
    table = [head]
    for r in results:
        v = r.rtts or [float("nan")]
        notes = [f"{len(r.rtts)} says"]
        if r.lost:
            notes.append(f"{r.lost} unanswered in 10 s")
        if r.rss_peak > max(r.rss_before, r.rss_after) + 5:
            notes.append(f"RSS peak {r.rss_peak:.0f} MiB")
        if r.tracebacks:
            notes.append(f"{r.tracebacks} tracebacks logged")
        table.append([
            r.name, f"{pct(v, 0.5) * 1000:.0f}", f"{pct(v, 0.95) * 1000:.0f}",
            f"{'≥' if r.lost else ''}{max(v) * 1000:.0f}",
            f"{r.rss_before:.1f} → {r.rss_after:.1f} ({r.rss_after - r.rss_before:+.1f})",
            verdict(r, base), "; ".join(notes + r.notes),
        ])  # fmt: skip
    widths = [max(len(row[i]) for row in table) for i in range(len(head) - 1)]
    print()
    for row in table:
        pairs = zip(row[:-1], widths, strict=True)
        cells = [c.rjust(w) if 0 < i < 4 else c.ljust(w) for i, (c, w) in enumerate(pairs)]
        print(" | ".join([*cells, row[-1]]))
    print()
    print(GOAL)
    for r in results[1:]:
        print(
            f"\n{r.name}: {r.seconds:.1f} s measured; server CPU {r.cpu:.1f} s "
            f"({r.cpu / r.seconds * 100:.0f}% of one core); this bench's CPU {r.bench_cpu:.1f} s; "
            f"server log +{r.log_lines} lines"
        )
        for what, n in r.outcomes.most_common(12):
            print(f"  {n:6d}  {what}")


async def run(args: argparse.Namespace) -> None:
    names = args.attack or list(ATTACKS)
    results = []
    for name in ["quiet", *names]:
        print(f"{name}: {args.seconds:g} s ...", flush=True)
        results.append(await run_phase(name, ATTACKS.get(name), args))
    report(results)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--attack", action="append", choices=list(ATTACKS), help="(repeatable)")
    ap.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    ap.add_argument(
        "--dev-zero",
        action="store_true",
        help="paths also types 'new 6 /dev/zero' (the server then gets a 2.5 GiB address cap)",
    )
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()

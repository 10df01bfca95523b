"""``shipwreck serve --workers 2``: real worker processes on one port, joined by a real NATS
server, with real SSH clients (issue 21).

The supervisor is started as a player's operator would start it; the tests read its log (on
stderr) to know when both workers are listening and which worker owns which table.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import msgspec
import pytest

from shipwreck.runtime import SeatSpec, Table
from shipwreck.store.db import Store

from sshclient import Client, assert_nothing_hidden_leaked, choices_shown, open_terminal

AT_TABLE = "· lifeboat · you are"
KEYS = {name: asyncssh.generate_private_key("ssh-ed25519") for name in "abcdefghijkl"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Workers:
    def __init__(self, proc: asyncio.subprocess.Process, port: int, db: Path) -> None:
        self.proc, self.port, self.db = proc, port, db
        self.log: list[str] = []
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            self.log.append(line.decode(errors="replace").rstrip())

    async def wait_log(self, pattern: str, count: int = 1, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if sum(1 for line in self.log if re.search(pattern, line)) >= count:
                return
            await asyncio.sleep(0.05)
        tail = "\n".join(self.log[-30:])
        raise AssertionError(f"no {count}x {pattern!r} in the workers' log:\n{tail}")

    def owners(self) -> dict[int, str]:
        """table id -> the worker that owns it, as the log says."""
        out: dict[int, str] = {}
        for line in self.log:
            m = re.search(r"(w\d): (?:owns new|took over) table (\d+)", line)
            if m:
                out[int(m.group(2))] = m.group(1)
        return out

    def pids(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for line in self.log:
            m = re.search(r"worker (w\d) started \(pid (\d+)\)", line)
            if m:
                out[m.group(1)] = int(m.group(2))
        return out


@pytest.fixture
async def workers(tmp_path: Path) -> AsyncIterator[Workers]:
    port = _free_port()
    config = tmp_path / "server.toml"
    config.write_text("[cluster]\nlease_seconds = 1.0\nheartbeat_seconds = 0.3\n")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "shipwreck", "serve", "--workers", "2", "--config", str(config),
        "--port", str(port), "--db", str(tmp_path / "db.sqlite"),
        "--host-key", str(tmp_path / "host_key"),
        stderr=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    w = Workers(proc, port, tmp_path / "db.sqlite")
    try:
        await w.wait_log(r"listening on", count=2)
        yield w
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), 30)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        w._reader.cancel()


async def _new_table(w: Workers, name: str) -> tuple[Client, int]:
    c = await open_terminal(w.port, name, KEYS[name[0]])
    await c.term.wait_for(f"signed in as {name}")
    await c.line("new")
    await c.term.wait_for(AT_TABLE)
    m = re.search(r"table (\d+) · lifeboat · you are", c.term.text())
    assert m, c.term.text()
    return c, int(m.group(1))


async def test_two_workers_share_one_port_and_one_lobby(workers: Workers) -> None:
    """Players land on either worker; a table made on one is listed in the lobby of a player
    on the other."""
    clients: list[Client] = []
    made: dict[int, str] = {}
    for name in ["ann", "bob", "cat", "dan", "eve", "fay", "gil", "hal", "ivy", "jon"]:
        c, table_id = await _new_table(workers, name)
        clients.append(c)
        made[table_id] = name
        await workers.wait_log(rf"owns new table {table_id}\b")
        if len(set(workers.owners().values())) == 2 and len(made) >= 2:
            break
    owners = workers.owners()
    assert set(owners.values()) == {"w1", "w2"}, f"every table landed on one worker: {owners}"
    listening = [line for line in workers.log if "listening on" in line]
    tags = sorted(m.group(1) for line in listening if (m := re.search(r"\[(w\d)\] ", line)))
    assert tags == ["w1", "w2"], f"a worker's lines do not say which worker: {listening}"
    assert len(set(made)) == len(made), "two tables got one id"
    watcher = await open_terminal(workers.port, "kay", KEYS["k"])
    await watcher.term.wait_for("signed in as kay")
    for name in made.values():  # every creator's table is in kay's lobby, whichever worker
        await watcher.term.wait_for(name)
    pids = workers.pids()
    kay_pid = _server_pid_of(watcher, list(pids.values()))
    kays = next(w for w, pid in pids.items() if pid == kay_pid)
    away = next(t for t, w in owners.items() if w != kays)
    await watcher.line(f"join {away}")  # refused by its owner, in a local join's words
    await watcher.term.wait_for(f"table {away} has no free seat; 'watch {away}' instead")
    await watcher.line(f"watch {away}")  # followed from here: the spectators' updates
    await watcher.term.wait_for(f"table {away} · lifeboat")
    for c in [*clients, watcher]:
        c.close()


def _server_pid_of(client: Client, pids: list[int]) -> int:
    """Which worker process holds this client's connection (its socket, from /proc)."""
    local_port = client.conn.get_extra_info("sockname")[1]
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            remote_port = int(fields[2].split(":")[1], 16)
            if remote_port == local_port:
                inodes.add(fields[9])
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                return pid
    raise AssertionError(f"no worker holds the connection from port {local_port}")


async def test_a_killed_workers_table_is_playable_again_within_3_s(workers: Workers) -> None:
    """SIGKILL the worker that owns ann's table (and holds her connection): the other takes
    the table over from the store, and ann, signing in again at once, is seated at the same
    prompt the moment it is back (she waits in the lobby meanwhile, told it is moving)."""
    ann, table_id = await _new_table(workers, "ann")
    await ann.term.wait_for("choices:")
    for _ in range(3):  # a few moves, each acknowledged (seen on her screen)
        before = choices_shown(ann.term.text())
        ann.type(before[0] + "\r")
        for _ in range(200):
            await asyncio.sleep(0.02)
            now = choices_shown(ann.term.text())
            if now and now != before:
                break
    await asyncio.sleep(0.3)
    prompt = choices_shown(ann.term.text())
    assert prompt
    pids = workers.pids()
    victim = _server_pid_of(ann, list(pids.values()))
    owner = workers.owners()[table_id]
    assert pids[owner] == victim, "the table's owner should hold its creator's connection"
    os.kill(victim, signal.SIGKILL)
    killed = time.monotonic()
    back: Client | None = None
    while back is None and time.monotonic() - killed < 10:
        try:  # (until the kernel stops handing connections to the dead worker's socket)
            back = await open_terminal(workers.port, "ann", KEYS["a"])
        except (OSError, asyncssh.Error):
            await asyncio.sleep(0.05)
    assert back is not None, "no worker took ann's connection"
    await back.term.wait_for("signed in as ann", timeout=5)
    # She signs in once, and is seated the moment the table is back (tui/seat_return.py):
    await back.term.wait_for(AT_TABLE, timeout=10)
    await back.term.wait_for("choices:", timeout=5)
    took = time.monotonic() - killed
    assert choices_shown(back.term.text()) == prompt, "the table is not where ann left it"
    assert took < 3.0, f"the table was playable again only after {took:.1f} s"
    heir = next(w for w in pids if w != owner)
    await workers.wait_log(rf"{heir}: took over table {table_id}\b")
    print(f"table {table_id} playable again {took:.2f} s after {owner} was killed")
    back.close()


async def _on_worker(w: Workers, name: str, wanted: dict[str, int]) -> tuple[Client, str]:
    """``name`` signed in on a worker that still wants players (``wanted``: how many more
    each needs): the kernel picks a worker per connection, so a connection that lands on a
    full one is closed and made again (from another port)."""
    pids = w.pids()
    for _ in range(40):
        c = await open_terminal(w.port, name, KEYS[name[0]])
        await c.term.wait_for(f"signed in as {name}")
        pid = _server_pid_of(c, list(pids.values()))
        worker = next(k for k, v in pids.items() if v == pid)
        if wanted[worker] > 0:
            wanted[worker] -= 1
            return c, worker
        c.close()
        await asyncio.sleep(0.05)
    raise AssertionError(f"{name} never landed on a worker with room: {wanted}")


async def test_six_players_on_two_workers_play_one_table_to_the_end(workers: Workers) -> None:
    """Three players on each worker sit at one table (made on one worker: the others join it
    through the owner) and play it to the end, each typing what their own screen offers; no
    byte any of them received carries another seat's hidden items."""
    names = ["ann", "bob", "cat", "dan", "eve", "fay"]
    wanted = {"w1": 3, "w2": 3}
    players: dict[str, Client] = {}
    where: dict[str, str] = {}
    for name in names:
        players[name], where[name] = await _on_worker(workers, name, wanted)
    ann = players["ann"]
    await ann.line("new 6 free free free free free")
    await ann.term.wait_for(AT_TABLE)
    m = re.search(r"table (\d+) · lifeboat · you are", ann.term.text())
    assert m, ann.term.text()
    table_id = int(m.group(1))
    await workers.wait_log(rf"owns new table {table_id}\b")
    owner = workers.owners()[table_id]
    assert owner == where["ann"]
    remote = [n for n in names if where[n] != owner]
    assert len(remote) == 3, where
    for name in names[1:]:
        c = players[name]
        await c.term.wait_for("ann")  # the table's row, whichever worker lists it
        await c.line(f"join {table_id}")
        await c.term.wait_for(AT_TABLE)
    await ann.term.wait_for("every seat is taken")
    back = remote[0]  # drops, and signing in again on the other worker lands in the seat
    players[back].close()
    players[back], _ = await _on_worker(workers, back, {where[back]: 1, owner: 0})
    await players[back].term.wait_for(AT_TABLE)
    await ann.line("start")

    store = Store(workers.db)

    def table_now() -> Table:
        """The table as the store has it: every command any screen has shown is in it."""
        (game, seed, seats_json) = next((g, s, j) for t, g, s, j in store.tables() if t == table_id)
        specs = msgspec.json.decode(seats_json, type=list[SeatSpec])
        return Table(game, specs, seed, table_id=table_id, replay=store.commands(table_id))

    seated = {name: table_now().seat_of_player(name) for name in names}
    seats = {name: s for name, s in seated.items() if s is not None}
    assert sorted(seats.values()) == list(range(6)), seated
    pick = random.Random(6)
    by_seat: dict[int, int] = {}
    for _ in range(3000):
        snapshot = {c: c.term.plain_bytes() for c in players.values()}  # (read before the store)
        table = table_now()
        if table.over:
            break
        assert_nothing_hidden_leaked(table, {players[n]: seats[n] for n in names}, snapshot)
        acted = False
        for name in names:
            options = choices_shown(players[name].term.text())
            if options:
                players[name].type(pick.choice(options) + "\r")
                acted = True
        await asyncio.sleep(0.15 if acted else 0.05)  # a person: under 10 commands a second
    table = table_now()
    assert table.over, "the game did not reach its end"
    for seat, _text in table.commands:
        by_seat[seat] = by_seat.get(seat, 0) + 1
    for name in remote:  # lines typed on the other worker, saved by the owner
        assert by_seat.get(seats[name], 0) > 0, f"{name} (on {where[name]}) never played"
    print(f"{len(table.commands)} commands; by seat {dict(sorted(by_seat.items()))}; {where}")
    for c in players.values():
        await c.term.wait_for("land! final scores")
        c.close()
    store.close()


async def test_a_whisper_to_a_spectator_on_the_other_worker_reaches_only_them(
    workers: Workers,
) -> None:
    """ann's table is owned by her worker; kay and lee watch it from the other worker, bob
    from ann's. ann whispers to kay, kay to bob: each whisper shows on its addressee's screen,
    and no byte any other client received carries it."""
    wanted = {"w1": 2, "w2": 2}
    ann, home = await _on_worker(workers, "ann", wanted)
    away = next(w for w in wanted if w != home)
    wanted = {home: 1, away: 2}
    bob, _ = await _on_worker(workers, "bob", wanted)
    kay, _ = await _on_worker(workers, "kay", wanted)
    lee, _ = await _on_worker(workers, "lee", wanted)
    await ann.line("new")
    await ann.term.wait_for(AT_TABLE)
    m = re.search(r"table (\d+) · lifeboat · you are", ann.term.text())
    assert m, ann.term.text()
    table_id = int(m.group(1))
    await workers.wait_log(rf"{home}: owns new table {table_id}\b")
    for c in (bob, kay, lee):
        await c.term.wait_for("ann")  # the table's row, whichever worker lists it
        await c.line(f"watch {table_id}")
        await c.term.wait_for(f"table {table_id} · lifeboat")
    await ann.line("tell kay psst-from-ann")
    await kay.term.wait_for("psst-from-ann")
    await kay.line("tell bob psst-from-kay")
    await bob.term.wait_for("psst-from-kay")
    await ann.line("say all-hear")  # said after both: whoever reads it read what came before
    for c in (ann, bob, kay, lee):
        await c.term.wait_for("all-hear")
    received = {
        name: c.term.plain_bytes() for name, c in [("ann", ann), ("bob", bob), ("lee", lee)]
    }
    assert "psst-from-ann" not in received["bob"] + received["lee"]
    assert "psst-from-kay" not in received["ann"] + received["lee"]
    for c in (ann, bob, kay, lee):
        c.close()


async def test_a_second_session_on_the_other_worker_takes_the_seat_as_on_one(
    workers: Workers,
) -> None:
    """bob sits at ann's table from her worker; he signs in again, landing on the other
    worker: the new session is at his seat, and the old one watches, saying why. A third
    session, on the owner's worker again, takes it back: the second goes to the lobby, saying
    so (as on one worker, the newer session has the seat)."""
    wanted = {"w1": 1, "w2": 1}
    ann, home = await _on_worker(workers, "ann", wanted)
    away = next(w for w in wanted if w != home)
    await ann.line("new 6 free free free free free")
    await ann.term.wait_for(AT_TABLE)
    m = re.search(r"table (\d+) · lifeboat · you are", ann.term.text())
    assert m, ann.term.text()
    table_id = int(m.group(1))
    await workers.wait_log(rf"{home}: owns new table {table_id}\b")
    first, _ = await _on_worker(workers, "bob", {home: 1, away: 0})
    await first.line(f"join {table_id}")
    await first.term.wait_for(AT_TABLE)
    second, _ = await _on_worker(workers, "bob", {home: 0, away: 1})
    await second.term.wait_for(AT_TABLE)  # back at his seat, through the owner
    await first.term.wait_for("your other session has this seat")
    third, _ = await _on_worker(workers, "bob", {home: 1, away: 0})
    await third.term.wait_for(AT_TABLE)
    await second.term.wait_for(f"your other session has your seat at table {table_id}")
    for c in (ann, first, second, third):
        c.close()

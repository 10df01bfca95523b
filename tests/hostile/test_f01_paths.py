"""F1 (critical): a bot a player names in the lobby was a path to any file on the server.

``new 6 /dev/zero`` froze the server until memory ran out, ``/dev/stdin`` froze it for good,
parse errors leaked a file's first token (``/etc/shadow`` -> ``root``), and a table seated with
``bots/random.bot`` could not be restored from another working directory. Now a bot is a name,
looked up among the shipped bots and the player's own saved bots; nothing typed is opened.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import asyncssh
import msgspec
from clients import run

from shipwreck.runtime import SeatSpec
from shipwreck.server.service import Service
from shipwreck.server.ssh import LiveApps

from harness import Bystander, eventually, make_config
from sshclient import open_terminal

MALLORY_KEY = asyncssh.generate_private_key("ssh-ed25519")

HOSTILE_WORDS = [
    "/dev/zero",
    "/dev/stdin",
    "/etc/hostname",
    "../../../etc/hostname",
    "host_key",
    "shipwreck.db",
    "server.toml",
    "bots/random.bot",
    "random.bot",
    "./random",
    "~root",
    "Random.bot",  # (a name in any case is the name: "RANDOM" is random; a file name is not)
    "a" * 40,
]


async def test_f1_a_typed_bot_is_a_name_never_a_path(
    service: Service, bystander: Bystander, tmp_path: Path
) -> None:
    """Every path-like word is refused at once with a one-line error that names no file's
    contents; no table is made; the bystander never waits."""
    secret = Path(service.config.server.host_key).read_text().splitlines()[1][:20]
    hostname = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else ""
    mallory = await open_terminal(service.port, "mallory", MALLORY_KEY)
    await mallory.term.wait_for("signed in as mallory")
    for word in HOSTILE_WORDS:
        await asyncio.sleep(0.15)  # under the rate limit
        mallory.type(f"new 6 {word}\r")
        await mallory.term.wait_for("bot names are" if "/" in word else "bot", timeout=5)
    await mallory.term.wait_for("not files", timeout=5)
    await asyncio.sleep(0.15)  # under the rate limit
    mallory.type("zqsyncq\r")  # answered after every line before it: the sync point
    await mallory.term.wait_for("'zqsyncq'", timeout=5)
    assert service.lobby.tables == {}, "a table was made from a path"
    seen = mallory.term.plain_bytes()
    assert secret not in seen and "BEGIN OPENSSH" not in seen and "[server]" not in seen
    if hostname:
        assert f"'{hostname}'" not in seen
    assert "cannot read" not in seen and "No such file" not in seen
    mallory.close()
    bystander.check()


async def test_f1_a_shipped_bot_and_my_own_saved_bot_by_name(service: Service) -> None:
    """The two things a word may name: a shipped bot, and the player's own saved bot (another
    player's saved bot is not theirs to seat)."""
    service.store.identify("ann", "SHA256:ann", "ssh-ed25519 AAAA")
    service.store.save_bot("ann", "rower", 'bot "Rower" for lifeboat\non turn:\n    else -> row\n')
    mallory = await open_terminal(service.port, "mallory", MALLORY_KEY)
    await mallory.term.wait_for("signed in as mallory")
    mallory.type("new 4 rower\r")
    await mallory.term.wait_for("there is no bot 'rower'")
    assert service.lobby.tables == {}
    # the ladder lists it as ann/rower: hers to seat, said in one line (a stranger tried it)
    mallory.type("new 4 ann/rower\r")
    await mallory.term.wait_for("'ann/rower' is ann's saved bot: only they seat it")
    mallory.type("new 4 ann/sailor\r")
    await mallory.term.wait_for("there is no saved bot 'ann/sailor'")
    assert service.lobby.tables == {}
    mallory.type("new 4 survivor loyal\r")
    await mallory.term.wait_for("table 1")
    table = service.lobby.tables[1]
    assert [s.bot for s in table.seat_specs()[1:]] == ["survivor", "loyal", "survivor"]
    table.leave("mallory")
    mallory.close()
    lobby = service.lobby
    made = lobby.create_table(
        "lifeboat", [SeatSpec("human"), *[SeatSpec("bot", "rower")] * 3], creator="ann"
    )
    assert {(s.bot, s.owner) for s in made.seat_specs()[1:]} == {("rower", "ann")}
    assert lobby.book.resolve("ann/rower", "ann", "lifeboat") == ("rower", "ann")  # (her own)


async def test_f1_f14_restored_from_another_directory_and_one_bad_table_set_aside(
    tmp_path: Path,
) -> None:
    """A table restored at start-up finds its bots by name (a saved bot's script is in the
    database), from any working directory; a table that cannot be rebuilt is logged and set
    aside while the others resume (F14)."""
    config = make_config(tmp_path)
    first = Service(config, live=LiveApps())
    first.store.identify("ann", "SHA256:ann", "ssh-ed25519 AAAA")
    first.store.save_bot("ann", "rower", 'bot "Rower" for lifeboat\non turn:\n    else -> row\n')
    good = first.lobby.create_table(
        "lifeboat",
        [SeatSpec("human"), SeatSpec("bot", "rower"), SeatSpec("bot", "survivor")]
        + [SeatSpec("bot", "loyal")],
        creator="ann",
        seed=3,
    )
    bad = first.lobby.create_table(
        "lifeboat", [SeatSpec("human"), *[SeatSpec("bot", "random")] * 3], creator="ann", seed=4
    )
    old = first.lobby.create_table(
        "lifeboat", [SeatSpec("human"), *[SeatSpec("bot", "random")] * 3], creator="ann", seed=5
    )
    good_log = list(good.commands)
    first.store.append(bad.id, len(bad.commands), 0, "this is not a command")
    # An old database named a bot by a path that no longer exists: it is not opened.
    old_seats = [SeatSpec("human", player="ann"), *[SeatSpec("bot", "bots/random.bot")] * 3]
    first.store.set_seats(old.id, msgspec.json.encode(old_seats).decode())
    first.store.close()

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    here = os.getcwd()
    os.chdir(elsewhere)
    try:
        again = Service(config, live=LiveApps())
    finally:
        os.chdir(here)
    try:
        assert good.id in again.lobby.tables and old.id in again.lobby.tables
        assert bad.id not in again.lobby.tables and bad.id in again.lobby.broken
        restored = again.lobby.tables[good.id]
        assert restored.commands == good_log
        assert restored.seat_specs()[1] == SeatSpec("bot", "rower", owner="ann")
        await again.start()
        await eventually(lambda: again.port > 0, what="the server listens")
    finally:
        await again.stop()


async def test_f1_a_bot_saved_over_ssh_is_seated_by_its_name(service: Service) -> None:
    """docs/bots.md's flow: `ssh host bot save rower < rower.bot`, then `new 4 rower` in the
    lobby seats the player's own saved script (compiled off the loop at sign-in)."""
    script = 'bot "Rower" for lifeboat\non turn:\n    else -> row\n'
    saved = await run(service.port, "ann", MALLORY_KEY, "bot save rower", script)
    assert saved.exit_status == 0, saved.stdout
    ann = await open_terminal(service.port, "ann", MALLORY_KEY)
    await ann.term.wait_for("signed in as ann")
    await eventually(lambda: ("ann", "rower") in service.lobby.book._compiled, what="warm")
    ann.type("new 4 rower\r")
    await ann.term.wait_for("table 1")
    specs = service.lobby.tables[1].seat_specs()
    assert [(s.bot, s.owner) for s in specs[1:]] == [("rower", "ann")] * 3
    ann.close()

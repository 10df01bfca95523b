"""What a very long typed line costs a session: 1,500 keys into a table's command line.

Two measures (the stranger's play-test: typing ~1,500 characters froze the session for 15-20 s):

* ``pilot``: the keys handed to the app a turn at a time (32 keys, as the SSH driver does) in
  a Pilot app; the time until all are handled is the app's own cost per key.
* ``ssh``: a real server on 127.0.0.1 and an asyncssh client that writes the 1,500 characters
  in one go (a terminal without bracketed paste, or ``tmux send-keys``), then ``say``; the time
  until the said line is on the client's screen is how long the session was deaf.

    .venv/bin/python bench/long_line.py --keys 1500
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import asyncssh  # noqa: E402
from textual import events  # noqa: E402

from shipwreck.runtime import Lobby, SeatSpec  # noqa: E402
from shipwreck.tui import ShipwreckApp  # noqa: E402
from shipwreck.tui._textual import install_patches  # noqa: E402
from shipwreck.tui.widgets import CommandLine  # noqa: E402

from sshclient import loopback_config, open_terminal, running  # noqa: E402

TURN = 32
"""Keys handed to the app per turn (the driver's ``DEFAULT_INPUT_BATCH``)."""


def text(keys: int) -> str:
    return ("say " + "abcdefghij" * (keys // 10 + 1))[:keys]


async def pilot(game: str, keys: int) -> float:
    """Seconds the app takes to handle ``keys`` keys at a table, a turn at a time."""
    lobby = Lobby(seed=1)
    bots = [SeatSpec("bot", "loyal")] * 3 if game == "lifeboat" else [SeatSpec("bot", "sm_raider")]
    table = lobby.create_table(game, [SeatSpec("human"), *bots], "ann", seed=5)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    typed = text(keys)
    async with app.run_test(size=(80, 24)) as p:
        for _ in range(20):
            await p.pause(0.02)
        started = time.perf_counter()
        for i in range(0, keys, TURN):
            for ch in typed[i : i + TURN]:
                app.post_message(events.Key("space" if ch == " " else ch, ch))
            await p.pause()
        elapsed = time.perf_counter() - started
        line = app.screen.query_one("#command", CommandLine)
        print(
            f"pilot {game}: {keys} keys in {elapsed:.2f} s ({elapsed / keys * 1e3:.2f} ms a key);"
            f" the line holds {len(line.value)}"
        )
    return elapsed


async def ssh(keys: int) -> float:
    """Seconds from writing ``keys`` characters and a ``say`` until the said line shows."""
    with tempfile.TemporaryDirectory() as tmp:
        async with running(loopback_config(Path(tmp))) as service:
            key = asyncssh.generate_private_key("ssh-ed25519")
            client = await open_terminal(service.port, "ann", key, size=(80, 24))
            await client.term.wait_for("signed in as ann")
            await client.line("new 4 loyal")
            await client.term.wait_for("you are")
            started = time.monotonic()
            client.type(text(keys))
            client.type("\x15say heard-you\r")  # Ctrl+U empties the line, then a chat line
            await client.term.wait_for("heard-you", timeout=120)
            elapsed = time.monotonic() - started
            client.close()
    return elapsed


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=1500)
    parser.add_argument("--only", choices=["pilot", "ssh"])
    args = parser.parse_args()
    print(install_patches())
    if args.only != "ssh":
        for game in ("lifeboat", "spanish_main"):
            await pilot(game, args.keys)
    if args.only != "pilot":
        elapsed = await ssh(args.keys)  # (printed after: a running app holds stdout)
        print(f"ssh: {args.keys} characters, then a line: it showed after {elapsed:.2f} s")


if __name__ == "__main__":
    asyncio.run(main())

"""Tables that forgive, over real SSH (issue 16, section 3): a bot game survives a dropped
connection, and Ctrl+C asks before it leaves a table or quits. ``shipwreck serve``'s service on
127.0.0.1 with its default settings (timers on), real asyncssh clients with PTYs (pyte screens),
and OpenSSH's ``ssh`` for Ctrl+C as a terminal sends it."""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

import asyncssh
import pytest

from shipwreck.server.service import Service

from sshclient import TIMEOUT, Client, open_openssh, open_terminal

ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")
BOB_KEY = asyncssh.generate_private_key("ssh-ed25519")
CTRL_C = "\x03"
AT_TABLE = "table 1 · lifeboat · you are"
IN_LOBBY = "new [4-6]"  # the lobby's help, shown only there


async def answer(client: Client, key: str, question: str) -> None:
    """Answer the question on screen, and wait until it has gone (a person reads first)."""
    client.type(key)
    async with asyncio.timeout(TIMEOUT):
        while question in client.term.text():
            await asyncio.sleep(0.02)


def chat_name(service: Service) -> str:
    """How the table's chat names ann, at the first seat of table 1: ``ann (mate)``."""
    table = service.lobby.get(1)
    assert table is not None
    return f"ann ({table.seat_name(0)})"


def choices_line(client: Client) -> str:
    m = re.search(r"choices:.*", client.term.text())
    return m.group(0).strip() if m else ""


async def test_a_dropped_bot_game_waits_and_reconnecting_finds_the_same_prompt(
    service: Service,
) -> None:
    """The play-test's worst problem: a dropped connection played a bot game to its end in
    two seconds. Now the table pauses: the lobby says so, nothing is played for ann, and she
    comes back to the same round and the same prompt."""
    ann = await open_terminal(service.port, "ann", ANN_KEY)
    await ann.term.wait_for("signed in as ann")
    await ann.line("new")
    await ann.term.wait_for(AT_TABLE)
    await ann.term.wait_for("choices:")
    table = service.lobby.get(1)
    assert table is not None and table.deadline(0) is None, "a lone player has no timer"
    before, prompt = list(table.commands), choices_line(ann)
    view = table.view(0)
    ann.conn.abort()  # the Wi-Fi drops

    bob = await open_terminal(service.port, "bob", BOB_KEY)
    await bob.term.wait_for(IN_LOBBY)
    await bob.term.wait_for("paused")  # bob's lobby: ann's table waits for her
    assert "ann (away)" in bob.term.text()
    await asyncio.sleep(3.0)  # the server's clock ticks six times meanwhile
    assert table.commands == before and not table.over
    assert not table.seats[0].autopilot and table.paused

    again = await open_terminal(service.port, "ann", ANN_KEY)
    await again.term.wait_for(AT_TABLE)
    await again.term.wait_for("choices:")
    assert choices_line(again) == prompt
    assert table.commands == before, "something was played for ann"
    now = table.view(0)
    assert (now.round, now.phase, now.choices) == (view.round, view.phase, view.choices)
    await bob.term.wait_for("running")
    again.close()
    bob.close()


async def test_ctrl_c_asks_before_leaving_the_table_and_before_quitting(
    service: Service,
) -> None:
    ann = await open_terminal(service.port, "ann", ANN_KEY, size=(80, 24))
    await ann.term.wait_for("signed in as ann")
    await ann.line("new")
    await ann.term.wait_for(AT_TABLE)
    ann.type(CTRL_C)
    await ann.term.wait_for("back to the lobby?")
    await answer(ann, "n", "back to the lobby?")
    await ann.line("chat still here")  # the session and the table go on
    await ann.term.wait_for(f"{chat_name(service)}: still here")
    assert AT_TABLE in ann.term.text() and not ann.chan.is_closing()

    ann.type(CTRL_C)
    await ann.term.wait_for("back to the lobby?")
    ann.type("y")
    await ann.term.wait_for(IN_LOBBY)
    table = service.lobby.get(1)
    assert table is not None and table.seat_of_player("ann") == 0 and not table.paused

    ann.type(CTRL_C)
    await ann.term.wait_for("quit Shipwreck? y/n")
    await answer(ann, "n", "quit Shipwreck?")
    await ann.line("say hello")
    await ann.term.wait_for("ann: hello")
    ann.type(CTRL_C)
    await ann.term.wait_for("quit Shipwreck? y/n")
    ann.type("y")
    async with asyncio.timeout(TIMEOUT):
        await ann.chan.wait_closed()
    assert ann.chan.get_exit_status() == 0


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH's ssh is not installed")
async def test_ctrl_c_in_openssh_then_n_keeps_the_session(service: Service, tmp_path: Path) -> None:
    """OpenSSH in a terminal: Ctrl+C is a byte in the session's input (the PTY is raw), the
    app asks, and 'n' keeps the session (it used to end at once)."""
    ann = await open_openssh(service.port, "ann", ANN_KEY, tmp_path)
    try:
        term = ann.term
        await term.wait_for("signed in as ann")
        ann.type("new\r")
        await term.wait_for(AT_TABLE)
        ann.type(CTRL_C)
        await term.wait_for("back to the lobby?")
        ann.type("n")
        async with asyncio.timeout(TIMEOUT):
            while "back to the lobby?" in term.text():
                await asyncio.sleep(0.02)
        ann.type("chat kept\r")
        await term.wait_for(f"{chat_name(service)}: kept")
        assert ann.proc.returncode is None, "Ctrl+C ended the ssh session"
        ann.type(CTRL_C + "y")
        await term.wait_for(IN_LOBBY)
        ann.type(CTRL_C)
        await term.wait_for("quit Shipwreck? y/n")
        ann.type("y")
        async with asyncio.timeout(TIMEOUT):
            assert await ann.proc.wait() == 0
    finally:
        await ann.close()

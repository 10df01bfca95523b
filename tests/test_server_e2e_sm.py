"""Spanish Main end to end over real SSH: a player creates a two-seat table in the lobby and
plays it to the end against the stand-in bot, reading the screen (pyte) and typing."""

from __future__ import annotations

import asyncio

import asyncssh

from shipwreck.lang import format_command
from shipwreck.server.service import Service

from sshclient import open_terminal

KEY = asyncssh.generate_private_key("ssh-ed25519")


async def test_a_spanish_main_game_over_ssh(service: Service) -> None:
    ann = await open_terminal(service.port, "ann", KEY)
    await ann.term.wait_for("signed in as ann")
    await ann.line("new sm 2")
    await ann.term.wait_for("waiting to start")  # a free seat: it waits for 'start'
    await ann.line("start")  # (its random stand-in plays it)
    await ann.term.wait_for("spanish")
    table = service.lobby.get(1)
    assert table is not None and table.game == "spanish_main"
    seat = table.seat_of_player("ann")
    assert seat is not None
    for _ in range(600):
        if table.over:
            break
        view = table.view(seat)
        if not view.choices:
            await asyncio.sleep(0.02)
            continue
        before = len(table.commands)
        kinds = {p.kind for p in view.prompts if p.seat == seat}
        # end my turns at once; take the first offered answer to anything else
        line = "end turn" if "turn" in kinds else None
        if line is None:
            line = format_command(view.choices[0])
        await asyncio.sleep(0.12)  # a person: under the server's 10 commands a second
        await ann.line(line)
        for _ in range(500):
            if len(table.commands) > before or table.over:
                break
            await asyncio.sleep(0.02)
        taken = len(table.commands) > before or table.over
        assert taken, f"'{line}' was not taken; screen:\n{ann.term.text()}"
    assert table.over, "the game did not end"
    await ann.term.wait_for("the game is over")
    ann.close()

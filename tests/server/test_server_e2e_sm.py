"""Spanish Main end to end over real SSH: a player creates a two-seat table in the lobby and
plays it to the end against the stand-in bot, reading the screen (pyte) and typing.

What to type comes from the screen alone: 'end turn' when it says it is her turn (twice when
it asks about a ship still idle), else the first of the choices it shows. The server's log is
only the oracle that each line was taken, and the screen must agree with the table before the
next line is read from it."""

from __future__ import annotations

import asyncio

import asyncssh

from shipwreck.runtime import Table
from shipwreck.server.service import Service

from sshclient import choices_shown, eventually, open_terminal

KEY = asyncssh.generate_private_key("ssh-ed25519")
MY_TURN = "your turn: one action per ship"


def line_to_type(screen: str) -> str | None:
    """What a player reading ``screen`` types: end her turns at once, take the first choice
    shown for anything else; None while the screen asks her nothing."""
    if MY_TURN in screen:
        return "end turn"
    shown = choices_shown(screen)
    return shown[0] if shown else None


def screen_agrees(table: Table, seat: int, screen: str) -> bool:
    """The screen shows the decision the table waits for from ``seat`` now (or that none is
    hers, or that the game is over)."""
    view = table.view(seat)
    if view.over:
        return "the game is over" in screen
    mine = {p.kind for p in view.prompts if p.seat == seat and p.blocking}
    if "turn" in mine:
        return MY_TURN in screen
    if mine:
        return MY_TURN not in screen and bool(choices_shown(screen))
    return line_to_type(screen) is None


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
    typed = 0
    for _ in range(600):
        await eventually(
            lambda: screen_agrees(table, seat, ann.term.text()),
            what=f"the screen shows the table as it is:\n{ann.term.text()}",
        )
        if table.over:
            break
        line = line_to_type(ann.term.text())
        if line is None:
            await asyncio.sleep(0.02)  # the stand-in is playing
            continue
        before = len(table.commands)
        await asyncio.sleep(0.12)  # a person: under the server's 10 commands a second
        await ann.line(line)

        def taken(n: int = before) -> bool:
            return len(table.commands) > n or table.over

        if line == "end turn":  # (with a ship idle it asks first: the second ends the turn)
            await eventually(
                lambda: taken() or "not acted;" in ann.term.text(),
                what=f"'{line}' was taken or asked about; screen:\n{ann.term.text()}",
            )
            if not taken():
                await asyncio.sleep(0.12)
                await ann.line(line)
        await eventually(taken, what=f"'{line}' was taken; screen:\n{ann.term.text()}")
        assert table.over or table.commands[before] == (seat, line), table.commands[before:]
        typed += 1
    assert table.over, "the game did not end"
    assert typed > 5, f"only {typed} lines typed"
    await ann.term.wait_for("the game is over")
    ann.close()

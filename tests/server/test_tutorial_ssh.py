"""The tutorial over real SSH (``shipwreck serve`` on 127.0.0.1, an asyncssh client with a PTY
drawn by pyte): a newcomer at 80×24 types `new tutorial`, then only what the coach's panel on
the screen asks, to the end; a dropped connection loses nothing (no autopilot plays it)."""

from __future__ import annotations

import asyncio

import asyncssh

from shipwreck.runtime.tutorial import TutorialTable
from shipwreck.server.service import Service

from sshclient import Client, coach_asks, eventually, open_terminal

ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")


def tutorial_of(service: Service, player: str) -> TutorialTable:
    (table,) = [t for t in service.lobby.tables.values() if isinstance(t, TutorialTable)]
    assert table.seat_of_player(player) is not None
    return table


async def type_what_the_coach_asks(client: Client, table: TutorialTable) -> str:
    command = await coach_asks(client.term)
    before = len(table.commands)
    await asyncio.sleep(0.12)  # a person: under the server's 10 commands a second
    await client.line(command)
    for _ in range(250):  # taken, and the screen shows the coach's next line (no two in a
        # row ask the same command in either tutorial)
        if len(table.commands) > before and (
            table.over or await coach_asks(client.term) != command
        ):
            return command
        await asyncio.sleep(0.02)
    raise AssertionError(f"{command!r} was not taken; screen:\n{client.term.text()}")


async def test_a_newcomer_plays_the_tutorial_over_ssh_reading_only_the_screen(
    service: Service,
) -> None:
    ann = await open_terminal(service.port, "ann", ANN_KEY, size=(80, 24))
    await ann.term.wait_for("first time? try: new tutorial")  # the lobby's hint line
    await ann.line("new tutorial")
    await ann.term.wait_for("(tutorial) · lifeboat · you are lauren")
    table = tutorial_of(service, "ann")
    assert service.lobby.timers["supply"] > 0  # this server's tables have timers...
    assert table.deadline(0) is None  # ...a tutorial has none
    typed = []
    while not table.over:
        assert len(typed) < 30, typed
        typed.append(await type_what_the_coach_asks(ann, table))
    assert typed[:2] == ["take water", "row"] and typed[-1] == "keep 25"
    await ann.term.wait_for("final scores")
    await ann.term.wait_for("Enter, Escape or typing closes")  # the end screen is up
    ann.type("\r")  # close the end screen: the coach explains the score
    await ann.term.wait_for("Land! You scored 25")
    ann.close()


async def test_a_dropped_tutorial_waits_for_its_player(service: Service) -> None:
    ann = await open_terminal(service.port, "ann", ANN_KEY, size=(120, 40))
    await ann.term.wait_for("signed in as ann")
    await ann.line("new tutorial sm")
    await ann.term.wait_for("(tutorial) · spanish main")
    table = tutorial_of(service, "ann")
    first = await type_what_the_coach_asks(ann, table)
    assert first == "move windjammer S -30 L -30"
    asked = await coach_asks(ann.term)
    ann.close()
    await eventually(lambda: not table.seats[0].connected, what="the table sees ann gone")
    commands = list(table.commands)
    assert not table.seats[0].autopilot
    again = await open_terminal(service.port, "ann", ANN_KEY, size=(120, 40))
    await again.term.wait_for("(tutorial) · spanish main")  # back in the seat
    assert await coach_asks(again.term) == asked
    assert table.commands == commands  # nobody played it meanwhile
    again.close()

"""Sign-in and seating for the whisper attacks (F8): shared by the seat and spectator tests."""

from __future__ import annotations

import asyncssh

from shipwreck.server.service import Service

from harness import eventually
from sshclient import Client, open_terminal

KEYS = {
    n: asyncssh.generate_private_key("ssh-ed25519")
    for n in ["alice", "bob", "carol", "hank", "eve"]
}


AT_TABLE = "· lifeboat ·"


async def sign_in(service: Service, name: str) -> Client:
    client = await open_terminal(service.port, name, KEYS[name])
    signed_in = f"signed in as {name}"  # (a table's title leaves it out when the clock needs room)
    await eventually(
        lambda: signed_in in client.term.text() or AT_TABLE in client.term.text(),
        what=f"{name} in the lobby or back at the table",
    )
    return client


async def enter(client: Client, line: str) -> None:
    await client.line(line)
    await client.term.wait_for(AT_TABLE)
    await client.term.wait_for("f1 help")


async def seat_alice_and_bob(service: Service) -> tuple[Client, Client, int]:
    alice = await sign_in(service, "alice")
    await enter(alice, "new 6 free free loyal loyal loyal")
    (table_id,) = [t.id for t in service.lobby.seats_of("alice")]
    bob = await sign_in(service, "bob")
    await enter(bob, f"join {table_id} 2")
    table = service.lobby.tables[table_id]
    assert table.seat_of_player("alice") == 0 and table.seat_of_player("bob") == 1
    await alice.line("start")  # (the table waited for its players)
    await eventually(lambda: table.started, what="the start")
    return alice, bob, table_id


def check_streams(clients: dict[str, Client], may: dict[str, set[str]], tokens: set[str]) -> None:
    """Each viewer received exactly the tokens they may read, and none of the others."""
    for name, client in clients.items():
        seen = client.term.plain_bytes()
        got = {t for t in tokens if t in seen}
        assert got == may[name], f"{name} received {sorted(got)}, may read {sorted(may[name])}"

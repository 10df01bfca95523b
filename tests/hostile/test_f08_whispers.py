"""F8: whisper history belonged to the seat, not to the player.

The audit's reproduction, over real SSH: alice and bob whisper to each other at a table, a
spectator whispers to alice's seat, alice leaves, and eve takes alice's old seat. Before the fix
eve read both players' whispers, and every spectator read every spectator's whisper.

Now a whisper records its sender and the player sitting in the seat it was sent to, and only
those two ever receive it. Checked on every byte each viewer's terminal received (escape
sequences removed), with a positive control for each token in the streams that may show it
(tests-2026-12 M7: whispers shown to everyone). Chat is kept in the store: a restart loses none.
"""

from __future__ import annotations

import asyncio

from whisper_setup import check_streams, enter, seat_alice_and_bob, sign_in

from shipwreck.config import Config
from shipwreck.server.service import Service
from shipwreck.server.ssh import LiveApps

from harness import Bystander, eventually

IN_LOBBY = "lobby command"


async def test_f08_whispers_reach_their_two_players_only(
    service: Service, bystander: Bystander
) -> None:
    """F8 and M7: who receives which whisper, byte for byte, before and after a seat changes
    hands."""
    alice, bob, table_id = await seat_alice_and_bob(service)
    table = service.lobby.tables[table_id]
    alice_char, bob_char = table.seat_name(0), table.seat_name(1)
    carol, hank = await sign_in(service, "carol"), await sign_in(service, "hank")
    for spectator in (carol, hank):
        await enter(spectator, f"watch {table_id}")

    await alice.line(f"tell {bob_char} Wq1A2Bx meet me at the stern")
    await bob.line(f"tell {alice_char} Wq2B2Ax ok I have the medkit")
    await carol.line(f"tell {alice_char} Wq3C2Ax psst")
    await alice.line("chat Wq4ALLx hello all")
    await alice.term.wait_for("Wq3C2Ax")  # the spectator's whisper reached alice's seat
    for client in (alice, bob, carol, hank):
        await client.term.wait_for("Wq4ALLx")
    await bob.term.wait_for("Wq1A2Bx")

    await alice.line("leave")
    await alice.term.wait_for("give up your seat")  # (leave asks first)
    alice.type("y")
    await alice.term.wait_for(IN_LOBBY)
    eve = await sign_in(service, "eve")
    await enter(eve, f"join {table_id} 1")
    await eventually(lambda: table.seat_of_player("eve") == 0, what="eve in alice's old seat")
    await bob.line(f"tell {alice_char} Wq5B2Ex for the new one")
    await eve.term.wait_for("Wq5B2Ex")
    # The sync point: a last table line, once it shows at the table, comes after everything
    # bob sent before it; alice (in the lobby) answers a line of her own.
    await bob.line("chat Wq6ENDx the end")
    for client in (bob, carol, hank, eve):
        await client.term.wait_for("Wq6ENDx")
    await alice.line("zqsyncq")
    await alice.term.wait_for("'zqsyncq'")

    tokens = {"Wq1A2Bx", "Wq2B2Ax", "Wq3C2Ax", "Wq4ALLx", "Wq5B2Ex", "Wq6ENDx"}
    may = {
        "alice": {"Wq1A2Bx", "Wq2B2Ax", "Wq3C2Ax", "Wq4ALLx"},
        "bob": {"Wq1A2Bx", "Wq2B2Ax", "Wq4ALLx", "Wq5B2Ex", "Wq6ENDx"},
        "carol": {"Wq3C2Ax", "Wq4ALLx", "Wq6ENDx"},
        "hank": {"Wq4ALLx", "Wq6ENDx"},
        "eve": {"Wq4ALLx", "Wq5B2Ex", "Wq6ENDx"},
        "bystander": set(),
    }
    clients = {"alice": alice, "bob": bob, "carol": carol, "hank": hank, "eve": eve}
    check_streams(clients | {"bystander": bystander.client}, may, tokens)
    for client in clients.values():
        client.close()
    bystander.check()


async def test_f08_chat_survives_a_restart(config: Config) -> None:
    """Table chat and whispers are in the store: after a restart bob's screen shows what was
    said to him and at the table, and a spectator still receives only the table's chat."""
    first = Service(config, live=LiveApps())
    await first.start()
    try:
        alice, bob, table_id = await seat_alice_and_bob(first)
        await alice.line(f"tell {first.lobby.tables[table_id].seat_name(1)} Wr1A2Bx secret")
        await alice.line("chat Wr2ALLx for all")
        await bob.term.wait_for("Wr2ALLx")
        await bob.term.wait_for("Wr1A2Bx")
        alice.close()
        bob.close()
    finally:
        await first.stop()

    second = Service(config, live=LiveApps())
    await second.start()
    try:
        assert second.restored == 1
        bob = await sign_in(second, "bob")
        await bob.line(f"open {table_id}")
        await bob.term.wait_for("Wr1A2Bx")
        await bob.term.wait_for("Wr2ALLx")
        carol = await sign_in(second, "carol")
        await enter(carol, f"watch {table_id}")
        await carol.term.wait_for("Wr2ALLx")
        await asyncio.sleep(0.3)
        assert "Wr1A2Bx" not in carol.term.plain_bytes()
        bob.close()
        carol.close()
    finally:
        await second.stop()

"""Spectators whisper (play-test: they could not): ``tell NAME TEXT`` from one spectator to
another of the same table, from a spectator to a player and back, over real SSH. Each whisper
reaches its two people only, checked on every byte each terminal received, with a positive
control for each token (the F8 method: test_f08_whispers.py)."""

from __future__ import annotations

import asyncio

from whisper_setup import check_streams, enter, seat_alice_and_bob, sign_in

from shipwreck.server.service import Service

from harness import Bystander, eventually


async def test_spectators_whisper_to_each_other_and_to_players_privately(
    service: Service, bystander: Bystander
) -> None:
    alice, bob, table_id = await seat_alice_and_bob(service)
    table = service.lobby.tables[table_id]
    carol, hank, eve = [await sign_in(service, n) for n in ("carol", "hank", "eve")]
    for spectator in (carol, hank, eve):
        await enter(spectator, f"watch {table_id}")
    await eventually(lambda: set(table.watchers) == {"carol", "hank", "eve"}, what="watchers")

    await carol.line("tell hank Ws1C2Hx the stern looks weak")  # spectator -> spectator
    await hank.line("tell carol Ws2H2Cx agreed")
    await carol.line("tell alice Ws3C2Ax psst")  # spectator -> player, by name
    await alice.line("tell carol Ws4A2Cx thanks")  # player -> spectator
    await bob.line("say Ws5ALLx hello all")
    for client in (alice, bob, carol, hank, eve):
        await client.term.wait_for("Ws5ALLx")
    await hank.term.wait_for("Ws1C2Hx")
    await carol.term.wait_for("Ws2H2Cx")
    await carol.term.wait_for("Ws4A2Cx")
    await alice.term.wait_for("Ws3C2Ax")
    assert "carol (watching) → hank (watching):" in hank.term.text()  # (the chat panel wraps)
    await asyncio.sleep(0.5)  # anything else on its way to anyone has arrived

    tokens = {"Ws1C2Hx", "Ws2H2Cx", "Ws3C2Ax", "Ws4A2Cx", "Ws5ALLx"}
    may = {
        "alice": {"Ws3C2Ax", "Ws4A2Cx", "Ws5ALLx"},
        "bob": {"Ws5ALLx"},
        "carol": {"Ws1C2Hx", "Ws2H2Cx", "Ws3C2Ax", "Ws4A2Cx", "Ws5ALLx"},
        "hank": {"Ws1C2Hx", "Ws2H2Cx", "Ws5ALLx"},
        "eve": {"Ws5ALLx"},
        "bystander": set(),
    }
    clients = {"alice": alice, "bob": bob, "carol": carol, "hank": hank, "eve": eve}
    check_streams(clients | {"bystander": bystander.client}, may, tokens)
    rows = service.store.chat(table_id)
    assert {(r.sender, r.to_player, r.to_seat) for r in rows if "Ws1C2Hx" in r.text} == {
        ("carol", "hank", None)
    }, "the whisper is kept as a whisper"

    await hank.line("lobby")  # hank stops watching: a whisper to him is refused, not said
    await eventually(lambda: "hank" not in table.watchers, what="hank gone")
    await carol.line("tell hank Ws6C2Hx still there?")
    await carol.term.wait_for("is not at this table")
    assert all("Ws6C2Hx" not in r.text for r in service.store.chat(table_id))
    for client in clients.values():
        client.close()
    await eventually(lambda: not table.watchers, what="closed sessions stop watching")
    bystander.check()

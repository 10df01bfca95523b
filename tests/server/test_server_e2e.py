"""The product end to end: ``shipwreck serve`` on 127.0.0.1, real SSH clients with PTYs, a
whole game of Lifeboat typed by two players who read their screens (drawn by pyte)."""

from __future__ import annotations

import asyncio
import random
import time

import asyncssh
import pytest

from shipwreck.server.service import Service

from sshclient import (
    ANN_KEY,
    Client,
    assert_nothing_hidden_leaked,
    choices_shown,
    eventually,
    open_terminal,
    run,
)

BOB_KEY = asyncssh.generate_private_key("ssh-ed25519")
OTHER_KEY = asyncssh.generate_private_key("ssh-ed25519")


def choices_on_screen(client: Client) -> list[str]:
    """The choices line as the player sees it."""
    return choices_shown(client.term.text())


async def test_sign_in_registers_the_key_and_shows_it(service: Service) -> None:
    ann = await open_terminal(service.port, "ann", ANN_KEY)
    await ann.term.wait_for("signed in as ann (SHA256:")
    assert service.store.player("ann") is not None
    ann.close()


async def test_another_key_for_a_taken_name_is_refused_with_the_reason(service: Service) -> None:
    ann = await open_terminal(service.port, "ann", ANN_KEY)
    await ann.term.wait_for("signed in as ann")
    ann.close()
    thief = await open_terminal(service.port, "ann", OTHER_KEY)
    await thief.term.wait_for("belongs to another key")
    await asyncio.wait_for(thief.term.closed.wait(), 15)


async def test_two_players_play_a_whole_game_over_ssh(service: Service) -> None:
    ann = await open_terminal(service.port, "ann", ANN_KEY)
    bob = await open_terminal(service.port, "bob", BOB_KEY)
    await ann.term.wait_for("signed in as ann")
    await bob.term.wait_for("signed in as bob")
    await ann.line("new 6 free survivor loyal predator hoarder")
    await ann.term.wait_for("table 1 · lifeboat · you are")
    await bob.term.wait_for("H.BBBB")  # the lobby updates itself: ann's table, one free seat
    await bob.line("join 1")
    await bob.term.wait_for("table 1 · lifeboat · you are")
    await ann.term.wait_for("every seat is taken")  # the table waits for ann's start
    await ann.line("start")

    table = service.lobby.get(1)
    assert table is not None
    seats = {"ann": table.seat_of_player("ann"), "bob": table.seat_of_player("bob")}
    pick = random.Random(4)
    for _ in range(2000):
        if table.over:
            break
        acted = False
        for client in (ann, bob):
            options = choices_on_screen(client)
            if options:
                before = len(table.commands)
                await asyncio.sleep(0.12)  # a person: under the server's 10 commands a second
                await client.line(pick.choice(options))
                for _ in range(25):  # wait until the server took it (or refused it)
                    if len(table.commands) > before:
                        break
                    await asyncio.sleep(0.02)
                acted = True
        if not acted:
            await asyncio.sleep(0.05)
        assert_nothing_hidden_leaked(table, {ann: seats["ann"], bob: seats["bob"]})
    assert table.over, "the game did not reach its end"
    await ann.term.wait_for("land! final scores")
    await bob.term.wait_for("land! final scores")
    ann.close()
    bob.close()


async def test_bot_check_and_save_over_ssh(service: Service) -> None:
    good = 'bot "Mine" for lifeboat\non turn:\n    else -> row\n'
    bad = 'bot "Mine" for lifeboat\non turn:\n    when me.wonds > 1 -> row\n'
    ok = await run(service, "ann", ANN_KEY, "bot check", good)
    assert ok.exit_status == 0 and "ok" in ok.stdout
    wrong = await run(service, "ann", ANN_KEY, "bot check", bad)
    assert wrong.exit_status == 1
    assert "stdin:3:" in wrong.stdout and "did you mean 'wounds'" in wrong.stdout
    saved = await run(service, "ann", ANN_KEY, "bot save autopilot", good)
    assert saved.exit_status == 0 and "saved" in saved.stdout
    assert service.store.bot("ann", "autopilot") == good
    refused = await run(service, "ann", ANN_KEY, "bot save autopilot", bad)
    assert refused.exit_status == 1 and service.store.bot("ann", "autopilot") == good


async def test_other_commands_and_oversized_input_are_refused(service: Service) -> None:
    shell = await run(service, "ann", ANN_KEY, "sh -c id", "")
    assert shell.exit_status == 2 and "unknown command" in shell.stdout
    huge = "#" * (service.config.limits.bot_script_bytes + 10)
    big = await run(service, "ann", ANN_KEY, "bot check", huge)
    assert big.exit_status == 1 and "larger than" in big.stderr


async def test_sessions_per_key_are_limited(service: Service) -> None:
    limit = service.config.limits.sessions_per_key
    clients = [await open_terminal(service.port, "ann", ANN_KEY) for _ in range(limit)]
    for c in clients:
        await c.term.wait_for("signed in as ann")
    extra = await open_terminal(service.port, "ann", ANN_KEY)
    await extra.term.wait_for(f"this key already has {limit} sessions open")
    clients[0].close()
    by_key = ANN_KEY.get_fingerprint("sha256")
    await eventually(
        lambda: service.open_sessions()[0].get(by_key) == limit - 1, what="the slot was freed"
    )
    again = await open_terminal(service.port, "ann", ANN_KEY)
    await again.term.wait_for("signed in as ann")
    for c in [*clients[1:], extra, again]:
        c.close()


async def test_a_flood_of_commands_is_slowed_down(service: Service) -> None:
    ann = await open_terminal(service.port, "ann", ANN_KEY)
    await ann.term.wait_for("signed in as ann")
    start = time.monotonic()
    ann.type("say hi\r" * 40)
    await ann.term.wait_for("slow down: at most")
    said = len(service.lobby.chat)
    seconds = time.monotonic() - start
    # At most N lines in any one second: over ``seconds`` (a busy machine stretches the flood
    # over several), at most N for each second begun. Fast, that is N, not the 40 typed.
    limit = service.config.limits.commands_per_second
    assert said <= limit * (int(seconds) + 1), (said, seconds)
    assert said < 40
    ann.close()


async def test_a_name_tried_with_wrong_keys_is_locked_for_a_while(service: Service) -> None:
    from shipwreck.server.service import REFUSALS_BEFORE_LOCK

    ann = await open_terminal(service.port, "ann", ANN_KEY)
    await ann.term.wait_for("signed in as ann")
    ann.close()
    for _ in range(REFUSALS_BEFORE_LOCK):
        thief = await open_terminal(service.port, "ann", OTHER_KEY)
        await thief.term.wait_for("belongs to another key")
        thief.close()
    with pytest.raises(asyncssh.PermissionDenied):
        await open_terminal(service.port, "ann", OTHER_KEY)
    owner = await open_terminal(service.port, "ann", ANN_KEY)  # the owner is not locked out
    await owner.term.wait_for("signed in as ann")
    owner.close()


async def test_a_new_player_may_not_sign_up_as_bot_but_an_existing_one_keeps_it(
    service: Service,
) -> None:
    bot = await open_terminal(service.port, "bot", ANN_KEY)
    await bot.term.wait_for("reads like a seat or a bot's name")
    await asyncio.wait_for(bot.term.closed.wait(), 15)
    assert service.store.player("bot") is None
    fingerprint = ANN_KEY.export_public_key().decode()  # (a database made before the rule)
    pub = asyncssh.import_public_key(fingerprint)
    service.store.db.execute(
        "INSERT INTO players (name, fingerprint, public_key, created, skeleton) VALUES (?,?,?,?,?)",
        ("random", pub.get_fingerprint(), fingerprint, 0.0, "random"),
    )
    old = await open_terminal(service.port, "random", ANN_KEY)
    await old.term.wait_for("signed in as random")

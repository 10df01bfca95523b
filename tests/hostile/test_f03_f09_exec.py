"""Audit F3 (``ssh host bot check`` linted a 64 KB script on the event loop, unlimited) and F9
(``bot save`` took any name, for any user name, without limit), and the audit's last bullet
(a command's input waited in memory for an EOF that never came)."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from clients import connect, report, run

from shipwreck.config import Config
from shipwreck.server.service import BUSY, Service

from harness import BYSTANDER_KEY, Bystander, eventually

ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")
EVE_KEY = asyncssh.generate_private_key("ssh-ed25519")
GOOD = 'bot "Mine" for lifeboat\non turn:\n    else -> row\n'
CONNECTIONS, AT_ONCE = 8, 5


def big_script(limit: int) -> str:
    """The audit's script: rules ``when me.wounds > N and friend != none -> row`` to ~64 KB."""
    lines = ['bot "Big" for lifeboat', "on turn:"]
    size = 0
    while size < limit - 1600:
        line = f"    when me.wounds > {len(lines) % 9} and friend != none -> row"
        lines.append(line)
        size += len(line) + 1
    return "\n".join([*lines, "    else -> row", ""])


@pytest.fixture
def open_limits(config: Config) -> Config:
    """Session and rate limits out of the way: what is left to stop the attack is the pool."""
    config.limits.sessions_per_key = 100
    config.limits.sessions_per_address = 100
    config.limits.exec_burst = 1000
    config.limits.exec_per_minute = 6000
    return config


async def test_big_bot_checks_run_in_workers_off_the_event_loop(
    open_limits: Config, service: Service, bystander: Bystander
) -> None:
    """8 connections x 5 concurrent ``bot check`` of a 64 KB script: the checks run in the
    worker pool (at most lint_workers + lint_queue at once; the rest are told the server is
    busy) and the bystander's round trip stays under a second."""
    script = big_script(service.config.limits.bot_script_bytes)
    assert 60_000 < len(script.encode()) <= service.config.limits.bot_script_bytes

    async def check(conn: asyncssh.SSHClientConnection) -> tuple[int, str]:
        try:
            done = await conn.run("bot check", input=script)
        except asyncssh.ChannelOpenError:  # the 5th session of a connection (4 at most)
            return (-1, "refused")
        return (int(done.exit_status or 0), str(done.stdout) + str(done.stderr))

    async def attacker(i: int) -> list[tuple[int, str]]:
        async with await connect(service.port, f"mal{i}", EVE_KEY) as conn:
            return await asyncio.gather(*(check(conn) for _ in range(AT_ONCE)))

    groups = await asyncio.gather(*map(attacker, range(CONNECTIONS)))
    results = [r for group in groups for r in group]
    checked = results.count((0, "stdin: ok\n"))
    busy = results.count((1, f"shipwreck: {BUSY}\n"))
    refused = results.count((-1, "refused"))
    report(
        f"F3: {checked} checked, {busy} busy, {refused} channels refused; "
        f"bystander worst {bystander.worst * 1000:.0f} ms"
    )
    assert checked + busy + refused == CONNECTIONS * AT_ONCE, results
    assert refused <= CONNECTIONS * (AT_ONCE - 4)
    limits = service.config.limits
    assert checked >= 1 and busy >= 1  # the pool ran some, and said so when it was full
    assert checked + busy > limits.lint_workers + limits.lint_queue
    assert service.lint.pending == 0
    bystander.check()


@pytest.fixture
def slow_refill(config: Config) -> Config:
    """One command a minute after the burst: none comes back while the test runs."""
    config.limits.exec_per_minute = 1
    return config


async def test_commands_are_rate_limited_per_key_and_per_address(
    slow_refill: Config, service: Service, bystander: Bystander
) -> None:
    """Past exec_burst checks, one key is told when to come back; so is another key from the
    same address. (A command that does no work, like an unknown one, is answered regardless.)"""
    burst = service.config.limits.exec_burst
    for _ in range(burst):
        done = await run(service.port, "ann", ANN_KEY, "bot check", GOOD)
        assert done.exit_status == 0 and done.stdout == "stdin: ok\n"
    late = await run(service.port, "ann", ANN_KEY, "bot check", GOOD)
    assert late.exit_status == 1
    assert late.stderr.startswith("shipwreck: too many commands; try again in ")
    assert late.stderr.rstrip().endswith(" s")
    same_address = await run(service.port, "eve", EVE_KEY, "bot save mine", GOOD)
    assert "too many commands" in same_address.stderr
    unknown = await run(service.port, "ann", ANN_KEY, "bot", "")
    assert unknown.exit_status == 2 and "unknown command" in unknown.stdout
    bystander.check()


async def test_bot_names_and_counts_are_capped(
    open_limits: Config, service: Service, bystander: Bystander
) -> None:
    """Saved bot names match [a-z0-9_]{1,32}; the 21st bot is refused, replacing one is not."""
    for name in ("Rower", "a.b", "../x", "jörg", "a" * 33, "x'--", "a-b"):
        done = await run(service.port, "ann", ANN_KEY, f"bot save {name}", GOOD)
        assert done.exit_status == 2, name
        assert "NAME is lower-case letters, digits and _ (a-z, 0-9, _; up to 32)" in done.stdout
    cap = service.config.limits.bots_per_player
    for i in range(cap):
        done = await run(service.port, "ann", ANN_KEY, f"bot save b{i}", GOOD)
        assert done.exit_status == 0, done.stdout
    extra = await run(service.port, "ann", ANN_KEY, "bot save one_more", GOOD)
    assert extra.exit_status == 1 and f"you have {cap} saved bots" in extra.stdout
    assert service.store.bot("ann", "one_more") is None
    again = await run(service.port, "ann", ANN_KEY, "bot save b0", GOOD + "# v2\n")
    assert again.exit_status == 0 and service.store.bot("ann", "b0") == GOOD + "# v2\n"
    assert service.store.bot_count("ann") == cap
    bystander.check()


async def test_commands_refuse_wrong_keys_and_count_toward_the_lock(
    service: Service, bystander: Bystander
) -> None:
    """``bot check`` and ``bot save`` as someone else's name are refused like a sign-in (no
    fingerprint shown), and five of them lock the name against other keys."""
    from shipwreck.server.service import REFUSALS_BEFORE_LOCK

    assert (await run(service.port, "ann", ANN_KEY, "bot save mine", GOOD)).exit_status == 0
    for i in range(REFUSALS_BEFORE_LOCK):
        command = "bot check" if i % 2 else "bot save mine"
        done = await run(service.port, "ann", EVE_KEY, command, GOOD)
        text = done.stdout + done.stderr
        assert done.exit_status == 1 and "belongs to another key" in text
        assert "SHA256:" not in text
    with pytest.raises(asyncssh.PermissionDenied):
        await run(service.port, "ann", EVE_KEY, "bot check", GOOD)
    assert service.store.bot("ann", "mine") == GOOD
    owner = await run(service.port, "ann", ANN_KEY, "bot check", GOOD)
    assert owner.exit_status == 0
    bystander.check()


@pytest.fixture
def short_input_time(config: Config) -> Config:
    config.limits.exec_input_seconds = 2
    return config


async def test_command_input_is_bounded_in_bytes_and_in_time(
    short_input_time: Config, service: Service, bystander: Bystander
) -> None:
    """A script's size counts UTF-8 bytes, and a command whose input never ends is closed after
    exec_input_seconds (its slot released)."""
    limit = service.config.limits.bot_script_bytes
    wide = "é" * (limit // 2 + 10)  # fewer characters than the limit, more bytes
    big = await run(service.port, "ann", ANN_KEY, "bot check", wide)
    assert big.exit_status == 1 and f"larger than {limit} bytes" in big.stderr

    async with await connect(service.port, "ann", ANN_KEY) as conn:
        process = await conn.create_process("bot check")
        process.stdin.write('bot "Half" for lifeboat\n')
        mine = BYSTANDER_KEY.get_fingerprint("sha256")
        await eventually(lambda: len(service.open_sessions()[0]) == 2, what="the command is open")
        assert mine in service.open_sessions()[0]
        seconds = short_input_time.limits.exec_input_seconds
        done = await asyncio.wait_for(process.wait(), seconds + 10)
        assert done.exit_status == 1
        assert f"no end of input within {seconds} s" in str(done.stderr)
    await eventually(
        lambda: service.open_sessions() == ({mine: 1}, {"127.0.0.1": 1}),
        what="the command's slot released",
    )
    bystander.check()

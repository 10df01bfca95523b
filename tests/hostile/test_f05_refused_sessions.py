"""Audit F5: every refused session ran a whole Textual app for 5 s, counted against nothing."""

from __future__ import annotations

import asyncio
import contextlib
import gc

import asyncssh
import pytest
from clients import connect, report, rss_bytes

from shipwreck.server.service import Service

from harness import BYSTANDER_KEY, Bystander, eventually
from sshclient import Terminal

MALLORY_KEY = asyncssh.generate_private_key("ssh-ed25519")
OWNER_KEY = asyncssh.generate_private_key("ssh-ed25519")
BAD_NAMES = 100
TAKEN_CONNECTIONS = 25  # x 4 sessions each = 100 sessions asking for names others own
RSS_GROWTH = 20 * 1024 * 1024


async def test_a_name_that_can_never_be_valid_fails_at_authentication(service: Service) -> None:
    """No session, so no app, for ``bad.name``, ``jörg``, SQL or a path as a user name."""
    for name in ("bad.name1", "jörg", "аlice", "x' OR '1'='1", "a.b/../c", "a" * 33):
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(service.port, name, MALLORY_KEY)
    assert service.live.started_total == 0


async def test_two_hundred_refused_sessions_start_no_app(
    service: Service, bystander: Bystander
) -> None:
    """100 connections with invalid names and 100 sessions asking for taken names, opened
    together: no app starts for any of them, each taken-name session is told why in one line
    and closed, memory stays put, the bystander is not slowed, and the counts come back."""
    owners = [f"owner{i}" for i in range(20)]
    for name in owners:
        assert service.store.identify(name, OWNER_KEY.get_fingerprint("sha256"), "k").ok
    gc.collect()
    before = rss_bytes()

    async def bad_name(i: int) -> str:
        try:
            await connect(service.port, f"bad.name{i}", MALLORY_KEY)
        except asyncssh.PermissionDenied:
            return "denied"
        return "let in"

    async def taken_names(i: int) -> list[str]:
        try:
            conn = await connect(service.port, owners[i % len(owners)], MALLORY_KEY)
        except asyncssh.PermissionDenied:  # (the name is locked after 5 wrong keys)
            return ["denied"] * 4
        async with conn:
            terms = [Terminal(80, 24) for _ in range(4)]
            for term in terms:
                with contextlib.suppress(asyncssh.ChannelOpenError):
                    await conn.create_session(
                        lambda t=term: t, term_type="xterm", term_size=(80, 24), encoding=None
                    )
            await asyncio.gather(*(asyncio.wait_for(t.closed.wait(), 10) for t in terms))
            return [t.plain_bytes().strip() for t in terms]

    bad, taken = await asyncio.gather(
        asyncio.gather(*(bad_name(i) for i in range(BAD_NAMES))),
        asyncio.gather(*(taken_names(i) for i in range(TAKEN_CONNECTIONS))),
    )
    answers = [a for group in taken for a in group]
    assert bad == ["denied"] * BAD_NAMES
    assert len(answers) == 4 * TAKEN_CONNECTIONS
    told = [a for a in answers if a != "denied"]
    assert told, "no taken-name session got as far as a refusal"
    for answer in told:  # one line, saying why, no owner's key
        assert answer.count("\n") == 0 and answer.startswith("shipwreck: "), answer
        assert "belongs to another key" in answer or "sessions open" in answer, answer
        assert "SHA256:" not in answer
    assert service.live.started_total == 1 and service.live.peak == 1  # the bystander's only

    mine = BYSTANDER_KEY.get_fingerprint("sha256")
    await eventually(
        lambda: service.open_sessions() == ({mine: 1}, {"127.0.0.1": 1}),
        what=f"counts back to the bystander's own; now {service.open_sessions()}",
    )
    gc.collect()
    grown = rss_bytes() - before
    report(
        f"F5: {len(told)} told, {answers.count('denied')} denied; RSS +{grown / 2**20:.1f} MiB; "
        f"bystander worst {bystander.worst * 1000:.0f} ms"
    )
    assert grown < RSS_GROWTH, f"RSS grew {grown / 2**20:.1f} MiB"
    bystander.check()

"""Audit F2: session slots leaked when a session ended before its app started, locking out a
key (and then a whole address) until a restart."""

from __future__ import annotations

import asyncio

import asyncssh
from clients import connect, shell_with_eof

from shipwreck.server.service import Service

from harness import BYSTANDER_KEY, Bystander, eventually
from sshclient import open_terminal

CAROL_KEY = asyncssh.generate_private_key("ssh-ed25519")
TRIES = 50
AT_ONCE = 5


async def test_sessions_ending_with_their_shell_request_leave_no_slot_behind(
    service: Service, bystander: Bystander
) -> None:
    """50 sessions that send EOF together with the shell request (``ssh -tt </dev/null``), 5 at
    a time: each channel is closed by the server, the counts go back to the bystander's own,
    and carol then signs in normally from the same key and address."""
    carol_fp = CAROL_KEY.get_fingerprint("sha256")
    mine = BYSTANDER_KEY.get_fingerprint("sha256")

    async def one() -> None:
        async with await connect(service.port, "carol", CAROL_KEY) as conn:
            term = await shell_with_eof(conn)
            await asyncio.wait_for(term.closed.wait(), 10)  # the server closed it: no hang

    for _ in range(TRIES // AT_ONCE):
        await asyncio.gather(*(one() for _ in range(AT_ONCE)))

    by_key, by_address = service.open_sessions()
    await eventually(
        lambda: service.open_sessions() == ({mine: 1}, {"127.0.0.1": 1}),
        what=f"counts back to the bystander's own; now {service.open_sessions()}",
    )
    assert service.live.count == 1  # the bystander's app only

    carol = await open_terminal(service.port, "carol", CAROL_KEY)
    await carol.term.wait_for("signed in as carol")
    assert service.open_sessions()[0].get(carol_fp) == 1
    carol.close()
    await eventually(
        lambda: service.open_sessions() == ({mine: 1}, {"127.0.0.1": 1}),
        what="carol's count released when she left",
    )
    bystander.check()

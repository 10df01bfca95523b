"""F11: Unicode format characters reached other players' terminals; F12: Unicode digits
(``new ²``) crashed the typist's session and flooded the log with tracebacks."""

from __future__ import annotations

import asyncio
import logging
import unicodedata

import asyncssh
import pytest

from shipwreck.server.service import Service

from harness import Bystander
from sshclient import open_terminal

MALLORY_KEY = asyncssh.generate_private_key("ssh-ed25519")
BIDI_AND_INVISIBLE = "\u202e\u2066\u2067\u2068\u2069\u200b\u200d\u2060\ufeff\ue000"


async def test_f11_format_characters_never_reach_another_player(
    service: Service, bystander: Bystander
) -> None:
    mallory = await open_terminal(service.port, "mallory", MALLORY_KEY)
    await mallory.term.wait_for("signed in as mallory")
    mallory.type(f"say evil{BIDI_AND_INVISIBLE}gnirts\r")
    await asyncio.sleep(0.2)
    mallory.type("say zalgo" + "e" + "\u0301" * 300 + "end\r")
    await bystander.client.term.wait_for("zalgo")
    await bystander.client.term.wait_for("evilgnirts")
    seen = bystander.client.term.raw.decode("utf-8", "replace")
    assert not set(seen) & set(BIDI_AND_INVISIBLE)
    run = max(
        (
            len(s)
            for s in "".join(
                "M" if unicodedata.category(c).startswith("M") else " " for c in seen
            ).split()
        ),
        default=0,
    )
    assert run <= 2, f"{run} combining marks in a row reached the bystander"
    said = [c.text for c in service.lobby.chat if c.sender == "mallory"]
    assert said == ["evilgnirts", "zalgoe" + "\u0301" * 2 + "end"]
    mallory.close()
    bystander.check()


@pytest.mark.parametrize("line", ["new ²", "join ²", "watch ¹", "open ³", "new sm ³", "join 1 ²"])
async def test_f12_unicode_digits_are_a_clean_error(
    service: Service, line: str, caplog: pytest.LogCaptureFixture
) -> None:
    mallory = await open_terminal(service.port, "mallory", MALLORY_KEY)
    await mallory.term.wait_for("signed in as mallory")
    with caplog.at_level(logging.WARNING):
        mallory.type(line + "\r")
        await asyncio.sleep(0.3)
        mallory.type("say still-here\r")
        await mallory.term.wait_for("mallory: still-here")
    text = mallory.term.text()
    assert "internal error" not in mallory.term.plain_bytes()
    assert any(hint in text for hint in ("not a seat count", "which table", "no table")), text
    assert service.lobby.tables == {}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    mallory.close()

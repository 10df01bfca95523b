"""What a player reads when they cannot sign in, over real SSH (OpenSSH's ``ssh`` and asyncssh):
a refusal stays on the normal screen (standard error, no Textual app: F5) with a non-zero
exit status and no fingerprint of the owner's key (F16); a client without a key is told how to
make one; and a session whose input ends (``ssh -tt ... </dev/null``) ends, the client too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
import pytest

from shipwreck.server.service import Service

from sshclient import BOB, key_file, needs_ssh, open_terminal, ssh

ANN = asyncssh.generate_private_key("ssh-ed25519")
ALT_SCREEN = b"\x1b[?1049h"
"""What a Textual app sends first: the terminal's alternate screen."""


async def register_ann(service: Service) -> None:
    client = await open_terminal(service.port, "ann", ANN)
    await client.term.wait_for("signed in as ann")
    client.close()
    for _ in range(100):  # her session ends on the server (so a count after it is the refusal's)
        if service.live.count == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"ann's closed session is still live: {service.live.count}")


@needs_ssh
async def test_a_taken_name_is_refused_on_stderr_with_a_failing_status(
    service: Service, tmp_path: Path
) -> None:
    """F5, F16 and the play-test's problem 9: bob's key for ann's name."""
    await register_ann(service)
    bob = key_file(tmp_path, BOB, "bob_key")
    status, out, err = await ssh(service.port, "ann", tmp_path, "-tt", "-i", str(bob))
    text = err.decode()
    assert status == 1
    assert "shipwreck: the name 'ann' belongs to another key" in text
    assert "pick another name" in text
    assert ALT_SCREEN not in out + err  # no app: the line stays on the normal screen
    assert "SHA256:" not in text and "SHA256:" not in out.decode()  # F16
    assert service.live.count == 0


@needs_ssh
async def test_a_client_without_a_key_is_told_to_make_one(service: Service, tmp_path: Path) -> None:
    status, _out, err = await ssh(
        service.port, "dora", tmp_path, "-o", "PubkeyAuthentication=no", "-o", "BatchMode=no"
    )
    text = err.decode()
    assert status == 255  # refused: nobody signs in without a key
    assert "ssh-keygen -t ed25519" in text
    assert text.count("ssh-keygen") == 1  # once, though OpenSSH would ask three times
    assert "Permission denied" in text
    assert service.store.player("dora") is None


@needs_ssh
async def test_a_refused_key_is_told_why_without_naming_the_owner(
    service: Service, tmp_path: Path
) -> None:
    """A key refused before any session (a name that cannot be one) is told what a name is."""
    bob = key_file(tmp_path, BOB, "bob_key")
    status, _out, err = await ssh(service.port, "no.dots", tmp_path, "-i", str(bob))
    text = err.decode()
    assert status == 255
    assert "'no.dots' is not a name here: use letters, digits, - and _" in text
    assert "ssh-keygen" not in text


async def test_asyncssh_reads_the_hint_as_a_challenge_without_prompts(service: Service) -> None:
    """The hint is a keyboard-interactive challenge with no prompts: it asks for nothing, and
    never signs anyone in."""
    seen: list[tuple[str, str, list[tuple[str, bool]]]] = []

    class Client(asyncssh.SSHClient):
        def kbdint_auth_requested(self) -> str:
            return ""

        def kbdint_challenge_received(
            self, name: str, instructions: str, lang: str, prompts: list[tuple[str, bool]]
        ) -> list[str]:
            seen.append((name, instructions, prompts))
            return []

    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect(
            "127.0.0.1",
            service.port,
            username="dora",
            client_keys=None,
            known_hosts=None,
            config=None,
            agent_path=None,
            client_factory=Client,
            preferred_auth="keyboard-interactive",
        )
    assert len(seen) == 1
    name, instructions, prompts = seen[0]
    assert name == "shipwreck" and prompts == []
    assert "ssh-keygen -t ed25519" in instructions


@needs_ssh
async def test_a_session_whose_input_ends_ends(service: Service, tmp_path: Path) -> None:
    """``ssh -tt ... </dev/null``: the server ends the session at the input's EOF and the
    client exits by itself (it hung in the play-test)."""
    ann = key_file(tmp_path, ANN, "ann_key")
    for _ in range(3):  # the EOF comes before the app has started, or after
        status, out, err = await ssh(
            service.port, "ann", tmp_path, "-tt", "-i", str(ann), timeout=15.0
        )  # (a client that hangs fails here)
        assert status == 0, (out[-300:], err)
        await service.live.wait_for(0)

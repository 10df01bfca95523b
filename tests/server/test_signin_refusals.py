"""Sign-in refusals over real SSH on 127.0.0.1 (play-test #9 and its follow-up): a taken name
is the first thing said, also to a client without a terminal (``ssh -T``, ``ssh host cmd``),
and the other name it suggests is a whole command to copy, with ``-p PORT`` off port 22."""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

import asyncssh
import pytest

from shipwreck.server.service import Service
from shipwreck.server.ssh import NO_PTY_MESSAGE

from sshclient import TIMEOUT, connect, loopback_config, open_terminal, run_openssh, running

ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")
OTHER_KEY = asyncssh.generate_private_key("ssh-ed25519")
SUGGESTED = re.compile(r"e\.g\. (ssh .+?)(?:\s*$|\r|\n)")


async def register(service: Service, name: str, key: asyncssh.SSHKey) -> None:
    client = await open_terminal(service.port, name, key)
    await client.term.wait_for(f"signed in as {name}")
    client.close()


def suggested_command(text: str) -> list[str]:
    m = SUGGESTED.search(text)
    assert m is not None, text
    return m.group(1).split()


async def test_a_taken_name_is_refused_before_the_missing_terminal(service: Service) -> None:
    """``ssh -T`` (a shell, no PTY) and ``ssh host play`` with another key for 'ann': the
    refusal says the name is taken, not that a terminal is needed; the exit status is not 0.
    The same key with a free name and no PTY is told it needs a terminal, and that session
    does not take the name."""
    await register(service, "ann", ANN_KEY)
    async with await connect(service.port, "ann", OTHER_KEY) as conn:
        shell = await conn.run(check=False)  # a shell request, no PTY
        assert "belongs to another key" in str(shell.stderr), shell.stderr
        assert "terminal" not in str(shell.stderr)
        assert shell.exit_status not in (0, None)
        command = await conn.run("play", check=False)
        assert "belongs to another key" in str(command.stderr), command.stderr
        assert command.exit_status not in (0, None)
    async with await connect(service.port, "newcomer", OTHER_KEY) as conn:
        shell = await conn.run(check=False)
        assert shell.stderr == NO_PTY_MESSAGE and shell.exit_status == 1
    assert service.store.player("newcomer") is None, "a refused session took the name"


async def test_the_other_name_suggested_is_a_whole_command_with_the_port(service: Service) -> None:
    """The server listens on a free port (not 22): the suggestion reads
    ``ssh -p PORT ann2@127.0.0.1``, and typed as shown (its name, port and host) it signs in."""
    await register(service, "ann", ANN_KEY)
    thief = await open_terminal(service.port, "ann", OTHER_KEY)
    await thief.term.wait_for("belongs to another key")
    await asyncio.wait_for(thief.term.closed.wait(), TIMEOUT)
    argv = suggested_command(thief.term.plain_bytes())
    assert argv[:3] == ["ssh", "-p", str(service.port)], argv
    name, host = argv[3].split("@")
    assert host == "127.0.0.1" and name != "ann"
    other = await open_terminal(int(argv[2]), name, OTHER_KEY)
    await other.term.wait_for(f"signed in as {name}")
    other.close()


def test_the_command_leaves_out_port_22_and_uses_the_public_host(tmp_path: Path) -> None:
    """On port 22 the command has no ``-p``; ``[server] public_host`` is the host shown."""
    config = loopback_config(tmp_path)
    service = Service(config)
    try:
        assert service.sign_in_command("ann2", ("10.0.0.5", 22)) == "ssh ann2@10.0.0.5"
        assert service.sign_in_command("ann2", ("::ffff:10.0.0.5", 2311)) == (
            "ssh -p 2311 ann2@10.0.0.5"
        )
        config.server.public_host = "sea.example.org"
        assert service.sign_in_command("ann2", ("10.0.0.5", 2311)) == (
            "ssh -p 2311 ann2@sea.example.org"
        )
        hint = service.auth_hint("ann", True, ("10.0.0.5", 2311))
        assert "e.g. ssh -p 2311 ann" in hint and "@sea.example.org" in hint
        no_key = service.auth_hint("ann", False, ("10.0.0.5", 2311))
        assert "ssh-keygen" in no_key and no_key.endswith("ssh -p 2311 ann@sea.example.org")
    finally:
        service.store.close()
        service.lobby.close()
        service.lint.close()


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH's ssh is not installed")
async def test_openssh_without_a_terminal_reads_the_refusal_and_fails(tmp_path: Path) -> None:
    """Real OpenSSH, ``ssh -T -p PORT ann@127.0.0.1`` with the wrong key: its stderr says the
    name is taken with the whole command to use instead, and ssh exits non-zero."""
    async with running(loopback_config(tmp_path)) as service:
        await register(service, "ann", ANN_KEY)
        status, _out, text = await run_openssh(service.port, "ann", OTHER_KEY, tmp_path)
        assert "belongs to another key" in text and "terminal" not in text, text
        assert f"ssh -p {service.port} ann" in text and "@127.0.0.1" in text, text
        assert status not in (0, None)

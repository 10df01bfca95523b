"""Real asyncssh clients that do what the audit's attackers did (server-layer findings)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import asyncssh

from sshclient import Terminal, connect


async def run(port: int, username: str, key: asyncssh.SSHKey, command: str, data: str) -> Any:
    """``ssh NAME@host COMMAND < data``: the completed process (stdout, stderr, exit_status),
    also when the server refuses the command before it has read the input."""
    async with await connect(port, username, key) as conn:
        process = await conn.create_process(command)
        try:
            process.stdin.write(data)
            process.stdin.write_eof()
        except BrokenPipeError:  # refused at once: the answer is already on its way
            pass
        return await process.wait()


class EofWithShell(Terminal):
    """A session whose client sends EOF right behind its shell request, before the server has
    answered it: what ``ssh -tt NAME@host </dev/null`` does (audit F2). asyncssh's own client
    waits for each answer, so this sends the two packets itself."""

    def connection_made(self, chan: Any) -> None:
        make_request = chan._make_request

        async def shell_then_eof(request: bytes, *args: bytes) -> bool | None:
            if request != b"shell":
                return bool(await make_request(request, *args))
            answer = asyncio.get_running_loop().create_future()
            chan._request_waiters.append(answer)
            chan._send_request(b"shell", want_reply=True)
            chan.write_eof()  # in the same flush as the request
            return bool(await answer)

        chan._make_request = shell_then_eof


async def shell_with_eof(conn: asyncssh.SSHClientConnection) -> EofWithShell:
    term = EofWithShell(80, 24)
    await conn.create_session(lambda: term, term_type="xterm", term_size=(80, 24), encoding=None)
    return term


def rss_bytes() -> int:
    """This process's resident memory (the server runs in the test's process)."""
    for line in Path(f"/proc/{os.getpid()}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def report(line: str) -> None:
    """A measurement, shown with ``pytest -s`` (a running app has taken ``sys.stdout``)."""
    print(line, file=sys.__stderr__)

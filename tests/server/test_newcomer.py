"""The newcomer of issue 16, over real SSH: OpenSSH's ``ssh`` in an 80×24 pty, on a server this
test starts on 127.0.0.1, plays the Lifeboat tutorial and then a whole Lifeboat game against
bots, reading only what the screen shows (drawn by pyte from the bytes ``ssh`` prints).

It knows nothing from outside the app: the lobby's hint starts the tutorial, where it types
what the coach's panel asks; the ``rules`` screen tells it how a player scores and which cards
are treasure; the coach's last words send it to a real game, where each decision is one of the
``choices:`` line's, and a supply card is treasure if there is one. Every treasure it takes must
raise the "score now" line of its "you" panel: that is why it takes them. The game must reach
its end screen, which marks the player's row and says where it came ("… of 6")."""

from __future__ import annotations

import asyncio
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import asyncssh
import pytest

from shipwreck.server.service import Service

from sshclient import TIMEOUT, OpenSSH, Terminal, choices_shown, coach_asks, open_openssh

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None, reason="OpenSSH's ssh is not installed"
)

KEY = asyncssh.generate_private_key("ssh-ed25519")
SIZE = (80, 24)
KEYS = {"Enter": "\r", "Escape": "\x1b", "PgDn": "\x1b[6~", "f2": "\x1bOQ"}
"""What a terminal sends for the keys the screen names."""
PACE = 0.12
"""Seconds between two commands, as a person types them (the server takes at most ten a second
from one player)."""
END = "land! final scores"
SCORE_NOW = re.compile(r"score now (-?\d+)")
BOX = "│█▊▎╭╮╰╯"


async def settled(term: Terminal, ok: Callable[[str], bool] = lambda _: True) -> str:
    """The screen once it shows what ``ok`` wants and has stopped changing (a frame that
    arrives in pieces is never read half drawn)."""
    last, same = "", 0
    try:
        async with asyncio.timeout(TIMEOUT):
            while same < 3:
                await asyncio.sleep(0.04)
                text = term.text()
                same = same + 1 if text == last and ok(text) else 0
                last = text
    except TimeoutError:
        raise AssertionError(f"the screen never settled as wanted:\n{term.text()}") from None
    return last


def decisions(text: str) -> str:
    """The part of the screen a command changes: all but the title (its clock ticks), the
    command line (it echoes what is typed) and the keys under it."""
    return "\n".join(text.splitlines()[1:-2])


def refusal(text: str) -> str:
    """The line above the command line: where a command that was not taken is explained."""
    return text.splitlines()[-3].strip()


def choices(text: str) -> list[str]:
    """The ``choices:`` line, and its second line if it wraps, split into commands."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "choices:" in line:
            words = line.split("choices:", 1)[1]
            more = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if more and more[0] not in BOX:
                words += " " + more
            return choices_shown("choices: " + words)
    return []


def score_now(text: str) -> int:
    found = SCORE_NOW.search(text)
    assert found, f"no score now on the screen:\n{text}"
    return int(found.group(1))


def dialog_lines(text: str) -> list[str]:
    """The lines of the dialog drawn over the screen: what is between its ``█`` sides."""
    lines = [line for line in text.splitlines() if line.count("█") > 1]
    return [line[line.index("█") + 1 : line.rindex("█")] for line in lines]


def dialog(text: str) -> str:
    """The dialog's words as one paragraph: the line breaks of its wrapping taken out."""
    return " ".join(" ".join(dialog_lines(text)).split())


def paragraph(text: str) -> str:
    """The screen's words as one paragraph (for a sentence wrapped over lines)."""
    return " ".join(text.split())


def treasure_in(choice: str, treasure: list[str]) -> bool:
    """``take jewels`` or ``take painting:3`` is, when the rules name the treasure "cash,
    jewels, paintings" (in the plural; a painting's card shows its worth)."""
    words = choice.split()
    item = words[-1].split(":")[0]
    return words[0] == "take" and any(t.startswith(item) for t in treasure)


class Newcomer:
    """A player who knows only what the screen has shown it."""

    def __init__(self, player: OpenSSH) -> None:
        self.player = player
        self.term = player.term
        self.treasure: list[str] = []
        self.rises: list[tuple[str, int, int]] = []
        """Each treasure taken, and the score now before and after."""

    async def type(self, command: str, before: str) -> str:
        """Type ``command`` at the table; the screen once it has changed. It must have been
        taken: nothing is explained on the refusal line. A treasure must raise the score now."""
        await asyncio.sleep(PACE)
        await self.player.line(command)
        after = await settled(self.term, lambda t: decisions(t) != decisions(before))
        if END not in after:
            assert not refusal(after), f"{command!r} was refused:\n{after}"
        if treasure_in(command, self.treasure):
            was = score_now(before)
            after = await settled(self.term, lambda t: score_now(t) != was)
            self.rises.append((command, was, score_now(after)))
            assert score_now(after) > was, f"{command!r} took the score from {was}:\n{after}"
        return after

    async def read_the_rules(self, key: str | None = None) -> None:
        """Open the rules (``rules``, or the key the key line names), check they say how a
        player scores, learn the treasure's names, and close them as they say."""
        before = await settled(self.term)
        if key is None:
            await self.player.line("rules")
        else:
            assert f"{key} rules" in before.splitlines()[-1], before
            self.player.type(KEYS[key])
        text = dialog(await settled(self.term, lambda t: "How to win" in t))
        for part in ("treasure", "friend", "enemy", "survival"):
            assert part in text, f"the rules do not say how {part} scores:\n{text}"
        found = re.search(r"your treasure \(([^)]*)\)", text)
        assert found, f"the rules do not name the treasure:\n{text}"
        self.treasure = [word.strip() for word in found.group(1).split(",")]
        closes = re.search(r"(\w+) closes", text)
        assert closes, text
        self.player.type(KEYS[closes.group(1)])
        after = await settled(self.term, lambda t: "How to win" not in t)
        assert decisions(after) == decisions(before), "the rules changed the table"

    async def play_the_tutorial(self) -> str:
        """Type what the coach asks until the boat lands, close the end screen; the screen."""
        typed = 0
        while True:
            text = await settled(self.term, lambda t: END in t or "coach" in t)
            if END in text:
                break
            assert typed < 30, "the tutorial never ends"
            typed += 1
            await self.type(await coach_asks(self.term), text)
        closes = re.search(r"(\w+) or \w+ closes", text)
        assert closes, text
        self.player.type(KEYS[closes.group(1)])
        return await settled(self.term, lambda t: "Land! You scored" in t)

    async def play_a_game(self) -> str:
        """Each decision from the choices line (treasure if there is one, else the first)
        until the end screen; the end screen."""
        decided = 0
        while True:
            text = await settled(self.term, lambda t: END in t or "choices:" in t or "waiting" in t)
            if END in text:
                return text
            offered = choices(text)
            if not offered:  # waiting for the bots
                await settled(self.term, lambda t, now=text: decisions(t) != decisions(now))
                continue
            assert decided < 200, "the game never ends"
            decided += 1
            wanted = [c for c in offered if treasure_in(c, self.treasure)]
            await self.type((wanted or offered)[0], text)

    async def find_my_row(self, name: str) -> str:
        """Scroll the end screen as it says until the row marked ``▸`` shows; that row."""
        for _ in range(6):
            text = await settled(self.term)
            mine = [line for line in dialog_lines(text) if line.lstrip().startswith("▸")]
            if mine:
                return mine[0]
            assert "PgDn scroll" in text, text
            self.player.type(KEYS["PgDn"])
            await settled(self.term, lambda t, now=text: t != now)
        raise AssertionError(f"no row marked ▸ for {name}:\n{self.term.text()}")


async def test_a_newcomer_learns_and_plays_lifeboat_over_openssh_from_the_screen_alone(
    service: Service, tmp_path: Path
) -> None:
    player = await open_openssh(service.port, "newcomer", KEY, tmp_path, SIZE)
    newcomer = Newcomer(player)
    try:
        term = player.term
        lobby = await settled(term, lambda t: "first time? try: " in t)
        hint = re.search(r"first time\? try: ([\w ]+)", lobby)
        assert hint, lobby
        await player.line(hint.group(1).strip())
        await settled(term, lambda t: "coach" in t)
        await newcomer.read_the_rules()
        text = await newcomer.play_the_tutorial()
        assert newcomer.rises, "the tutorial took no treasure"
        then = re.search(r"Then '(\w+)' for a real game", paragraph(text))
        assert then, text
        await player.line(await coach_asks(term))  # back to the lobby
        await settled(term, lambda t: "(tutorial)" not in t.splitlines()[0])
        await player.line(then.group(1))

        text = await settled(term, lambda t: "lifeboat · you are" in t.splitlines()[0])
        me = re.search(r"you are (\w+)", text)
        assert me, text
        name = me.group(1)
        await newcomer.read_the_rules("f2")
        text = await newcomer.play_a_game()
        placing = re.search(r"you came ((?:tied )?\w+ of (\d+)) with (-?\d+) points", dialog(text))
        assert placing and placing.group(2) == "6", text
        row = await newcomer.find_my_row(name)
        assert name in row.lower() and f" {placing.group(3)} " in row, row
    finally:
        await player.close()

"""``shipwreck play --help`` and ``serve --help`` describe the command and each flag, and
``python -m shipwreck`` is the ``shipwreck`` command."""

from __future__ import annotations

import subprocess
import sys

import pytest

from shipwreck.cli import build_parser


def help_text(command: str) -> str:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    parser = sub.choices[command]  # type: ignore[index]
    return str(parser.format_help())


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        ("play", ["--seats", "--bots", "--seed", "--name"]),
        ("serve", ["--config", "--port", "--db", "--host-key", "--listen"]),
    ],
)
def test_every_flag_is_described(command: str, flags: list[str]) -> None:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    parser = sub.choices[command]  # type: ignore[index]
    described = {opt: action.help for action in parser._actions for opt in action.option_strings}
    for flag in flags:
        assert described.get(flag), f"{command} {flag} has no description"
    assert parser.description


def test_play_says_it_has_both_games() -> None:
    text = help_text("play")
    assert "Lifeboat" in text and "Spanish Main" in text and "new sm" in text
    assert "login name" in text  # where the default name comes from


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shipwreck", "play", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: shipwreck play")

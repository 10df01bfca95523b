"""A bot goes by the name in its header, never its file's (issue 20, the author's workbench):
``bot "SM Raider" for spanish_main`` is the bot ``sm_raider`` in ``sim``, ``arena``, ``bot check``,
``bot save``, the ladder and ``new … BOT`` at the lobby. The name keeps the bot-name rule
(a-z, 0-9, _; up to 32); two different scripts with one name are a clear error, never merged."""

from __future__ import annotations

from pathlib import Path

import pytest

from shipwreck.cli import main
from shipwreck.lang.bots import load_source, shipped_bot, shipped_names
from shipwreck.lang.bots.lint import check_source
from shipwreck.lang.bots.registry import header_name
from shipwreck.resources import bots_dir
from shipwreck.server.service import Service

from sshclient import ANN_KEY, run

ROWER = 'bot "Rower" for lifeboat\non turn:\n    else -> row\n'


def _header_errors(title: str) -> list[str]:
    source = f'bot "{title}" for lifeboat\non turn:\n    else -> row\n'
    return [str(f) for f in check_source(source, "t.bot")]


def test_the_header_gives_the_name_in_lower_case_with_underscores() -> None:
    assert load_source(ROWER).bot_name == "rower"
    assert load_source(ROWER.replace("Rower", "SM  Big-Rower 2")).bot_name == "sm_big_rower_2"
    assert header_name("# a comment first\n\n" + ROWER) == "rower"
    assert header_name("on turn:\n    else -> row\n") is None


@pytest.mark.parametrize(
    ("title", "message"),
    [
        (
            "Über Bot",
            "t.bot:1:5: error: 'Über Bot' cannot be a bot's name: a bot's name is letters,"
            ' digits, spaces and _; e.g. bot "ber_bot"',
        ),
        (
            "",
            "t.bot:1:5: error: the bot has no name: a bot's name is letters, digits, spaces"
            ' and _; e.g. bot "rower"',
        ),
        (
            "A very long name that goes on and on",
            "t.bot:1:5: error: the bot's name is 36 characters, at most 32;"
            ' e.g. bot "a_very_long_name_that_goes_on_an"',
        ),
    ],
)
def test_a_header_name_that_cannot_be_a_bot_name_is_an_error(title: str, message: str) -> None:
    assert _header_errors(title) == [message]


def test_every_shipped_bot_goes_by_its_header_name() -> None:
    """The shipped bots are looked up by their headers' names; each file is named after it too
    (so ``bots/NAME.bot`` is the bot ``NAME``), and no two share a name."""
    names = shipped_names()
    assert len(names) == len(set(names)) == len(list(bots_dir().glob("*.bot")))
    for name in names:
        script = shipped_bot(name)
        assert script.bot_name == name
        assert script.path == f"bots/{name}.bot"
    assert shipped_bot("sm_raider").name == "SM Raider"


def test_bot_check_refuses_two_different_files_with_one_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b, same = tmp_path / "a.bot", tmp_path / "b.bot", tmp_path / "same.bot"
    a.write_text(ROWER)
    b.write_text(ROWER.replace("row", "rest"))
    same.write_text(ROWER)
    assert main(["bot", "check", str(a), str(same)]) == 0
    capsys.readouterr()
    assert main(["bot", "check", str(a), str(b)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{a}: ok",
        f"{b}:1:1: error: {a} is called 'rower' too; rename one in its first line",
    ]


def test_play_refuses_an_unknown_bot_and_two_bots_with_one_name_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``shipwreck play --bots nosuch`` is one clear line, not a traceback (nothing opens)."""
    assert main(["play", "--bots", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("shipwreck play: there is no shipped bot 'nosuch'; shipped bots: ")
    assert len(err.strip().splitlines()) == 1
    a, b = tmp_path / "a.bot", tmp_path / "b.bot"
    a.write_text(ROWER)
    b.write_text(ROWER.replace("row", "rest"))
    assert main(["play", "--bots", f"{a},{b}"]) == 2
    assert capsys.readouterr().err == (
        f"shipwreck play: {a} and {b} are two different bots both called 'rower';"
        ' rename one in its first line (bot "…" for lifeboat)\n'
    )


async def test_bot_save_without_a_name_saves_under_the_header_name(service: Service) -> None:
    saved = await run(service, "ann", ANN_KEY, "bot save", ROWER.replace("Rower", "My Rower"))
    assert saved.exit_status == 0
    assert saved.stdout == "saved bot 'my_rower' for ann\n"
    assert service.store.bot("ann", "my_rower") is not None
    for nameless in ("on turn:\n    else -> row\n", 'bot "Ωmega" for lifeboat\n'):
        refused = await run(service, "ann", ANN_KEY, "bot save", nameless)
        assert refused.exit_status == 2
        assert refused.stdout == (
            'shipwreck: bot save: name the bot in its first line (bot "rower" for lifeboat),'
            " or here: bot save NAME < FILE\n"
        )
    assert service.store.bot_names("ann") == ["my_rower"]

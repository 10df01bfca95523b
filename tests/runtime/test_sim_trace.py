"""The author's workbench (issue 20): ``shipwreck sim --trace SEAT|BOT [--game-no N]`` prints one
game's decisions (file:line, command, why a default was played); ``sim`` refuses a script that
fails ``bot check`` with the check's own lines, and never merges two different scripts that
share a file name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shipwreck.cli import main
from shipwreck.lang.bots import load_bot
from shipwreck.sim import play_seated, seat_bots

MINE = """bot "Mine" for lifeboat
on turn:
    when me.wounds > 9 -> row
    else -> rest
on offer:
    else -> decline
"""
LINE = re.compile(r"  round +(\d+)  (\S+) +(\S+) +(.+?)(?:  <- (.*))?$")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["sim", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_trace_prints_each_decision_of_game_n_for_the_bots_seats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine.bot"
    mine.write_text(MINE)
    status, out, err = _run(
        capsys, "--bots", f"{mine},hoarder", "--seed", "7", "--trace", "mine", "--game-no", "2"
    )
    assert status == 0, err
    lines = out.splitlines()
    # game 2 of `sim --seed 7`: seed 8, the scripts one seat on (seat 1 is hoarder's)
    order = seat_bots(1, 6, 2)
    assert order == [1, 0, 1, 0, 1, 0]
    result, chars, _ = play_seated("lifeboat", 8, [load_bot(str(mine)), load_bot("hoarder")], order)
    seated = ", ".join(
        f"{s + 1} {chars[s]}: {'mine' if order[s] == 0 else 'hoarder'}" for s in range(6)
    )
    assert lines[0] == f"game 2 (seed 8), seats {seated}"
    heads = [i for i, line in enumerate(lines) if line.startswith("seat ")]
    assert [lines[i].split()[1] for i in heads] == ["2", "4", "6"]  # every seat mine plays
    for i in heads:
        seat = int(lines[i].split()[1]) - 1
        won = " (won)" if chars[seat] in result.winners else ""
        assert (
            lines[i]
            == f"seat {seat + 1} ({chars[seat]}, mine): score {result.scores[chars[seat]]}{won}"
        )
    decisions = [LINE.fullmatch(line) for line in lines if line.startswith("  round")]
    assert decisions and all(decisions)
    kinds = {m.group(2) for m in decisions if m}
    assert "turn" in kinds and "supply" in kinds
    for m in decisions:
        assert m is not None
        if m.group(2) == "turn":  # its own rule, by file:line, and no default
            assert m.group(3) == f"{mine}:4" and m.group(4) == "rest" and m.group(5) is None
        if m.group(2) == "supply":  # no handler: the default, and why
            assert m.group(3) == "-" and m.group(5) == "no 'on supply:' handler: safe default"
    # a seat by number: that seat only
    status, out, _ = _run(
        capsys, "--bots", f"{mine},hoarder", "--seed", "7", "--trace", "1", "--game-no", "2"
    )
    assert status == 0
    assert [line for line in out.splitlines() if line.startswith("seat ")] == [
        f"seat 1 ({chars[0]}, hoarder): score {result.scores[chars[0]]}"
        + (" (won)" if chars[0] in result.winners else "")
    ]


def test_trace_says_why_an_error_played_the_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard that fails at run time (a division by zero) plays the default; the trace names
    the rule's line and the error."""
    bad = tmp_path / "oops.bot"
    bad.write_text(
        'bot "Oops" for lifeboat\non turn:\n    when me.wounds > 1 / 0 -> row\n    else -> rest\n'
    )
    status, out, err = _run(capsys, "--bots", f"{bad},random", "--trace", "oops")
    assert status == 0, err
    turns = [LINE.fullmatch(line) for line in out.splitlines() if "  turn  " in line]
    assert turns
    for m in turns:
        assert m is not None and m.group(3) == f"{bad}:3" and m.group(4) == "rest"
        assert m.group(5) == "line 3: division by zero: safe default"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--trace", "1"], "shipwreck sim: --trace needs --bots (whose decisions to show)\n"),
        (
            ["--bots", "hoarder,random", "--trace", "7"],
            "shipwreck sim: --trace 7: the seats are 1 to 6\n",
        ),
        (
            ["--bots", "hoarder,random", "--trace", "loyal"],
            "shipwreck sim: --trace loyal: no seat plays that bot; give a seat (1-6) or one of:"
            " hoarder, random\n",
        ),
        (
            ["--bots", "hoarder", "--trace", "1", "--game-no", "0"],
            "shipwreck sim: --game-no counts from 1\n",
        ),
    ],
)
def test_trace_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = _run(capsys, *argv)
    assert (status, out, err) == (2, "", message)


def test_sim_refuses_a_script_that_fails_bot_check_with_the_checks_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.bot"
    bad.write_text(
        'bot "Bad" for lifeboat\non turn:\n    when me.wonds > 1 -> row\n    else -> rest\n'
    )
    assert main(["bot", "check", str(bad)]) == 1
    checked = [line for line in capsys.readouterr().out.splitlines() if ": error: " in line]
    assert checked and "did you mean 'wounds'" in checked[0]
    status, out, err = _run(capsys, "--games", "1", "--bots", f"{bad},random")
    assert status == 2 and out == ""
    assert err == "shipwreck sim: " + "\n".join(checked) + "\n"


def test_sim_names_bots_by_their_headers_and_never_merges_two_with_one_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot goes by the name in its header, whatever its file is called: ``loyal.bot`` whose
    header says "Mine" is the bot ``mine``, beside the shipped ``loyal``. Two different scripts
    with one header name are refused (a shipped bot's name is taken), never merged."""
    mine = tmp_path / "loyal.bot"
    mine.write_text(MINE)
    status, out, err = _run(capsys, "--games", "2", "--bots", f"{mine},loyal")
    assert (status, err) == (0, "")
    rows = [line.split()[0] for line in out.splitlines()[2:4]]
    assert sorted(rows) == ["loyal", "mine"]
    other, fake = tmp_path / "other.bot", tmp_path / "fake.bot"
    other.write_text(MINE.replace("-> rest", "-> row"))
    fake.write_text(MINE.replace('"Mine"', '"Loyal"'))  # (the shipped loyal's name)
    for bots, first, second, name in [
        (f"{mine},{other}", mine, other, "mine"),
        (f"{fake},random", "loyal", fake, "loyal"),
    ]:
        status, out, err = _run(capsys, "--games", "1", "--bots", bots)
        assert status == 2 and out == ""
        assert err == (
            f"shipwreck sim: {first} and {second} are two different bots both called"
            f" '{name}'; rename one in its first line (bot \"…\" for lifeboat)\n"
        )
    status, out, _ = _run(capsys, "--games", "2", "--bots", "loyal,loyal,random")
    assert status == 0  # the same script twice is one bot
    rows = [line.split()[0] for line in out.splitlines()[2:4]]
    assert sorted(rows) == ["loyal", "random"]


def test_arena_trace_is_game_n_of_the_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``arena --trace BOT --game-no N`` plays no tournament: it prints the decisions of the
    game the tournament plays as game N (its scores are that game's record), named by the
    scripts' headers; the decisions are those ``sim --trace`` prints for the same bots."""
    from shipwreck.arena.tournament import load_bots, play

    mine = tmp_path / "mine.bot"
    mine.write_text(MINE)
    assert (
        main(["arena", str(mine), "hoarder", "--seed", "3", "--trace", "mine", "--game-no", "3"])
        == 0
    )
    arena = capsys.readouterr().out.splitlines()
    record = play("lifeboat", load_bots("lifeboat", [str(mine), "hoarder"]), 3, 3, 6).games[2]
    heads = [line for line in arena if line.startswith("seat ")]
    assert len(heads) == record.seats.count("mine") == 3
    for line in heads:
        seat = int(line.split()[1]) - 1
        assert record.seats[seat] == "mine"
        assert line.split(": score ")[1].split()[0] == str(record.scores[seat])
    status, sim, _ = _run(
        capsys, "--bots", f"{mine},hoarder", "--seed", "3", "--trace", "mine", "--game-no", "3"
    )
    assert status == 0
    decisions = [line for line in arena if line.startswith("  round")]
    assert decisions and decisions == [
        line for line in sim.splitlines() if line.startswith("  round")
    ]

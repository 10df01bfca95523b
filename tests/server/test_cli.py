"""``shipwreck sim`` and ``shipwreck scenario run`` as a user runs them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shipwreck.cli import main

SCENARIO = """
game = "lifeboat"
seed = 7
phase = "actions"
round = 1
birds = 0
seats = ["lauren", "stephen", "captain", "mate", "frenchy", "kid"]
supply_deck = ["water", "cash"]
navigation_deck = [25, 31]
commands = ["lauren: swap mate", "mate: resist", "kid: join defender"]

[characters.lauren]
friend = "kid"
enemy = "captain"
hidden = ["water", "knife"]
revealed = ["umbrella"]
wounds = 0
"""


def test_sim_prints_summary_and_rate_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--game", "lifeboat", "--games", "20", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert "games: 20" in lines
    assert any(line.startswith("mean rounds: ") for line in lines)
    assert re.fullmatch(r"games=20 seconds=\d+\.\d+ games_per_s=\d+\.\d", lines[-1])
    wins = [line.split() for line in lines if line.split()[0] in ("lauren", "kid", "mate")]
    assert len(wins) == 3


def sim_summary(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    """``shipwreck sim ARGS`` run to success: its output without the (timed) last line."""
    assert main(["sim", *args]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and lines[-1].startswith("games="), lines
    return lines[:-1]


def test_sim_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    """The same seed prints the same summary; the seed is really used (another seed's
    differs)."""
    first = sim_summary(capsys, "--games", "10", "--seed", "5")
    assert "games: 10" in first and any(line.startswith("mean commands: ") for line in first)
    assert sim_summary(capsys, "--games", "10", "--seed", "5") == first
    assert sim_summary(capsys, "--games", "10", "--seed", "6") != first


def test_scenario_run_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "s.toml"
    f.write_text(SCENARIO)
    assert main(["scenario", "run", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] is False and out["birds"] == 0 and out["round"] == 1
    assert out["phase"] == "actions"
    # a fight is open: every conscious character is prompted
    assert out["next"] == ["lauren", "stephen", "captain", "mate", "frenchy", "kid"]
    lauren = out["characters"]["lauren"]
    assert lauren["seat"] == 1 and lauren["state"] == "ok" and lauren["wounds"] == 0
    assert sorted(lauren["hidden"]) == ["knife", "water"] and lauren["revealed"] == ["umbrella"]
    assert "scores" not in out


def test_scenario_illegal_command_exits_2(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text(SCENARIO.replace('"kid: join defender"', '"kid: use medkit on mate"'))
    proc = subprocess.run(
        [sys.executable, "-m", "shipwreck.cli", "scenario", "run", str(f)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "kid:" in proc.stderr


def test_python_m_shipwreck_runs_the_command() -> None:
    """``python -m shipwreck`` is the ``shipwreck`` command (``shipwreck/__main__.py``): it
    runs a subcommand and returns its exit status."""
    ok = subprocess.run(
        [sys.executable, "-m", "shipwreck", "sim", "--game", "lifeboat", "--games", "1"],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0 and "games: 1" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "shipwreck", "sim", "--games", "0"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "--games must be at least 1" in bad.stderr


def test_scenario_bad_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "s.toml"
    f.write_text('seats = ["lauren", "nobody", "captain", "mate"]\n')
    assert main(["scenario", "run", str(f)]) == 2
    err = capsys.readouterr().err
    assert "unknown character 'nobody'" in err


# --------------------------------------------------------------------------- Spanish Main


def test_sim_spanish_main_defaults_to_two_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--game", "spanish_main", "--games", "3", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[:2] == ["game: spanish_main", "games: 3"]
    assert lines[4] == "seat        played-wins  mean-score"
    rows = [line.split() for line in lines[5:-1]]
    assert [r[0] for r in rows] == ["blue", "red"]
    assert sum(float(r[1]) for r in rows) == pytest.approx(3.0)  # shared wins are fractions
    assert re.fullmatch(r"games=3 seconds=\d+\.\d+ games_per_s=\d+\.\d", lines[-1])


def test_sim_spanish_main_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--game", "spanish_main", "--games", "1", "--seats", "3"]) == 0
    out = capsys.readouterr().out
    assert all(f"\n{seat} " in out for seat in ("red", "blue", "green"))
    assert "\ngold " not in out
    assert main(["sim", "--game", "spanish_main", "--games", "1", "--seats", "6"]) == 2
    assert "spanish_main is played by 2 to 4 seats, not 6" in capsys.readouterr().err
    assert main(["sim", "--game", "spanish_main", "--games", "1", "--bots", "random"]) == 2
    assert "plays lifeboat, not spanish_main" in capsys.readouterr().err
    assert main(["sim", "--games", "1", "--seats", "3"]) == 2  # a boat takes 4 to 6


SM_SCENARIO = """
rule = "SM-15"
game = "spanish_main"
seed = 7
commands = ["red: move dover S 0 S 0"]

[[islands]]
x = 10
y = 28
home = 0

[[islands]]
x = 60
y = 28
home = 1

[[islands]]
x = 35
y = 45
coins = [6, 6, 6]

[[ships]]
card = "dover"
x = 22
y = 28
heading = 270
cargo = [1, 4, 6]

[[ships]]
card = "albion"
owner = 1
x = 60
y = 52
heading = 90
"""


def test_scenario_run_spanish_main(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "s.toml"
    f.write_text(SM_SCENARIO)
    assert main(["scenario", "run", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["gold"] == {"red": 11, "blue": 0} and out["next"] == ["red"]
    assert out["ships"]["dover"]["docked"] == "isla-1" and out["ships"]["dover"]["cargo"] == 0
    assert any("11 gold for red" in line for line in out["log"])
    assert main(["scenario", "run", str(f)]) == 0
    text = capsys.readouterr().out.split("--\n")[1].splitlines()
    assert text[0] == "round 1, red's turn, step turn, next: red"
    assert text[1] == "gold: red 11, blue 0"
    assert " ".join(text[2].split()) == (
        "dover red (15.005, 28) heading 270 masts 4 cargo 0 docked at isla-1"
    )


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("red move dover S 0", "write 'SEAT: COMMAND', e.g. 'red: move dover S 0'"),
        ("purple: end turn", "'purple' is not at this table"),
        (
            "red: move dovr S 0",
            "red: column 7: unknown ship 'dovr'; did you mean 'move dover S 0'?",
        ),
        ("red: move dover X 0", "red: column 13: unknown word 'X'; expected 'dock', 'toward'"),
        ("blue: end turn", "blue: you cannot end the turn now; waiting for red (turn)"),
    ],
)
def test_scenario_spanish_main_refusals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, error: str
) -> None:
    f = tmp_path / "s.toml"
    f.write_text(SM_SCENARIO.replace("red: move dover S 0 S 0", line))
    assert main(["scenario", "run", str(f), "--json"]) == 2
    assert error in json.loads(capsys.readouterr().out)["error"]

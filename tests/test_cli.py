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


def test_sim_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    main(["sim", "--games", "10", "--seed", "5"])
    first = capsys.readouterr().out.splitlines()[:-1]
    main(["sim", "--games", "10", "--seed", "5"])
    assert capsys.readouterr().out.splitlines()[:-1] == first


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


def test_scenario_bad_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "s.toml"
    f.write_text('seats = ["lauren", "nobody", "captain", "mate"]\n')
    assert main(["scenario", "run", str(f)]) == 2
    err = capsys.readouterr().err
    assert "unknown character 'nobody'" in err

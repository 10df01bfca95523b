"""``shipwreck scenario run`` and ``shipwreck sim`` as tools (issue 19): positions no game can
reach are refused, ``--as`` names a seat that exists, a closed pipe ends the run quietly, and
``--json`` names the winners."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from paths import TESTS

from shipwreck import scenario
from shipwreck.cli import main

HERE = TESTS
TIE = HERE / "scenarios" / "lb-61-tie-shares-the-win.toml"
LAND = HERE / "scenarios" / "lb-61-scores-at-land.toml"

BASE = {"phase": "navigation", "seats": ["lauren", "stephen", "captain", "mate"]}


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"birds": 4}, "birds: 4 cannot happen; birds go from 0 to 3 (at 4 the game is over)"),
        ({"birds": -1}, "birds: -1 cannot happen; birds go from 0 to 3 (at 4 the game is over)"),
        ({"round": 0}, "round: 0 cannot happen; the first round is 1"),
        ({"round": -3}, "round: -3 cannot happen; the first round is 1"),
        (
            {"characters": {"lauren": {"friend": "mate"}, "captain": {"friend": "mate"}}},
            "characters.captain.friend: mate is already characters.lauren.friend; each friend"
            " card is dealt to one character",
        ),
        (
            {"characters": {"stephen": {"enemy": "stephen"}, "mate": {"enemy": "stephen"}}},
            "characters.mate.enemy: stephen is already characters.stephen.enemy; each enemy"
            " card is dealt to one character",
        ),
    ],
)
def test_lb7_lb41_unreachable_positions_are_refused_on_loading(
    extra: dict[str, object], message: str
) -> None:
    """LB-41/LB-60 (birds 0..3 in play), rounds from 1, LB-7 (each friend and enemy card is
    dealt once): a scenario whose position breaks them is refused as it loads, with the key
    and the reason."""
    with pytest.raises(scenario.ScenarioError) as e:
        scenario.from_dict({**BASE, **extra}, "bad.toml")
    assert str(e.value) == f"bad.toml: {message}"


def test_lb7_reachable_edges_load() -> None:
    """Birds 0 and 3, round 1, a narcissist and a psychopath (own cards) are all reachable."""
    for extra in (
        {"birds": 0},
        {"birds": 3, "round": 1},
        {"characters": {"lauren": {"friend": "lauren", "enemy": "lauren"}}},
    ):
        scenario.run(scenario.from_dict({**BASE, **extra}))


def test_an_unreachable_scenario_file_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "bad.toml"
    f.write_text('seats = ["lauren", "stephen", "captain", "mate"]\nbirds = 4\n')
    assert main(["scenario", "run", str(f)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.strip().splitlines() == [
        f"shipwreck scenario: {f}: birds: 4 cannot happen; birds go from 0 to 3"
        " (at 4 the game is over)"
    ]


@pytest.mark.parametrize("seat", ["6", "-1", "99", "x", "bosun"])
def test_as_outside_the_seats_is_an_error(seat: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "run", str(LAND), "--as", seat]) == 2
    out = capsys.readouterr()
    assert out.out == "", "no log at all, not the public one"
    assert out.err.strip() == (
        f"shipwreck scenario: --as {seat}: no such seat here; the seats are 0 lauren,"
        " 1 stephen, 2 captain, 3 mate, 4 frenchy, 5 kid"
    )


def test_as_a_seat_number_or_its_name_shows_its_own_log(
    capsys: pytest.CaptureFixture[str],
) -> None:
    logs = []
    for seat in ("5", "kid", "KID"):
        assert main(["scenario", "run", str(LAND), "--json", "--as", seat]) == 0
        logs.append(json.loads(capsys.readouterr().out)["log"])
    assert logs[0] == logs[1] == logs[2]
    assert "kid: friend frenchy, enemy captain; holds water" in logs[0]
    assert not any(line.startswith("lauren: friend") for line in logs[0])


def test_lb61_json_names_the_winners_and_ties_share(capsys: pytest.CaptureFixture[str]) -> None:
    """LB-61: highest total wins, ties share; ``--json`` says who."""
    assert main(["scenario", "run", str(TIE), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winners"] == ["lauren", "stephen", "captain", "mate"]
    assert main(["scenario", "run", str(LAND), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    best = max(out["scores"].values())
    assert out["winners"] == [c for c, s in out["scores"].items() if s == best] == ["lauren"]


@pytest.mark.parametrize(
    "args",
    [
        ["sim", "--games", "3"],
        ["scenario", "run", str(LAND)],
        ["scenario", "run", str(LAND), "--json"],
    ],
)
def test_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    """``shipwreck … | head``: the reader is gone before anything is written; no traceback."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "shipwreck", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=HERE.parent,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert err == ""

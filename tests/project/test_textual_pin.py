"""The Textual range the server runs on: one check, the same range as pyproject.toml."""

from __future__ import annotations

import tomllib
from importlib import metadata

import pytest
from paths import ROOT

from shipwreck.cli import main
from shipwreck.server.textual_pin import REQUIREMENT, textual_problem


@pytest.mark.parametrize("version", ["8.2.8", "8.2.12", "8.2.8.post1", "8.2.8+local"])
def test_tested_releases_pass(version: str) -> None:
    assert textual_problem(version) is None


@pytest.mark.parametrize(
    "version",
    ["0.80.0", "8.2.6", "8.2.7", "8.2.7rc1", "8.2.8.dev0", "8.3.0", "8.3", "9.0.0", "8", "", "x"],
)
def test_other_releases_are_refused_with_the_fix(version: str) -> None:
    problem = textual_problem(version)
    assert problem is not None and "\n" not in problem
    assert f"needs {REQUIREMENT}" in problem and f"pip install '{REQUIREMENT}'" in problem


def test_pyproject_pins_the_same_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert REQUIREMENT in project["project"]["dependencies"]


def test_the_installed_textual_is_in_range() -> None:
    assert textual_problem(metadata.version("textual")) is None


def test_serve_refuses_to_start_on_another_textual(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = metadata.version
    monkeypatch.setattr(
        metadata, "version", lambda name: "0.86.3" if name == "textual" else real(name)
    )
    assert main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("shipwreck serve: Textual 0.86.3 is installed, but the server needs")

"""The grammar and bot files are found from a checkout and shipped inside the wheel."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from paths import ROOT

from shipwreck.resources import bots_dir, grammar_dir, rules_dir


def test_checkout_finds_grammar_and_bots() -> None:
    assert (grammar_dir() / "lifeboat.lark").is_file()
    assert (grammar_dir() / "base.lark").is_file()
    assert bots_dir().is_dir()
    assert (rules_dir() / "lifeboat.md").is_file() and (rules_dir() / "spanish-main.md").is_file()


def test_wheel_carries_grammar_and_bots(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("shipwreck-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for lark in (ROOT / "grammar").glob("*.lark"):
        assert f"shipwreck/_data/grammar/{lark.name}" in names
    for bot in (ROOT / "bots").iterdir():
        assert f"shipwreck/_data/bots/{bot.name}" in names
    for rules in (ROOT / "docs" / "rules").glob("*.md"):  # the rules screen reads them
        assert f"shipwreck/_data/rules/{rules.name}" in names
    assert "shipwreck/games/lifeboat/rules.py" in names
    for tutorial in ("lifeboat", "spanish_main"):  # the tutorials' scripts (runtime/tutorial.py)
        assert f"shipwreck/runtime/tutorials/{tutorial}.toml" in names

"""The grammar and bot files are found from a checkout and shipped inside the wheel."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from paths import ROOT, compiler_found

from shipwreck import _native
from shipwreck.resources import bots_dir, grammar_dir, rules_dir

BUILT = ("*.so", _native.RECORD, "__pycache__", "build", "dist", "*.egg-info")


def test_checkout_finds_grammar_and_bots() -> None:
    assert (grammar_dir() / "lifeboat.lark").is_file()
    assert (grammar_dir() / "base.lark").is_file()
    assert bots_dir().is_dir()
    assert (rules_dir() / "lifeboat.md").is_file() and (rules_dir() / "spanish-main.md").is_file()


def test_wheel_carries_grammar_and_bots_and_the_compiled_engine(tmp_path: Path) -> None:
    """The wheel ``pip install .`` builds: data files inside, and the engine compiled with mypyc
    where a C compiler is found (issue 19), with the record that makes an install use it. Built
    from a copy, so the checkout's own compiled modules are not rebuilt under the running tests."""
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(*BUILT, ".venv", ".git", "*.db"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-w", str(tmp_path), str(src)],
        check=True,
        capture_output=True,
        env={**os.environ, _native.PURE_ENV: ""},
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
    if compiler_found():
        compiled = {f"shipwreck/{_native.RECORD}"} | {
            n for m in _native.COMPILED for n in names if n.startswith(m.replace(".", "/") + ".")
        }
        assert len(compiled) == 2 * len(_native.COMPILED) + 1, sorted(compiled)  # .py + .so
        installed = tmp_path / "installed"
        zipfile.ZipFile(wheel).extractall(installed)
        build = subprocess.run(
            [sys.executable, "-c", "import shipwreck._native as n; print(n.build())"],
            env={**os.environ, "PYTHONPATH": str(installed), _native.PURE_ENV: ""},
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert build.strip() == "compiled with mypyc"
    for tutorial in ("lifeboat", "spanish_main"):  # the tutorials' scripts (runtime/tutorial.py)
        assert f"shipwreck/runtime/tutorials/{tutorial}.toml" in names

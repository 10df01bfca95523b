"""The compiled engine and the pure-Python one (issue 19; ``shipwreck/_native.py``).

``pip install -e .`` compiles the Lifeboat rules with mypyc, so the whole suite runs on the
compiled build where a compiler was found. The pure-Python modules stay the reference: here the
rules' own tests run again in a process that is told to use them, and the recorded digest of
sixty seeded games (``test_engine_digest``) must come out the same on both.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from paths import compiler_found

from shipwreck import _native

ROOT = Path(__file__).resolve().parents[2]
RULES_TESTS = [
    "tests/engine/test_engine_digest.py",
    "tests/engine/test_determinism.py",
    "tests/engine/test_rng.py",
    "tests/games/test_rules_scoring.py",
    "tests/games/test_rules_setup.py",
    "tests/games/test_scenarios.py",
    "tests/games/test_sm_geometry.py",
    "tests/games/test_sm_fast.py",
]


def fake_build(root: Path, modules: dict[str, str]) -> None:
    """A package folder with these sources, compiled as far as the record says."""
    for module, text in modules.items():
        path = _native.source_of(module, root)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    record = {m: _native.digest(_native.source_of(m, root)) for m in modules}
    (root / _native.RECORD).write_text(json.dumps(record))


SOURCES = {"shipwreck.games.toy.rules": "X = 1\n", "shipwreck.engine.toy": "Y = 2\n"}


def test_a_fresh_build_is_used(tmp_path: Path) -> None:
    fake_build(tmp_path, SOURCES)
    assert _native.choose(tmp_path, {}, list(SOURCES)) == (True, "compiled with mypyc")


def test_no_build_means_pure_python(tmp_path: Path) -> None:
    used, why = _native.choose(tmp_path, {}, list(SOURCES))
    assert not used and "not compiled" in why


def test_an_edited_source_runs_as_written_not_as_compiled(tmp_path: Path) -> None:
    fake_build(tmp_path, SOURCES)
    _native.source_of("shipwreck.games.toy.rules", tmp_path).write_text("X = 3\n")
    used, why = _native.choose(tmp_path, {}, list(SOURCES))
    assert not used
    assert "rules.py changed since it was compiled" in why and "pip install -e ." in why


def test_the_environment_can_ask_for_pure_python(tmp_path: Path) -> None:
    fake_build(tmp_path, SOURCES)
    used, why = _native.choose(tmp_path, {_native.PURE_ENV: "1"}, list(SOURCES))
    assert not used and _native.PURE_ENV in why


def test_the_install_compiled_the_engine() -> None:
    """Where a C compiler is found, ``pip install -e .`` compiled the engine; otherwise the
    install said why and this whole suite ran on pure Python without anyone seeing it."""
    if not compiler_found():
        pytest.skip("no C compiler here: the install left the engine as pure Python")
    assert (_native.ROOT / _native.RECORD).is_file(), (
        "the engine was not compiled: run pip install -e . again and read its output "
        "(hatch_build.py says why)"
    )


def test_this_process_runs_the_engine_it_chose() -> None:
    """Every compiled module comes from the same place: all compiled files, or all sources."""
    files = [str(importlib.import_module(m).__file__) for m in _native.COMPILED]
    if _native.compiled():
        assert all(not f.endswith(".py") for f in files), files
    else:
        assert all(f.endswith(".py") for f in files), files
    if os.environ.get(_native.PURE_ENV):
        assert not _native.compiled()


def test_the_rules_tests_pass_on_the_pure_python_engine() -> None:
    """Where the suite runs compiled, the rules' tests run once more on the sources (LB-61 and
    the rest are checked in those files by rule id)."""
    env = {**os.environ, _native.PURE_ENV: "1"}
    this = f"{Path(__file__).relative_to(ROOT)}::test_this_process_runs_the_engine_it_chose"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q"]
        + RULES_TESTS
        + [this],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout


def test_the_version_line_says_which_engine_runs() -> None:
    default = _native.choose(env={})[1]
    for env, expected in (({}, default), ({_native.PURE_ENV: "1"}, "pure Python")):
        out = subprocess.run(
            [sys.executable, "-m", "shipwreck", "--version"],
            env={**os.environ, _native.PURE_ENV: "", **env},
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
        assert out.startswith("shipwreck ") and f"(engine: {expected}" in out, out

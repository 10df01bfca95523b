"""Every scenario under tests/scenarios/ plays to its ``[expect]`` table.

Each file names the rule it shows (``rule = "LB-25"``); the test id is the file name, which
starts with the rule id.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shipwreck import scenario

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    sc = scenario.load(path)
    assert sc.rule, f'{path.name}: name the rule it shows: rule = "LB-…"'
    assert sc.expect, f"{path.name}: an [expect] table is needed"
    result = scenario.run(sc)
    problems = scenario.check(result, sc.expect)
    if sc.xfail:  # a known engine bug: strict, so a fix forces the marker's removal
        assert problems, f"{path.name} passes now: remove its xfail = {sc.xfail!r}"
        pytest.xfail(f"known engine bug: {sc.xfail}")
    assert not problems, "\n".join([f"{path.name} ({sc.rule}): {sc.title}", *problems])


def test_every_lifeboat_rule_has_a_scenario_or_test() -> None:
    """Every rule id in the rulebook is named by a scenario file or a test."""
    rules_text = (Path(__file__).parents[1] / "docs" / "rules" / "lifeboat.md").read_text()
    import re

    ids = set(re.findall(r"\*\*(LB-\d+)", rules_text)) | set(
        re.findall(r"### (LB-\d+)", rules_text)
    )
    named: set[str] = set()
    for p in FILES:
        named |= set(re.findall(r"LB-\d+", p.read_text()))
    for p in Path(__file__).parent.glob("test_*.py"):
        named |= set(re.findall(r"LB-\d+", p.read_text()))
    missing = sorted(ids - named, key=lambda s: int(s[3:]))
    assert not missing, f"rules without a test: {missing}"

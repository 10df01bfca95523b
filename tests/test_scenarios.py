"""Every scenario under tests/scenarios/ plays to its ``[expect]`` table.

Each file names the rule it shows (``rule = "LB-25"``, ``rule = "SM-13"``); the test id is the
file name, which starts with the rule id.
"""

from __future__ import annotations

import re
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


def _unnamed_rules(rulebook: str, prefix: str) -> list[str]:
    """The rule ids (``LB-12``) of docs/rules/``rulebook`` that no scenario file or test names."""
    rules_text = (Path(__file__).parents[1] / "docs" / "rules" / rulebook).read_text()
    ids = set(re.findall(rf"\*\*({prefix}-\d+)", rules_text)) | set(
        re.findall(rf"### ({prefix}-\d+)", rules_text)
    )
    assert ids, f"no {prefix} rule ids in {rulebook}"
    named: set[str] = set()
    for p in FILES:
        named |= set(re.findall(rf"{prefix}-\d+", p.read_text()))
    for p in Path(__file__).parent.glob("test_*.py"):
        named |= set(re.findall(rf"{prefix}-\d+", p.read_text()))
    return sorted(ids - named, key=lambda s: int(s.split("-")[1]))


def test_every_lifeboat_rule_has_a_scenario_or_test() -> None:
    """Every rule id in the rulebook is named by a scenario file or a test."""
    missing = _unnamed_rules("lifeboat.md", "LB")
    assert not missing, f"rules without a test: {missing}"


def test_every_spanish_main_rule_has_a_scenario_or_test() -> None:
    """Every SM rule id of docs/rules/spanish-main.md is named by a scenario file or a test."""
    missing = _unnamed_rules("spanish-main.md", "SM")
    assert not missing, f"rules without a test: {missing}"


def test_scenario_files_name_their_game_and_rule() -> None:
    """A scenario's file name starts with its rule id, and an SM rule goes with Spanish Main."""
    for path in FILES:
        sc = scenario.load(path)
        m = re.match(r"([a-z]+)-0*(\d+)-", path.name)
        assert m is not None and f"{m[1].upper()}-{m[2]}" == sc.rule, path.name
        assert (sc.game == "spanish_main") == sc.rule.startswith("SM-"), path.name


def test_the_spanish_main_example_of_the_docs_plays() -> None:
    """docs/scenarios.md's Spanish Main example is a scenario that meets its [expect]."""
    import tomllib

    docs = (Path(__file__).parents[1] / "docs" / "scenarios.md").read_text()
    block = docs.split("## Spanish Main", 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    sc = scenario.from_dict(tomllib.loads(block))
    assert sc.game == "spanish_main" and sc.expect
    assert scenario.check(scenario.run(sc), sc.expect) == []

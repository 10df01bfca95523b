"""Every scenario under tests/scenarios/ plays to its ``[expect]`` table.

Each file names the rule it shows (``rule = "LB-25"``, ``rule = "SM-13"``); the test id is the
file name, which starts with the rule id.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from paths import ROOT, TESTS

from shipwreck import scenario

FILES = sorted((TESTS / "scenarios").glob("*.toml"))


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


def rule_ids(rulebook: str, prefix: str) -> set[str]:
    """The rule ids (``LB-12``) docs/rules/``rulebook`` defines."""
    rules_text = (ROOT / "docs" / "rules" / rulebook).read_text()
    ids = set(re.findall(rf"\*\*({prefix}-\d+)", rules_text)) | set(
        re.findall(rf"### ({prefix}-\d+)", rules_text)
    )
    assert ids, f"no {prefix} rule ids in {rulebook}"
    return ids


def rules_tests_are_under(source: str, prefix: str) -> set[str]:
    """The rule ids the tests in ``source`` are filed under: named by a test function's name
    (``test_lb61_…`` is LB-61) or docstring. A comment, the module's docstring or a helper's
    does not count: the id must sit on a test that can fail."""
    named: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test_"
        ):
            named |= set(re.findall(rf"\b{prefix}-\d+\b", ast.get_docstring(node) or ""))
            numbers = re.findall(rf"(?:^|_){prefix.lower()}(\d+)(?=_|$)", node.name)
            named |= {f"{prefix}-{int(n)}" for n in numbers}
    return named


def rules_named(prefix: str) -> set[str]:
    """Every rule id a scenario file (its ``rule``) or a test (:func:`rules_tests_are_under`)
    is filed under."""
    named = {scenario.load(p).rule for p in FILES}
    for p in TESTS.rglob("test_*.py"):
        named |= rules_tests_are_under(p.read_text(), prefix)
    return {r for r in named if r.startswith(f"{prefix}-")}


def _unnamed_rules(rulebook: str, prefix: str) -> list[str]:
    """The rule ids of ``rulebook`` that no scenario file or test is filed under; and none may
    be filed under a rule id the rulebook does not have."""
    ids, named = rule_ids(rulebook, prefix), rules_named(prefix)
    assert named <= ids, f"tests filed under no rule of {rulebook}: {sorted(named - ids)}"
    return sorted(ids - named, key=lambda s: int(s.split("-")[1]))


def test_every_lifeboat_rule_has_a_scenario_or_test() -> None:
    """Every rule id in the rulebook has a scenario or a test filed under it."""
    missing = _unnamed_rules("lifeboat.md", "LB")
    assert not missing, f"rules without a test: {missing}"


def test_every_spanish_main_rule_has_a_scenario_or_test() -> None:
    """Every SM rule id of docs/rules/spanish-main.md has a scenario or a test filed under it."""
    missing = _unnamed_rules("spanish-main.md", "SM")
    assert not missing, f"rules without a test: {missing}"


def test_a_rule_id_in_a_comment_or_a_helper_files_no_test() -> None:
    """The coverage check above counts tests, not mentions (tests-2026-12 §4.11)."""
    source = '''"""Module text: LB-1."""
# LB-2 in a comment
def helper() -> None:
    """LB-3 in a helper's docstring."""
    x = "LB-4 in a string"


def test_lb5_by_name() -> None:
    pass


async def test_by_docstring() -> None:
    """LB-6, LB-7: two rules."""
    # LB-8 in a test's comment


def test_sm5_is_another_game_and_lb90x_no_rule() -> None:
    pass
'''
    assert rules_tests_are_under(source, "LB") == {"LB-5", "LB-6", "LB-7"}
    assert rules_tests_are_under(source, "SM") == {"SM-5"}


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

    docs = (ROOT / "docs" / "scenarios.md").read_text()
    block = docs.split("## Spanish Main", 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    sc = scenario.from_dict(tomllib.loads(block))
    assert sc.game == "spanish_main" and sc.expect
    assert scenario.check(scenario.run(sc), sc.expect) == []

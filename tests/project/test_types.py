"""The engine contract is declared and checked (issue 17 item 2): every built-in game's ruleset
subclasses the engine's protocols (so ``mypy --strict`` checks each method against them), a
game that previews says so with ``Previews``, and ``Any`` stays rare in the package."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import toygame
from paths import ROOT

from shipwreck.engine.core import Positions, Previews, Ruleset
from shipwreck.games import AnyRuleset, get_ruleset, positions, registry
from shipwreck.runtime import SeatSpec, Table

PACKAGE = ROOT / "shipwreck"

ANY_AT_START = 274
"""Lines naming ``Any`` (imports aside) in ``shipwreck/`` when issue 17 was filed."""

_ANY = re.compile(r"\bAny\b")


def any_lines(root: Path = PACKAGE) -> list[str]:
    """``grep -rn '\\bAny\\b' shipwreck --include=*.py | grep -v import``, in Python."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _ANY.search(line) and "import" not in line:
                found.append(f"{path.relative_to(root.parent)}:{n}: {line.strip()}")
    return found


def builtin_rulesets() -> list[AnyRuleset]:
    return [g.ruleset() for g in registry.all_games()]


def test_every_built_in_ruleset_declares_the_engine_contract() -> None:
    rulesets = builtin_rulesets()
    assert len(rulesets) >= 2
    for rules in rulesets:
        cls = type(rules)
        assert Ruleset in cls.__mro__, f"{cls.__name__} does not declare Ruleset"
        assert Positions in cls.__mro__, f"{cls.__name__} does not declare Positions"


def test_a_game_previews_exactly_when_it_declares_previews() -> None:
    previewing = []
    for rules in builtin_rulesets():
        declared = Previews in type(rules).__mro__
        assert declared == callable(getattr(rules, "preview", None)), rules.name
        if declared:
            previewing.append(rules.name)
    assert previewing, "one built-in game previews a move (Spanish Main)"


def test_a_table_without_previews_previews_nothing() -> None:
    """The runtime asks ``Previews``, not the game's name: a game without it (Lifeboat) gives
    None for any command, and its table goes on as before."""
    game = next(g for g in registry.all_games() if Previews not in type(g.ruleset()).__mro__)
    n = game.default_seats
    table = Table(game.name, [SeatSpec("human", player="ann")] + [SeatSpec("bot")] * (n - 1), 7)
    cmd = get_ruleset(game.name).default(table.state, 0)
    assert table.preview(0, cmd) is None


def test_a_game_outside_the_package_still_starts_from_a_position() -> None:
    """The toy game (tests/toygame) declares nothing; ``positions`` accepts it by its shape."""
    toygame.register()
    try:
        rules = positions(get_ruleset(toygame.NAME))
        state, events = rules.from_position(rules.position_type())
        assert events == [] and state is not None
    finally:
        toygame.unregister()


def test_a_ruleset_without_positions_is_refused_in_one_line() -> None:
    class NoPositions:
        name = "nopos"

    with pytest.raises(TypeError, match="nopos cannot start from a fixed position"):
        positions(NoPositions())  # type: ignore[arg-type]


def test_any_stays_under_a_third_of_what_it_was() -> None:
    lines = any_lines()
    assert len(lines) <= ANY_AT_START // 3, "\n".join(lines)


def test_the_any_count_sees_an_any(tmp_path: Path) -> None:
    pkg = tmp_path / "shipwreck"
    pkg.mkdir()
    (pkg / "m.py").write_text(
        "from typing import Any\n\ndef f(x: Any) -> int:\n    return 1\n# Anything else\n"
    )
    assert any_lines(pkg) == ["shipwreck/m.py:3: def f(x: Any) -> int:"]

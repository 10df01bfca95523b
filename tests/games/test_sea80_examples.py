"""Every Spanish Main move the README, the in-game help and the docs show works as the first
move of a new game (play-test problem 6: the README's own example was always refused)."""

from __future__ import annotations

import re

import pytest
from paths import ROOT

from shipwreck.games.spanish_main.codes import ship_names
from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.lang.help import markdown
from shipwreck.runtime import Lobby, SeatSpec, Table

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
"""Where examples are shown (the rules documents show none)."""
SEED = 2
"""A sea where isla-2 is within plantagenet's first move, so the dock example docks too."""
MOVE = re.compile(r"[`'\"](?:red: )?(move [a-z][a-z0-9-]*(?: [^`'\"]+)?)[`'\"]")
BLOCK = re.compile(r"^\s+(move [a-z][a-z0-9-]*(?: [A-Za-z0-9.+-]+)*?)\s{2,}")
"""A line of a code block: the command, then two spaces or more before what it means."""
TYPOS = {"move dovr S": "did you mean 'move dover S'?"}
"""Examples of a mistyped line, with the correction the docs show."""


def examples() -> list[str]:
    found: list[str] = []
    texts = [p.read_text(encoding="utf-8") for p in DOCS] + [markdown("spanish_main")]
    for text in texts:
        for line in text.splitlines():
            found += [m.group(1) for m in MOVE.finditer(line)]
            found += [m.group(1) for m in BLOCK.finditer(line)]
    return sorted({f.strip() for f in found if "SHIP" not in f and " ship " not in f})


def new_game(seed: int = SEED) -> Table:
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("empty")]
    return lobby.create_table("spanish_main", seats, creator="ann", seed=seed)


def sea(table: Table) -> SpanishMainView:
    view = table.view(0)
    assert isinstance(view, SpanishMainView)
    return view


def test_the_docs_show_moves_of_every_kind() -> None:
    """The collector finds the examples (a regex that found none would pass every test)."""
    found = examples()
    assert "move dover S 0 S 30" in found  # README, help
    assert "move plantagenet L 30 S -15" in found  # spanish_main_commands.md's block
    assert any(" toward " in f for f in found) and any(" dock " in f for f in found)
    assert set(TYPOS) <= set(found)


def first_move(table: Table, line: str) -> float:
    """Play ``line`` as red's first command; how far the ship's bow went. The ship may be
    named by her map code (``move lw L 0``)."""
    word = line.split()[1]
    ship = ship_names(sea(table)).get(word, word)
    before = next(s for s in sea(table).ships if s.id == ship)
    result = table.submit_text(0, line)
    assert result.ok, f"{line!r}: {result.message}"
    after = next(s for s in sea(table).ships if s.id == ship)
    return float(((after.x - before.x) ** 2 + (after.y - before.y) ** 2) ** 0.5)


@pytest.mark.parametrize("line", [e for e in examples() if e not in TYPOS])
def test_each_documented_move_works_as_a_first_move(line: str) -> None:
    """SM-12, SM-13: the line is accepted at the start of a new game (a dock, once the island is
    within her move) and the ship leaves the spot she was on (not stopped where she stood)."""
    table = new_game()
    if " dock " in line:
        # SM-14: only once the island is within her move (as the docs say): homes lie a move or
        # more from every wild island since SM-2 evens out treasure access, so sail toward it first
        ship, island = line.split()[1], line.split()[3]
        assert table.sit(1, "bob") is None
        for seat, text in ((0, f"move {ship} toward {island}"), (0, "end turn"), (1, "end turn")):
            assert table.submit_text(seat, text).ok, text
    went = first_move(table, line)
    if " dock " in line:  # (the last stretch to the island: she docks there)
        assert went > 0.05, f"{line!r} left her where she was"
        assert next(s.docked for s in sea(table).ships if s.id == line.split()[1]) == "isla-2"
    else:
        assert went > 1.0, f"{line!r} left her where she was"


@pytest.mark.parametrize("line", sorted(TYPOS))
def test_a_documented_typo_gets_the_documented_correction(line: str) -> None:
    from shipwreck.lang import parse_command

    table = new_game()
    with pytest.raises(Exception, match=re.escape(TYPOS[line])):
        parse_command("spanish_main", line, sea(table))


@pytest.mark.parametrize("seed", range(1, 13))
def test_the_harbour_examples_work_in_most_seas(seed: int) -> None:
    """The examples that sail from the home harbour without a target island work whatever the
    sea (the island one needs isla-2 within reach, as the docs say)."""
    for line in examples():
        if line in TYPOS or " dock " in line:
            continue
        assert first_move(new_game(seed), line) > 1.0, f"seed {seed}: {line!r} did not move her"

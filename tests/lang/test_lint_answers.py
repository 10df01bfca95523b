"""``bot check`` catches what used to fail only at play time (issue 20, the author's workbench): a
command that cannot answer its handler's decision (``take`` in ``on turn:``), a side action as
an answer, a literal out of range (``choose 99``), a condition that can never be worked out within
a decision's step budget; and a mistyped command gets "did you mean" and the whole list.

The answer tables (``ANSWERS`` in each game's bot environment) are checked against the engine:
every answer the rules offer in random games is one the lint allows, so the lint never refuses a
move the game would take."""

from __future__ import annotations

from collections import defaultdict
from types import ModuleType

import pytest
from random_play import random_prompts

from shipwreck.lang.bots import (
    lifeboat_env,
    load_bot,
    load_source,
    shipped_names,
    spanish_main_env,
)
from shipwreck.lang.bots.lint import check_source
from shipwreck.lang.bots.runner import DEFAULT_BUDGET
from shipwreck.resources import bots_dir
from shipwreck.sim import play_seated

SCRIPT_ONLY = {"keep_where", "load_where", "move_to"}
"""Answers only a script writes (the bot grammar's own forms of keep, load and move)."""


def _tag(cmd: object) -> str:
    return str(type(cmd).__struct_config__.tag).replace("-", "_")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("game", "env", "seats", "games"),
    [("lifeboat", lifeboat_env, 6, 30), ("spanish_main", spanish_main_env, 2, 4)],
)
def test_the_answer_tables_allow_every_answer_the_rules_offer(
    game: str, env: ModuleType, seats: int, games: int
) -> None:
    seen: dict[str, set[str]] = defaultdict(set)
    for rules, state, prompts in random_prompts(game, seats, games, 20_000):
        for p in prompts:
            seen[p.kind] |= {_tag(c) for c in rules.choices(state, p.seat)}
    assert set(seen) <= set(env.ANSWERS)
    for kind, tags in seen.items():
        assert tags <= env.ANSWERS[kind], (kind, tags - env.ANSWERS[kind])
        # and nothing is allowed that the rules never offered (a script-only form aside)
        assert env.ANSWERS[kind] - tags <= SCRIPT_ONLY, (kind, env.ANSWERS[kind] - tags)
    assert {_tag_of(t) for t in rules.free_types} == env.SIDE_ACTIONS
    assert set(env.ANSWERS) == set(env.DECISIONS)


def _tag_of(t: type) -> str:
    return str(t.__struct_config__.tag).replace("-", "_")  # type: ignore[attr-defined]


def _findings(body: str, game: str = "lifeboat") -> list[str]:
    return [str(f) for f in check_source(f'bot "T" for {game}\n{body}', "t.bot")]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "on turn:\n    else -> take water\n",
            "t.bot:3:13: error: 'take' cannot answer 'on turn:'; it takes fire, rest, rob, row,"
            " swap, use",
        ),
        (
            "on turn:\n    when me.wounds > 1 -> drop knife\n    else -> rest\n",
            "t.bot:3:27: error: 'drop' is a side action: it does not answer 'on turn:'; it takes"
            " fire, rest, rob, row, swap, use",
        ),
        (
            "on supply:\n    else -> offer water to friend\n",
            "t.bot:3:13: error: 'offer' is a side action: it does not answer 'on supply:'; it"
            " takes take",
        ),
        (
            "on navigate:\n    else -> choose 99\n",
            "t.bot:3:20: error: there is no card 99: they are 19 to 42",
        ),
        (
            "on keep:\n    else -> keep 21 18\n",
            "t.bot:3:21: error: there is no card 18: they are 19 to 42",
        ),
    ],
)
def test_lb_a_command_that_would_be_refused_is_an_error_now(body: str, message: str) -> None:
    assert message in _findings(body)


def test_sm_a_command_for_another_decision_and_a_side_action() -> None:
    found = _findings("on eliminate:\n    else -> end turn\n", "spanish_main")
    assert found == [
        "t.bot:3:13: error: 'end turn' cannot answer 'on eliminate:'; it takes eliminate"
    ]
    found = _findings("on turn:\n    else -> break tow dover\n", "spanish_main")
    assert found[0].startswith(
        "t.bot:3:13: error: 'break tow' is a side action: write it under 'on side:', not 'on turn:'"
    )


def test_sm_side_actions_answer_on_side_and_nothing_else_does() -> None:
    """SM-10, SM-61: ``on side:`` takes exactly the game's free actions and ``pass``; a turn's
    action there is an error, with what it takes."""
    assert spanish_main_env.ANSWERS["side"] == spanish_main_env.SIDE_ACTIONS | {"pass"}
    assert set(spanish_main_env.DECISIONS) >= spanish_main_env.SIDE_BEFORE
    ok = "on side:\n    when ship != none -> drop off (first c in ship.aboard where true) from ship"
    assert not [f for f in _findings(ok + "\n    else -> pass\n", "spanish_main") if "error" in f]
    found = _findings("on side:\n    else -> explore ship\n", "spanish_main")
    assert found[0].startswith("t.bot:3:13: error: 'explore' cannot answer 'on side:'; it takes")


@pytest.mark.parametrize(
    "body",
    [
        "on thirst:\n    when has(water) -> give water to friend\n    else -> drink\n",
        "on offer:\n    when trade.ask == none -> accept\n    else -> decline\n",
        "on keep:\n    else -> keep where card.birds == 0\n",
        "on navigate:\n    else -> choose 19\n",
        "on turn:\n    else -> random\n",
        "on turn:\n    else -> search 10\n",
    ],
)
def test_answers_the_game_takes_pass(body: str) -> None:
    assert not [f for f in _findings(body) if ": error: " in f]


def test_every_shipped_bot_still_passes() -> None:
    for name in shipped_names():
        path = bots_dir() / f"{name}.bot"
        errors = [f for f in check_source(path.read_text(), str(path)) if f.level == "error"]
        assert errors == [], name


def test_a_condition_that_can_never_be_worked_out_within_the_budget_is_an_error() -> None:
    """A flat chain of 6,000 ``+`` passed the lint and failed every decision (each link is a
    step, and a decision has 5,000). ``and`` may stop after its first part, so a long chain
    behind it is not an error."""
    chain = " + ".join(["1"] * 6000)
    found = _findings(f"on turn:\n    when {chain} > 0 -> row\n    else -> rest\n")
    assert found == [
        "t.bot:3:10: error: this condition takes at least 6000 steps to work out, and a"
        f" decision may take {DEFAULT_BUDGET}: split it, or make it shorter"
    ]
    behind_and = _findings(f"on turn:\n    when false and {chain} > 0 -> row\n    else -> rest\n")
    assert not [f for f in behind_and if ": error: " in f]
    short = " + ".join(["1"] * 1000)
    assert not [
        f
        for f in _findings(f"on turn:\n    when {short} > 0 -> row\n    else -> rest\n")
        if ": error: " in f
    ]
    # (and what the lint says is so: the compiled chain fails at every turn, the rule's own
    # line named: over the budget, or too deep for the evaluator first)
    source = f'bot "T" for lifeboat\non turn:\n    when {chain} > 0 -> row\n    else -> rest\n'
    script = load_source(source, "t.bot")
    _, _, players = play_seated("lifeboat", 1, [script, load_bot("random")], [0, 1, 1, 1])
    turns = [e for e in players[0].trace if e.decision == "turn"]
    assert turns and all(e.note.startswith("line 3: ") and e.command == "rest" for e in turns)


def test_a_mistyped_command_gets_did_you_mean_and_the_whole_list() -> None:
    found = _findings("on turn:\n    else -> rwo\n")
    assert len(found) == 1
    assert found[0].startswith("t.bot:3:13: error: unexpected 'rwo'; did you mean 'row'? expected ")
    listed = found[0].split("? expected ", 1)[1]
    for word in ("row", "swap", "rob", "use", "fire", "rest", "take", "wound", "throw", "search"):
        assert f"'{word}'" in listed  # every one (the list was cut at 160 characters)

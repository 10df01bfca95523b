"""``bot check`` refuses a value of the wrong kind (issue 20, the author's workbench):
``"knife" in c.hidden`` where ``c.hidden`` is a count, a character compared with text, an item
name that no item has, arithmetic on text, an attribute of another kind of object, a function
given the wrong kind of argument. One line each, with its line and column and the fix.

The kind tables (``KINDS`` in each game's bot environment) are checked against the values the
environments really give in random games, so the check never refuses a script that works: and
every shipped bot passes it."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from random_play import random_prompts

from shipwreck.games.lifeboat.view import CharacterView, FightView, RequestView, TradeView
from shipwreck.games.spanish_main.view import CoinView
from shipwreck.lang.bots import (
    lifeboat_env,
    load_bot,
    load_source,
    shipped_names,
    spanish_main_env,
)
from shipwreck.lang.bots.kinds import LIST, KindTable
from shipwreck.lang.bots.lint import check_source
from shipwreck.resources import bots_dir
from shipwreck.sim import play_seated


def _findings(body: str, game: str = "lifeboat") -> list[str]:
    return [str(f) for f in check_source(f'bot "T" for {game}\n{body}', "t.bot")]


def _turn(guard: str) -> str:
    return f"on turn:\n    when {guard} -> row\n    else -> rest\n"


@pytest.mark.parametrize(
    ("guard", "message"),
    [
        (
            'any c in others where "knife" in c.hidden',
            "t.bot:3:43: error: 'in' looks in a list, and c.hidden is a number; '.hidden' counts"
            " them; my own hidden items are the list hidden",
        ),
        (
            'asker == "kid"',
            't.bot:3:10: error: asker is a character and "kid" is text: they are never equal;'
            " write kid without quotes",
        ),
        ('"knif" in offer', "t.bot:3:10: error: there is no item 'knif'; did you mean 'knife'?"),
        ('"wter" in hidden', "t.bot:3:10: error: there is no item 'wter'; did you mean 'water'?"),
        (
            "painting in hidden",
            "t.bot:3:10: error: there is no item 'painting'; did you mean 'painting:3'?",
        ),
        ('has("knif")', "t.bot:3:14: error: there is no item 'knif'; did you mean 'knife'?"),
        ('me.wounds + "x" > 0', "t.bot:3:22: error: '+' works with numbers, and \"x\" is text"),
        (
            "birds == water",
            "t.bot:3:10: error: birds is a number and water is an item: they are never equal",
        ),  # fmt: skip
        (
            'me.seat == "1"',
            't.bot:3:10: error: me.seat is a number and "1" is text: they are never equal',
        ),  # fmt: skip
        (
            'side(me) == "defendr"',
            "t.bot:3:22: error: there is no side 'defendr'; did you mean 'defender'?",
        ),
        ("has(kid)", "t.bot:3:14: error: has() takes an item, and kid is a character"),
        (
            "me in fight.done",
            "t.bot:3:10: error: fight.done holds character ids, and me is a character: it is"
            " never there; compare ids: write .id after the character (me.id)",
        ),
        ("me < friend", "t.bot:3:10: error: '<' compares numbers, and me is a character"),
        (
            "friend.birds > 0",
            "t.bot:3:17: error: friend is a character, and '.birds' belongs to a navigation card",
        ),
        (
            '"kid" in others',
            't.bot:3:10: error: others holds characters, and "kid" is text: it is never there;'
            " write kid without quotes",
        ),
        (
            "any i in me.hidden where true",
            "t.bot:3:19: error: 'any i in …' needs a list, and me.hidden is a number; '.hidden'"
            " counts them; my own hidden items are the list hidden",
        ),
        (
            "(best c in table by c) != none",
            "t.bot:3:30: error: 'best … by' orders by a number, and c is a navigation card",
        ),
        (
            'request.kind == "steal"',
            "t.bot:3:26: error: there is no request kind 'steal'; request kinds are swap, rob",
        ),  # fmt: skip
    ],
)
def test_lb_a_value_of_the_wrong_kind_is_an_error(guard: str, message: str) -> None:
    assert _findings(_turn(guard)) == [message]


def test_a_wrong_kind_inside_a_command_is_found_too() -> None:
    found = _findings(
        'on turn:\n    else -> rob (best c in others by c.hidden where "knif" in c.items) hidden\n'
    )
    assert found == ["t.bot:3:53: error: there is no item 'knif'; did you mean 'knife'?"]
    keep = _findings(
        'on keep:\n    else -> keep where card.birds > 0 and "kid" in card.overboard\n'
    )
    assert keep == [
        't.bot:3:43: error: card.overboard holds characters, and "kid" is text: it is never'
        " there; write kid without quotes"
    ]


@pytest.mark.parametrize(
    ("handler", "command", "message"),
    [
        (
            "supply",
            "take (best c in others by c.power)",
            "t.bot:3:19: error: 'take' takes an item, and best c in others by c.power is a"
            " character",
        ),
        (
            "turn",
            "rob (best i in offer by value(i)) hidden",
            "t.bot:3:18: error: 'rob' takes a character or a character id, and best i in offer"
            " by value(i) is an item",
        ),
        (
            "turn",
            'use ("knif")',
            "t.bot:3:18: error: there is no item 'knif'; did you mean 'knife'?",
        ),
        (
            "navigate",
            "choose (best c in others by c.power)",
            "t.bot:3:21: error: 'choose' takes a navigation card or a number, and best c in"
            " others by c.power is a character",
        ),
        (
            "keep",
            "keep 21 (me)",
            "t.bot:3:22: error: 'keep' takes a navigation card or a number, and me is a character",
        ),
        ("fight", "join (me)", "t.bot:3:19: error: 'join' takes a side, and me is a character"),
    ],
)
def test_lb_a_command_word_of_the_wrong_kind_is_an_error(
    handler: str, command: str, message: str
) -> None:
    assert _findings(f"on {handler}:\n    else -> {command}\n") == [message]


@pytest.mark.parametrize(
    "body",
    [
        "on turn:\n    else -> use medkit on (friend)\n",
        'on turn:\n    else -> swap ("kid")\n',
        "on turn:\n    else -> rob (best c in others by c.hidden) hidden\n",
        "on navigate:\n    else -> choose (best c in table by c.birds)\n",
        "on keep:\n    else -> keep 21 (first c in drawn where c.birds > 0)\n",
        "on fight:\n    else -> join (side(friend))\n",
        "on supply:\n    else -> take (best i in offer by value(i))\n",
    ],
)
def test_command_words_of_the_right_kind_pass(body: str) -> None:
    assert _findings(body) == []


def test_sm_a_command_word_of_the_wrong_kind_is_an_error() -> None:
    found = _findings(
        "on turn:\n    when ship == none -> end turn\n"
        "    else -> move ship to (best m in ship.rig by m.rank)\n"
        "on eliminate:\n    else -> eliminate (ship)\n",
        "spanish_main",
    )
    assert found == [
        "t.bot:4:27: error: 'move to' takes a ship or an island, and best m in ship.rig by"
        " m.rank is a mast",
        "t.bot:6:24: error: 'eliminate' takes a mast or a number, and ship is a ship",
    ]
    fine = (
        "on after_move:\n    else -> tow ship (best t in tows by t.cargo_used)\n"
        "on load:\n    else -> load ship (coins) 3\n"
        "on eliminate:\n    else -> eliminate (worst m in ship.rig by m.rank)\n"
    )
    assert _findings(fine, "spanish_main") == []


@pytest.mark.parametrize(
    ("guard", "message"),
    [
        (
            '"stael" in takes',
            "t.bot:3:10: error: there is no boarding take 'stael'; did you mean 'steal'?",
        ),  # fmt: skip
        (
            'any m in ship.rig where m.range == "M"',
            "t.bot:3:45: error: there is no cannon range 'M'; cannon ranges are S, L",
        ),
        (
            "distance(ship, 3) > 2",
            "t.bot:3:25: error: distance() takes a ship or an island, and 3 is a number",
        ),
        (
            "ship.cargo > 0",
            "t.bot:3:10: error: '>' compares numbers, and ship.cargo is a list of coins",
        ),
        (
            "nearest(wild, ship).laden",
            "t.bot:3:30: error: nearest(wild, ship) is an island, and '.laden' belongs to a ship",
        ),
    ],
)
def test_sm_a_value_of_the_wrong_kind_is_an_error(guard: str, message: str) -> None:
    body = f"on turn:\n    when {guard} -> end turn\n    else -> end turn\n"
    assert _findings(body, "spanish_main") == [message]


@pytest.mark.parametrize(
    ("game", "guard"),
    [
        ("lifeboat", '"water" in offer and held(water) < 1'),
        ("lifeboat", 'has(painting) and "painting:3" in hidden and phase == "actions"'),
        ("lifeboat", "asker == friend and (best i in offer by value(i)) == knife"),
        ("lifeboat", 'any c in table where c == 21 and me in c.overboard and me.id == "kid"'),
        ("lifeboat", 'side(me) == none and trade.ask == none and request.kind == "rob"'),
        ("lifeboat", "me.id in fight.done and len(hidden) + true > min(1, birds, -round)"),
        ("spanish_main", 'ship == "dover" and ship.at == home and "kill" in takes'),
        ("spanish_main", "len(wild) > 0 and nearest(wild, ship).coins > 0 and value(ship) > 0"),
        ("spanish_main", 'any m in ship.rig where m.range == "L" and m.up'),
    ],
)
def test_values_of_the_right_kind_pass(game: str, guard: str) -> None:
    cmd = "row" if game == "lifeboat" else "end turn"
    body = f"on turn:\n    when {guard} -> {cmd}\n    else -> {cmd}\n"
    assert _findings(body, game) == []


def test_every_shipped_bot_passes_the_kind_check() -> None:
    for name in shipped_names():
        path = bots_dir() / f"{name}.bot"
        assert [str(f) for f in check_source(path.read_text(), str(path))] == [], name


def test_what_the_check_refuses_does_fail_at_play_time() -> None:
    """``"knife" in c.hidden`` is no lint's opinion: the rule fails at every decision that
    reaches it, and the seat plays the safe default (the trace says why)."""
    source = (
        'bot "T" for lifeboat\non turn:\n    when any c in others where "knife" in c.hidden'
        " -> row\n    else -> rest\n"
    )
    script = load_source(source, "t.bot")
    _, _, players = play_seated("lifeboat", 1, [script, load_bot("random")], [0, 1, 1, 1])
    turns = [e for e in players[0].trace if e.decision == "turn"]
    assert turns and all(e.note.startswith("line 3: ") and e.command == "rest" for e in turns)


# ----------------------------------------------------------------- the tables tell the truth

_OBJECTS: dict[str, dict[str, type]] = {
    "lifeboat": {
        "character": CharacterView,
        "card": lifeboat_env.Card,
        "fight": FightView,
        "request": RequestView,
        "trade": TradeView,
    },
    "spanish_main": {
        "ship": spanish_main_env.Ship,
        "island": spanish_main_env.Island,
        "coin": CoinView,
        "mast": spanish_main_env.Mast,
        "crew": spanish_main_env.CrewPiece,
    },
}


def _conforms(value: Any, kind: str, table: KindTable, objects: dict[str, type]) -> bool:
    if value is None or kind == "any":
        return True
    if kind.startswith(LIST):
        inner = kind[len(LIST) :]
        return isinstance(value, list | tuple) and all(
            _conforms(v, inner, table, objects) for v in value
        )
    if kind == "number":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "text":
        return isinstance(value, str)
    if kind in table.values:
        return isinstance(value, str) and value in table.values[kind]
    return isinstance(value, objects[kind])


@pytest.mark.parametrize(
    ("game", "env", "seats", "games"),
    [("lifeboat", lifeboat_env, 6, 12), ("spanish_main", spanish_main_env, 2, 2)],
)
def test_the_kind_tables_match_what_the_environments_give(
    game: str, env: ModuleType, seats: int, games: int
) -> None:
    table: KindTable = env.KINDS
    objects = _OBJECTS[game]
    # every name, attribute and function has a kind, and nothing else does
    assert set(table.names) | table.literal_names == set(env.NAMES)
    assert set(table.functions) == set(env.FUNCTIONS)
    assert set(table.commands) <= {t for ts in env.ANSWERS.values() for t in ts} | env.SIDE_ACTIONS
    by_type = {objects[k]: attrs for k, attrs in table.attrs.items()}
    assert {t: set(a) for t, a in by_type.items()} == {t: set(a) for t, a in env.ATTRS.items()}
    checked = 0
    steps = 3_000 if game == "lifeboat" else 300
    for rules, state, prompts in random_prompts(game, seats, games, steps):
        for p in [p for p in prompts if p.blocking][:1]:
            names = env.names_for(rules.view(state, p.seat), p.kind)
            for name, value in names.items():
                if name in table.literal_names:
                    assert value == name
                    continue
                if name.startswith("#"):
                    continue
                kind = table.names[name]
                assert _conforms(value, kind, table, objects), (name, kind, value)
                for v in value if isinstance(value, list) else [value]:
                    of = next((k for k, t in objects.items() if isinstance(v, t)), "")
                    for attr, akind in table.attrs.get(of, {}).items():
                        got = env.ATTRS[type(v)][attr](v)
                        if attr in env.CHARACTER_FIELDS:  # (as the evaluator reads them)
                            got = env.as_character(got, _Ctx(names))
                        assert _conforms(got, akind, table, objects), (name, attr, akind, got)
                        checked += 1
    assert checked > 1000


class _Ctx:
    """What ``as_character`` reads of a decision's context: its names."""

    def __init__(self, names: dict[str, Any]) -> None:
        self.names = names

"""Spanish Main bot scripts: the shipped bots lint clean and decide sensibly; the raider beats
random play; every Spanish Main name is documented."""

from __future__ import annotations

from pathlib import Path

from shipwreck.cli import main
from shipwreck.games.spanish_main import RULES
from shipwreck.games.spanish_main import commands as C
from shipwreck.lang.bots import BotPlayer, load_bot, load_source
from shipwreck.lang.bots import spanish_main_env as env
from shipwreck.lang.bots.lint import check_source
from shipwreck.resources import bots_dir
from shipwreck.sim import play_bots

ROOT = Path(__file__).resolve().parents[1]
SM_BOTS = sorted(bots_dir().glob("sm_*.bot"))


def test_shipped_sm_bots_lint_clean() -> None:
    assert len(SM_BOTS) == 3
    for p in SM_BOTS:
        assert check_source(p.read_text(encoding="utf-8"), str(p)) == [], p


def test_sm_names_documented() -> None:
    md = (ROOT / "docs" / "bots.md").read_text()
    missing = [n for n in env.NAME_HELP if f"`{n}`" not in md]
    missing += [a for a in env.ALL_ATTRS if f"`.{a}`" not in md]
    missing += [f for f in env.FUNCTIONS if f"`{f}(" not in md]
    missing += [d for d in env.DECISIONS if f"`on {d}:`" not in md]
    assert not missing


def test_lint_knows_the_game() -> None:
    src = 'bot "X" for spanish_main\non supply:\n    else -> end turn\n'
    (f,) = [f for f in check_source(src, "x.bot") if f.level == "error"]
    assert "spanish_main has no 'supply' decision" in f.message
    src = 'bot "X" for spanish_main\non turn:\n    when me.wounds > 0 -> end turn\n'
    assert any("unknown name 'me'" in f.message for f in check_source(src, "x.bot"))


def test_first_turn_decisions() -> None:
    state, _ = RULES.new_game(5, 2)
    view = RULES.view(state, 0)
    hauler = BotPlayer(load_bot("sm_hauler"), seed=1)
    d = hauler.decide(view, "turn")
    assert isinstance(d.command, C.MoveDock | C.MoveToward), d.entry
    names = env.names_for(view, "turn")
    assert names["ship"] is not None and names["ship"].s.owner == 0
    assert d.command.ship == names["ship"].s.id
    target = d.command.island if isinstance(d.command, C.MoveDock) else d.command.target
    assert target in {i.i.id for i in names["wild"]}


def test_expressions_in_command_words() -> None:
    state, _ = RULES.new_game(5, 2)
    view = RULES.view(state, 0)
    src = (
        'bot "X" for spanish_main\non turn:\n'
        "    when true -> move ship toward (nearest(enemy_ships, ship))\n    else -> end turn\n"
    )
    d = BotPlayer(load_source(src)).decide(view, "turn")
    assert isinstance(d.command, C.MoveToward)
    assert d.command.target in {s.id for s in view.ships if s.owner == 1}
    src = 'bot "X" for spanish_main\non turn:\n    else -> move ship L (10 + 20) S\n'
    d = BotPlayer(load_source(src)).decide(view, "turn")
    assert isinstance(d.command, C.Move) and d.command.legs[0] == ("L", 30.0, None)


def test_lifeboat_view_gives_sm_script_the_default() -> None:
    from shipwreck.games.lifeboat import RULES as LB

    state, _ = LB.new_game(1, 6)
    d = BotPlayer(load_bot("sm_raider")).decide(LB.view(state, 0), "turn")
    assert d.command is None and "cannot read" in d.entry.note


def _wins(bot: str, games: int) -> float:
    """Two-seat games against sm_random, seats alternating."""
    me, rnd = load_bot(bot), load_bot("sm_random")
    won = 0.0
    for g in range(games):
        flip = g % 2
        bots = [BotPlayer(me, seed=g * 10), BotPlayer(rnd, seed=g * 10 + 1)]
        if flip:
            bots.reverse()
        result, seats = play_bots("spanish_main", 100 + g, bots, 2)
        if seats[flip] in result.winners:
            won += 1 / len(result.winners)
    return won / games


def test_raider_beats_random() -> None:
    assert _wins("sm_raider", 40) >= 0.75


def test_sim_cli_spanish_main_bots(capsys: object) -> None:
    assert (
        main(["sim", "--game", "spanish_main", "--games", "2", "--bots", "sm_raider,sm_hauler"])
        == 0
    )

"""Every decision a game can block on has a clock at a table of several players (issue 16):
a player who steps away from a Spanish Main boarding or loading never holds the table for good.

Each game registers a timer for each kind of decision it asks (``Game.timers``); the server's
``[timers]`` starts from them. Before this, ``server.toml`` named only Lifeboat's kinds and
``turn``, so a Spanish Main ``load``, ``board`` or ``after_move`` waited forever.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from paths import ROOT
from random_play import random_prompts
from table_helpers import Clock

from shipwreck.config import Config, ConfigError, decision_timers, load_server_config
from shipwreck.games import registry
from shipwreck.runtime import Lobby, SeatSpec, Table

GAMES = {"lifeboat": 4, "spanish_main": 2}


def blocking_kinds(game: str, games: int = 12, steps: int = 400) -> set[str]:
    """Every kind of blocking decision random games of ``game`` ask."""
    kinds: set[str] = set()
    for _rules, _state, prompts in random_prompts(game, GAMES[game], games, steps):
        kinds.update(p.kind for p in prompts if p.blocking)
    return kinds


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_blocking_decision_of_each_game_has_a_default_timer(game: str) -> None:
    """The kinds random games block on are all in the game's own timers, each above 0, and the
    server's defaults (no file, and the shipped ``server.toml``) time every one of them."""
    asked = blocking_kinds(game)
    own = registry.get(game).timers
    assert asked <= set(own), f"{game} asks kinds it has no timer for: {asked - set(own)}"
    for timers in (decision_timers(Config()), decision_timers(load_server_config(None))):
        assert all(timers[k] > 0 for k in asked), {k: timers[k] for k in asked}
    shipped = decision_timers(load_server_config(ROOT / "server.toml"))
    assert {k: shipped[k] for k in asked} == {k: own[k] for k in asked}, "server.toml differs"


def test_a_kind_no_game_names_falls_back_to_other() -> None:
    lobby = Lobby(seed=1, timers={"other": 7}, clock=Clock(), solo_timers=True)
    table = lobby.create_table(
        "spanish_main", [SeatSpec("human"), SeatSpec("bot", "sm_random")], "ann", seed=2
    )
    table.prompt_shown(0)
    assert table.deadline(0) == 7, "turn is named by no timer here: it gets other's 7 s"


def test_a_typo_in_the_timers_section_is_refused_naming_the_kinds(tmp_path: Path) -> None:
    config = tmp_path / "server.toml"
    config.write_text("[timers]\nboard = 30\nlaod = 30\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[timers\] laod is no kind of decision; .*load"):
        load_server_config(config)
    config.write_text("[timers]\nboard = -1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"board = -1; use 0"):
        load_server_config(config)


def _blocked_humans(table: Table) -> dict[int, str]:
    return {p.seat: p.kind for p in table.rules.prompts(table.state) if p.blocking}


def test_sm_every_decision_of_two_players_has_a_deadline_and_passes_when_it_runs_out() -> None:
    """Two players at a Spanish Main table on the server's default timers: whatever the game
    asks (a turn, a move's after-move, loading, a hit's elimination, boarding, plunder), the
    seat asked has a deadline; letting every third one run out plays the safe default and the
    game goes on. Run until each kind has been both timed and timed out."""
    timers = decision_timers(load_server_config(ROOT / "server.toml"))
    wanted = blocking_kinds("spanish_main")
    timed: set[str] = set()
    timed_out: set[str] = set()
    for seed in range(40):
        clock = Clock()
        lobby = Lobby(seed=1, timers=timers, clock=clock)
        table = lobby.create_table("spanish_main", [SeatSpec("human"), SeatSpec("empty")], "ann")
        assert table.sit(1, "bob") is None
        table.prompt_shown(0)
        table.prompt_shown(1)
        pick = random.Random(seed)
        for step in range(600):
            if table.over:
                break
            asked = _blocked_humans(table)
            assert asked, "a game that is not over asks someone"
            for seat, kind in asked.items():
                left = table.deadline(seat)
                assert left is not None and left > 0, f"seed {seed} step {step}: {kind} untimed"
                assert left == timers[kind]
                timed.add(kind)
            seat, kind = next(iter(asked.items()))
            if step % 3 == 2:
                before = len(table.commands)
                clock.now += timers[kind] + 1
                assert table.tick() == 1
                assert len(table.commands) > before, "the timeout was not recorded"
                timed_out.add(kind)
                continue
            choices = list(table.rules.choices(table.state, seat))
            assert table.submit(seat, pick.choice(choices)).ok
        if timed >= wanted and timed_out >= wanted:
            break
    assert timed >= wanted, f"never timed: {wanted - timed}"
    assert timed_out >= wanted, f"never timed out: {wanted - timed_out}"

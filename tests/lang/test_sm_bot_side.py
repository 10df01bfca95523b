"""Bot scripts take side actions (``on side:``): Spanish Main's free actions in one's turn, crew
at a dock (SM-61) and the cards' own (SM-60), each a command of its own in the table's log; the
shipped hauler and raider use them with crewed fleets."""

from __future__ import annotations

from pathlib import Path

import msgspec
from paths import TESTS

from shipwreck.botseat import bot_move
from shipwreck.games.spanish_main import RULES
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.setup import from_position
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.lang.bots import BotPlayer, load_bot, load_source, spanish_main_env
from shipwreck.lang.bots.runner import SIDE_LIMIT
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.scenario import load
from shipwreck.sim import play_seated
from shipwreck.store import Store

CREW_DOCK = TESTS / "scenarios" / "sm-61-crew-moves-between-ships-at-a-dock.toml"
"""Red's dover (an Explorer aboard) and plantagenet docked together at home, red to play."""


def _dock() -> SpanishMainState:
    state, _ = from_position(load(CREW_DOCK).position)
    return state


def _bot(body: str) -> BotPlayer:
    return BotPlayer(load_source(f'bot "T" for spanish_main\n{body}', "t.bot"))


def test_sm61_a_side_action_is_played_and_the_turn_is_asked_again() -> None:
    """SM-61: ``on side:`` moves the Explorer (a free action), then the same turn decision is
    asked again; the side rule no longer fires and the turn's own answer follows."""
    state = _dock()
    bot = _bot(
        "on side:\n"
        '    when any c in (first s in my_ships where s.id == "dover").aboard where true'
        " -> transfer explorer-english from dover to plantagenet\n"
        "    else -> pass\n"
        "on turn:\n    else -> end turn\n"
    )
    cmd, _ = bot_move(RULES, state, 0, "turn", bot)
    assert cmd == C.Transfer("explorer-english", "dover", "plantagenet")
    assert [c.card for c in state.ships["plantagenet"].aboard] == ["explorer-english"]
    assert state.turn == 0 and state.step == "turn"  # the turn is still red's
    cmd, _ = bot_move(RULES, state, 0, "turn", bot)
    assert cmd == C.EndTurn()
    assert [(e.decision, e.command) for e in bot.trace] == [
        ("side", "transfer explorer-english from dover to plantagenet"),
        ("turn", "end turn"),
    ]


def test_side_actions_that_undo_one_another_stop_at_the_limit() -> None:
    """A script that moves a crew there and back cannot loop: at most SIDE_LIMIT side actions
    before each answer."""
    state = _dock()
    bot = _bot(
        "on side:\n"
        '    when len((first s in my_ships where s.id == "dover").aboard) > 0'
        " -> transfer explorer-english from dover to plantagenet\n"
        "    else -> transfer explorer-english from plantagenet to dover\n"
        "on turn:\n    else -> end turn\n"
    )
    played = []
    while state.turn == 0:
        cmd, _ = bot_move(RULES, state, 0, "turn", bot)
        played.append(type(cmd).__name__)
    assert played == ["Transfer"] * SIDE_LIMIT + ["EndTurn"]


def test_a_refused_side_action_is_not_tried_again_and_the_turn_goes_on() -> None:
    """The engine refuses a side action (a ship at sea cannot drop crew): the trace says so, the
    turn's own answer is played (not the safe default), and the refused action is not tried
    again that round; a side rule that names no side action is noted and passed over."""
    state = _dock()
    bot = _bot(
        "on side:\n"
        "    when round == 1 -> drop off explorer-english from far-red\n"
        "    else -> pass\n"
        "on turn:\n"
        '    when ship != none and ship.id == "dover" -> move dover toward isla-3\n'
        "    else -> end turn\n"
    )
    cmd, _ = bot_move(RULES, state, 0, "turn", bot)
    assert isinstance(cmd, C.MoveToward)
    side = bot.trace[0]
    assert side.decision == "side" and side.note.startswith("refused (")
    assert side.note.endswith("): on to the decision")
    if state.step == "after_move":
        bot_move(RULES, state, 0, "after_move", bot)
    bot_move(RULES, state, 0, "turn", bot)
    assert [e.decision for e in bot.trace].count("side") == 1
    wrong = _bot("on side:\n    else -> explore dover\non turn:\n    else -> end turn\n")
    cmd, _ = bot_move(RULES, _dock(), 0, "turn", wrong)
    assert cmd == C.EndTurn()
    assert "'explore dover' is not a side action" in wrong.trace[0].note


async def test_a_bots_side_actions_are_in_the_tables_log_and_a_restart_replays_them(
    tmp_path: Path,
) -> None:
    """SM-61: at a table the hauler's crew moves are commands of their own, saved before they
    are seen; a restart rebuilds the same game from the log."""
    lobby = Lobby(seed=1)
    lobby.attach_store(Store(tmp_path / "s.db"))
    specs = [SeatSpec("human", fleet="navy"), SeatSpec("bot", "sm_hauler", fleet="smugglers")]
    table = lobby.create_table("spanish_main", specs, "ann", 3)
    for _ in range(4):
        assert table.submit_text(0, "end turn").ok
        if any(text.startswith("drop off") for _, text in table.commands):
            break
    assert not table.over
    crew = [text for seat, text in table.commands if text.startswith("drop off")]
    assert crew and all(seat == 1 for seat, text in table.commands if text in crew)
    again = Lobby(seed=1)
    assert again.attach_store(Store(tmp_path / "s.db")) == 1
    back = again.tables[table.id]
    assert back.commands == table.commands
    assert msgspec.json.encode(back.state) == msgspec.json.encode(table.state)


def test_sm60_sm61_the_shipped_bots_use_crew_and_cards_with_crewed_fleets() -> None:
    """SM-60, SM-61: with crewed fleets the raider looks at enemy cargo (Lucky the Parrot) and
    both put crew ashore for one more coin; an Explorer explores with the move that docked her;
    no side action of theirs is refused and no decision falls back to the safe default."""
    scripts = [load_bot("sm_raider"), load_bot("sm_hauler")]
    seen: list[str] = []
    for seed in range(1, 5):
        options = {"fleets": [["corsairs"], ["armada"]]}
        order = [seed % 2, 1 - seed % 2]
        result, _, players = play_seated("spanish_main", seed, scripts, order, 2000, None, options)
        assert result.end_reason and "round" not in result.end_reason
        for p in players:
            for e in p.trace:
                assert not e.note and e.rule is not None and e.command, (p.name, e)
                seen.append(f"{p.name}|{e.decision}|{e.command.split()[0]}|{e.rule}")
    assert any(s.startswith("SM Raider|side|look|") for s in seen)
    assert any("|side|drop|" in s for s in seen)
    assert any("|turn|explore|" in s for s in seen)
    assert {d for d in spanish_main_env.DECISIONS} >= {"side"}

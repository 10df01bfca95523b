"""LB-50: while an unconscious character is still thirsty, every conscious water holder is asked
to give it water or pass, even when nobody awake is thirsty (issue 19, held-out check)."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from shipwreck import scenario
from shipwreck.engine.core import SYSTEM
from shipwreck.games.lifeboat import RULES
from shipwreck.games.lifeboat import commands as C
from shipwreck.tui.lifeboat.render import prompt

POSITION = {
    "seed": 7,
    "phase": "navigation",
    "seats": ["stephen", "captain", "mate", "kid"],
    "navigation_deck": [24],  # #24: S overboard, thirsty C, S
    "characters": {
        "stephen": {},
        "captain": {"wounds": 7},  # = strength: unconscious
        "mate": {"hidden": ["water"]},
        "kid": {},
    },
}


def start() -> Any:
    sc = scenario.from_dict(POSITION)
    state, _ = RULES.from_position(sc.position)
    return state


def rendered(renderable: object) -> str:
    console = Console(width=80, record=True)
    console.print(renderable)
    return console.export_text()


def test_lb50_a_water_holder_who_is_not_thirsty_is_asked() -> None:
    state = start()
    mate = state.players.index("mate")
    assert state.step == "thirst"
    assert [p.seat for p in RULES.prompts(state) if p.blocking] == [mate]
    assert RULES.choices(state, mate) == [C.Give("water", "captain"), C.Pass()]
    assert RULES.legal(state, mate).count(C.Give("water", "captain")) == 1  # listed once
    assert RULES.default(state, mate) == C.Pass()
    text = rendered(prompt(RULES.view(state, mate)))
    assert "someone unconscious is thirsty: give water to X, or pass" in text
    assert "give water to captain" in text


def test_lb50_who_is_asked_stays_hidden_from_the_others() -> None:
    """Being asked tells that the mate holds water: the others do not see the prompt."""
    state = start()
    mate = state.players.index("mate")
    for seat in (None, *(s for s in range(4) if s != mate)):
        assert all(p.seat != mate for p in RULES.view(state, seat).prompts)


def test_lb50_the_timer_passes_for_a_silent_water_holder() -> None:
    state = start()
    RULES.apply(state, SYSTEM, C.Timeout("mate"))
    chars = state.chars
    assert chars["captain"].dead and chars["mate"].hidden == ["water"]
    assert state.round == 2


def test_lb50_a_bot_that_gives_the_water_is_answered_not_refused() -> None:
    """A gift of water is a free action elsewhere; in this step it answers the prompt, so a
    bot's ``give water to captain`` is played, not replaced by the safe default ('pass')."""
    from shipwreck.botseat import bot_move
    from shipwreck.lang.bots import BotPlayer
    from shipwreck.lang.bots.compile import load_source

    script = load_source(
        'bot "Giver" for lifeboat\non thirst:\n    else -> give water to captain\n', "giver.bot"
    )
    state = start()
    mate = state.players.index("mate")
    bot = BotPlayer(script, seed=1)
    played, _ = bot_move(RULES, state, mate, "thirst", bot)
    assert played == C.Give("water", "captain")
    assert bot.trace[-1].note == "", bot.trace[-1].note

"""A bot seat's view lists a ship's legal commands only when the bot asks for them
(:func:`view.bot_view`, :class:`view.Listing`): each ship's part, her commands of a few kinds,
whether she has any, the whole and the free actions are exactly what the seat's full view lists,
in every turn of whole games (with the cards' extra actions put in: SM-60), and a listing
refuses to answer once the game has moved on."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from random_play import random_prompts
from sm_helpers import BLUE, RED, clone, do, game, raider_beside_a_derelict

from shipwreck.botseat import bot_move
from shipwreck.games.spanish_main import RULES, rules
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.setup import ShipPosition
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.games.spanish_main.view import Listing, bot_view, view
from shipwreck.lang.bots import BotPlayer, load_bot

KINDS: list[rules.Kinds | None] = [
    None,
    (C.Explore,),
    (C.Repair,),
    (C.ComeAbout,),
    (C.Tow,),
    (C.Shoot,),
    (C.Explore, C.Shoot),
    rules.SAMPLED,
    (C.MoveToward,),
    (C.MoveDock, C.ComeAbout),
]


def _turns() -> Iterator[SpanishMainState]:
    """Copies of the turns of a few whole games: the hauler against the raider, and random
    legal play."""
    scripts = [load_bot("sm_hauler"), load_bot("sm_raider")]
    for g in range(2):
        players = [BotPlayer(scripts[(s + g) % 2], seed=g) for s in range(2)]
        state, _ = RULES.new_game(40 + g, 2)
        while not state.over:
            (p,) = RULES.prompts(state)
            if p.kind == "turn":
                yield clone(state)
            bot_move(RULES, state, p.seat, p.kind, players[p.seat])
    for _, state, prompts in random_prompts("spanish_main", 2, 2, 120):
        if any(p.kind == "turn" for p in prompts):
            yield clone(state)


def _with_cards(state: SpanishMainState, rng: random.Random) -> SpanishMainState:
    """The same turn with an ability's extra action given to a ship or two (SM-60): one that
    acted may shoot, explore or move after it; one may take the same action twice."""
    state = clone(state)
    mine = [s.id for s in state.ships.values() if s.owner == state.turn and s.id not in state.acted]
    rng.shuffle(mine)
    if mine:
        sid = mine.pop()
        state.acted.append(sid)
        state.marks += [f"{k}:{sid}" for k in ("move_shoot", "dock_explore", "unload_move")]
    if mine:
        sid = mine.pop()
        state.acted.append(sid)
        state.extra.append(sid)
        state.marks += [f"same:{sid}", f"did:{sid}:{rng.choice(['move', 'shoot', 'explore'])}"]
    return state


def _lists_as_the_view(state: SpanishMainState) -> None:
    seat = state.turn
    whole = tuple(RULES.choices(state, seat))
    seen = bot_view(state, seat)
    assert seen.view == view(state, seat, legal=False)
    for sid in [*state.ships, *state.islands, "nobody"]:
        part = tuple(c for c in whole if getattr(c, "ship", None) == sid)
        assert Listing(state).acts(sid) == bool(part), sid
        for kinds in KINDS:  # (each asked of a fresh listing, then all of one)
            want = part if kinds is None else tuple(c for c in part if isinstance(c, kinds))
            assert Listing(state).of(sid, kinds) == want, (sid, kinds)
            assert seen.answers.of(sid, kinds) == want, (sid, kinds)
        assert seen.answers.acts(sid) == bool(part)
    assert seen.choices == whole
    assert seen.answers.free() == tuple(RULES.legal(state, seat)[len(whole) :])


def test_a_listing_lists_each_ship_as_the_full_view_does() -> None:
    """Part for part, kind for kind, whole: the same commands in the same order."""
    rng = random.Random(5)
    checked = bonus = 0
    for state in _turns():
        _lists_as_the_view(state)
        if rng.random() < 0.3:
            carded = _with_cards(state, rng)
            _lists_as_the_view(carded)
            bonus += any(
                rules.has_acted(carded, s) and rules.ship_choices(carded, s)
                for s in carded.ships.values()
                if s.owner == carded.turn
            )
        checked += 1
    assert checked > 100 and bonus > 5


def test_sm60_a_listing_of_a_raider_that_must_leave_or_takes_one_action_twice() -> None:
    """SM-60: Shadow must leave blue's home (only her moves that leave, no end of turn), and
    Calico Cat's second action must be her first's kind (after a shot, no tow where she lies):
    listed ship by ship as the full view lists them."""
    raider = raider_beside_a_derelict()
    _lists_as_the_view(raider)
    assert not Listing(raider).of("shadow", (C.Tow, C.ComeAbout, C.Explore))
    twice = game(
        ShipPosition("revenge", RED, 30, 20, 0, aboard=["calico-cat"]),
        ShipPosition("snipe", BLUE, 30, 20, 180, masts=0),  # (bow to bow, derelict)
        ShipPosition("dover", BLUE, 34, 22, 0),
        dice=(6, 1, 1, 1, 1),
    )
    assert Listing(twice).of("revenge", (C.Tow,)) == (C.Tow("revenge", "snipe"),)
    do(twice, RED, C.Shoot("revenge", "dover"))
    _lists_as_the_view(twice)
    assert Listing(twice).of("revenge", (C.Tow,)) == ()


def test_a_bot_view_out_of_turn_is_the_full_view() -> None:
    """Out of the seat's turn (after a move, a hit, a load, a boarding party) a bot is given
    the seat's full view: its few choices listed whole."""
    kinds = set()
    for _, state, prompts in random_prompts("spanish_main", 2, 3, 300):
        for p in prompts:
            if p.kind != "turn":
                seen = bot_view(state, p.seat)
                assert seen.view == view(state, p.seat)
                assert seen.choices == seen.view.choices
                kinds.add(p.kind)
    assert {"after_move", "eliminate", "load"} <= kinds


def test_a_listing_refuses_once_the_game_moved_on() -> None:
    """A listing reads the state when asked: kept past a command, it says so instead of
    answering for another moment of the game."""
    state, _ = RULES.new_game(3, 2)
    seat = state.turn
    listing = Listing(state)
    ship = next(s.id for s in state.ships.values() if s.owner == seat)
    assert listing.of(ship)
    RULES.apply(state, seat, RULES.choices(state, seat)[0])
    for ask in (lambda: listing.of(ship), listing.choices, listing.free):
        with pytest.raises(RuntimeError, match="after the game moved on"):
            ask()

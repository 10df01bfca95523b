"""Scoring at the end of a Lifeboat game (LB-61..LB-64), worked out by hand from the rules.

Each test lands the boat from a fixed position: birds = 3 and navigation card #25 (+1 bird,
nobody overboard, nobody thirsty) on top of the deck, in the navigation phase, so the game ends
at once and the scores are those of the position. Every character is listed, so it holds exactly
what is given and its friend and enemy are fixed.

Strength / survival bonus: lauren 4/8, stephen 5/7, captain 7/5, mate 8/4, frenchy 6/6, kid 3/9.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from shipwreck.games.lifeboat.setup import Position, from_position
from shipwreck.games.lifeboat.state import LifeboatState
from shipwreck.games.lifeboat.view import view

SIX = ["lauren", "stephen", "captain", "mate", "frenchy", "kid"]
STRENGTH = {"lauren": 4, "stephen": 5, "captain": 7, "mate": 8, "frenchy": 6, "kid": 3}


def land(chars: dict[str, dict[str, Any]], seats: list[str] | None = None) -> LifeboatState:
    """The game over at once from this position; characters not given hold nothing.

    ``dead=True`` in a character's dict is written as wounds = strength + 1.
    """
    seats = seats or SIX
    fixed: dict[str, dict[str, Any]] = {}
    for cid in seats:
        c = dict(chars.get(cid, {}))
        if c.pop("dead", False):
            c["wounds"] = STRENGTH[cid] + 1
        fixed[cid] = c
    pos = msgspec.convert(
        {
            "seed": 11,
            "phase": "navigation",
            "birds": 3,
            "seats": seats,
            "navigation_deck": [25],
            "characters": fixed,
        },
        type=Position,
    )
    state, _ = from_position(pos)
    assert state.phase == "over", "the position should land at once"
    assert state.scores is not None
    return state


def relations(**pairs: tuple[str, str]) -> dict[str, dict[str, Any]]:
    """``lauren=("kid", "mate")`` -> friend kid, enemy mate."""
    return {cid: {"friend": f, "enemy": e} for cid, (f, e) in pairs.items()}


# For the treasure tests: every character's friend and enemy is the Kid, who stays alive, so each
# scores its own survival + 9 (LB-64) + its treasures; the Kid's friend and enemy is the Captain.
KID_ALL = {cid: {"friend": "kid", "enemy": "kid"} for cid in SIX} | {
    "kid": {"friend": "captain", "enemy": "captain"}
}


def with_items(base: dict[str, dict[str, Any]], **hands: list[str]) -> dict[str, dict[str, Any]]:
    out = {cid: dict(v) for cid, v in base.items()}
    for cid, hidden in hands.items():
        out[cid]["hidden"] = hidden
    return out


# --------------------------------------------------------------------------- LB-61 treasures


@pytest.mark.parametrize(
    ("n", "value"),
    [(0, 0), (1, 1), (2, 4), (3, 8)],
)
def test_lb61_jewels_score_as_a_set(n: int, value: int) -> None:
    """LB-61 / LB-4: jewels are worth 1 / 4 / 8 for 1 / 2 / 3 held (Frenchy: no doubling)."""
    state = land(with_items(KID_ALL, frenchy=["jewels"] * n))
    # frenchy: alive 6 + jewels + kid alive 9
    assert state.scores is not None
    assert state.scores["frenchy"] == 6 + value + 9


@pytest.mark.parametrize(
    ("n", "value"),
    [(1, 2), (2, 8), (3, 16)],
)
def test_lb61_lauren_doubles_jewels(n: int, value: int) -> None:
    """LB-61 / LB-1: Lady Lauren's jewels score double: 1x2, 4x2, 8x2."""
    state = land(with_items(KID_ALL, lauren=["jewels"] * n))
    # lauren: alive 8 + jewels x2 + kid alive 9
    assert state.scores is not None
    assert state.scores["lauren"] == 8 + value + 9


def test_lb61_paintings_and_stephen_doubles_them() -> None:
    """LB-61 / LB-4: paintings are worth 3, 3 and 2; Sir Stephen scores them double."""
    state = land(with_items(KID_ALL, stephen=["painting:3", "painting:2"], mate=["painting:3"]))
    assert state.scores is not None
    assert state.scores["stephen"] == 7 + (3 + 2) * 2 + 9  # 26
    assert state.scores["mate"] == 4 + 3 + 9  # 16: no doubling for the Mate


def test_lb61_cash_and_the_captain_doubles_it() -> None:
    """LB-61 / LB-4: cash is 1 point each; the Captain scores it double, nobody else."""
    state = land(with_items(KID_ALL, captain=["cash", "cash"], lauren=["cash", "cash"]))
    assert state.scores is not None
    assert state.scores["captain"] == 5 + 2 * 2 + 9  # 18
    assert state.scores["lauren"] == 8 + 2 + 9  # 19


def test_lb61_doubling_is_only_for_ones_own_kind() -> None:
    """LB-61: Lauren doubles jewels only; her painting and cash count once."""
    state = land(with_items(KID_ALL, lauren=["painting:2", "cash", "jewels"]))
    assert state.scores is not None
    assert state.scores["lauren"] == 8 + 2 + 1 + 1 * 2 + 9  # 22


def test_lb61_revealed_and_hidden_treasures_both_count() -> None:
    """LB-61: every treasure the character holds counts, revealed or hidden."""
    chars = with_items(KID_ALL, captain=["cash"])
    chars["captain"]["revealed"] = ["cash", "jewels"]
    state = land(chars)
    assert state.scores is not None
    assert state.scores["captain"] == 5 + 2 * 2 + 1 + 9  # 19


def test_lb61_other_items_score_nothing() -> None:
    """LB-61: only cash, jewels and paintings are treasures."""
    others = ["water", "medkit", "bait", "oar", "umbrella", "compass", "flare", "knife", "gaff"]
    state = land(with_items(KID_ALL, mate=others))
    assert state.scores is not None
    assert state.scores["mate"] == 4 + 9  # 13


# --------------------------------------------------------------------------- LB-61 alive / dead


def test_lb61_dead_in_the_boat_scores_treasure_but_no_survival() -> None:
    """LB-61: a dead character still in the boat scores its treasures (x2 kept), not survival."""
    chars = with_items(KID_ALL, captain=["cash", "cash", "cash"])
    chars["captain"]["dead"] = True
    state = land(chars)
    assert state.scores is not None
    assert state.scores["captain"] == 0 + 3 * 2 + 9  # 15
    # the Kid's friend and enemy, the Captain, is dead: strength 7 instead of survival 5 (LB-64)
    assert state.scores["kid"] == 9 + 7  # 16


def test_lb61_unconscious_counts_as_alive() -> None:
    """LB-61: an unconscious character is alive: it scores its survival, and its friend's player
    scores it too."""
    chars = relations(
        lauren=("mate", "kid"),
        stephen=("kid", "lauren"),
        captain=("kid", "lauren"),
        mate=("kid", "lauren"),
        frenchy=("kid", "lauren"),
        kid=("mate", "lauren"),
    )
    chars["mate"]["wounds"] = 8  # = strength: unconscious
    state = land(chars)
    assert state.scores is not None
    assert state.scores["mate"] == 4 + 9  # own survival 4 + kid alive 9, lauren alive 0
    assert state.scores["lauren"] == 8 + 4  # alive 8 + mate (unconscious) alive 4, kid alive 0


def test_lb61_friend_survival_and_enemy_death() -> None:
    """LB-61: the friend's survival bonus if it is alive; the enemy's strength if it is dead."""
    chars = relations(
        lauren=("kid", "mate"),  # kid alive: +9; mate dead: +8
        stephen=("mate", "kid"),  # mate dead: 0; kid alive: 0
        captain=("frenchy", "lauren"),  # frenchy dead: 0; lauren alive: 0
        mate=("lauren", "frenchy"),  # dead: no own survival; lauren alive +8; frenchy dead +6
        frenchy=("kid", "stephen"),  # dead; kid alive +9; stephen alive 0
        kid=("stephen", "captain"),  # stephen alive +7; captain alive 0
    )
    chars["mate"]["dead"] = True
    chars["frenchy"]["dead"] = True
    state = land(chars)
    assert state.scores == {
        "lauren": 8 + 9 + 8,  # 25
        "stephen": 7,
        "captain": 5,
        "mate": 8 + 6,  # 14
        "frenchy": 9,
        "kid": 9 + 7,  # 16
    }


def test_lb61_highest_total_wins_and_ties_share() -> None:
    """LB-61: the highest total wins; equal highest totals share the win."""
    chars = relations(
        lauren=("captain", "mate"),  # 8 + captain 5 = 13
        stephen=("captain", "mate"),  # 7 + 5 = 12
        captain=("mate", "lauren"),  # 5 + mate 4 = 9
        mate=("captain", "lauren"),  # 4 + 5 = 9
        frenchy=("kid", "mate"),  # 6 + kid 9 = 15
        kid=("frenchy", "lauren"),  # 9 + frenchy 6 = 15
    )
    state = land(chars)
    assert state.scores == {
        "lauren": 13,
        "stephen": 12,
        "captain": 9,
        "mate": 9,
        "frenchy": 15,
        "kid": 15,
    }
    assert sorted(view(state, None).winners) == ["frenchy", "kid"]


def test_lb61_single_winner() -> None:
    """LB-61: one highest total, one winner."""
    chars = relations(
        lauren=("kid", "mate"),  # 8 + 9 = 17
        stephen=("captain", "mate"),  # 7 + 5 = 12
        captain=("mate", "lauren"),  # 5 + 4 = 9
        mate=("captain", "lauren"),  # 4 + 5 = 9
        frenchy=("captain", "mate"),  # 6 + 5 = 11
        kid=("frenchy", "lauren"),  # 9 + 6 = 15
    )
    state = land(chars)
    assert state.scores is not None
    assert state.scores["lauren"] == 17
    assert view(state, None).winners == ("lauren",)


# --------------------------------------------------------------------------- LB-62..LB-64


def test_lb62_narcissist_alive_scores_own_survival_twice() -> None:
    """LB-62: friend = self: its own survival bonus twice."""
    chars = relations(
        lauren=("captain", "stephen"),
        stephen=("lauren", "kid"),
        captain=("captain", "mate"),  # narcissist: 5 + 5
        mate=("lauren", "kid"),
        frenchy=("lauren", "kid"),
        kid=("lauren", "stephen"),
    )
    state = land(chars)
    assert state.scores is not None
    assert state.scores["captain"] == 5 + 5  # mate alive: 0
    assert state.scores["lauren"] == 8 + 5  # the narcissist is also someone's friend


def test_lb62_dead_narcissist_scores_neither_survival() -> None:
    """LB-62: a dead narcissist scores no survival, twice over; treasures and enemy still count."""
    chars = relations(
        lauren=("captain", "stephen"),
        stephen=("lauren", "kid"),
        captain=("captain", "mate"),
        mate=("lauren", "kid"),
        frenchy=("lauren", "kid"),
        kid=("lauren", "stephen"),
    )
    chars["captain"]["dead"] = True
    chars["captain"]["hidden"] = ["cash"]
    chars["mate"]["dead"] = True
    state = land(chars)
    assert state.scores is not None
    assert state.scores["captain"] == 0 + 0 + 1 * 2 + 8  # cash x2 + mate dead 8 = 10


def test_lb63_psychopath_scores_deaths_but_own_and_friends() -> None:
    """LB-63: enemy = self: strength of every dead character except itself and its friend,
    plus its friend's survival; no survival of its own."""
    chars = relations(
        lauren=("kid", "lauren"),  # psychopath, friend the Kid
        stephen=("kid", "mate"),
        captain=("kid", "mate"),
        mate=("kid", "stephen"),
        frenchy=("kid", "mate"),
        kid=("stephen", "captain"),
    )
    for cid in ("stephen", "mate", "frenchy"):
        chars[cid]["dead"] = True
    state = land(chars)
    assert state.scores is not None
    # stephen 5 + mate 8 + frenchy 6 = 19 deaths; kid alive 9; own survival 0
    assert state.scores["lauren"] == 19 + 9  # 28


def test_lb63_psychopaths_dead_friend_is_not_counted() -> None:
    """LB-63: the psychopath's friend's death scores nothing (and its survival is gone too)."""
    chars = relations(
        lauren=("kid", "lauren"),
        stephen=("kid", "mate"),
        captain=("kid", "mate"),
        mate=("kid", "stephen"),
        frenchy=("kid", "mate"),
        kid=("stephen", "captain"),
    )
    chars["kid"]["dead"] = True
    chars["mate"]["dead"] = True
    state = land(chars)
    assert state.scores is not None
    assert state.scores["lauren"] == 8  # mate 8 only: not the Kid's 3, not the Kid's 9


def test_lb63_dead_psychopath_still_scores_the_dead() -> None:
    """LB-63: a dead psychopath scores the other deaths but never its own strength."""
    chars = relations(
        lauren=("kid", "lauren"),
        stephen=("kid", "mate"),
        captain=("kid", "mate"),
        mate=("kid", "stephen"),
        frenchy=("kid", "mate"),
        kid=("stephen", "captain"),
    )
    chars["lauren"]["dead"] = True
    chars["captain"]["dead"] = True
    state = land(chars)
    assert state.scores is not None
    assert state.scores["lauren"] == 7 + 9  # captain 7 (not her own 4) + kid alive 9 = 16


def test_lb63_psychopath_narcissist_scores_own_survival_once() -> None:
    """LB-63: friend = enemy = self: every other death, and its own survival once."""
    chars = relations(
        lauren=("kid", "mate"),
        stephen=("kid", "mate"),
        captain=("kid", "mate"),
        mate=("kid", "stephen"),
        frenchy=("frenchy", "frenchy"),  # psychopath-narcissist
        kid=("stephen", "captain"),
    )
    chars["lauren"]["dead"] = True
    chars["kid"]["dead"] = True
    state = land(chars)
    assert state.scores is not None
    assert state.scores["frenchy"] == 4 + 3 + 6  # deaths lauren 4 + kid 3, survival 6 once


def test_lb63_dead_psychopath_narcissist_scores_only_deaths() -> None:
    """LB-63: a dead psychopath-narcissist scores no survival at all, only the others' deaths."""
    chars = relations(
        lauren=("kid", "mate"),
        stephen=("kid", "mate"),
        captain=("kid", "mate"),
        mate=("kid", "stephen"),
        frenchy=("frenchy", "frenchy"),
        kid=("stephen", "captain"),
    )
    chars["frenchy"]["dead"] = True
    chars["mate"]["dead"] = True
    state = land(chars)
    assert state.scores is not None
    assert state.scores["frenchy"] == 8  # mate's death only; not its own 6 strength


@pytest.mark.parametrize(("dead", "expected"), [(False, 8 + 5), (True, 8 + 7)])
def test_lb64_same_friend_and_enemy(dead: bool, expected: int) -> None:
    """LB-64: friend = enemy = X (not self): X's survival bonus if alive, X's strength if dead,
    never both."""
    chars = relations(
        lauren=("captain", "captain"),
        stephen=("kid", "mate"),
        captain=("kid", "mate"),
        mate=("kid", "stephen"),
        frenchy=("kid", "mate"),
        kid=("stephen", "frenchy"),
    )
    chars["captain"]["dead"] = dead
    state = land(chars)
    assert state.scores is not None
    assert state.scores["lauren"] == expected  # alive 8 + (captain 5 alive | 7 dead)

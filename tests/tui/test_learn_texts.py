"""Lifeboat log texts the newcomer play-test reported (issue 16): a supply pick read twice by
the picker, 'joins the attacker', and a navigation card naming characters not at the table."""

from __future__ import annotations

from shipwreck.engine.core import visible
from shipwreck.games.lifeboat import RULES
from shipwreck.games.lifeboat import commands as C
from shipwreck.games.lifeboat.cards import CHAR_IDS
from shipwreck.games.lifeboat.setup import CharacterPosition, Position
from shipwreck.tui.lifeboat.render import Cards


def test_a_supply_pick_is_one_line_for_everyone() -> None:
    """LB-11, LB-5: the picker reads what it took, once; the others and spectators read only
    that a card was taken."""
    state, _ = RULES.new_game(7, 6)
    picker = state.pickers[0]
    seat = state.players.index(picker)
    item = state.offer[0]
    events = RULES.apply(state, seat, C.Take(item))
    supply = [e for e in events if e.kind == "supply"]
    assert [e.text for e in visible(supply, seat)] == [f"{picker} takes {item} from the supply"]
    for other in [s for s in range(6) if s != seat] + [None]:
        assert [e.text for e in visible(supply, other)] == [f"{picker} takes a supply card"]


def test_a_hidden_robbery_and_a_hidden_drop_are_one_line_each() -> None:
    """LB-24 (the Kid's hidden theft: robber and victim learn the item, others do not), LB-13."""
    chars = {cid: CharacterPosition(friend="mate", enemy="mate") for cid in CHAR_IDS}
    chars["lauren"] = CharacterPosition(friend="mate", enemy="mate", hidden=["jewels"])
    chars["kid"] = CharacterPosition(friend="mate", enemy="mate", hidden=["cash"])
    seats = ["kid", "lauren", "stephen", "captain", "mate", "frenchy"]
    state, _ = RULES.from_position(Position(seed=1, phase="actions", seats=seats, characters=chars))
    kid, lauren = state.players.index("kid"), state.players.index("lauren")
    events = RULES.apply(state, kid, C.Rob("lauren", None))
    robbed = [e for e in events if e.kind == "robbed"]
    for seat in (kid, lauren):
        assert [e.text for e in visible(robbed, seat)] == ["kid takes jewels from lauren"]
    for seat in (state.players.index("mate"), None):
        assert [e.text for e in visible(robbed, seat)] == ["kid takes a hidden item from lauren"]
    events = RULES.apply(state, kid, C.Drop("cash"))
    drop = [e.text for e in events if e.kind == "drop"]
    assert [e.text for e in visible(events, kid) if e.kind == "drop"] == [
        "kid throws cash overboard"
    ]
    assert [e.text for e in visible(events, None) if e.kind == "drop"] == [
        "kid throws a hidden item overboard"
    ]
    assert len(drop) == 2


def test_joining_a_fight_reads_attackers_and_defenders() -> None:
    """LB-25: 'joins the attackers' (a side of several), not 'joins the attacker'."""
    chars = {cid: CharacterPosition(friend="mate", enemy="mate") for cid in CHAR_IDS}
    state, _ = RULES.from_position(Position(seed=1, phase="actions", characters=chars))
    first = state.actor()
    assert first is not None
    RULES.apply(state, state.players.index(first), C.Swap("mate"))
    RULES.apply(state, state.players.index("mate"), C.Resist())
    joiner = next(c for c in ("captain", "frenchy", "kid") if c != first)
    events = RULES.apply(state, state.players.index(joiner), C.Join("attacker"))
    assert [e.text for e in events if e.kind == "join"] == [f"{joiner} joins the attackers"]


def test_a_card_names_only_the_characters_at_the_table_in_the_log_and_on_its_face() -> None:
    """LB-2: names of absent characters on navigation cards are ignored. The play-test saw the
    face of #38 read 'thirst L,M,F' and the log 'thirsty C, M, F, L' at a table without the
    Captain: the log was wrong."""
    seats = ["lauren", "mate", "frenchy", "kid"]
    chars = {cid: CharacterPosition(friend="mate", enemy="kid") for cid in seats}
    state, _ = RULES.from_position(
        Position(seed=1, phase="navigation", seats=seats, characters=chars,
                 navigation_table=[38, 19], navigation_deck=[20, 21])
    )  # fmt: skip
    nav = state.players.index(state.boat[-1])
    events = RULES.apply(state, nav, C.Choose(38))
    card = [e.text for e in events if e.kind == "card"]
    assert card == ["navigation card #38 overboard K, thirsty M, F, L"]
    face = "\n".join(line.plain for line in Cards([38], state.boat).lines(20))
    assert "L,M,F" in face and "C" not in face.replace("#38", "")

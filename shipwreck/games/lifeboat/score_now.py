"""What a player would score if the boat reached land this instant, from that player's own view.

A player's view holds everything the sum needs (its own items, friend and enemy; everyone's
strength and who is dead), so the estimate is exact: it uses the scoring's own sums
(:func:`shipwreck.games.lifeboat.scoring.parts_of`) over the view, never the state, so it can
tell nothing the seat may not know. A view without a character of its own (a spectator's) has no
estimate.
"""

from __future__ import annotations

import msgspec

from shipwreck.games.lifeboat.scoring import parts_of, treasure_of
from shipwreck.games.lifeboat.view import LifeboatView

PART_WORDS: dict[str, str] = {
    "treasure": "treasure",
    "survival": "you alive",
    "friend": "friend alive",
    "enemy": "enemy dead",
    "deaths": "deaths",
}
"""How each part of a score reads to a player."""


class ScoreNow(msgspec.Struct, frozen=True):
    total: int
    parts: dict[str, int]
    """By part (see :data:`PART_WORDS`), in the scoring's order; zero parts included."""

    def line(self) -> str:
        """``score now 12 = treasure 0 + you alive 8 + friend alive 4`` (zero parts left out)."""
        shown = [f"{PART_WORDS[k]} {v}" for k, v in self.parts.items() if v]
        return f"score now {self.total}" + (" = " + " + ".join(shown) if shown else "")


def score_now(view: LifeboatView) -> ScoreNow | None:
    """My score if the boat reached land now (LB-61..LB-64), or ``None`` if this view has no
    character of its own, or does not show its friend and enemy."""
    me = next((c for c in view.characters if c.id == view.me), None)
    if me is None or me.friend is None or me.enemy is None or me.hidden is None:
        return None
    parts = parts_of(
        me.id,
        me.friend,
        me.enemy,
        treasure_of(me.id, me.hidden + me.revealed),
        {c.id: c.state == "dead" for c in view.characters},
        {c.id: c.strength for c in view.characters},
    )
    return ScoreNow(sum(parts.values()), parts)

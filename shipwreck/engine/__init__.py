"""The game-agnostic engine core: the ruleset contract, events, prompts and the seeded RNG.

Nothing here does I/O or knows a particular game. Each game package (``shipwreck.games.*``)
implements :class:`Ruleset`; everything above (language, bots, tables, UI) talks only to it.
"""

from shipwreck.engine.core import (
    SYSTEM,
    Event,
    IllegalCommand,
    Prompt,
    Ruleset,
    Seat,
)
from shipwreck.engine.rng import Rng

__all__ = ["SYSTEM", "Event", "IllegalCommand", "Prompt", "Rng", "Ruleset", "Seat"]

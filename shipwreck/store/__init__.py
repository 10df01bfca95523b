"""Persistence: SQLite players, tables and command logs (:mod:`.db`); ratings (:mod:`.ratings`)."""

from shipwreck.store.db import Identity, Player, Store
from shipwreck.store.ratings import Entrant, RatingRow, RatingStore

__all__ = ["Entrant", "Identity", "Player", "RatingRow", "RatingStore", "Store"]

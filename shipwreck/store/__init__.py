"""Persistence: SQLite players, tables and command logs (:mod:`.db`)."""

from shipwreck.store.db import Identity, Player, Store

__all__ = ["Identity", "Player", "Store"]

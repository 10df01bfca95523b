"""Live play: tables (one game each, with seats and listeners) and the lobby that holds them."""

from shipwreck.runtime.lobby import Lobby, TableCreateError
from shipwreck.runtime.table import ChatLine, SeatInfo, SeatSpec, Submitted, Table

__all__ = ["ChatLine", "Lobby", "SeatInfo", "SeatSpec", "Submitted", "Table", "TableCreateError"]

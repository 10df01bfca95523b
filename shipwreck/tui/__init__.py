"""The Textual app: lobby, table screens, widgets and their ``.tcss``. It knows the runtime's
Lobby and Table, never SSH: ``shipwreck play`` runs it in the local terminal, the server runs
one per SSH session."""

from shipwreck.tui import textual_patches
from shipwreck.tui.app import ShipwreckApp

textual_patches.install()

__all__ = ["ShipwreckApp"]

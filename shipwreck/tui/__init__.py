"""The Textual app: lobby, table screens, widgets and their ``.tcss``. It knows the runtime's
Lobby and Table, never SSH: ``shipwreck play`` runs it in the local terminal, the server runs
one per SSH session. Textual's internals are used only in ``_textual/`` (the fence), whose
patches the server installs at start-up (``install_patches``), not this import."""

from shipwreck.tui.app import ShipwreckApp

__all__ = ["ShipwreckApp"]

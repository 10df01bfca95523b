"""Lifeboat's renderables (``render``); its table screen is in ``tui/screens.py``."""

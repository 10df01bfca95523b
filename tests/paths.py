"""Where things are, for a test in any folder under ``tests/``: the checkout and this folder."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
"""``tests/``: the scenario files, the test bots, the helper modules."""
ROOT = TESTS.parent
"""The checkout: ``shipwreck/``, ``docs/``, ``pyproject.toml``, ``server.toml``."""

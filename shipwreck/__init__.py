"""Shipwreck: hidden-information sea games in a terminal (docs/architecture.md is the map)."""

from shipwreck import _native

# Before anything imports the engine: picks the compiled or the pure-Python rules (_native.py).
_native.install()

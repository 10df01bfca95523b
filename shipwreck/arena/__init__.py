"""The arena: seeded tournaments between bot scripts, their ratings and league table
(``shipwreck arena``, docs/arena.md)."""

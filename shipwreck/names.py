"""The rules for names players choose: their own (``ssh NAME@host``) and their saved bots'.

Imports nothing of ours, so every layer may use it: the server checks a name at
authentication, the store keeps names unique by their :func:`skeleton`, and the bot registry
matches bot names with :data:`BOT_NAME`.
"""

from __future__ import annotations

import re

PLAYER_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""A player's name: ASCII letters, digits, ``-`` and ``_``, 1 to 32 of them."""

BOT_NAME = re.compile(r"[a-z0-9_]{1,32}")
"""A bot's name (shipped or saved): lower-case ASCII letters, digits and ``_``, 1 to 32."""

_LOOKALIKES = str.maketrans({"i": "l", "1": "l", "|": "l", "0": "o"})
"""After casefolding: characters that look alike in many fonts (``I``/``l``/``1``, ``O``/``0``)
map to one of them."""


def valid_player_name(name: str) -> bool:
    return PLAYER_NAME.fullmatch(name) is not None


def valid_bot_name(name: str) -> bool:
    return BOT_NAME.fullmatch(name) is not None


def skeleton(name: str) -> str:
    """What a name looks like to a reader: two names with the same skeleton are one name
    (``Alice``, ``ALICE`` and ``aIice`` are all ``alice``)."""
    return name.casefold().translate(_LOOKALIKES)

"""The rules for names players choose: their own (``ssh NAME@host``) and their saved bots'.

Imports nothing of ours, so every layer may use it: the server checks a name at
authentication, the store keeps names unique by their :func:`skeleton`, and the bot registry
matches bot names with :data:`BOT_NAME`.
"""

from __future__ import annotations

import re

MAX_NAME = 32
PLAYER_NAME = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_NAME}}}")
"""A player's name: ASCII letters, digits, ``-`` and ``_``, 1 to 32 of them."""
PLAYER_NAME_RULE = f"use letters, digits, - and _ (up to {MAX_NAME})"

BOT_NAME = re.compile(r"[a-z0-9_]{1,32}")
"""A bot's name (shipped or saved): lower-case ASCII letters, digits and ``_``, 1 to 32."""

_LOOKALIKES = str.maketrans({"i": "l", "1": "l", "|": "l", "0": "o"})
"""After casefolding: characters that look alike in many fonts (``I``/``l``/``1``, ``O``/``0``)
map to one of them."""


def valid_player_name(name: str) -> bool:
    return PLAYER_NAME.fullmatch(name) is not None


def player_name_refusal(name: str, example: str = "ssh ann@host") -> str:
    """Why ``name`` cannot be a player's name, in one line ("" if it can), ending with
    ``example`` (the command to sign in with a good name). A name too long is said to be too
    long, not echoed cut (a cut name reads as a different name); any other is echoed as typed
    (``'Ωmega'``), with only what is not printable (controls, format characters such as a
    right-to-left override) shown as ``?``."""
    if valid_player_name(name):
        return ""
    rule = f"{PLAYER_NAME_RULE}, e.g. {example}"
    if len(name) > MAX_NAME:
        return f"that name is too long: {len(name)} characters, at most {MAX_NAME}; {rule}"
    shown = "".join(c if c.isprintable() else "?" for c in name)
    return f"'{shown}' is not a name here: {rule}"


def valid_bot_name(name: str) -> bool:
    return BOT_NAME.fullmatch(name) is not None


def skeleton(name: str) -> str:
    """What a name looks like to a reader: two names with the same skeleton are one name
    (``Alice``, ``ALICE`` and ``aIice`` are all ``alice``)."""
    return name.casefold().translate(_LOOKALIKES)


SEAT_WORDS = frozenset({"bot", "bots", "random", "free", "empty", "you", "me", "human", "system"})
"""Words a seat list reads as a kind of seat, not a player: ``stephen: bot`` must mean a bot."""


def reserved_player_name(name: str, bot_names: frozenset[str] | set[str] = frozenset()) -> bool:
    """Is ``name`` one a new player may not take, because it reads like a seat's kind or a
    bot's or seat's name (``bot_names``: the shipped bots and the games' seat names, passed in
    since this module imports nothing of ours)? Compared by :func:`skeleton` (``B0T`` is
    ``bot``). Only sign-ups are checked: a player who already has such a name keeps it."""
    reserved = SEAT_WORDS | {skeleton(b) for b in bot_names}
    return skeleton(name) in reserved

"""Words and free text that players type, made safe to read and to show to other players.

- Numbers are ASCII digits only: ``str.isdigit()`` holds for ``²`` and ``int("²")`` raises, which
  ended the session of whoever typed ``new ²`` (audit F12).
- Text one player shows another (chat, whispers, names) keeps no format characters: bidi
  overrides and isolates (U+202E, U+2066..2069) let a line read backwards on terminals that apply
  bidi ("Trojan Source" spoofing), zero-width characters hide what a name really is, private-use
  and lone surrogates draw as anything; and combining marks are capped per letter, since 300 of
  them on one letter break the layout of the panel that shows them (audit F11).
"""

from __future__ import annotations

import re
import unicodedata

_DIGITS = re.compile(r"[0-9]{1,9}")
DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})
"""Controls, format characters, private use, surrogates, unassigned: never shown to others."""
VARIATION_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")
"""Emoji and text presentation selectors: terminals disagree on the width they give."""
MAX_MARKS = 2
"""Combining marks kept on one base character (enough for any written language's accents)."""


_RULE_IDS = re.compile(r" ?\((?:SM|LB)-\d+(?:, ?(?:SM|LB)-\d+)*\)")
"""A rule id in brackets (``(SM-11)``, ``(LB-22, LB-24)``) and the space before it."""


def without_rule_ids(text: str) -> str:
    """``text`` as a player reads it: the rules' ids (for developers, in the engine's
    messages) left out. ``... no ram (SM-18)`` -> ``... no ram``."""
    return _RULE_IDS.sub("", text)


def whole_number(word: str) -> int | None:
    """``word`` as a whole number if it is ASCII digits only (at most nine), else ``None``."""
    return int(word) if _DIGITS.fullmatch(word) else None


def clean_text(text: str, max_marks: int = MAX_MARKS) -> str:
    """``text`` without controls and format characters, at most ``max_marks`` combining marks
    per character, and its whitespace runs as single spaces."""
    out: list[str] = []
    marks = 0
    for ch in VARIATION_SELECTORS.sub("", text):
        if ch.isspace():
            out.append(" ")
            marks = 0
            continue
        category = unicodedata.category(ch)
        if category in DROPPED_CATEGORIES:
            continue
        if category.startswith("M"):
            if not out or out[-1] == " " or marks >= max_marks:
                continue  # a mark on nothing, or one too many
            marks += 1
        else:
            marks = 0
        out.append(ch)
    return " ".join("".join(out).split())

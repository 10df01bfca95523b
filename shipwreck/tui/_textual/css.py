"""One parse of the CSS for all apps (``css_shared``).

Each app has its own ``Stylesheet`` and parsed every widget's CSS again at start-up (tens of
milliseconds and hundreds of KiB of rules per session). Parsed rules are never changed
afterwards, so they are shared: one cache keyed on the CSS text, where it came from, and the
theme's variables. So are the theme's variables as tokens (each app tokenized all of them,
~40 KiB, the first time a style such as ``bold $footer-key-foreground`` was parsed).
"""

from __future__ import annotations

from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.tokenize import tokenize_values
from textual.css.tokenizer import Token
from textual.css.types import CSSLocation

from shipwreck.tui._textual.fence import Patch, Reads, Source

_parse_rules = Stylesheet._parse_rules
"""Textual's own (the shared cache calls it for CSS it has not parsed yet)."""
_parsed: LRUCache[tuple[object, ...], list[RuleSet]] = LRUCache(256)
"""Parsed rules for every app: (css, read_from, default?, tie breaker, scope, variables)."""


def _shared_parse_rules(
    self: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    variables = tuple(sorted(self._variables.items()))
    key = (css, read_from, is_default_rules, tie_breaker, scope, variables)
    rules = _parsed.get(key)
    if rules is None:
        rules = _parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        _parsed[key] = rules
    return rules


_tokens: LRUCache[tuple[tuple[str, str], ...], dict[str, list[Token]]] = LRUCache(16)
"""The theme's variables as tokens, for every app: keyed on the variables."""


def _shared_variable_tokens(self: Stylesheet) -> dict[str, list[Token]]:
    """``Stylesheet._variable_tokens``, tokenized once for all apps with the same variables
    (callers only read them)."""
    tokens: dict[str, list[Token]] | None = self._Stylesheet__variable_tokens  # type: ignore[attr-defined]
    if tokens is None:
        key = tuple(sorted(self._variables.items()))
        tokens = _tokens.get(key)
        if tokens is None:
            tokens = _tokens[key] = tokenize_values(self._variables)
        self._Stylesheet__variable_tokens = tokens  # type: ignore[attr-defined]
    return tokens


def _install() -> None:
    Stylesheet._parse_rules = _shared_parse_rules  # type: ignore[method-assign]
    Stylesheet._variable_tokens = property(_shared_variable_tokens)  # type: ignore[method-assign,assignment]


SHARED = Patch(
    name="css_shared",
    why="apps share the rules parsed from one CSS and the theme's variables as tokens",
    sources=(
        Source(
            Stylesheet,
            "_parse_rules",
            "2f1c2d220b672d1b86c19f185bbffba8f2bbf22d10e779a532cdec8fbd2fe01d",
        ),
        Source(
            Stylesheet,
            "_variable_tokens",
            "91e64845307a01396cf91d257eb21e2983698140bc2c6dbdeb6444fa44b480f1",
        ),
    ),
    reads=(
        Reads(
            "Stylesheet",
            Stylesheet,
            ("_variables", "_Stylesheet__variable_tokens", "_parse_rules", "_variable_tokens"),
        ),
    ),
    install=_install,
)

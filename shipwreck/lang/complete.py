"""Completion and one-line help for the command line.

:func:`complete` offers the next words of what is being typed that are both grammatical (Lark's
interactive parser ``accepts()`` their kind after the words typed so far) and legal for this
seat now (some command of the view's ``choices`` and ``free`` starts with the words typed, then
this word). A few legal texts are not listed by the engine and are added here: an offer may ask
for any item in return (``offer water to kid for knife``), kept cards may come in any order
(``keep 31 21``), a bare ``painting`` names any painting, and ``say`` is always open to the
conscious (``lang/lifeboat.py``'s ``legal_texts``).

Spanish Main (a Spanish Main view; ``lang/spanish_main.py``): the engine lists a sample of
moves (a few headings per leg); completion offers their words, and also, after any leg typed
with a turn, the leg kinds the ship has left (``move dover S 30 `` -> ``S``). A load's coins may
come in any order, and a repair may name a mast that is down.

:func:`explain` and :func:`command_list` read the help table of :mod:`shipwreck.lang.help`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from shipwreck.games.registry import default_game
from shipwreck.lang import registry
from shipwreck.lang.errors import MAX_LINE, Walker, forms_holding, split_words
from shipwreck.lang.help import help_table, player_commands

_SEPARATORS = " \t"


def game_of(view: object) -> str:
    """The game a view is of (the default game's, for a view of none)."""
    lang = registry.of_view(view)
    return lang.name if lang is not None else default_game().name


def complete(text: str, view: object, game: str | None = None) -> list[str]:
    """The words that may come next after ``text`` (or complete its last, unfinished word),
    grammatical and legal for ``view``'s seat now; sorted, unique. [] if none. ``game``: by
    default the game ``view`` is of."""
    game = game or game_of(view)
    if len(text) > MAX_LINE:
        return []
    words = [w for _, w in split_words(text)]
    partial = words.pop() if words and text[-1] not in _SEPARATORS else ""
    walker = Walker(game)
    for word in words:
        if not walker.feed(word) or walker.text:
            return []  # not a command, or free text (``say``): nothing to offer
    accepted = walker.accepts()
    if accepted & walker.vocab.text:
        return []
    lang = registry.get(game)
    if lang.aliases is not None and view is not None:  # ``move lw `` goes on as lord-walpole's
        named = {a: i for kind in lang.aliases(view).values() for a, i in kind.items()}
        words = [named.get(w, w) for w in words]
    n = len(words)
    offered: set[str] = set()
    for line in legal_texts(view, game):
        parts = line.split(" ")
        if len(parts) > n and parts[:n] == words:
            offered.add(parts[n])
    if lang.more_words is not None:
        offered |= lang.more_words(view, words)
    upper = partial.upper()
    leg = upper if partial != upper and upper in lang.upper_words else None
    return sorted(
        w
        for w in offered
        if (w.startswith(partial) or w == leg) and walker.vocab.kinds(w, accepted)
    )


def legal_texts(view: object, game: str | None = None) -> Iterator[str]:
    """Every legal command text of ``view``'s seat now, as typed (with the variants above)."""
    yield from registry.get(game or game_of(view)).legal_texts(view)


def explain(text_or_word: str, game: str | None = None) -> str:
    """One line of help for the command ``text_or_word`` starts with (``rob kid`` -> rob's);
    ``game``: by default the default game."""
    game = game or default_game().name
    table = help_table(game)
    words = [w for _, w in split_words(text_or_word[:MAX_LINE].strip())]
    commands = ", ".join(player_commands(game))
    if not words:
        return f"commands: {commands}"
    word = words[0].lower()
    entry = table.get(word)
    if entry is not None:
        rule = f" ({entry.rule})" if entry.rule else ""
        return f"{entry.usage}: {entry.description}{rule}"
    shown = "".join(ch if ch.isprintable() else "?" for ch in word[:40])
    inside = forms_holding(game, word)
    if inside:
        return f"{shown!r} is no command; it goes in " + " or ".join(map(repr, inside))
    close = difflib.get_close_matches(word, list(table), n=3, cutoff=0.6)
    if close:
        return f"unknown command {shown!r}; did you mean " + " or ".join(map(repr, close)) + "?"
    return f"unknown command {shown!r}; commands: {commands}"


def command_list(game: str) -> list[tuple[str, str]]:
    """(usage, description) of every command a player may type, for a help screen."""
    return [(e.usage, e.description) for e in player_commands(game).values()]

"""Parsing and formatting commands of any game, by game name."""

from __future__ import annotations

import re
from collections.abc import Callable

from lark import Token, Tree
from lark.exceptions import UnexpectedInput, VisitError

from shipwreck.lang import registry
from shipwreck.lang.errors import (
    BadValue,
    CommandSyntaxError,
    Names,
    check_line,
    check_names,
    diagnose,
    split_words,
    transformer,
)
from shipwreck.lang.grammar import command_parser

__all__ = ["CommandSyntaxError", "format_command", "parse_command"]


def view_names(game: str, view: object) -> Names | None:
    """The ids in play that ``view`` shows, for the games whose commands name open ids."""
    lang = registry.find(game)
    if lang is not None and lang.view_names is not None and view is not None:
        return lang.view_names(view)
    return None


def parse_command(game: str, text: str, view: object = None, check_ids: bool = True) -> object:
    """Parse one line of ``game``'s command language into its command struct.

    Anything that is not a command raises :class:`CommandSyntaxError`, and nothing else: one
    line with the column, what was expected there and, when a close correction parses, the
    corrected line (:mod:`shipwreck.lang.errors`). With the seat's ``view`` (Spanish Main), a
    word that is another name of an id in play (a ship's map code) reads as the id, and, with
    ``check_ids``, an id not in play is refused too, with the closest id in play (without it,
    the engine refuses it in its own words, as the table has always said it).
    """
    typed, offset = check_line(text)
    lang = registry.find(game)
    line = fold_case(typed, lang.upper_words) if lang is not None and lang.any_case else typed
    names = view_names(game, view)
    try:
        tree = command_parser(game).parse(line)
    except UnexpectedInput as e:
        raise _as_typed(diagnose(game, line, offset, e, names), typed, line, offset) from None
    if names and lang is not None and lang.aliases is not None:
        _resolve_aliases(tree, lang.aliases(view), names)
    if names and check_ids:
        tokens = tree.scan_values(lambda v: isinstance(v, Token))
        wrong = check_names(game, tokens, line, offset, names)
        if wrong is not None:
            raise _as_typed(wrong, typed, line, offset)
    try:
        return transformer(game).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, BadValue):  # a number too large for a float
            col = offset + e.orig_exc.index + 1
            raise CommandSyntaxError(f"column {col}: {e.orig_exc}", col) from None
        # The grammar only admits valid shapes: this is a bug, reported as a syntax error.
        why = " ".join(str(e.orig_exc).split())  # pragma: no cover
        raise CommandSyntaxError(  # pragma: no cover
            f"column {offset + 1}: cannot read this: {why}", offset + 1
        ) from None


def has_aliases(game: str) -> bool:
    """Does ``game``'s language give ids other names a seat's view shows (a Spanish Main ship's
    map code)? The table then parses a typed line with the seat's view."""
    lang = registry.find(game)
    return lang is not None and lang.aliases is not None


def _resolve_aliases(tree: Tree[Token], aliases: dict[str, dict[str, str]], names: Names) -> None:
    """Put the id for each word of ``tree`` that is another name of it (a ship's code), where
    that word is not itself an id in play, in place (at the word's column)."""
    for sub in tree.iter_subtrees():
        for i, child in enumerate(sub.children):
            if not isinstance(child, Token) or child.type not in aliases:
                continue
            word = str(child)
            if word in aliases[child.type] and word not in names.get(child.type, ()):
                sub.children[i] = Token.new_borrow_pos(child.type, aliases[child.type][word], child)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def lower_ascii(text: str) -> str:
    """``text`` with its ASCII letters in lower case: the same length, so columns still point
    at what was typed."""
    return text.translate(_ASCII_LOWER)


def fold_case(line: str, upper: frozenset[str] = frozenset()) -> str:
    """A line in the grammar's case: ``LAUREN: REST`` and ``Rest`` are ``rest``; a word of
    ``upper`` (Spanish Main's legs ``S`` and ``L``) is upper case, so ``MOVE DOVER s 0`` is
    ``move dover S 0``.

    Only ASCII letters fold, so every column stays where it was typed; what follows ``say``
    is the speaker's own words and keeps its case."""
    words = line.split(None, 1)
    if words and lower_ascii(words[0]) == "say":
        return "say" + line[3:]
    low = lower_ascii(line)
    if not upper:
        return low
    for start, word in split_words(low):
        if word.upper() in upper:
            low = low[:start] + word.upper() + low[start + len(word) :]
    return low


def _as_typed(err: CommandSyntaxError, typed: str, line: str, offset: int) -> CommandSyntaxError:
    """The refusal of a case-folded line quotes the word at its column as it was typed
    ('unknown word 'KIDD''); the corrections it suggests stay in the grammar's case."""
    i = err.column - 1 - offset
    if typed == line or not 0 <= i < len(line):
        return err
    # (the word as the language reads words: a comma is none, errors.split_words)
    end = i + len(re.match(r",|[^ \t,]*", line[i:]).group())  # type: ignore[union-attr]
    was, now = repr(typed[i:end][:40]), repr(line[i:end][:40])
    return CommandSyntaxError(str(err).replace(now, was, 1), err.column)


_FORMATTERS: dict[type, Callable[[object], str]] = {}
"""Command type -> its game's formatter, filled on first use."""


def format_command(cmd: object) -> str:
    """The canonical text of a command (any game)."""
    fmt = _FORMATTERS.get(type(cmd))
    if fmt is None:
        lang = registry.of_command(cmd)
        if lang is None:
            raise TypeError(f"no format for {cmd!r}")
        fmt = _FORMATTERS[type(cmd)] = lang.format
    return fmt(cmd)

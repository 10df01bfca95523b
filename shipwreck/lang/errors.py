"""Error messages a player can act on, for lines that are not commands.

Every message is one line: the column of the offending word, what was expected there in a
player's words, and, when a close correction of the whole line parses, the corrected line::

    rob captian knfe   ->  column 5: unknown word 'captian'; did you mean 'rob captain knife'?
    rob captain        ->  column 12: incomplete command; expected 'hidden' or an item (...)
    rwo                ->  column 1: unknown command 'rwo'; did you mean 'row'?

How: Lark's exception says where the parse failed; the word holding that column is the culprit.
What may come there is what Lark's interactive parser ``accepts()`` after the words before it
(exact, unlike the contextual lexer's ``allowed``, which carries LALR lookaheads of other rules).
A suggestion replaces each word the grammar does not know by the closest word (``difflib``) of
the kinds the parser accepts at that point, and is offered only if the corrected line parses.

The vocabulary is read from the grammar's terminals: keywords are their literal strings, and the
game's names (characters, items, ...) are the ones that fully match a terminal's pattern. So a
grammar change needs no change here, except for a new terminal's description in its game's
``terms`` (``lang/registry.py``).

Open terminals (Spanish Main's ship and island ids: any slug) match almost any word, so their
pattern does not make a word "known"; what a typo there is corrected to are the names given for
them: the ship list and the seeded islands' ids, or, with a view (``names``), the ids in play.
With a view, :func:`check_names` also refuses a well-formed id that is not in play::

    move dovr S   ->  column 6: unknown ship 'dovr'; did you mean 'move dover S'?
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import PatternStr

from shipwreck.games import registry as games
from shipwreck.lang import registry
from shipwreck.lang.grammar import command_parser
from shipwreck.lang.help import help_table, usage_forms
from shipwreck.lang.registry import Term

MAX_LINE = 500
"""The longest line accepted (characters, surrounding whitespace excluded)."""

END = "$END"
"""Lark's name for the end of the line."""

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
"""Control characters (C0, DEL, C1; tab is a separator). Never part of a command or of chat."""

_WORD = re.compile(r"[^ \t,]+")
"""A word: what lies between the grammar's separators (``WS`` in grammar/base.lark, and the
comma that may part the targets of a split shot in Spanish Main, which is never a word)."""

_CUTOFF = 0.6
"""difflib similarity a word needs to be suggested (0.6: ``captian``/``captain`` is 0.86)."""
_TRIES = 3
"""Close words tried for one unknown word (``rbo``: ``rob`` and ``row`` are as close)."""
_REPAIR_BUDGET = 64
"""Steps of the search for a correction, at most (each unknown word branches ``_TRIES`` ways)."""


class BadValue(ValueError):
    """Raised by a game's transformer for a word the grammar takes but the command cannot hold
    (a number too large for a float); ``index`` is its 0-based start in the stripped line."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


class CommandSyntaxError(ValueError):
    """A line that is not a command. The message is one line, with the column (1-based, in the
    text as typed; 0 when there is no line at all)."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message)
        self.column = column


# --------------------------------------------------------------------------- vocabulary


# How the lobby's and the table's terminals read; each game's are in its record of
# ``lang/registry.py``.
_WORD_TERMS: dict[str, dict[str, Term]] = {
    "lobby": {
        "INT": Term("a number", show=False),
        "BOT": Term("a bot or 'free'", open=True),
        "SEAT_ID": Term("a seat's id", show=False, open=True),
        "TEXT": Term("some text", show=False),
    },
    "table": {
        "NAME": Term("a player or seat", show=False, open=True),
        "TEXT": Term("some text", show=False),
    },
}


def _terms(game: str) -> Mapping[str, Term]:
    """How ``game``'s named terminals read (a game's, the lobby's or the table's)."""
    if game in _WORD_TERMS:
        return _WORD_TERMS[game]
    lang = registry.find(game)
    return lang.terms if lang is not None else {}


MAX_LISTED = 24
"""At most this many names of an open terminal are listed in a message."""


@dataclass(frozen=True)
class Vocabulary:
    """The words of one game's command grammar, by terminal."""

    game: str
    patterns: dict[str, re.Pattern[str]]
    """Every terminal but the ignored ones (whitespace), as a full-match pattern."""
    words: dict[str, tuple[str, ...]]
    """The known words of each terminal: a keyword's literal, a name pattern's names."""
    text: frozenset[str]
    """Free-text terminals (``TEXT``): they take the rest of the line."""
    known: frozenset[str]
    """Every word listed in ``words``."""
    closed: frozenset[str] = frozenset()
    """The terminals whose pattern makes a word known (not free text, not open)."""
    listed: frozenset[str] = frozenset()
    """Open terminals whose words came from a view: listed in messages."""
    keywords: frozenset[str] = frozenset()
    """The terminals that are one literal word (``"new"``, ``"tutorial"``)."""
    games: tuple[tuple[str, str], ...] = ()
    """The keywords that name a game (the lobby's and the table's), with the word players are
    told for it (an alias -> the game's ``word``): a message lists them as one kind, each game
    once, not every alias."""

    def kinds(self, word: str, accepted: Iterable[str]) -> list[str]:
        """The accepted terminals ``word`` is: keywords first, as Lark's lexer takes them
        (``sm`` is the keyword, not a bot's name), then by name (``flare`` is ``FLARE`` or
        ``ITEM``)."""
        return sorted(
            (
                t
                for t in accepted
                if t in self.patterns and t not in self.text and self.patterns[t].fullmatch(word)
            ),
            key=lambda t: (t not in self.keywords, t),
        )

    def is_word(self, word: str) -> bool:
        """Is ``word`` a word of the language anywhere (a keyword, a name, a number)?"""
        return word in self.known or any(self.patterns[t].fullmatch(word) for t in self.closed)

    def candidates(self, accepted: Iterable[str]) -> list[str]:
        """The listed words of the accepted terminals (what a typo may be corrected to)."""
        out: dict[str, None] = {}
        for t in sorted(accepted):
            if t not in self.text:
                out.update(dict.fromkeys(self.words.get(t, ())))
        return list(out)

    def describe(self, accepted: Iterable[str]) -> str:
        """The accepted terminals in words: "'hidden' or an item (water, cash, ...)"."""
        terms = _terms(self.game)
        keywords: list[str] = []
        classes: list[str] = []
        end = False
        told = {t: word for t, word in self.games if t in accepted}
        if told:
            classes.append(f"a game ({', '.join(dict.fromkeys(told.values()))})")
        for t in sorted(accepted):
            if t == END:
                end = True
            elif t in told:
                pass
            elif t in terms or len(self.words.get(t, ())) != 1:
                term = terms.get(t, Term(t.lower()))
                show = term.show or t in self.listed
                shown = [w for w in self.words.get(t, ()) if ":" not in w] if show else []
                if len(shown) > MAX_LISTED:
                    shown = [*shown[:MAX_LISTED], "..."]
                classes.append(f"{term.what} ({', '.join(shown)})" if shown else term.what)
            else:
                keywords.append(f"'{self.words[t][0]}'")
        parts = keywords + classes + (["end of command"] if end else [])
        if not parts:
            return "nothing more"
        if len(parts) == 1:
            return parts[0]
        return ", ".join(parts[:-1]) + " or " + parts[-1]


Names = dict[str, tuple[str, ...]]
"""Open terminal -> the names in play (from a view), e.g. ``{"SHIP": ("dover", ...)}``."""


def vocabulary(game: str, names: Names | None = None) -> Vocabulary:
    """The vocabulary of ``game``'s grammar (``grammar/<game>.lark``), read once; with
    ``names``, the open terminals' words are those names."""
    base = _vocabulary(game)
    if not names:
        return base
    words = dict(base.words)
    for t, ws in names.items():
        if t in words:
            words[t] = tuple(w for w in ws if base.patterns[t].fullmatch(w))
    known = frozenset(w for ws in words.values() for w in ws)
    listed = frozenset(t for t in names if t in words)
    return Vocabulary(
        game, base.patterns, words, base.text, known, base.closed, listed, base.keywords, base.games
    )


@cache
def _vocabulary(game: str) -> Vocabulary:
    parser = command_parser(game)
    ignored = set(parser.ignore_tokens)
    lang = registry.find(game) if game not in _WORD_TERMS else None
    names = lang.names() if lang is not None else _word_names(game)
    term_names = lang.term_names() if lang is not None and lang.term_names else {}
    terms = _terms(game)
    patterns: dict[str, re.Pattern[str]] = {}
    words: dict[str, tuple[str, ...]] = {}
    text: set[str] = set()
    keywords: set[str] = set()
    for term in parser.terminals:
        if term.name in ignored:
            continue
        pattern = re.compile(term.pattern.to_regexp())
        patterns[term.name] = pattern
        if isinstance(term.pattern, PatternStr):
            words[term.name] = (term.pattern.value,)
            keywords.add(term.name)
        else:
            given = term_names.get(term.name, names)
            words[term.name] = tuple(dict.fromkeys(n for n in given if pattern.fullmatch(n)))
            if pattern.fullmatch("free text"):
                text.add(term.name)
    known = frozenset(w for ws in words.values() for w in ws)
    closed = frozenset(t for t in patterns if t not in text and not (t in terms and terms[t].open))
    return Vocabulary(
        game,
        patterns,
        words,
        frozenset(text),
        known,
        closed,
        keywords=frozenset(keywords),
        games=_game_keywords(words, keywords) if game in _WORD_TERMS else (),
    )


def _game_keywords(
    words: dict[str, tuple[str, ...]], keywords: set[str]
) -> tuple[tuple[str, str], ...]:
    """The keywords of the lobby's (or the table's) words that name a game, in the games'
    order, each with the word players are told for its game (see ``Vocabulary.games``)."""
    named = {words[t][0]: t for t in keywords}
    return tuple(
        (named[name], game.word)
        for game in games.all_games()
        for name in game.names
        if name in named
    )


registry.on_games_changed(_vocabulary.cache_clear)


# --------------------------------------------------------------------------- walking the words


def split_words(line: str) -> list[tuple[int, str]]:
    """The words of ``line`` with their 0-based start."""
    return [(m.start(), m.group()) for m in _WORD.finditer(line)]


_ACCEPTS: dict[tuple[str, tuple[int, ...]], frozenset[str]] = {}
"""What the parser accepts, by game and LALR state stack (which alone decides it)."""
_ACCEPTS_MAX = 4096
registry.on_games_changed(_ACCEPTS.clear)  # (the lobby's grammar, and its states, change)


class Walker:
    """Lark's interactive LALR parser fed one word at a time (as the token the word is)."""

    def __init__(self, game: str, names: Names | None = None) -> None:
        self.vocab = vocabulary(game, names)
        parser: Lark = command_parser(game)
        # The interactive parser's methods carry no annotations: keep it behind ``Any``.
        self._ip: Any = parser.parse_interactive("")
        self.text = False
        """A free-text terminal took the rest of the line."""

    def copy(self) -> Walker:
        other = Walker.__new__(Walker)
        other.vocab = self.vocab
        other._ip = self._ip.copy()
        other.text = self.text
        return other

    def accepts(self) -> frozenset[str]:
        """The terminals that may come next (``$END``: the line may end here)."""
        if self.text:
            return frozenset({END})
        key = (self.vocab.game, tuple(self._ip.parser_state.state_stack))
        found = _ACCEPTS.get(key)
        if found is None:  # ``accepts()`` tries every terminal on a copy: worth remembering
            if len(_ACCEPTS) >= _ACCEPTS_MAX:
                _ACCEPTS.clear()
            found = _ACCEPTS[key] = frozenset(self._ip.accepts())
        return found

    def feed(self, word: str, rest: str | None = None) -> bool:
        """Feed one word (``rest``: the line from this word on, for free text). False, and
        nothing fed, if the parser cannot take it here."""
        if self.text:
            return False
        accepted = self.accepts()
        free = sorted(accepted & self.vocab.text)
        if free:
            self._ip.feed_token(Token(free[0], rest if rest is not None else word))
            self.text = True
            return True
        kinds = self.vocab.kinds(word, accepted)
        if not kinds:
            return False
        self._ip.feed_token(Token(kinds[0], word))
        return True

    def complete(self) -> bool:
        """May the line end here?"""
        return END in self.accepts()

    def finish(self) -> Tree[Token]:
        """The parse tree of the words fed (the line must be :meth:`complete`)."""
        tree: Tree[Token] = self._ip.feed_eof()
        return tree


@cache
def forms_holding(game: str, word: str) -> list[str]:
    """The command forms (as help writes them) that hold ``word`` after their first word, for
    a word of four letters or more that starts no command: a stranger typed ``dock dover`` for
    Spanish Main's ``move SHIP dock ISLAND``."""
    table = help_table(game)
    if len(word) < 4 or word in table:
        return []
    return [
        form
        for entry in table.values()
        for form in usage_forms(entry.usage)
        if word in form.split()[1:]
    ][:3]


def _first_words(game: str) -> list[str]:
    """The words a command may start with, sorted."""
    walker = Walker(game)
    return sorted(walker.vocab.candidates(walker.accepts()))


# --------------------------------------------------------------------------- diagnosis


def check_line(text: str) -> tuple[str, int]:
    """The stripped line and its offset in ``text``, or CommandSyntaxError for a line too long,
    holding control characters, or empty."""
    line = text.strip()
    offset = len(text) - len(text.lstrip())
    if len(line) > MAX_LINE:
        raise CommandSyntaxError(
            f"column {offset + MAX_LINE + 1}: the line is too long ({len(line)} characters);"
            f" a command has at most {MAX_LINE}",
            offset + MAX_LINE + 1,
        )
    bad = _CONTROL.search(line)
    if bad is not None:
        col = offset + bad.start() + 1
        raise CommandSyntaxError(
            f"column {col}: control character {bad.group()!r} is not allowed in a command", col
        )
    if not line:
        raise CommandSyntaxError("empty command; type 'help' for the list of commands")
    return line, offset


def diagnose(
    game: str, line: str, offset: int, error: UnexpectedInput, names: Names | None = None
) -> CommandSyntaxError:
    """The one-line error for ``line`` (stripped, at ``offset`` in the text as typed), which Lark
    refused with ``error``; ``names``: the ids in play, if known."""
    try:
        return _diagnose(game, line, offset, error, names)
    except Exception:  # noqa: BLE001 - an explanation must never crash the caller
        return _fallback(line, offset, error)


def _fallback(line: str, offset: int, error: UnexpectedInput) -> CommandSyntaxError:
    """The plain message, should the diagnosis itself fail (tests check it never does)."""
    col = offset + _error_index(line, error) + 1
    return CommandSyntaxError(f"column {col}: cannot read {line[:60]!r}", col)


def _error_index(line: str, error: UnexpectedInput) -> int:
    """Where Lark failed, as a 0-based index into ``line`` (``len(line)``: at its end)."""
    if isinstance(error, UnexpectedEOF):
        return len(line)
    if isinstance(error, UnexpectedToken) and error.token.type == END:
        return len(line)
    pos = getattr(error, "pos_in_stream", None)
    if isinstance(pos, int) and 0 <= pos <= len(line):
        return pos
    col = getattr(error, "column", None)
    return min(max(col - 1, 0), len(line)) if isinstance(col, int) else 0


def _diagnose(
    game: str, line: str, offset: int, error: UnexpectedInput, names: Names | None
) -> CommandSyntaxError:
    vocab = vocabulary(game, names)
    words = split_words(line)
    at = _error_index(line, error)
    # The culprit: the word holding Lark's error column, or an earlier one our word-by-word
    # walk cannot take (Lark's lexer reads glued words such as "kidd" as "kid" + "d").
    culprit = next((i for i, (s, w) in enumerate(words) if at < s + len(w)), len(words))
    walker = Walker(game, names)
    for i, (start, word) in enumerate(words[:culprit]):
        if not walker.feed(word, line[start:]):
            culprit = i
            break
        if walker.text:
            culprit = len(words)
            break
    accepted = walker.accepts()
    expected = vocab.describe(accepted)
    if culprit >= len(words):
        col = offset + len(line) + 1
        if walker.complete():  # our walk reads it all: fall back on Lark's own position
            col = offset + at + 1
            if at < len(line):  # (a stray ',' after a whole command: not a word)
                return CommandSyntaxError(
                    f"column {col}: unexpected {line[at]!r}; expected {expected}", col
                )
            return CommandSyntaxError(  # (it ends after a ',' that needs more)
                f"column {col}: incomplete command{_usage(game, words)}", col
            )
        return CommandSyntaxError(
            f"column {col}: incomplete command; expected {expected}{_usage(game, words)}", col
        )
    start, word = words[culprit]
    col = offset + start + 1
    fixed = suggest(game, line, names)
    if culprit == 0:  # the commands closest to it, or the corrected line if longer
        head = f"column {col}: unknown command {word[:40]!r}"
        if fixed is not None and len(words) > 1:
            return CommandSyntaxError(f"{head}; did you mean {fixed!r}?", col)
        inside = forms_holding(game, word.lower())
        if inside:  # (``dock dover``: a word of a command, not a command)
            return CommandSyntaxError(f"{head}; it goes in {_either(inside)}", col)
        close = difflib.get_close_matches(word.lower(), _first_words(game), n=3, cutoff=_CUTOFF)
        if close and close[0] == word.lower():
            close = close[:1]
        if close:
            return CommandSyntaxError(f"{head}; did you mean {_either(close)}?", col)
        return CommandSyntaxError(f"{head}; commands: {', '.join(_first_words(game))}", col)
    if vocab.is_word(word):
        head = f"column {col}: unexpected {word[:40]!r}"
    else:
        head = f"column {col}: unknown word {word[:40]!r}"
    if fixed is not None:
        return CommandSyntaxError(f"{head}; did you mean {fixed!r}?", col)
    close = _close(word, vocab.candidates(accepted), 1)
    hint = f" (did you mean {close[0]!r}?)" if close and close[0] != word else ""
    return CommandSyntaxError(f"{head}{hint}; expected {expected}{_usage(game, words)}", col)


def suggest(game: str, line: str, names: Names | None = None) -> str | None:
    """``line`` with each unknown word replaced by one of the closest words the grammar takes
    there, if that corrected line parses (and differs); else None. Known words are never
    replaced. The closest words are tried in order, a few per word, within a small budget."""
    words = split_words(line)
    budget = [_REPAIR_BUDGET]
    vocab = vocabulary(game, names)

    def walk(walker: Walker, i: int, out: list[str]) -> list[str] | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if walker.text or i == len(words):
            return out if walker.complete() else None
        start, word = words[i]
        if walker.feed(word, line[start:]):
            return walk(walker, i + 1, [*out, line[start:] if walker.text else word])
        if vocab.is_word(word):
            return None
        for close in _close(word, vocab.candidates(walker.accepts()), _TRIES):
            branch = walker.copy()
            if branch.feed(close):
                found = walk(branch, i + 1, [*out, close])
                if found is not None:
                    return found
        return None

    fixed_words = walk(Walker(game, names), 0, [])
    if fixed_words is None:
        return None
    fixed = " ".join(fixed_words)
    if fixed == line or not _parses(game, fixed):
        return None
    if names and _names_not_in_play(game, fixed, names):
        return None  # ('epair about' is not 'repair about': no ship is called 'about')
    return fixed


def _names_not_in_play(game: str, line: str, names: Names) -> bool:
    """Does ``line`` (it parses) name an id not in play? A suggestion must not."""
    tokens = command_parser(game).parse(line).scan_values(lambda v: isinstance(v, Token))
    return any(t.type in names and str(t) not in names[t.type] for t in tokens)


def _close(word: str, candidates: list[str], n: int) -> list[str]:
    """The candidates closest to ``word``: those equal to it but for case first (``s``: ``S``),
    then difflib's on the lowercased word."""
    low = word.lower()
    same = [c for c in candidates if c.lower() == low]
    return list(dict.fromkeys(same + difflib.get_close_matches(low, candidates, n, _CUTOFF)))[:n]


def _word_names(where: str) -> tuple[str, ...]:
    """The names the lobby's (or the table's) open terminals stand for."""
    words = registry.words(where)
    return words.names() if words is not None and words.names is not None else ()


@cache
def transformer(game: str) -> Transformer[Token, object]:
    """The parse tree -> command struct transformer of ``game`` (or of the lobby's and the
    table's words)."""
    words = registry.words(game)
    if words is not None:
        return words.transformer
    made: Transformer[Token, object] = registry.get(game).to_command()
    return made


def _parses(game: str, line: str) -> bool:
    """Is ``line`` a command: does it parse, and does the game's transformer take it (a number
    too large for a float does not)?"""
    try:
        transformer(game).transform(command_parser(game).parse(line))
    except (UnexpectedInput, VisitError):
        return False
    return True


def _either(words: Sequence[str]) -> str:
    quoted = [f"'{w}'" for w in words]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _usage(game: str, words: list[tuple[int, str]]) -> str:
    """ "; usage: rob X ITEM | rob X hidden" for a line whose command word is known."""
    entry = help_table(game).get(words[0][1]) if words else None
    return f"; usage: {entry.usage}" if entry is not None else ""


def check_names(
    game: str, tokens: Iterable[Token], line: str, offset: int, names: Names
) -> CommandSyntaxError | None:
    """The error for a parsed line naming an id that is not in play (``names``), or None: the
    column of the first such id, and the line with each replaced by the closest id in play, or
    the ids it may be."""
    vocab = vocabulary(game, names)
    bad = [t for t in tokens if t.type in names and str(t) not in names[t.type]]
    if not bad:
        return None
    first = bad[0]
    col = offset + (first.start_pos or 0) + 1
    noun = _terms(game).get(first.type, Term(first.type.lower())).what.split(" ", 1)[-1]
    head = f"column {col}: unknown {noun} {str(first)[:40]!r}"
    fixed, at = [], 0
    for t in bad:
        close = difflib.get_close_matches(str(t), names[t.type], 1, _CUTOFF)
        if not close:
            return CommandSyntaxError(f"{head}; expected {vocab.describe({first.type})}", col)
        start = t.start_pos or 0
        fixed += [line[at:start], close[0]]
        at = start + len(str(t))
    return CommandSyntaxError(f"{head}; did you mean {''.join([*fixed, line[at:]])!r}?", col)

"""Bot scripts: text -> parse tree (grammar/GAME_bot.lark) -> closures (script.py).

The header names the game (``bot "X" for spanish_main``); it picks the grammar, the command
builder and the environment (``lifeboat_env``, ``spanish_main_env``) of everything after it.

The evaluator is here too: each ``_expr`` case returns the closure that computes that node.
"""

from __future__ import annotations

import difflib
import operator
import re
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any, cast

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from shipwreck.games.registry import default_game
from shipwreck.games.registry import find as find_game
from shipwreck.lang import registry
from shipwreck.lang.bots.script import (
    SPECIAL_ACTIONS,
    Action,
    BotError,
    BotRuntimeError,
    BotScript,
    Context,
    Expr,
    Handler,
    Rule,
)
from shipwreck.lang.grammar import load_grammar

MAX_SOURCE = 256 * 1024
"""A bot script larger than this is refused before parsing (bytes of text)."""
MAX_DEPTH = 200
"""Deepest nesting of expressions a script may use."""


_HEADER = re.compile(
    r'\A(?:[\t ]*(?:#[^\n]*)?\r?\n)*[\t ]*bot\s+"[^"\n]*"\s+for[\t ]+([^\n#]*?)[\t ]*(?=#|\r?\n|\Z)'
)
"""A script's header, up to the game it names (group 1: what follows ``for``, to the line's end
or its comment)."""
_GAME_WORD = re.compile(r"[a-z_][a-z0-9_]*")
"""A word the header's game may be written as (an alias with a hyphen in it is not one)."""


def bot_games() -> dict[str, registry.AnyLang]:
    """Each game a script may be written for (its language has a bot environment)."""
    return {g.name: g for g in registry.all_langs() if g.bot_env is not None}


def default_bot_game() -> str:
    """The game a script without a (known) header is read as."""
    return default_game().name


def named_bot_game(words: str) -> str | None:
    """The game bots play that ``words`` name, by its name or an alias (``sm``), or None."""
    game = find_game(words)
    return game.name if game is not None and game.name in bot_games() else None


def game_of(source: str) -> str:
    """The game a script's header names, if it is one bots play; else the default game (whose
    parser then says what is wrong)."""
    m = _HEADER.match(source)
    return (named_bot_game(m.group(1)) if m is not None else None) or default_bot_game()


def _header_named(text: str, path: str) -> str:
    """``text`` with the game its header names written as the game's own name (``for sm`` is
    read as ``for spanish_main``); BotError for a header naming no game bots play (a stranger
    wrote ``for spanish main`` and was told ``unexpected 'main'``)."""
    m = _HEADER.match(text)
    if m is None or not m.group(1):
        return text  # (no header, or no game: the parser says what is missing)
    game = named_bot_game(m.group(1))
    if game is None:
        line = text.count("\n", 0, m.start(1)) + 1
        col = m.start(1) - text.rfind("\n", 0, m.start(1))
        known = ", ".join(_with_aliases(name) for name in bot_games())
        raise BotError(f"{path}:{line}:{col}: unknown game {m.group(1)!r}; bots here play: {known}")
    return text[: m.start(1)] + game + text[m.end(1) :]


def _with_aliases(name: str) -> str:
    game = find_game(name)
    aliases = [a for a in (game.aliases if game is not None else ()) if _GAME_WORD.fullmatch(a)]
    return f"{name} (or {', '.join(aliases)})" if aliases else name


def env_for(game: str) -> ModuleType:
    """What a ``game`` script's guards can read (the default game's, for a game bots do not
    play)."""
    games = bot_games()
    env = (games.get(game) or games[default_bot_game()]).bot_env
    assert env is not None
    return env


@cache
def bot_parser(game: str) -> Lark:
    return load_grammar(f"{game}_bot.lark", game, propagate_positions=True)


def parse_tree(source: str, path: str = "<bot>") -> Tree[Token]:
    """Parse a script, or raise BotError with ``path:line:column: …``."""
    if len(source) > MAX_SOURCE:
        raise BotError(
            f"{path}:1:1: the script is {len(source)} characters; the limit is {MAX_SOURCE}"
        )
    if "\x00" in source:
        raise BotError(f"{path}:1:1: the script contains a NUL byte; is it a text file?")
    text = source if source.endswith("\n") else source + "\n"
    depth, line, col = 0, 1, 0
    for ch in text:  # before parsing: parentheses vanish from the tree, so count them here
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        depth += (ch == "(") - (ch == ")")
        if depth > MAX_DEPTH:
            raise BotError(f"{path}:{line}:{col}: expressions nest deeper than {MAX_DEPTH} levels")
    text = _header_named(text, path)
    game = game_of(text)
    try:
        return bot_parser(game).parse(text)
    except UnexpectedInput as e:
        raise BotError(_syntax_message(e, text, path, game)) from None


def _syntax_message(e: UnexpectedInput, text: str, path: str, game: str) -> str:
    line, col = getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1
    if isinstance(e, UnexpectedEOF):
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        return f"{path}:{line}:{col}: the script ends too early"
    got = ""
    if isinstance(e, UnexpectedToken):
        got = "end of line" if e.token.type == "_NL" else repr(str(e.token))
    elif isinstance(e, UnexpectedCharacters):
        pos = getattr(e, "pos_in_stream", None)  # (lark types it None: compiled, it is checked)
        pos = pos if isinstance(pos, int) else 0
        got = repr(text[pos]) if 0 <= pos < len(text) else "?"
    expected = sorted(getattr(e, "expected", None) or getattr(e, "allowed", None) or [])
    words = [_describe(x, game) for x in expected]
    hint = _hint(text, line)
    listed = list(dict.fromkeys(w for w in words if w))
    want = ", ".join(listed)  # every one: a script's author reads the whole list once
    msg = f"{path}:{line}:{col}: unexpected {got}"
    close = difflib.get_close_matches(got.strip("'"), [w.strip("'") for w in listed], n=1)
    if close and got.startswith("'"):
        msg += f"; did you mean '{close[0]}'?"
    msg += (" expected" if msg.endswith("?") else "; expected") + f" {want}" if want else ""
    return msg + (f" ({hint})" if hint else "")


_TERMINAL_WORDS = {
    "_NL": "end of line",
    "NAME": "a name",
    "NUMBER": "a number",
    "PERCENT": "a percentage",
    "STRING": 'a "string"',
    "CHARACTER": "a character",
    "ITEM": "an item",
    "CARD": "a card number",
    "REF": "me/friend/enemy/asker/navigator",
    "COMPARE": "a comparison",
    "ADDOP": "+ or -",
    "MULOP": "* / %",
    "LPAR": "(",
    "RPAR": ")",
    "MINUS": "-",
    "TEXT": "text",
    "SIDE": "attacker or defender",
    "HIDDEN": "hidden",
}


def _describe(terminal: str, game: str) -> str:
    """A terminal's name as a reader would say it: '->' for an anonymous one."""
    plain = terminal.rsplit("__", 1)[-1]
    lang = registry.find(game)
    own = lang.bot_words if lang is not None else {}
    if plain in own:
        return own[plain]
    if plain in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[plain]
    try:
        pattern = bot_parser(game).get_terminal(terminal).pattern
    except KeyError:
        return plain.lower()
    return f"'{pattern.value}'" if pattern.type == "str" else plain.lower()


def _hint(text: str, line: int) -> str:
    lines = text.splitlines()
    src = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    if src.startswith("when") and "->" not in src:
        return "a rule reads 'when GUARD -> COMMAND'"
    if src.startswith("on ") and not src.rstrip().endswith(":"):
        return "a handler reads 'on KIND:'"
    return ""


def load_source(source: str, path: str = "<bot>") -> BotScript:
    """Parse and compile a script. Raises BotError (with file:line:column) if it is wrong."""
    tree = parse_tree(source, path)
    try:
        return _Compiler(path).script(tree, source)
    except RecursionError:
        raise BotError(f"{path}:1:1: the script nests too deeply") from None


# --------------------------------------------------------------------------- the compiler

_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": lambda a, b: b is not None and a in b,
}


MAX_NUMBER = 10**12
SM_PARTS = frozenset({"leg", "aim"})
_NAMED = frozenset({"SHIP", "TARGET", "HOLDER"})
"""Terminals whose literal words an environment's ``alias`` may read (a ship's code)."""
"""Spanish Main sub-rules of a command built from their own words by the rule's method."""
"""Numbers a script computes with stay within ±MAX_NUMBER (whole numbers only)."""


def _numbers(op: Callable[[int, int], int]) -> Callable[[object, object], object]:
    def run(a: object, b: object) -> object:
        if not isinstance(a, int) or not isinstance(b, int):
            raise BotRuntimeError("arithmetic needs whole numbers")
        result = op(a, b)
        if abs(result) > MAX_NUMBER:
            raise BotRuntimeError("a number grew too large")
        return result

    return run


def _div(a: int, b: int) -> int:
    if b == 0:
        raise BotRuntimeError("division by zero")
    return a // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        raise BotRuntimeError("division by zero")
    return a % b


_ARITH: dict[str, Callable[[object, object], object]] = {
    "+": _numbers(operator.add),
    "-": _numbers(operator.sub),
    "*": _numbers(operator.mul),
    "/": _numbers(_div),
    "%": _numbers(_mod),
}


class _Compiler:
    """Turns one parse tree into a :class:`BotScript`. Names are checked by ``bot check``."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.game = default_bot_game()
        self.env: ModuleType = env_for(self.game)
        self.tokens = False
        self.to_command: Any = None

    def error(self, node: Tree[Token] | Token, message: str) -> BotError:
        line, col = _pos(node)
        return BotError(f"{self.path}:{line}:{col}: {message}")

    def script(self, tree: Tree[Token], source: str) -> BotScript:
        header, *handlers = tree.children
        assert isinstance(header, Tree)
        name_tok, game_tok = header.children
        game = str(game_tok)
        langs = bot_games()
        if game not in langs:
            known = ", ".join(langs)
            raise self.error(game_tok, f"unknown game {game!r}; bots here play: {known}")
        lang = langs[game]
        self.game, self.env, self.tokens = game, env_for(game), lang.bot_tokens
        self.to_command = lang.to_command()
        env = self.env
        out: dict[str, Handler] = {}
        for h in handlers:
            assert isinstance(h, Tree)
            kind_tok, *rules = h.children
            kind = str(kind_tok)
            if kind not in env.DECISIONS:
                known = ", ".join(env.DECISIONS)
                raise self.error(
                    kind_tok, f"'{kind}' is not a decision in {game}; handlers: {known}"
                )
            if kind in out:
                raise self.error(kind_tok, f"a second 'on {kind}:' handler; merge them into one")
            out[kind] = Handler(
                kind, _pos(h)[0], [self.rule(r, source) for r in rules if isinstance(r, Tree)]
            )
        return BotScript(str(name_tok)[1:-1], game, self.path, out, source)

    def rule(self, node: Tree[Token], source: str) -> Rule:
        line, col = _pos(node)
        text = source.splitlines()[line - 1].strip() if line - 1 < len(source.splitlines()) else ""
        if node.data == "otherwise":
            return Rule(line, col, text, None, self.action(node.children[0]), always=True)
        guard_node, action_node = node.children
        always = (
            isinstance(guard_node, Tree)
            and guard_node.data == "name"
            and str(guard_node.children[0]) == "true"
        )
        return Rule(
            line, col, text, self.expr(guard_node, 0), self.action(action_node), always=always
        )

    # ------------------------------------------------------------------ actions

    def action(self, node: Tree[Token] | Token) -> Action:
        assert isinstance(node, Tree)
        if node.data == "random_choice":
            return _random_choice
        if node.data == "search":
            count, using = node.children
            line, col = _pos(node)
            return SPECIAL_ACTIONS["search"](
                int(str(count)[:12]), str(using) if using is not None else None,
                f"{self.path}:{line}:{col}", self.game,
            )  # fmt: skip
        if node.data == "keep_where":
            return self.keep_where(node.children[0])
        if node.data == "load_where":
            return self.load_where(node.children[0], node.children[1])
        if node.data == "move_to":
            return self.move_to(node.children[0], node.children[1])
        rule = str(node.data).rsplit("__", 1)[-1]
        method = getattr(self.to_command, "pass" if rule == "pass" else rule, None)
        if method is None:
            raise self.error(node, f"'{rule}' is not a command")
        if self.tokens:
            return self.sm_action(method, node)
        parts = [self.word(c) for c in node.children]

        def build(ctx: Context) -> object:
            return method([p(ctx) for p in parts])

        return build

    def sm_action(self, method: Callable[[list[object]], object], node: Tree[Token]) -> Action:
        """A Spanish Main command: its words become tokens (its builder reads tokens), a
        leg is built from its own words, and an expression naming a list gives one word each."""
        parts = [self.sm_part(c) for c in node.children]

        def build(ctx: Context) -> object:
            args: list[object] = []
            for p in parts:
                v = p(ctx)
                if isinstance(v, list):
                    args.extend(v)
                else:
                    args.append(v)
            return method(args)

        return build

    def sm_part(self, child: Tree[Token] | Token | None) -> Callable[[Context], object]:
        sub = str(child.data).rsplit("__", 1)[-1] if isinstance(child, Tree) else ""
        if isinstance(child, Tree) and sub in SM_PARTS:  # (a leg, a split shot's aim)
            words = [self.sm_word(c) for c in child.children]
            leg = getattr(self.to_command, sub)

            def build_leg(ctx: Context) -> object:
                return leg([w(ctx) for w in words])

            return build_leg
        return self.sm_word(child)

    def sm_word(self, child: Tree[Token] | Token | None) -> Callable[[Context], object]:
        if child is None:
            return lambda ctx: None
        env = self.env
        if isinstance(child, Token):
            if child.type == "REF":
                name = str(child)
                return lambda ctx: Token("REF", env.word_for(ctx.names.get(name)))
            kind, word = child.type.rsplit("__", 1)[-1], str(child)
            tok = Token(kind, word)
            alias = getattr(env, "alias", None)  # (a ship by her map code: ``explore lw``)
            if alias is not None and kind in _NAMED:
                return lambda ctx: Token(kind, alias(ctx, word))
            return lambda ctx: tok
        value = self.expr(child, 0)

        def run(ctx: Context) -> object:
            v = value(ctx)
            if isinstance(v, list | tuple):
                return [Token("WORD", env.word_for(x)) for x in v]
            return Token("WORD", env.word_for(v))

        return run

    def load_where(self, ship_node: Tree[Token] | Token, guard_node: Tree[Token] | Token) -> Action:
        """``load SHIP where GUARD``: the coins at the island for which the guard holds (the
        coin is named ``coin``), most valuable known first, as many as the ship has room for."""
        ship = self.sm_word(ship_node)
        guard = self.expr(guard_node, 0)

        def build(ctx: Context) -> object:
            kept: list[Any] = []  # (Spanish Main's coins, as its environment names them)
            for coin in cast("list[Any]", ctx.names["coins"]):
                ctx.names["coin"] = coin
                if guard(ctx):
                    kept.append(coin)
            ctx.names.pop("coin", None)
            kept.sort(key=lambda c: -(c.value if c.value is not None else 0))
            loading: Any = ctx.names.get("ship")
            room = len(kept) if loading is None else loading.s.cargo_slots - len(loading.s.cargo)
            words = [Token("INT", str(c.id)) for c in kept[: max(0, room)]]
            return self.to_command.load([ship(ctx), *words])

        return build

    def move_to(self, ship_node: Tree[Token] | Token, target_node: Tree[Token] | Token) -> Action:
        """``move SHIP to TARGET``: the ship's move on offer that leaves her nearest the target
        (spanish_main_env.best_move); none if she cannot move."""
        ship, target = self.sm_value(ship_node), self.sm_value(target_node)
        best_move = self.env.best_move

        def build(ctx: Context) -> object:
            return best_move(ctx, ship(ctx), target(ctx))[0]

        return build

    def sm_value(self, node: Tree[Token] | Token) -> Expr:
        """A ship or island word as a value: a name (``ship``), an id (``isla-2``) or ``(expr)``."""
        if isinstance(node, Token) and node.type.rsplit("__", 1)[-1] in ("SHIP", "TARGET"):
            return self.env.by_id(str(node))  # type: ignore[no-any-return]
        return self.expr(node, 0)

    def word(self, child: Tree[Token] | Token | None) -> Callable[[Context], object]:
        """One argument of a command: a literal word, a name like ``me``, or ``(expr)``."""
        env = self.env
        if child is None:
            return lambda ctx: None
        if isinstance(child, Token):
            if child.type == "REF":
                name = str(child)
                return lambda ctx: env.word_for(ctx.names.get(name))
            literal = str(child)
            return lambda ctx: literal
        value = self.expr(child, 0)
        return lambda ctx: env.word_for(value(ctx))

    def keep_where(self, guard_node: Tree[Token] | Token) -> Action:
        guard = self.expr(guard_node, 0)

        def build(ctx: Context) -> object:
            kept: list[str] = []
            for card in cast("list[Any]", ctx.names["drawn"]):  # (Lifeboat's cards)
                ctx.names["card"] = card
                if guard(ctx):
                    kept.append(str(card.number))
            ctx.names.pop("card", None)
            return self.to_command.keep(kept)

        return build

    # ------------------------------------------------------------------ expressions

    def expr(self, node: Tree[Token] | Token, depth: int) -> Expr:
        if depth > MAX_DEPTH:
            raise self.error(node, f"expressions nest deeper than {MAX_DEPTH} levels")
        if isinstance(node, Token):  # a bare REF or literal inside parentheses
            if node.type in ("CHARACTER", "ITEM", "REF", "CARD", "SHIP", "ISLAND", "TARGET"):
                name = str(node)
                return (lambda ctx: int(name)) if node.type == "CARD" else _lookup(name)
            raise self.error(node, f"unexpected {node!r}")
        d = depth + 1
        kids = node.children
        match node.data:
            case "number":
                n = self.literal(str(kids[0]), node)
                return lambda ctx: n
            case "percent":
                p = self.literal(str(kids[0])[:-1], node)
                return lambda ctx: p
            case "string":
                s = str(kids[0])[1:-1]
                return lambda ctx: s
            case "name":
                return _lookup(str(kids[0]))
            case "attr":
                return self.attr(self.expr(kids[0], d), str(kids[1]), node)
            case "call":
                return self.call(
                    str(kids[0]), [self.expr(k, d) for k in kids[1:] if k is not None], node
                )
            case "neg":
                return self.binary(lambda ctx: 0, _ARITH["-"], self.expr(kids[0], d))
            case "not_":
                inner = self.expr(kids[0], d)
                return lambda ctx: not inner(ctx)
            case "and_expr":
                parts = [self.expr(k, d) for k in kids]
                return lambda ctx: all(p(ctx) for p in parts)
            case "or_expr":
                parts = [self.expr(k, d) for k in kids]
                return lambda ctx: any(p(ctx) for p in parts)
            case "comparison":
                return self.binary(
                    self.expr(kids[0], d), _COMPARE[str(kids[1])], self.expr(kids[2], d)
                )
            case "sum" | "product":
                return self.chain(kids, d)
            case "best" | "worst" | "first" | "count" | "any_" | "all_":
                return self.pick(str(node.data), kids, d)
        raise self.error(node, f"cannot read {node.data!r} here")

    def literal(self, digits: str, node: Tree[Token]) -> int:
        if len(digits) > 12:
            raise self.error(node, f"the number {digits[:12]}… is too large")
        return int(digits)

    def binary(self, a: Expr, op: Callable[[object, object], object], b: Expr) -> Expr:
        def run(ctx: Context) -> object:
            ctx.tick()
            try:
                return op(a(ctx), b(ctx))
            except TypeError as e:
                raise BotRuntimeError(f"cannot compare or combine these values ({e})") from None

        return run

    def chain(self, kids: list[Token | Tree[Token]], depth: int) -> Expr:
        acc = self.expr(kids[0], depth)
        for i in range(1, len(kids), 2):
            acc = self.binary(acc, _ARITH[str(kids[i])], self.expr(kids[i + 1], depth))
        return acc

    def attr(self, obj: Expr, name: str, node: Tree[Token]) -> Expr:
        env = self.env
        if name not in env.ALL_ATTRS:
            raise self.error(node, f"unknown attribute '.{name}'")
        wrap = name in env.CHARACTER_FIELDS

        def run(ctx: Context) -> object:
            ctx.tick()
            value = obj(ctx)
            table = env.ATTRS.get(type(value))
            if table is None or name not in table:
                what = "none" if value is None else type(value).__name__.lower()
                raise BotRuntimeError(f"{what} has no '.{name}'")
            out = table[name](value)
            return env.as_character(out, ctx) if wrap else out

        return run

    def call(self, name: str, args: list[Expr], node: Tree[Token]) -> Expr:
        env = self.env
        fn = env.FUNCTIONS.get(name)
        if fn is None:
            raise self.error(
                node, f"unknown function '{name}()'; functions: {', '.join(env.FUNCTIONS)}"
            )

        def run(ctx: Context) -> object:
            ctx.tick()
            try:
                return fn(ctx, *(a(ctx) for a in args))
            except (TypeError, ValueError) as e:
                raise BotRuntimeError(f"{name}(): {e}") from None

        return run

    def pick(self, how: str, kids: list[Token | Tree[Token]], depth: int) -> Expr:
        var = str(kids[0])
        seq = self.expr(kids[1], depth)
        key = self.expr(kids[2], depth)
        where = self.expr(kids[3], depth) if len(kids) > 3 and kids[3] is not None else None

        def run(ctx: Context) -> object:
            ctx.tick()
            items = seq(ctx)
            if not isinstance(items, list | tuple):
                raise BotRuntimeError(f"'{how.rstrip('_')} {var} in …' needs a list")
            names = ctx.names
            saved = names.get(var, _UNSET)
            try:
                if how in ("best", "worst"):
                    best: object = None
                    best_key: Any = None  # (compared with '>' / '<': a script's numbers or words)
                    for x in items:
                        names[var] = x
                        if where is not None and not where(ctx):
                            continue
                        k = key(ctx)
                        if best_key is None or (k > best_key if how == "best" else k < best_key):
                            best, best_key = x, k
                    return best
                hits = 0
                for x in items:
                    names[var] = x
                    if key(ctx):
                        if how == "first":
                            return x
                        if how == "any_":
                            return True
                        hits += 1
                    elif how == "all_":
                        return False
                return {"first": None, "any_": False, "all_": True, "count": hits}[how]
            finally:
                if saved is _UNSET:
                    names.pop(var, None)
                else:
                    names[var] = saved

        return run


_UNSET = object()


def _lookup(name: str) -> Expr:
    def run(ctx: Context) -> object:
        try:
            return ctx.names[name]
        except KeyError:
            raise BotRuntimeError(f"unknown name '{name}'") from None

    return run


def _random_choice(ctx: Context) -> object:
    choices = ctx.view.choices
    return choices[int(ctx.rng.random() * len(choices))] if choices else None


def _pos(node: Tree[Token] | Token) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line or 1, node.column or 1
    meta = node.meta
    return (getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1)

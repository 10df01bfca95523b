"""What kind of value each expression of a bot script holds, so ``bot check`` can refuse a value
of the wrong kind before it plays.

Why a check of its own: the evaluator takes any value anywhere (a script has no declarations), so
``"knife" in c.hidden`` (a count, not a list), ``asker == "kid"`` (a character never equals text)
or ``"knif" in offer`` (no such item) used to fail, or quietly never hold, at every decision of
every game. Each game's bot environment describes its values in a :class:`KindTable` (the names,
attributes and functions it already lists, with the kind each one gives); this module works out
the kind of every expression from those tables and reports what can never work. Where it cannot
tell (a kind it does not know), it says nothing: a finding here is always a real mistake.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from typing import NamedTuple

import msgspec
from lark import Token, Tree

ANY = "any"
NUMBER = "number"
BOOL = "bool"
TEXT = "text"
NONE = "none"
LIST = "list:"
"""A list's kind is ``list:`` and its elements' kind (``list:item``)."""
PLACE_OF = "elem:"
"""A function result ``elem:N``: the elements' kind of its Nth argument (``nearest``)."""

_WORDS = {ANY: "a value", NUMBER: "a number", BOOL: "true or false", TEXT: "text", NONE: "none"}
_NUMERIC = frozenset({NUMBER, BOOL, ANY})
_PICKS = frozenset({"best", "worst", "first", "count", "any_", "all_"})
_EXPRESSIONS = _PICKS | {
    "number", "percent", "string", "name", "attr", "call", "neg", "not_", "and_expr", "or_expr",
    "comparison", "sum", "product",
}  # fmt: skip


class KindTable(msgspec.Struct, frozen=True):
    """One game's bot environment, by kind of value (see ``lifeboat_env.KINDS``)."""

    names: dict[str, str]
    """Each name's kind."""
    attrs: dict[str, dict[str, str]]
    """For each kind of object, its attributes' kinds."""
    functions: dict[str, tuple[tuple[str, ...], str]]
    """Each function's parameters and result. A parameter is kinds joined by ``|``; ``*KIND``
    last takes any number of them; the result ``elem:N`` is the elements of argument N."""
    words: dict[str, str]
    """How a reader says each kind of the game: ``an item``."""
    values: dict[str, tuple[str, ...]] = {}
    """The texts a text kind can be (``item``: ``water``, ``painting:3``, …)."""
    literal_names: frozenset[str] = frozenset()
    """Names that stand for their own text (``knife`` is ``"knife"``), of kind ``literal_kind``."""
    literal_kind: str = TEXT
    equal: frozenset[tuple[str, str]] = frozenset()
    """Pairs of kinds that may be equal although they differ (a card equals its number)."""
    commands: dict[str, tuple[str, ...]] = {}
    """What each command's words may be, by its grammar rule, as a function's parameters are:
    an ``(expr)`` written there must give one of them (``take (…)`` an item)."""
    hints: dict[str, str] = {}
    """A fix to suggest when this attribute's value is of the wrong kind."""
    fixes: dict[tuple[str, str], str] = {}
    """A fix to suggest when values of these two kinds are compared."""


class Val(NamedTuple):
    kind: str
    literal: str | None = None
    """The text, for a string literal or a name that stands for its own text."""


Report = Callable[[Tree[Token] | Token, str], None]


def check_kinds(tree: Tree[Token], source: str, table: KindTable, report: Report) -> None:
    """Report (node, message) for every value of the wrong kind in a parsed script."""
    _Checker(source, table, report).walk(tree, {})


class _Checker:
    def __init__(self, source: str, table: KindTable, report: Report) -> None:
        self.source = source
        self.t = table
        self.report = report

    # ------------------------------------------------------------------ reading

    def text(self, node: Tree[Token] | Token) -> str:
        """The expression as written (for the message)."""
        if isinstance(node, Token):
            return str(node)
        start, end = getattr(node.meta, "start_pos", None), getattr(node.meta, "end_pos", None)
        if start is None or end is None:
            return "this"
        shown = " ".join(self.source[start:end].split())
        return shown if len(shown) <= 40 else shown[:39] + "…"

    def word(self, kind: str) -> str:
        if kind.startswith(LIST):
            inner = kind[len(LIST) :]
            return f"a list of {self.plural(inner)}" if inner != ANY else "a list"
        return self.t.words.get(kind) or _WORDS.get(kind) or f"a {kind}"

    def plural(self, kind: str) -> str:
        """``item`` -> ``items``: a kind's word without its article, made plural."""
        return self.word(kind).split(" ", 1)[-1] + "s"

    def texty(self, kind: str) -> bool:
        return kind == TEXT or kind in self.t.values

    # ------------------------------------------------------------------ walking

    def walk(self, node: Tree[Token] | Token | None, scope: dict[str, Val]) -> None:
        """Every expression below ``node`` (rules, commands): its kind is worked out, which
        reports what is wrong inside it."""
        if not isinstance(node, Tree):
            return
        data = str(node.data)
        if data in _EXPRESSIONS:
            self.kind(node, scope)
        elif data == "keep_where":
            self.kind(node.children[0], {**scope, "card": Val(self.bound("card"))})
        elif data == "load_where":
            self.walk(node.children[0], scope)
            self.kind(node.children[1], {**scope, "coin": Val(self.bound("coin"))})
        else:
            slots = self.t.commands.get(data.rsplit("__", 1)[-1])
            for i, child in enumerate(node.children):
                if slots and isinstance(child, Tree) and child.data in _EXPRESSIONS:
                    word = data.rsplit("__", 1)[-1].replace("_", " ")
                    v = self.kind(child, scope)
                    self.argument(f"'{word}'", child, v, _param(slots, i))
                else:
                    self.walk(child, scope)

    def bound(self, kind: str) -> str:
        return kind if kind in self.t.attrs else ANY

    def kind(self, node: Tree[Token] | Token | None, scope: dict[str, Val]) -> Val:
        """The kind of ``node``'s value (``any`` where it cannot tell)."""
        if not isinstance(node, Tree):
            return Val(ANY)
        kids = node.children
        match str(node.data):
            case "number" | "percent":
                return Val(NUMBER)
            case "string":
                return Val(TEXT, str(kids[0])[1:-1])
            case "name":
                name = str(kids[0])
                if name in scope:
                    return scope[name]
                if name in self.t.literal_names:
                    return Val(self.t.literal_kind, name)
                return Val(self.t.names.get(name, ANY))
            case "attr":
                assert isinstance(kids[1], Token)
                return self.attr(kids[0], self.kind(kids[0], scope), kids[1])
            case "call":
                args = [k for k in kids[1:] if k is not None]
                return self.call(node, str(kids[0]), args, [self.kind(a, scope) for a in args])
            case "neg":
                self.number(kids[0], self.kind(kids[0], scope), "'-'")
                return Val(NUMBER)
            case "not_" | "and_expr" | "or_expr":
                for k in kids:
                    self.kind(k, scope)
                return Val(BOOL)
            case "comparison":
                return self.comparison(node, scope)
            case "sum" | "product":
                for i in range(0, len(kids), 2):  # (operands, with an operator between each two)
                    op = str(kids[i - 1] if i else kids[1])
                    self.number(kids[i], self.kind(kids[i], scope), f"'{op}'")
                return Val(NUMBER)
            case how if how in _PICKS:
                return self.pick(how, kids, scope)
        return Val(ANY)

    # ------------------------------------------------------------------ the checks

    def number(self, node: Tree[Token] | Token | None, v: Val, what: str) -> None:
        if node is not None and v.kind not in _NUMERIC:
            self.report(
                node, f"{what} works with numbers, and {self.text(node)} is {self.word(v.kind)}"
            )

    def attr(self, obj: Tree[Token] | Token | None, v: Val, name_tok: Token) -> Val:
        name = str(name_tok)
        owners = [k for k, table in self.t.attrs.items() if name in table]
        if not owners:  # (an unknown attribute: reported with the names)
            return Val(ANY)
        if v.kind == ANY:
            found = {self.t.attrs[k][name] for k in owners}
            return Val(found.pop() if len(found) == 1 else ANY)
        table = self.t.attrs.get(v.kind)
        if table is not None and name in table:
            return Val(table[name])
        if v.kind != NONE and obj is not None:
            have = " or ".join(sorted({self.word(k) for k in owners}))
            shown = self.text(obj)
            self.report(
                name_tok, f"{shown} is {self.word(v.kind)}, and '.{name}' belongs to {have}"
            )
        return Val(ANY)

    def call(
        self, node: Tree[Token], fn: str, args: list[Tree[Token] | Token], vals: list[Val]
    ) -> Val:
        sig = self.t.functions.get(fn)
        if sig is None:
            return Val(ANY)
        params, result = sig
        for i, (arg, v) in enumerate(zip(args, vals, strict=True)):
            self.argument(f"{fn}()", arg, v, _param(params, i))
        if result.startswith(PLACE_OF):
            k = int(result[len(PLACE_OF) :])
            inner = vals[k].kind if k < len(vals) else ANY
            return Val(inner[len(LIST) :] if inner.startswith(LIST) else ANY)
        return Val(result)

    def argument(self, what: str, arg: Tree[Token] | Token, v: Val, param: str) -> None:
        """``arg`` (of kind ``v``) given to a function's or command's parameter (``what``)."""
        if not param:
            return
        accepted = param.split("|")
        for kind in accepted:
            if v.literal is not None and kind in self.t.values:
                self.known_text(arg, v.literal, kind)
                return
            if self.compatible(v.kind, kind):
                return
        named = [k for k in accepted if k != TEXT] or accepted  # ("or text": an id, unsaid)
        wants = " or ".join(dict.fromkeys(self.word(k) for k in named))
        self.report(arg, f"{what} takes {wants}, and {self.text(arg)} is {self.word(v.kind)}")

    def known_text(self, node: Tree[Token] | Token, text: str, kind: str) -> bool:
        """Is ``text`` one the ``kind`` can be? If not, say so with the nearest one."""
        values = self.t.values[kind]
        if text in values:
            return True
        what = self.word(kind).split(" ", 1)[-1]
        close = difflib.get_close_matches(text, values, n=1, cutoff=0.6)
        fix = f"did you mean '{close[0]}'?" if close else f"{what}s are {', '.join(values)}"
        self.report(node, f"there is no {what} '{text}'; {fix}")
        return False

    def comparison(self, node: Tree[Token], scope: dict[str, Val]) -> Val:
        left, op_tok, right = node.children
        a, op, b = self.kind(left, scope), str(op_tok), self.kind(right, scope)
        assert left is not None and right is not None
        if op == "in":
            if b.kind.startswith(LIST):
                self.equal(left, a, right, Val(b.kind[len(LIST) :]), inside=True)
            elif b.kind not in (ANY, NONE) and not self.texty(b.kind):
                hint = self.hint(right)
                self.report(
                    right,
                    f"'in' looks in a list, and {self.text(right)} is {self.word(b.kind)}{hint}",
                )
        elif op in ("==", "!="):
            self.equal(left, a, right, b)
        else:
            for side, v in ((left, a), (right, b)):
                if (
                    v.kind in _NUMERIC
                    or v.kind == NONE
                    or (self.texty(a.kind) and self.texty(b.kind))
                ):
                    continue
                self.report(
                    side, f"'{op}' compares numbers, and {self.text(side)} is {self.word(v.kind)}"
                )
                break
        return Val(BOOL)

    def hint(self, node: Tree[Token] | Token) -> str:
        if isinstance(node, Tree) and node.data == "attr":
            found = self.t.hints.get(str(node.children[1]))
            return f"; {found}" if found else ""
        return ""

    def equal(
        self,
        left: Tree[Token] | Token,
        a: Val,
        right: Tree[Token] | Token,
        b: Val,
        inside: bool = False,
    ) -> None:
        """``a == b`` (or ``a in`` a list of ``b``): can they ever be equal?"""
        for lit, other, at in ((a, b, left), (b, a, right)):
            if lit.literal is not None and other.kind in self.t.values:
                self.known_text(at, lit.literal, other.kind)
                return
        if self.compatible(a.kind, b.kind):
            return
        fix = ""
        for lit, other in ((a, b), (b, a)):
            if lit.literal is not None and self.t.names.get(lit.literal) == other.kind:
                fix = f"; write {lit.literal} without quotes"
            elif (lit.kind, other.kind) in self.t.fixes:
                fix = "; " + self.t.fixes[(lit.kind, other.kind)]
        if inside:
            self.report(
                left,
                f"{self.text(right)} holds {self.plural(b.kind)}, and"
                f" {self.text(left)} is {self.word(a.kind)}: it is never there{fix}",
            )
        else:
            self.report(
                left,
                f"{self.text(left)} is {self.word(a.kind)} and {self.text(right)} is"
                f" {self.word(b.kind)}: they are never equal{fix}",
            )

    def compatible(self, a: str, b: str) -> bool:
        if a == b or ANY in (a, b) or NONE in (a, b) or {a, b} <= _NUMERIC:
            return True
        if a.startswith(LIST) and b.startswith(LIST):
            return self.compatible(a[len(LIST) :], b[len(LIST) :])
        if TEXT in (a, b) and self.texty(a) and self.texty(b):
            return True
        return (a, b) in self.t.equal or (b, a) in self.t.equal

    def pick(
        self, how: str, kids: Sequence[Tree[Token] | Token | None], scope: dict[str, Val]
    ) -> Val:
        var, seq_node = str(kids[0]), kids[1]
        seq = self.kind(seq_node, scope)
        elem = Val(ANY)
        if seq.kind.startswith(LIST):
            elem = Val(seq.kind[len(LIST) :])
        elif seq.kind not in (ANY, NONE) and seq_node is not None:
            word = how.rstrip("_")
            self.report(
                seq_node,
                f"'{word} {var} in …' needs a list, and {self.text(seq_node)} is"
                f" {self.word(seq.kind)}{self.hint(seq_node)}",
            )
        inner = {**scope, var: elem}
        key = self.kind(kids[2], inner)
        for k in kids[3:]:
            self.kind(k, inner)
        if how in ("best", "worst") and kids[2] is not None and key.kind not in _NUMERIC:
            self.report(
                kids[2],
                f"'{how} … by' orders by a number, and {self.text(kids[2])} is"
                f" {self.word(key.kind)}",
            )
        if how == "count":
            return Val(NUMBER)
        if how in ("any_", "all_"):
            return Val(BOOL)
        return elem


def _param(params: tuple[str, ...], i: int) -> str:
    """Parameter ``i`` of ``params`` ("" if there is none: it takes anything there)."""
    if i < len(params):
        return params[i].lstrip("*")
    return params[-1][1:] if params and params[-1].startswith("*") else ""

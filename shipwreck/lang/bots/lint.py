"""``shipwreck bot check``: what is wrong with a script, before it plays.

Errors (the script cannot be trusted to play): syntax, unknown names, attributes and functions,
handlers for decisions the game does not have, rules that can never fire because an earlier rule
always does, a command that cannot answer its handler's decision (``take`` in ``on turn:``, a
side action such as ``drop``), a literal out of its range (``choose 99``), a value of the wrong
kind (``"knife" in c.hidden``, ``"knif" in offer``: :mod:`.kinds`), and a condition or
command that can never be worked out within a decision's step budget. Warnings: handlers with no
``else`` (they may fall back to the safe default).
"""

from __future__ import annotations

import contextlib
import re
from types import ModuleType

import msgspec
from lark import Token, Tree

from shipwreck.lang.bots.compile import (
    MAX_DEPTH,
    default_bot_game,
    env_for,
    load_source,
    parse_tree,
)
from shipwreck.lang.bots.kinds import KindTable, check_kinds
from shipwreck.lang.bots.runner import DEFAULT_BUDGET
from shipwreck.lang.bots.script import BotError, name_for
from shipwreck.lang.bots.search import check_spec
from shipwreck.names import MAX_NAME, valid_bot_name


class Finding(msgspec.Struct, frozen=True):
    path: str
    line: int
    column: int
    level: str
    """``error`` or ``warning``."""
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.level}: {self.message}"


_PICKS = ("best", "worst", "first", "count", "any_", "all_")


def check_source(source: str, path: str = "<bot>") -> list[Finding]:
    """Every problem found in one script, in line order."""
    try:
        tree = parse_tree(source, path)
    except BotError as e:
        return [_from_error(str(e), path)]
    findings: list[Finding] = []
    _header(tree, path, findings)
    env = env_for(_game(tree))
    try:
        _names(tree, path, findings, env)
    except RecursionError:
        return [Finding(path, 1, 1, "error", f"expressions nest deeper than {MAX_DEPTH} levels")]
    _reachability(tree, path, findings, env, _game(tree))
    _answers(tree, path, findings, env)
    _literals(tree, path, findings, env)
    with contextlib.suppress(RecursionError):  # (the nesting is reported above)
        _kinds(tree, source, path, findings, env)
    with contextlib.suppress(RecursionError):  # (the nesting is reported above)
        _budgets(tree, path, findings)
    _searches(tree, path, findings, _game(tree))
    if not any(f.level == "error" for f in findings):
        try:
            load_source(source, path)
        except BotError as e:
            findings.append(_from_error(str(e), path))
    findings.sort(key=lambda f: (f.line, f.column))
    return findings


def _game(tree: Tree[Token]) -> str:
    header = tree.children[0]
    if isinstance(header, Tree) and len(header.children) == 2:
        return str(header.children[1])
    return default_bot_game()


def _header(tree: Tree[Token], path: str, out: list[Finding]) -> None:
    """The header's name must make a bot name: the bot goes by it in ``sim``, ``arena``, on the
    ladder and at the lobby (:attr:`~shipwreck.lang.bots.script.BotScript.bot_name`)."""
    header = tree.children[0]
    if not isinstance(header, Tree) or not header.children:
        return
    tok = header.children[0]
    title = str(tok)[1:-1]
    name = name_for(title)
    if valid_bot_name(name):
        return
    example = re.sub(r"[^a-z0-9_]", "", name)[:MAX_NAME].strip("_") or "rower"
    if len(name) > MAX_NAME:
        why = f"the bot's name is {len(name)} characters, at most {MAX_NAME}"
    else:
        shown = "".join(c if c.isprintable() else "?" for c in title)
        why = f"'{shown}' cannot be a bot's name" if name else "the bot has no name"
        why += ": a bot's name is letters, digits, spaces and _"
    _say(out, path, tok, f'{why}; e.g. bot "{example}"')


def _from_error(message: str, path: str) -> Finding:
    rest = message.removeprefix(path + ":")
    parts = rest.split(":", 2)
    try:
        return Finding(path, int(parts[0]), int(parts[1]), "error", parts[2].strip())
    except (ValueError, IndexError):
        return Finding(path, 1, 1, "error", message)


def _pos(node: Tree[Token] | Token) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line or 1, node.column or 1
    return getattr(node.meta, "line", 1) or 1, getattr(node.meta, "column", 1) or 1


def _say(
    out: list[Finding], path: str, node: Tree[Token] | Token, message: str, level: str = "error"
) -> None:
    """One finding at ``node``'s line and column."""
    line, col = _pos(node)
    out.append(Finding(path, line, col, level, message))


def _names(tree: Tree[Token], path: str, out: list[Finding], env: ModuleType) -> None:
    """Unknown names, attributes and functions, with pick variables in scope."""

    def visit(node: Tree[Token] | Token | None, bound: frozenset[str]) -> None:
        if not isinstance(node, Tree):
            return
        if node.data in _PICKS:
            var = str(node.children[0])
            visit(node.children[1], bound)
            for k in node.children[2:]:
                visit(k, bound | {var})
            return
        if node.data == "keep_where":
            visit(node.children[0], bound | {"card"})
            return
        if node.data == "load_where":
            visit(node.children[0], bound)
            visit(node.children[1], bound | {"coin"})
            return
        if node.data == "name":
            name = str(node.children[0])
            if name not in env.NAMES and name not in bound:
                hint = _close(name, env.NAMES | bound)
                _say(out, path, node, f"unknown name '{name}'{hint}")
        elif node.data == "attr":
            attr = str(node.children[1])
            if attr not in env.ALL_ATTRS:
                hint = _close(attr, env.ALL_ATTRS)
                _say(out, path, node.children[1], f"unknown attribute '.{attr}'{hint}")
        elif node.data == "call":
            fn = str(node.children[0])
            if fn not in env.FUNCTIONS:
                hint = _close(fn, frozenset(env.FUNCTIONS))
                _say(out, path, node, f"unknown function '{fn}()'{hint}")
        for child in node.children:
            visit(child, bound)

    visit(tree, frozenset())


def _searches(tree: Tree[Token], path: str, out: list[Finding], game: str) -> None:
    """Every ``search N [using BOT]`` action: a playout count in range, a rollout bot that is a
    shipped bot of the script's game and does not search itself."""
    for node in tree.find_data("search"):
        count, using = node.children
        why = check_spec(int(str(count)[:12]), str(using) if using is not None else None, game)
        if why:
            _say(out, path, node, why)


def _close(word: str, known: frozenset[str] | set[str]) -> str:
    import difflib

    match = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.7)
    return f"; did you mean '{match[0]}'?" if match else ""


def _reachability(
    tree: Tree[Token], path: str, out: list[Finding], env: ModuleType, game: str
) -> None:
    """Handlers for unknown decisions; rules after one that always fires."""
    seen: set[str] = set()
    for handler in tree.children[1:]:
        if not isinstance(handler, Tree):
            continue
        kind_tok = handler.children[0]
        kind = str(kind_tok)
        if kind not in env.DECISIONS:
            known = ", ".join(env.DECISIONS)
            _say(out, path, kind_tok, f"{game} has no '{kind}' decision; handlers: {known}")
        if kind in seen:
            _say(out, path, kind_tok, f"a second 'on {kind}:' handler")
        seen.add(kind)
        always_at: int | None = None
        for rule in handler.children[1:]:
            if not isinstance(rule, Tree):
                continue
            if always_at is not None:
                _say(out, path, rule, f"this rule can never fire: line {always_at} always does")
                continue
            if rule.data == "otherwise" or _always_true(rule.children[0]):
                always_at = _pos(rule)[0]
        if always_at is None:
            why = f"'on {kind}:' has no 'else': it may fall back to the safe default"
            _say(out, path, kind_tok, why, "warning")


def _always_true(guard: Tree[Token] | Token) -> bool:
    if isinstance(guard, Tree) and guard.data == "name":
        return str(guard.children[0]) == "true"
    if isinstance(guard, Tree) and guard.data == "number":
        return int(str(guard.children[0])) != 0
    return False


def _rules(tree: Tree[Token]) -> list[tuple[str, Tree[Token]]]:
    """Every rule with its handler's decision."""
    out = []
    for handler in tree.find_data("handler"):
        kind = str(handler.children[0])
        out += [(kind, r) for r in handler.children[1:] if isinstance(r, Tree)]
    return out


def _command(rule: Tree[Token]) -> Tree[Token] | None:
    """A rule's action if it is one of the game's commands (not ``random`` or ``search``)."""
    action = rule.children[-1]
    if not isinstance(action, Tree) or action.data in ("random_choice", "search"):
        return None
    return action


def _tag(node: Tree[Token]) -> str:
    """A command's rule name (its struct's tag), without the imported grammar's prefix."""
    return str(node.data).rsplit("__", 1)[-1]


def _answers(tree: Tree[Token], path: str, out: list[Finding], env: ModuleType) -> None:
    """A command that cannot answer its handler's decision is refused at play time (and the
    safe default played): say so now, with what that decision takes."""
    answers: dict[str, frozenset[str]] = getattr(env, "ANSWERS", {})
    side: frozenset[str] = getattr(env, "SIDE_ACTIONS", frozenset())
    for kind, rule in _rules(tree):
        cmd = _command(rule)
        if cmd is None or kind not in answers or _tag(cmd) in answers[kind]:
            continue
        tag = _tag(cmd)
        takes = ", ".join(sorted(t.replace("_", " ") for t in answers[kind]))
        word = tag.replace("_", " ")
        if tag in side and "side" in answers and tag in answers["side"]:
            why = f"'{word}' is a side action: write it under 'on side:', not 'on {kind}:'"
        elif tag in side:
            why = f"'{word}' is a side action: it does not answer 'on {kind}:'"
        else:
            why = f"'{word}' cannot answer 'on {kind}:'"
        _say(out, path, cmd, f"{why}; it takes {takes}")


def _literals(tree: Tree[Token], path: str, out: list[Finding], env: ModuleType) -> None:
    """A literal outside what the game has (``choose 99``: the cards are 19-42)."""
    ranges: dict[str, range] = getattr(env, "LITERALS", {})
    if not ranges:
        return
    for tok in tree.scan_values(lambda v: isinstance(v, Token)):
        allowed = ranges.get(tok.type.rsplit("__", 1)[-1])
        if allowed is None or not str(tok).isdigit() or int(str(tok)[:12]) in allowed:
            continue
        what = f"{tok.type.lower()} {str(tok)[:12]}"
        _say(out, path, tok, f"there is no {what}: they are {allowed.start} to {allowed.stop - 1}")


def _kinds(tree: Tree[Token], source: str, path: str, out: list[Finding], env: ModuleType) -> None:
    """Values of the wrong kind: ``"knife" in c.hidden`` (a count), ``asker == "kid"`` (a
    character is never text), ``"knif" in offer`` (no such item): see :mod:`.kinds`."""
    table: KindTable | None = getattr(env, "KINDS", None)
    if table is not None:
        check_kinds(tree, source, table, lambda node, why: _say(out, path, node, why))


def _budgets(tree: Tree[Token], path: str, out: list[Finding]) -> None:
    """A condition or a command whose working-out takes more steps than a decision may (a
    flat chain of 6,000 ``+``): it fails at every decision, so it is an error now."""
    for _, rule in _rules(tree):
        parts = rule.children if rule.data == "guarded" else rule.children[-1:]
        for part in parts:
            least = _least_steps(part)
            if least > DEFAULT_BUDGET:
                what = "condition" if part is not rule.children[-1] else "command"
                _say(
                    out,
                    path,
                    part,
                    f"this {what} takes at least {least} steps to work out, and a decision"
                    f" may take {DEFAULT_BUDGET}: split it, or make it shorter",
                )


_TICKS = frozenset({"comparison", "attr", "call"})
"""The expressions that count one step each when worked out (compile.py's ``ctx.tick()``)."""


def _least_steps(node: Tree[Token] | Token | None) -> int:
    """The fewest steps working out ``node`` can take: ``and``/``or`` may stop after their
    first part, a pick's key and filter may run for no item, ``keep where``/``load where`` for
    no card or coin; every link of a ``+``/``*`` chain, comparison, attribute and call counts."""
    if not isinstance(node, Tree):
        return 0
    data = str(node.data)
    kids = node.children
    if data in ("and_expr", "or_expr"):
        return _least_steps(kids[0])
    if data in ("sum", "product"):
        return len(kids) // 2 + sum(_least_steps(k) for k in kids)
    if data in _PICKS:
        return 1 + _least_steps(kids[1])
    if data in ("keep_where", "load_where"):
        return 0
    return (1 if data in _TICKS else 0) + sum(_least_steps(k) for k in kids)

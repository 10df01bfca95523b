"""Parse trees to command structs, read off the structs themselves (Lark's ``create_ast`` idea).

Why: a game's grammar names each command rule after its struct's tag (``row``, ``swap``;
``move-toward`` is the rule ``move_toward``), and the children of a rule are the struct's
fields in order. So one builder, made from the game's command union, turns every regular rule
into its struct; a game writes by hand only the rules that are not regular (a word that stands
for ``None``, a leg built from numbers). Words are converted once, by the field's type:

- ``str`` and ``Literal[...]`` fields take the word's text, ``int`` fields its number;
- an optional field (``X | None``) takes ``None`` where the grammar left a placeholder;
- a ``tuple[X, ...]`` field takes every remaining child (placeholders dropped), each converted
  as ``X``; a child that is already a value (a leg a hand-written rule built) is kept as it is.

The bot compiler calls the same methods by rule name with the words a script produced, so a
bot's command and a typed command are built by the same code.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Literal, TypeVar, Union

import msgspec

Convert = Callable[[object], object]


def _word(value: object) -> object:
    """A word's text; a value a hand-written rule built (a tuple) is kept."""
    return value if isinstance(value, tuple) else str(value)


def _number(value: object) -> int:
    return int(str(value))


def _converter(tp: object) -> tuple[Convert, bool]:
    """How to convert one child for a field of type ``tp``, and whether the field is
    variadic (``tuple[X, ...]``: it takes every remaining child)."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        convert, variadic = _converter(inner[0] if len(inner) == 1 else str)
        return (lambda v: None if v is None else convert(v)), variadic
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return _converter(args[0])[0], True
        return _word, False  # a fixed tuple (a leg) is built by a hand-written rule
    if tp is int:
        return _number, False
    if tp is str or origin is Literal:
        return _word, False
    return (lambda v: v), False


def _rule(cls: type[msgspec.Struct]) -> Callable[[object, list[object]], msgspec.Struct]:
    """The transformer method for one struct: its fields from the rule's children in order."""
    hints = typing.get_type_hints(cls, include_extras=False)
    plan = [(name, *_converter(hints[name])) for name in cls.__struct_fields__]

    def build(self: object, children: list[object]) -> msgspec.Struct:
        kwargs: dict[str, object] = {}
        rest = list(children)
        for name, convert, variadic in plan:
            if variadic:
                kwargs[name] = tuple(convert(c) for c in rest if c is not None)
                rest = []
            elif rest:
                kwargs[name] = convert(rest.pop(0))
        return cls(**kwargs)

    build.__name__ = build.__qualname__ = rule_name(cls)
    build.__doc__ = f"Builds :class:`{cls.__name__}` from its rule's children."
    return build


def rule_name(cls: type[msgspec.Struct]) -> str:
    """The grammar rule that builds a struct: its tag with ``-`` as ``_``."""
    tag = cls.__struct_config__.tag
    assert isinstance(tag, str), f"{cls.__name__} has no string tag"
    return tag.replace("-", "_")


T = TypeVar("T", bound=type)


def builds(union: object) -> Callable[[T], T]:
    """Class decorator: give a Lark transformer one method per struct of ``union`` (a command
    union type), named after its rule. A method the class defines itself (an irregular rule)
    wins. (``pass`` is a Python keyword: the rule's method is only reachable by ``getattr``,
    which is how Lark and the bot compiler find it.)"""

    def install(cls: T) -> T:
        for struct in typing.get_args(union):
            name = rule_name(struct)
            if name not in vars(cls):
                setattr(cls, name, _rule(struct))
        return cls

    return install

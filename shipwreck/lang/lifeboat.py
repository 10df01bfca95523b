"""Lifeboat's command text: the Lark tree -> command structs, and structs -> canonical text."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations

from lark import Token, Transformer

from shipwreck.games.lifeboat import commands as C
from shipwreck.games.lifeboat.cards import CHAR_IDS, ITEM_KINDS, SUPPLY_COUNTS
from shipwreck.games.lifeboat.view import LifeboatView
from shipwreck.lang import registry
from shipwreck.lang.bots import lifeboat_env
from shipwreck.lang.build import builds
from shipwreck.lang.commands import format_command
from shipwreck.lang.help import LIFEBOAT_SECTIONS
from shipwreck.lang.registry import Term
from shipwreck.lang.rules_text import LIFEBOAT_HOW_TO_WIN, LIFEBOAT_LEGEND


@builds(C.Command)
class ToCommand(Transformer[Token, C.Command]):
    """Builds a command struct from a parse tree of ``grammar/lifeboat.lark``: every rule is
    named after its struct and built from its fields (:mod:`shipwreck.lang.build`), but these."""

    def rob(self, a: list[Token]) -> C.Command:
        item = str(a[1])
        return C.Rob(str(a[0]), None if item == "hidden" else item)

    def say(self, a: list[Token]) -> C.Command:
        return C.Say(str(a[0]).strip())


def format_lifeboat(cmd: C.Command) -> str:
    """The canonical text of a Lifeboat command."""
    match cmd:
        case C.Row():
            return "row"
        case C.Swap(target):
            return f"swap {target}"
        case C.Rob(target, item):
            return f"rob {target} {item or 'hidden'}"
        case C.Use(item, target):
            return f"use {item}" + (f" on {target}" if target else "")
        case C.FireFlare():
            return "fire flare"
        case C.Rest():
            return "rest"
        case C.Keep(cards):
            return "keep " + (" ".join(str(c) for c in cards) if cards else "none")
        case C.Agree():
            return "agree"
        case C.Resist():
            return "resist"
        case C.Join(side):
            return f"join {side}"
        case C.Reveal(item):
            return f"reveal {item}"
        case C.Done():
            return "done"
        case C.Take(item):
            return f"take {item}"
        case C.Choose(card):
            return f"choose {card}"
        case C.ThrowPreserver(target):
            return f"throw preserver to {target}"
        case C.PlayBait():
            return "play bait"
        case C.Pass():
            return "pass"
        case C.Drink():
            return "drink"
        case C.Wound():
            return "wound"
        case C.Offer(item, target, ask):
            return f"offer {item} to {target}" + (f" for {ask}" if ask else "")
        case C.Accept(source):
            return "accept" + (f" {source}" if source else "")
        case C.Decline(source):
            return "decline" + (f" {source}" if source else "")
        case C.Give(item, target):
            return f"give {item} to {target}"
        case C.Drop(item):
            return f"drop {item}"
        case C.Say(text):
            return f"say {text}"
        case C.Timeout(target):
            return f"timeout {target}"
    raise TypeError(f"not a Lifeboat command: {cmd!r}")


def legal_texts(view: LifeboatView) -> Iterator[str]:
    """Every legal command text of ``view``'s seat now, as typed: an offer may ask for any item
    in return, kept cards may come in any order, a bare ``painting`` names any painting, and
    ``say`` is always open to the conscious."""
    asks = tuple(dict.fromkeys((*ITEM_KINDS, *SUPPLY_COUNTS)))
    for cmd in (*view.choices, *view.free):
        variants: list[C.Command] = [cmd]
        if isinstance(cmd, C.Offer) and cmd.ask is None:
            variants += [C.Offer(cmd.item, cmd.target, ask) for ask in asks]
        elif isinstance(cmd, C.Keep) and len(cmd.cards) > 1:
            variants = [C.Keep(p) for p in permutations(cmd.cards)]
        for v in variants:
            line = format_command(v)
            yield line
            if ":" in line:  # ``painting:3`` may be named ``painting``
                yield " ".join(w.split(":", 1)[0] for w in line.split(" "))
    me = next((c for c in view.characters if c.id == view.me), None)
    if me is not None and me.state == "ok" and view.phase != "over":
        yield "say"


def names() -> tuple[str, ...]:
    """The names Lifeboat's grammar patterns stand for (in error messages)."""
    return (*CHAR_IDS, *ITEM_KINDS, *SUPPLY_COUNTS, "hidden", "attacker", "defender", "none")


LANG = registry.register(
    registry.LangGame(
        name="lifeboat",
        to_command=ToCommand,
        command_type=C.Command,
        format=format_lifeboat,
        names=names,
        terms={
            "CHARACTER": Term("a character"),
            "ITEM": Term("an item"),
            "CARD": Term("a card number 19-42", show=False),
            "SIDE": Term("a side"),
            "TEXT": Term("some text", show=False),
        },
        legal_texts=legal_texts,
        view_type=LifeboatView,
        any_case=True,
        help=LIFEBOAT_SECTIONS,
        how_to_win=LIFEBOAT_HOW_TO_WIN,
        legend=LIFEBOAT_LEGEND,
        scenario_form="'CHARACTER: COMMAND', e.g. 'lauren: row'",
        tutorial="lifeboat",
        bot_env=lifeboat_env,
    )
)

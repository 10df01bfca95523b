"""Lifeboat's command text: the Lark tree -> command structs, and structs -> canonical text."""

from __future__ import annotations

from lark import Token, Transformer

from shipwreck.games.lifeboat import commands as C
from shipwreck.lang.build import builds


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

"""Rich renderables for a Lifeboat table, made from one seat's view and nothing else.

Pure functions (view in, renderable out) so screens stay thin and snapshots stay stable.
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from shipwreck.games.lifeboat.cards import CHAR, NAV, named
from shipwreck.games.lifeboat.view import CharacterView, LifeboatView

STATE_STYLE = {"ok": "green", "unconscious": "yellow", "dead": "red"}
PROMPT_TEXT = {
    "supply": "pick a supply card: take ITEM",
    "turn": "your turn: row, swap X, rob X ITEM|hidden, use ITEM [on X], fire flare, rest",
    "keep": "keep the cards you want on the table: keep N… or keep none",
    "respond": "agree or resist",
    "fight": "a fight: join attacker|defender, reveal WEAPON, done",
    "navigate": "you navigate: choose N",
    "overboard": "someone is in the water: throw preserver to X, play bait, pass",
    "thirst": "you are thirsty: drink or wound",
    "offer": "an offer waits for you: accept or decline",
}


def pips(wounds: int, strength: int) -> Text:
    """Wounds as filled pips out of the strength (one extra pip means dead)."""
    filled = min(wounds, strength + 1)
    t = Text()
    t.append("●" * filled, style="red")
    t.append("○" * max(0, strength - filled), style="dim")
    return t


def boat(view: LifeboatView) -> RenderableType:
    """The boat from bow to stern."""
    t = Table(
        title="the boat  (bow → stern)", expand=True, title_justify="left", box=box.SIMPLE_HEAD
    )
    for col, kw in (
        ("#", {"width": 2}),
        ("character", {"no_wrap": True, "min_width": 20}),
        ("str", {"justify": "right"}),
        ("wounds", {"no_wrap": True, "min_width": 9}),
        ("state", {"no_wrap": True}),
        ("revealed", {}),
        ("hidden", {"justify": "right"}),
        ("marks", {}),
    ):
        t.add_column(col, **kw)
    acting = {view.actor, view.navigator}
    for c in view.characters:
        name = Text(CHAR[c.id].name)
        if c.id == view.me:
            name.append(" (you)", style="bold cyan")
        if c.id in acting:
            name.stylize("reverse")
        marks = " ".join(m for m, on in (("rowed", c.rowed), ("fought", c.fought)) if on)
        t.add_row(
            str(c.seat),
            name,
            str(c.strength),
            pips(c.wounds, c.strength),
            Text(c.state, style=STATE_STYLE[c.state]),
            ", ".join(c.revealed) or "-",
            str(c.hidden_count),
            marks,
        )
    return t


def me_panel(view: LifeboatView) -> RenderableType:
    """My character, my hidden items, my friend and enemy (only in my own view)."""
    me = next((c for c in view.characters if c.id == view.me), None)
    if me is None:
        return Panel(Text("you are watching this table"), title="spectator")
    lines = Text()
    lines.append(f"{CHAR[me.id].name}", style="bold")
    lines.append(f"  strength {me.strength}, survival {me.bonus}\n")
    lines.append("hidden: ")
    lines.append(", ".join(me.hidden or ()) or "nothing")
    lines.append("\nrevealed: ")
    lines.append(", ".join(me.revealed) or "nothing")
    lines.append("\nfriend: ")
    lines.append(CHAR[me.friend].name if me.friend else "?", style="green")
    lines.append("   enemy: ")
    lines.append(CHAR[me.enemy].name if me.enemy else "?", style="red")
    return Panel(lines, title="you")


def card(number: int, present: list[str]) -> RenderableType:
    """One navigation card with its symbols (LB-6)."""
    nc = NAV[number]

    def who(spec: tuple[str, ...]) -> str:
        names = named(spec, present)
        return ",".join(CHAR[c].letter for c in names) or "-"

    body = Text()
    body.append(f"≈ {who(nc.overboard)}\n", style="blue")
    gull = {1: "v +1", -1: "v̶ -1", 0: ""}[nc.birds]
    body.append(f"{gull or ' '}\n", style="bold yellow")
    body.append(f"thirst {who(nc.thirsty)}\n")
    body.append(("⚔ " if nc.fight else "  ") + ("‖oar" if nc.oar else ""), style="magenta")
    return Panel(body, title=f"#{number}", width=20)


def navigation(view: LifeboatView) -> RenderableType:
    present = [c.id for c in view.characters]
    track = Text("seagulls ")
    track.append("v " * view.birds, style="bold yellow")
    track.append("· " * max(0, 4 - view.birds), style="dim")
    track.append(f"  round {view.round}  {view.phase}")
    table = Table.grid(padding=(0, 1))
    cards = [card(n, present) for n in view.navigation_table]
    if cards:
        table.add_row(*cards)
    parts: list[RenderableType] = [track, table if cards else Text("navigation table: empty")]
    if view.drawn:
        drawn = Table.grid(padding=(0, 1))
        drawn.add_row(*[card(n, present) for n in view.drawn])
        parts += [Text("you drew:", style="bold"), drawn]
    if view.supply_offer:
        parts.append(Text("supply passed to you: " + ", ".join(view.supply_offer), style="bold"))
    return Group(*parts)


def prompt(view: LifeboatView) -> RenderableType:
    """What I must decide now, and my legal choices."""
    from shipwreck.lang import format_command

    mine = [p for p in view.prompts if p.seat == view.seat and p.blocking]
    if view.phase == "over":
        return Text("the boat has reached land: the game is over", style="bold")
    if not mine:
        waiting = sorted({_name(view, p.seat) for p in view.prompts if p.blocking})
        who = ", ".join(waiting) if waiting else "the table"
        return Text(f"waiting for {who}", style="dim")
    kind = mine[0].kind
    t = Text(PROMPT_TEXT.get(kind, kind) + "\n", style="bold cyan")
    if view.request is not None and view.request.target == view.me:
        r = view.request
        what = "your seat" if r.kind == "swap" else (r.item or "a hidden item")
        t.append(f"{r.attacker} wants {what}\n")
    choices = [format_command(c) for c in view.choices]
    t.append("choices: ", style="bold")
    t.append(" | ".join(choices[:24]) + (" …" if len(choices) > 24 else ""))
    return t


def _name(view: LifeboatView, seat: int) -> str:
    for c in view.characters:
        if c.player == seat:
            return c.id
    return f"seat {seat + 1}"


def fight(view: LifeboatView) -> RenderableType | None:
    f = view.fight
    if f is None:
        return None
    t = Table(expand=True, title=f"fight: {f.request.attacker} vs {f.request.target}")
    t.add_column(f"attackers ({f.attack_power})", style="red")
    t.add_column(f"defenders ({f.defense_power})", style="green")
    t.add_column("still deciding")
    deciding = [c.id for c in view.characters if c.state == "ok" and c.id not in f.done]
    t.add_row(", ".join(f.attackers), ", ".join(f.defenders), ", ".join(deciding) or "-")
    return t


def scores(view: LifeboatView) -> RenderableType:
    """The end: every score broken down, every card and secret revealed."""
    t = Table(title="land! final scores", expand=True)
    for col in ("character", "state", "friend", "enemy", "holds", "breakdown", "score"):
        t.add_column(col)
    parts = view.score_parts or {}
    for c in sorted(view.characters, key=lambda c: -(view.scores or {}).get(c.id, 0)):
        b = parts.get(c.id, {})
        detail = ", ".join(f"{k} {v}" for k, v in b.items() if v)
        name = Text(CHAR[c.id].name, style="bold" if c.id in view.winners else "")
        if c.id in view.winners:
            name.append(" ★", style="yellow")
        t.add_row(
            name,
            Text(c.state, style=STATE_STYLE[c.state]),
            c.friend or "?",
            c.enemy or "?",
            ", ".join(list(c.hidden or ()) + list(c.revealed)) or "-",
            detail or "-",
            str((view.scores or {}).get(c.id, 0)),
        )
    return t


def character_line(c: CharacterView) -> str:
    return f"{c.id} {c.state} {c.wounds}/{c.strength}"

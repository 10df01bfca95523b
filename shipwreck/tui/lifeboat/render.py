"""Rich renderables for a Lifeboat table, made from one seat's view and nothing else.

Pure functions (view in, renderable out) so screens stay thin and snapshots stay stable.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.text import Text

from shipwreck.games.lifeboat import GAME as LIFEBOAT
from shipwreck.games.lifeboat import explain
from shipwreck.games.lifeboat.cards import CHAR, NAV, describe_nav, named
from shipwreck.games.lifeboat.commands import Drink
from shipwreck.games.lifeboat.score_now import PART_WORDS, score_now
from shipwreck.games.lifeboat.view import CharacterView, LifeboatView
from shipwreck.lang.rules_text import item_effects
from shipwreck.tui.packed import Packed
from shipwreck.tui.rows import Rows
from shipwreck.tui.standings import Part, ToWidth, bar, bar_width, key, ordinal, placing, rank

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


def _prompt_text(kind: str, view: LifeboatView) -> str:
    """The words over a seat's choices; the thirst step also asks water holders who are not
    thirsty themselves, while someone unconscious is (LB-50)."""
    if kind == "thirst" and not any(isinstance(c, Drink) for c in view.choices):
        return "someone unconscious is thirsty: give water to X, or pass"
    return PROMPT_TEXT.get(kind, kind)


def pips(wounds: int, strength: int, dead: bool = False) -> Text:
    """Wounds as filled pips out of the strength; none for the dead (the state column says
    dead: wounds no longer count, and a row of pips read as a character still in play)."""
    if dead:
        return Text("-", style="dim")
    filled = min(wounds, strength + 1)
    t = Text()
    t.append("●" * filled, style="red")
    t.append("○" * max(0, strength - filled), style="dim")
    return t


CARDS_KEY = "f4"
"""Opens every navigation card shown, in words (when a short terminal cannot show them all)."""

NAVIGATOR = "⎈"
"""Beside the seat number of the character who would navigate (LB-40)."""


def navigator_of(view: LifeboatView) -> str | None:
    """Who navigates: the one doing it now, or who would if the round came to navigation now
    (the conscious character nearest the stern, LB-40)."""
    if view.navigator is not None:
        return view.navigator
    awake = [c.id for c in view.characters if c.state == "ok"]
    return awake[-1] if awake else None


def board_name(char: str, narrow: bool) -> Text:
    """A character on the board: the id a player types (and the log uses), in bold, then its
    name where that says more (``mate the First Mate``; ``kid``, not ``kid the Kid``)."""
    name = Text(char, style="bold")
    full = CHAR[char].name
    if not narrow and full.lower().removeprefix("the ") != char:
        name.append(" " + full)
    return name


class Boat(Rows):
    """The boat from bow to stern: one line per seat, in fixed columns; the revealed items
    take what width is left. Narrower than `NARROW_BELOW` columns (an 80-column terminal),
    the columns shrink (a character is then only its id); ``compact`` (a short terminal) drops
    the title and the rule."""

    COLUMNS = ((3, "#"), (21, "character"), (3, "str"), (9, "wounds"), (11, "state"))
    MORE = ((3, "hid"), (12, "marks"))
    NARROW = ((2, "#"), (9, "who"), (2, "st"), (9, "wounds"), (5, "state"))
    NARROW_MORE = ((3, "hid"), (7, "marks"))
    NARROW_BELOW = 72
    NARROW_WORDS = {"unconscious": "out", "rowed": "row", "fought": "fgt"}

    def __init__(self, view: LifeboatView, compact: bool = False) -> None:
        self.view = view
        self.compact = compact

    def lines(self, width: int) -> list[Text]:
        view = self.view
        narrow = width < self.NARROW_BELOW
        columns = (self.NARROW + self.NARROW_MORE) if narrow else (self.COLUMNS + self.MORE)
        words = self.NARROW_WORDS if narrow else {}
        hid = columns[-2][1]
        head = [f"{name:>{w}}" if name == hid else f"{name:<{w}}" for w, name in columns]
        out = []
        if not self.compact:
            out.append(Text(f"the boat  (bow → stern; {NAVIGATOR} navigates)", style="italic"))
        out.append(Text(" ".join([*head, "revealed"]), style="bold"))
        if not self.compact:
            out.append(Text("─" * width, style="dim"))
        acting = {view.actor, view.navigator}
        steers = navigator_of(view)
        for c in view.characters:
            name = board_name(c.id, narrow)
            if c.id == view.me:
                name.stylize("cyan")
                name.append("◂", style="bold cyan")
            if c.id in acting:
                name.stylize("reverse")
            marks = [m for m, on in (("rowed", c.rowed), ("fought", c.fought)) if on]
            cells = [
                Text(f"{c.seat}{NAVIGATOR if c.id == steers else ''}"),
                name,
                Text(f"{c.strength:>{columns[2][0]}}"),
                pips(c.wounds, c.strength, c.state == "dead"),
                Text(words.get(c.state, c.state), style=STATE_STYLE[c.state]),
                Text(f"{c.hidden_count:>{columns[5][0]}}"),
                Text(" ".join(words.get(m, m) for m in marks)),
            ]
            line = Text()
            for (w, _), cell in zip(columns, cells, strict=True):
                cell.truncate(w, overflow="ellipsis", pad=True)
                line.append_text(cell)
                line.append(" ")
            line.append(", ".join(c.revealed) or "-")
            out.append(line)
        return out


def boat(view: LifeboatView, compact: bool = False) -> RenderableType:
    """The boat from bow to stern."""
    return Boat(view, compact)


def hand(items: Sequence[str]) -> str:
    """My hidden items, each kind once with its count: ``7: water×3, cash, oar, knife, bait``."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    kinds = [k if n == 1 else f"{k}×{n}" for k, n in counts.items()]
    return f"{len(items)}: " + ", ".join(kinds) if items else "nothing"


def _relations(me: CharacterView, short: bool, tight: bool = False) -> list[Text]:
    """What my friend and enemy are worth to me (:func:`explain.relations`; ``tight``:
    :func:`explain.relations_tight`), styled."""
    out: list[Text] = []
    if me.friend and me.enemy:
        if tight:
            said = explain.relations_tight(me.id, me.friend, me.enemy)
        else:
            said = explain.relations(me.id, me.friend, me.enemy, short)
        for words in said:
            style = "green" if words.startswith("friend:") else ""
            out.append(Text(words, style="red" if words.startswith("enemy:") else style))
    return out


def me_panel(view: LifeboatView, compact: bool = False) -> RenderableType:
    """My character and its ability, my hidden items, what my friend and enemy are worth to me
    (the special cases in words), and what I would score if the boat reached land now. Only
    from my own view. The panel is 8 rows of 36 columns (compact: 7 rows of 26 columns, no
    frame; my character's line is the title rule, ``─ Kid◂ str 3 surv 2 ───``, beside the
    boat's header, so that the boat's rows are the panel's and the log has one row more). My
    hidden items are all shown, wrapped over as many rows as they need; to make room the
    score's parts give way first (in brief, then cut with "…"), then the ability line (it is
    in the rules, F2)."""
    me = next((c for c in view.characters if c.id == view.me), None)
    if me is None:
        return Panel(Text("you are watching this table"), title="spectator")
    card = CHAR[me.id]
    width, rows = (26, 7) if compact else (36, 8)
    head = Text(explain.name(me.id) if compact else card.name, style="bold")
    if compact:  # ("First Mate◂ str 8 surv 3": 24 columns hold the longest)
        head.stylize("cyan")
        head.append("◂", style="bold cyan")  # (you, as the boat marks you)
        head.append(f" str {me.strength} surv {me.bonus}")
    else:  # the longest name ("the First Mate") takes the short form
        forms = (
            f"  strength {me.strength}, survival {me.bonus}",
            f"  str {me.strength}, survival {me.bonus}",
        )
        head.append(next((f for f in forms if len(head) + len(f) <= width), forms[-1]))
    ability = Text(explain.ability(me.id, compact), style="italic")
    held = f"{'hid' if compact else 'hidden'} {hand(me.hidden or ())}"
    if me.revealed and not compact:
        held += " · revealed: " + ", ".join(me.revealed)
    hidden = [Text(line) for line in textwrap.wrap(held, width, subsequent_indent="  ")]
    relations = _relations(me, compact)
    if len(relations) > 2 and 1 + len(hidden) + len(relations) + 1 > rows:
        relations = _relations(me, True)  # in brief, not cut mid-sentence ("enemy is you: a")
    score: list[Text] = []
    wrapped_parts: list[list[Text]] = []
    now = score_now(view)
    if now is not None:
        line = Text(f"score now {now.total}", style="bold yellow")
        parts = ", ".join(f"{PART_WORDS[k]} {v}" for k, v in now.parts.items() if v)
        brief = " + ".join(f"{PART_BRIEF[k]} {v}" for k, v in now.parts.items() if v)
        if parts and len(parts) + 3 <= width - len(line):
            line.append(f" ({parts})")
        elif compact and brief and len(brief) + 3 <= width - len(line):
            line.append(f" ({brief})")  # ("score now 6 (friend 6)": what the 6 is)
        elif parts and not compact:
            for words, wrap in ((parts, 34), (brief, width)):  # (brief: no room for " …")
                wrapped = textwrap.wrap(words, wrap, initial_indent="= ", subsequent_indent="  ")
                wrapped_parts.append([Text(line, style="yellow") for line in wrapped])
        score = [line]
    fixed = 1 + len(hidden) + len(relations) + len(score)
    # Whole parts first: the ability gives way (it is in the rules, F2), then the special
    # case's long words; only then are the parts cut.
    shown_ability = [ability] if fixed < rows else []
    tries = [(shown_ability, relations), ([], relations), ([], _relations(me, True))]
    if not compact:  # (compact: the panel has no room for the parts but on the score's line)
        tries.append(([], _relations(me, True, tight=True)))
    for abilities, said in tries:
        lines = [head, *abilities, *hidden, *said, *score]
        room = max(0, rows - len(lines))
        more = next((f for f in wrapped_parts if len(f) <= room), None)
        if more is not None or not wrapped_parts:
            break
    if more is None:
        more = wrapped_parts[-1] if wrapped_parts else []
    if len(more) > room > 0:  # the parts cut even in brief: say so
        more = [*more[: room - 1], more[room - 1] + Text(" …")]
    lines += more[:room]
    if len(lines) > rows:  # (compact: many kinds of items) the score stays; the items are cut
        cut = max(1, len(hidden) - (len(lines) - rows))
        lines = [head, *hidden[: cut - 1], hidden[cut - 1] + Text(" …"), *said, *score]
    if compact:  # the head is the title rule, on the boat's header row: a row for the log
        title = Text("─ ", style="dim", no_wrap=True, overflow="crop")
        title.append_text(head)
        title.append(" " + "─" * 30, style="dim")
        return Group(title, Padding(_body(lines[1:rows]), (0, 0, 0, 1)))
    return Panel(_body(lines[:rows]), title="you", padding=(0, 1))


def _body(lines: list[Text]) -> Text:
    body = Text("\n").join(lines)
    body.no_wrap = True
    body.overflow = "ellipsis"
    return body


PART_BRIEF = {
    "treasure": "treasure",
    "survival": "you",
    "friend": "friend",
    "enemy": "enemy",
    "deaths": "deaths",
}
"""A score's parts in brief, for when the "you" panel has no room for them in full
(``= treasure 5 + you 4 + friend 9``: one row of 36 columns, where the full words took two)."""

GULL = {1: "v +1", -1: "v̶ -1", 0: ""}
"""A navigation card's seagull, as drawn."""


def _letters(spec: tuple[str, ...], present: list[str]) -> str:
    """The characters a card names (overboard, thirsty), by their letters; ``all`` when it
    names everyone in the boat, ``-`` when nobody."""
    who = named(spec, present)
    if len(who) > 1 and len(who) == len(present):
        return "all"
    return ",".join(CHAR[c].letter for c in who) or "-"


def card_chip(number: int, present: list[str]) -> Text:
    """One navigation card on one line (a short terminal has no room for the drawn cards)."""
    nc = NAV[number]
    chip = Text(f"#{number} ", style="bold")
    chip.append(f"≈{_letters(nc.overboard, present)}", style="blue")
    if nc.birds:
        chip.append(f" {GULL[nc.birds]}", style="bold yellow")
    chip.append(f" th {_letters(nc.thirsty, present)}")
    chip.append((" ⚔" if nc.fight else "") + (" ‖oar" if nc.oar else ""), style="magenta")
    return chip


class Cards(Rows):
    """A row of navigation cards, each drawn with its symbols (LB-6): six lines, as many
    cards as there are, each as wide as the row allows (at most 20 columns)."""

    def __init__(self, numbers: Sequence[int], present: list[str]) -> None:
        self.numbers = numbers
        self.present = present

    def who(self, spec: tuple[str, ...]) -> str:
        return _letters(spec, self.present)

    def body(self, number: int, w: int) -> tuple[tuple[str, str], ...]:
        """A card's four lines inside its frame ``w`` columns wide: (text, style)."""
        nc = NAV[number]
        thirst = "thirst" if len(self.who(nc.thirsty)) + 7 <= w - 2 else "th"
        return (
            (f"≈ {self.who(nc.overboard)}", "blue"),
            (GULL[nc.birds], "bold yellow"),
            (f"{thirst} {self.who(nc.thirsty)}", ""),
            (("⚔ " if nc.fight else "  ") + ("‖oar" if nc.oar else ""), "magenta"),
        )

    def lines(self, width: int) -> list[Text]:
        """The cards drawn side by side; if that would cut a card's line (many cards in a
        narrow row), each card as one whole chip instead, packed on the same six rows."""
        w = max(6, min(20, (width + 1) // max(1, len(self.numbers)) - 1))
        if any(len(text) > w - 2 for n in self.numbers for text, _ in self.body(n, w)):
            chips = [card_chip(n, self.present) for n in self.numbers]
            return Packed(Text(), chips, lines=6, more=CARDS_KEY.upper()).pack(width)
        out = [Text() for _ in range(6)]
        for i, number in enumerate(self.numbers):
            body = self.body(number, w)
            title = f" #{number} "[: w - 2]
            left = (w - 2 - len(title)) // 2
            out[0].append(("" if i == 0 else " ") + "╭" + "─" * left + title)
            out[0].append("─" * (w - 2 - left - len(title)) + "╮")
            for line, (text, style) in zip(out[1:5], body, strict=True):
                cell = Text(text, style=style)
                cell.truncate(w - 2, overflow="ellipsis", pad=True)
                line.append("" if i == 0 else " ")
                line.append("│")
                line.append_text(cell)
                line.append("│")
            out[5].append(("" if i == 0 else " ") + "╰" + "─" * (w - 2) + "╯")
        return out


def navigation(view: LifeboatView, compact: bool = False, started: bool = True) -> RenderableType:
    """Seagulls, round and phase, then one row of cards: the navigation table's, or, while I
    hold the cards I drew when rowing, those (the table's then listed by number). At most
    eight rows, the fixed height of its panel (a panel that changes height re-arranges the
    whole screen). Compact: three rows, the cards one line each, side by side."""
    present = [c.id for c in view.characters]
    track = Text("seagulls ")
    track.append("v " * view.birds, style="bold yellow")
    track.append("· " * max(0, 4 - view.birds), style="dim")
    track.append("(4 = land)", style="dim")
    track.append(f"  round {view.round}  {view.phase}")
    on_table = " ".join(f"#{n}" for n in view.navigation_table)
    if view.drawn:
        label = Text("you drew: ", style="bold")
        label.append(f"(on the table: {on_table})" if on_table else "", style="")
        shown = view.drawn
    else:
        label = Text("navigation table:" + ("" if on_table else " empty"))
        shown = view.navigation_table
    offer = view.supply_offer if started else ()  # (a table waiting for players passes none)
    if compact:  # the track, then the labels and each card whole on two rows (F4: the rest)
        items, joins = _compact_items(label, shown, offer, present)
        return Packed(track, items, lines=2, more=CARDS_KEY.upper(), sep="  ", joins=joins)
    if offer:
        label.append("  supply passed to you: " + ", ".join(offer), style="bold")
    parts: list[RenderableType] = [track, label]
    if shown:
        parts.append(Cards(shown, present))
    return Group(*parts)


def _compact_items(
    label: Text, shown: Sequence[int], offer: Sequence[str], present: list[str]
) -> tuple[list[Text], list[str]]:
    """The navigation line's items and what goes before each (:class:`Packed`'s ``joins``):
    the label, the cards, then the supply passed to me, its label with its first item, so
    that only the list shortens when a row is short, never the labels (play-test: the whole
    line once became a bare "+1 more: F4")."""
    items = [label, *(card_chip(n, present) for n in shown)]
    joins = ["  "] * len(items)
    if offer:
        items.append(Text(f"supply passed to you: {offer[0]}", style="bold"))
        items += [Text(item, style="bold") for item in offer[1:]]
        joins += ["  ", *[", "] * (len(offer) - 1)]
    return items, joins


def cards_title(view: LifeboatView) -> str:
    """The title of what ``F4`` shows (:func:`cards_in_words`)."""
    return "Supply passed to you, and navigation cards" if view.supply_offer else "Navigation cards"


def cards_in_words(view: LifeboatView) -> str:
    """The supply passed to this seat, then every navigation card it sees (drawn, and on the
    navigation table), a line each in words: what ``F4`` shows when a short terminal cannot
    show them all (the panel's "+2 more: F4" may be cutting either)."""
    present = [c.id for c in view.characters]
    out = []
    if view.supply_offer:
        out.append("## Supply passed to you (take one)\n")
        out += [item_line(item) for item in view.supply_offer]
        out.append("")
    shown = (("You drew", view.drawn), ("On the navigation table", view.navigation_table))
    for title, numbers in shown:
        if numbers:
            out.append(f"## {title}\n")
            out += [f"- {describe_nav(n, present)}" for n in numbers]
            out.append("")
    mine = next(
        (c for c in view.characters if c.player == view.seat and c.hidden is not None), None
    )
    held = [*mine.revealed, *(mine.hidden or ())] if mine is not None else []
    if held:
        out.append("## Your items\n")
        out += [item_line(item) for item in held]
        out.append("")
    return "\n".join(out) or "No navigation card is on the table."


def item_line(item: str) -> str:
    """``- knife — Knife: Weapon +3.``: an item and what it does (the rules' items table)."""
    what = item_effects(LIFEBOAT.name).get(item.partition(":")[0])
    return f"- {item} — {what}" if what else f"- {item}"


PROMPT_ROWS = 3
"""The prompt panel's rows (:meth:`TableScreen.prompt_rows`)."""


def prompt(view: LifeboatView, compact: bool = False, rows: int = PROMPT_ROWS) -> RenderableType:
    """What I must decide now, and my legal choices, each whole, on the ``rows`` left below it
    (:class:`Packed`: what does not fit is counted, and Tab lists it). Compact: a request or
    an offer goes on the first line, not a line of its own."""
    from shipwreck.lang import format_command

    mine = [p for p in view.prompts if p.seat == view.seat and p.blocking]
    if view.phase == "over":
        return Text("the boat has reached land: the game is over", style="bold")
    offers = offers_to_me(view)
    if not mine:
        waiting = sorted({_name(view, p.seat) for p in view.prompts if p.blocking})
        t = Text(f"waiting for {', '.join(waiting)}" if waiting else _unnamed_wait(view))
        t.stylize("dim")
        if offers:
            t.append("\n")
            t.append(offers, style="bold yellow")
        return t
    kind = mine[0].kind
    t = Text(_prompt_text(kind, view), style="bold cyan")
    if view.request is not None and view.request.target == view.me:
        r = view.request
        what = "your seat" if r.kind == "swap" else (r.item or "a hidden item")
        t.append(" · " if compact else "\n")
        t.append(f"{r.attacker} wants {what}")
    if offers:
        t.append(" · " if compact else "\n")
        t.append(offers, style="bold yellow")
    items = [Text(format_command(c)) for c in view.choices]
    if not items:
        return t
    items[0] = Text.assemble(("choices: ", "bold"), items[0])
    lines = rows - len(t.split())  # the choices get the rows the words above leave
    return Packed(t, items, lines=max(1, lines))


def _unnamed_wait(view: LifeboatView) -> str:
    """What the table waits for when this view names nobody: the overboard and thirst steps
    ask whoever holds a preserver, bait or water (LB-42, LB-50), so their names would tell
    what they hold. The step is said instead, with the names everyone knows: who is in the
    water, who is still thirsty (play-test: "waiting for the table" said nothing)."""
    if view.step == "thirst":
        thirsty = [c for c, n in view.thirst.items() if n > 0]
        if thirsty:
            return f"waiting for the thirst step (still thirsty: {', '.join(thirsty)})"
    if view.step == "overboard" and view.overboard:
        return f"waiting for the overboard step (in the water: {', '.join(view.overboard)})"
    return "waiting for the table"


def offers_to_me(view: LifeboatView) -> str:
    """The trade offers waiting for my answer, in a line ("" if none): what each offers and
    asks, and what to type."""
    waiting = [t for t in view.trades if t.target == view.me]
    if not waiting:
        return ""
    parts = []
    for t in waiting:
        ask = f" for your {t.ask}" if t.ask else ""
        parts.append(f"{t.source} offers you {t.item}{ask}")
    who = "" if len(waiting) == 1 else " NAME"
    return "; ".join(parts) + f": 'accept{who}' or 'decline{who}'"


def _name(view: LifeboatView, seat: int) -> str:
    for c in view.characters:
        if c.player == seat:
            return c.id
    return f"seat {seat + 1}"


def fight(view: LifeboatView, compact: bool = False) -> RenderableType | None:
    """The open fight: both sides with their known power, and who may still join (compact:
    three lines, no frame, see :class:`FightLines`)."""
    f = view.fight
    if f is None:
        return None
    deciding = [c.id for c in view.characters if c.state == "ok" and c.id not in f.done]
    if compact:
        return FightLines(f.attack_power, f.attackers, f.defense_power, f.defenders, deciding)
    body = Text()
    body.append(f"attackers ({f.attack_power}): ", style="bold red")
    body.append(", ".join(f.attackers) + "\n")
    body.append(f"defenders ({f.defense_power}): ", style="bold green")
    body.append(", ".join(f.defenders) + "\n")
    body.append("still deciding: ", style="bold")
    body.append(", ".join(deciding) or "-")
    return Panel(body, title=f"fight: {f.request.attacker} vs {f.request.target}")


class FightLines(Rows):
    """A fight on three short rows: each side's power and who is on it, then who may still
    join. Every side and its total always shows: where the names do not fit a row, they go
    as the letters the cards use (``S,C,F``, the legend's)."""

    def __init__(
        self, attack: int, attackers: Sequence[str], defense: int, defenders: Sequence[str],
        deciding: Sequence[str],
    ) -> None:  # fmt: skip
        self.rows = (
            (f"attack {attack}: ", attackers, "bold red"),
            (f"defend {defense}: ", defenders, "bold green"),
            ("deciding: ", deciding, "bold"),
        )

    def lines(self, width: int) -> list[Text]:
        out = []
        for head, who, style in self.rows:
            names = ", ".join(who) or "-"
            if len(head) + len(names) > width:
                names = ",".join(CHAR[c].letter for c in who)
            out.append(Text.assemble((head, style), names))
        return out


END_PARTS: dict[str, Part] = {
    "treasure": Part("treasure", "█", "yellow"),
    "survival": Part("you alive", "▓", "green"),
    "friend": Part("friend alive", "▒", "cyan"),
    "enemy": Part("enemy dead", "░", "red"),
    "deaths": Part("deaths", "▚", "magenta"),
}
"""How the end screen draws each part of a score (LB-61..LB-64)."""
END_STATE = {"ok": "alive", "unconscious": "out", "dead": "dead"}
NAME_COLUMN = 20
"""The end screen's name column: the longest name with its star and "(you)", and a space."""


def end_parts(view: LifeboatView) -> dict[str, Part]:
    """The parts as this viewer's end screen names them: a spectator is no "you"."""
    if any(c.id == view.me for c in view.characters):
        return END_PARTS
    return {**END_PARTS, "survival": Part("alive", "▓", "green")}


def final(view: LifeboatView, width: int = 76) -> RenderableType:
    """The end: my placing; then each player, best first: place, character, score as a bar
    broken into its parts, the parts in words, friend and enemy by name, and every item it
    held (all revealed now). My row is marked ``▸`` and "(you)"."""
    scores = view.scores or {}
    parts = view.score_parts or {}
    ranked = sorted(view.characters, key=lambda c: -scores.get(c.id, 0))
    everyone = [scores.get(c.id, 0) for c in ranked]
    head = Text("land! final scores", style="bold")
    if view.me in scores:
        mine = scores[view.me]
        head.append(f"\nyou came {placing(everyone, mine)} with {mine} points", style="bold cyan")
    names = end_parts(view)
    rows: list[RenderableType] = [head, key(list(names.values())), Text("")]
    top = max(everyone + [1])
    cells = bar_width(width, 2 + 6 + NAME_COLUMN + 6 + 5)  # mark, place, name, state, score
    for c in ranked:
        me = c.id == view.me
        score = scores.get(c.id, 0)
        line = Text("▸ " if me else "  ", style="bold cyan")
        line.append(f"{ordinal(rank(everyone, score)):>4}  ")
        who = Text(explain.name(c.id), style="bold cyan" if me else "bold")
        if c.id in view.winners:
            who.append(" ★", style="yellow")
        if me:
            who.append(" (you)", style="cyan")
        who.truncate(NAME_COLUMN - 1, overflow="ellipsis", pad=True)
        line.append_text(who)
        line.append(" ")
        line.append(f"{END_STATE[c.state]:<6}", style=STATE_STYLE[c.state])
        line.append(f"{score:>3}  ", style="bold")
        mine_parts = parts.get(c.id, {})
        shown = [(names[k], v) for k, v in mine_parts.items() if k in names]
        line.append_text(bar(shown, cells / top, cells))
        words = " + ".join(f"{names[k].label} {v}" for k, v in mine_parts.items() if v)
        detail = Text(words or "nothing scored", style="dim" if not words else "")
        friend, enemy = (_who(c.id, other) for other in (c.friend, c.enemy))
        detail.append(f"\nfriend {friend}, enemy {enemy} · held: ")
        detail.append(", ".join(list(c.hidden or ()) + list(c.revealed)) or "nothing")
        rows += [line, Padding(detail, (0, 0, 0, 8))]
    return Group(*rows)


def _who(me: str, other: str | None) -> str:
    """A friend or enemy on the end screen, by name; ``self`` for the special cases."""
    return "?" if other is None else ("self" if other == me else explain.name(other))


def scores(view: LifeboatView) -> RenderableType:
    """The end screen's content (see :func:`final`), as wide as its box."""
    return ToWidth(lambda width: final(view, width))


def character_line(c: CharacterView) -> str:
    return f"{c.id} {c.state} {c.wounds}/{c.strength}"

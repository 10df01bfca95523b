"""Building one's own Spanish Main fleet in the app (SM-4, SM-61): the lobby's ``new sm N fleet
build`` opens this screen before the table exists.

It lists the ship and crew cards with their points, and takes typed words: ``add SHIP``,
``crew CREW on SHIP``, ``drop NAME``, ``info NAME``, ``show NATION``, ``done`` (Esc or
``cancel``: back to the lobby, no table). The screen only collects the fleet: every change is
checked by the game (:func:`fleets.fleet_problem`, the check a scenario's ``[fleet]`` and the
table's options get), and a refusal is the game's one line, with nothing changed. ``done``
gives the lobby the table's seats with the built fleet as the creator's seat's fleet word
(:func:`fleets.built`), so the table keeps it with its seats: a restart and a replay deal the
same fleet.
"""

from __future__ import annotations

import difflib

import msgspec
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from shipwreck.games.spanish_main import abilities, fleets
from shipwreck.games.spanish_main.ships import CARDS, CREW, slug
from shipwreck.lang.text import without_rule_ids
from shipwreck.lang.words import New
from shipwreck.runtime import SeatSpec
from shipwreck.tui.widgets import CommandLine, KeyLine

BUILD = "build"
"""The fleet word of ``new sm N fleet build``: the creator builds their own fleet."""

NATIONS = ("English", "Spanish", "Pirate")

WORDS = "add SHIP · crew CREW on SHIP · drop NAME · info NAME · show NATION · done"
"""The screen's words, on its hint line."""
FIRST_PLACEHOLDER = "add SHIP (first ship? try: add dover)"
"""The empty command line's hint before any ship is in the fleet."""
NEXT_PLACEHOLDER = "add SHIP, crew CREW on SHIP, or 'done' to sail"
"""Its hint once she is (a stranger read 'first ship?' with three ships in)."""

MAX_LINE = 200
"""The longest line typed here (a few names)."""

Fleet = list[list[str]]
"""A fleet as it is built: per ship, its card id then the crew cards aboard."""


def entries(fleet: Fleet) -> list[str]:
    """The fleet as the game's entries ``SHIP+CREW…``."""
    return ["+".join(ship) for ship in fleet]


def ship_ids(fleet: Fleet) -> list[str]:
    """The name each ship has on this screen: its card's id, ``-2``, ``-3`` when repeated."""
    seen: dict[str, int] = {}
    out = []
    for ship in fleet:
        seen[ship[0]] = seen.get(ship[0], 0) + 1
        out.append(ship[0] if seen[ship[0]] == 1 else f"{ship[0]}-{seen[ship[0]]}")
    return out


def card_name(words: str) -> str:
    """What was typed, as a card id: ``HMS Dover`` -> ``dover``."""
    return slug(words)


def unknown(name: str) -> str:
    """One line for a name that is no card, with the closest."""
    close = difflib.get_close_matches(name, [*CARDS, *CREW], n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'? " if close else ""
    shown = name if len(name) <= 30 else name[:29] + "…"
    return f"no ship or crew card '{shown}': {hint}the list below has them all"


def change(fleet: Fleet, line: str) -> Fleet | str:
    """The fleet after the typed ``line`` (``add``, ``crew … on``, ``drop``), or one line saying
    why not. The game checks the result (:func:`fleets.fleet_problem`); an empty fleet is
    allowed while it is built (``done`` refuses it)."""
    word, _, rest = line.strip().partition(" ")
    rest = rest.strip()
    if word == "add":
        return _add(fleet, rest)
    if word == "crew":
        return _crew(fleet, rest)
    if word in ("drop", "remove"):
        return _drop(fleet, rest)
    return f"no word {word!r} here: {WORDS}"


def _add(fleet: Fleet, rest: str) -> Fleet | str:
    if not rest:
        return "add which ship? 'add dover' (the list below)"
    names = [card_name(rest)] if card_name(rest) in CARDS else [card_name(w) for w in rest.split()]
    new = [list(s) for s in fleet]
    for name in names:
        if not name:
            return "add which ship? 'add dover': a ship's name as the list below shows it"
        if name in CREW:
            return f"{name} is crew: 'crew {name} on SHIP' puts it aboard one of your ships"
        if name not in CARDS:
            return unknown(name)
        new.append([name])
    return _checked(new)


def _crew(fleet: Fleet, rest: str) -> Fleet | str:
    """``crew CREW on SHIP``; a card printed for several nations may be named without its
    nation (``crew explorer on dover``: the ship's nation's)."""
    words = rest.split()
    cut = len(words) - 1 - words[::-1].index("on") if "on" in words else len(words)
    name, ship = card_name(" ".join(words[:cut])), card_name(" ".join(words[cut + 1 :]))
    if not name:
        return "crew which card on which ship? 'crew explorer-english on dover'"
    at = _ship_at(fleet, ship)
    if name not in CREW and at is not None:
        own = f"{name}-{CARDS[fleet[at][0]].faction.lower()}"
        name = own if own in CREW else name
    if name not in CREW:
        return f"{name} is a ship: 'add {name}'" if name in CARDS else unknown(name)
    if not fleet:
        return f"add a ship first ('add dover'), then 'crew {name} on dover'"
    ids = ship_ids(fleet)
    if not ship:
        return f"on which ship? 'crew {name} on {ids[-1]}' (yours: {', '.join(ids)})"
    if at is None:
        return f"no ship {ship!r} in your fleet: yours are {', '.join(ids)}"
    new = [list(s) for s in fleet]
    new[at].append(name)
    return _checked(new)


def _drop(fleet: Fleet, rest: str) -> Fleet | str:
    """``drop SHIP`` (with her crew) or ``drop CREW`` (from the last ship carrying it)."""
    name = card_name(rest)
    ids = ship_ids(fleet)
    if not name:
        example = ids[-1] if ids else "dover"
        return f"drop which? 'drop {example}' (a ship, with her crew, or a crew card)"
    at = _ship_at(fleet, name)
    new = [list(s) for s in fleet]
    if at is not None:
        del new[at]
        return new
    for ship in reversed(new):
        if name in ship[1:]:
            del ship[len(ship) - 1 - ship[::-1].index(name)]  # (the last one aboard)
            return new
    mine = ", ".join(ids + [c for s in fleet for c in s[1:]]) or "nothing yet"
    return f"{name}: not in your fleet, which has {mine}"


def _ship_at(fleet: Fleet, name: str) -> int | None:
    """Which ship of the fleet ``name`` is: her name here, or her card (the last one of it)."""
    ids = ship_ids(fleet)
    if name in ids:
        return ids.index(name)
    cards = [i for i, ship in enumerate(fleet) if ship[0] == name]
    return cards[-1] if cards else None


def _checked(fleet: Fleet) -> Fleet | str:
    problem = fleets.fleet_problem(entries(fleet))
    return fleet if problem is None else without_rule_ids(problem)


def info(name: str) -> str:
    """``info NAME``: one card's line (its points, what it is, its ability)."""
    cid = card_name(name)
    if cid in CARDS:
        c = CARDS[cid]
        cannons = " ".join(f"{r}{g}" for r, g in c.cannons)
        text = c.ability or "no ability"
        return (
            f"{c.name} ({c.faction}, {c.points} points): move {'+'.join(c.move)}, cannons"
            f" {cannons}, {c.cargo} cargo · {text}"
        )
    if cid in CREW:
        k = CREW[cid]
        slots = abilities.crew_slots(cid)
        takes = {1: "takes a cargo slot", 0: "takes no cargo slot"}.get(slots, "adds a slot")
        return f"{k.name} ({k.faction} crew, {k.points} points, {takes}) · {k.ability}"
    return unknown(cid)


def catalog(nation: str | None) -> Text:
    """The ship cards (two to a row: id, points, nation, cargo slots) and the crew cards (id,
    points, nation, as much of the ability as fits), of one nation or all, nation by nation
    and cheapest first."""
    out = Text()
    order = {n: i for i, n in enumerate(NATIONS)}
    ships = sorted(
        (c for c in CARDS.values() if nation in (None, c.faction)),
        key=lambda c: (order.get(c.faction, 9), c.points, c.id),
    )
    out.append("Ships  (points, nation, cargo slots; 'info NAME' for the card)\n", style="bold")
    cells = [f"{c.id:<19} {c.points:>2}p {c.faction:<7} {c.cargo}c" for c in ships]
    for i in range(0, len(cells), 2):
        out.append("  ".join(f"{cell:<36}" for cell in cells[i : i + 2]).rstrip() + "\n")
    crew = sorted(
        (k for k in CREW.values() if nation in (None, k.faction)),
        key=lambda k: (order.get(k.faction, 9), k.points, k.id),
    )
    out.append("Crew  (points, nation: works on that nation's ships)\n", style="bold")
    for k in crew:
        out.append(f"{k.id:<29} {k.points:>2}p {k.faction:<7} ")
        out.append(k.ability + "\n", style="dim")
    out.rstrip()
    return out


def fleet_text(fleet: Fleet, limit: int) -> Text:
    """The fleet so far: a row per ship with her crew and what she costs."""
    if not fleet:
        return Text(
            f"Your fleet is empty. Spend up to {limit} points: 'add dover' adds a ship from the"
            " list below (PgUp PgDn scroll it), 'crew explorer-english on dover' a crew card.",
            style="italic",
        )
    out = Text()
    for sid, ship in zip(ship_ids(fleet), fleet, strict=True):
        card = CARDS[ship[0]]
        out.append(f"{sid}", style="bold")
        out.append(f" {card.faction} {'+'.join(card.move)} {card.cargo} cargo")
        if ship[1:]:
            out.append(": " + ", ".join(ship[1:]), style="cyan")
        out.append(f"  ({fleets.fleet_cost('+'.join(ship))} points)\n")
    out.rstrip()
    return out


class FleetBuilder(Screen[list[SeatSpec] | None]):
    """The creator builds their fleet; dismissed with the table's seats (the creator's with the
    built fleet), or None (Esc, ``cancel``: no table)."""

    DEFAULT_CSS = """
    FleetBuilder { layout: vertical; }
    FleetBuilder #fb-title { height: 1; background: $primary; color: $text; padding: 0 1; }
    FleetBuilder #fb-fleet { height: auto; max-height: 7; padding: 0 1; }
    FleetBuilder #fb-list { height: 1fr; border-top: solid $primary; padding: 0 1; }
    FleetBuilder #fb-catalog { text-wrap: nowrap; text-overflow: ellipsis; }
    FleetBuilder #fb-error { height: auto; max-height: 3; padding: 0 1; }
    FleetBuilder #fb-hint { height: 1; padding: 0 1; color: $text-muted; }
    FleetBuilder #command { height: 1; border: none; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "back to the lobby"),
        Binding("pageup", "scroll(-10)", "scroll", show=False),
        Binding("pagedown", "scroll(10)", "scroll the list", key_display="PgUp PgDn"),
    ]

    def __init__(self, seats: list[SeatSpec], limit: int = fleets.POINT_LIMIT) -> None:
        super().__init__()
        self.seats = seats
        self.limit = limit
        self.fleet: Fleet = []
        self.nation: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="fb-title")
        yield Static(id="fb-fleet")
        with VerticalScroll(id="fb-list"):
            yield Static(catalog(None), id="fb-catalog")
        yield Static(id="fb-error")
        yield Static(WORDS, id="fb-hint")
        yield CommandLine(
            run=self.run_line,
            placeholder=FIRST_PLACEHOLDER,
            id="command",
            max_length=MAX_LINE,
        )
        yield KeyLine()

    def on_mount(self) -> None:
        self.show()
        self.query_one("#command", CommandLine).focus()

    @property
    def points(self) -> int:
        return fleets.points(entries(self.fleet))

    def show(self) -> None:
        left = self.limit - self.points
        ships = len(self.fleet)
        title = (
            f"Build your fleet · {self.limit} points · {left} left · {ships} ship"
            f"{'' if ships == 1 else 's'} · 'done' to sail it"
        )
        self.query_one("#fb-title", Static).update(title)
        self.query_one("#fb-fleet", Static).update(fleet_text(self.fleet, self.limit))
        line = self.query_one("#command", CommandLine)
        line.placeholder = NEXT_PLACEHOLDER if self.fleet else FIRST_PLACEHOLDER

    def say(self, text: str, style: str = "red") -> None:
        """A refusal (one line) or a card's text (``info``: up to three rows)."""
        self.query_one("#fb-error", Static).update(Text(text, style=style))

    def run_line(self, line: str) -> None:
        """One typed line: a change (checked by the game), ``info``, ``show``, ``done``."""
        self.say("")
        word, _, rest = line.strip().lower().partition(" ")
        if not word:
            return
        if word in ("done", "sail", "start"):
            self.done()
        elif word in ("cancel", "quit", "lobby"):
            self.dismiss(None)
        elif word == "info":
            self.say(info(rest) if rest else "info which card? 'info dover'", "cyan")
        elif word in ("show", "list"):
            self.show_nation(rest.strip())
        elif word == "help":
            self.say(f"{WORDS}; NATION: english, spanish, pirate or all", "cyan")
        else:
            result = change(self.fleet, line.lower())
            if isinstance(result, str):
                self.say(result)
                return
            self.fleet = result
            self.show()

    def show_nation(self, word: str) -> None:
        nation = next((n for n in NATIONS if n.lower() == word), None)
        if word not in ("", "all") and nation is None:
            self.say("show which nation? 'show english', 'show spanish', 'show pirate', 'show all'")
            return
        self.nation = nation
        self.query_one("#fb-catalog", Static).update(catalog(nation))
        self.query_one("#fb-list", VerticalScroll).scroll_home(animate=False)

    def done(self) -> None:
        """The game checks the whole fleet; the lobby gets the seats, mine with it."""
        problem = fleets.fleet_problem(entries(self.fleet), self.limit)
        if problem is not None:
            self.say(without_rule_ids(problem))
            return
        mine = fleets.built(entries(self.fleet))
        self.dismiss([msgspec.structs.replace(self.seats[0], fleet=mine), *self.seats[1:]])

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_scroll(self, rows: int) -> None:
        self.query_one("#fb-list", VerticalScroll).scroll_relative(
            y=rows, animate=False, immediate=True
        )


def build_seats(word: New, seats: list[SeatSpec]) -> FleetBuilder | None:
    """The lobby's ``new sm N fleet build …``: the screen that builds the creator's fleet
    before the table is made (the other seats keep theirs); None for any other ``new``."""
    return FleetBuilder(seats) if word.fleets[:1] == (BUILD,) else None

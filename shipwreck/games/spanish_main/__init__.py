"""Spanish Main: fleets, islands and buried gold (rules: ``docs/rules/spanish-main.md``).

- :mod:`.geometry` — capsule hulls, circular islands, swept motion that stops at the first touch
- :mod:`.ships` — the first set's ship list (``data/ships.csv``) and preset fleets
- :mod:`.commands` — the command structs
- :mod:`.state` — the full (secret) game state
- :mod:`.setup` — the seeded sea, or a fixed position
- :mod:`.rules` — the game's flow: prompts, legal commands, apply
- :mod:`.view` — the one hidden-information filter
- :mod:`.scoring` — SM-41

Seats are named ``red``, ``blue``, ``green``, ``gold`` in turn order; in a new game the first
player is rolled (SM-2), and a round begins at that player's turn.

Flow. One seat is prompted at a time. ``turn``: the player gives each ship at most one action
(``move``, ``move-toward``, ``move-dock``, ``come-about``, ``shoot``, ``explore``, ``repair``) and
sends ``end-turn``; ``break-tow`` is a free action. A move may open ``after_move`` (``tow``,
``ram`` or ``pass``); a ram may open ``eliminate`` for the target's owner, then ``board`` (the
mover's player first, then the target's) and ``plunder`` for a defending winner; a hit opens
``eliminate``; an explore opens ``load``. ``choices()`` lists a finite sample of moves (five
headings per first leg, three per later one, toward every island and enemy, docks it can make);
``apply`` takes any legal move.

Choices made where the rules are silent or ambiguous (see also each module):

- SM-19: the seed wins over the rules file: a ship is pinned while *her own* bow touches a
  non-derelict enemy. "Ships cannot ram while pinned": a pinned ship cannot move, and a ram needs
  a contact the move made (not one the bow had before it).
- SM-4: "bows touching, facing out" cannot both hold for a straight hull: ships start facing out
  with the stern touching (docked, ready to sail); ``options.start = "in"`` docks them bow first.
- SM-12: each leg turns about the centre of the bow's rounding (a placement: nothing is swept),
  then runs straight. The run may begin lying on what the turn set her down on if it sails clear
  of it (never deeper), and must end clear: else the leg is not sailed (a first leg is refused; a
  later one ends the move there). ``choices()`` also offers, for whatever her bow touches, the
  turn that lays her along it. Fewer legs than the base move are allowed. A move that would not
  take her anywhere (stopped by a touch before 0.05) is refused with the reason and a move to try,
  not spent; sliding along what it touches is free.
- SM-13/14: "touching" is a gap of at most 0.02; a move stops 0.005-0.01 short of contact. At an
  enemy home it stops 0.05-0.1 short, so it does not touch (no dock, SM-14).
- SM-16: come about keeps the ship docked and opens no ram or tow; a ship whose bow is against
  something may come about too (SM-12's promise: a boxed-in ship has a move); a towing ship
  must break the tow first. SM-17: the tow rides rigidly astern (the pair sweeps as one hull); a
  tow is offered only if there is room astern; the derelict joins the fleet at once; repairing
  it casts it off.
- SM-18: ramming a derelict has no mast to take but opens boarding. SM-20: the starter declares
  ``kill`` or ``steal`` (only what is possible is offered); a defender that wins chooses in
  ``plunder``. A boarding party nothing could come of is not offered.
- SM-25: a shoot action names one or more targets, each with its masts (or, none named, every
  cannon that reaches it and is not named for another); one target per cannon, targets resolved
  in the order written. Range is from
  the mast to the target hull's nearest point; a cannon may fire if a straight line to one of six
  points on the facing side of the target hull, within range, misses every island and every
  other hull.
- SM-30: explore may be taken by a derelict too; coin values seen stay known to that player.
  Coins change hands (tow, steal) known to the new holder. SM-32: repair restores the bow-most
  eliminated mast unless one is named.
- SM-40: "gold still in play" is all gold dealt (announced at setup) less the coins lost, whose
  values are revealed as they sink, so the end never depends on a hidden value. Every coin
  unloaded or lost ends the game in either mode. The "one fleet left" end applies only when two
  fleets sailed at the start. ``options.max_rounds`` (1000, 0 = none) is a safety cap the rules
  do not have; the shipped bots never reach it (uniformly random play may).
- SM-2: homes: of every set of islands, the one whose treasure access (each wild island's coins
  shared among the homes by 1 / (edge distance + L)) is most equal, within 2 % of the gold; among
  those, the one whose homes lie farthest apart; the seats get them at random. SM-6: the bow is
  the hull from the tip to the first mast (30 % of the length; 60 % for one mast).
- SM-6, SM-60: abilities are on by default (``options.abilities``); each printed text is data in
  :mod:`.abilities`, asked at one hook per trigger; docs/rules/spanish-main.md §4b lists which
  cards play and the choices made. SM-61: crew cards are pieces (``Ship.aboard``) bought with a
  fleet entry ``SHIP+CREW``; ``options.crew`` still gives plain crew with no card (SM-20 kill).
- Geometry is float, rounded to 1e-6 after each move so saved games are short and replay byte for
  byte; islands sit on a jittered grid (SM-2's spacing leaves little room for chance placement).
"""

from __future__ import annotations

from shipwreck.engine.core import Event, NamesView, Positions, Previews, Ruleset, Seat
from shipwreck.games import registry
from shipwreck.games.spanish_main import rules
from shipwreck.games.spanish_main.commands import Command, Move, MoveDock, MoveToward
from shipwreck.games.spanish_main.fleets import fleet_options
from shipwreck.games.spanish_main.previews import MovePreview
from shipwreck.games.spanish_main.report import summary_lines
from shipwreck.games.spanish_main.scoring import score_all
from shipwreck.games.spanish_main.setup import SEAT_NAMES, Position, from_position, new_game
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.games.spanish_main.view import BotView, SpanishMainView, bot_view, view


class SpanishMain(
    Ruleset[SpanishMainState, Command],
    Positions[SpanishMainState, Position],
    Previews[SpanishMainState, Move | MoveToward | MoveDock],
    NamesView[SpanishMainState],
):
    """The Spanish Main ruleset, as the engine's ``Ruleset`` protocol describes it."""

    name = "spanish_main"
    min_seats = 2
    max_seats = 4
    command_type: object = Command
    state_type = SpanishMainState
    position_type = Position
    free_types: frozenset[type] = rules.FREE_TYPES
    """Commands that answer no prompt (breaking a tow)."""

    def new_game(
        self, seed: int, seats: int = 2, options: dict[str, object] | None = None
    ) -> tuple[SpanishMainState, list[Event]]:
        return new_game(seed, seats, options)

    def from_position(self, pos: Position) -> tuple[SpanishMainState, list[Event]]:
        return from_position(pos)

    prompts = staticmethod(rules.prompts)

    legal = staticmethod(rules.legal)

    choices = staticmethod(rules.choices)

    apply = staticmethod(rules.apply)

    default = staticmethod(rules.default)

    fleet_options = staticmethod(fleet_options)
    """The table options for each seat's preset fleet (a table's seats, ``sim --fleets``)."""

    def preview(
        self, state: SpanishMainState, seat: Seat, cmd: Move | MoveToward | MoveDock
    ) -> MovePreview:
        """Where a move would go and why it would stop, without making it (for the UI). A method,
        not the rules' function itself: that is compiled, with no annotations, and a table on
        another worker decodes its preview by this return type (``updates.preview_type``)."""
        return rules.preview(state, seat, cmd)

    def view(self, state: SpanishMainState, seat: Seat | None) -> SpanishMainView:
        return view(state, seat)

    def bot_view(self, state: SpanishMainState, seat: Seat) -> BotView:
        """What a bot seat decides from (:func:`shipwreck.botseat.bot_view`): the names view
        and the seat's legal commands, each ship's listed only when the bot asks for it."""
        return bot_view(state, seat)

    def names_view(self, state: SpanishMainState, seat: Seat | None) -> SpanishMainView:
        """The view a typed line is read with (ship codes, ids in play): no legal commands,
        which cost far more to work out than reading the line."""
        return view(state, seat, legal=False)

    def is_over(self, state: SpanishMainState) -> bool:
        return state.over

    def scores(self, state: SpanishMainState) -> dict[Seat, int]:
        return score_all(state)

    def summary(self, state: SpanishMainState) -> dict[str, object]:
        """The final-state report of ``shipwreck scenario run --json``."""
        return {
            "over": state.over,
            "round": state.round,
            "turn": state.seats[state.turn],
            "step": state.step,
            "next": [state.seats[p.seat] for p in rules.prompts(state)],
            "gold": dict(zip(state.seats, state.gold, strict=True)),
            "end_reason": state.end_reason,
            "winners": [state.seats[s] for s in state.winners],
            "sunk": list(state.sunk),
            "ships": {
                s.id: {
                    "owner": state.seats[s.owner],
                    "x": s.x,
                    "y": s.y,
                    "heading": s.heading,
                    "masts": s.masts_up,
                    "cargo": len(s.cargo),
                    "docked": s.docked,
                    "towing": s.towing,
                    "derelict": s.derelict,
                    "crew": [c.card for c in s.aboard],
                }
                for s in state.ships.values()
            },
        }

    def seat_name(self, state: SpanishMainState, seat: Seat) -> str:
        return state.seats[seat]

    def seat_of(self, state: SpanishMainState, name: str) -> Seat:
        return state.seats.index(name)


RULES = SpanishMain()

GAME = registry.register(
    registry.Game(
        name=SpanishMain.name,
        title="Spanish Main",
        ruleset=lambda: RULES,
        min_seats=SpanishMain.min_seats,
        max_seats=SpanishMain.max_seats,
        default_seats=2,  # the two-player sea (SM-1)
        aliases=("sm", "spanish-main", "spanish"),
        short="sm",
        rules_file="spanish-main.md",
        default_bots=("sm_random",),
        summary_lines=summary_lines,
        seat_names=SEAT_NAMES,
        timers={
            "turn": 120,
            "after_move": 45,
            "eliminate": 45,
            "load": 45,
            "board": 45,
            "plunder": 45,
        },
    )
)

__all__ = ["RULES", "Command", "Position", "SpanishMain", "SpanishMainState", "SpanishMainView"]

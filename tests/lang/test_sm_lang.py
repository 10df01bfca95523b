"""Spanish Main's command language (grammar/spanish_main.lark, shipwreck/lang/spanish_main.py):
the issue's examples, parse(format(c)) == c for every legal command in random games (and any
float), one-line errors with the column and a suggestion (ids checked against a view), fuzzing
(only CommandSyntaxError escapes), completion, help, and the docs' tables.

The fixed position below is the standard sea of tests/games/test_spanish_main.py: red's home
isla-1 in the west, blue's isla-2 in the east, wild isla-3 (coins 1-3) and isla-4 (coins 4-5);
red's dover (S+S) at sea heading east, red's plantagenet (S+L) docked bow-in at isla-3, blue's
el-leon (L).
"""

from __future__ import annotations

import random
import re
import typing
from collections.abc import Iterator

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import ROOT

from shipwreck.engine.core import SYSTEM, IllegalCommand
from shipwreck.games.spanish_main import RULES, rules
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.setup import (
    SEAT_NAMES,
    IslandPosition,
    Position,
    SetupError,
    ShipPosition,
)
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.lang import CommandSyntaxError, format_command, parse_command
from shipwreck.lang.complete import command_list, complete, explain, legal_texts
from shipwreck.lang.errors import MAX_LINE, Walker, vocabulary
from shipwreck.lang.help import help_table, markdown, player_commands
from shipwreck.lang.spanish_main import format_number

GAME = "spanish_main"
COMMAND_TYPES: tuple[type, ...] = typing.get_args(C.Command)
RED, BLUE = 0, 1
ISLANDS = [
    IslandPosition(10, 28, 5, id="isla-1", home=RED),
    IslandPosition(60, 28, 5, id="isla-2", home=BLUE),
    IslandPosition(35, 45, 5, id="isla-3", coins=[3, 1, 5]),
    IslandPosition(35, 10, 4, id="isla-4", coins=[2, 6]),
]
SHIPS = [
    ShipPosition("dover", RED, 40, 20, 90),
    ShipPosition("plantagenet", RED, 35, 39.995, 0),
    ShipPosition("el-leon", BLUE, 50, 15, 270),
    ShipPosition("albion", RED, 10, 52, 90, id="far-red"),
    ShipPosition("albion", BLUE, 60, 52, 90, id="far-blue"),
]


def start(ships: list[ShipPosition] | None = None, **kw: typing.Any) -> SpanishMainState:
    pos = Position(seed=7, islands=list(ISLANDS), ships=list(SHIPS if ships is None else ships))
    state, _ = RULES.from_position(msgspec.structs.replace(pos, **kw))
    return state


def parse(text: str, view: SpanishMainView | None = None) -> C.Command:
    cmd: C.Command = parse_command(GAME, text, view)
    return cmd


def error(text: str, view: SpanishMainView | None = None) -> CommandSyntaxError:
    with pytest.raises(CommandSyntaxError) as info:
        parse_command(GAME, text, view)
    return info.value


# --------------------------------------------------------------------------- the issue's text


@pytest.mark.parametrize(
    ("text", "cmd"),
    [
        ("move dover L 30 S -15", C.Move("dover", (("L", 30.0, None), ("S", -15.0, None)))),
        ("move dover L 30 4.5 S -15", C.Move("dover", (("L", 30.0, 4.5), ("S", -15.0, None)))),
        ("move dover S", C.Move("dover", (("S", 0.0, None),))),
        ("move dover S +7.25 0", C.Move("dover", (("S", 7.25, 0.0),))),
        ("move dover toward isla-2", C.MoveToward("dover", "isla-2")),
        ("move dover toward el-picador", C.MoveToward("dover", "el-picador")),
        ("move dover dock isla-2", C.MoveDock("dover", "isla-2")),
        ("come about dover", C.ComeAbout("dover")),
        ("shoot dover at el-picador", C.Shoot("dover", "el-picador")),
        ("shoot dover at el-picador with 1 3", C.Shoot("dover", "el-picador", (1, 3))),
        ("explore dover", C.Explore("dover")),
        ("load dover 1 2", C.Load("dover", (1, 2))),
        ("load dover none", C.Load("dover", ())),
        ("load dover", C.Load("dover", ())),
        ("repair dover", C.Repair("dover")),
        ("repair dover mast 2", C.Repair("dover", 2)),
        ("tow dover el-picador", C.Tow("dover", "el-picador")),
        ("break tow dover", C.BreakTow("dover")),
        ("ram dover el-picador-2", C.Ram("dover", "el-picador-2")),
        ("board kill", C.Board("kill")),
        ("board steal", C.Board("steal")),
        ("pass", C.Pass()),
        ("eliminate 3", C.Eliminate(3)),
        ("end turn", C.EndTurn()),
        ("timeout red", C.Timeout("red")),
    ],
)
def test_the_commands_of_the_issue(text: str, cmd: C.Command) -> None:
    assert parse(text) == cmd
    assert parse(format_command(cmd)) == cmd
    assert parse("  " + text.replace(" ", " \t ") + "\t\n") == cmd


def test_canonical_text() -> None:
    """The canonical text writes every leg's turn, no '+', no trailing '.0', 'none' for an
    empty load."""
    assert format_command(parse("move dover S")) == "move dover S 0"
    assert format_command(parse("move dover L +30.0 4.50 S -0")) == "move dover L 30 4.5 S 0"
    assert format_command(parse("load dover")) == "load dover none"
    assert format_command(C.Shoot("dover", "titan", (2, 3))) == "shoot dover at titan with 2 3"
    assert format_command(C.Repair("dover", 4)) == "repair dover mast 4"


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (30.0, "30"),
        (-15.0, "-15"),
        (4.5, "4.5"),
        (0.1, "0.1"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1e-05, "1e-05"),
        (1e16, "1e+16"),
        (-0.0, "0"),
        (5e-324, "5e-324"),
        (-1.7976931348623157e308, "-1.7976931348623157e+308"),
        (45, "45"),
    ],
)
def test_number_text_is_the_repr(x: float, text: str) -> None:
    assert format_number(x) == text
    assert float(text) == x


@settings(max_examples=300)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["S", "L"]),
            st.floats(allow_nan=False, allow_infinity=False),
            st.none() | st.floats(allow_nan=False, allow_infinity=False),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_round_trip_of_any_float(legs: list[C.Leg]) -> None:
    """Every finite float survives format -> parse exactly (the text is the float's repr)."""
    cmd = C.Move("el-picador-2", tuple(legs))
    text = format_command(cmd)
    assert len(text) <= len("move el-picador-2") + 4 * 52  # " S " and two 24-character floats a leg
    back = parse(text)
    assert back == cmd
    assert isinstance(back, C.Move)
    for (_, t1, d1), (_, t2, d2) in zip(back.legs, cmd.legs, strict=True):
        assert t1.hex() == (t2 + 0.0).hex()  # bit for bit, -0.0 read as 0.0
        assert d1 is None if d2 is None else d1 is not None and d1.hex() == (d2 + 0.0).hex()


def test_non_finite_numbers() -> None:
    with pytest.raises(ValueError, match="no text for the number nan"):
        format_command(C.Move("dover", (("S", float("nan"), None),)))
    with pytest.raises(ValueError, match="no text"):
        format_command(C.Move("dover", (("S", 0.0, float("inf")),)))
    e = error("move dover S 1e400")
    assert str(e) == "column 14: the number '1e400' is too large" and e.column == 14
    e = error("  move dover S 0 " + "9" * 400)
    assert e.column == 18 and "is too large" in str(e)
    assert parse("move dover S 1e-400") == C.Move("dover", (("S", 0.0, None),))


# --------------------------------------------------------------------------- random games


def random_positions(seed: int, seats: int, limit: int = 400) -> Iterator[SpanishMainState]:
    """The positions of one random game (at most ``limit``): each prompted seat answers with a
    random kind of command among its choices, then a random one of that kind (so shooting,
    ramming, towing and exploring happen, not only sailing), sometimes breaking a tow first."""
    rng = random.Random(seed)
    state, _ = RULES.new_game(seed, seats)
    for _ in range(limit):
        if state.over:
            return
        yield state
        seat = RULES.prompts(state)[0].seat
        free = [c for c in RULES.legal(state, seat) if isinstance(c, C.BreakTow)]
        if free and rng.random() < 0.2:
            RULES.apply(state, seat, rng.choice(free))
            continue
        options = RULES.choices(state, seat)
        kinds = sorted({type(c).__name__ for c in options})
        kind = rng.choice(kinds)
        RULES.apply(state, seat, rng.choice([c for c in options if type(c).__name__ == kind]))


def variants(cmd: C.Command, rng: random.Random) -> list[C.Command]:
    """Legal-looking neighbours the engine does not list: masts named, a mast to repair, coins
    in another order, legs with other turns and distances (any within the arcs are legal)."""
    match cmd:
        case C.Shoot(ship, target, ()):
            return [C.Shoot(ship, target, tuple(rng.sample(range(1, 6), rng.randint(1, 3))))]
        case C.Repair(ship, None):
            return [C.Repair(ship, rng.randint(1, 5))]
        case C.Load(ship, coins) if len(coins) > 1:
            return [C.Load(ship, tuple(rng.sample(coins, len(coins))))]
        case C.Move(ship, legs):
            return [
                C.Move(
                    ship,
                    tuple(
                        (k, rng.uniform(-90, 90), rng.choice([None, rng.uniform(0, 7), 5.0]))
                        for k, _, _ in legs
                    ),
                ),
                C.Move(ship, tuple((k, round(rng.uniform(-90, 90), 1), None) for k, _, _ in legs)),
            ]
    return []


def test_round_trip_of_every_legal_command() -> None:
    """parse(format(c)) == c for every command legal for the prompted seat in random games of
    2, 3 and 4 seats, their variants, and every timeout; also with other spacing."""
    rng = random.Random(1)
    seen: set[C.Command] = {C.Timeout(name) for name in SEAT_NAMES}
    positions = 0
    for seed, seats in ((1, 2), (2, 3), (3, 4), (4, 2), (5, 2)):
        for state in random_positions(seed, seats):
            positions += 1
            seat = RULES.prompts(state)[0].seat
            for cmd in RULES.legal(state, seat):
                seen.add(cmd)
                seen.update(variants(cmd, rng))
    # Repairs: random play seldom brings a damaged ship home.
    repairs = RULES.legal(home_with_damage(), RED)
    assert C.Repair("dover") in repairs
    seen.update(repairs, [C.Repair("dover", 2), C.Repair("dover", 4)])
    # Breaking a tow: random play seldom takes one (SM-17).
    towing = start(
        [
            ShipPosition("dover", RED, 40, 20, 90, towing="el-picador"),
            ShipPosition("el-picador", RED, 30, 20, 90, masts=0),
            ShipPosition("el-leon", BLUE, 50, 15, 270),
        ]
    )
    assert C.BreakTow("dover") in RULES.legal(towing, RED)
    seen.add(C.BreakTow("dover"))
    # Taking a derelict in tow: only after a move that ends against its bow (SM-17), which
    # random play may or may not bring about.
    tow = start(
        [
            ShipPosition("dover", RED, 30, 20, 90),
            ShipPosition("el-picador", RED, 34.5, 20, 270, masts=0),
            ShipPosition("el-leon", BLUE, 50, 40, 270),
        ]
    )
    RULES.apply(tow, RED, C.Move("dover", (("S", 0.0, None),)))
    assert C.Tow("dover", "el-picador") in RULES.legal(tow, RED)
    seen.update(RULES.legal(tow, RED))
    # Crew at a dock (SM-61): the default fleets carry no crew.
    crewed = start(
        [
            ShipPosition("dover", RED, 15.005, 28, 270, aboard=["explorer-english"]),
            ShipPosition("plantagenet", RED, 10, 33.005, 180),
            ShipPosition("el-leon", BLUE, 50, 15, 270),
        ]
    )
    crew_moves = [c for c in RULES.legal(crewed, RED) if type(c) in rules.FREE_TYPES]
    assert C.Transfer("explorer-english", "dover", "plantagenet") in crew_moves
    seen.update(crew_moves, [C.PickUp("explorer-english", "dover")])
    # A look (SM-60): only a few cards have one.
    looking = start([ShipPosition("ravens-neck", RED, 40, 20, 90), *SHIPS[1:]])
    assert C.Look("ravens-neck", 1) in RULES.legal(looking, RED)
    seen.add(C.Look("ravens-neck", 1))
    seen.add(C.Trade("revenge", "dover"))  # (a trade: tests/games/test_sm_cards.py plays one)
    seen.add(C.Sacrifice("explorer-pirate", "revenge"))  # (likewise)
    # Carbon Charlie's cannon and Nemesio Diaz's cancel (SM-60): tests/test_sm_playtest5.py
    seen.update([C.Arm("dover", 3), C.Cancel("snipe", "cazador-del-pirata")])
    seen.add(C.Cancel("shipwright-pirate-2", "el-leon"))
    assert positions >= 1000
    assert {type(c) for c in seen} == set(COMMAND_TYPES)
    assert len(seen) > 5000
    for cmd in seen:
        text = format_command(cmd)
        assert parse(text) == cmd, text
        assert parse("\t " + text.replace(" ", " \t  ") + " \n") == cmd
        assert format_command(parse(text)) == text


def test_every_legal_text_applies_as_the_command() -> None:
    """In random positions, the text of a legal command, parsed with the seat's view, is the
    command, and the engine accepts it."""
    for state in random_positions(11, 2, limit=150):
        seat = RULES.prompts(state)[0].seat
        view = RULES.view(state, seat)
        legal = RULES.legal(state, seat)
        for cmd in random.Random(len(legal)).sample(legal, min(3, len(legal))):
            got = parse(format_command(cmd), view)
            assert got == cmd
            RULES.apply(clone(state), seat, got)


def clone(state: SpanishMainState) -> SpanishMainState:
    return msgspec.json.decode(msgspec.json.encode(state), type=SpanishMainState)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "shoot dover att el-leon",
            "column 13: unknown word 'att'; did you mean 'shoot dover at el-leon'?",
        ),
        ("mvoe dover S 30", "column 1: unknown command 'mvoe'; did you mean 'move dover S 30'?"),
        # (any case reads since the stranger's play-test: 'move Dover s 30' is a move)
        (
            "MOVE DOVER X 30",
            "column 12: unknown word 'X'; expected 'dock', 'toward' or a leg (S, L); usage:"
            " move SHIP LEG... | move SHIP toward TARGET | move SHIP dock ISLAND",
        ),
        ("end trun", "column 5: unknown word 'trun'; did you mean 'end turn'?"),
        ("come abot dover", "column 6: unknown word 'abot'; did you mean 'come about dover'?"),
        ("board kil", "column 7: unknown word 'kil'; did you mean 'board kill'?"),
        ("timeout rde", "column 9: unknown word 'rde'; did you mean 'timeout red'?"),
        ("brake tow dover", "column 1: unknown command 'brake'; did you mean 'break tow dover'?"),
        (
            "move dover",
            "column 11: incomplete command; expected 'dock', 'toward' or a leg (S, L); usage:"
            " move SHIP LEG... | move SHIP toward TARGET | move SHIP dock ISLAND",
        ),
        (
            "load dover 1 x",
            "column 14: unknown word 'x'; expected a number or end of command; usage:"
            " load SHIP COIN... | load SHIP none",
        ),
        (
            "shoot dover at",
            "column 15: incomplete command; expected a ship; usage:"
            " shoot SHIP at SHIP [with MAST...] [, at SHIP with MAST...]",
        ),
        (
            "timeout purple",
            "column 9: unknown word 'purple'; expected a seat (red, blue, green, gold);"
            " usage: timeout SEAT",
        ),
        ("eliminate -1", "column 11: unexpected '-1'; expected a number; usage: eliminate MAST"),
    ],
)
def test_messages(text: str, message: str) -> None:
    e = error(text)
    assert str(e) == message
    assert e.column == int(message.split(":")[0].split()[1])


@pytest.fixture(scope="module")
def view() -> SpanishMainView:
    return RULES.view(start(), RED)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("move dovr S 30", "column 6: unknown ship 'dovr'; did you mean 'move dover S 30'?"),
        (
            "shoot dovr at el-loen",
            "column 7: unknown ship 'dovr'; did you mean 'shoot dover at el-leon'?",
        ),
        (
            "move dover toward isla-3x",
            "column 19: unknown ship or island 'isla-3x'; did you mean 'move dover toward isla-3'?",
        ),
        (
            "shoot dover at zzz",
            "column 16: unknown ship 'zzz'; expected a ship (dover, plantagenet, el-leon, far-red,"
            " far-blue)",
        ),
        (
            "move dover dock atlantis",
            "column 17: unknown island 'atlantis'; expected an island (isla-1, isla-2, isla-3,"
            " isla-4)",
        ),
        (
            "shoot 3 at el-leon",
            "column 7: unexpected '3'; expected a ship (dover, plantagenet, el-leon, far-red,"
            " far-blue); usage: shoot SHIP at SHIP [with MAST...] [, at SHIP with MAST...]",
        ),
        # (any case reads: a wrong id is quoted as typed, the correction in the grammar's case)
        ("  MOVE DOVRE S 0", "column 8: unknown ship 'DOVRE'; did you mean 'move dover S 0'?"),
    ],
)
def test_ids_are_checked_against_the_view(view: SpanishMainView, text: str, message: str) -> None:
    e = error(text, view)
    assert str(e) == message
    assert e.column == int(message.split(":")[0].split()[1])


def test_without_a_view_any_id_parses_and_the_engine_refuses(view: SpanishMainView) -> None:
    state = start()
    cmd = parse("move dovr S 30")
    assert cmd == C.Move("dovr", (("S", 30.0, None),))
    with pytest.raises(IllegalCommand, match="there is no ship 'dovr'"):
        RULES.apply(state, RED, cmd)
    e = error("move dovr S 30", RULES.view(state, None))  # a spectator's view names them too
    assert "did you mean 'move dover S 30'?" in str(e)


def test_sunk_ships_are_known_names() -> None:
    """A sunk ship's id is not a typo: the engine says it sank."""
    state = start()
    state.sunk.append("titanic")
    assert parse("shoot dover at titanic", RULES.view(state, RED)) == C.Shoot("dover", "titanic")


def test_ids_must_be_slugs() -> None:
    """A position's ids must be typeable: lowercase letter first, then letters, digits, '-'."""
    for bad in ("Dover", "2nd", "el_leon", "el leon", "-x", ""):
        with pytest.raises(SetupError, match="is not an id"):
            start([ShipPosition("dover", RED, 40, 20, 90, id=bad or " ")])
        with pytest.raises(SetupError, match="is not an id"):
            start(islands=[*ISLANDS[:3], IslandPosition(35, 10, 4, id=bad or " ")])
    assert start([*SHIPS[:1], ShipPosition("dover", BLUE, 50, 15, 90, id="d-2")]).ships["d-2"]


_CONTROLS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_QUOTED = re.compile(r"^column \d+: (?:unknown word|unexpected|unknown command|unknown \w+) ")


def check_any_line(text: str, view: SpanishMainView | None = None) -> None:
    """What any text must do: parse to a command whose text parses back to it, or raise a
    one-line CommandSyntaxError whose column is in the line and names the word there; nothing
    else escapes."""
    try:
        cmd = parse_command(GAME, text, view)
    except CommandSyntaxError as e:
        msg = str(e)
        assert msg.isprintable(), msg  # one line, no control characters from the input
        assert len(msg) < 600, msg
        assert "cannot read" not in msg, msg  # the fallback of a failed diagnosis
        if not text.strip():
            assert e.column == 0
            return
        assert msg.startswith(f"column {e.column}: "), msg
        assert 1 <= e.column <= len(text) + 1
        m = _QUOTED.match(msg)
        if m is not None and not msg.startswith(f"column {e.column}: unknown ship or island "):
            rest = text.rstrip()[e.column - 1 :]
            # (a word ends at a separator: a blank, or the comma of a split shot, SM-25)
            word = re.match(r"[^ \t,]*", rest).group()  # type: ignore[union-attr]
            assert repr(word[:40]) in msg[m.end() - 1 :][:48], (text, msg)
        for fix in re.findall(r"did you mean '([^']* [^']*)'\?", msg):
            parse_command(GAME, fix, view)  # a suggested line always parses
        return
    assert isinstance(cmd, COMMAND_TYPES)
    assert parse_command(GAME, format_command(cmd), view) == cmd


VOCAB = sorted(
    vocabulary(GAME).known
    | {"1", "3", "-15", "4.5", "+30", "1e-05", "dover", "isla-2", "none", "x", "(", ":"}
)
TYPO_WORDS = st.sampled_from(VOCAB).flatmap(
    lambda w: st.sampled_from(
        [w, w[1:], w[:-1], w[::-1], w + w[-1], w[:1] + "x" + w[1:], w.upper(), w + ":", w + "-"]
    )
)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_fuzz_random_unicode(text: str) -> None:
    check_any_line(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(TYPO_WORDS, max_size=8), st.sampled_from([" ", "  ", "\t", " \t "]))
def test_fuzz_words_and_typos(words: list[str], sep: str) -> None:
    check_any_line(sep.join(words))


@settings(max_examples=200, deadline=None)
@given(st.lists(TYPO_WORDS, max_size=8))
def test_fuzz_words_and_typos_with_a_view(words: list[str]) -> None:
    check_any_line(" ".join(words), VIEW)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["move dover", "shoot dover at el-leon with", "load dover", "eliminate"]),
    st.lists(
        st.from_regex(r"[+-]?[0-9]{1,400}(\.[0-9]{0,30})?(e[+-]?[0-9]{1,4})?", fullmatch=True)
        | st.sampled_from(["S", "L", "s"]),
        max_size=6,
    ),
)
def test_fuzz_numbers(head: str, words: list[str]) -> None:
    check_any_line(" ".join([head, *words]))


VIEW = RULES.view(start(), RED)


@pytest.mark.parametrize(
    "text",
    [
        "move dover " + "S 1 " * 120,
        "move dover S " + "9" * 490,
        "move dover S 0." + "0" * 480 + "1",
        "load dover " + " ".join(["1"] * 160),
        "shoot dover at el-leon with " + "1 " * 200,
        "a" * 100_000,
        "move" + " " * 10_000 + "dover S",
        "move dover S\x00",
        "move dover\u00a0S",
        "move dover S 1e",
        "move dover S 1.",
        "move dover S .5",
        "move dover S --1",
        "movedover S",
        "move dover S1",
        "end turnx",
        "tow dover at",
        "\ud800",
    ],
)
def test_nasty_lines(text: str) -> None:
    check_any_line(text)
    check_any_line(text, VIEW)


# --------------------------------------------------------------------------- completion


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ["come", "end", "explore", "move"]),
        ("e", ["end", "explore"]),
        ("move ", ["dover", "far-red", "plantagenet"]),
        ("move d", ["dover"]),
        ("move dover ", ["S", "dock", "toward"]),
        ("move dover S ", ["-45", "-90", "0", "45", "90"]),
        ("move dover S 4", ["45"]),
        ("move dover S -45 ", ["S"]),
        ("move dover S 30 ", ["S"]),  # any turn the sample's turns allow
        ("move dover S 30 2.5 ", ["S"]),
        ("move dover S 30 S ", ["-45", "0", "45"]),
        ("move dover S 30 S 0 ", []),  # no legs left
        ("move dover s", ["S"]),
        ("move dover L ", []),  # dover has no L leg
        ("move dover toward ", ["el-leon", "far-blue", "isla-1", "isla-2", "isla-3", "isla-4"]),
        ("move dover dock ", ["isla-4"]),  # the islands she can reach and dock at
        # docked bow-in: SM-12, she turns along the island (a placement) and slides off it
        ("move plantagenet ", ["L", "S", "toward"]),
        ("move plantagenet S ", ["-90", "90"]),
        ("come about ", ["plantagenet"]),
        ("explore ", ["plantagenet"]),
        ("end ", ["turn"]),
        ("end turn ", []),
        ("shoot ", []),
        ("pass", []),
        ("timeout ", []),
        ("zzz ", []),
    ],
)
def test_completion_on_a_turn(view: SpanishMainView, text: str, expected: list[str]) -> None:
    assert complete(text, view) == expected
    assert complete(text, view, GAME) == expected


def test_completion_for_the_others_and_answers() -> None:
    state = start()
    assert complete("", RULES.view(state, BLUE)) == []
    assert complete("", RULES.view(state, None)) == []
    RULES.apply(state, RED, C.Explore("plantagenet"))
    view = RULES.view(state, RED)
    assert complete("", view) == ["load"]
    assert complete("load plantagenet ", view) == ["1", "2", "3", "none"]
    assert complete("load plantagenet 3 ", view) == ["1", "2"]  # any order, up to free cargo
    assert complete("load plantagenet 3 1 2 ", view) == []


def home_with_damage() -> SpanishMainState:
    """Dover, masts 2 and 4 down, docked at red's home."""
    return start(
        [
            ShipPosition("dover", RED, 15.005, 28, 270, masts=[1, 3]),
            ShipPosition("el-leon", BLUE, 50, 15, 270),
        ]
    )


def test_completion_of_repairs() -> None:
    state = home_with_damage()
    view = RULES.view(state, RED)
    assert C.Repair("dover") in view.choices
    assert complete("repair dover ", view) == ["mast"]
    assert complete("repair dover mast ", view) == ["2", "4"]
    for line in ("repair dover mast 4", "repair dover"):
        RULES.apply(clone(state), RED, parse(line, view))


def test_completion_offers_every_legal_word_and_only_legal_lines() -> None:
    """In random positions: each word of every legal text is offered after the words before it
    (also while typed), and following offered words at random, to a legal text or to the end of
    what is offered, ends in a line the engine takes. (A line cut short may parse and still be
    refused: ``move dover S`` sails straight on, which the sample may not offer.)"""
    rng = random.Random(3)
    checked = walks = 0
    for seed, seats in ((21, 2), (22, 3)):
        for i, state in enumerate(random_positions(seed, seats, limit=240)):
            if i % 4:
                continue
            seat = RULES.prompts(state)[0].seat
            view = RULES.view(state, seat)
            texts = list(dict.fromkeys(legal_texts(view)))
            for text in rng.sample(texts, min(4, len(texts))):
                words = text.split(" ")
                for k, word in enumerate(words):
                    typed = "".join(w + " " for w in words[:k])
                    assert word in complete(typed, view), (typed, word)
                    assert word in complete(typed + word[:1], view), (typed, word)
                checked += 1
            legal = set(texts)
            for _ in range(3):
                line = ""
                while offered := complete(line, view):
                    line += rng.choice(offered) + " "
                    if rng.random() < 0.3 and line.strip() in legal:
                        break
                if not line:
                    continue
                walks += 1
                try:
                    RULES.apply(clone(state), seat, parse(line, view))
                except (IllegalCommand, CommandSyntaxError) as e:
                    raise AssertionError(f"{line!r} was offered but is illegal: {e}") from None
    assert checked > 150 and walks > 100


def test_completion_ignores_long_and_broken_lines(view: SpanishMainView) -> None:
    assert complete("move dover " + "S " * MAX_LINE, view) == []
    assert complete("move dover S 30 30 30 ", view) == []
    assert complete("move dover S x ", view) == []
    assert complete("move zzz ", view) == []


# --------------------------------------------------------------------------- help and docs


def test_the_help_table_covers_the_grammar() -> None:
    walker = Walker(GAME)
    first_words = set(walker.vocab.candidates(walker.accepts()))
    assert set(help_table(GAME)) == first_words
    for word, entry in help_table(GAME).items():
        for form in entry.usage.split("|"):
            assert form.split()[0] == word
        assert "\n" not in entry.description and not entry.description.endswith(".")
        assert re.fullmatch(r"(SM-\d+(, SM-\d+)*)?", entry.rule)


def test_every_usage_form_parses() -> None:
    """Each usage form, its placeholders filled in, is a command."""
    fill = {"SHIP": "dover", "ISLAND": "isla-2", "TARGET": "el-leon", "SEAT": "red"}
    fill |= {"MAST": "2", "COIN": "4", "LEG": "S 30", "CREW": "explorer-english"}
    for entry in help_table(GAME).values():
        for form in entry.usage.split("|"):
            text = re.sub(r"\[([^]]*)\]", r"\1", form).replace("...", "")
            words = [fill.get(w, w) for w in text.split()]
            parse(" ".join(words))


def test_explain_and_command_list() -> None:
    assert explain("come", GAME) == (
        "come about SHIP: a docked ship, or one whose bow is against something, turns in place,"
        " bow where the stern was (her action)"
        " (SM-16)"
    )
    assert explain("move dover S 30", GAME) == explain("move", GAME)
    assert explain("shot", GAME) == "unknown command 'shot'; did you mean 'shoot'?"
    assert "timeout" not in explain("", GAME)
    usages = [u for u, _ in command_list(GAME)]
    assert usages[0].startswith("move SHIP LEG...") and "end turn" in usages
    assert len(usages) == len(player_commands(GAME)) == len(help_table(GAME)) - 1


def test_docs_show_the_tables() -> None:
    """docs/spanish_main_commands.md holds the tables as help.markdown() renders them, and its
    examples parse."""
    docs = (ROOT / "docs" / "spanish_main_commands.md").read_text()
    md = markdown(GAME)
    assert md.count("## ") == 4
    for line in md.splitlines():
        if line.startswith("| `"):
            assert line in docs, line
    block = docs.split("```")[1]
    examples = [re.split(r"\s{2,}", line.strip())[0] for line in block.strip().splitlines()]
    assert len(examples) == 6
    for text in examples:
        assert format_command(parse(text)) in (text, "move dover S 0")


def test_the_system_seat_sends_timeouts() -> None:
    state = start()
    RULES.apply(state, SYSTEM, parse("timeout red"))
    assert RULES.prompts(state)[0].seat == BLUE


def test_a_bot_grammar_can_widen_the_names() -> None:
    """The names are rules (``?ship``, ``?number`` ...), as in grammar/lifeboat.lark, so a bot
    grammar may %override them to take expressions while importing the commands as they are."""
    from lark import Lark

    from shipwreck.resources import grammar_dir

    grammar = r"""
        start: command
        %import .spanish_main (command, ship, target, number, mast, leg)
        %import .spanish_main (SHIP, TARGET, NUMBER, INT, LEG)
        %override ?ship: SHIP | "(" NAME ")"
        %override ?target: TARGET | "(" NAME ")"
        %override ?number: NUMBER | "(" NAME ")"
        %override ?mast: INT | "(" NAME ")"
        NAME: /[a-z_]+/
        %import .base (WS)
        %ignore WS
    """
    bot = Lark(grammar, parser="lalr", import_paths=[str(grammar_dir())])
    tree = bot.parse("move (mine) L (turn) 4.5 S -15")
    assert [str(t) for t in tree.scan_values(lambda v: v is not None)] == [
        "mine", "L", "turn", "4.5", "S", "-15"
    ]  # fmt: skip
    bot.parse("shoot dover at (enemy) with (m) 2")
    bot.parse("move dover toward (x)")


@pytest.mark.parametrize(
    ("line", "form"),
    [
        ("dock dover isla-2", "move SHIP dock ISLAND"),
        ("turn", "end turn"),
        ("about dover", "come about SHIP"),
        ("steal", "board steal"),
    ],
)
def test_a_word_of_a_command_typed_as_the_command_names_the_command_it_goes_in(
    line: str, form: str
) -> None:
    """A stranger typed ``dock dover`` (SM-16's docking is a move) and was shown all 22
    commands; a word that only comes inside a command points at that command, in the error
    and in ``help``."""
    with pytest.raises(CommandSyntaxError) as e:
        parse_command("spanish_main", line)
    word = line.split()[0]
    assert str(e.value) == f"column 1: unknown command {word!r}; it goes in {form!r}"
    assert explain(word, "spanish_main") == f"{word!r} is no command; it goes in {form!r}"


def test_a_misspelt_command_is_still_matched_to_the_commands_and_short_words_are_not_hinted() -> (
    None
):
    """``dokc`` is not a word of any command: the nearest commands, as before; and a short word
    that many commands hold (``at``, ``to``) gives no hint of its own."""
    with pytest.raises(CommandSyntaxError) as e:
        parse_command("spanish_main", "dokc dover")
    assert "it goes in" not in str(e.value) and "commands: arm, board" in str(e.value)
    with pytest.raises(CommandSyntaxError) as e:
        parse_command("spanish_main", "at dover")
    assert "it goes in" not in str(e.value)


def test_sm25_a_split_shot_that_ends_after_its_comma_is_incomplete_with_its_usage() -> None:
    """SM-25: a comma parts the targets of a split shot; a line that ends after one said
    "cannot read this" (the words' fallback). It is incomplete, and says the form."""
    with pytest.raises(CommandSyntaxError) as e:
        parse_command("spanish_main", "shoot dover at scout with 1,")
    assert str(e.value) == (
        "column 29: incomplete command; usage: shoot SHIP at SHIP [with MAST...]"
        " [, at SHIP with MAST...]"
    )
    with pytest.raises(CommandSyntaxError) as e:
        parse_command("spanish_main", "end turn,")
    assert str(e.value) == "column 9: unexpected ','; expected end of command"

"""Spanish Main ships' codes (``lw`` for lord-walpole, as the map and the fleet panel show them):
one definition (``games/spanish_main/codes.py``) for the screen and the language; a command may
name a ship by her code wherever it may name her (play-test: ``move lw S 0`` was refused); the
codes are unambiguous at a table and keep still when a ship sinks."""

from __future__ import annotations

import random
import re

import msgspec
import pytest
from paths import ROOT
from sea_helpers import sm_view, two_humans

from shipwreck.games.spanish_main import RULES, rules
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.codes import (
    RESERVED,
    codes_of,
    ship_codes,
    ship_names,
    short_codes,
    table_codes,
)
from shipwreck.games.spanish_main.setup import IslandPosition, Position, ShipPosition
from shipwreck.games.spanish_main.ships import CARDS, CREW, PRESETS
from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.lang import CommandSyntaxError, parse_command
from shipwreck.lang.bots import BotPlayer, load_source
from shipwreck.lang.complete import complete

GAME = "spanish_main"
RED, BLUE = 0, 1
ISLANDS = [
    IslandPosition(10, 28, 5, id="isla-1", home=RED),
    IslandPosition(60, 28, 5, id="isla-2", home=BLUE),
    IslandPosition(35, 45, 5, id="isla-3", coins=[3, 1, 5]),
]


def view_of(*ships: ShipPosition, seat: int = RED) -> SpanishMainView:
    state, _ = RULES.from_position(Position(seed=7, islands=list(ISLANDS), ships=list(ships)))
    return RULES.view(state, seat)


def parse(text: str, view: SpanishMainView) -> C.Command:
    cmd: C.Command = parse_command(GAME, text, view)
    return cmd


def test_the_default_fleets_codes() -> None:
    """What the play-tester saw on the map (``do``, ``lw``, ``pl``, ``ep``, ``pdp``)."""
    _, table = two_humans()
    codes = ship_codes(sm_view(table, 0))
    assert codes == {
        "dover": "do",
        "lord-walpole": "lw",
        "plantagenet": "pl",
        "el-picador": "ep",
        "el-leon": "el",
        "el-tirador": "et",
        "pescados-de-plata": "pdp",
    }


@pytest.mark.parametrize(
    ("text", "cmd"),
    [
        ("move lw S 0", C.Move("lord-walpole", (("S", 0.0, None),))),
        ("MOVE LW L 30", C.Move("lord-walpole", (("L", 30.0, None),))),
        ("move do toward ep", C.MoveToward("dover", "el-picador")),
        ("move pl dock isla-3", C.MoveDock("plantagenet", "isla-3")),
        ("come about do", C.ComeAbout("dover")),
        (
            "shoot do at ep with 1, at pdp",
            C.Shoot("dover", "el-picador", (1,), (("pescados-de-plata", ()),)),
        ),
        ("shoot do at pd", C.Shoot("dover", "pescados-de-plata")),
        ("explore lw", C.Explore("lord-walpole")),
        ("repair do mast 2", C.Repair("dover", 2)),
        ("load do 1 2", C.Load("dover", (1, 2))),
        ("tow do et", C.Tow("dover", "el-tirador")),
        ("ram do el", C.Ram("dover", "el-leon")),
        ("break tow lw", C.BreakTow("lord-walpole")),
        ("trade do with lw", C.Trade("dover", "lord-walpole")),
        ("cancel ep with do", C.Cancel("el-picador", "dover")),
        ("move dover S 0", C.Move("dover", (("S", 0.0, None),))),
    ],
)
def test_a_ship_may_be_named_by_her_code(text: str, cmd: C.Command) -> None:
    """Wherever a command names a ship (her own, a target, a holder), her code names her; the
    command read names her id (the log and the replay keep ids). ``pd`` is ``pdp``'s short
    form, which a crowded map shows."""
    _, table = two_humans()
    view = sm_view(table, 0)
    assert short_codes(view) == {"pescados-de-plata": "pd"}
    assert parse(text, view) == cmd


def test_the_table_takes_a_code_and_logs_the_id() -> None:
    """The play-test: ``move lw ...`` at the table (lord-walpole's base move is L)."""
    _, table = two_humans()
    done = table.submit_text(0, "move lw L 0")
    assert done.ok, done.message
    assert table.commands[-1] == (0, "move lord-walpole L 0")
    refused = table.submit_text(0, "move lw L 0")  # (the engine's refusal names her id)
    assert not refused.ok and "lord-walpole" in refused.message


def test_the_table_reads_a_line_without_listing_the_legal_commands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reading a typed line needs only what it may name (ids, codes): the table reads it with
    the seat's names view, which holds every ship, island and code of the full view and no
    legal commands (working those out was most of a typed line's cost)."""
    _, table = two_humans()
    full = sm_view(table, 0)
    names = RULES.names_view(table.state, 0)
    assert names.choices == () == names.free and full.choices
    assert ship_names(names) == ship_names(full)
    assert names == msgspec.structs.replace(full, choices=(), free=())
    listed = []
    choices = rules.choices
    monkeypatch.setattr(rules, "choices", lambda *a: listed.append(a) or choices(*a))
    read = []
    names_view = RULES.names_view
    monkeypatch.setattr(RULES, "names_view", lambda *a: read.append(a) or names_view(*a))
    done = table.submit_text(0, "move lw L 0")
    assert done.ok and table.commands[-1] == (0, "move lord-walpole L 0")
    assert read and not listed  # (the line was read with the names view; nothing listed)


def test_an_unknown_word_is_still_refused_with_the_ids() -> None:
    _, table = two_humans()
    view = sm_view(table, 0)
    with pytest.raises(CommandSyntaxError, match=r"column 6: unknown ship 'lx'; expected a ship"):
        parse("move lx S 0", view)
    with pytest.raises(CommandSyntaxError, match="did you mean 'move dover S 0'"):
        parse("move dovr S 0", view)


def test_completion_goes_on_after_a_code() -> None:
    _, table = two_humans()
    view = sm_view(table, 0)
    assert complete("move lw ", view) == complete("move lord-walpole ", view) != []
    assert complete("shoot do at ", view) == complete("shoot dover at ", view)


def test_codes_never_collide() -> None:
    """Cards whose initials are the same (``revenant``, ``revenge``, ``recreant`` are all
    ``re``), repeated cards (``dover``, ``dover-2``) and ids a scenario gives (a ship called
    ``do``): every code is unique and none is another ship's id, whatever the order."""
    ids = ["revenant", "revenge", "recreant", "dover", "dover-2", "dolphin", "do", "el-leon"]
    codes = codes_of(ids)
    assert len(set(codes.values())) == len(ids)
    for ship, code in codes.items():
        assert code == ship or code not in ids, (ship, code)
    assert codes["dover-2"] == "do2"  # (her number, as in her id)
    assert codes["do"] == "do" and codes["dover"] != "do"
    for seed in range(5):
        shuffled = list(ids)
        random.Random(seed).shuffle(shuffled)
        assert codes_of(shuffled) == codes


def test_codes_are_nothing_else_at_the_table() -> None:
    """Every table dealt (2-4 seats, the repeated ``plain`` fleet too): a code, or a short form,
    is one ship's only, and never an island's id, a crew card's or a word of the grammar."""
    for seats in (2, 3, 4):
        for seed in range(1, 11):
            options: dict[str, object] = {}
            if seed % 2:
                options["fleets"] = [list(PRESETS["plain"])] * seats
            state, _ = RULES.new_game(seed, seats, options)
            view = RULES.view(state, 0)
            codes = table_codes(view)
            assert len(set(codes.values())) == len(codes)
            named = ship_names(view)
            assert len(named) == len(codes) + len(short_codes(view))
            others = {i.id for i in view.islands} | set(CREW) | RESERVED | set(codes)
            for word, ship in named.items():
                assert word not in others, (word, ship)


def test_a_ships_code_stays_when_another_sinks() -> None:
    """``dover`` sinks: ``dover-2`` keeps ``do2`` (a code the log and the map used); a sunk
    ship's code still names her, so the engine says she sank."""
    ships = [
        ShipPosition("dover", RED, 20, 10, 90),
        ShipPosition("dover", RED, 20, 50, 90),
        ShipPosition("el-picador", BLUE, 50, 10, 270),
    ]
    state, _ = RULES.from_position(Position(seed=7, islands=list(ISLANDS), ships=ships))
    before = ship_codes(RULES.view(state, RED))
    assert before["dover-2"] == "do2"
    del state.ships["dover"]
    state.sunk.append("dover")
    view = RULES.view(state, RED)
    assert ship_codes(view) == {k: v for k, v in before.items() if k != "dover"}
    assert parse("explore do", view) == C.Explore("dover")


def test_an_id_is_never_taken_for_a_code() -> None:
    """A scenario's ship called ``ep`` is ``ep``, and el-picador's code is another."""
    view = view_of(
        ShipPosition("dover", RED, 20, 10, 90, id="ep"),
        ShipPosition("el-picador", BLUE, 50, 10, 270),
    )
    assert ship_codes(view)["el-picador"] != "ep"
    assert parse("explore ep", view) == C.Explore("ep")


def test_the_reserved_words_are_the_grammars() -> None:
    """Every word the command grammars quote (Spanish Main's and its bot grammar's) is
    reserved: a code that is a keyword would not read as a ship."""
    quoted: set[str] = set()
    for name in ("spanish_main.lark", "spanish_main_bot.lark"):
        text = (ROOT / "grammar" / name).read_text(encoding="utf-8")
        lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
        quoted |= set(re.findall(r'"([a-z]+)"', "\n".join(lines)))
        quoted |= set(re.findall(r"\b([a-z]+)\b", " ".join(re.findall(r"/\(([a-z|]+)\)", text))))
    assert quoted and quoted <= RESERVED, sorted(quoted - RESERVED)


def test_a_card_cannot_be_a_reserved_word() -> None:
    assert not set(CARDS) & RESERVED


BOT = """bot "Coded" for spanish_main
on turn:
    when 1 == 1 -> explore lw
    else -> end turn
"""


def test_a_bot_may_name_a_ship_by_her_code() -> None:
    """A script's command with a ship's code plays the command with her id."""
    _, table = two_humans()
    bot = BotPlayer(load_source(BOT), seed=1)
    assert bot.decide(sm_view(table, 0), "turn").command == C.Explore("lord-walpole")

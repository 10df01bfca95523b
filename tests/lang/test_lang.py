"""The action language: error messages, completion, help, and the text round trip.

Positions are real games: fixed ones from ``setup.Position`` (every hand listed, so nothing is
dealt at random), and random ones from seeded games of random legal moves.
"""

from __future__ import annotations

import random
import re
import typing
from collections.abc import Iterator

import msgspec
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from shipwreck.engine.core import SYSTEM, IllegalCommand
from shipwreck.games.lifeboat import RULES
from shipwreck.games.lifeboat import commands as C
from shipwreck.games.lifeboat.cards import CHAR_IDS, ITEM_KINDS, SUPPLY_COUNTS
from shipwreck.games.lifeboat.setup import CharacterPosition, Position, from_position
from shipwreck.games.lifeboat.state import LifeboatState
from shipwreck.games.lifeboat.view import LifeboatView
from shipwreck.lang import CommandSyntaxError, format_command, parse_command
from shipwreck.lang.complete import command_list, complete, explain, legal_texts
from shipwreck.lang.errors import MAX_LINE, Walker, suggest, vocabulary
from shipwreck.lang.help import help_table, markdown, player_commands

GAME = "lifeboat"
ITEMS = sorted({*ITEM_KINDS, *SUPPLY_COUNTS})
"""Every item id a command may name (kinds and particular paintings)."""
COMMAND_TYPES: tuple[type, ...] = typing.get_args(C.Command)


def error(text: str) -> CommandSyntaxError:
    with pytest.raises(CommandSyntaxError) as info:
        parse_command(GAME, text)
    return info.value


# --------------------------------------------------------------------------- error messages


def test_the_issue_example() -> None:
    e = error("rob captian knfe")
    assert str(e) == "column 5: unknown word 'captian'; did you mean 'rob captain knife'?"
    assert e.column == 5


@pytest.mark.parametrize(
    ("text", "column", "parts"),
    [
        ("rob captain knfe", 13, ["unknown word 'knfe'", "did you mean 'rob captain knife'?"]),
        ("rob kidd hidden", 5, ["unknown word 'kidd'", "did you mean 'rob kid hidden'?"]),
        ("use umbrela on kid", 5, ["did you mean 'use umbrella on kid'?"]),
        ("join attack", 6, ["did you mean 'join attacker'?"]),
        ("fire flar", 6, ["did you mean 'fire flare'?"]),
        ("ofer watr to kd for knif", 1, ["did you mean 'offer water to kid for knife'?"]),
        # two commands are as close to "rbo": the one whose line parses is suggested
        ("rbo captain knife", 1, ["unknown command 'rbo'", "'rob captain knife'"]),
        # an unknown first word alone: the closest commands
        ("rwo", 1, ["unknown command 'rwo'; did you mean 'row'"]),
        # capitals fold (issue 19: 'ROW' is 'row'), so a misspelling in capitals reads the same
        ("RWO", 1, ["unknown command 'RWO'; did you mean 'row'"]),
        ("xyz", 1, ["unknown command 'xyz'; commands: accept, agree, choose,", "wound"]),
        ("kid", 1, ["unknown command 'kid'"]),
        # a comma is no word (it parts a split shot's targets): what hypothesis found in CI
        ("0,", 1, ["unknown command '0'"]),
        ("A,", 1, ["unknown command 'A'"]),  # (as typed: it said 'a', the folded word)
        ("row,", 4, ["unexpected ','; expected end of command"]),
        # what was expected, in words
        (
            "rob",
            4,
            [
                "incomplete command; expected a character"
                " (lauren, stephen, captain, mate, frenchy, kid)",
                "usage: rob X ITEM | rob X hidden",
            ],
        ),
        ("rob captain", 12, ["incomplete command; expected 'hidden' or an item (water, cash,"]),
        ("keep", 5, ["expected 'none' or a card number 19-42"]),
        ("keep 21 x", 9, ["unknown word 'x'; expected a card number 19-42 or end of command"]),
        ("row now", 5, ["unknown word 'now'; expected end of command"]),
        ("row kid", 5, ["unexpected 'kid'; expected end of command"]),
        ("offer water kid", 13, ["unexpected 'kid'; expected 'to'"]),
        ("offer water to kid for", 23, ["incomplete command; expected an item (water,"]),
        ("give kid preserver", 6, ["unexpected 'kid'; expected an item"]),
        ("say", 4, ["incomplete command; expected some text"]),
        ("fire", 5, ["expected 'flare'"]),
        ("join", 5, ["expected a side (attacker, defender)"]),
        ("rob é", 5, ["unknown word 'é'; expected a character"]),
        ("painting:4", 1, ["unknown command 'painting:4'"]),
        # a close word whose line still does not parse: the word alone, and what is expected
        ("rob captian knfe zzz", 5, ["unknown word 'captian' (did you mean 'captain'?)"]),
        # columns count from the text as typed
        ("   rob  captian", 9, ["unknown word 'captian'"]),
        ("\trob\tkidd\thidden", 6, ["did you mean 'rob kid hidden'?"]),
    ],
)
def test_messages(text: str, column: int, parts: list[str]) -> None:
    e = error(text)
    assert e.column == column, str(e)
    assert str(e).startswith(f"column {column}: ")
    for part in parts:
        assert part in str(e)


def test_no_suggestion_unless_the_corrected_line_parses() -> None:
    assert suggest(GAME, "rob captian knfe") == "rob captain knife"
    assert suggest(GAME, "rob captian") is None  # "rob captain" is not a command
    assert suggest(GAME, "rob captian knfe zzz") is None
    assert suggest(GAME, "row kid") is None  # known words are never replaced
    assert "did you mean" not in str(error("rob xqzw knife"))


def test_the_column_points_at_the_word() -> None:
    for text, word in [
        ("rob captian knfe", "captian"),
        ("rob kid hidden now", "now"),
        ("  swap   lauren lauren", "lauren"),
        ("offer water to kid for knife please", "please"),
    ]:
        e = error(text)
        start = e.column - 1
        assert text[start:].startswith(word), (text, str(e))
        assert text[start - 1] in " \t"


def test_line_length_is_capped() -> None:
    say = "say " + "x" * (MAX_LINE - 4)
    assert parse_command(GAME, say) == C.Say("x" * (MAX_LINE - 4))
    assert parse_command(GAME, "  " + say + "  \n") == C.Say("x" * (MAX_LINE - 4))
    e = error(say + "x")
    assert str(e) == (
        f"column {MAX_LINE + 1}: the line is too long ({MAX_LINE + 1} characters);"
        f" a command has at most {MAX_LINE}"
    )
    assert "too long" in str(error("(" * 10_000))


@pytest.mark.parametrize(
    "text", ["say hi\x00there", "row\x00", "say \x1b[2Jboo", "rob\nkid hidden"]
)
def test_control_characters_are_refused(text: str) -> None:
    e = error(text)
    assert "control character" in str(e)
    assert not _CONTROLS.search(text[: e.column - 1])
    assert _CONTROLS.match(text[e.column - 1])


def test_empty_lines() -> None:
    for text in ["", "   ", "\t", "\n"]:
        e = error(text)
        assert e.column == 0 and str(e).startswith("empty command")


_CONTROLS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_QUOTED = re.compile(r"^column \d+: (?:unknown word|unexpected|unknown command) ")


def check_any_line(text: str) -> None:
    """What any text must do: parse to a command whose text parses back to it, or raise a
    one-line CommandSyntaxError whose column is in the line and names the word there."""
    try:
        cmd = parse_command(GAME, text)
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
        if m is not None:  # the word quoted is the word at the column
            rest = text.rstrip()[e.column - 1 :]  # the line ends where strip() says
            # (a word is what lies between blanks and commas, as errors.split_words has it)
            word = re.match(r",|[^ \t,]*", rest).group()  # type: ignore[union-attr]
            assert msg[m.end() :].startswith(repr(word[:40])), (text, msg)
        for fix in re.findall(r"did you mean '([^']* [^']*)'\?", msg):
            parse_command(GAME, fix)  # a suggested line always parses
        return
    assert isinstance(cmd, COMMAND_TYPES)
    if not isinstance(cmd, C.Say):
        assert parse_command(GAME, format_command(cmd)) == cmd


VOCAB = sorted(vocabulary(GAME).known | {"19", "42", "7", "none", "(", ")", ":", "x", "for"})
TYPO_WORDS = st.sampled_from(VOCAB).flatmap(
    lambda w: st.sampled_from(
        [w, w[1:], w[:-1], w[::-1], w + w[-1], w[:1] + "x" + w[1:], w.upper(), w + ":"]
    )
)


@settings(max_examples=300)
@given(st.text())
def test_fuzz_random_unicode(text: str) -> None:
    check_any_line(text)


@settings(max_examples=200)
@given(st.text(st.characters(max_codepoint=0xA0), max_size=40))
@example("0,")  # (found in CI: a comma ends a word)
@example("row,")  # (was "cannot read this", the words' fallback)
@example("A,")  # (quoted 'a': the word as typed was found up to a blank, not the comma)
def test_fuzz_control_characters(text: str) -> None:
    check_any_line(text)


@settings(max_examples=300)
@given(st.lists(TYPO_WORDS, max_size=7), st.sampled_from([" ", "  ", "\t", " \t "]))
def test_fuzz_words_and_typos(words: list[str], sep: str) -> None:
    check_any_line(sep.join(words))


@settings(max_examples=30)
@given(
    st.sampled_from(["(", ")", "\x00", "rob ", "x", "say ", " ", "é", "painting:3 "]),
    st.integers(min_value=1, max_value=3000),
)
def test_fuzz_long_lines(chunk: str, n: int) -> None:
    check_any_line(chunk * n)
    check_any_line("say " + chunk * n)


@pytest.mark.parametrize(
    "text",
    [
        "(" * 10_000,
        "(" * 499,
        "[" * 250 + "]" * 250,
        "\x00" * 10,
        "row\x00",
        "rob" + " " * 10_000 + "kid hidden",
        "a" * 100_000,
        "\ud800",
        "\u202erob kid hidden",
        "rob\u00a0kid hidden",
        "keep " + "9" * 490,
        "keep " + " ".join(["21"] * 160),
        "9" * 500,
        "say \u2028",
        "robkid hiddn",
        "rob kid hidden" + "\ufeff",
    ],
)
def test_nasty_lines(text: str) -> None:
    check_any_line(text)


# --------------------------------------------------------------------------- positions


def position(**hands: CharacterPosition) -> Position:
    """Lauren to act in the action phase, every hand as given (empty if not), no friends
    dealt at random that matter here."""
    chars = {cid: hands.get(cid, CharacterPosition()) for cid in CHAR_IDS}
    return Position(seed=5, phase="actions", characters=chars, navigation_deck=[21, 31, 25, 40, 33])


def start(pos: Position) -> LifeboatState:
    state, _ = from_position(pos)
    return state


def play(state: LifeboatState, *lines: str) -> LifeboatState:
    """Apply ``character: command`` lines, as typed."""
    for line in lines:
        who, text = line.split(":", 1)
        RULES.apply(state, state.players.index(who), parse_command(GAME, text))
    return state


def seen_by(state: LifeboatState, cid: str) -> LifeboatView:
    return RULES.view(state, state.players.index(cid))


HANDS = {
    "lauren": CharacterPosition(hidden=["umbrella", "knife"]),
    "stephen": CharacterPosition(revealed=["painting:3"]),
    "captain": CharacterPosition(hidden=["water"]),
    "frenchy": CharacterPosition(hidden=["cash"], revealed=["oar"]),
    "kid": CharacterPosition(hidden=["jewels"], revealed=["gaff"]),
}


@pytest.fixture
def turn() -> LifeboatState:
    """Lauren's turn; the mate holds nothing."""
    return start(position(**HANDS))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ["drop", "offer", "rest", "rob", "row", "say", "swap", "use"]),
        ("r", ["rest", "rob", "row"]),
        ("ro", ["rob", "row"]),
        ("row", ["row"]),
        ("row ", []),
        ("swap ", ["captain", "frenchy", "kid", "mate", "stephen"]),
        ("rob ", ["captain", "frenchy", "kid", "stephen"]),  # the mate has nothing to rob
        ("rob kid ", ["gaff", "hidden"]),
        ("rob kid h", ["hidden"]),
        ("rob  kid\t", ["gaff", "hidden"]),
        ("rob stephen ", ["painting", "painting:3"]),
        ("rob mate ", []),
        ("rob kid hidden ", []),
        ("use ", ["umbrella"]),  # a knife is not used
        ("use umbrella ", ["on"]),
        ("use umbrella on ", ["captain", "frenchy", "kid", "mate", "stephen"]),
        ("offer ", ["knife", "umbrella"]),
        ("offer knife ", ["to"]),
        ("offer knife to ", ["captain", "frenchy", "kid", "mate", "stephen"]),
        ("offer knife to kid ", ["for"]),
        ("offer knife to kid for ", ITEMS),
        ("offer knife to kid for pa", ["painting", "painting:2", "painting:3"]),
        ("offer knife to kid for water ", []),
        ("offer water ", []),  # lauren has no water
        ("drop ", ["knife", "umbrella"]),
        ("say ", []),
        ("say hello the", []),
        ("keep ", []),  # grammatical, not legal now
        ("zzz ", []),
        ("rob zzz ", []),
        ("ROB ", []),
        ("x" * (MAX_LINE + 1), []),
    ],
)
def test_completion_on_a_turn(turn: LifeboatState, text: str, expected: list[str]) -> None:
    assert complete(text, seen_by(turn, "lauren")) == expected


def every_line(view: LifeboatView, typed: str = "") -> Iterator[str]:
    """Every line reached by following completions from ``typed`` (``say`` left out)."""
    for word in complete(typed, view):
        line = typed + word
        if line == "say":
            continue
        if _parses(line):
            yield line
        yield from every_line(view, line + " ")


@pytest.mark.parametrize("who", CHAR_IDS)
def test_every_completed_line_is_legal(turn: LifeboatState, who: str) -> None:
    """Following the completions from an empty line reaches exactly the legal commands (and
    their variants: any item asked in return, a bare 'painting'), each accepted by the engine."""
    view = seen_by(turn, who)
    lines = set(every_line(view))
    for line in lines:
        RULES.apply(clone(turn), turn.players.index(who), parse_command(GAME, line))
    assert {format_command(c) for c in (*view.choices, *view.free)} <= lines
    if who == "lauren":
        assert {"rob stephen painting", "offer knife to kid for painting:2"} <= lines
        assert len(lines) == len(set(legal_texts(view))) - 1  # all but "say"


def test_completion_for_the_others(turn: LifeboatState) -> None:
    assert complete("", seen_by(turn, "stephen")) == ["drop", "offer", "say"]
    assert complete("offer ", seen_by(turn, "stephen")) == ["painting", "painting:3"]
    assert complete("rob ", seen_by(turn, "stephen")) == []  # not stephen's turn
    assert complete("", seen_by(turn, "mate")) == ["say"]  # nothing to offer or drop
    assert complete("", RULES.view(turn, None)) == []  # a spectator


def test_completion_of_kept_cards(turn: LifeboatState) -> None:
    play(turn, "lauren: row")
    view = seen_by(turn, "lauren")
    assert view.drawn == (21, 31)
    assert complete("", view) == ["drop", "keep", "offer", "say"]
    assert complete("keep ", view) == ["21", "31", "none"]
    assert complete("keep 2", view) == ["21"]
    assert complete("keep 21 ", view) == ["31"]
    assert complete("keep 31 ", view) == ["21"]  # any order is legal
    assert complete("keep 21 31 ", view) == []
    assert complete("keep none ", view) == []
    assert complete("keep ", seen_by(turn, "stephen")) == []


def test_completion_in_a_fight(turn: LifeboatState) -> None:
    play(turn, "lauren: rob kid gaff", "kid: resist")
    assert complete("", seen_by(turn, "lauren")) == ["done", "reveal", "say"]
    assert complete("reveal ", seen_by(turn, "lauren")) == ["knife"]  # not the umbrella
    assert complete("", seen_by(turn, "captain")) == ["done", "join", "say"]
    assert complete("join ", seen_by(turn, "captain")) == ["attacker", "defender"]
    assert complete("join a", seen_by(turn, "captain")) == ["attacker"]
    assert complete("offer ", seen_by(turn, "captain")) == []  # no trades in a fight (LB-28)


def test_completion_of_offers_waiting(turn: LifeboatState) -> None:
    play(turn, "kid: offer jewels to captain for water", "frenchy: offer cash to captain")
    view = seen_by(turn, "captain")
    assert complete("", view) == ["accept", "decline", "drop", "offer", "say"]
    assert complete("accept ", view) == ["frenchy", "kid"]
    assert complete("decline ", view) == ["frenchy", "kid"]


def test_no_completion_for_the_dead_or_unconscious() -> None:
    hands = HANDS | {
        "mate": CharacterPosition(hidden=["water"], dead=True, wounds=9),
        "stephen": CharacterPosition(hidden=["water"], wounds=5),
    }
    state = start(position(**hands))
    assert complete("", seen_by(state, "mate")) == []
    assert complete("", seen_by(state, "stephen")) == []
    assert "swap" in complete("", seen_by(state, "lauren"))


# --------------------------------------------------------------------------- random positions


def random_positions(seed: int, seats: int, free_p: float = 0.1) -> Iterator[LifeboatState]:
    """The live state after the deal and after every command of one random game, where now and
    then a random seat takes a random free action (so that trades happen)."""
    rng = random.Random(seed)
    state, _ = RULES.new_game(seed, seats)
    for _ in range(3000):
        yield state
        if RULES.is_over(state):
            return
        seat = rng.randrange(seats)
        free = [c for c in RULES.legal(state, seat) if c not in RULES.choices(state, seat)]
        if free and rng.random() < free_p:
            RULES.apply(state, seat, rng.choice(free))
            continue
        prompt = rng.choice([p for p in RULES.prompts(state) if p.blocking])
        RULES.apply(state, prompt.seat, rng.choice(RULES.choices(state, prompt.seat)))
    raise AssertionError(f"game {seed} did not end")


def test_round_trip_of_every_legal_command() -> None:
    """parse(format(c)) == c for every command legal for any seat in thousands of random
    positions, every offer with every item asked in return, and every timeout; also with
    other spacing around and between the words."""
    seen: set[C.Command] = set()
    positions = 0
    for seed in range(40):
        for state in random_positions(seed, 4 + seed % 3):
            positions += 1
            for seat in range(len(state.players)):
                seen.update(RULES.legal(state, seat))
    assert positions >= 2000
    assert {type(c) for c in seen} == set(COMMAND_TYPES) - {C.Say, C.Timeout}
    offers = [c for c in seen if isinstance(c, C.Offer)]
    assert offers and all(c.ask is None for c in offers)
    every = seen | {C.Offer(o.item, o.target, ask) for o in offers for ask in ITEMS}
    every |= {C.Timeout(cid) for cid in CHAR_IDS}
    for cmd in every:
        text = format_command(cmd)
        assert parse_command(GAME, text) == cmd, text
        assert parse_command(GAME, "\t " + text.replace(" ", " \t  ") + " \n") == cmd
    assert len(every) > 1500


@settings(max_examples=200)
@given(st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=400))
def test_round_trip_of_say(text: str) -> None:
    text = text.strip()
    if text:
        assert parse_command(GAME, format_command(C.Say(text))) == C.Say(text)


def clone(state: LifeboatState) -> LifeboatState:
    return msgspec.json.decode(msgspec.json.encode(state), type=LifeboatState)


def test_completion_offers_every_legal_word_and_only_legal_lines() -> None:
    """In random positions: for every legal command, each of its words is offered after the
    words before it (also while typed); and following the offered words, at random, always ends
    in a line the engine accepts from that seat."""
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        for i, state in enumerate(random_positions(seed, 6)):
            if i % 7:
                continue
            seat = rng.randrange(6)
            view = RULES.view(state, seat)
            texts = list(dict.fromkeys(legal_texts(view)))
            for text in rng.sample(texts, min(4, len(texts))):
                words = text.split(" ")
                for k, word in enumerate(words):
                    typed = "".join(w + " " for w in words[:k])
                    assert word in complete(typed, view), (typed, word)
                    assert word in complete(typed + word[:1], view), (typed, word)
                checked += 1
            line = ""
            while True:
                offered = complete(line, view)
                if not offered or line.startswith("say "):
                    break
                line += rng.choice(offered) + " "
                if rng.random() < 0.3 and _parses(line):
                    break
            if line and not line.startswith("say "):
                cmd = parse_command(GAME, line)
                try:
                    RULES.apply(clone(state), seat, cmd)
                except IllegalCommand as e:
                    raise AssertionError(f"{line!r} was offered but is illegal: {e}") from None
    assert checked > 250


def _parses(line: str) -> bool:
    try:
        parse_command(GAME, line)
    except CommandSyntaxError:
        return False
    return True


# --------------------------------------------------------------------------- help


def test_the_help_table_covers_the_grammar() -> None:
    walker = Walker(GAME)
    first_words = set(walker.vocab.candidates(walker.accepts()))
    assert set(help_table(GAME)) == first_words
    for word, entry in help_table(GAME).items():
        for form in entry.usage.split("|"):
            assert form.split()[0] == word
        assert "\n" not in entry.description and not entry.description.endswith(".")
        assert re.fullmatch(r"(LB-\d+(, LB-\d+)*)?", entry.rule)


def test_explain() -> None:
    assert explain("rob") == (
        "rob X ITEM | rob X hidden: ask X for one of its revealed items, or a random hidden one"
        " (the Kid just takes it) (LB-22, LB-24)"
    )
    assert explain("rob kid hidden") == explain("rob") == explain("  ROB")
    assert explain("say") == "say TEXT: talk to the table"
    assert explain("rbo") == "unknown command 'rbo'; did you mean 'row' or 'rob'?"
    assert explain("zzz").startswith("unknown command 'zzz'; commands: row, swap, rob, use,")
    assert explain("").startswith("commands: row, swap, rob")
    assert "timeout" not in explain("")
    assert explain("\x1b[2J").isprintable()
    for word in help_table(GAME):
        assert "\n" not in explain(word) and explain(word).startswith(word)


def test_command_list() -> None:
    listed = command_list(GAME)
    assert listed[0] == ("row", "draw 2 navigation cards (3 with an oar), then 'keep' some")
    usages = [u for u, _ in listed]
    assert "offer ITEM to X [for ITEM]" in usages and "say TEXT" in usages
    assert not any(u.startswith("timeout") for u in usages)  # the system seat's
    assert len(listed) == len(player_commands(GAME)) == len(help_table(GAME)) - 1
    with pytest.raises(KeyError):
        command_list("spanish-main")


def test_markdown_tables() -> None:
    md = markdown(GAME)
    assert "| `rob X ITEM` / `rob X hidden` | ask X for one of its revealed items" in md
    assert md.count("## ") == 4
    for word in help_table(GAME):
        assert f"`{word}" in md


def test_system_seat_timeout_parses() -> None:
    state = start(position(**HANDS))
    RULES.apply(state, SYSTEM, parse_command(GAME, "timeout lauren"))
    assert state.order[state.turn] == "stephen"


@pytest.mark.parametrize("game", ["lifeboat", "spanish_main"])
def test_every_command_rule_is_named_after_its_struct(game: str) -> None:
    """The grammar builds the structs (shipwreck/lang/build.py): each command rule of a game's
    grammar is its struct's tag, and every struct of the game's command union has its rule, so
    no command is left without a builder and no rule without a struct."""
    from shipwreck.games.spanish_main import commands as SC
    from shipwreck.lang.build import rule_name
    from shipwreck.lang.grammar import command_parser

    union = C.Command if game == "lifeboat" else SC.Command
    structs = {rule_name(cls) for cls in typing.get_args(union)}
    alternatives = {
        str(r.expansion[0].name)
        for r in command_parser(game).rules
        if str(r.origin.name) == "command"
    }
    assert alternatives == structs

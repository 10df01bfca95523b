"""The lobby's and the tables' own words as a language: parsing into structs, errors with "did
you mean", Tab completion, and their help table (grammar/lobby.lark, grammar/table.lark)."""

from __future__ import annotations

import re

import pytest
from paths import ROOT

from shipwreck.lang.errors import CommandSyntaxError, Walker
from shipwreck.lang.help import help_table, player_commands
from shipwreck.lang.words import (
    Chat,
    Help,
    JoinTable,
    Leave,
    Legend,
    New,
    Open,
    Quit,
    Rules,
    Say,
    Start,
    Takeover,
    Tell,
    ToLobby,
    Tutorial,
    Watch,
    complete_words,
    first_words,
    parse_words,
)


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("new", New()),
        ("new 4 free loyal", New("lifeboat", 4, ("free", "loyal"))),
        ("new sm 3 sm_raider", New("spanish_main", 3, ("sm_raider",))),
        ("new spanish-main", New("spanish_main")),
        ("new 7", New("lifeboat", 7)),  # read; the lobby says Lifeboat is for 4 to 6
        ("new tutorial", Tutorial()),
        ("new tutorial sm", Tutorial("spanish_main")),
        ("join 3", JoinTable(3)),
        ("join 3 2", JoinTable(3, 2)),
        ("  watch   12 ", Watch(12)),
        ("open 1", Open(1)),
        ("say hello   all", Say("hello   all")),
        ("help", Help()),
        ("rules", Rules()),
        ("rules sm", Rules("spanish_main")),
        ("quit", Quit()),
    ],
)
def test_lobby_words_read_as_structs(line: str, word: object) -> None:
    assert parse_words("lobby", line) == word


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("help", Help()),
        ("rules", Rules()),
        ("legend", Legend()),
        ("lobby", ToLobby()),
        ("leave", Leave()),
        ("quit", Quit()),
        ("say ahoy", Say("ahoy")),
        ("tell bob let us team up", Tell("bob", "let us team up")),
        ("whisper kid psst", Tell("kid", "psst")),
        ("tell Ann-2 hi", Tell("Ann-2", "hi")),
        ("chat hi all", Chat("hi all")),
        ("start", Start()),
        ("start with bots", Start(with_bots=True)),
        ("takeover", Takeover()),
    ],
)
def test_table_words_read_as_structs(line: str, word: object) -> None:
    assert parse_words("table", line) == word


def test_a_word_is_never_split() -> None:
    """Lark's lexer alone read ``new 4x`` as ``new 4 x`` (a bot named x)."""
    with pytest.raises(CommandSyntaxError) as e:
        parse_words("lobby", "new 4x")
    assert str(e.value).startswith("column 5: unknown word '4x'")


@pytest.mark.parametrize(
    ("where", "line", "message"),
    [
        ("lobby", "nwe 4", "column 1: unknown command 'nwe'; did you mean 'new 4'?"),
        ("lobby", "jion 3", "column 1: unknown command 'jion'; did you mean 'join 3'?"),
        ("lobby", "hlep", "column 1: unknown command 'hlep'; did you mean 'help'?"),
        ("lobby", "rules smm", "column 7: unknown word 'smm'; did you mean 'rules sm'?"),
        ("lobby", "join", "column 5: incomplete command; expected a number; usage: join ID"),
        ("table", "strat with bots", "column 1: unknown command 'strat'; did you mean 'start"),
        ("table", "start with bot", "column 12: unknown word 'bot'; did you mean 'start with"),
        ("table", "tell", "column 5: incomplete command; expected a player or seat"),
        ("table", "tell bob", "column 9: incomplete command; expected some text"),
    ],
)
def test_errors_point_at_the_word_and_suggest_the_fix(where: str, line: str, message: str) -> None:
    with pytest.raises(CommandSyntaxError) as e:
        parse_words(where, line)  # type: ignore[arg-type]
    assert str(e.value).startswith(message), str(e.value)
    assert "\n" not in str(e.value)


def test_tell_suggests_a_name_at_the_table() -> None:
    names = {"NAME": ("lauren", "kid", "ann", "bob")}
    assert parse_words("table", "tell bob hi", names) == Tell("bob", "hi")
    # An id not at the table still reads (the screen says who is there): "did you mean" is
    # for words the grammar cannot read.
    assert parse_words("table", "tell bobb hi", names) == Tell("bobb", "hi")


def test_lobby_completion() -> None:
    assert complete_words("lobby", "") == first_words("lobby")
    assert complete_words("lobby", "w") == ["watch"]
    assert complete_words("lobby", "new s") == [
        "sm",
        "sm_hauler",
        "sm_raider",
        "sm_random",
        "spanish",  # (every alias the games registry has: grammar.game_rule)
        "spanish-main",
        "spanish_main",
        "survivor",
    ]
    assert "tutorial" in complete_words("lobby", "new ")
    assert complete_words("lobby", "say ") == []  # free text


@pytest.mark.parametrize("where", ["lobby", "table"])
def test_a_word_that_is_no_game_lists_each_game_once(where: str) -> None:
    """Every alias of a game is a word (``lb``, ``spanish-main``), but a message names each
    game once, by the word players are told for it."""
    with pytest.raises(CommandSyntaxError) as e:
        parse_words(where, "rules chess")  # type: ignore[call-overload]
    assert str(e.value).startswith(
        "column 7: unknown word 'chess'; expected a game (lifeboat, sm) or end of command"
    ), str(e.value)
    assert parse_words(where, "rules lb") == Rules("lifeboat")  # type: ignore[call-overload]
    assert parse_words(where, "rules spanish") == Rules("spanish_main")  # type: ignore[call-overload]


def test_table_completion() -> None:
    names = {"NAME": ("lauren", "kid", "ann", "bob")}
    assert complete_words("table", "start ") == ["with"]
    assert complete_words("table", "start with ") == ["bots"]
    assert complete_words("table", "tell ", names) == ["ann", "bob", "kid", "lauren"]
    assert complete_words("table", "whisper k", names) == ["kid"]
    assert complete_words("table", "tell kid ", names) == []


@pytest.mark.parametrize("where", ["lobby", "table"])
def test_the_help_table_lists_exactly_the_first_words(where: str) -> None:
    """Every word a line may start with has its help entry, and no entry is for a word that is
    not (``whisper`` is listed under ``tell``)."""
    listed = set(help_table(where))
    words = set(first_words(where)) - {"whisper"}  # type: ignore[arg-type]
    assert listed == words
    for entry in player_commands(where).values():
        assert not re.search(r"\b(SM|LB)-\d", entry.description)


def test_lobby_help_has_an_example_for_each_command_and_it_reads() -> None:
    for word, entry in help_table("lobby").items():
        assert entry.example.split()[0] == word
        parse_words("lobby", entry.example)


def test_table_examples_read() -> None:
    for entry in help_table("table").values():
        if entry.example:
            parse_words("table", entry.example)


def test_keywords_win_over_names_word_by_word() -> None:
    """``sm`` is a bot's name by its pattern, but the keyword where the grammar takes both (as
    Lark's lexer reads it)."""
    walker = Walker("lobby")
    assert walker.feed("new")
    kinds = walker.vocab.kinds("sm", walker.accepts())
    assert kinds[0] == "SM" and "BOT" in kinds
    assert parse_words("lobby", "new sm") == New("spanish_main")


def test_docs_show_the_tables() -> None:
    """docs/words.md holds the lobby's and the tables' help tables as markdown() renders them."""

    from shipwreck.lang.help import markdown

    docs = (ROOT / "docs" / "words.md").read_text(encoding="utf-8")
    assert markdown("lobby") in docs and markdown("table") in docs

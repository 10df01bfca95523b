"""The ``search`` action: ISMCTS over worlds drawn from one seat's view (docs/bots.md).

- the determinizer rebuilds, from a view alone, a state whose view for that seat is the view;
- non-interference: scrambling what the seat cannot know (others' hidden items, friends and
  enemies, the decks' order) leaves its search decisions identical for a fixed seed;
- determinism: the same seed gives the same decision and the same trace;
- ``bot check`` accepts the action and refuses bad ones in one line;
- a position where one answer is plainly right (LB-41: the seagull that ends the voyage while
  the navigator leads) is found by the search.
"""

from __future__ import annotations

import asyncio
import gc
import random
import textwrap
import time
from typing import Any

import pytest

from shipwreck.botseat import bot_move
from shipwreck.cli import main
from shipwreck.engine.ismcts import Search
from shipwreck.engine.rng import Rng
from shipwreck.games.lifeboat import RULES
from shipwreck.games.lifeboat import commands as C
from shipwreck.games.lifeboat.determinize import NotDeterminizable, determinize
from shipwreck.games.lifeboat.search import greedy_rollout, new_search
from shipwreck.games.lifeboat.setup import CharacterPosition, Position, from_position
from shipwreck.games.lifeboat.state import LifeboatState
from shipwreck.lang.bots import BotPlayer, load_source, shipped_bot
from shipwreck.lang.bots.lint import check_source
from shipwreck.resources import bots_dir
from shipwreck.runtime.bots import BotBook
from shipwreck.runtime.table import LoopTurns, SeatSpec, Table
from shipwreck.server.gc_policy import tune_gc, untune_gc

HEADER = 'bot "Test" for lifeboat\n'
SEARCH = HEADER + "on turn:\n    else -> search 40\non supply:\n    else -> search 40\n"


def positions(seed: int, every: int = 1) -> list[tuple[LifeboatState, int, str]]:
    """Snapshots of a random game at each blocking decision (state copy, seat, kind)."""
    state, _ = RULES.new_game(seed, 6)
    pick = random.Random(seed)
    out: list[tuple[LifeboatState, int, str]] = []
    n = 0
    while not RULES.is_over(state):
        p = next(p for p in RULES.prompts(state) if p.blocking)
        if n % every == 0:
            out.append((clone(state), p.seat, p.kind))
        RULES.apply(state, p.seat, pick.choice(RULES.choices(state, p.seat)))
        n += 1
    return out


def clone(state: LifeboatState) -> LifeboatState:
    import msgspec

    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=LifeboatState)


def scramble(state: LifeboatState, seat: int, rng: random.Random) -> LifeboatState:
    """The same game as ``seat`` sees it, with everything it cannot know changed: others' hidden
    items swapped with unseen cards, others' friends and enemies re-dealt, both decks
    reshuffled (the drawn cards of the seat stay, being its own)."""
    s = clone(state)
    me = s.players[seat]
    others = [cid for cid in s.boat if cid != me]
    unseen = s.supply_deck + s.out
    hands = [s.chars[cid].hidden for cid in others]
    pool = [i for h in hands for i in h] + unseen
    rng.shuffle(pool)
    for h in hands:
        h[:] = [pool.pop() for _ in h]
    s.supply_deck = pool[: len(s.supply_deck)]
    s.out = pool[len(s.supply_deck) :]
    for field in ("friend", "enemy"):
        values = [getattr(s.chars[cid], field) for cid in others]
        rng.shuffle(values)
        for cid, v in zip(others, values, strict=True):
            setattr(s.chars[cid], field, v)
    rng.shuffle(s.nav_deck)
    return s


# --------------------------------------------------------------------------- the determinizer


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_determinized_state_looks_the_same_from_the_seat(seed: int) -> None:
    """Every decision of a random game: the world drawn from the view, seen again by that seat,
    is the view itself (hands, prompts, choices, decks' sizes), and it is a full, legal state
    (the seat's choices apply in it)."""
    for state, seat, _kind in positions(seed):
        view = RULES.view(state, seat)
        world = determinize(view, Rng.from_seed(seed))
        assert RULES.view(world, seat) == view
        for cmd in view.choices:
            RULES.apply(clone(world), seat, cmd)  # raises if illegal


def test_others_secrets_are_drawn_not_read() -> None:
    """The worlds vary in what the seat cannot know, and the real hands are not always drawn."""
    state, seat, _ = positions(5)[12]
    view = RULES.view(state, seat)
    me = state.players[seat]
    worlds = [determinize(view, Rng.from_seed(k)) for k in range(30)]
    others = [cid for cid in state.boat if cid != me and state.chars[cid].hidden]
    assert others
    hands = {tuple(tuple(w.chars[c].hidden) for c in others) for w in worlds}
    friends = {tuple(w.chars[c].friend for c in state.boat if c != me) for w in worlds}
    assert len(hands) > 10 and len(friends) > 10
    assert all(w.chars[me].hidden == state.chars[me].hidden for w in worlds)
    assert all(w.chars[me].friend == state.chars[me].friend for w in worlds)


def test_a_spectator_has_nothing_to_determinize() -> None:
    state, _ = RULES.new_game(1, 6)
    with pytest.raises(NotDeterminizable):
        determinize(RULES.view(state, None), Rng.from_seed(1))


# --------------------------------------------------------------------------- non-interference


@pytest.mark.parametrize(("seed", "using"), [(11, ""), (12, ""), (13, " using greedy")])
def test_scrambling_what_the_seat_cannot_know_changes_no_search_decision(
    seed: int, using: str
) -> None:
    """Hidden stays hidden: for a fixed seat seed, the search plays the same command and writes
    the same trace (its top three and their values) whatever others hold, whoever their friends
    and enemies are and however the decks lie (random playouts, and greedy ones, which read
    the imagined world)."""
    script = load_source(SEARCH.replace("search 40", "search 40" + using))
    rng = random.Random(seed)
    checked = 0
    for state, seat, kind in positions(seed, every=7):
        if kind not in ("turn", "supply") or len(RULES.view(state, seat).choices) < 2:
            continue
        real = BotPlayer(script, seed=99).decide(RULES.view(state, seat), kind)
        for _ in range(2):
            other = scramble(state, seat, rng)
            assert other.chars != state.chars or other.nav_deck != state.nav_deck
            d = BotPlayer(script, seed=99).decide(RULES.view(other, seat), kind)
            assert d.command == real.command
            assert d.entry.search == real.entry.search
        checked += 1
    assert checked >= 3


# --------------------------------------------------------------------------- determinism


def test_same_seed_same_decision_and_trace() -> None:
    state, seat, kind = next(p for p in positions(21) if p[2] == "turn")
    view = RULES.view(state, seat)
    script = load_source(SEARCH)
    a = BotPlayer(script, seed=5).decide(view, kind)
    b = BotPlayer(script, seed=5).decide(view, kind)
    assert a.command == b.command and a.entry == b.entry
    assert a.command in view.choices


def test_the_trace_names_the_search_its_playouts_and_top_three() -> None:
    state, seat, kind = next(p for p in positions(22) if p[2] == "turn")
    bot = BotPlayer(load_source(SEARCH), seed=3)
    bot_move(RULES, state, seat, kind, bot)
    entry = bot.trace[-1]
    assert entry.rule == "<bot>:3"
    assert entry.note == ""  # a note says why a default was played: none was
    assert entry.search.startswith("search 40: 40 playouts; best ")
    best = entry.search.split("; best ", 1)[1].split(", ")
    assert len(best) == 3
    assert best[0].startswith(entry.command + " ")
    for part in best:
        assert part.rsplit(" ", 2)[-2].replace(".", "").isdigit()  # "row 0.42 (17)"


def test_a_search_runs_in_slices_to_the_same_answer() -> None:
    """A caller may think a little at a time: the same playouts in slices give the same tree."""
    state, seat, _ = next(p for p in positions(23) if p[2] == "turn")
    view = RULES.view(state, seat)
    whole = new_search(view, 60, Rng.from_seed(8))
    whole.run()
    sliced = new_search(view, 60, Rng.from_seed(8))
    while not sliced.finished:
        assert sliced.run(7) <= 7
    assert sliced.done == 60
    assert sliced.ranking() == whole.ranking()


def test_greedy_playouts_are_legal_and_deterministic() -> None:
    """``using greedy``: the game's own fast playout policy answers every decision with one of
    the legal choices, and the same seed gives the same search."""
    script = load_source(HEADER + "on turn:\n    else -> search 30 using greedy\n")
    state, seat, kind = next(p for p in positions(24) if p[2] == "turn")
    view = RULES.view(state, seat)
    a = BotPlayer(script, seed=2).decide(view, kind)
    b = BotPlayer(script, seed=2).decide(view, kind)
    assert a.command in view.choices and a.entry == b.entry
    assert a.entry.search.startswith("search 30 using greedy: 30 playouts; best ")
    for state, seat, _kind in positions(25, every=3):
        choices = RULES.choices(state, seat)
        kind = next(p.kind for p in RULES.prompts(state) if p.seat == seat and p.blocking)
        for k in range(4):
            assert greedy_rollout(state, seat, kind, choices, Rng.from_seed(k)) in choices


def test_one_choice_needs_no_search() -> None:
    s = Search(RULES, 0, 6, lambda r: None, [C.Done()], 500, Rng.from_seed(1))
    assert s.run() == 0 and s.finished and s.best() == C.Done()


# --------------------------------------------------------------------------- lint


@pytest.mark.parametrize(
    "action",
    ["search 300", "search 1", "search 5000", "search 200 using survivor", "search 9 using greedy"],
)
def test_lint_accepts_search(action: str) -> None:
    source = HEADER + f"on turn:\n    when has(medkit) -> use medkit\n    else -> {action}\n"
    assert check_source(source, "t.bot") == []


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("search 0", "t.bot:3:13: error: search takes 1 to 5000 playouts, not 0; try 'search 300'"),
        ("search 9000", "t.bot:3:13: error: search takes 1 to 5000 playouts, not 9000;"),
        ("search 10 using nobody", "t.bot:3:13: error: there is no shipped Lifeboat bot 'nobody'"),
        ("search 10 using admiral", "t.bot:3:13: error: bot 'admiral' searches itself"),
        ("search", "t.bot:3:19: error: unexpected end of line; expected a number"),
        ("search ten", "t.bot:3:20: error: unexpected"),
    ],
)
def test_lint_refuses_bad_search_in_one_line(action: str, message: str) -> None:
    findings = [str(f) for f in check_source(HEADER + f"on turn:\n    else -> {action}\n", "t.bot")]
    assert len(findings) == 1, findings
    assert findings[0].startswith(message)
    assert "\n" not in findings[0]


def test_a_rollout_bot_that_is_not_shipped_suggests_the_ones_that_are() -> None:
    [f] = check_source(HEADER + "on turn:\n    else -> search 10 using survivr\n", "t.bot")
    assert "try one of greedy, hoarder, loyal, predator, random, survivor" in f.message


# --------------------------------------------------------------------------- finding the move


def test_search_takes_the_seagull_that_lands_the_boat_while_it_leads() -> None:
    """LB-41: three birds; the mate navigates (the stern) holding the only treasure. #25 (+1
    bird, nothing else) lands the boat now and the mate wins; #28 (-1 bird) sends Lauren
    overboard and makes everyone thirsty, and the voyage goes on. The search must choose #25:
    every playout through it is a win (value 1.0), and most playouts go to it. (#28 is no
    disaster for the mate either, who holds all the treasure: how far its value falls short
    depends on the later rules, e.g. LB-50's gifts of water, not on the search.)"""
    rel = {
        "lauren": ("stephen", "captain"),
        "stephen": ("captain", "lauren"),
        "captain": ("lauren", "stephen"),
        "mate": ("lauren", "stephen"),
    }
    chars = {cid: CharacterPosition(friend=f, enemy=e) for cid, (f, e) in rel.items()}
    chars["mate"].hidden = ["jewels", "jewels", "jewels", "cash", "cash", "cash"]
    pos = Position(
        seed=3,
        phase="navigation",
        birds=3,
        seats=["lauren", "stephen", "captain", "mate"],
        navigation_table=[28, 25],
        characters=chars,
    )
    state, _ = from_position(pos)
    mate = 3
    view = RULES.view(state, mate)
    assert set(view.choices) == {C.Choose(25), C.Choose(28)}
    ended = clone(state)
    RULES.apply(ended, mate, C.Choose(25))
    assert ended.scores is not None and max(ended.scores, key=ended.scores.__getitem__) == "mate"
    search = new_search(view, 200, Rng.from_seed(1))
    search.run()
    first, second = search.ranking()
    assert first.command == C.Choose(25)
    assert first.value == 1.0 and second.value < first.value
    assert first.visits >= 4 * second.visits
    bot = BotPlayer(load_source(HEADER + "on navigate:\n    else -> search 100\n"), seed=1)
    assert bot.decide(view, "navigate").command == C.Choose(25)


# --------------------------------------------------------------------------- shipped bots


def test_every_shipped_bot_states_its_idea_first() -> None:
    """Section 2 of issue 19: a bot file's first comment, right under its header, says its
    idea, so authors can learn from them."""
    for path in sorted(bots_dir().glob("*.bot")):
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("bot "), path
        assert lines[1].startswith("# Strategy: "), path
        assert len(lines[1]) > len("# Strategy: ") + 4, path


def test_admiral_checks_clean_and_searches() -> None:
    source = (bots_dir() / "admiral.bot").read_text(encoding="utf-8")
    assert check_source(source, "bots/admiral.bot") == []
    admiral = shipped_bot("admiral")
    assert "-> search" in textwrap.dedent(admiral.source)


# --------------------------------------------------------------------------- off the loop


def admiral_table(schedule: Any) -> Table:
    """Ann at the bow seat with five search bots (``search 40`` on every turn and pick)."""
    book = BotBook()
    book.local["thinker"] = load_source(SEARCH, "thinker.bot")
    seats = [SeatSpec("human", player="ann"), *[SeatSpec("bot", "thinker")] * 5]
    return Table("lifeboat", seats, seed=4, book=book, schedule=schedule)


def ann_moves(table: Table) -> bool:
    """Ann answers her own decision with its safe default; True if she had one."""
    view = table.view(0)
    if not view.choices or table.over:
        return False
    assert table.submit(0, table.rules.default(table.state, 0)).ok
    return True


async def test_a_thinking_bot_leaves_the_loop_free_and_plays_the_same_game() -> None:
    """On the server a search runs a few playouts per loop turn (runtime.table BOT_SLICE_SECONDS),
    so a table of five thinking bots never holds the loop for long: another session's turn
    comes after at most 50 ms of the loop's work (CPU time of its thread, so a busy machine does
    not count; a whole search takes far longer). The moves are those the same bots make at
    once, off any loop (same seeds, same game). The garbage collector runs as the server
    tunes it (no automatic full collections): a full one left by earlier tests is not a turn's
    work."""
    gc_threshold = gc.get_threshold()
    tune_gc()
    try:
        await _thinking_bots_leave_the_loop_free()
    finally:
        untune_gc(gc_threshold)


async def _thinking_bots_leave_the_loop_free() -> None:
    turns = LoopTurns()
    paced = admiral_table(turns)
    worst, searches, start = 0.0, 0, time.perf_counter()
    while len(paced.commands) < 60 and time.perf_counter() - start < 300:
        before = time.thread_time()  # the loop's own work, not time the machine gave others
        await asyncio.sleep(0)
        worst = max(worst, time.thread_time() - before)
        if not turns.ready and paced._bots_pending is None:
            assert ann_moves(paced), "nobody is thinking and ann has nothing to do"
    searches = sum(
        1 for b in paced.bots.values() for e in b.trace if e.search.startswith("search 40: 40 ")
    )
    assert len(paced.commands) >= 60
    assert searches >= 5, "the bots did think"
    assert worst < 0.05, f"the loop was held for {worst:.3f} s"
    at_once = admiral_table(None)
    while len(at_once.commands) < len(paced.commands):
        assert ann_moves(at_once)
    assert at_once.commands[: len(paced.commands)] == paced.commands


def test_sim_times_prints_each_scripts_decision_times(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--games", "2", "--seed", "3", "--bots", "random,survivor", "--times"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    at = lines.index("decision ms      p50      p90      p99      max")
    rows = [line.split() for line in lines[at + 1 : at + 3]]
    assert sorted(r[0] for r in rows) == ["random", "survivor"]
    for r in rows:
        p50, p90, p99, top = map(float, r[1:])
        assert 0 < p50 <= p90 <= p99 <= top
    assert main(["sim", "--games", "2", "--seed", "3", "--bots", "random,survivor"]) == 0
    assert "decision ms" not in capsys.readouterr().out

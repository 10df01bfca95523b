"""Spanish Main bot scripts: the shipped bots lint clean, decide sensibly and answer every
decision themselves; the hauler and the raider beat random play with seats rotating; games
between sensible bots end by SM-40, not the round limit; no script reads a coin value its seat
has not seen; every Spanish Main name is documented."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from paths import ROOT
from sm_helpers import known_to, scramble

from shipwreck.botseat import bot_move
from shipwreck.cli import main
from shipwreck.engine.core import Prompt
from shipwreck.games.spanish_main import RULES, rules
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.games.spanish_main.view import Answers, BotView, CoinView, SpanishMainView, sea
from shipwreck.lang.bots import BotPlayer, load_bot, load_source
from shipwreck.lang.bots import spanish_main_env as env
from shipwreck.lang.bots.lint import check_source
from shipwreck.lang.bots.script import Context
from shipwreck.resources import bots_dir
from shipwreck.sim import BotSummary, seat_bots, simulate_bots

SM_BOTS = sorted(bots_dir().glob("sm_*.bot"))


def test_shipped_sm_bots_lint_clean() -> None:
    assert len(SM_BOTS) == 3
    for p in SM_BOTS:
        assert check_source(p.read_text(encoding="utf-8"), str(p)) == [], p


def test_sm_names_documented() -> None:
    md = (ROOT / "docs" / "bots.md").read_text()
    missing = [n for n in env.NAME_HELP if f"`{n}`" not in md]
    missing += [a for a in env.ALL_ATTRS if f"`.{a}`" not in md]
    missing += [f for f in env.FUNCTIONS if f"`{f}(" not in md]
    missing += [d for d in env.DECISIONS if f"`on {d}:`" not in md]
    assert not missing


def test_lint_knows_the_game() -> None:
    src = 'bot "X" for spanish_main\non supply:\n    else -> end turn\n'
    (f,) = [f for f in check_source(src, "x.bot") if f.level == "error"]
    assert "spanish_main has no 'supply' decision" in f.message
    src = 'bot "X" for spanish_main\non turn:\n    when me.wounds > 0 -> end turn\n'
    assert any("unknown name 'me'" in f.message for f in check_source(src, "x.bot"))


def test_first_turn_decisions() -> None:
    state, _ = RULES.new_game(6, 2)  # (red goes first: SM-2 rolls it)
    view = RULES.view(state, 0)
    hauler = BotPlayer(load_bot("sm_hauler"), seed=1)
    d = hauler.decide(view, "turn")
    names = env.names_for(view, "turn")
    assert names["ship"] is not None and names["ship"].s.owner == 0
    assert d.command in view.choices and d.command.ship == names["ship"].s.id, d.entry
    assert isinstance(d.command, C.Move | C.MoveToward | C.MoveDock | C.ComeAbout)


def _ctx(view: SpanishMainView, decision: str = "turn") -> Context:
    return Context(env.names_for(view, decision), view, random.Random(0), 10**6)


def test_move_to_is_the_offered_move_that_ends_nearest() -> None:
    """``move SHIP to TARGET`` plays one of the ship's moves on offer, the one whose previewed
    end is nearest the target; ``reach`` says how near; a literal id works as well as a name."""
    state, _ = RULES.new_game(6, 2)  # (red goes first: SM-2 rolls it)
    view = RULES.view(state, 0)
    ctx = _ctx(view)
    ship = ctx.names["ship"]
    for target in [*ctx.names["islands"], *ctx.names["enemy_ships"]]:
        best, gap = env.best_move(ctx, ship, target)
        assert best in view.choices and best.ship == ship.s.id
        ends = []
        for c in view.choices:
            if isinstance(c, env._MOVES) and c.ship == ship.s.id:
                end = env._end(ctx, c)
                assert end is not None
                ends.append(env._gap(end[0], target))
        assert gap >= min(ends) - 1e-9 or gap == -1.0  # docking there beats any gap
        assert env.FUNCTIONS["reach"](ctx, ship, target) == max(0, round(gap))
    far = max(ctx.names["wild"], key=lambda i: env._distance(ship, i))
    src = f'bot "X" for spanish_main\non turn:\n    else -> move ship to {far.i.id}\n'
    d = BotPlayer(load_source(src)).decide(view, "turn")
    assert d.command == env.best_move(_ctx(view), ship, far)[0] and not d.entry.note


def test_move_to_docks_when_it_can() -> None:
    """Whenever a ship may dock at an island this turn (``move SHIP dock ISLAND`` is on offer),
    ``move SHIP to ISLAND`` docks her there (SM-14)."""
    docks = 0
    for players, state, p in _play(["sm_hauler", "sm_random"], 2, 600):
        if p is None or p.kind != "turn" or players[p.seat].name != "SM Hauler":
            continue
        view = RULES.view(state, p.seat)
        ctx = _ctx(view)
        for c in view.choices:
            if isinstance(c, C.MoveDock):
                ship = next(s for s in ctx.names["my_ships"] if s.s.id == c.ship)
                island = next(i for i in ctx.names["islands"] if i.i.id == c.island)
                best, gap = env.best_move(ctx, ship, island)
                end = env._end(ctx, best)
                assert gap == -1.0 and end is not None and end[1] == c.island, (c, best)
                docks += 1
    assert docks > 10


def _previewed_gap(ctx: Context, cmd: C.Command, target: Any) -> float | None:
    """What ``move SHIP to TARGET`` counts for ``cmd`` from its preview (as best_move does)."""
    end = env._end(ctx, cmd)
    if end is None:
        return None
    hull, touch, bow = end
    if touch is not None and touch == env._id(target) and isinstance(target, env.Island):
        return -1.0
    gap = env._gap(hull, target)
    if touch is not None and touch != env._id(target):
        trap = bow and (touch == env._EDGE_ID or touch in env._sea(ctx).ships)
        gap += env.TRAPPED if trap else env.AGROUND
    return gap + (env.STAY if isinstance(cmd, C.ComeAbout) else 0.0)


def test_move_to_leaves_out_only_moves_that_cannot_win() -> None:
    """``move SHIP to TARGET`` previews only the moves that may end nearest (its bounds are
    worked out without sailing the whole move): each bound is at most the gap the preview
    gives, and it picks exactly the move previewing every one would (nearest; the first in the
    offer's order on a tie), in positions from whole games, toward every island and ship."""
    checked = 0
    for players, state, p in _play(["sm_hauler", "sm_random"], 2, 700):
        if p is None or p.kind != "turn" or players[p.seat].name != "SM Hauler":
            continue
        view = RULES.view(state, p.seat)
        names = env.names_for(view, "turn")
        ship = names["ship"]
        if ship is None:
            continue
        for target in [*names["islands"], *(s for s in names["ships"] if s is not ship)]:
            best, gap = env.best_move(_ctx(view), ship, target)
            ctx = _ctx(view)
            moves = [c for c in view.choices if isinstance(c, env._MOVES) and c.ship == ship.s.id]
            gaps = [_previewed_gap(ctx, c, target) for c in moves]
            for c, g in zip(moves, gaps, strict=True):
                assert g is None or env._least_gap(ctx, c, target) <= g, c
            if not moves:
                assert best is None
                continue
            want = min(
                (g, k) for k, g in enumerate(gaps) if g is not None
            )  # (the first of the nearest)
            assert (best, gap) == (moves[want[1]], want[0]), (target, best, moves[want[1]])
            checked += 1
    assert checked > 50


def test_expressions_in_command_words() -> None:
    state, _ = RULES.new_game(6, 2)  # (red goes first: SM-2 rolls it)
    view = RULES.view(state, 0)
    src = (
        'bot "X" for spanish_main\non turn:\n'
        "    when true -> move ship toward (nearest(enemy_ships, ship))\n    else -> end turn\n"
    )
    d = BotPlayer(load_source(src)).decide(view, "turn")
    assert isinstance(d.command, C.MoveToward)
    assert d.command.target in {s.id for s in view.ships if s.owner == 1}
    src = 'bot "X" for spanish_main\non turn:\n    else -> move ship L (10 + 20) S\n'
    d = BotPlayer(load_source(src)).decide(view, "turn")
    assert isinstance(d.command, C.Move) and d.command.legs[0] == ("L", 30.0, None)


def test_lifeboat_view_gives_sm_script_the_default() -> None:
    from shipwreck.games.lifeboat import RULES as LB

    state, _ = LB.new_game(1, 6)
    d = BotPlayer(load_bot("sm_raider")).decide(LB.view(state, 0), "turn")
    assert d.command is None and "cannot read" in d.entry.note


def _versus(a: str, b: str, games: int, seed: int) -> BotSummary:
    """Two-seat games, seats rotating (sim.seat_bots): each script is red in every other game."""
    return simulate_bots("spanish_main", games, [a, b], seed=seed, seats=2)


def test_seats_rotate() -> None:
    assert [seat_bots(g, 2, 2) for g in range(3)] == [[0, 1], [1, 0], [0, 1]]
    assert [seat_bots(g, 6, 5)[0] for g in range(6)] == [0, 1, 2, 3, 4, 0]
    s = _versus("sm_random", "sm_random", 2, 1)
    assert [b.seat_games for b in s.standings] == [4]  # one script listed twice: one row
    assert sum(s.seat_wins) == 2


def test_hauler_beats_random() -> None:
    """Measured: 200 of 200 (`shipwreck sim --game spanish_main --games 200 --seed 1000 --bots
    sm_hauler,sm_random`), 6 of them at the round limit; here 12 of 12, each bot red in six."""
    s = _versus("sm_hauler", "sm_random", 12, 100)
    by = {b.bot: b for b in s.standings}
    assert by["sm_hauler"].seat_games == 12
    assert by["sm_hauler"].wins >= 11
    assert by["sm_hauler"].mean_score >= 12
    # sensible play ends the game by SM-40, not by the 40-round limit
    assert sum(n for why, n in s.ends.items() if "rounds have been played" in why) <= 2


def test_raider_beats_random() -> None:
    """Measured: 200 of 200 at seeds 1000-1199 (12 at the round limit); here 12 of 12."""
    s = _versus("sm_raider", "sm_random", 12, 200)
    by = {b.bot: b for b in s.standings}
    assert by["sm_raider"].wins >= 11
    assert sum(n for why, n in s.ends.items() if "rounds have been played" in why) <= 2


def _play(
    bots: list[str], games: int, seed: int
) -> Iterator[tuple[list[BotPlayer], SpanishMainState, Prompt | None]]:
    """Whole two-seat games between shipped bots, seats rotating: the players, the state and
    the prompt before each decision (the state is live: read it, do not change it), then the
    players and the final state with no prompt."""
    scripts = [load_bot(b) for b in bots]
    for g in range(games):
        order = seat_bots(g, 2, len(scripts))
        players = [BotPlayer(scripts[order[i]], seed=g * 10 + i, trace=10_000) for i in range(2)]
        state, _ = RULES.new_game(seed + g, 2)
        while not state.over:
            (p,) = RULES.prompts(state)
            yield players, state, p
            bot_move(RULES, state, p.seat, p.kind, players[p.seat])
        yield players, state, None


def test_shipped_bots_answer_every_decision_themselves() -> None:
    """The hauler and the raider have a handler for every Spanish Main decision, and in whole
    games against each other and random play no decision of theirs falls back to the safe
    default (no handler, no rule, a failing guard, a refused command)."""
    for name in ("sm_hauler", "sm_raider", "sm_random"):
        assert set(load_bot(name).handlers) == set(env.DECISIONS), name
    seen: dict[str, set[str]] = {}
    for players, _, p in [
        *_play(["sm_hauler", "sm_raider"], 6, 300),
        *_play(["sm_raider", "sm_random"], 4, 400),
    ]:
        for bp in players if p is None else ():
            if bp.name == "SM Random":
                continue
            for e in bp.trace:
                assert not e.note and e.rule is not None and e.command, (bp.name, e)
                seen.setdefault(bp.name, set()).add(e.decision)
    assert seen["SM Hauler"] >= {"turn", "load", "eliminate"}
    assert seen["SM Raider"] >= {"turn", "load", "eliminate", "after_move", "board"}


def _values(x: Any, depth: int = 0) -> Iterator[CoinView]:
    """Every coin reachable from a name a script can read (ships' cargo, islands' treasure)."""
    if isinstance(x, CoinView):
        yield x
    elif isinstance(x, list) and depth < 2:
        for y in x:
            yield from _values(y, depth + 1)
    elif isinstance(x, env.Ship | env.Island):
        for attr in ("cargo", "treasure"):
            if attr in env.ATTRS[type(x)]:
                yield from _values(env.ATTRS[type(x)][attr](x), depth + 1)


def test_scripts_see_no_hidden_coin_value() -> None:
    """Rules §6: every coin a script can reach through its names has a value only if its seat
    has seen it; the sea ``move SHIP to`` plans in holds no coin at all; and redrawing every
    value the seat has not seen changes no decision of the shipped bots."""
    rng = random.Random(7)
    checked = 0
    for _, state, p in _play(["sm_raider", "sm_hauler"], 2, 11):
        if p is None:
            continue
        view = RULES.view(state, p.seat)
        known = known_to(state, p.seat)
        names = env.names_for(view, p.kind)
        for coin in (c for v in names.values() for c in _values(v)):
            assert (coin.value is not None) == (coin.id in known), coin
        public = sea(view)
        assert not public.coins and not any(s.cargo for s in public.ships.values())
        assert not any(i.coins for i in public.islands.values())
        if rng.random() < 0.3:
            scrambled = scramble(state, known, rng)
            other = RULES.view(scrambled, p.seat)
            for bot in ("sm_hauler", "sm_raider"):
                a = BotPlayer(load_bot(bot), seed=3).decide(view, p.kind)
                b = BotPlayer(load_bot(bot), seed=3).decide(other, p.kind)
                assert a.command == b.command
                # a bot seat's view (its legal commands listed when asked) no more than that
                c = BotPlayer(load_bot(bot), seed=3).decide(
                    RULES.bot_view(scrambled, p.seat), p.kind
                )
                assert c.command == a.command
            checked += 1
    assert checked > 20


def test_a_bot_seat_decides_as_on_the_full_view() -> None:
    """A bot seat is given the lighter :func:`~shipwreck.games.spanish_main.view.bot_view` (its
    legal commands listed ship by ship as the script asks): every decision of the shipped bots
    in whole games, side actions included, is the one the seat's full view gives, rule, command
    and note alike."""
    scripts = [load_bot(b) for b in ("sm_hauler", "sm_raider", "sm_random")]
    checked = 0
    games = itertools.chain(_play(["sm_hauler", "sm_raider"], 2, 60), _play(["sm_random"], 1, 70))
    for _, state, p in games:  # (one at a time: the state is live)
        if p is None:
            continue
        for script in scripts:
            a = BotPlayer(script, seed=3).decide(RULES.view(state, p.seat), p.kind)
            b = BotPlayer(script, seed=3).decide(RULES.bot_view(state, p.seat), p.kind)
            assert (a.command, a.entry, a.side) == (b.command, b.entry, b.side), script.name
            checked += 1
    assert checked > 300


class _AskedActs:
    """A seat's answers that note each ship asked about with ``acts`` (the view and the bot
    environment are compiled: their calls to the rules cannot be patched)."""

    def __init__(self, answers: Answers, asked: list[str]) -> None:
        self.answers, self.asked = answers, asked

    def choices(self) -> tuple[C.Command, ...]:
        return self.answers.choices()

    def free(self) -> tuple[C.Command, ...]:
        return self.answers.free()

    def of(self, ship: str, only: rules.Kinds | None = None) -> tuple[C.Command, ...]:
        return self.answers.of(ship, only)

    def acts(self, ship: str) -> bool:
        self.asked.append(ship)
        return self.answers.acts(ship)


def test_ready_is_worked_out_only_for_a_script_that_reads_it() -> None:
    """``ready`` (my ships that can still act) asks whether each of them has a command at all,
    her sampled moves too: on a bot seat's view it is worked out when a script reads it, and
    then it is what the full view gives."""
    state, _ = RULES.new_game(6, 2)
    seat = state.turn
    asked: list[str] = []
    bv = RULES.bot_view(state, seat)
    names = env.names_for(BotView(bv.view, _AskedActs(bv.answers, asked)), "turn")
    before = len(asked)
    assert before <= 1  # (the ship the decision is about)
    ready = names["ready"]
    mine = [s for s in state.ships.values() if s.owner == seat]
    assert asked[before:] == [s.id for s in mine] and len(mine) > 1
    full = env.names_for(RULES.view(state, seat), "turn")["ready"]
    assert [s.s.id for s in ready] == [s.s.id for s in full] == [s.id for s in mine]


def test_sim_cli_spanish_main_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """``shipwreck sim --game spanish_main --bots …`` plays the games and says, per bot, its
    seat-games and wins (the games' wins, shared on a tie), and why each game ended."""
    args = ["sim", "--game", "spanish_main", "--games", "2", "--bots", "sm_raider,sm_hauler"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "games: 2" in lines
    rows = {w[0]: w for line in lines if (w := line.split()) and w[0] in ("sm_raider", "sm_hauler")}
    assert set(rows) == {"sm_raider", "sm_hauler"}, lines
    assert [rows[b][1] for b in rows] == ["2", "2"], lines  # each bot sat in both games
    assert sum(float(r[2]) for r in rows.values()) == 2.0, lines
    ended = [int(line.split()[1].rstrip(":")) for line in lines if line.startswith("ended ")]
    assert sum(ended) == 2, lines
    assert re.fullmatch(r"games=2 seconds=\d+\.\d+ games_per_s=\d+\.\d", lines[-1]), lines


def test_sm40_raiders_that_cannot_get_nearer_do_not_come_about_until_the_cap() -> None:
    """SM-40: raider against raider from seed 66 used to run to the 1000-round safety cap. A
    laden raider docked beside a laden enemy she could get no nearer to came about on the spot
    turn after turn (coming about was her "best move" to it), while the enemy's ships, boxed in
    by a laden derelict with no legal move, ended their turns. Now a chase that gets her no
    nearer (``reach`` not below ``distance``) is no chase, and a raider takes a laden derelict
    she lies against in tow (``tows`` in ``turn``: her own tows where she lies). Measured: 80
    raider-vs-raider games from seed 1, none at the cap (1 of 80 before; ``shipwreck sim --game
    spanish_main --games 80 --bots sm_raider,sm_raider``)."""
    raider = str(bots_dir() / "sm_raider.bot")
    s = simulate_bots("spanish_main", 1, [raider, raider], seed=66, seats=2)
    assert sum(s.ends.values()) == 1
    assert not [why for why in s.ends if "rounds have been played" in why], s.ends

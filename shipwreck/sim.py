"""Headless games: random legal players, for ``shipwreck sim``, tests and benchmarks."""

from __future__ import annotations

import random
import time
from collections import Counter

import msgspec

from shipwreck.batch_gc import batch_gc
from shipwreck.botseat import bot_move
from shipwreck.games import AnyRuleset, get_ruleset, registry
from shipwreck.lang.bots import BotPlayer, BotScript
from shipwreck.lang.bots.checked import load_named


def default_seats(game: str) -> int:
    """The number of seats a simulated game of ``game`` has by default (the registry's: a full
    boat; Spanish Main's two-player sea, SM-1)."""
    return registry.get(game).default_seats


def check_seats(game: str, seats: int) -> None:
    """ValueError unless ``game`` is played by ``seats`` seats."""
    rules = get_ruleset(game)
    lo, hi = int(rules.min_seats), int(rules.max_seats)
    if not lo <= seats <= hi:
        raise ValueError(f"{game} is played by {lo} to {hi} seats, not {seats}")


def _winners(rules: AnyRuleset, state: object, by_name: dict[str, int]) -> list[str]:
    """The game's own winners when it names them (Spanish Main breaks ties, SM-41), else the
    best scores."""
    named = rules.summary(state).get("winners")
    if isinstance(named, list) and named:
        return [str(w) for w in named]
    best = max(by_name.values())
    return [k for k, v in by_name.items() if v == best]


class GameResult(msgspec.Struct):
    seed: int
    rounds: int
    commands: int
    scores: dict[str, int]
    winners: list[str]
    end_reason: str = ""
    """Why the game ended, when the game says (Spanish Main: SM-40 or the round limit)."""


def play_random(
    game: str, seed: int, seats: int | None = None, max_commands: int = 100_000
) -> GameResult:
    """One whole game where every decision is a uniformly random legal answer.

    The engine's chance comes from ``seed`` through the state's RNG; the players' choices come
    from a separate ``random.Random(seed)``, so the game is reproducible from the seed alone.
    """
    rules = get_ruleset(game)
    state, _ = rules.new_game(seed, seats or default_seats(game))
    pick = random.Random(seed)
    apply = getattr(rules, "apply_quiet", rules.apply)  # nobody reads the events here
    # Bound once, not looked up at each of a game's ~160 commands: with a compiled engine
    # (hatch_build.py) this loop is much of what is left in Python.
    is_over, prompts, choices, choice = rules.is_over, rules.prompts, rules.choices, pick.choice
    n = 0
    while not is_over(state):
        waiting = [p.seat for p in prompts(state) if p.blocking]
        if not waiting:
            raise RuntimeError(f"game {seed} stalled: nobody is prompted")
        seat = waiting[0] if len(waiting) == 1 else choice(waiting)
        options = choices(state, seat)
        apply(state, seat, options[0] if len(options) == 1 else choice(options))
        n += 1
        if n > max_commands:
            raise RuntimeError(f"game {seed} did not end within {max_commands} commands")
    by_name = {rules.seat_name(state, s): v for s, v in rules.scores(state).items()}
    return GameResult(
        seed=seed,
        rounds=state.round,
        commands=n,
        scores=by_name,
        winners=_winners(rules, state, by_name),
    )


def play_bots(
    game: str,
    seed: int,
    bots: list[BotPlayer],
    seats: int = 6,
    max_commands: int = 100_000,
    times: list[list[float]] | None = None,
    options: dict[str, object] | None = None,
) -> tuple[GameResult, dict[int, str]]:
    """One whole game with a scripted bot in every seat (``bots[i]`` plays seat ``i``).

    Returns the result and the seat -> character map, so wins can be credited to scripts.
    With ``times`` (one list per seat), each decision's seconds are added to its seat's list.
    """
    rules = get_ruleset(game)
    state, _ = rules.new_game(seed, seats, options) if options else rules.new_game(seed, seats)
    n = 0
    while not rules.is_over(state):
        prompts = rules.prompts(state)
        blocking = [p for p in prompts if p.blocking]
        if not blocking:
            raise RuntimeError(f"game {seed} stalled: nobody is prompted")
        p = blocking[0]  # several at once (a fight): bow first; each answers in turn
        if times is None:
            bot_move(rules, state, p.seat, p.kind, bots[p.seat])
        else:
            t0 = time.perf_counter()
            bot_move(rules, state, p.seat, p.kind, bots[p.seat])
            times[p.seat].append(time.perf_counter() - t0)
        n += 1
        if n > max_commands:
            raise RuntimeError(f"game {seed} did not end within {max_commands} commands")
    by_name = {rules.seat_name(state, s): v for s, v in rules.scores(state).items()}
    result = GameResult(
        seed=seed,
        rounds=state.round,
        commands=n,
        scores=by_name,
        winners=_winners(rules, state, by_name),
        end_reason=str(rules.summary(state).get("end_reason", "")),
    )
    return result, {s: rules.seat_name(state, s) for s in range(seats)}


def play_seated(
    game: str,
    seed: int,
    scripts: list[BotScript],
    order: list[int],
    trace: int = 500,
    times: list[list[float]] | None = None,
    options: dict[str, object] | None = None,
) -> tuple[GameResult, dict[int, str], list[BotPlayer]]:
    """:func:`play_bots` with ``scripts[order[s]]`` at seat ``s``, each seat with its own dice
    (seeded from the game's seed and the seat), so ``sim --bots`` and ``arena`` play the same
    games for the same seed. Returns the players too, for their traces (``trace`` entries each).
    ``times``, ``options`` (the table's, e.g. Spanish Main's ``fleets``): as for
    :func:`play_bots`.
    """
    players = [
        BotPlayer(scripts[k], seed=seed * 1000 + s, trace=trace) for s, k in enumerate(order)
    ]
    result, chars = play_bots(game, seed, players, len(order), times=times, options=options)
    return result, chars, players


class BotStanding(msgspec.Struct):
    bot: str
    seat_games: int
    wins: float
    win_rate: float
    mean_score: float


class BotSummary(msgspec.Struct):
    games: int
    seconds: float
    standings: list[BotStanding]
    seat_wins: list[float] = msgspec.field(default_factory=list)
    """Wins per seat, first seat first, whoever sat there (a shared win counts as a fraction)."""
    ends: dict[str, int] = msgspec.field(default_factory=dict)
    """How many games ended for each reason the game gives (none for Lifeboat)."""
    decision_ms: dict[str, list[float]] = msgspec.field(default_factory=dict)
    """Per script: its decisions' time in milliseconds at the 50th, 90th, 99th percentile and
    the longest (``sim --times``; a search bot's thinking shows here)."""


def seat_bots(game: int, seats: int, scripts: int) -> list[int]:
    """Which script plays each seat in game ``game``: the scripts rotate one seat a game, so
    each takes every seat in turn (with two scripts and two seats, they alternate)."""
    return [(s + game) % scripts for s in range(seats)]


def load_scripts(game: str, bot_files: list[str]) -> tuple[list[BotScript], list[str]]:
    """The scripts ``sim --bots`` names (shipped names or files), each refused as ``shipwreck
    bot check`` refuses it, and their labels: the names in their headers, as the summary lists
    them (:func:`~shipwreck.lang.bots.checked.load_named`: two different scripts with one name
    are refused, never merged)."""
    scripts = load_named(game, bot_files)
    return scripts, [s.bot_name for s in scripts]


def simulate_bots(
    game: str,
    games: int,
    bot_files: list[str],
    seed: int = 1,
    seats: int = 6,
    timed: bool = False,
    options: dict[str, object] | None = None,
) -> BotSummary:
    """``games`` games from seeds ``seed``, ``seed + 1``, …; in game g seat s runs
    ``bot_files[(s + g) % len(bot_files)]`` (:func:`seat_bots`), so no script keeps the first
    seat. Win rates per script, wins per seat, and why the games ended; with ``timed``, each
    script's decision times (a clock read per decision, so off by default)."""
    scripts, labels = load_scripts(game, bot_files)
    wins: dict[str, float] = dict.fromkeys(labels, 0.0)
    score: dict[str, float] = dict.fromkeys(labels, 0.0)
    played: dict[str, int] = dict.fromkeys(labels, 0)
    seat_wins = [0.0] * seats
    ends: Counter[str] = Counter()
    spent: dict[str, list[float]] = {label: [] for label in labels}
    start = time.perf_counter()
    with batch_gc():
        for g in range(games):
            order = seat_bots(g, seats, len(scripts))
            times: list[list[float]] | None = [[] for _ in range(seats)] if timed else None
            result, chars, _ = play_seated(
                game, seed + g, scripts, order, times=times, options=options
            )
            for s in range(seats):
                spent[labels[order[s]]].extend(times[s] if times else ())
            if result.end_reason:
                ends[result.end_reason] += 1
            for s in range(seats):
                label, char = labels[order[s]], chars[s]
                played[label] += 1
                score[label] += result.scores[char]
                if char in result.winners:
                    wins[label] += 1 / len(result.winners)
                    seat_wins[s] += 1 / len(result.winners)
    seconds = time.perf_counter() - start
    standings = [
        BotStanding(
            bot=label,
            seat_games=played[label],
            wins=round(wins[label], 2),
            win_rate=wins[label] / played[label] if played[label] else 0.0,
            mean_score=score[label] / played[label] if played[label] else 0.0,
        )
        for label in dict.fromkeys(labels)  # a script listed twice is one row
    ]
    standings.sort(key=lambda s: -s.win_rate)
    return BotSummary(
        games,
        seconds,
        standings,
        seat_wins=[round(w, 2) for w in seat_wins],
        ends=dict(ends.most_common()),
        decision_ms=(
            {label: percentiles(spent[label]) for label in dict.fromkeys(labels)} if timed else {}
        ),
    )


def percentiles(seconds: list[float]) -> list[float]:
    """50th, 90th, 99th percentile and the longest, in milliseconds (nearest rank)."""
    if not seconds:
        return [0.0, 0.0, 0.0, 0.0]
    xs = sorted(seconds)
    n = len(xs)
    ranks = [xs[min(n - 1, max(0, -(-q * n // 100) - 1))] for q in (50, 90, 99)]
    return [round(1000 * x, 2) for x in (*ranks, xs[-1])]


def format_bot_summary(s: BotSummary, times: bool = False) -> list[str]:
    """The standings table; with ``times``, each script's decision times too."""
    rate = s.games / s.seconds if s.seconds else float("inf")
    lines = [f"games: {s.games}", "bot            seat-games   wins  win-rate  mean-score"]
    for b in s.standings:
        row = f"{b.bot:<14} {b.seat_games:>10} {b.wins:>6.1f} {b.win_rate:>8.1%}"
        lines.append(f"{row} {b.mean_score:>11.2f}")
    if s.seat_wins:
        lines.append("wins by seat (first seat first): " + " ".join(f"{w:g}" for w in s.seat_wins))
    for why, n in s.ends.items():
        lines.append(f"ended {n:>5}: {why}")
    if times:
        lines.append("decision ms      p50      p90      p99      max")
        for bot, (p50, p90, p99, top) in s.decision_ms.items():
            lines.append(f"{bot:<14} {p50:>8.2f} {p90:>8.2f} {p99:>8.2f} {top:>8.2f}")
    lines.append(f"games={s.games} seconds={s.seconds:.3f} games_per_s={rate:.1f}")
    return lines


class SimSummary(msgspec.Struct):
    games: int
    seconds: float
    mean_rounds: float
    mean_commands: float
    wins: dict[str, float]
    """Wins per character (Lifeboat) or seat; a shared win counts as a fraction."""
    mean_score: dict[str, float]


def simulate(game: str, games: int, seed: int = 1, seats: int | None = None) -> SimSummary:
    """``games`` random games from seeds ``seed``, ``seed + 1``, ... (``seats``: by default
    :func:`default_seats`)."""
    seats = seats or default_seats(game)
    check_seats(game, seats)
    start = time.perf_counter()
    with batch_gc():
        results = [play_random(game, seed + i, seats) for i in range(games)]
    seconds = time.perf_counter() - start
    wins: dict[str, float] = {}
    totals: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for r in results:
        for w in r.winners:
            wins[w] = wins.get(w, 0.0) + 1 / len(r.winners)
        for k, v in r.scores.items():
            totals[k] += v
            played[k] += 1
    return SimSummary(
        games=games,
        seconds=seconds,
        mean_rounds=sum(r.rounds for r in results) / max(1, games),
        mean_commands=sum(r.commands for r in results) / max(1, games),
        wins={k: round(wins.get(k, 0.0), 2) for k in sorted(played)},
        mean_score={k: round(totals[k] / played[k], 2) for k in sorted(played)},
    )


def format_summary(s: SimSummary, game: str) -> list[str]:
    rate = s.games / s.seconds if s.seconds else float("inf")
    lines: list[str] = [
        f"game: {game}",
        f"games: {s.games}",
        f"mean rounds: {s.mean_rounds:.2f}",
        f"mean commands: {s.mean_commands:.1f}",
        f"{'character' if game == 'lifeboat' else 'seat':<11} played-wins  mean-score",
    ]
    for k in s.wins:
        lines.append(f"{k:<11} {s.wins[k]:>11.2f}  {s.mean_score[k]:>10.2f}")
    lines.append(f"games={s.games} seconds={s.seconds:.3f} games_per_s={rate:.1f}")
    return lines


def as_json(obj: object) -> str:
    return msgspec.json.encode(obj).decode()

"""The league table: each bot's rating (re-computed from the games, in game order), games,
wins, scores, wins by seat, and the default moves its traces show."""

from __future__ import annotations

import statistics
from collections import Counter

import msgspec

from shipwreck.arena.match import FAULTS
from shipwreck.arena.ratings import Rating, rate_game
from shipwreck.arena.tournament import Tournament


class BotRow(msgspec.Struct):
    bot: str
    rating: Rating
    games: int
    """Games it played (at one seat or more)."""
    seat_games: int
    wins: float
    """Seat-games won; a win shared by k seats counts 1/k each."""
    mean_score: float
    score_spread: float
    """The standard deviation of its seats' scores."""
    seat_win_rate: list[float | None]
    """Win rate at each seat, seat 1 first (``None``: it never sat there)."""
    faults: dict[str, int]
    decisions_faulted: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0


class League(msgspec.Struct):
    rows: list[BotRow]
    """Best first, by display rating (openskill's ordinal)."""
    history: dict[str, list[Rating]]
    """Each bot's rating after each game it played (its first game first)."""


def ratings_history(t: Tournament) -> dict[str, list[Rating]]:
    """Rate the games in order; each bot's rating after each of its games."""
    current: dict[str, Rating] = {}
    history: dict[str, list[Rating]] = {b.name: [] for b in t.bots}
    for r in t.games:
        new = rate_game(current, r.seats, r.scores, r.winners)
        current.update(new)
        for name, rating in new.items():
            history[name].append(rating)
    return history


def league(t: Tournament) -> League:
    history = ratings_history(t)
    rows = []
    for b in t.bots:
        scores: list[int] = []
        wins = 0.0
        games = 0
        seat_played = [0] * t.seats
        seat_won = [0.0] * t.seats
        faults: Counter[str] = Counter()
        for r in t.games:
            mine = [s for s, name in enumerate(r.seats) if name == b.name]
            if not mine:
                continue
            games += 1
            shared = sum(r.winners) or 1
            for s in mine:
                scores.append(r.scores[s])
                seat_played[s] += 1
                if r.winners[s]:
                    wins += 1 / shared
                    seat_won[s] += 1 / shared
                faults.update(r.faults[s])
        rows.append(
            BotRow(
                bot=b.name,
                rating=history[b.name][-1] if history[b.name] else Rating(),
                games=games,
                seat_games=len(scores),
                wins=wins,
                mean_score=statistics.fmean(scores) if scores else 0.0,
                score_spread=statistics.pstdev(scores) if scores else 0.0,
                seat_win_rate=[
                    w / n if n else None for w, n in zip(seat_won, seat_played, strict=True)
                ],
                faults={k: faults[k] for k in FAULTS if faults[k]},
                decisions_faulted=sum(faults.values()),
            )
        )
    rows.sort(key=lambda row: (-row.rating.ordinal, row.bot))
    return League(rows, history)


def format_league(t: Tournament, lg: League) -> list[str]:
    """The league table as plain lines (the same on a terminal and in a file)."""
    width = max([len(r.bot) for r in lg.rows] + [3])
    lines = [
        f"{t.game}: {len(t.games)} games of {t.seats} seats from seed {t.seed}",
        f"   {'bot':<{width}}  rating   μ ± σ         games  seats    wins  win%   mean  spread",
    ]
    for i, r in enumerate(lg.rows, 1):
        lines.append(
            f"{i:>2} {r.bot:<{width}} {r.rating.ordinal:>7.2f}  {r.rating.shown():<12}"
            f" {r.games:>6} {r.seat_games:>6} {r.wins:>7.1f} {r.win_rate:>5.1%}"
            f" {r.mean_score:>6.2f} {r.score_spread:>7.2f}"
        )
    lines.append("win rate by seat (seat 1 first):")
    for r in lg.rows:
        cells = " ".join("    -" if w is None else f"{w:>5.0%}" for w in r.seat_win_rate)
        lines.append(f"   {r.bot:<{width}} {cells}")
    lines.append("default moves (from the bots' traces):")
    for r in lg.rows:
        said = ", ".join(f"{k} {n}" for k, n in r.faults.items()) or "none"
        lines.append(f"   {r.bot:<{width}} {said}")
    return lines


def ahead_from(t: Tournament, better: str, worse: str, z: float = 1.96) -> int | None:
    """After how many games ``better``'s rating has been above ``worse``'s with confidence
    ``z`` (1.96: 95 %) ever since: their ``mu`` differ by more than ``z`` times the ``sigma``
    of the difference. ``None`` if it is not so after the last game."""
    current: dict[str, Rating] = {}
    since: int | None = None
    for n, r in enumerate(t.games, 1):
        current.update(rate_game(current, r.seats, r.scores, r.winners))
        a, b = current.get(better, Rating()), current.get(worse, Rating())
        ahead = a.mu - b.mu > z * (a.sigma**2 + b.sigma**2) ** 0.5
        if not ahead:
            since = None
        elif since is None:
            since = n
    return since

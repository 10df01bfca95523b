"""The engine's speed-ups change nothing a player can see: a recorded digest of many seeded
games' logs (every command, every event with its readers, the final state) must come out the
same, byte for byte, as it did before them.

The digest was recorded on e852bca (091193c, the commit before the speed-ups, with the LB-50 fix
that changes which seats the thirst step asks). A rule change that moves it must say so in its
commit, and record the new one here.
"""

from __future__ import annotations

import hashlib
import random

import msgspec

from shipwreck.engine.core import SYSTEM
from shipwreck.games.lifeboat import RULES
from shipwreck.games.lifeboat import commands as C

GAMES = 60
RECORDED = "d1882a32e4d36b574691edb7769c64ec9641a8fcc0b1a2be8242996eb91af413"
FREE_TYPES = (C.Offer, C.Accept, C.Decline, C.Give, C.Drop)


def game_log(seed: int, seats: int) -> bytes:
    """One random game through ``RULES.apply`` (the live tables' path), as JSON lines: the deal,
    then each command with the events it made; the final state last. Free actions and the
    table's timer are mixed in, so every handler speaks."""
    rng = random.Random(seed)
    state, events = RULES.new_game(seed, seats)
    enc = msgspec.json.encode
    out = [enc(events)]
    for _ in range(5000):
        if state.phase == "over":
            break
        if rng.random() < 0.08:
            seat = rng.randrange(seats)
            free = [c for c in RULES.legal(state, seat) if isinstance(c, FREE_TYPES)]
            if free:
                cmd: C.Command = rng.choice(free)
                out.append(enc([seat, cmd, RULES.apply(state, seat, cmd)]))
                continue
        prompt = rng.choice([p for p in RULES.prompts(state) if p.blocking])
        if rng.random() < 0.02:
            seat, cmd = SYSTEM, C.Timeout(state.players[prompt.seat])
        else:
            seat, cmd = prompt.seat, rng.choice(RULES.choices(state, prompt.seat))
        out.append(enc([seat, cmd, RULES.apply(state, seat, cmd)]))
    out.append(enc(state))
    return b"\n".join(out)


def digest(games: int = GAMES) -> str:
    h = hashlib.sha256()
    for i in range(games):
        h.update(game_log(1000 + i, 4 + i % 3))
    return h.hexdigest()


def test_engine_logs_match_the_recorded_digest() -> None:
    """Same seed + commands = byte-identical game logs before and after the speed-ups."""
    assert digest() == RECORDED


def test_quiet_apply_plays_the_same_game() -> None:
    """``apply_quiet`` (headless sim and search) takes the same commands, refuses the same ones
    with the same words, and leaves the same state as ``apply``, command by command; it makes
    no events."""
    from shipwreck.engine.core import IllegalCommand

    for i in range(30):
        seed, seats = 5000 + i, 4 + i % 3
        loud, _ = RULES.new_game(seed, seats)
        quiet, _ = RULES.new_game(seed, seats)
        rng = random.Random(seed)
        enc = msgspec.json.encode
        while loud.phase != "over":
            seat = rng.randrange(seats)
            options = RULES.legal(loud, seat) + RULES.legal(loud, (seat + 1) % seats)
            if not options or rng.random() < 0.7:
                prompt = rng.choice([p for p in RULES.prompts(loud) if p.blocking])
                seat, options = prompt.seat, RULES.choices(loud, prompt.seat)
            cmd = rng.choice(options)
            try:
                RULES.apply(loud, seat, cmd)
            except IllegalCommand as e:
                refused = str(e)
                try:
                    RULES.apply_quiet(quiet, seat, cmd)
                except IllegalCommand as q:
                    assert str(q) == refused
                else:
                    raise AssertionError(f"apply_quiet took {cmd!r}, apply refused it") from None
            else:
                assert RULES.apply_quiet(quiet, seat, cmd) is None
            assert enc(quiet) == enc(loud)

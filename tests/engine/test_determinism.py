"""A Lifeboat game is a pure function of (seed, seats, command log).

All chance comes from the SplitMix64 RNG inside the state (``shipwreck.engine.rng``), so the same
seed and the same commands must give byte-identical events and state, a saved (JSON) state must
carry on exactly like the live one, and a recorded ``(seat, command)`` log must replay from
``new_game(seed)``. Rule ids: LB-10 (seeded shuffles), LB-22 (the random hidden robbery).
"""

from __future__ import annotations

import random
import typing
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from shipwreck.engine.core import SYSTEM, Event
from shipwreck.games.lifeboat import RULES
from shipwreck.games.lifeboat import commands as C
from shipwreck.games.lifeboat.commands import Command
from shipwreck.games.lifeboat.state import LifeboatState

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
SEAT_COUNTS = st.sampled_from([4, 5, 6])
MAX_COMMANDS = 2000

Log = list[tuple[int, Command]]
"""A recorded game: who sent which command, in order."""

FREE_TYPES = (C.Offer, C.Accept, C.Decline, C.Give, C.Drop)


def encode(obj: Any) -> bytes:
    return msgspec.json.encode(obj)


def clone(state: LifeboatState) -> LifeboatState:
    return msgspec.json.decode(encode(state), type=LifeboatState)


def next_command(state: LifeboatState, rng: random.Random, free_p: float) -> tuple[int, Command]:
    """A random answer to a random blocking prompt, or now and then a random free action; once in
    a while the table's timer answers for someone instead (a ``timeout`` from the system seat)."""
    if rng.random() < free_p:
        seat = rng.randrange(len(state.players))
        free = [c for c in RULES.legal(state, seat) if isinstance(c, FREE_TYPES)]
        if free:
            return seat, rng.choice(free)
    prompt = rng.choice([p for p in RULES.prompts(state) if p.blocking])
    if rng.random() < 0.02:
        return SYSTEM, C.Timeout(state.players[prompt.seat])
    return prompt.seat, rng.choice(RULES.choices(state, prompt.seat))


def play(
    seed: int, seats: int, free_p: float = 0.08
) -> tuple[LifeboatState, list[Event], Log, list[bytes]]:
    """A random game: the final state, every event (the deal's included), the command log, and
    the state's JSON after each command."""
    rng = random.Random(seed)
    state, events = RULES.new_game(seed, seats)
    log: Log = []
    snapshots = [encode(state)]
    for _ in range(MAX_COMMANDS):
        if RULES.is_over(state):
            break
        seat, cmd = next_command(state, rng, free_p)
        events += RULES.apply(state, seat, cmd)
        log.append((seat, cmd))
        snapshots.append(encode(state))
    assert RULES.is_over(state), f"game {seed} did not end"
    return state, events, log, snapshots


def replay(seed: int, seats: int, log: Log) -> tuple[LifeboatState, list[Event], list[bytes]]:
    state, events = RULES.new_game(seed, seats)
    snapshots = [encode(state)]
    for seat, cmd in log:
        events += RULES.apply(state, seat, cmd)
        snapshots.append(encode(state))
    return state, events, snapshots


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, seats=SEAT_COUNTS)
def test_same_seed_same_commands_same_game(seed: int, seats: int) -> None:
    """LB-10, LB-22: playing the same seed with the same random player twice gives byte-identical
    event logs, states after every command, and final state."""
    s1, e1, log1, snaps1 = play(seed, seats)
    s2, e2, log2, snaps2 = play(seed, seats)
    assert log1 == log2
    assert encode(e1) == encode(e2)
    assert snaps1 == snaps2
    assert encode(s1) == encode(s2)


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, seats=SEAT_COUNTS)
def test_replaying_the_log_rebuilds_the_game(seed: int, seats: int) -> None:
    """LB-10, LB-22: a recorded (seat, command) log, saved as JSON and decoded with the tagged
    union ``Command``, replayed from new_game(seed) rebuilds every intermediate state, every event
    and the final state byte for byte (scores included, LB-61)."""
    state, events, log, snapshots = play(seed, seats)
    saved = encode(log)
    loaded = msgspec.json.decode(saved, type=Log)
    assert loaded == log
    state2, events2, snapshots2 = replay(seed, seats, loaded)
    assert snapshots2 == snapshots
    assert encode(events2) == encode(events)
    assert encode(state2) == encode(state)
    assert RULES.scores(state2) == RULES.scores(state)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, seats=SEAT_COUNTS, data=st.data())
def test_a_saved_state_carries_on_like_the_live_one(seed: int, seats: int, data: Any) -> None:
    """LB-10: the state's JSON is the whole game (RNG included, nothing kept elsewhere): restore
    it at any point and the rest of the log gives the same events and final state as the
    original. Also: a state survives JSON unchanged."""
    state, events, log, snapshots = play(seed, seats)
    cut = data.draw(st.integers(min_value=0, max_value=len(log)), label="cut")
    live, _ = RULES.new_game(seed, seats)
    for seat, cmd in log[:cut]:
        RULES.apply(live, seat, cmd)
    saved = clone(live)
    assert encode(saved) == encode(live) == snapshots[cut]
    for seat, cmd in log[cut:]:
        assert encode(RULES.apply(saved, seat, cmd)) == encode(RULES.apply(live, seat, cmd))
        assert encode(saved) == encode(live)
    assert encode(saved) == encode(state)


@settings(max_examples=50, deadline=None)
@given(seed=SEEDS, seats=SEAT_COUNTS)
def test_different_seeds_deal_differently(seed: int, seats: int) -> None:
    """LB-10: the seed is really used: the next seed deals a different game (characters, hands,
    friends and enemies, deck orders)."""
    a, _ = RULES.new_game(seed, seats)
    b, _ = RULES.new_game(seed + 1, seats)
    a.seed = b.seed = 0
    a.rng = b.rng
    assert encode(a) != encode(b)


@settings(max_examples=50, deadline=None)
@given(seed=SEEDS, seats=SEAT_COUNTS)
def test_commands_round_trip_through_json(seed: int, seats: int) -> None:
    """Every command a seat may send (everything legal() lists at every point of a random game,
    plus the commands legal() leaves out) survives msgspec JSON as the tagged union ``Command``:
    same type, equal value, and the JSON carries the ``cmd`` tag."""
    rng = random.Random(seed)
    state, _ = RULES.new_game(seed, seats)
    extra: list[Command] = [
        C.Say("ahoy"),
        C.Timeout("kid"),
        C.Accept(),
        C.Decline(),
        C.Keep(()),
        C.Keep((19, 42)),
        C.Rob("mate", "painting:3"),
        C.Use("medkit"),
        C.Use("umbrella", "lauren"),
        C.Offer("water", "kid", "painting"),
    ]
    seen: set[Command] = set()
    for cmd in extra:
        check_round_trip(cmd)
    while not RULES.is_over(state):
        for seat in range(seats):
            for cmd in RULES.legal(state, seat):
                if cmd not in seen:  # commands are frozen, hence hashable
                    seen.add(cmd)
                    check_round_trip(cmd)
        seat, cmd = next_command(state, rng, 0.08)
        RULES.apply(state, seat, cmd)
    tags = [tag(t) for t in typing.get_args(Command)]
    assert len(tags) == len(set(tags)), "two commands share a tag"


def tag(cls: type) -> str:
    config = cls.__struct_config__  # type: ignore[attr-defined]
    assert config.tag_field == "cmd"
    return typing.cast(str, config.tag)


def check_round_trip(cmd: Command) -> None:
    data = encode(cmd)
    back = msgspec.json.decode(data, type=Command)
    assert type(back) is type(cmd) and back == cmd, (cmd, data)
    assert msgspec.json.decode(data)["cmd"] == tag(type(cmd))


def test_every_command_type_round_trips() -> None:
    """Each member of the ``Command`` union, built with sample values, survives msgspec JSON."""
    samples = {
        "target": "kid",
        "source": "mate",
        "item": "water",
        "ask": "knife",
        "cards": (19, 20),
        "card": 33,
        "side": "defender",
        "text": "land ho",
    }
    for cls in typing.get_args(Command):
        kw = {f.name: samples[f.name] for f in msgspec.structs.fields(cls)}
        check_round_trip(cls(**kw))
        required = {f.name: samples[f.name] for f in msgspec.structs.fields(cls) if f.required}
        check_round_trip(cls(**required))

"""Scenario files: a fixed starting position plus a list of commands (docs/scenarios.md).

A scenario shows one rule in ten lines of TOML; ``shipwreck scenario run FILE`` plays it, and the
tests under ``tests/scenarios/`` check each one's ``[expect]`` table against the result. The
position's keys are the game's ``Position`` (``rules.position_type``): Lifeboat's seats and hands,
or Spanish Main's islands, ships and dice; a command line names its sender, a character
(``lauren: row``) or a seat (``red: move dover S 0 S 30``), or ``system`` for the timer.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import msgspec

from shipwreck.engine.core import SYSTEM, Event, IllegalCommand, visible
from shipwreck.games import get_ruleset, positions
from shipwreck.games.registry import default_game
from shipwreck.lang import CommandSyntaxError, parse_command, registry
from shipwreck.lang.commands import lower_ascii

_META_KEYS = ("game", "commands", "expect", "rule", "title", "xfail")


class ScenarioError(ValueError):
    """The file itself is wrong (not TOML, unknown keys, impossible position)."""


class Scenario(msgspec.Struct):
    game: str
    position: object
    commands: list[str]
    expect: dict[str, object]
    rule: str = ""
    title: str = ""
    xfail: str = ""
    """For tests: a known engine bug this scenario shows (the test must fail until fixed)."""


class Result(msgspec.Struct):
    state: object
    events: list[Event]
    summary: dict[str, object]
    error: str | None = None
    """The one-line reason the scenario stopped early (an illegal or unreadable command)."""
    failed_command: str | None = None


def load(path: str | Path) -> Scenario:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ScenarioError(f"{path}: {e}") from None
    return from_dict(data, str(path))


def from_dict(
    data: dict[str, object], where: str = "scenario", reachable_only: bool = True
) -> Scenario:
    """A scenario from its TOML table. A position no game can reach (two characters holding one
    friend card...) is refused, unless ``reachable_only`` is off: unit tests of the scoring sums
    set cards freely; a scenario file (:func:`load`) never may."""
    game = str(data.get("game", default_game().name))
    try:
        rules = get_ruleset(game)
    except KeyError as e:
        raise ScenarioError(f"{where}: {e.args[0]}") from None
    fields = {k: v for k, v in data.items() if k not in _META_KEYS}
    try:
        position = msgspec.convert(fields, type=positions(rules).position_type)
        commands = msgspec.convert(data.get("commands", []), type=list[str])
        expect = msgspec.convert(data.get("expect", {}), type=dict[str, object])
    except msgspec.ValidationError as e:
        raise ScenarioError(f"{where}: {e}") from None
    check = getattr(rules, "check_position", None)  # positions no game reaches (issue 19)
    if check is not None and reachable_only:
        try:
            check(position)
        except ValueError as e:
            raise ScenarioError(f"{where}: {e}") from None
    return Scenario(
        game,
        position,
        commands,
        expect,
        str(data.get("rule", "")),
        str(data.get("title", "")),
        str(data.get("xfail", "")),
    )


def run(scenario: Scenario) -> Result:
    """Play the scenario's commands from its position; stop at the first refused command."""
    rules = get_ruleset(scenario.game)
    lang = registry.get(scenario.game)
    try:
        state, events = positions(rules).from_position(scenario.position)
    except ValueError as e:
        raise ScenarioError(str(e)) from None
    for line in scenario.commands:
        who, sep, text = line.partition(":")
        who = lower_ascii(who.strip())  # 'LAUREN: REST' is 'lauren: rest'; names are lower case
        try:
            if not sep:
                raise IllegalCommand(f"write {lang.scenario_form} (got {line!r})")
            if who == "system":
                seat = SYSTEM
            else:
                try:
                    seat = rules.seat_of(state, who)
                except ValueError:
                    raise IllegalCommand(f"{who!r} is not at this table") from None
            # The public view names the ships and islands in play (Spanish Main's ids).
            view = rules.view(state, None) if lang.scenario_view else None
            cmd = parse_command(scenario.game, text, view)
            events += rules.apply(state, seat, cmd)
        except (IllegalCommand, CommandSyntaxError) as e:
            return Result(state, events, rules.summary(state), f"{who}: {e}", line)
    return Result(state, events, rules.summary(state))


def seat_number(scenario: Scenario, result: Result, which: str) -> int:
    """The seat ``--as`` names: a number (0 = the first seat) or a seat's name (a character,
    a colour). ScenarioError, naming the seats, for anything else."""
    rules = get_ruleset(scenario.game)
    names: list[str] = []
    for s in range(int(rules.max_seats)):
        try:
            names.append(str(rules.seat_name(result.state, s)))
        except (IndexError, KeyError):
            break
    word = which.strip()
    if word.isdigit() and int(word) < len(names):
        return int(word)
    if word.lower() in names:
        return names.index(word.lower())
    listed = ", ".join(f"{i} {n}" for i, n in enumerate(names))
    raise ScenarioError(f"--as {which}: no such seat here; the seats are {listed}")


def log_lines(result: Result, seat: int | None = None) -> list[str]:
    """The log one seat may read (``None``: the public log)."""
    return [e.text for e in visible(result.events, seat)]


def check(result: Result, expect: dict[str, object]) -> list[str]:
    """Compare ``[expect]`` with the result: every key given must match; returns the mismatches.

    Keys are paths into the ``--json`` summary (``birds``, ``characters.kid.wounds``), plus
    ``error`` (a substring of the refusal) and ``log`` (lines that must appear in the public log).
    """
    problems: list[str] = []
    for key, want in expect.items():
        if key == "error":
            if result.error is None or str(want) not in result.error:
                problems.append(
                    f"error: expected a refusal containing {want!r}, got {result.error!r}"
                )
            continue
        if key == "log":
            lines = log_lines(result)
            for w in map(str, want if isinstance(want, list) else [want]):
                if not any(w in line for line in lines):
                    problems.append(f"log: no line contains {w!r}")
            continue
        got: object = result.summary
        for part in key.split("."):
            got = got.get(part) if isinstance(got, dict) else None
        if (
            isinstance(want, list)
            and isinstance(got, list)
            and key.endswith(("hidden", "revealed"))
        ):
            ok = sorted(map(str, want)) == sorted(map(str, got))
        else:
            ok = got == want
        if not ok:
            problems.append(f"{key}: expected {want!r}, got {got!r}")
    if "error" not in expect and result.error is not None:
        problems.append(f"stopped early at {result.failed_command!r}: {result.error}")
    return problems

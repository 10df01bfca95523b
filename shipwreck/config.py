"""The server's settings: ``server.toml`` (documented there), overridden by command-line flags."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

import msgspec

from shipwreck.games.registry import default_timers
from shipwreck.lang.bots.registry import is_shipped, shipped_names
from shipwreck.store.sql import is_database_url


class ServerSection(msgspec.Struct, forbid_unknown_fields=True):
    listen: str = "127.0.0.1"
    port: int = 2222
    host_key: str = "shipwreck_host_key"
    database: str = "shipwreck.db"
    log_file: str = ""
    public_host: str = ""
    """The host name players type (``ssh NAME@HOST``), for the commands a refusal shows;
    "" shows the address the client reached."""


class LimitsSection(msgspec.Struct, forbid_unknown_fields=True):
    sessions_per_key: int = 3
    sessions_per_address: int = 10
    line_length: int = 500
    commands_per_second: int = 10
    bot_script_bytes: int = 65536
    write_buffer_bytes: int = 1048576
    keys_per_turn: int = 32
    paste_length: int = 65536
    keys_per_second: int = 60
    key_burst: int = 500
    full_gc_seconds: int = 600
    full_gc_after_ended: int = 20
    full_gc_min_seconds: int = 60
    exec_per_minute: int = 30
    exec_burst: int = 10
    exec_input_seconds: int = 30
    lint_workers: int = 2
    lint_queue: int = 8
    bots_per_player: int = 20
    open_tables_per_player: int = 5
    new_tables_per_minute: int = 6
    finished_table_seconds: int = 600


class BotsSection(msgspec.Struct, forbid_unknown_fields=True):
    default: str = "random"
    bot_moves_per_turn: int = 4
    unattended_move_seconds: float = 0.3


class TablesSection(msgspec.Struct, forbid_unknown_fields=True):
    solo_timers: bool = False
    autopilot_after: int = 3
    auto_start_seconds: int = 0


class ClusterSection(msgspec.Struct, forbid_unknown_fields=True):
    """Several worker processes (or machines) serving one lobby: see docs/deploy.md."""

    bus: str = ""
    """A NATS server's URL (``nats://127.0.0.1:4222``); "" = one process, no bus."""
    worker: str = ""
    """This process's name among the workers ("" = the host name and process id)."""
    lease_seconds: float = 1.0
    """How long a dead worker's tables wait before another takes them over."""
    heartbeat_seconds: float = 0.5
    """How often a worker tells the others its tables (the lobby's list)."""


class LadderSection(msgspec.Struct, forbid_unknown_fields=True):
    """Background ladder games for players' saved bots (server/ladder_games.py)."""

    games_per_minute: float = 2.0
    """At most this many background games a minute, server-wide; 0 turns them off."""
    workers: int = 1
    """Games at once, each in a worker process at the lowest CPU priority."""
    games_per_owner_per_hour: int = 30
    games_per_bot: int = 100
    """A saved script stops playing once it has this many games (saving it again restarts)."""
    opponents: list[str] = msgspec.field(
        default_factory=lambda: [
            "random",
            "survivor",
            "loyal",
            "predator",
            "hoarder",
            "sm_random",
            "sm_hauler",
            "sm_raider",
        ]
    )
    """The shipped bots a saved bot meets (those of its game); the searching ``admiral`` is left
    out by default: one of its games costs as much as a hundred of the others'."""


class Config(msgspec.Struct, forbid_unknown_fields=True):
    server: ServerSection = msgspec.field(default_factory=ServerSection)
    limits: LimitsSection = msgspec.field(default_factory=LimitsSection)
    bots: BotsSection = msgspec.field(default_factory=BotsSection)
    timers: dict[str, int] = msgspec.field(default_factory=dict)
    """Seconds per kind of decision, over each game's own defaults (``decision_timers``)."""
    tables: TablesSection = msgspec.field(default_factory=TablesSection)
    cluster: ClusterSection = msgspec.field(default_factory=ClusterSection)
    ladder: LadderSection = msgspec.field(default_factory=LadderSection)


class ConfigError(ValueError):
    pass


def decision_timers(config: Config) -> dict[str, int]:
    """Seconds for each kind of decision at a timed table: every game's own defaults (each
    game registers one for every kind it asks), with ``[timers]`` over them."""
    return {**default_timers(), **config.timers}


RETIRED = {"server": ("allow_guests",)}
"""Settings older ``server.toml`` files have that no longer mean anything: accepted, with a
warning, so an upgrade does not stop a server from starting."""


def load_config(path: str | Path | None, warn: Callable[[str], None] | None = None) -> Config:
    """Read a config file (a missing default ``server.toml`` means the documented defaults).
    Paths in it are kept as written (see `load_server_config`)."""
    if path is None:
        return Config()
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such config file") from None
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{p}: {e}") from None
    for section, names in RETIRED.items():
        table = data.get(section)
        for name in names:
            if isinstance(table, dict) and table.pop(name, None) is not None and warn:
                warn(f"{p}: [{section}] {name} is no longer used; remove it")
    try:
        return msgspec.convert(data, type=Config)
    except msgspec.ValidationError as e:
        raise ConfigError(f"{p}: {e}") from None


def load_server_config(
    path: str | Path | None, warn: Callable[[str], None] | None = None
) -> Config:
    """`load_config` for ``shipwreck serve``: the file's ``host_key``, ``database`` and
    ``log_file`` are relative to the file's folder, so the server finds the same key and
    database from any working directory."""
    config = load_config(path, warn)
    if not is_shipped(config.bots.default):  # a name, never a path (like every bot here)
        raise ConfigError(
            f"{path}: [bots] default = {config.bots.default!r} is not a shipped bot; "
            f"use one of {', '.join(shipped_names())}"
        )
    for name in config.ladder.opponents:
        if not is_shipped(name):
            raise ConfigError(
                f"{path}: [ladder] opponents: {name!r} is not a shipped bot; "
                f"use some of {', '.join(shipped_names())}"
            )
    known = default_timers()
    for kind, seconds in config.timers.items():
        if kind not in known:
            raise ConfigError(
                f"{path}: [timers] {kind} is no kind of decision; use some of {', '.join(known)}"
            )
        if seconds < 0:
            raise ConfigError(f"{path}: [timers] {kind} = {seconds}; use 0 (no timer) or more")
    if path is not None:
        base = Path(path).parent
        s = config.server
        s.host_key = str(base / s.host_key)
        keep = s.database == ":memory:" or is_database_url(s.database)
        s.database = s.database if keep else str(base / s.database)
        s.log_file = str(base / s.log_file) if s.log_file else ""
    return config

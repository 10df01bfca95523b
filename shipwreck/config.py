"""The server's settings: ``server.toml`` (documented there), overridden by command-line flags."""

from __future__ import annotations

import tomllib
from pathlib import Path

import msgspec


class ServerSection(msgspec.Struct, forbid_unknown_fields=True):
    listen: str = "127.0.0.1"
    port: int = 2222
    host_key: str = "shipwreck_host_key"
    database: str = "shipwreck.db"
    log_file: str = ""
    allow_guests: bool = True


class LimitsSection(msgspec.Struct, forbid_unknown_fields=True):
    sessions_per_key: int = 3
    sessions_per_address: int = 10
    line_length: int = 500
    commands_per_second: int = 10
    bot_script_bytes: int = 65536
    write_buffer_bytes: int = 1048576
    keys_per_turn: int = 32
    paste_length: int = 65536
    full_gc_seconds: int = 600
    full_gc_after_ended: int = 20


class BotsSection(msgspec.Struct, forbid_unknown_fields=True):
    default: str = "random"
    bot_moves_per_turn: int = 4
    unattended_move_seconds: float = 0.3


class TimersSection(msgspec.Struct, forbid_unknown_fields=True):
    turn: int = 120
    respond: int = 60
    fight: int = 45
    navigate: int = 60
    thirst: int = 60
    supply: int = 60
    overboard: int = 45
    keep: int = 60
    offer: int = 0


class Config(msgspec.Struct, forbid_unknown_fields=True):
    server: ServerSection = msgspec.field(default_factory=ServerSection)
    limits: LimitsSection = msgspec.field(default_factory=LimitsSection)
    bots: BotsSection = msgspec.field(default_factory=BotsSection)
    timers: TimersSection = msgspec.field(default_factory=TimersSection)


class ConfigError(ValueError):
    pass


def load_config(path: str | Path | None) -> Config:
    """Read a config file (a missing default ``server.toml`` means the documented defaults)."""
    if path is None:
        return Config()
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such config file") from None
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{p}: {e}") from None
    try:
        return msgspec.convert(data, type=Config)
    except msgspec.ValidationError as e:
        raise ConfigError(f"{p}: {e}") from None

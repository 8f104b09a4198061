"""Configuration from config.toml (every key is documented in config.example.toml)."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class Config:
    database: Path = Path("data/rail-moderator.sqlite3")
    # a PostgreSQL server shared by several bot processes; None: the SQLite file above
    database_url: str | None = None
    # Discord sharding: None runs one plain client; a count (and optionally this process's
    # shard ids) runs an AutoShardedClient
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    sync_guilds: tuple[int, ...] = ()  # empty: sync commands globally
    render_images: bool = True
    cache_megabytes: int = 512  # memory budget of the replayed games kept loaded
    render_processes: int | None = None  # None: one per core; 0: draw in threads
    render_nice: int = 0  # the render workers' niceness over the bot's (0: the same)
    # memory budget of the full maps each render worker keeps to patch a game's next map
    render_maps_megabytes: int = 128
    engine_threads: int = 8
    import_seconds: float = 60.0  # an import replaying longer than this is refused
    import_process: bool = True  # an import replays in a process of its own (False: a thread)
    log_level: str = "INFO"
    guild_ready_timeout: float = 2.0
    # seconds an idle connection to Discord's API is kept for the next request (aiohttp's own
    # default is 15): a burst of replies after a quiet spell then reuses the connections of the
    # last burst instead of a TLS handshake each (~1 ms of the loop: bench/README.md, 18);
    # under the 400 s after which Discord's edge (Cloudflare) closes an idle connection
    http_keepalive: float = 120.0
    local_images: Path = Path("local-images")
    local_players: tuple[str, ...] = field(default_factory=tuple)
    mail: dict[str, Any] = field(default_factory=dict)  # [mail], read by bot/mail/settings.py

    @property
    def store_target(self) -> str | Path:
        """What the store opens: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or self.database

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None or self.shard_ids is not None

    @property
    def token(self) -> str | None:
        return os.environ.get("DISCORD_TOKEN") or None


class ConfigError(Exception):
    """The config file named cannot be used; `str(err)` says why, naming the file."""


def load_config(path: str | Path | None = None) -> Config:
    """Read the TOML file; missing keys take their defaults. The default file (config.toml,
    or RAIL_CONFIG) may be absent; a file named by `path` (--config) must exist. A file that
    is not valid TOML, or a key of the wrong kind, raises ConfigError."""
    named = path is not None
    path = Path(path or os.environ.get("RAIL_CONFIG", "config.toml"))
    raw: dict[str, Any] = {}
    if path.exists():
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as err:
            raise ConfigError(f"{path} is not a valid TOML config file: {err}") from None
    elif named:
        raise ConfigError(f"There is no config file {path} (see config.example.toml).")
    try:
        return _from_raw(raw)
    except (TypeError, ValueError, AttributeError) as err:
        raise ConfigError(f"{path}: a setting has the wrong kind of value ({err}); "
                          "see config.example.toml.") from None


def _from_raw(raw: dict[str, Any]) -> Config:
    bot = raw.get("bot", {})
    local = raw.get("local", {})
    base = Config()
    return Config(
        database=Path(bot.get("database", base.database)),
        database_url=(str(os.environ.get("DATABASE_URL") or bot.get("database_url") or "")
                      or None),
        shard_count=int(bot["shard_count"]) if "shard_count" in bot else None,
        shard_ids=(tuple(int(i) for i in bot["shard_ids"]) if "shard_ids" in bot else None),
        sync_guilds=tuple(int(g) for g in bot.get("sync_guilds", ())),
        render_images=bool(bot.get("render_images", base.render_images)),
        cache_megabytes=int(bot.get("cache_megabytes", base.cache_megabytes)),
        render_processes=(int(bot["render_processes"]) if "render_processes" in bot
                          else base.render_processes),
        render_nice=int(bot.get("render_nice", base.render_nice)),
        render_maps_megabytes=int(bot.get("render_maps_megabytes",
                                          base.render_maps_megabytes)),
        engine_threads=int(bot.get("engine_threads", base.engine_threads)),
        import_seconds=float(bot.get("import_seconds", base.import_seconds)),
        import_process=bool(bot.get("import_process", base.import_process)),
        log_level=str(bot.get("log_level", base.log_level)),
        guild_ready_timeout=float(bot.get("guild_ready_timeout", base.guild_ready_timeout)),
        http_keepalive=float(bot.get("http_keepalive", base.http_keepalive)),
        local_images=Path(local.get("images_dir", base.local_images)),
        local_players=tuple(str(p) for p in local.get("players", ())),
        mail=dict(raw.get("mail", {})),
    )

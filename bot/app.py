"""Composition root: config → store (migrated) → service → Discord client with its cogs."""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import EXTENSIONS
from bot.collector import QuietCollector
from bot.commands import Commands, Rail
from bot.config import Config
from bot.replies import BotError
from bot.service import Service
from bot.store import Store

if TYPE_CHECKING:
    from bot.mail.transport import MailDesk

log = logging.getLogger(__name__)


class RailBot(commands.Bot):
    """The Discord client. `rail` is the shared command layer the cogs call (`Commands` over
    the service: bot.commands.Rail is all they ask of it)."""

    def __init__(self, config: Config, service: Service, **kwargs: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=config.guild_ready_timeout,
            **kwargs,
        )
        self.config = config
        self.service = service
        self.commands_here = Commands(service)
        self.rail: Rail = self.commands_here
        self.quiet = service.quiet  # commands in flight, each until its first reply is out
        self.lag = service.lag
        # the collector's young passes when no command is in flight (bot/collector.py)
        self.collector = QuietCollector(self.quiet)
        self.tree.error(self.on_app_command_error)

    @property
    def mail(self) -> MailDesk | None:
        """The e-mail transport, if the bot runs it (/invite asks it)."""
        return self.commands_here.mail

    @mail.setter
    def mail(self, desk: MailDesk | None) -> None:
        self.commands_here.mail = desk

    async def login(self, token: str) -> None:
        """Log in with discord.py's HTTP client on a connector that keeps idle connections
        `http_keepalive` seconds (as discord.py's own: no limit on connections)."""
        self.http.connector = aiohttp.TCPConnector(
            limit=0, keepalive_timeout=self.config.http_keepalive)
        await super().login(token)

    async def setup_hook(self) -> None:
        self.lag.start()
        self.collector.start()
        self.service.groundwork.start()
        self.service.images.start()  # the render workers warm up before the first move
        self.service.warm_imports()  # and the import process before the first import
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        if self.mail is not None:
            await self.load_extension("bot.cogs.mail")
        if self.config.sync_guilds:
            for gid in self.config.sync_guilds:
                guild = discord.Object(gid)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        log.info("slash commands synced")

    async def close(self) -> None:
        await self.collector.stop()
        await self.service.groundwork.stop()
        await super().close()

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Expected refusals are answered privately; anything else is logged."""
        original = getattr(error, "original", error)
        if isinstance(original, BotError | app_commands.CheckFailure):
            message = str(original)
        else:
            fault = secrets.token_hex(4)
            log.error("fault %s: command failed", fault, exc_info=original)
            message = (f"Something went wrong on the bot's side (fault {fault}); the command was "
                       "not completed. Quote the fault id to the bot's admin.")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not report an error to the user")


# The cyclic collector's thresholds for the bot's process (Python's are 700, 10, 10). The bot
# keeps a large heap that lives long (its cache of replayed games); with the default young
# threshold the collector passes over it again and again: under 200 games moving at once it
# took half the process's CPU and held the event loop up to half a second
# (bench/README.md, issue 13). Reference counting frees almost everything; the young pass runs,
# for cycles, when no command is in flight (bot/collector.py, 20,000 objects made since the
# last), and on its own only past 100,000 (a loop seldom quiet: at 200 moves/s a pass put off
# until 200,000 held the loop 347 ms), the older generations less often.
COLLECTOR_THRESHOLDS = (100_000, 20, 20)


def tune_collector() -> None:
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


R = TypeVar("R")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The bot's event loop: uvloop's where it is installed (a dependency on Linux and macOS),
    else asyncio's own. The loop's own work (ready callbacks, sockets, the engine threads'
    results coming back) was about a fifth of the bot process's CPU under 200 games moving
    at once on asyncio's loop (bench/README.md, issue 13)."""
    try:
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def run_loop(main: Coroutine[Any, Any, R]) -> R:
    """asyncio.run on the bot's event loop (`loop_factory`)."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)


async def open_service(config: Config) -> Service:
    store = await Store.open(config.store_target)
    return Service.from_config(store, config)


class ShardedRailBot(RailBot, commands.AutoShardedBot):
    """The same client on several gateway shards (discord.py's AutoShardedClient): Discord
    requires sharding past 2,500 servers. Each bot process runs the shard ids it is given;
    processes sharing one PostgreSQL database together run all of them (docs/DEPLOY.md)."""


def make_bot(config: Config, service: Service) -> RailBot:
    """A plain client, or a sharded one when the configuration names shards."""
    if not config.sharded:
        return RailBot(config, service)
    kwargs: dict[str, Any] = {}
    if config.shard_count is not None:
        kwargs["shard_count"] = config.shard_count
    if config.shard_ids is not None:
        kwargs["shard_ids"] = list(config.shard_ids)
    return ShardedRailBot(config, service, **kwargs)


async def run_discord(config: Config, token: str) -> None:
    tune_collector()
    service = await open_service(config)
    if config.shard_ids is not None and not service.store.shared:
        log.warning("this process runs only shards %s, on a SQLite file: other processes must "
                    "not use the same file (several processes need bot.database_url, "
                    "docs/DEPLOY.md)", list(config.shard_ids))
    bot = make_bot(config, service)
    from bot.mail.transport import start_mail

    bot.mail = await start_mail(config, service)
    try:
        async with bot:
            await bot.start(token)
    finally:
        if bot.mail is not None:
            await bot.mail.stop()
        await service.lag.stop()
        service.close()
        await service.store.close()

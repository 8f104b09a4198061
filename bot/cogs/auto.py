"""/auto: a player's programmed moves (bot/auto.py), as Discord sees them."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import run

MODES = [
    app_commands.Choice(name="pass in this stock round until something changes", value="pass"),
    app_commands.Choice(name="pass in every stock round until something changes",
                        value="pass-always"),
    app_commands.Choice(name="buy shares of a corporation each turn", value="buy"),
    app_commands.Choice(name="cancel my programmed move", value="off"),
    app_commands.Choice(name="show my programmed move", value="show"),
]
SOURCES = [app_commands.Choice(name="initial offering (IPO)", value="ipo"),
           app_commands.Choice(name="open market", value="market")]


class Auto(commands.Cog):
    @app_commands.command(
        name="auto", description="Programmed moves: auto-pass, auto-buy until a corporation "
                                 "floats, or off")
    @app_commands.describe(mode="what to do when the turn comes to you",
                           corporation="for buy: the corporation, e.g. GMO",
                           until="for buy: float (default) or a number of shares to hold",
                           source="for buy: where to buy (default: the initial offering)")
    @app_commands.choices(mode=MODES, source=SOURCES)
    async def auto(self, interaction: discord.Interaction[Any],
                   mode: app_commands.Choice[str] | None = None,
                   corporation: str | None = None, until: str | None = None,
                   source: app_commands.Choice[str] | None = None) -> None:
        await run(interaction, "auto", mode=mode.value if mode else None,
                  corporation=corporation, until=until, source=source.value if source else None)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Auto())

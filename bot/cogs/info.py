"""Status, map and market pictures; the last moves; what may be done now."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import legal_choices, run


class Info(commands.Cog):
    @app_commands.command(name="status", description="Show the game's status")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "status")

    @app_commands.command(
        name="map",
        description="Show the map, one region of it, or the hexes around a hex (legible on a phone)",
    )
    @app_commands.describe(
        region="a region of the map, e.g. A1-D8 (type to see them)",
        hex="a hex, e.g. E12: the close-up around it",
    )
    @app_commands.autocomplete(region=legal_choices("map", "region"),
                               hex=legal_choices("map", "hex"))
    async def map(self, interaction: discord.Interaction[Any], region: str | None = None,
                  hex: str | None = None) -> None:
        await run(interaction, "map", region=region, hex=hex)

    @app_commands.command(name="market", description="Show the stock market")
    async def market(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "market")

    @app_commands.command(name="history", description="Show the last moves")
    @app_commands.describe(count="how many moves (default 10)")
    async def history(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 1, 50] = 10
    ) -> None:
        await run(interaction, "history", count=count)

    @app_commands.command(name="legal", description="What may you do now?")
    async def legal(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "legal")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Info())

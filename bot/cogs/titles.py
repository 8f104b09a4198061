"""Title-specific moves: 1870 price protection, redeem/reissue, connection runs; 18MEX merger."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import legal_choices, run


class TitleMoves(commands.Cog):
    @app_commands.command(
        name="protect", description="1870: price-protect the shares just sold (buy them back)"
    )
    @app_commands.autocomplete(corporation=legal_choices("protect", "corporation"))
    async def protect(
        self, interaction: discord.Interaction[Any], corporation: str, shares: str | None = None
    ) -> None:
        await run(interaction, "protect", corporation=corporation, shares=shares)

    @app_commands.command(name="redeem", description="1870: the corporation redeems a share")
    async def redeem(
        self, interaction: discord.Interaction[Any], corporation: str, share: str | None = None
    ) -> None:
        await run(interaction, "redeem", corporation=corporation, share=share)

    @app_commands.command(
        name="reissue", description="1870: the corporation reissues its redeemed shares"
    )
    async def reissue(self, interaction: discord.Interaction[Any], corporation: str) -> None:
        await run(interaction, "reissue", corporation=corporation)

    @app_commands.command(
        name="connect", description="1870: connection run - destination token on Map or Charter"
    )
    @app_commands.autocomplete(where=legal_choices("connect", "where"))
    async def connect(
        self, interaction: discord.Interaction[Any], where: str | None = None
    ) -> None:
        await run(interaction, "connect", where=where)

    @app_commands.command(
        name="merge", description="18MEX: accept the NdM merger offered to your corporation"
    )
    async def merge(
        self, interaction: discord.Interaction[Any], corporation: str | None = None
    ) -> None:
        await run(interaction, "merge", corporation=corporation)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TitleMoves())

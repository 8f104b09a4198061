"""Title-specific moves: 1870 price protection, redeem/reissue, connection runs; 18MEX merger."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import legal_choices, run


class TitleMoves(commands.Cog):
    @app_commands.command(name="protect", description="1870: price-protect the shares just sold")
    @app_commands.autocomplete(
        corporation=legal_choices("protect", "corporation"), share=legal_choices("protect", "share")
    )
    async def protect(
        self, interaction: discord.Interaction[Any], corporation: str, share: str | None = None
    ) -> None:
        await run(interaction, "protect", corporation=corporation, share=share)

    @app_commands.command(name="redeem", description="1870: the corporation redeems a share")
    @app_commands.autocomplete(
        corporation=legal_choices("redeem", "corporation"), share=legal_choices("redeem", "share")
    )
    async def redeem(
        self, interaction: discord.Interaction[Any], corporation: str, share: str | None = None
    ) -> None:
        await run(interaction, "redeem", corporation=corporation, share=share)

    @app_commands.command(name="reissue", description="1870: the corporation reissues shares")
    @app_commands.autocomplete(
        corporation=legal_choices("reissue", "corporation"),
        percent=legal_choices("reissue", "percent"),
    )
    async def reissue(
        self, interaction: discord.Interaction[Any], corporation: str, percent: str
    ) -> None:
        await run(interaction, "reissue", corporation=corporation, percent=percent)

    @app_commands.command(name="connect", description="1870: run a destination connection")
    async def connect(
        self, interaction: discord.Interaction[Any], routes: str | None = None
    ) -> None:
        await run(interaction, "connect", routes=routes)

    @app_commands.command(name="merge", description="18MEX: merge into the NdM")
    @app_commands.autocomplete(corporation=legal_choices("merge", "corporation"))
    async def merge(self, interaction: discord.Interaction[Any], corporation: str) -> None:
        await run(interaction, "merge", corporation=corporation)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TitleMoves())

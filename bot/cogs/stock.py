"""Stock round and auction moves: bid, par, buy, sell, pass."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import legal_choices, run


class Stock(commands.Cog):
    @app_commands.command(name="bid", description="Bid on a private company")
    @app_commands.autocomplete(
        company=legal_choices("bid", "company"), price=legal_choices("bid", "price")
    )
    @app_commands.describe(price="price in $ (default: the lowest; a fixed price needs none)")
    async def bid(
        self, interaction: discord.Interaction[Any], company: str, price: str | None = None
    ) -> None:
        await run(interaction, "bid", company=company, price=price)

    @app_commands.command(name="par", description="Start a corporation at a par price")
    @app_commands.autocomplete(
        corporation=legal_choices("par", "corporation"), price=legal_choices("par", "price")
    )
    async def par(
        self, interaction: discord.Interaction[Any], corporation: str, price: str
    ) -> None:
        await run(interaction, "par", corporation=corporation, price=price)

    @app_commands.command(name="buy", description="Buy one share")
    @app_commands.autocomplete(
        corporation=legal_choices("buy", "corporation"), share=legal_choices("buy", "share")
    )
    async def buy(
        self, interaction: discord.Interaction[Any], corporation: str, share: str | None = None
    ) -> None:
        await run(interaction, "buy", corporation=corporation, share=share)

    @app_commands.command(name="sell", description="Sell shares")
    @app_commands.autocomplete(
        corporation=legal_choices("sell", "corporation"), percent=legal_choices("sell", "percent")
    )
    @app_commands.describe(shares="certificate ids, e.g. GMO_3 GMO_4 (optional)")
    async def sell(
        self,
        interaction: discord.Interaction[Any],
        corporation: str,
        percent: str,
        shares: str | None = None,
    ) -> None:
        await run(interaction, "sell", corporation=corporation, percent=percent, shares=shares)

    @app_commands.command(name="pass", description="Pass")
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "pass")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Stock())

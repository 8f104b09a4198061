"""Operating round moves: tiles, tokens, routes, dividends, trains, privates, abilities."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import legal_choices, run


class Operating(commands.Cog):
    @app_commands.command(name="lay", description="Lay or upgrade a tile")
    @app_commands.autocomplete(
        hex=legal_choices("lay", "hex"),
        tile=legal_choices("lay", "tile"),
        rotation=legal_choices("lay", "rotation"),
        company=legal_choices("lay", "ability"),
    )
    @app_commands.describe(company="lay with this private company's ability (optional)",
                           rotation="leave it out to see the rotations that fit, numbered")
    async def lay(
        self,
        interaction: discord.Interaction[Any],
        hex: str,
        tile: str,
        rotation: str | None = None,
        company: str | None = None,
    ) -> None:
        await run(interaction, "lay", hex=hex, tile=tile, rotation=rotation, company=company)

    @app_commands.command(name="token", description="Place a station token")
    @app_commands.autocomplete(
        city=legal_choices("token", "city"), company=legal_choices("token", "ability")
    )
    @app_commands.describe(company="place with this private company's ability (optional)")
    async def token(
        self,
        interaction: discord.Interaction[Any],
        city: str,
        slot: int | None = None,
        company: str | None = None,
    ) -> None:
        await run(interaction, "token", city=city, slot=slot, company=company)

    @app_commands.command(name="run", description="Run trains: the best run to confirm, or yours")
    @app_commands.describe(routes="empty: the best run, to confirm; 'best': at once; stops per "
                           "train, e.g. Memphis-Grenada;Jackson-Meridian; or the routes as JSON")
    async def run_(self, interaction: discord.Interaction[Any], routes: str | None = None) -> None:
        await run(interaction, "run", routes=routes)

    @app_commands.command(name="dividend", description="Pay out, withhold or pay half")
    @app_commands.autocomplete(kind=legal_choices("dividend", "kind"))
    async def dividend(self, interaction: discord.Interaction[Any], kind: str) -> None:
        await run(interaction, "dividend", kind=kind)

    @app_commands.command(name="train", description="Buy a train")
    @app_commands.autocomplete(
        train=legal_choices("train", "train"), price=legal_choices("train", "price")
    )
    @app_commands.describe(variant="train variant, e.g. 4D (optional)")
    async def train(
        self,
        interaction: discord.Interaction[Any],
        train: str,
        price: str | None = None,
        variant: str | None = None,
    ) -> None:
        await run(interaction, "train", train=train, price=price, variant=variant)

    @app_commands.command(name="discard", description="Discard a train over the limit")
    @app_commands.autocomplete(train=legal_choices("discard", "train"))
    async def discard(self, interaction: discord.Interaction[Any], train: str) -> None:
        await run(interaction, "discard", train=train)

    @app_commands.command(name="private", description="Buy a private company for the corporation")
    @app_commands.autocomplete(
        company=legal_choices("private", "company"), price=legal_choices("private", "price")
    )
    async def private(
        self, interaction: discord.Interaction[Any], company: str, price: str
    ) -> None:
        await run(interaction, "private", company=company, price=price)

    @app_commands.command(name="choose", description="Make a choice the game asks for")
    @app_commands.autocomplete(choice=legal_choices("choose", "choice"))
    async def choose(self, interaction: discord.Interaction[Any], choice: str) -> None:
        await run(interaction, "choose", choice=choice)

    @app_commands.command(name="assign", description="Use a private ability on a hex")
    async def assign(
        self, interaction: discord.Interaction[Any], target: str, company: str | None = None
    ) -> None:
        await run(interaction, "assign", target=target, company=company)

    @app_commands.command(name="bankrupt", description="Declare bankruptcy")
    async def bankrupt(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "bankrupt")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Operating())

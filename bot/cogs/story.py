"""What happened since your last move (/catchup) and how to use the bot (/help)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import legal_choices, run


class Story(commands.Cog):
    @app_commands.command(name="catchup",
                          description="What happened since your last move, then the current card")
    async def catchup(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "catchup")

    @app_commands.command(name="help", description="The commands, or how to use one")
    @app_commands.describe(command="a command's name, e.g. token")
    @app_commands.autocomplete(command=legal_choices("help", "command"))
    async def help(self, interaction: discord.Interaction[Any], command: str | None = None) -> None:
        await run(interaction, "help", command=command)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Story())

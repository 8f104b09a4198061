"""Undo and redo (the consent buttons for undoing another player's move: bot/cogs/consent.py)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import run

PREFIX = "undo:"


class Undo(commands.Cog):
    @app_commands.command(
        name="undo", description="Undo the latest move (another player's needs consent)"
    )
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "undo")

    @app_commands.command(name="redo", description="Redo the move just undone")
    async def redo(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "redo")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Undo())

"""Undo and redo, and the consent buttons for undoing another player's move."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import on_button, run

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

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Consent buttons (custom id "undo:yes:<request>"): they work across restarts."""
        await on_button(interaction, PREFIX, lambda ctx, cmds, yes, request:
                        cmds.answer_undo(ctx, request, yes))

async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Undo())

"""The buttons of bot/consent.py: a train sale request (the selling corporation's president
sells or refuses) and the best run proposed to the president (run it)."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot import consent
from bot.cogs._base import on_button


class Consent(commands.Cog):
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Buttons with custom id "sale:yes:<request>" / "sale:no:<request>" and
        "run:yes:<proposal>"."""
        await on_button(interaction, consent.RUN_PREFIX, lambda ctx, cmds, _yes, proposal:
                        cmds.confirm_run(ctx, proposal))
        await on_button(interaction, consent.PREFIX, lambda ctx, cmds, yes, request:
                        cmds.answer_sale(ctx, request, yes))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Consent())

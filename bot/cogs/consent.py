"""The buttons of bot/consent.py: a train sale request (the selling corporation's president
sells or refuses) and the best run proposed to the president (run it)."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot import consent
from bot.cogs._base import commands_of, ctx_of, run_and_reply


class Consent(commands.Cog):
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Buttons with custom id "sale:yes:<request>" / "sale:no:<request>"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if custom_id.startswith(consent.RUN_PREFIX):
            proposal = custom_id.rsplit(":", 1)[-1]
            if proposal.isdigit():
                ctx = ctx_of(interaction)
                service = commands_of(interaction).service
                await run_and_reply(interaction, lambda: consent.confirm(
                    service, ctx.who, int(proposal), ctx.interaction_id))
            return
        if not custom_id.startswith(consent.PREFIX):
            return
        _, answer, request = custom_id.split(":", 2)
        if not request.isdigit():
            return
        ctx = ctx_of(interaction)
        service = commands_of(interaction).service
        await run_and_reply(interaction, lambda: consent.answer_reply(
            service, ctx.who, int(request), answer == "yes", ctx.interaction_id))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Consent())

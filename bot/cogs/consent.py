"""Every button the bot posts, answered by one listener (one task per interaction, where a
listener per kind of button made one each): a train sale request (the selling corporation's
president sells or refuses), the best run proposed to the president (run it), an undo of
another player's move (its player consents or not) and a seat vote (bot/seats.py). The ids
are in the store or the service: the buttons work across restarts."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot import consent, seats
from bot.cogs._base import Answer, on_button
from bot.cogs.undo import PREFIX as UNDO_PREFIX

ROUTES: tuple[tuple[str, Answer], ...] = (
    (consent.RUN_PREFIX, lambda ctx, cmds, _yes, proposal: cmds.confirm_run(ctx, proposal)),
    (consent.PREFIX, lambda ctx, cmds, yes, request: cmds.answer_sale(ctx, request, yes)),
    (UNDO_PREFIX, lambda ctx, cmds, yes, request: cmds.answer_undo(ctx, request, yes)),
    (seats.PREFIX, lambda ctx, cmds, yes, vote: cmds.answer_vote(ctx, vote, yes)),
)


class Consent(commands.Cog):
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Buttons with custom id "<prefix>yes:<id>" or "<prefix>no:<id>" (ROUTES)."""
        await on_button(interaction, ROUTES)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Consent())

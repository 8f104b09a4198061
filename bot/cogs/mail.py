"""/invite on Discord: seat a player who plays by e-mail (loaded only when the bot runs the
e-mail transport, bot/mail/). The invitation mail carries a signed reply address; answering
it takes the seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import commands_of, ctx_of, run_and_reply
from bot.replies import BotError, Reply

if TYPE_CHECKING:
    from bot.app import RailBot


class Mail(commands.Cog):
    def __init__(self, bot: RailBot) -> None:
        self.bot = bot

    @app_commands.command(name="invite", description="Invite a player who plays by e-mail")
    @app_commands.describe(address="their e-mail address", player="the name shown in the game")
    async def invite(self, interaction: discord.Interaction[Any], address: str,
                     player: str) -> None:
        ctx = ctx_of(interaction)
        desk = self.bot.mail
        service = commands_of(interaction).service

        async def work() -> Reply:
            try:
                if desk is None:
                    raise BotError("This bot does not run the e-mail transport.")
                game = await service.game_here(ctx.channel_id)
                return await desk.invite(ctx.who, game.id, address, player[:80])
            except BotError as err:
                return Reply(str(err), ephemeral=True)

        await run_and_reply(interaction, work)


async def setup(bot: RailBot) -> None:
    await bot.add_cog(Mail(bot))

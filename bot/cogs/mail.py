"""/invite on Discord: seat a player who plays by e-mail (loaded only when the bot runs the
e-mail transport, bot/mail/). The invitation mail carries a signed reply address; answering
it takes the seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import commands_of, ctx_of, run_and_reply

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
        cmds = commands_of(interaction)
        await run_and_reply(interaction, lambda: cmds.invite(ctx, address, player))


async def setup(bot: RailBot) -> None:
    await bot.add_cog(Mail(bot))

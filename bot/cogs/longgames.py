"""Long games on Discord: reminders and notices sent by the bot on its own (the loop starts
with the cog), /mygames, /nudge, /follow, /unfollow, /settings, /timing, /seats, /substitute,
/resign, /drop and the seat-vote buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import commands_of, run
from bot.turns import Outgoing

if TYPE_CHECKING:
    from bot.app import RailBot


async def _seat_choices(interaction: discord.Interaction[Any],
                        current: str) -> list[app_commands.Choice[str]]:
    names = await commands_of(interaction).seat_names(interaction.channel_id or 0)
    out = [app_commands.Choice(name=f"{i + 1}. {name}"[:100], value=str(i + 1))
           for i, name in enumerate(names)]
    return [c for c in out if current.lower() in c.name.lower()][:25]


class LongGames(commands.Cog):
    def __init__(self, bot: RailBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.rail.start_notices(self._send, self.bot.wait_until_ready)

    async def cog_unload(self) -> None:
        await self.bot.rail.stop_notices()

    async def _send(self, msg: Outgoing) -> None:
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                           users=[discord.Object(u) for u in msg.mention])
        channel: discord.abc.Messageable
        if msg.user_id is not None:
            channel = await self.bot.create_dm(discord.Object(msg.user_id))
        else:
            channel = self.bot.get_partial_messageable(int(msg.channel_id or 0))
        await channel.send(msg.text[:2000], allowed_mentions=mentions)

    @app_commands.command(name="mygames", description="The games where it is your turn")
    async def mygames(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "mygames")

    @app_commands.command(name="nudge", description="Remind whoever this game waits for")
    async def nudge(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "nudge")

    @app_commands.command(name="follow", description="Follow this game (a DM when the turn passes)")
    async def follow(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "follow")

    @app_commands.command(name="unfollow", description="Stop following this game")
    async def unfollow(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "unfollow")

    @app_commands.command(name="settings", description="Your time zone and quiet hours")
    @app_commands.describe(timezone="e.g. Europe/Paris or UTC+2",
                           quiet="quiet hours, your local time, e.g. 22-8 (none: no quiet hours)")
    async def settings(self, interaction: discord.Interaction[Any], timezone: str | None = None,
                       quiet: str | None = None) -> None:
        await run(interaction, "settings", timezone=timezone, quiet=quiet)

    @app_commands.command(name="timing", description="This game's reminders, time bank, absence")
    @app_commands.describe(reminder="hours before the first reminder (default 12)",
                           bank="time bank per player in hours (none: no bank)",
                           drop="days without a move before a player may be dropped")
    async def timing(self, interaction: discord.Interaction[Any], reminder: str | None = None,
                     bank: str | None = None, drop: str | None = None) -> None:
        await run(interaction, "timing", reminder=reminder, bank=bank, drop=drop)

    @app_commands.command(name="seats", description="Who holds each seat, and who held it before")
    async def seats(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "seats")

    @app_commands.command(name="substitute",
                          description="Seat a substitute (the creator at once; else a vote)")
    @app_commands.describe(player="the seat", new="the substitute")
    @app_commands.autocomplete(player=_seat_choices)
    async def substitute(self, interaction: discord.Interaction[Any], player: str,
                         new: discord.Member) -> None:
        await run(interaction, "substitute", members=(new,), player=player, new=new.mention)

    @app_commands.command(name="resign",
                          description="Leave this game: a substitute takes your seat, or a vote")
    @app_commands.describe(substitute="who takes your seat (optional)")
    async def resign(self, interaction: discord.Interaction[Any],
                     substitute: discord.Member | None = None) -> None:
        await run(interaction, "resign", members=(substitute,),
                  substitute=substitute.mention if substitute else None)

    @app_commands.command(name="drop", description="Propose to drop an absent player")
    @app_commands.describe(player="the seat")
    @app_commands.autocomplete(player=_seat_choices)
    async def drop(self, interaction: discord.Interaction[Any], player: str) -> None:
        await run(interaction, "drop", player=player)


async def setup(bot: RailBot) -> None:
    await bot.add_cog(LongGames(bot))

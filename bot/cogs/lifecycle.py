"""Creating, joining, starting, listing, abandoning, exporting and importing games."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._base import commands_of, ctx_of, run, run_and_reply
from bot.replies import Reply
from bot.service import TITLES

MAX_IMPORT_BYTES = 5 * 1024 * 1024


class Lifecycle(commands.Cog):
    @app_commands.command(
        name="create", description="Create a game in this channel (it gets its own thread)"
    )
    @app_commands.describe(title="the game", options="optional rules, comma separated")
    @app_commands.choices(title=[app_commands.Choice(name=t, value=t) for t in TITLES])
    @app_commands.guild_only()
    async def create(
        self, interaction: discord.Interaction[Any], title: str, options: str | None = None
    ) -> None:
        await run(interaction, "create", title=title, options=options)

    @app_commands.command(name="join", description="Join the game of this thread")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "join")

    @app_commands.command(name="leave", description="Leave the game before it starts")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "leave")

    @app_commands.command(name="start", description="Start the game: seating in order, or random")
    @app_commands.describe(seating="players in seat order as mentions (@a @b @c); empty = random")
    async def start(
        self, interaction: discord.Interaction[Any], seating: str | None = None
    ) -> None:
        await run(interaction, "start", seating=seating)

    @app_commands.command(
        name="games", description="List the open and running games of this server"
    )
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "games")

    @app_commands.command(
        name="abandon", description="Abandon this game (its creator or server admins)"
    )
    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "abandon")

    @app_commands.command(
        name="end", description="End this game now, scored as it stands (all players agreeing, its creator or admins)"
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "end")

    @app_commands.command(name="export", description="Export this game as an 18xx.games JSON file")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "export")

    @app_commands.command(
        name="import", description="Import an 18xx.games export into a new thread"
    )
    @app_commands.describe(
        file="the exported JSON", players="map export players to members: 680=@alice 4861=@bob"
    )
    @app_commands.guild_only()
    async def import_(
        self, interaction: discord.Interaction[Any], file: discord.Attachment, players: str
    ) -> None:
        ctx = ctx_of(interaction)
        cmds = commands_of(interaction)

        async def work() -> Reply:
            if file.size > MAX_IMPORT_BYTES:
                return Reply("The file is too large for a game export.", ephemeral=True)
            raw = await file.read()
            return await cmds.import_file(ctx, raw, players)

        await run_and_reply(interaction, work)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Lifecycle())

"""Glue between discord.py interactions and the shared command layer (bot.commands)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.commands import Commands, Ctx, Rail
from bot.replies import Attachment, BotError, Reply
from bot.service import Who

if TYPE_CHECKING:
    from bot.app import RailBot

log = logging.getLogger(__name__)

# answer directly if the command is done by then, else defer (Discord allows 3 s)
DEFER_AFTER = 2.0
NO_PINGS = discord.AllowedMentions.none()


def commands_of(interaction: discord.Interaction[Any]) -> Rail:
    client: RailBot = interaction.client
    return client.rail


def _is_admin(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.permissions
    return bool(perms.administrator or perms.manage_guild)


def ctx_of(interaction: discord.Interaction[Any]) -> Ctx:
    user = interaction.user
    who = Who(user.id, user.display_name, _is_admin(interaction))

    def resolve(text: str) -> tuple[int, str] | None:
        uid = Commands.mention_id(text)
        if uid is None:
            return None
        member = interaction.guild.get_member(uid) if interaction.guild else None
        return uid, member.display_name if member else ""

    async def make_thread(name: str) -> int:
        channel = interaction.channel
        if isinstance(channel, discord.TextChannel):
            thread = await channel.create_thread(
                name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
            await thread.send(
                f"{name}. Use /join here; the creator starts the game with /start.",
                allowed_mentions=NO_PINGS,
            )
            return thread.id
        raise BotError("Create games in a server text channel: each game gets its own thread.")

    return Ctx(
        who=who,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        interaction_id=str(interaction.id),
        make_thread=make_thread,
        resolve_user=resolve,
    )


def _view(reply: Reply) -> discord.ui.View | None:
    if not reply.buttons:
        return None
    view = discord.ui.View(timeout=None)
    for b in reply.buttons[:25]:
        style = getattr(discord.ButtonStyle, b.style, discord.ButtonStyle.secondary)
        view.add_item(discord.ui.Button(label=b.label, custom_id=b.custom_id, style=style))
    return view


# Images go in embeds, one each, stacked: a phone shows every embed image at the message's full
# width, where several plain attachments share one mosaic (two side by side at half width). The
# card and the close-up, drawn to be legible in a phone preview, come first.
EMBED_ORDER = ("card", "closeup", "map", "market", "status")


def _image_embeds(filenames: Sequence[str]) -> list[discord.Embed]:
    pngs = [n for n in filenames if n.endswith(".png")]

    def rank(name: str) -> int:
        stem = name.rsplit(".", 1)[0]
        return EMBED_ORDER.index(stem) if stem in EMBED_ORDER else len(EMBED_ORDER)

    return [
        discord.Embed().set_image(url=f"attachment://{n}") for n in sorted(pngs, key=rank)[:10]
    ]


def _files(interaction: discord.Interaction[Any], attachments: Sequence[Attachment]) -> list[Attachment]:
    limit = interaction.filesize_limit
    fitting = [a for a in attachments if len(a.data) <= limit]
    if len(fitting) < len(attachments):
        log.warning("dropped %d attachment(s) over %d bytes", len(attachments) - len(fitting), limit)
    return fitting


def _file_kwargs(attachments: Sequence[Attachment]) -> dict[str, Any]:
    if not attachments:
        return {}
    out: dict[str, Any] = {
        "files": [discord.File(io.BytesIO(a.data), filename=a.filename) for a in attachments]
    }
    embeds = _image_embeds([a.filename for a in attachments])
    if embeds:
        out["embeds"] = embeds
    return out


async def respond(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """Send a Reply as the interaction's answer (or followup if it was deferred)."""
    mentions = discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(u) for u in reply.mention],
    )
    kwargs: dict[str, Any] = {
        "content": reply.text[:2000],
        "ephemeral": reply.ephemeral,
        "allowed_mentions": mentions,
        **_file_kwargs(_files(interaction, reply.attachments)),
    }
    view = _view(reply)
    if view is not None:
        kwargs["view"] = view
    if not interaction.response.is_done():
        await interaction.response.send_message(**kwargs)
        return
    if reply.ephemeral:  # the deferred "thinking" message is public: replace it
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(**kwargs)


async def add_images(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """The reply is out: draw the images it still needs and edit them into it (nothing when
    a newer move of the game will post them)."""
    if reply.images is None:
        return
    attachments = await commands_of(interaction).finish_images(reply)
    fitting = _files(interaction, [*reply.attachments, *attachments])
    if not attachments or not fitting:
        return
    files = _file_kwargs(fitting)
    try:
        await interaction.edit_original_response(
            attachments=files["files"], embeds=files.get("embeds", [])
        )
    except discord.HTTPException:
        log.warning("could not add the images to a reply")


async def run_and_reply(
    interaction: discord.Interaction[Any], work: Callable[[], Awaitable[Reply]]
) -> None:
    """Run the work; defer if it takes longer than DEFER_AFTER, then answer; then add the
    reply's images (drawn after the answer is out)."""
    client: RailBot = interaction.client
    # the collector's passes, images and groundwork wait for the first reply (bot/quiet.py)
    with client.quiet.busy():
        # Discord's 3 s run from the interaction's creation: time spent before this handler
        # ran (a busy event loop) counts. The work runs here; a timer defers the answer
        # meanwhile if it is not done by then (no task and no wait of its own for the
        # work: a move's loop time is what 200 moves at once wait for, bench/README.md)
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        delay = DEFER_AFTER - max(0.0, age)
        loop = asyncio.get_running_loop()
        deferring: list[asyncio.Task[Any]] = []

        def defer() -> None:
            deferring.append(loop.create_task(interaction.response.defer(thinking=True)))

        timer = loop.call_later(delay, defer) if delay > 0 else None
        if timer is None:
            defer()
        try:
            reply = await work()
        except BaseException:
            if timer is not None:
                timer.cancel()
            for task in deferring:  # the work's own failure is the one reported
                with contextlib.suppress(Exception):
                    await task
            raise
        if timer is not None:
            timer.cancel()
        for task in deferring:
            await task
        await respond(interaction, reply)
    await add_images(interaction, reply)
    _let_go(interaction)


def _let_go(interaction: discord.Interaction[Any]) -> None:
    """The interaction is answered: its response object (which refers back to it, a cycle) is
    dropped, so that the interaction is freed as soon as nothing refers to it, not at the
    collector's next pass (under many moves at once, those passes walked every interaction
    of the last moves: bench/README.md, issue 13)."""
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_response")  # discord.py's cache of `interaction.response`


Answer = Callable[[Ctx, Rail, bool, int], Awaitable[Reply]]


async def on_button(interaction: discord.Interaction[Any],
                    routes: Sequence[tuple[str, Answer]]) -> None:
    """A button with custom id "<prefix>yes:<id>" or "<prefix>no:<id>" of one of the routes:
    its `answer` (given the context, the command layer, yes or no and the id) runs and its
    reply is sent; any other interaction is left alone. Such buttons work across restarts
    (the id is in the store or the service)."""
    if interaction.type is not discord.InteractionType.component:
        return
    custom_id = str(dict(interaction.data or {}).get("custom_id", ""))
    route = next(((p, a) for p, a in routes if custom_id.startswith(p)), None)
    if route is None:
        return
    prefix, answer = route
    said, _, ident = custom_id[len(prefix):].partition(":")
    if not ident.isdigit():
        return
    ctx = ctx_of(interaction)
    cmds = commands_of(interaction)
    await run_and_reply(interaction, lambda: answer(ctx, cmds, said == "yes", int(ident)))


def _with_members(ctx: Ctx, members: Sequence[discord.Member | discord.User | None]) -> Ctx:
    """The context resolving these members' mentions to their display names."""
    names = {m.id: m.display_name for m in members if m is not None}
    fallback = ctx.resolve_user

    def resolve(text: str) -> tuple[int, str] | None:
        found = fallback(text)
        if found is not None and found[0] in names:
            return found[0], names[found[0]]
        return found

    return dataclasses.replace(ctx, resolve_user=resolve)


async def run(interaction: discord.Interaction[Any], name: str, *,
              members: Sequence[discord.Member | discord.User | None] = (), **args: Any) -> None:
    """Run a command of the shared command set for this interaction; `members`: members the
    arguments mention (their display names are known)."""
    commands = commands_of(interaction)
    ctx = ctx_of(interaction)
    if members:
        ctx = _with_members(ctx, members)
    await run_and_reply(interaction, lambda: commands.run(name, ctx, **args))


Complete = Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]


def legal_choices(command: str, param: str) -> Complete:
    """An autocomplete callback offering only what game.legal() allows now (max 25)."""

    async def complete(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        filled = {k: v for k, v in vars(interaction.namespace).items() if isinstance(v, str | int)}
        pairs = await commands_of(interaction).choices(
            ctx_of(interaction), command, param, current, filled
        )
        return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in pairs]

    complete.__name__ = f"complete_{command}_{param}"
    return complete

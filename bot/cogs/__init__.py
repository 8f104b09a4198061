"""Discord cogs, one per concern. Each is a thin adapter onto bot.commands."""

EXTENSIONS = (
    "bot.cogs.lifecycle",
    "bot.cogs.info",
    "bot.cogs.stock",
    "bot.cogs.operating",
    "bot.cogs.titles",
    "bot.cogs.undo",
    "bot.cogs.longgames",
    "bot.cogs.story",
    "bot.cogs.consent",
    "bot.cogs.auto",
)

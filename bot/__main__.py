"""python -m bot [--local] [--config config.toml]."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.config import ConfigError, load_config

NO_TOKEN = """\
DISCORD_TOKEN is not set, so the bot does not connect to Discord: starting the local mode
(python -m bot --local), the same commands typed in this terminal; images go to a folder.

  To run on Discord:   DISCORD_TOKEN=... python -m bot      (see docs/BOT.md)
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="18xx moderator bot")
    parser.add_argument("--local", action="store_true", help="play in this terminal")
    parser.add_argument("--config", default=None, help="config file (default config.toml)")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as err:
        print(f"python -m bot: {err}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    token = config.token
    if args.local or not token:
        from bot.local import run_local

        if not args.local:
            print(NO_TOKEN, file=sys.stderr)
        return asyncio.run(run_local(config))
    from bot.app import run_discord

    asyncio.run(run_discord(config, token))
    return 0


if __name__ == "__main__":
    sys.exit(main())

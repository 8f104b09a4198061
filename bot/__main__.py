"""python -m bot [--local] [--config config.toml] [--migrate] [--shard-count N --shard-ids 0,1]."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys

from bot.config import Config, ConfigError, load_config

NO_TOKEN = """\
DISCORD_TOKEN is not set, so the bot does not connect to Discord: starting the local mode
(python -m bot --local), the same commands typed in this terminal; images go to a folder.

  To run on Discord:   DISCORD_TOKEN=... python -m bot      (see docs/BOT.md)
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="18xx moderator bot")
    parser.add_argument("--local", action="store_true", help="play in this terminal")
    parser.add_argument("--config", default=None, help="config file (default config.toml)")
    parser.add_argument("--migrate", action="store_true",
                        help="apply the database migrations, print the schema version, exit")
    parser.add_argument("--shard-count", type=int, default=None,
                        help="Discord shards in all (overrides bot.shard_count)")
    parser.add_argument("--shard-ids", default=None,
                        help="this process's shards, e.g. 0,1 (overrides bot.shard_ids)")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config)
        if args.shard_count is not None or args.shard_ids is not None:
            ids = (tuple(int(i) for i in args.shard_ids.split(",") if i.strip())
                   if args.shard_ids else config.shard_ids)
            count = args.shard_count if args.shard_count is not None else config.shard_count
            config = dataclasses.replace(config, shard_count=count, shard_ids=ids)
    except ConfigError as err:
        print(f"python -m bot: {err}", file=sys.stderr)
        return 2
    except ValueError as err:
        print(f"python -m bot: --shard-ids: {err}", file=sys.stderr)
        return 2
    if args.migrate:
        return asyncio.run(_migrate(config))
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    token = config.token
    if args.local or not token:
        from bot.local import run_local

        if not args.local:
            print(NO_TOKEN, file=sys.stderr)
        return asyncio.run(run_local(config))
    from bot.app import run_discord, run_loop

    run_loop(run_discord(config, token))
    return 0


async def _migrate(config: Config) -> int:
    from bot.store import Store

    store = await Store.open(config.store_target)  # opening applies what is missing
    try:
        print(f"schema version {await store.schema_version()} ({store.dialect})")
    finally:
        await store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

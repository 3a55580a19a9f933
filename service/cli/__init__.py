"""The `tablelog` command: serve the API, migrate, rebuild the read models, move
games in and out (export, import, seed), back up and restore the database, and
manage the app keys."""

from __future__ import annotations

import argparse
import asyncio
import os
from contextlib import suppress
from pathlib import Path
from typing import Any

from service.cli import backups, benchmark, exchange, keys, logs
from service.cli.context import (
    Database,
    application,
    database,
    default_data_dir,
    owner_pool,
    snapshot_key,
)
from service.cli.serving import serve
from service.settings import SERVED, from_text
from service.storage.migrate import migrate as run_migrations


def migrate(args: argparse.Namespace) -> None:
    with database(args.data_dir) as where:
        applied = run_migrations(where.migrate)
    print("applied: " + ", ".join(applied) if applied else "the database is up to date")


def rebuild_projections(args: argparse.Namespace) -> None:
    from service.readside.projector import Projector

    async def rebuild(where: Database) -> int:
        # As the tables' owner: the rebuild creates the new tables and swaps them in.
        async with application(where, key) as games, owner_pool(where) as pool:
            return await Projector(pool, games.store, games.timelines).rebuild()

    key = snapshot_key(args)
    with database(args.data_dir) as where:
        folded = asyncio.run(rebuild(where))
    print(f"rebuilt the read models from {folded} events")


def deliver_webhooks(args: argparse.Namespace) -> None:
    from domain.registry import GAMES
    from service.application.timeline import Timelines
    from service.readside.deliverer import Deliverer
    from service.settings import Settings
    from service.storage.pools import connection_pool
    from service.storage.store import EventStore

    async def deliver(where: Database) -> None:
        run_migrations(where.migrate)
        settings = Settings(database_url=where.serve, pool_min_size=1, pool_max_size=4)
        async with connection_pool(settings) as pool:
            store = EventStore(pool)
            deliverer = Deliverer(
                where.serve,
                pool,
                store,
                Timelines(store, GAMES, snapshot_key=key),
                allow_private=args.webhooks_allow_private,
                retries=[float(wait) for wait in args.webhook_retries],
            )
            try:
                await deliverer.run()
            finally:
                await deliverer.close()

    key = snapshot_key(args)
    with database(args.data_dir) as where, suppress(KeyboardInterrupt):
        asyncio.run(deliver(where))


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="tablelog",
        description="Record table games move by move, checked against the rules. "
        "Uses DATABASE_URL when set (and MIGRATION_DATABASE_URL, by default the same, "
        "to migrate; DATABASE_READ_URL, read replicas for the reads, by default "
        "none), else an embedded PostgreSQL in --data-dir.",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(
        name: str, help: str, run, under=commands, reads_games: bool = False
    ) -> argparse.ArgumentParser:
        """A command; one that `reads_games` takes the file of the key that signs
        their snapshots too (`serve` takes it with its settings)."""
        sub = under.add_parser(name, help=help, description=help)
        option(
            sub,
            "data_dir",
            type=Path,
            default=default_data_dir(),
            help="where the embedded PostgreSQL keeps its data when DATABASE_URL is "
            "unset",
        )
        if reads_games:
            (key_file,) = (s for s in SERVED if s.name == "snapshot_key_file")
            setting(sub, key_file.name, key_file.default, key_file.metadata["help"])
        sub.set_defaults(run=run)
        return sub

    run = command("serve", "Serve the REST API (migrating the database first).", serve)
    option(run, "host", default="127.0.0.1", help="the address to listen on")
    option(run, "port", type=int, default=8000, help="the port to listen on")
    option(
        run,
        "log_level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="the least severe messages logged",
    )
    option(
        run,
        "log_format",
        default="text",
        choices=logs.FORMATS,
        help="text, or json: one JSON object a line (the access log included)",
    )
    for served in SERVED:
        setting(run, served.name, served.default, served.metadata["help"])
    command("migrate", "Apply the pending database migrations, then exit.", migrate)
    projections = commands.add_parser(
        "projections", help="Manage the read models (game list, player records)."
    )
    command(
        "rebuild",
        "Empty the read models and fold the whole event log into them again.",
        rebuild_projections,
        under=projections.add_subparsers(required=True, metavar="COMMAND"),
        reads_games=True,
    )
    webhooks = commands.add_parser("webhooks", help="Deliver the webhooks.")
    deliverer = command(
        "deliver",
        "Deliver the webhooks until stopped, taking turns with the serving "
        "processes' deliverers (one delivers at a time).",
        deliver_webhooks,
        under=webhooks.add_subparsers(required=True, metavar="COMMAND"),
        reads_games=True,
    )
    for served in SERVED:
        if served.name in ("webhooks_allow_private", "webhook_retries"):
            setting(deliverer, served.name, served.default, served.metadata["help"])
    exchange.add_commands(command)
    backups.add_commands(command)
    keys.add_commands(command, commands)
    benchmark.add_command(commands)
    return top


def option(
    command: argparse.ArgumentParser,
    name: str,
    *,
    default: Any,
    help: str,
    flag: bool = False,
    **kwargs,
) -> None:
    """`--name`, whose default comes from TABLELOG_NAME when it is set (argparse
    converts a default given as text like a value typed on the command line). A
    `flag` is `--name` or `--no-name`, and TABLELOG_NAME=1, true, yes or on."""
    variable = f"TABLELOG_{name.upper()}"
    value = os.environ.get(variable, default)
    if flag:
        value = str(value).lower() in {"1", "true", "yes", "on"}
        kwargs["action"] = argparse.BooleanOptionalAction
    command.add_argument(
        "--" + name.replace("_", "-"),
        default=value,
        help=f"{help} (env {variable}; default: %(default)s)",
        **kwargs,
    )


def setting(
    command: argparse.ArgumentParser, name: str, default: Any, help: str
) -> None:
    """`--name` for a field of `Settings`, its text read by `settings.from_text`."""

    def read(text: str) -> Any:
        try:
            return from_text(name, text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    if isinstance(default, bool):
        option(command, name, default=default, help=help, flag=True)
        return
    if isinstance(default, tuple):  # given as text, as it is typed
        default = ",".join(default)
    option(command, name, default=default, help=help, type=read)


def main(argv: list[str] | None = None) -> None:
    logs.start()
    top = parser()
    # `tablelog bench` passes its options on to the harness, which knows them.
    args, passed_on = top.parse_known_args(argv)
    if passed_on and args.command != "bench":
        top.error("unrecognized arguments: " + " ".join(passed_on))
    args.passed_on = passed_on
    args.run(args)

"""The `tablelog` command: serve the API, migrate, rebuild the read models, and move
games in and out (export, import, seed)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import os
import sys
from pathlib import Path
from typing import Any

from service.cli import exchange, logs
from service.cli.context import (
    Database,
    application,
    database,
    default_data_dir,
    owner_pool,
)
from service.settings import Settings
from service.storage.migrate import migrate as run_migrations


def serve(args: argparse.Namespace) -> None:
    # Imported here: uvicorn and the app's routes are not needed by other commands.
    import uvicorn

    from service.http.app import create_app
    from service.http.server import config

    logs.use_format(args.log_format)
    with database(args.data_dir) as where:
        settings = Settings(
            database_url=where.serve,
            migration_database_url=where.migrate,
            database_read_url=where.read,
            **{name: getattr(args, name) for name in _SERVE_SETTINGS},
        )
        server = uvicorn.Server(
            config(
                create_app(settings),
                settings,
                host=args.host,
                port=args.port,
                log_level=args.log_level,
                log_config=logs.uvicorn_config(args.log_format),
                # Live streams stay open until the viewer leaves: don't wait long.
                timeout_graceful_shutdown=3,
            )
        )
        # After uvicorn's configuration, which installs its loggers' handlers.
        repeats = logs.collapse_repeats(
            [logging.getLogger(name) for name in ("", "uvicorn", "uvicorn.access")],
            settings.log_repeat_seconds,
        )
        try:
            # Ctrl-C ends the server; leaving `database` then stops PostgreSQL.
            with contextlib.suppress(KeyboardInterrupt):
                server.run()
        finally:
            logs.flush(repeats)
    if not server.started:
        sys.exit("tablelog: the server did not start (see the log above)")


# The settings `serve` takes as options, each with its help; the defaults are those of
# `Settings`.
_SERVE_SETTINGS = {
    "request_timeout": "seconds a client has to send a whole request, from the "
    "moment its connection opens or its previous answer ends; then it is closed",
    "keep_alive_timeout": "seconds an idle keep-alive connection stays open",
    "max_connections": "open connections served at once (live streams included); "
    "one more is answered 503 and closed",
    "max_streams": "live streams (GET /games/{id}/stream) open at once; one more is "
    "answered 503",
    "log_repeat_seconds": "identical warnings within this many seconds are logged "
    "once, then once with their count",
    "metrics": "serve Prometheus metrics at GET /metrics on this port, to anyone who "
    "can reach it: turn on where only your scraper reaches that path",
}


def migrate(args: argparse.Namespace) -> None:
    with database(args.data_dir) as where:
        applied = run_migrations(where.migrate)
    print("applied: " + ", ".join(applied) if applied else "the database is up to date")


def rebuild_projections(args: argparse.Namespace) -> None:
    from service.readside.projector import Projector

    async def rebuild(where: Database) -> int:
        # As the tables' owner: the rebuild creates the new tables and swaps them in.
        async with application(where) as games, owner_pool(where) as pool:
            return await Projector(pool, games).rebuild()

    with database(args.data_dir) as where:
        folded = asyncio.run(rebuild(where))
    print(f"rebuilt the read models from {folded} events")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="tablelog",
        description="Record table games move by move, checked against the rules. "
        "Uses DATABASE_URL when set (and MIGRATION_DATABASE_URL, by default the same, "
        "to migrate; DATABASE_READ_URL, read replicas for the reads, by default "
        "none), else an embedded PostgreSQL in --data-dir.",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, run, under=commands) -> argparse.ArgumentParser:
        sub = under.add_parser(name, help=help, description=help)
        option(
            sub,
            "data_dir",
            type=Path,
            default=default_data_dir(),
            help="where the embedded PostgreSQL keeps its data when DATABASE_URL is "
            "unset",
        )
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
    defaults = {field.name: field for field in dataclasses.fields(Settings)}
    for name, help in _SERVE_SETTINGS.items():
        default = defaults[name].default
        if isinstance(default, bool):
            option(run, name, default=default, help=help, flag=True)
        else:
            option(run, name, type=type(default), default=default, help=help)
    command("migrate", "Apply the pending database migrations, then exit.", migrate)
    projections = commands.add_parser(
        "projections", help="Manage the read models (game list, player records)."
    )
    command(
        "rebuild",
        "Empty the read models and fold the whole event log into them again.",
        rebuild_projections,
        under=projections.add_subparsers(required=True, metavar="COMMAND"),
    )
    exchange.add_commands(command)
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


def main(argv: list[str] | None = None) -> None:
    logging.basicConfig(
        level=logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    args = parser().parse_args(argv)
    args.run(args)

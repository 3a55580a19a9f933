"""The `tablelog` command: serve the API, migrate, rebuild the read models, move
games in and out (export, import, seed), back up and restore the database, and
manage the app keys and the groups."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

from service import bootstrap, settings
from service.cli import backups, benchmark, exchange, groups, keys, logs
from service.cli.context import database, default_data_dir, signed
from service.cli.serving import serve
from service.storage.migrate import migrate as run_migrations

log = logging.getLogger(__name__)

# The pool of a command run from the shell: it does one thing at a time.
SHELL_POOL = {"pool_min_size": 1, "pool_max_size": 4}
# The settings of a command that reads games, and of the webhooks' deliverer.
READS_GAMES = ("snapshot_key_file",)
DELIVERS = (*READS_GAMES, "webhooks_allow_private", "webhook_retries")


def migrate(args: argparse.Namespace) -> None:
    with database(args.data_dir) as where:
        applied = run_migrations(where.migrate)
    print("applied: " + ", ".join(applied) if applied else "the database is up to date")


def rebuild_projections(args: argparse.Namespace) -> None:
    async def rebuild(chosen: settings.Settings) -> int:
        async with bootstrap.shell(chosen) as service:
            return await service.projector.rebuild()

    chosen = signed(args)
    with database(args.data_dir) as where:
        # As the tables' owner: the rebuild creates the new tables and swaps them in.
        folded = asyncio.run(rebuild(where.as_owner(chosen)))
    print(f"rebuilt the read models from {folded} events")


def deliver_webhooks(args: argparse.Namespace) -> None:
    async def deliver(chosen: settings.Settings) -> None:
        async with bootstrap.shell(chosen) as service:
            await service.deliverer.run()

    chosen = signed(args)
    with database(args.data_dir) as where, suppress(KeyboardInterrupt):
        asyncio.run(deliver(where.shell(chosen)))


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
        name: str,
        help: str,
        run,
        under=commands,
        taken: Sequence[str] = (),
        fixed: dict[str, Any] | None = None,
    ) -> argparse.ArgumentParser:
        """A command, which takes the settings `taken` as options and from the
        environment, and the settings `fixed` as given (by default a shell's
        pool)."""
        sub = under.add_parser(name, help=help, description=help)
        option(
            sub,
            "data_dir",
            type=Path,
            default=default_data_dir(),
            help="where the embedded PostgreSQL keeps its data when DATABASE_URL is "
            "unset",
        )
        for each in taken:
            setting(sub, settings.SETTINGS[each])
        sub.set_defaults(
            run=run, taken=tuple(taken), fixed=SHELL_POOL if fixed is None else fixed
        )
        return sub

    command(
        "serve",
        "Serve the REST API (migrating the database first).",
        serve,
        taken=[served.name for served in settings.SERVED],
        fixed={},
    )
    command("migrate", "Apply the pending database migrations, then exit.", migrate)
    projections = commands.add_parser(
        "projections", help="Manage the read models (game list, player records)."
    )
    command(
        "rebuild",
        "Empty the read models and fold the whole event log into them again.",
        rebuild_projections,
        under=projections.add_subparsers(required=True, metavar="COMMAND"),
        taken=(*READS_GAMES, "rated_needs_key"),
    )
    webhooks = commands.add_parser("webhooks", help="Deliver the webhooks.")
    command(
        "deliver",
        "Deliver the webhooks until stopped, taking turns with the serving "
        "processes' deliverers (one delivers at a time).",
        deliver_webhooks,
        under=webhooks.add_subparsers(required=True, metavar="COMMAND"),
        taken=DELIVERS,
    )
    exchange.add_commands(command, READS_GAMES)
    backups.add_commands(command)
    keys.add_commands(command, commands)
    groups.add_commands(command, commands)
    benchmark.add_command(commands)
    return top


def option(
    command: argparse.ArgumentParser,
    name: str,
    *,
    default: Any,
    help: str,
    **kwargs,
) -> None:
    """`--name`, whose default comes from TABLELOG_NAME when it is set (argparse
    converts a default given as text like a value typed on the command line): an
    option of a command that is no setting of the process (--data-dir)."""
    variable = f"{settings.PREFIX}{name.upper()}"
    command.add_argument(
        "--" + name.replace("_", "-"),
        default=os.environ.get(variable, default),
        help=f"{help} (env {variable}; default: %(default)s)",
        **kwargs,
    )


def setting(command: argparse.ArgumentParser, served: settings.Served) -> None:
    """`--name` for a setting: the text typed (a switch's on or off, `--name` or
    `--no-name`), None when not given, read with the environment's by
    `settings.read` once the command line is parsed."""
    shape: dict[str, Any] = {"metavar": served.name.upper()}
    if served.switch:
        shape = {"action": argparse.BooleanOptionalAction}
    elif served.choices:
        shape = {"metavar": "{" + ",".join(served.choices) + "}"}
    help = f"{served.help} (env {served.variable}; default: {served.shown()})"
    # argparse formats a help with %: the text's own are doubled.
    command.add_argument(
        served.option, default=None, help=help.replace("%", "%%"), **shape
    )


def main(argv: list[str] | None = None) -> None:
    logs.start()
    top = parser()
    # `tablelog bench` passes its options on to the harness, which knows them.
    args, passed_on = top.parse_known_args(argv)
    if passed_on and args.command != "bench":
        top.error("unrecognized arguments: " + " ".join(passed_on))
    args.passed_on = passed_on
    for sentence in settings.unknown(os.environ):
        log.warning(sentence)
    # Every setting read and checked before the command starts anything. The
    # database's addresses are known once it is there (the embedded server's are
    # made as it starts): `Database` fills them in.
    try:
        args.settings = settings.read(
            getattr(args, "taken", ()),
            vars(args),
            os.environ,
            database_url="",
            **getattr(args, "fixed", {}),
        )
    except settings.SettingRefused as refusal:
        sys.exit(f"tablelog: {refusal}")
    args.run(args)

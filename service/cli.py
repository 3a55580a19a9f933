"""The `tablelog` command: serve the API, or run the migrations."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from service.games import Games


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "tablelog"


@contextmanager
def database(data_dir: Path) -> Iterator[str]:
    """DATABASE_URL when set; else an embedded PostgreSQL kept in `data_dir`."""
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url
        return
    from service.database import embedded_postgres

    logging.getLogger(__name__).info("embedded PostgreSQL in %s", data_dir / "postgres")
    with embedded_postgres(data_dir / "postgres") as url:
        yield url


def serve(args: argparse.Namespace) -> None:
    import uvicorn

    from service.app import create_app
    from service.settings import Settings

    with database(args.data_dir) as url:
        app = create_app(Settings(database_url=url))
        # uvicorn handles Ctrl-C and returns; leaving `database` then stops PostgreSQL.
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            log_level=args.log_level,
            # Live streams stay open until the viewer leaves: don't wait long for them.
            timeout_graceful_shutdown=3,
        )


def migrate(args: argparse.Namespace) -> None:
    from service.migrate import migrate as run_migrations

    with database(args.data_dir) as url:
        applied = run_migrations(url)
    print("applied: " + ", ".join(applied) if applied else "the database is up to date")


@asynccontextmanager
async def application(url: str) -> AsyncIterator[Games]:
    """The application layer on a migrated database, for commands run from the shell."""
    from domain.registry import GAMES
    from service.games import Games
    from service.migrate import migrate as run_migrations
    from service.settings import Settings
    from service.store import EventStore, connection_pool

    run_migrations(url)
    settings = Settings(database_url=url, pool_min_size=1, pool_max_size=4)
    async with connection_pool(settings) as pool:
        yield Games(EventStore(pool), GAMES)


def rebuild_projections(args: argparse.Namespace) -> None:
    from service.projector import Projector

    async def rebuild(url: str) -> int:
        async with application(url) as games:
            return await Projector(games.store.pool, games).rebuild()

    with database(args.data_dir) as url:
        folded = asyncio.run(rebuild(url))
    print(f"rebuilt the read models from {folded} events")


def bench(args: argparse.Namespace) -> None:
    from service.bench.run import bench as run_bench

    run_bench(args)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="tablelog",
        description="Record table games move by move, checked against the rules. "
        "Uses DATABASE_URL when set, else an embedded PostgreSQL in --data-dir.",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, run, under=commands) -> argparse.ArgumentParser:
        sub = under.add_parser(name, help=help, description=help)
        sub.add_argument(
            "--data-dir",
            type=Path,
            default=default_data_dir(),
            help="where the embedded PostgreSQL keeps its data when DATABASE_URL is "
            "unset (default: %(default)s)",
        )
        sub.set_defaults(run=run)
        return sub

    run = command("serve", "Serve the REST API (migrating the database first).", serve)
    run.add_argument("--host", default="127.0.0.1", help="default: %(default)s")
    run.add_argument("--port", type=int, default=8000, help="default: %(default)s")
    run.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="default: %(default)s",
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
    )
    from service.bench.options import add_arguments as bench_arguments

    measure = commands.add_parser(
        "bench",
        help="Measure the service beside its baselines on a database of its own.",
        description="Measure the service beside its baselines, side by side, on an "
        "embedded PostgreSQL in a temporary directory (or on the server DATABASE_URL "
        "names, in databases it creates and drops).",
    )
    bench_arguments(measure)
    measure.set_defaults(run=bench)
    from service.exchange_commands import add_commands

    add_commands(command)
    return top


def main(argv: list[str] | None = None) -> None:
    logging.basicConfig(
        level=logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    args = parser().parse_args(argv)
    args.run(args)

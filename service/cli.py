"""The `tablelog` command: serve the API, or run the migrations."""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


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
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)


def migrate(args: argparse.Namespace) -> None:
    from service.migrate import migrate as run_migrations

    with database(args.data_dir) as url:
        applied = run_migrations(url)
    print("applied: " + ", ".join(applied) if applied else "the database is up to date")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="tablelog",
        description="Record table games move by move, checked against the rules. "
        "Uses DATABASE_URL when set, else an embedded PostgreSQL in --data-dir.",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, run) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
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
    from service.exchange_commands import add_commands

    add_commands(command)
    return top


def main(argv: list[str] | None = None) -> None:
    logging.basicConfig(
        level=logging.INFO, format="%(levelname)s %(name)s: %(message)s"
    )
    args = parser().parse_args(argv)
    args.run(args)

"""`tablelog keys create`, `list` and `revoke`: the app keys, from the shell.

A key is printed once, when it is made: the database keeps only its hash. They work
on DATABASE_URL or the embedded server in --data-dir, as the other commands do.
"""

from __future__ import annotations

import argparse
import sys
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from service.application.keys import SCOPES, Key, Keys, ordered
from service.bootstrap import Service
from service.cli.context import run_on


def add_commands(
    command: Callable[..., argparse.ArgumentParser], commands: Any
) -> None:
    """Register `keys` with `tablelog`'s parser (`command` as in service.cli)."""
    keys = commands.add_parser(
        "keys", help="Manage the app keys: create, list, revoke."
    )
    under = keys.add_subparsers(required=True, metavar="COMMAND")
    create = command(
        "create",
        "Make an app's key and print it, this once (only its hash is kept).",
        run_create,
        under=under,
    )
    create.add_argument("--name", required=True, help="the app's name, 1-100 chars")
    create.add_argument(
        "--scopes",
        required=True,
        type=_scopes,
        help="what the key may do, comma-separated: " + ", ".join(SCOPES),
    )
    create.add_argument(
        "--rate",
        type=int,
        default=None,
        help="games the key may create or import a minute (default: the "
        "service's creations_per_minute)",
    )
    create.add_argument(
        "--group",
        default=None,
        metavar="NAME",
        help="the group the key is made for: the games it creates are that "
        "group's, and it may write every game of the group",
    )
    command("list", "List every key, revoked ones too.", run_list, under=under)
    revoke = command(
        "revoke",
        "Revoke a key: every request with it is refused from now on.",
        run_revoke,
        under=under,
    )
    revoke.add_argument("key_id", type=uuid.UUID, metavar="ID")


def _scopes(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _run(args: argparse.Namespace, work: Callable[[Keys], Awaitable[None]]) -> None:
    async def on_keys(service: Service) -> None:
        await work(service.keys)

    run_on(args.data_dir, args.settings, on_keys)


def run_create(args: argparse.Namespace) -> None:
    async def on_service(service: Service) -> None:
        group = None if args.group is None else await service.groups.named(args.group)
        app, key = await service.keys.create(
            args.name, args.scopes, args.rate, group and group.id
        )
        print(f"id: {app.id}\nname: {app.name}")
        print(f"scopes: {','.join(ordered(app.scopes))}")
        print(f"rate: {_rate(app.creations_per_minute)}")
        if app.group is not None:
            print(f"group: {app.group}")
        print(f"key: {key}")
        print("Keep the key now: it is not shown again.", file=sys.stderr)

    run_on(args.data_dir, args.settings, on_service)


def run_list(args: argparse.Namespace) -> None:
    async def work(keys: Keys) -> None:
        for key in await keys.list():
            print(_line(key))

    _run(args, work)


def run_revoke(args: argparse.Namespace) -> None:
    async def work(keys: Keys) -> None:
        print(_line(await keys.revoke(args.key_id)))

    _run(args, work)


def _rate(per_minute: int | None) -> str:
    return "the service's" if per_minute is None else f"{per_minute}/min"


def _line(key: Key) -> str:
    """One key, tab-separated: id, name, scopes, rate, created, revoked or active,
    and the group it was made for, if any."""
    revoked = f"revoked {_utc(key.revoked_at)}" if key.revoked_at else "active"
    return "\t".join(
        (
            str(key.id),
            key.name,
            ",".join(key.scopes),
            _rate(key.creations_per_minute),
            f"created {_utc(key.created_at)}",
            revoked,
            *([f"group {key.group}"] if key.group is not None else []),
        )
    )


def _utc(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")

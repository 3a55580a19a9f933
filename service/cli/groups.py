"""`tablelog groups claim` and `list`: the groups, from the shell.

`claim` gives a group a new owner key, printed once (the database keeps only its
hash), and revokes the owner key before it: how the operator gives a group made
before groups were owned its first owner, or gives one back to an owner who lost
the key. They work on DATABASE_URL or the embedded server in --data-dir, as the
other commands do.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from service.application.groups import Groups
from service.bootstrap import Service
from service.cli.context import run_on


def add_commands(
    command: Callable[..., argparse.ArgumentParser], commands: Any
) -> None:
    """Register `groups` with `tablelog`'s parser (`command` as in service.cli)."""
    groups = commands.add_parser("groups", help="Manage the groups: claim, list.")
    under = groups.add_subparsers(required=True, metavar="COMMAND")
    claim = command(
        "claim",
        "Make a new owner key of the group named NAME (matched as players' names "
        "are) and print it, this once; the owner key before it is revoked.",
        run_claim,
        under=under,
    )
    claim.add_argument("name", metavar="NAME", help="the group's name")
    claim.add_argument(
        "--device",
        default="claimed from the shell",
        help="the label of the device the key is for, 1-100 chars",
    )
    command("list", "List every group: id, name, made.", run_list, under=under)


def _run(args: argparse.Namespace, work: Callable[[Groups], Awaitable[None]]) -> None:
    async def on_groups(service: Service) -> None:
        await work(service.groups)

    run_on(args.data_dir, args.settings, on_groups)


def run_claim(args: argparse.Namespace) -> None:
    async def work(groups: Groups) -> None:
        made, revoked = await groups.claim(args.name, args.device)
        print(f"group: {made.group.id}\nname: {made.group.name}")
        print(f"key_id: {made.key_id}\nkey: {made.key}")
        for key in revoked:
            print(f"revoked: {key.id}\t{key.device}", file=sys.stderr)
        print("Keep the key now: it is not shown again.", file=sys.stderr)

    _run(args, work)


def run_list(args: argparse.Namespace) -> None:
    async def work(groups: Groups) -> None:
        for group in await groups.list():
            print(f"{group.id}\t{group.name}\tmade {_utc(group.created_at)}")

    _run(args, work)


def _utc(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")

"""`tablelog export`, `import` and `seed`: games in and out from the shell.

They talk to the database directly, through the same application layer as the REST API
(`Games`, built by `service/bootstrap.py` for a shell command), on DATABASE_URL or the
embedded server in --data-dir. `seed` loads the sample games into their group, and
`seed --remove` removes them (`service.application.samples`).
"""

from __future__ import annotations

import argparse
import sys
import uuid
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources
from pathlib import Path

from domain.errors import GameFinished, RuleError
from service.application.exchange import export_game, import_game
from service.application.games import Games
from service.application.plugins import installed_games
from service.application.samples import SAMPLE_GROUP, Samples
from service.application.wording import in_english
from service.bootstrap import Service
from service.cli.context import run_on, signed

# The sample games ship inside the package, so an installed tablelog finds them.
SEEDS = Path(str(resources.files("seeds")))


def add_commands(
    command: Callable[..., argparse.ArgumentParser], reads_games: Sequence[str]
) -> None:
    """Register the commands with `tablelog`'s parser (`command` as in service.cli),
    each taking the settings of a command that reads games (`reads_games`)."""
    export = command(
        "export",
        "Print a game as NDJSON (the export format).",
        run_export,
        taken=reads_games,
    )
    export.add_argument("game_id", type=uuid.UUID, metavar="GAME_ID")
    imported = command(
        "import",
        "Import an export as a new game; print its id and write token.",
        run_import,
        taken=reads_games,
    )
    imported.add_argument("file", type=Path, metavar="FILE", help="'-' reads stdin")
    seed = command(
        "seed",
        f"Load the sample games (every .ndjson file in --seeds) into the group "
        f"{SAMPLE_GROUP!r}, public and marked sample: on no game's own ladder and in "
        "no player's record. A sample already loaded is left as it is; removed "
        "samples come back.",
        run_seed,
        taken=reads_games,
    )
    seed.add_argument("--seeds", type=Path, default=SEEDS, help="default: %(default)s")
    seed.add_argument(
        "--remove",
        action="store_true",
        help="remove the sample games instead: every read answers as for a game "
        "that does not exist (their rows stay); `tablelog seed` brings them back",
    )


def _run(args: argparse.Namespace, work: Callable[[Games], Awaitable[None]]) -> None:
    """Run `work` on the application layer; a refusal is printed, exit status 1."""

    async def on_games(service: Service) -> None:
        await work(service.games)

    try:
        run_on(args.data_dir, signed(args), on_games)
    except (RuleError, GameFinished) as error:
        sys.exit(f"tablelog: {in_english(error, installed_games())}")


def run_export(args: argparse.Namespace) -> None:
    async def work(games: Games) -> None:
        sys.stdout.buffer.write(await export_game(games, args.game_id))

    _run(args, work)


def run_import(args: argparse.Namespace) -> None:
    body = sys.stdin.buffer.read() if str(args.file) == "-" else args.file.read_bytes()

    async def work(games: Games) -> None:
        imported = await import_game(games, body)
        print(f"id: {imported.row.id}\nwrite_token: {imported.write_token}")

    _run(args, work)


def run_seed(args: argparse.Namespace) -> None:
    if args.remove:
        _run(args, _remove)
        return
    files = sorted(args.seeds.glob("*.ndjson"))

    async def work(games: Games) -> None:
        samples = Samples(games)
        group = await samples.show()
        for file in files:
            seeded = await samples.load(file.name, file.read_bytes(), group)
            history = seeded.history
            if history is not None:
                print(
                    f"{file.name}: {history.rules.name} game {seeded.game_id}, "
                    f"{history.version} events, {history.status}"
                )
            elif seeded.sample:
                print(f"{file.name}: already loaded as game {seeded.game_id}")
            else:
                print(
                    f"{file.name}: game {seeded.game_id} was loaded before samples "
                    "had a group, and is an ordinary game: left as it is"
                )

    _run(args, work)
    print(
        f"{len(files)} sample games from {args.seeds} are in the database, "
        f"in the group {SAMPLE_GROUP!r}"
    )


async def _remove(games: Games) -> None:
    if await Samples(games).remove():
        print(
            "The sample games are removed: every read answers as for a game that "
            "does not exist. `tablelog seed` brings them back."
        )
    else:
        print("The sample games were removed already.")

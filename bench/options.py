"""The options of `python -m bench`.
(The measurements themselves are imported only when the bench runs.)"""

from __future__ import annotations

import argparse
from pathlib import Path

MEASUREMENTS = (
    "appends",
    "http",
    "cpu",
    "folds",
    "replay",
    "projections",
    "ratings",
    "tables",
    "pictures",
    "webhooks",
    "visibility",
)


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--seconds",
        type=float,
        default=4.0,
        help="time given to each contestant of a timed measurement "
        "(default: %(default)s; the whole run then takes about 3 minutes)",
    )
    command.add_argument(
        "--rounds",
        type=int,
        default=2,
        help="slices each contestant's time is cut into, alternating with the "
        "others' (default: %(default)s)",
    )
    command.add_argument(
        "--clients", type=int, default=8, help="HTTP clients (default: %(default)s)"
    )
    command.add_argument(
        "--only",
        nargs="+",
        choices=MEASUREMENTS,
        default=list(MEASUREMENTS),
        help="run only these measurements",
    )
    command.add_argument(
        "--step-seconds",
        type=float,
        default=16.0,
        help="length of each step of the tables held, long enough for a p99 "
        "(default: %(default)s)",
    )
    command.add_argument(
        "--warm-up-seconds",
        type=float,
        default=3.0,
        help="length of the step, not counted, that warms each server up before "
        "its search of the tables held (default: %(default)s)",
    )
    command.add_argument(
        "--tables-from",
        type=int,
        default=100,
        help="the tables of the first step (default: %(default)s)",
    )
    command.add_argument(
        "--tables-most",
        type=int,
        default=8000,
        help="the most tables tried (default: %(default)s)",
    )
    command.add_argument(
        "--cpu-tables",
        type=int,
        default=300,
        help="the tables logging while the server's CPU a move is measured, fewer "
        "than either server holds (default: %(default)s)",
    )
    command.add_argument(
        "--cpu-seconds",
        type=float,
        default=12.0,
        help="each server's slice of a round of the CPU a move (default: %(default)s)",
    )
    command.add_argument(
        "--peers",
        action="store_true",
        help="store appends: Message DB's write_message beside ours too, when its "
        "SQL is at hand (MESSAGE_DB_SQL, see docs/benchmarks.md)",
    )
    command.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run, to see that every measurement works: half a "
        "second per contestant, one round, tables held in 2 s steps of 4 and "
        "8 tables after a half-second warm-up, the CPU a move at 8 tables for "
        "2 s (its figures mean nothing)",
    )
    command.add_argument("--out", type=Path, help="write the JSON report here")


def quick(args: argparse.Namespace) -> argparse.Namespace:
    """`args` as --quick makes them."""
    if args.quick:
        args.seconds, args.rounds = 0.5, 1
        args.step_seconds, args.tables_from, args.tables_most = 2.0, 4, 8
        args.warm_up_seconds = 0.5
        args.cpu_tables, args.cpu_seconds = 8, 2.0
    return args

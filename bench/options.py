"""The options of `python -m bench`.
(The measurements themselves are imported only when the bench runs.)"""

from __future__ import annotations

import argparse
from pathlib import Path

MEASUREMENTS = ("appends", "http", "folds", "replay", "projections")


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
    command.add_argument("--out", type=Path, help="write the JSON report here")

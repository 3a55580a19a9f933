"""`tablelog bench`: the benchmark harness, where there is one.

The harness (`bench/`) stays in the repository's checkout and is not installed with
the package: it needs the baselines' libraries (the `bench` extra) and measures the
checkout's own code beside them. So from a checkout installed with `pip install -e .`
`tablelog bench ARGS` runs `python -m bench ARGS` there, and from an installed wheel
it says where the harness is instead of failing on an import.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

# The checkout this package was installed from, when it was (editable installs).
CHECKOUT = Path(__file__).resolve().parents[2]

_NOT_HERE = (
    "tablelog bench: the benchmark harness runs from a checkout of the tablelog "
    "repository, not from the installed package: there, `pip install -e '.[bench]'` "
    "and `tablelog bench --help` (or `python -m bench --help`)."
)


def add_command(commands: argparse._SubParsersAction) -> None:
    help = (
        "Run the benchmark harness of this checkout (python -m bench; its options "
        "are passed on: tablelog bench --help lists them)."
    )
    bench = commands.add_parser("bench", add_help=False, help=help, description=help)
    bench.set_defaults(run=run_bench)


def run_bench(args: argparse.Namespace) -> None:
    if not (CHECKOUT / "bench" / "__main__.py").is_file():
        sys.exit(_NOT_HERE)
    path = os.pathsep.join(filter(None, [str(CHECKOUT), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "bench", *args.passed_on],
        env=os.environ | {"PYTHONPATH": path},
    )
    sys.exit(done.returncode)

"""`python -m bench`: run the bench from a checkout (it is not part of the package)."""

import argparse

from bench.options import add_arguments, quick
from bench.run import bench

parser = argparse.ArgumentParser(
    prog="python -m bench",
    description="Measure the service beside its baselines, side by side, on an "
    "embedded PostgreSQL in a temporary directory (or on the server DATABASE_URL "
    "names, in databases it creates and drops).",
)
add_arguments(parser)
bench(quick(parser.parse_args()))

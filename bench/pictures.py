"""Pictures of replay steps: the time to draw one step as a PNG, and 100 steps as an
animated GIF, beside the SVG of the same pictures, in this process (as a worker
thread of the service draws them: each step described from its public state and
sentence, then rendered).

Each game kind is timed in turn, a PNG, its SVG, a GIF, its SVGs, round after round
(`RUNS` each), so a neighbour's burst of load hits both alike; the figures give the
median of a kind's runs and their range, in wall time; the JSON report's details
give each run's, and its processor time."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from bench.report import Figure, Latency, Report
from bench.workload import endless, setup_for
from domain.game import Rules
from domain.history import History, Recorded
from domain.registry import BUILT_IN
from service.application.pictures import step_picture
from service.http.pictures import RENDERERS

GIF_FRAMES = 100
RUNS = 7


def _game(rules: Rules) -> tuple[list[History], list[Recorded]]:
    """A simulated game's first GIF_FRAMES moves (undos and moves again after its
    end): its histories by step and its records."""
    setup = setup_for(rules)
    histories = [History.start(rules, setup)]
    records: list[Recorded] = []
    for _, record, history in endless(rules, setup):
        records.append(record)
        histories.append(history)
        if len(records) == GIF_FRAMES:
            return histories, records
    raise AssertionError("unreachable: the game goes on for ever")


def _timer(
    kind: str, histories: list[History], records: list[Recorded], first: int
) -> Callable[[], tuple[float, float]]:
    """One drawing of steps `first` to the last as `kind`: its seconds of wall time
    and of this process's processor time (what the neighbours' load on a shared
    machine does not stretch)."""
    render = RENDERERS[kind]

    def timed() -> tuple[float, float]:
        start, used = time.perf_counter(), time.process_time()
        pictures = [
            step_picture(histories, records, n, BUILT_IN.languages["en"])
            for n in range(first, len(records) + 1)
        ]
        render(pictures)
        return time.perf_counter() - start, time.process_time() - used

    return timed


def _latency(label: str, seconds: list[float]) -> Latency:
    ms = [s * 1000 for s in seconds]
    return Latency(label, statistics.median(ms), len(ms), min(ms), max(ms))


async def measure(report: Report, runs: int = RUNS) -> None:
    for name, rules in BUILT_IN.items():
        histories, records = _game(rules)
        last = len(records)
        contestants = {
            "png": _timer("png", histories, records, last),
            "svg": _timer("svg", histories, records, last),
            "gif": _timer("gif", histories, records, 1),
            "svgs": _timer("svg", histories, records, 1),
        }
        times: dict[str, list[float]] = {key: [] for key in contestants}
        processor: dict[str, list[float]] = {key: [] for key in contestants}
        for _ in range(runs):
            for key, timed in contestants.items():
                wall, used = timed()
                times[key].append(wall)
                processor[key].append(used)
        for ours, baseline, figure in (
            ("png", "svg", f"{name}: a step as PNG / as SVG"),
            ("gif", "svgs", f"{name}: {GIF_FRAMES} steps as a GIF / as SVGs"),
        ):
            report.add(
                Figure(
                    "pictures",
                    figure,
                    _latency(ours.upper(), times[ours]),
                    _latency(baseline.upper(), times[baseline]),
                    rounds=tuple(
                        a / b for a, b in zip(times[ours], times[baseline], strict=True)
                    ),
                )
            )
        report.details.setdefault("pictures", {})[name] = {
            key: [round(s * 1000, 2) for s in seconds] for key, seconds in times.items()
        } | {
            f"{key} processor": [round(s * 1000, 2) for s in seconds]
            for key, seconds in processor.items()
        }
        for key in ("png", "gif"):
            print(
                f"  {name}: {key.upper()} {_range(times[key])}, "
                f"processor {_range(processor[key])}",
                flush=True,
            )


def _range(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    return f"median {statistics.median(ms):.1f} ms ({ms[0]:.1f} to {ms[-1]:.1f})"

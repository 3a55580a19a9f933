"""The bench's figures: each a ratio of two rates measured side by side, or a count;
printed as a table and written as JSON."""

from __future__ import annotations

import json
import os
import platform
import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class Rate:
    """`count` operations in `seconds` of wall time."""

    label: str
    count: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0

    def __str__(self) -> str:
        return f"{self.per_second:,.0f}/s"


@dataclass(frozen=True, slots=True)
class Latency:
    """Milliseconds per request: the median of `samples`, and their range when
    they are few and each one counts (a cold read)."""

    label: str
    median_ms: float
    samples: int
    low_ms: float | None = None
    high_ms: float | None = None

    def __str__(self) -> str:
        return f"{self.median_ms:.2f} ms"


@dataclass(frozen=True, slots=True)
class Percentile:
    """Milliseconds per request: the `rank`th percentile of `count` timed requests."""

    label: str
    ms: float
    count: int
    rank: int = 99

    def __str__(self) -> str:
        return f"p{self.rank} {self.ms:.2f} ms"


@dataclass(frozen=True, slots=True)
class Cost:
    """Milliseconds of a process's CPU time per operation, over `count` of them."""

    label: str
    ms: float
    count: int

    def __str__(self) -> str:
        return f"{self.ms:.2f} ms CPU"


@dataclass(frozen=True, slots=True)
class Held:
    """The most `tables` served within the latency bound; `p99_ms` at that load."""

    label: str
    tables: int
    p99_ms: float

    def __str__(self) -> str:
        return f"{self.tables:,} tables (p99 {self.p99_ms:.0f} ms)"


@dataclass(frozen=True, slots=True)
class Figure:
    """`ours` beside `baseline`; `ratio` = ours / baseline (in rate or in time)."""

    group: str
    name: str
    ours: Rate | Latency | Percentile | Held | Cost
    baseline: Rate | Latency | Percentile | Held | Cost
    # ("min", 0.8): the ratio must be at least 0.8; ("max", 3): at most 3.
    target: tuple[str, float] | None = None
    note: str = ""
    # Each round's ratio, when the two were compared round by round (`ours` and
    # `baseline` then sum up every round): the figure's ratio is their median.
    rounds: tuple[float, ...] = ()

    @property
    def ratio(self) -> float:
        if self.rounds:
            return statistics.median(self.rounds)
        if isinstance(self.ours, Rate):
            theirs = self.baseline.per_second
            return self.ours.per_second / theirs if theirs else 0.0
        if isinstance(self.ours, Percentile | Cost):
            return self.ours.ms / self.baseline.ms
        if isinstance(self.ours, Held):
            theirs = self.baseline.tables
            return self.ours.tables / theirs if theirs else 0.0
        return self.ours.median_ms / self.baseline.median_ms

    @property
    def met(self) -> bool | None:
        if self.target is None:
            return None
        kind, bound = self.target
        return self.ratio >= bound if kind == "min" else self.ratio <= bound


@dataclass
class Report:
    figures: list[Figure] = field(default_factory=list)
    counts: dict[str, Any] = field(default_factory=dict)
    # Written to the JSON report only: what a figure was made from (the steps of
    # the tables held, say).
    details: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    command: str = ""

    def add(self, figure: Figure) -> None:
        self.figures.append(figure)
        print(
            f"  {figure.name}: {figure.ours} vs {figure.baseline} = {figure.ratio:.2f}",
            flush=True,
        )

    def table(self) -> str:
        rows = [("measurement", "ours", "baseline", "ratio", "target", "met")]
        for f in self.figures:
            target = "" if f.target is None else _target(f.target)
            met = {None: "", True: "yes", False: "NO"}[f.met]
            rows.append(
                (
                    f"{f.group}: {f.name}",
                    _cell(f.ours),
                    _cell(f.baseline),
                    _ratio(f),
                    target,
                    met,
                )
            )
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = [
            "| "
            + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
            + " |"
            for row in rows
        ]
        lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
        counts = ", ".join(f"{k}: {v}" for k, v in self.counts.items())
        return "\n".join(
            [
                *lines,
                "",
                f"counts: {counts}",
                f"machine: {os.cpu_count()} cores; total: {self.seconds:.0f} s",
            ]
        )

    def write(self, path: Path) -> None:
        document = {
            "command": self.command,
            "machine": {
                "cores": os.cpu_count(),
                "python": platform.python_version(),
                "platform": platform.platform(),
            },
            "seconds": round(self.seconds, 1),
            "counts": self.counts,
            "details": self.details,
            "figures": [
                {**asdict(f), "ratio": round(f.ratio, 3), "met": f.met}
                for f in self.figures
            ],
        }
        path.write_text(json.dumps(document, indent=2, default=str) + "\n")


def _ratio(figure: Figure) -> str:
    """The ratio, and the range of the rounds' when it is their median."""
    if not figure.rounds:
        return f"{figure.ratio:.2f}"
    return f"{figure.ratio:.2f} ({min(figure.rounds):.2f} to {max(figure.rounds):.2f})"


def _target(target: tuple[str, float]) -> str:
    kind, bound = target
    return f"≥ {bound:g}" if kind == "min" else f"≤ {bound:g}"


def _cell(value: Rate | Latency | Percentile | Held | Cost) -> str:
    return f"{value.label} {value}"

"""`python -m bench` runs and reports every figure as a ratio of two counted rates.

Only that it works is checked here: speed is measured by the bench itself, never by a
timed test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# The bench is run from a checkout: it is not part of the installed package.
CHECKOUT = Path(__file__).resolve().parents[2]


def run_bench(
    server, report: Path, *only: str, options: tuple[str, ...] = (), **env: str
) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "bench", "--quick", *options, "--only", *only]
    done = subprocess.run(
        [*command, "--out", str(report)],
        env={**os.environ, "DATABASE_URL": server.conninfo, **env},
        cwd=CHECKOUT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_the_bench_measures_side_by_side_and_writes_its_report(
    postgres_server, tmp_path
):
    report = tmp_path / "bench.json"
    done = run_bench(postgres_server, report, "appends", "folds", "http")
    figures = json.loads(report.read_text())["figures"]
    groups = {figure["group"] for figure in figures}
    assert {"store appends, 1 writer", "store appends, 8 writers"} <= groups
    assert any(group.startswith("folds") for group in groups)
    assert any(group.startswith("HTTP appends") for group in groups)
    for figure in figures:
        assert figure["ours"]["count"] > 0 and figure["baseline"]["count"] > 0
        assert figure["ratio"] > 0
        # A ratio of each round, against the baseline of that round (one round).
        assert len(figure["rounds"]) == 1, figure["name"]
    assert "ours / plain INSERT" in done.stdout
    # A lone writer's appends beside the statement the store sends, sent raw.
    names = {(figure["group"], figure["name"]) for figure in figures}
    assert ("store appends, 1 writer", "ours / the same row sent raw") in names
    # The service's moves under an Idempotency-Key, as the page sends them.
    keyed = "POST /moves under an Idempotency-Key / without"
    assert ("HTTP appends, 8 clients", keyed) in names


def test_the_bench_finds_the_tables_held_by_one_worker_two_and_the_bare_handler(
    postgres_server, tmp_path
):
    report = tmp_path / "bench.json"
    run_bench(postgres_server, report, "tables")
    document = json.loads(report.read_text())
    names = {figure["name"] for figure in document["figures"]}
    assert names == {
        "tables held, 1 worker / bare INSERT handler",
        "tables held, 2 workers / 1 worker",
    }
    assert document["machine"]["cores"] >= 1
    # --quick starts at 4 tables and stops at 8 (or bisects below 4 on a slow
    # machine): each contestant's steps moved real games.
    steps = document["details"]["tables held: steps"]
    assert set(steps) == {"bare", "1 worker", "2 workers"}
    for contestant, (taken,) in steps.items():
        assert taken[0]["tables"] == 4, contestant
        assert all(1 <= step["tables"] <= 8 for step in taken), contestant
        assert sum(step["requests"] for step in taken) > 0, contestant
        assert all(step["failures"] == {} for step in taken), contestant
    # A figure's tables are the most that passed: every move answered, p99 in bound.
    held = {
        contestant: max(
            (s["tables"] for s in taken if s["requests"] and s["p99_ms"] <= 50),
            default=0,
        )
        for contestant, (taken,) in steps.items()
    }
    ours = {f["name"]: (f["ours"]["tables"], f["baseline"]["tables"])
            for f in document["figures"]}  # fmt: skip
    assert ours == {
        "tables held, 1 worker / bare INSERT handler": (held["1 worker"], held["bare"]),
        "tables held, 2 workers / 1 worker": (held["2 workers"], held["1 worker"]),
    }
    # The ratio is each round's, against the baseline of that round (one round here).
    for figure in document["figures"]:
        o, b = figure["ours"]["tables"], figure["baseline"]["tables"]
        assert figure["rounds"] == [o / b if b else 0.0], figure["name"]


def test_the_bench_times_a_png_and_a_gif_of_every_game(postgres_server, tmp_path):
    report = tmp_path / "bench.json"
    run_bench(postgres_server, report, "pictures")
    document = json.loads(report.read_text())
    names = {figure["name"] for figure in document["figures"]}
    for game in ("dobro", "dozito", "double-donkey"):
        assert f"{game}: a step as PNG / as SVG" in names
        assert f"{game}: 100 steps as a GIF / as SVGs" in names
    for figure in document["figures"]:
        assert figure["ours"]["median_ms"] > 0 and figure["ratio"] > 0
    assert len(document["details"]["pictures"]["dozito"]["gif"]) == 2


def test_the_bench_sets_ratings_beside_the_service_without_them(
    postgres_server, tmp_path
):
    report = tmp_path / "bench.json"
    run_bench(postgres_server, report, "ratings")
    document = json.loads(report.read_text())
    figures = {figure["name"]: figure for figure in document["figures"]}
    latency = figures["finishing move, p99: with ratings / without"]
    assert latency["ours"]["count"] == latency["baseline"]["count"] > 0
    assert latency["target"] == ["max", 1.2]
    rebuild = figures["rebuild of the ratings / reading the log alone (games a second)"]
    assert rebuild["ours"]["count"] == rebuild["baseline"]["count"] > 0
    assert any(name.startswith("leaderboard read at") for name in figures)
    # Only the contestant with ratings rated its games.
    rated, unrated = document["counts"]["games rated (with ratings / without)"].split(
        " / "
    )
    assert int(rated) > 0 and int(unrated) == 0


def test_the_bench_measures_the_server_cpu_a_move_costs_beside_the_bare_handler(
    postgres_server, tmp_path
):
    report = tmp_path / "bench.json"
    done = run_bench(postgres_server, report, "cpu")
    document = json.loads(report.read_text())
    (figure,) = document["figures"]
    assert figure["name"] == "ours / bare INSERT handler"
    assert figure["target"] == ["max", 1.25]
    slices = document["details"]["server CPU a move: slices"]
    assert set(slices) == {"ours", "bare"}
    for name, ((cpu_seconds, moves),) in slices.items():
        assert cpu_seconds > 0 and moves > 0, name
    (ours,), (bare,) = slices["ours"], slices["bare"]
    assert figure["rounds"] == [
        pytest.approx((ours[0] / ours[1]) / (bare[0] / bare[1]))
    ]
    assert figure["ours"]["ms"] == pytest.approx(ours[0] / ours[1] * 1000)
    assert "ms CPU" in done.stdout


def test_the_peers_without_message_db_at_hand_say_so_and_measure_the_rest(
    postgres_server, tmp_path
):
    report = tmp_path / "bench.json"
    nothing = tmp_path / "no-message-db"
    nothing.mkdir()
    done = run_bench(
        postgres_server,
        report,
        "appends",
        options=("--peers",),
        MESSAGE_DB_SQL=str(nothing),
    )
    assert "no Message DB" in done.stdout
    names = {f["name"] for f in json.loads(report.read_text())["figures"]}
    assert "ours / plain INSERT" in names
    assert not any("Message DB" in name for name in names)


def test_the_bench_measures_moves_beside_ten_webhook_endpoints_and_their_delay(
    postgres_server, tmp_path
):
    report = tmp_path / "bench.json"
    done = run_bench(postgres_server, report, "webhooks")
    written = json.loads(report.read_text())
    figures = {figure["name"]: figure for figure in written["figures"]}
    moves = [figures[name] for name in figures if name.startswith("moves a second")]
    # Delivered by the serving process, and by a process of its own.
    assert {figure["ours"]["label"] for figure in moves} == {"in-process", "apart"}
    for figure in moves:
        assert figure["ours"]["count"] > 0 and figure["baseline"]["count"] > 0
        assert figure["target"] == ["min", 0.9]
    (delay,) = [name for name in figures if name.startswith("delay from a move")]
    assert figures[delay]["ours"]["rank"] == 99
    assert figures[delay]["baseline"]["rank"] == 50
    assert written["details"]["webhooks: delays (ms), paced"] > 0
    assert "messages a second to 10 endpoints" in done.stdout


def test_the_bench_sets_a_members_games_moves_and_replays_beside_a_public_ones(
    postgres_server, tmp_path
):
    report = tmp_path / "bench.json"
    run_bench(postgres_server, report, "visibility")
    written = json.loads(report.read_text())
    figures = written["figures"]
    assert [figure["name"] for figure in figures] == [
        "POST /moves, members game / public game",
        "GET /replay, members game / public game",
        "POST /moves, group's game / game of no group",
    ]
    moved = {
        name: count for name, count in written["counts"].items() if "moves" in name
    }
    assert moved and all(name.endswith(" 201") for name in moved), moved
    for figure in figures:
        assert figure["ours"]["count"] > 0 and figure["baseline"]["count"] > 0
        assert len(figure["rounds"]) == 1 and figure["ratio"] > 0

"""`tablelog` as a newcomer runs it: --help, and serve on an embedded PostgreSQL that
keeps its games across a restart and stops cleanly on Ctrl-C."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

import httpx
import psycopg
import pytest

from tests.support.ports import free_port
from tests.support.processes import start_serving, stop

PLAYERS = ["Ann", "Bob"]


def tablelog(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "service", *args],
        capture_output=True,
        text=True,
        timeout=60,
        **kwargs,
    )


def test_help_explains_every_command():
    out = tablelog("--help").stdout
    for command in ("serve", "migrate"):
        assert command in out
    serve = tablelog("serve", "--help").stdout
    for option in ("--host", "--port", "--data-dir"):
        assert option in serve


def serve_command(data_dir, port) -> list[str]:
    return [sys.executable, "-m", "service", "serve", "--port", str(port),
            "--data-dir", str(data_dir)]  # fmt: skip


@pytest.mark.db
def test_serve_on_embedded_postgres_keeps_games_across_a_restart(tmp_path):
    port = free_port()
    server = start_serving(serve_command(tmp_path, port), port)
    try:
        base = f"http://127.0.0.1:{port}"
        body = {"game": "dobro", "players": ["Ann", "Bob"], "first_player": "Ann"}
        game = httpx.post(f"{base}/games", json=body).json()
    finally:
        stop(server)
    server = start_serving(serve_command(tmp_path, port), port)
    try:
        again = httpx.get(f"{base}/games/{game['id']}")
        assert again.status_code == 200
        assert again.json()["players"] == ["Ann", "Bob"]
        # Ready: the serving role reads the migrations applied.
        ready = httpx.get(f"{base}/health/ready")
        assert (ready.status_code, ready.json()) == (200, {"status": "ok"})
    finally:
        stop(server)
    # Ctrl-C stopped the embedded PostgreSQL too: nothing holds its data directory.
    assert not (tmp_path / "postgres" / "postmaster.pid").exists()


@pytest.mark.db
def test_the_embedded_postgres_killed_is_started_again_by_serve(tmp_path):
    """Its postmaster killed (the OOM killer's favourite): `serve` starts it again,
    and the service is ready again without anyone restarting it."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_serving(serve_command(tmp_path, port), port)
    try:
        body = {"game": "dobro", "players": PLAYERS, "first_player": "Ann"}
        game = httpx.post(f"{base}/games", json=body).json()
        pid_file = tmp_path / "postgres" / "postmaster.pid"
        os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)
        deadline = time.monotonic() + 30
        while httpx.get(f"{base}/health/ready").status_code != 200:
            assert time.monotonic() < deadline, "the database was not started again"
            time.sleep(0.5)
        again = httpx.get(f"{base}/games/{game['id']}")
        assert again.status_code == 200, again.text
    finally:
        output = stop(server)
    assert "stopped: starting it again" in output
    assert not pid_file.exists()


@pytest.mark.db
def test_an_embedded_postgres_found_running_is_started_again_when_killed(tmp_path):
    """A `serve` killed outright leaves its embedded server running, and the next
    `serve` uses it without having started it (so never stops it). Its starter is
    gone: the postmaster killed then, the next `serve` starts it again all the
    same, or the service would answer 503 until a person stepped in."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    pid_file = tmp_path / "postgres" / "postmaster.pid"
    killed = start_serving(serve_command(tmp_path, port), port)
    killed.kill()
    killed.communicate(timeout=30)
    server = start_serving(serve_command(tmp_path, port), port)
    try:
        os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)
        deadline = time.monotonic() + 30
        while httpx.get(f"{base}/health/ready").status_code != 200:
            assert time.monotonic() < deadline, "the database was not started again"
            time.sleep(0.5)
    finally:
        output = stop(server)
        # Left running, as found: stop it here.
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGINT)
    assert "stopped: starting it again" in output
    assert pid_file.exists(), "serve stopped a server it found running"


@pytest.mark.db
@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_stops_serve_and_its_embedded_postgres_cleanly(tmp_path, workers):
    """SIGTERM is how systemd, Docker and `kill` stop a service: it ends like
    Ctrl-C, the embedded PostgreSQL stopped, not left running."""
    port = free_port()
    command = [*serve_command(tmp_path, port), "--workers", str(workers)]
    stop(start_serving(command, port), signal.SIGTERM)
    assert not (tmp_path / "postgres" / "postmaster.pid").exists()


@pytest.mark.parametrize("workers", [1, 2])
def test_serve_on_a_port_taken_exits_at_once_saying_so(tmp_path, workers):
    """Not a hang after "Waiting for application shutdown.", and no database
    started and stopped for nothing: the port is taken before anything starts."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = ["serve", "--port", str(port), "--data-dir", str(tmp_path)]
        done = tablelog(*command, "--workers", str(workers), env=env)
    assert done.returncode == 1, done.stderr
    assert done.stderr.endswith(
        f"tablelog: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    ), done.stderr
    assert not (tmp_path / "postgres").exists()


def chosen(*argv: str, **environment: str):
    """The settings `tablelog ARGV` runs with, in `environment`."""
    from service.cli import parser
    from service.settings import read

    args = parser().parse_args(list(argv))
    return read(args.taken, vars(args), environment, database_url="", **args.fixed)


def test_every_serve_option_comes_from_the_environment_too():
    environment = {
        "TABLELOG_PORT": "9001",
        "TABLELOG_HOST": "0.0.0.0",
        "TABLELOG_MAX_STREAMS": "7",
    }
    settings = chosen("serve", **environment)
    assert (settings.port, settings.host, settings.max_streams) == (9001, "0.0.0.0", 7)
    assert chosen("serve", "--port", "9002", **environment).port == 9002

    serve = tablelog("serve", "--help").stdout
    options = re.findall(r"^  (--[a-z-]+)", serve, flags=re.M)
    assert len(options) > 5
    for option in options:
        variable = "TABLELOG_" + option[2:].replace("-", "_").upper()
        assert variable in serve.replace("\n", " ").replace(" ", ""), option


def test_a_flag_comes_from_the_environment_as_on_or_off():
    for value, on in (("1", True), ("true", True), ("off", False), ("0", False)):
        assert chosen("serve", TABLELOG_METRICS=value).metrics is on, value
    assert chosen("serve", "--no-metrics", TABLELOG_METRICS="on").metrics is False


def test_json_logs_are_one_object_a_line_and_never_show_a_write_token(
    fresh_database_url,
):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": fresh_database_url}
    env |= {"TABLELOG_LOG_FORMAT": "json", "TABLELOG_METRICS": "on"}
    server = subprocess.Popen(
        [sys.executable, "-m", "service", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{base}/health/live").status_code == 200:
                    break
            time.sleep(0.1)
        game = httpx.post(f"{base}/games", json={"game": "dobro", "players": PLAYERS})
        token = game.json()["write_token"]
        httpx.get(f"{base}/games/{game.json()['id']}?token={token}&x=1")
        assert httpx.get(f"{base}/metrics").status_code == 200
    finally:
        output = stop(server)
    lines = [json.loads(line) for line in output.splitlines() if line.strip()]
    assert all({"timestamp", "level", "logger", "message"} <= set(r) for r in lines)
    access = [r for r in lines if r["logger"] == "uvicorn.access"]
    assert {
        (r["method"], r["path"].partition("?")[0], r["status"]) for r in access
    } >= {
        ("POST", "/games", 201),
        ("GET", "/metrics", 200),
    }
    assert any(r["path"].endswith("?token=[redacted]&x=1") for r in access)
    assert token not in output


def test_projections_rebuild_folds_the_log_into_new_tables(fresh_database_url):
    env = {**os.environ, "DATABASE_URL": fresh_database_url}
    imported = tablelog("seed", env=env)
    assert imported.returncode == 0, imported.stderr
    rebuilt = tablelog("projections", "rebuild", env=env)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert re.fullmatch(r"rebuilt the read models from \d+ events\n", rebuilt.stdout)
    with psycopg.connect(fresh_database_url) as conn:
        (listed,) = conn.execute("SELECT count(*) FROM game_summaries").fetchone()
        (games,) = conn.execute("SELECT count(*) FROM games").fetchone()
    assert listed == games > 0

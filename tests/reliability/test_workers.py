"""`tablelog serve --workers 2`: two processes on one port and one embedded
PostgreSQL. Two clients log one game at once through them, each retrying a move
refused as stale (409) after reading the game again; no acknowledged move is lost,
no version is stored twice, and both processes served moves.

Which process answered is read from the access log, where each worker's lines carry
its process id (the answers themselves do not say: nothing in them tells a client
about the server's processes).

A worker's connections also send without Nagle's delay, on the very socket the
supervisor binds for the workers."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import msgspec
import pytest
import uvicorn

from service.http.server import config
from service.settings import Settings
from tests.support.http import live_histories, simulated_moves, view
from tests.support.ports import free_port
from tests.support.processes import answering

CHECKOUT = Path(__file__).resolve().parents[2]


def serve_with_workers(data_dir: Path, port: int, log: Path) -> subprocess.Popen:
    """`tablelog serve --workers 2` on its own embedded PostgreSQL, this checkout's
    code, until it answers."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONPATH"] = str(CHECKOUT)
    command = [sys.executable, "-m", "service", "serve", "--workers", "2",
               "--port", str(port), "--data-dir", str(data_dir)]  # fmt: skip
    with log.open("w") as out:
        process = subprocess.Popen(
            command, env=env, cwd=CHECKOUT, stdout=out, stderr=subprocess.STDOUT
        )
    return answering(process, port, log, 120)


def log_together(base: str, game: dict, moves: list, acknowledged: list) -> None:
    """One client: read the game's version, post the move that comes next, and
    start again on 409. A new connection for each request, so that the kernel hands
    them to whichever worker waits."""
    auth = {"Authorization": f"Bearer {game['write_token']}"}
    keep_none = httpx.Limits(max_keepalive_connections=0)
    with httpx.Client(base_url=base, timeout=30, limits=keep_none) as client:
        while True:
            version = client.get(f"/games/{game['id']}").json()["version"]
            if version > len(moves):
                return
            body = moves[version - 1] | {"expected_version": version}
            answer = client.post(f"/games/{game['id']}/moves", json=body, headers=auth)
            if answer.status_code == 409:
                continue
            assert answer.status_code == 201, answer.text
            acknowledged.append((answer.json()["version"], moves[version - 1]))


@pytest.mark.db
def test_two_workers_log_one_game_from_two_clients_without_losing_a_move(tmp_path):
    port, log = free_port(), tmp_path / "serve.log"
    base = f"http://127.0.0.1:{port}"
    server = serve_with_workers(tmp_path / "data", port, log)
    try:
        assert httpx.get(f"{base}/health/ready").status_code == 200
        body = {"game": "dobro", "players": ["Ann", "Bob"], "first_player": "Ann",
                "seed": 12}  # fmt: skip
        game = httpx.post(f"{base}/games", json=body).json()
        moves = [json.loads(msgspec.json.encode(m)) for m in simulated_moves(game)]
        acknowledged: list[tuple[int, dict]] = []
        clients = [
            threading.Thread(
                target=log_together, args=(base, game, moves, acknowledged)
            )
            for _ in range(2)
        ]
        for client in clients:
            client.start()
        for client in clients:
            client.join(timeout=300)

        versions = [version for version, _ in acknowledged]
        assert sorted(versions) == list(range(2, len(moves) + 2))  # none twice
        stored = httpx.get(f"{base}/games/{game['id']}/events").json()["events"]
        by_version = {event["version"]: event["data"]["move"] for event in stored[1:]}
        assert by_version == dict(acknowledged)  # none lost, none changed
        final = httpx.get(f"{base}/games/{game['id']}").json()
        expected = live_histories(game)[-1]
        assert (final["version"], final["status"]) == (len(moves) + 1, "finished")
        assert final["state"] == view(expected)
        assert listed_version(base, game["id"], final["version"]) == final["version"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    output = log.read_text()
    assert server.returncode == 0, output

    workers = set(re.findall(r"Started server process \[(\d+)\]", output))
    served = set(re.findall(rf'\[(\d+)\] .*"POST /games/{game["id"]}/moves', output))
    assert len(workers) == 2 and served == workers, output
    # SIGTERM to the parent stopped its workers and the embedded PostgreSQL.
    for pid in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid), 0)
    assert not (tmp_path / "data" / "postgres" / "postmaster.pid").exists()


@pytest.mark.db
def test_workers_end_with_their_killed_parent_and_their_database_is_left_running(
    tmp_path,
):
    """SIGKILL to `serve` (the OOM killer, `kill -9`): its workers stop too, freeing
    the port. The embedded PostgreSQL it started runs on; the next `serve` on the
    same data directory uses it and, not having started it, leaves it running."""
    port, data = free_port(), tmp_path / "data"
    first = serve_with_workers(data, port, tmp_path / "first.log")
    workers = worker_pids(tmp_path / "first.log")
    first.kill()
    first.wait(timeout=30)
    postmaster = int((data / "postgres" / "postmaster.pid").read_text().split()[0])
    try:
        deadline = time.monotonic() + 15
        while any(map(is_running, workers)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(map(is_running, workers)), "the workers outlived their parent"
        assert is_running(postmaster)
        second = serve_with_workers(data, port, tmp_path / "second.log")
        assert httpx.get(f"http://127.0.0.1:{port}/health/ready").status_code == 200
        second.send_signal(signal.SIGTERM)
        assert second.wait(timeout=60) == 0, (tmp_path / "second.log").read_text()
        assert is_running(postmaster)
    finally:
        for pid in workers:  # had they outlived their parent
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.kill(postmaster, signal.SIGINT)  # PostgreSQL's fast shutdown
        deadline = time.monotonic() + 30
        while is_running(postmaster) and time.monotonic() < deadline:
            time.sleep(0.2)


def worker_pids(log: Path) -> list[int]:
    """The two workers' process ids, once both have started."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = re.findall(r"Started server process \[(\d+)\]", log.read_text())
        if len(set(found)) == 2:
            return [int(pid) for pid in set(found)]
        time.sleep(0.2)
    pytest.fail(f"two workers did not start: {log.read_text()}")


def is_running(pid: int) -> bool:
    """Alive, and not a zombie left for a parent that will never reap it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"  # the state, after the name


async def _hello(scope, receive, send) -> None:
    if scope["type"] == "http":
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-length", b"5")],
            }
        )
        await send({"type": "http.response.body", "body": b"hello"})


def test_a_worker_sends_its_answers_without_waiting_for_acknowledgements():
    """uvicorn's supervisor binds the workers' socket itself, and asyncio turns
    Nagle's algorithm off only on connections accepted on a socket made with proto
    IPPROTO_TCP. On one made with proto 0 an answer written in two pieces (head,
    then body) has its body held until the client's delayed acknowledgement, some
    40 ms on Linux. The guarded protocol turns it off itself, so on such a socket
    too each answer of a keep-alive connection arrives at once."""
    settings = Settings(database_url="unused")
    served = config(_hello, settings, log_level="warning")
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    server = uvicorn.Server(served)
    thread = threading.Thread(target=server.run, args=([listening],), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline
            time.sleep(0.02)
        with socket.create_connection(listening.getsockname()) as client:
            waits = [_round_trip(client) for _ in range(40)]
        # Past the first few, which the kernel acknowledges at once, each answer
        # under Nagle waits for a delayed acknowledgement: 40 ms, not a fraction.
        assert sorted(waits)[len(waits) // 2] < 0.015, waits
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        listening.close()


def _round_trip(client: socket.socket) -> float:
    """Seconds from sending a request to having its whole answer."""
    started = time.perf_counter()
    client.sendall(b"GET / HTTP/1.1\r\nHost: tablelog\r\n\r\n")
    answer = b""
    while not answer.endswith(b"hello"):
        chunk = client.recv(4096)
        assert chunk, answer
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 200"), answer
    return time.perf_counter() - started


def listed_version(base: str, game_id: str, expected: int) -> int | None:
    """The game's version in the list the projection runners keep, once it has
    caught up (they take turns across the workers)."""
    deadline = time.monotonic() + 30
    while True:
        games = httpx.get(f"{base}/games", params={"limit": 100}).json()["games"]
        version = next((g["version"] for g in games if g["id"] == game_id), None)
        if version == expected or time.monotonic() > deadline:
            return version
        time.sleep(0.2)

"""One client cannot starve the others: a long game's replay comes a page at a time,
built off the event loop, so /health answers while many clients read long replays;
and each client may create and import only so many games a minute, whatever the
others do."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import uuid

import httpx
import pytest

from service.application.submitting import MAX_MOVES
from service.http.games import MAX_REPLAY_PAGE, REPLAY_PAGE
from tests.support.exports import NDJSON, export_of
from tests.support.games import creation
from tests.support.http import client_from, create, play_simulated
from tests.support.server import running_server

PER_MINUTE = 3


@pytest.fixture(scope="module")
def base_url(database_url):
    with running_server(database_url) as url:
        yield url


@pytest.fixture(scope="module")
def client(base_url):
    with httpx.Client(base_url=base_url, timeout=60) as client:
        yield client


@pytest.fixture(scope="module")
def long_game(client) -> dict:
    answer = client.post(
        "/games/import", content=export_of("dozito", 3, MAX_MOVES), headers=NDJSON
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


# ------------------------------------------------------------------ replay pages


def test_a_long_replay_comes_in_pages_each_opening_with_its_sheet(client, long_game):
    url = f"/games/{long_game['id']}/replay"
    steps, after, pages = [], 0, 0
    while after is not None:
        page = client.get(url, params={"after": after}).json()
        assert len(page["steps"]) <= REPLAY_PAGE
        assert page["steps"][0]["scoresheet"] is not None  # the sheet in force
        steps.extend(page["steps"])
        after, pages = page["next"], pages + 1
    assert pages == -(-MAX_MOVES // REPLAY_PAGE)
    assert [s["step"] for s in steps] == list(range(1, MAX_MOVES + 1))
    # A sheet left out is the one of the nearest earlier step that has one.
    sheet = None
    for step in steps:
        sheet = step["scoresheet"] or sheet
        if step["step"] % 997 == 0 or step["step"] == REPLAY_PAGE + 1:
            one = client.get(f"/games/{long_game['id']}/replay/{step['step']}")
            assert one.json()["scoresheet"] == sheet
            assert one.json()["state"] == step["state"]


def test_a_page_of_a_given_size_and_the_limits_of_a_page(client, long_game):
    url = f"/games/{long_game['id']}/replay"
    page = client.get(url, params={"after": 4990, "limit": 20}).json()
    assert [s["step"] for s in page["steps"]] == list(range(4991, 5001))
    assert page["next"] is None
    page = client.get(url, params={"after": 100, "limit": MAX_REPLAY_PAGE}).json()
    assert len(page["steps"]) == MAX_REPLAY_PAGE
    assert page["next"] == 100 + MAX_REPLAY_PAGE
    for params in ({"limit": MAX_REPLAY_PAGE + 1}, {"limit": 0}, {"after": -1}):
        answer = client.get(url, params=params)
        assert answer.status_code == 422, (params, answer.text)


def test_a_short_game_replays_in_one_page_as_before(client):
    game = create(client, game="dobro", players=["Ann", "Bob"], seed=1)
    moves = play_simulated(client, game)

    replay = client.get(f"/games/{game['id']}/replay").json()

    assert replay["next"] is None
    assert [s["step"] for s in replay["steps"]] == list(range(1, moves + 1))


# Readers in a process of their own: in the test's process (which runs the server)
# their own work would hold the interpreter's lock against the server's.
READERS = """
import asyncio, sys
import httpx

async def read(client, url, seed):
    for n in range(seed, 10**9):
        page = await client.get(url, params={"after": n * 613 % 5000})
        print(page.status_code, flush=True)

async def main(base_url, url, readers):
    async with httpx.AsyncClient(base_url=base_url, timeout=120) as client:
        await asyncio.gather(*(read(client, url, i) for i in range(readers)))

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
"""


def test_health_answers_while_many_clients_read_long_replays(base_url, long_game):
    readers, probes = 12, 20
    url = f"/games/{long_game['id']}/replay"
    answered: list[str] = []
    process = subprocess.Popen(
        [sys.executable, "-c", READERS, base_url, url, str(readers)],
        stdout=subprocess.PIPE,
        text=True,
    )
    counting = threading.Thread(
        target=lambda: answered.extend(iter(process.stdout.readline, "")),
        daemon=True,
    )
    counting.start()
    waits = []
    try:
        deadline = time.monotonic() + 60
        while len(answered) < readers:  # every reader is under way
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        before = len(answered)
        with httpx.Client(base_url=base_url, timeout=30) as probe:
            for _ in range(probes):
                started = time.monotonic()
                answer = probe.get("/health")
                waits.append(time.monotonic() - started)
                assert answer.status_code == 200, answer.text
                time.sleep(0.05)
        during = len(answered) - before
        assert process.poll() is None  # still reading: its requests were in flight
    finally:
        process.kill()
        process.wait()
        counting.join(timeout=10)
        process.stdout.close()
    assert set(answered) == {"200\n"}
    # The heavy requests went on while /health was asked (12 always in flight)...
    assert during > 0, during
    # ...and it still answered promptly: with whole 5,000-step replays built on the
    # event loop, the same load kept it waiting for seconds.
    print("health waits (s):", [round(w, 3) for w in sorted(waits)])
    assert max(waits) < 1.0, sorted(waits)


# ------------------------------------------------------------------ rate limit


@pytest.fixture(scope="module")
def limited(database_url):
    with running_server(database_url, creations_per_minute=PER_MINUTE) as url:
        yield url


def test_a_burst_of_creations_from_one_client_gets_429_but_not_the_others(
    limited, stored_rows
):
    body = creation("dobro", 1)
    exported = export_of("dobro", 1, 5, table=uuid.uuid4().hex[:6])
    with (
        client_from(limited, "127.0.0.1") as greedy,
        client_from(limited, "127.0.0.2") as other,
    ):
        for _ in range(PER_MINUTE - 1):
            assert greedy.post("/games", json=body).status_code == 201
        imported = greedy.post("/games/import", content=exported, headers=NDJSON)
        assert imported.status_code == 201, imported.text  # imports count too
        before = stored_rows()

        refused = [
            greedy.post("/games", json=body),
            greedy.post("/games/import", content=exported, headers=NDJSON),
        ]

        for answer in refused:
            assert answer.status_code == 429, answer.text
            assert answer.headers["content-type"] == "application/problem+json"
            assert 0 < int(answer.headers["Retry-After"]) <= 60
            assert "try again in" in answer.json()["detail"]
        assert stored_rows() == before
        assert other.post("/games", json=body).status_code == 201
        # Reading is not limited.
        game_id = imported.json()["id"]
        assert greedy.get(f"/games/{game_id}").status_code == 200

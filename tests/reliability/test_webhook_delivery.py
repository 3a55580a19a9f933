"""`kill -9` of `tablelog serve` while it delivers webhooks: the next process takes
the deliverer's turn and every event reaches the endpoint at least once, a message
sent again under the same `webhook-id`, in the log's order."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
from standardwebhooks import Webhook

from tests.support.http import play_simulated
from tests.support.keys import BODY, KEYED, bearer, make_key
from tests.support.ports import free_port
from tests.support.processes import answering
from tests.support.receivers import receiver
from tests.support.repository import ROOT
from tests.support.waiting import eventually

MOVES = 30


def serve(database_url: str, port: int, log: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "PYTHONPATH": str(ROOT),
        "TABLELOG_WEBHOOKS_ALLOW_PRIVATE": "1",
        "TABLELOG_WEBHOOK_RETRIES": "0.2,0.2,0.2",
        "TABLELOG_CREATIONS_PER_MINUTE": "none",
    }
    with log.open("a") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "service", "serve", "--port", str(port)],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return answering(process, port, log, 60)


def test_a_kill_9_mid_delivery_loses_no_message_and_keeps_its_id(
    fresh_database_url, tmp_path
):
    key = make_key(fresh_database_url, KEYED)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with receiver() as got:
        got.delay = 0.05  # deliveries are under way when the process dies
        first = serve(fresh_database_url, port, tmp_path / "serve.log")
        try:
            endpoint = httpx.post(
                f"{base}/webhooks",
                json={"url": got.url, "kinds": ["move.stored"]},
                headers=bearer(key),
            ).json()
            with httpx.Client(base_url=base) as client:
                game = client.post("/games", json=BODY).json()
                assert play_simulated(client, game, limit=MOVES) == MOVES
            eventually(lambda: len(got.received) >= 5, seconds=15)
        finally:
            first.kill()  # SIGKILL
            first.wait(timeout=30)
        told_before = len(got.received)
        assert told_before < MOVES, "every message went before the kill: no test"
        second = serve(fresh_database_url, port, tmp_path / "serve.log")
        try:
            eventually(
                lambda: (
                    {m["data"]["version"] for m in got.messages()}
                    >= set(range(2, MOVES + 2))
                ),
                seconds=60,
            )
        finally:
            second.terminate()
            second.wait(timeout=30)
    secret = Webhook(endpoint["secret"])
    ids: dict[int, set[str]] = {}
    for headers, body in got.received:
        message = secret.verify(body, headers)
        ids.setdefault(message["data"]["version"], set()).add(headers["webhook-id"])
    assert all(len(named) == 1 for named in ids.values()), ids
    versions = [m["data"]["version"] for m in got.messages()]
    # In order: a version sent again after the crash comes back to the start of
    # what was not yet acknowledged, never skipping ahead.
    firsts = sorted(set(versions), key=versions.index)
    assert firsts == sorted(firsts)

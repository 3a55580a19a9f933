"""Simulated tables logging moves against tablelog processes, as a scorekeeping app
would: each move with an Idempotency-Key, sent again after a 503 or a lost connection
until it is answered, and read back at once to check that the write is seen."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import suppress
from dataclasses import dataclass, field

import httpx

from tests.support.games import Game

# A client's pause before sending a move again. Shorter than the Retry-After the
# service asks for, so the test measures the service's recovery, not the pause.
RETRY_PAUSE = 0.25


@dataclass
class Table:
    """One game being logged, and everything its client saw."""

    game: Game
    servers: list[str]
    # (time sent, time answered, status) of every attempt; status 0: no answer.
    attempts: list[tuple[float, float, int]] = field(default_factory=list)
    # Reads that did not see the version the write before them was answered.
    stale_reads: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)

    def first_success_after(self, moment: float) -> float | None:
        """When the first move sent after `moment` was answered 201."""
        return next(
            (
                answered
                for sent, answered, status in self.attempts
                if sent >= moment and status == 201
            ),
            None,
        )

    def log(self, stop: threading.Event) -> None:
        with httpx.Client(timeout=30) as client:
            version = 1
            while not stop.is_set():
                version = self._move(client, version)

    def _move(self, client: httpx.Client, version: int) -> int:
        """Send the move after `version` once; the game's version after it."""
        server = self.servers[0]
        move = {**self.game.move_at(version), "expected_version": version}
        headers = {**self.game.auth, "Idempotency-Key": f"move-{version}"}
        sent = time.monotonic()
        try:
            answer = client.post(
                f"{server}/games/{self.game.id}/moves", json=move, headers=headers
            )
        except httpx.TransportError:
            # The process is gone: the app's next address serves the same games.
            self.attempts.append((sent, time.monotonic(), 0))
            if len(self.servers) > 1:
                self.servers.pop(0)
            time.sleep(RETRY_PAUSE)
            return version
        self.attempts.append((sent, time.monotonic(), answer.status_code))
        if answer.status_code == 201:
            self.game.acknowledged[version + 1] = self.game.move_at(version)
            self._read_back(client, version + 1)
            return version + 1
        if answer.status_code == 503:
            assert "Retry-After" in answer.headers
        else:
            self.unexpected.append(f"{answer.status_code}: {answer.text}")
        time.sleep(RETRY_PAUSE)
        return version

    def _read_back(self, client: httpx.Client, version: int) -> None:
        """Read your writes: every server, replicas or not, has the version."""
        for server in self.servers:
            try:
                page = client.get(
                    f"{server}/games/{self.game.id}/events",
                    params={"after": version - 1, "limit": 1},
                )
            except httpx.TransportError:
                continue
            if page.status_code == 503:
                continue
            found = [event["version"] for event in page.json()["events"]]
            if found != [version]:
                self.stale_reads.append(f"{server} gave {found} after {version}")


class Stream:
    """One open `GET /games/{id}/stream`, never reconnected: the versions it gave."""

    def __init__(self, server: str, game: Game) -> None:
        self.versions: list[int] = []
        self.ended: str | None = None
        self._url = f"{server}/games/{game.id}/stream"
        self._thread = threading.Thread(target=self._follow, daemon=True)
        self._client = httpx.Client(timeout=httpx.Timeout(30, read=None))
        self._answer: httpx.Response | None = None
        self._thread.start()

    def _follow(self) -> None:
        try:
            with self._client.stream("GET", self._url, params={"after": 1}) as answer:
                self._answer = answer
                for line in answer.iter_lines():
                    if line.startswith("id:"):
                        self.versions.append(int(line[3:]))
            self.ended = "the stream ended"
        except httpx.HTTPError as error:
            self.ended = f"the stream failed: {error!r}"

    def wait_for(self, version: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.ended is None:
            if self.versions and self.versions[-1] >= version:
                return
            time.sleep(0.1)

    def close(self) -> None:
        """Hang up. Closing the client leaves the thread waiting in its read (and
        the server holding the stream open); shutting the socket down wakes both."""
        if self._answer is not None:
            stream = self._answer.extensions["network_stream"]
            with suppress(OSError):
                stream.get_extra_info("socket").shutdown(socket.SHUT_RDWR)
        self._thread.join(5)
        self._client.close()

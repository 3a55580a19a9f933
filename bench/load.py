"""The HTTP load generator, run as its own process so that its work does not share
the server's interpreter: `python -m bench.load URL tablelog|tablelog-keyed|bare
CLIENTS SECONDS` prints {"requests", "seconds", "statuses"} as JSON.

Each client keeps one HTTP/1.1 connection open and posts the moves of its own game
one after the other, each with the expected_version it last saw; `tablelog-keyed`
sends each under an Idempotency-Key of its own too, as the page sends every move.
The client speaks HTTP by hand on an asyncio stream: a general-purpose client would
cost more CPU per request than the bare handler it measures, on a machine with two
cores.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
import uuid
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

from bench.workload import creation_body, default_rules, setup_for, wire_moves

MOVES = 20_000


class Connection:
    def __init__(self, host: str, port: int) -> None:
        self._address = (host, port)

    async def open(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(*self._address)

    def close(self) -> None:
        self._writer.close()

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: str = ""
    ) -> tuple[int, bytes]:
        self._writer.write(
            f"{method} {path} HTTP/1.1\r\nHost: bench\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"{headers}\r\n".encode()
            + body
        )
        status = int((await self._reader.readline()).split()[1])
        length = 0
        while (line := await self._reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        return status, await self._reader.readexactly(length)


async def _prepare(url: str, target: str) -> tuple[Connection, uuid.UUID, str]:
    """A client's open connection, its game and the headers of its moves."""
    parts = urlsplit(url)
    conn = Connection(parts.hostname, parts.port)
    await conn.open()
    if target == "bare":
        return conn, uuid.uuid4(), ""
    body = json.dumps(creation_body()).encode()
    status, answer = await conn.request("POST", "/games", body)
    assert status == 201, answer
    created = json.loads(answer)
    token = created["write_token"]
    return conn, uuid.UUID(created["id"]), f"Authorization: Bearer {token}\r\n"


async def _post_moves(
    client: tuple[Connection, uuid.UUID, str],
    moves: list[dict[str, Any]],
    deadline: float,
    statuses: Counter,
    keyed: bool = False,
) -> int:
    conn, game_id, headers = client
    path = f"/games/{game_id}/moves"
    done = 0
    try:
        while time.perf_counter() < deadline:
            body = {**moves[done], "expected_version": done + 1}
            key = f"Idempotency-Key: move-{done}\r\n" if keyed else ""
            status, _ = await conn.request(
                "POST", path, json.dumps(body).encode(), headers + key
            )
            statuses[status] += 1
            done += 1
    finally:
        conn.close()
    return done


async def run(url: str, target: str, clients: int, seconds: float) -> dict[str, Any]:
    rules = default_rules()
    moves = wire_moves(rules, setup_for(rules), MOVES)
    prepared = await asyncio.gather(*(_prepare(url, target) for _ in range(clients)))
    statuses: Counter = Counter()
    began = time.perf_counter()
    done = await asyncio.gather(
        *(
            _post_moves(c, moves, began + seconds, statuses, target == "tablelog-keyed")
            for c in prepared
        )
    )
    return {
        "requests": sum(done),
        "seconds": time.perf_counter() - began,
        "statuses": {str(k): v for k, v in statuses.items()},
    }


def main() -> None:
    url, target, clients, seconds = sys.argv[1:5]
    result = asyncio.run(run(url, target, int(clients), float(seconds)))
    print(json.dumps(result))


if __name__ == "__main__":
    main()

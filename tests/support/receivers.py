"""A webhook endpoint on loopback: a real HTTP server that keeps what it was sent and
answers as a test tells it (a status, a delay, a body that never ends)."""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field


@dataclass
class Receiver:
    """A receiving server: what it was sent, and what it answers (`answers`, one
    status an attempt, then 200s; `delay` seconds before each answer)."""

    url: str
    received: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)
    delay: float = 0.0
    # How many of the next answers come with a body that never ends, sent a byte
    # each `drip` seconds (0: as fast as it goes).
    endless: int = 0
    drip: float = 0.0
    # The body of each answer that has one of its own.
    body: bytes = b""
    # The requests being answered at once, and the most there were.
    answering: int = 0
    most_at_once: int = 0

    def messages(self) -> list[dict]:
        return [json.loads(body) for _, body in self.received]


@contextmanager
def receiver(
    path: str = "/hook", host: str = "127.0.0.1", port: int = 0
) -> Iterator[Receiver]:
    got = Receiver(url="")
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["content-length"]))
            with lock:
                got.answering += 1
                got.most_at_once = max(got.most_at_once, got.answering)
            time.sleep(got.delay)
            with lock:
                got.answering -= 1
            got.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
            status = got.answers.pop(0) if got.answers else 200
            self.send_response(status)
            if got.endless:
                got.endless -= 1
                self.send_header("content-length", str(10**12))
                self.end_headers()
                with suppress(OSError):  # until the deliverer hangs up
                    while True:
                        self.wfile.write(b"x" if got.drip else b"x" * 65536)
                        self.wfile.flush()
                        time.sleep(got.drip)
                return
            self.send_header("content-length", str(len(got.body)))
            self.end_headers()
            self.wfile.write(got.body)

        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer((host, port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    got.url = f"http://{host}:{server.server_address[1]}{path}"
    try:
        yield got
    finally:
        server.shutdown()
        server.server_close()

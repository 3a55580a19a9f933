"""A database that stops answering, for tests: a TCP proxy in front of the test's
PostgreSQL that, once stalled, accepts connections and bytes and passes none of
them on, as a network that drops every packet does. Nothing is refused or reset,
so a client learns of the stall only from its own timeouts: even a query's cancel
request, which libpq sends on a connection of its own, goes unanswered.

On loopback only; the database itself is never paused, so the test's own
connections to it keep working."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from psycopg.conninfo import conninfo_to_dict, make_conninfo


class StallingProxy:
    """Passes bytes between its clients and the database until `stall()`."""

    def __init__(self, database_url: str) -> None:
        self._database_url = database_url
        self._flowing = threading.Event()
        self._flowing.set()
        self._closed = False
        self._sockets: list[socket.socket] = []
        self._listening = socket.create_server(("127.0.0.1", 0))
        self._sockets.append(self._listening)
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        """The database's conninfo, through the proxy."""
        port = self._listening.getsockname()[1]
        return make_conninfo(self._database_url, host="127.0.0.1", port=port)

    def stall(self) -> None:
        self._flowing.clear()

    def resume(self) -> None:
        self._flowing.set()

    def close(self) -> None:
        self._closed = True
        self._flowing.set()
        for sock in self._sockets:
            sock.close()

    def _upstream(self) -> socket.socket:
        params = conninfo_to_dict(self._database_url)
        host = str(params.get("host") or "localhost")
        port = int(params.get("port") or 5432)
        if host.startswith("/"):
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            upstream.connect(f"{host}/.s.PGSQL.{port}")
            return upstream
        return socket.create_connection((host, port))

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listening.accept()
            except OSError:
                return
            self._sockets.append(client)
            threading.Thread(target=self._connect, args=(client,), daemon=True).start()

    def _connect(self, client: socket.socket) -> None:
        self._flowing.wait()
        if self._closed:
            return
        upstream = self._upstream()
        self._sockets.append(upstream)
        for source, target in ((client, upstream), (upstream, client)):
            threading.Thread(
                target=self._pump, args=(source, target), daemon=True
            ).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        while True:
            self._flowing.wait()
            try:
                data = source.recv(65536)
            except OSError:
                data = b""
            # Bytes read as the stall began are held until it ends, like the rest.
            self._flowing.wait()
            if not data or self._closed:
                break
            try:
                target.sendall(data)
            except OSError:
                break
        for sock in (source, target):
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


@contextmanager
def stalling_proxy(database_url: str) -> Iterator[StallingProxy]:
    proxy = StallingProxy(database_url)
    try:
        yield proxy
    finally:
        proxy.close()

"""One webhook attempt's request, to real receivers on loopback: sent to the
address checked for the endpoint's name, which stays its `Host` and, over https,
the name TLS sends and verifies the certificate against; the next address tried
when one takes no connection; what went wrong told without an address; and a
silent endpoint held no longer than the attempt's time."""

from __future__ import annotations

import http.server
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from service.readside import sender
from service.readside.sender import Sender
from tests.service.names import ScriptedNames
from tests.support.receivers import receiver

BODY = b'{"type": "move.stored"}'
HEADERS = {"content-type": "application/json"}


@pytest.fixture
def names() -> ScriptedNames:
    return ScriptedNames()


def post(run, sending: Sender, url: str) -> tuple[int | None, str | None]:
    async def posted():
        try:
            return await sending.post(url, BODY, HEADERS)
        finally:
            await sending.close()

    return run(posted())


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    """A self-signed certificate for `hooks.test` alone, and its key."""
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
         "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
         "-subj", "/CN=hooks.test", "-addext", "subjectAltName=DNS:hooks.test",
         "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


@contextmanager
def tls_receiver(cert: Path, key: Path) -> Iterator[tuple[int, list, list]]:
    """An https receiver on 127.0.0.1: its port, the names TLS was sent (SNI),
    and the `Host` of each request it answered."""
    sent_names: list[str | None] = []
    hosts: list[str] = []
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    context.sni_callback = lambda _, name, __: sent_names.append(name)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["content-length"]))
            hosts.append(self.headers["host"])
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1], sent_names, hosts
    finally:
        server.shutdown()
        server.server_close()


def test_https_goes_to_the_address_checked_and_verifies_the_name(
    certificate, names, run
):
    cert, key = certificate
    trusting = ssl.create_default_context(cafile=str(cert))
    with tls_receiver(cert, key) as (port, sent_names, hosts):
        names.script("hooks.test", ["127.0.0.1"])
        sending = Sender(True, names.resolve, verify=trusting)
        assert post(run, sending, f"https://hooks.test:{port}/hook") == (204, None)
        assert sent_names == ["hooks.test"]
        assert hosts == [f"hooks.test:{port}"]

        # Another name at the same address: the certificate is not its own.
        names.script("other.test", ["127.0.0.1"])
        sending = Sender(True, names.resolve, verify=trusting)
        status, error = post(run, sending, f"https://other.test:{port}/hook")
    assert status is None
    assert "CERTIFICATE_VERIFY_FAILED" in error and "other.test" in error
    assert "127.0.0.1" not in error
    assert hosts == [f"hooks.test:{port}"]


def test_an_address_that_takes_no_connection_gives_way_to_the_next(names, run):
    with receiver() as got:
        port = urlsplit(got.url).port
        # Nothing listens on 127.0.0.2 at that port.
        names.script("hook.test", ["127.0.0.2", "127.0.0.1"])
        sending = Sender(True, names.resolve)
        assert post(run, sending, f"http://hook.test:{port}/hook") == (200, None)
    ((headers, body),) = got.received
    assert headers["host"] == f"hook.test:{port}" and body == BODY


def test_a_connection_refused_is_told_without_the_address(names, run):
    with closing(socket.socket()) as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]  # bound, not listening: refused
        names.script("hook.test", ["127.0.0.1"])
        sending = Sender(True, names.resolve)
        status, error = post(run, sending, f"http://hook.test:{port}/hook")
    assert status is None
    assert error.startswith("ConnectError") and "127.0.0.1" not in error


@pytest.mark.parametrize("what", ["silent endpoint", "slow resolver"])
def test_an_attempt_ends_within_its_time(what, names, run, monkeypatch):
    monkeypatch.setattr(sender, "TIMEOUT_SECONDS", 0.5)
    with closing(socket.socket()) as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()  # connections are taken, and never answered
        port = silent.getsockname()[1]
        names.script("hook.test", ["127.0.0.1"])
        if what == "slow resolver":
            names.seconds["hook.test"] = 10
        sending = Sender(True, names.resolve)
        started = time.monotonic()
        status, error = post(run, sending, f"http://hook.test:{port}/hook")
        took = time.monotonic() - started
    assert (status, error) == (None, "no whole answer within 0.5 s")
    assert 0.5 <= took < 1

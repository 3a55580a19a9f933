"""`pip install ./tests/toy` and a restart are all it takes: the toy game's
distribution, installed where the service's Python finds it, declares Nim under the
entry-point group `tablelog.games`, and `tablelog serve`, started afresh, hosts it
over HTTP and serves its page module, with no file of the service changed. The
service runs in a process of its own, far from the checkout, so that Nim comes from
the installed distribution alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.support.ports import free_port
from tests.support.processes import start_serving, stop

pytestmark = pytest.mark.db

TOY = Path(__file__).resolve().parent
# `tablelog serve` on the test's database: `python -c SERVE DATABASE_URL serve ...`.
SERVE = """
import os, sys
os.environ["DATABASE_URL"] = sys.argv.pop(1)
from service.cli import main
sys.exit(main())
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder the toy distribution is installed in, as pip installs it."""
    target = tmp_path_factory.mktemp("site-packages")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
    installed = subprocess.run(
        [*pip, "--target", str(target), str(TOY)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return target


@pytest.fixture
def serving(site, create_database, tmp_path):
    """`tablelog serve` restarted with the distribution on its path, far from the
    checkout; its client and its process."""
    port = free_port()
    command = [sys.executable, "-c", SERVE, create_database(),
               "serve", "--port", str(port)]  # fmt: skip
    found = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv("PYTHONPATH", found)
        server = start_serving(command, port, cwd=tmp_path)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            yield client, server
    finally:
        if server.poll() is None:
            stop(server)


def test_the_installed_distribution_declares_nim_as_a_game(site):
    (info,) = site.glob("tablelog_toy-*.dist-info")
    declared = (info / "entry_points.txt").read_text(encoding="utf-8")
    assert "[tablelog.games]" in declared and "tablelog_toy:NIM" in declared
    assert (site / "tablelog_toy" / "page.js").is_file()


def test_tablelog_serve_hosts_the_installed_game_and_says_so(serving, site):
    client, server = serving
    kinds = [kind["name"] for kind in client.get("/games/kinds").json()["kinds"]]
    assert kinds == ["dobro", "dobro-pixar", "dozito", "double-donkey", "nim"]

    body = {"game": "nim", "players": ["Ann", "Bob"], "first_player": "Ann"}
    game = client.post("/games", json=body).json()
    move = {"type": "pick", "player": "Ann", "count": 3}
    token = {"Authorization": f"Bearer {game['write_token']}"}
    answer = client.post(f"/games/{game['id']}/moves", json=move, headers=token)
    assert answer.status_code == 201, answer.text
    assert answer.json()["state"]["matches"] == 12

    module = client.get("/app/games/nim.js")
    assert module.content == (site / "tablelog_toy" / "page.js").read_bytes()
    assert "games/nim.js" in client.get("/app/files.json").json()["files"]
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    assert "NimPick" in schemas

    logged = stop(server)
    assert "game plug-in nim = tablelog_toy:NIM (tablelog-toy 0.1.0) hosts nim" in (
        logged
    )

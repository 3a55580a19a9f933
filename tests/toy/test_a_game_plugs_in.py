"""A fourth game plugs in through the registry alone: Nim (tests/toy/nim.py),
registered before the service's modules are imported, is everywhere a game appears:
`/games/kinds`, creation, moves and their refusals, replay, score sheet, export and
import, the OpenAPI document. The service runs in a process of its own, as `tablelog
serve` does, so that the registry it reads has the toy game from the start."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

from tests.service.test_cli import free_port, start_serving, stop

pytestmark = pytest.mark.db

CHECKOUT = Path(__file__).resolve().parents[2]
# `python -c SERVE_WITH_NIM DATABASE_URL serve ...`
SERVE_WITH_NIM = """
import os, sys
os.environ["DATABASE_URL"] = sys.argv.pop(1)
from domain.registry import register
from tests.toy.nim import NIM
register(NIM)
from service.cli import main
sys.exit(main())
"""


@pytest.fixture(scope="module")
def nim_service(create_database):
    # A database of its own: no other service of the tests knows the game.
    database_url = create_database()
    port = free_port()
    command = [sys.executable, "-c", SERVE_WITH_NIM, database_url,
               "serve", "--port", str(port)]  # fmt: skip
    server = start_serving(command, port, cwd=CHECKOUT)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            yield client
    finally:
        stop(server)


def test_the_toy_game_is_described_created_played_and_replayed(nim_service):
    client = nim_service
    kinds = {k["name"]: k for k in client.get("/games/kinds").json()["kinds"]}
    assert kinds["nim"]["players"] == {"min": 2, "max": 3}
    assert (
        kinds["nim"]["options"]["$defs"]["Options"]["properties"]["matches"]["maximum"]
        == 50
    )

    body = {"game": "nim", "players": ["Ann", "Bob"], "first_player": "Ann",
            "options": {"matches": 5}}  # fmt: skip
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.text
    game = created.json()
    assert game["state"] == {"game": "nim", "phase": "pick", "matches": 5,
                             "next_player": "Ann", "winners": [],
                             "allowed": ["pick"],
                             "choices": {"pick": {"player": ["Ann"],
                                                  "count": [1, 2, 3]}}}  # fmt: skip
    token = {"Authorization": f"Bearer {game['write_token']}"}
    url = f"/games/{game['id']}/moves"

    refused = client.post(url, json={"type": "pick", "player": "Ann", "count": 4},
                          headers={**token, "Accept-Language": "fr"})  # fmt: skip
    assert refused.status_code == 422
    assert refused.json()["rule"] == "N2"
    assert "Prenez de 1 à 3 allumettes" in refused.json()["detail"]
    for player, count in (("Ann", 3), ("Bob", 2)):
        move = {"type": "pick", "player": player, "count": count}
        assert client.post(url, json=move, headers=token).status_code == 201

    summary = client.get(f"/games/{game['id']}").json()
    assert summary["status"] == "finished" and summary["winners"] == ["Bob"]
    sheet = client.get(f"/games/{game['id']}/scoresheet").json()
    assert sheet["totals"] == {"Ann": 0, "Bob": 1} and sheet["finished"]
    steps = client.get(f"/games/{game['id']}/replay").json()["steps"]
    assert [s["description"] for s in steps] == [
        "Ann takes 3 matches",
        "Bob takes 2 matches",
    ]

    exported = client.get(f"/games/{game['id']}/export")
    assert exported.status_code == 200
    copy = exported.content.replace(b'"Ann"', b'"Ana"')
    imported = client.post(
        "/games/import", content=copy, headers={"Content-Type": "application/x-ndjson"}
    )
    assert imported.status_code == 201, imported.text
    copied = client.get(imported.headers["location"]).json()
    assert copied["winners"] == ["Bob"] and copied["players"] == ["Ana", "Bob"]


def test_the_toy_game_is_in_the_openapi_document(nim_service):
    document = nim_service.get("/schema/openapi.json").json()
    schemas = document["components"]["schemas"]
    assert "NimPick" in schemas
    assert schemas["NimPick"]["properties"]["type"]["const"] == "pick"
    assert any(
        "NimView" in schema.get("$ref", "")
        for schema in schemas["GameSummary"]["properties"]["state"]["oneOf"]
    )

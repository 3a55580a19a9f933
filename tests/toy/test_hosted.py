"""A game the repository does not ship is hosted whole by the app built with it:
`create_app(settings, games)` with the toy game alone, and with the built-in games
and the toy game, describes Nim in `GET /games/kinds`, creates and plays it,
refuses its moves in French, replays and scores it, exports and imports it, types
it in the OpenAPI document and serves its page module; and it knows no game it
was not given."""

from __future__ import annotations

import httpx
import pytest
from tablelog_toy import NIM

from domain.registry import BUILT_IN, Registry
from tests.support.http import create, move
from tests.support.server import running_server

NIM_ALONE = Registry([NIM])
EVERY_GAME = Registry([*BUILT_IN.values(), NIM])


def hosting(create_database, games: Registry):
    # A database of its own: a registry without the built-in games folds none.
    with (
        running_server(create_database(), games=games) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def nim_alone(create_database):
    yield from hosting(create_database, NIM_ALONE)


@pytest.fixture(scope="module")
def every_game(create_database):
    yield from hosting(create_database, EVERY_GAME)


def kinds(client: httpx.Client) -> dict[str, dict]:
    return {kind["name"]: kind for kind in client.get("/games/kinds").json()["kinds"]}


def play_nim(client: httpx.Client) -> dict:
    """A game of Nim created, refused a move in French, then played to its end."""
    game = create(client, game="nim", players=["Ann", "Bob"], first_player="Ann",
                  options={"matches": 5})  # fmt: skip
    assert game["state"] == {"game": "nim", "phase": "pick", "matches": 5,
                             "next_player": "Ann", "winners": [],
                             "allowed": ["pick"],
                             "choices": {"pick": {"player": ["Ann"],
                                                  "count": [1, 2, 3]}}}  # fmt: skip
    refused = move(client, game, {"type": "pick", "player": "Ann", "count": 4},
                   **{"Accept-Language": "fr"})  # fmt: skip
    assert refused.status_code == 422
    assert refused.json()["rule"] == "N2"
    assert refused.json()["detail"] == "Prenez de 1 à 3 allumettes. (N2)"
    assert refused.headers["content-language"] == "fr"
    for player, count in (("Ann", 3), ("Bob", 2)):
        body = {"type": "pick", "player": player, "count": count}
        assert move(client, game, body).status_code == 201
    return game


def test_the_toy_game_alone_is_described_played_replayed_and_exchanged(nim_alone):
    client = nim_alone
    assert list(kinds(client)) == ["nim"]
    nim = kinds(client)["nim"]
    assert nim["players"] == {"min": 2, "max": 3}
    assert nim["options"]["$defs"]["Options"]["properties"]["matches"]["maximum"] == 50

    game = play_nim(client)
    summary = client.get(f"/games/{game['id']}").json()
    assert summary["status"] == "finished" and summary["winners"] == ["Bob"]
    sheet = client.get(f"/games/{game['id']}/scoresheet").json()
    assert sheet["totals"] == {"Ann": 0, "Bob": 1} and sheet["finished"]
    steps = client.get(f"/games/{game['id']}/replay").json()["steps"]
    assert [s["description"] for s in steps] == [
        "Ann takes 3 matches",
        "Bob takes 2 matches",
    ]
    french = client.get(
        f"/games/{game['id']}/replay/1", headers={"Accept-Language": "fr"}
    )
    assert french.json()["description"] == "Ann prend 3 allumettes"

    exported = client.get(f"/games/{game['id']}/export")
    assert exported.status_code == 200
    copy = exported.content.replace(b'"Ann"', b'"Ana"')
    imported = client.post(
        "/games/import", content=copy, headers={"Content-Type": "application/x-ndjson"}
    )
    assert imported.status_code == 201, imported.text
    assert imported.json()["game"] == "nim"
    copied = client.get(imported.headers["location"]).json()
    assert copied["winners"] == ["Bob"] and copied["players"] == ["Ana", "Bob"]


def test_a_registry_of_the_toy_game_alone_knows_no_other_game(nim_alone):
    body = {"game": "dobro", "players": ["Ann", "Bob"]}
    refused = nim_alone.post("/games", json=body, headers={"Accept-Language": "fr"})
    assert refused.status_code == 422
    assert refused.json()["detail"] == "Jeu inconnu, 'dobro' : choisissez parmi nim."
    feed = nim_alone.get("/feed", params={"game": "dobro"})
    assert feed.status_code == 422
    assert feed.json()["detail"] == "`game` is one of nim, not 'dobro'."
    assert nim_alone.get("/feed", params={"game": "nim"}).status_code == 200
    assert nim_alone.get("/leaderboards/dobro").status_code == 404
    assert nim_alone.get("/leaderboards/nim").json()["players"] == []
    document = nim_alone.get("/schema/openapi.json").json()
    assert not [name for name in document["components"]["schemas"] if "Dobro" in name]
    assert document["components"]["schemas"]["GameSummary"]["properties"]["game"] == {
        "const": "nim",
        "type": "string",
    }


def test_the_toy_game_alone_is_typed_in_the_openapi_document(nim_alone):
    schemas = nim_alone.get("/schema/openapi.json").json()["components"]["schemas"]
    assert schemas["NimPick"]["properties"]["type"]["const"] == "pick"
    assert schemas["NimPick"]["additionalProperties"] is False
    states = schemas["GameSummary"]["properties"]["state"]
    assert states["discriminator"]["mapping"] == {"nim": "#/components/schemas/NimView"}
    logged = schemas["ReplayStep"]["properties"]["move"]["discriminator"]["mapping"]
    assert sorted(logged) == ["abandon", "pick", "undo"]


def test_the_built_in_games_and_the_toy_game_are_hosted_together(every_game):
    client = every_game
    assert list(kinds(client)) == [*BUILT_IN, "nim"]
    game = play_nim(client)
    assert client.get(f"/games/{game['id']}").json()["winners"] == ["Bob"]
    dobro = create(client, game="dobro", players=["Ann", "Bob"], first_player="Ann")
    played = move(client, dobro, {"type": "play", "player": "Ann", "cards": [4]})
    assert played.status_code == 201, played.text
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    assert {"NimPick", "DobroPlay", "DozitoPlace"} <= schemas.keys()
    mapping = schemas["GameSummary"]["properties"]["state"]["discriminator"]["mapping"]
    assert sorted(mapping) == sorted([*BUILT_IN, "nim"])


def test_the_toy_games_page_module_is_served_from_its_package(nim_alone, every_game):
    module = nim_alone.get("/app/games/nim.js")
    assert module.status_code == 200
    assert module.content == NIM.page.read_bytes()
    assert module.headers["content-type"].startswith("text/javascript")
    assert nim_alone.get("/app/games/dobro.js").status_code == 404
    files = every_game.get("/app/files.json").json()["files"]
    assert {"games/dobro.js", "games/nim.js", "games.js"} <= set(files)

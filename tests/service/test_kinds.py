"""`GET /games/kinds` describes every game of the registry, and what it says holds:
the player range and the options' schema are the bounds `POST /games` enforces."""

from __future__ import annotations

import jsonschema
import pytest

from domain.registry import GAMES


def kinds(client) -> dict[str, dict]:
    answer = client.get("/games/kinds")
    assert answer.status_code == 200
    assert "max-age" in answer.headers["cache-control"]
    return {kind["name"]: kind for kind in answer.json()["kinds"]}


def test_every_game_of_the_registry_is_described_with_its_labels(client):
    described = kinds(client)
    assert described.keys() == GAMES.keys()
    assert described["dobro-pixar"]["family"] == "dobro"
    assert described["double-donkey"]["labels"]["en"] == "Double Donkey"
    for name, rules in GAMES.items():
        assert described[name]["players"] == {
            "min": rules.min_players,
            "max": rules.max_players,
        }
        assert described[name]["labels"].keys() == {"en", "fr"}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_is_created_at_its_bounds_and_refused_past_them(client, name):
    kind = kinds(client)[name]
    fewest, most = kind["players"]["min"], kind["players"]["max"]
    for count, status in (
        (fewest, 201),
        (most, 201),
        (fewest - 1, 422),
        (most + 1, 422),
    ):
        players = [f"P{n}" for n in range(max(count, 1))][:count]
        body = {"game": name, "players": players}
        if players:
            body["first_player"] = players[0]
        assert client.post("/games", json=body).status_code == status, (count, body)


def test_the_options_schema_holds_the_bounds_the_service_enforces(client):
    schema = kinds(client)["dozito"]["options"]
    jsonschema.validate({"rounds": 20}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"rounds": 21}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"rounds": 3, "turbo": True}, schema)
    body = {"game": "dozito", "players": ["A", "B"], "first_player": "A"}
    assert client.post("/games", json={**body, "options": {"rounds": 20}}).is_success
    refused = client.post("/games", json={**body, "options": {"rounds": 21}})
    assert refused.status_code == 422

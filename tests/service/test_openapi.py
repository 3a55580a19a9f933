"""The committed OpenAPI document is the app's: integrators read the file, so it must
say what the service answers."""

from __future__ import annotations

import json
import re

import pytest

from service.http.openapi import DOCUMENT, document


@pytest.fixture(scope="module")
def spec() -> dict:
    return json.loads(document())


def test_the_committed_document_is_the_apps():
    assert DOCUMENT.read_text(encoding="utf-8") == document(), (
        "openapi/openapi.json differs from the app: run "
        "`python -m service.http.openapi` and commit the file"
    )


def test_the_write_token_is_a_bearer_security_scheme_that_moves_need(spec):
    scheme = spec["components"]["securitySchemes"]["writeToken"]
    assert scheme["type"] == "http" and scheme["scheme"] == "bearer"
    moves = spec["paths"]["/games/{game_id}/moves"]["post"]
    assert moves["security"] == [{"writeToken": []}]


def test_the_move_body_is_any_games_move(spec):
    body = spec["paths"]["/games/{game_id}/moves"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    names = {ref["$ref"].rsplit("/", 1)[1] for ref in schema["oneOf"]}
    assert {"DobroPlay", "DozitoPlace", "DoubleDonkeyReveal", "Undo"} <= names
    play = spec["components"]["schemas"]["DobroPlay"]
    assert {"type", "player", "cards"} <= set(play["required"])
    assert "expected_version" in play["properties"]


def undescribed_bodies(spec: dict) -> set[str]:
    missing = set()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody")
            for media in (body or {}).get("content", {}).values():
                if not media.get("schema"):
                    missing.add(f"{method} {path} request")
            for status, answer in operation["responses"].items():
                media_types = answer.get("content", {}).values()
                if not media_types or not all(m.get("schema") for m in media_types):
                    missing.add(f"{method} {path} {status}")
    return missing


def test_every_answer_and_request_body_has_a_schema(spec):
    assert undescribed_bodies(spec) == set()


@pytest.mark.parametrize(
    ("method", "path", "statuses"),
    [
        ("get", "/games/{game_id}/export", ["404"]),
        ("post", "/games/import", ["413", "422"]),
        ("get", "/games/{game_id}/bgstats", ["404", "409"]),
        ("post", "/games", ["422"]),
        ("post", "/games/{game_id}/moves", ["401", "403", "404", "409", "422"]),
        ("get", "/games/{game_id}/replay/{step}", ["404"]),
        ("get", "/health", ["503"]),
        ("get", "/health/ready", ["503"]),
    ],
)
def test_errors_are_problem_details(spec, method, path, statuses):
    responses = spec["paths"][path][method]["responses"]
    for status in statuses:
        schema = responses[status]["content"]["application/problem+json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/ProblemDetails"}
    problem = spec["components"]["schemas"]["ProblemDetails"]
    assert {"status", "title", "detail"} <= set(problem["required"])


def test_import_takes_ndjson_and_export_answers_it(spec):
    body = spec["paths"]["/games/import"]["post"]["requestBody"]
    assert list(body["content"]) == ["application/x-ndjson"] and body["required"]
    export = spec["paths"]["/games/{game_id}/export"]["get"]["responses"]["200"]
    assert list(export["content"]) == ["application/x-ndjson"]


def test_the_api_page_loads_nothing_from_outside(client):
    page = client.get("/schema")
    assert page.status_code == 200, page.text
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert assets, page.text
    outside = [url for url in assets if re.match(r"(https?:)?//", url)]
    assert not outside, f"/schema loads from outside: {outside}"
    for url in assets:
        assert client.get(url).status_code == 200, url
    assert client.get("/schema/openapi.json").json()["info"]["title"] == "tablelog"

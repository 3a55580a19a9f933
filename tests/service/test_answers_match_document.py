"""Real answers of every game, over HTTP, are valid against the response schemas of
the committed OpenAPI document, read with every object closed: a typed client
generated from the document can read them, and the document names every field they
carry. Each game's `state` is also checked against its own game's schema, so the
`oneOf` of the states is not passing on the wrong member."""

from __future__ import annotations

import json

import msgspec
import pytest
from jsonschema import Draft202012Validator, ValidationError
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from service.http.openapi import DOCUMENT
from tests.support.http import move, simulated_moves
from tests.support.schemas import closed

PLAYERS = {
    "dobro": ["Ana", "Bia", "Caio"],
    "dobro-pixar": ["Priscila", "Mauricio", "Karen", "Patricia"],
    "dozito": ["Arthur", "Maëlle", "Lou"],
    "double-donkey": ["Olivia", "Fran", "Jan", "Margaret"],
}
STATE_OF = {
    "dobro": "DobroView",
    "dobro-pixar": "DobroView",
    "dozito": "DozitoView",
    "double-donkey": "DoubleDonkeyView",
}
URI = "urn:tablelog:openapi"


@pytest.fixture(scope="module")
def answer_of():
    """`answer_of(method, path, status)(value)` validates one answer's body."""
    openapi = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    registry = Registry().with_resource(
        URI, DRAFT202012.create_resource(closed(openapi))
    )

    def validator(pointer: str) -> Draft202012Validator:
        return Draft202012Validator(
            {"$ref": f"{URI}#{pointer}"},
            registry=registry,
            format_checker=Draft202012Validator.FORMAT_CHECKER,
        )

    def answer_of(method: str, path: str, status: int):
        escaped = path.replace("~", "~0").replace("/", "~1")
        pointer = f"/paths/{escaped}/{method}/responses/{status}/content"
        (media,) = openapi["paths"][path][method]["responses"][str(status)]["content"]
        return validator(f"{pointer}/{media.replace('/', '~1')}/schema").validate

    answer_of.state = lambda name: validator(f"/components/schemas/{name}").validate
    return answer_of


@pytest.fixture(scope="module", params=sorted(PLAYERS))
def played(request, client, answer_of):
    """A whole simulated game, each answer checked as it came."""
    kind = request.param
    answer = client.post(
        "/games", json={"game": kind, "players": PLAYERS[kind], "seed": 5}
    )
    assert answer.status_code == 201, answer.text
    answer_of("post", "/games", 201)(answer.json())
    game = answer.json()
    check_move = answer_of("post", "/games/{game_id}/moves", 201)
    check_state = answer_of.state(STATE_OF[kind])
    for simulated in simulated_moves(game):
        logged = move(client, game, msgspec.to_builtins(simulated))
        assert logged.status_code == 201, logged.text
        check_move(logged.json())
        check_state(logged.json()["state"])
    return game


def test_a_finished_games_summary_and_score_sheet_match_the_document(
    client, played, answer_of
):
    url = f"/games/{played['id']}"
    summary = client.get(url).json()
    assert summary["status"] == "finished" and summary["winners"]
    answer_of("get", "/games/{game_id}", 200)(summary)
    answer_of.state(STATE_OF[played["game"]])(summary["state"])
    sheet = client.get(f"{url}/scoresheet").json()
    answer_of("get", "/games/{game_id}/scoresheet", 200)(sheet)


def test_every_replay_step_and_the_log_match_the_document(client, played, answer_of):
    url = f"/games/{played['id']}"
    replay = client.get(f"{url}/replay").json()
    assert replay["next"] is None and len(replay["steps"]) > 10
    answer_of("get", "/games/{game_id}/replay", 200)(replay)
    check_state = answer_of.state(STATE_OF[played["game"]])
    for step in replay["steps"]:
        check_state(step["state"])
    check_frame = answer_of("get", "/games/{game_id}/replay/{step}", 200)
    for step in (0, len(replay["steps"])):
        check_frame(client.get(f"{url}/replay/{step}").json())
    events = client.get(f"{url}/events").json()
    answer_of("get", "/games/{game_id}/events", 200)(events)


def test_a_state_of_one_game_is_not_valid_as_another_games(client, played, answer_of):
    state = client.get(f"/games/{played['id']}").json()["state"]
    others = set(STATE_OF.values()) - {STATE_OF[played["game"]]}
    for other in others:
        with pytest.raises(ValidationError):
            answer_of.state(other)(state)


def declared_headers(path: str, method: str, status: int) -> set[str]:
    openapi = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    answer = openapi["paths"][path][method]["responses"][str(status)]
    return {name.lower() for name in answer.get("headers", {})}


@pytest.mark.parametrize(
    "read", ["", "/events", "/replay", "/replay/{step}", "/scoresheet", "/export"]
)
def test_the_headers_a_read_declares_are_sent(client, played, read):
    path = "/games/{game_id}" + read
    url = path.format(game_id=played["id"], step=1)
    declared = declared_headers(path, "get", 200)
    assert "etag" in declared
    answer = client.get(url)
    assert declared <= set(answer.headers), answer.headers
    unchanged = client.get(url, headers={"If-None-Match": answer.headers["etag"]})
    assert unchanged.status_code == 304
    assert declared_headers(path, "get", 304) <= set(unchanged.headers)


def test_the_export_answers_each_media_type_the_document_lists(client, played):
    """The same bytes in each, as `Accept` asks, and NDJSON without one; the import
    takes the file in each media type its body lists, and NDJSON too, and knows it
    for the game it is, with the headers its 409 declares."""
    openapi = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    answers = openapi["paths"]["/games/{game_id}/export"]["get"]["responses"]
    listed = list(answers["200"]["content"])
    url = f"/games/{played['id']}/export"
    exported = {}
    for media_type in listed:
        answer = client.get(url, headers={"Accept": media_type})
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"].partition(";")[0] == media_type
        assert "Accept" in answer.headers["vary"]
        exported[media_type] = answer
    assert len(listed) > 1 and len({a.content for a in exported.values()}) == 1
    assert len({a.headers["etag"] for a in exported.values()}) == len(listed)
    plain = client.get(url)
    assert plain.headers["content-type"].startswith("application/x-ndjson")
    body = openapi["paths"]["/games/import"]["post"]["requestBody"]["content"]
    declared = declared_headers("/games/import", "post", 409)
    assert "location" in declared
    for media_type in [*body, "application/x-ndjson"]:  # the game's own, whatever
        answer = client.post(
            "/games/import", content=plain.content, headers=as_(media_type)
        )
        assert answer.status_code == 409, answer.text
        assert answer.json()["game_id"] == played["id"]
        assert declared <= set(answer.headers), answer.headers


def as_(media_type: str) -> dict[str, str]:
    return {"Content-Type": media_type}


def test_the_headers_a_refusal_declares_are_sent(client, played):
    path = "/games/{game_id}/moves"
    refused = move(client, played, {"type": "undo", "expected_version": 1})
    assert refused.status_code in (409, 422), refused.text
    declared = declared_headers(path, "post", refused.status_code)
    assert {"content-language", "vary"} <= declared <= set(refused.headers)


def feed_end(client) -> str | None:
    """The feed's cursor after every event stored so far."""
    after = None
    while True:
        cursor = {"after": after} if after else {}
        page = client.get("/feed", params={**cursor, "limit": 1000}).json()
        if not page["events"]:
            return page["next"]
        after = page["next"]


def options_by_default(kind: dict) -> dict:
    """Each option of a game of `GET /games/kinds` that has a default, at it."""
    schema = kind["options"]
    options = schema["$defs"][schema["$ref"].rsplit("/", 1)[1]]["properties"]
    return {k: v["default"] for k, v in options.items() if v.get("default") is not None}


def test_a_creation_in_the_log_and_the_feed_carries_its_games_options(
    client, answer_of
):
    """Every game created with its options given: its `game_created`, in its log
    and in the feed, matches the document, whose schema for it refuses another
    game's options in its place."""
    kinds = {kind["name"]: kind for kind in client.get("/games/kinds").json()["kinds"]}
    start = feed_end(client)
    logs = {}
    for name, players in PLAYERS.items():
        options = options_by_default(kinds[name])
        body = {"game": name, "players": players, "options": options}
        game = client.post("/games", json=body).json()
        logs[name] = client.get(f"/games/{game['id']}/events").json()
        assert logs[name]["events"][0]["data"]["options"] == options
    check_log = answer_of("get", "/games/{game_id}/events", 200)
    after = {"after": start} if start else {}
    feed = client.get("/feed", params={**after, "limit": 1000}).json()
    answer_of("get", "/feed", 200)(feed)
    created = [e for e in feed["events"] if e["type"] == "game_created"]
    assert sorted(e["game"] for e in created) == sorted(PLAYERS)
    for name, log in logs.items():
        check_log(log)
        own = options_by_default(kinds[name])
        other = next(
            options_by_default(kind)
            for kind in kinds.values()
            if set(options_by_default(kind)) - set(own)
        )
        log["events"][0]["data"]["options"] = other
        with pytest.raises(ValidationError):
            check_log(log)

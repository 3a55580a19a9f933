"""The committed OpenAPI document is the app's: integrators read the file, so it must
say what the service answers."""

from __future__ import annotations

import json
import re

import pytest

from domain.history import TABLE_MOVES
from domain.registry import BUILT_IN
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
    # The game's write token, or the key of the app that created it.
    assert moves["security"] == [{"writeToken": []}, {"appKey": []}, {"groupKey": []}]


def test_an_app_key_is_a_bearer_scheme_every_other_operation_takes_optionally(spec):
    scheme = spec["components"]["securitySchemes"]["appKey"]
    assert scheme["type"] == "http" and scheme["scheme"] == "bearer"
    operations = {
        (method, path): operation
        for path, item in spec["paths"].items()
        for method, operation in item.items()
    }
    # The writes of one game, and playing it again, take its write token, or the
    # key of the app that created it (a variation's name, its game's too).
    writes = [
        ("post", "/games/{game_id}/moves"),
        ("post", "/games/{game_id}/rematch"),
        ("post", "/games/{game_id}/notes"),
        ("post", "/games/{game_id}/notes/{note}/withdrawal"),
        ("patch", "/games/{game_id}/variations/{variation_id}"),
    ]
    for write in writes:
        assert operations.pop(write)["security"] == [
            {"writeToken": []},
            {"appKey": []},
            {"groupKey": []},
        ], write
    # A group's routes: made and joined without a key, the rest with its key.
    grouped = [where for where in operations if where[1].startswith("/groups")]
    assert len(grouped) == 17
    for where in grouped:
        operation = operations.pop(where)
        if where[1] in ("/groups", "/groups/join"):
            assert "security" not in operation, where
        else:
            assert operation["security"] == [{"groupKey": []}], where
            assert {"401", "404"} <= set(operation["responses"]), where
    # An app's webhooks are its own: only a key reaches them.
    keyed = [where for where in operations if where[1].startswith("/webhooks")]
    assert len(keyed) == 8
    for where in keyed:
        operation = operations.pop(where)
        assert operation["security"] == [{"appKey": []}], where
        assert {"401", "403"} <= set(operation["responses"]), where
    assert operations
    for where, operation in operations.items():
        # `{}`: without a key too. A key may be refused (unknown, revoked, lacking
        # the operation's scope).
        assert operation["security"] == [{}, {"appKey": []}, {"groupKey": []}], where
        assert {"401", "403"} <= set(operation["responses"]), where


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
                if status == "304":  # Not Modified never has a body
                    continue
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


def test_import_and_export_are_ndjson_and_bytes_a_generator_knows(spec):
    """NDJSON, which no generator we know reads, and the same file as bytes
    (`application/octet-stream`, binary), which they all do: an import is
    described only so, since one media type a generator does not know costs the
    operation in openapi-python-client."""
    binary = {"type": "string", "format": "binary"}
    body = spec["paths"]["/games/import"]["post"]["requestBody"]
    assert body["content"] == {"application/octet-stream": {"schema": binary}}
    assert "application/x-ndjson" in body["description"] and body["required"]
    export = spec["paths"]["/games/{game_id}/export"]["get"]["responses"]["200"]
    assert export["content"] == {
        "application/x-ndjson": {"schema": binary},
        "application/octet-stream": {"schema": binary},
    }
    assert "Vary" in export["headers"]


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


def test_a_games_state_is_told_apart_by_its_game_from_the_registry(spec):
    ref = "#/components/schemas/{}".format
    mapping = {
        "dobro": ref("DobroView"),
        "dobro-pixar": ref("DobroView"),
        "dozito": ref("DozitoView"),
        "double-donkey": ref("DoubleDonkeyView"),
    }
    schemas = spec["components"]["schemas"]
    for answer in ("GameSummary", "MoveAccepted", "ReplayFrame", "ReplayStep"):
        state = schemas[answer]["properties"]["state"]
        assert state["discriminator"] == {"propertyName": "game", "mapping": mapping}
        assert sorted(r["$ref"] for r in state["oneOf"]) == sorted(
            set(mapping.values())
        )
    summary = schemas["GameSummary"]["properties"]
    assert summary["game"]["enum"] == [
        "dobro",
        "dobro-pixar",
        "dozito",
        "double-donkey",
    ]
    assert summary["status"]["enum"] == ["in_progress", "finished", "abandoned"]


def test_a_card_sent_leaves_out_its_defaults_and_a_card_read_has_every_field(spec):
    schemas = spec["components"]["schemas"]
    card = schemas["DozitoView"]["properties"]["held"]["oneOf"][0]
    assert card == {"$ref": "#/components/schemas/DozitoCardRead"}
    read = schemas["DozitoCardRead"]
    assert sorted(read["required"]) == sorted(read["properties"])
    sent = schemas["DozitoCard"]
    assert sent["required"] == ["color"]
    assert not [p for p in sent["properties"].values() if "default" in p]


def test_moves_are_told_apart_by_their_type(spec):
    body = spec["paths"]["/games/{game_id}/moves"]["post"]["requestBody"]
    moves = body["content"]["application/json"]["schema"]
    mapping = moves["discriminator"]["mapping"]
    assert moves["discriminator"]["propertyName"] == "type"
    assert mapping["play"] == "#/components/schemas/DobroPlay"
    assert mapping["undo"] == "#/components/schemas/Undo"
    assert sorted(mapping.values()) == sorted(r["$ref"] for r in moves["oneOf"])


def schemas_under(spec: dict, schema: dict) -> list[str]:
    """The names of the component schemas a schema refers to, nested ones too."""
    found: list[str] = []
    pending = [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            ref = node.get("$ref", "").removeprefix("#/components/schemas/")
            if ref and ref not in found:
                found.append(ref)
                pending.append(spec["components"]["schemas"][ref])
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    return found


@pytest.mark.parametrize(
    ("path", "at_least"), [("/games", 1), ("/games/{game_id}/moves", 16)]
)
def test_request_bodies_are_closed_as_the_service_reads_them(spec, path, at_least):
    body = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    names = schemas_under(spec, body["schema"])
    assert len(names) >= at_least
    schemas = spec["components"]["schemas"]
    assert [n for n in names if not closed(schemas[n])] == []


def closed(schema: dict) -> bool:
    """No other field than the schema's, or than its one shape's (a card's, or a
    new game's: a reference, itself among the schemas checked)."""
    if "oneOf" in schema and "properties" not in schema:
        return all("$ref" in shape or closed(shape) for shape in schema["oneOf"])
    return schema.get("additionalProperties") is False


def header_parameters(operation: dict) -> set[str]:
    return {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}


def test_the_cached_reads_declare_if_none_match_etag_and_304(spec):
    for path in (
        "/games/{game_id}",
        "/games/{game_id}/replay",
        "/games/{game_id}/events",
    ):
        for method in ("get", "head"):
            operation = spec["paths"][path][method]
            assert "If-None-Match" in header_parameters(operation), path
            assert "ETag" in operation["responses"]["200"]["headers"], path
            assert "304" in operation["responses"], path
    assert "If-None-Match" not in header_parameters(spec["paths"]["/games"]["get"])


def test_the_worded_reads_and_writes_declare_accept_language(spec):
    replay = spec["paths"]["/games/{game_id}/replay/{step}"]["get"]
    assert "Accept-Language" in header_parameters(replay)
    assert "Vary" in replay["responses"]["200"]["headers"]
    moves = spec["paths"]["/games/{game_id}/moves"]["post"]
    assert {"Accept-Language", "Idempotency-Key"} <= header_parameters(moves)
    refused = moves["responses"]["422"]["headers"]
    assert {"Content-Language", "Vary"} <= set(refused)


def test_the_streams_declare_last_event_id(spec):
    for path in ("/games/{game_id}/stream", "/feed/stream"):
        assert "Last-Event-ID" in header_parameters(spec["paths"][path]["get"])


def test_every_429_and_503_declares_retry_after(spec):
    declared = [
        (path, status, "Retry-After" in answer.get("headers", {}))
        for path, operations in spec["paths"].items()
        for operation in operations.values()
        for status, answer in operation["responses"].items()
        if status in ("429", "503")
    ]
    assert len(declared) > 10 and all(found for *_, found in declared), declared


def test_a_new_game_names_a_registered_game_and_takes_that_games_options(spec):
    """One body per game, told apart by `game`: the registry's names, each with its
    own game's options, closed, so that a misspelt option, a number of rounds in
    words or another game's option does not match."""
    schemas = spec["components"]["schemas"]
    mapping = schemas["NewGame"]["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(BUILT_IN)
    for name, reference in mapping.items():
        body = schemas[reference.rsplit("/", 1)[1]]
        game = body["properties"]["game"]
        assert name in game.get("enum", [game.get("const")]), name
        options = body["properties"]["options"]["$ref"].rsplit("/", 1)[1]
        family = "".join(part.title() for part in BUILT_IN[name].family.split("-"))
        assert options == family + "Options", name
        assert body["additionalProperties"] is False, name
        assert schemas[options]["additionalProperties"] is False, options
    dozito = schemas[mapping["dozito"].rsplit("/", 1)[1]]["properties"]
    assert dozito["options"]["$ref"].endswith("/DozitoOptions")
    assert schemas["DozitoOptions"]["properties"]["rounds"]["type"] == "integer"
    dobro = schemas[mapping["dobro-pixar"].rsplit("/", 1)[1]]["properties"]
    assert dobro["game"]["enum"] == ["dobro", "dobro-pixar"]
    assert dobro["options"]["$ref"].endswith("/DobroOptions")


def test_a_double_donkey_card_is_two_colours_or_one_angry_colour(spec):
    schemas = spec["components"]["schemas"]
    for name in ("DoubleDonkeyCard", "DoubleDonkeyCardRead"):
        shapes = schemas[name]["oneOf"]
        assert [s["required"] for s in shapes] == [["colors"], ["angry"]], name
        assert [list(s["properties"]) for s in shapes] == [["colors"], ["angry"]]
    assert schemas["DoubleDonkeyCard"]["oneOf"][1]["additionalProperties"] is False


def test_a_replay_steps_move_is_any_games_move_told_apart_by_its_type(spec):
    """A step's move as logged (the read shapes: every field sent, the tag too),
    the discriminator mapping each move type of every registered game."""
    schemas = spec["components"]["schemas"]
    types = {
        move.__struct_config__.tag
        for rules in BUILT_IN.values()
        for move in (*rules.moves, *TABLE_MOVES)
    }
    for name in ("ReplayStep", "ReplayFrame"):
        move = schemas[name]["properties"]["move"]
        move = next((s for s in move.get("oneOf", []) if "discriminator" in s), move)
        mapping = move["discriminator"]["mapping"]
        assert set(mapping) == types, name
        assert mapping["play"] == "#/components/schemas/DobroPlayRead"
        assert mapping["undo"] == "#/components/schemas/UndoRead"
    for read in ("DobroPlayRead", "DozitoStartRoundRead", "UndoRead"):
        assert "type" in schemas[read]["required"], read
    discards = schemas["DozitoStartRoundRead"]["properties"]["discards"]
    assert discards["items"] == {"$ref": "#/components/schemas/DozitoCardRead"}


def test_a_logged_events_data_is_typed_by_its_type_and_its_games_events(spec):
    """`GET /games/{id}/events`: each event told apart by its `type` (the creation,
    each move of every game), its data's events by theirs among its game's own:
    two games' `round_scored` are two schemas."""
    schemas = spec["components"]["schemas"]
    logged = schemas["EventPage"]["properties"]["events"]["items"]
    mapping = logged["discriminator"]["mapping"]
    types = {
        move.__struct_config__.tag
        for rules in BUILT_IN.values()
        for move in (*rules.moves, *TABLE_MOVES)
    }
    assert set(mapping) == types | {"game_created"}
    ref = "#/components/schemas/{}".format
    assert mapping["take"] == ref("LoggedDobroTake")
    take = schemas["LoggedDobroTake"]["properties"]["data"]["$ref"]
    data = schemas[take.rsplit("/", 1)[1]]["properties"]
    assert data["move"] == {"$ref": ref("DobroTakeRead")}
    events = data["events"]["items"]["discriminator"]["mapping"]
    assert events["round_scored"] == ref("DobroRoundScored")
    start = schemas["DozitoStartRoundRecorded"]["properties"]["events"]["items"]
    assert start["discriminator"]["mapping"]["round_scored"] == ref("DozitoRoundScored")


def schema_named(spec: dict, reference: dict) -> dict:
    return spec["components"]["schemas"][reference["$ref"].rsplit("/", 1)[1]]


@pytest.mark.parametrize(
    ("path", "page"), [("/games/{game_id}/events", "EventPage"), ("/feed", "FeedPage")]
)
def test_a_creations_options_are_typed_by_its_game(spec, path, page):
    """A `game_created` event, in a game's log and in the feed: its data told apart
    by its `game`, each registered game's with the options schema its new game's
    body names (`DozitoOptions`...), so a generated client knows them there too."""
    answer = spec["paths"][path]["get"]["responses"]["200"]["content"]
    assert answer["application/json"]["schema"]["$ref"].endswith("/" + page)
    events = schema_named(spec, answer["application/json"]["schema"])
    mapping = events["properties"]["events"]["items"]["discriminator"]["mapping"]
    creation = schema_named(spec, {"$ref": mapping["game_created"]})
    data = creation["properties"]["data"]
    by_game = data["discriminator"]["mapping"]
    assert data["discriminator"]["propertyName"] == "game"
    assert sorted(by_game) == sorted(BUILT_IN)
    assert sorted(m["$ref"] for m in data["oneOf"]) == sorted(set(by_game.values()))
    bodies = spec["components"]["schemas"]["NewGame"]["discriminator"]["mapping"]
    for name, reference in by_game.items():
        created = schema_named(spec, {"$ref": reference})["properties"]
        assert name in created["game"].get("enum", [created["game"].get("const")])
        body = schema_named(spec, {"$ref": bodies[name]})["properties"]
        assert created["options"] == body["options"], name
        assert schema_named(spec, created["options"])["additionalProperties"] is False

"""`GET /games/kinds` describes every game of the registry, and what it says holds:
the player range and the options' schema are the bounds `POST /games` enforces."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import jsonschema
import msgspec
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from domain.registry import BUILT_IN
from service.http.openapi import DOCUMENT

URI = "urn:tablelog:openapi"


def kinds(client) -> dict[str, dict]:
    answer = client.get("/games/kinds")
    assert answer.status_code == 200
    assert "max-age" in answer.headers["cache-control"]
    return {kind["name"]: kind for kind in answer.json()["kinds"]}


def test_every_game_of_the_registry_is_described_with_its_labels(client):
    described = kinds(client)
    assert described.keys() == BUILT_IN.keys()
    assert described["dobro-pixar"]["family"] == "dobro"
    assert described["double-donkey"]["labels"]["en"] == "Double Donkey"
    for name, rules in BUILT_IN.items():
        assert described[name]["players"] == {
            "min": rules.min_players,
            "max": rules.max_players,
        }
        assert described[name]["labels"].keys() == {"en", "fr"}


@pytest.mark.parametrize("name", sorted(BUILT_IN))
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


# A value of every JSON type, tried wherever an option (or a part of one) goes: the
# schema says which it takes. An integral float (3.0) is left out: JSON Schema counts
# it an integer, and the service, like msgspec, reads only 3 as one, everywhere.
EVERY_TYPE = [None, True, False, 0, 7, 1.5, -2, "3", "", [], {}]
# Keys tried in an object whose keys the schema names (a house deck's values).
EVERY_KEY = ["", "x", "-1", "0", "1", "2", "02", "2.0", "12", "13"]
# A key no options schema has.
UNKNOWN = "no_such_option"
RULING = re.compile(r"\b[A-Z][0-9]+\b")
# A description names the rulings checked beyond what its schema says after this.
BEYOND = "Beyond this schema"


def resolved(schema: dict, root: dict) -> dict:
    while "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def beyond_schema(schema: dict) -> set[str]:
    """The rulings `schema`'s description says creation checks beyond it."""
    _, marked, rest = schema.get("description", "").partition(BEYOND)
    return set(RULING.findall(rest)) if marked else set()


def edges(schema: dict, root: dict, base: Any = None) -> Iterator[tuple[Any, set]]:
    """Values for `schema` at and past its every bound, each of its enum values and
    values of every type, each with the rulings its descriptions say creation checks
    beyond the schema; an array or object varies `base` (its example, else its
    default) one part at a time."""
    schema = resolved(schema, root)
    beyond = beyond_schema(schema)
    base = base if base is not None else schema.get("examples", [None])[0]
    base = base if base is not None else schema.get("default")
    values = [*EVERY_TYPE, *schema.get("enum", []), *schema.get("examples", [])]
    values += [base] if base is not None else []
    for bound, past in (("minimum", -1), ("maximum", 1)):
        if bound in schema:
            values += [int(schema[bound]), int(schema[bound]) + past]
    for bound, past in (("minLength", -1), ("maxLength", 1)):
        if bound in schema:
            values += ["x" * max(schema[bound] + step, 0) for step in (0, past)]
    yield from ((value, beyond) for value in values)
    for member in schema.get("anyOf", []) + schema.get("oneOf", []):
        for value, also in edges(member, root, base):
            yield value, beyond | also
    if schema.get("type") == "array":
        for value, also in array_edges(schema, root, base or []):
            yield value, beyond | also
    if schema.get("type") == "object":
        for value, also in object_edges(schema, root, base or {}):
            yield value, beyond | also


def array_edges(schema: dict, root: dict, base: list) -> Iterator[tuple[Any, set]]:
    """`base` one item shorter and longer, at and past each length bound, with a
    duplicate, and with its first item each edge of the items' schema."""
    fillers = [f"{base[0] if base else 'item'}{n}" for n in range(1, 4)]
    lengths = [len(base) - 1, len(base) + 1]
    for bound, past in (("minItems", -1), ("maxItems", 1)):
        lengths += [schema[bound], schema[bound] + past] if bound in schema else []
    for length in lengths:
        yield (base + fillers)[: max(length, 0)], set()
    if len(base) > 1:
        yield [base[0], *base[:-1]], set()
    for item, also in edges(schema.get("items", {}), root):
        yield [item, *base[1:]], also


def object_edges(schema: dict, root: dict, base: dict) -> Iterator[tuple[Any, set]]:
    """`base` without each of its required fields, with an unknown one, and with
    each field (or, for a map, its first value) each edge of its schema, or left
    out; a map's keys tried too."""
    yield {**base, UNKNOWN: 1}, set()
    for name in schema.get("required", []):
        yield {k: v for k, v in base.items() if k != name}, set()
    for name, field in schema.get("properties", {}).items():
        yield {k: v for k, v in base.items() if k != name}, set()
        for value, also in edges(field, root, base.get(name)):
            yield {**base, name: value}, also
    values = schema.get("additionalProperties")
    if isinstance(values, dict) and base:
        first = next(iter(base))
        for value, also in edges(values, root, base[first]):
            yield {**base, first: value}, also
        keys = EVERY_KEY + schema.get("propertyNames", {}).get("enum", [])
        for key in keys:
            yield {**base, key: base[first]}, set()


def reads(struct: type, options: Any) -> bool:
    """Whether the options Struct decodes `options` (the rules judge them after)."""
    try:
        msgspec.convert(options, struct, str_keys=True)
    except msgspec.ValidationError:
        return False
    return True


def validator_of(schema: dict) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@pytest.fixture(scope="module")
def options_in_document() -> Callable[[str], Draft202012Validator]:
    """The options schema a game's `POST /games` body names in the document."""
    openapi = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    registry = Registry().with_resource(URI, DRAFT202012.create_resource(openapi))
    mapping = openapi["components"]["schemas"]["NewGame"]["discriminator"]["mapping"]

    def validator(game: str) -> Draft202012Validator:
        body = mapping[game].removeprefix("#")
        pointer = f"{URI}#{body}/properties/options"
        return Draft202012Validator({"$ref": pointer}, registry=registry)

    return validator


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_creation_takes_exactly_the_options_the_schemas_take(
    client, name, options_in_document
):
    """Every edge of a game's options schema (`GET /games/kinds`, and the document's
    request body) is created if and only if the schema takes it, at the fewest and
    the most players. A schema-valid value may be refused only by a ruling that its
    description says is checked beyond the schema, and only where the options
    Struct reads the value: a bound the Struct holds is one its schema must say."""
    kind = kinds(client)[name]
    struct = BUILT_IN[name].options
    schema = kind["options"]
    by_kinds, by_document = validator_of(schema), options_in_document(name)
    tried: dict[str, set] = {}
    for options, beyond in edges(schema, schema):
        tried.setdefault(json.dumps(options, sort_keys=True), set()).update(beyond)
    disagreements = []
    for encoded, beyond in tried.items():
        options = json.loads(encoded)
        valid = by_kinds.is_valid(options)
        if by_document.is_valid(options) != valid:
            disagreements.append(("document", options, valid))
        for count in (kind["players"]["min"], kind["players"]["max"]):
            players = [f"P{n}" for n in range(count)]
            body = {"game": name, "players": players, "first_player": "P0"}
            answer = client.post("/games", json=body | {"options": options})
            assert answer.status_code in (201, 422), answer.text
            created = answer.status_code == 201
            excused = answer.json().get("rule") in beyond and reads(struct, options)
            if created != valid and not excused:
                disagreements.append((count, options, valid, answer.text))
    assert len(tried) > 10
    assert not disagreements, "\n".join(map(str, disagreements))

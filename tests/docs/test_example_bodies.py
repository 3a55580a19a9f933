"""Every JSON example in the docs is valid against the schema the app's own OpenAPI
document gives it: a request body, an answer or a named part (see `examples.py` for
how a block says which). Objects are read as closed, so a field the document does not
name is an error in an example even where the document leaves objects open.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator, ValidationError
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from service.http.openapi import document
from tests.docs.examples import PAGES, Example, examples
from tests.support.schemas import closed

BODIES = [e for page in PAGES for e in examples(page) if e.target not in (None, "run")]
DOCUMENT_URI = "urn:tablelog:openapi"


@pytest.fixture(scope="module")
def validate():
    """Check one example against its target in the app's document; raises
    ValidationError (or AssertionError for a target the document lacks)."""
    return checker(json.loads(document()))


def checker(openapi: dict):
    registry = Registry().with_resource(
        DOCUMENT_URI, DRAFT202012.create_resource(closed(openapi))
    )
    formats = Draft202012Validator.FORMAT_CHECKER

    def validate(example: Example) -> None:
        pointer, media = target_of(openapi, example)
        validator = Draft202012Validator(
            {"$ref": f"{DOCUMENT_URI}#{pointer}"},
            registry=registry,
            format_checker=formats,
        )
        for value in values_of(example, media):
            validator.validate(value)

    return validate


def target_of(openapi: dict, example: Example) -> tuple[str, str]:
    """The JSON pointer of the example's schema in the document, and its media type."""
    match example.target.split():
        case ["schema", name]:
            keys = ["components", "schemas", name]
            media = "application/json"
        case [method, path, "request"]:
            keys = ["paths", path, method.lower(), "requestBody", "content"]
        case [method, path, status]:
            keys = ["paths", path, method.lower(), "responses", status, "content"]
        case _:
            raise AssertionError(f"{example}: say METHOD PATH request|STATUS")
    found = openapi
    for key in keys:
        assert key in found, f"{example}: the document has no {'/'.join(keys)}"
        found = found[key]
    if keys[-1] == "content":
        (media,) = found
        keys += [media, "schema"]
    return "".join("/" + k.replace("~", "~0").replace("/", "~1") for k in keys), media


def values_of(example: Example, media: str) -> list[object]:
    """The JSON values the example shows: the block, each line of data of an event
    stream, or the inline objects of a table or paragraph."""
    if example.kind in ("table", "paragraph"):
        found = example.inline_objects()
        assert found, f"{example}: no inline JSON object to check"
        return found
    if media == "text/event-stream":
        assert example.kind == "text", f"{example}: an event stream is a text block"
        lines = example.text.splitlines()
        found = [json.loads(line[5:]) for line in lines if line.startswith("data:")]
        assert found, f"{example}: no `data:` line"
        return found
    assert example.kind == "json", f"{example}: a body is a json block"
    return [json.loads(example.text)]


def test_the_docs_have_examples_to_check():
    assert len(BODIES) > 10


def test_every_json_block_says_what_it_is_an_example_of():
    assert unannotated(PAGES) == []


def unannotated(pages) -> list[str]:
    """The blocks of JSON that name no schema, or are not marked `json`."""
    blocks = [e for page in pages for e in examples(page) if e.kind != "table"]
    bodies = [e for e in blocks if e.kind == "json" or is_json(e.text)]
    return [str(e) for e in bodies if e.target in (None, "run") or e.kind != "json"]


def is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("example", BODIES, ids=str)
def test_every_example_body_matches_its_schema(validate, example):
    validate(example)


WRONG = {
    "an unknown field": '{"type": "undo", "expectd_version": 2}',
    "a string for a number": '{"type": "play", "player": "Ana", "cards": ["4"]}',
    "a missing field": '{"type": "play", "player": "Ana"}',
}


@pytest.mark.parametrize("body", WRONG.values(), ids=WRONG.keys())
def test_a_wrong_example_fails_the_check(validate, tmp_path, body):
    page = write_page(tmp_path, "POST /games/{game_id}/moves request", body)
    (example,) = examples(page)
    with pytest.raises(ValidationError):
        validate(example)


@pytest.mark.parametrize(
    "target", ["POST /games 200", "GET /nowhere 200", "schema Nothing", "POST /games"]
)
def test_an_example_of_what_the_document_lacks_fails_the_check(
    validate, tmp_path, target
):
    (example,) = examples(write_page(tmp_path, target, '{"status": "ok"}'))
    with pytest.raises(AssertionError):
        validate(example)


def test_a_json_block_without_its_comment_is_found(tmp_path):
    page = write_page(tmp_path, None, '{"status": "ok"}')
    assert unannotated([page]) == [f"{page}:3 (None)"]


def write_page(folder: Path, target: str | None, body: str) -> Path:
    comment = f"<!-- example: {target} -->\n" if target else ""
    page = folder / "page.md"
    page.write_text(f"# A page\n\n{comment}```json\n{body}\n```\n")
    return page

"""The committed OpenAPI document (openapi/openapi.json), and how handlers describe
their problem+json errors in it.

`python -m service.openapi` writes the document from the app itself; a test fails when
the committed file and the app differ, so the contract scorekeeping apps read is always
the one the service answers.
"""

from __future__ import annotations

import json
import sys
from http import HTTPStatus
from pathlib import Path

import msgspec
from litestar.openapi import ResponseSpec

DOCUMENT = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"

# Never used to connect: building the app opens nothing (the pool opens in the
# lifespan), and the schema does not depend on the database.
_OFFLINE_URL = "postgresql://localhost/tablelog"


class ProblemDetails(msgspec.Struct, kw_only=True):
    """An error answer (RFC 9457). `rule` names the ruling a refused move breaks;
    `line` the line of an import that was refused; `version` the game's version on a
    409 conflict."""

    status: int
    title: str
    detail: str
    type: str | None = None
    rule: str | None = None
    line: int | None = None
    version: int | None = None


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """The `responses=` of a handler that may answer these error statuses."""
    return {
        status: ResponseSpec(
            data_container=ProblemDetails,
            generate_examples=False,
            description=HTTPStatus(status).phrase,
            media_type="application/problem+json",
        )
        for status in statuses
    }


def document() -> str:
    """The app's OpenAPI document as committed: sorted keys, two-space indent."""
    from service.app import create_app
    from service.settings import Settings

    app = create_app(Settings(database_url=_OFFLINE_URL))
    schema = app.openapi_schema.to_schema()
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    DOCUMENT.parent.mkdir(parents=True, exist_ok=True)
    DOCUMENT.write_text(document(), encoding="utf-8")
    print(f"wrote {DOCUMENT}", file=sys.stderr)


if __name__ == "__main__":
    main()

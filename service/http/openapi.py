"""The committed OpenAPI document (openapi/openapi.json).

`python -m service.http.openapi` writes the document from the app itself, built with
the built-in games (whatever plug-ins are installed: an app hosting more serves its
own document, with their shapes too); a test fails when the committed file and the
app differ, so the contract scorekeeping apps read is always the one the service
answers.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from domain.registry import BUILT_IN
from service.http.app import create_app
from service.settings import Settings

# In the repository, beside the packages: a development tool, not shipped.
DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"

# Never used to connect: building the app opens nothing (the pool opens in the
# lifespan), and the schema does not depend on the database.
_OFFLINE_URL = "postgresql://localhost/tablelog"


def document() -> str:
    """The OpenAPI document of the app of the built-in games, as committed: sorted
    keys, two-space indent."""
    app = create_app(Settings(database_url=_OFFLINE_URL), BUILT_IN)
    schema = app.openapi_schema.to_schema()
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    DOCUMENT.parent.mkdir(parents=True, exist_ok=True)
    DOCUMENT.write_text(document(), encoding="utf-8")
    print(f"wrote {DOCUMENT}", file=sys.stderr)


if __name__ == "__main__":
    main()

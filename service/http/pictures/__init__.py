"""A replay step as a picture, as `GET /games/{id}/replay/{step}/image` answers it:
the format asked (by `?format=` or `Accept`) and its renderer.

The pictures are described by `domain.picture` and drawn here: SVG written by hand
(`svg.py`), PNG and GIF with Pillow (`raster.py`), whose wheels bring the image
libraries they need, so nothing beyond `pip install` is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from litestar import Request
from litestar.exceptions import HTTPException
from litestar.openapi.spec import OpenAPIHeader, OpenAPIMediaType, OpenAPIResponse
from litestar.openapi.spec import Schema as OpenAPISchema
from litestar.openapi.spec.operation import Operation
from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header

from domain.picture import Picture
from domain.wording import Language
from service.application.errors import Invalid
from service.application.pictures import Renderer
from service.http.caching import language_of
from service.http.headers import declared
from service.http.languages import spoken
from service.http.pictures import raster
from service.http.pictures.svg import svg

Format = Literal["svg", "png", "gif"]
MEDIA_TYPES: dict[str, str] = {
    "svg": "image/svg+xml",
    "png": "image/png",
    "gif": "image/gif",
}
_BY_MEDIA_TYPE = {media_type: name for name, media_type in MEDIA_TYPES.items()}
# When `Accept` allows several, the order preferred: a PNG shows anywhere a picture
# may be posted; a GIF is for a run of steps.
_PREFERRED = ["image/png", "image/svg+xml", "image/gif"]

# An SVG opened on its own is a document: it may run nothing and load nothing.
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox"


def _svg(pictures: Sequence[Picture]) -> bytes:
    return svg(pictures[0])


def _png(pictures: Sequence[Picture]) -> bytes:
    return raster.png(pictures[0])


RENDERERS: dict[str, Renderer] = {"svg": _svg, "png": _png, "gif": raster.gif}


def picture_format(request: Request) -> str:
    """The format a request asks for: `format` in the query, else GIF when it names
    a run of steps (`from`, `to`) and `Accept` allows it, else the first of PNG, SVG
    and GIF that `Accept` ranks highest (no `Accept` takes any). 406 when `Accept`
    allows none."""
    asked = request.query_params.get("format")
    if asked is not None:
        if asked not in MEDIA_TYPES:
            raise Invalid(f"`format` is one of svg, png or gif, not {asked[:20]!r}.")
        return asked
    accept = parse_accept_header(request.headers.get("accept") or "*/*", MIMEAccept)
    ranged = "from" in request.query_params or "to" in request.query_params
    offered = ["image/gif"] if ranged else _PREFERRED
    best = accept.best_match(offered)
    if best is None:
        listed = ", ".join(offered)
        raise HTTPException(
            status_code=406, detail=f"This picture is served as {listed}."
        )
    return _BY_MEDIA_TYPE[best]


def picture_language(request: Request) -> Language:
    """The language of a picture's words: `lang` in the query (a link to a picture
    carries it, whoever opens it), else the request's `Accept-Language`."""
    asked = request.query_params.get("lang")
    if asked is None:
        return language_of(request)
    languages = spoken(request)
    if asked not in languages:
        raise Invalid(f"`lang` is one of {', '.join(languages)}, not {asked[:20]!r}.")
    return languages[asked]


def picture_variant(request: Request) -> str:
    """What a picture's tag names besides the game's version and the
    `Accept-Language`: its format, and the language `lang` asks for."""
    kind = picture_format(request)
    if request.query_params.get("lang") is None:
        return kind
    return f"{kind}-{picture_language(request).code}"


def steps_asked(
    kind: str, step: int, first: int | None, last: int | None
) -> tuple[int, int | None]:
    """The first and last steps drawn: the path's step for a still; for a GIF,
    `from` (the path's step by default) to `to` (None: as far as the limit goes)."""
    if kind != "gif":
        if first is not None or last is not None:
            raise Invalid("`from` and `to` are for a GIF (`format=gif`).")
        return step, step
    return (step if first is None else first), last


@cache
def declared_picture() -> type[Operation]:
    """The operation of a picture: a 200 in each format, as the document states
    each media type (Litestar states one), and `Vary` naming `Accept` too."""
    tagged = declared(tagged=True, worded=True)

    @dataclass
    class DeclaredPicture(tagged):  # type: ignore[valid-type,misc]
        def __post_init__(self) -> None:
            super().__post_init__()
            answer = (self.responses or {}).get("200")
            if isinstance(answer, OpenAPIResponse):
                answer.content = {
                    media_type: OpenAPIMediaType(schema=_SCHEMAS[name])
                    for name, media_type in MEDIA_TYPES.items()
                }
                answer.headers = {**(answer.headers or {}), "Vary": _VARY}

    return DeclaredPicture


_SCHEMAS = {
    "svg": OpenAPISchema(type="string", description="An SVG document (UTF-8)."),
    "png": OpenAPISchema(type="string", format="binary"),
    "gif": OpenAPISchema(type="string", format="binary"),
}
_VARY = OpenAPIHeader(
    schema=OpenAPISchema(type="string"), description="`Accept, Accept-Language`."
)

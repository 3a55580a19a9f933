"""Reads a client can cache: HEAD wherever GET is, and per-game answers tagged with
the game's version.

A game changes only by a new stored move, so its version names every answer about
it: the `ETag` is the version (and the service's own version, since a new release
may tell the same game differently). Notes on its moves change no version: an
answer that carries them (`noted`) is tagged with how many note entries the game
has too, a count that only grows as well. A request whose `If-None-Match` names the
current tag gets `304 Not Modified` before any work is done; every answer says
`Cache-Control: no-cache`, so a cache asks again each time (a 304 costs one small
read) and a game that moved is never shown stale.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import Any, TypeVar

import msgspec
from litestar import HttpMethod, MediaType, Request, Response, route
from litestar.datastructures import CacheControlHeader, ResponseHeader
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from domain.wording import Language
from service.application.games import Games
from service.http.callers import KEY_OPTIONAL, listed_for
from service.http.guards import PRIVATE, may_read, readable
from service.http.headers import declared
from service.http.languages import negotiated, spoken
from service.http.problems import problems

try:
    _RELEASE = version("tablelog")
except PackageNotFoundError:  # run from a checkout without installing it
    _RELEASE = "dev"

T = TypeVar("T")

_NO_CACHE = CacheControlHeader(no_cache=True)
# A members-only game's answers are for its members: no shared cache keeps them.
_PRIVATE = CacheControlHeader(private=True, no_cache=True)
_VARY = "Accept-Language"
# Whether a game is shown at all depends on who asks (`visibility`).
_CALLER = "Authorization"


def read(path: str, **kwargs: Any) -> Any:
    """A GET route that answers HEAD too (the same headers, no body). Open to all;
    a request with an app key is refused (401, 403) unless the key is known and
    holds `read` (`callers.py`)."""
    kwargs.setdefault("operation_class", declared())
    kwargs.setdefault("security", KEY_OPTIONAL)
    kwargs["responses"] = {**problems(401, 403), **kwargs.get("responses", {})}
    return route(path, http_method=[HttpMethod.GET, HttpMethod.HEAD], **kwargs)


def game_read(
    path: str,
    *,
    worded: bool = False,
    noted: bool = False,
    variant: Callable[[Request], str] | None = None,
    **kwargs: Any,
) -> Any:
    """A read of one game (its path names `game_id`): HEAD, ETag and 304. A
    `worded` read holds sentences in the request's `Accept-Language`: its tag names
    the language too, and its answers say that they vary by it. A `noted` read
    carries the notes on the game's moves: its tag counts them. A read answered in
    more than one format names in its tag the one `variant` finds in the request
    (from its `Accept`, which its answers then say they vary by too)."""
    vary = ", ".join(["Accept"] * bool(variant) + [_VARY] * worded + [_CALLER])
    kwargs["response_headers"] = [ResponseHeader(name="Vary", value=vary)]
    return read(
        path,
        before_request=_not_modified,
        middleware=[_tag_answers],
        cache_control=_NO_CACHE,
        opt={"worded": worded, "noted": noted, "variant": variant, "vary": vary},
        **{"operation_class": declared(tagged=True, worded=worded)} | kwargs,
    )


def game_stream(path: str, **kwargs: Any) -> Any:
    """A read of one game that no version tags (a stream, a list of its
    variations): the game hidden from the caller is refused as missing, and a
    members-only game's answer is private."""
    return read(
        path,
        before_request=may_read,
        middleware=[_tag_answers],
        response_headers=[ResponseHeader(name="Vary", value=_CALLER)],
        **kwargs,
    )


def caller_dependent(group: str | None) -> dict[str, str]:
    """The headers of a listing, which shows a caller with a group's key that
    group's games too: it varies by Authorization, and is private to such a
    caller."""
    control = _PRIVATE if group is not None else _NO_CACHE
    return {"Vary": _CALLER, "Cache-Control": control.to_header()}


def content_read(path: str, **kwargs: Any) -> Any:
    """A read of the records the projection runner keeps (no one game's version
    names them): tagged by its content with `tagged_answer`."""
    return read(
        path,
        cache_control=_NO_CACHE,
        operation_class=declared(tagged=True, by_content=True),
        **kwargs,
    )


def tagged_answer(request: Request, answer: T) -> Response[T]:
    """The answer with an `ETag` of its content, or a 304 when If-None-Match names
    it. The records move whenever the runner folds a batch, so the tag is a hash
    of what is answered: it saves a client the body, not the service the query.
    It varies by the caller, whose group's games it may count."""
    body = msgspec.json.encode(answer)
    tag = f'"{hashlib.blake2b(body, digest_size=12).hexdigest()}-{_RELEASE}"'
    # The records count the games the caller lists: its own group's too.
    headers = {"ETag": tag, **caller_dependent(listed_for(request))}
    if tag in _tags(request.headers.get("If-None-Match")):
        return Response(content=b"", status_code=304, headers=headers)
    return Response(content=answer, headers=headers)


def etag(
    game_version: int,
    language: str | None = None,
    notes: int | None = None,
    variant: str | None = None,
) -> str:
    noted = "" if not notes else f"-n{notes}"
    worded = "" if language is None else f"-{language}"
    form = "" if variant is None else f"-{variant}"
    return f'"{game_version}-{_RELEASE}{noted}{worded}{form}"'


def language_of(request: Request) -> Language:
    """The language a worded read answers in."""
    return negotiated(request.headers.get("accept-language"), spoken(request))


async def _not_modified(request: Request) -> Response | None:
    """304 when If-None-Match names the game's current tag; else the tag to send.

    Only a conditional request pays for reading the store here: without one the
    tag comes from this process's cached game, which may be behind the store, so
    the answer (built on the game as stored) is tagged with a version at most its
    own. That is safe: versions only grow, so such a tag can never match later and
    earn a 304 over a body that moved on."""
    games: Games = request.app.state.games
    game_id = request.path_params["game_id"]
    opt = request.route_handler.opt
    # A format no answer has is refused before the game is read.
    variant = opt["variant"](request) if opt.get("variant") else None
    wanted = _tags(request.headers.get("If-None-Match"))
    cached = None if wanted else games.timelines.cached(game_id)
    # A game hidden from the caller is refused before any tag is compared: it
    # does not exist, whatever If-None-Match says.
    timeline = await readable(request, cached or await games.timeline(game_id))
    private = bool(request.state.get(PRIVATE))
    # Counted before the handler reads the notes, as the version is read before it
    # reads the game: the answer holds at least what the tag names.
    notes = None
    if opt.get("noted"):
        notes = await games.notes.head(game_id)
    language = language_of(request).code if opt.get("worded") else None
    tag = etag(timeline.version, language, notes, variant)
    request.state.etag = tag
    if tag in wanted:
        headers = {"Cache-Control": (_PRIVATE if private else _NO_CACHE).to_header()}
        vary = opt.get("vary")
        return Response(
            content=b"",
            status_code=304,
            media_type=MediaType.TEXT,
            headers=headers | ({"Vary": vary} if vary else {}),
        )
    return None


def _tag_answers(app: ASGIApp) -> ASGIApp:
    """Put the tag `_not_modified` found on the answer: the handler's answer is
    about the version read before it ran, or a later one (never an earlier), so a
    304 on that tag never hides a move. An answer `readable` found private (a
    members-only game's) says so to caches."""

    async def tagged(scope: Scope, receive: Receive, send: Send) -> None:
        async def send_tagged(message: Message) -> None:
            state = scope.get("state", {})
            tag = state.get("etag")
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ())]
                if tag:
                    headers.append((b"etag", tag.encode()))
                if state.get(PRIVATE):
                    headers = [
                        (name, value)
                        for name, value in headers
                        if name.lower() != b"cache-control"
                    ]
                    headers.append((b"cache-control", _PRIVATE.to_header().encode()))
                message = {**message, "headers": headers}
            await send(message)

        await app(scope, receive, send_tagged)

    return tagged


def _tags(header: str | None) -> set[str]:
    """The entity tags an If-None-Match names (`*` matches any)."""
    if not header:
        return set()
    tags = {part.strip().removeprefix("W/") for part in header.split(",")}
    return tags

"""Whole numbers in query parameters and headers, read strictly: digits alone, as
the API writes them (`?limit=20`, `Last-Event-ID: 12`).

Litestar converts a query parameter or header to an `int` leniently (msgspec's lax
mode): alone, it would read `?from=1e3` as 1000 and `5.0` as 5, and refuse `+5` or
`05` with "Expected `int`, got `str`", which says nothing of what is expected. The
`WholeNumbers` middleware reads every whole-number parameter of the handler's
signature (a `QueryParameter` or `HeaderParameter` typed `int` or `int | None`, as
each of ours is declared) with one parser, before the handler's own conversion, and
refuses anything but ASCII digits without a leading zero with a 422 that names the
parameter. The bounds stay the handler's (`QueryParameter(ge=..., le=...)`), checked
after.
"""

from __future__ import annotations

import types
from typing import Any, Union, get_args, get_origin

from litestar.connection import ASGIConnection
from litestar.enums import ScopeType
from litestar.exceptions import ValidationException
from litestar.handlers import HTTPRouteHandler
from litestar.middleware import ASGIMiddleware
from litestar.params import HeaderParameter, QueryParameter
from litestar.types import ASGIApp, Receive, Scope, Send

_SHOWN = 20  # characters of a refused value repeated in the answer


def whole_number(text: str) -> bool:
    """Whether `text` is a whole number as the API writes one: ASCII digits, with
    no sign, no spaces and no leading zero ("0" itself aside)."""
    return text.isascii() and text.isdigit() and (text == "0" or text[0] != "0")


class WholeNumbers(ASGIMiddleware):
    """422 for a whole-number query parameter or header written otherwise than in
    digits alone."""

    scopes = (ScopeType.HTTP,)

    def __init__(self) -> None:
        # Each handler's whole-number parameters, found once: (name, in a header).
        self._found: dict[Any, tuple[tuple[str, bool], ...]] = {}

    async def handle(
        self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp
    ) -> None:
        handler = scope["route_handler"]
        numbers = self._found.get(handler.fn)
        if numbers is None:
            numbers = self._found[handler.fn] = _whole_numbers(handler)
        if numbers:
            _check(ASGIConnection(scope), numbers)
        await next_app(scope, receive, send)


def _whole_numbers(handler: HTTPRouteHandler) -> tuple[tuple[str, bool], ...]:
    """The handler's whole-number parameters: (name, whether a header)."""
    found = []
    for name, field in handler.parsed_fn_signature.parameters.items():
        kind = field.kwarg_definition
        if isinstance(kind, QueryParameter | HeaderParameter) and _is_int(
            field.annotation
        ):
            found.append((kind.name or name, isinstance(kind, HeaderParameter)))
    return tuple(found)


def _is_int(annotation: Any) -> bool:
    """`int` or `int | None`."""
    if get_origin(annotation) in (Union, types.UnionType):
        return {*get_args(annotation)} == {int, type(None)}
    return annotation is int


def _check(connection: ASGIConnection, numbers: tuple[tuple[str, bool], ...]) -> None:
    for name, in_header in numbers:
        given = (
            connection.headers.getall(name, [])
            if in_header
            else connection.query_params.getall(name, [])
        )
        for value in given:
            if not whole_number(value):
                shown = value if len(value) <= _SHOWN else value[:_SHOWN] + "..."
                raise ValidationException(
                    detail=f"{name} must be a whole number",
                    extra=[
                        {
                            "key": name,
                            "message": "a whole number written in digits alone "
                            f"(such as 12) is expected, not {shown!r}",
                        }
                    ],
                )

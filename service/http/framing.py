"""What a browser may do with tablelog's pages: no other site may frame them (a
phone holding a write token could be made to tap on a page it cannot see), and the
table's page runs only its own scripts and styles.

The table's page (`/app/`, and `/`, which sends browsers there) is plain files of
tablelog's own: it gets a Content-Security-Policy that allows nothing from elsewhere
and no inline script, style or event handler. The API's own page (`/schema`) is
Swagger UI, whose page Litestar writes with inline scripts: it is only kept out of
frames. The REST answers themselves are JSON, which no browser runs, so the
middleware skips them and costs a move nothing.
"""

from __future__ import annotations

import re

from litestar.datastructures import MutableScopeHeaders
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send

PAGE_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
NOT_FRAMED = "frame-ancestors 'none'"


# The pages: `/`, `/app/...` and `/schema` with its assets (not the document).
_PAGES = re.compile(r"/($|app(/|$)|schema/?$|schema/(?!openapi))")


class Framing(ASGIMiddleware):
    scopes = (ScopeType.HTTP,)

    def should_bypass_for_scope(self, scope: Scope) -> bool:
        return _PAGES.match(scope["path"]) is None

    async def handle(
        self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp
    ) -> None:
        policy = NOT_FRAMED if scope["path"].startswith("/schema") else PAGE_POLICY

        async def send_framed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableScopeHeaders.from_message(message)
                headers["Content-Security-Policy"] = policy
                headers["X-Frame-Options"] = "DENY"
                headers["Referrer-Policy"] = "no-referrer"
            await send(message)

        await next_app(scope, receive, send_framed)

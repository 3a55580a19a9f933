"""The request of one webhook attempt: its endpoint's host resolved once, every
address checked (`service/application/addresses.py`), and the message posted to an
address checked, never to the name, which the HTTP client would resolve again: a
name answering a public address to the check and an inside one next would reach
the inside. The name is kept where it belongs: in the `Host` header, and as the
name TLS sends (SNI) and checks the certificate against (httpcore's
`sni_hostname` extension), so an https endpoint is verified as it would be
without the pinning. Redirects are not followed.

The attempt has `TIMEOUT_SECONDS` in all, the resolution included: a slow
resolver, a silent endpoint, or one that answers a byte at a time holds its task
no longer than that. Of an answer that is not a 2xx only the start is read.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from ipaddress import ip_address

import httpx

from service.application.addresses import Destination, Resolve, destination
from service.application.errors import Invalid

# httpx logs every request at INFO: a line for each message sent, which the attempts
# already keep.
logging.getLogger("httpx").setLevel(logging.WARNING)

# An endpoint has this long to answer an attempt, from the start of its host's
# resolution.
TIMEOUT_SECONDS = 15.0
# What an attempt keeps of an answer that was not a 2xx, for its log.
ERROR_KEPT = 200


class Sender:
    """Posts the messages of webhooks, each on a connection of its own."""

    def __init__(
        self,
        allow_private: bool,
        resolve: Resolve,
        verify: ssl.SSLContext | bool = True,
    ) -> None:
        self._allow_private = allow_private
        self._resolve = resolve
        self._client = httpx.AsyncClient(
            timeout=TIMEOUT_SECONDS,
            follow_redirects=False,
            headers={"user-agent": "tablelog-webhooks"},
            trust_env=False,
            verify=verify,
            # A connection kept open would carry the next request to the same
            # address and port whatever its name, under the TLS checked for the
            # first. (An answer's body is not read to its end, so httpx would
            # hardly ever keep one anyway.)
            limits=httpx.Limits(max_keepalive_connections=0),
        )

    async def close(self) -> None:
        await self._client.aclose()

    async def post(
        self, url: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int | None, str | None]:
        """The status the endpoint answered (None: none), and what went wrong:
        the start of an answer that is not a 2xx, or why there was none (never
        an address the host's name was resolved to)."""
        try:
            async with asyncio.timeout(TIMEOUT_SECONDS):
                found = await destination(url, self._allow_private, self._resolve)
                return await self._post_to(found, httpx.URL(url), body, headers)
        except Invalid as refused:
            return None, refused.detail
        except TimeoutError:
            return None, f"no whole answer within {TIMEOUT_SECONDS:g} s"

    async def _post_to(
        self, found: Destination, url: httpx.URL, body: bytes, headers: dict[str, str]
    ) -> tuple[int | None, str | None]:
        """Posted to each address checked in turn, as a client given the name
        would try them, until one takes the connection."""
        named = _is_name(url.host)
        extensions = {"sni_hostname": url.raw_host.decode("ascii")} if named else {}
        headers = headers | {"host": url.netloc.decode("ascii")}
        failed: httpx.HTTPError | None = None
        for address in found.addresses:
            try:
                async with self._client.stream(
                    "POST",
                    url.copy_with(host=address),
                    content=body,
                    headers=headers,
                    extensions=extensions,
                ) as answer:
                    status = answer.status_code
                    if 200 <= status < 300:
                        return status, None
                    return status, await _start_of(answer) or None
            except httpx.ConnectError as error:
                failed = error
            except httpx.HTTPError as error:
                failed = error
                break
        assert failed is not None  # a destination has an address
        said = f"{type(failed).__name__}: {failed}"
        for address in found.addresses:  # as the OS's errors name them
            said = said.replace(address, found.host)
        return None, said[:ERROR_KEPT]


def _is_name(host: str) -> bool:
    try:
        ip_address(host)
    except ValueError:
        return True
    return False


async def _start_of(answer: httpx.Response) -> str:
    """The first `ERROR_KEPT` bytes of an answer's body, as text."""
    kept = b""
    async for chunk in answer.aiter_raw():
        kept += chunk
        if len(kept) >= ERROR_KEPT:
            break
    return kept[:ERROR_KEPT].decode(errors="replace")

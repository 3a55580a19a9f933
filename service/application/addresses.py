"""Where a webhook may be sent: the addresses an endpoint's host may stand for.

An endpoint's address is given by the app holding a key, so without this check a
key would make the service call inside its own network: the loopback, private
networks, a cloud host's metadata service. A name is resolved once for each check,
every address it gives must be allowed, and the request then goes to an address
checked (`service/readside/sender.py`): a name cannot answer a public address to
the check and an inside one to the connection.

Allowed are the globally reachable addresses of the IANA special-purpose address
registries; with `webhooks_allow_private`, every other one too but the few no
webhook ever goes to (`_NEVER`). An IPv6 address that carries an IPv4 one (mapped,
compatible, NAT64, 6to4, Teredo) is judged by the IPv4 address it reaches.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv6Address, ip_address, ip_network
from urllib.parse import urlsplit

from service.application.errors import Invalid

Address = IPv4Address | IPv6Address

# The blocks the IANA special-purpose address registries call not globally
# reachable ("Globally Reachable: False"), as of 2025:
# https://www.iana.org/assignments/iana-ipv4-special-registry
# https://www.iana.org/assignments/iana-ipv6-special-registry
# Beyond them, an IPv6 address outside 2000::/3 is not global either: the IPv6
# Address Space registry allocates no other block as global unicast
# (https://www.iana.org/assignments/ipv6-address-space); that takes in the
# loopback, unique-local, link-local and the deprecated site-local (fec0::/10)
# addresses, and the registry's own blocks outside it.
_NOT_GLOBAL = tuple(
    ip_network(block)
    for block in (
        "0.0.0.0/8",  # "this network"
        "10.0.0.0/8",  # private
        "100.64.0.0/10",  # shared by carrier-grade NATs
        "127.0.0.0/8",  # loopback
        "169.254.0.0/16",  # link-local
        "172.16.0.0/12",  # private
        # IETF protocol assignments: the registry calls two of its addresses
        # global (PCP and TURN anycast), neither a webhook's receiver.
        "192.0.0.0/24",
        "192.0.2.0/24",  # documentation
        "192.88.99.0/24",  # 6to4 relay anycast, deprecated
        "192.168.0.0/16",  # private
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # documentation
        "203.0.113.0/24",  # documentation
        "240.0.0.0/4",  # reserved, and the limited broadcast address
        "2001::/23",  # IETF protocol assignments (Teredo, benchmarking, ORCHID)
        "2001:db8::/32",  # documentation
        "3fff::/20",  # documentation
    )
)
_GLOBAL_UNICAST = ip_network("2000::/3")

# Refused even with `webhooks_allow_private`: the cloud hosts' metadata services,
# which hand out the host's credentials (AWS's, Azure's and Google's at
# 169.254.169.254, AWS's containers' at 169.254.170.2 and .23, AWS's over IPv6,
# Alibaba's at 100.100.100.200, Oracle's at 192.0.0.192); the addresses that are
# no one host (unspecified, multicast, broadcast); and the local-use NAT64 prefix,
# where an IPv4 address may sit at any of RFC 6052's offsets.
_NEVER = tuple(
    ip_network(block)
    for block in (
        "169.254.169.254/32",
        "169.254.170.2/32",
        "169.254.170.23/32",
        "100.100.100.200/32",
        "192.0.0.192/32",
        "fd00:ec2::254/128",
        "fd00:ec2::23/128",
        "0.0.0.0/8",
        "224.0.0.0/4",
        "255.255.255.255/32",
        "::/128",
        "ff00::/8",
        "64:ff9b:1::/48",
    )
)
_NAT64 = ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ip_network("::/96")

Resolve = Callable[[str, int], Awaitable[Sequence[str]]]
"""A resolver: the addresses a host name stands for (OSError: none)."""


async def resolve_by_system(host: str, port: int) -> list[str]:
    """The addresses the system's resolver gives for `host`, in the order to try
    them (the event loop's `getaddrinfo`)."""
    found = await asyncio.get_running_loop().getaddrinfo(
        host, port, type=socket.SOCK_STREAM
    )
    return [address[0] for *_, address in found]


@dataclass(frozen=True, slots=True)
class Destination:
    """Where an endpoint's request goes: its host as the address gives it (a name,
    or an address), and the addresses checked for it, in the order to try them."""

    host: str
    addresses: tuple[str, ...]


def _allowed(address: Address, allow_private: bool) -> bool:
    """Whether a webhook may go to `address` (see the module's docstring)."""
    return all(
        not any(reached in block for block in _NEVER)
        and (allow_private or _global(reached))
        for reached in _reached(address)
    )


def _global(address: Address) -> bool:
    if isinstance(address, IPv6Address) and address not in _GLOBAL_UNICAST:
        return False
    return not any(address in block for block in _NOT_GLOBAL)


def _reached(address: Address) -> tuple[Address, ...]:
    """The addresses a request to `address` reaches: the IPv4 one an IPv6 address
    carries (mapped, compatible, NAT64, 6to4) in its place; a Teredo address and
    the two it carries (its server's and its client's)."""
    if isinstance(address, IPv4Address):
        return (address,)
    if address.ipv4_mapped is not None:
        return (address.ipv4_mapped,)
    if address in _NAT64 or (address in _IPV4_COMPATIBLE and int(address) > 1):
        return (IPv4Address(int(address) & 0xFFFF_FFFF),)
    if address.sixtofour is not None:
        return (address.sixtofour,)
    if address.teredo is not None:
        return (address, *address.teredo)
    return (address,)


def refusal(host: str, allow_private: bool) -> Invalid:
    """The one answer to every host refused, found or not: it says nothing of
    where a name points, so registering cannot map the network inside."""
    if allow_private:
        return Invalid(
            f"The host '{host[:200]}' could not be found, or no webhook goes to "
            "its address: a cloud metadata service, multicast, broadcast or "
            "unspecified address."
        )
    return Invalid(
        f"The host '{host[:200]}' could not be found, or is not on the public "
        "internet: webhooks go to public internet addresses only; a server run "
        "with --webhooks-allow-private (TABLELOG_WEBHOOKS_ALLOW_PRIVATE=on) also "
        "takes loopback and private addresses."
    )


async def destination(url: str, allow_private: bool, resolve: Resolve) -> Destination:
    """Where `url` goes, its host resolved once and every address it gives
    checked; Invalid unless it is an http(s) address whose host is found and
    allowed."""
    if any(character.isspace() or not character.isprintable() for character in url):
        # No HTTP client could send it: it would fail at every delivery instead.
        raise Invalid(
            f"'{url[:200]}' is not a valid address: an address holds no space "
            "or control character."
        )
    parts = urlsplit(url)
    host = parts.hostname
    if parts.scheme not in ("http", "https") or not host:
        raise Invalid(f"'{url[:200]}' is not an http or https address.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Invalid(f"'{url[:200]}' names no valid port.") from None
    try:
        addresses = [ip_address(host)]
    except ValueError:
        addresses = await _addresses_of(host, port, resolve)
    if not addresses or not all(_allowed(each, allow_private) for each in addresses):
        raise refusal(host, allow_private)
    return Destination(host, tuple(str(each) for each in addresses))


async def _addresses_of(host: str, port: int, resolve: Resolve) -> list[Address]:
    """The addresses `host` resolves to; none when it is not found."""
    try:
        return [ip_address(each) for each in await resolve(host, port)]
    except (OSError, ValueError):  # not found; an address no one could read
        return []

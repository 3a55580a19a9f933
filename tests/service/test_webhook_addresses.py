"""Where a webhook may go: the globally reachable addresses only, judged by the
IPv4 address an IPv6 one carries; with `webhooks_allow_private` the inside too,
but never a cloud metadata service in any form, nor an address that is no one
host. Every address is tried written in the endpoint's URL and as what a name
resolves to (by a resolver the test scripts), and a refusal says the same
whatever the name stood for, found or not."""

from __future__ import annotations

import socket
from ipaddress import ip_address

import pytest

from service.application.addresses import destination, refusal
from service.application.errors import Invalid
from tests.service.names import ScriptedNames

PUBLIC = [
    "8.8.8.8",
    "93.184.215.14",
    "192.31.196.1",  # AS112, which the IPv4 registry calls global
    "2606:4700:4700::1111",
    "2620:4f:8000::1",  # AS112 over IPv6
    "::ffff:8.8.8.8",  # mapped
    "64:ff9b::808:808",  # NAT64
    "2002:808:808::1",  # 6to4
]
# Not globally reachable: refused unless the service allows private receivers.
INSIDE = [
    "127.0.0.1",
    "127.8.9.10",
    "10.0.0.7",
    "172.16.0.1",
    "192.168.1.20",
    "169.254.1.1",
    "100.64.0.1",  # carrier-grade NAT
    "192.0.0.8",
    "192.0.2.1",
    "192.88.99.1",
    "198.18.0.1",
    "198.51.100.1",
    "203.0.113.1",
    "240.0.0.1",
    "::1",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "fec0::1",  # site-local, deprecated
    "100::1",
    "2001:2::1",
    "2001:db8::1",
    "3fff::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.7",
    "::127.0.0.1",  # IPv4-compatible
    "64:ff9b::7f00:1",
    "64:ff9b::a00:7",
    "2002:7f00:1::",
    "2002:c0a8:114::1",
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, its client 127.0.0.1
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",  # Teredo, its client 8.8.8.8
]
# Refused even when the service allows private receivers.
NEVER = [
    "169.254.169.254",
    "169.254.170.2",
    "100.100.100.200",
    "192.0.0.192",
    "fd00:ec2::254",
    "::ffff:169.254.169.254",
    "::ffff:100.100.100.200",
    "::ffff:192.0.0.192",
    "::169.254.169.254",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b::6464:64c8",
    "64:ff9b:1::a9fe:a9fe",
    "2002:a9fe:a9fe::",
    "2002:6464:64c8::1",
    "2001:0:4136:e378:8000:63bf:5601:5601",  # Teredo, its client 169.254.169.254
    "0.0.0.0",
    "0.1.2.3",
    "::",
    "::ffff:0.0.0.0",
    "224.0.0.1",
    "239.255.255.250",
    "::ffff:224.0.0.1",
    "ff02::1",
    "ff05::1:3",
    "255.255.255.255",
]


def in_url(address: str) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:8080/hook"


def expected(address: str, allow_private: bool) -> bool:
    return address in PUBLIC or (allow_private and address in INSIDE)


EVERY = [
    pytest.param(address, allow_private, id=f"{address}-{mode}")
    for address in PUBLIC + INSIDE + NEVER
    for allow_private, mode in ((False, "public"), (True, "private"))
]


@pytest.mark.parametrize(("address", "allow_private"), EVERY)
def test_an_address_written_in_the_url(address, allow_private, run):
    # The resolver expects no name: an address is not resolved.
    names = ScriptedNames()
    url = in_url(address)
    if expected(address, allow_private):
        found = run(destination(url, allow_private, names.resolve))
        assert found.addresses == (str(ip_address(address)),)
    else:
        with pytest.raises(Invalid) as refused:
            run(destination(url, allow_private, names.resolve))
        assert refused.value.detail == refusal(address, allow_private).detail


@pytest.mark.parametrize(("address", "allow_private"), EVERY)
def test_an_address_a_name_resolves_to(address, allow_private, run):
    names = ScriptedNames()
    names.script("hook.test", [address])
    url = "http://hook.test:8080/hook"
    if expected(address, allow_private):
        found = run(destination(url, allow_private, names.resolve))
        assert found.addresses == (str(ip_address(address)),)
    else:
        with pytest.raises(Invalid) as refused:
            run(destination(url, allow_private, names.resolve))
        assert refused.value.detail == refusal("hook.test", allow_private).detail
        assert str(ip_address(address)) not in refused.value.detail
    assert names.answered["hook.test"] == [[address]]


@pytest.mark.parametrize("allow_private", [False, True])
def test_a_name_not_found_is_told_as_a_name_refused(allow_private, run):
    names = ScriptedNames()
    names.script("nowhere.test", [])
    names.script("metadata.test", ["169.254.169.254"])
    details = set()
    for name in ("nowhere.test", "metadata.test"):
        with pytest.raises(Invalid) as refused:
            run(destination(f"https://{name}/", allow_private, names.resolve))
        details.add(refused.value.detail.replace(name, "NAME"))
    (detail,) = details
    assert "169.254" not in detail


def test_the_refusal_names_the_setting_that_takes_private_receivers():
    detail = refusal("inside.test", allow_private=False).detail
    assert "webhooks go to public internet addresses only" in detail
    assert "--webhooks-allow-private (TABLELOG_WEBHOOKS_ALLOW_PRIVATE=on)" in detail


@pytest.mark.parametrize("allow_private", [False, True])
def test_a_name_is_refused_if_any_of_its_addresses_is(allow_private, run):
    names = ScriptedNames()
    names.script("partly.test", ["8.8.8.8", "169.254.169.254"])
    with pytest.raises(Invalid):
        run(destination("http://partly.test/", allow_private, names.resolve))


@pytest.mark.parametrize("host", ["2130706433", "0x7f000001", "127.1", "0177.0.0.1"])
def test_loopback_spelt_as_a_number_is_resolved_and_refused(host, run):
    answered = []

    async def numeric(host: str, port: int) -> list[str]:
        # The system's resolver, kept to numbers: no query leaves the machine.
        found = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST
        )
        answered.extend(address[0] for *_, address in found)
        return answered

    with pytest.raises(Invalid) as refused:
        run(destination(f"http://{host}/hook", False, numeric))
    assert answered == ["127.0.0.1"]
    assert "127.0.0.1" not in refused.value.detail


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("ftp://example.com/", "not an http or https address"),
        ("http:///hook", "not an http or https address"),
        ("http://example.com:99999/", "names no valid port"),
        ("http://example.com/a\x00b", "no space or control character"),
        ("http://example.com/a b", "no space or control character"),
        ("http://example.com/\r\nX-Injected: 1", "no space or control character"),
        ("http://exa\u0085mple.com/", "no space or control character"),
    ],
)
def test_an_address_that_is_no_http_url_says_so(url, words, run):
    with pytest.raises(Invalid) as refused:
        run(destination(url, False, ScriptedNames().resolve))
    assert words in refused.value.detail

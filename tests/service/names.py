"""Name resolution a test decides, as an attacker's own DNS server would: each
made-up name answers what the test scripts for it, one answer a resolution, and
every other name resolves as before.

`ScriptedNames.resolve` is handed to the webhooks where they are built;
`ScriptedNames.getaddrinfo` replaces `socket.getaddrinfo`, where every resolution
of the process ends (the event loop's `getaddrinfo` runs it in a thread): the
webhooks' own, and an HTTP client's, had it resolved a name again to connect.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import time
from collections.abc import Callable
from typing import Any


class ScriptedNames:
    def __init__(self, system: Callable[..., Any] = socket.getaddrinfo) -> None:
        self._system = system
        self._scripts: dict[str, list[list[str]]] = {}
        # Each scripted name's answers so far, in order.
        self.answered: dict[str, list[list[str]]] = {}
        # The seconds a name's resolution takes, as a slow DNS server's.
        self.seconds: dict[str, float] = {}

    def script(self, name: str, *answers: list[str]) -> None:
        """`name` answers each of `answers` in turn, then the last one again; an
        empty answer: the name is not found."""
        self._scripts[name] = list(answers)
        self.answered[name] = []

    def _answer(self, name: str) -> list[str]:
        answers = self._scripts[name]
        answer = answers.pop(0) if len(answers) > 1 else answers[0]
        self.answered[name].append(answer)
        if not answer:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return answer

    async def resolve(self, host: str, port: int) -> list[str]:
        if host not in self._scripts:
            raise AssertionError(f"{host} was resolved, and no test expects it")
        await asyncio.sleep(self.seconds.get(host, 0))
        return self._answer(host)

    def getaddrinfo(self, host, port, family=0, type=0, proto=0, flags=0):
        name = host.decode() if isinstance(host, bytes) else host
        if name not in self._scripts:
            return self._system(host, port, family, type, proto, flags)
        time.sleep(self.seconds.get(name, 0))
        number = int(port or 0)
        found = []
        for address in self._answer(name):
            if ipaddress.ip_address(address).version == 6:
                found.append(
                    (
                        socket.AF_INET6,
                        socket.SOCK_STREAM,
                        6,
                        "",
                        (address, number, 0, 0),
                    )
                )
            else:
                found.append(
                    (socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, number))
                )
        return found

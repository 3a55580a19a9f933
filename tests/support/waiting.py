"""Waiting for what the service does in its own time (a read model catching up, a
webhook delivered, a process answering): polled until it is so, or the test fails.

The default wait suits a read model catching up; a caller that waits for more (a
process starting, a delivery retried) says how long.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def eventually(check: Callable[[], T], seconds: float = 10) -> T:
    """What `check` gives once it gives something true, asked every 50 ms; the
    test fails if it has not within `seconds`."""
    deadline = time.monotonic() + seconds
    while not (result := check()):
        assert time.monotonic() < deadline, f"still not so after {seconds} s"
        time.sleep(0.05)
    return result


async def eventually_async(check: Callable[[], T], seconds: float = 5) -> T:
    """`eventually` on an event loop, whose tasks make it so: asked every 10 ms
    without blocking them; TimeoutError after `seconds`."""
    async with asyncio.timeout(seconds):
        while not (result := check()):
            await asyncio.sleep(0.01)
    return result

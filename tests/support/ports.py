"""Ports on loopback for what a test starts later: a `tablelog serve` process, a
cluster's nodes, or an address where nothing listens."""

from __future__ import annotations

import random
import socket
from pathlib import Path


def free_port() -> int:
    """A port free now, below the kernel's range of ephemeral ports: the process
    it is for binds it only later, and meanwhile every other test's server that
    asks for any port (port 0) is given one of that range, never this one."""
    low = _ephemeral_ports()[0]
    while True:
        port = random.randrange(max(1024, low - 12_000), low)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


def _ephemeral_ports() -> tuple[int, int]:
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
    except OSError:
        return 32768, 60999  # Linux's default
    return int(low), int(high)

"""Which addresses listen on a TCP port, from /proc/net: the JVM tests' check that every
server the kit starts binds 127.0.0.1 and is gone after close."""

from __future__ import annotations

import os


def listeners(port: int) -> list[str] | None:
    """The hex local addresses in state LISTEN on ``port``; None where /proc/net/tcp is missing."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            return None
        with open(table, encoding="ascii") as fh:
            for line in fh.readlines()[1:]:
                local, state = line.split()[1], line.split()[3]
                address, _, hex_port = local.partition(":")
                if state == "0A" and int(hex_port, 16) == port:
                    found.append(address)
    return found

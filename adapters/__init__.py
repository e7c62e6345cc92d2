"""Driving implementations: the adapter protocol an authorizer under test satisfies,
and adapters for Python objects, processes speaking JSON lines, the JVM, real
producer clients and brokers on the wire.
"""

from __future__ import annotations

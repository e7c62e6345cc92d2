"""Java authorizers as targets through py4j, with our Java shim (the ``*.java``
files here, compiled on first use) and the real Kafka jars it runs against.
"""

from __future__ import annotations

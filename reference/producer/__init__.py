"""The producer half of idempotence: configuration as the Java client and
librdkafka resolve it per release, and the reference idempotent producer.
"""

from __future__ import annotations

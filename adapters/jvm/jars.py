"""The kafka-clients jars the JVM adapter's own targets and the Java producer run on.

``kafka-default-by-type``, ``jvm:CLASS`` (as the fallback behind a user's
classpath), filter conformance and the Java ``KafkaProducer`` run on Apache
Kafka's ``kafka-clients`` 4.3.0 and what its POM brings (slf4j-api and the
compression libraries).  They come from Maven through :mod:`.maven`, pinned by
the lock like every other set; ``kafka-conformance fetch kafka-clients`` fills
the cache.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from kafka_conformance.adapters.jvm.kafka_releases import CLIENTS_4_3_0
from kafka_conformance.adapters.jvm.maven import JarError, cache_dir, cached_jars, fetch_artifact, sha256

__all__ = ["FETCH_HINT", "JarError", "KafkaJars", "cache_dir", "fetch_jars", "find_jars", "sha256"]

FETCH_HINT = "kafka-conformance fetch kafka-clients"


@attrs.frozen
class KafkaJars:
    """A verified classpath: kafka-clients and its runtime dependencies."""

    classpath: tuple[Path, ...]

    @property
    def kafka_clients(self) -> Path:
        return next(p for p in self.classpath if p.name.startswith("kafka-clients-"))


def find_jars(directory: Path | None = None) -> KafkaJars | None:
    """The cached, verified jars; None when not fetched yet.  Raises JarError on a lock mismatch."""
    found = cached_jars(CLIENTS_4_3_0, cache=directory)
    return None if found is None else KafkaJars(found)


def fetch_jars(*, directory: Path | None = None, quiet: bool = False) -> KafkaJars:
    """The verified jars, resolved with Maven on first use."""
    import sys

    def log(message: str) -> Any:
        if not quiet:
            print(f"kafka-conformance: {message}", file=sys.stderr)

    return KafkaJars(fetch_artifact(CLIENTS_4_3_0, cache=directory, log=log))

"""kafka-conformance: property-based conformance testing for Kafka ACL authorizers.

``import kafka_conformance`` is light: it never imports pyspark, Kafka clients,
py4j or any broker.  Heavy integrations live in their own modules and are
imported only when used.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]

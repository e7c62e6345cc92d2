"""kafka-conformance: property-based conformance testing for Kafka ACL authorizers.

``import kafka_conformance`` is light: it never imports pyspark, Kafka clients,
py4j or any broker.  Heavy integrations live in their own modules and are
imported only when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

__all__ = ["Report", "__version__", "check_authorizer"]

if TYPE_CHECKING:
    from kafka_conformance.report import Report
    from kafka_conformance.runner import check_authorizer


def __getattr__(name: str) -> Any:
    # Lazy: importing the package must stay cheap and free of Hypothesis side effects.
    if name == "check_authorizer":
        from kafka_conformance.runner import check_authorizer

        return check_authorizer
    if name == "Report":
        from kafka_conformance.report import Report

        return Report
    raise AttributeError(f"module 'kafka_conformance' has no attribute {name!r}")

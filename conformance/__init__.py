"""kafka-conformance: property-based conformance testing for Kafka ACL authorizers.

``import kafka_conformance`` is light: it never imports pyspark, Kafka clients,
py4j or any broker.  Heavy integrations live in their own modules and are
imported only when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

__all__ = ["Options", "Report", "__version__", "check_authorizer", "check_broker", "check_producer", "check_requests",
           "check_transactions", "run_report"]

if TYPE_CHECKING:
    from kafka_conformance.authorizer.check import check_authorizer
    from kafka_conformance.authorizer.report import Report
    from kafka_conformance.broker.check import check_broker
    from kafka_conformance.options import Options
    from kafka_conformance.producer.check import check_producer
    from kafka_conformance.report.run import run_report
    from kafka_conformance.requests.check import check_requests
    from kafka_conformance.transactions.check import check_transactions

# The public callables, each imported on first use: importing the package must
# stay cheap and free of Hypothesis side effects.
_LAZY = {
    "check_authorizer": "kafka_conformance.authorizer.check",
    "Report": "kafka_conformance.authorizer.report",
    "check_producer": "kafka_conformance.producer.check",
    "check_broker": "kafka_conformance.broker.check",
    "run_report": "kafka_conformance.report.run",
    "check_requests": "kafka_conformance.requests.check",
    "check_transactions": "kafka_conformance.transactions.check",
    "Options": "kafka_conformance.options",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kafka_conformance' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)

"""Brokers on the wire: the Python test broker, launchers of real Kafka-compatible
brokers, a raw Kafka client for crafted requests, and the fault-injecting proxy.
"""

from __future__ import annotations

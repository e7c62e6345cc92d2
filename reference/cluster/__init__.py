"""A socket-free Kafka cluster: brokers, replicated partitions and leadership under
a fault plan, logging the trace. Shared by the Python test broker and the model
engine, so both run the same semantics.
"""

from __future__ import annotations

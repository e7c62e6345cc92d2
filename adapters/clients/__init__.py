"""Real producer clients under test: the client protocol (run one failure trace)
and kafka-python, aiokafka, confluent-kafka and Kafka's Java ``KafkaProducer``.
"""

from __future__ import annotations

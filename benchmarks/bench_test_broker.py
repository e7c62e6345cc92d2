"""What the Python test broker costs: produce requests/s and messages/s through real sockets.

    python benchmarks/bench_test_broker.py                       # every table
    python benchmarks/bench_test_broker.py --messages 20000 --requests 5000 --clients kafka-python

Three measurements, printed as Markdown tables:

* **model only** — :meth:`ClusterModel.produce` in a loop (RF 3, acks=all, one
  record per batch): the ceiling set by the reference itself.
* **crafted requests** — one raw connection sending Produce v9 with one
  one-record batch each, kafka-python's encoder on the client side; once
  strictly one at a time (request → answer → next) and once pipelined five deep,
  as an idempotent client may.
* **real clients** — each producer sends ``--messages`` values with idempotence
  on to a 3-broker cluster (one partition, RF 3, acks=all) and flushes; messages/s
  is what a wire run can push, requests/s counts the produce attempts the broker
  logged.

The goal (issue 6): the test broker must not be the bottleneck of a trace run,
where a few hundred records are sent and timeouts dominate.  Not a test: no assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import socket
import struct
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from kafka_conformance.adapters.brokers.testbroker import TestCluster
from kafka_conformance.reference.broker.batches import ProducerBatch
from kafka_conformance.reference.cluster.model import ClusterModel
from kafka_conformance.reference.traces.events import Attempt
from kafka_conformance.reference.traces.fault_plan import FaultPlan
from kafka_conformance.reference.traces.program import ClusterSpec

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = ("kafka-python", "aiokafka", "confluent-kafka")


def _quiet_import(name: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return __import__(name, fromlist=["_"])


def bench_model(n: int) -> tuple[float, float]:
    model = ClusterModel(ClusterSpec(partitions=1), FaultPlan(), clock=lambda: 0)
    start = time.perf_counter()
    for seq in range(n):
        model.produce(0, 0, ProducerBatch(1000, 0, seq, (f"v{seq}",)), -1)
    elapsed = time.perf_counter() - start
    return n / elapsed, n / elapsed


def _frames(topic: str, n: int) -> list[bytes]:
    producer = _quiet_import("kafka.protocol.producer")
    records = _quiet_import("kafka.record.memory_records")
    req = producer.ProduceRequest
    frames = []
    for seq in range(n):
        builder = records.MemoryRecordsBuilder(2, 0, 1 << 16, producer_id=0, producer_epoch=0, base_sequence=seq)
        builder.append(0, None, f"v{seq}".encode())
        builder.close()
        part = req.TopicProduceData.PartitionProduceData(index=0, records=bytes(builder.buffer()))
        message = req(transactional_id=None, acks=-1, timeout_ms=1000, topic_data=[req.TopicProduceData(name=topic, partition_data=[part])])
        message.API_VERSION = 9
        message.with_header(correlation_id=seq, client_id="bench")
        frames.append(bytes(message.encode(header=True, framed=True)))
    return frames


def _read_frame(sock: socket.socket) -> None:
    def exact(k: int) -> bytes:
        data = b""
        while len(data) < k:
            chunk = sock.recv(k - len(data))
            if not chunk:
                raise ConnectionError("the test broker closed the connection")
            data += chunk
        return data

    exact(struct.unpack(">i", exact(4))[0])


def bench_crafted(n: int, depth: int) -> tuple[float, float]:
    spec = ClusterSpec(partitions=1)
    frames = _frames(spec.topic, n)
    with TestCluster(spec) as cluster:
        cluster.model.init_producer_id()  # producer id 1000 issued; the frames use 0 (no state: any sequence 0 accepted)
        with socket.create_connection(("127.0.0.1", cluster.ports[0]), timeout=30) as sock:
            start = time.perf_counter()
            sent = received = 0
            while received < n:
                while sent < n and sent - received < depth:
                    sock.sendall(frames[sent])
                    sent += 1
                _read_frame(sock)
                received += 1
            elapsed = time.perf_counter() - start
        assert len(cluster.final_log()[0]) == n, "not every crafted request was appended"
    return n / elapsed, n / elapsed


def bench_client(client: str, n: int, single: bool = False) -> tuple[float, float]:
    """``single``: one record per batch, so one record per produce request (kafka-python and librdkafka)."""
    spec = ClusterSpec(partitions=1)
    with TestCluster(spec) as cluster:
        start = time.perf_counter()
        if client == "kafka-python":
            kafka = _quiet_import("kafka")
            producer = kafka.KafkaProducer(
                bootstrap_servers=cluster.bootstrap, enable_idempotence=True, acks="all", linger_ms=0, batch_size=1 if single else 16384
            )
            for i in range(n):
                producer.send(spec.topic, value=f"v{i}".encode(), partition=0)
            producer.flush(120)
            elapsed = time.perf_counter() - start
            producer.close(10)
        elif client == "aiokafka":
            aiokafka = _quiet_import("aiokafka")

            async def main() -> float:
                producer = aiokafka.AIOKafkaProducer(bootstrap_servers=cluster.bootstrap, enable_idempotence=True)
                await producer.start()
                try:
                    futures = [await producer.send(spec.topic, value=f"v{i}".encode(), partition=0) for i in range(n)]
                    await asyncio.gather(*futures)
                    return time.perf_counter() - start
                finally:
                    await producer.stop()

            elapsed = asyncio.run(main())
        else:
            confluent = _quiet_import("confluent_kafka")
            config = {"bootstrap.servers": cluster.bootstrap, "enable.idempotence": True, "linger.ms": 5, "log_level": 0}
            if single:
                config["batch.num.messages"] = 1
            producer = confluent.Producer(config)
            for i in range(n):
                while True:
                    try:
                        producer.produce(spec.topic, value=f"v{i}".encode(), partition=0)
                        break
                    except BufferError:
                        producer.poll(0.01)
                producer.poll(0)
            producer.flush(120)
            elapsed = time.perf_counter() - start
            del producer
        requests = sum(1 for e in cluster.events() if isinstance(e, Attempt))
        assert len(cluster.final_log()[0]) == n, f"{client}: not every message reached the log"
    return requests / elapsed, n / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=20_000, help="messages per real client (default 20000)")
    parser.add_argument("--requests", type=int, default=5_000, help="crafted produce requests (default 5000)")
    parser.add_argument("--single", type=int, default=2_000, help="messages for the one-record-per-request rows (default 2000)")
    parser.add_argument("--clients", nargs="*", default=list(CLIENTS), choices=CLIENTS)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; {sys.argv[0]}")
    print()
    print("| what | produce requests/s | messages/s |")
    print("|---|---:|---:|")
    rows = [("model only (no sockets), RF 3 acks=all", bench_model(args.requests))]
    rows.append(("crafted Produce v9, one at a time", bench_crafted(args.requests, 1)))
    rows.append(("crafted Produce v9, 5 in flight", bench_crafted(args.requests, 5)))
    for client in args.clients:
        rows.append((f"{client}, {args.messages} messages, idempotent", bench_client(client, args.messages)))
        if client != "aiokafka":  # aiokafka has no knob for one record per batch
            rows.append((f"{client}, {args.single} messages, one per request", bench_client(client, args.single, single=True)))
    for name, (rps, mps) in rows:
        print(f"| {name} | {rps:,.0f} | {mps:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Connections to a cluster by what each request needs: a partition's leader, a transaction's coordinator.

A client of a cluster does not send everything to the broker it bootstrapped from: Produce,
ListOffsets and Fetch go to the partition's leader, and InitProducerId, AddPartitionsToTxn,
EndTxn and DescribeTransactions to the transactional id's coordinator, found with
FindCoordinator (key type 1, KIP-98).  On one broker these are all one connection; on a
``kafka-cluster`` they are usually not (the kit spreads a topic's leaders over the brokers,
and the coordinator is the leader of the ``__transaction_state`` partition the id hashes to).

:class:`Routes` keeps one :class:`~.wire_client.WireClient` per broker address, opened when a
request first needs that broker, and closes them all at the end.  A leader is looked up in
Metadata when first asked for and again after the caller says it moved (:meth:`Routes.moved`);
topics are created on the controller (:meth:`Routes.admin`).
"""

from __future__ import annotations

import time
from typing import Any

from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError

__all__ = ["COORDINATOR_RETRIED", "Routes"]

COORDINATOR_RETRIED = {14: "COORDINATOR_LOAD_IN_PROGRESS", 15: "COORDINATOR_NOT_AVAILABLE", 16: "NOT_COORDINATOR"}
"""FindCoordinator's answers that say "ask again": the coordinator is being elected or loaded."""


class Routes:
    """One connection per broker of the cluster at ``host:port``, handed out by what a request needs."""

    def __init__(self, host: str, port: int, *, timeout_s: float = 30.0) -> None:
        self.timeout_s = timeout_s
        self.bootstrap = WireClient(host, port, timeout_s=timeout_s)
        self._clients: dict[tuple[str, int], WireClient] = {(host, port): self.bootstrap}
        self._leaders: dict[tuple[str, int], WireClient] = {}

    def __enter__(self) -> Routes:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for client in self._clients.values():
            client.close()
        self._clients.clear()
        self._leaders.clear()

    def _client(self, host: str, port: int) -> WireClient:
        address = (host, port)
        if address not in self._clients:
            self._clients[address] = WireClient(host, port, timeout_s=self.timeout_s)
        return self._clients[address]

    def leader(self, topic: str, partition: int) -> WireClient:
        """The connection to the leader of ``topic``-``partition``, as Metadata last named it."""
        key = (topic, partition)
        if key not in self._leaders:
            deadline = time.monotonic() + self.timeout_s
            while partition not in (leaders := self.bootstrap.wait_for_leaders(topic, partition + 1,
                                                                              timeout_s=self.timeout_s)):
                if time.monotonic() >= deadline:  # others have leaders, this one not yet
                    raise WireError(f"{topic}-{partition} has no leader in Metadata from {self.bootstrap.address} "
                                    f"after {self.timeout_s:g}s")
                time.sleep(0.05)
            brokers, _ = self.bootstrap.metadata([])
            node = leaders[partition]
            if node not in brokers:
                raise WireError(f"Metadata from {self.bootstrap.address} names node {node} as the leader of "
                                f"{topic}-{partition} but lists no such broker")
            self._leaders[key] = self._client(*brokers[node])
        return self._leaders[key]

    def admin(self) -> WireClient:
        """Where CreateTopics goes: the controller Metadata names.  A ZooKeeper-mode broker that is not
        the controller refuses it (NOT_CONTROLLER); a KRaft broker forwards it and names some live
        broker; a single broker is its own controller."""
        brokers, _ = self.bootstrap.metadata([])
        controller = self.bootstrap.controller_id()
        return self._client(*brokers[controller]) if controller in brokers else self.bootstrap

    def moved(self, topic: str, partition: int) -> None:
        """Forget the leader of ``topic``-``partition``: the next :meth:`leader` asks Metadata again."""
        self._leaders.pop((topic, partition), None)

    def coordinator(self, transactional_id: str) -> WireClient:
        """The connection to ``transactional_id``'s coordinator (FindCoordinator, asked again while the
        answer is one of :data:`COORDINATOR_RETRIED`, up to the timeout)."""
        from kafka.protocol.metadata import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
            FindCoordinatorRequest,
            FindCoordinatorResponse,
        )

        low, high = self.bootstrap.versions.get(10, (0, -1))
        version = min(high, 3)
        if version < max(low, 1):  # v0 has no key type: it finds group coordinators only
            raise WireError(f"broker {self.bootstrap.address} offers FindCoordinator v{low}-v{high}; a transactional "
                            "id's coordinator needs v1 to v3")
        request = FindCoordinatorRequest(key=transactional_id, key_type=1)
        deadline = time.monotonic() + self.timeout_s
        while True:
            response: Any = self.bootstrap.request(request, FindCoordinatorResponse, version)
            code = int(response.error_code)
            if code == 0:
                return self._client(str(response.host), int(response.port))
            if code not in COORDINATOR_RETRIED:
                raise WireError(f"broker {self.bootstrap.address} answered FindCoordinator for {transactional_id!r} "
                                f"with error {code}")
            if time.monotonic() >= deadline:
                raise WireError(f"broker {self.bootstrap.address} answered FindCoordinator for {transactional_id!r} with "
                                f"{COORDINATOR_RETRIED[code]} for {self.timeout_s:g}s")
            time.sleep(0.05)

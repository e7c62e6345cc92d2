"""Where the request-level rules are checked: a broker with its authorizer on and SASL logins.

* ``kafka:VERSION``: Apache Kafka's own broker of that release (2.4 and later), started by
  the kit with SASL/PLAIN on its client listener and Kafka's authorizer (AclAuthorizer on
  ZooKeeper before 3.3, StandardAuthorizer under KRaft from 3.3), denying what no ACL
  allows; logins ``admin`` (a super user) and ``alice``.
* ``bootstrap:HOST:PORT,sasl=ADMIN:PASSWORD,USER:PASSWORD``: a Kafka-compatible broker you
  run (Redpanda, a proxy, a broker of your own), with SASL/PLAIN, an admin login allowed to
  create and delete ACLs and topics, and the login of an ordinary user whose rights come
  from ACLs alone.  The kit never starts or stops it; every name it uses starts with a
  prefix of its own and it deletes only the ACLs it created.  (Passwords containing ``,``
  or ``:`` cannot be given this way.)
* ``kfake``: franz-go's in-memory cluster (``adapters/go/kfake.py``), started by the kit on
  127.0.0.1 with SASL/PLAIN and its ACL enforcement on, a super user ``admin`` and a user
  ``alice`` with no ACLs of her own.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import attrs

__all__ = ["RequestsTarget", "RequestsTargetError", "open_requests_target", "parse_requests_target"]


class RequestsTargetError(ValueError):
    """A target spec the suite cannot use; the message says what is wrong."""


@attrs.frozen
class RequestsTarget:
    """A parsed spec: a release the kit starts, or a broker the user runs with its logins."""

    spec: str
    release: str | None = None
    host: str = ""
    port: int = 0
    admin: tuple[str, str] = ("admin", "")
    user: tuple[str, str] = ("alice", "")


KFAKE = "kfake"
KFAKE_USERS = {"admin": "admin-secret", "alice": "alice-secret"}


def parse_requests_target(spec: str) -> RequestsTarget:
    if spec == KFAKE:
        return RequestsTarget(spec, None, admin=("admin", KFAKE_USERS["admin"]), user=("alice", KFAKE_USERS["alice"]))
    if spec.startswith("kafka:"):
        from kafka_conformance.adapters.brokers.kafka_broker import AUTH_FIRST, AUTH_USERS, broker_release

        try:
            release = broker_release(spec[len("kafka:"):])
        except ValueError as exc:
            raise RequestsTargetError(str(exc)) from None
        if release < AUTH_FIRST:
            raise RequestsTargetError(f"{spec}: authorization on the wire is checked from {AUTH_FIRST} (AclAuthorizer, "
                                      "KIP-504); SimpleAclAuthorizer is not modelled")
        return RequestsTarget(spec, str(release), admin=("admin", AUTH_USERS["admin"]), user=("alice", AUTH_USERS["alice"]))
    if spec.startswith("bootstrap:"):
        address, *logins = spec[len("bootstrap:"):].split(",")
        host, sep, port = address.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise RequestsTargetError(f"{spec}: the address must be HOST:PORT, not {address!r}")
        if len(logins) != 2 or not logins[0].startswith("sasl="):
            raise RequestsTargetError(f"{spec}: give the logins as bootstrap:HOST:PORT,sasl=ADMIN:PASSWORD,USER:PASSWORD")
        pairs = []
        for login in (logins[0][len("sasl="):], logins[1]):
            name, sep, password = login.partition(":")
            if not sep or not name or not password:
                raise RequestsTargetError(f"{spec}: a login is NAME:PASSWORD, not {login!r}")
            pairs.append((name, password))
        if pairs[0][0] == pairs[1][0]:
            raise RequestsTargetError(f"{spec}: the user must not be the admin (a super user passes every check)")
        return RequestsTarget(spec, None, host, int(port), pairs[0], pairs[1])
    raise RequestsTargetError(f"unknown target {spec!r} for the request rules; expected kafka:VERSION, kfake or "
                              "bootstrap:HOST:PORT,sasl=ADMIN:PASSWORD,USER:PASSWORD")


@attrs.define
class Connection:
    """A started (or reached) broker: how to log in as the admin or the user, and the name prefix."""

    host: str
    port: int
    description: str
    target: RequestsTarget
    prefix: str

    def login(self, who: tuple[str, str]) -> Callable[[Any], None]:
        from kafka_conformance.adapters.brokers.wire_auth import sasl_plain

        return lambda client: sasl_plain(client, who[0], who[1])

    def client(self, who: tuple[str, str]) -> Any:
        from kafka_conformance.adapters.brokers.wire_client import WireClient

        return WireClient(self.host, self.port, login=self.login(who))


def _ready(connection: Connection, timeout_s: float, alive: Callable[[], bool]) -> None:
    """Until the admin can log in and get a producer id (the authorizer loaded, the broker registered)."""
    from kafka_conformance.adapters.brokers.wire_client import WireError

    deadline = time.monotonic() + timeout_s
    last = ""
    while True:
        try:
            with connection.client(connection.target.admin) as admin:
                admin.init_producer_id()
                brokers, _ = admin.metadata([])
                if brokers:
                    return
                last = "Metadata lists no broker yet"
        except WireError as exc:
            last = str(exc)
        if not alive() or time.monotonic() >= deadline:
            raise RequestsTargetError(f"{connection.description}: not ready for the admin after {timeout_s:.0f} s: {last}")
        time.sleep(0.2)


@contextlib.contextmanager
def open_requests_target(target: RequestsTarget, timeout_s: float = 120.0) -> Iterator[Connection]:
    """Start (or reach) the broker, wait until the admin is served; stop what was started."""
    from kafka_conformance.adapters.brokers.process import BrokerStartError
    from kafka_conformance.adapters.brokers.wire_client import WireError

    if target.spec == KFAKE:
        with _kfake(target, timeout_s) as connection:
            yield connection
        return
    if target.release is None:
        connection = Connection(target.host, target.port, f"{target.host}:{target.port}", target, f"kc{uuid.uuid4().hex[:8]}-")
        try:
            _ready(connection, 10.0, lambda: True)
        except (RequestsTargetError, WireError) as exc:
            raise RequestsTargetError(f"{target.spec}: {exc}") from None
        yield connection
        return
    from kafka_conformance.adapters.brokers.kafka_broker import kafka_broker_reason, start_kafka_broker

    reason = kafka_broker_reason(target.release)
    if reason is not None:
        raise RequestsTargetError(f"{target.spec}: {reason}")
    try:
        node = start_kafka_broker(target.release, timeout_s, auth=True)
    except BrokerStartError as exc:
        raise RequestsTargetError(f"{target.spec} did not start: {exc}") from exc
    try:
        connection = Connection("127.0.0.1", node.port, node.description, target, "")
        _ready(connection, timeout_s, node.process.running)
        node.process.check_loopback_only()
        yield connection
    finally:
        node.stop()


@contextlib.contextmanager
def _kfake(target: RequestsTarget, timeout_s: float) -> Iterator[Connection]:
    from kafka_conformance.adapters.brokers.process import BrokerStartError
    from kafka_conformance.adapters.go.kfake import KfakeError, kfake_cluster

    logins = ["-superuser", f"PLAIN:{target.admin[0]}:{target.admin[1]}", "-user", f"PLAIN:{target.user[0]}:{target.user[1]}"]
    try:
        with kfake_cluster(1, extra_args=["-sasl", "-acls", *logins]) as cluster:
            connection = Connection(cluster.host, cluster.port, cluster.describe(), attrs.evolve(target, host=cluster.host,
                                    port=cluster.port), "")
            _ready(connection, timeout_s, cluster.process.running)
            yield connection
    except (KfakeError, BrokerStartError) as exc:
        raise RequestsTargetError(f"kfake did not start: {exc}") from exc

"""Where the request-level rules are checked: a broker with its authorizer on and SASL logins.

* ``kafka:VERSION``: Apache Kafka's own broker of that release (2.4 and later), started by
  the kit with SASL/PLAIN on its client listener and Kafka's authorizer (AclAuthorizer on
  ZooKeeper before 3.3, StandardAuthorizer under KRaft from 3.3), denying what no ACL
  allows; logins ``admin`` (a super user) and ``alice``.
* ``bootstrap:HOST:PORT,sasl=@FILE`` (or ``sasl=env:PREFIX``, or inline
  ``sasl=ADMIN:PASSWORD,USER:PASSWORD``; :mod:`kafka_conformance.credentials`): a
  Kafka-compatible broker you run (Redpanda, a proxy, a broker of your own), with SASL/PLAIN,
  an admin login allowed to create and delete ACLs and topics, and the login of an ordinary
  user whose rights come from ACLs alone.  The kit never starts or stops it; every name it
  uses starts with a prefix of its own and it deletes only the ACLs it created.  The spec
  is only ever shown with its passwords masked.
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

from kafka_conformance.adapters.targets import Problem, Role, TargetError, parse_target
from kafka_conformance.credentials import CredentialsError, Login, logins_from, redact_spec

__all__ = ["RequestsTarget", "open_requests_target", "parse_requests_target"]


@attrs.frozen
class RequestsTarget:
    """A parsed spec: a release the kit starts, or a broker the user runs with its logins."""

    spec: str
    """As shown: passwords masked (:func:`~kafka_conformance.credentials.redact_spec`)."""
    release: str | None = None
    host: str = ""
    port: int = 0
    admin: Login = attrs.field(factory=lambda: Login("admin", ""))
    user: Login = attrs.field(factory=lambda: Login("alice", ""))


KFAKE = "kfake"
KFAKE_USERS = {"admin": "admin-secret", "alice": "alice-secret"}


def parse_requests_target(spec: str) -> RequestsTarget:
    """A spec of the request-rules role (the one grammar, :mod:`kafka_conformance.adapters.targets`)
    with its release and logins read; a :class:`TargetError` saying what is wrong, passwords masked."""
    shown = redact_spec(spec)
    parsed = parse_target(spec, Role.REQUESTS)
    if parsed.kind == KFAKE:
        return RequestsTarget(spec, None, admin=Login("admin", KFAKE_USERS["admin"]), user=Login("alice", KFAKE_USERS["alice"]))
    if parsed.kind == "kafka":
        from kafka_conformance.adapters.brokers.kafka_broker import AUTH_FIRST, AUTH_USERS, broker_release

        try:
            release = broker_release(str(parsed.argument))
        except ValueError as exc:
            raise TargetError(str(exc), Problem.MALFORMED, Role.REQUESTS) from None
        if release < AUTH_FIRST:
            raise TargetError(f"{spec}: authorization on the wire is checked from {AUTH_FIRST} (AclAuthorizer, "
                              "KIP-504); SimpleAclAuthorizer is not modelled", Problem.MALFORMED, Role.REQUESTS)
        return RequestsTarget(spec, str(release), admin=Login("admin", AUTH_USERS["admin"]), user=Login("alice", AUTH_USERS["alice"]))
    address, _, sasl = str(parsed.argument).partition(",")
    host, _, port = address.rpartition(":")
    try:
        admin, user = logins_from(sasl[len("sasl="):])
    except CredentialsError as exc:
        raise TargetError(f"{shown}: {exc}", Problem.MALFORMED, Role.REQUESTS) from None
    if admin.name == user.name:
        raise TargetError(f"{shown}: the user must not be the admin (a super user passes every check)",
                          Problem.MALFORMED, Role.REQUESTS)
    return RequestsTarget(shown, None, host, int(port), admin, user)


@attrs.define
class Connection:
    """A started (or reached) broker: how to log in as the admin or the user, and the name prefix."""

    host: str
    port: int
    description: str
    target: RequestsTarget
    prefix: str

    def login(self, who: Login) -> Callable[[Any], None]:
        from kafka_conformance.adapters.brokers.wire_auth import sasl_plain

        return lambda client: sasl_plain(client, who.name, who.password.reveal())

    def client(self, who: Login) -> Any:
        from kafka_conformance.adapters.brokers.wire_client import WireClient

        return WireClient(self.host, self.port, login=self.login(who))


def _ready(connection: Connection, timeout_s: float, alive: Callable[[], bool]) -> None:
    """Until the admin can log in and get a producer id (the authorizer loaded, the broker
    registered); then the user logs in once.  A refused login on a broker the user runs is
    their wrong name or password: said at once, not waited out."""
    from kafka_conformance.adapters.brokers.wire_auth import LoginRefused
    from kafka_conformance.adapters.brokers.wire_client import WireError

    deadline = time.monotonic() + timeout_s
    last = ""
    while True:
        try:
            with connection.client(connection.target.admin) as admin:
                admin.init_producer_id()
                brokers, _ = admin.metadata([])
                if brokers:
                    break
                last = "Metadata lists no broker yet"
        except LoginRefused as exc:
            if connection.target.release is None and connection.target.spec != KFAKE:
                raise TargetError(f"{connection.description}: {exc} (the admin login; check its name and password)",
                                  Problem.MALFORMED, Role.REQUESTS) from None
            last = str(exc)
        except WireError as exc:
            last = str(exc)
        if not alive() or time.monotonic() >= deadline:
            raise TargetError(f"{connection.description}: not ready for the admin after {timeout_s:.0f} s: {last}",
                              Problem.DID_NOT_START, Role.REQUESTS)
        time.sleep(0.2)
    try:
        with connection.client(connection.target.user):
            pass
    except LoginRefused as exc:
        raise TargetError(f"{connection.description}: {exc} (the user login; check its name and password)",
                          Problem.MALFORMED, Role.REQUESTS) from None
    except WireError as exc:
        raise TargetError(f"{connection.description}: the user could not log in: {exc}", Problem.DID_NOT_START,
                          Role.REQUESTS) from None


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
        except (TargetError, WireError) as exc:
            problem = exc.problem if isinstance(exc, TargetError) else Problem.DID_NOT_START  # a refused login stays the user's
            raise TargetError(f"{target.spec}: {exc}", problem, Role.REQUESTS) from None
        yield connection
        return
    from kafka_conformance.adapters.brokers.kafka_broker import kafka_broker_reason, start_kafka_broker

    reason = kafka_broker_reason(target.release)
    if reason is not None:
        raise TargetError(f"{target.spec}: {reason}", Problem.UNAVAILABLE, Role.REQUESTS)
    try:
        node = start_kafka_broker(target.release, timeout_s, auth=True)
    except BrokerStartError as exc:
        raise TargetError(f"{target.spec} did not start: {exc}", Problem.DID_NOT_START, Role.REQUESTS) from exc
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

    logins = ["-superuser", f"PLAIN:{target.admin.name}:{target.admin.password.reveal()}",
              "-user", f"PLAIN:{target.user.name}:{target.user.password.reveal()}"]  # the kit's own fixed logins
    try:
        with kfake_cluster(1, extra_args=["-sasl", "-acls", *logins]) as cluster:
            connection = Connection(cluster.host, cluster.port, cluster.describe(), attrs.evolve(target, host=cluster.host,
                                    port=cluster.port), "")
            _ready(connection, timeout_s, cluster.process.running)
            yield connection
    except (KfakeError, BrokerStartError) as exc:
        raise TargetError(f"kfake did not start: {exc}", Problem.DID_NOT_START, Role.REQUESTS) from exc

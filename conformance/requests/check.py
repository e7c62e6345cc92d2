"""``check_requests``: each scenario's ACLs created on the broker, every request of
:data:`~kafka_conformance.requests.scenarios.REQUESTS` sent as the user, and each answer
held to ``reference/requests`` of the release (what the same ACLs decide in the reference
authorizer of that release and flavour).

Only authorization is judged.  An answer that is not an authorization error
(:data:`~kafka_conformance.adapters.brokers.wire_auth.AUTHORIZATION_CODES`) means the
request passed the checks, whatever came after (an unknown producer id, a transaction
never begun).  Three anomalies, stable names:

* ``refused-but-allowed``: the broker answered an authorization error where the
  reference grants the request (or the topic);
* ``allowed-but-refused``: the broker let through what the reference refuses;
* ``wrong-authorization-error``: both refuse, with different codes (53 for 31, ...).

The named scenarios run first, then ``max_examples`` generated ones (Hypothesis, seeded);
a divergent generated scenario is reduced to a 1-minimal ACL set (no single ACL can be
removed with the divergence kept) before it is reported.
"""

from __future__ import annotations

import time
from typing import Any

import attrs
import hypothesis
from hypothesis import HealthCheck, Phase, given, settings

from kafka_conformance.adapters.reaper import raise_if_stopping
from kafka_conformance.options import Options
from kafka_conformance.reference.acl.principal import KafkaPrincipal
from kafka_conformance.reference.acl.values import AclBinding, ResourcePattern, ResourceType
from kafka_conformance.reference.authorizer.config import AuthorizerConfig
from kafka_conformance.reference.authorizer.decision import RequestContext
from kafka_conformance.reference.authorizer.lifecycle import ReferenceAuthorizer
from kafka_conformance.reference.authorizer.profiles import profile_for
from kafka_conformance.reference.releases import KafkaVersion
from kafka_conformance.reference.requests.outcome import authorize_request
from kafka_conformance.reference.requests.rules import (
    AddPartitionsToTxn,
    EndTxn,
    FindCoordinator,
    InitProducerId,
    Produce,
    Request,
)
from kafka_conformance.requests.scenarios import NAMED, REQUESTS, USER, Scenario, describe_binding, scenarios
from kafka_conformance.requests.targets import Connection, RequestsTarget, open_requests_target, parse_requests_target
from kafka_conformance.terminal.events import Kind, ProgressEvent, emit
from kafka_conformance.terminal.verdict import run_seed, seed_text

__all__ = ["ANOMALIES", "Divergence", "RequestsReport", "check_requests", "render_requests_text"]

ANOMALIES = ("refused-but-allowed", "allowed-but-refused", "wrong-authorization-error")
_NAMES = {29: "TOPIC_AUTHORIZATION_FAILED", 30: "GROUP_AUTHORIZATION_FAILED", 31: "CLUSTER_AUTHORIZATION_FAILED",
          53: "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", 55: "OPERATION_NOT_ATTEMPTED"}


def _code(code: int | None) -> str:
    return "granted" if code is None else f"{_NAMES.get(code, 'error')} ({code})"


@attrs.frozen
class Divergence:
    anomaly: str
    scenario: str
    acls: tuple[str, ...]
    request: str
    topic: str | None
    expected: str
    actual: str
    why: str
    """The reference's explanation of its answer."""

    def describe(self) -> str:
        where = f" topic {self.topic!r}" if self.topic else ""
        acls = "\n".join(f"    {a}" for a in self.acls) or "    (no ACL)"
        return (f"[{self.anomaly}] {self.request}{where} ({self.scenario})\n  ACLs:\n{acls}\n"
                f"  expected: {self.expected}\n  actual:   {self.actual}\n  reference: " + self.why.replace("\n", "\n    "))


@attrs.frozen
class RequestsReport:
    target: str
    """The spec as shown: passwords masked."""
    broker: str
    kafka_version: str
    flavour: str
    seed: int | None
    scenarios: int
    requests: int
    divergences: tuple[Divergence, ...]
    duration_s: float

    @property
    def exit_code(self) -> int:
        return 1 if self.divergences else 0


def _renamed(value: str, prefix: str) -> str:
    return value if not prefix or value == "*" else prefix + value


def _rename_binding(b: AclBinding, prefix: str, user: str) -> AclBinding:
    pattern = b.pattern
    name = pattern.name if pattern.resource_type is ResourceType.CLUSTER else _renamed(pattern.name, prefix)
    principal = f"User:{user}" if b.entry.principal == f"User:{USER}" else b.entry.principal
    return AclBinding(ResourcePattern(pattern.resource_type, name, pattern.pattern_type),
                      attrs.evolve(b.entry, principal=principal))


def _rename_request(request: Request, prefix: str) -> Request:
    if not prefix:
        return request
    fields: dict[str, Any] = {}
    if hasattr(request, "topics"):
        fields["topics"] = tuple(prefix + t for t in request.topics)
    for key in ("transactional_id", "key"):
        value = getattr(request, key, None)
        if isinstance(value, str):
            fields[key] = prefix + value
    return attrs.evolve(request, **fields)


@attrs.define
class _Run:
    connection: Connection
    version: KafkaVersion
    flavour: str
    producer_id: int = -1
    baseline: int = 0
    sent: int = 0

    def prepare(self) -> None:
        from kafka_conformance.adapters.brokers.wire_auth import describe_acl_count

        with self.connection.client(self.connection.target.admin) as admin:
            for topic in ("orders", "other"):
                admin.create_topic(_renamed(topic, self.connection.prefix))
            self.producer_id, _ = admin.init_producer_id()
            self.baseline = describe_acl_count(admin)

    def expected(self, acls: tuple[AclBinding, ...], request: Request) -> tuple[dict[str | None, int | None], str]:
        authorizer = ReferenceAuthorizer(profile_for(self.version, self.flavour),
                                         AuthorizerConfig.of(["User:admin", "User:ANONYMOUS"]))
        authorizer.complete_initial_load()
        refused = [r for r in authorizer.create_acls(acls) if r.error]
        assert not refused, refused  # the domain holds only ACLs Kafka accepts
        context = RequestContext(KafkaPrincipal("User", self.connection.target.user.name), "127.0.0.1")
        outcome = authorize_request(authorizer, context, request)
        topics = getattr(request, "topics", None)
        if topics and isinstance(request, Produce | AddPartitionsToTxn):
            codes = {t: (None if (e := outcome.error_for(t)) is None else e.code) for t in topics}
        else:
            codes = {None: None if outcome.error is None else outcome.error.code}
        return codes, outcome.explain()

    def actual(self, client: Any, request: Request) -> dict[str | None, int | None]:
        from kafka_conformance.adapters.brokers import wire_auth as wa

        self.sent += 1
        pid = self.producer_id
        match request:
            case InitProducerId(transactional_id=tid):
                codes: dict[str | None, int] = {None: wa.init_producer_id_code(client, tid)}
            case Produce():
                got = wa.produce_codes(client, request.topics, transactional_id=request.transactional_id, producer_id=pid,
                                       idempotent=request.idempotent, transactional=request.transactional)
                codes = dict(got.topics)
            case AddPartitionsToTxn():
                codes = dict(wa.add_partitions_to_txn(client, request.transactional_id, request.topics, pid).topics)
            case EndTxn():
                codes = {None: wa.end_txn(client, request.transactional_id, pid)}
            case FindCoordinator():
                codes = {None: wa.find_transaction_coordinator(client, request.key)}
            case _:
                raise ValueError(f"the suite does not send {request!r}")
        return {k: (v if v in wa.AUTHORIZATION_CODES else None) for k, v in codes.items()}

    def run(self, scenario: Scenario) -> list[Divergence]:
        """Create the scenario's ACLs, send every request as the user, delete the ACLs."""
        from kafka_conformance.adapters.brokers import wire_auth as wa

        prefix, user = self.connection.prefix, self.connection.target.user.name
        acls = tuple(_rename_binding(b, prefix, user) for b in scenario.acls)
        found: list[Divergence] = []
        with self.connection.client(self.connection.target.admin) as admin:
            wa.create_acls(admin, acls)
            wa.wait_acl_count(admin, self.baseline + len(acls))
            try:
                with self.connection.client(self.connection.target.user) as client:
                    for name, request in REQUESTS:
                        request = _rename_request(request, prefix)
                        expected, why = self.expected(acls, request)
                        actual = self.actual(client, request)
                        for key, want in expected.items():
                            got = actual.get(key)
                            if want == got:
                                continue
                            anomaly = ("refused-but-allowed" if want is None else "allowed-but-refused" if got is None
                                       else "wrong-authorization-error")
                            found.append(Divergence(anomaly, scenario.name, tuple(describe_binding(b) for b in acls), name,
                                                    key, _code(want), _code(got), why))
            finally:
                wa.delete_acls(admin, acls)
                wa.wait_acl_count(admin, self.baseline)
        return found

    def minimize(self, scenario: Scenario, first: Divergence) -> tuple[Scenario, list[Divergence]]:
        """Drop ACLs one at a time while a divergence of the same anomaly on the same request stays."""
        current, found = scenario, self.run(scenario)
        changed = True
        while changed:
            changed = False
            for i in range(len(current.acls)):
                smaller = attrs.evolve(current, acls=current.acls[:i] + current.acls[i + 1:])
                again = self.run(smaller)
                if any(d.anomaly == first.anomaly and d.request == first.request for d in again):
                    current, found, changed = smaller, again, True
                    break
        return current, found


class _Found(Exception):
    def __init__(self, scenario: Scenario, divergences: list[Divergence]) -> None:
        super().__init__(divergences[0].anomaly)
        self.scenario, self.divergences = scenario, divergences


def check_requests(target: str | RequestsTarget, options: Options | None = None) -> RequestsReport:
    """Hold ``target``'s authorization of producer and transaction requests to the reference.

    From ``options`` (:class:`~kafka_conformance.options.Options`): the release (default: the one
    a ``kafka:`` target runs; required for ``bootstrap:``; the flavour is StandardAuthorizer from
    3.3, AclAuthorizer before), ``max_examples`` generated ACL scenarios after the named ones
    (default 30), ``seed`` and ``progress`` (a
    :class:`~kafka_conformance.terminal.events.ProgressEvent` per scenario)."""
    from kafka_conformance.reference.releases import known_release

    opts = options if options is not None else Options()
    max_examples, progress = opts.examples(30), opts.progress
    parsed = parse_requests_target(target) if isinstance(target, str) else target
    release = known_release(opts.kafka_version or parsed.release or "")
    flavour = "standard" if release >= KafkaVersion(3, 3, 0) else "acl"
    seed = run_seed(opts.seed)  # the scenarios' settings inherit the active profile's derandomize
    started = time.monotonic()
    column = f"requests {parsed.spec}@{release}"
    divergences: list[Divergence] = []
    count = 0
    with open_requests_target(parsed) as connection:
        run = _Run(connection, release, flavour)
        run.prepare()
        emit(progress, ProgressEvent(Kind.START, column, "named scenarios", 0, len(NAMED)))
        for i, scenario in enumerate(NAMED, 1):
            raise_if_stopping()
            count += 1
            divergences += run.run(scenario)
            emit(progress, ProgressEvent(Kind.EXAMPLE, column, "named scenarios", i, len(NAMED), len(divergences)))
        emit(progress, ProgressEvent(Kind.END, column, "named scenarios", len(NAMED), len(NAMED), len(divergences),
                                     "diverges" if divergences else "done"))
        seen = {(d.anomaly, d.request) for d in divergences}

        def generated(scenario: Scenario) -> None:
            nonlocal count
            raise_if_stopping()  # a stop signal lost inside Hypothesis or a finalizer is raised here
            count += 1
            emit(progress, ProgressEvent(Kind.EXAMPLE, column, "generated scenarios", count - len(NAMED),
                                         max(max_examples, count - len(NAMED)), len(divergences)))
            new = [d for d in run.run(scenario) if (d.anomaly, d.request) not in seen]
            if new:
                raise _Found(scenario, new)

        test = settings(max_examples=max(1, max_examples), database=None, deadline=None, phases=[Phase.generate],
                        suppress_health_check=list(HealthCheck))(given(scenarios())(generated))
        if seed is not None:
            test = hypothesis.seed(seed)(test)
        if max_examples > 0:
            emit(progress, ProgressEvent(Kind.START, column, "generated scenarios", 0, max_examples, len(divergences)))
            status = "done"
            try:
                test()
            except _Found as found:
                _, minimal = run.minimize(found.scenario, found.divergences[0])
                divergences += [d for d in minimal if (d.anomaly, d.request) not in seen]
                status = "diverges"
            done = count - len(NAMED)
            emit(progress, ProgressEvent(Kind.END, column, "generated scenarios", done, max(max_examples, done),
                                         len(divergences), status))
        requests = run.sent
    return RequestsReport(parsed.spec, connection.description, str(release), flavour, seed, count, requests, tuple(divergences),
                          time.monotonic() - started)


def render_requests_text(report: RequestsReport) -> str:
    lines = [
        f"request rules check: {report.target} ({report.broker})",
        f"held to: reference/requests of Apache Kafka {report.kafka_version} ({report.flavour} authorizer); "
        f"{seed_text(report.seed)}; {report.scenarios} ACL scenarios, "
        f"{report.requests} requests; {report.duration_s:.1f}s",
    ]
    for d in report.divergences:
        lines += ["", d.describe()]
    anomalies = sorted({d.anomaly for d in report.divergences})
    verdict = "conforms" if not report.divergences else "diverges"
    lines += ["", f"verdict: {verdict} (anomalies: {', '.join(anomalies) or 'none'})"]
    return "\n".join(lines)


"""Which targets a report runs: the defaults this machine can run, narrowed by the user.

Planning is separate from running so that every bad input (an unknown target,
client or broker, a release out of range) is refused before the first suite
starts, and so that what the defaults left out is said, with why.

Defaults are the kit's own targets, fast and the same on every machine: the reference
authorizer, the model producer, and the test broker for the broker suite.  Everything else runs
when named, or with ``all_runnable``: third-party Python clients and the brokers shipped as
wheels (what a run says must not depend on what else happens to be installed), and Apache
Kafka's own authorizers and brokers, Java authorizers and the Java producer, which each start a JVM.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Sequence

import attrs

from kafka_conformance.adapters.targets import Problem, Role, TargetError, parse_target, roles_of, takes
from kafka_conformance.authorizer.targets import Target, resolve_target
from kafka_conformance.broker.targets import broker_targets_table, parse_broker_target
from kafka_conformance.credentials import redact_spec
from kafka_conformance.producer.clients import MODEL, REAL_CLIENTS, resolve_client
from kafka_conformance.producer.engines import parse_broker
from kafka_conformance.reference.releases import DEFAULT_RELEASE, IDEMPOTENCE_RELEASES, known_release
from kafka_conformance.report.model import SUITES, NotRun
from kafka_conformance.transactions.clients import TXN_CLIENTS

__all__ = ["Plan", "ReportError", "make_plan", "target_suites"]

JVM_CLIENTS = ("java",)
BUILT_CLIENTS = ("franz-go", "sarama", "kafkajs", "platformatic")
"""Clients built or installed on first use (a Go toolchain, minutes; npm): like the JVM ones, only with --all-runnable."""
WHEEL_BROKERS = ("tansu", "noida", "rdkafka-mock")
NAMED_ONLY_BROKERS = {
    "rdkafka-mock": "librdkafka's mock cluster arrives with confluent-kafka, a client, and is known not to deduplicate "
                    "(docs/producer-conformance.md, finding 6): it runs when named (--broker rdkafka-mock, "
                    "--target rdkafka-mock) or with --all-runnable",
}
"""Wheel brokers installed as a side effect of a client: a user who installed confluent-kafka to test it did not
ask for a verdict on its mock, so the defaults leave it out and say why."""
THIRD_PARTY = "installed here, a third party's: runs when named ({option} NAME) or with --all-runnable"
"""Third-party clients and brokers (the Python clients, the wheel brokers) are never defaults: a run
that names nothing checks the kit's own targets (the reference, the model, the test broker) and
gives the same verdict on every machine."""
DEFAULT_IDEMPOTENCE_VERSION = DEFAULT_RELEASE
DEMONSTRATION = "python:kafka_conformance.selftest.zoo:factories.allow-beats-deny"
"""``--demo``'s planted bug: the reference with an ALLOW that beats a DENY (KIP-11 says DENY wins)."""
EXAMPLES = (
    ("examples/python_authorizer/my_authorizer.py", "python:examples.python_authorizer.my_authorizer:factory", None),
    ("examples/node_authorizer/authorizer.js", "cmd:node examples/node_authorizer/authorizer.js", "node"),
)
"""``--demo`` from a checkout: the example authorizers shipped beside the kit (file, target, program needed),
real implementations that hold, beside the planted bug that does not."""


class ReportError(ValueError):
    """Bad input to a report (the CLI's exit code 2): the message names what and where."""


@attrs.frozen
class Plan:
    suites: tuple[str, ...]
    authorizers: tuple[Target, ...] = ()
    producers: tuple[tuple[str, str, bool], ...] = ()
    """(client, broker, named by the user)."""
    brokers: tuple[tuple[str, bool], ...] = ()
    """(broker target, named by the user)."""
    kafka_version: str | None = None
    not_run: tuple[NotRun, ...] = ()
    demonstrations: tuple[str, ...] = ()
    """Authorizer target specs run as demonstrations (``--demo``): shown, never counted."""
    kafka_bugs: str | None = None
    """The authorizer suite's choice of answer where a release has a bug of its own (``--kafka-bugs``)."""
    transactions: tuple[tuple[str, bool], ...] = ()
    """(broker the transaction table runs on, named by the user)."""
    transaction_clients: tuple[tuple[str, str, bool], ...] = ()
    """(client, broker the transaction client rows run on, named by the user)."""


def target_suites(spec: str) -> tuple[str, ...]:
    """The suite a ``--target`` spec belongs to: an authorizer spec means what it means in
    ``check authorizer`` (``kafka:VERSION`` is Apache Kafka's authorizer of that release), a
    broker-only spec (``test-broker``, ``tansu``, ``bootstrap:HOST:PORT``, ...) the broker suite;
    Kafka's broker of a release is named with ``--broker kafka:VERSION``."""
    for role, suite in ((Role.AUTHORIZER, "authorizer"), (Role.BROKER, "broker")):
        if _plays(spec, role):
            return (suite,)
    return ()


def _plays(spec: str, role: Role) -> bool:
    """Whether ``spec``'s kind plays ``role``: a malformed spec of such a kind is that suite's,
    to be refused with its own reason, not called unknown."""
    try:
        parse_target(spec, role)
    except TargetError as exc:
        return exc.problem not in (Problem.UNKNOWN, Problem.WRONG_ROLE)
    return True


def make_plan(
    *,
    suites: Iterable[str] | None = None,
    targets: Sequence[str | Target] = (),
    clients: Sequence[str] = (),
    brokers: Sequence[str] = (),
    kafka_version: str | None = None,
    all_runnable: bool = False,
    timeout: float | None = None,
    demo: bool = False,
) -> Plan:
    """Validate the user's choices and fill in the defaults; raises :class:`ReportError`.
    ``demo`` adds :data:`DEMONSTRATION` to the authorizers, marked as the demonstration it is."""
    chosen = _suites(suites, targets, clients, brokers)
    named_auth = [t for t in targets if isinstance(t, Target) or "authorizer" in target_suites(t)]
    named_brokers = [*(t for t in targets if isinstance(t, str) and "broker" in target_suites(t)),
                     *(b for b in brokers if _broker_suite_runs(b))]
    for t in targets:
        if not isinstance(t, str):
            continue
        shown = redact_spec(t)
        if not target_suites(t):
            elsewhere = [r.option for r in roles_of(t)]
            what = f"not an authorizer or a broker of the broker suite (it is taken by {', '.join(elsewhere)})" if elsewhere \
                else "unknown target"
            raise ReportError(f"target {shown!r}: {what}; --target takes an authorizer ({takes(Role.AUTHORIZER)}) "
                              f"or a broker ({takes(Role.BROKER)}); 'kafka-conformance targets' lists them")
        if target_suites(t) == ("broker",):
            try:
                parse_broker_target(t)
            except TargetError as exc:
                raise ReportError(f"target {shown!r}: {exc}") from exc
    for t in targets:
        suite = "authorizer" if isinstance(t, Target) else next(iter(target_suites(t)), None)
        if suite is not None and suite not in chosen:
            hint = "; Kafka's broker of a release is named with --broker kafka:VERSION" if str(t).startswith("kafka:") else ""
            raise ReportError(f"target {redact_spec(str(t))!r} is for the {suite} suite, which this run does not include{hint}")
    not_run: list[NotRun] = []
    authorizers = _authorizers(named_auth, kafka_version, all_runnable, timeout, not_run) if "authorizer" in chosen else ()
    demonstrations: tuple[str, ...] = ()
    if demo and "authorizer" in chosen:
        authorizers += _authorizers([*_examples(not_run), DEMONSTRATION], kafka_version, False, timeout, not_run)
        demonstrations = (DEMONSTRATION,)
    producers = _producers(clients, brokers, all_runnable, not_run) if "producer" in chosen else ()
    broker_targets = _brokers(named_brokers, kafka_version, all_runnable, not_run) if "broker" in chosen else ()
    if suites is not None and "transactions" in chosen and brokers and not any(_plays(b, Role.TRANSACTIONS) for b in brokers):
        raise ReportError(f"--suite transactions: no broker named runs transactions ({', '.join(map(redact_spec, brokers))}); "
                          f"the suite takes {takes(Role.TRANSACTIONS)}")
    transactions = _transaction_brokers(brokers, all_runnable, not_run) if "transactions" in chosen else ()
    txn_clients = _transaction_clients(clients, brokers, all_runnable, not_run) if "transaction-clients" in chosen else ()
    return Plan(chosen, authorizers, producers, broker_targets, kafka_version, tuple(not_run), demonstrations,
                transactions=transactions, transaction_clients=txn_clients)


def _suites(suites: Iterable[str] | None, targets: Sequence[str | Target], clients: Sequence[str],
            brokers: Sequence[str]) -> tuple[str, ...]:
    if suites is not None:
        picked = tuple(dict.fromkeys(suites))
        unknown = [s for s in picked if s not in SUITES]
        if unknown:
            raise ReportError(f"unknown suite {unknown[0]!r}; suites are {', '.join(SUITES)}")
        if not picked:
            raise ReportError("no suite chosen; suites are " + ", ".join(SUITES))
        return picked
    if not (targets or clients or brokers):
        return SUITES
    implied: set[str] = set()
    for t in targets:
        implied.update(("authorizer",) if isinstance(t, Target) else target_suites(t))
    if clients or brokers:
        implied.add("producer")
    if any(_broker_suite_runs(b) for b in brokers):  # --broker: the clients run against it, the broker suite checks it
        implied.add("broker")
    if any(_plays(b, Role.TRANSACTIONS) for b in brokers):  # and the transaction table runs on it
        implied.add("transactions")
        if any(c in TXN_CLIENTS for c in clients):  # with a transactional client, so do the client rows
            implied.add("transaction-clients")
    return tuple(s for s in SUITES if s in implied) or SUITES


def _authorizers(named: Sequence[str | Target], kafka_version: str | None, all_runnable: bool, timeout: float | None,
                 not_run: list[NotRun]) -> tuple[Target, ...]:
    specs: list[str | Target] = list(named) or ["reference"]
    if all_runnable and not named:
        specs += _runnable_kafka_authorizers(kafka_version, not_run)
    out = []
    for spec in specs:
        if isinstance(spec, Target):
            out.append(spec)
            continue
        try:
            out.append(resolve_target(spec, kafka_version=kafka_version, timeout=timeout))
        except TargetError as exc:
            message = str(exc) if spec in str(exc) else f"target {spec!r}: {exc}"
            if not named and kafka_version is not None:  # the default reference, at a release only the other suites model
                message += "; the authorizer suite models 2.0.0 and later: choose the other suites with --suite producer --suite broker"
            raise ReportError(message) from exc
    return tuple(out)


def _runnable_kafka_authorizers(kafka_version: str | None, not_run: list[NotRun]) -> list[str]:
    from kafka_conformance.adapters.jvm.kafka_releases import all_releases
    from kafka_conformance.adapters.jvm.kafka_target import not_runnable_reason

    found = []
    for release in all_releases():
        if kafka_version is not None and str(release.version) != kafka_version:
            continue
        reason = not_runnable_reason(release)
        if reason is None:
            found.append(release.spec)
        else:
            not_run.append(NotRun("authorizer", release.spec, reason))
    return found


def _producers(clients: Sequence[str], brokers: Sequence[str], all_runnable: bool,
               not_run: list[NotRun]) -> tuple[tuple[str, str, bool], ...]:
    for client in clients:
        if client == MODEL:
            continue
        try:
            resolve_client(client)
        except TargetError as exc:
            raise ReportError(str(exc) if client in str(exc) else f"client {client!r}: {exc}") from exc
    for broker in brokers:
        try:
            parse_broker(broker)
        except TargetError as exc:
            raise ReportError(f"--broker {redact_spec(broker)!r}: {exc}") from exc
    chosen_clients = list(clients) or [MODEL, *_available_clients(all_runnable, not_run)]
    chosen_brokers = list(brokers) or ["test-broker", *_wheel_brokers(not_run, all_runnable=all_runnable)]
    out: list[tuple[str, str, bool]] = []
    for client in dict.fromkeys(chosen_clients):
        if client == MODEL:
            out.append((MODEL, "model", bool(clients)))
            continue
        out += [(client, broker, bool(clients or brokers)) for broker in dict.fromkeys(chosen_brokers)]
    return tuple(out)


def _available_clients(all_runnable: bool, not_run: list[NotRun]) -> list[str]:
    found = []
    test_broker_runs = importlib.util.find_spec("kafka") is not None
    for client in REAL_CLIENTS:
        if client in (*JVM_CLIENTS, *BUILT_CLIENTS) and not all_runnable:
            continue
        if not test_broker_runs:
            not_run.append(NotRun("producer", client, "the test broker it runs against needs kafka-python: "
                                                      "pip install 'kafka-conformance[clients]'"))
            continue
        try:
            resolve_client(client)
        except TargetError as exc:
            not_run.append(NotRun("producer", client, str(exc)))
            continue
        if not all_runnable:
            not_run.append(NotRun("producer", client, THIRD_PARTY.format(option="--client")))
            continue
        found.append(client)
    return found


def _wheel_brokers(not_run: list[NotRun], suite: str = "producer", all_runnable: bool = False) -> list[str]:
    found = []
    for name, what, runnable in broker_targets_table():
        if name not in WHEEL_BROKERS:
            continue
        if not runnable:
            not_run.append(NotRun(suite, name, what))
        elif name in NAMED_ONLY_BROKERS and not all_runnable:
            not_run.append(NotRun(suite, name, NAMED_ONLY_BROKERS[name]))
        elif not all_runnable:
            not_run.append(NotRun(suite, name, THIRD_PARTY.format(option="--broker")))
        else:
            found.append(name)
    return found


def _brokers(named: Sequence[str], kafka_version: str | None, all_runnable: bool,
             not_run: list[NotRun]) -> tuple[tuple[str, bool], ...]:
    if named:
        for spec in named:
            _check_broker_release(spec)
        return tuple((t, True) for t in dict.fromkeys(named))
    specs = ["test-broker", *_wheel_brokers(not_run, "broker", all_runnable)]
    if all_runnable:
        from kafka_conformance.adapters.brokers.kafka_broker import BROKER_RELEASES, kafka_broker_reason

        for version in BROKER_RELEASES:
            if kafka_version is not None and str(version) != kafka_version:
                continue
            reason = kafka_broker_reason(str(version))
            if reason is None:
                specs.append(f"kafka:{version}")
            else:
                not_run.append(NotRun("broker", f"kafka:{version}", reason))
    return tuple((s, False) for s in specs)



def _transaction_brokers(named: Sequence[str], all_runnable: bool,
                         not_run: list[NotRun]) -> tuple[tuple[str, bool], ...]:
    """The brokers the transaction table runs on: those named with ``--broker`` that run transactions,
    else the wheel brokers installed here (as the other suites' defaults)."""
    chosen = [b for b in dict.fromkeys(named) if _plays(b, Role.TRANSACTIONS)]
    if chosen:
        for spec in chosen:
            _check_broker_release(spec)
        return tuple((b, True) for b in chosen)
    found = _wheel_brokers(not_run, "transactions", all_runnable)
    if not found:
        not_run.append(NotRun("transactions", "--broker", "the test broker has no transaction coordinator: name a broker "
                              "that has one (--broker kafka:VERSION starts Apache Kafka's, kfake franz-go's; tansu, "
                              "noida, bootstrap:HOST:PORT)"))
    return tuple((b, False) for b in found)


def _transaction_clients(clients: Sequence[str], brokers: Sequence[str], all_runnable: bool,
                         not_run: list[NotRun]) -> tuple[tuple[str, str, bool], ...]:
    """(client, broker) pairs the transaction client rows run on: the transactional clients named with
    ``--client`` on the brokers named with ``--broker`` that have a coordinator; with
    ``--all-runnable`` and none named, every transactional client that can run here."""
    named_brokers = [b for b in dict.fromkeys(brokers) if _plays(b, Role.TRANSACTIONS)]
    named = [c for c in dict.fromkeys(clients) if c in TXN_CLIENTS]
    not_run.extend(NotRun("transaction-clients", c, f"not a transactional client of the kit's yet (it runs "
                                                     f"{', '.join(sorted(TXN_CLIENTS))})")
                   for c in dict.fromkeys(clients) if c not in TXN_CLIENTS and c != MODEL)
    chosen = named or ([c for c in sorted(TXN_CLIENTS) if TXN_CLIENTS[c]().available() is None] if all_runnable else [])
    transaction_brokers = named_brokers or ([b for b, _ in _transaction_brokers((), all_runnable, [])] if all_runnable else [])
    if not chosen or not transaction_brokers:
        not_run.append(NotRun("transaction-clients", "--client", "name a transactional client (--client "
                              f"{' or '.join(sorted(TXN_CLIENTS))}) and a broker with a transaction coordinator "
                              "(--broker kafka:VERSION)"))
        return ()
    return tuple((c, b, bool(named)) for c in chosen for b in transaction_brokers)


def _examples(not_run: list[NotRun]) -> list[str]:
    """The example authorizers found under the working directory (a checkout of the kit)."""
    import shutil
    from pathlib import Path

    found = []
    for path, spec, program in EXAMPLES:
        if not Path(path).is_file():
            continue
        if program is not None and shutil.which(program) is None:
            not_run.append(NotRun("authorizer", spec, f"{program} is not installed here"))
            continue
        found.append(spec)
    return found


def _broker_suite_runs(spec: str) -> bool:
    """Whether the broker suite takes ``spec`` (a cluster, ``kafka-cluster:...``, is the producer suite's only)."""
    return _plays(spec, Role.BROKER)


def _check_broker_release(spec: str) -> None:
    """A release in a broker spec is checked before the run (a typo never becomes a column that
    could not run)."""
    kind, _, arg = spec.strip().partition(":")
    try:
        if kind == "test-broker" and arg:
            known_release(arg, IDEMPOTENCE_RELEASES)
        elif kind == "kafka":
            from kafka_conformance.adapters.brokers.kafka_broker import broker_release

            broker_release(arg.partition(":")[0])
        elif kind == "kafka-cluster":
            from kafka_conformance.adapters.brokers.kafka_cluster import cluster_release

            cluster_release(arg.partition(":")[0])
    except ValueError as exc:
        raise ReportError(f"target {spec!r}: {exc}") from exc

"""``run_report``: the suites over the planned targets, gathered into one :class:`Report`.

Each suite runs through its own callable (``check_authorizer``,
``check_producer``, ``check_broker``, ``check_transactions``); their report values become columns
(:mod:`.columns.authorizer`, :mod:`.columns.producer`, :mod:`.columns.broker`, :mod:`.columns.transactions`).  A
target the user named that fails to start gets a column of cells that could not
run, with why; a default target that cannot run here is listed in
``Report.not_run`` instead, so the defaults never fail a report.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from kafka_conformance import __version__
from kafka_conformance.adapters.targets import TargetError
from kafka_conformance.authorizer.targets import Target
from kafka_conformance.options import Options
from kafka_conformance.reference.releases import KafkaVersion
from kafka_conformance.report.columns.authorizer import authorizer_column, authorizer_rows
from kafka_conformance.report.columns.broker import broker_column, broker_rows
from kafka_conformance.report.columns.producer import column_target, producer_column, producer_rows
from kafka_conformance.report.columns.transactions import transactions_column, transactions_rows
from kafka_conformance.report.model import Cell, CellStatus, Column, NotRun, Report, Row, SuiteRun
from kafka_conformance.report.plan import DEFAULT_IDEMPOTENCE_VERSION, EXAMPLES, Plan, ReportError, make_plan
from kafka_conformance.terminal.events import Kind, ProgressEvent, ProgressSink, emit
from kafka_conformance.terminal.verdict import run_seed

if TYPE_CHECKING:
    from kafka_conformance.broker.report import BrokerReport

__all__ = ["PROFILES", "Depth", "run_report"]


@attrs.frozen
class Depth:
    """How hard each suite looks under a profile."""

    authorizer_examples: int
    """Hypothesis examples per authorizer property."""
    producer_traces: int
    """Generated failure traces per producer column (each a real run for a real client); the trace table always runs."""
    broker_examples: int
    """Generated crafted sequences of the broker suite in all (its ``max_examples``: the rounds share them)."""
    broker_rounds: int
    """Rounds at most, each looking for one more distinct anomaly."""
    transaction_scripts: int = 0
    """Generated transaction scripts per broker, after the transaction table (each a real run on the broker)."""
    real_client_table: bool = True
    """Whether real clients run the trace table (about a minute of real runs per client and broker);
    the model engine always does (milliseconds, in simulated time)."""


PROFILES: dict[str, Depth] = {
    "smoke": Depth(authorizer_examples=10, producer_traces=3, broker_examples=20, broker_rounds=2, real_client_table=False,
                   transaction_scripts=2),
    "ci": Depth(authorizer_examples=100, producer_traces=15, broker_examples=100, broker_rounds=6, transaction_scripts=10),
    "nightly": Depth(authorizer_examples=1000, producer_traces=100, broker_examples=1000, broker_rounds=6,
                     transaction_scripts=100),
}
DEFAULT_PROFILE = "ci"



def run_report(
    *,
    suites: Iterable[str] | None = None,
    targets: Sequence[str | Target] = (),
    clients: Sequence[str] = (),
    brokers: Sequence[str] = (),
    kafka_version: str | None = None,
    profile: str = DEFAULT_PROFILE,
    all_runnable: bool = False,
    seed: int | None = None,
    failures_dir: str | Path | None = None,
    timeout: float | None = None,
    progress: ProgressSink | None = None,
    demo: bool = False,
    kafka_bugs: str | None = None,
) -> Report:
    """Run the chosen suites over their targets and return the :class:`Report`.

    ``targets`` are authorizer and broker target specs (a :class:`Target` value
    is an authorizer target built in Python, e.g. a zoo mutant); ``clients`` and
    ``brokers`` narrow the producer suite's client x broker pairs.  Without any
    of them, every suite runs on the fast defaults this machine can run (see
    :mod:`.plan`); ``all_runnable`` adds the JVM targets.  Minimal cases are saved
    under ``failures_dir`` for ``kafka-conformance replay``.  ``progress`` receives
    every suite's :class:`~kafka_conformance.terminal.events.ProgressEvent` values,
    and a note per target not run here and per column done.  Raises
    :class:`~.plan.ReportError` for bad input, before anything runs.  ``demo`` adds a
    planted bug as a demonstration column (:data:`~.plan.DEMONSTRATION`): its findings are on
    the page, marked so, and never in the verdict or the exit code.  ``kafka_bugs`` is the
    authorizer suite's choice where a release has a bug of its own (``as-released`` or
    ``documented``, :func:`~kafka_conformance.check_authorizer`).
    """
    if profile not in PROFILES:
        raise ReportError(f"unknown profile {profile!r}; profiles are {', '.join(PROFILES)}")
    depth = PROFILES[profile]
    plan = attrs.evolve(make_plan(suites=suites, targets=targets, clients=clients, brokers=brokers,
                                  kafka_version=kafka_version, all_runnable=all_runnable, timeout=timeout, demo=demo),
                        kafka_bugs=kafka_bugs)
    say = _Say(progress)
    for gone in plan.not_run:
        say.note(gone.suite, gone.target, f"not run here: {gone.reason}")
    saves = Path(failures_dir).absolute() if failures_dir is not None else None  # replayable from any directory
    seed = run_seed(seed)  # one seed for every suite, named once at the top of the report
    started = time.monotonic()
    runs = []
    skipped = list(plan.not_run)
    for suite in plan.suites:
        runner = {"authorizer": _authorizer_suite, "producer": _producer_suite, "broker": _broker_suite,
                  "transactions": _transactions_suite, "transaction-clients": _transaction_clients_suite}[suite]
        runs.append(runner(plan, depth, seed, saves, say, skipped))
    return Report(
        suites=tuple(runs),
        profile=profile,
        seed=seed,
        kit_version=__version__,
        generated_at=datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        duration_s=time.monotonic() - started,
        not_run=tuple(skipped),
    )


@attrs.frozen
class _Say:
    """The report's own notes, as progress events beside the suites' (one sink for all)."""

    sink: ProgressSink | None

    def note(self, suite: str, target: str, message: str) -> None:
        emit(self.sink, ProgressEvent(Kind.NOTE, f"{suite} {target}", message=message))


def _done(say: _Say, column: Column) -> Column:
    counts = ", ".join(f"{n} {s.value}" for s in CellStatus if (n := sum(c.status is s for c in column.cells)))
    say.note(column.suite, f"{column.target}@{column.release}", f"{counts or 'nothing'} in {column.duration_s:.1f}s")
    return column


def unrunnable(suite: str, target: str, release: str, problem: str, rows: tuple[Row, ...]) -> Column:
    """A column the user asked for that could not run at all: every row says why."""
    cells = tuple(Cell(r.id, CellStatus.COULD_NOT_RUN, reason=problem) for r in rows)
    return Column(suite, target, release, cells=cells, problem=problem)


def _could_not_run(say: _Say, skipped: list[NotRun], suite: str, target: str, release: str, problem: str,
                   rows: tuple[Row, ...], *, named: bool) -> Column | None:
    """A target that could not start: when the user named it, a column whose cells could not run,
    with why; a default this machine cannot run is a line under "left out" instead (None), so the
    defaults never fail a report."""
    if not named:
        skipped.append(NotRun(suite, target, problem))
        say.note(suite, target, f"not run here: {problem}")
        return None
    return _done(say, unrunnable(suite, target, release, problem, rows))


EXAMPLE_SPECS = frozenset(spec for _, spec, _ in EXAMPLES)


def _authorizer_suite(plan: Plan, depth: Depth, seed: int | None, saves: Path | None, say: _Say,
                      skipped: list[NotRun]) -> SuiteRun:
    from kafka_conformance.authorizer.check import check_authorizer

    rows = authorizer_rows()
    columns = []
    for target in plan.authorizers:
        try:
            options = Options(seed=seed, max_examples=depth.authorizer_examples, progress=say.sink,
                              failures_dir=saves / "authorizer" if saves is not None else None)
            report = check_authorizer(target, options, kafka_bugs=plan.kafka_bugs)
        except TargetError as exc:
            release = str(target.capabilities.profile())
            columns.append(_done(say, unrunnable("authorizer", target.spec, release, str(exc), rows)))
            continue
        demonstration = target.spec in plan.demonstrations
        what = ("a planted bug (ALLOW beats DENY), to show the kit catching one" if demonstration
                else "the kit's reference authorizer" if target.spec.startswith("reference")
                else "an example authorizer shipped with the kit" if target.spec in EXAMPLE_SPECS else "")
        column = authorizer_column(report, description=what)
        columns.append(_done(say, attrs.evolve(column, demonstration=demonstration)))
    return SuiteRun("authorizer", rows, tuple(columns))


def _producer_suite(plan: Plan, depth: Depth, seed: int | None, saves: Path | None, say: _Say,
                    skipped: list[NotRun]) -> SuiteRun:
    from kafka_conformance.adapters.clients.protocol import ClientConfigError
    from kafka_conformance.producer.check import check_producer
    from kafka_conformance.producer.clients import MODEL
    from kafka_conformance.producer.engines import shared_brokers

    rows = producer_rows()
    version = plan.kafka_version or DEFAULT_IDEMPOTENCE_VERSION
    done: dict[int, Column] = {}
    # Broker by broker (the columns keep the plan's order): Apache Kafka starts once per broker
    # spec for every client, and is stopped before the next spec's starts.
    brokers = [b for _, b, _ in plan.producers]
    with shared_brokers() as pool:
        for i in sorted(range(len(brokers)), key=lambda i: brokers.index(brokers[i])):
            client, broker, named = plan.producers[i]
            pool.keep_only("test-broker" if broker == "model" else broker)
            target = column_target(client, broker)
            table = client == MODEL or depth.real_client_table
            try:
                options = Options(kafka_version=version, seed=seed, max_examples=depth.producer_traces, progress=say.sink,
                                  failures_dir=saves / "producer" if saves is not None else None)
                report = check_producer(client, options, broker="test-broker" if broker == "model" else broker, table=table)
            except (TargetError, ClientConfigError) as exc:
                gone = _could_not_run(say, skipped, "producer", target, version, str(exc), rows, named=named)
                if gone is not None:
                    done[i] = gone
                continue
            what = "the reference producer against the reference cluster (simulated time)" if client == MODEL else ""
            left_out = "" if table else "the trace table runs on real clients under the ci and nightly profiles, not smoke"
            column = producer_column(report, description=what, table_left_out=left_out)
            done[i] = _done(say, attrs.evolve(column, asked=named or broker in ("model", "test-broker")))
    columns = [done[i] for i in sorted(done)]
    return SuiteRun("producer", rows, tuple(columns))


def _broker_suite(plan: Plan, depth: Depth, seed: int | None, saves: Path | None, say: _Say,
                  skipped: list[NotRun]) -> SuiteRun:
    from kafka_conformance.broker.check import check_broker

    rows = broker_rows()
    version = plan.kafka_version or DEFAULT_IDEMPOTENCE_VERSION
    columns = []
    for target, named in plan.brokers:
        folder = saves / "broker" if saves is not None else None
        try:
            options = Options(kafka_version=version, seed=seed, max_examples=depth.broker_examples, failures_dir=folder,
                              progress=say.sink)
            report = check_broker(target, options, max_rounds=depth.broker_rounds, table=True)
        except TargetError as exc:
            gone = _could_not_run(say, skipped, "broker", target, version, str(exc), rows, named=named)
            if gone is not None:
                columns.append(gone)
            continue
        column = broker_column(report, probe_saves=_save_probes(report, folder, target, version, seed))
        columns.append(_done(say, attrs.evolve(column, asked=named or target.startswith("test-broker"))))
    return SuiteRun("broker", rows, tuple(columns))


def _transactions_suite(plan: Plan, depth: Depth, seed: int | None, saves: Path | None, say: _Say,
                        skipped: list[NotRun]) -> SuiteRun:
    from kafka_conformance.adapters.targets import Role, parse_target
    from kafka_conformance.transactions.check import check_transactions

    rows = transactions_rows()
    columns = []
    for target, named in plan.transactions:
        claims = parse_target(target, Role.TRANSACTIONS).release  # kafka:VERSION names its own release
        version = claims or plan.kafka_version or DEFAULT_IDEMPOTENCE_VERSION
        # Apache Kafka 4.0 and later runs the table under both protocols: KIP-890's second part
        # (transaction.version 2) is what keeps a late Produce out of the next transaction.
        for tv in (1, 2) if claims and KafkaVersion.parse(claims) >= KafkaVersion(4, 0, 0) else (1,):
            release = version if tv == 1 else f"{version}, transaction.version 2"
            options = " ".join([*([] if claims else [f"--kafka-version {version}"]),
                                *([] if tv == 1 else ["--transaction-version 2"])])
            try:
                shared = Options(kafka_version=None if claims else version, seed=seed,
                                 max_examples=depth.transaction_scripts, progress=say.sink)
                report = check_transactions(target, shared, transaction_version=tv)
            except TargetError as exc:
                gone = _could_not_run(say, skipped, "transactions", target, release, str(exc), rows, named=named)
                if gone is not None:
                    columns.append(gone)
                break
            column = transactions_column(report, release=release, replay_options=options)
            columns.append(_done(say, attrs.evolve(column, asked=named)))
    return SuiteRun("transactions", rows, tuple(columns))


def _transaction_clients_suite(plan: Plan, depth: Depth, seed: int | None, saves: Path | None, say: _Say,
                               skipped: list[NotRun]) -> SuiteRun:
    from kafka_conformance.adapters.targets import Role, parse_target
    from kafka_conformance.report.columns.transaction_clients import transaction_client_column, transaction_client_rows
    from kafka_conformance.transactions.clients import check_transaction_client

    rows = transaction_client_rows()
    columns = []
    for client, broker, named in plan.transaction_clients:
        release = parse_target(broker, Role.TRANSACTIONS).release or plan.kafka_version or "unclaimed"
        try:
            report = check_transaction_client(client, broker, Options(progress=say.sink))
        except TargetError as exc:
            gone = _could_not_run(say, skipped, "transaction-clients", f"{client} on {broker}", release, str(exc), rows,
                                  named=named)
            if gone is not None:
                columns.append(gone)
            continue
        columns.append(_done(say, attrs.evolve(transaction_client_column(report, release=release), asked=named)))
    return SuiteRun("transaction-clients", rows, tuple(columns))


def _save_probes(report: BrokerReport, folder: Path | None, target: str, version: str, seed: int | None) -> dict[str, str]:
    """Each diverging probe saved as a broker case file (the suite saves only its generated
    findings), so that its replay command works like theirs."""
    from kafka_conformance.broker.check import save_finding
    from kafka_conformance.broker.probes import PROBES
    from kafka_conformance.broker.report import BrokerFinding

    if folder is None:
        return {}
    cases = {p.name: p.case for p in PROBES}
    out = {}
    for probe in report.probes:
        if probe.status != "diverges" or not probe.divergences or probe.name not in cases:
            continue
        steps = probe.run.steps if probe.run is not None else ()
        finding = BrokerFinding(probe.divergences[0].anomaly, cases[probe.name], probe.divergences[0], steps, 1)
        out[probe.name] = str(save_finding(finding, folder, target, version, seed))
    return out

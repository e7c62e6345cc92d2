"""``check_transactions``: run the transaction table on a broker and hold it to the spec.

For each row of :data:`~kafka_conformance.reference.transactions.table.TXN_ROWS`, the kit
runs the script on the broker (acting as the producer and as read_committed and
read_uncommitted consumers, ``adapters/brokers/wire_txn.py``) and on the model of the
release the broker claims, then compares every answer and every read.  A row *agrees* when
the broker answers exactly as that Kafka release does; the anomalies the transaction checker
finds in the broker's run are reported beside those of the model's, so a user sees both
"does my broker behave as Kafka X?" and "is Kafka X itself exposed here?".

A difference is a divergence (exit code 1); an anomaly Kafka's own release shares is not,
but it is named in the report.  Each row runs on its own topic and transactional id.
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import hypothesis
from hypothesis import Phase
from hypothesis.errors import FlakyFailure

from kafka_conformance.adapters.brokers.launchers import BrokerStartError, started_for
from kafka_conformance.adapters.brokers.wire_client import KAFKA_PYTHON_MISSING, WireError
from kafka_conformance.adapters.brokers.wire_txn import TooLate, run_script_on_broker
from kafka_conformance.adapters.targets import Problem, Role, TargetError, parse_target
from kafka_conformance.options import Options
from kafka_conformance.reference.releases import KafkaVersion
from kafka_conformance.reference.transactions.checker import check_history, history_of
from kafka_conformance.reference.transactions.model import run_model
from kafka_conformance.reference.transactions.profile import TxnProfile, txn_profile
from kafka_conformance.reference.transactions.run import NOT_TIMED_OUT, ScriptRun, StepAnswer
from kafka_conformance.reference.transactions.script import TxnScript
from kafka_conformance.reference.transactions.table import TXN_ROWS, TxnRow, txn_row
from kafka_conformance.terminal.events import Kind, ProgressEvent, emit
from kafka_conformance.terminal.verdict import run_seed
from kafka_conformance.transactions.strategies import txn_scripts

__all__ = ["BrokerAt", "Generated", "RowResult", "TxnReport", "broker_address", "check_transactions", "cluster_size",
           "compare_runs"]


@attrs.frozen
class RowResult:
    name: str
    question: str
    differences: tuple[str, ...]
    """Each step or read where the broker's answer is not the release's; empty when they agree."""
    anomalies: tuple[str, ...]
    """The anomalies of the broker's run, by name."""
    kafka_anomalies: tuple[str, ...]
    """The anomalies of the model's run: what the Kafka release itself shows on this row."""
    explanations: tuple[str, ...] = ()
    error: str = ""
    """Set when the run could not finish (the broker stopped answering): the row diverges."""

    @property
    def agrees(self) -> bool:
        return not self.differences and not self.error


@attrs.frozen
class Generated:
    """The generated scripts of a run (:mod:`.strategies`): how many ran, and the smallest that differed."""

    examples: int
    """Scripts drawn: all of them, or up to and including the first that differed."""
    seed: int | None
    """None when the Hypothesis profile derandomizes (:func:`~kafka_conformance.terminal.verdict.run_seed`)."""
    failure: RowResult | None = None
    script: TxnScript | None = None
    """The failing script, shrunk (replay it with ``script_from_json``)."""
    flaky: bool = False
    """The broker answered the failing script differently when it was run again."""
    shrink_runs: int = 0
    """Scripts run to shrink the first difference."""


@attrs.frozen
class TxnReport:
    target: str
    profile: str
    rows: tuple[RowResult, ...]
    generated: Generated | None = None
    duration_s: float = 0.0

    @property
    def verdict(self) -> str:
        """``conforms`` or ``diverges``, the words every suite's verdict line uses."""
        return "conforms" if self.conforms else "diverges"

    @property
    def conforms(self) -> bool:
        return all(r.agrees for r in self.rows) and (self.generated is None or self.generated.failure is None)

    @property
    def exit_code(self) -> int:
        return 0 if self.conforms else 1


def _describe(answer: StepAnswer) -> str:
    if answer.error is None:
        return "held"
    if answer.error == NOT_TIMED_OUT:
        return "no abort: the transaction still open after its timeout"
    parts = [f"error {answer.error}"]
    if answer.producer >= 0:
        parts.append(f"producer #{answer.producer} epoch {answer.epoch}")
    if answer.base_offset >= 0:
        parts.append(f"offset {answer.base_offset}")
    return ", ".join(parts)


def compare_runs(real: ScriptRun, model: ScriptRun) -> tuple[str, ...]:
    """Every difference between a broker's run and the model's run of one script, said plainly."""
    out = []
    for step, got, want in zip(real.script.steps, real.answers, model.answers, strict=True):
        if not got.same_as(want):
            words = " ".join(w for w in (type(step).__name__.lower(), step_text(step)) if w)
            out.append(f"step {got.index} {words}: broker answered "
                       f"{_describe(got)}, Kafka answers {_describe(want)}" + (f" ({want.detail})" if want.detail else ""))
    for got_read, want_read in zip(real.reads, model.reads, strict=True):
        for field in ("committed", "uncommitted", "last_stable_offset", "log_end_offset"):
            g, w = getattr(got_read, field), getattr(want_read, field)
            if g != w:
                out.append(f"partition {got_read.partition} {field.replace('_', ' ')}: broker {g}, Kafka {w}")
    return tuple(out)


def step_text(step: object) -> str:
    """A step's fields as ``key=value`` words, the defaults left out: what the text report shows of a script."""
    fields = attrs.asdict(step)  # type: ignore[arg-type]
    return " ".join(f"{k}={sorted(v) if isinstance(v, frozenset) else v}" for k, v in fields.items()
                    if k == "commit" or (v is not None and v is not False and not (k == "records" and v == 1)
                                         and not (k == "transactional" and v)))


def _release(spec: str, kafka_version: str | None) -> KafkaVersion:
    """The release a spec of the transactions role claims; a TargetError naming what is wrong."""
    parsed = parse_target(spec, Role.TRANSACTIONS)
    if parsed.release is not None:
        version = KafkaVersion.parse(parsed.release)
        if kafka_version is not None and _version(kafka_version) != version:
            raise TargetError(f"this is Kafka {version}; --kafka-version {kafka_version} names another release",
                              Problem.MALFORMED, Role.TRANSACTIONS)
        return version
    if kafka_version is None:
        raise TargetError("say which Kafka release the broker claims with --kafka-version", Problem.MALFORMED, Role.TRANSACTIONS)
    return _version(kafka_version)


def _version(text: str) -> KafkaVersion:
    try:
        return KafkaVersion.parse(text)
    except ValueError as exc:
        raise TargetError(f"--kafka-version {text}: {exc}", Problem.MALFORMED, Role.TRANSACTIONS) from None


@attrs.frozen
class BrokerAt:
    """Where the rows run: a broker, or the first broker of a cluster (the rest are found through it)."""

    host: str
    port: int
    replication_factor: int = 1
    """Replicas of each row's topic: one on a single broker, up to three on a cluster."""
    cluster: Any = attrs.field(default=None, eq=False)
    """The :class:`~kafka_conformance.adapters.brokers.kafka_cluster.KafkaCluster` of ``kafka-cluster``
    (None on a single broker): the rows that kill a broker act on it."""

    @property
    def create_topic(self) -> Callable[[str, int], None] | None:
        """How a row's topic is made on a cluster (partition p led by broker p, all replicas in sync), None elsewhere."""
        if self.cluster is None:
            return None
        return lambda topic, partitions: self.cluster.create_topic(topic, partitions, self.replication_factor, 1)


@contextlib.contextmanager
def broker_address(spec: str) -> Iterator[BrokerAt]:
    """The broker for the block; only a failure to start it is the user's (a failure of the rows is not)."""
    parsed = parse_target(spec, Role.TRANSACTIONS)
    cluster_size(spec)  # a malformed cluster is the user's first, whatever is installed
    if importlib.util.find_spec("kafka") is None:  # before a broker is started for nothing
        raise TargetError(f"the transactions suite: {KAFKA_PYTHON_MISSING}", Problem.UNAVAILABLE, Role.TRANSACTIONS)
    if parsed.kind == "kfake":
        with _kfake() as address:
            yield address
        return
    if parsed.kind == "kafka-cluster":
        with _kafka_cluster(parsed.argument or "") as address:
            yield address
        return
    with started_for(spec, Role.TRANSACTIONS) as broker:
        yield BrokerAt(broker.host, broker.port)


def cluster_size(spec: str) -> int | None:
    """How many brokers ``kafka-cluster:VERSION[:N]`` starts (N, default 3; None for any other spec); a
    TargetError for a release the kit starts no cluster of, or an N it does not start."""
    parsed = parse_target(spec, Role.TRANSACTIONS)
    if parsed.kind != "kafka-cluster":
        return None
    return _parse_cluster(parsed.argument or "")[1]


def _parse_cluster(argument: str) -> tuple[str, int]:
    from kafka_conformance.adapters.brokers.kafka_cluster import parse_cluster

    try:
        return parse_cluster(argument)
    except ValueError as exc:
        raise TargetError(str(exc), Problem.MALFORMED, Role.TRANSACTIONS) from exc


@contextlib.contextmanager
def _kafka_cluster(argument: str) -> Iterator[BrokerAt]:
    """``kafka-cluster:VERSION[:N]``: N brokers (default 3) and their controller, stopped at the end of the block.
    The transaction state topic has min(3, N) replicas, so the coordinator's log outlives one broker."""
    from kafka_conformance.adapters.brokers.kafka_broker import kafka_broker_reason
    from kafka_conformance.adapters.brokers.kafka_cluster import start_kafka_cluster
    from kafka_conformance.adapters.brokers.process import BrokerStartError
    from kafka_conformance.transactions.clients import pin_coordinator

    version, brokers = _parse_cluster(argument)
    reason = kafka_broker_reason(version)
    if reason is not None:
        raise TargetError(f"kafka-cluster:{argument}: {reason}", Problem.UNAVAILABLE, Role.TRANSACTIONS)
    try:
        cluster = start_kafka_cluster(version, brokers)
    except BrokerStartError as exc:
        raise TargetError(f"kafka-cluster:{argument}: {exc}", Problem.DID_NOT_START, Role.TRANSACTIONS) from exc
    try:
        try:
            cluster.wait_ready()
        except BrokerStartError as exc:
            raise TargetError(f"kafka-cluster:{argument}: {exc}", Problem.DID_NOT_START, Role.TRANSACTIONS) from exc
        try:
            pin_coordinator(cluster)
        except (BrokerStartError, WireError) as exc:
            raise TargetError(f"kafka-cluster:{argument}: leading the transaction log from one broker: {exc}",
                              Problem.DID_NOT_START, Role.TRANSACTIONS) from exc
        first = cluster.nodes[0]
        yield BrokerAt("127.0.0.1", first.port, min(3, len(cluster.nodes)), cluster)
    finally:
        cluster.stop()


@contextlib.contextmanager
def _kfake() -> Iterator[BrokerAt]:
    from kafka_conformance.adapters.go.kfake import KfakeError, kfake_cluster, kfake_reason

    reason = kfake_reason()
    if reason is not None:
        raise TargetError(f"kfake: {reason}", Problem.UNAVAILABLE, Role.TRANSACTIONS)
    with contextlib.ExitStack() as stack:
        try:
            cluster = stack.enter_context(kfake_cluster(1))
        except (KfakeError, BrokerStartError) as exc:
            raise TargetError(f"kfake did not start: {exc}", Problem.DID_NOT_START, Role.TRANSACTIONS) from exc
        yield BrokerAt(cluster.host, cluster.port)


def check_transactions(
    broker: str,
    options: Options | None = None,
    *,
    transaction_version: int = 1,
    rows: Sequence[str] | None = None,
) -> TxnReport:
    """Run the named rows (every row by default; none with ``rows=()``) and generated scripts on
    ``broker`` and on the model of its release.

    From ``options`` (:class:`~kafka_conformance.options.Options`): the release (required unless
    the spec names one), ``max_examples`` generated scripts (default none, at most 10,000),
    ``seed`` and ``progress`` (a :class:`~kafka_conformance.terminal.events.ProgressEvent` per row
    and per script)."""
    opts = options if options is not None else Options()
    max_examples, progress = opts.examples(0), opts.progress
    chosen: tuple[TxnRow, ...] = TXN_ROWS if rows is None else tuple(_row(name) for name in rows)
    if max_examples > 10_000:
        raise TargetError(f"max_examples must be 0 to 10000, not {max_examples}", Problem.MALFORMED, Role.TRANSACTIONS)
    release = _release(broker, opts.kafka_version)
    try:
        profile = txn_profile(release, transaction_version=transaction_version)
    except ValueError as exc:  # an unparsable or unmodelled release, or transaction.version 2 before 4.0
        raise TargetError(f"{broker}: {exc}", Problem.MALFORMED, Role.TRANSACTIONS) from exc
    started = time.monotonic()
    column = f"transactions {broker}@{profile}"
    with broker_address(broker) as at:
        results: list[RowResult] = []
        nonce = uuid.uuid4().hex[:8]
        emit(progress, ProgressEvent(Kind.START, column, "transaction table", 0, len(chosen)))
        for i, row in enumerate(chosen):
            result = _run_row(row, at, profile, f"txn-{nonce}-{i}-{row.name}", f"kit-{nonce}-{i}")
            results.append(result)
            emit(progress, ProgressEvent(Kind.EXAMPLE, column, "transaction table", i + 1, len(chosen),
                                         sum(not r.agrees for r in results), "agrees" if result.agrees else "differs",
                                         row.name, unit="rows"))
        differing = sum(not r.agrees for r in results)
        emit(progress, ProgressEvent(Kind.END, column, "transaction table", len(chosen), len(chosen), differing,
                                     "diverges" if differing else "done", unit="rows"))
        generated = None
        if max_examples:
            emit(progress, ProgressEvent(Kind.START, column, "generated scripts", 0, max_examples, differing))

            def tick(done: int) -> None:
                emit(progress, ProgressEvent(Kind.EXAMPLE, column, "generated scripts", done,
                                             max(max_examples, done), differing))

            generated = _generated(at, profile, max_examples, run_seed(opts.seed), nonce, tick)
            found = generated.failure is not None
            emit(progress, ProgressEvent(Kind.END, column, "generated scripts", generated.examples,
                                         max(max_examples, generated.examples), differing + found,
                                         "diverges" if found else "done"))
    return TxnReport(broker, str(profile), tuple(results), generated, time.monotonic() - started)


class _Differs(AssertionError):
    pass


def _generated(at: BrokerAt, profile: TxnProfile, max_examples: int, seed: int | None, nonce: str,
               tick: Callable[[int], None]) -> Generated:
    """Hypothesis draws scripts, runs each on the broker and the model, and shrinks the first that differs.
    A run the broker could not finish (it stopped answering) ends the search unshrunk: shrinking it
    would only ask a broker that is gone."""
    counter = itertools.count()
    failed: list[tuple[TxnScript, RowResult, int]] = []  # (script, result, its ordinal)
    broken: list[tuple[TxnScript, RowResult, int]] = []

    @hypothesis.settings(max_examples=max_examples, deadline=None, database=None,
                         suppress_health_check=list(hypothesis.HealthCheck), phases=[Phase.generate, Phase.shrink])
    @hypothesis.given(txn_scripts())
    def run(script: TxnScript) -> None:
        if broken:
            return
        i = next(counter)
        tick(i + 1)
        result = _run_row(TxnRow("generated", "a generated script", script), at, profile,
                          f"txn-{nonce}-g{i}", f"kit-{nonce}-g{i}")
        if result.error:
            broken.append((script, result, i))
        elif not result.agrees:
            failed.append((script, result, i))
            raise _Differs(result.name)

    if seed is not None:
        run = hypothesis.seed(seed)(run)
    try:
        run()
    except _Differs:
        script, result, _ = failed[-1]  # Hypothesis ran the shrunk script last
        first = failed[0][2]
        return Generated(first + 1, seed, result, script, shrink_runs=next(counter) - first - 1)
    except FlakyFailure:
        script, result, first = failed[0]
        return Generated(first + 1, seed, result, script, flaky=True, shrink_runs=next(counter) - first - 1)
    if broken:
        script, result, ordinal = broken[0]
        return Generated(ordinal + 1, seed, result, script)
    return Generated(next(counter), seed)


def _row(name: str) -> TxnRow:
    try:
        return txn_row(name)
    except KeyError as exc:
        raise TargetError(str(exc.args[0]), Problem.MALFORMED, Role.TRANSACTIONS) from exc


def _run_row(row: TxnRow, at: BrokerAt, profile: TxnProfile, topic: str, txn_id: str) -> RowResult:
    model = run_model(row.script, profile)
    kafka_found = check_history(history_of(model))
    real: ScriptRun | None = None
    for again in ("", "-again"):  # a run that came too close to its transaction timeout is run once more
        try:
            real = run_script_on_broker(row.script, at.host, at.port, topic=topic + again, transactional_id=txn_id + again,
                                        transaction_version=profile.transaction_version,
                                        replication_factor=at.replication_factor, create_topic=at.create_topic)
            break
        except TooLate as exc:
            if again:
                return RowResult(row.name, row.question, (), (), tuple(a.name for a in kafka_found),
                                 error=f"{exc} (twice)")
        except WireError as exc:
            return RowResult(row.name, row.question, (), (), tuple(a.name for a in kafka_found), error=str(exc))
    assert real is not None
    found = check_history(history_of(real))
    return RowResult(row.name, row.question, compare_runs(real, model), tuple(a.name for a in found),
                     tuple(a.name for a in kafka_found), tuple(a.explanation for a in found))

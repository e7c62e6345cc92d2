"""The transaction client rows run through a real transactional producer, behind the fault proxy.

For each row of :data:`~kafka_conformance.transactions.client_rows.CLIENT_TXN_ROWS` the kit
creates a topic, opens a session of the client (``adapters/clients/txn.py``: the Java client's
runner program, or a Python client in this process) pointed at the fault proxy, plays the
application's steps, and reads every partition back as read_committed and read_uncommitted consumers.  What
the broker took is the proxy's record (every answer without an error, and the answer to a held
request sent late), not the client's word; how each transaction ended is the client's.  The
transaction checker (``reference/transactions/checker.py``) then names the anomalies.

A row *holds* when the checker finds none.  There is no "as Kafka does" here: the answer
depends on the client as much as on the release (whether the client bumps its epoch after a
batch it gave up on, KIP-360; whether the broker verifies partitions or bumps the epoch per
transaction, KIP-890), and which of the two kept the data right is shown by the late request's
answer.  Beside the checker's anomalies, two are the client's own: a commit reported although one
of the transaction's sends did not succeed, and a transaction the client could not end (refused so
that the producer cannot go on, or no answer within :data:`CALL_TIMEOUT_S`).  On a cluster
(``kafka-cluster:VERSION``) a row may kill the transaction's coordinator once its sends completed
(:class:`~kafka_conformance.transactions.client_rows.CrashCoordinator`); the broker is started again
on its data before the read-back.  A row may stall past the transaction's timeout
(:class:`~kafka_conformance.transactions.client_rows.Stall`): the kit waits until the coordinator
has aborted the transaction, and the commit that follows must fail; it then ended aborted, whatever
the client can do next.  A row
whose hold never fired, or whose held request was never released, could not run: it is no evidence.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from kafka_conformance.adapters.brokers.fault_hold import LateDelivery
from kafka_conformance.adapters.brokers.fault_proxy import FaultProxy, ProxyError
from kafka_conformance.adapters.brokers.process import BrokerStartError
from kafka_conformance.adapters.brokers.wire_client import WireError
from kafka_conformance.adapters.brokers.wire_routes import Routes
from kafka_conformance.adapters.brokers.wire_txn import await_timeout_abort, read_back, settle_offsets
from kafka_conformance.adapters.clients.protocol import CallTimedOut, ClientConfigError, ClientRunError, CompletionLog
from kafka_conformance.adapters.clients.txn import (
    AiokafkaTxnClient,
    ConfluentTxnClient,
    JavaTxnClient,
    KafkaPythonTxnClient,
    TxnClient,
    TxnSession,
)
from kafka_conformance.adapters.go.producers import GoTxnClient
from kafka_conformance.adapters.node.producers import PLATFORMATIC, NodeTxnClient
from kafka_conformance.adapters.targets import Problem, Role, TargetError
from kafka_conformance.options import Options
from kafka_conformance.reference.broker.produce_errors import ProduceError
from kafka_conformance.reference.traces.events import Acked, Attempt, Event, Failed, Indeterminate, Response
from kafka_conformance.reference.traces.fault_plan import Action
from kafka_conformance.reference.traces.program import SendStep
from kafka_conformance.reference.transactions.checker import Outcome, Transaction, TxnHistory, TxnWrite, check_history
from kafka_conformance.reference.transactions.coordinator import TxnError
from kafka_conformance.reference.transactions.run import PartitionRead
from kafka_conformance.terminal.events import Kind, ProgressEvent, emit
from kafka_conformance.transactions.client_rows import (
    CLIENT_TXN_ROWS,
    Begin,
    ClientTxnRow,
    Commit,
    CrashCoordinator,
    Stall,
    Write,
    client_txn_row,
)

__all__ = ["COMMITTED_UNACKNOWLEDGED", "NOT_ENDED", "TXN_CLIENTS", "TXN_CLIENT_PROPERTIES", "ClientRowResult", "TxnClientReport",
           "check_transaction_client", "client_history", "pin_coordinator", "run_client_row", "txn_client",
           "unacknowledged_commits"]

TXN_CLIENT_PROPERTIES: dict[str, str] = {
    "enable.idempotence": "true",
    "acks": "all",
    "linger.ms": "0",
    "request.timeout.ms": "1000",
    "delivery.timeout.ms": "3000",
    "retry.backoff.ms": "100",
    "transaction.timeout.ms": "60000",
    "max.block.ms": "10000",
}
"""Java producer properties of every row: a request the network holds is given up within seconds
(``delivery.timeout.ms``), and the transaction's own timeout is far beyond the row."""
SETTLE_S = 0.8
"""How long a request held until ``after-end`` waits for the transaction's markers (they normally take
milliseconds).  The client's EndTxn answer waits with it, so this stays under the rows'
``request.timeout.ms`` (1 s); a late request sent before the markers were seen says so."""
CALL_TIMEOUT_S = 30.0
"""How long one transactional call (a commit waits for its batches) is waited for."""


@attrs.frozen
class ClientRowResult:
    name: str
    question: str
    outcomes: tuple[str, ...]
    """How each transaction ended, as the client said."""
    late: tuple[str, ...]
    """What the broker answered each held request when it arrived late."""
    anomalies: tuple[str, ...]
    explanations: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    error: str = ""
    """Set when the row could not be run to its end, or read back (the client or the broker failed)."""

    @property
    def holds(self) -> bool:
        return not self.anomalies and not self.error


def _code(code: int | None) -> str:
    if code is None:
        return "no answer"
    with contextlib.suppress(ValueError):
        return f"{ProduceError.from_code(code).name} ({code})"
    with contextlib.suppress(ValueError):
        return f"{TxnError(code).name} ({code})"
    return f"error {code}"


def _late_text(late: LateDelivery) -> str:
    what = ", ".join(repr(v) for v in late.values)
    answer = f"answered without an error (offset {late.base_offset})" if late.error == 0 else _code(late.error)
    return f"{what} to partition {late.partition}: {answer}{f' ({late.detail})' if late.detail else ''}"


def _refusal(answer: dict[str, Any]) -> str:
    return f"{str(answer.get('class', '?')).rsplit('.', 1)[-1]}: {answer.get('message', '')}".strip()


def _play(row: ClientTxnRow, process: TxnSession, topic: str, crash: Callable[[], None],
          stall: Callable[[float], bool], outcomes: list[Outcome], words: list[str]) -> None:
    """The row's steps, each transaction's outcome and how it ended in words appended as it ends (so a
    row that fails half-way keeps what it saw).  A fatal answer ends the row."""
    began, timed_out = time.monotonic(), False
    for step in row.steps:
        if isinstance(step, CrashCoordinator):
            process.flush(CALL_TIMEOUT_S)
            crash()
        elif isinstance(step, Stall):
            process.flush(CALL_TIMEOUT_S)
            timed_out = stall(began)
            if not timed_out:
                raise ClientRunError(f"the coordinator did not abort the transaction within {row.timeout_ms} ms and "
                                     "30 s more: the row's question needs it aborted")
        elif isinstance(step, Begin):
            began, timed_out = time.monotonic(), False
            answer = process.txn("begin", CALL_TIMEOUT_S)
            if not answer.get("ok"):
                raise ClientRunError(f"beginTransaction refused: {_refusal(answer)}")
        elif isinstance(step, Write):
            process.send(SendStep(step.value, step.partition), topic)
        else:
            action = "commit" if isinstance(step, Commit) else "abort"
            try:
                answer = process.txn(action, CALL_TIMEOUT_S)
            except CallTimedOut:  # alive but stuck: the application cannot tell how its transaction ended
                outcomes.append(Outcome.UNKNOWN)
                words.append(f"t{len(outcomes)} {action} gave no answer within {CALL_TIMEOUT_S:.0f} s: the producer "
                             "cannot go on")
                break
            if answer.get("ok"):
                outcomes.append(Outcome.COMMITTED if action == "commit" else Outcome.ABORTED)
                words.append(f"t{len(outcomes)} {'committed' if action == 'commit' else 'aborted'}")
                continue
            said = f"{action} refused ({_refusal(answer)})"
            if timed_out:  # the coordinator aborted it: refusing the commit is right, and the transaction is over
                outcomes.append(Outcome.ABORTED)
                words.append(f"t{len(outcomes)} {said}: the coordinator had aborted it at its timeout")
                break
            if action == "commit" and not answer.get("fatal"):
                again = process.txn("abort", CALL_TIMEOUT_S)
                if again.get("ok"):
                    outcomes.append(Outcome.ABORTED)
                    words.append(f"t{len(outcomes)} {said}, then aborted")
                    continue
                said += f", then abort refused ({_refusal(again)})"
            outcomes.append(Outcome.UNKNOWN)
            words.append(f"t{len(outcomes)} {said}: the producer cannot go on")
            break


def client_history(row: ClientTxnRow, outcomes: Sequence[Outcome], taken: set[str],
             reads: tuple[PartitionRead, ...]) -> TxnHistory:
    """One transaction per outcome (a row cut short keeps those that ended), each write with the
    broker's word on it."""
    return TxnHistory(tuple(
        Transaction(f"t{n}", tuple(TxnWrite(w.value, w.partition, w.value in taken) for w in writes), outcome,
                    end_taken=outcome is not Outcome.UNKNOWN)
        for n, (outcome, writes) in enumerate(zip(outcomes, _transactions(row), strict=False), start=1)), reads)


def _unfired(row: ClientTxnRow, proxy: FaultProxy) -> str:
    """Why the row's fault did not happen as written (it is then no evidence), or empty."""
    holds = sum(r.action is Action.HOLD for r in row.plan.rules)
    if holds and proxy.holds.made < holds:
        return "the hold never fired: the client sent no produce request for the held partition"
    if proxy.holds.pending():
        return "a held request was never released: the broker answered no EndTxn or next transaction through the proxy"
    return ""


def _taken(proxy: FaultProxy) -> tuple[set[str], list[str]]:
    """Every value the broker answered without an error, to the client or late to the proxy itself, and
    a note for each answer that was a duplicate's: a batch answered with the offset of an earlier batch
    of other values, and stamped with that batch's producer id, epoch and sequence (the client used a
    sequence again, findings 9), was not written, and its values were not taken.  A batch of other
    stamps answered so is taken at the broker's word, and the read-back says whether it is there."""
    values = {e.attempt_id: e.values for e in proxy.events if isinstance(e, Attempt)}
    partition = {e.attempt_id: e.partition for e in proxy.events if isinstance(e, Attempt)}
    stamps: dict[tuple[str, ...], tuple[int, int, int]] = {}
    for e in proxy.events:
        if isinstance(e, Attempt):
            stamps.setdefault(e.values, (e.producer_id, e.producer_epoch, e.base_sequence))
    answered = [(partition.get(e.attempt_id, -1), e.base_offset, values.get(e.attempt_id, ()))
                for e in proxy.events if isinstance(e, Response) and e.error is ProduceError.NONE]
    answered += [(late.partition, late.base_offset, late.values) for late in proxy.late if late.error == 0]
    first: dict[tuple[int, int], tuple[str, ...]] = {}
    out: set[str] = set()
    notes: list[str] = []
    for p, offset, vs in answered:
        earlier = first.setdefault((p, offset), vs) if offset >= 0 else vs
        if earlier == vs or stamps.get(vs) != stamps.get(earlier):  # not the same stamps: the broker's word stands
            out.update(vs)
        else:
            notes.append(f"{', '.join(map(repr, vs))} to partition {p} was answered with offset {offset}, where "
                         f"{', '.join(map(repr, earlier))} is: a duplicate's answer to a batch stamped with a sequence "
                         "already used, so it was not written")
    return out, notes


def run_client_row(row: ClientTxnRow, client: TxnClient, host: str, port: int, *, nonce: str | None = None,
                   deadline_s: float = 30.0, replication_factor: int = 1, cluster: Any = None) -> ClientRowResult:
    """Run ``row`` with ``client`` against the broker (or cluster) at host:port, on a topic of
    ``replication_factor`` replicas and a transactional id of its own.  ``cluster``, a
    :class:`~kafka_conformance.adapters.brokers.kafka_cluster.KafkaCluster` whose first broker is at
    host:port, is needed by a row that kills a broker; every broker is running again before the
    row reads back."""
    if row.needs_cluster and (cluster is None or len(cluster.nodes) < 2):
        raise ValueError(f"row {row.name} kills a broker: it runs on a cluster of two brokers or more only")
    nonce = nonce or uuid.uuid4().hex[:8]
    topic, txn_id = f"txn-client-{nonce}-{row.name}", f"kit-client-{nonce}-{row.name}"
    if cluster is not None:  # partition p led by broker p, all replicas in sync
        cluster.create_topic(topic, row.partitions, replication_factor, 1)
    else:
        with Routes(host, port, timeout_s=deadline_s) as routes:
            routes.admin().create_topic(topic, partitions=row.partitions, replication_factor=replication_factor,
                                        timeout_s=deadline_s)

    def settle() -> bool:
        with Routes(host, port, timeout_s=deadline_s) as own:
            return settle_offsets(own, topic, row.partitions, SETTLE_S)

    def crash() -> None:
        if log.pending:
            raise ClientRunError(f"{log.pending} of the sends before the kill had not completed within "
                                 f"{CALL_TIMEOUT_S:.0f} s: the row's question needs them acknowledged")
        log.note(_crash_coordinator(cluster, proxy, txn_id, deadline_s))

    def stall(since: float) -> bool:
        with Routes(host, port, timeout_s=deadline_s) as own:
            reply = await_timeout_abort(own, txn_id, topic, range(row.partitions), row.timeout_ms, since, deadline_s)
        log.note(f"stalled past the {row.timeout_ms} ms transaction timeout: " + (
            f"the coordinator aborted the transaction ({reply.detail})" if reply.code == 0 else reply.detail))
        return reply.code == 0

    started = time.monotonic()
    clock: Callable[[], int] = lambda: int((time.monotonic() - started) * 1000)  # noqa: E731
    log = CompletionLog(clock)
    outcomes: list[Outcome] = []
    words: list[str] = []
    error = ""
    try:
        with FaultProxy(host, port, row.plan, clock=clock, settle=settle) as proxy:
            properties = {**TXN_CLIENT_PROPERTIES, "transaction.timeout.ms": str(row.timeout_ms), "transactional.id": txn_id}
            process = client.open(properties, proxy.bootstrap, log)
            try:
                answer = process.txn("init", CALL_TIMEOUT_S)
                if not answer.get("ok"):
                    raise ClientRunError(f"initTransactions refused: {_refusal(answer)}")
                _play(row, process, topic, crash, stall, outcomes, words)
            finally:
                try:
                    process.stop()
                except Exception as exc:  # what the row saw stands; the client's failure to close is noted
                    log.note(f"the client did not close cleanly: {exc}")
                completions = log.close()
            (taken, duplicates), late = _taken(proxy), tuple(proxy.late)
            for note in duplicates:
                log.note(note)
            unfired = _unfired(row, proxy)
    except (ClientRunError, ClientConfigError, ProxyError, WireError, BrokerStartError) as exc:
        error = str(exc)
    if row.needs_cluster:
        try:
            cluster.restore()  # the killed broker starts again on its data: the next row, and the read-back, need it
            pin_coordinator(cluster)  # the log's leadership moved with the kill: back where every row expects it
        except (BrokerStartError, WireError) as exc:
            error = error or f"the killed broker did not start again: {exc}"
    if error:
        return ClientRowResult(row.name, row.question, tuple(words), (), (), notes=tuple(log.notes), error=error)
    if unfired:
        return ClientRowResult(row.name, row.question, tuple(words), tuple(_late_text(x) for x in late), (),
                               notes=tuple(log.notes), error=unfired)
    try:
        with Routes(host, port, timeout_s=deadline_s) as routes:
            reads = read_back(routes, topic, row.partitions, deadline_s=deadline_s)
    except WireError as exc:
        error = f"reading back: {exc}"
        reads = ()
    found = [(a.name, a.explanation) for a in check_history(client_history(row, outcomes, taken, reads))] if reads else []
    found += unacknowledged_commits(row, outcomes, completions)
    found += [(NOT_ENDED, f"the client could not end {said.split(' ', 1)[0]}: {said.split(' ', 1)[1]}")
              for outcome, said in zip(outcomes, words, strict=True) if outcome is Outcome.UNKNOWN]
    return ClientRowResult(row.name, row.question, tuple(words), tuple(_late_text(x) for x in late),
                           tuple(name for name, _ in found), tuple(why for _, why in found), tuple(log.notes), error)


def _crash_coordinator(cluster: Any, proxy: FaultProxy, transactional_id: str, deadline_s: float) -> str:
    """SIGKILL the broker FindCoordinator names for ``transactional_id`` (the proxy stops listening for
    it first, so that a client's new connection to it is refused, as by a dead broker), and wait until
    another broker leads the transaction log (the coordinator the client must find next); what
    happened, in words."""
    port = _coordinator_port(cluster, transactional_id, deadline_s)
    node = next((i for i, n in enumerate(cluster.nodes) if n.port == port), None)
    if node is None:
        raise WireError(f"FindCoordinator named 127.0.0.1:{port} for {transactional_id!r}, no broker of the cluster")
    proxy.upstream_down("127.0.0.1", port)
    cluster.crash_and_settle(node, TRANSACTION_LOG)
    leaders = sorted({m.leader for m in cluster.partitions(TRANSACTION_LOG).values()})
    return (f"broker {node}, the coordinator, was killed (SIGKILL); broker {', '.join(map(str, leaders))} leads "
            f"{TRANSACTION_LOG} now")


TRANSACTION_LOG = "__transaction_state"


def _coordinator_port(cluster: Any, transactional_id: str, timeout_s: float = 30.0) -> int:
    """The port of the broker FindCoordinator names for ``transactional_id``, asked of a live broker."""
    with Routes("127.0.0.1", cluster.nodes[cluster.live_nodes()[0]].port, timeout_s=timeout_s) as routes:
        return routes.coordinator(transactional_id).port


def pin_coordinator(cluster: Any) -> None:
    """Lead the transaction log from its replica with the highest broker id, which leads no partition of
    a row's topic when the cluster has three brokers or more (``KafkaCluster.create_topic`` places
    partition p on broker p).  Kafka places the log, and so the coordinator, at random: pinned, the
    coordinator and the leaders are apart on every run (a client whose connection to a partition's
    leader stalls may otherwise find its EndTxn stalled too, on some runs only)."""
    _coordinator_port(cluster, "kafka-conformance-pin")  # the transaction log is created on first use
    cluster.lead(TRANSACTION_LOG, 0, max(cluster.partitions(TRANSACTION_LOG)[0].replicas))


NOT_ENDED = "transaction-not-ended"
"""The client's own anomaly: a commit or abort was refused so that the producer cannot go on (fenced,
an illegal state), or gave no answer within :data:`CALL_TIMEOUT_S` while the cluster served
(stuck): the application cannot tell whether its transaction committed.  No row starts a second
producer, and a row that lets a transaction time out sees the coordinator abort it, so a refusal
there is the right answer, not this anomaly."""
COMMITTED_UNACKNOWLEDGED = "committed-unacknowledged-write"
"""The client's own anomaly: it reported a transaction committed although one of the transaction's
sends had failed or never completed.  KIP-98's producer must refuse the commit then (the Java
client's ``commitTransaction`` throws the send's error): the application believes a write is in
the log that is not, or that the broker took on its own, outside what was committed."""


def unacknowledged_commits(row: ClientTxnRow, outcomes: Sequence[Outcome], events: Sequence[Event]) -> list[tuple[str, str]]:
    said = {e.value: e for e in events if isinstance(e, (Acked, Failed, Indeterminate))}
    found = []
    for n, (outcome, writes) in enumerate(zip(outcomes, _transactions(row), strict=False), start=1):
        if outcome is not Outcome.COMMITTED:
            continue
        for write in writes:
            event = said.get(write.value)
            if isinstance(event, Acked):
                continue
            what = "never completed" if event is None else f"failed ({event.error})" if isinstance(event, Failed) \
                else f"failed without saying whether it was written ({event.reason})"
            found.append((COMMITTED_UNACKNOWLEDGED, f"the client committed t{n}, but its send of {write.value!r} to "
                                                    f"partition {write.partition} {what}"))
    return found


def _transactions(row: ClientTxnRow) -> list[list[Write]]:
    """Each transaction's writes, in order."""
    out: list[list[Write]] = []
    for step in row.steps:
        if isinstance(step, Begin):
            out.append([])
        elif isinstance(step, Write):
            out[-1].append(step)
    return out


@attrs.frozen
class TxnClientReport:
    client: str
    broker: str
    rows: tuple[ClientRowResult, ...]
    duration_s: float
    left_out: tuple[str, ...] = ()
    """Rows that kill a broker, left out where no cluster of two brokers or more survives it."""

    @property
    def conforms(self) -> bool:
        return all(r.holds for r in self.rows)

    @property
    def verdict(self) -> str:
        return "conforms" if self.conforms else "diverges"

    @property
    def exit_code(self) -> int:
        return 0 if self.conforms else 1


TXN_CLIENTS: dict[str, Callable[[], TxnClient]] = {
    "java": JavaTxnClient,
    "confluent-kafka": ConfluentTxnClient,
    "kafka-python": KafkaPythonTxnClient,
    "aiokafka": AiokafkaTxnClient,
    "franz-go": lambda: GoTxnClient("franz-go"),
    "sarama": lambda: GoTxnClient("sarama"),
    "kafkajs": NodeTxnClient,
    "platformatic": lambda: NodeTxnClient(PLATFORMATIC),
}
"""The clients the transaction client rows run with (``adapters/clients/txn.py``, ``adapters/go/producers.py``)."""


def txn_client(name: str) -> TxnClient:
    """The client ``name``, ready to run here; a TargetError naming what is missing otherwise."""
    if name not in TXN_CLIENTS:
        raise TargetError(f"--client {name}: transactions run with {', '.join(sorted(TXN_CLIENTS))}", Problem.MALFORMED,
                          Role.TRANSACTIONS)
    client = TXN_CLIENTS[name]()
    reason = client.available()
    if reason is not None:
        raise TargetError(f"--client {name}: {reason}", Problem.UNAVAILABLE, Role.TRANSACTIONS)
    return client


def check_transaction_client(client: str, broker: str, options: Options | None = None, *,
                             rows: Sequence[str] | None = None) -> TxnClientReport:
    """Run the client rows (all, or the named ones) with ``client`` on ``broker`` (any broker spec of the
    transactions role); ``options.progress`` gets a :class:`~kafka_conformance.terminal.events.ProgressEvent`
    per row.  A row that kills a broker needs a cluster of two brokers or more: elsewhere it is left
    out (:attr:`TxnClientReport.left_out`), and refused by name when asked for."""
    from kafka_conformance.transactions.check import broker_address, cluster_size

    opts = options if options is not None else Options()
    chosen = CLIENT_TXN_ROWS if rows is None else tuple(_client_row(name) for name in rows)
    survives_a_kill = (cluster_size(broker) or 0) >= 2
    left_out = () if survives_a_kill else tuple(r.name for r in chosen if r.needs_cluster)
    if left_out and rows is not None:
        raise TargetError(f"{', '.join(left_out)} kill{'s' if len(left_out) == 1 else ''} a broker: run "
                          f"{'it' if len(left_out) == 1 else 'them'} on kafka-cluster:VERSION (two brokers or more), "
                          f"not {broker}", Problem.INCAPABLE, Role.TRANSACTIONS)
    chosen = tuple(r for r in chosen if r.name not in left_out)
    runner = txn_client(client)
    try:
        runner.prepare()  # a first build or fetch is charged to no row
    except (ClientRunError, ClientConfigError) as exc:
        raise TargetError(f"--client {client}: {exc}", Problem.DID_NOT_START, Role.TRANSACTIONS) from exc
    started = time.monotonic()
    column = f"transactions {client} on {broker}"
    results: list[ClientRowResult] = []
    with broker_address(broker) as at:
        nonce = uuid.uuid4().hex[:8]
        emit(opts.progress, ProgressEvent(Kind.START, column, "transaction client rows", 0, len(chosen)))
        for i, row in enumerate(chosen):
            try:
                result = run_client_row(row, runner, at.host, at.port, nonce=f"{nonce}-{i}",
                                        replication_factor=at.replication_factor, cluster=at.cluster)
            except (WireError, BrokerStartError) as exc:
                result = ClientRowResult(row.name, row.question, (), (), (), error=f"the broker: {exc}")
            results.append(result)
            emit(opts.progress, ProgressEvent(Kind.EXAMPLE, column, "transaction client rows", i + 1, len(chosen),
                                              sum(not r.holds for r in results), "holds" if result.holds else "anomaly",
                                              row.name, unit="rows"))
        failing = sum(not r.holds for r in results)
        emit(opts.progress, ProgressEvent(Kind.END, column, "transaction client rows", len(chosen), len(chosen), failing,
                                          "diverges" if failing else "done", unit="rows"))
    return TxnClientReport(client, broker, tuple(results), time.monotonic() - started, left_out)


def _client_row(name: str) -> ClientTxnRow:
    try:
        return client_txn_row(name)
    except KeyError as exc:
        raise TargetError(str(exc.args[0]), Problem.MALFORMED, Role.TRANSACTIONS) from exc

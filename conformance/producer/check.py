"""Run producer failure traces through real clients on the wire, and judge them.

:func:`run_wire_trace` is one run: start the broker the spec names (the Python
test broker, or a real one), run the client through the trace, stop
everything, merge the client's application events with the broker's wire
events on one clock, and hand them with the final log to
:func:`~delivery.check_delivery`.

:func:`check_producer` is the user-facing callable (the CLI only wraps it):
Hypothesis draws wire traces and each example is *one real run*, so the default
budget is small and the run is cached per trace: shrinking never re-runs a
trace it has judged (a real run is timing-dependent; judging it twice could
make the minimal example flaky), and after ``shrink_budget`` fresh runs
shrinking stops where it is.  With ``table=True`` every row of the trace table
runs too.  Violations attributed to the client fail the check; the shrunk trace
is saved as JSON for ``kafka-conformance replay`` and rendered as a program.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from kafka_conformance.adapters.clients.protocol import ClientConfigError, ClientRunError
from kafka_conformance.adapters.reaper import raise_if_stopping
from kafka_conformance.adapters.targets import Problem, Role, TargetError
from kafka_conformance.options import Options
from kafka_conformance.producer.clients import MODEL, delivery_config_for, resolve_client
from kafka_conformance.producer.engines import open_broker, parse_broker, shared_brokers, trace_for_run
from kafka_conformance.producer.report import ProducerReport, RunResult, RunStatus, status_of
from kafka_conformance.reference.broker.batches import LogRecord
from kafka_conformance.reference.delivery.checker import check_delivery
from kafka_conformance.reference.delivery.run import DeliveryConfig
from kafka_conformance.reference.delivery.verdicts import DeliveryReport
from kafka_conformance.reference.releases import DEFAULT_RELEASE, IDEMPOTENCE_RELEASES, known_release
from kafka_conformance.reference.traces.events import Acked, Event, Failed, Indeterminate, Send
from kafka_conformance.reference.traces.program import ProducerTrace, SendStep, WaitStep
from kafka_conformance.terminal.events import Kind, ProgressEvent, ProgressSink, emit
from kafka_conformance.terminal.verdict import run_seed

__all__ = ["WireRun", "check_producer", "judge", "run_deadline_s", "run_wire_trace"]

START_MARGIN_S = 3.0
"""Time for a client to connect and get a producer id, on top of the trace's own budget."""
SETTLE_S = 0.05
LIVENESS_SLACK_MS = 4000
"""How late past delivery.timeout.ms a completion may come before LIVE calls it late; the run
waits this long, so a send the client never completes is reported, not left pending."""


@attrs.frozen
class WireRun:
    """Everything one run produced: merged events, the final log, and the checker's report."""

    trace: ProducerTrace
    client: str
    broker: str
    events: tuple[Event, ...]
    final_log: tuple[tuple[int, tuple[LogRecord, ...]], ...] | None
    log_start: tuple[tuple[int, int], ...]
    delivery_config: DeliveryConfig
    report: DeliveryReport
    notes: tuple[str, ...] = ()
    end_ms: int = 0
    duration_s: float = 0.0


def run_deadline_s(trace: ProducerTrace, cfg: DeliveryConfig) -> float:
    """How long a run may take: its waits, one delivery timeout, the liveness slack, start-up."""
    waits = sum(s.ms for s in trace.steps if isinstance(s, WaitStep)) / 1000
    return waits + (cfg.delivery_timeout_ms + cfg.liveness_slack_ms) / 1000 + START_MARGIN_S


def run_wire_trace(
    trace: ProducerTrace,
    client: str,
    *,
    broker: str = "test-broker",
    kafka_version: str = DEFAULT_RELEASE,
    liveness_slack_ms: int = LIVENESS_SLACK_MS,
) -> WireRun:
    """One real run of ``trace`` on ``client`` against ``broker``.

    Raises :class:`TargetError` or :class:`ClientConfigError`
    for what cannot run, :class:`ClientRunError` when the client could not start."""
    if client == MODEL:
        return _run_model(trace)
    if trace.initial_sequence:
        why = f"initial_sequence={trace.initial_sequence} is model-only"
        raise ClientConfigError(f"{client}: a real client starts its sequences at 0; {why}")
    cfg = delivery_config_for(client, trace, kafka_version=kafka_version, liveness_slack_ms=liveness_slack_ms)
    adapter = resolve_client(client)
    notes = adapter.check_config(trace).notes
    spec = parse_broker(broker)
    started = time.monotonic()

    def clock() -> int:
        return int((time.monotonic() - started) * 1000)

    on_broker = trace_for_run(spec, trace)
    with open_broker(spec, on_broker, clock) as cluster:
        deadline = run_deadline_s(trace, cfg)
        app = adapter.run(on_broker, cluster.bootstrap, control=cluster.control, tick=cluster.tick, clock=clock, deadline_s=deadline)
        end_ms = clock()
        time.sleep(SETTLE_S)  # the broker may log the last answer just after the client read it
        wire = cluster.events()
        final = cluster.final_log()
        start = cluster.log_start()
    notes = (*notes, *getattr(adapter, "notes", ()))
    events = merge_events(app, wire)
    report = check_delivery(events, final, cfg, log_start_offsets=start, end_ms=end_ms)
    final_items = None if final is None else tuple(sorted((p, tuple(r)) for p, r in final.items()))
    return WireRun(trace, client, str(spec), events, final_items, tuple(sorted(start.items())), cfg, report, tuple(notes), end_ms,
                   time.monotonic() - started)


def merge_events(app: Iterable[Event], wire: Iterable[Event]) -> tuple[Event, ...]:
    """One time line, stable by time; at equal times a client's Send comes before the wire's
    Attempt of it, and the wire's Response before the client's completion."""
    tagged = [(getattr(e, "time_ms", 0), 0 if isinstance(e, Send) else 2, i, e) for i, e in enumerate(app)]
    tagged += [(getattr(e, "time_ms", 0), 1, i, e) for i, e in enumerate(wire)]
    return tuple(e for *_, e in sorted(tagged, key=lambda t: t[:3]))


def _run_model(trace: ProducerTrace) -> WireRun:
    """The in-process model engine: the reference producer against the cluster model, simulated time."""
    from kafka_conformance.producer.model_engine import run_model

    started = time.monotonic()
    result = run_model(trace)
    if result.config_error is not None:
        raise ClientConfigError(f"model: the Java client refuses the configuration: {result.config_error}")
    final_items = tuple(sorted((p, tuple(r)) for p, r in result.final_log.items()))
    notes = (f"{result.epoch_bumps} epoch bump(s)",) if result.epoch_bumps else ()
    return WireRun(trace, MODEL, "model", result.events, final_items, tuple(sorted(result.log_start.items())),
                   result.delivery_config, result.report, notes, result.end_ms, time.monotonic() - started)


# ---------------------------------------------------------------------- judging


def judge(run: WireRun, *, name: str = "generated", number: str | None = None) -> RunResult:
    """The :class:`RunResult` of one run."""
    verdicts = tuple(
        (v.prop.value, v.outcome.value, v.attribution.value if v.attribution is not None else "") for v in run.report.verdicts
    )
    return RunResult(
        name, run.client, run.broker, run.trace, status_of(run.report), number, verdicts, run.report.anomalies,
        run.notes, completion_counts(run.events), duration_s=run.duration_s,
    )


def completion_counts(events: Iterable[Event]) -> tuple[tuple[str, int], ...]:
    sends = acked = failed = maybe = 0
    for e in events:
        sends += isinstance(e, Send)
        acked += isinstance(e, Acked)
        failed += isinstance(e, Failed)
        maybe += isinstance(e, Indeterminate)
    return (("sent", sends), ("acked", acked), ("failed", failed), ("indeterminate", maybe), ("pending", sends - acked - failed - maybe))


def run_and_judge(
    trace: ProducerTrace, client: str, *, broker: str, kafka_version: str, name: str = "generated", number: str | None = None
) -> RunResult:
    """:func:`run_wire_trace` + :func:`judge`, turning what could not run into a result."""
    started = time.monotonic()
    try:
        return judge(run_wire_trace(trace, client, broker=broker, kafka_version=kafka_version), name=name, number=number)
    except ClientConfigError as exc:
        return RunResult(name, client, broker, trace, RunStatus.REFUSED, number, error=str(exc), duration_s=time.monotonic() - started)
    except (ClientRunError, TargetError, OSError, RuntimeError, ValueError) as exc:
        if isinstance(exc, TargetError) and exc.role is Role.CLIENT:
            raise
        if isinstance(exc, TargetError) and exc.problem is Problem.INCAPABLE:
            return RunResult(name, client, broker, trace, RunStatus.REFUSED, number, error=str(exc), duration_s=time.monotonic() - started)
        text = f"{type(exc).__name__}: {exc}"
        return RunResult(name, client, broker, trace, RunStatus.ERROR, number, error=text, duration_s=time.monotonic() - started)


# ------------------------------------------------------------- check_producer


class _ClientViolation(AssertionError):
    def __init__(self, result: RunResult) -> None:
        super().__init__("; ".join(a.describe() for a in result.client_anomalies))
        self.result = result


def check_producer(
    client: str,
    options: Options | None = None,
    *,
    broker: str = "test-broker",
    table: bool = False,
    shrink_budget: int = 25,
    traces: Any = None,
) -> ProducerReport:
    """Check one producer client; raises :class:`TargetError` for
    specs that cannot run here (usage errors).

    From ``options`` (:class:`~kafka_conformance.options.Options`): the release (default: the
    kit's default release), ``max_examples`` generated traces (default 15), ``seed``,
    ``failures_dir`` and ``progress`` (a :class:`~kafka_conformance.terminal.events.ProgressEvent`
    per run).  ``traces`` overrides the Hypothesis strategy (default: the wire traces of
    :mod:`producer_traces` for the release)."""
    opts = options if options is not None else Options()
    max_examples, failures_dir, progress = opts.examples(15), opts.failures_dir, opts.progress
    started = time.monotonic()
    kafka_version = opts.kafka_version or DEFAULT_RELEASE
    try:
        kafka_version = str(known_release(kafka_version, IDEMPOTENCE_RELEASES))
    except ValueError as exc:
        raise TargetError(f"--kafka-version {kafka_version}: {exc}") from None
    if client != MODEL:
        resolve_client(client)
    parsed = parse_broker(broker)  # validated even for the model, which ignores it
    spec = "model" if client == MODEL else str(parsed)
    seed = run_seed(opts.seed)  # the traces' settings inherit the active profile's derandomize
    refusals: list[str] = []
    tracker = _Tracker(progress, f"producer {client} on {spec}@{kafka_version}")
    with shared_brokers():  # Apache Kafka starts once for the generated traces and the table
        tracker.start("generated traces", max_examples)
        examples, errors, found = _generate(client, spec, kafka_version, max_examples, seed, shrink_budget, traces,
                                            tracker.seen, refusals)
        tracker.end("diverges" if found is not None else "done")
        if found is not None and failures_dir is not None:
            from kafka_conformance.producer.saved import save_run

            found = attrs.evolve(found, saved_to=str(save_run(found, failures_dir, kafka_version=kafka_version, seed=seed)))
        rows: tuple[RunResult, ...] = ()
        if table:
            from kafka_conformance.producer.table import run_table, table_rows

            tracker.start("trace table", len(table_rows()))
            rows = run_table(client, broker=spec, kafka_version=kafka_version, failures_dir=failures_dir,
                             on_result=tracker.seen)
            tracker.end("done")
    return ProducerReport(client, spec, kafka_version, seed, examples, found, rows, tuple(errors[:5]),
                          time.monotonic() - started, refused=len(refusals), refusal=refusals[0] if refusals else None,
                          outside=tracker.outside, guarantees=tuple(sorted(tracker.guarantees)))


class _Tracker:
    """Turns the runs of one client x broker into progress events (each run is one example)."""

    def __init__(self, sink: ProgressSink | None, column: str) -> None:
        self._sink, self._column = sink, column
        self._task, self._done, self._total, self._violations = "", 0, 0, 0
        self.outside, self.guarantees = 0, set[str]()
        self._generated_violation = False

    def start(self, task: str, total: int) -> None:
        self._task, self._done, self._total = task, 0, total
        emit(self._sink, ProgressEvent(Kind.START, self._column, task, 0, total, self.divergences))

    def seen(self, result: RunResult) -> None:
        self._done += 1
        if result.status is RunStatus.CLIENT:
            # Generated traces are one property: its shrinking re-runs the violation many times, and finds one.
            self._generated_violation |= self._task == "generated traces"
            self._violations += self._task != "generated traces"
        self.guarantees.update(prop for prop, _, _ in result.verdicts)
        if self._task == "generated traces":
            self.outside += result.status is RunStatus.OUTSIDE
        emit(self._sink, ProgressEvent(Kind.EXAMPLE, self._column, self._task, self._done,
                                       max(self._total, self._done), self.divergences))

    def end(self, status: str) -> None:
        emit(self._sink, ProgressEvent(Kind.END, self._column, self._task, self._done, max(self._total, self._done),
                                       self.divergences, status))

    @property
    def divergences(self) -> int:
        return self._violations + self._generated_violation


def _generate(
    client: str, broker: str, kafka_version: str, max_examples: int, seed: int | None, shrink_budget: int,
    traces: Any, on_result: Callable[[RunResult], None] | None, refusals: list[str] | None = None,
) -> tuple[int, list[str], RunResult | None]:
    if max_examples <= 0:
        return 0, [], None
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    if traces is None:
        from kafka_conformance.producer.strategies import producer_traces

        traces = producer_traces(wire=True, kafka_version=kafka_version)
    cache: dict[ProducerTrace, RunResult] = {}
    budget = {"fresh": 0, "limit": max_examples + shrink_budget}
    errors: list[str] = []
    unstartable: list[str] = []  # one failure to start ends the generation: every run would wait as long

    def run_once(trace: ProducerTrace) -> None:
        raise_if_stopping()  # a stop signal lost inside Hypothesis is raised here
        result = cache.get(trace)
        if result is None:
            if budget["fresh"] >= budget["limit"] or unstartable:
                return  # out of budget (or the client cannot start here): passing, so shrinking stops where it is
            budget["fresh"] += 1
            result = run_and_judge(trace, client, broker=broker, kafka_version=kafka_version)
            cache[trace] = result
            if on_result is not None:
                on_result(result)
            if result.status is RunStatus.ERROR:
                errors.append(result.error)
                if result.could_not_start:
                    unstartable.append(result.error)
            if result.status is RunStatus.REFUSED and refusals is not None:
                refusals.append(result.error or "refused")
        if result.status is RunStatus.CLIENT:
            raise _ClientViolation(result)

    test = given(traces)(run_once)
    test = settings(
        max_examples=max_examples, deadline=None, database=None,
        phases=(Phase.explicit, Phase.generate, Phase.shrink), report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )(test)
    if seed is not None:
        test = hypothesis_seed(seed)(test)
    try:
        test()
    except _ClientViolation as exc:
        return len(cache), errors, exc.result
    return len(cache), errors, None


def wire_trace_of(values: Iterable[str], partition: int = 0) -> ProducerTrace:
    """A fault-free trace sending ``values`` (a smoke test for any client x broker)."""
    return ProducerTrace([SendStep(v, partition) for v in values], name="smoke")

"""``check_broker``: broker conformance by crafted requests, as one callable.

The kit acts as the producer.  Hypothesis draws crafted produce sequences
(:mod:`broker_strategies`), each is sent to a fresh topic of the broker and to
the reference model of the chosen Kafka release (:mod:`broker_compare`), and
the first divergence fails the case; Hypothesis then shrinks it to the fewest,
smallest batches that still show it.

A broker usually has several independent divergences, and one Hypothesis run
reports one.  So the check runs in **rounds**: each round's minimal failure
becomes a finding, its anomaly is then tolerated (a tolerated anomaly that
keeps the logs in step is skipped over; one that splits them ends the case
quietly), and the next round looks for something else, until a round passes
or ``max_rounds`` is reached.  The broker is started once per run, not per case.

Findings are saved as JSON case files (``failures_dir``) and replayed by
:func:`replay_broker_case`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import hypothesis
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as Settings
from hypothesis.errors import FlakyFailure, FlakyReplay

from kafka_conformance.adapters.brokers.process import BrokerStartError
from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError
from kafka_conformance.adapters.reaper import raise_if_stopping
from kafka_conformance.adapters.targets import Problem, Role, TargetError, parse_target
from kafka_conformance.broker.agreement import agreement_of
from kafka_conformance.broker.cases import BROKER_CASE_FORMAT, BrokerCase, CaseError, case_from_json, case_to_json
from kafka_conformance.broker.classes import case_classes, excluded_classes
from kafka_conformance.broker.compare import BrokerDivergence, CaseRun, run_case
from kafka_conformance.broker.coverage import coverage_cases
from kafka_conformance.broker.probes import PROBES, run_probes
from kafka_conformance.broker.report import BrokerFinding, BrokerReport
from kafka_conformance.broker.strategies import broker_cases
from kafka_conformance.broker.targets import BrokerHandle, open_broker_target, parse_broker_target
from kafka_conformance.casefiles import known_fields, read_json_file
from kafka_conformance.options import DEFAULT_TIMEOUT_S, Options
from kafka_conformance.outputs import write_output
from kafka_conformance.reference.broker.profile import BrokerProfile, broker_profile
from kafka_conformance.reference.releases import DEFAULT_RELEASE, IDEMPOTENCE_RELEASES, known_release
from kafka_conformance.terminal.events import Kind, ProgressEvent, emit
from kafka_conformance.terminal.verdict import run_seed

__all__ = ["BrokerCaseFailed", "ReplayResult", "check_broker", "replay_broker_case", "save_finding"]


class BrokerCaseFailed(AssertionError):
    """A case on which the broker diverged (raised inside Hypothesis so that it shrinks)."""

    def __init__(self, divergence: BrokerDivergence, run: CaseRun) -> None:
        super().__init__(divergence.describe())
        self.divergence = divergence
        self.run = run


class _Session:
    """One connection to the run's broker, reopened if a case broke it."""

    def __init__(self, handle: BrokerHandle, timeout_s: float) -> None:
        self.handle = handle
        self.timeout_s = timeout_s
        self._client: WireClient | None = None

    def client(self) -> WireClient:
        if self._client is None:
            self._client = WireClient(self.handle.host, self.handle.port, timeout_s=self.timeout_s)
        return self._client

    def reset(self) -> None:
        if self._client is not None:
            self._client.close()
        self._client = None

    def deletes_records(self) -> bool:
        """Whether the broker offers DeleteRecords (its ApiVersions lists API key 21)."""
        return self.client().supports(21)

    def close(self) -> None:
        self.reset()


def _profile(kafka_version: str) -> BrokerProfile:
    """The broker rules of a modelled release; also the one place the suite's wire client is
    checked for, so that a missing extra is a usage error, not an ImportError."""
    if importlib.util.find_spec("kafka") is None:
        raise TargetError("the broker suite builds its requests with kafka-python, which is not installed: "
                          "pip install 'kafka-conformance[clients]'", Problem.UNAVAILABLE, Role.BROKER)
    try:
        return broker_profile(known_release(kafka_version, IDEMPOTENCE_RELEASES))
    except ValueError as exc:
        raise TargetError(f"--kafka-version {kafka_version}: {exc}") from exc


def check_broker(
    target: str | BrokerHandle,
    options: Options | None = None,
    *,
    table: bool = True,
    max_rounds: int = 6,
    max_steps: int = 10,
) -> BrokerReport:
    """Hold the broker named by ``target`` to a Kafka release's producer-state rules.

    ``target`` is a spec of the broker role, or a :class:`BrokerHandle` of a broker the caller
    runs (its ``restart`` and ``checkpoint``, when given, let the suite restart it).  From
    ``options`` (:class:`~kafka_conformance.options.Options`): the release (default: the one the
    spec names, else the kit's default release); ``max_examples`` (default 100) is the number of
    cases in all, the rounds sharing it, each looking for one more distinct anomaly with what the
    earlier rounds left; 0 runs the fixed cases only (the probe table and the coverage cases);
    ``timeout`` bounds each request (default 10 s); ``progress`` gets a
    :class:`~kafka_conformance.terminal.events.ProgressEvent` per probe table and per case.
    Raises TargetError for an unknown or unusable target (the CLI's exit code 2).
    """
    opts = options if options is not None else Options()
    spec = target if isinstance(target, str) else target.spec
    kafka_version = opts.kafka_version or _named_release(target) or DEFAULT_RELEASE
    profile = _profile(kafka_version)
    if max_rounds < 1:
        raise TargetError(f"max_rounds must be 1 or more, not {max_rounds}")
    max_examples, progress, settings = opts.examples(100), opts.progress, opts.settings
    seed = run_seed(opts.seed, settings)
    started = time.monotonic()
    column = f"broker {spec}@{profile.version}"
    emit(progress, ProgressEvent(Kind.START, column, "starting the broker"))  # a JVM broker takes seconds
    with open_broker_target(target) as handle:
        session = _Session(handle, opts.timeout or DEFAULT_TIMEOUT_S)
        try:
            try:
                deletes = session.deletes_records()
            except WireError:  # said where it matters: the probe table and the rounds report the broker's silence
                session.reset()
                deletes = False
            if table:
                emit(progress, ProgressEvent(Kind.START, column, "probe table", 0, len(PROBES)))
            probes = (run_probes(None, handle.host, handle.port, profile, shared_topic=handle.shared_topic,
                                 restart=handle.restart, checkpoint=handle.checkpoint) if table else ())
            session.reset()  # a restart row closed every connection the broker had
            diverging = sum(p.status == "diverges" for p in probes)
            if table:
                emit(progress, ProgressEvent(Kind.END, column, "probe table", len(probes), len(PROBES), diverging,
                                             f"{len(probes) - diverging}/{len(probes)} as Kafka"))
            findings: list[BrokerFinding] = []
            errors: list[str] = []
            coverage: Counter[str] = Counter()
            reached: set[str] = set()
            examples = 0
            tolerated: set[str] = set()
            emit(progress, ProgressEvent(Kind.START, column, "generated cases", 0, max_examples, diverging))

            def one(done: int) -> None:
                # Shrinking runs count as examples too, so the total grows past the budget while one shrinks.
                emit(progress, ProgressEvent(Kind.EXAMPLE, column, "generated cases", examples + done,
                                             max(max_examples, examples + done), diverging + len(findings)))

            for round_no in range(1, max_rounds + 1):
                if round_no > 1 and examples >= max_examples:
                    break
                outcome, ran = _round(session, profile, tolerated, coverage, reached, max_examples - examples,
                                      max_steps, seed, settings, one if progress is not None else None,
                                      deletes=deletes)
                examples += ran
                if outcome is None:
                    break
                if isinstance(outcome, str):
                    errors.append(outcome)
                    break
                if opts.failures_dir is not None:
                    saved = save_finding(outcome, opts.failures_dir, spec, kafka_version, seed)
                    outcome = attrs.evolve(outcome, saved_to=str(saved))
                findings.append(outcome)
                tolerated.add(outcome.anomaly)
                emit(progress, ProgressEvent(Kind.NOTE, column, message=f"round {round_no}: found {outcome.anomaly}"))
            emit(progress, ProgressEvent(Kind.END, column, "generated cases", examples, max(max_examples, examples),
                                         diverging + len(findings), "done"))
        finally:
            session.close()
        description = handle.description
    return BrokerReport(
        target=spec, broker=description, kafka_version=str(profile.version), seed=seed, examples=examples,
        findings=tuple(findings), probes=probes, errors=tuple(errors), coverage=tuple(sorted(coverage.items())),
        duration_s=time.monotonic() - started, classes=tuple(sorted(reached)),
        excluded_classes=tuple(excluded_classes(profile, restartable=handle.can_restart, deletes=deletes).items()),
    )


def _named_release(target: str | BrokerHandle) -> str | None:
    """The release a spec names (``kafka:3.9.1``, ``test-broker:1.0.1``); None for a handle or a spec naming none.
    The spec is checked whole first, so that a release no broker target takes says so in its own words."""
    if not isinstance(target, str):
        return None
    parse_broker_target(target)
    return parse_target(target, Role.BROKER).release


def _round(
    session: _Session, profile: BrokerProfile, tolerated: set[str], coverage: Counter[str], reached: set[str],
    max_examples: int, max_steps: int, seed: int | None, settings: Settings | None,
    on_example: Callable[[int], None] | None = None, *, deletes: bool = False,
) -> tuple[BrokerFinding | str | None, int]:
    """One Hypothesis run: (the minimal new finding, an error text, or None if it passed; cases run)."""
    examples = 0
    last: list[tuple[BrokerCase, BrokerCaseFailed]] = []
    base = settings if settings is not None else Settings()
    searched = [p for p in base.phases if p is not Phase.explicit] if max_examples > 0 else []
    run_settings = Settings(
        base, max_examples=max(max_examples, 1), deadline=None, report_multiple_bugs=False, database=None,
        suppress_health_check=[*base.suppress_health_check, HealthCheck.too_slow, HealthCheck.filter_too_much],
        phases=[Phase.explicit, *searched],
    )
    restarts = session.handle.can_restart

    @run_settings
    @given(broker_cases(profile, max_steps=max_steps, restarts=restarts, deletes=deletes))
    def test(case: BrokerCase) -> None:
        nonlocal examples
        raise_if_stopping()  # a stop signal lost inside Hypothesis or a finalizer is raised here
        examples += 1
        if on_example is not None:
            on_example(examples)
        reached.update(case_classes(case, profile))
        try:
            run = run_case(session.client(), case, profile, shared_topic=session.handle.shared_topic,
                           restart=session.handle.restart, checkpoint=session.handle.checkpoint)
        except WireError:
            session.reset()
            raise
        finally:
            if case.actions:  # a restart closed the session's connection; a refused DeleteRecords may have
                session.reset()
        for step in run.steps:
            coverage[f"answered {step.actual_error}"] += 1
        for d in run.divergences:
            if d.anomaly not in tolerated:
                err = BrokerCaseFailed(d, run)
                last[:] = [(case, err)]
                raise err

    for case in reversed(coverage_cases(profile.window_size, restarts=restarts, deletes=deletes)):
        test = hypothesis.example(case)(test)  # the coverage phase: run first, on every seed
    if seed is not None:
        test = hypothesis.seed(seed)(test)
    try:
        test()
    except BrokerCaseFailed as exc:
        case, _ = last[0]
        agreement = agreement_of(case, exc.run.steps, exc.divergence, profile, exc.run.start)
        return BrokerFinding(exc.divergence.anomaly, case, exc.divergence, exc.run.steps, examples,
                             agreement=agreement), examples
    except WireError as exc:
        return f"the broker stopped answering: {exc}", examples
    except BrokerStartError as exc:
        return f"the broker did not come back from a restart: {exc}", examples
    except (FlakyFailure, FlakyReplay) as exc:
        return f"the broker answered the same case differently on replay: {exc}", examples
    return None, examples


def save_finding(finding: BrokerFinding, directory: Path, target: str, kafka_version: str, seed: int | None) -> Path:
    """Write a finding as a replayable JSON case file; the name is stable for the same case."""
    body: dict[str, Any] = {
        "format": "kafka-conformance/broker-case",
        "version": BROKER_CASE_FORMAT,
        "target": target,
        "kafka_version": kafka_version,
        "anomaly": finding.anomaly,
        "seed": seed,
        "case": case_to_json(finding.case),
        "divergence": attrs.asdict(finding.divergence),
    }
    text = json.dumps(body, indent=2, ensure_ascii=False)
    digest = hashlib.sha256(json.dumps(body["case"], sort_keys=True).encode()).hexdigest()[:10]
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"broker-{finding.anomaly}-{digest}.json"
    write_output(path, text + "\n")
    return path


@attrs.frozen
class ReplayResult:
    path: str
    target: str
    status: str
    """``FIXED`` (the saved anomaly no longer shows), ``FAILED`` (it still does) or ``ERROR``."""
    anomalies: tuple[str, ...] = ()
    detail: str = ""


_CASE_FIELDS = frozenset({"format", "version", "target", "kafka_version", "anomaly", "seed", "case", "divergence"})


def load_broker_case(path: Path) -> tuple[dict[str, Any], BrokerCase]:
    try:
        data = read_json_file(path, "kafka-conformance/broker-case", "kafka-conformance broker case file")
    except ValueError as exc:
        raise CaseError(str(exc)) from exc
    if data.get("version") != BROKER_CASE_FORMAT:
        raise CaseError(f"{path}: broker case format version {data.get('version')!r}; this kit reads {BROKER_CASE_FORMAT}")
    try:
        known_fields(data, _CASE_FIELDS, str(path))
    except ValueError as exc:
        raise CaseError(str(exc)) from None
    return data, case_from_json(data.get("case"), f"{path}: case")


def replay_broker_case(path: str | Path, *, target: str | None = None, kafka_version: str | None = None) -> ReplayResult:
    """Re-run one saved case against its target (or ``target``); TargetError/CaseError for bad input."""
    data, case = load_broker_case(Path(path))
    spec = target or str(data.get("target", ""))
    version = kafka_version or str(data.get("kafka_version", DEFAULT_RELEASE))
    profile = _profile(version)
    with open_broker_target(spec) as handle:
        try:
            with WireClient(handle.host, handle.port) as client:
                run = run_case(client, case, profile, shared_topic=handle.shared_topic, restart=handle.restart,
                               checkpoint=handle.checkpoint)
        except (WireError, BrokerStartError) as exc:
            return ReplayResult(str(path), spec, "ERROR", detail=str(exc))
    names = tuple(dict.fromkeys(d.anomaly for d in run.divergences))
    saved = data.get("anomaly")
    status = "FAILED" if saved in names else "FIXED"
    detail = "\n".join(d.describe() for d in run.divergences)
    return ReplayResult(str(path), spec, status, names, detail)

"""The producer suite for corpora and fuzz runs: failure traces through a producer
client, judged by the delivery checker.

Cases are :class:`~kafka_conformance.reference.traces.program.ProducerTrace`
values drawn from :func:`~kafka_conformance.producer.strategies.producer_traces`
(the strategy ``check producer`` uses) and stored with the trace's own JSON
form.  A target is ``CLIENT[@BROKER]``: ``model`` (the reference producer
against the cluster model, in process and fast), or a real client
(``kafka-python``, ``aiokafka``, ``confluent-kafka``) against a broker spec
(default ``test-broker``); every case is then one real run.

Verdicts: a violation attributed to the client or the broker is ``fail``; a
run that could not happen (the client refuses the configuration) is ``skip``;
a harness or client crash is ``error``; everything else (the guarantee held,
or the trace was outside it) passes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from kafka_conformance.corpora.hypothesis_draw import draw_examples
from kafka_conformance.corpora.shards import derive_seed
from kafka_conformance.corpora.shrink import chunk_removals
from kafka_conformance.corpora.suites.registry import CaseOutcome, Saved, crashed, refuse_authorizer_settings
from kafka_conformance.reference.releases import DEFAULT_RELEASE
from kafka_conformance.reference.traces.program import PlanError, ProducerTrace

__all__ = ["ProducerChecker", "ProducerSuite", "parse_producer_target"]

DEFAULT_BROKER = "test-broker"


def parse_producer_target(spec: str) -> tuple[str, str]:
    """``CLIENT[@BROKER]`` -> (client, broker)."""
    client, _, broker = spec.strip().partition("@")
    if not client:
        raise ValueError(f"producer target {spec!r}: expected CLIENT[@BROKER], e.g. model or kafka-python@test-broker")
    return client, broker or DEFAULT_BROKER


class ProducerChecker:
    def __init__(self, client: str, broker: str, kafka_version: str) -> None:
        self.client, self.broker, self.kafka_version = client, broker, kafka_version

    def run(self, trace: ProducerTrace) -> Any:
        from kafka_conformance.producer.check import run_and_judge

        return run_and_judge(trace, self.client, broker=self.broker, kafka_version=self.kafka_version)

    def check(self, prop: str, payload: object) -> CaseOutcome:
        from kafka_conformance.producer.report import RunStatus

        assert isinstance(payload, ProducerTrace)
        try:
            result = self.run(payload)
        except Exception as exc:  # a crash must become a row, never kill the shard
            return crashed(prop, exc)
        if result.status is RunStatus.REFUSED:
            return CaseOutcome("skip", detail=result.error)
        if result.status is RunStatus.ERROR:
            return CaseOutcome("error", "adapter-error", f"{prop} | adapter-error | {result.error.split(':')[0]}",
                               adapter_error=result.error)
        failures = sorted({a.name for a in result.anomalies if a.attribution.is_failure})
        if result.status in (RunStatus.CLIENT, RunStatus.BROKER) and failures:
            names = ",".join(failures)
            detail = "; ".join(a.describe() for a in result.anomalies if a.attribution.is_failure)
            return CaseOutcome("fail", failures[0], f"{prop} | {names} | {result.status.value}", detail[:500])
        return CaseOutcome("pass")

    def close(self) -> None:
        """Each run starts and stops its own broker and client."""


@attrs.frozen
class ProducerSuite:
    name: str = "producer"

    def generation_settings(self, *, target: str | None, kafka_version: str | None, flavour: str | None,
                            mode: str) -> dict[str, str]:
        refuse_authorizer_settings("producer", flavour, mode)
        client, _ = parse_producer_target(target or "model")
        return {"kafka_version": kafka_version or DEFAULT_RELEASE, "wire": str(client != "model").lower(), "mode": mode}

    def properties(self, settings: Mapping[str, str]) -> Sequence[str]:
        return ["delivery"]

    def generate(self, settings: Mapping[str, str], count: int, seed: int) -> list[tuple[str, object]]:
        from kafka_conformance.producer.strategies import producer_traces

        strategy = producer_traces(wire=settings["wire"] == "true", kafka_version=settings["kafka_version"])
        return [("delivery", t) for t in draw_examples(strategy, count, derive_seed(seed, "producer_traces"))]

    def encode(self, payload: object) -> str:
        assert isinstance(payload, ProducerTrace)
        return json.dumps(payload.to_json(), separators=(",", ":"), ensure_ascii=False)

    def decode(self, text: str) -> object:
        try:
            return ProducerTrace.from_json(json.loads(text))
        except (PlanError, ValueError, TypeError) as exc:
            raise ValueError(f"malformed producer trace: {exc}") from exc

    def open(self, target: str, settings: Mapping[str, str]) -> ProducerChecker:
        from kafka_conformance.producer.clients import MODEL, resolve_client
        from kafka_conformance.producer.engines import parse_broker

        client, broker = parse_producer_target(target)
        try:
            if client != MODEL:
                resolve_client(client)
            parse_broker(broker)
        except ValueError as exc:
            raise ValueError(f"producer target {target!r}: {exc}") from exc
        if (client != MODEL) != (settings.get("wire") == "true"):
            raise ValueError(f"producer target {target!r}: the cases were generated for "
                             f"{'a real client' if settings.get('wire') == 'true' else 'the model'}")
        return ProducerChecker(client, broker, settings["kafka_version"])

    def shrink(self, checker: object, prop: str, payload: object, outcome: CaseOutcome) -> object:
        assert isinstance(checker, ProducerChecker) and isinstance(payload, ProducerTrace)
        current = payload
        progress = True
        budget = 200  # every check is a whole run (seconds for a real client)
        while progress and budget > 0:
            progress = False
            for candidate in _smaller(current):
                budget -= 1
                again = checker.check(prop, candidate)
                if (again.verdict, again.anomaly) == (outcome.verdict, outcome.anomaly):
                    current, progress = candidate, True
                    break
                if budget <= 0:
                    break
        return current

    def size(self, payload: object) -> int:
        assert isinstance(payload, ProducerTrace)
        return len(payload.steps) + len(payload.plan.rules)

    def save(self, checker: object, prop: str, payload: object, directory: Path, seed: int | None) -> Saved | None:
        from kafka_conformance.producer.saved import save_run

        assert isinstance(checker, ProducerChecker) and isinstance(payload, ProducerTrace)
        result = checker.run(payload)
        if not any(a.attribution.is_failure for a in result.anomalies):
            return None
        path = save_run(result, directory, kafka_version=checker.kafka_version, seed=seed)
        return Saved(path, checker.check(prop, payload).signature)


def _smaller(trace: ProducerTrace) -> list[ProducerTrace]:
    out = []
    for rules in chunk_removals(trace.plan.rules):
        out.append(attrs.evolve(trace, plan=attrs.evolve(trace.plan, rules=rules)))
    for steps in chunk_removals(trace.steps):
        try:
            out.append(attrs.evolve(trace, steps=steps))
        except PlanError:
            continue
    return out

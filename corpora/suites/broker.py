"""The broker suite for corpora and fuzz runs: crafted produce sequences sent to a
broker and compared, answer by answer, with the reference model.

Cases are :class:`~kafka_conformance.broker.cases.BrokerCase` values drawn from
:func:`~kafka_conformance.broker.strategies.broker_cases` (the strategy
``check broker`` uses) for the Kafka release's broker profile, stored in the
case JSON of broker case files.  The target is a broker spec of ``check
broker`` (``test-broker``, ``tansu``, ``noida``, ``librdkafka-mock``,
``bootstrap:HOST:PORT``): it is started once per Spark partition (or per
process) on a free 127.0.0.1 port, every case gets a fresh topic, and it is
stopped when the partition ends.

Verdicts: any divergence from the model is ``fail`` with its anomaly name (the
first one of the case); a broker that stops answering is ``error``.
"""

from __future__ import annotations

import contextlib
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

__all__ = ["BrokerChecker", "BrokerSuite"]


class BrokerChecker:
    """One running broker and one connection, reopened when a case broke it."""

    def __init__(self, target: str, kafka_version: str, timeout_s: float = 10.0) -> None:
        from kafka_conformance.adapters.targets import TargetError
        from kafka_conformance.broker.targets import open_broker_target
        from kafka_conformance.reference.broker.profile import broker_profile

        self.target, self.kafka_version, self._timeout_s = target, kafka_version, timeout_s
        try:
            self.profile = broker_profile(kafka_version)
        except ValueError as exc:
            raise ValueError(f"--kafka-version {kafka_version}: {exc}") from exc
        self._stack = contextlib.ExitStack()
        try:
            self.handle = self._stack.enter_context(open_broker_target(target))
        except TargetError as exc:
            self._stack.close()
            raise ValueError(str(exc)) from exc
        self._client: Any = None

    def run(self, case: Any) -> Any:
        """The model comparison of one case (raises WireError when the broker is unreachable)."""
        from kafka_conformance.adapters.brokers.wire_client import WireClient, WireError
        from kafka_conformance.broker.compare import run_case

        if self._client is None:
            self._client = WireClient(self.handle.host, self.handle.port, timeout_s=self._timeout_s)
        shared = getattr(self.handle, "shared_topic", None)  # brokers serving one fixed topic (the test broker)
        try:
            return run_case(self._client, case, self.profile, shared_topic=shared)
        except WireError:
            self._reset()
            raise

    def check(self, prop: str, payload: object) -> CaseOutcome:
        from kafka_conformance.adapters.brokers.wire_client import WireError

        try:
            run = self.run(payload)
        except WireError as exc:
            return CaseOutcome("error", "adapter-error", f"{prop} | adapter-error | broker stopped answering",
                               adapter_error=f"the broker stopped answering: {exc}")
        except Exception as exc:  # a crash must become a row, never kill the shard
            return crashed(prop, exc)
        if not run.divergences:
            return CaseOutcome("pass")
        d = run.divergences[0]
        return CaseOutcome("fail", d.anomaly, _signature(prop, d),
                           f"{d.request}: expected {d.expected}, got {d.actual} ({d.rule})")

    def _reset(self) -> None:
        if self._client is not None:
            self._client.close()
        self._client = None

    def close(self) -> None:
        self._reset()
        self._stack.close()


def _signature(prop: str, d: Any) -> str:
    """What was observed: the broker's answer against the release's, in the suite's own words."""
    return f"{prop} | {d.anomaly} | expected {d.expected}, got {d.actual}"


@attrs.frozen
class BrokerSuite:
    name: str = "broker"

    def generation_settings(self, *, target: str | None, kafka_version: str | None, flavour: str | None,
                            mode: str) -> dict[str, str]:
        from kafka_conformance.reference.broker.profile import broker_profile

        refuse_authorizer_settings("broker", flavour, mode)
        version = kafka_version or DEFAULT_RELEASE
        try:
            broker_profile(version)
        except ValueError as exc:
            raise ValueError(f"--kafka-version {version}: {exc}") from exc
        return {"kafka_version": version, "mode": mode}

    def properties(self, settings: Mapping[str, str]) -> Sequence[str]:
        return ["producer-state"]

    def generate(self, settings: Mapping[str, str], count: int, seed: int) -> list[tuple[str, object]]:
        from kafka_conformance.broker.strategies import broker_cases
        from kafka_conformance.reference.broker.profile import broker_profile

        strategy = broker_cases(broker_profile(settings["kafka_version"]))
        return [("producer-state", c) for c in draw_examples(strategy, count, derive_seed(seed, "broker_cases"))]

    def encode(self, payload: object) -> str:
        from kafka_conformance.broker.cases import case_to_json

        return json.dumps(case_to_json(payload), separators=(",", ":"))  # type: ignore[arg-type]

    def decode(self, text: str) -> object:
        from kafka_conformance.broker.cases import CaseError, case_from_json

        try:
            return case_from_json(json.loads(text))
        except (CaseError, ValueError, TypeError) as exc:
            raise ValueError(f"malformed broker case: {exc}") from exc

    def open(self, target: str, settings: Mapping[str, str]) -> BrokerChecker:
        return BrokerChecker(target, settings["kafka_version"])

    def shrink(self, checker: object, prop: str, payload: object, outcome: CaseOutcome) -> object:
        from kafka_conformance.broker.cases import CaseError

        assert isinstance(checker, BrokerChecker)
        current: Any = payload
        progress, budget = True, 300
        while progress and budget > 0:
            progress = False
            for batches in chunk_removals(current.batches):
                budget -= 1
                try:
                    candidate = attrs.evolve(current, batches=batches)
                except CaseError:
                    continue
                again = checker.check(prop, candidate)
                if (again.verdict, again.anomaly) == (outcome.verdict, outcome.anomaly):
                    current, progress = candidate, True
                    break
                if budget <= 0:
                    break
        return current

    def size(self, payload: object) -> int:
        return len(payload.batches)  # type: ignore[attr-defined]

    def save(self, checker: object, prop: str, payload: object, directory: Path, seed: int | None) -> Saved | None:
        from kafka_conformance.broker.check import save_finding
        from kafka_conformance.broker.report import BrokerFinding

        assert isinstance(checker, BrokerChecker)
        run = checker.run(payload)
        if not run.divergences:
            return None
        d = run.divergences[0]
        finding = BrokerFinding(d.anomaly, payload, d, run.steps, 1)  # type: ignore[arg-type]
        path = save_finding(finding, directory, checker.target, checker.kafka_version, seed)
        return Saved(path, _signature(prop, d))

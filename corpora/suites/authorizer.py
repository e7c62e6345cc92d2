"""The authorizer suite for corpora and fuzz runs.

Cases are (property, :class:`~kafka_conformance.authorizer.cases.Scenario`) pairs drawn
from the strategies of :mod:`~kafka_conformance.authorizer.domain.strategies` (the ones the
pytest path and ``check authorizer`` use: one source of truth for the
distributions), for the capabilities of a target or of the reference at a
Kafka version and flavour.  Checking a case is the property's own check, the
same code ``check_authorizer`` runs inside ``@given``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.cases import Scenario, scenario_from_json, scenario_to_json
from kafka_conformance.authorizer.domain.strategies import MODES
from kafka_conformance.authorizer.driver import CaseFailed, TargetCrashed
from kafka_conformance.authorizer.properties import PROPERTIES, Property
from kafka_conformance.authorizer.support import CheckContext
from kafka_conformance.authorizer.targets import Target, TargetError, close_targets, resolve_target
from kafka_conformance.corpora.shards import derive_seed
from kafka_conformance.corpora.shrink import shrink_scenario
from kafka_conformance.corpora.suites.registry import PASS, CaseOutcome, Saved
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.profiles import Flavour
from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.reference.releases import KafkaVersion

__all__ = ["AuthorizerChecker", "AuthorizerSuite", "capabilities_from_settings", "settings_from_capabilities"]

_BY_NAME = {p.name: p for p in PROPERTIES}


def settings_from_capabilities(caps: Capabilities, mode: str) -> dict[str, str]:
    """The generation settings: every capability the strategies read, and the mode."""
    return {
        "kafka_version": str(caps.version),
        "flavour": caps.flavour.value,
        "by_type_variant": caps.by_type_variant.value if caps.by_type_variant is not None else "",
        "prefixed": str(caps.prefixed).lower(),
        "listing": str(caps.listing).lower(),
        "acl_count": str(caps.acl_count).lower(),
        "incremental": str(caps.incremental).lower(),
        "not_ready_state": str(caps.not_ready_state).lower(),
        "error_comparison": caps.error_comparison.value,
        "mode": mode,
    }


def capabilities_from_settings(s: Mapping[str, str]) -> Capabilities:
    try:
        return Capabilities(
            flavour=Flavour.parse(s["flavour"]),
            version=KafkaVersion.parse(s["kafka_version"]),
            by_type_variant=ByTypeVariant.parse(s["by_type_variant"]) if s["by_type_variant"] else None,
            prefixed=s["prefixed"] == "true",
            listing=s["listing"] == "true",
            acl_count=s["acl_count"] == "true",
            incremental=s["incremental"] == "true",
            not_ready_state=s["not_ready_state"] == "true",
            error_comparison=s["error_comparison"],
        )
    except (KeyError, AclValueError) as exc:
        raise ValueError(f"authorizer generation settings are incomplete or invalid: {exc}") from exc


def _signature(prop: str, anomaly: str, what: str) -> str:
    """Digits and quoted names vary from case to case; the shape of the failure does not."""
    what = re.sub(r"'[^']*'", "'…'", what)
    return f"{prop} | {anomaly} | {re.sub(r'[0-9]+', 'N', what)[:160]}"


class AuthorizerChecker:
    """A resolved target and a :class:`CheckContext` reused for every case."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.ctx = CheckContext(target.make, target.capabilities)
        self._out_of_scope: dict[str, str | None] = {}

    def _property(self, name: str) -> Property:
        try:
            return _BY_NAME[name]
        except KeyError:
            raise ValueError(f"unknown authorizer property {name!r}; known: {', '.join(_BY_NAME)}") from None

    def check(self, prop: str, payload: object) -> CaseOutcome:
        p = self._property(prop)
        if prop not in self._out_of_scope:
            self._out_of_scope[prop] = p.needs(self.target.capabilities)
        reason = self._out_of_scope[prop]
        if reason is not None:
            return CaseOutcome("skip", detail=reason)
        assert isinstance(payload, Scenario)
        try:
            p.check(self.ctx, payload)
        except CaseFailed as exc:
            d = exc.divergence
            differs = f"expected {d.expected}, got {d.actual}"
            return CaseOutcome("fail", d.anomaly, _signature(prop, d.anomaly, differs),
                               f"{d.question}: {differs}")
        except TargetCrashed as exc:
            return CaseOutcome("error", "adapter-error", _signature(prop, "adapter-error", exc.what), adapter_error=exc.what)
        except Exception as exc:  # a target or harness bug must become a row, never kill the shard
            what = f"unexpected {type(exc).__name__}: {exc}"
            return CaseOutcome("error", "adapter-error", _signature(prop, "adapter-error", what), adapter_error=what)
        return PASS

    def close(self) -> None:
        close_targets()


@attrs.frozen
class AuthorizerSuite:
    name: str = "authorizer"

    def generation_settings(self, *, target: str | None, kafka_version: str | None, flavour: str | None,
                            mode: str) -> dict[str, str]:
        if mode not in MODES:
            raise ValueError(f"unknown generation mode {mode!r}; expected one of {', '.join(MODES)}")
        try:
            resolved = resolve_target(target or "reference", kafka_version=kafka_version, flavour=flavour)
        except TargetError as exc:
            raise ValueError(str(exc)) from exc
        except AclValueError as exc:
            raise ValueError(f"--kafka-version/--flavour: {exc}") from exc
        return settings_from_capabilities(resolved.capabilities, mode)

    def properties(self, settings: Mapping[str, str]) -> Sequence[str]:
        caps = capabilities_from_settings(settings)
        return [p.name for p in PROPERTIES if p.needs(caps) is None]

    def generate(self, settings: Mapping[str, str], count: int, seed: int) -> list[tuple[str, object]]:
        """Case i is for property ``i mod P``; the properties that share a strategy
        share one seeded Hypothesis run (a run starts with its simplest example:
        one run per strategy, not per property, keeps those repeats rare)."""
        from kafka_conformance.authorizer.domain.logs import record_logs
        from kafka_conformance.authorizer.domain.strategies import scenarios
        from kafka_conformance.corpora.hypothesis_draw import draw_examples

        caps = capabilities_from_settings(settings)
        mode = settings["mode"]
        props = list(self.properties(settings))
        if not props:
            raise ValueError("no authorizer property is in scope for these capabilities")
        assigned = [props[i % len(props)] for i in range(count)]
        payloads: list[object] = [None] * count
        for generator in ("scenarios", "record_logs"):
            slots = [i for i, p in enumerate(assigned) if _BY_NAME[p].generator == generator]
            if not slots:
                continue
            strategy = record_logs(caps, mode) if generator == "record_logs" else scenarios(caps, mode)
            for i, example in zip(slots, draw_examples(strategy, len(slots), derive_seed(seed, generator)), strict=True):
                payloads[i] = example
        return list(zip(assigned, payloads, strict=True))

    def encode(self, payload: object) -> str:
        assert isinstance(payload, Scenario)
        return json.dumps(scenario_to_json(payload), separators=(",", ":"), ensure_ascii=False)

    def decode(self, text: str) -> object:
        try:
            return scenario_from_json(json.loads(text))
        except (KeyError, ValueError, TypeError) as exc:
            raise ValueError(f"malformed authorizer case: {type(exc).__name__}: {exc}") from exc

    def open(self, target: str, settings: Mapping[str, str]) -> AuthorizerChecker:
        try:
            resolved = resolve_target(target, kafka_version=settings["kafka_version"], flavour=settings["flavour"],
                                      kafka_bugs=settings.get("kafka_bugs"))
        except TargetError as exc:
            raise ValueError(str(exc)) from exc
        return AuthorizerChecker(resolved)

    def shrink(self, checker: object, prop: str, payload: object, outcome: CaseOutcome) -> object:
        assert isinstance(checker, AuthorizerChecker) and isinstance(payload, Scenario)

        def still_fails(candidate: Scenario) -> bool:
            again = checker.check(prop, candidate)
            return again.verdict == outcome.verdict and again.anomaly == outcome.anomaly

        return shrink_scenario(payload, still_fails)

    def size(self, payload: object) -> int:
        assert isinstance(payload, Scenario)
        return (len(payload.acls) + len(payload.records) + sum(len(q.actions) for q in payload.queries)
                + len(payload.by_type) + len(payload.properties))

    def save(self, checker: object, prop: str, payload: object, directory: Path, seed: int | None) -> Saved | None:
        from kafka_conformance.authorizer.check import run_property_once
        from kafka_conformance.authorizer.saved import save_counterexample

        assert isinstance(checker, AuthorizerChecker) and isinstance(payload, Scenario)
        result = run_property_once(prop, checker.target, payload)
        if result.counterexample is None:
            return None
        path = save_counterexample(result.counterexample, directory, checker.target, seed)
        return Saved(path, str(result.counterexample.signature))

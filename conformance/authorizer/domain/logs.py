"""Record logs: the KIP-801 stream of ACL records a broker applies, as scenarios.

A log mixes what a healthy metadata log holds (adds under fresh ids, removals of
present ids, re-adds of removed ACLs under new ids, snapshot loads, several
records arriving together) with the records Kafka's authorizer refuses: the
removal of an id it does not hold, an add reusing a present id, an add of an ACL
already held under another id.  The ``record-log`` property checks that the
target refuses exactly those and that a refused record changes nothing.
"""

from __future__ import annotations

import attrs
from hypothesis import strategies as st

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.cases import BatchStep, LogStep, Scenario, SnapshotStep
from kafka_conformance.authorizer.domain.choices import Choices, seeded
from kafka_conformance.authorizer.domain.pool import DEFAULT_MODE, draw_pool, for_release
from kafka_conformance.authorizer.domain.strategies import _acls_with_focus, _config_properties, _query_list
from kafka_conformance.reference.acl.values import AclBinding
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl

__all__ = ["record_logs"]

_STEP_KINDS = ("add", "add", "remove", "snapshot", "batch", "refused")
_REFUSED = ("unknown-remove", "duplicate-id", "duplicate-content")


def record_logs(caps: Capabilities, mode: str = DEFAULT_MODE) -> st.SearchStrategy[Scenario]:
    """A record log after an initial snapshot, with the questions to ask after every step."""
    return seeded(draw_record_log, caps, mode)


@attrs.define
class _Log:
    candidates: list[AclBinding]
    present: dict[str, AclBinding]
    steps: list[LogStep] = attrs.field(factory=list)
    next_id: int = 0

    def fresh_id(self) -> str:
        self.next_id += 1
        return f"r-{self.next_id}"


def draw_record_log(c: Choices, caps: Capabilities, mode: str) -> Scenario:
    """One record log, every choice from ``c``."""
    pool = for_release(draw_pool(c, mode), caps)
    initial, _ = _acls_with_focus(c, pool, caps, max_size=3)
    candidates = [b for _, b in _acls_with_focus(c, pool, caps, max_size=6)[0]] + [b for _, b in initial]
    log = _Log(candidates, dict(initial))
    for _ in range(c.count(1, 10)):
        kind = c.pick(_STEP_KINDS)
        if kind == "snapshot" and log.present:
            keep = c.subset(sorted(log.present), 0)
            log.present = {i: log.present[i] for i in sorted(keep)}
            log.steps.append(SnapshotStep(tuple(log.present.items())))
        elif kind == "refused":
            log.steps.append(_refused(c, log))
        elif kind == "batch":
            batch = [r for r in (_valid(c, log, c.pick(("add", "remove"))) for _ in range(c.count(2, 3)))
                     if r is not None]
            if len(batch) > 1:
                log.steps.append(BatchStep(tuple(batch)))
            elif batch:
                log.steps.append(batch[0])
        else:
            record = _valid(c, log, kind)
            if record is not None:
                log.steps.append(record)
    everything = tuple({b: None for b in candidates})
    qs = tuple(_query_list(c, pool, caps, everything, 4))
    return Scenario(properties=_config_properties(c, pool), acls=initial, records=tuple(log.steps), queries=qs)


def _valid(c: Choices, log: _Log, kind: str) -> AddAcl | RemoveAcl | None:
    """A record consistent with what the log holds (and apply it to the model)."""
    if kind == "remove" and log.present:
        victim = c.pick(sorted(log.present))
        del log.present[victim]
        return RemoveAcl(victim)
    absent = [b for b in log.candidates if b not in log.present.values()]
    if not absent:
        return None
    acl_id = log.fresh_id()
    log.present[acl_id] = c.pick(absent)
    return AddAcl(acl_id, log.present[acl_id])


def _refused(c: Choices, log: _Log) -> AddAcl | RemoveAcl:
    """A record Kafka's authorizer refuses; it must leave the ACLs as they were."""
    kind = c.pick(_REFUSED) if log.present else "unknown-remove"
    if kind == "unknown-remove":
        gone = [f"r-{n}" for n in range(1, log.next_id + 1) if f"r-{n}" not in log.present]
        once_held: int = c.between(0, 1)
        return RemoveAcl(c.pick(gone) if gone and once_held else "r-0")
    if kind == "duplicate-id":
        return AddAcl(c.pick(sorted(log.present)), c.pick(log.candidates))
    return AddAcl(log.fresh_id(), c.pick(sorted(log.present.values(), key=str)))

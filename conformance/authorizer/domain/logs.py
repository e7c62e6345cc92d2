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
from kafka_conformance.authorizer.domain.pool import DEFAULT_MODE, _cached, _ints, _pick, _subsets, for_release, pools
from kafka_conformance.authorizer.domain.strategies import _acls_with_focus, _config_properties, _query_lists
from kafka_conformance.reference.acl.values import AclBinding
from kafka_conformance.reference.authorizer.records import AddAcl, RemoveAcl

__all__ = ["record_logs"]

_STEP_KINDS = ("add", "add", "remove", "snapshot", "batch", "refused")
_REFUSED = ("unknown-remove", "duplicate-id", "duplicate-content")


def record_logs(caps: Capabilities, mode: str = DEFAULT_MODE) -> st.SearchStrategy[Scenario]:
    """A record log after an initial snapshot, with the questions to ask after every step."""
    return _record_logs(caps, mode)


@attrs.define
class _Log:
    candidates: list[AclBinding]
    present: dict[str, AclBinding]
    steps: list[LogStep] = attrs.field(factory=list)
    next_id: int = 0

    def fresh_id(self) -> str:
        self.next_id += 1
        return f"r-{self.next_id}"


@_cached
@st.composite
def _record_logs(draw: st.DrawFn, caps: Capabilities, mode: str) -> Scenario:
    pool = for_release(draw(pools(mode)), caps)
    initial, _ = _acls_with_focus(draw, pool, caps, max_size=3)
    candidates = [b for _, b in _acls_with_focus(draw, pool, caps, max_size=6)[0]] + [b for _, b in initial]
    log = _Log(candidates, dict(initial))
    for _ in range(draw(_ints(1, 10))):
        kind = _pick(draw, _STEP_KINDS)
        if kind == "snapshot" and log.present:
            keep = draw(_subsets(tuple(sorted(log.present)), 0, None))
            log.present = {i: log.present[i] for i in sorted(keep)}
            log.steps.append(SnapshotStep(tuple(log.present.items())))
        elif kind == "refused":
            log.steps.append(_refused(draw, log))
        elif kind == "batch":
            batch = [r for r in (_valid(draw, log, _pick(draw, ("add", "remove"))) for _ in range(draw(_ints(2, 3))))
                     if r is not None]
            if len(batch) > 1:
                log.steps.append(BatchStep(tuple(batch)))
            elif batch:
                log.steps.append(batch[0])
        else:
            record = _valid(draw, log, kind)
            if record is not None:
                log.steps.append(record)
    everything = tuple({b: None for b in candidates})
    qs = tuple(draw(_query_lists(pool, caps, everything, 4)))
    return Scenario(properties=_config_properties(draw, pool), acls=initial, records=tuple(log.steps), queries=qs)


def _valid(draw: st.DrawFn, log: _Log, kind: str) -> AddAcl | RemoveAcl | None:
    """A record consistent with what the log holds (and apply it to the model)."""
    if kind == "remove" and log.present:
        victim = _pick(draw, sorted(log.present))
        del log.present[victim]
        return RemoveAcl(victim)
    absent = [b for b in log.candidates if b not in log.present.values()]
    if not absent:
        return None
    acl_id = log.fresh_id()
    log.present[acl_id] = _pick(draw, absent)
    return AddAcl(acl_id, log.present[acl_id])


def _refused(draw: st.DrawFn, log: _Log) -> AddAcl | RemoveAcl:
    """A record Kafka's authorizer refuses; it must leave the ACLs as they were."""
    kind = _pick(draw, _REFUSED) if log.present else "unknown-remove"
    if kind == "unknown-remove":
        gone = [f"r-{n}" for n in range(1, log.next_id + 1) if f"r-{n}" not in log.present]
        once_held: int = draw(_ints(0, 1))
        return RemoveAcl(_pick(draw, gone) if gone and once_held else "r-0")
    if kind == "duplicate-id":
        return AddAcl(_pick(draw, sorted(log.present)), _pick(draw, log.candidates))
    return AddAcl(log.fresh_id(), _pick(draw, sorted(log.present.values(), key=str)))

"""Which Kafka releases answer a broker finding's crafted case as the broker did.

The case is replayed on the reference broker of every modelled release (1.0.0 to 4.4.0),
in the model alone, on a partition beginning where the run's began, and each release's
answers are compared with what the broker answered, step by step up to the divergence: a release giving the broker's answers
answers as the broker did, one giving the claimed release's answers answers as
expected.  The replay must first give back, for the claimed release, exactly the
answers the run recorded for it; a case whose answers depend on what the replay cannot
reproduce (a restart's recovery) gets no agreement at all rather than a wrong one.
"""

from __future__ import annotations

from collections.abc import Sequence

from kafka_conformance.agreement import Agreement
from kafka_conformance.broker.cases import BrokerCase
from kafka_conformance.broker.compare import BrokerDivergence, StepRecord
from kafka_conformance.reference.broker.partition_log import PartitionLog
from kafka_conformance.reference.broker.profile import OLDEST_BROKER, BrokerProfile, broker_profile
from kafka_conformance.reference.releases import IDEMPOTENCE_RELEASES

__all__ = ["agreement_of"]

_NOW_MS = 1_700_000_000_000
"""The replay's clock: batch timestamps are the case's ages before it, as in the run."""

Answer = tuple[int, int]
"""A Produce answer as compared here: the error code, and the base offset of a success (else -1)."""


def agreement_of(case: BrokerCase, steps: Sequence[StepRecord], divergence: BrokerDivergence,
                 claimed: BrokerProfile, start: int = 0) -> Agreement | None:
    """The releases answering steps 0 to the divergence's as the broker did, and as the claimed
    release does; ``start`` is the offset the run's partition began at.  None when the replay
    cannot stand for the run (see the module's docstring)."""
    if divergence.step < 0 or any(a.kind.is_restart for a in case.actions) or len(steps) <= divergence.step:
        return None
    upto = divergence.step + 1
    recorded_expected = [_answer(s.expected_error, s.expected_offset) for s in steps[:upto]]
    actual = [_answer(s.actual_error, s.actual_offset) for s in steps[:upto]]
    if _replay(case, claimed, upto, start) != recorded_expected:
        return None
    alike, expected = [], []
    for version in (v for v in IDEMPOTENCE_RELEASES if v >= OLDEST_BROKER):
        answers = _replay(case, broker_profile(version), upto, start)
        if answers == actual:
            alike.append(str(version))
        elif answers == recorded_expected:
            expected.append(str(version))
    return Agreement(tuple(alike), tuple(expected))


def _answer(error: int, offset: int) -> Answer:
    return (error, offset if error == 0 else -1)


def _replay(case: BrokerCase, profile: BrokerProfile, steps: int, start: int) -> list[Answer] | None:
    """The model's answers to the case's first ``steps`` batches on a partition beginning at ``start``,
    DeleteRecords applied as the run applies them."""
    log = PartitionLog(profile)
    log.log_start_offset = log.log_end_offset = log.checkpointed_log_start = start
    out: list[Answer] = []
    try:
        for i, crafted in enumerate(case.batches[:steps]):
            for action in case.actions_before(i):
                if log.log_end_offset < start + action.offset:
                    return None  # the run's broker refused it: the model has no answer to compare
                log.delete_records(start + action.offset)
            answer = log.append_client(crafted.to_batch(1000 + crafted.producer, "agreement", i, _NOW_MS))
            out.append(_answer(answer.error.code, answer.base_offset))
    except ValueError:
        return None
    return out

"""Which Kafka releases answer a broker finding's case as the broker did (issue 35): the crafted
case replayed on the reference broker of every modelled release."""

from __future__ import annotations

import pytest

from kafka_conformance.agreement import Agreement
from kafka_conformance.broker.agreement import agreement_of
from kafka_conformance.broker.cases import Action, ActionKind
from kafka_conformance.broker.compare import BrokerDivergence, StepRecord
from kafka_conformance.broker.probes import PROBES
from kafka_conformance.reference.broker.partition_log import PartitionLog
from kafka_conformance.reference.broker.profile import broker_profile

PROBE = {p.name: p.case for p in PROBES}


def _posing(case_name: str, real: str, claimed: str, start: int = 0) -> tuple[tuple[StepRecord, ...], BrokerDivergence | None]:
    """The steps the comparison records when a broker that is Kafka ``real`` is held to ``claimed``
    (on a partition whose first offset is ``start``), and the first step they differ at."""
    case = PROBE[case_name]
    broker, model = PartitionLog(broker_profile(real)), PartitionLog(broker_profile(claimed))
    for log in (broker, model):
        log.log_start_offset = log.log_end_offset = log.checkpointed_log_start = start
    steps, first = [], None
    for i, crafted in enumerate(case.batches):
        batch = crafted.to_batch(77 + crafted.producer, "t", i, 1_700_000_000_000)
        got, want = broker.append_client(batch), model.append_client(batch)
        steps.append(StepRecord(i, crafted.describe(), want.error.code, want.base_offset, want.log_start_offset, want.rule,
                                got.error.code, got.base_offset, got.log_start_offset))
        if first is None and (got.error.code, got.base_offset) != (want.error.code, want.base_offset):
            first = BrokerDivergence("some-anomaly", i, crafted.describe(), "", "", want.rule)
    return tuple(steps), first


@pytest.mark.parametrize(("case_name", "real", "claimed", "alike", "expected"), [
    # KAFKA-7190 / KIP-360: a producer with no state at a non-zero sequence, refused before 2.5, accepted from it
    ("fresh-producer-nonzero", "2.4.1", "3.9.1", "2.4.1", "3.9.1"),
    # KAFKA-6683: a resend below the window, 46 on 1.0.0/1.0.1, 45 from 1.0.2
    ("resend-below-window", "1.0.1", "3.9.1", "1.0.1", "3.9.1"),
    # the other way round: the claimed release refuses every step up to the divergence
    ("fresh-producer-nonzero", "3.9.1", "2.4.1", "3.9.1", "2.4.1"),
])
def test_the_release_a_broker_really_is_answers_alike(case_name: str, real: str, claimed: str, alike: str,
                                                      expected: str) -> None:
    for start in (0, 40):  # a fresh topic, and a shared partition holding earlier records
        steps, divergence = _posing(case_name, real, claimed, start)
        assert divergence is not None
        agreement = agreement_of(PROBE[case_name], steps, divergence, broker_profile(claimed), start)
        assert agreement is not None
        assert alike in agreement.alike and expected in agreement.expected
        assert not set(agreement.alike) & set(agreement.expected)


def test_which_releases_refuse_a_fresh_producer_at_a_nonzero_sequence() -> None:
    steps, divergence = _posing("fresh-producer-nonzero", "2.4.1", "3.9.1")
    assert divergence is not None
    agreement = agreement_of(PROBE["fresh-producer-nonzero"], steps, divergence, broker_profile("3.9.1"))
    assert agreement is not None
    assert agreement.alike[0] == "1.0.0" and agreement.alike[-1] == "2.4.1"
    assert agreement.expected[0] == "2.5.0" and agreement.expected[-1] == "4.4.0"
    assert agreement.describe() == ("Kafka releases answering as this implementation did: 1.0.0-2.4.1; "
                                    "as expected: 2.5.0-4.4.0")


def test_a_case_the_replay_cannot_stand_for_gets_no_agreement() -> None:
    steps, divergence = _posing("fresh-producer-nonzero", "2.4.1", "3.9.1")
    assert divergence is not None
    restarted = PROBE["restart-clean-window"]
    assert restarted.actions and agreement_of(restarted, steps, divergence, broker_profile("3.9.1")) is None
    final_read = BrokerDivergence("log-differs", -1, "final read", "", "", "")
    assert agreement_of(PROBE["fresh-producer-nonzero"], steps, final_read, broker_profile("3.9.1")) is None
    shared = _posing("fresh-producer-nonzero", "2.4.1", "3.9.1", 40)[0]
    assert agreement_of(PROBE["fresh-producer-nonzero"], shared, divergence, broker_profile("3.9.1"), 0) is None, \
        "a partition's start that is not the run's"
    wrong = tuple(StepRecord(s.step, s.batch, 99, s.expected_offset, s.expected_log_start, s.rule, s.actual_error,
                             s.actual_offset, s.actual_log_start) for s in steps)
    assert agreement_of(PROBE["fresh-producer-nonzero"], wrong, divergence, broker_profile("3.9.1")) is None, \
        "answers the replay does not give back for the claimed release"
    assert Action(0, ActionKind.RESTART_CRASH).kind.is_restart


def test_the_value_reads_the_same_in_every_suite() -> None:
    assert Agreement(("1.0.0", "1.0.1", "2.0.0"), ()).describe() == (
        "Kafka releases answering as this implementation did: 1.0.0-1.0.1, 2.0.0; as expected: none")

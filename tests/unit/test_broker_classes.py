"""The broker suite's input classes: each named edge is recognised where it is, and only there."""

from __future__ import annotations

import pytest

from kafka_conformance.broker.cases import Action, ActionKind, BrokerCase, CraftedBatch, SlotKind
from kafka_conformance.broker.classes import BROKER_CLASSES, DELETE_CLASSES, RESTART_CLASSES, case_classes, missed_classes
from kafka_conformance.reference.broker.batches import INT16_MAX, INT32_MAX
from kafka_conformance.reference.broker.profile import broker_profile

KAFKA = broker_profile("4.3.0")
A = SlotKind.ALLOCATED


def _case(*batches: tuple[int, int, int, int], slots: tuple[SlotKind, ...] = (A,)) -> BrokerCase:
    return BrokerCase(slots, tuple(CraftedBatch(*b) for b in batches))


def _sent(n: int) -> list[tuple[int, int, int, int]]:
    return [(0, 0, s, 1) for s in range(n)]


@pytest.mark.parametrize(("batches", "expected"), [
    ([*_sent(1), (0, 0, 0, 1)], "duplicate-newest"),
    ([*_sent(3), (0, 0, 1, 1)], "duplicate-inside"),
    ([*_sent(5), (0, 0, 0, 1)], "duplicate-oldest"),
    ([*_sent(6), (0, 0, 0, 1)], "resend-just-outside"),
    ([*_sent(8), (0, 0, 0, 1)], "resend-far-outside"),
    ([*_sent(2), (0, 0, 5, 1)], "gap"),
    ([(0, 0, 0, 2), (0, 0, 0, 3)], "overlap-same-first"),
    ([(0, 0, 0, 3), (0, 0, 1, 3)], "overlap"),
    ([(0, 0, 0, 1), (0, 1, 0, 1)], "new-epoch-at-zero"),
    ([(0, 0, 0, 1), (0, 1, 3, 1)], "new-epoch-nonzero"),
    ([(0, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1)], "stale-epoch"),
    ([(0, 0, -1, 1)], "negative-sequence"),
    ([(0, 0, 7, 1)], "first-nonzero"),
    ([(0, 0, INT32_MAX - 1, 2), (0, 0, 0, 1)], "after-int-max"),
])
def test_each_edge_is_named_where_it_is(batches: list[tuple[int, int, int, int]], expected: str) -> None:
    assert expected in case_classes(_case(*batches), KAFKA)


def test_a_refused_batch_resent_is_not_a_duplicate() -> None:
    """Only written batches are cached: resending a refused gap is a gap again, not a duplicate."""
    classes = case_classes(_case((0, 0, 0, 1), (0, 0, 5, 1), (0, 0, 5, 1)), KAFKA)
    assert "gap" in classes and not {"duplicate-newest", "duplicate-inside"} & classes


def test_wrap_edges_and_producers() -> None:
    wrap = case_classes(_case((0, 0, INT32_MAX - 1, 3), (0, 0, 1, 1)), KAFKA)
    assert {"spans-the-wrap", "continues"} <= wrap and "ends-at-int-max" not in wrap
    assert "ends-at-int-max" in case_classes(_case((0, 0, INT32_MAX - 1, 2)), KAFKA)
    two = case_classes(_case((0, 0, 0, 1), (1, 0, 0, 1), slots=(A, SlotKind.UNALLOCATED)), KAFKA)
    assert {"two-producers", "unallocated-producer", "first-at-zero"} <= two


def test_epochs_jumped_up_to_short_max() -> None:
    """Any higher epoch is a new one (Kafka compares, never adds one): a broker that takes only the
    next epoch, or keeps epochs in fewer than 16 bits, is asked about it."""
    jumped = case_classes(_case((0, 0, 0, 1), (0, 5, 0, 1), (0, INT16_MAX, 0, 1), (0, INT16_MAX, 1, 1)), KAFKA)
    assert {"new-epoch-jump", "new-epoch-at-zero", "epoch-at-max", "continues"} <= jumped
    assert "new-epoch-jump" not in case_classes(_case((0, 0, 0, 1), (0, 1, 0, 1), (0, 3, 2, 1)), KAFKA)


def test_missed_classes_keep_the_catalogue_order() -> None:
    names = [n for n, _ in BROKER_CLASSES]
    assert missed_classes([]) == tuple(names)
    assert missed_classes(names) == ()
    assert len(set(names)) == len(names) == 32
    assert set(names) >= RESTART_CLASSES | DELETE_CLASSES
    assert missed_classes([], excluded=RESTART_CLASSES) == tuple(n for n in names if n not in RESTART_CLASSES)


@pytest.mark.parametrize("kind", [ActionKind.RESTART_CLEAN, ActionKind.RESTART_CRASH])
def test_restart_classes_name_what_the_snapshot_keeps_and_forgets(kind: ActionKind) -> None:
    case = BrokerCase((A,), tuple(CraftedBatch(*b) for b in [*_sent(3), (0, 0, 0, 1), (0, 0, 2, 1), (0, 0, 3, 1)]),
                      actions=(Action(3, kind),))
    classes = case_classes(case, KAFKA)
    assert {kind.value, "resend-older-after-restart", "duplicate-newest-after-restart",
            "continues-after-restart"} <= classes
    assert not {"duplicate-inside", "duplicate-oldest"} & classes  # after a restart those are not duplicates


def test_a_case_without_actions_reaches_no_restart_or_delete_class() -> None:
    assert not (RESTART_CLASSES | DELETE_CLASSES) & case_classes(_case(*_sent(6), (0, 0, 0, 1)), KAFKA)


def test_delete_classes_follow_the_producers_records() -> None:
    deleted = BrokerCase((A, A), tuple(CraftedBatch(*b) for b in [(0, 0, 0, 1), (1, 0, 0, 1), (0, 0, 0, 1), (0, 0, 1, 1),
                                                                    (1, 0, 1, 1)]),
                         actions=(Action(2, ActionKind.DELETE_RECORDS, 1),))
    classes = case_classes(deleted, KAFKA)
    assert {"delete-records", "resend-after-delete", "continues-after-delete"} <= classes
    assert "restart-after-delete" not in classes
    everything = BrokerCase((A,), tuple(CraftedBatch(*b) for b in _sent(3)),
                            actions=(Action(2, ActionKind.DELETE_RECORDS, 2), Action(2, ActionKind.RESTART_CRASH)))
    assert "restart-after-delete" in case_classes(everything, KAFKA)

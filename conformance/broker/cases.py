"""Crafted produce sequences: the cases broker conformance sends, as plain replayable values.

A :class:`BrokerCase` is what the kit, acting as the producer, sends to one
fresh partition: a few producer slots (each mapped at run time to a producer
id, allocated by the broker with InitProducerId or deliberately never
allocated) and a list of :class:`CraftedBatch` values with the chosen epoch,
base sequence and record count.  Record values are derived from the case's
topic and step number, so the case itself stays small and JSON-stable, and a
saved case replays byte-for-byte the same requests on any broker.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import attrs

from kafka_conformance.reference.broker.batches import (
    INT16_MAX,
    INT32_MAX,
    NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
    NO_SEQUENCE,
    ProducerBatch,
)

__all__ = [
    "BROKER_CASE_FORMAT", "Action", "ActionKind", "BrokerCase", "CaseError", "CraftedBatch", "SlotKind", "case_from_json",
    "case_to_json",
]

BROKER_CASE_FORMAT = 1
MAX_AGE_MS = 3 * 86_400_000
MODEL_NOW_MS = 10**13
"""The clock a case is replayed against off the wire (drawing, classifying): batch timestamps
and a restart's expiry read it, as a broker reads its wall clock."""


class CaseError(ValueError):
    """A case (usually a saved file) that is malformed; the message names the field."""


class SlotKind(enum.Enum):
    ALLOCATED = "allocated"
    """A producer id from the broker's InitProducerId, as every real producer uses."""
    UNALLOCATED = "unallocated"
    """A producer id the broker never issued (Kafka's produce path does not check ids of
    idempotent producers; other brokers may)."""
    NONE = "none"
    """No producer id: a producer without idempotence (``enable.idempotence=false``, or a client
    older than KIP-98).  Its batches carry producer id, epoch and sequence -1 whatever the crafted
    batch says, and bypass every idempotence check (``hasProducerId()``)."""


@attrs.frozen
class CraftedBatch:
    """One Produce request: a v2 batch of ``records`` records from producer slot ``producer``."""

    producer: int
    epoch: int
    base_sequence: int
    records: int = 1
    age_ms: int = 0
    """How far in the past the batch's timestamp lies when it is sent (a producer whose clock
    runs behind): the broker's producer-id expiry reads that timestamp."""

    def __attrs_post_init__(self) -> None:
        if self.producer < 0:
            raise CaseError(f"producer slot {self.producer} is negative")
        if not 0 <= self.age_ms <= MAX_AGE_MS:
            raise CaseError(f"a batch's age is 0..{MAX_AGE_MS} ms (3 days: under the 7-day segment roll and retention), "
                            f"not {self.age_ms}")
        if not 0 <= self.epoch <= INT16_MAX:
            raise CaseError(f"epoch {self.epoch} is not a producer epoch (0..{INT16_MAX})")
        if not -1 <= self.base_sequence <= INT32_MAX:
            raise CaseError(f"base sequence {self.base_sequence} is outside -1..{INT32_MAX}")
        if not 1 <= self.records <= 100:
            raise CaseError(f"a crafted batch holds 1..100 records, not {self.records}")

    def values(self, tag: str, step: int) -> tuple[str, ...]:
        return tuple(f"{tag}/{step}/{i}" for i in range(self.records))

    def to_batch(self, producer_id: int, tag: str, step: int, now_ms: int = 0) -> ProducerBatch:
        """The batch, its timestamp ``age_ms`` before ``now_ms`` (0: the sender's clock)."""
        stamp = now_ms - self.age_ms if now_ms else 0
        if producer_id == NO_PRODUCER_ID:  # a SlotKind.NONE producer
            return ProducerBatch(NO_PRODUCER_ID, NO_PRODUCER_EPOCH, NO_SEQUENCE, self.values(tag, step), stamp)
        return ProducerBatch(producer_id, self.epoch, self.base_sequence, self.values(tag, step), stamp)

    def to_json(self) -> list[int]:
        head = [self.producer, self.epoch, self.base_sequence, self.records]
        return [*head, self.age_ms] if self.age_ms else head

    def describe(self, slot: SlotKind | None = None) -> str:
        if slot is SlotKind.NONE:
            return f"p{self.producer} without a producer id ({self.records} rec)"
        last = self.base_sequence + self.records - 1
        if last > INT32_MAX:
            last -= INT32_MAX + 1
        aged = f", timestamp {self.age_ms / 3_600_000:g} h old" if self.age_ms else ""
        return f"p{self.producer} epoch {self.epoch} seq {self.base_sequence}..{last} ({self.records} rec{aged})"


class ActionKind(enum.Enum):
    """What happens to the partition between two batches, besides the batches themselves."""

    RESTART_CLEAN = "restart-clean"
    """SIGTERM: a controlled shutdown, which writes a producer snapshot at the log end; then a start."""
    RESTART_CRASH = "restart-crash"
    """SIGKILL: no shutdown at all; the broker recovers its log when it starts again."""
    DELETE_RECORDS = "delete-records"
    """DeleteRecords: the log start offset moves up to the action's offset (KIP-107)."""

    @property
    def is_restart(self) -> bool:
        return self is not ActionKind.DELETE_RECORDS


@attrs.frozen
class Action:
    """``kind`` happens before batch ``before`` is sent (``before`` equal to the number of
    batches: before the final read).  ``offset``, for DeleteRecords, counts from the case's
    first offset: records before it are deleted."""

    before: int
    kind: ActionKind
    offset: int = 0

    def __attrs_post_init__(self) -> None:
        if (self.kind is ActionKind.DELETE_RECORDS) != (self.offset > 0):
            raise CaseError(f"{self.kind.value} takes {'an offset above 0' if not self.kind.is_restart else 'no offset'}, "
                            f"got {self.offset}")

    def describe(self) -> str:
        if self.kind is ActionKind.DELETE_RECORDS:
            return f"delete the records before offset {self.offset} (DeleteRecords)"
        signal = "SIGTERM" if self.kind is ActionKind.RESTART_CLEAN else "SIGKILL"
        return f"restart the broker ({self.kind.value.removeprefix('restart-')}: {signal})"

    def to_json(self) -> list[Any]:
        return [self.before, self.kind.value, self.offset] if self.offset else [self.before, self.kind.value]


@attrs.frozen
class BrokerCase:
    """Producer slots and the batches sent, in order, to one fresh partition, with what happens
    between them (restarts, DeleteRecords)."""

    slots: tuple[SlotKind, ...]
    batches: tuple[CraftedBatch, ...]
    name: str = ""
    """Set for the named probes of the conformance table."""
    actions: tuple[Action, ...] = ()
    """In order of ``before``; empty for a case any broker can run."""

    def __attrs_post_init__(self) -> None:
        if not self.slots:
            raise CaseError("a case needs at least one producer slot")
        for i, b in enumerate(self.batches):
            if b.producer >= len(self.slots):
                raise CaseError(f"batches[{i}] uses producer slot {b.producer}, but the case has {len(self.slots)}")
        previous = 0
        for i, r in enumerate(self.actions):
            if not previous <= r.before <= len(self.batches) or r.before < 1:
                raise CaseError(f"actions[{i}] comes before batch {r.before}, but actions must be in order, after the "
                                f"first batch and at most before the final read (batch {len(self.batches)})")
            previous = r.before

    def actions_before(self, step: int) -> tuple[Action, ...]:
        return tuple(r for r in self.actions if r.before == step)

    @property
    def restarts(self) -> bool:
        """Whether the case restarts the broker (which only some targets allow)."""
        return any(a.kind.is_restart for a in self.actions)

    @property
    def deletes_records(self) -> bool:
        return any(not a.kind.is_restart for a in self.actions)

    def describe(self) -> str:
        head = ", ".join(f"p{i}={k.value}" for i, k in enumerate(self.slots))
        lines = [f"producers: {head}"]
        for i, b in enumerate(self.batches):
            lines += [f"  -: {r.describe()}" for r in self.actions_before(i)]
            lines.append(f"  {i}: {b.describe(self.slots[b.producer])}")
        lines += [f"  -: {r.describe()}" for r in self.actions_before(len(self.batches))]
        return "\n".join(lines)


def case_to_json(case: BrokerCase) -> dict[str, Any]:
    out: dict[str, Any] = {
        "slots": [k.value for k in case.slots],
        "batches": [b.to_json() for b in case.batches],
    }
    if case.name:
        out["name"] = case.name
    if case.actions:
        out["actions"] = [a.to_json() for a in case.actions]
    return out


def case_from_json(data: Any, where: str = "case") -> BrokerCase:
    if not isinstance(data, Mapping):
        raise CaseError(f"{where}: expected an object, got {type(data).__name__}")
    unknown = set(data) - {"slots", "batches", "name", "actions"}
    if unknown:
        raise CaseError(f"{where}: unknown field(s) {sorted(unknown)}")
    slots_raw = data.get("slots")
    if not isinstance(slots_raw, list):
        raise CaseError(f"{where}.slots: expected a list")
    try:
        slots = tuple(SlotKind(s) for s in slots_raw)
    except ValueError:
        raise CaseError(f"{where}.slots: each must be one of {[k.value for k in SlotKind]}, got {slots_raw!r}") from None
    batches_raw = data.get("batches")
    if not isinstance(batches_raw, list):
        raise CaseError(f"{where}.batches: expected a list")
    batches = []
    for i, item in enumerate(batches_raw):
        if not (isinstance(item, list) and len(item) in (4, 5) and all(isinstance(x, int) and not isinstance(x, bool) for x in item)):
            raise CaseError(f"{where}.batches[{i}]: expected [producer, epoch, base_sequence, records] or "
                            f"[producer, epoch, base_sequence, records, age_ms] integers, got {item!r}")
        try:
            batches.append(CraftedBatch(*item))
        except CaseError as exc:
            raise CaseError(f"{where}.batches[{i}]: {exc}") from None
    name = data.get("name", "")
    if not isinstance(name, str):
        raise CaseError(f"{where}.name: expected a string")
    actions_raw = data.get("actions", [])
    if not isinstance(actions_raw, list):
        raise CaseError(f"{where}.actions: expected a list")
    actions = []
    kinds = [k.value for k in ActionKind]
    for i, item in enumerate(actions_raw):
        if not (isinstance(item, list) and len(item) in (2, 3) and item[1] in kinds
                and all(isinstance(x, int) and not isinstance(x, bool) for x in (item[0], *item[2:]))):
            raise CaseError(f"{where}.actions[{i}]: expected [before_batch, one of {kinds}] or "
                            f"[before_batch, 'delete-records', offset], got {item!r}")
        try:
            actions.append(Action(item[0], ActionKind(item[1]), *item[2:]))
        except CaseError as exc:
            raise CaseError(f"{where}.actions[{i}]: {exc}") from None
    try:
        return BrokerCase(slots, tuple(batches), name, tuple(actions))
    except CaseError as exc:
        raise CaseError(f"{where}: {exc}") from None

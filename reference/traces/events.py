"""Trace events of a producer run: what the application, the client and the cluster did.

A trace is a sequence of frozen events in the order they happened; the
wire-level harness emits them and :func:`delivery.check_delivery` judges them
against the final log.  Events are of three layers, and only the first is
required:

* **application** - :class:`Send` (the application called ``send`` with a
  unique value) and its one completion: :class:`Acked` (with the offset the
  client reported, -1 if unknown), :class:`Failed` (the client says the record
  was *not* written: a definite failure) or :class:`Indeterminate` (it may have
  been written: timeout, disconnect, librdkafka POSSIBLY_PERSISTED);
* **wire** - :class:`Attempt` (one produce request carrying a batch, with the
  producer id, epoch and base sequence stamped on it) and :class:`Response`
  (the broker's answer to it).  With these the checker can tell a broker fault
  from a client fault, and check implied acknowledgement (G-IMPLIED);
* **environment** - :class:`Fault` markers: the KIP-185 failures that put a run
  outside the guarantee (hard or concurrent failures, unclean election, producer
  id expiry, producer restart) and informative ones (crash, drop, heal).

Times are milliseconds on one clock; they matter only for liveness.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import TypeAlias

import attrs

from kafka_conformance.reference.broker.produce_errors import ProduceError

__all__ = [
    "Acked",
    "Attempt",
    "Event",
    "Failed",
    "Fault",
    "FaultKind",
    "Indeterminate",
    "Response",
    "Send",
    "TraceError",
]


class TraceError(ValueError):
    """A trace that cannot describe a real run (a value sent twice in one session, ...)."""


class FaultKind(enum.Enum):
    # Outside the guarantee (KIP-185): each may legitimately lose or duplicate records.
    HARD_FAILURE = "hard-failure"
    """Disk loss or corruption: no recovery."""
    CONCURRENT_FAILURE = "concurrent-failure"
    """Transient failures of several replicas at once (e.g. power loss of every ISR member)."""
    UNCLEAN_ELECTION = "unclean-election"
    PRODUCER_ID_EXPIRED = "producer-id-expired"
    """The broker dropped the producer's state while a retry was still possible."""
    PRODUCER_RESTART = "producer-restart"
    """A new producer session; the application may re-send values of the old one."""
    # Inside the guarantee: transient faults the producer and brokers must survive.
    BROKER_CRASH = "broker-crash"
    BROKER_STOP = "broker-stop"
    """A clean shutdown (SIGTERM): nothing is lost, the producer state is snapshotted."""
    LEADER_FAILOVER = "leader-failover"
    REQUEST_DROPPED = "request-dropped"
    RESPONSE_DROPPED = "response-dropped"
    DISCONNECT = "disconnect"
    NETWORK_PARTITION = "network-partition"
    HEALED = "healed"
    """Every fault is over: from here on the producer must make progress (LIVE)."""

    @property
    def outside_guarantee(self) -> bool:
        return self in _OUTSIDE


_OUTSIDE = frozenset(
    {
        FaultKind.HARD_FAILURE,
        FaultKind.CONCURRENT_FAILURE,
        FaultKind.UNCLEAN_ELECTION,
        FaultKind.PRODUCER_ID_EXPIRED,
        FaultKind.PRODUCER_RESTART,
    }
)


@attrs.frozen
class Send:
    value: str
    partition: int = 0
    session: int = 0
    """The producer instance; a restarted producer is a new session (and a new producer id)."""
    time_ms: int = 0
    resend_of: str | None = None
    """Set when the application re-sends an earlier value's payload under this new value
    (after a producer restart, say): both then count as one message for G-AMO, and a second
    copy is outside the guarantee.  Values themselves are unique in a trace."""


@attrs.frozen
class Acked:
    value: str
    offset: int = -1
    """The offset the client reported; -1 when unknown (DUPLICATE_SEQUENCE_NUMBER, acks=0)."""
    time_ms: int = 0


@attrs.frozen
class Failed:
    """A definite failure: the client claims the record is not in the log."""

    value: str
    error: str = ""
    time_ms: int = 0


@attrs.frozen
class Indeterminate:
    """The record may or may not be in the log."""

    value: str
    reason: str = ""
    time_ms: int = 0


def _values(values: Iterable[str]) -> tuple[str, ...]:
    if isinstance(values, str):
        raise TypeError("values must be a sequence of record values, not one string")
    return tuple(values)


@attrs.frozen
class Attempt:
    """One produce request for one batch; a retry is a new attempt with the same stamps."""

    attempt_id: int
    values: tuple[str, ...] = attrs.field(converter=_values)
    partition: int = 0
    producer_id: int = -1
    producer_epoch: int = -1
    base_sequence: int = -1
    time_ms: int = 0


@attrs.frozen
class Response:
    attempt_id: int
    error: ProduceError = ProduceError.NONE
    base_offset: int = -1
    time_ms: int = 0


@attrs.frozen
class Fault:
    kind: FaultKind
    partition: int | None = None
    """None: every partition."""
    time_ms: int = 0


Event: TypeAlias = Send | Acked | Failed | Indeterminate | Attempt | Response | Fault
Completion: TypeAlias = Acked | Failed | Indeterminate

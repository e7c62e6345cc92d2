"""What the cluster does to each produce request: the broker half of a failure trace.

A wire-level run needs faults that happen at *exact* points of the protocol
(the response to the third request of partition 0 is lost after the append),
not at wall-clock times, so that a trace means the same thing against the
in-process model, the Python test broker and a real broker behind the fault
proxy, however fast the client is.  A :class:`FaultPlan` is that: a list of
:class:`ProduceRule` values, each naming the *n*-th produce request of one
partition (counted as requests arrive, across all brokers and connections,
retries included, 1-based) and the :class:`Action` taken on it.  Requests no
rule names are delivered normally.

The actions are the trace alphabet of ``docs/spec/idempotence.md`` §5.1 that acts on one
request; faults that act on the cluster as a whole (failover, crash, expiry,
disconnecting everyone) are steps of the program, :mod:`producer_program`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from kafka_conformance.reference.broker.produce_errors import ProduceError

__all__ = ["Action", "FaultPlan", "PlanError", "ProduceRule", "Release", "RequestCounter"]


class PlanError(ValueError):
    """A fault plan (or program) that is malformed; the message names the field."""


class Action(enum.Enum):
    DELIVER = "deliver"
    """Handle the request as the broker of the chosen version would."""
    DROP_REQUEST = "drop-request"
    """The request is lost before the broker sees it: nothing appended, no answer
    (the connection stays open, so the client waits for request.timeout.ms)."""
    DROP_RESPONSE = "drop-response"
    """The broker handles the request (it may append) but the answer is lost."""
    ERROR = "error"
    """Answer with ``error`` without touching the log (a definite "not written"
    for codes such as NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS, UNKNOWN_PRODUCER_ID)."""
    ERROR_AFTER_APPEND = "error-after-append"
    """Handle the request (it may append), then answer ``error`` instead of the real
    answer: NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT, UNKNOWN_SERVER_ERROR."""
    DELAY = "delay"
    """Handle the request now, answer after ``delay_ms``.  Answers leave a connection in
    request order, so the answers behind a delayed one wait for it (as on TCP).
    ``ERROR`` and ``ERROR_AFTER_APPEND`` take a ``delay_ms`` too."""
    DISCONNECT_BEFORE = "disconnect-before"
    """Close the client's connection on receipt: nothing appended, no answer."""
    DISCONNECT_AFTER = "disconnect-after"
    """Handle the request (it may append), then close the connection instead of answering."""
    HOLD = "hold"
    """The request is held back in the network: the broker does not see it and the client gets
    no answer (as DROP_REQUEST), until the rule's :class:`Release` point; then it reaches the
    broker, late, on a connection of its own, and its answer reaches no one.  Until the broker
    answers the transaction's EndTxn the path to the request's partitions stays down: the client's
    retries of them are lost too, so the client gives the batch up (its delivery timeout) rather than
    getting it through another way (a proxy may let the path come back after a while, so that a
    client that never gives a batch up is not left waiting for an end that cannot come).  This is
    the shape of a Produce delayed until after its transaction ended (Jepsen's 2024 analysis;
    KIP-890)."""


class Release(enum.Enum):
    """When a held request reaches the broker: points of a transaction's life seen on the wire."""

    AFTER_END = "after-end"
    """Once the broker has answered an EndTxn sent after the hold, and the transaction's markers are
    written (the partition's last stable offset has reached its end)."""
    INTO_NEXT = "into-next"
    """Once, after such an EndTxn, the broker has answered the next AddPartitionsToTxn or Produce: the
    next transaction has begun.  The client learns of that answer only after the held request
    landed, so the order is the same on every run."""
    NEVER = "never"
    """The request is lost for good (the path to the partition is down until the EndTxn)."""


_NEEDS_ERROR = frozenset({Action.ERROR, Action.ERROR_AFTER_APPEND})
_DELAYABLE = (Action.DELAY, Action.ERROR, Action.ERROR_AFTER_APPEND)
"""Actions whose answer can be held back by ``delay_ms`` (an error that arrives late
is how a retriable answer and a later request's definite failure meet, KAFKA-14034)."""


@attrs.frozen
class ProduceRule:
    """What happens to the ``nth`` produce request (1-based) carrying a batch for ``partition``."""

    nth: int
    action: Action
    partition: int = 0
    error: ProduceError | None = None
    delay_ms: int = 0
    release: Release | None = None
    """Only for HOLD: when the held request reaches the broker."""
    cut: bool = True
    """Only for HOLD: whether the path to the request's partitions is down while it is held (False:
    only this request is held, and the client's retry of it gets through)."""

    def __attrs_post_init__(self) -> None:
        if self.nth < 1:
            raise PlanError(f"rule nth={self.nth}: requests are counted from 1")
        if self.partition < 0:
            raise PlanError(f"rule nth={self.nth}: partition {self.partition} is negative")
        if (self.error is not None) != (self.action in _NEEDS_ERROR):
            need = "needs an" if self.action in _NEEDS_ERROR else "takes no"
            raise PlanError(f"rule nth={self.nth}: action {self.action.value} {need} error code")
        if self.error is ProduceError.NONE:
            raise PlanError(f"rule nth={self.nth}: an injected error cannot be NONE")
        if self.delay_ms < 0:
            raise PlanError(f"rule nth={self.nth}: delay_ms={self.delay_ms} is negative")
        if self.action is Action.DELAY and self.delay_ms == 0:
            raise PlanError(f"rule nth={self.nth}: action delay needs a positive delay_ms")
        if not self.cut and self.action is not Action.HOLD:
            raise PlanError(f"rule nth={self.nth}: cut=false is only for hold")
        if (self.release is not None) != (self.action is Action.HOLD):
            need = "needs a" if self.action is Action.HOLD else "takes no"
            raise PlanError(f"rule nth={self.nth}: action {self.action.value} {need} release point")
        if self.delay_ms and self.action not in _DELAYABLE:
            raise PlanError(f"rule nth={self.nth}: delay_ms is only for actions that answer "
                            f"({', '.join(a.value for a in _DELAYABLE)}), not {self.action.value}")

    def describe(self) -> str:
        what = self.action.value
        if self.error is not None:
            what += f" {self.error.name}"
        if self.delay_ms:
            what += f" {self.delay_ms} ms"
        if self.release is not None:
            what += f" until {self.release.value}" + ("" if self.cut else ", its retries let through")
        return f"produce request #{self.nth} of partition {self.partition}: {what}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"nth": self.nth, "partition": self.partition, "action": self.action.value}
        if self.error is not None:
            out["error"] = self.error.name
        if self.delay_ms:
            out["delay_ms"] = self.delay_ms
        if self.release is not None:
            out["release"] = self.release.value
        if not self.cut:
            out["cut"] = False
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "rule") -> ProduceRule:
        if not isinstance(data, Mapping):
            raise PlanError(f"{where}: expected an object, got {type(data).__name__}")
        unknown = set(data) - {"nth", "partition", "action", "error", "delay_ms", "release", "cut"}
        if unknown:
            raise PlanError(f"{where}: unknown field(s) {sorted(unknown)}")
        try:
            action = Action(data["action"])
        except KeyError:
            raise PlanError(f"{where}: missing field 'action'") from None
        except ValueError:
            raise PlanError(f"{where}.action: {data['action']!r} is not one of {[a.value for a in Action]}") from None
        error = None
        if data.get("error") is not None:
            try:
                error = ProduceError[data["error"]]
            except (KeyError, TypeError):
                raise PlanError(f"{where}.error: unknown error {data['error']!r}") from None
        release = None
        if data.get("release") is not None:
            try:
                release = Release(data["release"])
            except ValueError:
                raise PlanError(f"{where}.release: {data['release']!r} is not one of {[r.value for r in Release]}") from None
        cut = data.get("cut", True)
        if not isinstance(cut, bool):
            raise PlanError(f"{where}.cut: expected true or false, got {cut!r}")
        try:
            return cls(
                _int(data, "nth", where), action, _int(data, "partition", where, 0), error, _int(data, "delay_ms", where, 0),
                release, cut,
            )
        except PlanError as exc:
            raise PlanError(f"{where}: {exc}") from None


def _int(data: Mapping[str, Any], key: str, where: str, default: int | None = None) -> int:
    if key not in data:
        if default is None:
            raise PlanError(f"{where}: missing field {key!r}")
        return default
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise PlanError(f"{where}.{key}: expected an integer, got {value!r}")
    return value


def _rules(rules: Iterable[ProduceRule]) -> tuple[ProduceRule, ...]:
    out = tuple(rules)
    seen: set[tuple[int, int]] = set()
    for rule in out:
        key = (rule.partition, rule.nth)
        if key in seen:
            raise PlanError(f"two rules for produce request #{rule.nth} of partition {rule.partition}")
        seen.add(key)
    return tuple(sorted(out, key=lambda r: (r.partition, r.nth)))


@attrs.frozen
class FaultPlan:
    """The rules of one run; :meth:`decide` is what a broker or proxy asks per request."""

    rules: tuple[ProduceRule, ...] = attrs.field(default=(), converter=_rules)

    def decide(self, partition: int, nth: int) -> ProduceRule:
        """The rule for the ``nth`` request of ``partition`` (DELIVER when none names it)."""
        for rule in self.rules:
            if rule.partition == partition and rule.nth == nth:
                return rule
        return ProduceRule(nth, Action.DELIVER, partition)

    def to_json(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.rules]

    @classmethod
    def from_json(cls, data: Any, where: str = "rules") -> FaultPlan:
        if not isinstance(data, list):
            raise PlanError(f"{where}: expected a list of rules, got {type(data).__name__}")
        return cls(ProduceRule.from_json(item, f"{where}[{i}]") for i, item in enumerate(data))


class RequestCounter:
    """Counts produce requests per partition as they arrive; thread-unsafe on purpose
    (the broker or proxy calls it under its own lock)."""

    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self._counts: dict[int, int] = {}

    def next(self, partition: int) -> ProduceRule:
        n = self._counts.get(partition, 0) + 1
        self._counts[partition] = n
        return self.plan.decide(partition, n)

"""A producer failure trace as a program: what the application does, what the cluster
suffers between sends, and what each produce request meets on the wire.

One :class:`ProducerTrace` is run unchanged by every engine of the kit: the
in-process model (a model producer against :mod:`replication`), the Python test
broker with a real client, and a real client against a real broker behind the
fault proxy.  That is why it is a value of the reference: the engines differ,
the trace and the verdicts do not.

* :attr:`ProducerTrace.steps` is the application and the environment, in order:
  :class:`SendStep` (send one unique value to a partition, without waiting),
  :class:`WaitStep` (let time pass: real time on the wire, simulated in the
  model - how request and delivery timeouts are reached), :class:`FlushStep`
  (wait until every send so far has completed) and :class:`ClusterStep`
  (failover, crash, restart, producer-id expiry, disconnect everyone, a
  leaderless period).
* :attr:`ProducerTrace.plan` is the :class:`~fault_plan.FaultPlan`: what
  happens to the *n*-th produce request of a partition.
* :attr:`ProducerTrace.producer` is the client configuration in Java property
  names (each client adapter maps them to its own), and
  :attr:`ProducerTrace.cluster` the topic and cluster.

Every run ends with an implicit flush: the application waits for every send to
complete (or for the run's deadline), so liveness can be judged.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any, TypeAlias

import attrs

from kafka_conformance.reference.broker.batches import INT32_MAX
from kafka_conformance.reference.releases import DEFAULT_RELEASE
from kafka_conformance.reference.traces.fault_plan import Action, FaultPlan, PlanError

__all__ = [
    "DEFAULT_PRODUCER",
    "ClusterAction",
    "ClusterSpec",
    "ClusterStep",
    "FlushStep",
    "ProducerTrace",
    "SendStep",
    "Step",
    "WaitStep",
]

FORMAT_VERSION = 1


class ClusterAction(enum.Enum):
    FAILOVER = "failover"
    """Leadership of ``partition`` moves cleanly to another in-sync replica (a new leader epoch)."""
    CRASH = "crash"
    """``broker`` stops; its unflushed or unreplicated tail is lost; partitions it led elect a new leader."""
    STOP = "stop"
    """``broker`` shuts down cleanly (SIGTERM): its log is flushed and a producer snapshot is
    written at the log end (``Log.close``), so it loses nothing; partitions it led elect a new
    leader. A RESTART brings it back."""
    RESTART = "restart"
    """``broker`` comes back (after a CRASH or a STOP), reloads its producer state from its newest
    snapshot (docs/spec/idempotence.md §1.4) and catches up from the leaders."""
    EXPIRE_PRODUCERS = "expire-producers"
    """The brokers drop the producer state of ``partition`` (every partition when None): outside the guarantee."""
    DISCONNECT = "disconnect"
    """Every client connection is closed (the cluster stays up)."""
    LEADERLESS = "leaderless"
    """``partition`` has no leader for ``duration_ms`` (metadata shows none, produce gets
    NOT_LEADER_OR_FOLLOWER), then its leader returns: aiokafka#1017's shape."""


@attrs.frozen
class SendStep:
    value: str
    partition: int = 0


@attrs.frozen
class WaitStep:
    ms: int


@attrs.frozen
class FlushStep:
    pass


@attrs.frozen
class ClusterStep:
    action: ClusterAction
    partition: int | None = None
    broker: int | None = None
    duration_ms: int = 0

    def __attrs_post_init__(self) -> None:
        needs_broker = self.action in (ClusterAction.CRASH, ClusterAction.STOP, ClusterAction.RESTART)
        if needs_broker and self.broker is None:
            raise PlanError(f"cluster step {self.action.value} needs a broker")
        if self.action in (ClusterAction.FAILOVER, ClusterAction.LEADERLESS) and self.partition is None:
            raise PlanError(f"cluster step {self.action.value} needs a partition")
        if (self.duration_ms > 0) != (self.action is ClusterAction.LEADERLESS):
            raise PlanError("duration_ms is for (and required by) leaderless steps only")


Step: TypeAlias = SendStep | WaitStep | FlushStep | ClusterStep


@attrs.frozen
class ClusterSpec:
    kafka_version: str = DEFAULT_RELEASE
    brokers: int = 3
    partitions: int = 1
    replication_factor: int = 3
    min_insync_replicas: int = 2
    topic: str = "conformance"

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.replication_factor <= self.brokers:
            raise PlanError(f"replication factor {self.replication_factor} needs 1..{self.brokers} brokers")
        if not 1 <= self.min_insync_replicas <= self.replication_factor:
            raise PlanError(f"min.insync.replicas {self.min_insync_replicas} must be 1..{self.replication_factor}")
        if self.partitions < 1:
            raise PlanError("a topic needs at least one partition")


DEFAULT_PRODUCER: Mapping[str, str] = {
    "enable.idempotence": "true",
    "acks": "all",
    "max.in.flight.requests.per.connection": "5",
    "request.timeout.ms": "1500",
    "delivery.timeout.ms": "8000",
    "linger.ms": "0",
    "retry.backoff.ms": "50",
}
"""Short timeouts so that a lost response costs a wire run seconds, not minutes."""


def _config(items: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    pairs = items.items() if isinstance(items, Mapping) else items
    out = {}
    for key, value in pairs:
        if not isinstance(key, str) or not isinstance(value, str):
            raise PlanError(f"producer config {key!r}={value!r}: keys and values are strings (Java property syntax)")
        out[key] = value
    return tuple(sorted(out.items()))


def _steps(steps: Iterable[Step]) -> tuple[Step, ...]:
    out = tuple(steps)
    seen: set[str] = set()
    for step in out:
        if isinstance(step, SendStep):
            if step.value in seen:
                raise PlanError(f"value {step.value!r} is sent twice: values identify records and must be unique")
            seen.add(step.value)
    return out


@attrs.frozen
class ProducerTrace:
    steps: tuple[Step, ...] = attrs.field(converter=_steps)
    plan: FaultPlan = attrs.field(factory=FaultPlan)
    producer: tuple[tuple[str, str], ...] = attrs.field(default=tuple(sorted(DEFAULT_PRODUCER.items())), converter=_config)
    cluster: ClusterSpec = attrs.field(factory=ClusterSpec)
    initial_sequence: int = 0
    """The model producer's first sequence per partition (near Int.MAX to exercise the
    wrap); real clients always start at 0, so the wire engines refuse other values."""
    name: str = ""

    def __attrs_post_init__(self) -> None:
        if not 0 <= self.initial_sequence <= INT32_MAX:
            raise PlanError(f"initial_sequence {self.initial_sequence} is outside 0..Int.MAX")
        for step in self.steps:
            partition = getattr(step, "partition", None)
            if partition is not None and not 0 <= partition < self.cluster.partitions:
                raise PlanError(f"step {step!r} names partition {partition}; the topic has {self.cluster.partitions}")
            broker = getattr(step, "broker", None)
            if broker is not None and not 0 <= broker < self.cluster.brokers:
                raise PlanError(f"step {step!r} names broker {broker}; the cluster has {self.cluster.brokers}")
        for rule in self.plan.rules:
            if rule.action is Action.HOLD:
                raise PlanError(f"{rule.describe()}: a hold waits for a transaction's end, and a producer trace has no "
                                "transactions (the transaction client rows use it)")
            if rule.partition >= self.cluster.partitions:
                raise PlanError(f"{rule.describe()}: the topic has {self.cluster.partitions} partition(s)")

    @property
    def config(self) -> dict[str, str]:
        return dict(self.producer)

    @property
    def sends(self) -> tuple[SendStep, ...]:
        return tuple(s for s in self.steps if isinstance(s, SendStep))

    def with_config(self, **changes: str) -> ProducerTrace:
        """A copy with producer settings changed; keys use underscores for dots."""
        cfg = self.config
        cfg.update({k.replace("_", "."): v for k, v in changes.items()})
        return attrs.evolve(self, producer=cfg)

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "name": self.name,
            "cluster": attrs.asdict(self.cluster),
            "producer": dict(self.producer),
            "initial_sequence": self.initial_sequence,
            "steps": [_step_json(s) for s in self.steps],
            "rules": self.plan.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "trace") -> ProducerTrace:
        if not isinstance(data, Mapping):
            raise PlanError(f"{where}: expected an object")
        if data.get("format") != FORMAT_VERSION:
            raise PlanError(f"{where}.format: {data.get('format')!r} is not supported (this kit reads {FORMAT_VERSION})")
        unknown = set(data) - {"format", "name", "cluster", "producer", "initial_sequence", "steps", "rules"}
        if unknown:
            raise PlanError(f"{where}: unknown field(s) {sorted(unknown)}")
        cluster_data = data.get("cluster", {})
        if not isinstance(cluster_data, Mapping):
            raise PlanError(f"{where}.cluster: expected an object")
        try:
            cluster = ClusterSpec(**cluster_data)
        except TypeError as exc:
            raise PlanError(f"{where}.cluster: {exc}") from None
        steps_data = data.get("steps", [])
        if not isinstance(steps_data, list):
            raise PlanError(f"{where}.steps: expected a list")
        steps = [_step_from_json(s, f"{where}.steps[{i}]") for i, s in enumerate(steps_data)]
        producer = data.get("producer", DEFAULT_PRODUCER)
        if not isinstance(producer, Mapping):
            raise PlanError(f"{where}.producer: expected an object of strings")
        return cls(
            steps,
            FaultPlan.from_json(data.get("rules", []), f"{where}.rules"),
            producer,
            cluster,
            data.get("initial_sequence", 0),
            str(data.get("name", "")),
        )


def _step_json(step: Step) -> dict[str, Any]:
    if isinstance(step, SendStep):
        return {"send": step.value, "partition": step.partition}
    if isinstance(step, WaitStep):
        return {"wait_ms": step.ms}
    if isinstance(step, FlushStep):
        return {"flush": True}
    out: dict[str, Any] = {"cluster": step.action.value}
    if step.partition is not None:
        out["partition"] = step.partition
    if step.broker is not None:
        out["broker"] = step.broker
    if step.duration_ms:
        out["duration_ms"] = step.duration_ms
    return out


def _step_from_json(data: Any, where: str) -> Step:
    if not isinstance(data, Mapping):
        raise PlanError(f"{where}: expected an object")
    try:
        if "send" in data:
            return SendStep(str(data["send"]), _opt_int(data, "partition", where) or 0)
        if "wait_ms" in data:
            ms = _opt_int(data, "wait_ms", where)
            if ms is None or ms < 0:
                raise PlanError("wait_ms must be a non-negative integer")
            return WaitStep(ms)
        if data.get("flush") is True:
            return FlushStep()
        if "cluster" in data:
            try:
                action = ClusterAction(data["cluster"])
            except ValueError:
                raise PlanError(f"unknown cluster action {data['cluster']!r}; one of {[a.value for a in ClusterAction]}") from None
            return ClusterStep(
                action, _opt_int(data, "partition", where), _opt_int(data, "broker", where), _opt_int(data, "duration_ms", where) or 0
            )
    except PlanError as exc:
        raise PlanError(f"{where}: {exc}") from None
    raise PlanError(f"{where}: a step is one of send, wait_ms, flush, cluster; got {sorted(data)}")


def _opt_int(data: Mapping[str, Any], key: str, where: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise PlanError(f"{key}: expected an integer, got {value!r}")
    return value

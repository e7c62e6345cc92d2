"""A transaction script: the requests a transactional producer sends, as a replayable value.

A :class:`TxnScript` is a list of steps, each one request of one producer *instance*
(``"a"``, ``"b"``: two instances sharing a transactional id are a producer and its
zombie).  Each instance stamps its batches as the Java client does: the epoch from its
last InitProducerId (with transaction.version 2, from its last EndTxn), and per partition a
sequence that continues across the transactions of one epoch and restarts at 0 with a new
epoch.  A :class:`Produce` may be *held*: stamped when the script reaches it, sent only
when a later :class:`Send` names it, which is how a Produce request delayed in the
network until after its transaction ended is written down.  :class:`Send` also re-sends
a produce that was sent before (a retry with the same stamps).  :class:`Expire` lets the
transaction timeout pass: the coordinator aborts the open transaction on its own, as it does
for a producer that stalls or dies mid-transaction; a script with one uses a short
``timeout_ms`` (:data:`EXPIRE_MIN_TIMEOUT_MS` to :data:`EXPIRE_MAX_TIMEOUT_MS`), since a real broker is
waited for.

Every run ends by reading each partition back, read_committed and read_uncommitted.
The model (:mod:`model`) and a real broker run the same script; their answers are
compared step by step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

import attrs

__all__ = [
    "EXPIRE_MAX_TIMEOUT_MS",
    "EXPIRE_MIN_TIMEOUT_MS",
    "EXPIRE_TIMEOUT_MS",
    "Add",
    "End",
    "Expire",
    "Init",
    "Produce",
    "ScriptError",
    "Send",
    "Step",
    "TxnScript",
    "script_from_json",
    "script_to_json",
]

SCRIPT_FORMAT = 1
EXPIRE_TIMEOUT_MS = 1500
"""The ``transaction.timeout.ms`` of the scripts the kit writes with an :class:`Expire`: long
enough for the steps before it on a loaded machine (a step is milliseconds), short enough that
waiting for it is cheap."""
EXPIRE_MAX_TIMEOUT_MS = 10_000
"""A script with an :class:`Expire` may not ask for a longer timeout: a real broker is waited for."""
EXPIRE_MIN_TIMEOUT_MS = 1000
"""Nor for a shorter one: a real broker's steps before the timeout need the time (the harness refuses
to send a step within 0.5 s of it)."""


class ScriptError(ValueError):
    """A script that cannot describe a run (an unknown instance, a held produce never named ...)."""


def _partitions(value: Any) -> frozenset[int]:
    return frozenset(int(p) for p in value)


@attrs.frozen
class Init:
    """InitProducerId with the script's transactional id."""

    instance: str


@attrs.frozen
class Add:
    """AddPartitionsToTxn: the partitions join the instance's transaction."""

    instance: str
    partitions: frozenset[int] = attrs.field(converter=_partitions)


@attrs.frozen
class Produce:
    """One transactional batch of ``records`` records to ``partition``, stamped now."""

    instance: str
    partition: int
    records: int = 1
    name: str | None = None
    """A name a later :class:`Send` uses to send (or send again) this very batch."""
    held: bool = False
    """Stamped now, sent only by a later :class:`Send` of its name."""
    transactional: bool = True


@attrs.frozen
class Send:
    """Send the named produce: the first time for a held one, again (a retry) otherwise."""

    name: str


@attrs.frozen
class End:
    """EndTxn: commit or abort the instance's transaction."""

    instance: str
    commit: bool


@attrs.frozen
class Expire:
    """The transaction timeout passes with no request sent: the coordinator aborts an open
    transaction of the transactional id itself (``abortTimedOutTransactions``), fencing it."""


Step: TypeAlias = Init | Add | Produce | Send | End | Expire
_KINDS: dict[str, type] = {"init": Init, "add": Add, "produce": Produce, "send": Send, "end": End, "expire": Expire}


@attrs.frozen
class TxnScript:
    name: str
    steps: tuple[Step, ...]
    partitions: int = 2
    timeout_ms: int = 60_000
    """The producer's ``transaction.timeout.ms`` (the Java client's default)."""

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.partitions <= 8:
            raise ScriptError(f"script {self.name!r}: partitions must be 1 to 8, not {self.partitions}")
        started: set[str] = set()
        named: dict[str, Produce] = {}
        sent: set[str] = set()
        for index, step in enumerate(self.steps):
            where = f"script {self.name!r} step {index}"
            if isinstance(step, Init):
                started.add(step.instance)
            elif isinstance(step, Expire):
                if not started:
                    raise ScriptError(f"{where}: an expire step before any InitProducerId has no transaction to time out")
                if not EXPIRE_MIN_TIMEOUT_MS <= self.timeout_ms <= EXPIRE_MAX_TIMEOUT_MS:
                    raise ScriptError(f"{where}: an expire step waits for the transaction timeout, so timeout_ms must "
                                      f"be {EXPIRE_MIN_TIMEOUT_MS} to {EXPIRE_MAX_TIMEOUT_MS}, not {self.timeout_ms}")
            elif isinstance(step, Send):
                if step.name not in named:
                    raise ScriptError(f"{where}: send of {step.name!r}, which no earlier produce names")
                sent.add(step.name)
            elif step.instance not in started:
                raise ScriptError(f"{where}: instance {step.instance!r} has not sent InitProducerId")
            if isinstance(step, Produce):
                if not 0 <= step.partition < self.partitions or step.records < 1:
                    raise ScriptError(f"{where}: partition {step.partition} or {step.records} records out of range")
                if step.name is not None:
                    if step.name in named:
                        raise ScriptError(f"{where}: produce name {step.name!r} used twice")
                    named[step.name] = step
                if step.held and step.name is None:
                    raise ScriptError(f"{where}: a held produce needs a name for its send")
            if isinstance(step, Add) and not all(0 <= p < self.partitions for p in step.partitions):
                raise ScriptError(f"{where}: partitions {sorted(step.partitions)} out of range")
        for name, produce in named.items():
            if produce.held and name not in sent:
                raise ScriptError(f"script {self.name!r}: held produce {name!r} is never sent")


def script_to_json(script: TxnScript) -> dict[str, Any]:
    steps = []
    for step in script.steps:
        kind = next(k for k, cls in _KINDS.items() if isinstance(step, cls))
        body = attrs.asdict(step)
        if isinstance(step, Add):
            body["partitions"] = sorted(step.partitions)
        steps.append({"kind": kind, **body})
    return {"format": SCRIPT_FORMAT, "name": script.name, "partitions": script.partitions,
            "timeout_ms": script.timeout_ms, "steps": steps}


def script_from_json(data: Mapping[str, Any]) -> TxnScript:
    """A script from its JSON form; a ScriptError naming the field that is wrong."""
    if data.get("format") != SCRIPT_FORMAT:
        raise ScriptError(f"transaction script format {data.get('format')!r} is not {SCRIPT_FORMAT}")
    steps: list[Step] = []
    for index, raw in enumerate(data.get("steps", ())):
        if not isinstance(raw, Mapping) or raw.get("kind") not in _KINDS:
            raise ScriptError(f"step {index}: kind must be one of {', '.join(_KINDS)}")
        fields = {k: v for k, v in raw.items() if k != "kind"}
        try:
            steps.append(_KINDS[raw["kind"]](**fields))
        except (TypeError, ValueError) as exc:
            raise ScriptError(f"step {index} ({raw['kind']}): {exc}") from exc
    try:
        return TxnScript(str(data["name"]), tuple(steps), int(data.get("partitions", 2)), int(data.get("timeout_ms", 60_000)))
    except KeyError as exc:
        raise ScriptError(f"transaction script without {exc}") from exc

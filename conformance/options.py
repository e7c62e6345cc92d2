"""What every ``check_*`` callable shares, spelled once: the release, the seed, the budget, the
per-call timeout, where failures are kept, the Hypothesis settings and where progress goes.

One value rather than the same keywords on five callables, because the five drifted apart
when each had its own (``timeout`` here, ``timeout_s`` there; a default release of ``None`` in
one suite and a literal in another; three callback styles).  A team that checks an authorizer,
a broker and a producer client builds one :class:`Options` and hands it to each::

    options = Options(kafka_version="3.9.1", seed=1, failures_dir="kafka-conformance-failures")
    check_authorizer("python:my_authorizer:factory", options)
    check_broker("bootstrap:127.0.0.1:9092", options)

What belongs to one suite only (the authorizer's generation mode, the broker suite's rounds, the
producer suite's broker) stays a keyword of that suite's callable.  A field a suite has no use for
is not an error: sharing the value is the point (each field says which suites read it).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from kafka_conformance.adapters.targets import Problem, TargetError
from kafka_conformance.adapters.timed import DEFAULT_TIMEOUT_S, check_timeout
from kafka_conformance.terminal.events import ProgressSink

if TYPE_CHECKING:  # building an Options value needs no Hypothesis; the suites import it when they run
    from hypothesis import settings as Settings

__all__ = ["DEFAULT_TIMEOUT_S", "MAX_EXAMPLES", "Options", "seconds"]

MAX_EXAMPLES = 100_000
"""The largest ``max_examples`` any suite takes; the authorizer suite counts it per property, and
larger campaigns are Spark runs (``kafka-conformance fuzz --cases N``)."""


def _path(value: str | Path | None) -> Path | None:
    return None if value is None else Path(value)


def _max_examples(_: object, __: object, value: int | None) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_EXAMPLES):
        raise TargetError(f"max_examples must be a whole number from 0 to {MAX_EXAMPLES}, not {value!r}",
                          Problem.MALFORMED)


def seconds(value: object, where: str = "timeout") -> float:
    """``value`` (a number, or text such as an ini file's) as seconds to wait; a TargetError naming
    ``where`` when it is not a positive number of seconds up to a day."""
    try:
        return check_timeout(value, where)
    except ValueError as exc:
        raise TargetError(str(exc), Problem.MALFORMED) from None


def _timeout(_: object, __: object, value: float | None) -> None:
    if value is None:
        return
    if isinstance(value, (bool, str)):  # seconds() reads text; a value built in Python is a number
        raise TargetError(f"timeout: expected a number of seconds, got {value!r}", Problem.MALFORMED)
    seconds(value)


def _seed(_: object, __: object, value: int | None) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise TargetError(f"seed must be a whole number of 0 or more, not {value!r}", Problem.MALFORMED)


@attrs.frozen(kw_only=True)
class Options:
    """The settings every suite shares; ``Options()`` is each suite's defaults."""

    kafka_version: str | None = None
    """The Apache Kafka release to hold the target to.  None: the target's own release where it
    names one (``kafka:3.9.1``), else :data:`~kafka_conformance.reference.releases.DEFAULT_RELEASE`."""
    seed: int | None = attrs.field(default=None, validator=_seed)
    """Repeats a run exactly.  None: the run draws one and its report says which."""
    max_examples: int | None = attrs.field(default=None, validator=_max_examples)
    """Generated examples after the fixed cases.  None: the suite's own default (per property in
    the authorizer suite, from the active Hypothesis profile; 100 broker cases; 15 producer
    traces; 30 request scenarios; no generated transaction scripts); 0: the fixed cases only."""
    timeout: float | None = attrs.field(default=None, validator=_timeout)
    """Seconds one call into the target may take (default 10): an authorizer's method, a broker's
    answer to one request.  Read by the authorizer and broker suites (the requests and transactions
    suites bound their brokers' answers themselves; the producer suite's clients bring their own)."""
    failures_dir: Path | None = attrs.field(default=None, converter=_path)
    """Where minimal failing cases are saved, and asked again first on the next run.  None: not
    saved.  Read by the authorizer, broker and producer suites."""
    settings: Settings | None = attrs.field(default=None, eq=False)
    """Hypothesis settings the run starts from.  None: the active profile (the user's choice,
    ``--hypothesis-profile`` under pytest).  Read by the authorizer and broker suites; the others
    start from the active profile."""
    progress: ProgressSink | None = attrs.field(default=None, eq=False)
    """Receives :class:`~kafka_conformance.terminal.events.ProgressEvent` values as the run goes;
    the suites never print.  None: no progress."""

    def examples(self, default: int) -> int:
        """``max_examples``, or the suite's ``default`` when none was asked for."""
        return default if self.max_examples is None else self.max_examples

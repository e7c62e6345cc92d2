"""A time bound on every call into an in-process target.

A ``cmd:`` implementation that never answers is stopped by its process's
deadline; a ``python:`` target whose ``authorize`` loops forever has no process
to stop, and without this module the kit would wait for it for ever.  So every
call into an in-process target goes through :func:`call_within`:

* in the main thread (the CLI, pytest, a Spark worker), a ``SIGALRM`` timer
  interrupts the call where it hangs: it costs about 5 µs a call, and the stuck
  code really stops.  The interruption is a ``BaseException``, so an
  ``except Exception`` in the target cannot swallow it; a target that swallows
  even that still has its late answer refused.
* elsewhere (another thread, or a ``SIGALRM`` handler that is not ours), the
  call runs in a worker thread that is abandoned when its time is up.

Either way the caller gets ``AdapterError("timeout", ...)`` and the adapter
refuses every later call: its state is unknown, so the run ends there.  Every call of a
:class:`TimedAdapter` also runs :func:`~kafka_conformance.adapters.sandbox.sandboxed`.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from kafka_conformance.adapters.case import CaseAnswers, CaseRequest, CaseRunner, run_by_calls
from kafka_conformance.adapters.protocol import AdapterError
from kafka_conformance.adapters.sandbox import sandboxed

__all__ = ["DEFAULT_TIMEOUT_S", "MAX_TIMEOUT_S", "TimedAdapter", "call_within", "check_timeout"]

T = TypeVar("T")
DEFAULT_TIMEOUT_S = 10.0
"""How long one call into a target may take by default: generous for an authorizer, whose
answers take microseconds, short enough that a hung target is reported within seconds."""
MAX_TIMEOUT_S = 24 * 3600.0


class _Expired(BaseException):
    """Raised inside the target by the timer: not an Exception, so the target cannot catch it by accident."""


def check_timeout(value: object, where: str = "timeout") -> float:
    """``value`` as a number of seconds the kit can wait: positive, finite, at most a day."""
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"{where}: expected a number of seconds, got {str(value)[:80]!r}") from None
    if not 0 < seconds <= MAX_TIMEOUT_S:
        raise ValueError(f"{where}: expected seconds above 0 and at most {MAX_TIMEOUT_S:g} (a day), got {str(value)[:80]!r}")
    return seconds


def _timeout_error(what: str, seconds: float) -> AdapterError:
    what = what if " " in what or what.endswith(")") else f"{what}()"
    return AdapterError("timeout", f"{what} gave no answer within {seconds:g} s (the --timeout); "
                                   "the kit gave up on the target, whose state is now unknown")


def call_within(fn: Callable[..., T], seconds: float, what: str, *args: Any) -> T:
    """``fn(*args)``, or ``AdapterError("timeout")`` once ``seconds`` have passed."""
    if _alarm_usable():
        return _with_alarm(fn, seconds, what, args)
    return _with_thread(lambda: fn(*args), seconds, what)


_ALARM = {"armed": False, "fired": False}
_MAIN_THREAD = threading.main_thread().ident


def _expire(signum: int, frame: object) -> None:
    """The kit's SIGALRM handler, installed once: it acts only while a call is timed."""
    if _ALARM["armed"]:
        _ALARM["armed"] = False
        _ALARM["fired"] = True
        raise _Expired()


def _alarm_usable() -> bool:
    """In the main thread, with SIGALRM either ours or unused (no handler, no timer armed)."""
    if threading.get_ident() != _MAIN_THREAD or not hasattr(signal, "setitimer"):
        return False
    current = signal.getsignal(signal.SIGALRM)
    if current is _expire:
        return True
    if current in (signal.SIG_DFL, None) and signal.getitimer(signal.ITIMER_REAL)[0] == 0:
        signal.signal(signal.SIGALRM, _expire)
        return True
    return False


def _with_alarm(fn: Callable[..., T], seconds: float, what: str, args: tuple[Any, ...]) -> T:
    if _ALARM["armed"]:  # a timed call inside a timed call: the outer bound holds
        return fn(*args)
    _ALARM["fired"] = False
    _ALARM["armed"] = True
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            result = fn(*args)
        finally:
            _ALARM["armed"] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _Expired:
        raise _timeout_error(what, seconds) from None
    if _ALARM["fired"]:  # the target swallowed the interruption and answered late
        raise _timeout_error(what, seconds)
    return result


def _with_thread(fn: Callable[[], T], seconds: float, what: str) -> T:
    box: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            box.append(fn())
        except BaseException as exc:
            failure.append(exc)

    worker = threading.Thread(target=run, name="kc-timed-call", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise _timeout_error(what, seconds)
    if failure:
        raise failure[0]
    return box[0]


class TimedAdapter:
    """An in-process target with every call bounded by ``timeout`` seconds."""

    def __init__(self, inner: Any, timeout: float) -> None:
        self._inner = inner
        self._timeout = timeout
        self._stuck: str | None = None

    def _call(self, name: str, *args: Any) -> Any:
        if self._stuck is not None:
            raise AdapterError("timeout", f"{name}() not called: {self._stuck}() gave no answer earlier")
        try:
            return call_within(sandboxed, self._timeout, name, getattr(self._inner, name), args, name)
        except AdapterError as exc:
            if exc.kind == "timeout":
                self._stuck = name
            raise

    def capabilities(self) -> Any:
        return self._call("capabilities")

    def configure(self, properties: Mapping[str, str]) -> None:
        self._call("configure", properties)

    def load_snapshot(self, acls: Mapping[str, Any]) -> None:
        self._call("load_snapshot", acls)

    def apply(self, record: Any) -> None:
        self._call("apply", record)

    def complete_initial_load(self) -> None:
        self._call("complete_initial_load")

    def authorize(self, context: Any, actions: Sequence[Any]) -> Any:
        return self._call("authorize", context, actions)

    def authorize_by_resource_type(self, *args: Any) -> Any:
        return self._call("authorize_by_resource_type", *args)

    def acls(self, acl_filter: Any) -> Any:
        return self._call("acls", acl_filter)

    def acl_count(self) -> Any:
        return self._call("acl_count")

    def run_case(self, request: CaseRequest) -> CaseAnswers:
        """A target with a ``run_case`` of its own has the whole case bounded, by the timeout
        once for every call it holds (what the calls one by one would have been allowed); any
        other is run call by call, each call bounded."""
        if not isinstance(self._inner, CaseRunner):
            return run_by_calls(self, request)
        if self._stuck is not None:
            raise AdapterError("timeout", f"run_case() not called: {self._stuck}() gave no answer earlier")
        seconds = self._timeout * max(1, len(request.calls))
        try:
            what = f"the case ({len(request.calls)} calls)"
            return call_within(sandboxed, seconds, what, self._inner.run_case, (request,), what)
        except AdapterError as exc:
            if exc.kind == "timeout":
                self._stuck = "run_case"
            raise

    def close(self) -> None:
        if self._stuck is None:  # a stuck target is not asked again, not even to close
            self._call("close")

    def __getattr__(self, name: str) -> Any:  # optional methods of the protocol, as the target has them
        return getattr(self._inner, name)

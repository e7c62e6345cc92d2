"""What an in-process target may not do to the kit that runs it.

A ``python:`` target shares the kit's interpreter, so without care it could bend the verdict
by accident or on purpose: rewrite the "frozen" ACL objects it is handed (they are the
reference's inputs too), end the run with ``sys.exit(0)`` or ``os._exit(0)`` (exit code 0, no
verdict), raise ``KeyboardInterrupt`` (read as the user's Ctrl-C), move the working directory
(and with it a relative ``--report-json``), or ``fork()`` a child that goes on running the kit.
:func:`sandboxed` runs one call so that none of this reaches the kit:

* a target that rewrites a value it was handed (``object.__setattr__`` on a "frozen" ACL) is
  caught when its call returns (a fingerprint of the arguments before and after), and the run
  refuses every later call: the values are shared with the reference, so no verdict is drawn
  from them (deep copies would cost half again the run's time for every honest target);
* ``SystemExit``, ``GeneratorExit`` and ``os._exit`` during the call are the target's crash;
* ``KeyboardInterrupt`` is the target's crash unless a signal really arrived (the CLI records
  signals, :mod:`~kafka_conformance.adapters.reaper`; where nothing records them, as under
  pytest's own handler, it is left to stop the run as a Ctrl-C would);
* a changed working directory is put back, and the call fails saying so;
* a child forked during the call ends at once (it would run the rest of the kit twice).

What it cannot stop: code that kills the process by other means (a signal to itself, a
segfault in a C extension), threads the target starts (reported when the CLI ends,
:func:`stray_threads`), or changes to global state the kit does not own.  For code you do not
trust, use a ``cmd:`` target: a separate process, killed on timeout.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from kafka_conformance.adapters import reaper
from kafka_conformance.adapters.protocol import AdapterError

__all__ = ["sandboxed", "stray_threads"]

T = TypeVar("T")
_INSIDE = threading.local()


class _TargetExit(BaseException):
    """``os._exit`` called by a target: raised in its place so that the kit survives it."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _refuse_exit(code: int = 0) -> NoReturn:
    if getattr(_INSIDE, "depth", 0):
        raise _TargetExit(code)
    _REAL_EXIT(code)


_REAL_EXIT = os._exit


def _child_after_fork() -> None:
    if getattr(_INSIDE, "depth", 0):  # a fork inside a target's call: the child must not run the kit on
        try:
            sys.stderr.write("kafka-conformance: a python: target forked; its child is stopped (use a cmd: target)\n")
            sys.stderr.flush()
        finally:
            _REAL_EXIT(70)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_child_after_fork)


def sandboxed(fn: Callable[..., T], args: tuple[Any, ...], what: str) -> T:
    """``fn(*args)``, with what the target must not do turned into its own failure."""
    what = what if what.endswith(")") or " " in what else f"{what}()"
    if _TAINTED:
        raise AdapterError("crash", f"{what} not called: {_TAINTED[0]}")
    handed = _fingerprint(args)
    try:
        before = os.getcwd()
    except OSError:
        before = None
    _INSIDE.depth = getattr(_INSIDE, "depth", 0) + 1
    os._exit = _refuse_exit  # type: ignore[assignment]
    try:
        result = fn(*args)
    except (SystemExit, GeneratorExit, _TargetExit) as exc:
        code = exc.code if isinstance(exc, SystemExit | _TargetExit) else None
        how = f"called os._exit({code!r})" if isinstance(exc, _TargetExit) else f"raised {exc!r}"
        raise AdapterError("crash", f"{what} {how}: an in-process target cannot end the run") from None
    except KeyboardInterrupt:
        if reaper.signals_recorded() and not reaper.stop_requested():
            raise AdapterError("crash", f"{what} raised KeyboardInterrupt, and no signal arrived: the target's "
                                        "own exception, not the user's Ctrl-C") from None
        raise
    finally:
        _INSIDE.depth -= 1
        if not _INSIDE.depth:
            os._exit = _REAL_EXIT
        if _fingerprint(args) != handed and not _TAINTED:
            _TAINTED.append(f"{what} changed the values it was handed (frozen ACLs, contexts or records, which the "
                            "reference reads too): nothing the run compares after it can be trusted")
    if _TAINTED:
        raise AdapterError("crash", _TAINTED[0])
    if before is not None and _cwd() != before:
        moved = _cwd()
        os.chdir(before)
        raise AdapterError("crash", f"{what} changed the working directory to {moved!r}; the kit put it back "
                                    f"({before!r}): an in-process target must not move it")
    return result


_TAINTED: list[str] = []
"""Set once a target has changed a value it was handed: the kit's values are shared (interned, and
read by the reference), so every later call of the run is refused rather than judged on them."""


def _fingerprint(value: object) -> int:
    """A hash of everything in ``value`` (the kit's frozen values hash by their fields): computed
    before and after a call, it shows a target that rewrote what it was handed, at a fraction of
    the cost of handing it a deep copy."""
    if isinstance(value, dict):
        return hash(tuple((key, _fingerprint(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return hash(tuple(_fingerprint(item) for item in value))
    try:
        return hash(value)
    except TypeError:
        return id(value)


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


def stray_threads(before: set[int | None]) -> list[threading.Thread]:
    """Threads that would keep the interpreter alive after the run (not daemon, alive, not the
    main thread) and were not running at ``before`` (the idents then): what a target left."""
    return [t for t in threading.enumerate()
            if t.is_alive() and not t.daemon and t is not threading.main_thread() and t.ident not in before]

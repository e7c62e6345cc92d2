"""The CLI's one error path: what the user did wrong, said once, the same way everywhere.

Every user-caused failure reaches :func:`guarded` as a :class:`UsageError` (or as
one of the library's own input errors, listed in :func:`user_errors`) and is
printed as ``kafka-conformance: error: <where>: <what>; <remedy>`` with exit
code 2.  Ctrl-C prints ``interrupted`` (130), SIGTERM ``terminated`` (143), SIGHUP ``hung up`` (129),
after the ``finally`` blocks of the run stopped what it started.  Anything
else is a bug in the kit: the only output that shows a traceback, and it says
so, with exit code 3 so that no script mistakes it for a verdict.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from kafka_conformance.credentials import redact
from kafka_conformance.terminal.text import shown

__all__ = [
    "EXIT_BUG",
    "EXIT_HANGUP",
    "EXIT_INTERRUPTED",
    "EXIT_PIPE",
    "EXIT_TERMINATED",
    "EXIT_USAGE",
    "HungUp",
    "Terminated",
    "UsageError",
    "abbreviate",
    "guarded",
    "user_errors",
]

EXIT_USAGE, EXIT_BUG, EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_PIPE, EXIT_HANGUP = 2, 3, 130, 143, 141, 129

ISSUES_HINT = "please report it with the command line and this output to the kafka-conformance issue tracker"


class UsageError(Exception):
    """Bad input from the user: exit code 2, never a traceback.

    ``where`` is the option, file (with line) or target the problem is in;
    ``remedy`` what to do about it, when the kit knows."""

    def __init__(self, what: str, *, where: str | None = None, remedy: str | None = None) -> None:
        self.what, self.where, self.remedy = what, where, remedy
        super().__init__(self.render())

    def render(self) -> str:
        text = f"{self.where}: {self.what}" if self.where else self.what
        return f"{text}; {self.remedy}" if self.remedy else text


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so that every ``finally`` of the run stops its processes.

    A KeyboardInterrupt, because everything that lets Ctrl-C through must let this through
    (Hypothesis turns any other BaseException raised while it draws into a flaky-strategy
    error)."""


class HungUp(Terminated):
    """SIGHUP (the terminal closed, the ssh session dropped): stopped as SIGTERM stops a run, so
    no broker JVM or Tansu outlives it with its temp folder."""


def abbreviate(text: str, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out: a message must never
    echo a 50 MB input back."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 40]}... ({len(text) - limit + 40} more characters)"


def user_errors() -> tuple[type[BaseException], ...]:
    """The library's exceptions that stand for bad user input (a target spec, a file, a setting).

    Imported here, not at module level, so that ``--help`` stays fast."""
    from kafka_conformance.adapters.clients.protocol import ClientConfigError
    from kafka_conformance.adapters.targets import TargetError
    from kafka_conformance.broker.cases import CaseError
    from kafka_conformance.corpora.parquet_io import PyarrowMissing
    from kafka_conformance.reference.bounded import BoundsError
    from kafka_conformance.reference.errors import AclFileError, AclValueError, ConfigError

    return (UsageError, TargetError, CaseError, ClientConfigError, AclFileError, AclValueError, ConfigError, BoundsError, PyarrowMissing)


@contextlib.contextmanager
def _signals_raise() -> Iterator[None]:
    """While the CLI runs, SIGTERM raises :class:`Terminated` and SIGINT KeyboardInterrupt, and
    each is also recorded (:func:`~kafka_conformance.adapters.reaper.request_stop`), so that
    one swallowed where Python cannot deliver it is raised again at the run's next step.
    SIGINT is left alone where it is ignored (a background job, nohup)."""
    from kafka_conformance.adapters import reaper

    kinds: dict[int, type[BaseException]] = {signal.SIGTERM: Terminated, signal.SIGINT: KeyboardInterrupt}
    if hasattr(signal, "SIGHUP"):
        kinds[signal.SIGHUP] = HungUp

    def handler(signum: int, frame: object) -> None:
        kind = kinds[signum]
        reaper.request_stop(kind)
        # py4j logs the interrupted call, and every call after the JVM is stopped, with a
        # traceback: noise once the user asked the run to stop (and the process ends soon).
        logging.getLogger().addFilter(_quiet_py4j)
        logging.getLogger("py4j").setLevel(logging.CRITICAL + 1)
        raise kind()

    def unraisable(info: Any) -> None:
        # A signal's exception raised inside a garbage-collector callback cannot propagate;
        # it was recorded and is raised again at the next step, so it is not printed here.
        if isinstance(info.exc_value, KeyboardInterrupt):
            return
        previous_hook(info)

    previous_hook = sys.unraisablehook
    sys.unraisablehook = unraisable
    installed = []
    recording = contextlib.ExitStack()
    try:
        for sig in kinds:
            previous = signal.getsignal(sig)
            if sig != signal.SIGTERM and previous == signal.SIG_IGN:  # a background job, nohup
                continue
            signal.signal(sig, handler)
            installed.append((sig, previous))
    except ValueError:  # not the main thread: leave the defaults
        pass
    if any(sig == signal.SIGINT for sig, _ in installed):  # every Ctrl-C is recorded from here on
        recording.enter_context(reaper.recording_signals())
    try:
        yield
    finally:
        recording.close()
        for sig, previous in installed:
            signal.signal(sig, previous)
        sys.unraisablehook = previous_hook
        reaper.clear_stop()


def _quiet_py4j(record: logging.LogRecord) -> bool:
    return f"{os.sep}py4j{os.sep}" not in record.pathname


def guarded(run: Callable[[], int], *, cleanup: Callable[[], None] = lambda: None) -> int:
    """Run one CLI command; map every way it can end to a message and an exit code."""
    try:
        with _signals_raise():
            try:
                return run()
            finally:
                cleanup()
    except KeyboardInterrupt as stop:
        return _stopped(stop)
    except BrokenPipeError:
        return _reader_gone()
    except Exception as exc:
        behind = _signal_behind(exc)
        if behind is not None:  # a library broke while the signal unwound it (py4j mid-command): still the stop
            return _stopped(behind)
        if isinstance(exc, user_errors()):
            _say(abbreviate(exc.render() if isinstance(exc, UsageError) else str(exc), 2000))
            return EXIT_USAGE
        if isinstance(exc, OSError) and exc.filename is not None:  # a path of the user's: full, gone, not a folder
            what = ("a file stands where the kit needs a folder" if isinstance(exc, FileExistsError | NotADirectoryError)
                    else exc.strerror or str(exc))
            _say(abbreviate(f"{exc.filename}: {what}", 2000))
            return EXIT_USAGE
        print("kafka-conformance: internal error: this is a bug in kafka-conformance, not in your "
              f"implementation or input; {ISSUES_HINT}:", file=sys.stderr)
        print(redact(traceback.format_exc()), file=sys.stderr, end="")
        return EXIT_BUG


def _reader_gone() -> int:
    """The command reading our output went away (``| head``): what it wanted it has; say nothing
    more (every later write would fail too, the interpreter's last flush included) and end as a
    process killed by SIGPIPE would, after the run stopped what it started."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return EXIT_PIPE


def _signal_behind(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C or SIGTERM an exception was raised while handling, if any (its context chain)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, KeyboardInterrupt):
            return cause
        cause = cause.__cause__ or cause.__context__
    return None


def _stopped(stop: KeyboardInterrupt) -> int:
    if isinstance(stop, HungUp):
        _say("hung up (SIGHUP); every process the run started was stopped", error=False)
        return EXIT_HANGUP
    if isinstance(stop, Terminated):
        _say("terminated; every process the run started was stopped", error=False)
        return EXIT_TERMINATED
    _say("interrupted; every process the run started was stopped", error=False)
    return EXIT_INTERRUPTED


def _say(message: str, *, error: bool = True) -> None:
    print(f"kafka-conformance: {'error: ' if error else ''}{shown(message)}", file=sys.stderr, flush=True)

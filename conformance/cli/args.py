"""Argument types and checks shared by every command, so that a bad value reads the
same wherever it is given, and an output path that cannot be written is refused before
a run starts (never found after an hour of work).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kafka_conformance.cli.errors import UsageError, abbreviate

if TYPE_CHECKING:
    from kafka_conformance.terminal.choose import ProgressWriter

__all__ = [
    "DEFAULT_FAILURES",
    "add_common_options",
    "count",
    "idempotence_release",
    "output_dir",
    "output_file",
    "progress_for",
    "release",
    "seconds",
    "seed",
    "write_file",
]

DEFAULT_FAILURES = Path("kafka-conformance-failures")
"""Where every suite saves its minimal cases unless told otherwise (one default for all three)."""


def count(low: int, high: int, what: str = "a whole number") -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``."""
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {abbreviate(text, 60)!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {what} from {low} to {high}, got {abbreviate(text, 60)}")
        return value

    parse.__name__ = what
    return parse


def seed(text: str) -> int:
    """A Hypothesis seed: any integer a user would type (at most 40 digits)."""
    stripped = text.strip()
    if len(stripped.lstrip("-")) > 40:
        raise argparse.ArgumentTypeError(f"a seed has at most 40 digits, got {len(stripped)} characters")
    try:
        return int(stripped)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {abbreviate(text, 60)!r}") from None


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds, at most a day."""
    from kafka_conformance.adapters.timed import check_timeout

    try:
        return check_timeout(text, "")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).lstrip(": ")) from None


def release(text: str) -> str:
    """An argparse type: a release of Apache Kafka the reference models (the nearest are named otherwise)."""
    from kafka_conformance.reference.errors import AclValueError
    from kafka_conformance.reference.releases import known_release

    try:
        return str(known_release(text))
    except AclValueError as exc:
        raise argparse.ArgumentTypeError(abbreviate(str(exc), 300)) from None


def idempotence_release(text: str) -> str:
    """An argparse type: a release the idempotence half models (from 0.11.0)."""
    from kafka_conformance.reference.errors import AclValueError
    from kafka_conformance.reference.releases import IDEMPOTENCE_RELEASES, known_release

    try:
        return str(known_release(text, IDEMPOTENCE_RELEASES))
    except AclValueError as exc:
        raise argparse.ArgumentTypeError(abbreviate(str(exc), 300)) from None


def _writable_dir(folder: Path) -> bool:
    probe = folder
    while not probe.exists():  # the nearest existing ancestor decides whether it can be created
        if probe.parent == probe:
            return False
        probe = probe.parent
    return probe.is_dir() and os.access(probe, os.W_OK | os.X_OK)


def output_file(path: Path | None, option: str) -> None:
    """Refuse, before the run, a report file that cannot be written."""
    if path is None:
        return
    try:
        _output_file(path, option)
    except OSError as exc:  # a name too long, a symlink loop, ...: the path itself is unusable
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}", where=option) from None


def _output_file(path: Path, option: str) -> None:
    if path.is_dir():
        raise UsageError(f"{path} is a directory; give a file name", where=option)
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{path} exists and is not writable", where=option)
    if not _writable_dir(path.parent):
        raise UsageError(f"cannot create {path}: its folder cannot be created or written", where=option)


def write_file(path: Path | None, text: str) -> None:
    """Write an output the user named (whole or not at all, passwords masked:
    :func:`~kafka_conformance.outputs.write_output`); a failure is a usage error naming the path."""
    from kafka_conformance.outputs import write_output

    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_output(path, text if text.endswith("\n") else text + "\n")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from exc


def output_dir(path: Path | None, option: str) -> None:
    """Refuse, before the run, an output folder that is a file or cannot be created or written."""
    if path is None:
        return
    try:
        _output_dir(path, option)
    except OSError as exc:
        raise UsageError(f"cannot use {path}: {exc.strerror or exc}", where=option) from None


def _output_dir(path: Path, option: str) -> None:
    if path.exists() and not path.is_dir():
        raise UsageError(f"{path} is a file, not a folder", where=option)
    if path.exists() and not os.access(path, os.W_OK | os.X_OK):
        raise UsageError(f"{path} is not writable", where=option)
    if not path.exists() and not _writable_dir(path):
        raise UsageError(f"cannot create {path}", where=option)


def add_common_options(parser: argparse.ArgumentParser, *, json_what: str = "the report", junit: bool = True,
                       failures: bool = True, quiet: bool = True) -> None:
    """The options every command shares, spelt the same everywhere: ``--report-json FILE``,
    ``--junit-xml FILE``, ``--failures-dir DIR`` (default ``kafka-conformance-failures``) and
    ``--quiet``.  One spelling each: the old ``--json`` and ``--junit`` are gone."""
    parser.add_argument("--report-json", type=Path, metavar="FILE", help=f"write {json_what} as JSON")
    if junit:
        parser.add_argument("--junit-xml", type=Path, metavar="FILE", help=f"write {json_what} as JUnit XML")
    if failures:
        parser.add_argument("--failures-dir", type=Path, default=DEFAULT_FAILURES, metavar="DIR",
                            help="where minimal counterexamples are saved for 'kafka-conformance replay' "
                                 "(default: %(default)s)")
    if quiet:
        parser.add_argument("--quiet", action="store_true",
                            help="no progress on stderr (progress is live on a terminal, plain lines every few "
                                 "seconds when piped; NO_COLOR gives plain lines on a terminal too)")


def progress_for(args: argparse.Namespace) -> ProgressWriter:
    """The progress writer for a command's ``--quiet`` (see :mod:`kafka_conformance.terminal.choose`)."""
    from kafka_conformance.terminal.choose import progress_writer

    return progress_writer(quiet=bool(getattr(args, "quiet", False)))

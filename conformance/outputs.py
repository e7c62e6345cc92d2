"""Writing a file the user reads: whole or not at all, and never with a password in it.

Every report, saved case, regression file and ``--report-json`` the kit writes goes through
:func:`write_output`.  The text is written to a private temporary file beside its destination
and renamed over it, so a full disk, a kill or a crash mid-write leaves the old file or none,
never a truncated one that a later run (``--baseline``, ``replay``) would read as valid; and it
is passed through :func:`~kafka_conformance.credentials.redact` first, so a password that
reached a message by any path is masked in the file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from kafka_conformance.credentials import redact

__all__ = ["write_output"]


def write_output(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; an OSError propagates with nothing left behind."""
    target = Path(path)
    # A lone surrogate (from a target's message) cannot be UTF-8: written as its \\uXXXX escape,
    # which JSON reads back as the same character and any other reader sees as text.
    data = redact(text).encode("utf-8", errors="backslashreplace")
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:64]}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return target


def _umask() -> int:
    """The process's umask (read by setting it, then put back): mkstemp's files are 0600, which
    would make a report unreadable to the user's other tools where a plain write gives 0644."""
    mask = os.umask(0)
    os.umask(mask)
    return mask

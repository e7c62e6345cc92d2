"""Kafka's jars from Maven, the Java ecosystem's way, pinned by a lock kept in the repository.

Why Maven: a Kafka release's runtime classpath is what its own POM declares
(``kafka-metadata`` brings ``kafka-clients``, ``kafka-server-common``,
pcollections...; ``kafka_2.13`` brings Scala and ZooKeeper).  Resolving it with
``mvn dependency:copy-dependencies`` from the project's one POM
(``adapters/jvm/maven/pom.xml``) gives exactly that list, from Maven Central or
whatever mirror the user's ``~/.m2/settings.xml`` names.

Why a lock: the kit judges implementations with these jars, so it must run the
bytes it was validated with.  ``jars.lock.json`` (beside the POM) holds, for each
root coordinate, every jar's coordinate and SHA-256.  A fetch that yields one
jar more, one less, or one different byte is refused.  Maintainers add a set
with ``kafka-conformance fetch --update-lock``.

The jars land in a cache outside the work tree (``~/.cache/kafka-conformance/jars``
or ``$KAFKA_CONFORMANCE_JAR_CACHE``), one directory per set, and a set is used
from there without Maven once verified: fetching is idempotent and works offline
once the cache is filled.  Nothing here is ever committed but the POM and the lock.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

__all__ = [
    "JAR_CACHE_ENV",
    "Artifact",
    "JarError",
    "cache_dir",
    "cached_jars",
    "fetch_artifact",
    "load_lock",
    "lock_file",
    "resolve_user_artifact",
    "sha256",
]

JAR_CACHE_ENV = "KAFKA_CONFORMANCE_JAR_CACHE"
LOCK_FORMAT = "kafka-conformance/jars-lock"
_MVN_TIMEOUT_S = 1200
"""A first fetch of ``kafka_2.13`` downloads about 60 MB; a stalled mirror ends in an error, not a hang."""
_VERIFIED_MARK = ".verified"


class JarError(RuntimeError):
    """Jars that cannot be had or do not match the lock; the message says what to do."""


@attrs.frozen
class Artifact:
    """A root Maven coordinate: everything its POM declares at runtime comes with it."""

    group: str
    artifact: str
    version: str

    @property
    def coordinate(self) -> str:
        return f"{self.group}:{self.artifact}:{self.version}"

    @property
    def directory_name(self) -> str:
        return f"{self.artifact}-{self.version}"

    def __str__(self) -> str:
        return self.coordinate

    @classmethod
    def parse(cls, text: str) -> Artifact:
        """``GROUP:ARTIFACT:VERSION``; ValueError naming what is wrong."""
        parts = text.strip().split(":")
        if len(parts) != 3 or not all(_COORDINATE_PART.fullmatch(p) for p in parts):
            raise ValueError(f"{text.strip()!r} is not a Maven coordinate GROUP:ARTIFACT:VERSION, "
                             "e.g. com.example:my-authorizer:1.0")
        return cls(*parts)


_COORDINATE_PART = re.compile(r"[A-Za-z0-9_.+-]+")


def cache_dir() -> Path:
    configured = os.environ.get(JAR_CACHE_ENV)
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "kafka-conformance" / "jars"


_SUMS: dict[tuple[str, int, int], str] = {}


def sha256(path: Path) -> str:
    """SHA-256 of a file, memoised per (path, size, mtime) within the process."""
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _SUMS:
        digest = hashlib.sha256()
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        _SUMS[key] = digest.hexdigest()
    return _SUMS[key]


def _maven_folder() -> Path:
    return Path(str(resources.files("kafka_conformance.adapters.jvm") / "maven"))


def lock_file() -> Path:
    return _maven_folder() / "jars.lock.json"


def load_lock(path: Path | None = None) -> dict[str, dict[str, str]]:
    """Root coordinate -> {jar coordinate: SHA-256}."""
    where = path or lock_file()
    try:
        body = json.loads(where.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise JarError(f"{where}: cannot read the jar lock: {exc}") from exc
    if not isinstance(body, dict) or body.get("format") != LOCK_FORMAT or not isinstance(body.get("sets"), dict):
        raise JarError(f"{where}: not a kafka-conformance jar lock")
    return {str(k): {str(c): str(s) for c, s in v.items()} for k, v in body["sets"].items()}


def _write_lock(sets: dict[str, dict[str, str]], path: Path | None = None) -> None:
    where = path or lock_file()
    body = {
        "format": LOCK_FORMAT,
        "comment": "Every jar of each fetched set, by Maven coordinate, with its SHA-256. "
                   "Written by `kafka-conformance fetch --update-lock`; checked after every fetch.",
        "sets": {k: dict(sorted(v.items())) for k, v in sorted(sets.items())},
    }
    partial = where.with_suffix(".partial")
    partial.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, where)


def _jar_coordinate(root: Path, jar: Path) -> str:
    """``group:artifact:version[:classifier]`` from a jar's place in Maven's repository layout."""
    parts = jar.relative_to(root).parts
    if len(parts) < 4:
        raise JarError(f"{jar}: not in Maven's repository layout under {root}")
    version, artifact = parts[-2], parts[-3]
    group = ".".join(parts[:-3])
    stem = jar.name[: -len(".jar")]
    prefix = f"{artifact}-{version}"
    classifier = stem[len(prefix) + 1:] if stem.startswith(prefix + "-") else ""
    return f"{group}:{artifact}:{version}" + (f":{classifier}" if classifier else "")


def _sums(root: Path) -> dict[str, str]:
    return {_jar_coordinate(root, jar): sha256(jar) for jar in sorted(root.rglob("*.jar"))}


def _compare(artifact: Artifact, found: dict[str, str], locked: dict[str, str], where: Path) -> None:
    missing = sorted(set(locked) - set(found))
    extra = sorted(set(found) - set(locked))
    changed = sorted(c for c in set(found) & set(locked) if found[c] != locked[c])
    if missing or extra or changed:
        lines = [f"the jars of {artifact} in {where} do not match the kit's lock ({lock_file()}):"]
        lines += [f"  missing: {c}" for c in missing]
        lines += [f"  not in the lock: {c}" for c in extra]
        lines += [f"  SHA-256 differs: {c}: got {found[c]}, locked {locked[c]}" for c in changed]
        lines.append(f"refusing to run unknown bytes; delete {where} and fetch again, "
                     "or check the Maven mirror in ~/.m2/settings.xml")
        raise JarError("\n".join(lines))


def cached_jars(artifact: Artifact, *, cache: Path | None = None) -> tuple[Path, ...] | None:
    """The verified jars of a fetched set (classpath order: sorted by path), or None if not fetched.

    Raises JarError when the cache holds jars that do not match the lock."""
    where = (cache or cache_dir()) / "maven" / artifact.directory_name
    if not (where / _VERIFIED_MARK).is_file():
        return None
    locked = load_lock().get(artifact.coordinate)
    if locked is None:
        raise JarError(f"{artifact} is in the cache ({where}) but not in the kit's lock ({lock_file()}); "
                       "a maintainer adds it with: kafka-conformance fetch --update-lock")
    _compare(artifact, _sums(where), locked, where)
    return tuple(sorted(where.rglob("*.jar")))


def mvn_tool() -> str | None:
    home = os.environ.get("MAVEN_HOME") or os.environ.get("M2_HOME")
    if home and Path(home, "bin", "mvn").is_file():
        return str(Path(home, "bin", "mvn"))
    return shutil.which("mvn")


def _copy_dependencies(artifact: Artifact, staging: Path, hint: str) -> Path:
    """``artifact`` and its runtime dependencies, in Maven's repository layout under ``staging/jars``,
    resolved with the kit's one POM; JarError with Maven's last lines when it cannot."""
    mvn = mvn_tool()
    if mvn is None:
        raise JarError("Maven (mvn) not found: install Maven 3.8+ (Debian: apt-get install maven) or set MAVEN_HOME")
    shutil.copy(_maven_folder() / "pom.xml", staging / "pom.xml")
    jars = staging / "jars"
    command = [mvn, "-q", "-B", "-f", str(staging / "pom.xml"), "dependency:copy-dependencies",
               f"-DoutputDirectory={jars}", "-Dmdep.useRepositoryLayout=true",
               f"-Dkc.group={artifact.group}", f"-Dkc.artifact={artifact.artifact}",
               f"-Dkc.version={artifact.version}"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=_MVN_TIMEOUT_S,
                              cwd=staging, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        raise JarError(f"mvn did not finish resolving {artifact} within {_MVN_TIMEOUT_S} s") from exc
    if done.returncode != 0 or not jars.is_dir():
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-12:])
        raise JarError(f"mvn could not resolve {artifact} (exit {done.returncode}); {hint}\n{tail}")
    return jars


def resolve_user_artifact(artifact: Artifact, *, cache: Path | None = None) -> tuple[Path, ...]:
    """The jars of a user's own artifact (``maven=`` of a ``jvm:`` target) and of its runtime
    dependencies, resolved with Maven as Kafka's jars are, from the user's repositories
    (``mvn install`` puts a build into the local one).

    Not held to the kit's lock: the lock pins the judge, and this is the code under test.
    Resolved afresh on every use, so a SNAPSHOT rebuilt between two runs is the one each runs;
    ``provided`` dependencies (Kafka's own jars, as a plugin declares them) never come with
    it.  Checked: Maven's answer holds the artifact's own jar."""
    folder = (cache or cache_dir()) / "user"
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{artifact.directory_name}.", dir=folder))
    try:
        jars = _copy_dependencies(artifact, staging, "build and install it first (mvn install), or check the "
                                  "repositories in ~/.m2/settings.xml")
        own = jars.joinpath(*artifact.group.split("."), artifact.artifact, artifact.version)
        if not any(own.glob("*.jar")):
            raise JarError(f"mvn resolved {artifact} but gave no jar of it (is its packaging jar?)")
        # Named by what it holds: a run (or a Spark worker) never replaces jars another one is using;
        # the same build resolved twice lands in the same folder.
        digest = hashlib.sha256(json.dumps(_sums(jars), sort_keys=True).encode()).hexdigest()[:16]
        where = folder / f"{artifact.group}_{artifact.directory_name}_{digest}"
        if not where.is_dir():
            try:
                os.replace(jars, where)
            except OSError as exc:
                if not where.is_dir():  # not a concurrent twin: a real failure to store the jars
                    raise JarError(f"cannot keep the jars of {artifact} in {where}: {exc}") from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return tuple(sorted(where.rglob("*.jar")))


def fetch_artifact(
    artifact: Artifact, *, cache: Path | None = None, update_lock: bool = False,
    log: Callable[[str], Any] = lambda _: None,
) -> tuple[Path, ...]:
    """The verified jars of ``artifact``, resolved with Maven if they are not cached yet."""
    root = cache or cache_dir()
    if not update_lock:
        already = cached_jars(artifact, cache=root)
        if already is not None:
            return already
        if artifact.coordinate not in load_lock():
            raise JarError(f"{artifact} is not in the kit's lock ({lock_file()}): this release is not one the kit "
                           "has pinned; a maintainer adds it with: kafka-conformance fetch --update-lock")
    where = root / "maven" / artifact.directory_name
    (root / "maven").mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{artifact.directory_name}.", dir=root / "maven"))
    try:
        log(f"resolving {artifact} with Maven ...")
        jars = _copy_dependencies(artifact, staging, "is this release served by your Maven repository?")
        sums = _sums(jars)
        if update_lock:
            sets = load_lock()
            sets[artifact.coordinate] = sums
            _write_lock(sets)
            log(f"locked {artifact}: {len(sums)} jars")
        else:
            _compare(artifact, sums, load_lock()[artifact.coordinate], jars)
        (jars / _VERIFIED_MARK).write_text(artifact.coordinate + "\n", encoding="utf-8")
        if where.exists():
            shutil.rmtree(where)
        os.replace(jars, where)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    found_jars = cached_jars(artifact, cache=root)
    if found_jars is None:  # pragma: no cover - written just above
        raise JarError(f"{where}: the fetched set disappeared")
    return found_jars

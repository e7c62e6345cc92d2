"""Building the kit's Go programs into a cache outside the source tree, once per source version.

The Go module beside this file (``go.mod``, ``go.sum``, ``cmd/*``, ``internal/*``)
is compiled with the machine's own ``go`` into
``~/.cache/kafka-conformance/go/<hash of the sources>/`` (``KAFKA_CONFORMANCE_GO_CACHE``
moves it), so a checkout or an installed wheel never gets build output written
into it, and a changed source gets a fresh directory.  Modules come through the
Go toolchain's own ``go mod download`` path, checked against ``go.sum``
(``-mod=readonly``: a build never rewrites our ``go.mod``).

Three outcomes, each a clear message: no ``go`` on the PATH (:class:`GoUnavailable`,
naming the fix), a build that fails (:class:`GoBuildError`, quoting the
compiler), or the programs' paths.  Builds are serialised by a lock file, so two
processes that both build on first use do not race; every ``go`` call has a timeout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from kafka_conformance.adapters.toolcache import cache_root as _cache_root
from kafka_conformance.adapters.toolcache import digest, locked

__all__ = [
    "CACHE_ENV",
    "PROGRAMS",
    "SOURCES_ENV",
    "GoBuildError",
    "GoUnavailable",
    "build_programs",
    "cache_root",
    "cached_program",
    "go_tool",
    "program",
    "source_hash",
    "sources_dir",
]

CACHE_ENV = "KAFKA_CONFORMANCE_GO_CACHE"
SOURCES_ENV = "KAFKA_CONFORMANCE_GO_SOURCES"
"""Build from another copy of the Go module (maintainers and tests; the default is the one shipped with the kit)."""
PROGRAMS: dict[str, str] = {"kfake": "kfake-broker", "franz-go": "franz-go-producer", "sarama": "sarama-producer"}
"""What ``kafka-conformance fetch`` names → the program under ``cmd/``."""
BUILD_TIMEOUT_S = 900.0
"""The first build downloads the modules (a few MB) and compiles them: minutes on a slow machine."""
VERSION_TIMEOUT_S = 30.0
FIX = "install Go 1.26 or newer and put its bin directory on PATH (or set GOROOT)"


class GoUnavailable(RuntimeError):
    """No Go toolchain here; the message says how to get one."""


class GoBuildError(RuntimeError):
    """``go build`` failed or timed out; the message quotes the compiler."""


def sources_dir() -> Path:
    configured = os.environ.get(SOURCES_ENV)
    return Path(configured).expanduser() if configured else Path(__file__).resolve().parent


def cache_root() -> Path:
    return _cache_root("go", CACHE_ENV)


def _source_files(root: Path) -> list[Path]:
    files = [root / "go.mod", root / "go.sum"]
    files += sorted(p for p in root.rglob("*.go") if p.is_file())
    return [p for p in files if p.is_file()]


def source_hash(root: Path | None = None) -> str:
    """A digest of go.mod, go.sum and every .go file (paths and contents): the cache key."""
    root = root or sources_dir()
    return digest(root, _source_files(root))


def go_tool() -> str:
    """The ``go`` command to use; :class:`GoUnavailable` if there is none."""
    found = shutil.which("go")
    if found is None and os.environ.get("GOROOT"):
        candidate = Path(os.environ["GOROOT"]) / "bin" / "go"
        found = str(candidate) if candidate.is_file() and os.access(candidate, os.X_OK) else None
    if found is None:
        raise GoUnavailable(f"the Go toolchain (go) is not on PATH: {FIX}")
    return found


def _build_dir(root: Path) -> Path:
    return cache_root() / source_hash(root)


def cached_program(name: str, root: Path | None = None) -> Path | None:
    """The built program for ``name`` (a key of :data:`PROGRAMS`) if it is in the cache."""
    path = _build_dir(root or sources_dir()) / PROGRAMS[name]
    return path if path.is_file() and os.access(path, os.X_OK) else None


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # Never touch a go.work of the user's, never rewrite go.mod, never fetch another toolchain.
    env.update({"GOWORK": "off", "GOFLAGS": "-mod=readonly -buildvcs=false", "GOTOOLCHAIN": "local", "CGO_ENABLED": "0"})
    return env


def _go_version(go: str) -> str:
    try:
        done = subprocess.run([go, "version"], capture_output=True, text=True, timeout=VERSION_TIMEOUT_S, env=_env())
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GoUnavailable(f"{go} did not run ({exc}): {FIX}") from exc
    if done.returncode != 0:
        raise GoUnavailable(f"{go} version failed: {done.stderr.strip()[-500:]}: {FIX}")
    return done.stdout.strip()


def build_programs(names: Iterable[str] | None = None, *, root: Path | None = None) -> dict[str, Path]:
    """Build the named programs (all by default) unless cached; their paths.

    Raises :class:`GoUnavailable` without a toolchain and :class:`GoBuildError` with
    the compiler's own message when the build fails."""
    root = root or sources_dir()
    wanted = list(PROGRAMS) if names is None else list(names)
    unknown = [n for n in wanted if n not in PROGRAMS]
    if unknown:
        raise ValueError(f"no Go program {', '.join(unknown)}; known: {', '.join(PROGRAMS)}")
    found = {n: cached_program(n, root) for n in wanted}
    if all(found.values()):
        return {n: p for n, p in found.items() if p is not None}
    if not (root / "go.mod").is_file():
        raise GoBuildError(f"no Go module at {root} (go.mod missing)")
    go = go_tool()
    version = _go_version(go)
    target = _build_dir(root)
    with locked(target.parent):
        missing = [n for n in wanted if cached_program(n, root) is None]
        if missing:
            staging = Path(tempfile.mkdtemp(prefix=".building-", dir=target.parent))
            try:
                packages = [f"./cmd/{PROGRAMS[n]}" for n in missing]
                _run_build(go, root, staging, packages)
                target.mkdir(parents=True, exist_ok=True)
                for name in missing:
                    os.replace(staging / PROGRAMS[name], target / PROGRAMS[name])
                (target / "go-version.txt").write_text(version + "\n", encoding="utf-8")
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    out = {}
    for name in wanted:
        path = cached_program(name, root)
        if path is None:
            raise GoBuildError(f"go build reported success but {PROGRAMS[name]} is not in {target}")
        out[name] = path
    return out


def _run_build(go: str, root: Path, staging: Path, packages: list[str]) -> None:
    command = [go, "build", "-trimpath", "-o", str(staging) + os.sep, *packages]
    try:
        done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S, env=_env(),
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        raise GoBuildError(f"go build of {root} did not finish in {BUILD_TIMEOUT_S:.0f} s") from exc
    except OSError as exc:
        raise GoUnavailable(f"{go} could not run ({exc}): {FIX}") from exc
    if done.returncode != 0:
        message = (done.stderr or done.stdout).strip()
        if len(message) > 4000:
            message = "...\n" + message[-4000:]
        raise GoBuildError(f"go build failed in {root} (exit {done.returncode}):\n{message}")


def program(name: str) -> Path:
    """The path of a built program, building it on first use."""
    return build_programs([name])[name]

"""Installing the kit's Node.js producer runners into a cache outside the source tree, once per source version.

The runners (``*.mjs``) and their pinned dependencies (``package.json`` and
``package-lock.json``, checked by integrity hash) are copied to
``~/.cache/kafka-conformance/node/<digest of those files>/`` (``KAFKA_CONFORMANCE_NODE_CACHE``
moves it) and installed there with ``npm ci --ignore-scripts``: the exact tree
the lock file names, no install script of any package run, and a checkout or an
installed wheel never written into.  A changed runner or lock gets a fresh
directory.

Three outcomes, each a clear message: no ``node``/``npm`` on the PATH
(:class:`NodeUnavailable`, naming the fix), an install that fails
(:class:`NodeInstallError`, quoting npm), or the runner's path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from kafka_conformance.adapters.toolcache import cache_root as _cache_root
from kafka_conformance.adapters.toolcache import digest, locked

__all__ = [
    "CACHE_ENV",
    "MIN_NODE",
    "RUNNERS",
    "NodeInstallError",
    "NodeUnavailable",
    "cache_root",
    "install",
    "installed_runner",
    "node_major",
    "node_tool",
    "runner",
    "sources_dir",
]

CACHE_ENV = "KAFKA_CONFORMANCE_NODE_CACHE"
RUNNERS: dict[str, str] = {"kafkajs": "kafkajs-producer.mjs", "platformatic": "platformatic-producer.mjs"}
"""What ``kafka-conformance fetch`` and ``--client`` name → the runner script."""
INSTALL_TIMEOUT_S = 600.0
FIX = "install Node.js 20 or newer with npm and put them on PATH"
_DONE = ".installed"


class NodeUnavailable(RuntimeError):
    """No Node.js or npm here; the message says how to get them."""


class NodeInstallError(RuntimeError):
    """``npm ci`` failed or timed out; the message quotes npm."""


def sources_dir() -> Path:
    return Path(__file__).resolve().parent


def cache_root() -> Path:
    return _cache_root("node", CACHE_ENV)


def _source_files(root: Path) -> list[Path]:
    return [root / "package.json", root / "package-lock.json", *sorted(root.glob("*.mjs"))]


def _install_dir(root: Path) -> Path:
    return cache_root() / digest(root, _source_files(root))


def node_tool(name: str = "node") -> str:
    """The ``node`` (or ``npm``) command to use; :class:`NodeUnavailable` if there is none."""
    found = shutil.which(name)
    if found is None:
        raise NodeUnavailable(f"{name} is not on PATH: {FIX}")
    return found


MIN_NODE = 20
"""The oldest Node.js the runners are run on (KafkaJS needs 14; @platformatic/kafka 2.12.1 declares 22.22,
and its callback API, which the runner uses, runs on 20: the kit's runs are on 20.20.2)."""


def node_major(node: str) -> int:
    """The major version of ``node``; :class:`NodeUnavailable` if it cannot tell or it is too old."""
    try:
        done = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        major = int(done.stdout.strip().lstrip("v").split(".")[0])
    except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
        raise NodeUnavailable(f"{node} --version did not say its version ({exc}): {FIX}") from exc
    if major < MIN_NODE:
        raise NodeUnavailable(f"{node} is Node.js {done.stdout.strip()}; the runners need {MIN_NODE} or newer: {FIX}")
    return major


def installed_runner(client: str, root: Path | None = None) -> Path | None:
    """The runner script for ``client`` (a key of :data:`RUNNERS`) if its install is complete in the cache."""
    directory = _install_dir(root or sources_dir())
    script = directory / RUNNERS[client]
    return script if (directory / _DONE).is_file() and script.is_file() else None


def install(root: Path | None = None) -> Path:
    """Install the runners and their locked dependencies unless already in the cache; the directory."""
    root = root or sources_dir()
    target = _install_dir(root)
    if (target / _DONE).is_file():
        return target
    npm = node_tool("npm")
    node_major(node_tool("node"))
    with locked(target.parent):
        if (target / _DONE).is_file():
            return target
        staging = Path(tempfile.mkdtemp(prefix=".installing-", dir=target.parent))
        try:
            for path in _source_files(root):
                shutil.copy2(path, staging / path.name)
            _npm_ci(npm, staging)
            (staging / _DONE).write_text("npm ci --ignore-scripts\n", encoding="utf-8")
            shutil.rmtree(target, ignore_errors=True)
            os.replace(staging, target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return target


def _npm_ci(npm: str, directory: Path) -> None:
    command = [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--omit=dev", "--loglevel=error"]
    env = {**os.environ, "npm_config_update_notifier": "false"}
    try:
        done = subprocess.run(command, cwd=directory, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S,
                              env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        raise NodeInstallError(f"npm ci did not finish in {INSTALL_TIMEOUT_S:.0f} s") from exc
    except OSError as exc:
        raise NodeUnavailable(f"{npm} could not run ({exc}): {FIX}") from exc
    if done.returncode != 0:
        message = (done.stderr or done.stdout).strip()
        if len(message) > 4000:
            message = "...\n" + message[-4000:]
        raise NodeInstallError(f"npm ci failed (exit {done.returncode}):\n{message}")


def runner(client: str) -> Path:
    """The runner script for ``client``, installing on first use."""
    return install() / RUNNERS[client]

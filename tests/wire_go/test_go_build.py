"""Building the Go programs: a cache outside the sources, and a clear error for each bad input."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.go.build import (
    CACHE_ENV,
    SOURCES_ENV,
    GoBuildError,
    GoUnavailable,
    build_programs,
    source_hash,
    sources_dir,
)


def _copy_sources(tmp_path: Path) -> Path:
    copy = tmp_path / "go-sources"
    shutil.copytree(sources_dir(), copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return copy


def _no_go_env(tmp_path: Path) -> dict[str, str]:
    empty = tmp_path / "bin"
    empty.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "GOROOT"}
    env.update({"PATH": str(empty), CACHE_ENV: str(tmp_path / "cache")})
    return env


def test_no_toolchain_names_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in _no_go_env(tmp_path).items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("GOROOT", raising=False)
    with pytest.raises(GoUnavailable, match=r"not on PATH: install Go 1\.26 or newer"):
        build_programs(["kfake"])


@pytest.mark.parametrize("argv", [["fetch", "kfake", "franz-go", "sarama"], ["check", "broker", "--target", "kfake"],
                                  ["check", "producer", "--client", "sarama", "--broker", "test-broker", "--max-examples", "1"],
                                  ["check", "matrix", "--client", "kafka-python", "--broker", "kfake-cluster", "--row", "7"]])
def test_no_toolchain_on_the_command_line_is_a_usage_error(tmp_path: Path, argv: list[str]) -> None:
    env = _no_go_env(tmp_path)
    done = subprocess.run([sys.executable, "-m", "kafka_conformance.cli.main", *argv], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "the Go toolchain (go) is not on PATH" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr, done.stderr


def test_a_broken_build_shows_the_compilers_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        from kafka_conformance.adapters.go.build import go_tool

        go_tool()
    except GoUnavailable as exc:
        pytest.skip(str(exc))
    copy = _copy_sources(tmp_path)
    main = copy / "cmd" / "kfake-broker" / "main.go"
    main.write_text(main.read_text().replace("func main() {", "func main() {\n\tthis is not go\n", 1))
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    with pytest.raises(GoBuildError) as caught:
        build_programs(["kfake"], root=copy)
    message = str(caught.value)
    assert "go build failed" in message and "main.go:" in message and "syntax error" in message, message
    assert not list((tmp_path / "cache").rglob("kfake-broker")), "a failed build left a program in the cache"

    # Through the command line, with the sources moved by the environment: exit 2 and the compiler's words.
    env = {**os.environ, CACHE_ENV: str(tmp_path / "cache"), SOURCES_ENV: str(copy)}
    done = subprocess.run([sys.executable, "-m", "kafka_conformance.cli.main", "fetch", "kfake"], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 2 and "syntax error" in done.stderr, done.stdout + done.stderr


def test_the_cache_key_follows_the_sources_and_the_build_writes_nothing_beside_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, go_programs: dict[str, Path]) -> None:
    copy = _copy_sources(tmp_path)
    before = sorted(p.relative_to(copy) for p in copy.rglob("*"))
    assert source_hash(copy) == source_hash(sources_dir())
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    built = build_programs(["kfake"], root=copy)
    assert built["kfake"].parent.parent == tmp_path / "cache"
    assert sorted(p.relative_to(copy) for p in copy.rglob("*")) == before
    (copy / "internal" / "runner" / "runner.go").write_text((copy / "internal" / "runner" / "runner.go").read_text() + "\n// changed\n")
    assert source_hash(copy) != source_hash(sources_dir())
    assert go_programs["kfake"].parent.name == source_hash(sources_dir())

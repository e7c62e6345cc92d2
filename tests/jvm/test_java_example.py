"""The Java team's walk (issue 29), as ``examples/java_authorizer/README.md`` tells it: build the
jar with Maven, print Kafka 4.3.1's classpath with the kit, check the buggy authorizer (a red
run, on every seed tried), apply the fix the README shows, build again, check again (green).
Everything through the ``kafka-conformance`` command, as a user types it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kafka_conformance.adapters.jvm.session import unavailable_reason

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "java_authorizer"
SOURCE = Path("src/main/java/com/example/CachingAuthorizer.java")
JAR = "target/caching-authorizer-1.0.jar"

_WHY_NOT = unavailable_reason() or (None if shutil.which("mvn") else "Maven (mvn) is not installed")
pytestmark = pytest.mark.skipif(_WHY_NOT is not None, reason=f"the Java walk cannot run here: {_WHY_NOT}")


def kit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kafka_conformance.cli.main", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=900, check=False)


def build(project: Path) -> None:
    done = subprocess.run(["mvn", "-q", "-B", "package"], cwd=project, text=True, capture_output=True, timeout=900,
                          check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (project / JAR).is_file()


def readme_fix() -> str:
    """The Java code the README's third step adds."""
    text = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    return text.split("```java\n", 1)[1].split("```", 1)[0]


def test_a_java_team_goes_from_a_maven_project_to_a_red_run_and_a_green_one(tmp_path: Path) -> None:
    project = tmp_path / "java_authorizer"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("target"))
    build(project)

    listed = kit("classpath", "kafka:4.3.1", cwd=project)
    assert listed.returncode == 0, listed.stderr
    classpath = listed.stdout.strip()
    jars = classpath.split(os.pathsep)
    assert len(jars) > 5 and all(Path(j).is_absolute() and Path(j).is_file() for j in jars)
    assert any(Path(j).name == "kafka-metadata-4.3.1.jar" for j in jars)

    target = f"jvm:com.example.CachingAuthorizer,jar={JAR},classpath={classpath}"
    for seed in ("0", "1", "2"):
        red = kit("check", "authorizer", "--target", target, "--seed", seed, cwd=project)
        assert red.returncode == 1, red.stdout[-3000:] + red.stderr[-3000:]
        assert "FAILED  records" in red.stdout
        # read short: the class and its jar, never the kilobytes of classpath; the release it runs on
        assert "verdict: diverges — jvm:CachingAuthorizer (caching-authorizer-1.0.jar), Kafka standard@4.3.1" in red.stdout
        assert classpath not in red.stdout
    saved = sorted((project / "kafka-conformance-failures").glob("records-*.json"))
    assert saved, "the failing case is saved"
    assert "--trust-saved-target" in red.stdout  # the replay command it prints: the file names code to run
    replayed = subprocess.run([sys.executable, "-m", "kafka_conformance.cli.main", "replay", str(saved[0]),
                               "--trust-saved-target"], cwd=project,
                              text=True, capture_output=True, timeout=600, check=False,
                              env={k: v for k, v in os.environ.items() if k != "KAFKA_CONFORMANCE_CLASSPATH"})
    assert replayed.returncode == 1 and "FAILED" in replayed.stdout, replayed.stdout + replayed.stderr

    source = project / SOURCE
    text = source.read_text(encoding="utf-8")
    end = text.rindex("}")
    source.write_text(text[:end] + readme_fix() + text[end:], encoding="utf-8")
    build(project)
    green = kit("check", "authorizer", "--target", target, "--seed", "1", cwd=project)
    assert green.returncode == 0, green.stdout[-3000:] + green.stderr[-3000:]
    assert "verdict: conforms" in green.stdout


def test_a_java_team_names_its_build_by_maven_coordinate(tmp_path: Path) -> None:
    """``maven=GROUP:ARTIFACT:VERSION``: the authorizer ``mvn install`` put in the local repository,
    resolved by the kit with Maven (under a group of its own, removed afterwards), red as from its jar."""
    group = f"com.example.kctest{os.getpid()}"
    installed = Path.home() / ".m2" / "repository" / Path(*group.split("."))
    project = tmp_path / "java_authorizer"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("target"))
    pom = project / "pom.xml"
    pom.write_text(pom.read_text(encoding="utf-8").replace("<groupId>com.example</groupId>", f"<groupId>{group}</groupId>", 1),
                   encoding="utf-8")
    try:
        done = subprocess.run(["mvn", "-q", "-B", "install"], cwd=project, text=True, capture_output=True, timeout=900,
                              check=False)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        classpath = kit("classpath", "kafka:4.3.1", cwd=project).stdout.strip()
        target = f"jvm:com.example.CachingAuthorizer,maven={group}:caching-authorizer:1.0,classpath={classpath}"
        red = kit("check", "authorizer", "--target", target, "--seed", "0", cwd=tmp_path)
        assert red.returncode == 1, red.stdout[-3000:] + red.stderr[-3000:]
        assert "FAILED  records" in red.stdout

        wrong = kit("check", "authorizer", "--target", f"jvm:com.example.CachingAuthorizer,maven={group}:no-such:1.0",
                    cwd=tmp_path)
        assert wrong.returncode == 2 and f"maven={group}:no-such:1.0" in wrong.stderr and "mvn install" in wrong.stderr
    finally:
        shutil.rmtree(installed, ignore_errors=True)

"""``kafka-conformance fetch``: the jars real-Kafka targets need, from Maven, checked against the lock;
the kit's Go programs (``kfake``, ``franz-go``, ``sarama``), built with the machine's ``go``; and the
kit's Node.js producers (``kafkajs``, ``platformatic``), installed with the machine's ``npm ci`` from the lock.

Idempotent: a set already in the cache and matching the lock is reported and
left alone, so the command works offline once the cache is filled.  Maintainers
pin a new release with ``--update-lock`` (it rewrites ``jars.lock.json`` in the
checkout).
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["add_arguments", "add_classpath_arguments", "classpath", "kafka_target_rows", "run"]

_CLIENTS_NAMES = ("kafka-clients", "kafka-default-by-type", "java")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "targets", nargs="*", metavar="TARGET",
        help="kafka:VERSION[:standard|acl] (Kafka's own authorizer of a release), kafka-broker:VERSION "
             "(Kafka's own broker of a release), or kafka-clients "
             "(kafka-clients 4.3.0: kafka-default-by-type, jvm: targets, the java producer), "
             "or kfake, franz-go, sarama (the kit's Go programs, built with your go toolchain), "
             "or kafkajs, platformatic (the kit's Node.js producers, installed with npm ci from its lock file)",
    )
    parser.add_argument("--all", action="store_true", help="every release the kit runs, both flavours, and kafka-clients")
    parser.add_argument("--all-brokers", action="store_true",
                        help="every broker release the kit has pinned (kafka-broker:VERSION), for the release sweep")
    parser.add_argument("--update-lock", action="store_true",
                        help="maintainers: resolve again and write the sums into the kit's jars.lock.json")


def add_classpath_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="TARGET",
                        help="kafka:VERSION[:standard|acl] (that release's authorizer jars) or kafka-clients")


def classpath(args: argparse.Namespace) -> int:
    """Print the absolute paths of a release's jars, separated as the platform separates a
    classpath: what ``javac -cp``, ``java -cp`` and a ``jvm:CLASS,classpath=...`` target take.
    (Maven leaves the jars in nested folders, so ``DIR/*`` would miss most of them.)  The jars
    are fetched first where they are not in the cache; what the fetch says goes to stderr."""
    import os

    from kafka_conformance.adapters.jvm.maven import Artifact, JarError, cached_jars, fetch_artifact

    try:
        ((name, artifact),) = _artifacts(argparse.Namespace(targets=[args.target], all=False, all_brokers=False))
    except ValueError as exc:
        print(f"kafka-conformance: error: classpath: {exc}", file=sys.stderr)
        return 2
    assert isinstance(artifact, Artifact)
    try:
        jars = cached_jars(artifact) or fetch_artifact(
            artifact, log=lambda m: print(f"{name}: {m}", file=sys.stderr, flush=True))
    except JarError as exc:
        print(f"kafka-conformance: error: classpath {name}: {exc}", file=sys.stderr, flush=True)
        return 2
    print(os.pathsep.join(str(j.resolve()) for j in jars))
    return 0


def _artifacts(args: argparse.Namespace) -> list[tuple[str, object]]:
    from kafka_conformance.adapters.jvm.kafka_releases import CLIENTS_4_3_0, all_releases, parse_kafka_target

    if not args.targets and not args.all and not args.all_brokers:
        raise ValueError("name what to fetch, e.g. kafka-conformance fetch kafka:4.3.1 kafka:3.9.1:acl, or use --all")
    chosen: list[tuple[str, object]] = []
    if args.all:
        chosen.append(("kafka-clients", CLIENTS_4_3_0))
        chosen += [(r.spec, r.artifact) for r in all_releases()]
    if args.all_brokers:
        from kafka_conformance.adapters.brokers.kafka_broker import broker_artifacts, pinned_broker_releases

        chosen += [(f"kafka-broker:{v}", a) for v in pinned_broker_releases() for a in broker_artifacts(v)]
    for name in args.targets:
        if name in _CLIENTS_NAMES:
            chosen.append((name, CLIENTS_4_3_0))
        elif name.startswith("kafka:"):
            release = parse_kafka_target(name[len("kafka:"):])
            chosen.append((release.spec, release.artifact))
        elif name.startswith("kafka-broker:"):
            from kafka_conformance.adapters.brokers.kafka_broker import broker_artifacts, broker_release

            chosen += [(name, a) for a in broker_artifacts(broker_release(name[len("kafka-broker:"):]))]
        else:
            raise ValueError(f"cannot fetch {name!r}: expected kafka:VERSION[:standard|acl], kafka-broker:VERSION, "
                             "kafka-clients, kfake, franz-go, sarama, kafkajs or platformatic")
    unique: dict[object, str] = {}
    for name, artifact in chosen:
        unique.setdefault(artifact, name)
    return [(name, artifact) for artifact, name in unique.items()]


def _build_go(names: list[str]) -> int:
    """Build the named Go programs into the cache (one ``go build``); 0, or 2 with the reason."""
    from kafka_conformance.adapters.go.build import GoBuildError, GoUnavailable, build_programs, cached_program

    cached = [n for n in names if cached_program(n) is not None]
    try:
        built = build_programs(names)
    except (GoUnavailable, GoBuildError) as exc:
        print(f"kafka-conformance: error: fetch {' '.join(names)}: {exc}", file=sys.stderr, flush=True)
        return 2
    for name, path in built.items():
        print(f"{'cached' if name in cached else 'built':8} {name:24} {path.name} in {path.parent}", flush=True)
    return 0


def _install_node(names: list[str]) -> int:
    """Install the kit's Node.js producers into the cache (one ``npm ci``); 0, or 2 with the reason."""
    from kafka_conformance.adapters.node.install import NodeInstallError, NodeUnavailable, install, installed_runner

    cached = [n for n in names if installed_runner(n) is not None]
    try:
        directory = install()
    except (NodeUnavailable, NodeInstallError) as exc:
        print(f"kafka-conformance: error: fetch {' '.join(names)}: {exc}", file=sys.stderr, flush=True)
        return 2
    for name in names:
        print(f"{'cached' if name in cached else 'installed':8} {name:24} in {directory}", flush=True)
    return 0


def run(args: argparse.Namespace) -> int:
    from kafka_conformance.adapters.go.build import PROGRAMS
    from kafka_conformance.adapters.jvm.maven import Artifact, JarError, cache_dir, cached_jars, fetch_artifact
    from kafka_conformance.adapters.node.install import RUNNERS

    go_names = [n for n in args.targets if n in PROGRAMS]
    node_names = [n for n in args.targets if n in RUNNERS]
    code = 0
    if go_names or node_names:
        args.targets = [n for n in args.targets if n not in PROGRAMS and n not in RUNNERS]
        code = max(_build_go(go_names) if go_names else 0, _install_node(node_names) if node_names else 0)
        if not args.targets and not args.all and not args.all_brokers:
            return code
    try:
        wanted = _artifacts(args)
    except ValueError as exc:
        print(f"kafka-conformance: error: fetch: {exc}", file=sys.stderr)
        return 2
    failed = 0
    for name, artifact in wanted:
        assert isinstance(artifact, Artifact)
        where = cache_dir() / "maven" / artifact.directory_name
        try:
            cached = None if args.update_lock else cached_jars(artifact)
            if cached is not None:
                print(f"cached   {name:24} {artifact} ({len(cached)} jars) in {where}")
                continue
            jars = fetch_artifact(artifact, update_lock=args.update_lock,
                                  log=lambda m: print(f"         {m}", file=sys.stderr, flush=True))
            print(f"fetched  {name:24} {artifact} ({len(jars)} jars, checked against the lock) in {where}", flush=True)
        except JarError as exc:
            failed += 1
            print(f"kafka-conformance: error: fetch {name}: {exc}", file=sys.stderr, flush=True)
    return 2 if failed or code else 0


def kafka_target_rows() -> list[tuple[str, bool, str]]:
    """(spec, runnable here, why not / what it is) for every real-Kafka authorizer release."""
    from kafka_conformance.adapters.jvm.kafka_releases import all_releases
    from kafka_conformance.adapters.jvm.kafka_target import not_runnable_reason

    rows = []
    for release in all_releases():
        reason = not_runnable_reason(release)
        what = "StandardAuthorizer" if release.flavour.value == "standard" else "AclAuthorizer on the kit's ZooKeeper"
        rows.append((release.spec, reason is None, what if reason is None else reason))
    return rows

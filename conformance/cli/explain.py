"""``kafka-conformance explain``, ``explain-config`` and ``explain-format``: one question
answered by the reference, with Kafka's reason, for a user reading their own files."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kafka_conformance.cli.errors import UsageError, abbreviate

__all__ = ["explain", "explain_config", "explain_format"]

EXIT_OK, EXIT_USAGE = 0, 2


def explain(args: argparse.Namespace) -> int:
    from kafka_conformance.reference import (
        AclOperation,
        AclValueError,
        Action,
        ByTypeVariant,
        ConfigError,
        RequestContext,
        ResourcePattern,
        ResourceType,
        parse_principal,
        profile_for,
    )
    from kafka_conformance.reference.aclfiles.document import refused_at_creation
    from kafka_conformance.reference.aclfiles.load import load_acls
    from kafka_conformance.reference.errors import AclFileError, KafkaException
    from kafka_conformance.reference.indexed.authorizer import IndexedAuthorizer
    from kafka_conformance.reference.releases import DEFAULT_RELEASE

    if args.variant is not None and not args.by_type:
        raise UsageError("--variant chooses the semantics of --by-type questions; add --by-type or drop --variant")
    if args.by_type and args.name is not None:
        raise UsageError("--by-type asks about every resource of a type; drop --name (or --by-type)")
    notes: list[str] = []
    try:
        default_version = DEFAULT_RELEASE if args.flavour == "standard" else "3.9.0"  # AclAuthorizer's last line
        profile = profile_for(args.kafka_version or default_version, args.flavour)
        acl_file = load_acls(args.acls)
        props = dict(acl_file.config)
        if args.super_users is not None:
            props["super.users"] = args.super_users
        if args.allow_everyone is not None:
            props["allow.everyone.if.no.acl.found"] = args.allow_everyone
        # The indexed engine: the reference's lifecycle and configuration, and Decisions equal to
        # the spec's (tests/spec/authorizer/test_indexed_differential.py), but a snapshot loads in
        # linear time; the spec's store checks each new ACL against every stored one (quadratic).
        authorizer = IndexedAuthorizer(profile)
        try:
            authorizer.configure(props)
        except ConfigError as exc:
            from_cli = {"super.users": args.super_users, "allow.everyone.if.no.acl.found": args.allow_everyone}
            option = {"super.users": "--super-users", "allow.everyone.if.no.acl.found": "--allow-everyone"}
            where = (option.get(exc.key, exc.key) if from_cli.get(exc.key) is not None
                     else f"{args.acls}: config {exc.key}")
            raise UsageError(abbreviate(str(exc), 500), where=where) from None
        notes += _explain_notes(acl_file.bindings, props, profile.flavour.name, refused_at_creation)
        authorizer.load_snapshot({f"acl-{n}": b for n, b in enumerate(acl_file.bindings)})
        authorizer.complete_initial_load()
        context = RequestContext(parse_principal(args.principal), args.host)
        operation = AclOperation.parse(args.operation, field="--operation")
        rtype = ResourceType.parse(args.resource_type, field="--resource-type")
        if args.by_type:
            variant = ByTypeVariant.parse(args.variant) if args.variant else None
            decision = authorizer.authorize_by_resource_type(context, operation, rtype, variant)
            question = f"{context}: {operation.name} on any {rtype.name}"
        else:
            if args.name is None:
                raise UsageError("--name is required unless --by-type is given")
            action = Action(operation, ResourcePattern(rtype, args.name))
            decision = authorizer.authorize_one(context, action)
            question = f"{context}: {action}"
    except (AclValueError, ConfigError, AclFileError) as exc:
        raise UsageError(str(exc)) from exc
    except KafkaException as exc:  # the reference refusing the question the way Kafka would
        raise UsageError(f"Kafka's authorizer refuses this question: {exc}") from exc
    # Names and principals can be megabytes long (a hostile ACL file): every line is abbreviated.
    print(abbreviate(f"{question} [{profile}]", 1000))
    for line in decision.explain().splitlines():
        print(abbreviate(line, 1000))
    if not args.by_type:
        print("steps that decided:")
        for number, step in enumerate(_steps(decision, context.principal, operation, props), start=1):
            print(abbreviate(f"  {number}. {step}", 1000))
    for note in notes:
        print(abbreviate(f"note: {note}", 1000))
    return EXIT_OK


def _steps(decision: Any, principal: object, operation: Any, props: dict[str, str]) -> list[str]:
    """Every step of Kafka's decision procedure that decided this answer, in order: the super-user
    check, each deciding ACL with how it matched (principal, host, resource and operation, naming
    implication: an ALLOW of READ grants DESCRIBE), and the rule that settled it."""
    from kafka_conformance.reference.authorizer.decide import IMPLIED_BY
    from kafka_conformance.reference.authorizer.decision import Rule

    supers = props.get("super.users", "").strip()
    if decision.rule is Rule.SUPER_USER:
        return [f"{principal} is a super user (super.users={abbreviate(supers, 200)!r}): allowed before any ACL is read"]
    steps = [f"{principal} is not a super user" + (f" (super.users={abbreviate(supers, 200)!r})" if supers else
                                                   " (no super.users)")]
    for acl in decision.acls[:10]:
        entry, pattern = acl.entry, acl.pattern
        if decision.rule not in (Rule.DENY_ACL, Rule.ALLOW_ACL):
            steps.append(f"ACL {acl} is on the resource but does not apply to {principal} and {operation.name}")
            continue
        how = [f"principal {'*, every principal' if entry.principal == 'User:*' else entry.principal}",
               f"host {'*, every host' if entry.host == '*' else entry.host}",
               f"{pattern.pattern_type.name} resource {pattern.name!r}"
               + (" (the wildcard: every name)" if pattern.name == "*" and pattern.pattern_type.name == "LITERAL" else "")]
        if entry.operation is operation:
            how.append(f"operation {operation.name}")
        elif entry.operation.name == "ALL":
            how.append("operation ALL, which covers every operation")
        elif entry.operation in IMPLIED_BY.get(operation, frozenset()):
            grants = ", ".join(sorted(o.name for o in IMPLIED_BY[operation]))
            how.append(f"operation {entry.operation.name}, which implies {operation.name} (an ALLOW of any of "
                       f"{grants} grants {operation.name}; a DENY never implies)")
        else:
            how.append(f"operation {entry.operation.name}")
        steps.append(f"{entry.permission_type.name} ACL matches: " + ", ".join(how))
    if len(decision.acls) > 10:
        steps.append(f"... and {len(decision.acls) - 10} more ACLs")
    if decision.rule is Rule.ALLOW_ACL:
        steps.append("no DENY ACL matches (a matching DENY would win over every ALLOW)")
    steps.append(f"decided: {decision.explain()}")
    return steps


def _explain_notes(bindings: Sequence[object], props: dict[str, str], flavour: str,
                   refused: Callable[[Any], str | None]) -> list[str]:
    """What in the input Kafka would never have created, or reads otherwise than it looks."""
    notes = []
    for number, binding in enumerate(bindings, start=1):
        why = refused(binding)
        if why is not None:
            notes.append(f"ACL {number} ({binding}): {why}")
    raw = props.get("allow.everyone.if.no.acl.found")
    if raw is not None and flavour == "STANDARD" and raw.strip().lower() not in ("true", "false"):
        notes.append(f"allow.everyone.if.no.acl.found={abbreviate(raw, 40)!r} is read with Boolean.parseBoolean "
                     "by StandardAuthorizer: anything but 'true' means false")
    return notes


def _read_properties(path: Path) -> dict[str, str]:
    """Java .properties, the common subset: key=value or key: value, # and ! comments."""
    from kafka_conformance.reference.bounded import BoundsError, read_bytes

    try:
        raw = read_bytes(path, limit=16 * 1024 * 1024)
    except OSError as exc:
        raise UsageError(f"cannot read the file: {exc.strerror}", where=str(path)) from exc
    except BoundsError as exc:
        raise UsageError(exc.reason, where=str(path)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # Kafka reads properties files with Properties.load(InputStream), as ISO-8859-1: bytes that
        # are not UTF-8 mean one thing to the file's author and another to Kafka, so neither is guessed.
        at_line = raw.count(b"\n", 0, exc.start) + 1
        raise UsageError(f"not valid UTF-8 (byte {exc.start})", where=f"{path}:{at_line}",
                         remedy="save the file as UTF-8") from None
    lines = text.splitlines()
    props = {}
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text[0] in "#!":
            continue
        key, sep, value = (text.partition("=") if "=" in text else text.partition(":"))
        if not sep or not key.strip():
            raise UsageError(f"expected key=value, got {abbreviate(line, 100)!r}", where=f"{path}:{number}")
        props[key.strip()] = value.strip()
    return props


def explain_config(args: argparse.Namespace) -> int:
    from kafka_conformance.reference.errors import AclValueError, ConfigError
    from kafka_conformance.reference.producer.config import IdempotenceProfile, explain_config
    from kafka_conformance.reference.producer.config_values import render_effective_config

    if args.kafka_version is not None and args.client != "librdkafka":
        from kafka_conformance.reference.releases import IDEMPOTENCE_RELEASES, known_release

        try:
            known_release(args.kafka_version, IDEMPOTENCE_RELEASES)
        except AclValueError as exc:
            raise UsageError(str(exc), where="--kafka-version") from None
    props = _read_properties(args.properties) if args.properties else {}
    for item in args.settings:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"expected KEY=VALUE, got {abbreviate(item, 100)!r}", where="explain-config")
        props[key] = value
    try:
        effective = explain_config(props, client=args.client, version=args.kafka_version,
                                   profile=IdempotenceProfile(args.semantics))
    except ConfigError as exc:
        # Kafka itself refuses this configuration: that is the answer, with the keys named.
        print(f"the producer refuses this configuration: {exc}")
        return EXIT_USAGE
    except AclValueError as exc:
        raise UsageError(str(exc)) from exc
    print(render_effective_config(effective))
    return EXIT_OK


def explain_format(args: argparse.Namespace) -> int:
    from kafka_conformance.format_report import render_kip98
    from kafka_conformance.reference.message_format import kip98_table

    rows = kip98_table(args.records, args.key_size, args.value_size)
    sys.stdout.write(render_kip98(rows, key_size=args.key_size, value_size=args.value_size))
    return EXIT_OK

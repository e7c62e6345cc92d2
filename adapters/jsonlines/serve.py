"""A Python authorizer behind the subprocess protocol: the server side of ``cmd:`` targets.

    kafka-conformance check authorizer --target "cmd:python -m kafka_conformance.adapters.jsonlines.serve reference:3.9.0:acl"
    kafka-conformance check authorizer --target "cmd:python -m kafka_conformance.adapters.jsonlines.serve python:my_authorizer:factory"

Why it exists: a process boundary between the judge and the judged.  The mutation run of
the selftest (:mod:`kafka_conformance.selftest.mutation`) serves a *mutated copy* of the
reference this way while the judge, in its own process, imports the unmutated one: two
copies of one package cannot live in one interpreter.  It also runs a Python authorizer
that might crash its interpreter (a C extension) or that needs another Python than the
kit's, and it is the protocol's conformance test from the server side: serving the
reference must conform, request by request, to the reference (``tests/unit/test_serve.py``).

Every request is answered, by its ``id``, in order.  What the implementation raises as
Kafka would (a :class:`~kafka_conformance.reference.errors.KafkaException`) travels as its
kind; anything else it raises is answered as the protocol kind ``internal``, with its
traceback on stderr, which the kit quotes.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import traceback
from collections.abc import Callable
from typing import IO, Any

from kafka_conformance.adapters.jsonlines import wire
from kafka_conformance.adapters.protocol import AuthorizerUnderTest
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.adapters.targets import Role, TargetError, parse_target
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant
from kafka_conformance.reference.authorizer.profiles import KafkaBugs, profile_for
from kafka_conformance.reference.errors import KafkaException
from kafka_conformance.reference.releases import DEFAULT_RELEASE

__all__ = ["SERVABLE", "Server", "factory_for", "main", "serve"]

SERVABLE = ("reference", "reference-indexed", "python")
"""The target kinds this server can host: those whose implementation is Python in this process."""


class _Unknown(Exception):
    """An op the protocol does not have."""


class Server:
    """One implementation instance at a time, replaced on ``reset``, answering one request per call."""

    def __init__(self, make: Callable[[], AuthorizerUnderTest], name: str) -> None:
        self._make = make
        self._name = name
        self._impl: AuthorizerUnderTest | None = None
        self.done = False

    def _current(self) -> AuthorizerUnderTest:
        if self._impl is None:
            self._impl = self._make()
        return self._impl

    def _reset(self) -> None:
        if self._impl is not None:
            impl, self._impl = self._impl, None
            impl.close()

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """The response to one request: ``result`` or ``error``, with the request's ``id``."""
        rid = request.get("id")
        try:
            return {"id": rid, "result": self._handle(request)}
        except KafkaException as exc:
            return {"id": rid, "error": _kafka_error(exc)}
        except wire.WireError as exc:
            return {"id": rid, "error": wire.encode_error("bad-request", str(exc))}
        except _Unknown as exc:
            return {"id": rid, "error": wire.encode_error("unknown-op", str(exc))}
        except Exception as exc:
            return {"id": rid, "error": _internal(exc)}

    def _handle(self, request: dict[str, Any]) -> Any:
        op = request.get("op")
        if op == "hello":
            return {"protocol": wire.PROTOCOL_VERSION, "implementation": self._name,
                    "capabilities": wire.encode_capabilities(self._current().capabilities())}
        if op == "reset":
            self._reset()
            return None
        if op == "shutdown":
            self._reset()
            self.done = True
            return None
        impl = self._current()
        if op == "configure":
            properties = request.get("properties")
            if not isinstance(properties, dict) or not all(isinstance(v, str) for v in properties.values()):
                raise wire.WireError("properties", "expected an object of strings")
            impl.configure(properties)
        elif op == "load_snapshot":
            impl.load_snapshot(wire.decode_snapshot(request.get("acls"), "acls"))
        elif op == "apply":
            impl.apply(wire.decode_record(request.get("record"), "record"))
        elif op == "complete_initial_load":
            impl.complete_initial_load()
        elif op == "authorize":
            return [self._batch(impl, batch, f"batches[{i}]") for i, batch in enumerate(_items(request, "batches"))]
        elif op == "authorize_by_resource_type":
            return [self._by_type(impl, query, f"queries[{i}]") for i, query in enumerate(_items(request, "queries"))]
        elif op == "acls":
            return [wire.encode_binding(b) for b in impl.acls(wire.decode_filter(request.get("filter"), "filter"))]
        elif op == "acl_count":
            return impl.acl_count()
        else:
            raise _Unknown(f"unknown op {op!r}")
        return None

    @staticmethod
    def _batch(impl: AuthorizerUnderTest, batch: Any, path: str) -> Any:
        if not isinstance(batch, dict):
            raise wire.WireError(path, "expected a JSON object")
        context = wire.decode_context(batch.get("context"), f"{path}.context")
        actions = batch.get("actions")
        if not isinstance(actions, list):
            raise wire.WireError(f"{path}.actions", "expected a JSON array")
        decoded = [wire.decode_action(a, f"{path}.actions[{j}]") for j, a in enumerate(actions)]
        try:  # an error answers its whole batch, as Kafka throws for the whole call
            return wire.encode_results(impl.authorize(context, decoded))
        except KafkaException as exc:
            return {"error": _kafka_error(exc)}

    @staticmethod
    def _by_type(impl: AuthorizerUnderTest, query: Any, path: str) -> Any:
        if not isinstance(query, dict):
            raise wire.WireError(path, "expected a JSON object")
        context, operation, resource_type = wire.decode_by_type_query(query, path)
        try:
            return impl.authorize_by_resource_type(context, operation, resource_type).name
        except KafkaException as exc:
            return {"error": _kafka_error(exc)}


def _items(request: dict[str, Any], key: str) -> list[Any]:
    items = request.get(key)
    if not isinstance(items, list):
        raise wire.WireError(key, "expected a JSON array")
    return items


def _kafka_error(exc: KafkaException) -> dict[str, str]:
    return wire.encode_error(exc.kind, str(exc), exception=getattr(exc, "kafka_exception", None),
                             key=getattr(exc, "key", None))


def _internal(exc: Exception) -> dict[str, str]:
    """The implementation failed: its traceback to stderr (the kit quotes the tail), its name in the answer."""
    traceback.print_exception(exc, file=sys.stderr)
    sys.stderr.flush()
    return wire.encode_error("internal", f"{type(exc).__name__}: {exc}")


def serve(server: Server, instream: IO[str], outstream: IO[str]) -> int:
    """Answer requests from ``instream`` until ``shutdown`` or end of input; returns an exit status."""
    for number, line in enumerate(instream, 1):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as exc:
            print(f"serve: request line {number} is not JSON: {exc}", file=sys.stderr)
            return 2
        if not isinstance(request, dict):
            print(f"serve: request line {number} is not a JSON object", file=sys.stderr)
            return 2
        outstream.write(json.dumps(server.answer(request), ensure_ascii=True, separators=(",", ":")) + "\n")
        outstream.flush()
        if server.done:
            break
    return 0


def factory_for(spec: str, by_type: ByTypeVariant | None = None,
                kafka_bugs: KafkaBugs = KafkaBugs.AS_RELEASED) -> tuple[Callable[[], AuthorizerUnderTest], str]:
    """The implementation a spec names, made fresh per case, and its name for ``hello``.

    ``reference[:VERSION[:FLAVOUR]]`` and ``reference-indexed[...]`` are the kit's own;
    ``python:MODULE:FACTORY`` imports ``MODULE`` (from the working directory too) and calls
    ``FACTORY()`` per case.  ``by_type`` makes the reference answer ``authorizeByResourceType``
    with another variant than its release's own (``truth``: the KIP-679 contract itself), and
    declare it; ``kafka_bugs`` DOCUMENTED makes it answer as Kafka documents where the release
    has a bug of its own.  Raises :class:`TargetError` for anything else."""
    parsed = parse_target(spec, Role.AUTHORIZER)
    if parsed.kind not in SERVABLE:
        raise TargetError(f"target {spec!r}: serve hosts only {', '.join(SERVABLE)} targets (a Python implementation)",
                          role=Role.AUTHORIZER)
    if parsed.kind == "python":
        if by_type is not None or kafka_bugs is not KafkaBugs.AS_RELEASED:
            raise TargetError(f"target {spec!r}: --by-type and --kafka-bugs choose how the reference answers; a "
                              "Python target answers as it does", role=Role.AUTHORIZER)
        module_name, _, attr = (parsed.argument or "").partition(":")
        factory = getattr(importlib.import_module(module_name), attr)
        return factory, f"{parsed.argument} (Python, served)"
    parts = [p for p in (parsed.argument or "").split(":") if p]
    profile = profile_for(parts[0] if parts else DEFAULT_RELEASE, parts[1] if len(parts) > 1 else "standard",
                          kafka_bugs=kafka_bugs)
    indexed = parsed.kind == "reference-indexed"
    variant = "" if by_type is None else f", by-type {by_type.value}"
    return (lambda: ReferenceTarget(profile, indexed=indexed, by_type_variant=by_type)), \
        f"{parsed.kind} {profile}{variant} (served)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kafka_conformance.adapters.jsonlines.serve",
        description="serve an authorizer over the JSON-lines protocol on stdin and stdout")
    parser.add_argument("--by-type", choices=[v.value for v in ByTypeVariant],
                        help="the reference's authorizeByResourceType variant (default: its release's own)")
    parser.add_argument("--kafka-bugs", choices=[b.value for b in KafkaBugs], default=KafkaBugs.AS_RELEASED.value,
                        help="the reference answers as its release does (as-released) or as Kafka documents")
    parser.add_argument("target", metavar="TARGET",
                        help="reference[:VERSION[:FLAVOUR]], reference-indexed[...] or python:MODULE:FACTORY")
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:  # argparse has printed the usage and the problem on stderr
        return int(exc.code or 0)
    by_type = ByTypeVariant.parse(args.by_type) if args.by_type else None
    sys.path.insert(0, "")  # python:MODULE resolves from the working directory, as the kit's own targets do
    try:
        make, name = factory_for(args.target, by_type, KafkaBugs.parse(args.kafka_bugs))
    except (TargetError, ImportError, AttributeError) as exc:
        print(f"serve: {exc}", file=sys.stderr)
        return 2
    return serve(Server(make, name), sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())

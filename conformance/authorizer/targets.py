"""Authorizer targets: a spec of the authorizer role (:mod:`kafka_conformance.adapters.targets`
holds the one grammar, ``docs/targets.md`` lists it) opened as a factory of fresh adapters.

A ``python:`` factory is called once per case, so every case starts from a fresh
authorizer; ``cmd:`` and ``jvm:`` targets share one process or JVM across cases (a fresh
object each), stopped by :func:`close_targets` or at interpreter exit; ``kafka:VERSION``
is Apache Kafka's own authorizer of the release, from jars ``kafka-conformance fetch`` gets.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shlex
import shutil
import sys
from collections.abc import Callable
from importlib.metadata import entry_points

import attrs

from kafka_conformance.adapters.jsonlines.session import default_timeout
from kafka_conformance.adapters.protocol import (
    AdapterError,
    AuthorizerUnderTest,
    Capabilities,
    validate_adapter,
)
from kafka_conformance.adapters.reaper import close_shared
from kafka_conformance.adapters.reference_adapter import ReferenceTarget
from kafka_conformance.adapters.sandbox import sandboxed
from kafka_conformance.adapters.targets import ENTRY_POINT_GROUP, KINDS, Problem, Role, TargetError, parse_target
from kafka_conformance.adapters.timed import DEFAULT_TIMEOUT_S, TimedAdapter, call_within, check_timeout
from kafka_conformance.reference.authorizer.profiles import Flavour, KafkaBugs, profile_for
from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.reference.releases import DEFAULT_VERSION, known_release

__all__ = ["CODE_KINDS", "ENTRY_POINT_GROUP", "Target", "TargetError", "builtin_targets", "close_targets", "names_code",
           "replay_command", "resolve_target", "short_label"]

def _refused(message: str, problem: Problem = Problem.MALFORMED) -> TargetError:
    return TargetError(message, problem, Role.AUTHORIZER)


@attrs.frozen
class Target:
    spec: str
    factory: Callable[[], AuthorizerUnderTest]
    capabilities: Capabilities

    def make(self) -> AuthorizerUnderTest:
        return self.factory()

    @property
    def label(self) -> str:
        """The target as a person reads it in progress lines and verdicts (the full spec stays in
        the JSON report and in saved cases): see :func:`short_label`."""
        return short_label(self.spec)


def short_label(spec: str) -> str:
    """A spec short enough to read: a ``jvm:`` target by its class's simple name and the jar
    or Maven artifact it comes from (a classpath can be kilobytes long), a long ``python:`` one by its module's
    last part and its factory, any other spec as it is, cut at 80 characters."""
    kind, _, rest = spec.partition(":")
    if kind == "jvm" and rest:
        class_name, *options = rest.split(",")
        label = f"jvm:{class_name.strip().rsplit('.', 1)[-1]}"
        jars = [os.path.basename(o.partition("=")[2]) for o in options if o.strip().startswith("jar=")]
        jars += [":".join(o.partition("=")[2].split(":")[1:]) for o in options if o.strip().startswith("maven=")]
        return label + (f" ({', '.join(jars)})" if jars else "")
    if kind == "python" and len(spec) > 48:  # the module's last part and the factory: what tells targets apart
        module, _, attr = rest.partition(":")
        spec = f"python:{module.rsplit('.', 1)[-1]}:{attr}"
    return spec if len(spec) <= 80 else spec[:77] + "..."


def close_targets() -> None:
    """Stop every process or JVM that targets started (shared across cases for speed).

    The CLI and the pytest plugin call this when a run ends; interpreter exit does
    it too, as a last resort.  Each adapter module that pools registers its own closer when it
    is imported (:func:`~kafka_conformance.adapters.reaper.closes_shared`)."""
    close_shared()


def builtin_targets() -> list[tuple[str, str, bool]]:
    """(grammar, description, runnable here) of every authorizer kind, for ``kafka-conformance targets``."""
    jvm_ready = shutil.which("java") is not None and importlib.util.find_spec("py4j") is not None
    found = [(kind.usage, kind.roles[Role.AUTHORIZER], jvm_ready if kind.name in _NEEDS_JVM else True)
             for kind in KINDS.values() if Role.AUTHORIZER in kind.roles and kind.name != "python"]
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.append((ep.name, f"third-party target from {ep.value}", True))
    return found


_NEEDS_JVM = ("jvm", "kafka", "kafka-default-by-type")

CODE_KINDS = ("python", "cmd", "jvm")
"""Target kinds whose spec names code to run (a module, a command, classes and jars)."""


def names_code(spec: str) -> bool:
    """Whether resolving ``spec`` would run code it names: what a file must never do unasked."""
    return spec.strip().partition(":")[0] in CODE_KINDS


def replay_command(saved_to: str | None, target: str | None = None) -> str | None:
    """The command that replays a case this run saved.  ``replay`` never runs code a file names
    unless told to; the run that wrote the file ran that very target, so the command it prints
    says so with ``--trust-saved-target`` (the target's spec may be kilobytes of classpath).  A
    file from anywhere else, replayed without the flag, is refused, naming its target."""
    if saved_to is None:
        return None
    command = f"kafka-conformance replay {shlex.quote(saved_to)}"
    return f"{command} --trust-saved-target" if target is not None and names_code(target) else command


def resolve_target(
    spec: str, *, kafka_version: str | None = None, flavour: str | None = None,
    timeout: float | str | None = None, kafka_bugs: str | None = None,
) -> Target:
    """Turn a spec string into a :class:`Target`, or raise TargetError naming the problem.

    ``kafka_version`` and ``flavour`` override what the target declares: the user
    chooses which Kafka semantics to hold it to.  A spec that names a release or a
    flavour itself (``reference:3.9.0:acl``, ``kafka:3.6.2``) must not be contradicted
    by them.  ``timeout`` bounds every call into the target, in seconds (default
    :data:`~kafka_conformance.adapters.timed.DEFAULT_TIMEOUT_S`).  ``kafka_bugs``
    (``as-released``, the default, or ``documented``) says whether the release's own bugs set
    the expected answer (:data:`~kafka_conformance.reference.authorizer.profiles.KAFKA_BUGS`).
    """
    spec = parse_target(spec, Role.AUTHORIZER).text
    try:
        seconds = DEFAULT_TIMEOUT_S if timeout is None else check_timeout(timeout, "the timeout")
        default_timeout()  # refuses the environment variable it replaced, rather than ignore it
    except ValueError as exc:
        raise _refused(str(exc)) from None
    except AdapterError as exc:
        raise _refused(str(exc)) from None
    kind, _, rest = spec.partition(":")
    try:
        if kafka_version is not None:
            known_release(kafka_version)
        _no_contradiction(spec, kind, rest, kafka_version, flavour)
        if kind in ("reference", "reference-indexed"):
            target = _reference(spec, rest, kafka_version, flavour, indexed=kind == "reference-indexed")
        elif kind == "python":
            target = _python(spec, rest, seconds)
        elif kind == "cmd":
            target = _cmd(spec, rest, seconds)
        elif kind in ("jvm", _JVM_BUILTIN):
            target = _jvm(spec, rest, seconds)
        elif kind == "kafka":
            target = _kafka(spec, rest)
        else:  # parse_target let it through: a registered entry point
            target = _entry_point(spec, seconds)
        return _override(target, kafka_version, flavour, kafka_bugs)
    except AclValueError as exc:
        raise _refused(f"target {spec!r}: {exc}") from exc


def _no_contradiction(spec: str, kind: str, rest: str, kafka_version: str | None, flavour: str | None) -> None:
    """A release or flavour in a reference spec and another in the options: which one the user
    meant cannot be guessed, so neither is.  (``kafka:3.3.1`` with ``--kafka-version 3.4.0``
    is no contradiction: the spec picks Kafka's classes, the option the semantics they are
    held to, which is how KAFKA-14435 shows.)"""
    if kind not in ("reference", "reference-indexed") or not rest:
        return
    parts = [p for p in rest.split(":") if p]
    if kafka_version is not None and parts and known_release(parts[0]) != known_release(kafka_version):
        raise _refused(f"target {spec!r} names release {parts[0]} but --kafka-version is {kafka_version}; "
                          "give the release once")
    if flavour is not None and len(parts) > 1 and Flavour.parse(parts[1]) is not Flavour.parse(flavour):
        raise _refused(f"target {spec!r} names flavour {parts[1]} but --flavour is {flavour}; "
                          "give the flavour once")


def _override(target: Target, kafka_version: str | None, flavour: str | None, kafka_bugs: str | None = None) -> Target:
    caps = target.capabilities
    if kafka_bugs is not None:
        caps = attrs.evolve(caps, kafka_bugs=KafkaBugs.parse(kafka_bugs))
    if kafka_version is not None:
        caps = attrs.evolve(caps, version=known_release(kafka_version))
    if flavour is not None:
        caps = attrs.evolve(caps, flavour=Flavour.parse(flavour))
    caps.profile()  # validate the combination now, with a clear error
    return attrs.evolve(target, capabilities=caps)


def _reference(spec: str, rest: str, kafka_version: str | None, flavour: str | None, *, indexed: bool = False) -> Target:
    parts = [p for p in rest.split(":") if p] if rest else []
    if len(parts) > 2:
        raise _refused(f"target {spec!r}: expected reference[:VERSION[:FLAVOUR]]")
    version = kafka_version or (parts[0] if parts else str(DEFAULT_VERSION))
    chosen = flavour or (parts[1] if len(parts) > 1 else "standard")
    known_release(version)
    profile = profile_for(version, chosen)
    return Target(spec, lambda: ReferenceTarget(profile, indexed=indexed), ReferenceTarget(profile).capabilities())


def _load_factory(spec: str, path: str) -> Callable[[], object]:
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise _refused(f"target {spec!r}: expected python:package.module:factory")
    # Like ``python -m``: modules in the current directory are importable.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = sandboxed(importlib.import_module, (module_name,), f"importing {module_name!r}")
    except AdapterError as exc:  # the module's own code ended the run, moved the directory, ...
        raise _refused(f"target {spec!r}: {exc}") from None
    except ModuleNotFoundError as exc:
        hint = ("; run from the directory that holds it, or add that directory to PYTHONPATH"
                if exc.name == module_name.split(".")[0] else "")
        raise _refused(f"target {spec!r}: cannot import {module_name!r}: {exc}{hint}") from None
    except SyntaxError as exc:
        raise _refused(f"target {spec!r}: {exc.filename}:{exc.lineno}: syntax error in the target's code: "
                          f"{exc.msg}") from None
    except Exception as exc:
        raise _refused(f"target {spec!r}: importing {module_name!r} raised {type(exc).__name__}: "
                          f"{str(exc)[:300]}") from None
    obj: object = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise _refused(f"target {spec!r}: {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise _refused(f"target {spec!r}: {attr!r} is not callable")
    return obj


def _from_factory(spec: str, factory: Callable[[], object], timeout: float) -> Target:
    """Check the adapter the factory makes, and bound every call into the adapters it will make."""
    label = short_label(spec)
    def timed() -> AuthorizerUnderTest:
        made = call_within(sandboxed, timeout, f"target {label!r}: the factory", factory, (), "the factory")
        # The kit's own reference runs bare; anything else (a subclass of it too) is timed and sandboxed.
        return made if type(made) is ReferenceTarget else TimedAdapter(made, timeout)

    try:
        sample = call_within(sandboxed, timeout, "the factory", factory, (), "the factory")
    except AdapterError as exc:
        raise _refused(f"target {label!r}: {exc}", Problem.DID_NOT_START) from None
    except Exception as exc:
        raise _refused(f"target {label!r}: the factory raised {type(exc).__name__}: {str(exc)[:300]}",
                       Problem.DID_NOT_START) from None
    try:
        validate_adapter(sample, where=f"target {label!r} ({type(sample).__name__})")
        adapter = TimedAdapter(sample, timeout)
        caps = adapter.capabilities()
        if not isinstance(caps, Capabilities):
            raise _refused(f"target {label!r}: capabilities() must return a Capabilities, got {str(caps)[:200]}")
        adapter.close()
    except AdapterError as exc:
        raise _refused(f"target {label!r}: {exc}" if label not in str(exc) else str(exc)) from None
    except TargetError:
        raise
    except Exception as exc:
        raise _refused(f"target {label!r}: setting up the target raised {type(exc).__name__}: {str(exc)[:300]}") from None
    return Target(spec, timed, caps)


def _python(spec: str, rest: str, timeout: float) -> Target:
    return _from_factory(spec, _load_factory(spec, rest), timeout)


def _cmd(spec: str, command: str, timeout: float) -> Target:
    """``cmd:<command line>``: an implementation in any language speaking the JSON-lines
    protocol of ``docs/subprocess-protocol.md``.  One process serves every case (each
    adapter starts with ``reset``); it is stopped at interpreter exit, or earlier by
    ``kafka_conformance.adapters.jsonlines.adapter.close_shared_sessions()``."""
    from kafka_conformance.adapters.jsonlines.adapter import command_target

    try:
        factory, caps = command_target(command, timeout=timeout)
    except AdapterError as exc:
        raise _refused(f"target {spec!r}: {exc}", Problem.DID_NOT_START) from exc
    return Target(spec, factory, caps)


def _jvm_problem(exc: Exception) -> Problem:
    from kafka_conformance.adapters.jvm.session import JvmUnavailable

    if isinstance(exc, JvmUnavailable):  # no JDK, no py4j, jars not fetched: this machine's set-up
        return Problem.UNAVAILABLE
    return Problem.DID_NOT_START if isinstance(exc, AdapterError) else Problem.MALFORMED


_JVM_BUILTIN = "kafka-default-by-type"


def _jvm(spec: str, rest: str, timeout: float) -> Target:
    """``jvm:CLASS`` or a JVM built-in: one JVM serves every case (a fresh Java object
    each); it is stopped at interpreter exit.  The JVM is started (and the shim compiled,
    and Kafka's jars fetched on first use) before any call is timed: ``--timeout`` bounds
    the calls into the authorizer, never the set-up of the machine that hosts it.  A
    classpath taken from the environment is written into the spec, so that a saved case
    runs again without it."""
    from kafka_conformance.adapters.jvm import adapter as jvm_adapter
    from kafka_conformance.adapters.jvm.session import JvmUnavailable

    label = short_label(spec)
    try:
        if spec == _JVM_BUILTIN:
            factory = jvm_adapter.builtin_factory(spec)
        else:
            parsed = jvm_adapter.parse_jvm_spec(rest)
            spec = f"jvm:{parsed.spec}"
            factory = jvm_adapter.jvm_factory(parsed)
        factory().close()
    except (ValueError, JvmUnavailable, AdapterError) as exc:
        raise _refused(f"{exc} (target {label!r})", _jvm_problem(exc)) from exc
    return _from_factory(spec, factory, timeout)


def _kafka(spec: str, rest: str) -> Target:
    """``kafka:VERSION[:standard|acl]``: Apache Kafka's own authorizer of that release, from
    jars fetched with ``kafka-conformance fetch`` (one JVM per release, a fresh object per case)."""
    from kafka_conformance.adapters.jvm import kafka_target

    try:
        factory, caps, _ = kafka_target.kafka_factory(rest)
        factory().close()  # start the JVM (and ZooKeeper) now: a failure is the user's setup, exit 2
    except (ValueError, AdapterError) as exc:
        raise _refused(f"target {spec!r}: {exc}", _jvm_problem(exc)) from exc
    return Target(spec, factory, caps)


def _entry_point(spec: str, timeout: float) -> Target:
    found = next(ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == spec)  # the first, as pytest takes plugins
    return _from_factory(spec, found.load(), timeout)

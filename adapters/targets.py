"""Target specs: the one grammar every command reads, parsed once into a value, and the one error.

A target spec names an implementation the kit runs: an authorizer, a broker, a producer
client.  Each *kind* (the text before the first colon) means one thing everywhere; a
command takes the kinds that can play the *role* it checks, and says so by name when
given another.  ``kafka:VERSION`` is Apache Kafka of that release in every command: the
authorizer suite runs its authorizer classes, the broker, producer and transactions
suites its broker, the request-rules suite its broker with SASL logins and the
authorizer on.  The suites open a parsed spec for their role; what the kind's argument
must look like, and which releases a role runs, is checked here or by the code that
starts the target, and every refusal is a :class:`TargetError` naming the problem
(:class:`Problem`), which the CLI turns into exit code 2.

``docs/targets.md`` lists this grammar; a test holds the two to each other.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points

import attrs

from kafka_conformance.reference.errors import AclValueError
from kafka_conformance.reference.releases import KafkaVersion

__all__ = ["ENTRY_POINT_GROUP", "KINDS", "Kind", "Problem", "Role", "TargetError", "TargetSpec", "grammar_rows",
           "parse_target", "roles_of", "takes"]

ENTRY_POINT_GROUP = "kafka_conformance.targets"
"""Third-party authorizers register a factory under this entry-point group (a public name)."""


class Role(enum.Enum):
    """What a command needs the target to be; the value is how a person reads it."""

    AUTHORIZER = "an authorizer"
    BROKER = "a broker for the broker suite"
    PRODUCER_BROKER = "a broker for producer traces"
    REQUESTS = "a broker with SASL logins and an authorizer"
    TRANSACTIONS = "a broker for the transaction rows"
    CLIENT = "a producer client"

    @property
    def option(self) -> str:
        """Where the command line takes a spec in this role."""
        return _OPTIONS[self]


_OPTIONS = {
    Role.AUTHORIZER: "check authorizer --target",
    Role.BROKER: "check broker --target",
    Role.PRODUCER_BROKER: "check producer --broker",
    Role.REQUESTS: "check requests --target",
    Role.TRANSACTIONS: "check transactions --broker",
    Role.CLIENT: "check producer --client",
}


class Problem(enum.Enum):
    """What is wrong with a spec, as a stable name callers branch on (never the message)."""

    UNKNOWN = "unknown"
    """No kind of that name."""
    MALFORMED = "malformed"
    """The kind is known; its argument is not what the kind takes (also a release it does not run)."""
    WRONG_ROLE = "wrong-role"
    """The kind cannot play the role this command checks."""
    UNAVAILABLE = "unavailable"
    """Well formed, but what it needs is not on this machine (a package, a toolchain, jars)."""
    DID_NOT_START = "did-not-start"
    """Started, and failed before it served."""
    INCAPABLE = "incapable"
    """Running, but it cannot do what this run asks of it (a trace's crash on a single broker)."""


class TargetError(ValueError):
    """A target spec the kit cannot use: the one error type of every suite (the CLI's exit code 2).

    ``problem`` says what kind of wrong it is; ``role`` which role the spec was given for."""

    def __init__(self, message: str, problem: Problem = Problem.MALFORMED, role: Role | None = None) -> None:
        super().__init__(message)
        self.problem = problem
        self.role = role

    def __reduce__(self) -> tuple[object, ...]:  # keeps problem and role across pickling (Spark workers)
        return (type(self), (str(self), self.problem, self.role))


class Argument(enum.Enum):
    NONE = "none"
    OPTIONAL = "optional"
    REQUIRED = "required"


@attrs.frozen
class Kind:
    """One kind of target: its grammar, and what it is in each role it can play."""

    name: str
    usage: str
    """The grammar as the docs and the errors show it, e.g. ``kafka:VERSION``."""
    roles: Mapping[Role, str]
    """What a spec of this kind is in each role it plays."""
    argument: Argument
    check: Callable[[str, Role], None] | None = None
    """Syntax of the argument (after the first colon) in a role; raises ValueError saying what is wrong."""
    usage_in: Mapping[Role, str] = attrs.field(factory=dict)
    """The grammar where a role takes less (or more) than :attr:`usage`."""

    def usage_for(self, role: Role) -> str:
        return self.usage_in.get(role, self.usage)


@attrs.frozen
class TargetSpec:
    """A parsed spec: its kind, its argument as given, and the release it names, if any."""

    text: str
    kind: str
    argument: str | None
    role: Role

    @property
    def release(self) -> str | None:
        """The Kafka release the spec names (``kafka:3.9.1``, ``test-broker:3.6.2``, ``reference:3.9.0:acl``),
        as written; None when it names none."""
        if self.kind in _VERSIONED and self.argument:
            return self.argument.split(":")[0]
        return None

    def __str__(self) -> str:
        return self.text


def _version(text: str, what: str) -> None:
    try:
        KafkaVersion.parse(text)
    except AclValueError:
        raise ValueError(f"{what} must be a release, MAJOR.MINOR.PATCH such as 3.9.1, not {text!r}") from None


def _reference(arg: str, role: Role) -> None:
    parts = arg.split(":")
    if len(parts) > 2 or not parts[0]:
        raise ValueError("expected reference[:VERSION[:FLAVOUR]], e.g. reference:3.9.0:acl")
    _version(parts[0], "VERSION")
    if len(parts) == 2 and parts[1] not in ("standard", "acl"):
        raise ValueError(f"FLAVOUR is standard or acl, not {parts[1]!r}")


def _python(arg: str, role: Role) -> None:
    module, sep, factory = arg.partition(":")
    if not sep or not module or not factory:
        raise ValueError("expected python:package.module:factory")


def _kafka(arg: str, role: Role) -> None:
    version, sep, flavour = arg.partition(":")
    _version(version, "VERSION")
    if sep and role is not Role.AUTHORIZER:
        raise ValueError(f"the flavour {flavour!r} chooses Kafka's authorizer class; {role.option} takes kafka:VERSION")
    if sep and flavour not in ("standard", "acl"):
        raise ValueError(f"the flavour is standard (StandardAuthorizer) or acl (AclAuthorizer), not {flavour!r}")


def _count(arg: str, role: Role) -> None:
    if not arg.isdigit():
        raise ValueError(f"N is a number of brokers, not {arg!r}")


def _cluster(arg: str, role: Role) -> None:
    version, _, count = arg.partition(":")
    _version(version, "VERSION")
    if count:  # kafka-cluster:VERSION: (nothing after the colon) is the default count, as before
        _count(count, role)


def _test_broker(arg: str, role: Role) -> None:
    _version(arg, "VERSION")


def _bootstrap(arg: str, role: Role) -> None:
    address, sep, options = arg.partition(",")
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("the address must be one HOST:PORT, e.g. bootstrap:127.0.0.1:9092")
    if role is Role.REQUESTS and not options.startswith("sasl="):
        raise ValueError("give the logins as bootstrap:HOST:PORT,sasl=@FILE (or sasl=env:PREFIX, or "
                         "sasl=ADMIN:PASSWORD,USER:PASSWORD)")
    if role is not Role.REQUESTS and sep:
        raise ValueError(f"{role.option} takes bootstrap:HOST:PORT alone (it logs in as no one)")


_ANY_BROKER = {Role.BROKER: "a broker from its PyPI wheel, started by the kit on 127.0.0.1 for the run",
               Role.PRODUCER_BROKER: "the same, with the kit's fault proxy in front of it",
               Role.TRANSACTIONS: "the same (say which release it stands for with --kafka-version)"}

KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("reference", "reference[:VERSION[:FLAVOUR]]",
         {Role.AUTHORIZER: "the kit's reference authorizer of a release (a check of your set-up)"},
         Argument.OPTIONAL, _reference),
    Kind("reference-indexed", "reference-indexed[:VERSION[:FLAVOUR]]",
         {Role.AUTHORIZER: "the reference's indexed engine: the same answers, faster"}, Argument.OPTIONAL, _reference),
    Kind("python", "python:MODULE:FACTORY",
         {Role.AUTHORIZER: "FACTORY() makes an object of the adapter protocol, called once per case"},
         Argument.REQUIRED, _python),
    Kind("cmd", "cmd:COMMAND LINE",
         {Role.AUTHORIZER: "a process of any language speaking JSON lines (docs/subprocess-protocol.md)"},
         Argument.REQUIRED),
    Kind("jvm", "jvm:CLASS[,OPTION=VALUE...]",
         {Role.AUTHORIZER: "a Java Authorizer class hosted in a JVM (docs/jvm-adapter.md)"}, Argument.REQUIRED),
    Kind("kafka-default-by-type", "kafka-default-by-type",
         {Role.AUTHORIZER: "Kafka 4.3.0's own default authorizeByResourceType, in a JVM"}, Argument.NONE),
    Kind("kafka", "kafka:VERSION[:standard|acl]", {
        Role.AUTHORIZER: "Apache Kafka's StandardAuthorizer (or, with :acl, AclAuthorizer) of the release, in a JVM",
        Role.BROKER: "Apache Kafka's broker of the release, one node started by the kit",
        Role.PRODUCER_BROKER: "Apache Kafka's broker of the release, one node, with the fault proxy",
        Role.REQUESTS: "Apache Kafka's broker of the release with SASL/PLAIN logins and its authorizer on",
        Role.TRANSACTIONS: "Apache Kafka's broker of the release (its transaction coordinator)",
    }, Argument.REQUIRED, _kafka, {r: "kafka:VERSION" for r in Role if r is not Role.AUTHORIZER}),
    Kind("kafka-cluster", "kafka-cluster:VERSION[:N]", {
        Role.PRODUCER_BROKER: "N brokers of the release (default 3) that the kit crashes, restarts and re-leads",
        Role.TRANSACTIONS: "N brokers of the release (default 3): coordinator and leaders apart, topics replicated",
    }, Argument.REQUIRED, _cluster),
    Kind("test-broker", "test-broker[:VERSION]", {
        Role.BROKER: "the kit's Python test broker, governed by the reference model of the release",
        Role.PRODUCER_BROKER: "the kit's Python test broker: every fault of a trace applied exactly",
    }, Argument.OPTIONAL, _test_broker),
    Kind("tansu", "tansu", _ANY_BROKER, Argument.NONE),
    Kind("noida", "noida", _ANY_BROKER, Argument.NONE),
    Kind("rdkafka-mock", "rdkafka-mock", _ANY_BROKER, Argument.NONE),
    Kind("kfake", "kfake", {
        Role.BROKER: "franz-go's in-memory cluster, one broker, built from the kit's Go module",
        Role.PRODUCER_BROKER: "franz-go's in-memory cluster, one broker, with the fault proxy",
        Role.REQUESTS: "franz-go's in-memory cluster with SASL/PLAIN and its ACLs on",
        Role.TRANSACTIONS: "franz-go's in-memory cluster, one broker (say which release it stands for with --kafka-version)",
    }, Argument.NONE),
    Kind("kfake-cluster", "kfake-cluster[:N]",
         {Role.PRODUCER_BROKER: "kfake with N brokers (default 3) moved, removed and added on cue"},
         Argument.OPTIONAL, _count),
    Kind("bootstrap", "bootstrap:HOST:PORT", {
        Role.BROKER: "a broker you run; each case makes a topic of its own there",
        Role.REQUESTS: "a broker you run, with an admin login and an ordinary user's (sasl= is required)",
        Role.TRANSACTIONS: "a broker you run (say its release with --kafka-version)",
    }, Argument.REQUIRED, _bootstrap, {Role.REQUESTS: "bootstrap:HOST:PORT,sasl=LOGINS"}),
    *(Kind(name, name, {Role.CLIENT: what}, Argument.NONE) for name, what in (
        ("java", "Apache Kafka's Java producer, in a JVM"),
        ("kafka-python", "kafka-python"),
        ("aiokafka", "aiokafka"),
        ("confluent-kafka", "confluent-kafka (librdkafka)"),
        ("franz-go", "franz-go, built from the kit's Go module"),
        ("sarama", "IBM sarama, built from the kit's Go module"),
        ("kafkajs", "KafkaJS, in Node.js"),
        ("platformatic", "@platformatic/kafka, in Node.js"),
        ("model", "the reference producer against the reference cluster, in simulated time"),
    )),
)}

_VERSIONED = ("reference", "reference-indexed", "kafka", "kafka-cluster", "test-broker")


def parse_target(text: str, role: Role) -> TargetSpec:
    """``text`` as a spec of ``role``, or a :class:`TargetError` saying what is wrong and what the role takes.

    Only the grammar is checked here: whether the release is one the role runs, and whether
    the machine has what the target needs, is for the code that opens it to say."""
    spec = text.strip()
    if not spec:
        raise TargetError(f"an empty target; {role.option} takes {takes(role)}", Problem.MALFORMED, role)
    name, sep, arg = spec.partition(":")
    kind = KINDS.get(name)
    if kind is None:
        if role is Role.AUTHORIZER and not sep and spec in _entry_point_names():
            return TargetSpec(spec, spec, None, role)
        raise TargetError(f"unknown target {_shown(spec)!r}; {role.option} takes {takes(role)}", Problem.UNKNOWN, role)
    if role not in kind.roles:
        where = ", ".join(r.option for r in kind.roles)
        raise TargetError(f"{_shown(spec)!r} is not {role.value} (it is taken by {where}); {role.option} takes "
                          f"{takes(role)}", Problem.WRONG_ROLE, role)
    if kind.argument is Argument.NONE and sep:
        raise TargetError(f"{name} takes no argument (got {_shown(spec)!r})", Problem.MALFORMED, role)
    if kind.argument is Argument.REQUIRED and not arg:
        raise TargetError(f"{name} needs an argument: {kind.usage_for(role)}", Problem.MALFORMED, role)
    if arg and kind.check is not None:
        try:
            kind.check(arg, role)
        except ValueError as exc:
            raise TargetError(f"{_shown(spec)}: {exc}", Problem.MALFORMED, role) from None
    return TargetSpec(spec, name, arg if sep else None, role)


def roles_of(text: str) -> tuple[Role, ...]:
    """The roles ``text`` parses in, in :class:`Role` order (none for a malformed or unknown spec)."""
    found = []
    for role in Role:
        try:
            parse_target(text, role)
        except TargetError:
            continue
        found.append(role)
    return tuple(found)


def grammar_rows() -> list[tuple[str, str, str]]:
    """(grammar, option, what it is) for every kind and role: the list ``docs/targets.md`` shows."""
    return [(kind.usage_for(role), role.option, what) for kind in KINDS.values() for role, what in kind.roles.items()]


def takes(role: Role) -> str:
    """The grammar of every kind that plays ``role``, as one line for an error message."""
    usages = [k.usage_for(role) for k in KINDS.values() if role in k.roles]
    if role is Role.AUTHORIZER:
        usages.append("a name registered under the kafka_conformance.targets entry points")
    return ", ".join(usages)


def _shown(spec: str) -> str:
    """A spec as an error quotes it: nothing after the first comma (logins, classpaths), at most 120 characters."""
    head, sep, _ = spec.partition(",")
    head = head + (",..." if sep else "")
    return head if len(head) <= 120 else head[:117] + "..."


def _entry_point_names() -> set[str]:
    return {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)}

"""The Python half of the shim's wire format (``adapters/jvm/Codec.java``).

Why strings: one py4j round trip costs about half a millisecond and py4j
converts Python lists element by element, so a batch travels as one string of
length-prefixed tokens (``"<n>:<n code points>"``, ``"~"`` for null) with
enums as Kafka wire codes.  Answers are ``+`` then tokens, or ``!`` then the
error kind, the Java class and the message.
"""

from __future__ import annotations

import hashlib
import ipaddress
from collections.abc import Iterator

from kafka_conformance.adapters.protocol import AdapterError
from kafka_conformance.reference.acl.filters import AclBindingFilter
from kafka_conformance.reference.acl.values import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from kafka_conformance.reference.authorizer.decision import Action, RequestContext
from kafka_conformance.reference.errors import AuthorizerError

__all__ = [
    "JavaError",
    "decode_bindings",
    "decode_tokens",
    "enc_action",
    "enc_binding",
    "enc_context",
    "enc_filter",
    "java_host",
    "raise_for",
    "tok",
]

_ALIASES: dict[str, str] = {}
"""alias -> the kit's host string, for hosts no Java client address can render as."""


def tok(value: str | int | None) -> str:
    if value is None:
        return "~"
    text = str(value)
    return f"{len(text)}:{text}"


def java_host(host: str) -> str:
    """The host as a Java client address renders it (``InetAddress.getHostAddress``).

    A request context can only carry a host that Java renders back unchanged
    (``10.0.0.1``, ``0:0:0:0:0:0:0:1``); the kit's hostile mode also asks as
    ``::1``, ``localhost`` or ``""``.  Kafka compares hosts only by string
    equality with ACL hosts (and ``*``), so such a host is renamed, in contexts
    and ACLs and filters alike, to a unique address in the IPv6 documentation
    range 2001:db8::/32; answers are unchanged by a consistent renaming, and
    ``acls()`` renames back.  (Remembered per host: a case asks with a few hosts, many times.)
    """
    known = _RENDERED.get(host)
    if known is not None:
        return known
    rendered = _RENDERED[host] = _java_host(host)
    return rendered


_RENDERED: dict[str, str] = {}


def _java_host(host: str) -> str:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    if isinstance(address, ipaddress.IPv4Address) and str(address) == host:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.scope_id is None:
        mapped = address.ipv4_mapped
        rendered = str(mapped) if mapped else ":".join(f"{int(g, 16):x}" for g in address.exploded.split(":"))
        if rendered == host:
            return host
    digest = hashlib.sha256(host.encode("utf-8", "surrogatepass")).hexdigest()
    alias = "2001:db8:" + ":".join(f"{int(digest[i:i + 4], 16):x}" for i in range(0, 24, 4))
    _ALIASES[alias] = host
    return alias


def _acl_host(host: str | None, alias: bool) -> str | None:
    return host if host in (None, "*") or not alias else java_host(host)


def enc_binding(b: AclBinding, *, alias: bool = True) -> str:
    """``alias``: rename ACL hosts as :func:`java_host` renames context hosts."""
    p, e = b.pattern, b.entry
    return "".join((tok(p.resource_type.code), tok(p.name), tok(p.pattern_type.code), tok(e.principal),
                    tok(_acl_host(e.host, alias)), tok(e.operation.code), tok(e.permission_type.code)))


def enc_filter(f: AclBindingFilter, *, alias: bool = True) -> str:
    p, e = f.pattern, f.entry
    return "".join((tok(p.resource_type.code), tok(p.name), tok(p.pattern_type.code), tok(e.principal),
                    tok(_acl_host(e.host, alias)), tok(e.operation.code), tok(e.permission_type.code)))


def enc_context(c: RequestContext) -> str:
    return tok(c.principal.principal_type) + tok(c.principal.name) + tok(java_host(c.host))


_CODE: dict[object, str] = {m: tok(m.code) for e in (AclOperation, ResourceType, PatternType) for m in e}
"""Enum member -> its encoded wire code (the hot path of big batches)."""


def enc_action(a: Action) -> str:
    r = a.resource
    name = r.name
    return f"{_CODE[a.operation]}{_CODE[r.resource_type]}{len(name)}:{name}{_CODE[r.pattern_type]}"


def decode_tokens(text: str, start: int = 0) -> Iterator[str | None]:
    at = start
    while at < len(text):
        if text[at] == "~":
            at += 1
            yield None
            continue
        colon = text.index(":", at)
        end = colon + 1 + int(text[at:colon])
        yield text[colon + 1:end]
        at = end


class JavaError(AuthorizerError):
    """A Kafka-style exception the hosted authorizer threw (``kind`` is the kit's name for it)."""


def raise_for(answer: str, what: str) -> str:
    """Return the payload of a ``+`` answer; raise the right error for a ``!`` answer.

    Kafka-style exceptions (not ready, IllegalArgumentException, ...) become
    :class:`JavaError` (a KafkaException: the kit compares its kind); anything
    else the JVM threw is an :class:`AdapterError` ("could not answer").
    """
    if answer.startswith("+"):
        return answer[1:]
    if not answer.startswith("!"):
        raise AdapterError("malformed-answer", f"{what}: the shim answered {answer[:200]!r}")
    kind, cls, message = (t or "" for t in decode_tokens(answer, 1))
    if kind == "unrepresentable":
        raise AdapterError("unrepresentable-input", f"{what}: {message}")
    if not kind:
        raise AdapterError("jvm-exception", f"{what} threw {cls}: {message}")
    raise JavaError(kind, f"{cls}: {message}", cls)


def decode_bindings(payload: str) -> list[AclBinding]:
    tokens = list(decode_tokens(payload))
    out = []
    for i in range(0, len(tokens), 7):
        rtype, name, ptype, principal, host, op, perm = tokens[i:i + 7]
        out.append(AclBinding(
            ResourcePattern(ResourceType.from_code(int(rtype or 0)), name or "", PatternType.from_code(int(ptype or 0))),
            AccessControlEntry(principal or "", _ALIASES.get(host or "", host or ""), AclOperation.from_code(int(op or 0)),
                               AclPermissionType.from_code(int(perm or 0))),
        ))
    return out

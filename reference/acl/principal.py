"""Kafka principals: ``Type:name``, split at the first colon.

Equality is by type and name, both case-sensitive, which is what both Kafka
authorizers compare after re-wrapping a session principal.
"""

from __future__ import annotations

import attrs

from kafka_conformance.reference.errors import AclValueError

__all__ = ["ANONYMOUS", "KafkaPrincipal", "parse_principal"]


@attrs.frozen(order=True)
class KafkaPrincipal:
    principal_type: str
    name: str

    def __str__(self) -> str:
        return f"{self.principal_type}:{self.name}"

    def __repr__(self) -> str:
        return f"KafkaPrincipal({self.principal_type!r}, {self.name!r})"


def parse_principal(text: str) -> KafkaPrincipal:
    """Kafka's ``SecurityUtils.parseKafkaPrincipal``.

    ``"User:a:b"`` is type ``User`` and name ``a:b``; ``"User:"`` is type ``User``
    with an empty name; text without a colon (or empty) is rejected.
    """
    if not isinstance(text, str) or text == "":
        raise AclValueError("principal", text, "must be 'Type:name', got an empty value")
    kind, sep, name = text.partition(":")
    if not sep:
        raise AclValueError("principal", text, "must be 'Type:name' (no ':' found)")
    return KafkaPrincipal(kind, name)


ANONYMOUS = KafkaPrincipal("User", "ANONYMOUS")

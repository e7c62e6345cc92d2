"""Kafka's ACL values: the enumerations, resource patterns, entries, bindings and
principals, and the filters that DescribeAcls, DeleteAcls and ``Authorizer.acls()`` match.

The vocabulary every other part of the authorization spec is written in; it
depends on nothing but :mod:`kafka_conformance.reference.errors`.
"""

from __future__ import annotations

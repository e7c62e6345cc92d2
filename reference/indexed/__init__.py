"""A fast engine beside the spec: the same answers as :mod:`~kafka_conformance.reference.authorizer`
for large ACL sets, by indexing per resource type and name.

It may import the spec (and is tested against it, differentially); the spec
never imports it.
"""

from __future__ import annotations

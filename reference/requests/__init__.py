"""Request-level ACL rules: which ACLs each producer and transaction request
needs per release (KIP-98, KIP-679), and running them against an authorizer.
"""

from __future__ import annotations

"""The authorization spec: what Kafka's authorizers answer, release by release.

Start with :mod:`.decide`, the decision procedure of ``Authorizer.authorize``
(KIP-801 steps, small enough to check line by line); then :mod:`.by_resource_type`
(KIP-679), :mod:`.config` (super users, ``allow.everyone.if.no.acl.found``),
:mod:`.records` and :mod:`.lifecycle` (KIP-801 record replay, the not-ready state),
:mod:`.validation` (what the broker and controller refuse) and :mod:`.profiles`
(the version flags, each with its ticket).
"""

from __future__ import annotations

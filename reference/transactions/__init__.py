"""Transactions (KIP-98, KIP-890) on top of idempotence: the coordinator of a transactional id,
a partition's transactional batches, markers and last stable offset, the scripts that drive
them, and what changed release by release.
"""

from __future__ import annotations

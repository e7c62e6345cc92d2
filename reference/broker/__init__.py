"""The broker half of idempotence: record batches and sequence arithmetic, Produce
error codes, per-producer state and its order of checks, one replica's log and a
replicated partition, and what changed release by release (the broker profile).
"""

from __future__ import annotations

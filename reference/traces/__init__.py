"""Failure traces as values: trace events, the fault plan (what the cluster does to
each produce request), and a producer run as a program of application and
cluster steps.
"""

from __future__ import annotations

"""The transactions suite: the named transaction scripts run on a real broker and on the spec's
model of its release, step by step, with the anomalies each run's read-back shows.
"""

from __future__ import annotations

"""The delivery checker: KIP-185's guarantees as a pure function from a trace, the
final log and the configuration to verdicts with attribution and named anomalies.
"""

from __future__ import annotations

"""The suites a corpus or fuzz run can hold (authorizer, producer, broker) and
their registry.
"""

from __future__ import annotations

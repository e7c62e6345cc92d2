"""The broker suite: crafted produce sequences as values, their strategies and the
probe table, comparison with the reference broker, broker target specs and
``check_broker`` with its report.
"""

from __future__ import annotations

"""The producer suite: failure-trace strategies and the stateful machine, the trace
table, the in-process model engine, wire engines and client specs,
``check_producer`` and the client x broker matrix, reports and saved traces.
"""

from __future__ import annotations

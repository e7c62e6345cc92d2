"""Any language as a target: an implementation process spoken to in JSON lines on
its stdin and stdout (``docs/subprocess-protocol.md``).
"""

from __future__ import annotations

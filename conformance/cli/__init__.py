"""The ``kafka-conformance`` command: a thin shell over the library, one module per
command family. It may import :mod:`kafka_conformance.corpora`, but only inside
the function that runs a command.
"""

from __future__ import annotations

"""The authorizer suite: cases as values, Hypothesis strategies, the differential,
lifecycle and metamorphic properties, the anomaly catalogue, target specs,
``check_authorizer`` and its reports, renderers and saved cases.
"""

from __future__ import annotations

"""The catalogue of authorizer properties: differential (against the reference),
lifecycle and metamorphic (against the target itself).

Each property is a function ``(ctx, scenario) -> None`` that raises
:class:`~kafka_conformance.authorizer.driver.CaseFailed` with a
:class:`~kafka_conformance.authorizer.report.Divergence` when the target is wrong, or
:class:`~kafka_conformance.authorizer.driver.TargetCrashed` when it cannot answer.
Hypothesis shrinks either to a minimal scenario.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.authorizer.cases import Scenario
from kafka_conformance.authorizer.differential import (
    check_authorize,
    check_by_type,
    check_by_type_witness,
    check_listing,
    check_not_ready,
    check_record_log,
    check_records,
)
from kafka_conformance.authorizer.metamorphic import (
    check_allow_monotonic,
    check_deny_monotonic,
    check_order_independence,
    check_super_users,
)
from kafka_conformance.authorizer.support import CheckContext
from kafka_conformance.reference.authorizer.by_resource_type import ByTypeVariant

__all__ = ["PROPERTIES", "CheckContext", "Property"]



@attrs.frozen
class Property:
    name: str
    summary: str
    check: Callable[[CheckContext, Scenario], None]
    needs: Callable[[Capabilities], str | None] = lambda caps: None
    """Returns why the property is out of scope for these capabilities, or None."""
    generator: str = "scenarios"
    """Which strategy feeds it: ``scenarios`` (snapshot + questions) or ``record_logs``."""



def _needs_by_type(caps: Capabilities) -> str | None:
    return None if caps.by_type_variant is not None else "the target does not implement authorize_by_resource_type"


PROPERTIES: tuple[Property, ...] = (
    Property("authorize", "authorize() equals the reference", check_authorize),
    Property("by-type", "authorize_by_resource_type() equals the declared variant", check_by_type, _needs_by_type),
    Property("by-type-witness", "a by-type ALLOWED is witnessed by some allowed resource",
             check_by_type_witness,
             lambda c: None if c.by_type_variant is ByTypeVariant.GROUND_TRUTH
             else "only for targets that declare ground-truth by-type semantics"),
    Property("not-ready", "before the initial load only super users are answered", check_not_ready,
             lambda c: None if c.not_ready_state and c.profile().has_not_ready_state
             else "the target declares no not-ready state"),
    Property("records", "records applied in order, questions between every two records", check_records,
             lambda c: None if c.incremental else "the target declares no incremental record application"),
    Property("record-log", "a generated record log, questions after every step; replay equals snapshot",
             check_record_log,
             lambda c: None if c.incremental else "the target declares no incremental record application",
             generator="record_logs"),
    Property("listing", "acls(filter) and acl_count() agree with Kafka's filter semantics", check_listing,
             lambda c: None if c.listing else "the target declares no listing"),
    Property("deny-monotonic", "adding a DENY never grants", check_deny_monotonic),
    Property("allow-monotonic", "adding an ALLOW never revokes (allow.everyone off)", check_allow_monotonic),
    Property("order-independence", "answers do not depend on ACL order", check_order_independence),
    Property("super-users", "super users are always allowed, ready or not", check_super_users),
)

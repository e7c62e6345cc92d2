"""The reviewed equivalent mutants of the reference: changes that cannot change an answer.

Each entry names a mutant of :mod:`.mutation`'s run as its file, its operator and the text
of the line it changes (so edits elsewhere do not move it), and says why no input can tell
it from the original.  An entry is a claim someone reviewed: the mutation run reports one
whose mutant is now caught, or no longer exists, as stale, so the list stays true.
"""

from __future__ import annotations

import attrs

__all__ = ["EQUIVALENT", "OUTSIDE_PROTOCOL", "Equivalent", "Outside"]


@attrs.frozen
class Equivalent:
    file: str
    operator: str
    line: str
    reason: str
    occurrence: int = 0


@attrs.frozen
class Outside:
    """A function, method or class of the reference that an implementation serving the protocol
    never runs: every mutant inside it is left out of the run (reported as not run, with the
    reason).  ``scope`` is a qualified name inside ``file`` (``ReferenceAuthorizer.create_acls``),
    or ``*`` for the whole module.  ``tests/quality/test_mutation.py`` serves the reference through
    the coverage phase of every judged release and fails if any of these is ever entered."""

    file: str
    scope: str
    reason: str


_TEXT = "text for people (reports, errors): no answer of the protocol carries it"
_ZK_API = ("the ZooKeeper-era Authorizer API (createAcls, deleteAcls) and the controller's validation of "
           "CreateAcls and DeleteAcls requests: the protocol has no call for them (the requests suite checks them "
           "on brokers, and tests/spec restates Kafka's own tests of them)")
_BUILDER = "builds values for the kit's own code (ACL files, the CLI, tests); a served implementation decodes JSON instead"

OUTSIDE_PROTOCOL: tuple[Outside, ...] = (
    Outside("reference/authorizer/validation.py", "*", _ZK_API),
    *(Outside("reference/authorizer/lifecycle.py", f"ReferenceAuthorizer.{m}", _ZK_API)
      for m in ("create_acls", "_holds", "delete_acls", "_new_id")),
    *(Outside("reference/authorizer/profiles.py", f"Profile.{m}", _ZK_API)
      for m in ("delete_attributes_to_every_filter", "rejects_slash_in_names", "controller_rejects_empty_names")),
    *(Outside("reference/acl/filters.py", f"{c}.is_unknown", _ZK_API)
      for c in ("ResourcePatternFilter", "AccessControlEntryFilter", "AclBindingFilter")),
    Outside("reference/acl/filters.py", "AclBindingFilter.for_binding", _BUILDER),
    *(Outside("reference/authorizer/lifecycle.py", f"ReferenceAuthorizer.{m}",
              "a convenience of the Python API; the adapter drives the authorizer through its protocol methods")
      for m in ("ready", "apply_all", "authorize_one", "snapshot")),
    Outside("reference/authorizer/records.py", "AclStore.__iter__", "a convenience of the Python API"),
    Outside("reference/authorizer/records.py", "replay", "a convenience of the Python API (tests, explain)"),
    *(Outside("reference/acl/values.py", s, _BUILDER)
      for s in ("_Coded.parse", "_Coded.from_name", "PatternType.from_name", "AclBinding.of", "_coerce",
                "PatternType.is_specific", "AccessControlEntry.parsed_principal")),
    *(Outside("reference/acl/values.py", s, "Kafka's numeric codes, for the wire of the broker suites; the "
              "protocol carries names") for s in ("_Coded.code", "_Coded.from_code")),
    *(Outside("reference/authorizer/config.py", s, _BUILDER) for s in ("AuthorizerConfig.of", "AuthorizerConfig.to_properties")),
    *(Outside(f, s, _TEXT) for f, s in (
        ("reference/acl/principal.py", "KafkaPrincipal.__repr__"),
        ("reference/acl/values.py", "_Coded.__repr__"),
        ("reference/acl/values.py", "ResourcePattern.__str__"),
        ("reference/acl/values.py", "AccessControlEntry.__str__"),
        ("reference/acl/values.py", "AclBinding.__repr__"),
        ("reference/authorizer/decision.py", "AuthorizationResult.__repr__"),
        ("reference/authorizer/decision.py", "RequestContext.__str__"),
        ("reference/authorizer/decision.py", "Action.__str__"),
        ("reference/authorizer/records.py", "AddAcl.__str__"),
        ("reference/authorizer/records.py", "RemoveAcl.__str__"),
    )),
)
"""Reviewed: what of the mutated reference a served implementation never runs, and why."""

_PRINCIPAL = "reference/acl/principal.py"
_EMPTY = 'if not isinstance(text, str) or text == "":'
_NO_COLON = ("the empty text has no colon, so the next check refuses it with the same error "
             "(invalid-argument); only the message differs, and messages are not compared")

EQUIVALENT: tuple[Equivalent, ...] = (
    # -- reference/acl/principal.py --------------------------------------------------------------
    Equivalent(_PRINCIPAL, "ReplaceComparisonOperator_Eq_Lt", _EMPTY, _NO_COLON),
    Equivalent(_PRINCIPAL, "ReplaceComparisonOperator_Eq_LtE", _EMPTY, "for strings, <= '' is == ''"),
    Equivalent(_PRINCIPAL, "ReplaceComparisonOperator_Eq_Is", _EMPTY,
               f"CPython has one empty string, so `is ''` is `== ''`; and else {_NO_COLON}"),
    Equivalent(_PRINCIPAL, "ReplaceOrWithAnd", _EMPTY,
               f"only a non-string could pass the isinstance half, and the protocol carries strings; {_NO_COLON}"),
    Equivalent(_PRINCIPAL, "ReplaceTrueWithFalse", "@attrs.frozen(order=True)",
               "no decision orders principals: ordering serves the kit's reports, never an answer"),
)

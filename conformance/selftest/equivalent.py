"""The reviewed equivalent mutants of the reference: changes that cannot change an answer.

Each entry names a mutant of :mod:`.mutation`'s run as its file, its operator and the text
of the line it changes (so edits elsewhere do not move it), and says why no input can tell
it from the original.  An entry is a claim someone reviewed: the mutation run reports one
whose mutant is now caught, or no longer exists, as stale, so the list stays true.
"""

from __future__ import annotations

import attrs

__all__ = ["EQUIVALENT", "KNOWN_GAPS", "OUTSIDE_PROTOCOL", "Equivalent", "KnownGap", "Outside"]


@attrs.frozen
class Equivalent:
    """A mutant no input can tell from the reference: its file, Cosmic Ray's operator, the line's text;
    ``after`` (the line as the mutant has it) and ``scope`` (the enclosing function or class) narrow it
    where the line alone is ambiguous, as ``follows`` (the line before) does for identical lines in one scope;
    an entry without them names every variant on that line."""

    file: str
    operator: str
    line: str
    reason: str
    after: str = ""
    scope: str = ""
    follows: str = ""


@attrs.frozen
class KnownGap:
    """A survivor that is not equivalent: an input Kafka defines an answer for, which the suite does
    not send yet.  Listed so that the run tells a new survivor from a known one; each is an open
    item (the selftest's output lists them first), and one the suite comes to catch is reported
    stale, so the entry is removed when the gap is closed."""

    file: str
    operator: str
    line: str
    gap: str
    after: str = ""
    scope: str = ""
    follows: str = ""


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
    *(Outside("reference/authorizer/lifecycle.py", c, _ZK_API) for c in ("CreateResult", "DeleteResult")),
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
_VALUES = "reference/acl/values.py"
_FILTERS = "reference/acl/filters.py"
_BY_TYPE = "reference/authorizer/by_resource_type.py"
_CONFIG = "reference/authorizer/config.py"
_DECIDE = "reference/authorizer/decide.py"
_DECISION = "reference/authorizer/decision.py"
_LIFECYCLE = "reference/authorizer/lifecycle.py"
_PROFILES = "reference/authorizer/profiles.py"
_WALK = "reference/authorizer/walk.py"

# Reasons, each reviewed once and shared by the mutants it explains.
_NO_COLON = ("the empty text has no colon, so the next check refuses it with the same error "
             "(invalid-argument); only the message differs, and messages are not compared")
_EMPTY_FIRST = "nothing sorts below the empty string, so `<= ''` is `== ''`"
_ONE_EMPTY = "CPython has one empty string object (decoding, slicing, splitting and strip all return it), so `is ''` is `== ''`"
_ONE_CHAR = "CPython shares one object per one-character Latin-1 string (the JSON decoder's too), so `is '*'` is `== '*'`"
_ENUM_PAIR = "both sides are members of one enum without an __eq__ of its own: equality is identity"
_CODES = ("Kafka's numeric code of a member, used by the broker suites' wire; the protocol carries names, "
          "and the new code aliases no other member")
_TEXT_ONLY = "changes only the text of an explanation (Decision.detail and explain), which no answer carries"
_CONFIGURED = ("a default the protocol always replaces: every case calls configure before anything else, "
               "and parse_config sets both fields")
_DECLARED = ("what the reference declares in hello follows what it does: the kit holds a target to its "
             "declaration (AclAuthorizer's aclCount is declared unsupported and never asked; the by-type variant is "
             "declared and the kit judges by it), so a mutant that changes both stays consistent")
_RELEASES = ("which releases, flavours and by-type variants are refused (profile_for, Flavour.parse, "
             "ByTypeVariant.parse): the judge serves only what it models, so a refusal never runs in a served "
             "reference (tests/unit holds the CLI's refusals)")
_ORDER_ONLY = "no decision orders these values: ordering serves the kit's reports and sorting, never an answer"
_FRESH = ("any character that starts no longer ACL name serves the ground truth as well; the non-ASCII search "
          "is reached only when all 64 ASCII candidates are taken under one stem, and its bounds only past 65,000")
_PREFIX_BELOW = ("reached only when the ACL's name is a prefix of the asked name (the line before checks it), "
                 "and a proper prefix sorts below the name, so `<` and `!=` agree")
_STAR_ORDER = ("the order of the `*` ACLs only orders the ACLs a decision lists; which ACLs match, and so the "
               "answer, is the same (a stable sort keeps the input order when the keys tie)")
_ACL_EMPTY_NAME = ("AclAuthorizer keeps ACLs in ZooKeeper znodes named after the resource and can hold no empty "
                   "name, so the kit hands an acl-flavour target none (domain class name:empty needs standard)")
_SAME_VALUE = "re-wraps a principal as a plain KafkaPrincipal of the same type and name: equal either way"
_PAST_END = "`name[:i]` past the name's length is the name itself, which the last step already checked"
_LISTED = "which ACL a decision lists as its reason: not an answer the protocol carries"
_ALWAYS_PASSED = "a default no caller relies on: the only caller passes the argument"
_CACHE_SIZE = "a cache (its size, or whether there is one): speed, never an answer"
_MARKER = ("turns the keyword-only marker into a positional-only one; every caller passes the arguments before it "
           "by position and those after it by name, so each call binds the same")
_EMPTY_PIECES = ("an empty super.users splits into one empty piece, which the trailing-empty rule drops: the "
                 "same empty set")
_STAR_TAIL = ("past the `*` entries the wildcard walk goes over names that sort below `*`; a prefix of the asked "
              "name that sorts below `*` means the asked name does too, and the first walk has gone over those "
              "names from the asked one down, so stopping there loses no ACL")
_LENGTHS = ("CPython shares int objects below 257, and a name that starts with the stem is at least as long, "
            "so `is not` is `!=` is `>` here")


_ACL_NO_UNKNOWN = ("how AclAuthorizer treats a stored UNKNOWN permission: the kit hands an acl-flavour target no "
                   "UNKNOWN values (domain classes op:unknown-stored, decision:unknown-permission and "
                   "name:unknown-pattern need standard), as it hands it no empty names")
_BELOW_ZERO = ("UNKNOWN's code moved below zero: it aliases no member, the protocol carries names, and where codes "
               "order ACLs (StandardAcl's order in walk.kafka_walk) it still sorts first")
_LABEL = ("the text of a profile's name (reports, and the implementation's name in hello), which no answer "
          "carries; Profile.documented is read only there")
_ONE_BY_ONE = ("naming single bugs to fix (`fixed`) is the judge's own use, to say which bug separates two answers "
               "(kafka_bug_of, held by tests/unit/test_kafka_bugs.py); a served reference is asked for a release as "
               "shipped or as documented, never with bugs named")
_BINARY = ("Add", "Sub", "Mul", "Div", "FloorDiv", "Mod", "Pow", "RShift", "LShift", "BitOr", "BitAnd", "BitXor")


def _eq(file: str, operator: str, line: str, reason: str, scope: str = "") -> Equivalent:
    return Equivalent(file, operator, line, reason, scope=scope)


_EMPTY = 'if not isinstance(text, str) or text == "":'
_DETAIL = 'more = f" (and {len(self.acls) - 5} more)" if len(self.acls) > 5 else ""'
_FRESH_LINE = "fresh = next(chr(cp) for cp in range(0x100, 0x10000) if chr(cp) not in taken)"
_STD_BEFORE = "if f is Flavour.STANDARD and v < KafkaVersion(3, 2, 0):"
_ORDER = "order = {PatternType.LITERAL: 0, PatternType.PREFIXED: 1}"
_ACL_EMPTY = 'if pattern.name == "" and not profile.empty_prefix_matches_all:'
_DOMINATED = "return any(name[:i] in deny_prefixes for i in range(1, len(name) + 1))"
_ACL_AFTER = "if f is Flavour.ACL and v >= KafkaVersion(4, 0, 0):"
_NAME_LINE = '"as documented" if self.documented else "without " + ", ".join(sorted(self.fixed)))'
_DOCUMENTED = "return bool(self.fixed) and self.fixed == frozenset(b.id for b in self.bugs())"
_CHOSEN_LINE = "chosen = has if kafka_bugs is KafkaBugs.DOCUMENTED else has & fixed"

EQUIVALENT: tuple[Equivalent, ...] = (
    # -- reference/acl/principal.py ------------------------------------------------------------------
    _eq(_PRINCIPAL, "ReplaceComparisonOperator_Eq_Lt", _EMPTY, _NO_COLON),
    _eq(_PRINCIPAL, "ReplaceComparisonOperator_Eq_LtE", _EMPTY, _EMPTY_FIRST),
    _eq(_PRINCIPAL, "ReplaceComparisonOperator_Eq_Is", _EMPTY, _ONE_EMPTY),
    _eq(_PRINCIPAL, "ReplaceTrueWithFalse", "@attrs.frozen(order=True)", _ORDER_ONLY),
    _eq(_PRINCIPAL, "ReplaceOrWithAnd", _EMPTY,
        f"only a non-string could pass the isinstance half, and the protocol carries strings; {_NO_COLON}"),
    # -- reference/acl/values.py ---------------------------------------------------------------------
    Equivalent(_VALUES, "NumberReplacer", "PREFIXED = 4", _CODES, after="PREFIXED = 5"),
    *(Equivalent(_VALUES, "NumberReplacer", f"{name} = {code}", _CODES, after=f"{name} = {code + 1}")
      for name, code in (("DESCRIBE_TOKENS", 14), ("ALLOW", 3), ("USER", 7))),
    _eq(_VALUES, "ReplaceFalseWithTrue", "@attrs.frozen(order=False)", _ORDER_ONLY),
    _eq(_VALUES, "ReplaceComparisonOperator_Eq_Is",
        "return self.pattern_type is PatternType.LITERAL and self.name == WILDCARD_RESOURCE", _ONE_CHAR),
    _eq(_VALUES, "ReplaceOrWithAnd", 'f"from host {self.entry.host or repr(self.entry.host)}"',
        "changes only the text of an ACL in an error's message (a refused record names it), which is not compared"),
    # -- reference/acl/filters.py --------------------------------------------------------------------
    _eq(_FILTERS, "ReplaceComparisonOperator_IsNot_NotEq",
        "if self.operation is not AclOperation.ANY and self.operation is not entry.operation:", _ENUM_PAIR),
    _eq(_FILTERS, "ReplaceComparisonOperator_IsNot_NotEq",
        "if rtype is not ResourceType.ANY and rtype is not pattern.resource_type:", _ENUM_PAIR),
    _eq(_FILTERS, "ReplaceComparisonOperator_IsNot_NotEq",
        "if ptype is not PatternType.ANY and ptype is not pattern.pattern_type:", _ENUM_PAIR),
    _eq(_FILTERS, "ReplaceComparisonOperator_Is_Eq", "or self.permission_type is entry.permission_type", _ENUM_PAIR),
    # -- reference/authorizer/by_resource_type.py ----------------------------------------------------
    _eq(_BY_TYPE, "ReplaceComparisonOperator_Eq_Is", "if pattern.name == WILDCARD_RESOURCE:", _ONE_CHAR),
    _eq(_BY_TYPE, "ReplaceComparisonOperator_Eq_Is", "if name == WILDCARD_RESOURCE:", _ONE_CHAR),
    _eq(_BY_TYPE, "ReplaceComparisonOperator_IsNot_NotEq", "if acl.pattern.resource_type is not resource_type:",
        _ENUM_PAIR),
    _eq(_BY_TYPE, "ReplaceComparisonOperator_Gt_IsNot",
        "taken = {n[len(stem)] for n in names if len(n) > len(stem) and n.startswith(stem)}", _LENGTHS),
    _eq(_BY_TYPE, "NumberReplacer", _FRESH_LINE, _FRESH),
    _eq(_BY_TYPE, "ReplaceTrueWithFalse", "ready: bool = True,", _ALWAYS_PASSED),
    _eq(_BY_TYPE, "ReplaceBinaryOperator_Mul_Div", "*,", _MARKER),
    _eq(_BY_TYPE, "ExceptionReplacer", "except ValueError:", _RELEASES),
    _eq(_BY_TYPE, "ReplaceBinaryOperator_Add_LShift", _DOMINATED, _PAST_END),
    Equivalent(_BY_TYPE, "NumberReplacer", _DOMINATED, _PAST_END,
               after="return any(name[:i] in deny_prefixes for i in range(1, len(name) + 2))"),
    _eq(_BY_TYPE, "ReplaceComparisonOperator_Is_Eq",
        "names = {a.pattern.name for a in acls if a.pattern.resource_type is resource_type}", _ENUM_PAIR),
    _eq(_BY_TYPE, "ReplaceComparisonOperator_Is_Eq",
        "if a.pattern.resource_type is resource_type and a.pattern.pattern_type is not PatternType.LITERAL", _ENUM_PAIR),
    Equivalent(_BY_TYPE, "NumberReplacer", "return Decision(ALLOWED, Rule.BY_TYPE_UNDOMINATED_ALLOW, (allows[0],))",
               _LISTED, after="return Decision(ALLOWED, Rule.BY_TYPE_UNDOMINATED_ALLOW, (allows[ -1],))"),
    _eq(_BY_TYPE, "ReplaceComparisonOperator_Gt_NotEq",
        "taken = {n[len(stem)] for n in names if len(n) > len(stem) and n.startswith(stem)}", _LENGTHS),
    # -- reference/authorizer/config.py --------------------------------------------------------------
    _eq(_CONFIG, "ReplaceFalseWithTrue", "allow_everyone_if_no_acl_found: bool = False", _CONFIGURED),
    _eq(_CONFIG, "ReplaceComparisonOperator_Eq_LtE", 'if raw == "":', _EMPTY_FIRST),
    _eq(_CONFIG, "ReplaceComparisonOperator_Eq_Is", 'if raw == "":', _ONE_EMPTY),
    _eq(_CONFIG, "ReplaceComparisonOperator_Eq_Is", 'while pieces and pieces[-1] == "":', _ONE_EMPTY),
    _eq(_CONFIG, "ReplaceComparisonOperator_Eq_LtE", 'if raw.strip() == "":', _EMPTY_FIRST),
    _eq(_CONFIG, "ReplaceComparisonOperator_Eq_Is", 'if raw.strip() == "":', _ONE_EMPTY),
    _eq(_CONFIG, "ReplaceComparisonOperator_Eq_Lt", 'if raw == "":', _EMPTY_PIECES),
    _eq(_CONFIG, "ReplaceComparisonOperator_Eq_Lt", 'if raw.strip() == "":',
        "a blank super.users leaves no entry once empty entries are skipped: the same empty set"),
    _eq(_CONFIG, "NumberReplacer", "for position, segment in enumerate(segments, start=1):",
        "numbers the refused entry in the error's message, which is not compared"),
    _eq(_CONFIG, "ReplaceComparisonOperator_Eq_LtE", 'while pieces and pieces[-1] == "":', _EMPTY_FIRST),
    # -- reference/authorizer/decide.py --------------------------------------------------------------
    _eq(_DECIDE, "AddNot", 'flag = "true" if config.allow_everyone_if_no_acl_found else "false"', _TEXT_ONLY),
    _eq(_DECIDE, "ReplaceComparisonOperator_Eq_Lt", _ACL_EMPTY, _ACL_EMPTY_NAME),
    _eq(_DECIDE, "ReplaceComparisonOperator_Eq_LtE", _ACL_EMPTY, _EMPTY_FIRST),
    _eq(_DECIDE, "ReplaceComparisonOperator_Eq_Is", _ACL_EMPTY, _ONE_EMPTY),
    _eq(_DECIDE, "ReplaceComparisonOperator_Eq_Is", "if pattern.name == WILDCARD_RESOURCE:", _ONE_CHAR),
    *(_eq(_DECIDE, op, 'return name == ""', _ACL_EMPTY_NAME) for op in (
        "ReplaceComparisonOperator_Eq_Is", "ReplaceComparisonOperator_Eq_IsNot", "ReplaceComparisonOperator_Eq_Lt")),
    _eq(_WALK, "ReplaceComparisonOperator_NotEq_Lt",
        "if acl.pattern.pattern_type is PatternType.LITERAL and acl.pattern.name != name:", _PREFIX_BELOW),
    _eq(_WALK, "NumberReplacer", _ORDER, _STAR_ORDER),
    _eq(_WALK, "ReplaceTrueWithFalse", "reverse=True,", _STAR_TAIL, "_walk_from_wildcard"),
    _eq(_WALK, "ReplaceComparisonOperator_Lt_LtE",
        "(a for a in same_type if java_order(a.pattern.name) < java_order(WILDCARD_RESOURCE)),", _STAR_TAIL),
    _eq(_DECIDE, "ReplaceComparisonOperator_Is_Eq", "if acl_op is AclOperation.ALL or acl_op is requested:", _ENUM_PAIR),
    _eq(_DECIDE, "ReplaceBinaryOperator_Mul_Div", "*,", _MARKER),
    _eq(_DECIDE, "RemoveDecorator", "@lru_cache(maxsize=65536)", _CACHE_SIZE),
    _eq(_DECIDE, "NumberReplacer", "@lru_cache(maxsize=65536)", _CACHE_SIZE),
    _eq(_DECIDE, "ReplaceTrueWithFalse", "ready: bool = True,", _ALWAYS_PASSED),
    _eq(_DECIDE, "ReplaceComparisonOperator_Eq_LtE", "if profile.single_char_prefix_bug and len(pattern.name) == 1:",
        _ACL_EMPTY_NAME),
    _eq(_WALK, "ReplaceComparisonOperator_Eq_Is",
        "(a for a in same_type if a.pattern.name == WILDCARD_RESOURCE and a.pattern.pattern_type in order),", _ONE_CHAR),
    _eq(_DECIDE, "ReplaceComparisonOperator_Is_Eq",
        "same_type = [a for a in acls if a.pattern.resource_type is resource.resource_type]", _ENUM_PAIR),
    _eq(_DECIDE, "ReplaceComparisonOperator_NotEq_IsNot",
        "return profile.star_names_skip_wildcard_literal and name.startswith(WILDCARD_RESOURCE) and name != WILDCARD_RESOURCE",
        _ONE_CHAR),
    _eq(_DECIDE, "ReplaceComparisonOperator_Eq_GtE", 'return name == ""', _ACL_EMPTY_NAME),
    *(_eq(_DECIDE, op, 'return name == ""', _ACL_EMPTY_NAME) for op in (
        "ReplaceComparisonOperator_Eq_LtE", "ReplaceComparisonOperator_Eq_Gt", "ReplaceComparisonOperator_Eq_NotEq")),
    _eq(_DECIDE, "ReplaceComparisonOperator_NotEq_Gt",
        "return profile.star_names_skip_wildcard_literal and name.startswith(WILDCARD_RESOURCE) and name != WILDCARD_RESOURCE",
        "a name that starts with '*' and is not '*' is longer, so it sorts above '*': `>` is `!=` here"),
    _eq(_WALK, "ReplaceContinueWithBreak",
        "continue  # the LITERAL '*' entry was evaluated and the walk went on", _STAR_TAIL),
    # -- reference/authorizer/decision.py ------------------------------------------------------------
    _eq(_DECISION, "AddNot", "if type(principal) is KafkaPrincipal:", _SAME_VALUE),
    _eq(_DECISION, "ReplaceComparisonOperator_Is_Eq", "if type(principal) is KafkaPrincipal:", _SAME_VALUE),
    _eq(_DECISION, "ReplaceComparisonOperator_Is_IsNot", "if type(principal) is KafkaPrincipal:", _SAME_VALUE),
    _eq(_DECISION, "ReplaceComparisonOperator_Is_NotEq", "if type(principal) is KafkaPrincipal:", _SAME_VALUE),
    _eq(_DECISION, "ReplaceComparisonOperator_Is_IsNot",
        'head = self.result.name if self.error is None else f"ERROR ({self.error})"', _TEXT_ONLY),
    _eq(_DECISION, "AddNot", "if self.witness is not None:", _TEXT_ONLY),
    _eq(_DECISION, "ReplaceComparisonOperator_IsNot_Is", "if self.witness is not None:", _TEXT_ONLY),
    _eq(_DECISION, "NumberReplacer", 'listed = "; ".join(f"ACL {acl}" for acl in self.acls[:5])', _TEXT_ONLY),
    _eq(_DECISION, "AddNot", 'head = self.result.name if self.error is None else f"ERROR ({self.error})"', _TEXT_ONLY),
    _eq(_DECISION, "AddNot", "if self.acls:", _TEXT_ONLY),

    *(_eq(_DECISION, op, _DETAIL, _TEXT_ONLY) for op in (
        "NumberReplacer", "ReplaceBinaryOperator_Sub_Add", "ReplaceBinaryOperator_Sub_BitAnd",
        "ReplaceBinaryOperator_Sub_FloorDiv", "ReplaceBinaryOperator_Sub_Mod", "ReplaceBinaryOperator_Sub_Mul",
        "ReplaceBinaryOperator_Sub_RShift", "ReplaceBinaryOperator_Sub_LShift", "ReplaceComparisonOperator_Gt_GtE",
        "ReplaceComparisonOperator_Gt_NotEq", "ReplaceComparisonOperator_Gt_LtE", "AddNot", "ReplaceBinaryOperator_Sub_Div",
        "ReplaceComparisonOperator_Gt_Eq", "ReplaceComparisonOperator_Gt_Lt", "ReplaceBinaryOperator_Sub_BitOr",
        "ReplaceBinaryOperator_Sub_BitXor", "ReplaceBinaryOperator_Sub_Pow")),
    _eq(_DECISION, "AddNot", "if self.detail:", _TEXT_ONLY),
    # -- reference/authorizer/lifecycle.py -----------------------------------------------------------
    _eq(_LIFECYCLE, "ReplaceBinaryOperator_Mul_Div", "*,", _MARKER),
    *(_eq(_LIFECYCLE, op, "return len(self._store) if self.profile.acl_count_supported else -1", _DECLARED)
      for op in ("ReplaceUnaryOperator_USub_Not", "ReplaceUnaryOperator_USub_UAdd", "NumberReplacer",
                 "ReplaceUnaryOperator_Delete_USub", "ReplaceUnaryOperator_USub_Invert")),
    _eq(_LIFECYCLE, "ReplaceOrWithAnd", "self.config = config or AuthorizerConfig()", _CONFIGURED),
    _eq(_LIFECYCLE, "NumberReplacer", "self._next_id = 0",
        "the counter numbers ACLs that createAcls adds, a call the protocol does not have"),
    # -- reference/authorizer/profiles.py ------------------------------------------------------------
    _eq(_PROFILES, "RemoveDecorator", "@cached_property", _ACL_EMPTY_NAME, "Profile.empty_prefix_matches_all"),
    _eq(_PROFILES, "NumberReplacer", "@lru_cache(maxsize=256)", _CACHE_SIZE),
    _eq(_PROFILES, "RemoveDecorator", "@lru_cache(maxsize=256)", _CACHE_SIZE),
    _eq(_PROFILES, "ReplaceComparisonOperator_Lt_Is", _STD_BEFORE, _RELEASES),
    _eq(_PROFILES, "ReplaceComparisonOperator_Lt_Eq", _STD_BEFORE, _RELEASES),
    *(Equivalent(_PROFILES, "NumberReplacer", _STD_BEFORE, _RELEASES, after=_STD_BEFORE.replace("(3, 2, 0)", v))
      for v in ("( 2, 2, 0)", "(3, 1, 0)", "(3, 2, 1)", "(3, 2, -1)")),
    _eq(_PROFILES, "ReplaceComparisonOperator_Lt_LtE", _STD_BEFORE, _RELEASES),
    _eq(_PROFILES, "ReplaceComparisonOperator_GtE_Gt", "if f is Flavour.ACL and v >= KafkaVersion(4, 0, 0):", _RELEASES),
    _eq(_PROFILES, "ExceptionReplacer", "except ValueError:", _RELEASES),
    _eq(_PROFILES, "ReplaceComparisonOperator_Lt_Is", "if v < OLDEST_VERSION:", _RELEASES),
    _eq(_PROFILES, "ReplaceComparisonOperator_Lt_Eq", "if v < OLDEST_VERSION:", _RELEASES),
    _eq(_PROFILES, "ReplaceComparisonOperator_Lt_LtE", "if v < OLDEST_VERSION:", _RELEASES),
    _eq(_PROFILES, "ReplaceComparisonOperator_GtE_Is", "if f is Flavour.ACL and v >= KafkaVersion(4, 0, 0):", _RELEASES),
    _eq(_PROFILES, "ReplaceComparisonOperator_GtE_Eq", _ACL_AFTER, _RELEASES),
    *(Equivalent(_PROFILES, "NumberReplacer", _ACL_AFTER, _RELEASES, after=_ACL_AFTER.replace("(4, 0, 0)", v))
      for v in ("( 5, 0, 0)", "(4, 1, 0)", "(4, -1, 0)", "(4, 0, 1)", "(4, 0, -1)")),
    _eq(_PROFILES, "ReplaceAndWithOr", 'return self.is_standard and self.version.at_least("3.3.0")', _DECLARED),
    Equivalent(_VALUES, "NumberReplacer", "UNKNOWN = 0", _BELOW_ZERO, after="UNKNOWN = -1"),
    # UNKNOWN values reach only StandardAuthorizer targets (their domain classes need standard).
    _eq(_PROFILES, "RemoveDecorator", "@cached_property", _ACL_NO_UNKNOWN, "Profile.non_allow_deny_permission_denies"),
    Equivalent(_DECIDE, "ReplaceFalseWithTrue", "return False", _ACL_NO_UNKNOWN, scope="acl_applies",
               follows="if not profile.non_allow_deny_permission_denies:"),
    # A profile's name, and whether it is the documented variant, which only that name reads.
    _eq(_PROFILES, "AddNot", "if not self.fixed:", _LABEL, "Profile.__str__"),
    _eq(_PROFILES, "ReplaceUnaryOperator_Delete_Not", "if not self.fixed:", _LABEL, "Profile.__str__"),
    _eq(_PROFILES, "AddNot", _NAME_LINE, _LABEL),
    *(_eq(_PROFILES, f"ReplaceBinaryOperator_Add_{op}", _NAME_LINE, _LABEL) for op in _BINARY if op != "Add"),
    _eq(_PROFILES, "RemoveDecorator", "@property", _LABEL, "Profile.documented"),
    _eq(_PROFILES, "ReplaceAndWithOr", _DOCUMENTED, _LABEL),
    *(_eq(_PROFILES, f"ReplaceComparisonOperator_Eq_{op}", _DOCUMENTED, _LABEL)
      for op in ("NotEq", "Lt", "LtE", "Gt", "GtE", "Is", "IsNot")),
    # profile_for's refusal of unknown bugs, and the bugs named one by one.
    _eq(_PROFILES, "ReplaceBinaryOperator_Sub_BitAnd", "unknown = set(fixed) - _BUG_IDS", _RELEASES),
    *(_eq(_PROFILES, f"ReplaceBinaryOperator_BitAnd_{op}", _CHOSEN_LINE, _ONE_BY_ONE) for op in _BINARY if op != "BitAnd"),
    _eq(_PROFILES, "ReplaceBinaryOperator_Mul_Div",
        "fixed: frozenset[str] = frozenset(), *, kafka_bugs: KafkaBugs | str = KafkaBugs.AS_RELEASED,", _MARKER),
)
"""Reviewed: the mutants no input can tell from the reference, each with the reason."""

KNOWN_GAPS: tuple[KnownGap, ...] = ()
"""Reviewed: the survivors the suite cannot catch yet, each with the input it lacks.  Empty since
the hostile coverage phase stores an ACL of resource type UNKNOWN (the last two: moving
``ResourceType``'s code of UNKNOWN or ANY made the two one member)."""

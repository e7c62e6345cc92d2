"""Fixtures shared by the spec tests (``tests/spec``).

These tests check the executable spec in ``kafka_conformance.reference`` against
the facts of Kafka's own authorizer test suites, restated in our own words.
The fixtures build reference authorizers the way those suites build real ones:
ACLs go straight into the store as metadata records (like
``StandardAuthorizer.addAcl`` in ``StandardAuthorizerTest``), bypassing the
create-time validation that the admin path applies.

All fixtures are session-scoped and stateless, so Hypothesis tests may use them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from kafka_conformance.reference import (
    AclBinding,
    AclOperation,
    Action,
    AddAcl,
    AuthorizationResult,
    AuthorizerConfig,
    ByTypeVariant,
    Decision,
    PatternType,
    Profile,
    ReferenceAuthorizer,
    RequestContext,
    ResourcePattern,
    ResourceType,
    parse_principal,
    profile_for,
)

DEFAULT_HOST = "127.0.0.1"


def _op(value: AclOperation | str) -> AclOperation:
    return value if isinstance(value, AclOperation) else AclOperation[value]


def _rtype(value: ResourceType | str) -> ResourceType:
    return value if isinstance(value, ResourceType) else ResourceType[value]


@pytest.fixture(scope="session")
def build() -> Callable[..., ReferenceAuthorizer]:
    """``build(profile, acls, super_users=(), allow_everyone=False, loaded=True, variant=None)``.

    Returns a reference authorizer holding ``acls`` (added as records with ids
    ``acl-0``, ``acl-1``, ...).  ``loaded`` completes the initial load.
    """

    def _build(
        profile: Profile,
        acls: Iterable[AclBinding] = (),
        *,
        super_users: Iterable[str] = (),
        allow_everyone: bool = False,
        loaded: bool = True,
        variant: ByTypeVariant | None = None,
    ) -> ReferenceAuthorizer:
        authz = ReferenceAuthorizer(
            profile, AuthorizerConfig.of(super_users, allow_everyone), by_type_variant=variant
        )
        for index, acl in enumerate(acls):
            authz.apply(AddAcl(f"acl-{index}", acl))
        if loaded:
            authz.complete_initial_load()
        return authz

    return _build


@pytest.fixture(scope="session")
def decide_one() -> Callable[..., Decision]:
    """``decide_one(authz, principal, op, rtype, name, host=..., pattern=LITERAL) -> Decision``."""

    def _decide(
        authz: ReferenceAuthorizer,
        principal: str,
        op: AclOperation | str,
        rtype: ResourceType | str,
        name: str,
        *,
        host: str = DEFAULT_HOST,
        pattern: PatternType = PatternType.LITERAL,
    ) -> Decision:
        context = RequestContext(parse_principal(principal), host)
        action = Action(_op(op), ResourcePattern(_rtype(rtype), name, pattern))
        return authz.authorize(context, [action])[0]

    return _decide


@pytest.fixture(scope="session")
def check(decide_one: Callable[..., Decision]) -> Callable[..., AuthorizationResult]:
    """``check(authz, principal, op, rtype, name, host=..., pattern=LITERAL) -> result``."""

    def _check(*args: object, **kwargs: object) -> AuthorizationResult:
        return decide_one(*args, **kwargs).result

    return _check


@pytest.fixture(scope="session")
def by_type() -> Callable[..., AuthorizationResult]:
    """``by_type(authz, principal, op, rtype, host=..., variant=None) -> result``."""

    def _by_type(
        authz: ReferenceAuthorizer,
        principal: str,
        op: AclOperation | str,
        rtype: ResourceType | str,
        *,
        host: str = DEFAULT_HOST,
        variant: ByTypeVariant | None = None,
    ) -> AuthorizationResult:
        context = RequestContext(parse_principal(principal), host)
        return authz.authorize_by_resource_type(context, _op(op), _rtype(rtype), variant).result

    return _by_type


@pytest.fixture(
    scope="session",
    params=[("3.9.0", "standard"), ("3.9.0", "acl"), (None, "standard")],
    ids=["kraft-3.9.0", "zk-3.9.0", "kraft-latest"],
)
def upstream_mode(request: pytest.FixtureRequest) -> Profile:
    """The modes ``AuthorizerTest`` ran in: at 3.9.0 both ``kraft``
    (StandardAuthorizer) and ``zk`` (AclAuthorizer); at HEAD kraft only."""
    version, flavour = request.param
    return profile_for(flavour=flavour) if version is None else profile_for(version, flavour)

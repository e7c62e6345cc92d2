"""``kafka:VERSION[:standard|acl]``: Apache Kafka's own authorizer of a release as a target.

The release's jars (fetched with ``kafka-conformance fetch``, verified against the
lock) are the whole classpath of a JVM of their own: the shim is compiled
against them, and nothing of another release is on it.  StandardAuthorizer is
driven as the broker's ``AclPublisher`` drives it (``loadSnapshot``,
``addAcl``/``removeAcl``, ``completeInitialLoad``); AclAuthorizer through the
admin path (``createAcls``/``deleteAcls``), on the JVM's own ZooKeeper with a
fresh chroot per case.  AclAuthorizer updates its cache inside ``createAcls``
and ``deleteAcls`` before their futures complete, so every change is visible
to the next question without waiting on ZooKeeper's watches.

The target declares the release's own semantics (its profile's capabilities):
``check authorizer --target kafka:3.3.1`` holds Kafka 3.3.1 to the reference of
3.3.1, and ``--kafka-version`` holds it to another release's.
"""

from __future__ import annotations

from collections.abc import Callable

from kafka_conformance.adapters.jvm.adapter import JvmAuthorizer
from kafka_conformance.adapters.jvm.kafka_releases import KafkaRelease, parse_kafka_target
from kafka_conformance.adapters.jvm.maven import JarError, cached_jars
from kafka_conformance.adapters.jvm.session import JvmSession, JvmUnavailable, shared_session, unavailable_reason
from kafka_conformance.adapters.protocol import Capabilities
from kafka_conformance.reference.authorizer.lifecycle import default_variant
from kafka_conformance.reference.authorizer.profiles import Flavour, profile_for

__all__ = ["fetch_command", "kafka_capabilities", "kafka_factory", "not_runnable_reason"]


def fetch_command(release: KafkaRelease) -> str:
    return f"kafka-conformance fetch {release.spec}"


def kafka_capabilities(release: KafkaRelease) -> Capabilities:
    """What Kafka's authorizer of this release implements, by the reference profile of the release."""
    profile = profile_for(release.version, release.flavour)
    return Capabilities(
        flavour=release.flavour,
        version=release.version,
        by_type_variant=default_variant(profile) if profile.has_authorize_by_resource_type else None,
        acl_count=profile.acl_count_supported,
        not_ready_state=profile.has_not_ready_state,
    )


def not_runnable_reason(release: KafkaRelease) -> str | None:
    """Why this release cannot run here (None: it can), with the remedy; never fetches or starts anything."""
    reason = unavailable_reason(need_jars=False)
    if reason is not None:
        return reason
    try:
        if cached_jars(release.artifact) is None:
            return f"its jars are not fetched yet (run: {fetch_command(release)})"
    except JarError as exc:
        return str(exc)
    return None


def kafka_factory(rest: str) -> tuple[Callable[[], JvmAuthorizer], Capabilities, KafkaRelease]:
    """A factory of fresh authorizers of the release named by ``rest`` (``VERSION[:FLAVOUR]``).

    ValueError for a release the kit does not run; JvmUnavailable when the JDK, py4j
    or the release's jars are missing (with the command that fetches them)."""
    release = parse_kafka_target(rest)
    reason = not_runnable_reason(release)
    if reason is not None:
        raise JvmUnavailable(f"{release.spec}: {reason}")
    jars = cached_jars(release.artifact) or ()
    caps = kafka_capabilities(release)
    sessions: list[JvmSession] = []  # the shared session, looked up again only once it stopped

    def factory() -> JvmAuthorizer:
        if not sessions or not sessions[0].alive:
            sessions[:] = [shared_session(jars, standalone=True)]
        session = sessions[0]
        acl = release.flavour is Flavour.ACL
        extra = {"zookeeper.connect": session.zookeeper_connect()} if acl else {}
        return JvmAuthorizer(session, release.class_name, capabilities=caps, extra_config=extra, reuse=acl)

    return factory, caps, release

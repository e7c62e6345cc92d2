"""Producer configuration: defaults and idempotence validation per client and release.

Facts: ``docs/spec/idempotence.md`` §2.2 (Java ``postProcessAndValidateIdempotenceConfigs``,
KIP-679, KAFKA-13598, KAFKA-13673), §2.3 (librdkafka ``rd_kafka_conf_finalize``),
§1.7 (the tri-state proposal), rows 22 (CFG) and 23 (message format) of §5.2;
checked against the apache/kafka tags 0.11.0.0 to trunk and librdkafka v1.0.0 to
v2.15.0.  Also: KAFKA-17927 (4.0: in-flight > 5 always an error), KIP-1030
(4.0: linger.ms 5), KAFKA-6627 (2.2: console option defaults no longer override
``--producer-property``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_conformance.reference.errors import ConfigError
from kafka_conformance.reference.producer.config import (
    IdempotenceProfile,
    explain_config,
    render_effective_config,
)
from kafka_conformance.reference.producer.config_values import (
    IdempotenceRequest,
    Origin,
    ProducerConfigError,
    TopicIdempotence,
)

INT_MAX = str(2**31 - 1)
LEGACY = ["1.0.0", "2.0.0", "2.4.0", "2.8.2"]
BUGGY = ["3.0.0", "3.1.0"]  # KAFKA-13598
MODERN = ["3.0.1", "3.1.1", "3.2.0", "3.9.0"]
V4 = ["4.0.0", "4.3.0"]


def java(props: dict[str, str], version: str = "4.3.0", **kw: object):
    return explain_config(props, client="java", version=version, **kw)


def rejected(props: dict[str, str], version: str = "4.3.0", client: str = "java") -> tuple[str, ...]:
    with pytest.raises(ProducerConfigError) as info:
        explain_config(props, client=client, version=version)
    assert isinstance(info.value, ConfigError)
    assert info.value.kafka_exception == "org.apache.kafka.common.config.ConfigException"
    return info.value.keys


# -- defaults by release ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "acks", "idempotent", "retries", "linger"),
    [
        ("0.11.0", "1", False, "0", "0"),
        ("2.0.0", "1", False, "0", "0"),
        ("2.1.0", "1", False, INT_MAX, "0"),  # KIP-91
        ("2.8.0", "1", False, INT_MAX, "0"),
        ("3.0.0", "-1", False, INT_MAX, "0"),  # KIP-679 defaults, but KAFKA-13598
        ("3.0.1", "-1", True, INT_MAX, "0"),
        ("3.9.0", "-1", True, INT_MAX, "0"),
        ("4.0.0", "-1", True, INT_MAX, "5"),  # KIP-1030
    ],
)
def test_java_defaults(version, acks, idempotent, retries, linger):
    cfg = java({}, version)
    assert (cfg.value("acks"), cfg.idempotent, cfg.value("retries"), cfg.value("linger.ms")) == (acks, idempotent, retries, linger)
    assert cfg.value("max.in.flight.requests.per.connection") == "5"


def test_delivery_timeout_exists_from_2_1():
    assert java({}, "2.0.0").get("delivery.timeout.ms") is None
    assert java({}, "2.1.0").value("delivery.timeout.ms") == "120000"


@pytest.mark.parametrize("version", BUGGY)
def test_kafka_13598_default_true_is_ignored(version):
    cfg = java({}, version)
    assert not cfg.idempotent
    assert cfg["enable.idempotence"].origin is Origin.ADJUSTED
    assert "KAFKA-13598" in cfg["enable.idempotence"].note
    assert java({"enable.idempotence": "true"}, version).idempotent


# -- explicit idempotence conflicts: ConfigException in every release ------------------------------


@pytest.mark.parametrize("version", LEGACY + BUGGY + MODERN + V4)
@pytest.mark.parametrize(
    ("key", "value"),
    [("acks", "1"), ("acks", "0"), ("retries", "0"), ("max.in.flight.requests.per.connection", "6")],
)
def test_explicit_idempotence_conflict_is_config_exception(version, key, value):
    keys = rejected({"enable.idempotence": "true", key: value}, version)
    assert keys == (key, "enable.idempotence")


def test_0_11_needs_one_request_in_flight():
    assert java({"enable.idempotence": "true"}, "0.11.0").max_in_flight == 1
    assert rejected({"enable.idempotence": "true", "max.in.flight.requests.per.connection": "2"}, "0.11.0")[0] == (
        "max.in.flight.requests.per.connection"
    )


@pytest.mark.parametrize("version", LEGACY)
def test_legacy_explicit_idempotence_overrides_unset_acks_and_retries(version):
    cfg = java({"enable.idempotence": "true"}, version)
    assert cfg.idempotent and cfg.acks == -1 and cfg.value("retries") == INT_MAX
    assert cfg["acks"].origin is Origin.ADJUSTED


# -- implicit idempotence conflicts: silently off (KAFKA-13673) ---------------------------------------


@pytest.mark.parametrize("version", MODERN + V4)
@pytest.mark.parametrize(("key", "value"), [("acks", "1"), ("acks", "0"), ("retries", "0")])
def test_implicit_idempotence_is_silently_disabled(version, key, value):
    cfg = java({key: value}, version)
    assert not cfg.idempotent
    assert cfg["enable.idempotence"].origin is Origin.ADJUSTED
    assert "KAFKA-13673" in cfg["enable.idempotence"].note
    assert cfg.notes


@pytest.mark.parametrize("version", MODERN)
def test_in_flight_above_5_silently_disables_before_4_0(version):
    assert not java({"max.in.flight.requests.per.connection": "6"}, version).idempotent


@pytest.mark.parametrize("version", V4)
def test_in_flight_above_5_is_an_error_from_4_0(version):
    """KAFKA-17927: with idempotence on (even by default) in-flight > 5 is a ConfigException."""
    assert rejected({"max.in.flight.requests.per.connection": "6"}, version)[0] == "max.in.flight.requests.per.connection"
    assert not java({"max.in.flight.requests.per.connection": "6", "enable.idempotence": "false"}, version).idempotent


@pytest.mark.parametrize("version", BUGGY)
def test_buggy_releases_do_not_disable_what_is_already_off(version):
    assert java({"acks": "1"}, version).acks == 1


# -- transactional.id --------------------------------------------------------------------------------


@pytest.mark.parametrize("version", LEGACY + BUGGY + MODERN + V4)
def test_transactional_id_with_idempotence_explicitly_off_is_rejected(version):
    assert rejected({"transactional.id": "t", "enable.idempotence": "false"}, version) == ("transactional.id", "enable.idempotence")


@pytest.mark.parametrize("version", LEGACY + BUGGY)
def test_legacy_transactional_id_implies_idempotence(version):
    cfg = java({"transactional.id": "t"}, version)
    assert cfg.idempotent and cfg.acks == -1


@pytest.mark.parametrize("version", MODERN + V4)
def test_modern_transactional_id_after_silent_disable_is_rejected(version):
    """The transactional.id check runs after the silent disable (KAFKA-13673)."""
    assert rejected({"transactional.id": "t", "acks": "1"}, version) == ("transactional.id", "enable.idempotence")


# -- delivery.timeout.ms -------------------------------------------------------------------------------


def test_explicit_delivery_timeout_below_linger_plus_request_timeout_is_rejected():
    keys = rejected({"delivery.timeout.ms": "1000", "linger.ms": "500", "request.timeout.ms": "1000"})
    assert keys == ("delivery.timeout.ms", "linger.ms", "request.timeout.ms")


def test_default_delivery_timeout_is_raised_to_the_sum():
    cfg = java({"request.timeout.ms": "200000", "linger.ms": "7"})
    assert cfg.value("delivery.timeout.ms") == "200007"
    assert cfg["delivery.timeout.ms"].origin is Origin.ADJUSTED


# -- values ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [("acks", "2"), ("acks", "ALL"), ("enable.idempotence", "yes"), ("retries", "-1"), ("max.in.flight.requests.per.connection", "0")],
)
def test_invalid_values_are_rejected(key, value):
    assert rejected({key: value}) == (key,)


def test_acks_all_is_normalised_and_unknown_keys_pass_through():
    cfg = java({"acks": "all", "compression.type": "zstd"})
    assert cfg.value("acks") == "-1" and cfg["compression.type"].origin is Origin.USER


# -- console producer ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "acks", "idempotent"),
    [
        ("2.8.0", "1", False),
        ("3.0.0", "1", False),
        ("3.0.1", "-1", True),
        ("3.1.1", "-1", True),
        ("3.2.0", "-1", True),
        ("4.3.0", "-1", True),
    ],
)
def test_console_producer_acks_default(version, acks, idempotent):
    cfg = explain_config({}, client="console", version=version)
    assert cfg.value("acks") == acks and cfg["acks"].origin is Origin.TOOL
    assert cfg.idempotent is idempotent
    assert cfg.value("retries") == "3" and cfg.value("linger.ms") == "1000"


def test_console_tool_acks_counts_as_user_set():
    """Before 3.0.1 the console's acks=1 is explicit to the client: explicit idempotence fails."""
    assert rejected({"enable.idempotence": "true"}, "2.8.0", client="console") == ("acks", "enable.idempotence")


def test_console_option_defaults_overrode_producer_properties_before_2_2():
    """KAFKA-6627 (2.2.0)."""
    assert explain_config({"acks": "all"}, client="console", version="2.1.0").value("acks") == "1"
    assert explain_config({"acks": "all"}, client="console", version="2.2.0").value("acks") == "-1"


# -- librdkafka ---------------------------------------------------------------------------------------------


def lrd(props: dict[str, str], version: str | None = None):
    return explain_config(props, client="librdkafka", version=version)


def test_librdkafka_defaults_and_idempotent_adjustments():
    assert not lrd({}).idempotent
    cfg = lrd({"enable.idempotence": "true"})
    assert cfg.idempotent and cfg.acks == -1 and cfg.max_in_flight == 5 and cfg.value("retries") == INT_MAX
    assert cfg["max.in.flight.requests.per.connection"].origin is Origin.ADJUSTED


@pytest.mark.parametrize(
    ("key", "value"),
    [("acks", "1"), ("request.required.acks", "0"), ("retries", "0"), ("max.in.flight", "6"), ("queuing.strategy", "lifo")],
)
def test_librdkafka_refuses_explicit_conflicts_never_disables(key, value):
    keys = rejected({"enable.idempotence": "true", key: value}, None, client="librdkafka")
    assert keys[1] == "enable.idempotence"
    assert not lrd({key: value}).idempotent  # without idempotence the value is simply used


def test_librdkafka_transactional_id_and_gapless():
    assert lrd({"transactional.id": "t"}).idempotent
    assert lrd({"transactional.id": "t"}).value("delivery.timeout.ms") == "60000"
    assert rejected({"transactional.id": "t", "enable.idempotence": "false"}, None, client="librdkafka")[0] == "transactional.id"
    assert rejected({"enable.gapless.guarantee": "true"}, None, client="librdkafka")[0] == "enable.gapless.guarantee"


def test_librdkafka_linger_against_message_timeout():
    assert lrd({"message.timeout.ms": "3"}).value("linger.ms") == "2.9"
    assert rejected({"message.timeout.ms": "3", "linger.ms": "3"}, None, client="librdkafka") == ("delivery.timeout.ms", "linger.ms")


@pytest.mark.parametrize(
    ("version", "acks", "retries", "linger"),
    [("1.0.0", "-1", "2", "0.5"), ("1.5.0", "-1", "2", "5"), ("1.5.2", "-1", INT_MAX, "5"), ("1.6.0", "-1", INT_MAX, "5")],
)
def test_librdkafka_defaults_by_release(version, acks, retries, linger):
    """``rdkafka_conf.c`` at each tag (``docs/spec/idempotence.md`` §2.3): retries became INT32_MAX in v1.5.2."""
    cfg = lrd({}, version)
    assert (cfg.value("acks"), cfg.value("retries"), cfg.value("linger.ms")) == (acks, retries, linger)


# -- the tri-state proposal and message formats ------------------------------------------------------------


def test_shipped_producer_fails_on_old_message_format():
    cfg = java({})
    assert cfg.topic_idempotence(2) is TopicIdempotence.IDEMPOTENT
    assert cfg.topic_idempotence(1) is TopicIdempotence.FAILS
    assert java({"acks": "1"}).topic_idempotence(1) is TopicIdempotence.NOT_IDEMPOTENT


@pytest.mark.parametrize(
    ("raw", "asked", "on_v1"),
    [
        (None, IdempotenceRequest.REQUESTED, TopicIdempotence.NOT_IDEMPOTENT),
        ("safe", IdempotenceRequest.REQUESTED, TopicIdempotence.NOT_IDEMPOTENT),
        ("requested", IdempotenceRequest.REQUESTED, TopicIdempotence.NOT_IDEMPOTENT),
        ("required", IdempotenceRequest.REQUIRED, TopicIdempotence.FAILS),
        ("true", IdempotenceRequest.REQUIRED, TopicIdempotence.FAILS),
        ("off", IdempotenceRequest.OFF, TopicIdempotence.NOT_IDEMPOTENT),
    ],
)
def test_tristate_profile(raw, asked, on_v1):
    props = {} if raw is None else {"enable.idempotence": raw}
    cfg = java(props, profile=IdempotenceProfile.TRISTATE)
    assert cfg.request is asked
    assert cfg.topic_idempotence(1) is on_v1


def test_tristate_requested_is_switched_off_by_conflicts_and_required_is_not():
    tri = IdempotenceProfile.TRISTATE
    assert not java({"enable.idempotence": "safe", "acks": "1"}, profile=tri).idempotent
    with pytest.raises(ProducerConfigError):
        java({"enable.idempotence": "required", "acks": "1"}, profile=tri)


def test_render_names_every_key_and_origin():
    text = render_effective_config(java({"acks": "1"}, "3.9.0"))
    assert "idempotence off" in text and "[adjusted]" in text and "KAFKA-13673" in text
    assert all(key in text for key in ("acks", "retries", "delivery.timeout.ms"))


# -- properties of the configuration model itself ----------------------------------------------------------

VERSIONS = st.sampled_from(LEGACY + BUGGY + MODERN + V4)
PROPS = st.fixed_dictionaries(
    {},
    optional={
        "enable.idempotence": st.sampled_from(["true", "false"]),
        "acks": st.sampled_from(["all", "-1", "0", "1"]),
        "retries": st.sampled_from(["0", "1", "3", INT_MAX]),
        "max.in.flight.requests.per.connection": st.sampled_from(["1", "5", "6"]),
    },
)


@settings(max_examples=300, deadline=None)
@given(PROPS, VERSIONS, st.sampled_from(["java", "console", "librdkafka"]))
def test_an_idempotent_result_always_satisfies_the_idempotence_rules(props, version, client):
    try:
        cfg = explain_config(props, client=client, version=None if client == "librdkafka" else version)
    except ProducerConfigError:
        return
    if cfg.idempotent:
        assert cfg.acks == -1 and cfg.retries > 0 and cfg.max_in_flight <= 5
    if props.get("enable.idempotence") == "true":
        assert cfg.idempotent  # explicit true is never silently dropped
    assert {s.key for s in cfg.settings if s.origin is Origin.USER} <= set(props)


def test_tristate_in_releases_before_3_0():
    """Requested is best effort under that release's defaults: acks=1 switches it off."""
    tri = IdempotenceProfile.TRISTATE
    assert not java({"enable.idempotence": "requested"}, "2.8.0", profile=tri).idempotent
    cfg = java({"enable.idempotence": "requested", "acks": "all"}, "2.8.0", profile=tri)
    assert cfg.idempotent and cfg.topic_idempotence(1) is TopicIdempotence.NOT_IDEMPOTENT
    assert not java({}, "2.8.0", profile=tri).idempotent

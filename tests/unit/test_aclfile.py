"""Loading and writing ACL files: our JSON/YAML documents and kafka-acls text.

The sample outputs under ``tests/data/acls/`` were written by hand from the
``println`` strings in Kafka's AclCommand (1.1, 2.0, 2.3, 3.9 and 4.x), with the
exact spaces and tabs each version prints, not produced by our own formatter.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.reference.acl.values import AclBinding
from kafka_conformance.reference.aclfiles.load import (
    AclFile,
    dump_json,
    dump_yaml,
    format_kafka_acls_list,
    load_acls,
    load_acls_text,
    parse_kafka_acls_list,
    sniff_format,
)
from kafka_conformance.reference.errors import AclFileError, AclValueError

DATA = Path(__file__).resolve().parent.parent / "data" / "acls"
DN = "User:CN=alice,OU=Data Eng,O=Example\\, Inc."
TX = "tx-app, v2 (blue=green)"


def acl(permission: str, principal: str, op: str, rtype: str, name: str,
        pattern: str = "LITERAL", host: str = "*") -> AclBinding:
    return AclBinding.of(permission, principal, op, rtype, name, pattern, host=host)


MODERN = [
    acl("ALLOW", "User:alice", "READ", "TOPIC", "orders"),
    acl("ALLOW", "User:alice", "DESCRIBE", "TOPIC", "orders"),
    acl("ALLOW", DN, "WRITE", "TOPIC", "orders", host="10.0.0.7"),
    acl("ALLOW", "User:alice", "READ", "GROUP", "billing-consumers"),
    acl("ALLOW", "User:*", "DESCRIBE_CONFIGS", "TOPIC", "logs-", "PREFIXED"),
    acl("DENY", "User:mallory", "ALL", "TOPIC", "logs-", "PREFIXED"),
    acl("ALLOW", "User:producer", "IDEMPOTENT_WRITE", "CLUSTER", "kafka-cluster"),
    acl("ALLOW", "User:producer", "WRITE", "TRANSACTIONAL_ID", TX),
    acl("ALLOW", "User:producer", "DESCRIBE", "TRANSACTIONAL_ID", TX),
    acl("ALLOW", "User:admin", "ALL", "TOPIC", "*"),
    acl("ALLOW", "User:alice", "CREATE_TOKENS", "USER", "User:bob"),
]


# -- kafka-acls text samples ---------------------------------------------------------


@pytest.mark.parametrize("name", ["kafka-3.9-list.txt", "kafka-4.0-list.txt"])
def test_modern_list_output_is_read_in_order(name: str) -> None:
    loaded = load_acls(DATA / name)
    assert loaded.format == "text"
    assert loaded.bindings == tuple(MODERN)
    assert loaded.ids == (None,) * len(MODERN)
    assert loaded.config == {}
    assert loaded.source == str(DATA / name)


def test_kafka_2_0_output_with_pattern_types() -> None:
    assert load_acls(DATA / "kafka-2.0-list.txt").bindings == (
        acl("ALLOW", "User:alice", "READ", "TOPIC", "orders"),
        acl("ALLOW", "User:alice", "DESCRIBE", "TOPIC", "orders"),
        acl("ALLOW", DN, "WRITE", "TOPIC", "orders", host="10.0.0.7"),
        acl("ALLOW", "User:alice", "READ", "GROUP", "billing-consumers"),
        acl("ALLOW", "User:*", "DESCRIBE_CONFIGS", "TOPIC", "logs-", "PREFIXED"),
        acl("DENY", "User:mallory", "ALL", "TOPIC", "logs-", "PREFIXED"),
        acl("ALLOW", "User:producer", "IDEMPOTENT_WRITE", "CLUSTER", "kafka-cluster"),
        acl("ALLOW", "User:producer", "WRITE", "TRANSACTIONAL_ID", "tx-app"),
        acl("ALLOW", "User:producer", "DESCRIBE", "TRANSACTIONAL_ID", "tx-app"),
    )


def test_kafka_1_1_output_without_pattern_types_is_literal() -> None:
    assert load_acls(DATA / "kafka-1.1-list.txt").bindings == (
        acl("ALLOW", "User:alice", "READ", "TOPIC", "orders"),
        acl("ALLOW", "User:alice", "DESCRIBE", "TOPIC", "orders"),
        acl("ALLOW", "User:alice", "READ", "GROUP", "billing-consumers"),
        acl("ALLOW", "User:producer", "IDEMPOTENT_WRITE", "CLUSTER", "kafka-cluster"),
        acl("ALLOW", "User:ops", "CLUSTER_ACTION", "CLUSTER", "kafka-cluster"),
        acl("ALLOW", "User:ops", "DESCRIBE", "DELEGATION_TOKEN", "token-1"),
    )


def test_legacy_names_with_colons() -> None:
    # 1.x printed no pattern type; a group name may itself contain colons.
    text = (
        "Current ACLs for resource `Group:app:v1`: \n"
        " \tUser:a has Deny permission for operations: Read from hosts: 10.1.1.1 \n\n"
        "Current ACLs for resource `Topic:PREFIXED:a:b`: \n"
        " \tUser:a:b has Allow permission for operations: AlterConfigs from hosts: * \n"
    )
    assert parse_kafka_acls_list(text) == (
        acl("DENY", "User:a", "READ", "GROUP", "app:v1", host="10.1.1.1"),
        acl("ALLOW", "User:a:b", "ALTER_CONFIGS", "TOPIC", "a:b", "PREFIXED"),
    )


def test_legacy_sentence_with_enum_names() -> None:
    # AclEntry.toString (not printed by AclCommand, but seen in broker logs) uses
    # the same sentence with enum names.
    text = (
        "Current ACLs for resource `Cluster:LITERAL:kafka-cluster`:\n"
        "\tUser:ops has DENY permission for operations: DESCRIBE_CONFIGS from hosts: 10.0.0.9\n"
    )
    assert parse_kafka_acls_list(text) == (
        acl("DENY", "User:ops", "DESCRIBE_CONFIGS", "CLUSTER", "kafka-cluster", host="10.0.0.9"),
    )


def test_add_output_mixing_header_and_entry_styles_is_deduplicated() -> None:
    # Kafka 2.1-2.3 --add printed ResourcePattern headers over Acl.toString lines,
    # then listed the same ACLs again in the modern style.
    assert load_acls(DATA / "kafka-2.3-add.txt").bindings == (
        acl("ALLOW", "User:alice", "READ", "TOPIC", "orders"),
        acl("ALLOW", "User:alice", "DESCRIBE", "TOPIC", "orders"),
    )


def test_kafka_4_add_output_with_already_exists_lines() -> None:
    assert load_acls(DATA / "kafka-4.0-add.txt").bindings == (
        acl("ALLOW", "User:alice", "READ", "TOPIC", "orders"),
        acl("ALLOW", "User:alice", "DESCRIBE", "TOPIC", "orders"),
    )


def test_pasted_session_with_jvm_log_lines() -> None:
    # The JVM tools interleave SLF4J warnings and log4j lines with their output.
    assert load_acls(DATA / "kafka-4.0-session.txt").bindings == (
        acl("ALLOW", "User:consumer", "READ", "GROUP", "*"),
        acl("ALLOW", "User:connect", "READ", "TOPIC", "*"),
        acl("ALLOW", "User:connect", "DESCRIBE", "TOPIC", "*"),
    )


def test_principal_listing_headers() -> None:
    assert load_acls(DATA / "kafka-3.9-principal.txt").bindings == (
        acl("ALLOW", "User:alice", "READ", "TOPIC", "orders"),
        acl("ALLOW", "User:alice", "DESCRIBE", "TOPIC", "orders"),
        acl("ALLOW", "User:alice", "READ", "GROUP", "billing-consumers"),
        acl("ALLOW", "User:producer", "IDEMPOTENT_WRITE", "CLUSTER", "kafka-cluster"),
    )


def test_whitespace_crlf_bom_and_blank_lines_are_tolerated() -> None:
    text = (
        "\ufeff\r\n   \r\n  Current ACLs for resource `ResourcePattern(resourceType=TOPIC, "
        "name=t, patternType=LITERAL)`:   \r\n\r\n"
        "      (principal=User:a, host=*, operation=WRITE, permissionType=ALLOW)   \r\n"
    )
    assert load_acls(text).bindings == (acl("ALLOW", "User:a", "WRITE", "TOPIC", "t"),)


def test_hostile_names_in_modern_text() -> None:
    name = "a, patternType=PREFIXED)`: name=b, c) `x`"
    principal = "User:x, host=y"
    text = (
        f"Current ACLs for resource `ResourcePattern(resourceType=GROUP, name={name}, "
        "patternType=LITERAL)`:\n"
        f"\t(principal={principal}, host=h), operation=ALL, operation=READ, permissionType=DENY)\n"
    )
    assert parse_kafka_acls_list(text) == (
        acl("DENY", principal, "READ", "GROUP", name, host="h), operation=ALL"),
    )


def test_empty_list_output_is_empty() -> None:
    assert load_acls_text("", "text").bindings == ()
    assert format_kafka_acls_list([]) == ""


# -- writing kafka-acls text ------------------------------------------------------------


def test_format_matches_kafka_4_bytes() -> None:
    assert format_kafka_acls_list(MODERN) == (DATA / "kafka-4.0-list.txt").read_text()


def test_format_scala_layout_matches_kafka_3_9_bytes() -> None:
    expected = (DATA / "kafka-3.9-list.txt").read_text()
    assert format_kafka_acls_list(MODERN, scala_layout=True) == expected


def test_format_groups_by_pattern_in_first_seen_order_and_drops_duplicates() -> None:
    a = acl("ALLOW", "User:a", "READ", "TOPIC", "t")
    b = acl("ALLOW", "User:b", "READ", "GROUP", "g")
    c = acl("ALLOW", "User:c", "READ", "TOPIC", "t")
    text = format_kafka_acls_list([a, b, c, a])
    assert parse_kafka_acls_list(text) == (a, c, b)
    assert text.count("Current ACLs") == 2


@pytest.mark.parametrize(
    ("binding", "field"),
    [
        (acl("ALLOW", "User:a", "READ", "TOPIC", "two\nlines"), "resource name"),
        (acl("ALLOW", "User:a\nb", "READ", "TOPIC", "t"), "principal"),
        (acl("ALLOW", "User:a", "READ", "TOPIC", "t", host="h\n"), "host"),
        (acl("ALLOW", "User:a", "READ", "TOPIC", "t", host="a, host=b"), "host"),
    ],
)
def test_format_refuses_text_that_would_read_back_differently(
    binding: AclBinding, field: str
) -> None:
    with pytest.raises(AclValueError) as info:
        format_kafka_acls_list([binding])
    assert info.value.field == field


# -- our JSON and YAML documents --------------------------------------------------------


def test_yaml_example() -> None:
    loaded = load_acls(DATA / "example.yaml")
    assert loaded.format == "yaml"
    assert loaded.config == {
        "super.users": "User:admin;User:controller",
        "allow.everyone.if.no.acl.found": "false",
    }
    assert loaded.bindings == (
        MODERN[0], MODERN[1], MODERN[2], MODERN[4], MODERN[5], MODERN[6],
        acl("ALLOW", "User:producer", "WRITE", "TRANSACTIONAL_ID", TX),
    )
    assert loaded.ids == (None, None, None, None, "aB3dE5fG7hI9jK1lM3nO5p", None, None)
    assert loaded.entries[4] == ("aB3dE5fG7hI9jK1lM3nO5p", MODERN[5])


def test_json_example_defaults_host_and_pattern_type() -> None:
    loaded = load_acls(DATA / "example.json")
    assert loaded.format == "json"
    assert loaded.bindings == (
        MODERN[0], MODERN[3], MODERN[4], MODERN[5],
    )
    assert loaded.ids == ("q2Wv9mYcT0u1wWAcLq0bJg", None, None, None)
    assert loaded.config["allow.everyone.if.no.acl.found"] == "false"


def test_top_level_list_and_empty_documents() -> None:
    doc = '[{"principal": "User:a", "operation": "read", "permission": "Allow",' \
          ' "resource_type": "TransactionalId", "name": "x"}]'
    assert load_acls(doc).bindings == (acl("ALLOW", "User:a", "READ", "TRANSACTIONAL_ID", "x"),)
    assert load_acls_text("", "yaml") == AclFile((), (), {}, "<string>", "yaml")
    assert load_acls_text("# nothing yet\n").bindings == ()
    assert load_acls('{"acls": []}').bindings == ()


def test_config_scalars_are_spelled_as_kafka_strings() -> None:
    loaded = load_acls_text("config: {a: true, b: 3, c: x}\nacls: []\n", "yaml")
    assert loaded.config == {"a": "true", "b": "3", "c": "x"}


def test_unknown_values_are_kept_for_validation_later() -> None:
    # The model can hold UNKNOWN enums and colon-less principals (Kafka stores the
    # raw string); rejecting them is validate_new_acl's job, not the loader's.
    doc = "- {principal: alice, operation: UNKNOWN, permission: ALLOW, resource_type: TOPIC, name: ''}"
    (binding,) = load_acls(doc + "\n").bindings
    assert binding.entry.principal == "alice"
    assert binding.entry.operation.name == "UNKNOWN"
    assert binding.pattern.name == ""


@pytest.mark.parametrize("dump", [dump_json, dump_yaml])
def test_document_round_trip_keeps_ids_config_and_order(dump: object) -> None:
    assert callable(dump)
    ids = [f"id-{i}" if i % 3 else None for i in range(len(MODERN))]
    original = AclFile(MODERN, ids, {"super.users": "User:admin"})
    loaded = load_acls_text(dump(original))
    assert (loaded.bindings, loaded.ids, loaded.config) == (
        original.bindings, original.ids, original.config,
    )


def test_dump_overrides_and_plain_binding_lists() -> None:
    text = dump_json(MODERN[:2], ids=["x", None], config={"k": "v"})
    loaded = load_acls(text)
    assert loaded.ids == ("x", None)
    assert loaded.config == {"k": "v"}
    assert "config" not in dump_yaml(MODERN[:1])


def test_dump_refuses_what_load_would_refuse() -> None:
    with pytest.raises(AclValueError, match="duplicate ACL"):
        dump_json([MODERN[0], MODERN[0]])
    with pytest.raises(AclValueError, match="duplicate id"):
        dump_yaml(MODERN[:2], ids=["same", "same"])
    with pytest.raises(AclValueError, match="one per binding"):
        dump_json(MODERN[:2], ids=["only-one"])


def test_yaml_dump_quotes_strings_yaml_would_misread() -> None:
    tricky = [acl("ALLOW", "User:a", "READ", "TOPIC", n) for n in ("yes", "123", "null", "*", "~")]
    assert load_acls_text(dump_yaml(tricky), "yaml").bindings == tuple(tricky)


# -- format detection ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('  {"acls": []}', "json"),
        ("[]", "json"),
        ("Current ACLs for resource `Topic:x`:\n", "text"),
        ("ACLs for principal `User:a`\n", "text"),
        ("Adding ACLs for resource `Topic:x`: \n", "text"),
        ("Acl (pattern=ResourcePattern(resourceType=TOPIC, name=x, patternType=LITERAL), ...", "text"),
        ("# Current ACLs for resource `x` in a comment\nacls: []\n", "yaml"),
        ("acls: []\n", "yaml"),
        ("", "yaml"),
    ],
)
def test_sniff_format(text: str, expected: str) -> None:
    assert sniff_format(text) == expected


def test_extension_decides_before_content(tmp_path: Path) -> None:
    path = tmp_path / "acls.yml"
    path.write_text("[]\n")  # JSON-looking, but the extension says YAML
    assert load_acls(path).format == "yaml"
    listing = tmp_path / "acls.list"
    listing.write_bytes((DATA / "kafka-4.0-list.txt").read_bytes())
    assert load_acls(str(listing)).format == "text"
    assert load_acls(str(listing), source="pasted").source == "pasted"


def test_a_single_line_string_is_a_path() -> None:
    with pytest.raises(AclFileError, match=r"no-such-acls\.yaml: cannot read the file"):
        load_acls("no-such-acls.yaml")


def test_a_lone_carriage_return_in_a_name_survives_a_file(tmp_path: Path) -> None:
    binding = acl("ALLOW", "User:a", "READ", "GROUP", "odd\rname")
    path = tmp_path / "acls.txt"
    path.write_bytes(format_kafka_acls_list([binding]).encode())
    assert load_acls(path).bindings == (binding,)

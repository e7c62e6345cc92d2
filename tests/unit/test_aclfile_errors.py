"""Every way an ACL file can be malformed: each error names the line and the problem.

A loader that skipped a line it did not understand would silently drop an ACL,
and a conformance run would then test a different ACL set than the user wrote.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafka_conformance.reference.aclfiles.load import AclFormat, load_acls, load_acls_text
from kafka_conformance.reference.errors import AclFileError

HEADER = "Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=t, patternType=LITERAL)`:"
ENTRY = "\t(principal=User:a, host=*, operation=READ, permissionType=ALLOW)"


def error(text: str, fmt: AclFormat | None = None, source: str = "acls.src") -> AclFileError:
    with pytest.raises(AclFileError) as info:
        load_acls_text(text, fmt, source)
    return info.value


def check(exc: AclFileError, line: int | None, *fragments: str) -> None:
    assert exc.line == line, str(exc)
    assert exc.source == "acls.src"
    prefix = "acls.src" if line is None else f"acls.src:{line}"
    assert str(exc).startswith(prefix + ": ")
    for fragment in fragments:
        assert fragment in exc.reason, exc.reason


# -- kafka-acls text ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad_line", "fragments"),
    [
        ("Current ACLs for resource `Topic:t`", ["must end with '`:'"]),
        ("Adding ACLs for resource `Topic:t`: extra", ["must end with '`:'"]),
        ("Current ACLs for resource `:", ["must end with '`:'"]),
        ("ACLs for principal `User:a", ["principal header must end with '`'"]),
        ("Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=t)`:",
         ["malformed resource", "ResourcePattern(resourceType=..., name=..., patternType=...)"]),
        ("Current ACLs for resource `orders`:", ["malformed resource 'orders'", "Type:name"]),
        ("Current ACLs for resource `ResourcePattern(resourceType=TOPICS, name=t, "
         "patternType=LITERAL)`:", ["invalid resource type 'TOPICS'", "expected one of"]),
        ("Current ACLs for resource `Topics:t`:", ["invalid resource type 'Topics'"]),
        ("Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=t, "
         "patternType=LITERALLY)`:", ["invalid pattern type 'LITERALLY'"]),
        ("Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=t, "
         "patternType=MATCH)`:", ["MATCH is only valid in a filter"]),
        ("Current ACLs for resource `Topic:ANY:t`:", ["ANY is only valid in a filter"]),
        ("Current ACLs for resource `Any:LITERAL:t`:", ["ANY is only valid in a filter"]),
        ("\t(principal=User:a, host=*, operation=READ)", ["malformed ACL entry", "permissionType"]),
        ("\t(principal=User:a, host=*, operation=REED, permissionType=ALLOW)",
         ["invalid operation 'REED'"]),
        ("\t(principal=User:a, host=*, operation=ANY, permissionType=ALLOW)",
         ["ANY is only valid in a filter"]),
        ("\t(principal=User:a, host=*, operation=READ, permissionType=ALOW)",
         ["invalid permission type 'ALOW'"]),
        ("\tUser:a has Allow permission for operations: Read", ["malformed ACL entry", "from hosts"]),
        ("\tUser:a has Allow permission for operations: Reed from hosts: *",
         ["invalid operation 'Reed'"]),
        ("\tUser:a has Alow permission for operations: Read from hosts: *",
         ["invalid permission type 'Alow'"]),
        ("$ bin/kafka-acls.sh --bootstrap-server localhost:9092 --list", ["unrecognised line"]),
        ("[main] WARN something", ["unrecognised line"]),
        ("at org.apache.kafka.tools.AclCommand.main(AclCommand.java:91)", ["unrecognised line"]),
        ("Error while executing ACL command: org.apache.kafka.common.errors.SecurityDisabledException",
         ["contains a kafka-acls error", "SecurityDisabledException"]),
        ("Are you sure you want to remove ACLs: ", ["--remove' confirmation prompt"]),
        ("Acl (pattern=ResourcePattern(resourceType=TOPIC, name=t), entry=(x)) already exists.",
         ["malformed 'Acl (pattern="]),
    ],
)
def test_bad_text_line_is_reported_with_its_line_number(bad_line: str, fragments: list[str]) -> None:
    text = f"\n{HEADER}\n{ENTRY}\n\n{bad_line}\n{ENTRY}\n"
    check(error(text, "text"), 5, *fragments)


def test_entry_before_any_resource_header() -> None:
    check(error(f"\n\n{ENTRY}\n{HEADER}\n", "text"), 3, "outside a resource block")


def test_principal_header_ends_the_resource_block() -> None:
    text = f"{HEADER}\n{ENTRY}\nACLs for principal `User:a`\n{ENTRY}\n"
    check(error(text, "text"), 4, "outside a resource block")


def test_ambiguous_already_exists_line() -> None:
    name = "n, patternType=LITERAL), entry=(principal=z, host=*, operation=READ, permissionType=ALLOW"
    line = (
        f"Acl (pattern=ResourcePattern(resourceType=TOPIC, name={name}, patternType=LITERAL), "
        "entry=(principal=p, host=*, operation=READ, permissionType=ALLOW)) already exists."
    )
    check(error(f"{HEADER}\n{line}\n", "text"), 2, "ambiguous")


def test_long_unrecognised_lines_are_clipped_in_the_message() -> None:
    exc = error(HEADER + "\n" + "x" * 500 + "\n", "text")
    check(exc, 2, "unrecognised line", "...")
    assert len(exc.reason) < 400


# -- JSON --------------------------------------------------------------------------------------


def acl_json(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "principal": "User:a", "operation": "READ", "permission": "ALLOW",
        "resource_type": "TOPIC", "name": "t",
    }
    base.update(fields)
    return {k: v for k, v in base.items() if v is not Ellipsis}


def document(*acls: dict[str, object], **top: object) -> str:
    """One key per line: ``acls[i]`` opens on line 3 + 8*i when each ACL has 5 keys."""
    return json.dumps({"version": 1, "acls": list(acls), **top}, indent=1)


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_json_syntax_error_uses_the_decoder_line() -> None:
    check(error('{\n  "acls": [\n    {"principal": "User:a",}\n  ]\n}', "json"), 3, "invalid JSON")


@pytest.mark.parametrize(
    ("field", "value", "fragments"),
    [
        ("operation", "REED", ["acls[1].operation: invalid operation 'REED'", "expected one of"]),
        ("permission", "ALOW", ["acls[1].permission: invalid permission 'ALOW'"]),
        ("resource_type", "TOPICS", ["acls[1].resource_type: invalid resource_type 'TOPICS'"]),
        ("pattern_type", "PREFIX", ["acls[1].pattern_type: invalid pattern_type 'PREFIX'"]),
        ("pattern_type", "MATCH", ["acls[1].pattern_type", "MATCH is only valid in a filter"]),
        ("resource_type", "ANY", ["acls[1].resource_type", "ANY is only valid in a filter"]),
        ("operation", "any", ["acls[1].operation", "ANY is only valid in a filter"]),
        ("permission", "Any", ["acls[1].permission", "ANY is only valid in a filter"]),
        ("name", 42, ["acls[1].name: must be a string, got int 42", "quote it"]),
        ("host", None, ["acls[1].host: must be a string, got null"]),
        ("principal", ["User:a"], ["acls[1].principal: must be a string, got list"]),
        ("id", 7, ["acls[1].id: must be a string, got int 7"]),
    ],
)
def test_json_bad_field_names_path_and_line(field: str, value: object, fragments: list[str]) -> None:
    second = acl_json(name="u")
    second[field] = value
    text = document(acl_json(), second)
    value_line = text.count("\n", 0, text.rindex(f'"{field}": ')) + 1
    check(error(text, "json"), value_line, *fragments)


def test_json_unknown_key_suggests_the_right_one() -> None:
    text = document(acl_json(), acl_json(permision="ALLOW"))
    check(
        error(text, "json"), line_of(text, '"permision"'),
        "acls[1].permision: unknown key 'permision' (did you mean 'permission'?)",
    )


def test_json_missing_key_points_at_the_entry() -> None:
    text = document(acl_json(), acl_json(operation=...))
    entry_line = line_of(text, '"principal"') + 6  # the second object's "{"
    check(error(text, "json"), entry_line, "acls[1]: missing required key 'operation'")


def test_json_duplicate_key_points_at_the_repeat() -> None:
    text = '{\n "acls": [\n  {"name": "a",\n   "name": "b"}\n ]\n}'
    check(error(text, "json"), 4, "acls[0].name: duplicate key 'name'")


def test_json_duplicate_acl_and_duplicate_id() -> None:
    text = document(acl_json(), acl_json(name="u"), acl_json())
    check(error(text, "json"), line_of(text, '"name": "u"') + 2, "acls[2]: duplicate ACL: same as acls[0]")
    text = document(acl_json(id="x"), acl_json(name="u", id="x"))
    check(error(text, "json"), text.count("\n", 0, text.rindex('"id"')) + 1,
          "acls[1].id: duplicate id 'x': also used by acls[0]")


@pytest.mark.parametrize(
    ("text", "line", "fragments"),
    [
        ('"acls"', 1, ["expected an object with 'acls' or a list of ACL objects, got str"]),
        ('{\n "acl": []\n}', 2, ["unknown key 'acl' (did you mean 'acls'?)"]),
        ('{\n "version": 2,\n "acls": []\n}', 2, ["version: unsupported version 2"]),
        ('{\n "version": "1",\n "acls": []\n}', 2, ["unsupported version '1'"]),
        ('{\n "version": true,\n "acls": []\n}', 2, ["unsupported version True"]),
        ('{\n "version": 1\n}', 1, ["missing required key 'acls'"]),
        ('{\n "acls": {}\n}', 2, ["acls: 'acls' must be a list, got dict"]),
        ('{\n "acls": [\n  "User:a READ t"\n ]\n}', 3, ["acls[0]: expected an ACL object, got str"]),
        ('[\n {},\n 5\n]', 2, ["[0]: missing required key 'principal'"]),
        ('{\n "acls": [],\n "config": [1]\n}', 3, ["config: 'config' must be an object, got list"]),
        ('{\n "acls": [],\n "config": {\n  "k": [1]\n }\n}', 4,
         ["config.k: config value must be a string, got list"]),
    ],
)
def test_json_document_structure_errors(text: str, line: int, fragments: list[str]) -> None:
    check(error(text, "json"), line, *fragments)


# -- YAML --------------------------------------------------------------------------------------

YAML_OK = "  - {principal: User:a, operation: READ, permission: ALLOW, resource_type: TOPIC, name: t}\n"


@pytest.mark.parametrize(
    ("entry", "fragments"),
    [
        ("    operation: Reed\n", ["acls[1].operation: invalid operation 'Reed'"]),
        ("    operation: READ\n    pattern_type: any\n", ["acls[1].pattern_type", "ANY"]),
        ("    operation: READ\n    name: yes\n", ["acls[1].name: must be a string, got bool True",
                                                  "quote it in YAML"]),
        ("    operation: READ\n    name: 2024-01-01\n", ["acls[1].name: must be a string, got date"]),
        ("    operation: READ\n    operaton: READ\n", ["acls[1].operaton: unknown key 'operaton'",
                                                       "did you mean 'operation'?"]),
        ("    operation: READ\n    operation: WRITE\n", ["acls[1].operation: duplicate key"]),
    ],
)
def test_yaml_bad_entry_names_path_and_line(entry: str, fragments: list[str]) -> None:
    text = (
        "version: 1\nacls:\n" + YAML_OK
        + "  - principal: User:a\n    permission: ALLOW\n    resource_type: TOPIC\n"
        + ("" if "name:" in entry else "    name: u\n") + entry
    )
    bad_line = len(text.splitlines())  # the offending key is the last line written
    check(error(text, "yaml"), bad_line, *fragments)


def test_yaml_missing_key_points_at_the_entry() -> None:
    text = "acls:\n" + YAML_OK + "\n  - principal: User:a\n    name: t\n"
    check(error(text, "yaml"), 4, "acls[1]: missing required key 'operation'")


@pytest.mark.parametrize(
    ("text", "line", "fragments"),
    [
        ("acls:\n  - principal: User:a\n    host: *\n", 3, ["invalid YAML", "write '*' in quotes"]),
        ("acls: [\n", 2, ["invalid YAML"]),
        ("acls: []\n---\nacls: []\n", 2, ["invalid YAML", "single document"]),
        ("just a string\n", 1, ["expected an object with 'acls' or a list of ACL objects, got str"]),
        ("acls: []\nconfig:\n  1: x\n", 3, ["config: config keys must be strings, got int 1"]),
        ("acls: []\nconfig:\n", 2, ["'config' must be an object, got null"]),
        ("acls:\n  - id: 5\n    principal: User:a\n    operation: READ\n    permission: ALLOW\n"
         "    resource_type: TOPIC\n    name: t\n", 2, ["acls[0].id: must be a string, got int 5"]),
    ],
)
def test_yaml_document_errors(text: str, line: int, fragments: list[str]) -> None:
    check(error(text, "yaml"), line, *fragments)


def test_yaml_duplicate_top_level_key() -> None:
    check(error("acls: []\nversion: 1\nacls: []\n", "yaml"), 3, "acls: duplicate key 'acls'")


def test_yaml_self_referencing_alias_does_not_hang() -> None:
    check(error("acls: &loop [*loop]\n", "yaml"), 1, "acls[0]: expected an ACL object, got list")


# -- files and formats ---------------------------------------------------------------------------


def test_non_utf8_file_reports_the_line(tmp_path: Path) -> None:
    path = tmp_path / "acls.yaml"
    path.write_bytes(b"acls:\n  - name: caf\xe9\n")
    with pytest.raises(AclFileError) as info:
        load_acls(path, source="acls.src")
    check(info.value, 2, "not valid UTF-8")


def test_file_errors_name_the_path(tmp_path: Path) -> None:
    path = tmp_path / "acls.json"
    path.write_text(document(acl_json(), acl_json(name="u", principal=1)))
    with pytest.raises(AclFileError) as info:
        load_acls(path)
    assert str(info.value).startswith(f"{path}:12: acls[1].principal: must be a string")


def test_unknown_format_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown ACL format 'xml'"):
        load_acls_text("<acls/>", "xml")  # type: ignore[arg-type]

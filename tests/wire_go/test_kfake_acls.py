"""kfake's ACL enforcement held to reference/requests (check requests --target kfake), as recorded
in docs/broker-conformance.md ("Authorization on the wire")."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_conformance.adapters.targets import TargetError
from kafka_conformance.options import Options
from kafka_conformance.requests.targets import parse_requests_target


def test_check_requests_on_kfake_diverges_where_recorded(go_programs: dict[str, Path]) -> None:
    from kafka_conformance.requests.check import check_requests

    report = check_requests("kfake", Options(kafka_version="4.3.1", seed=1, max_examples=60))
    assert report.requests == 528
    found = sorted((d.anomaly, d.request.split(" (")[0].split(" topic")[0]) for d in report.divergences)
    assert found == sorted([
        *[("wrong-authorization-error", "Produce transactional(tx1)")] * 4,
        *[("allowed-but-refused", "Produce transactional(tx1)")] * 2,
        ("allowed-but-refused", "InitProducerId"),
        ("wrong-authorization-error", "AddPartitionsToTxn(tx1)"),
    ]), found


def test_kfake_is_a_target_of_its_own() -> None:
    target = parse_requests_target("kfake")
    assert target.release is None and target.admin.name == "admin" and target.user.name == "alice"
    with pytest.raises(TargetError, match="kfake"):
        parse_requests_target("kfakes")

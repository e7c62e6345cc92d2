"""Every producer client through the whole trace table on a real Apache Kafka cluster, outside
the gate (``tox -e kafka-brokers``, about ten minutes): the table in
``docs/producer-conformance.md`` ("Every client on a real Apache Kafka cluster") is what this
run must give, cell by cell, for every client that can run here.  The gate runs three rows on
one client (``tests/wire_brokers/test_kafka_cluster.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kafka_conformance.adapters.brokers.kafka_broker import kafka_broker_reason
from kafka_conformance.adapters.targets import TargetError
from kafka_conformance.producer.clients import REAL_CLIENTS, resolve_client

RELEASE = "3.9.1"
DOC = Path(__file__).resolve().parents[2] / "docs" / "producer-conformance.md"
SECTION = "## Every client on a real Apache Kafka cluster"
NOT_APPLICABLE = frozenset({"12", "12b", "17", "21", "25", "25b"})
"""Seeded sequences (model-only), producer-id expiry and a leaderless period (no real cluster takes them on cue),
and the one-broker restart rows (docs/producer-conformance.md, "Restarts with a retry pending")."""


def _cell(text: str) -> frozenset[str]:
    """A cell of the docs table in the matrix's own words (``RunResult.summary``): every result
    it allows ("holds or `duplicate` (2 of 5 runs)" allows two; the counts are the docs')."""
    return frozenset(_one(part.strip()) for part in re.sub(r" \(\d+ of \d+ runs\)", "", text).split(" or "))


def _one(text: str) -> str:
    names = sorted(re.findall(r"`([a-z-]+)`", text))
    if names:
        return "CLIENT:" + ",".join(names)
    outside = re.fullmatch(r"outside \(([a-z-]+)\)", text)
    return f"outside:{outside.group(1)}" if outside else text


def documented() -> tuple[list[str], dict[str, dict[str, frozenset[str]]]]:
    """The clients of the docs table, and per row number each client's cell."""
    section = DOC.read_text(encoding="utf-8").split(SECTION, 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    clients = header[1:]
    rows = {}
    for line in lines[1:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].split()[0]] = {client: _cell(cell) for client, cell in zip(clients, cells[1:], strict=True)}
    return clients, rows


def test_the_docs_table_parses() -> None:
    clients, rows = documented()
    assert clients == list(REAL_CLIENTS)
    assert rows["14b"]["java"] == {"CLIENT:completion-reordered,duplicate"}
    assert rows["22c"]["kafka-python"] == {"outside:duplicate"}
    assert rows["15"]["confluent-kafka"] == {"holds", "CLIENT:duplicate"}


def test_every_client_on_a_real_cluster_gives_the_documented_table() -> None:
    reason = kafka_broker_reason(RELEASE)
    if reason is not None:
        pytest.skip(f"kafka-cluster:{RELEASE}: {reason}")
    from kafka_conformance.producer.table import run_matrix

    clients, rows = documented()
    runnable = []
    for client in clients:
        try:
            resolve_client(client)
        except TargetError:
            continue
        runnable.append(client)
    if not runnable:
        pytest.skip("no producer client is installed here")
    matrix = run_matrix(runnable, [f"kafka-cluster:{RELEASE}"], kafka_version=RELEASE)
    assert not matrix.skipped, matrix.skipped
    got = {label.split()[0].lstrip("#"): {c.client: c.summary() for c in cells if c is not None}
           for label, cells in matrix.rows}
    mismatches = []
    for number, cells in got.items():
        for client, summary in cells.items():
            # Rows the docs table leaves out hold for every client, but for the rows a real
            # client or cluster cannot run at all (the docs say which, and why).
            want = rows.get(number, {}).get(client) or frozenset({"n/a" if number in NOT_APPLICABLE else "holds"})
            if summary not in want:
                mismatches.append(f"row {number} {client}: ran {summary}, documented {' or '.join(sorted(want))}")
    assert not mismatches, "\n".join(mismatches)

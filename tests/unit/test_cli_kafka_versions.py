"""What ``kafka-versions --markdown`` writes as the page's command: what reproduces the table."""

from __future__ import annotations

import argparse

from kafka_conformance.cli import kafka_versions


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    kafka_versions.add_arguments(parser)
    return parser.parse_args(argv)


def test_the_page_names_what_makes_the_table_and_no_path_of_the_machine() -> None:
    args = _args("--markdown", "docs/kafka-versions.md", "--failures-dir", "/tmp/somewhere", "--quiet")
    command = kafka_versions._command(args)
    assert command == "kafka-conformance kafka-versions --max-examples 50 --seed 0 --markdown docs/kafka-versions.md"
    narrowed = kafka_versions._command(_args("kafka:3.9.1:acl", "--mode", "hostile", "--max-examples", "5", "--seed", "3",
                                             "--markdown", "out file.md"))
    assert narrowed == ("kafka-conformance kafka-versions kafka:3.9.1:acl --mode hostile --max-examples 5 --seed 3 "
                        "--markdown 'out file.md'")

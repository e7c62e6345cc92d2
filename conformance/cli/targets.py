"""``kafka-conformance targets``: what can run on this machine, and what to do about the rest.

One aligned table per kind of target (authorizers, producer clients, brokers):
the spec, ``yes``/``no``, what it is; for a target that cannot run here, why
not, and the command that installs what is missing, spelt so that it works from
a checkout of the kit (``pip install -e '.[extra]'``; the package's extras are
the same names).
"""

from __future__ import annotations

import importlib.util
import re
import shutil

__all__ = ["checkout_install", "grammar", "run"]

_EXTRA = re.compile(r"kafka-conformance\[(?P<extra>[a-z-]+)\]")
_PIP = re.compile(r"\s*[;(]?\s*pip install '?kafka-conformance\[[a-z-]+\]'?\)?(\s*\([^)]*\))?")
_INSTALL_THE_EXTRA = re.compile(r";?\s*install the extra kafka-conformance\[[a-z-]+\]")


def checkout_install(reason: str) -> tuple[str, str | None]:
    """(the reason without its install hint, the install command that works from a checkout, if it named one)."""
    found = _EXTRA.search(reason)
    if found is None:
        return reason, None
    short = _INSTALL_THE_EXTRA.sub("", _PIP.sub("", reason)).strip().rstrip(";:,")
    extra = found.group("extra")
    return short, f"pip install -e '.[{extra}]'  (from the kit's checkout; or pip install 'kafka-conformance[{extra}]')"


def _jvm_reason() -> str:
    missing = []
    if shutil.which("java") is None:
        missing.append("no java on PATH (install a JDK, 11 or later)")
    if importlib.util.find_spec("py4j") is None:
        missing.append("py4j is not installed (pip install 'kafka-conformance[jvm]')")
    return "; ".join(missing)


def _print_table(title: str, rows: list[tuple[str, bool, str]], width: int) -> None:
    print(title)
    for name, runnable, what in rows:
        if runnable:
            print(f"  {name:<{width}}  yes  {what}")
            continue
        why, install = checkout_install(what)
        print(f"  {name:<{width}}  no   {why}")
        if install is not None:
            print(f"  {'':<{width}}       install: {install}")


def grammar() -> int:
    """``targets --grammar``: the one grammar as a Markdown table (``docs/targets.md`` holds this output)."""
    from kafka_conformance.adapters.targets import grammar_rows

    print("| spec | where | what it is there |")
    print("|---|---|---|")
    for usage, option, what in grammar_rows():
        cell = usage.replace("|", "\\|")  # a | inside a cell, escaped as Markdown tables need
        print(f"| `{cell}` | `{option}` | {what} |")
    return 0


def run(kafka: bool) -> int:
    from kafka_conformance.authorizer.targets import builtin_targets
    from kafka_conformance.broker.targets import broker_targets_table
    from kafka_conformance.cli.fetch import kafka_target_rows

    jvm_why = _jvm_reason()
    authorizers = [(name, runnable, what if runnable or not jvm_why else f"{what}: cannot run here: {jvm_why}")
                   for name, what, runnable in builtin_targets()]
    authorizers.append(("python:MODULE:FACTORY", True, "any Python object implementing the protocol (the module must "
                                                       "be importable: run from its folder or set PYTHONPATH)"))
    kafka_rows = kafka_target_rows()
    if kafka:
        authorizers += [(spec, runnable, what) for spec, runnable, what in kafka_rows]
    clients = _clients()
    brokers = [(name, runnable, what) for name, what, runnable in broker_targets_table()]
    width = max(len(name) for name, _, _ in (*authorizers, *clients, *brokers))
    _print_table("authorizers (check authorizer --target)", authorizers, width)
    if not kafka:
        ready = sum(runnable for _, runnable, _ in kafka_rows)
        print(f"  (kafka:VERSION: {ready} of {len(kafka_rows)} releases runnable here; "
              "'kafka-conformance targets --kafka' lists them, 'kafka-conformance fetch --all' fetches them)")
    _print_table("producer clients (check producer --client)", clients, width)
    _print_table("brokers (check broker --target, check producer --broker)", brokers, width)
    return 0


def _clients() -> list[tuple[str, bool, str]]:
    from kafka_conformance.adapters.targets import TargetError
    from kafka_conformance.producer.clients import MODEL, REAL_CLIENTS, resolve_client

    clients = []
    for name in REAL_CLIENTS:
        try:
            resolve_client(name)
            clients.append((name, True, "the real client, run against the test broker or a real broker"))
        except TargetError as exc:
            clients.append((name, False, str(exc).removeprefix(f"client {name} cannot run here: ")))
    clients.append((MODEL, True, "the reference producer against the reference cluster (simulated time)"))
    return clients

"""``docs/cli.md``: every command and its options, generated from the parser itself.

The page cannot drift from the CLI: ``tests/repo/test_docs.py`` compares it with
:func:`render`, and ``python3 -m kafka_conformance.cli.table > docs/cli.md``
writes it again.  The same walk checks the vocabulary: one concept, one option
name, on every command that has it.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

__all__ = ["commands", "render"]


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every runnable command: its words after ``kafka-conformance`` and its parser."""
    children = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not children:
        yield path, parser
    for action in children:
        for name, child in action.choices.items():
            yield from commands(child, (*path, name))


def _first_sentence(text: str | None, default: object = None) -> str:
    if not text or text == argparse.SUPPRESS:
        return ""
    text = " ".join(text.replace("%(default)s", str(default)).split())
    end = text.find(". ")
    return (text if end < 0 else text[: end + 1]).replace("|", "\\|")


def render() -> str:
    from kafka_conformance.cli.main import _parser

    lines = ["# Command-line reference", "",
             "Generated from the parser (`python3 -m kafka_conformance.cli.table > docs/cli.md`); "
             "`tests/repo/test_docs.py` keeps it current. Every command takes `--help`. Exit codes are "
             "the same for every command: 0 conforms, 1 a divergence, 2 usage or configuration error, "
             "3 a bug in the kit, 4 (`report`) something asked for could not run, 129/130/143 stopped by "
             "SIGHUP, Ctrl-C or SIGTERM.", ""]
    for path, parser in commands(_parser()):
        lines += [f"## `kafka-conformance {' '.join(path)}`", ""]
        if parser.description:
            lines += [_first_sentence(parser.description), ""]
        lines += ["| option | what it does |", "|---|---|"]
        for action in parser._actions:
            if not action.option_strings or action.help == argparse.SUPPRESS or "--help" in action.option_strings:
                continue
            name = ", ".join(f"`{o}`" for o in action.option_strings)
            lines.append(f"| {name} | {_first_sentence(action.help, action.default)} |")
        positional = [a for a in parser._actions if not a.option_strings]
        for action in positional:
            lines.append(f"| `{action.metavar or action.dest}` (positional) | {_first_sentence(action.help)} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    print(render(), end="")

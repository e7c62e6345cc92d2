"""What the mutation run leaves out before it runs: mutants equivalent by construction.

Cosmic Ray's documented way to leave a mutant out is a filter that marks it skipped in the
session before ``exec``; this module is that filter, and the source positions it needs (the
spans of annotations, of comparisons against enum members or None, of functions and classes)
are read from the module's own syntax tree.  Each mutant it skips is reported as *not run*,
with which of :data:`NOT_RUN_REASONS` applies.
"""

from __future__ import annotations

import ast
import enum
import importlib
from collections.abc import Sequence
from pathlib import Path

from kafka_conformance.selftest.equivalent import Outside

__all__ = ["NOT_RUN_REASONS", "Span", "not_run_reason", "scope_at", "scopes", "skip_not_run"]

NOT_RUN_REASONS = {
    "annotation": "inside a type annotation: every mutated module postpones annotations "
                  "(from __future__ import annotations), so none is ever evaluated",
    "identity": "`is` and `==` (`is not` and `!=`) swapped where one side is a member of an enum without an "
                "__eq__ of its own, or None: for those, equality is identity",
    "outside": "in code a served implementation never runs (conformance/selftest/equivalent.py, OUTSIDE_PROTOCOL)",
}
_SWAPS = ("_Is_Eq", "_Eq_Is", "_IsNot_NotEq", "_NotEq_IsNot")

Span = tuple[tuple[int, int], tuple[int, int]]


def _identity_spans(path: Path, module: str) -> list[Span]:
    """Single comparisons with an enum member or None on one side, where ``is`` means ``==``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    loaded = importlib.import_module(module)

    def plain_member(node: ast.expr) -> bool:
        if isinstance(node, ast.Constant) and node.value is None:
            return True
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            return False
        cls = getattr(loaded, node.value.id, None)
        return (isinstance(cls, enum.EnumMeta) and cls.__eq__ is object.__eq__
                and isinstance(getattr(cls, node.attr, None), cls))

    return [((n.lineno, n.col_offset), (n.end_lineno or n.lineno, n.end_col_offset or 0))
            for n in ast.walk(tree)
            if isinstance(n, ast.Compare) and len(n.ops) == 1 and (plain_member(n.left) or plain_member(n.comparators[0]))]


def scopes(path: Path) -> list[tuple[str, Span]]:
    """Every function and class of a module with its qualified name and its span."""
    found: list[tuple[str, Span]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                found.append((name, ((first, 0), (child.end_lineno or child.lineno, child.end_col_offset or 0))))
                walk(child, name + ".")

    walk(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def _outside(file: str, scopes: list[tuple[str, Span]], start: tuple[int, int], end: tuple[int, int],
             outside: Sequence[Outside]) -> Outside | None:
    for entry in outside:
        if entry.file != file:
            continue
        if entry.scope == "*" or any(name == entry.scope and a <= start and end <= b for name, (a, b) in scopes):
            return entry
    return None


def _annotation_spans(path: Path) -> list[Span]:
    """Where a module's annotations are, when it postpones them; none when it does not."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    postponed = any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and
                    any(a.name == "annotations" for a in n.names) for n in tree.body)
    if not postponed:
        return []
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            found += [x.annotation for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg)
                      if x is not None and x.annotation is not None]
            found += [node.returns] if node.returns is not None else []
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return [((n.lineno, n.col_offset), (n.end_lineno or n.lineno, n.end_col_offset or 0)) for n in found]


def skip_not_run(session: Path, folder: Path, outside: Sequence[Outside]) -> None:
    """Cosmic Ray's filter step: mark the mutants of :data:`NOT_RUN_REASONS` as skipped, saying which."""
    from cosmic_ray.work_db import use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    annotations: dict[Path, list[Span]] = {}
    identities: dict[Path, list[Span]] = {}
    found: dict[Path, list[tuple[str, Span]]] = {}
    with use_db(str(session)) as db:
        for item in db.work_items:
            (mutation,) = item.mutations
            path = folder / mutation.module_path
            file = Path(mutation.module_path).relative_to("src/kafka_conformance").as_posix()
            start, end = tuple(mutation.start_pos), tuple(mutation.end_pos)
            spans = annotations.setdefault(path, _annotation_spans(path))
            why = "annotation" if any(a <= start and end <= b for a, b in spans) else ""
            entry = None if why else _outside(file, found.setdefault(path, scopes(path)), start, end, outside)
            if entry is not None:
                why = f"outside:{entry.scope}"
            if not why and mutation.operator_name.endswith(_SWAPS):
                module = ".".join(Path(mutation.module_path).with_suffix("").parts[1:])  # src/kafka_conformance/...
                spans = identities.setdefault(path, _identity_spans(path, module))
                why = "identity" if any(a <= start and end <= b for a, b in spans) else ""
            if why:
                db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=why))


def scope_at(spans: list[tuple[str, Span]], number: int) -> str:
    """The innermost function or class holding line ``number``, or ""."""
    holding = [(name, span) for name, span in spans if span[0][0] <= number <= span[1][0]]
    return max(holding, key=lambda h: h[1][0])[0] if holding else ""


def not_run_reason(output: str) -> str:
    kind, _, scope = output.partition(":")
    return NOT_RUN_REASONS.get(kind, output) + (f" ({scope})" if scope else "")

"""The layers hold: a part imports only the parts below it, imports inside functions too.

The layers, top down, are the import-linter contract in ``pyproject.toml``
(docs/development.md); ``lint-imports`` checks it. The graph below, read from the sources, adds
what the contract does not say: every import inside a function is a listed start-up
cost with its reason beside it, no module takes part in an import circle at run time,
and no private name crosses from one module to another.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = SRC / "toolwire"

UPWARD: dict[tuple[str, str], str] = {}
"""Imports that run against the layers, each with what removes it (pyproject's
``ignore_imports`` holds the same list)."""

LAZY = {
    # Each import of a toolwire module made inside a function, and why it waits there: a
    # measured start-up cost (the figures beside each import), never a circle dodged.
    ("toolwire", "toolwire._render"): "rendering: a plain read never renders",
    ("toolwire", "toolwire._stream"): "streaming: thirteen modules a plain read never needs",
    ("toolwire", "toolwire._tools"): "tool checks: jsonschema's machinery",
    ("toolwire._registry.loading", "toolwire._spec.extends"): "spec files: YAML and checks",
    ("toolwire._registry.loading", "toolwire._spec.document"): "spec files: YAML and checks",
    ("toolwire._registry.loading", "toolwire._text"): "the text reader, only for text specs",
    ("toolwire._registry.registry", "toolwire._render"):
        "rendering (Reply.assistant_message, answer): a plain read never renders",
    ("toolwire._registry.registry", "toolwire._text"): "the text reader, only for text",
    ("toolwire._registry.registry", "toolwire._text.templates.text_format"):
        "response templates, only when one is used",
    ("toolwire._registry.registry", "toolwire._tools"): "tool checks, only with tools=",
    ("toolwire._render.results", "toolwire._sdk_objects"): "SDK objects, only for one",
    ("toolwire._stream.accumulator", "toolwire._tools"): "tool checks, only with tools=",
    ("toolwire._stream.events", "toolwire._sdk_objects"): "SDK objects, only for one",
    ("toolwire._stream.given", "toolwire._sdk_objects"): "SDK objects, only for one",
    ("toolwire._text.extract", "toolwire._tools"): "tool checks, only with tools=",
    ("toolwire._tools.part", "toolwire._sdk_objects"): "SDK objects, only for one",
    ("toolwire._wire.reply_text", "toolwire._text"): "the text reader, only with text_format=",
    ("toolwire._wire.gate", "toolwire._wire.fastpred"): "compiled on the second check",
    ("toolwire._wire.interpreter", "toolwire._wire.fastpath"): "compiled on the second reply",
    ("toolwire._wire.interpreter", "toolwire._wire.fastread"): "generated on a second read",
    ("toolwire._wire.walk", "toolwire._sdk_objects"): "SDK objects, only for one",
    ("toolwire.cli._batch", "toolwire.batch"): "the batch engine, only when batch runs",
    ("toolwire.cli._batch", "toolwire.batch._sink"): "as above",
    ("toolwire.cli._batch", "toolwire.batch._source"): "as above",
    ("toolwire.cli._conformance", "toolwire.conformance"): "the harness, only when it runs",
    ("toolwire.cli._conformance", "toolwire.conformance._program"): "as above",
    ("toolwire.cli._conformance", "toolwire.conformance._reference"): "as above",
    ("toolwire.cli._conformance", "toolwire.conformance._diff"): "as above",
    ("toolwire.cli._extract", "toolwire.cli._choice"): "an option's module, only with it",
    ("toolwire.cli._extract", "toolwire.cli._names"): "as above (it loads typing)",
    ("toolwire.cli._extract", "toolwire.cli._response_template"): "as above",
    ("toolwire.cli._extract", "toolwire.cli._stream"): "as above",
    ("toolwire.cli._extract", "toolwire.cli._text_in_content"): "as above",
    ("toolwire.cli._extract", "toolwire.cli._tools"): "as above",
    ("toolwire.cli._main", "toolwire.cli._batch"): "each command loads only its own module",
    ("toolwire.cli._main", "toolwire.cli._conformance"): "as above",
    ("toolwire.cli._main", "toolwire.cli._explain"): "as above",
    ("toolwire.cli._main", "toolwire.cli._extract"): "as above",
    ("toolwire.cli._main", "toolwire.cli._parser"): "argparse, only when it is needed",
    ("toolwire.cli._main", "toolwire.cli._specs"): "as above",
    ("toolwire.cli._main", "toolwire.cli._specs_check"): "as above",
    ("toolwire.cli._main", "toolwire.cli._specs_export"): "as above",
    ("toolwire.cli._main", "toolwire.cli._specs_test"): "as above",
    ("toolwire.cli._replies", "toolwire._stream.identify"): "the stream reader, only for one",
    ("toolwire.cli._stream", "toolwire._stream"): "the stream reader, only with --stream",
    ("toolwire.cli._stream", "toolwire._stream.framing"): "as above",
    ("toolwire.cli._stream", "toolwire._tools"): "tool checks, only with --tools",
    ("toolwire.cli._tools", "toolwire._tools"): "tool checks, only with --tools",
}


class Import:
    """One import statement of a toolwire module, resolved."""

    def __init__(self, module: str, node: ast.Import | ast.ImportFrom, *, in_function: bool,
                 type_only: bool, targets: list[str], names: list[str]) -> None:
        self.module = module
        self.line = node.lineno
        self.in_function = in_function
        self.type_only = type_only
        self.targets = targets
        self.names = names


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if MODULES[module].name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports_of(module: str) -> Iterator[Import]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))

    def visit(node: ast.AST, in_function: bool, type_only: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ImportFrom):
                target = _resolve(module, child)
                if target == "toolwire" or target.startswith("toolwire."):
                    names = [a.name for a in child.names]
                    subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES]
                    yield Import(module, child, in_function=in_function, type_only=type_only,
                                 targets=subs or [target],
                                 names=[n for n in names if f"{target}.{n}" not in MODULES])
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.startswith("toolwire"):
                        yield Import(module, child, in_function=in_function,
                                     type_only=type_only, targets=[alias.name], names=[])
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                yield from visit(child, in_function, True)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                yield from visit(child, True, type_only)
            else:
                yield from visit(child, in_function, type_only)

    yield from visit(tree, False, False)


IMPORTS = [i for m in sorted(MODULES) for i in _imports_of(m)]


def _owner(target: str) -> str:
    """The module a target names (a name imported from a package counts as the package)."""
    while target not in MODULES and "." in target:
        target = target.rsplit(".", 1)[0]
    return target


def _upward(module: str, owner: str) -> bool:
    """Whether ``module`` importing ``owner`` is one of the listed upward imports."""
    return any(module == a and (owner == b or owner.startswith(b + ".")) for a, b in UPWARD)


def _run_time_edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for imp in IMPORTS:
        if imp.type_only:
            continue
        for target in imp.targets:
            owner = _owner(target)
            if not _upward(imp.module, owner):
                edges[imp.module].add(owner)
    return edges


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_import_linter_contract_holds() -> None:
    pytest.importorskip("importlinter")
    command = shutil.which("lint-imports", path=os.path.dirname(sys.executable))
    assert command, "lint-imports is not installed beside this python (the test extra)"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([command, "--no-cache"], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_allowed_upward_imports_are_the_contract_s_ignored_ones() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = config["tool"]["importlinter"]["contracts"]
    ignored = {tuple(i.split(" -> ")) for i in contract["ignore_imports"]}
    assert ignored == set(UPWARD)


def test_every_import_inside_a_function_is_a_listed_start_up_cost() -> None:
    found = {(i.module, _owner(t)) for i in IMPORTS if i.in_function for t in i.targets}
    assert found - set(LAZY) == set(), "move these to the top of their module, or list them"
    assert set(LAZY) - found == set(), "listed here but no longer imported inside a function"


def test_every_import_inside_a_function_says_why_beside_it() -> None:
    """Any module, toolwire's or not: the reason is a ``# lazy:`` comment on the import
    line or the line above it."""
    unexplained = []
    for module, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    here = lines[inner.lineno - 1] + lines[inner.lineno - 2]
                    if "# lazy:" not in here:
                        unexplained.append(f"{module}:{inner.lineno}")
    assert unexplained == []


def test_no_module_takes_part_in_an_import_circle_at_run_time() -> None:
    assert _circles(_run_time_edges()) == []


def test_no_private_name_is_imported_from_another_module() -> None:
    crossing = [f"{i.module}:{i.line} imports {name} from {i.targets[0]}"
                for i in IMPORTS for name in i.names
                if name.startswith("_") and not name.startswith("__")]
    assert crossing == []


def test_the_values_and_errors_import_no_engine() -> None:
    bottom = ("toolwire._values", "toolwire.errors", "toolwire._speed")
    reaching = [f"{i.module}:{i.line} -> {t}" for i in IMPORTS if i.module.startswith(bottom)
                for t in i.targets
                if not _owner(t).startswith(bottom) and not _upward(i.module, _owner(t))]
    assert reaching == []


def test_the_graph_is_read_whole() -> None:
    """The checks above see every module and the imports that matter."""
    assert "toolwire._wire.walk" in MODULES and "toolwire.cli._main" in MODULES
    assert any(i.in_function for i in IMPORTS) and any(i.type_only for i in IMPORTS)
    assert _circles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]


def test_no_module_outside_the_spec_package_reads_a_specs_raw_data() -> None:
    # The readers, the registry, the CLI and the tools read the compiled spec's attributes
    # (Source.typing, WireSpec.extends, stream_part, tools_part) or WireSpec.declared().
    import re

    raw = re.compile(r"\b(\w*spec\w*|base|current)\.data\b")
    found = [
        f"{path.relative_to(SRC)}:{number}"
        for path in sorted(PACKAGE.rglob("*.py")) if "_spec" not in path.relative_to(PACKAGE).parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if raw.search(line)
    ]
    assert found == []

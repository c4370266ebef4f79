"""``toolwire specs test DIR``: an author's own conformance cases, run against their specs.

``DIR`` holds the author's spec files (``*.yaml``, ``*.yml``) and their wire cases
(``*.json`` anywhere below it, meta-schema copies ``*.schema.json`` aside), written in the
suite's own case format (specs/README.md §4, ``toolwire specs schema case``). The specs load
on top of the bundled ones, which they may extend, and each test runs through the suite's
runner (:mod:`toolwire.conformance._wire_cases`), so a case passes here exactly where it would pass
in the suite. Exits: 0 every test passed, 1 a test failed or a spec does not load, 2 the
command line or a case file is wrong (no folder, no cases, a case off the case schema).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from .._paths import bundled_specs_dir
from .._registry.registry import Registry
from ..conformance._wire_cases import run_wire_test
from ._common import UsageError, emit
from ._specs import SCHEMAS

if TYPE_CHECKING:
    import argparse
    from pathlib import Path
    from typing import Any, TextIO

__all__ = ["add_parser", "case_files", "load_case", "run_test"]


def add_parser(commands: Any) -> None:
    """The ``specs test`` subcommand."""
    test = commands.add_parser("test", help="run your conformance cases against your specs",
                               description="Run the JSON conformance cases under DIR against"
                               " the specs in DIR (on top of the bundled ones).")
    test.add_argument("dir", metavar="DIR", help="the folder with your specs and cases")
    test.add_argument("--json", action="store_true",
                      help="print one JSON object (every test's result) instead of lines")


def case_files(folder: Path) -> list[Path]:
    """The case files under ``folder``, sorted: every ``*.json`` but meta-schema copies."""
    return sorted(p for p in folder.rglob("*.json") if not p.name.endswith(".schema.json"))


def load_case(path: Path, root: Path) -> dict[str, Any]:
    """A case file, read and held to the case schema's wire kind; UsageError naming the file
    and the field otherwise."""
    import jsonschema  # lazy: jsonschema (66 ms) only when cases are checked


    name = path.relative_to(root).as_posix()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"{name}: a case file is UTF-8 JSON") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{name}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    except RecursionError:
        raise UsageError(f"{name}: not JSON this reader can take: nested too deep") from None

    schema = json.loads((bundled_specs_dir() / "schema" / SCHEMAS["case"]).read_text("utf-8"))
    kind = "stream" if isinstance(data, dict) and data.get("kind") == "stream" else "wire"
    del schema["oneOf"]
    schema["$ref"] = f"#/definitions/{kind}"
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(data), key=_rank)
    if errors:
        first = errors[0]
        field = "/" + "/".join(map(str, first.absolute_path))
        said = _missing(first, errors) or first.message
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise UsageError(f"{name}: {field}: {said}, against the case schema's"
                         f" {kind} kind{more}")
    result: dict[str, Any] = data
    return result


def _conditional(error: Any) -> bool:
    """An error of an ``if``'s ``then``/``else``: a consequence, told after its cause."""
    return "then" in error.schema_path or "else" in error.schema_path


def _rank(error: Any) -> tuple[list[str], bool, bool, str]:
    """Errors in the order they are told: by place, then a plain rule before a consequence
    (a missing ``arguments_undecodable`` before the ``arguments_error_code`` it implies),
    missing keys first."""
    return (list(map(str, error.absolute_path)), _conditional(error),
            error.validator != "required", error.message)


def _missing(first: Any, errors: list[Any]) -> str | None:
    """``missing 'a' and 'b' (required: …)`` for every key missing where ``first`` is."""
    if first.validator != "required" or not isinstance(first.instance, dict):
        return None
    here = [e for e in errors if e.validator == "required" and not _conditional(e)
            and list(e.absolute_path) == list(first.absolute_path)]
    required: list[str] = []
    for error in here:
        required += [k for k in error.validator_value if k not in required]
    missing = [k for k in required if k not in first.instance]
    if not missing:
        return None
    names = [repr(k) for k in missing]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"missing {listed} (required here: {', '.join(required)})"


def _results(folder: Path) -> list[dict[str, Any]]:

    files = case_files(folder)
    if not files:
        raise UsageError(f"no case files (*.json) under {folder}")
    cases = [(f.relative_to(folder).as_posix(), load_case(f, folder)) for f in files]
    registry = Registry.from_paths(folder)  # a SpecError: exit 1 with every problem
    results: list[dict[str, Any]] = []
    for name, case in cases:
        for index, test in enumerate(case["tests"]):
            where = f"{name}::{index}"
            described = {"description": test["description"]} if "description" in test else {}
            if case.get("kind") == "stream":
                results.append({"test": where, **described, "status": "skipped",
                                "reason": "stream cases are not run by specs test"})
                continue
            problems = run_wire_test(registry, case["format"], test)
            results.append({"test": where, **described,
                            "status": "failed" if problems else "passed",
                            "differences": problems})
    return results


def run_test(args: argparse.Namespace, out: TextIO) -> int:
    """Run every case under ``args.dir``; print each test's verdict and a summary."""

    folder = Path(args.dir)
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder")
    results = _results(folder)
    counts = {s: sum(r["status"] == s for r in results) for s in ("passed", "failed", "skipped")}
    if args.json:
        emit({"results": results, **counts}, out)
    else:
        for result in results:
            label = f" ({result['description']})" if result.get("description") else ""
            out.write(f"{result['status'][:4].upper():4} {result['test']}{label}\n")
            for line in result.get("differences", []):
                out.write(f"       {line}\n")
            if "reason" in result:
                out.write(f"       {result['reason']}\n")
        skipped = f", {counts['skipped']} skipped" if counts["skipped"] else ""
        out.write(f"{counts['passed']} passed, {counts['failed']} failed{skipped}"
                  f" ({len(results)} tests)\n")
    return 1 if counts["failed"] else 0

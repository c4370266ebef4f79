"""The conformance suite as ``toolwire conformance`` runs it: the case files, each with its kind.

The folder decides a case's kind (specs/README.md §4.1): ``expression``, ``interpreter``,
``spec-validation``, ``text`` and ``tools`` are folders of their own; a case in a format's
folder is a ``wire`` case, or a ``stream`` case when it carries ``"kind": "stream"``. Each
file is held to its kind's definition in the case schema before it runs, so a key no runner
checks fails the case instead of passing unchecked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._paths import bundled_specs_dir

__all__ = ["KINDS", "Case", "case_problems", "load_cases", "suite_dir"]

KINDS = ("expression", "interpreter", "spec-validation", "stream", "text", "tools", "wire")
"""Every kind of case, in the order the summary prints them."""

_FOLDER_KINDS = ("expression", "interpreter", "spec-validation", "text", "tools")


@dataclass(frozen=True)
class Case:
    """One case file: its name (the path below the suite, with ``/``), kind and data."""

    name: str
    kind: str
    data: dict[str, Any]


def suite_dir() -> Path:
    """The bundled suite: ``specs/conformance`` (in a wheel, its copy in the package)."""
    return bundled_specs_dir() / "conformance"


def _kind(name: str, data: Any) -> str:
    top = name.split("/", 1)[0]
    if top in _FOLDER_KINDS:
        return top
    return "stream" if isinstance(data, dict) and data.get("kind") == "stream" else "wire"


def load_cases(root: Path | None = None, kinds: tuple[str, ...] = KINDS) -> list[Case]:
    """The case files under ``root`` (default :func:`suite_dir`) of the given kinds, sorted
    by name. A file that is not JSON is a case whose data is None (it fails, named)."""
    root = suite_dir() if root is None else root
    found = []
    for path in sorted(root.rglob("*.json")):
        name = path.relative_to(root).as_posix()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            data = None
        kind = _kind(name, data)
        if kind in kinds:
            found.append(Case(name, kind, data))
    return found


_VALIDATORS: dict[str, Any] = {}


def case_problems(case: Case) -> list[str]:
    """Where the case breaks its kind's definition in the case schema; [] when it holds."""
    if not isinstance(case.data, dict):
        return ["not a JSON object (a case file is UTF-8 JSON)"]
    validator = _VALIDATORS.get(case.kind)
    if validator is None:
        import jsonschema  # lazy: jsonschema only when cases are checked

        path = bundled_specs_dir() / "schema" / "conformance-case.v1.schema.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
        schema.pop("oneOf", None)
        schema["$ref"] = f"#/definitions/{case.kind}"
        validator = _VALIDATORS[case.kind] = jsonschema.Draft7Validator(schema)
    errors = sorted(validator.iter_errors(case.data),
                    key=lambda e: (list(map(str, e.absolute_path)), e.message))
    return [f"not a valid {case.kind} case: /{'/'.join(map(str, e.absolute_path))}:"
            f" {e.message}" for e in errors[:5]]

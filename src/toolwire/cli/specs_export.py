"""``toolwire specs export DIR``: the specs as one plain JSON file any language can load.

An implementation in another language should not need a YAML reader with toolwire's
strictness, nor ``extends`` resolution, to use the bundled formats: ``specs.json`` holds
every wire spec already merged with its base (expressions as their source text, exactly
as written in the YAML) and every text spec, beside the meta-schemas that validate each
entry. Its shape is specified in specs/README.md §4.1.
"""

from __future__ import annotations

from .common import InputError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any, TextIO

    from ..registry import Registry

__all__ = ["EXPORT_VERSION", "export_document", "run_export"]

EXPORT_VERSION = 1


def _standalone(data: dict[str, Any]) -> dict[str, Any]:
    """A merged wire spec as a spec of its own: ``extends`` resolved, its base kept as a note."""
    merged = {key: value for key, value in data.items() if key not in ("extends", "remove")}
    if "extends" in data:
        merged["x-extended-from"] = data["extends"]
    return merged


def export_document(registry: Registry) -> dict[str, Any]:
    """The export's JSON: ``{export_version, spec_version, wire: {...}, text: {...}}``."""
    from ..toolcall import copy_json

    wire = {name: _standalone(copy_json(spec.data)) for name, spec in registry.specs().items()}
    text = {name: copy_json(spec._data) for name, spec in registry.text_specs().items()}
    return {"export_version": EXPORT_VERSION, "spec_version": 1, "wire": wire, "text": text}


def run_export(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    """Write ``DIR/specs.json`` and ``DIR/schema/*.json``; print each path written."""
    import json
    from pathlib import Path

    from ..paths import bundled_specs_dir
    from .specs import SCHEMAS

    target = Path(args.dir)
    schemas = Path(bundled_specs_dir()) / "schema"
    try:
        (target / "schema").mkdir(parents=True, exist_ok=True)
        bundle = target / "specs.json"
        bundle.write_text(json.dumps(export_document(registry), indent=1, ensure_ascii=False)
                          + "\n", encoding="utf-8")
        out.write(f"{bundle}\n")
        for name in SCHEMAS.values():
            (target / "schema" / name).write_bytes((schemas / name).read_bytes())
            out.write(f"{target / 'schema' / name}\n")
    except OSError as exc:
        raise InputError(f"cannot write into {target}: {exc}") from None
    return 0

"""``toolwire specs export DIR``: the specs as one plain JSON file any language can load.

An implementation in another language should not need a YAML reader with toolwire's
strictness, nor ``extends`` resolution, to use the bundled formats: ``specs.json`` holds
every wire spec already merged with its base (expressions as their source text, exactly
as written in the YAML) and every text spec, beside the meta-schemas that validate each
entry. Its shape is specified in specs/README.md §4.2.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from .._paths import bundled_specs_dir
from .._values.json_values import copy_json
from ._common import InputError
from ._specs import SCHEMAS

if TYPE_CHECKING:
    import argparse
    from pathlib import Path
    from typing import Any, TextIO

    from .._registry.registry import Registry

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
    wire = {name: _standalone(spec.declared()) for name, spec in registry.specs().items()}
    text = {name: copy_json(spec._data) for name, spec in registry.text_specs().items()}
    return {"export_version": EXPORT_VERSION, "spec_version": 1, "wire": wire, "text": text}


def run_export(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    """Write ``DIR/specs.json`` and ``DIR/schema/*.json``; print each path written.

    Without ``--force`` nothing is written when any of those files exists already, or when
    ``DIR/schema`` is a link leading out of ``DIR``. Each file is written under a temporary
    name and renamed onto its own: a link in its place is replaced, never written through.
    """


    target = Path(args.dir)
    schemas = Path(bundled_specs_dir()) / "schema"
    files = [target / "specs.json", *(target / "schema" / name for name in SCHEMAS.values())]
    if not getattr(args, "force", False):
        _refuse_existing(target, files)
    try:
        (target / "schema").mkdir(parents=True, exist_ok=True)
        document = json.dumps(export_document(registry), indent=1, ensure_ascii=False) + "\n"
        _replace(files[0], document.encode("utf-8"))
        out.write(f"{files[0]}\n")
        for path in files[1:]:
            _replace(path, (schemas / path.name).read_bytes())
            out.write(f"{path}\n")
    except OSError as exc:
        raise InputError(f"cannot write into {target}: {exc}") from None
    return 0


def _refuse_existing(target: Path, files: list[Path]) -> None:
    """An :class:`InputError` for a file the export would replace, or a ``schema`` link
    that would take the export out of ``target``."""
    folder = target / "schema"
    if folder.is_symlink() and not _inside(folder.resolve(), target.resolve()):
        raise InputError(f"{folder} is a link out of {target} (to {folder.resolve()}); pass"
                         " --force to write there")
    for path in files:
        if path.is_symlink() or path.exists():
            raise InputError(f"{path} exists; pass --force to replace it")


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _replace(path: Path, data: bytes) -> None:
    """``data`` as the file ``path``: written beside it, then renamed onto it."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "xb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise

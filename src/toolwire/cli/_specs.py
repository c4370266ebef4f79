"""``toolwire specs list | new | table | schema | generated``: the registry's formats, a new
spec, the audit table, the meta-schemas, the Python a spec's readers generate.

``specs check`` lives in :mod:`.specs_check`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from .._paths import bundled_specs_dir
from .._registry.registry import Registry
from .._spec.skeleton import FORMAT_PATTERN, ensure_schema_copy, render_skeleton
from .._wire.generated_source import generated_source
from ._audit import formats_markdown
from ._common import InputError, UsageError, emit
from ._names import wire_format

if TYPE_CHECKING:
    import argparse
    from typing import TextIO

    from .._registry.registry import Registry

__all__ = ["SCHEMAS", "run_generated", "run_list", "run_new", "run_schema", "run_table"]


def run_new(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    """Write ``NAME.yaml``, a commented skeleton, into ``--out``; print its path."""


    if not re.match(FORMAT_PATTERN, args.name) or len(args.name) > 64:
        raise UsageError(f"a format name matches {FORMAT_PATTERN}, not {args.name!r}")
    base = (
        registry.spec(wire_format(registry, args.extends, "--extends"))
        if args.extends is not None else None
    )
    folder = Path(args.out)
    path = folder / f"{args.name}.yaml"
    if path.exists() and not args.force:
        raise InputError(f"{path} exists; pass --force to overwrite it")

    try:
        folder.mkdir(parents=True, exist_ok=True)
        # The $schema line names a path relative to the spec: a copy beside it when none
        # is reachable, never a path into this machine's virtualenv.
        copy = ensure_schema_copy(folder)
        path.write_text(render_skeleton(args.name, base, folder), encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc}") from None
    out.write(f"{path}\n")
    if copy is not None:
        out.write(f"{copy}\n")
    return 0


SCHEMAS = {
    "wire": "wire-spec.v1.schema.json",
    "text": "text-spec.v1.schema.json",
    "case": "conformance-case.v1.schema.json",
}


def run_schema(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    """Print one meta-schema (``wire`` by default), or write them all into ``--out``."""

    folder = Path(bundled_specs_dir()) / "schema"
    if args.out is None:
        out.write((folder / SCHEMAS[args.kind]).read_text(encoding="utf-8"))
        return 0
    target = Path(args.out)
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name in SCHEMAS.values():
            (target / name).write_bytes((folder / name).read_bytes())
            out.write(f"{target / name}\n")
    except OSError as exc:
        raise InputError(f"cannot write into {target}: {exc}") from None
    return 0


def run_generated(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    """Print the source of a wire spec's generated extract, read or gate function."""
    spec = registry.spec(wire_format(registry, args.format, "FORMAT"))
    out.write(generated_source(spec, args.kind, args.strict))
    return 0


def run_table(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    """Every wire format as a Markdown table (``docs/formats.md``)."""

    out.write(formats_markdown(Registry.bundled() if args.bundled else registry))
    return 0


def run_list(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    """The formats with their kind, title, entry counts and origin."""
    rows: list[tuple[str, ...]] = [
        ("format", "kind", "title", "calls", "server", "ignore", "refuse", "origin")
    ]
    for name, spec in sorted(registry.specs().items()):
        counts = [len(spec.entries_of(k)) for k in ("calls", "server_side", "ignore", "refuse")]
        origin = "user (replaces bundled)" if name in registry.replaced else (
            "bundled" if spec.path.startswith(str(bundled_specs_dir())) else "user")
        rows.append((name, "wire", spec.title, *map(str, counts), origin))
    for name, text_spec in sorted(registry.text_specs().items()):
        origin = "user (replaces bundled)" if name in registry.replaced else "bundled"
        rows.append((name, "text", text_spec.title, "", "", "", "", origin))
    if args.json:
        emit([dict(zip(rows[0], row, strict=True)) for row in rows[1:]], out)
        return 0
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        out.write("\n")
    return 0

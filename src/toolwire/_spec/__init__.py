"""The spec language: strict YAML, the meta-schema and rules, ``extends``, the bundle.

What the rest of toolwire uses from here is re-exported below. The compiled model
(:class:`WireSpec` and its entries) is imported eagerly, since reading a reply needs it;
everything that reads or checks spec *files* (PyYAML, jsonschema, difflib) is imported
on first use, so a process that only reads replies from the precompiled bundle never
pays for it.

Modules: :mod:`.strict_yaml` (the YAML reader), :mod:`.loader` (one document's checks),
:mod:`.extends` (dialects merged onto their base), :mod:`.load` (a file end to end),
:mod:`.wirespec` (the compiled model), :mod:`.bundle` (the precompiled bundled specs),
:mod:`.skeleton` (``toolwire specs new``).
"""

from __future__ import annotations

from .._speed import TYPE_CHECKING
from .wirespec import (
    KINDS,
    CallEntry,
    Entry,
    IgnoreEntry,
    RefuseEntry,
    RenderPart,
    ServerEntry,
    WireSpec,
    compile_wire_spec,
)

if TYPE_CHECKING:
    from typing import Any

    from .bundle import load_bundled_specs
    from .extends import compiled_data, resolve_file, resolve_layer
    from .load import load_wire_spec
    from .loader import check_wire_document, read_document
    from .skeleton import FORMAT_PATTERN, render_skeleton, schema_reference
    from .strict_yaml import Document, escape_pointer

__all__ = [
    "FORMAT_PATTERN",
    "KINDS",
    "CallEntry",
    "Document",
    "Entry",
    "IgnoreEntry",
    "RefuseEntry",
    "RenderPart",
    "ServerEntry",
    "WireSpec",
    "check_wire_document",
    "compile_wire_spec",
    "compiled_data",
    "escape_pointer",
    "load_bundled_specs",
    "load_wire_spec",
    "read_document",
    "render_skeleton",
    "resolve_file",
    "resolve_layer",
    "schema_reference",
]

_LAZY = {
    "load_bundled_specs": ".bundle",
    "compiled_data": ".extends",
    "resolve_file": ".extends",
    "resolve_layer": ".extends",
    "load_wire_spec": ".load",
    "check_wire_document": ".loader",
    "read_document": ".loader",
    "FORMAT_PATTERN": ".skeleton",
    "render_skeleton": ".skeleton",
    "schema_reference": ".skeleton",
    "Document": ".strict_yaml",
    "escape_pointer": ".strict_yaml",
}


def __getattr__(name: str) -> Any:
    """Import a file-reading part on first use (PEP 562), then keep it as a global."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # __import__, not importlib.import_module: importlib (and warnings) cost a cold start.
    value = getattr(__import__(__name__ + module, fromlist=(name,)), name)
    globals()[name] = value
    return value

"""Loading one wire spec file end to end: strict YAML, ``extends``, the checks, compiling.

It sits above both :mod:`.document` (reading and checking one document) and
:mod:`.extends` (merging a document onto its base), which is why it is a module of its
own: ``extends`` needs the loader's checks, and loading a file needs ``extends``, so
putting this function in either made the two import each other.
"""

from __future__ import annotations

from pathlib import Path

from .document import read_document
from .extends import compiled_data, resolve_file
from .wirespec import WireSpec, compile_wire_spec

__all__ = ["load_wire_spec"]


def load_wire_spec(path: str | Path) -> WireSpec:
    """Load, check and compile one wire spec file; raise :class:`SpecError` if it is bad."""
    path = Path(path)
    resolved = resolve_file(path, read_document(path))
    return compile_wire_spec(compiled_data(resolved), str(path))

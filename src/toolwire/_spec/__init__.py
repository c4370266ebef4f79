"""The spec language: strict YAML, the meta-schema and rules, ``extends``, the bundle.

The compiled model (:class:`WireSpec` and its entries, :mod:`.wirespec`) is re-exported
here: reading a reply needs it. Everything that reads or checks spec *files* (PyYAML,
jsonschema, difflib) is imported from its own module by whoever needs it, so a process that
only reads replies from the precompiled bundle never pays for it.

Modules: :mod:`.strict_yaml` (the YAML reader), :mod:`.yaml_messages` (its errors in an
author's words), :mod:`.document` (one document's checks, with :mod:`.predicates`,
:mod:`.bare_names`, :mod:`.stream_part` and :mod:`.tools_part`), :mod:`.extends`
(dialects merged onto their base), :mod:`.wire_file` (a file end to end), :mod:`.wirespec` (the
compiled model, its parts in :mod:`.entries`), :mod:`.bundle` (the precompiled bundled
specs), :mod:`.spec_source` (specs by name, as the readers ask for them), :mod:`.skeleton`
(``toolwire specs new``) and :mod:`.sniff_overlap` (sniff predicates that tie).
"""

from __future__ import annotations

from .entries import (
    CallEntry,
    Entry,
    FailedCall,
    IgnoreEntry,
    RefuseEntry,
    RenderPart,
    ServerEntry,
    Source,
)
from .wirespec import KINDS, WireSpec, compile_wire_spec

__all__ = [
    "KINDS",
    "CallEntry",
    "Entry",
    "FailedCall",
    "IgnoreEntry",
    "RefuseEntry",
    "RenderPart",
    "ServerEntry",
    "Source",
    "WireSpec",
    "compile_wire_spec",
]

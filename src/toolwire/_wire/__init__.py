"""The wire interpreter: one generic reader that runs any compiled wire spec on a reply.

:mod:`.interpreter` is the reference semantics (a pure function of spec and reply);
:mod:`.fastpath` generates, per spec, straight-line extract code for the common case
and falls back to the interpreter on anything irregular. The registry calls the
functions re-exported here; nothing in this package knows about files, YAML or the CLI.
"""

from __future__ import annotations

from .interpreter import coerce_response, extract, from_item, locate, read, walk_extract

__all__ = ["coerce_response", "extract", "from_item", "locate", "read", "walk_extract"]

"""Streams: every wire format's stream accumulated into the Reply ``read()`` gives.

Imported on first use only (``toolwire.Accumulator`` resolves through the package's
module ``__getattr__``): reading a full response never pays for it. Modules:
:mod:`.accumulator` (the public face), :mod:`.engine` (the eight operations),
:mod:`.slots` (slot matching), :mod:`.stream_rules` (the ``stream:`` part, compiled),
:mod:`.updates` (what ``feed`` hands out), :mod:`.ready` (when), :mod:`.replies` (the
Reply of the document), :mod:`.identify` (what an event is), :mod:`.framing` (SSE / NDJSON),
:mod:`.events` (the one entry of every event), :mod:`.docpath`, :mod:`.errors`.
"""

from __future__ import annotations

from .accumulator import Accumulator, read_stream
from .updates import StreamUpdate

__all__ = ["Accumulator", "StreamUpdate", "read_stream"]

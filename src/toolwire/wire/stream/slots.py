"""Slots: the items a stream builds, one per block / call / part, and how events find them.

A slot is one item of a document list (or one object at a path, for ``update.at``), with
its key and id, whether it is open, and its pending string pieces. Appends go into
per-field piece lists and are joined only when the document is read (:meth:`Slot.flush`),
so accumulating a long argument string is linear, never the quadratic ``+=``.

Slot matching (specs/README.md §9.4), for a fragment with key ``k`` and id ``i``:

1. ``i`` non-blank and a slot of the list has id ``i`` → that slot;
2. ``k`` non-null and a slot has key ``k``: that slot when its id or ``i`` is blank or the
   two are equal, else a new slot (an index reused by another call);
3. ``k`` null and ``i`` blank → the latest slot of the list;
4. otherwise → a new slot.

Slots keep creation order; a key never implies a position (no phantom entries for gaps).
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from .docpath import Path, put

__all__ = ["Slot", "SlotList"]


def blank(value: Any) -> bool:
    """Absent, null or the empty string."""
    return value is None or value == ""


class Slot:
    """One item the stream builds."""

    __slots__ = (
        "buffers", "closed", "id", "item", "key", "list_path", "order", "pieces", "position",
        "released",
    )

    def __init__(
        self, list_path: Path, position: int, key: Any, item: dict[str, Any], order: int
    ) -> None:
        self.list_path = list_path
        self.position = position  # index in its list (None for an `at` slot: -1)
        self.key = key
        self.id: Any = None
        self.item = item
        self.order = order
        self.closed = False
        self.released = False
        self.pieces: dict[Path, list[str]] = {}
        self.buffers: dict[str, list[str]] = {}

    def append(self, path: Path, text: str, current: Any) -> None:
        """Add a piece to a string field (``current``: its value before the first piece)."""
        pieces = self.pieces.get(path)
        if pieces is None:
            pieces = self.pieces[path] = [current] if type(current) is str and current else []
        pieces.append(text)

    def buffer(self, name: str, text: str) -> None:
        self.buffers.setdefault(name, []).append(text)

    def buffered(self) -> dict[str, str]:
        return {name: "".join(pieces) for name, pieces in self.buffers.items()}

    def flush(self) -> None:
        """Write the joined pieces into the item."""
        for path, pieces in self.pieces.items():
            if len(pieces) != 1:
                pieces[:] = ["".join(pieces)]
            put(self.item, path, pieces[0] if pieces else "")


class SlotList:
    """The slots of one document list (or of one ``at`` path)."""

    __slots__ = ("items", "keyed", "path", "slots", "version")

    def __init__(self, path: Path, items: list[Any]) -> None:
        self.path = path
        self.items = items  # the document's list object
        self.slots: list[Slot] = []
        self.keyed: dict[Any, Slot] = {}  # the latest slot of each hashable key
        self.version = -1

    def match(self, key: Any, call_id: Any) -> Slot | None:
        """The slot a fragment belongs to, or None for a new one (the rule above)."""
        if call_id is not None and call_id != "":
            for slot in self.slots:
                if slot.id == call_id:
                    return slot
        if key is not None:
            keyed = self.by_key(key)
            if keyed is None:
                return None
            if blank(keyed.id) or blank(call_id) or keyed.id == call_id:
                return keyed
            return None
        if blank(call_id) and self.slots:
            return self.slots[-1]
        return None

    def add(self, slot: Slot) -> None:
        self.slots.append(slot)
        if slot.key is not None:
            # An unhashable key (a list, an object) is not indexed: by_key scans for it.
            with suppress(TypeError):
                self.keyed[(type(slot.key), slot.key)] = slot

    def by_key(self, key: Any) -> Slot | None:
        """The latest slot with this key (keys compare as JSON values: 1 is not true)."""
        try:
            return self.keyed.get((type(key), key))
        except TypeError:
            for slot in reversed(self.slots):
                if type(slot.key) is type(key) and slot.key == key:
                    return slot
            return None

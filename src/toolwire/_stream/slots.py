"""Slots: the items a stream builds, one per block / call / part, and how events find them.

A slot is one item of a document list (or one object at a path, for ``update.at``), with
its key and id, whether it is open, and its pending string pieces. Appends go into
per-field piece lists and are joined only when the document is read (:meth:`Slot.flush`),
so accumulating a long argument string is linear, never the quadratic ``+=``.

Slot matching (specs/README.md §9.4), for a fragment with key ``k`` and id ``i``:

1. ``k`` and ``i`` given: the slot with both; else the latest slot with key ``k`` and no id;
2. ``k`` given, ``i`` blank: the latest slot with key ``k``;
3. ``k`` null, ``i`` given: the latest slot with id ``i``;
4. neither: the latest slot of the list;
and otherwise a new slot — so a new key is a new call even when its id is another's, as the
openai SDK (which accumulates by index) and ``read()`` of the assembled body both have it.
Every lookup goes through a dict: matching costs the same with 10 slots or 100,000.

Slots keep creation order; a key never implies a position (no phantom entries for gaps).
"""

from __future__ import annotations

import json
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
        "released", "sizes",
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
        self.sizes: dict[Path, int] = {}  # the length of a joined field (``join``)

    def append(self, path: Path, text: str, current: Any) -> None:
        """Add a piece to a string field (``current``: its value before the first piece)."""
        pieces = self.pieces.get(path)
        if pieces is None:
            pieces = self.pieces[path] = [current] if type(current) is str and current else []
        elif self.sizes:
            self.sizes.pop(path, None)  # a joined field's length is no longer known
        pieces.append(text)

    def join(self, path: Path, text: str, current: Any) -> bool:
        """Add a piece unless it is the field's whole value so far (a re-sent name); whether
        it was added.

        The value's length is tracked, so the pieces are joined and compared only when they
        could be equal: each piece added after such a comparison at least doubles the length
        a later equal piece must have, so the comparisons cost linear time in total.
        """
        pieces = self.pieces.get(path)
        if pieces is None:
            if type(current) is str and current == text:
                return False
            start = current if type(current) is str else ""
            self.pieces[path] = [start, text] if start else [text]
            self.sizes[path] = len(start) + len(text)
            return True
        size = self.sizes.get(path)
        if size is None:
            size = sum(map(len, pieces))
        if size == len(text):
            if len(pieces) != 1:
                pieces[:] = ["".join(pieces)]
            if pieces[0] == text:
                self.sizes[path] = size
                return False
        pieces.append(text)
        self.sizes[path] = size + len(text)
        return True

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
    """The slots of one document list (or of one ``at`` path), indexed for matching."""

    __slots__ = ("by_id", "by_pair", "items", "keyed", "path", "slots", "version")

    def __init__(self, path: Path, items: list[Any]) -> None:
        self.path = path
        self.items = items  # the document's list object
        self.slots: list[Slot] = []
        self.keyed: dict[Any, Slot] = {}  # the latest slot of each hashable key
        self.by_id: dict[Any, Slot] = {}  # the latest slot of each id
        self.by_pair: dict[tuple[Any, Any], Slot] = {}  # the latest slot of each (key, id)
        self.version = -1

    def match(self, key: Any, call_id: Any) -> Slot | None:
        """The slot a fragment belongs to, or None for a new one (the rule above)."""
        named = call_id is not None and call_id != ""
        if key is not None:
            if named:
                both = self.by_pair.get((_tagged(key), _tagged(call_id)))
                if both is not None:
                    return both
                keyed = self.by_key(key)
                return keyed if keyed is not None and blank(keyed.id) else None
            kind = type(key)
            if kind is int or kind is str:  # the common keys, without a call
                return self.keyed.get((kind, key))
            return self.keyed.get(_tagged(key))
        if named:
            return self.by_id.get(_tagged(call_id))
        return self.slots[-1] if self.slots else None

    def add(self, slot: Slot) -> None:
        self.slots.append(slot)
        if slot.key is not None:
            self.keyed[_tagged(slot.key)] = slot
        self.named(slot)

    def named(self, slot: Slot) -> None:
        """Index a slot under its id (called again when a blank id is filled in)."""
        if blank(slot.id):
            return
        self.by_id[_tagged(slot.id)] = slot
        if slot.key is not None:
            self.by_pair[(_tagged(slot.key), _tagged(slot.id))] = slot

    def by_key(self, key: Any) -> Slot | None:
        """The latest slot with this key (keys compare as JSON values: 1 is not true)."""
        kind = type(key)
        if kind is int or kind is str:  # the common keys, without a call
            return self.keyed.get((kind, key))
        return self.keyed.get(_tagged(key))


def _tagged(value: Any) -> tuple[Any, ...]:
    """A JSON value as a dict key that keeps 1, 1.0 and true apart (their types differ); a
    list or an object by its canonical JSON text, so every key and id is indexed."""
    if isinstance(value, (dict, list)):
        return ("json", json.dumps(value, sort_keys=True, default=repr))
    return (type(value), value)

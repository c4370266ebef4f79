"""The eight operations, run on the document and its slots (specs/README.md §9.3).

:class:`Engine` holds the rebuilt document and the slot table and applies one rule to
one fragment at a time. It knows nothing of readiness or replies (:mod:`.accumulator`):
only how events change the document, and which changes break the stream's rules
(raised as :class:`_Broken`, which the accumulator turns into ``malformed_stream``).
"""

from __future__ import annotations

from typing import Any

from .._expression import Expression
from .._values.json_values import copy_json
from .docpath import Path, PathError, get, put, show
from .slots import Slot, SlotList, blank
from .stream_rules import Op, Rule

__all__ = ["Broken", "Engine"]


class Broken(ValueError):
    """The events break the stream's rules (becomes ``malformed_stream``)."""


def _object(value: Any, what: str) -> dict[str, Any]:
    if type(value) is not dict:
        kind = "null" if value is None else type(value).__name__
        raise Broken(f"{what} is a {kind}, not an object")
    return copy_json(value)  # type: ignore[no-any-return]


class Engine:
    """The document a stream rebuilds, and its slots."""

    def __init__(self) -> None:
        self.document: dict[str, Any] | None = None
        self.identity: Any = None
        self.lists: dict[Path, SlotList] = {}
        self.slots: list[Slot] = []  # creation order
        self.dirty: set[int] = set()  # orders of slots with unjoined pieces
        # Document-level `append` pieces by path (joined at flush, as a slot's are).
        self.pieces: dict[Path, list[str]] = {}
        self.pieces_dirty = False
        self.version = 0  # bumped whenever a write may have replaced a slot list
        self.complete = False
        self.ended = False  # an `end` op ran
        self.notes: list[str] = []
        self.opened: list[Slot] = []  # slots created by the current event
        self.closed: list[Slot] = []  # slots closed by the current event
        self.rebound: list[Slot] = []  # slots an `end.keep` gave the terminal response's item
        self.ops = {
            "init": self._init, "set": self._set, "append": self._append, "open": self._open,
            "update": self._update, "close": self._close, "extend": self._extend,
            "end": self._end,
        }

    # -- helpers ---------------------------------------------------------------------

    def _doc(self) -> dict[str, Any]:
        if self.document is None:
            raise Broken("an event arrived before the stream's start")
        return self.document

    def slot_list(self, path: Path) -> SlotList:
        found = self.lists.get(path)
        if found is not None and found.version == self.version:
            return found  # nothing replaced the document or wrote a field since
        doc = self._doc()
        current = get(doc, path)
        if found is not None and found.items is current:
            return found
        if current is None:
            current = []
            put(doc, path, current)
        elif type(current) is not list:
            raise Broken(f"{show(path)} is a {type(current).__name__}, not a list")
        if found is None:
            found = self.lists[path] = SlotList(path, current)
        found.items = current
        found.version = self.version
        return found

    def _new_slot(self, where: SlotList, key: Any, item: dict[str, Any]) -> Slot:
        if self.complete:
            raise Broken("an item arrived after the stream completed")
        where.items.append(item)
        slot = Slot(where.path, len(where.items) - 1, key, item, len(self.slots))
        where.add(slot)
        self.slots.append(slot)
        self.opened.append(slot)
        return slot

    def finish(self, closing: Any) -> list[Slot]:
        """Complete the stream: close every open slot of a list no ``close`` rule names (its
        items end with the stream); return those closed. An open slot of a list in
        ``closing`` never received its close: it stays open, unfinished (§9.6)."""
        closed = [slot for slot in self.slots
                  if not slot.closed and slot.list_path not in closing]
        for slot in closed:
            self.close(slot)
        self.complete = True
        return closed

    def flush(self) -> None:
        for order in self.dirty:
            self.slots[order].flush()
        self.dirty.clear()
        if self.pieces_dirty and self.document is not None:
            for path, pieces in self.pieces.items():
                if len(pieces) != 1:
                    pieces[:] = ["".join(pieces)]
                put(self.document, path, pieces[0])
            self.pieces_dirty = False

    def close(self, slot: Slot, finalize: tuple[tuple[Path, Expression], ...] = ()) -> None:
        if slot.order in self.dirty:
            slot.flush()
            self.dirty.discard(slot.order)
        if finalize:
            scope = {"item": slot.item, "buf": slot.buffered()}
            for path, expression in finalize:
                value = expression.evaluate(scope)
                if value is not None:
                    put(slot.item, path, copy_json(value))
        slot.closed = True
        self.closed.append(slot)

    # -- the operations --------------------------------------------------------------

    def apply(self, rule: Rule, subject: Any) -> None:
        op = rule.op
        try:
            self.ops[op.kind](op, subject)
        except PathError as exc:
            raise Broken(str(exc)) from None

    def _init(self, op: Op, subject: Any) -> None:
        identity = op.identity.evaluate(subject) if op.identity is not None else None
        if self.document is not None:
            if op.identity is not None and identity != self.identity:
                raise Broken(
                    f"a second start with identity {identity!r} in the stream of"
                    f" {self.identity!r}: two responses spliced into one stream"
                )
            return
        assert op.value is not None
        self.document = _object(op.value.evaluate(subject), "the start's value")
        self.identity = identity
        self.version += 1
        for path in op.slots:
            where = self.slot_list(path)
            for position, item in enumerate(where.items):
                if type(item) is not dict:
                    raise Broken(f"{show(path)}[{position}] is not an object")
                slot = Slot(path, position, position, item, len(self.slots))
                slot.closed = True
                where.add(slot)
                self.slots.append(slot)
                self.closed.append(slot)

    def _set(self, op: Op, subject: Any) -> None:
        doc = self._doc()
        for path, expression in op.fields:
            value = expression.evaluate(subject)
            if value is not None:
                self.version += 1  # a write may replace a slot list: look them up again
                if self.pieces:  # a whole value replaces the pieces at and under its path
                    for pending in [p for p in self.pieces if p[:len(path)] == path]:
                        del self.pieces[pending]
                put(doc, path, copy_json(value))

    def _append(self, op: Op, subject: Any) -> None:
        doc = self._doc()
        for path, expression in op.fields:
            value = expression.evaluate(subject)
            if blank(value):
                continue
            if type(value) is not str:
                raise Broken(f"an appended piece for {show(path)} is a {type(value).__name__}")
            inside = self._slot_holding(path)
            if inside is not None:
                raise Broken(
                    f"{show(path)} is inside an item of {show(inside)}: append there with"
                    " update.append"
                )
            pieces = self.pieces.get(path)
            if pieces is None:
                current = get(doc, path)
                if current is not None and type(current) is not str:
                    raise Broken(f"{show(path)} holds a {type(current).__name__}; cannot append")
                pieces = self.pieces[path] = [current] if current else []
            pieces.append(value)
            self.pieces_dirty = True

    def _slot_holding(self, path: Path) -> Path | None:
        """The list (or ``at``) path of a slot whose item ``path`` points into, if any (§9.3).

        A document-level ``append`` there would race the slot's own pieces; looked up per
        slot list, not per slot, so the check stays flat in the number of calls.
        """
        for where in self.lists.values():
            if not where.slots:
                continue
            base = where.path
            size = len(base)
            if path[:size] != base:
                continue
            if where.slots[0].position == -1 or (len(path) > size and type(path[size]) is int):
                return base
        return None

    def _open(self, op: Op, subject: Any) -> None:
        assert op.list is not None and op.key is not None and op.value is not None
        where = self.slot_list(op.list)
        key = op.key.evaluate(subject)
        if key is not None and where.by_key(key) is not None:
            raise Broken(f"{show(op.list)}: key {key!r} opened twice")
        slot = self._new_slot(where, key, _object(op.value.evaluate(subject), "the new item"))
        if op.id is not None:
            slot.id = op.id.evaluate(subject)
            where.named(slot)

    def _update(self, op: Op, subject: Any) -> None:
        key = op.key.evaluate(subject) if op.key is not None else None
        call_id = op.id.evaluate(subject) if op.id is not None else None
        slot = self._find_or_create(op, subject, key, call_id)
        if self.complete:
            raise Broken(f"an update for {show(slot.list_path)} after the stream completed")
        if slot.closed:
            raise Broken(f"an update for {show(slot.list_path)} key {slot.key!r} after it closed")
        if call_id is not None and call_id != "" and (slot.id is None or slot.id == ""):
            slot.id = call_id
            if op.list is not None:
                self.lists[op.list].named(slot)
        item = slot.item
        for path, expression in op.first:
            value = expression.evaluate(subject)
            if not blank(value) and blank(get(item, path)):
                put(item, path, copy_json(value))
        for path, expression in op.join:
            value = expression.evaluate(subject)
            if blank(value):
                continue
            if type(value) is not str:
                raise Broken(f"a joined piece for {show(path)} is a {type(value).__name__}")
            current = get(item, path) if path not in slot.pieces else None
            if current is not None and type(current) is not str:
                raise Broken(f"{show(path)} holds a {type(current).__name__}; cannot join")
            if slot.join(path, value, current):
                self.dirty.add(slot.order)
        for path, expression in op.set:
            value = expression.evaluate(subject)
            if value is not None:
                slot.pieces.pop(path, None)  # a whole value replaces the pieces so far
                put(item, path, copy_json(value))
        for path, expression in op.append:
            value = expression.evaluate(subject)
            if blank(value):
                continue
            if type(value) is not str:
                raise Broken(f"an appended piece for {show(path)} is a {type(value).__name__}")
            current = get(item, path) if path not in slot.pieces else None
            if current is not None and type(current) is not str:
                raise Broken(f"{show(path)} holds a {type(current).__name__}; cannot append")
            slot.append(path, value, current)
            self.dirty.add(slot.order)
        for name, expression in op.buffer:
            value = expression.evaluate(subject)
            if type(value) is str:
                if value:
                    buffers = slot.buffers
                    if name in buffers:
                        buffers[name].append(value)
                    else:
                        buffers[name] = [value]
            elif value is not None:
                raise Broken(f"a buffered piece for {name!r} is a {type(value).__name__}")

    def _find_or_create(self, op: Op, subject: Any, key: Any, call_id: Any) -> Slot:
        if op.at is not None:
            where = self.lists.get(op.at)
            if where is not None and where.slots:
                return where.slots[0]
            if op.create is None:
                raise Broken(f"an update for {show(op.at)}, which no event created")
            doc = self._doc()
            if self.complete:
                raise Broken("an item arrived after the stream completed")
            item = _object(op.create.evaluate(subject), "the created item")
            put(doc, op.at, item)
            where = self.lists[op.at] = SlotList(op.at, [])
            slot = Slot(op.at, -1, None, item, len(self.slots))
            where.add(slot)
            self.slots.append(slot)
            self.opened.append(slot)
            return slot
        assert op.list is not None
        where = self.slot_list(op.list)
        matched = where.match(key, call_id)
        if matched is not None:
            return matched
        if op.create is None:
            raise Broken(f"an update for {show(op.list)} key {key!r}, which no event opened")
        slot = self._new_slot(where, key, _object(op.create.evaluate(subject), "the new item"))
        slot.id = call_id
        where.named(slot)
        return slot

    def _close(self, op: Op, subject: Any) -> None:
        assert op.list is not None and op.key is not None
        where = self.slot_list(op.list)
        found = where.by_key(op.key.evaluate(subject))
        if found is None:
            return  # a close for an item no rule tracks (its start carried nothing to keep)
        slot = found
        if self.complete:
            raise Broken(f"a close for {show(op.list)} after the stream completed")
        if slot.closed:
            raise Broken(f"{show(op.list)} key {slot.key!r} closed twice")
        if op.value is not None:
            item = _object(op.value.evaluate(subject), "the final item")
            where.items[slot.position] = slot.item = item
            slot.pieces.clear()
            slot.buffers.clear()
            self.dirty.discard(slot.order)
        self.close(slot, op.finalize)

    def _extend(self, op: Op, subject: Any) -> None:
        assert op.list is not None and op.value is not None
        value = op.value.evaluate(subject)
        if value is None:
            return
        if type(value) is not list:
            raise Broken(f"the items to add to {show(op.list)} are a {type(value).__name__}")
        if not value:
            return
        where = self.slot_list(op.list)
        for item in value:
            slot = self._new_slot(where, None, _object(item, "an added item"))
            self.close(slot)

    def _end(self, op: Op, subject: Any) -> None:
        self.version += 1
        if self.ended:
            raise Broken("a second terminal event")
        self._doc()
        if op.value is not None:
            new = _object(op.value.evaluate(subject), "the terminal response")
            self.pieces.clear()  # the terminal response is authoritative
            self.pieces_dirty = False
            if op.keep is not None:
                self._keep(op.keep, new)
            self.document = new
            self.version += 1
        self.ended = True

    def _keep(self, path: Path, new: dict[str, Any]) -> None:
        """Carry streamed items into a terminal response whose list is null or empty."""
        old = self.lists.get(path)
        streamed = old.slots if old is not None else []
        self.flush()
        fresh = get(new, path)
        if fresh is None or fresh == []:
            if streamed:
                assert old is not None
                shown = "null" if fresh is None else "[]"
                self.notes.append(
                    f"the terminal event's {show(path)} is {shown} after {len(streamed)}"
                    " streamed item(s): the streamed items are kept"
                )
                put(new, path, old.items)
            return
        if type(fresh) is not list:
            return  # read() reports the shape
        if old is None:
            old = self.lists[path] = SlotList(path, fresh)
        for slot in streamed:  # rebind: the terminal items are authoritative, by position
            if 0 <= slot.position < len(fresh) and type(fresh[slot.position]) is dict:
                slot.item = fresh[slot.position]
                slot.pieces.clear()
                self.rebound.append(slot)
        old.items = fresh
        for position in range(len(streamed), len(fresh)):  # items no event streamed
            if type(fresh[position]) is dict:
                slot = Slot(path, position, None, fresh[position], len(self.slots))
                slot.closed = True
                old.add(slot)
                self.slots.append(slot)
                self.closed.append(slot)

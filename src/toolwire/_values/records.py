"""The records a :class:`toolwire.Reply` keeps beside its calls: where each item stood,
what became of it, and why.

A tool loop needs the calls; a spec author, a trace or a bug report needs the rest — which
item was a call and read by which entry, which item the spec could not type, which one it
refused and why. These are immutable values (:class:`toolwire._speed.record.Record`), each with a
``to_dict`` / ``from_dict`` pair that is the shape ``Reply.to_dict()`` writes
(docs/reading.md, "The Reply as JSON").
"""

from __future__ import annotations

from collections.abc import Mapping

from .._speed import TYPE_CHECKING, blank_of
from .._speed.record import Record, setfield

if TYPE_CHECKING:
    from typing import Any, TypeVar

    _R = TypeVar("_R", bound="_Located")

__all__ = ["CallRecord", "ItemRecord", "RefusedItem", "SkippedItem", "UnknownItem"]

class _Located(Record):
    """Fields shared by every record: the top-level item index and the full location."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._fields}

    @classmethod
    def from_dict(cls: type[_R], data: Mapping[str, Any]) -> _R:
        """The inverse of :meth:`to_dict`; unknown or missing keys are a ValueError."""
        if not isinstance(data, Mapping):
            raise TypeError(f"{cls.__name__}.from_dict takes a mapping, not {type(data).__name__}")
        keys = set(data)
        if keys != set(cls._fields):
            extra, missing = sorted(keys - set(cls._fields)), sorted(set(cls._fields) - keys)
            raise ValueError(
                f"{cls.__name__}.from_dict: unknown keys {extra}, missing keys {missing}"
            )
        record = object.__new__(cls)
        for name in cls._fields:
            setfield(record, name, data[name])
        return record


class ItemRecord(_Located):
    """How one item of the reply was classified: which list and which entry of the spec.

    ``kind`` is ``calls``, ``server_side``, ``ignore``, ``refuse`` or ``unknown``;
    ``entry`` is the entry's index in its list (``None`` for unknown items).
    """

    __module__ = "toolwire.types"  # the published name: reprs, pickles and docs show it

    __slots__ = ("entry", "item_index", "item_type", "kind", "location")
    item_index: int
    location: str
    item_type: str | None
    kind: str
    entry: int | None

    def __init__(
        self, item_index: int, location: str, item_type: str | None, kind: str, entry: int | None
    ) -> None:
        setfield(self, "item_index", item_index)
        setfield(self, "location", location)
        setfield(self, "item_type", item_type)
        setfield(self, "kind", kind)
        setfield(self, "entry", entry)


class SkippedItem(_Located):
    """A call item that yielded no :class:`ToolCall` (no usable name), and why — or a call
    the reply says the model attempted that did not come out (Gemini's
    ``MALFORMED_FUNCTION_CALL``): then ``item_index`` is None and ``location`` ``""``, the
    record being about the reply rather than one of its items, and ``item_type`` names the
    failure."""

    __module__ = "toolwire.types"  # the published name: reprs, pickles and docs show it

    __slots__ = ("item_index", "item_type", "location", "reason")
    item_index: int | None
    location: str
    item_type: str | None
    reason: str

    def __init__(
        self, item_index: int | None, location: str, item_type: str | None, reason: str
    ) -> None:
        setfield(self, "item_index", item_index)
        setfield(self, "location", location)
        setfield(self, "item_type", item_type)
        setfield(self, "reason", reason)


class UnknownItem(SkippedItem):
    """An item no entry of the spec matched, reported rather than refused, and why.

    ``item_type`` is ``None`` when the item carries no type at all (an Anthropic block
    without ``type``, an empty Gemini part): such an item has no name for
    ``Reply.unknown_types``, so this record is where it shows.
    """

    __module__ = "toolwire.types"  # the published name: reprs, pickles and docs show it

    __slots__ = ()


class RefusedItem(_Located):
    """An item the spec refuses to map (or, failing closed, could not type): the client
    must act on it, and toolwire cannot say how. ``code`` is the error's code
    (``unmapped_call`` or ``unknown_item_type``), ``reason`` what the client must do."""

    __module__ = "toolwire.types"  # the published name: reprs, pickles and docs show it

    __slots__ = ("code", "item_index", "item_type", "location", "reason")
    item_index: int
    location: str
    item_type: str | None
    code: str
    reason: str

    def __init__(
        self, item_index: int, location: str, item_type: str | None, code: str, reason: str
    ) -> None:
        setfield(self, "item_index", item_index)
        setfield(self, "location", location)
        setfield(self, "item_type", item_type)
        setfield(self, "code", code)
        setfield(self, "reason", reason)


class CallRecord(_Located):
    """Where one call of ``Reply.calls`` came from, and what its selectors found.

    ``entry`` is the index of the call entry that read it (in the spec's ``calls``);
    ``arguments_selected`` is false when the entry's ``arguments`` selector found nothing
    (null or absent): the call's ``{}`` then says "no arguments were there", which is
    right for a call without parameters and a spec mistake everywhere else.
    """

    __module__ = "toolwire.types"  # the published name: reprs, pickles and docs show it

    __slots__ = ("arguments_selected", "entry", "item_index", "item_type", "location")
    item_index: int
    location: str
    item_type: str | None
    entry: int
    arguments_selected: bool

    def __init__(
        self, item_index: int, location: str, item_type: str | None, entry: int,
        arguments_selected: bool,
    ) -> None:
        setfield(self, "item_index", item_index)
        setfield(self, "location", location)
        setfield(self, "item_type", item_type)
        setfield(self, "entry", entry)
        setfield(self, "arguments_selected", arguments_selected)


# The reader builds a record per item of every reply, and setting each field through
# ``setfield`` is most of a record's cost: these two are filled in on writable blanks
# (toolwire._speed.blank_of says why and what it buys).
_ItemBlank = blank_of(ItemRecord)
_CallBlank = blank_of(CallRecord)


def item_record(
    item_index: int, location: str, item_type: str | None, kind: str, entry: int | None
) -> ItemRecord:
    """``ItemRecord(...)`` for values the reader has checked: the same value, sooner."""
    record: Any = object.__new__(_ItemBlank)
    record.item_index = item_index
    record.location = location
    record.item_type = item_type
    record.kind = kind
    record.entry = entry
    record.__class__ = ItemRecord
    done: ItemRecord = record
    return done


def call_record(
    item_index: int, location: str, item_type: str | None, entry: int, arguments_selected: bool
) -> CallRecord:
    """``CallRecord(...)`` for values the reader has checked: the same value, sooner."""
    record: Any = object.__new__(_CallBlank)
    record.item_index = item_index
    record.location = location
    record.item_type = item_type
    record.entry = entry
    record.arguments_selected = arguments_selected
    record.__class__ = CallRecord
    done: CallRecord = record
    return done

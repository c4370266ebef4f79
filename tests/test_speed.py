"""The speed tricks of ``toolwire._speed`` keep the values they build exact."""

from __future__ import annotations

from typing import Any

from toolwire import Reply
from toolwire._speed import blank_of
from toolwire.types import CallRecord, ItemRecord


def test_a_records_twin_stores_through_objects_own_hooks() -> None:
    # Both hooks: with one left to the Record's Python-level refusal, every store of the
    # twin goes through a Python call.
    for cls in (Reply, ItemRecord, CallRecord):
        twin = blank_of(cls)
        assert twin.__setattr__ is object.__setattr__
        assert twin.__delattr__ is object.__delattr__


def test_a_filled_twin_is_the_constructors_value() -> None:
    built: Any = object.__new__(blank_of(ItemRecord))
    built.item_index, built.location, built.item_type = 0, "content[0]", "tool_use"
    built.kind, built.entry = "calls", 0
    built.__class__ = ItemRecord
    assert built == ItemRecord(0, "content[0]", "tool_use", "calls", 0)
    assert type(built) is ItemRecord

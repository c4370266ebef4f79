"""Nothing lost: every item the client must act on surfaces, as a call, a skip or an error.

A tool loop that gets fewer calls than the reply holds takes the reply for "the model is
done" while the model waits for an answer. This test walks every item of every response
in the conformance suite itself — from the spec's sources and nested lists, typed and
matched against the spec's entries independently of the interpreter — and checks that each
client-actionable item (matched by a ``calls`` or ``refuse`` entry, or of an unknown type
where unknown types are refused) became a :class:`toolwire.ToolCall`, a ``skipped`` entry,
or raised :class:`toolwire.errors.UnmappedCall`. It then does the same on mutated responses.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from test_properties import mutated_responses

import toolwire
from toolwire import Registry
from toolwire._sdk_objects import normalised
from toolwire._spec.entries import CallEntry, Entry, RefuseEntry
from toolwire._spec.wirespec import WireSpec, compile_wire_spec
from toolwire._wire import interpreter
from toolwire.errors import ToolwireError, UnmappedCall

from conformance import cases, each_test

REGISTRY = Registry.default()


@dataclass(frozen=True)
class Walked:
    """One item of a response as this test sees it."""

    index: int  # the top-level item's index in its source
    location: str
    item: dict[str, Any]
    entry: Entry | None


def _selected(value: Any, single: bool) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, dict) and single:
        return [value]
    return value if isinstance(value, list) else []


def walk(spec: WireSpec, response: dict[str, Any]) -> Iterator[Walked]:
    """Every object item, in response order, with the entry it matches (None: unknown)."""
    for source in spec.sources:
        where = source.select.source
        for index, item in enumerate(_selected(source.select.evaluate(response), source.single)):
            if not isinstance(item, dict):
                continue
            location = where if source.single else f"{where}[{index}]"
            yield Walked(index, location, item, match(spec, item, source.type_of(item)))
            for nested in source.nested:
                if nested.when.evaluate(item) is not True:
                    continue
                children = _selected(nested.select.evaluate(item), False)
                for child_index, child in enumerate(children):
                    if isinstance(child, dict):
                        child_location = f"{location}.{nested.select.source}[{child_index}]"
                        child_entry = match(spec, child, source.type_of(child))
                        yield Walked(index, child_location, child, child_entry)


def match(spec: WireSpec, item: dict[str, Any], item_type: Any) -> Entry | None:
    """The first entry of the item's type whose ``when`` holds, lists in refuse-first order.

    A type must be a plain ``str``: an item carrying none of its ``type_by_key`` keys is
    named by its first key (a ``str`` subclass) for reports only, and stays unknown.
    """
    if type(item_type) is not str:
        return None
    for kind in ("refuse", "calls", "server_side", "ignore"):
        for entry in spec.entries_of(kind):  # type: ignore[arg-type]
            if entry.type == item_type and (entry.when is None or entry.when(item) is True):
                return entry
    return None


def actionable(spec: WireSpec, walked: Walked, strict: bool | None) -> bool:
    refuse_unknown = spec.unknown_items == "refuse" if strict is None else strict
    if walked.entry is None:
        return refuse_unknown
    return isinstance(walked.entry, (CallEntry, RefuseEntry))


def check_nothing_lost(spec: WireSpec, response: Any, strict: bool | None) -> int:
    """Check one response; return how many actionable items it held."""
    try:
        reply = interpreter.read(spec, response, strict)
    except UnmappedCall as exc:
        # Refused as a whole: the loop is told, so nothing is lost. The error must name
        # an item that really is client-actionable and not a plain call.
        items = [w for w in walk(spec, reply_source(spec, response))
                 if w.location == exc.location]
        assert items, f"{exc.location} names no item"
        assert not isinstance(items[0].entry, CallEntry), "a call item was refused"
        assert actionable(spec, items[0], strict)
        return 1
    except ToolwireError:
        return 0  # a malformed reply: an error, never a silent []
    walked = [w for w in walk(spec, reply_source(spec, response)) if actionable(spec, w, strict)]
    assert all(isinstance(w.entry, CallEntry) for w in walked), (
        "read() returned although the reply holds an item it must refuse"
    )
    # The failed calls a reply reports (item_index None) are about the reply, not an item.
    item_skips = [s for s in reply.skipped if s.item_index is not None]
    skipped = {s.location for s in item_skips}
    calls = iter(reply.calls)
    for w in walked:
        if w.location in skipped:
            continue
        call = next(calls, None)
        assert call is not None, f"the call item at {w.location} vanished"
        assert isinstance(w.entry, CallEntry)
        assert call.name == w.entry.name(w.item), f"calls out of order at {w.location}"
    assert next(calls, None) is None, "a call came from no call item"
    assert len(reply.calls) + len(item_skips) == len(walked)
    assert interpreter.locate(spec, response, strict) == [w.item for w in walked]
    return len(walked)


def reply_source(spec: WireSpec, response: Any) -> dict[str, Any]:
    """The wire JSON the spec reads: an SDK dump (``normalize.detect``) renamed first."""
    return normalised(spec, interpreter.coerce_response(response, None))


def _wire_tests() -> Iterator[tuple[str, WireSpec, Any, bool | None]]:
    for name, case, test in each_test(cases()):
        fmt = case.data["format"] or toolwire.sniff_format(test["response"])
        if fmt is not None:
            yield name, REGISTRY.spec(fmt), test["response"], test.get("strict")
    for name, case, test in each_test(cases(under="interpreter")):
        spec = compile_wire_spec(case.data["spec"])
        yield name, spec, test["response"], test.get("strict")


TESTS = list(_wire_tests())


@pytest.mark.parametrize(("name", "spec", "response", "strict"), TESTS, ids=[t[0] for t in TESTS])
def test_no_actionable_item_vanishes(
    name: str, spec: WireSpec, response: Any, strict: bool | None
) -> None:
    check_nothing_lost(spec, response, strict)
    if strict is None:
        for override in (True, False):
            check_nothing_lost(spec, response, override)


def test_the_walk_finds_actionable_items_to_check() -> None:
    total = sum(check_nothing_lost(spec, r, s) for _, spec, r, s in TESTS)
    assert total >= 100


@settings(
    max_examples=300, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated_responses())
def test_no_actionable_item_vanishes_from_a_mutated_reply(drawn: tuple[str | None, Any]) -> None:
    fmt, response = drawn
    if not isinstance(response, dict):
        return
    for name in [fmt] if fmt else REGISTRY.formats():
        for strict in (None, False):
            check_nothing_lost(REGISTRY.spec(name), response, strict)

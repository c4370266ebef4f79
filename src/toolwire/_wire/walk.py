"""The walk every reading of a wire reply shares: the response checked, its items found in
response order, typed, matched to the spec's entries, and each call built.

It walks the response's items in response order (each source's list, each nested list
right after its parent item), matches each item against the spec's entries — refusals
first, then calls, server-side calls, ignored types — and either builds values or fails
closed. It imports neither YAML nor JSON Schema: specs arrive here compiled
(:mod:`toolwire._spec.wirespec`). :mod:`.interpreter` (locate, extract) and
:mod:`.reading` (read) are built on it.

Item indexes in errors and records are the position of the top-level item in its
source's list; a nested item carries its parent's index, and ``location`` spells the
full path (``output[0].content[2]``).
"""

from __future__ import annotations

from collections.abc import Iterator

from .._expression import NotJSONError
from .._spec import CallEntry, Entry, RefuseEntry, WireSpec
from .._speed import TYPE_CHECKING
from .._values.arguments import decode_arguments_coded, loads_strict
from .._values.json_values import copy_json, id_text
from .._values.toolcall import ToolCall
from ..errors import MalformedResponse, NotJSONValue, UnknownItemType, UnmappedCall
from . import gate

if TYPE_CHECKING:
    from typing import Any

    Walked = tuple[int, Any, dict[str, Any], Any]
    """(top-level item index, location key, item, item type) for one item."""
    Located = tuple[int, Any, str, dict[str, Any], Any]
    """(top-level item index, location key, location, item, item type) for one item."""

__all__ = [
    "JSON_SCALARS", "JSON_TEXT", "any_id_text", "build_call", "built", "call_name", "classified",
    "coerce_response", "guarded", "kept", "match", "plain_text", "refusal", "refuses_unknown",
    "response_of", "walk", "walk_located",
]


JSON_SCALARS = (str, int, float, list, tuple, type(None))
"""What is JSON data but no object: never an SDK object, never a response."""


JSON_TEXT = (str, bytes, bytearray, memoryview)


def coerce_response(
    data: Any, format: str | None, spec: WireSpec | None = None
) -> dict[str, Any]:
    """The response as a JSON object: a dict as given, JSON text (str/bytes) parsed, or an
    SDK's response object as the wire JSON of ``spec``'s format
    (:mod:`toolwire._sdk_objects`, loaded only for such objects)."""
    if isinstance(data, dict):
        return data
    if isinstance(data, (bytes, bytearray, memoryview)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            reason = f"response bytes are not UTF-8 ({exc.reason})"
            raise MalformedResponse(format, reason) from None
    if isinstance(data, str):
        try:
            data = loads_strict(data)
        except ValueError as exc:
            raise MalformedResponse(format, f"response is not JSON: {exc}") from None
        if isinstance(data, dict):
            return data
    elif not isinstance(data, JSON_SCALARS):
        wire: dict[str, Any] = _to_wire_json()(data, spec, format)
        return wire
    kind = "null" if data is None else type(data).__name__
    raise MalformedResponse(format, f"a response must be a JSON object, not {kind}")


def _to_wire_json() -> Any:
    """:func:`toolwire._sdk_objects.to_wire_json`, imported on the first SDK object and then
    kept: an import statement run per object is a measurable part of reading a small reply."""
    global _TO_WIRE_JSON
    if _TO_WIRE_JSON is None:
        # lazy: SDK object support (16 ms) only for an SDK object
        from .._sdk_objects import to_wire_json

        _TO_WIRE_JSON = to_wire_json
    return _TO_WIRE_JSON


_TO_WIRE_JSON: Any = None


def response_of(spec: WireSpec, data: Any) -> dict[str, Any]:
    """The response as the spec's wire JSON (see :func:`coerce_response`); a dict written
    with an SDK's own keys (the spec's ``normalize.detect``) renamed to the wire's.

    Every reading of a response starts here, so here it is checked to be one
    (:func:`toolwire._wire.gate.check`: the provider's error body, a stream event, a body
    without the format's shape are refused before any item is read).
    """
    response = coerce_response(data, spec.format, spec)
    normalize = spec.normalize
    if normalize is not None and normalize.detect is not None:
        try:
            detected = normalize.detect.evaluate(response) is True
        except NotJSONError as exc:  # an SDK object inside the dict, met by the predicate
            raise MalformedResponse(spec.format, str(exc)) from None
        if detected:
            # lazy: SDK object support (16 ms) only for an SDK dump
            from .._sdk_objects import normalised

            response = normalised(spec, response)
    gate.check(spec, response, data)
    return response


def location_of(spec: WireSpec, key: Any) -> str:
    source_index, index, nested_index, child = key
    source = spec.sources[source_index]
    text: str = source.select.source + ("" if source.single else f"[{index}]")
    if nested_index is not None:
        text += f".{source.nested[nested_index].select.source}[{child}]"
    return text


def _listed(spec: WireSpec, value: Any, single: bool, what: str) -> list[Any]:
    """A selection as a list of items: null is none, one object is one where allowed."""
    if value is None:
        return []
    if type(value) is list:
        return value
    if single and type(value) is dict:
        return [value]
    kind = type(value).__name__
    raise MalformedResponse(spec.format, f"{what} is a {kind}, not a list", location=what)


def _require_object(spec: WireSpec, item: Any, index: int, key: Any) -> None:
    """Items are JSON objects; anything else is a malformed response, named by place."""
    if type(item) is not dict:
        kind = type(item)
        shown = kind.__name__
        if kind.__module__ != "builtins" and not isinstance(item, (list, str, int, float)):
            shown = (
                f"{kind.__module__}.{kind.__qualname__} (an SDK object inside plain data: pass"
                " the SDK's response object itself, or its JSON)"
            )
        raise MalformedResponse(
            spec.format,
            f"item is a {shown}, not an object",
            item_index=index,
            location=location_of(spec, key),
        )


def walk_located(spec: WireSpec, response: dict[str, Any]) -> Iterator[Located]:
    """Every item the spec's sources select, top-level items each followed by their nested
    children (one level, §1.3), with its ``location`` written once from prefixes made per
    list: ``read`` reports locations, and :func:`walk` is this without them."""
    for source_index, source in enumerate(spec.sources):
        path = source.select.source
        selected = _listed(spec, source.select.evaluate(response), source.single, path)
        type_of = source.type_of
        nested_entries = source.nested
        for index, item in enumerate(selected):
            key = (source_index, index, None, None)
            if type(item) is not dict:
                _require_object(spec, item, index, key)
            where = path if source.single else f"{path}[{index}]"
            yield index, key, where, item, type_of(item)
            for nested_index, nested in enumerate(nested_entries):
                if nested.when.evaluate(item) is not True:
                    continue
                inner = f"{where}.{nested.select.source}"
                children = _listed(spec, nested.select.evaluate(item), False, inner)
                for child_index, child in enumerate(children):
                    child_key = (source_index, index, nested_index, child_index)
                    _require_object(spec, child, index, child_key)
                    _refuse_grandchildren(spec, nested_entries, child, index, child_key)
                    yield index, child_key, f"{inner}[{child_index}]", child, type_of(child)


def walk(spec: WireSpec, response: dict[str, Any]) -> Iterator[Walked]:
    for index, key, _, item, item_type in walk_located(spec, response):
        yield index, key, item, item_type


def _refuse_grandchildren(
    spec: WireSpec, nested: tuple[Any, ...], child: dict[str, Any], index: int, key: Any
) -> None:
    """``nested`` walks one level (specs/README.md §1.3): a child that would itself be
    walked is refused, so a call one level further down is never silently lost."""
    for entry in nested:
        if entry.when.evaluate(child) is True:
            raise MalformedResponse(
                spec.format,
                "a nested item's own `when` holds, but nested items are walked one level only",
                item_index=index,
                location=location_of(spec, key),
            )


def match(spec: WireSpec, item: dict[str, Any], item_type: Any) -> Entry | None:
    candidates = spec.table.get(item_type) if type(item_type) is str else None
    if candidates:
        for entry in candidates:
            when = entry.when
            if when is None or when.evaluate(item) is True:
                return entry
    return None


def refusal(
    spec: WireSpec, index: int, key: Any, item_type: Any, entry: Entry | None,
    refuse_unknown: bool,
) -> UnmappedCall | None:
    """The error an item raises, if it is refused (or unknown where the spec fails closed)."""
    if entry is None:
        if not refuse_unknown:
            return None
        shown = str(item_type) if isinstance(item_type, str) else None
        return UnknownItemType(
            spec.format,
            index,
            shown,
            f"the {spec.format} spec lists no item type {item_type!r}; an unknown item"
            " may be an action the client must take, so toolwire fails closed",
            location_of(spec, key),
        )
    if type(entry) is RefuseEntry:
        return UnmappedCall(spec.format, index, item_type, entry.reason, location_of(spec, key))
    return None


def refuses_unknown(spec: WireSpec, strict: bool | None) -> bool:
    return spec.unknown_items == "refuse" if strict is None else strict


def classified(
    spec: WireSpec, response: dict[str, Any], strict: bool | None
) -> Iterator[tuple[int, Any, dict[str, Any], Any, Entry | None]]:
    """Every item with its entry; raises for refused items, and unknown ones if strict."""
    refuse_unknown = refuses_unknown(spec, strict)
    for index, key, item, item_type in walk(spec, response):
        entry = match(spec, item, item_type)
        if entry is None or type(entry) is RefuseEntry:
            error = refusal(spec, index, key, item_type, entry, refuse_unknown)
            if error is not None:
                raise error
        yield index, key, item, item_type, entry


def guarded(spec: WireSpec, error: ValueError) -> MalformedResponse:
    if isinstance(error, NotJSONError):  # not the spec's fault: the data is not JSON
        return MalformedResponse(spec.format, str(error))
    if isinstance(error, NotJSONValue):  # a value JSON text cannot hold (a cycle, NaN)
        return MalformedResponse(spec.format, f"response is not JSON: {error}")
    return MalformedResponse(spec.format, f"an expression of the spec failed: {error}")


def build_call(entry: CallEntry, item: dict[str, Any], index: int | None) -> ToolCall | str:
    """The item's call, or the reason it yields none.

    The call records its raw arguments exactly as sent (a decoded object shares the
    owned copy ``arguments`` holds: neither is handed out uncopied), the ``keep``
    fields of its entry, and ``index``, where its item stands in the reply.
    """
    name = call_name(entry, item)
    if type(name) is not str:
        return name[1]
    return built(entry, item, name, entry.arguments.evaluate(item), index)


def call_name(entry: CallEntry, item: dict[str, Any]) -> str | tuple[None, str]:
    """The item's call name, or ``(None, reason)`` when it has no usable one."""
    name = entry.name.evaluate(item)
    if type(name) is not str or not name:
        if isinstance(name, str) and name:  # a str subclass (an SDK's str enum) is text
            return str.__str__(name)
        return None, "no usable name" if name in (None, "") else (
            f"name is a {type(name).__name__}"
        )
    return name


def built(
    entry: CallEntry, item: dict[str, Any], name: str, raw: Any, index: int | None
) -> ToolCall:
    """The call of a named item, ``raw`` being what its arguments selector selected."""
    arguments, undecodable, error, code = decode_arguments_coded(raw)
    if arguments is raw:
        arguments = kept_raw = copy_json(raw)
    else:
        kept_raw = raw if raw is None or type(raw) is str else copy_json(raw)
    call_id: Any = entry.id.evaluate(item) if entry.id is not None else None
    if type(call_id) is not str:
        call_id = any_id_text(call_id)
    provider_data = kept(entry, item) if entry.keep else None
    return ToolCall._trusted(
        name, arguments, call_id, undecodable, error, code, kept_raw, provider_data, index
    )


def any_id_text(value: Any) -> str:
    """:func:`id_text`, with a str subclass (an SDK's str enum) read as its text."""
    return str.__str__(value) if isinstance(value, str) else id_text(value)


def kept(entry: CallEntry, item: dict[str, Any]) -> dict[str, Any] | None:
    """The entry's ``keep`` fields of one item (null ones left out), or None if none."""
    data = {}
    for key, expression in entry.keep:
        value = expression.evaluate(item)
        if value is not None:
            data[key] = copy_json(value)
    return data or None


def plain_text(value: Any) -> str | None:
    """A string value as plain text (a str subclass, such as an SDK's enum, included)."""
    if type(value) is str:
        return value
    return str.__str__(value) if isinstance(value, str) else None

"""Why a reply reads as it does: the interpreter's walk, told item by item.

``read`` answers with calls; when a call does not come out, a spec author needs the
steps: which format the reply sniffs as, what each source's ``select`` found, how each
item was typed, which entry's ``when`` held (or why none did), and what every selector of
the matched entry returned. :func:`explain` re-walks the reply the way
:mod:`toolwire._wire.interpreter` does (specs/README.md §1.3) without raising, and ends
with ``read``'s own verdict, so the trace and the result never disagree about the outcome.

Loaded only by ``toolwire explain``; reading a reply never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._spec import CallEntry, RefuseEntry, ServerEntry
from .._spec.sniff_overlap import holding
from .._values.arguments import decode_arguments_coded
from .._wire.reading import choice_view
from .._wire.walk import response_of
from ..errors import ToolwireError

if TYPE_CHECKING:
    from typing import Any

    from .._spec import Entry, WireSpec
    from .._spec.entries import Source
    from .registry import Registry

__all__ = ["explain"]


def _value(expression: Any, item: Any) -> dict[str, Any]:
    """One selector's source and what it yields on ``item`` (or the error it raises)."""
    try:
        return {"expression": expression.source, "value": expression.evaluate(item)}
    except ValueError as exc:
        return {"expression": expression.source, "error": str(exc)}


def _typing(spec: WireSpec, index: int) -> str:
    if index >= len(spec.sources):
        return "?"
    how, value, _ = spec.sources[index].typing
    return f"{how}: {list(value) if how == 'type_by_key' else value}"


def _selectors(entry: Entry, item: dict[str, Any]) -> dict[str, Any]:
    if isinstance(entry, CallEntry):
        found = {"name": _value(entry.name, item), "arguments": _value(entry.arguments, item)}
        raw = found["arguments"].get("value")
        _, undecodable, _error, code = decode_arguments_coded(raw)
        found["arguments"]["decoded"] = not undecodable
        if undecodable:
            found["arguments"]["error_code"] = code
        if raw is None:
            found["arguments"]["note"] = "selected nothing: the call gets {} (§1.3)"
        if entry.id is not None:
            found["id"] = _value(entry.id, item)
        for key, expression in entry.keep:
            found[f"keep.{key}"] = _value(expression, item)
        return found
    if isinstance(entry, ServerEntry):
        found = {"id": _value(entry.id, item), "name": _value(entry.name, item),
                 "status": _value(entry.status, item)}
        if entry.input is not None:
            found["input"] = _value(entry.input, item)
        return found
    return {}


def _outcome(spec: WireSpec, entry: Entry | None, selectors: dict[str, Any],
             refuse_unknown: bool) -> str:
    if entry is None:
        return "unknown: refused (fails closed)" if refuse_unknown else "unknown: reported"
    if isinstance(entry, RefuseEntry):
        return f"refused: {entry.reason}"
    if isinstance(entry, CallEntry):
        name = selectors["name"].get("value")
        return "call" if isinstance(name, str) and name else "skipped: no usable name"
    return "server call" if isinstance(entry, ServerEntry) else "ignored"


def _item(spec: WireSpec, item: Any, item_type: Any, where: str, refuse_unknown: bool
          ) -> dict[str, Any]:
    step: dict[str, Any] = {"location": where, "type": item_type}
    if not isinstance(item, dict):
        step["outcome"] = f"malformed: the item is a {type(item).__name__}, not an object"
        return step
    candidates = spec.table.get(item_type, ()) if isinstance(item_type, str) else ()
    tried: list[dict[str, Any]] = []
    entry = None
    for candidate in candidates:
        when = _value(candidate.when, item) if candidate.when is not None else None
        holds = when is None or when.get("value") is True
        tried.append({"entry": candidate.pointer, "when": when, "holds": holds})
        if holds:
            entry = candidate
            break
    step["entries_tried"] = tried
    if entry is None:
        known = sorted(spec.table)
        step["why_no_entry"] = (
            f"no entry lists type {item_type!r} (the spec lists: {', '.join(known)})"
            if not candidates else "every entry for this type has a `when` that does not"
            " yield true")
    else:
        step["entry"] = entry.pointer
        step["selectors"] = _selectors(entry, item)
    step["outcome"] = _outcome(spec, entry, step.get("selectors", {}), refuse_unknown)
    return step


def _source(spec: WireSpec, index: int, source: Source, response: dict[str, Any],
            refuse_unknown: bool) -> dict[str, Any]:
    selected = _value(source.select, response)
    part: dict[str, Any] = {"select": source.select.source, "typed_by": _typing(spec, index)}
    value = selected.get("value")
    items: list[Any]
    if "error" in selected:
        part["found"], items = f"error: {selected['error']}", []
    elif value is None:
        part["found"], items = "nothing (null): no items here", []
    elif isinstance(value, list):
        part["found"], items = f"a list of {len(value)} item(s)", value
    elif source.single and isinstance(value, dict):
        part["found"], items = "one object (single)", [value]
    else:
        part["found"], items = f"a {type(value).__name__}, not a list: malformed_response", []
    steps = []
    for i, item in enumerate(items):
        where = source.select.source + ("" if source.single else f"[{i}]")
        item_type = source.type_of(item) if isinstance(item, dict) else None
        steps.append(_item(spec, item, item_type, where, refuse_unknown))
        for nested in source.nested if isinstance(item, dict) else ():
            held = _value(nested.when, item)
            if held.get("value") is not True:
                continue
            children = _value(nested.select, item).get("value")
            for j, child in enumerate(children if isinstance(children, list) else []):
                child_type = source.type_of(child) if isinstance(child, dict) else None
                steps.append(_item(spec, child, child_type,
                                   f"{where}.{nested.select.source}[{j}]", refuse_unknown))
    part["items"] = steps
    return part


def _sniff(registry: Registry, fmt: str, response: dict[str, Any]) -> dict[str, Any]:
    spec = registry.spec(fmt)
    return {
        "sniffs_as": registry.sniff_format(response),
        "own_predicate": None if spec.sniff is None else _value(spec.sniff, response),
        "holding": holding(registry, response),
    }


def _refusal(registry: Registry, fmt: str, data: Any, strict: bool | None, choice: int,
             exc: ToolwireError) -> dict[str, Any]:
    """The verdict on a body refused before its items are walked (the provider's error, a
    body without the format's shape): ``read``'s own error, which names the format the
    body fits where another one does (specs/README.md §1.11)."""
    try:
        registry.read(fmt, data, strict=strict, choice=choice)
    except ToolwireError as final:
        exc = final
    verdict: dict[str, Any] = {"error": exc.code, "message": str(exc)}
    looks_like = getattr(exc, "looks_like", None)
    if looks_like is not None:
        verdict["looks_like"] = looks_like
    return verdict


def explain(registry: Registry, fmt: str, data: Any, *, strict: bool | None = None,
            choice: int = 0) -> dict[str, Any]:
    """The trace of reading ``data`` as ``fmt`` (JSON data), ending with ``read``'s verdict."""

    spec = registry.spec(fmt)
    trace: dict[str, Any] = {"format": fmt, "spec": spec.path or "(bundled)"}
    try:
        response = response_of(spec, data)
        chosen, count = choice_view(spec, response, choice)
    except ToolwireError as exc:
        trace["verdict"] = _refusal(registry, fmt, data, strict, choice, exc)
        return trace
    trace["sniff"] = _sniff(registry, fmt, response)
    trace["choice"] = {"read": choice, "count": count}
    refuse_unknown = spec.unknown_items == "refuse" if strict is None else strict
    trace["unknown_items"] = "refuse" if refuse_unknown else "report"
    trace["sources"] = [_source(spec, i, s, chosen, refuse_unknown)
                        for i, s in enumerate(spec.sources)]
    for key in ("truncated", "finish_reason"):
        expression = getattr(spec, key)
        trace[key] = None if expression is None else _value(expression, chosen)
    try:
        reply = registry.read(fmt, data, strict=strict, choice=choice)
    except ToolwireError as exc:
        trace["verdict"] = {"error": exc.code, "message": str(exc)}
    else:
        trace["verdict"] = {"calls": [c.name for c in reply.calls],
                            "server_calls": len(reply.server_calls),
                            "unknown_types": list(reply.unknown_types),
                            "skipped": len(reply.skipped), "fates": list(reply.fates())}
    return trace

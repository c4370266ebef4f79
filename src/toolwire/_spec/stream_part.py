"""The ``stream:`` part of a wire spec, as the loader and ``extends`` see it.

The meta-schema checks the part's shape; this module holds what it cannot state
(``specs/README.md`` §2 lists the codes):

* ``stream-op``: a rule needs exactly one operation (init, set, append, open, update,
  close, extend, end); an ``update`` needs exactly one of ``list`` and ``at``.
* ``stream-rule-name``: two rules of one stream part share a name (the name is what a
  dialect overrides a rule by, so it must be unique).
* ``stream-events``: a rule or the error/refuse entries use ``events`` without ``event_type``.
* ``stream-slot-list``: a slot list (``list``, ``at``, ``extend.list``, ``init.slots``,
  ``end.keep``) is not one of the spec's item sources, character for character, so a
  closed slot could not be classified the way ``read()`` classifies it — unless the part
  names it in ``part_lists`` (lists of parts, such as text, that are never classified).

It also lists the part's expressions (compiled at load like every other) and merges a
dialect's stream part onto its base's (:func:`merge_stream`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from ..errors import SpecProblem
from .strict_yaml import Document, escape_pointer

__all__ = ["OPERATIONS", "merge_stream", "stream_expressions", "stream_problems"]

OPERATIONS: Final = ("init", "set", "append", "open", "update", "close", "extend", "end")
"""The eight operations a rule may carry (exactly one)."""

_OP_EXPRESSIONS: Final = {
    "init": ("value", "identity"),
    "open": ("key", "id", "value"),
    "update": ("key", "id", "create"),
    "close": ("key", "value"),
    "extend": ("value",),
    "end": ("value",),
}
_FIELD_MAPS: Final = {"update": ("first", "join", "append", "set", "buffer"),
                       "close": ("finalize",)}
_UNTYPED: Final = "events needs stream.event_type (the expression naming an event)"
_REQUIRED: Final = ("framing", "rules", "ready")
_OWN_STREAM_KEYS: Final = frozenset({"sniff"})
"""Keys of the stream part a dialect never inherits (like the top-level ``sniff``)."""


def _objects(value: Any) -> list[tuple[int, dict[str, Any]]]:
    if not isinstance(value, list):
        return []
    return [(i, v) for i, v in enumerate(value) if isinstance(v, dict)]


def stream_expressions(data: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Every expression of the stream part, as (JSON pointer, source)."""
    stream = data.get("stream")
    if not isinstance(stream, dict):
        return
    for key in ("event", "shape", "event_type", "complete"):
        if isinstance(stream.get(key), str):
            yield f"/stream/{key}", stream[key]
    sniff = stream.get("sniff")
    if isinstance(sniff, dict) and isinstance(sniff.get("when"), str):
        yield "/stream/sniff/when", sniff["when"]
    unwrap = stream.get("unwrap")
    if isinstance(unwrap, dict):
        for key in ("when", "value"):
            if isinstance(unwrap.get(key), str):
                yield f"/stream/unwrap/{key}", unwrap[key]
    error = stream.get("error")
    if isinstance(error, dict):
        for key in ("when", "code", "message"):
            if isinstance(error.get(key), str):
                yield f"/stream/error/{key}", error[key]
    for i, entry in _objects(stream.get("refuse")):
        if isinstance(entry.get("when"), str):
            yield f"/stream/refuse/{i}/when", entry["when"]
    for i, rule in _objects(stream.get("rules")):
        base = f"/stream/rules/{i}"
        for key in ("when", "each"):
            if isinstance(rule.get(key), str):
                yield f"{base}/{key}", rule[key]
        for op in OPERATIONS:
            body = rule.get(op)
            if not isinstance(body, dict):
                continue
            if op in ("set", "append"):
                yield from _field_expressions(f"{base}/{op}", body)
                continue
            for key in _OP_EXPRESSIONS.get(op, ()):
                if isinstance(body.get(key), str):
                    yield f"{base}/{op}/{key}", body[key]
            for key in _FIELD_MAPS.get(op, ()):
                if isinstance(body.get(key), dict):
                    yield from _field_expressions(f"{base}/{op}/{key}", body[key])


def _field_expressions(pointer: str, fields: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    for name, source in fields.items():
        if isinstance(source, str):
            yield f"{pointer}/{escape_pointer(name)}", source


def _slot_lists(rule: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """(pointer suffix, path) of every slot list a rule names."""
    for op in ("open", "update", "close", "extend"):
        body = rule.get(op)
        if isinstance(body, dict):
            for key in ("list", "at"):
                if key in body:
                    yield f"/{op}/{key}", body[key]
    init = rule.get("init")
    if isinstance(init, dict) and isinstance(init.get("slots"), list):
        for j, path in enumerate(init["slots"]):
            yield f"/init/slots/{j}", path
    end = rule.get("end")
    if isinstance(end, dict) and "keep" in end:
        yield "/end/keep", end["keep"]


def stream_problems(doc: Document) -> Iterator[SpecProblem]:
    """The stream part's rules the meta-schema cannot state."""
    data = doc.data
    stream = data.get("stream") if isinstance(data, dict) else None
    if not isinstance(stream, dict):
        return
    selects = {
        s["select"] for s in data.get("items") or () if isinstance(s, dict) and "select" in s
    } if isinstance(data.get("items"), list) else None
    if selects is not None and isinstance(stream.get("part_lists"), list):
        selects |= {p for p in stream["part_lists"] if isinstance(p, str)}
    if "extends" not in data:  # a dialect's part may be partial; its merged spec is checked
        for key in _REQUIRED:
            if key not in stream:
                yield doc.problem("/stream", f"the stream part needs {key!r}", "missing-key")
    # A dialect's part may take event_type from its base: its merged spec is checked.
    typed = isinstance(stream.get("event_type"), str) or "extends" in data
    names: dict[str, int] = {}
    for i, rule in _objects(stream.get("rules")):
        pointer = f"/stream/rules/{i}"
        ops = [op for op in OPERATIONS if op in rule]
        if len(ops) != 1:
            shown = f" (has {', '.join(ops)})" if ops else ""
            yield doc.problem(pointer, f"a rule needs exactly one operation{shown}", "stream-op")
        update = rule.get("update")
        if isinstance(update, dict) and ("list" in update) == ("at" in update):
            yield doc.problem(
                f"{pointer}/update", "an update needs exactly one of list and at", "stream-op"
            )
        name = rule.get("name")
        if isinstance(name, str):
            if name in names:
                yield doc.problem(
                    f"{pointer}/name",
                    f"rule name {name!r} is used twice (also /stream/rules/{names[name]})",
                    "stream-rule-name",
                )
            else:
                names[name] = i
        if "events" in rule and not typed:
            yield doc.problem(f"{pointer}/events", _UNTYPED, "stream-events")
        if selects is not None:
            for suffix, path in _slot_lists(rule):
                if isinstance(path, str) and path not in selects:
                    yield doc.problem(
                        pointer + suffix,
                        f"slot list {path!r} is not one of the spec's item sources"
                        f" ({', '.join(sorted(selects))})",
                        "stream-slot-list",
                    )
    for key in ("error",):
        entry = stream.get(key)
        if isinstance(entry, dict) and "events" in entry and not typed:
            yield doc.problem(f"/stream/{key}/events", _UNTYPED, "stream-events")
    for i, entry in _objects(stream.get("refuse")):
        if "events" in entry and not typed:
            yield doc.problem(f"/stream/refuse/{i}/events", _UNTYPED, "stream-events")


def merge_stream(
    base: Any, derived: Any, base_doc: Document, derived_doc: Document
) -> tuple[Any, dict[str, tuple[Document, str]]]:
    """A dialect's stream part laid over its base's, and where each merged value came from.

    Keys of the derived part replace the base's (``sniff`` is never inherited); rules
    merge by ``name``: a derived rule replaces the base rule of its name in place, other
    derived rules are appended in their order.
    """
    origin: dict[str, tuple[Document, str]] = {}
    if not isinstance(derived, dict):
        if derived is None and isinstance(base, dict):
            inherited = {k: v for k, v in base.items() if k not in _OWN_STREAM_KEYS}
            origin["/stream"] = (base_doc, "/stream")
            return inherited, origin
        origin["/stream"] = (derived_doc, "/stream")
        return derived, origin
    if not isinstance(base, dict):
        origin["/stream"] = (derived_doc, "/stream")
        return derived, origin
    merged: dict[str, Any] = {}
    origin["/stream"] = (derived_doc, "/stream")
    for key, value in base.items():
        if key not in _OWN_STREAM_KEYS and key != "rules":
            merged[key] = value
            origin[f"/stream/{key}"] = (base_doc, f"/stream/{key}")
    for key, value in derived.items():
        if key != "rules":
            merged[key] = value
            origin[f"/stream/{key}"] = (derived_doc, f"/stream/{key}")
    rules: list[tuple[Any, Document, str]] = [
        (rule, base_doc, f"/stream/rules/{i}") for i, rule in enumerate(base.get("rules") or ())
    ] if isinstance(base.get("rules"), list) else []
    given = derived.get("rules")
    if isinstance(given, list):
        for j, rule in enumerate(given):
            slot = (rule, derived_doc, f"/stream/rules/{j}")
            name = rule.get("name") if isinstance(rule, dict) else None
            for n, (old, old_doc, _) in enumerate(rules):
                if old_doc is base_doc and isinstance(old, dict) and old.get("name") == name:
                    rules[n] = slot
                    break
            else:
                rules.append(slot)
    elif given is not None:
        merged["rules"] = given
        origin["/stream/rules"] = (derived_doc, "/stream/rules")
        return merged, origin
    merged["rules"] = [rule for rule, _, _ in rules]
    origin["/stream/rules"] = (derived_doc if "rules" in derived else base_doc, "/stream/rules")
    for n, (_, doc, pointer) in enumerate(rules):
        origin[f"/stream/rules/{n}"] = (doc, pointer)
    return merged, origin

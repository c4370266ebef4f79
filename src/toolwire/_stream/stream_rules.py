"""A wire spec's ``stream:`` part, compiled once per spec for the accumulator.

Compiling happens on the first :class:`~toolwire.Accumulator` of a format, never at import
(the bundled specs carry the part as data). Rules are grouped by event type up front, so
an event runs only the rules that can match it (a Chat stream is one chunk per token).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .._expression import Expression, compile_expression
from .._spec import WireSpec
from .docpath import STEP, Path, parse

__all__ = ["CompiledStream", "Rule", "compiled_stream"]

Fields = tuple[tuple[Path, Expression], ...]


def _expr(body: Mapping[str, Any], key: str) -> Expression | None:
    source = body.get(key)
    return compile_expression(source) if isinstance(source, str) else None


def _fields(body: Mapping[str, Any], key: str) -> Fields:
    return tuple((parse(path), compile_expression(source))
                 for path, source in (body.get(key) or {}).items())


def _buffers(body: Mapping[str, Any]) -> tuple[tuple[str, Expression], ...]:
    return tuple((name, compile_expression(source))
                 for name, source in (body.get("buffer") or {}).items())


@dataclass(frozen=True, slots=True, init=False)
class Op:
    """One operation with its compiled parts (absent parts are None or empty)."""

    kind: str
    list: Path | None
    at: Path | None
    key: Expression | None
    id: Expression | None
    value: Expression | None
    identity: Expression | None
    create: Expression | None
    slots: tuple[Path, ...]
    keep: Path | None
    fields: Fields
    first: Fields
    join: Fields
    append: Fields
    set: Fields
    buffer: tuple[tuple[str, Expression], ...]
    finalize: Fields

    def __init__(self, kind: str, body: Mapping[str, Any]) -> None:
        object.__setattr__(self, "kind", kind)
        if kind in ("set", "append"):
            object.__setattr__(self, "fields", tuple((parse(p), compile_expression(s))
                                           for p, s in body.items() if not p.startswith("x-")))
            body = {}
        else:
            object.__setattr__(self, "fields", ())
        object.__setattr__(self, "list", parse(body["list"]) if "list" in body else None)
        object.__setattr__(self, "at", parse(body["at"]) if "at" in body else None)
        for key in ("key", "id", "value", "identity", "create"):
            object.__setattr__(self, key, _expr(body, key))
        object.__setattr__(self, "slots", tuple(parse(p) for p in body.get("slots") or ()))
        object.__setattr__(self, "keep", parse(body["keep"]) if "keep" in body else None)
        for key in ("first", "join", "append", "set", "finalize"):
            object.__setattr__(self, key, _fields(body, key))
        object.__setattr__(self, "buffer", _buffers(body))


_KINDS: Final = ("init", "set", "append", "open", "update", "close", "extend", "end")


@dataclass(frozen=True, slots=True, init=False)
class Rule:
    """One rule: its filters, its fragments and its operation."""

    name: str
    on: frozenset[str] | None
    when: Expression | None
    each: Expression | None
    op: Op

    def __init__(self, data: Mapping[str, Any]) -> None:
        object.__setattr__(self, "name", data["name"])
        object.__setattr__(self, "on", frozenset(data["events"]) if "events" in data else None)
        object.__setattr__(self, "when", _expr(data, "when"))
        object.__setattr__(self, "each", _expr(data, "each"))
        kind = next(k for k in _KINDS if k in data)
        object.__setattr__(self, "op", Op(kind, data[kind] or {}))


@dataclass(frozen=True, slots=True, init=False)
class Guard:
    """An error or refuse entry: which events it catches, and what it says."""

    on: frozenset[str] | None
    when: Expression | None
    code: Expression | None
    message: Expression | None
    reason: str

    def __init__(self, data: Mapping[str, Any]) -> None:
        object.__setattr__(self, "on", frozenset(data["events"]) if "events" in data else None)
        object.__setattr__(self, "when", _expr(data, "when"))
        object.__setattr__(self, "code", _expr(data, "code"))
        object.__setattr__(self, "message", _expr(data, "message"))
        object.__setattr__(self, "reason", data.get("reason", ""))

    def matches(self, event: Any, event_type: Any) -> bool:
        """Whether the entry catches this event (a type that is not a string is in no list)."""
        if self.on is not None and (type(event_type) is not str or event_type not in self.on):
            return False
        if self.when is not None and self.when.evaluate(event) is not True:
            return False
        return self.on is not None or self.when is not None


class CompiledStream:
    """The stream part of one spec, ready to run."""

    def __init__(self, spec: WireSpec) -> None:
        data = spec.stream_part
        assert data is not None  # compiled_stream: only a spec with a stream part
        self.spec = spec
        self.format = spec.format
        self.framing: str = data["framing"]
        self.sentinel: str | None = data.get("sentinel")
        # The sentinel completes a stream that never sent its finish (§9.6).
        self.sentinel_completes = data.get("sentinel_completes") is True
        # What every event of the format looks like (§9.5 step 7, §9.14). Where the shape
        # reads one top-level field only (Anthropic's, Responses' and Cohere's read `type`),
        # its verdict is a function of that field's value, remembered per value: the check
        # then costs a dict lookup per event instead of an expression with function calls.
        self.shape = _expr(data, "shape")
        self.shape_field = _only_field(self.shape.ast) if self.shape is not None else None
        self.event_type = _expr(data, "event_type")
        # The shape reads only the field that is the event's type: one verdict per type.
        self.shape_by_type = (self.shape_field is not None and self.event_type is not None
                              and self.event_type.source == self.shape_field)
        self.ready: str = data["ready"]
        # Events written with an SDK's own keys are renamed as read() renames a reply (§5).
        self.detect = spec.normalize is not None and spec.normalize.detect is not None
        unwrap = data.get("unwrap")
        self.unwrap: tuple[Expression, Expression] | None = (
            (compile_expression(unwrap["when"]), compile_expression(unwrap["value"]))
            if isinstance(unwrap, Mapping) else None)
        self.complete = _expr(data, "complete")
        error = Guard(data["error"]) if "error" in data else None
        # An entry with neither events nor when matches nothing (specs/README.md §9.5).
        self.error = error if error is not None and (error.on or error.when) else None
        self.refuse = tuple(Guard(entry) for entry in data.get("refuse") or ())
        self.rules = tuple(Rule(rule) for rule in data["rules"])
        typed = {name for rule in self.rules if rule.on for name in rule.on}
        self._untyped = tuple(rule for rule in self.rules if rule.on is None)
        self._by_type = {
            name: tuple(r for r in self.rules if r.on is None or name in r.on) for name in typed
        }
        # The lists whose items close by an event (a close rule names them): an item still
        # open there at completion never closed, and is unfinished (§9.6).
        self.finalize_of: dict[Path, Fields] = {}
        for rule in self.rules:
            if rule.op.kind == "close" and rule.op.list is not None:
                self.finalize_of.setdefault(rule.op.list, rule.op.finalize)
        selects = [source.select.source for source in spec.sources]
        self.source_of: dict[Path, int] = {parse(text): i for i, text in enumerate(selects)
                                           if _is_path(text)}

    def rules_for(self, event_type: Any) -> tuple[Rule, ...]:
        """The rules that may match an event of this type, in spec order."""
        if type(event_type) is str:
            return self._by_type.get(event_type, self._untyped)
        return self._untyped


_EQUALS: Final = re.compile(
    r"\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*==\s*'([^'\\]*)'\s*"
)


def plan_for(rules: tuple[Rule, ...]) -> tuple[
    Any, dict[str, tuple[tuple[Rule, bool], ...]], tuple[tuple[Rule, bool], ...]
]:
    """Rules grouped by a shared discriminator, so an event evaluates it once.

    Where two or more rules' ``when`` is ``<path> == '<string>'`` for one path (Anthropic's
    four ``delta.type`` rules), the path is evaluated once per event and only the rules of
    the matching value run — with their ``when`` known true — beside the rules that do not
    test it, in spec order. Returns (the path's closure or None, steps by value, steps for
    any other value), each step ``(rule, when known true)``. Semantics are unchanged: a
    ``when`` of that shape holds exactly when the path's value is that string.
    """
    tested: dict[str, list[tuple[Rule, str]]] = {}
    for rule in rules:
        match = _EQUALS.fullmatch(rule.when.source) if rule.when is not None else None
        if match:
            tested.setdefault(match.group(1), []).append((rule, match.group(2)))
    path, cases = max(tested.items(), key=lambda kv: len(kv[1]), default=(None, []))
    if path is None or len(cases) < 2:
        return None, {}, tuple((rule, False) for rule in rules)
    literal = {id(rule): value for rule, value in cases}
    default = tuple((rule, False) for rule in rules if id(rule) not in literal)
    buckets = {
        value: tuple((rule, id(rule) in literal) for rule in rules
                     if literal.get(id(rule), value) == value)
        for value in {v for _, v in cases}
    }
    return compile_expression(path).evaluate, buckets, default


def _only_field(ast: Any) -> str | None:
    """The one field name an expression reads, if it reads no other and never the current
    node itself (``@``, a projection's element): then its value decides the result."""
    names: set[Any] = set()
    stack = [ast]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        kind = node.get("type")
        if kind in ("current", "identity"):
            return None
        if kind == "field":
            names.add(node.get("value"))
        if kind != "literal":
            stack.extend(node.get("children") or ())
    return next(iter(names)) if len(names) == 1 and isinstance(next(iter(names)), str) else None


def _is_path(text: str) -> bool:
    return bool(text) and "".join(m.group(0) for m in STEP.finditer(text)) == text


def compiled_stream(spec: WireSpec) -> CompiledStream | None:
    """The spec's compiled stream part (built once per spec, kept in the spec's own cache
    so that it lives and goes with the spec), or None if it has none."""
    if spec.stream_part is None:
        return None
    found: CompiledStream | None = spec.code.stream
    if found is None:
        found = spec.code.stream = CompiledStream(spec)
    return found

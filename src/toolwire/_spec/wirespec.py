"""The compiled form of a wire spec: what the interpreter runs.

A :class:`WireSpec` is built once from a spec's validated data, with every JMESPath
expression compiled and the four item lists folded into one lookup table from item
type to candidate entries (:mod:`.entries` holds the parts). Nothing here parses YAML or
validates: :mod:`.document`
does that first, so a ``WireSpec`` is always well formed and the interpreter never
meets a spec error at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .._expression import Expression, compile_expression
from .._speed import TYPE_CHECKING
from .._speed.generated import SpecCode
from .._speed.record import Record, setfield
from .._values.json_values import copy_json
from .entries import (
    CallEntry,
    Entry,
    ErrorPart,
    FailedCall,
    IgnoreEntry,
    Nested,
    Normalize,
    RefuseEntry,
    RenderPart,
    ServerEntry,
    Shape,
    Source,
    UnlistedKey,
    render_expressions,
)

if TYPE_CHECKING:
    from typing import Any, Final, Literal

    Kind = Literal["refuse", "calls", "server_side", "ignore"]
    TypeOf = Callable[[dict[str, Any]], Any]
    Compile = Callable[[str], Expression]

__all__ = ["KINDS", "WireSpec", "compile_wire_spec"]


KINDS: Final[tuple[Kind, ...]] = ("refuse", "calls", "server_side", "ignore")
"""The four lists, in the order an item is matched against them: refusals first, so a
spec whose ``when`` predicates overlap fails closed rather than open."""


class WireSpec(Record):
    """A loaded, compiled wire spec.

    ``data`` is the spec's validated data, kept for tools; ``code`` holds what is compiled
    from it (:class:`toolwire._speed.generated.SpecCode`: the generated extract, read and
    gate, the compiled stream part), so that it lives and goes with the spec. Neither is
    part of the spec's value.
    """

    __slots__ = (
        "choices",
        "code",
        "content",
        "data",
        "doc_ref",
        "entries",
        "error",
        "extends",
        "failed_calls",
        "finish_reason",
        "format",
        "normalize",
        "path",
        "render",
        "shape",
        "sniff",
        "sniff_priority",
        "sources",
        "stream_event",
        "stream_part",
        "structured_output",
        "table",
        "title",
        "tools_part",
        "truncated",
        "unknown_items",
    )
    _hidden = frozenset({"code", "data", "stream_part", "tools_part"})
    format: str
    title: str
    doc_ref: str
    sources: tuple[Source, ...]
    unknown_items: Literal["refuse", "report"]
    table: Mapping[str, tuple[Entry, ...]]
    entries: tuple[Entry, ...]
    sniff: Expression | None
    sniff_priority: int
    truncated: Expression | None
    finish_reason: Expression | None
    content: Expression | None
    normalize: Normalize | None
    render: RenderPart | None
    path: str
    data: Mapping[str, Any]
    code: SpecCode
    structured_output: Expression | None
    choices: tuple[str, ...] | None
    stream_event: Expression | None
    shape: Shape | None
    error: ErrorPart | None
    failed_calls: tuple[FailedCall, ...]
    # The base format (``extends``), and the parts their own packages compile as declared:
    # ``stream`` (toolwire._stream) and ``tools`` (toolwire._tools); None where absent.
    extends: str | None
    stream_part: Mapping[str, Any] | None
    tools_part: Mapping[str, Any] | None

    def __init__(
        self,
        format: str,
        title: str,
        doc_ref: str,
        sources: tuple[Source, ...],
        unknown_items: Literal["refuse", "report"],
        table: Mapping[str, tuple[Entry, ...]],
        entries: tuple[Entry, ...],
        sniff: Expression | None = None,
        sniff_priority: int = 0,
        truncated: Expression | None = None,
        finish_reason: Expression | None = None,
        content: Expression | None = None,
        path: str = "",
        data: Mapping[str, Any] | None = None,
        normalize: Normalize | None = None,
        render: RenderPart | None = None,
        code: SpecCode | None = None,
        structured_output: Expression | None = None,
        choices: tuple[str, ...] | None = None,
        stream_event: Expression | None = None,
        shape: Shape | None = None,
        error: ErrorPart | None = None,
        failed_calls: tuple[FailedCall, ...] = (),
        extends: str | None = None,
        stream_part: Mapping[str, Any] | None = None,
        tools_part: Mapping[str, Any] | None = None,
    ) -> None:
        for name, value in (
            ("format", format), ("title", title), ("doc_ref", doc_ref), ("sources", sources),
            ("unknown_items", unknown_items), ("table", table), ("entries", entries),
            ("sniff", sniff), ("sniff_priority", sniff_priority), ("truncated", truncated),
            ("finish_reason", finish_reason), ("content", content), ("path", path),
            ("normalize", normalize),
            ("render", render),
            ("data", {} if data is None else data), ("code", SpecCode() if code is None else code),
            ("structured_output", structured_output), ("choices", choices),
            ("stream_event", stream_event), ("shape", shape), ("error", error),
            ("failed_calls", failed_calls), ("extends", extends),
            ("stream_part", stream_part), ("tools_part", tools_part),
        ):
            setfield(self, name, value)

    def with_code(self, code: SpecCode) -> WireSpec:
        """The same spec with ``code`` as its compiled state (a registry whose generated
        code is switched otherwise than the environment says gets its own copies)."""
        twin = object.__new__(type(self))
        for name in self._fields:
            setfield(twin, name, getattr(self, name))
        setfield(twin, "code", code)
        return twin

    def declared(self) -> dict[str, Any]:
        """The spec as declared (``extends`` resolved): a deep copy of its validated data,
        for what works on the text of a spec — exporting it, comparing it with its base."""
        return copy_json(dict(self.data))  # type: ignore[no-any-return]

    def entries_of(self, kind: Kind) -> tuple[Entry, ...]:
        """The entries of one list, in spec order."""
        return tuple(e for e in self.entries if e.kind == kind)


def _typing(source: Mapping[str, Any]) -> tuple[str, Any, Any]:
    """How a source's items are typed, as :attr:`Source.typing` records it."""
    if "type_const" in source:
        return ("type_const", source["type_const"], None)
    if "type_by_key" in source:
        return ("type_by_key", tuple(source["type_by_key"]), None)
    return ("type_field", source["type_field"], source.get("type_default"))


def _type_of(source: Mapping[str, Any]) -> TypeOf:
    """How a source's items are typed: by a field, by the first key present, or fixed."""
    if "type_const" in source:
        constant = source["type_const"]
        return lambda item: constant
    if "type_by_key" in source:
        keys = tuple(source["type_by_key"])

        def by_key(item: dict[str, Any]) -> Any:
            for key in keys:
                if item.get(key) is not None:
                    return key
            # None of the listed keys: name the item by its smallest non-null key (code
            # point order: a JSON object has no key order every parser keeps), so an
            # unknown part is reported (or refused) under a name a reader can look up —
            # but as an UnlistedKey, which no entry matches even where the key is some
            # entry's type: the item stays unknown (specs/README.md §1.1), as in the
            # generated extract (toolwire._wire.fastpath).
            named = [key for key, value in item.items() if value is not None]
            return UnlistedKey(min(named)) if named else None

        return by_key
    type_field = source["type_field"]
    default = source.get("type_default")
    if default is None:
        return lambda item: item.get(type_field)

    def with_default(item: dict[str, Any]) -> Any:
        value = item.get(type_field)
        return default if value is None else value

    return with_default


def _optional(data: Mapping[str, Any], key: str, compiler: Compile) -> Expression | None:
    source = data.get(key)
    return None if source is None else compiler(source)


def _entry(kind: Kind, index: int, data: Mapping[str, Any], compiler: Compile) -> Entry:
    common: dict[str, Any] = {
        "kind": kind,
        "index": index,
        "type": data["type"],
        "when": _optional(data, "when", compiler),
    }
    if kind == "calls":
        return CallEntry(
            **common,
            name=compiler(data["name"]),
            arguments=compiler(data["arguments"]),
            id=_optional(data, "id", compiler),
            keep=tuple((key, compiler(source)) for key, source in (data.get("keep") or {}).items()),
        )
    if kind == "server_side":
        return ServerEntry(
            **common,
            id=compiler(data.get("id", "id")),
            name=compiler(data.get("name", "name")),
            status=compiler(data.get("status", "status")),
            input=_optional(data, "input", compiler),
        )
    if kind == "refuse":
        return RefuseEntry(**common, reason=data["reason"])
    return IgnoreEntry(**common)


def _normalize(
    data: Mapping[str, Any], table: Mapping[str, list[Entry]], compiler: Compile
) -> Normalize | None:
    part = data.get("normalize")
    if not part:
        return None
    aliases = dict(part.get("aliases") or {})
    # The SDK's own names of the keys that type a call item (function_call for Gemini's
    # functionCall): the generated extract steps aside when it meets one (wire.fastpath).
    call_types = {t for t, entries in table.items() if any(type(e) is CallEntry for e in entries)}
    call_keys = tuple(sorted(k for k, v in aliases.items() if v in call_types))
    return Normalize(
        detect=_optional(part, "detect", compiler),
        aliases=aliases,
        verbatim=frozenset(part.get("verbatim") or ()),
        call_keys=call_keys,
    )


def compile_wire_spec(
    data: Mapping[str, Any], path: str = "", *, compiler: Compile = compile_expression
) -> WireSpec:
    """Compile validated spec data (see :func:`toolwire._spec.document.check_wire_data`).

    ``compiler`` turns an expression's source into an :class:`Expression`; the bundle
    (:mod:`toolwire._spec.bundle`) passes one that reuses ASTs parsed when it was generated.
    """
    entries = tuple(
        _entry(kind, index, entry, compiler)
        for kind in KINDS
        for index, entry in enumerate(data.get(kind) or ())
    )
    table: dict[str, list[Entry]] = {}
    for entry in entries:
        table.setdefault(entry.type, []).append(entry)
    sources = tuple(
        Source(
            select=compiler(source["select"]),
            single=bool(source.get("single", False)),
            type_of=_type_of(source),
            nested=tuple(
                Nested(compiler(n["when"]), compiler(n["select"]))
                for n in source.get("nested") or ()
            ),
            typing=_typing(source),
        )
        for source in data["items"]
    )
    sniff = data.get("sniff")
    structured = data.get("structured_output")
    choices = data.get("choices")
    stream = data.get("stream") or {}
    return WireSpec(
        format=data["format"],
        title=data["title"],
        doc_ref=data["doc_ref"],
        sources=sources,
        unknown_items=data["unknown_items"],
        table={key: tuple(value) for key, value in table.items()},
        entries=entries,
        sniff=compiler(sniff["when"]) if sniff else None,
        sniff_priority=int(sniff["priority"]) if sniff else 0,
        truncated=_optional(data, "truncated", compiler),
        finish_reason=_optional(data, "finish_reason", compiler),
        content=_optional(data, "content", compiler),
        path=path,
        data=data,
        structured_output=compiler(structured["text"]) if structured else None,
        choices=tuple(choices["list"].split(".")) if choices else None,
        normalize=_normalize(data, table, compiler),
        render=_render(data, compiler),
        stream_event=_optional(stream, "event", compiler),
        shape=_shape(data, compiler),
        error=_error(data, compiler),
        failed_calls=tuple(
            FailedCall(compiler(f["when"]), f["type"], _optional(f, "reason", compiler))
            for f in data.get("failed_calls") or ()
        ),
        extends=data["extends"] if isinstance(data.get("extends"), str) else None,
        stream_part=data["stream"] if isinstance(data.get("stream"), Mapping) else None,
        tools_part=data["tools"] if isinstance(data.get("tools"), Mapping) else None,
    )


def _shape(data: Mapping[str, Any], compiler: Compile) -> Shape | None:
    part = data.get("shape")
    if not part:
        return None
    parts = tuple((compiler(p["when"]), p["is"]) for p in part.get("parts") or ())
    return Shape(compiler(part["when"]), part["needs"], parts)


def _error(data: Mapping[str, Any], compiler: Compile) -> ErrorPart | None:
    part = data.get("error")
    if not part:
        return None
    return ErrorPart(
        when=compiler(part["when"]),
        message=compiler(part["message"]),
        type=_optional(part, "type", compiler),
        code=_optional(part, "code", compiler),
        keep=tuple((key, compiler(source)) for key, source in (part.get("keep") or {}).items()),
    )


def _render(data: Mapping[str, Any], compiler: Compile) -> RenderPart | None:
    part = data.get("render")
    if not part:
        return None
    sources = render_expressions(part)
    return RenderPart(part, {source: compiler(source) for _, source in sources})

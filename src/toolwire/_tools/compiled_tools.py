"""``toolwire.Tools``: a request's tool list, compiled once, checking every call after.

Building one reads the tool list through the format's spec (:mod:`.part`), makes each
tool's schema JSON Schema (:mod:`.dialect`) and builds its validator (:mod:`.definition`):
the costly part, done once per request shape and then shared by every reply, thread and
loop turn that uses those tools. Checking a call is then a dictionary lookup and, for a
known tool, a validation.

The verdict of a check lives in the call itself (``unknown_tool``, ``arguments_invalid``,
``arguments_errors``), and a flagged call is answered, never run: the reply's split puts it
with the rejected calls, and :meth:`toolwire.Reply.error_result` tells the model what was
wrong. Nothing about the call is changed but those fields: its arguments stay exactly what
the model sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from .._spec.spec_source import default_source
from .._speed.record import setfield
from .._values.json_values import copy_json
from .._values.reply import Reply
from .._values.toolcall import ArgumentError, ToolCall
from ..errors import InvalidTools
from .definition import ToolDefinition, compile_definition, schema_definition
from .part import Others, ToolPart, tool_part

__all__ = ["Tools", "as_tools"]

if TYPE_CHECKING:
    from .._spec.spec_source import SpecSource
    from .._values.text_reply import TextReply

_R = TypeVar("_R", bound="Reply | TextReply")


class Tools:
    """The tools a request offered, compiled; immutable once built, so share it freely.

    ``Tools(fmt, request)`` reads ``request`` — the request body as sent, its tool list, or
    JSON text of either — with the wire spec of ``fmt``. :class:`InvalidTools` names the
    tool when the list cannot be read or a schema is not valid, here rather than on the
    first call. ``Tools.from_schemas`` builds one from plain JSON Schemas.
    """

    __module__ = "toolwire"  # the published name: reprs, pickles and docs show it

    __slots__ = ("_by_name", "definitions", "format")

    format: str | None
    definitions: tuple[ToolDefinition, ...]
    _by_name: dict[str, ToolDefinition]

    def __init__(self, fmt: str, request: Any, *, registry: SpecSource | None = None) -> None:
        if fmt is None:
            raise TypeError("Tools(None, …): name the format the request was written for;"
                            " a tool list is not sniffed (Tools.from_schemas takes bare schemas)")
        registry = registry or default_source()
        spec = registry.spec(fmt)
        part = tool_part(spec)
        found: list[ToolDefinition] = []
        for raw in part.read(request, _others(registry)):
            found.extend(compile_definition(spec.format, raw, part.translations))
        self._set(spec.format, found)

    def _set(self, fmt: str | None, found: list[ToolDefinition]) -> None:
        by_name: dict[str, ToolDefinition] = {}
        for tool in found:
            first = by_name.get(tool.name)
            if first is not None:
                raise InvalidTools(
                    fmt, f"the name is offered twice (also by tool #{first.index})",
                    tool=tool.name, index=tool.index,
                )
            by_name[tool.name] = tool
        setfield(self, "format", fmt)
        setfield(self, "definitions", tuple(found))
        setfield(self, "_by_name", by_name)

    @classmethod
    def from_schemas(
        cls, schemas: Mapping[str, Any], *, strict: bool = False, dialect: str = "draft2020-12"
    ) -> Tools:
        """Tools from ``{name: JSON Schema}`` (``None``: a tool whose input is unchecked),
        for calls read from model text or any request toolwire has no spec part for."""
        if dialect not in ("draft2020-12", "draft7"):
            raise ValueError(f"dialect must be 'draft2020-12' or 'draft7', not {dialect!r}")
        for i, name in enumerate(schemas):
            if not isinstance(name, str) or not name:
                raise InvalidTools(None, f"a tool name must be a non-empty string, not {name!r}",
                                   index=i)
        found = [
            ToolDefinition(name, "unchecked", None, reason="offered without a schema")
            if schema is None
            else schema_definition(name, schema, strict=strict, dialect=dialect, index=i)
            for i, (name, schema) in enumerate(schemas.items())
        ]
        tools = object.__new__(cls)
        tools._set(None, found)
        return tools

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"Tools is immutable; cannot set {key!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError("a Tools holds compiled validators: pickle the request, and build"
                        " the Tools again where it is needed")

    # -- what was offered -------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """Every offered tool name, in request order."""
        return tuple(self._by_name)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __iter__(self) -> Iterator[ToolDefinition]:
        return iter(self.definitions)

    def __len__(self) -> int:
        return len(self.definitions)

    def __repr__(self) -> str:
        return f"Tools(format={self.format!r}, names={self.names!r})"

    def definition(self, name: str) -> ToolDefinition | None:
        """The tool of that name, or ``None`` when none was offered."""
        return self._by_name.get(name)

    def parameters(self, name: str) -> dict[str, Any] | None:
        """The tool's parameters as JSON Schema (translated, strict mode applied): a fresh
        copy; ``None`` for a name not offered or a tool whose input is unchecked."""
        tool = self._by_name.get(name)
        return None if tool is None or tool.schema is None else copy_json(tool.schema)

    @property
    def unchecked(self) -> tuple[str, ...]:
        """The names offered whose input is not checked (custom and provider tools)."""
        return tuple(t.name for t in self.definitions if t.kind == "unchecked")

    # -- checking ---------------------------------------------------------------------

    def check(self, call: ToolCall) -> ToolCall:
        """``call`` with its verdict: ``unknown_tool``, or ``arguments_invalid`` with every
        error. The same object when there is nothing to say (and nothing was said before).
        Undecodable arguments are not checked: their own error stands."""
        tool = self._by_name.get(call.name)
        if tool is None:
            offered = (self._offered(call.name),)
            if call.unknown_tool and not call.arguments_invalid and (
                    call.arguments_errors == offered):
                return call
            return call.replace(unknown_tool=True, arguments_invalid=False,
                                arguments_errors=offered)
        errors = () if call.arguments_undecodable else tool.errors(call._arguments)
        if errors:
            return call.replace(unknown_tool=False, arguments_invalid=True,
                                arguments_errors=errors)
        if call.unknown_tool or call.arguments_invalid:
            return call.replace(unknown_tool=False, arguments_invalid=False, arguments_errors=())
        return call

    def check_calls(self, calls: Iterable[ToolCall]) -> list[ToolCall]:
        """Each call checked, in order."""
        return [self.check(c) for c in calls]

    def check_reply(self, reply: _R) -> _R:
        """The reply (a :class:`toolwire.Reply`, or a :class:`~toolwire.TextReply` read
        from model text) with its calls checked; the same object when no verdict changed."""
        check = self.check
        calls = tuple([check(c) for c in reply.calls])  # a list first: no generator frame
        for before, after in zip(reply.calls, calls, strict=True):
            if before is not after:
                break
        else:
            return reply
        checked = object.__new__(type(reply))
        for name in type(reply)._fields:
            setfield(checked, name, getattr(reply, name))
        setfield(checked, "calls", calls)
        return checked

    def _offered(self, name: str) -> ArgumentError:
        """The verdict's one error for an unknown tool: what was offered, the closest
        name first, so the model can pick one (specs/README.md §8.2)."""
        if not self._by_name:
            return ArgumentError("", "unknown_tool", "No tools were offered.")
        import difflib  # lazy: difflib (5 ms) only to name the tools near an unknown one

        close = difflib.get_close_matches(name, list(self._by_name), n=1)
        hint = f"Did you mean {close[0]!r}? " if close else ""
        return ArgumentError("", "unknown_tool",
                             f"{hint}The tools offered are: {', '.join(self._by_name)}.")

    def error_result(self, call: ToolCall) -> str:
        """:meth:`toolwire.Reply.error_result`: for an unknown tool checked here it names the
        offered tools (the closest first), as ``reply.answer()`` does."""
        return Reply.error_result(call)


_OTHERS: dict[int, tuple[Any, Others]] = {}


def _others(registry: SpecSource) -> Others:
    """Every format of ``registry`` with a tools part, base formats first, the one most
    formats extend first of all (a foreign list is named ``openai``, not ``groq``)."""
    held = _OTHERS.get(id(registry))
    if held is not None and held[0] is registry:
        return held[1]
    bases: dict[str, int] = {}
    found: list[tuple[str, str, ToolPart]] = []
    for name in registry.formats():
        spec = registry.spec(name)
        base = spec.extends
        if base is not None:
            bases[base] = bases.get(base, 0) + 1
        if spec.tools_part is not None:
            found.append((name, base or "", tool_part(spec)))
    found.sort(key=lambda f: (bool(f[1]), -bases.get(f[0], 0), f[0]))
    looks = {name: part.looks_like and part.looks_like.source for name, _, part in found}
    others = tuple((name, part) for name, base, part in found
                   if not base or looks[name] != looks.get(base))  # a dialect: its base says
    if len(_OTHERS) >= 16:
        _OTHERS.clear()
    _OTHERS[id(registry)] = (registry, others)  # the registry is held: its id is not reused
    return others


def as_tools(fmt: str, tools: Any, registry: SpecSource | None = None) -> Tools:
    """``tools`` as a :class:`Tools`: itself, or compiled for ``fmt`` from a request."""
    if isinstance(tools, Tools):
        return tools
    if isinstance(tools, Mapping) and not isinstance(tools, dict):
        tools = dict(tools)
    return Tools(fmt, tools, registry=registry)

"""Extracting tool calls from model text, by spec or by format name.

``extract_text`` is the one entry point; ``extract_from_text`` looks the format up
among the bundled specs, and ``extract_hermes_from_text`` keeps the seed library's
signature. Every one returns ``(clean_text, calls)``: the reply with the lifted call
blocks cut out and trimmed, and the calls in the order they were written. A block
that carries no call stays in the clean text where it was, so nothing the model
wrote is lost. ``read_text`` returns the whole account as a :class:`TextReply`.

A message the spec refuses (a Harmony message to a built-in tool: no function maps it)
is never left in the text as raw tokens: every entry point raises
:class:`~toolwire.errors.UnmappedCall` naming the first, and its ``reply`` is the partial
:class:`TextReply`, every refused message in ``refused`` — as ``read`` refuses a wire
item it cannot map.

With ``tools=``, the calls are also checked against the tools offered (``unknown_tool``,
``arguments_invalid``), as ``read(..., tools=)`` checks a wire reply's: a
:class:`toolwire.Tools`, or ``{name: parameters schema}`` (each compiled as
:meth:`toolwire.Tools.from_schemas` does).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from .._paths import bundled_specs_dir
from .._values.text_reply import TextReply
from .._values.toolcall import ToolCall
from ..errors import SpecError, SpecProblem, UnknownFormat, UnmappedCall, near_miss
from .compile import load_text_spec
from .harmony import HarmonyScanner
from .scanner import Scanned
from .spec import TextSpec
from .typed import schemas_of

__all__ = [
    "bundled_text_specs",
    "extract_from_text",
    "extract_hermes_from_text",
    "extract_text",
    "read_text",
    "read_text_spec",
]


def _checked(spec: TextSpec, text: str) -> None:
    if not isinstance(spec, TextSpec):
        raise TypeError(f"spec must be a TextSpec, not {type(spec).__name__}")
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")


def extract_text(
    spec: TextSpec, text: str, *, tools: Any = None, **params: str
) -> tuple[str, list[ToolCall]]:
    """``(clean_text, calls)`` of ``text`` read with ``spec``.

    ``params`` are the spec's declared parameters (Hermes: ``tag``); an undeclared one
    raises :class:`TypeError` naming it, a value its pattern refuses :class:`ValueError`.
    ``tools`` (a :class:`toolwire.Tools` or ``{tool_name: parameters_schema}``) types
    the text values of XML-family formats by each tool's schema. Reasoning regions stay
    in the clean text as written; :func:`read_text_spec` returns them apart.
    """
    _checked(spec, text)
    scanner = spec.scanner(spec.resolve(params))
    schemas = schemas_of(tools)
    if isinstance(scanner, HarmonyScanner):
        clean, calls, refused = scanner.extract_refused(text, schemas)
        if refused:
            read_text_spec(spec, text, tools=tools, **params)  # raises, with the partial reply
    else:
        clean, calls = scanner.extract(text, schemas)
    if tools is not None:
        calls = list(_offered(tools).check_calls(calls))
    return clean, calls


def read_text_spec(spec: TextSpec, text: str, *, tools: Any = None, **params: str) -> TextReply:
    """``text`` read with ``spec``: the answer, the reasoning and the calls apart, with the
    call regions that yielded no call (``skipped``) and whether the reply was cut off.

    Raises :class:`~toolwire.errors.UnmappedCall` for a message the spec refuses, its ``reply``
    the partial :class:`TextReply`.
    """
    _checked(spec, text)
    scanned = spec.scanner(spec.resolve(params)).read(text, schemas_of(tools))
    reply = _reply(scanned)
    if tools is not None:
        reply = _offered(tools).check_reply(reply)
    if reply.refused:
        first = reply.refused[0]  # text has no items: index 0, the location says where
        raise UnmappedCall(
            spec.format, 0, first.recipient, first.reason, f"text[{first.start}:{first.end}]",
            reply=reply,
        )
    return reply


def _reply(scanned: Scanned) -> TextReply:
    return TextReply(
        scanned.text, scanned.reasoning, tuple(scanned.calls), skipped=scanned.skipped,
        truncated=scanned.truncated, refused=scanned.refused,
    )


def _offered(tools: Any) -> Any:
    """``tools`` as a :class:`toolwire.Tools` (compiled here from ``{name: schema}``).

    Imported on use: checking needs jsonschema, which reading text does not."""
    from .._tools import Tools  # lazy: the tool checks (jsonschema: 66 ms) only with tools=

    if isinstance(tools, Tools):
        return tools
    if isinstance(tools, Mapping):
        return Tools.from_schemas(tools)
    if callable(getattr(tools, "check_reply", None)):
        return tools
    return _TypingOnly()


class _TypingOnly:
    """Tools that only type values (an object with ``parameters(name)`` and no check)."""

    def check_calls(self, calls: list[ToolCall]) -> list[ToolCall]:
        return calls

    def check_reply(self, reply: TextReply) -> TextReply:
        return reply


@cache
def _bundled() -> dict[str, TextSpec]:
    folder = bundled_specs_dir() / "text"
    specs: dict[str, TextSpec] = {}
    problems: list[SpecProblem] = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            spec = load_text_spec(_shown(path))
        except SpecError as exc:
            problems.extend(exc.problems)
            continue
        specs[spec.format] = spec
    if problems:
        raise SpecError(problems)
    return specs


@cache
def _by_alias() -> dict[str, TextSpec]:
    return {alias: spec for spec in _bundled().values() for alias in spec.aliases}


def _lookup(fmt: str) -> TextSpec:
    if not isinstance(fmt, str):
        raise TypeError(f"fmt must be a str, not {type(fmt).__name__}")
    specs = _bundled()
    spec = specs.get(fmt) or _by_alias().get(fmt)
    if spec is None:
        near = near_miss(fmt, (*specs, *_by_alias()))[2:]
        raise UnknownFormat(fmt, specs, kind="text format", other=near)
    return spec


def _shown(path: Path) -> Path:
    """The path as errors show it: relative to the working folder when inside it."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def bundled_text_specs() -> dict[str, TextSpec]:
    """The text specs shipped with toolwire, by format name (loaded once)."""
    return dict(_bundled())


def extract_from_text(
    fmt: str, text: str, *, tools: Any = None, **params: str
) -> tuple[str, list[ToolCall]]:
    """``(clean_text, calls)`` of ``text`` in the bundled text format ``fmt``.

    ``fmt`` is a format name or one of its aliases (SGLang's name where it differs).
    Raises :class:`UnknownFormat` for a format no bundled text spec defines.
    """
    return extract_text(_lookup(fmt), text, tools=tools, **params)


def read_text(fmt: str, text: str, *, tools: Any = None, **params: str) -> TextReply:
    """``text`` in the bundled text format ``fmt``, as a :class:`TextReply`:
    the answer, the reasoning (the format's reasoning regions) and the calls apart."""
    return read_text_spec(_lookup(fmt), text, tools=tools, **params)


def extract_hermes_from_text(text: str, tag: str = "tool_call") -> tuple[str, list[ToolCall]]:
    """Lift ``<tag>{"name": …, "arguments": {…}}</tag>`` blocks out of ``text``.

    A block with no call in it (invalid JSON, not an object, no name) stays in the
    text where it was; the clean text is trimmed; arguments follow the decoding table.
    """
    return extract_from_text("hermes", text, tag=tag)

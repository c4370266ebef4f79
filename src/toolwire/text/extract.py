"""Extracting tool calls from model text, by spec or by format name.

``extract_text`` is the one entry point; ``extract_from_text`` looks the format up
among the bundled specs, and ``extract_hermes_from_text`` keeps the seed library's
signature. Every one returns ``(clean_text, calls)``: the reply with the lifted call
blocks cut out and trimmed, and the calls in the order they were written. A block
that carries no call stays in the clean text where it was, so nothing the model
wrote is lost.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ..errors import SpecError, SpecProblem, UnknownFormat
from ..paths import bundled_specs_dir
from ..toolcall import ToolCall
from .compile import load_text_spec
from .reply import TextReply
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
    return spec.scanner(spec.resolve(params)).extract(text, schemas_of(tools))


def read_text_spec(spec: TextSpec, text: str, *, tools: Any = None, **params: str) -> TextReply:
    """``text`` read with ``spec``: the answer, the reasoning and the calls apart."""
    _checked(spec, text)
    scanned = spec.scanner(spec.resolve(params)).read(text, schemas_of(tools))
    return TextReply(scanned.text, scanned.reasoning, tuple(scanned.calls))


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
        raise UnknownFormat(fmt, specs)
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

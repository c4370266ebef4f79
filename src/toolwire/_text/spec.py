"""A loaded text spec: its identity, its parameters, and its scanners.

:class:`TextSpec` is what :func:`~toolwire._text.compile_text_spec` returns. It is
immutable to its users; the only state it keeps is a small cache of scanners keyed by
parameter values, so that a caller passing ``tag="function_call"`` on every reply
builds that scanner once.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from .._expression import Expression
from .build import build_scanner
from .harmony import HarmonyScanner
from .markers import Template
from .scanner import Scanner

__all__ = ["ParamSpec", "TextSpec"]

_CACHE_SIZE: Final = 32


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One declared caller parameter."""

    default: str
    description: str
    pattern: re.Pattern[str] | None = None


class TextSpec:
    """A compiled text format: ``format``, ``title``, ``doc_ref``, ``params`` (name → default),
    ``aliases`` (other names it answers to: SGLang's, where they differ from vLLM's), ``models``
    (the model families that write it)."""

    __slots__ = (
        "_data",
        "_expressions",
        "_lock",
        "_param_specs",
        "_scanners",
        "_templates",
        "aliases",
        "description",
        "doc_ref",
        "format",
        "models",
        "params",
        "path",
        "title",
    )

    format: str
    title: str
    doc_ref: str
    description: str
    path: str
    params: Mapping[str, str]
    aliases: tuple[str, ...]
    models: tuple[str, ...]

    def __init__(
        self,
        *,
        data: dict[str, Any],
        path: str,
        param_specs: dict[str, ParamSpec],
        templates: dict[str, Template],
        expressions: dict[str, Expression],
    ) -> None:
        self.format = data["format"]
        self.title = data["title"]
        self.doc_ref = data["doc_ref"]
        self.description = data.get("description", "")
        self.aliases = tuple(data.get("aliases", ()))
        self.models = tuple(data.get("models", ()))
        self.path = path
        self.params = MappingProxyType({k: p.default for k, p in param_specs.items()})
        self._data = data
        self._param_specs = param_specs
        self._templates = templates
        self._expressions = expressions
        self._scanners: dict[tuple[str, ...], Scanner | HarmonyScanner] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"TextSpec(format={self.format!r}, path={self.path!r})"

    def resolve(self, given: Mapping[str, object]) -> tuple[str, ...]:
        """The parameter values, in declared order, defaults filled in.

        Raises :class:`TypeError` for a parameter the spec does not declare or a
        value that is not a string, :class:`ValueError` for an empty value its pattern does
        not allow, or one that breaks the parameter's pattern.
        """
        unknown = sorted(set(given) - set(self._param_specs))
        if unknown:
            declared = ", ".join(self._param_specs) or "none"
            raise TypeError(
                f"{self.format}: unknown parameter {unknown[0]!r} (declared: {declared})"
            )
        values: list[str] = []
        for name, spec in self._param_specs.items():
            value = given.get(name, spec.default)
            if not isinstance(value, str):
                raise TypeError(
                    f"{self.format}: parameter {name!r} must be a str, not {type(value).__name__}"
                )
            if not value and (spec.pattern is None or spec.pattern.fullmatch("") is None):
                raise ValueError(f"{self.format}: parameter {name!r} must not be empty")
            if spec.pattern is not None and spec.pattern.fullmatch(value) is None:
                raise ValueError(
                    f"{self.format}: parameter {name}={value!r} does not match"
                    f" {spec.pattern.pattern!r}"
                )
            values.append(value)
        return tuple(values)

    def scanner(self, values: tuple[str, ...]) -> Scanner | HarmonyScanner:
        """The scanner for resolved parameter ``values``, built once and cached."""
        scanner = self._scanners.get(values)
        if scanner is not None:
            return scanner
        named = dict(zip(self._param_specs, values, strict=True))
        templates = self._templates

        def render(pointer: str) -> str:
            marker = templates[pointer].render(named)
            if not marker:
                raise ValueError(f"{self.format}: the marker at {pointer} is empty with {named}")
            return marker

        scanner = build_scanner(self._data, render, self._expressions)
        with self._lock:
            if len(self._scanners) >= _CACHE_SIZE:
                self._scanners.clear()
            self._scanners[values] = scanner
        return scanner

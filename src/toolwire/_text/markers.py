"""Markers with ``${name}`` placeholders, filled in from the caller's parameters.

A text spec's markers are literals, but a few formats let the caller choose one
(Hermes' tag name). Such a marker names a declared parameter as ``${tag}``; the
spec is checked once at load (every placeholder well formed and declared), and the
scanner for a given set of values is built by :meth:`Template.render`. ``$`` not
followed by ``{`` is an ordinary character, so markers such as ``{`` or ``[ARGS]``
need no escaping.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

__all__ = ["Template", "TemplateError", "parse_template"]

_PLACEHOLDER: Final = re.compile(r"\$\{([a-z][a-z0-9_]*)\}")


class TemplateError(ValueError):
    """A ``${`` that does not open a well-formed placeholder."""


@dataclass(frozen=True, slots=True)
class Template:
    """A marker split into literal text and parameter names.

    ``parts`` alternates literal strings and :class:`str` parameter names as
    ``(literal, name, literal, name, …, literal)``, so rendering is one join.
    """

    source: str
    parts: tuple[str, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The parameters this marker refers to, in order."""
        return self.parts[1::2]

    def render(self, values: Mapping[str, str]) -> str:
        """The marker with every placeholder replaced by its value."""
        if len(self.parts) == 1:
            return self.parts[0]
        return "".join(
            part if i % 2 == 0 else values[part] for i, part in enumerate(self.parts)
        )


def parse_template(source: str) -> Template:
    """Split ``source`` at its placeholders; raise :class:`TemplateError` for a bad one."""
    parts: list[str] = []
    pos = 0
    while True:
        start = source.find("${", pos)
        if start == -1:
            parts.append(source[pos:])
            return Template(source, tuple(parts))
        match = _PLACEHOLDER.match(source, start)
        if match is None:
            raise TemplateError(
                f"'${{' at character {start} must open a placeholder such as ${{tag}}"
                " (a lowercase parameter name, then '}')"
            )
        parts.append(source[pos:start])
        parts.append(match.group(1))
        pos = match.end()

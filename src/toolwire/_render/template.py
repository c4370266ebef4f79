"""The placeholder language of ``render`` templates (specs/README.md §6), and nothing else.

A template is a JSON value written in the spec. Filling it copies it, replacing each
placeholder string by a value from a *scope*: ``"${call.id}"`` as a whole string takes
the value itself (any JSON value; an absent one drops the member or element that held
it), ``"data:${block.mimeType};base64,${block.data}"`` splices text into text. No code,
no conditionals beyond "absent drops": the same folder of specs renders alike in every
language.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from .._values.json_values import copy_json
from ..errors import RenderError

__all__ = ["ABSENT", "RenderError", "Scope", "fill", "placeholders"]

_NAME: Final = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_WHOLE: Final = re.compile(r"\$\{(response:[^}]+|" + _NAME + r")(\?)?\}")
_INSIDE: Final = re.compile(r"\$\{(" + _NAME + r")\}")


class _Absent:
    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = _Absent()
"""A placeholder's value when its variable is missing: the member or element is dropped."""


Lookup = Callable[[str], Any]
"""A scope's variable lookup: the value of a root name (``call``), or :data:`ABSENT`."""


class Scope:
    """The variables a template is filled from: root names, each a value or a callable
    producing it on first use (a value the template never names is never computed — so
    a result the target cannot express fails only where a template asks for it)."""

    __slots__ = ("_format", "_response", "_values")

    def __init__(
        self, format: str, values: Mapping[str, Any], response: Callable[[str], Any] | None = None
    ) -> None:
        self._format = format
        self._values = dict(values)
        self._response = response

    def get(self, path: str) -> Any:
        if path.startswith("response:"):
            if self._response is None:
                return ABSENT
            return self._response(path[len("response:"):].strip())
        root, _, rest = path.partition(".")
        value = self._values.get(root, ABSENT)
        if callable(value):
            value = self._values[root] = value()
        for step in rest.split(".") if rest else ():
            if isinstance(value, _Lazy):
                value = value.get(step)
            elif isinstance(value, Mapping):
                value = value.get(step, ABSENT)
            else:
                return ABSENT
            if callable(value) and not isinstance(value, _Lazy):
                value = value()
        return value

    @property
    def format(self) -> str:
        return self._format


class _Lazy:
    """An object variable whose members are computed when named (``result.text``)."""

    __slots__ = ("_members",)

    def __init__(self, members: Mapping[str, Callable[[], Any]]) -> None:
        self._members = members

    def get(self, name: str) -> Any:
        member = self._members.get(name)
        return ABSENT if member is None else member()


def lazy(**members: Callable[[], Any]) -> _Lazy:
    """An object variable of ``members`` computed on use."""
    return _Lazy(members)


def _empty(value: Any) -> bool:
    return value is None or value is ABSENT or (
        isinstance(value, (str, list, dict)) and not value
    )


def _text(scope: Scope, template: str) -> Any:
    """A string template: a whole placeholder's value, spliced text, or the literal."""
    if template.startswith("$${"):
        return template[1:]
    whole = _WHOLE.fullmatch(template)
    if whole is not None:
        value = scope.get(whole.group(1))
        if value is None or (whole.group(2) and _empty(value)):
            return ABSENT
        return copy_json(value)  # the filled template never shares a reply's data
    if "${" not in template:
        return template
    pieces: list[str] = []
    position = 0
    for found in _INSIDE.finditer(template):
        value = scope.get(found.group(1))
        if value is ABSENT or value is None:
            return ABSENT
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise RenderError(
                scope.format, f"{found.group(0)} in {template!r} is not text but {_kind(value)}"
            )
        pieces.append(template[position:found.start()])
        pieces.append(value if isinstance(value, str) else json.dumps(value))
        position = found.end()
    pieces.append(template[position:])
    return "".join(pieces)


def _kind(value: Any) -> str:
    return type(value).__name__


def fill(template: Any, scope: Scope) -> Any:
    """The template filled from ``scope``: :data:`ABSENT` where a whole-template
    placeholder has no value (the caller decides what an absent whole means)."""
    if isinstance(template, str):
        return _text(scope, template)
    if isinstance(template, dict):
        out: dict[str, Any] = {}
        for key, value in template.items():
            filled = fill(value, scope)
            if filled is not ABSENT:
                out[key] = filled
        return out
    if isinstance(template, list):
        return [v for v in (fill(item, scope) for item in template) if v is not ABSENT]
    return template


def placeholders(template: Any) -> set[str]:
    """Every variable path a template names (for checks: what a target can carry)."""
    found: set[str] = set()
    stack = [template]
    while stack:
        value = stack.pop()
        if isinstance(value, str) and not value.startswith("$${"):
            whole = _WHOLE.fullmatch(value)
            if whole is not None:
                found.add(whole.group(1))
            else:
                found.update(m.group(1) for m in _INSIDE.finditer(value))
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found

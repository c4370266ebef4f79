"""Running a response template over a reply: the regions, then the message dict.

The scan is transformers' ``ResponseParser`` fed the whole text and finalised, stated
without its streaming machinery (specs/README.md §1b.13 gives the rules):

* The text read is the prompt ``prefix`` cut after the last ``start_anchor`` match,
  then the reply. The implicit field (the one without an open delimiter), if any, is
  current at the start and again after every region closes.
* While an explicit region is open only its close delimiter is looked for; otherwise
  every field's open delimiter and the implicit field's close. The earliest match wins;
  at one position the longer, then an open before a close, then the smaller field name.
* Text before the match goes to the current region (none: it is dropped). An open
  closes the current region and opens its own; a close closes the current region. A
  zero-width close of a region that received nothing ends the scan. At the end of the
  text the current region closes.

:func:`scan` returns the regions with their spans; :func:`message` builds the dict
``parse_response`` returns from them, raising :class:`TemplateError` where transformers
raises. Matches are cached per delimiter (a match at or after the scan position is the
one a new search would find), so a reply with many regions is read in linear time.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..._values.jsontext import loads
from .content_parsers import ContentError, process_region
from .template_check import Template

__all__ = ["Region", "TemplateError", "coercer", "message", "scan", "tool_properties"]

Properties = Callable[[str], "Mapping[str, Any] | None"]
"""A tool's parameter ``properties`` by tool name (None: not given)."""


class TemplateError(ValueError):
    """The reply does not read as the template says (transformers raises here too)."""


class Region(NamedTuple):
    """One closed region: its field, where it stood in the text read, what it held."""

    field: str
    start: int
    end: int
    body: str
    captures: dict[str, str]
    closed: bool


def cut_prefix(template: Template, prefix: str) -> str:
    """``prefix`` after the last ``start_anchor`` match (all of it when there is none)."""
    last = None
    for match in template.start_anchor.finditer(prefix):
        last = match.end()
    return prefix if last is None else prefix[last:]


def scan(template: Template, text: str) -> list[Region]:
    """The regions of ``text`` (the cut prefix and the reply, joined), in order."""
    fields = template.fields
    implicit = template.implicit
    opens = [(0, f.name, f.open) for f in fields.values() if f.open is not None]
    implicit_close = fields[implicit].close if implicit is not None else None
    cache: dict[tuple[int, str], Any] = {}
    regions: list[Region] = []
    pos = 0
    current, opened, start = implicit, False, 0
    body: list[str] = []
    captures: dict[str, str] = {}

    def find(kind: int, name: str, pattern: Any) -> Any:
        key = (kind, name)
        hit = cache.get(key, False)
        if hit is False or (hit is not None and hit.start() < pos):
            hit = pattern.search(text, pos)
            cache[key] = hit
        return hit

    def close(end: int, closed: bool) -> None:
        nonlocal current, opened, captures, body
        if current is not None and opened:
            regions.append(Region(current, start, end, "".join(body), captures, closed))
        current, opened, captures, body = implicit, False, {}, []

    while True:
        if current is not None and current != implicit:
            field = fields[current]
            watch = [(1, field.name, field.close)] if field.close is not None else []
        else:
            watch = list(opens)
            if implicit_close is not None and implicit is not None:
                watch.append((1, implicit, implicit_close))
        best: Any = None
        best_key: tuple[int, int, int, str] | None = None
        for kind, name, pattern in watch:
            hit = find(kind, name, pattern)
            if hit is None:
                continue
            key = (hit.start(), hit.start() - hit.end(), kind, name)
            if best_key is None or key < best_key:
                best_key, best = key, (kind, name, hit)
        if best is None:
            if pos < len(text) and current is not None:
                if not opened:
                    opened, start = True, pos
                body.append(text[pos:])
            close(len(text), False)
            return regions
        kind, name, hit = best
        if hit.start() > pos and current is not None:
            if not opened:
                opened, start = True, pos
            body.append(text[pos:hit.start()])
        pos = hit.end()
        if kind == 0:
            close(hit.start(), False)
            current, opened, start, body = name, True, hit.start(), []
            captures = {k: v for k, v in hit.groupdict().items() if v is not None}
        else:
            had_content = opened
            captures.update({k: v for k, v in hit.groupdict().items() if v is not None})
            close(hit.end(), True)
            if not had_content and hit.start() == hit.end():
                return regions


def _types(schema: Any) -> list[str]:
    """A parameter schema's candidate types: ``type``, ``anyOf``/``oneOf``, ``nullable``."""
    if not isinstance(schema, dict):
        return []
    declared = schema.get("type")
    types = [declared] if isinstance(declared, str) else []
    if isinstance(declared, list):
        types.extend(t for t in declared if isinstance(t, str))
    for union in ("anyOf", "oneOf"):
        branches = schema.get(union)
        for branch in branches if isinstance(branches, list) else ():
            types.extend(_types(branch))
    if schema.get("nullable") and "null" not in types:
        types.append("null")
    return types


def _cast(raw: str, types: list[str]) -> Any:
    """``raw`` as the first of ``types`` it reads as (transformers' rule), else ``raw``."""
    for kind in types:
        try:
            if kind == "integer":
                try:
                    return int(raw)
                except ValueError:
                    number = float(raw)
                    if number.is_integer():
                        return int(number)
            elif kind == "number":
                number = float(raw)
                if number == number and number not in (float("inf"), float("-inf")):
                    return int(number) if number.is_integer() and "." not in raw else number
            elif kind == "boolean" and raw.strip().lower() in ("true", "1", "false", "0"):
                return raw.strip().lower() in ("true", "1")
            elif kind == "null" and raw.strip() in ("null", "None"):
                return None
            elif kind in ("object", "array"):
                decoded = loads(raw)
                if isinstance(decoded, dict if kind == "object" else list):
                    return decoded
        except ValueError:
            continue
    return raw


def coercer(properties: Properties) -> Callable[[Any], Any]:
    """The cast of call values' string arguments by each tool's schema (``tools=``)."""

    def coerce(value: Any) -> Any:
        if isinstance(value, list):
            return [coerce(item) for item in value]
        function = value.get("function") if isinstance(value, dict) else None
        if not isinstance(function, dict):
            return value
        name, arguments = function.get("name"), function.get("arguments")
        if not isinstance(name, str) or not isinstance(arguments, dict):
            return value
        props = properties(name)
        if not props:
            return value
        for key, argument in arguments.items():
            types = _types(props[key]) if key in props else []
            if not types:
                continue
            if isinstance(argument, str):
                arguments[key] = _cast(argument, types)
            elif isinstance(argument, list) and "array" not in types:
                arguments[key] = [_cast(a, types) if isinstance(a, str) else a
                                  for a in argument]
        return value

    return coerce


def tool_properties(tools: Any) -> Properties:
    """``tools`` as transformers takes them (a list of ``{"type": "function", "function":
    {…}}`` or of function objects) as a lookup of each tool's parameter properties."""
    table: dict[str, Mapping[str, Any]] = {}
    if not isinstance(tools, list):
        raise TypeError(f"tools must be a list of tool schemas, not {type(tools).__name__}")
    for tool in tools:
        if callable(tool):
            raise TypeError("tools must be JSON schemas; convert a Python function first"
                            " (transformers.utils.get_json_schema)")
        function = tool.get("function", tool) if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            parameters = function.get("parameters")
            props = parameters.get("properties") if isinstance(parameters, dict) else None
            table[function["name"]] = props if isinstance(props, dict) else {}
    return table.get


def value_of(template: Template, region: Region, coerce: Callable[[Any], Any] | None) -> Any:
    """One region's value, cast by ``coerce``; :class:`ContentError` if it does not read."""
    value = process_region(template.fields[region.field], region.body, region.captures)
    return coerce(value) if coerce is not None else value


def message(
    template: Template, regions: list[Region], coerce: Callable[[Any], Any] | None
) -> dict[str, Any]:
    """The message dict transformers' ``parse_response`` returns for these regions."""
    out: dict[str, Any] = copy.deepcopy(template.defaults)
    for region in regions:
        field = template.fields[region.field]
        try:
            value = value_of(template, region, coerce)
        except ContentError as exc:
            raise TemplateError(f"field {field.name!r}: {exc}") from None
        if field.join is not None:
            if not isinstance(value, str):
                raise TemplateError(f"field {field.name!r}: 'join' needs each region to read"
                                    f" as a string, not {type(value).__name__}")
            previous = out.get(field.name)
            out[field.name] = value if previous is None else previous + field.join + value
        elif field.repeats:
            out.setdefault(field.name, []).append(value)
        else:
            out[field.name] = value
    missing = [n for n, f in template.fields.items() if not f.optional and n not in out]
    if missing:
        raise TemplateError(f"required fields missing from the reply: {', '.join(missing)}")

    def empty(v: Any) -> bool:
        return v is None or (isinstance(v, (list, dict, str)) and not v)

    return {k: v for k, v in out.items() if k in template.defaults or not empty(v)}

"""A response template's content parsers and transforms: a region's text to its value.

Each field names a parser (``content``) that turns the region's text into a value, and
may name a ``transform`` that reshapes it. The parsers do what transformers' do
(specs/README.md §1b.13 states each rule), with one departure: the ``json`` parser reads
strict RFC 8259 JSON (:mod:`toolwire._values.jsontext`), so ``NaN``, ``Infinity`` and numbers
beyond the double range are not JSON here, where Python's ``json.loads`` reads them.

A parser that cannot read its text raises :class:`ContentError`, whose ``code`` says
which rule failed (a JSON fault code of §1.4.1, or ``template-content``): a call region
whose name is known from its delimiters then becomes a call with undecodable arguments.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from ..._values.jsontext import JsonFault, loads
from .call_list import CallListError, read_call_list
from .template_check import PARSERS, Field, Parser

__all__ = ["ContentError", "apply_transform", "parse_content", "process_region"]

CONTENT_CODE: Final = "template-content"
_PLACEHOLDER: Final = re.compile(r"\{(\w+(?:\.\w+)*)\}")
_OPEN_MARK, _CLOSE_MARK = "\x01", "\x02"
_BARE_KEY: Final = re.compile(r'"(?:\\.|[^"\\])*"|(?<=[{,])(\s*)(\w+)(\s*):')


class ContentError(ValueError):
    """A region's text that its field's parser or transform cannot read."""

    def __init__(self, message: str, code: str = CONTENT_CODE) -> None:
        super().__init__(message)
        self.code = code


def _trimmed(text: str, args: dict[str, Any]) -> str:
    return text.strip() if args.get("strip", True) else text


def _number(kind: type, text: str, args: dict[str, Any]) -> Any:
    try:
        return kind(_trimmed(text, args))
    except ValueError:
        raise ContentError(f"not {'an integer' if kind is int else 'a number'}:"
                           f" {text!r}") from None


def _json(text: str, args: dict[str, Any]) -> Any:
    delims = args.get("string_delims", [])
    if delims and (_OPEN_MARK in text or _CLOSE_MARK in text):
        raise ContentError("the text holds U+0001 or U+0002, which the string_delims rewrite"
                           " reserves")
    working = text
    kept: list[str] = []
    for opener, closer in delims:
        def keep(match: re.Match[str]) -> str:
            kept.append(match.group(1))
            return f"{_OPEN_MARK}{len(kept) - 1}{_CLOSE_MARK}"

        working = re.sub(re.escape(opener) + "(.*?)" + re.escape(closer), keep, working,
                         flags=re.DOTALL)
    if args.get("unquoted_keys", False):
        working = _BARE_KEY.sub(
            lambda m: m.group(0) if m.group(2) is None
            else f'{m.group(1)}"{m.group(2)}"{m.group(3)}:', working)
    for index, string in enumerate(kept):
        working = working.replace(f"{_OPEN_MARK}{index}{_CLOSE_MARK}", json.dumps(string))
    try:
        return loads(working)
    except JsonFault as fault:
        if args.get("allow_non_json", False):
            return _trimmed(text, args)
        raise ContentError(f"not JSON ({fault}): {text[:200]!r}", fault.code) from None


def _sub_value(raw: str | None, parser: Parser | None) -> Any:
    if parser is None:
        return raw
    if raw is None:
        raise ContentError("the tag_pattern's group 'value' matched nothing")
    return parse_content(raw, parser)


def _xml_inline(text: str, parser: Parser) -> dict[str, Any]:
    assert parser.tag_pattern is not None
    merge = parser.args.get("merge_duplicates", False)
    out: dict[str, Any] = {}
    merged: set[str] = set()
    for match in parser.tag_pattern.finditer(text):
        groups = match.groupdict()
        key = groups.get("key")
        if key is None:
            raise ContentError("the tag_pattern's group 'key' matched nothing")
        value = _sub_value(groups.get("value", ""), parser.value_parser)
        if key in out and merge:
            if key not in merged:
                out[key] = [out[key]]
                merged.add(key)
            out[key].append(value)
        else:
            out[key] = value
    return out


def _kv_lines(text: str, parser: Parser) -> dict[str, Any]:
    args = parser.args
    kv_sep = args.get("kv_sep", ":")
    out: dict[str, Any] = {}
    for line in text.split(args.get("line_sep", "\n")):
        line = _trimmed(line, args)
        if not line or kv_sep not in line:
            continue
        key, value = line.split(kv_sep, 1)
        out[_trimmed(key, args)] = _sub_value(_trimmed(value, args), parser.value_parser)
    return out


def parse_content(text: str, parser: Parser) -> Any:
    """``text`` read by ``parser`` (one of :data:`PARSERS`)."""
    name, args = parser.name, parser.args
    if name == "text":
        return _trimmed(text, args)
    if name == "int":
        return _number(int, text, args)
    if name == "float":
        return _number(float, text, args)
    if name == "bool":
        return _trimmed(text, args).lower() in ("true", "1")
    if name == "json":
        return _json(text, args)
    if name == "xml-inline":
        return _xml_inline(text, parser)
    if name == "kv-lines":
        return _kv_lines(text, parser)
    assert name == "python-call-list" and name in PARSERS
    try:
        return read_call_list(text)
    except CallListError as exc:
        raise ContentError(str(exc), "not-a-literal") from None


def apply_transform(transform: Any, scope: dict[str, Any]) -> Any:
    """``transform`` with every whole-string ``{name.key…}`` replaced from ``scope``.

    A placeholder's value is the scope's object itself, not a copy (as in transformers).
    """
    if isinstance(transform, dict):
        return {key: apply_transform(value, scope) for key, value in transform.items()}
    if isinstance(transform, list):
        return [apply_transform(value, scope) for value in transform]
    if not isinstance(transform, str):
        return transform
    whole = _PLACEHOLDER.fullmatch(transform)
    if whole is None:
        return transform
    root, *keys = whole.group(1).split(".")
    if root not in scope:
        raise ContentError(f"transform placeholder {transform!r}: {root!r} is not defined"
                           f" (defined: {', '.join(sorted(scope)) or 'nothing'})")
    value = scope[root]
    for key in keys:
        if not isinstance(value, dict):
            raise ContentError(f"transform placeholder {transform!r} cannot index into"
                               f" {type(value).__name__} at {key!r}")
        if key not in value:
            raise ContentError(f"transform placeholder {transform!r}: no key {key!r}"
                               f" (keys: {', '.join(sorted(map(str, value))) or 'none'})")
        value = value[key]
    return value


def process_region(field: Field, body: str, captures: dict[str, str]) -> Any:
    """One region's value: its body parsed, then transformed (per element with
    ``transform_each``) with the delimiters' named captures in scope."""
    value = parse_content(body, field.parser)
    if field.transform is None:
        return value
    if not field.transform_each:
        return apply_transform(field.transform, {**captures, "content": value})
    if not isinstance(value, list):
        raise ContentError(f"field {field.name!r}: transform_each needs a list, not"
                           f" {type(value).__name__}")
    out = []
    for item in value:
        if not isinstance(item, dict):
            raise ContentError(f"field {field.name!r}: transform_each needs a list of"
                               f" objects, not of {type(item).__name__}")
        out.append(apply_transform(field.transform, {**captures, **item}))
    return out

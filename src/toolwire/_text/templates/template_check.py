"""Loading a Hugging Face response template: checked once, every problem named by its key.

A *response template* is the declarative format transformers' ``parse_response`` reads
(``tokenizer.response_template``, saved as a key of ``tokenizer_config.json``): named
``fields``, each a region of the model's text between an ``open`` and a ``close``
delimiter (literals, or regular expressions in ``open_pattern`` / ``close_pattern``), with a
``content`` parser and an optional ``transform`` that reshapes the parsed value.

This module turns one into a :class:`Template`: regular expressions checked by
:mod:`re` and compiled for toolwire's bounded regex engine (``DOTALL``: model text is searched
with a bound on the time), literal delimiters made alternations, content arguments checked
per parser, transforms checked for mixed placeholders. Everything transformers refuses
is refused here too, and so is everything toolwire cannot run the same way (a pattern
only the third-party ``regex`` module reads, an unknown content argument): a
:class:`~toolwire.errors.SpecError` whose problems carry the template's JSON pointer
(``/fields/tool_calls/open_pattern``) and a rule code (specs/README.md §1b.13). Nothing
loads that would later run differently from transformers without saying so.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ..._boundedre import BoundedPattern, Unsupported
from ..._boundedre import compile as compile_bounded
from ...errors import SpecError, SpecProblem
from .template_source import read_template_source

__all__ = ["PARSERS", "Field", "Template", "load_template"]

PARSERS: Final = ("text", "int", "float", "bool", "json", "xml-inline", "kv-lines",
                  "python-call-list")
"""The content parsers transformers defines, all of which toolwire runs."""

_TOP_KEYS: Final = frozenset({"version", "defaults", "fields", "start_anchor",
                              "start_anchor_pattern"})
_FIELD_KEYS: Final = frozenset({"open", "open_pattern", "close", "close_pattern", "content",
                                "content_args", "repeats", "join", "optional", "transform",
                                "transform_each"})
_ARGS: Final[dict[str, frozenset[str]]] = {
    "text": frozenset({"strip"}),
    "int": frozenset({"strip"}),
    "float": frozenset({"strip"}),
    "bool": frozenset({"strip"}),
    "json": frozenset({"strip", "unquoted_keys", "string_delims", "allow_non_json"}),
    "xml-inline": frozenset({"tag_pattern", "value_parser", "merge_duplicates"}),
    "kv-lines": frozenset({"strip", "line_sep", "kv_sep", "value_parser"}),
    "python-call-list": frozenset(),
}
_PLACEHOLDER: Final = re.compile(r"\{(\w+(?:\.\w+)*)\}")

Pattern = re.Pattern[str] | BoundedPattern
"""A compiled delimiter: literals by :mod:`re`, a template's regular expression bounded."""


@dataclass(frozen=True, slots=True)
class Parser:
    """A content parser with its checked arguments (``value_parser`` compiled too)."""

    name: str
    args: dict[str, Any]
    tag_pattern: Pattern | None = None
    value_parser: Parser | None = None


@dataclass(frozen=True, slots=True)
class Field:
    """One region of the template, compiled."""

    name: str
    open: Pattern | None
    close: Pattern | None
    parser: Parser
    repeats: bool
    join: str | None
    optional: bool
    transform: Any
    transform_each: bool
    groups: frozenset[str]


@dataclass(frozen=True, slots=True)
class Template:
    """A checked response template: ``fields`` in template order, the implicit one named."""

    source: str
    defaults: dict[str, Any]
    fields: dict[str, Field]
    implicit: str | None
    start_anchor: Pattern
    data: dict[str, Any]


class _Problems:
    def __init__(self, source: str) -> None:
        self.source = source
        self.found: list[SpecProblem] = []

    def add(self, pointer: str, message: str, rule: str) -> None:
        self.found.append(SpecProblem(self.source, 0, 0, pointer, message, rule))

    def raise_any(self) -> None:
        if self.found:
            raise SpecError(self.found)


def load_template(source: str | Path | dict[str, Any]) -> Template:
    """Read and check a response template; :class:`SpecError` lists every problem."""
    data, shown = read_template_source(source)
    problems = _Problems(shown)
    unknown = sorted(set(data) - _TOP_KEYS, key=str)
    for key in unknown:
        problems.add(f"/{key}", f"unknown key {key!r} (a response template has"
                     f" {', '.join(sorted(_TOP_KEYS))})", "template-key")
    version = data.get("version", 1)
    if version != 1 or isinstance(version, bool):
        problems.add("/version", f"unsupported version {version!r} (only 1 exists)",
                     "template-value")
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        problems.add("/defaults", "must be an object", "template-value")
        defaults = {}
    raw_fields = data.get("fields")
    if not isinstance(raw_fields, dict) or not raw_fields:
        problems.add("/fields", "must be a non-empty object of fields", "template-value")
        raw_fields = {}
    fields: dict[str, Field] = {}
    for name, raw in raw_fields.items():
        field = _field(str(name), raw, problems)
        if field is not None:
            fields[field.name] = field
    implicit = [name for name, f in fields.items() if f.open is None]
    if len(implicit) > 1:
        problems.add("/fields", "at most one field may have no 'open'/'open_pattern' (the"
                     f" implicit field); found {', '.join(implicit)}", "template-implicit")
    anchor, _ = _delimiter("", data, "start_anchor", "start_anchor_pattern", problems)
    if anchor is None and not {"start_anchor", "start_anchor_pattern"} & set(data):
        problems.add("/start_anchor", "a template needs 'start_anchor' or"
                     " 'start_anchor_pattern' (where the assistant turn begins in a prompt)",
                     "template-value")
    problems.raise_any()
    assert anchor is not None
    return Template(shown, defaults, fields, implicit[0] if implicit else None, anchor, data)


def _field(name: str, raw: Any, problems: _Problems) -> Field | None:
    at = f"/fields/{_escape(name)}"
    if not isinstance(raw, dict):
        problems.add(at, "a field must be an object", "template-value")
        return None
    before = len(problems.found)
    for key in sorted(set(raw) - _FIELD_KEYS, key=str):
        problems.add(f"{at}/{key}", f"unknown field key {key!r}", "template-key")
    content = raw.get("content", "text")
    parser = _parser(content, raw.get("content_args", {}), f"{at}/content",
                     f"{at}/content_args", problems)
    opener, open_groups = _delimiter(at, raw, "open", "open_pattern", problems)
    closer, close_groups = _delimiter(at, raw, "close", "close_pattern", problems)
    flags = {key: raw.get(key, default) for key, default in
             (("repeats", False), ("optional", True), ("transform_each", False))}
    for key, value in flags.items():
        if not isinstance(value, bool):
            problems.add(f"{at}/{key}", f"must be true or false, not {value!r}",
                         "template-value")
    join = raw.get("join")
    if join is not None and not isinstance(join, str):
        problems.add(f"{at}/join", f"must be a string, not {type(join).__name__}",
                     "template-value")
    elif join is not None and flags["repeats"] is not True:
        problems.add(f"{at}/join", "'join' requires 'repeats': true", "template-value")
    transform = raw.get("transform")
    groups = open_groups | close_groups
    if flags["transform_each"] is True and transform is None:
        problems.add(f"{at}/transform_each", "set, but the field has no 'transform'",
                     "template-value")
    if transform is not None:
        _check_transform(transform, f"{at}/transform", problems)
    elif groups:
        problems.add(at, f"the delimiters capture named groups {sorted(groups)} but the field"
                     " has no 'transform' to use them", "template-value")
    if len(problems.found) > before or parser is None:
        return None
    return Field(name, opener, closer, parser, flags["repeats"], join, flags["optional"],
                 transform, flags["transform_each"], frozenset(groups))


def _parser(name: Any, args: Any, at: str, args_at: str, problems: _Problems) -> Parser | None:
    if name not in PARSERS:
        problems.add(at, f"unknown content parser {name!r} (known: {', '.join(PARSERS)})",
                     "template-parser")
        return None
    if not isinstance(args, dict):
        problems.add(args_at, "must be an object", "template-value")
        return None
    before = len(problems.found)
    for key in sorted(set(args) - _ARGS[name], key=str):
        known = ", ".join(sorted(_ARGS[name])) or "none"
        problems.add(f"{args_at}/{key}", f"the {name} parser has no argument {key!r} (its"
                     f" arguments: {known})", "template-parser")
    for key in ("strip", "unquoted_keys", "allow_non_json", "merge_duplicates"):
        if key in args and not isinstance(args[key], bool):
            problems.add(f"{args_at}/{key}", "must be true or false", "template-value")
    for key in ("line_sep", "kv_sep"):
        if key in args and (not isinstance(args[key], str) or not args[key]):
            problems.add(f"{args_at}/{key}", "must be a non-empty string", "template-value")
    delims = args.get("string_delims", [])
    if not isinstance(delims, list) or not all(
        isinstance(d, list) and len(d) == 2 and all(isinstance(s, str) and s for s in d)
        for d in delims
    ):
        problems.add(f"{args_at}/string_delims", "must be a list of [open, close] pairs of"
                     " non-empty strings", "template-value")
    tag_pattern = None
    if name == "xml-inline":
        if "tag_pattern" not in args:
            problems.add(f"{args_at}/tag_pattern", "the xml-inline parser needs a"
                         " 'tag_pattern' with named groups 'key' and 'value'", "template-value")
        else:
            tag_pattern = _regex(args["tag_pattern"], f"{args_at}/tag_pattern", problems)
            if tag_pattern is not None and "key" not in tag_pattern.groupindex:
                problems.add(f"{args_at}/tag_pattern", "must have a named group 'key'",
                             "template-value")
    value_parser = None
    if "value_parser" in args:
        inner = args["value_parser"]
        inner_at = f"{args_at}/value_parser"
        if not isinstance(inner, dict):
            problems.add(inner_at, "must be an object {name, args}", "template-value")
        else:
            for key in sorted(set(inner) - {"name", "args"}, key=str):
                problems.add(f"{inner_at}/{key}", f"unknown key {key!r} (a value parser has"
                             " name and args)", "template-key")
            value_parser = _parser(inner.get("name", "text"), inner.get("args", {}),
                                   f"{inner_at}/name", f"{inner_at}/args", problems)
    if len(problems.found) > before:
        return None
    return Parser(name, dict(args), tag_pattern, value_parser)


def _delimiter(
    at: str, raw: dict[str, Any], literal_key: str, pattern_key: str, problems: _Problems
) -> tuple[Pattern | None, frozenset[str]]:
    """A delimiter as one compiled pattern (literals as an alternation, longest first: a
    search for fixed strings, run by :mod:`re`, cannot backtrack past them)."""
    if literal_key in raw and pattern_key in raw:
        problems.add(f"{at}/{pattern_key}", f"give '{literal_key}' or '{pattern_key}', not"
                     " both", "template-value")
        return None, frozenset()
    if literal_key in raw:
        value = raw[literal_key]
        literals = [value] if isinstance(value, str) else value
        if (not isinstance(literals, list) or not literals
                or not all(isinstance(s, str) and s for s in literals)):
            problems.add(f"{at}/{literal_key}", "must be a non-empty string or a non-empty"
                         " list of non-empty strings", "template-value")
            return None, frozenset()
        ordered = sorted(dict.fromkeys(literals), key=len, reverse=True)
        return re.compile("|".join(map(re.escape, ordered)), re.DOTALL), frozenset()
    if pattern_key in raw:
        compiled = _regex(raw[pattern_key], f"{at}/{pattern_key}", problems)
        if compiled is None:
            return None, frozenset()
        return compiled, frozenset(compiled.groupindex)
    return None, frozenset()


def _regex(pattern: Any, at: str, problems: _Problems) -> Pattern | None:
    """``pattern`` compiled as transformers does (``DOTALL``), or a problem naming why not.

    transformers compiles with the third-party ``regex`` module; toolwire with :mod:`re`.
    A pattern :mod:`re` refuses (``\\p{L}``, variable-width look-behind, ``(?|…)``) or
    would read differently (a POSIX class ``[[:alpha:]]``, which :mod:`re` takes as a set
    and warns about) is refused rather than run another way.
    """
    if not isinstance(pattern, str):
        problems.add(at, f"must be a string (a regular expression), not"
                     f" {type(pattern).__name__}", "template-value")
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            re.compile(pattern, re.DOTALL)
        except (re.error, FutureWarning, DeprecationWarning) as exc:
            problems.add(at, f"regular expression {pattern!r} uses a construct toolwire does"
                         f" not run (Python re: {exc}); write it in the syntax both Python's re"
                         " and the regex module read", "template-regex")
            return None
    try:  # the model's text is searched with a bound on the time (toolwire._boundedre)
        return compile_bounded(pattern, re.DOTALL)
    except Unsupported as exc:
        problems.add(at, f"regular expression {pattern!r} cannot be run with a bound on its"
                     f" time ({exc})", "template-regex")
        return None


def _check_transform(transform: Any, at: str, problems: _Problems) -> None:
    if isinstance(transform, dict):
        for key, value in transform.items():
            _check_transform(value, f"{at}/{_escape(str(key))}", problems)
    elif isinstance(transform, list):
        for index, value in enumerate(transform):
            _check_transform(value, f"{at}/{index}", problems)
    elif (isinstance(transform, str) and _PLACEHOLDER.search(transform)
          and not _PLACEHOLDER.fullmatch(transform)):
        problems.add(at, f"{transform!r} mixes a {{placeholder}} with other text; a"
                     " placeholder must be the whole string (no string interpolation)",
                     "template-transform")


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")

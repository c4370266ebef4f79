"""A strict YAML reader for specs: plain data, every value located to line and column.

Specs are reviewed by people and read by other languages, so the YAML they may use is
the small part that means the same everywhere. This reader builds values straight from
PyYAML's event stream and refuses, with ``file:line:col``:

* duplicate keys (PyYAML keeps the last one silently);
* anchors, aliases and explicit tags (alias bombs never expand: aliases are refused
  as events, before anything is built);
* unquoted YAML 1.1 booleans (``yes``, ``no``, ``on``, ``off``, ``y``, ``n``) and
  dates, which different YAML libraries read differently;
* non-string keys, several documents in one file, and nesting deeper than
  :data:`MAX_DEPTH`.

Plain scalars resolve as in YAML 1.2's core schema: ``null``/``~``/empty, ``true`` /
``false``, integers, floats; everything else is a string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

import yaml

from ..errors import SpecError, SpecProblem
from .yaml_messages import LastKey, QuotedValue, syntax_message

__all__ = ["MAX_DEPTH", "Document", "escape_pointer", "load"]

MAX_DEPTH: Final = 64

_NULL = re.compile(r"^(?:null|Null|NULL|~|)$")
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_YAML11_BOOL = re.compile(r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$")
_DATE = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}(?:[Tt ].*)?$")
_SEXAGESIMAL = re.compile(r"^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$")


def escape_pointer(token: str | int) -> str:
    """One JSON-pointer reference token (RFC 6901 escaping)."""
    return str(token).replace("~", "~0").replace("/", "~1")


@dataclass
class Document:
    """A loaded spec file: its data, and where each value and key stands in the text.

    ``values`` and ``keys`` map a JSON pointer to a 1-based ``(line, col)``; ``keys``
    holds the place of the mapping key whose value the pointer names, which is where
    an error about that key (a typo, a duplicate) should point.
    """

    path: str
    data: Any
    values: dict[str, tuple[int, int]] = field(default_factory=dict)
    keys: dict[str, tuple[int, int]] = field(default_factory=dict)

    def where(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        """The place of ``pointer`` (its key when ``key``), else of its nearest ancestor."""
        table = self.keys if key else self.values
        probe = pointer
        while True:
            if probe in table:
                return table[probe]
            if probe in self.values:
                return self.values[probe]
            if not probe:
                return (1, 1)
            probe = probe.rsplit("/", 1)[0]

    def problem(self, pointer: str, message: str, rule: str, *, key: bool = False) -> SpecProblem:
        """A :class:`SpecProblem` located at ``pointer`` in this document."""
        line, col = self.where(pointer, key=key)
        return SpecProblem(self.path, line, col, pointer, message, rule)


def _mark(event: yaml.Event) -> tuple[int, int]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)


def _scalar(event: yaml.ScalarEvent) -> tuple[Any, str | None]:
    """The value of a scalar event, or a refusal message."""
    text = event.value
    if event.style is not None or not event.implicit[0]:
        return text, None
    if _NULL.match(text):
        return None, None
    if _BOOL.match(text):
        return text.lower() == "true", None
    if _INT.match(text):
        return int(text), None
    if _FLOAT.match(text) and any(c.isdigit() for c in text):
        return float(text), None
    if _YAML11_BOOL.match(text):
        meant = "true" if text.lower() in {"y", "yes", "on"} else "false"
        return None, (f"unquoted {text!r} is a boolean in YAML 1.1 and a string in 1.2: write"
                      f" {meant} for the boolean, or quote it for the text {text!r}")
    if _DATE.match(text):
        return None, f"unquoted {text!r} reads as a date in some YAML libraries; quote it"
    if _SEXAGESIMAL.match(text):
        return None, f"unquoted {text!r} reads as a base-60 number in YAML 1.1; quote it"
    if text.lower() in {".nan", ".inf", "-.inf", "+.inf"}:
        return None, f"unquoted {text!r} is not JSON data; quote it"
    return text, None


class _Builder:
    """Builds plain data from events with an explicit stack, recording positions."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.problems: list[SpecProblem] = []
        # Each frame: [container, pointer, pending_key, pending_key_mark]
        self.stack: list[list[Any]] = []
        self.root: Any = None
        self.documents = 0
        self.last_key: tuple[str, int, int] | None = None  # for syntax errors' messages

    def fail(self, where: tuple[int, int], pointer: str, message: str, rule: str) -> None:
        self.problems.append(SpecProblem(self.doc.path, where[0], where[1], pointer, message, rule))

    def _child_pointer(self) -> str | None:
        """The pointer the next value gets, or None when it is a mapping key."""
        if not self.stack:
            return ""
        container, pointer, pending_key, _ = self.stack[-1]
        if isinstance(container, list):
            return f"{pointer}/{len(container)}"
        if pending_key is None:
            return None
        return f"{pointer}/{escape_pointer(pending_key)}"

    def _attach(self, value: Any, where: tuple[int, int]) -> None:
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        container, _pointer, pending_key, _key_mark = frame
        if isinstance(container, list):
            container.append(value)
            return
        if pending_key is _DUPLICATE:
            frame[2] = None
            return
        container[pending_key] = value
        frame[2] = None

    def scalar(self, event: yaml.ScalarEvent) -> None:
        where = _mark(event)
        pointer = self._child_pointer()
        if pointer is None:
            self._key(event, where)
            return
        value, refusal = _scalar(event)
        if refusal:
            self.fail(where, pointer, refusal, "yaml-ambiguous-scalar")
        self.doc.values[pointer] = where
        self._attach(value, where)

    def _key(self, event: yaml.ScalarEvent, where: tuple[int, int]) -> None:
        frame = self.stack[-1]
        container, pointer = frame[0], frame[1]
        value, refusal = _scalar(event)
        if refusal or not isinstance(value, str):
            message = f"mapping key {event.value!r} must be a string; quote it"
            self.fail(where, pointer, message, "yaml-key")
            value = event.value
        key_pointer = f"{pointer}/{escape_pointer(value)}"
        if value in container:
            first = self.doc.keys.get(key_pointer, (0, 0))
            self.fail(
                where,
                key_pointer,
                f"duplicate key {value!r} (first at line {first[0]})",
                "yaml-duplicate-key",
            )
            frame[2] = _DUPLICATE
            return
        self.doc.keys[key_pointer] = where
        self.last_key = (key_pointer, *where)
        frame[2] = value
        frame[3] = where

    def start(self, event: yaml.CollectionStartEvent, container: Any) -> None:
        where = _mark(event)
        pointer = self._child_pointer()
        if pointer is None:
            self.fail(where, self.stack[-1][1], "mapping keys must be plain strings", "yaml-key")
            pointer = f"{self.stack[-1][1]}/?"
            self.stack[-1][2] = _DUPLICATE
        if len(self.stack) >= MAX_DEPTH:
            self.fail(where, pointer, f"nesting deeper than {MAX_DEPTH} levels", "yaml-too-deep")
            raise _Abort
        self.doc.values[pointer] = where
        self._attach(container, where)
        self.stack.append([container, pointer, None, None])

    def end(self) -> None:
        self.stack.pop()


class _Abort(Exception):
    """Stops the event walk after a problem that makes the rest meaningless."""


_DUPLICATE: Final = object()


def load(text: str, path: str = "<spec>") -> Document:
    """Read ``text`` as strict YAML; raise :class:`SpecError` with every problem found."""
    doc = Document(path=path, data=None)
    builder = _Builder(doc)
    scalar: yaml.ScalarEvent | None = None  # the last one read, for syntax errors' messages
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            _check_decorations(event, builder)
            if isinstance(event, yaml.ScalarEvent):
                scalar = event
                builder.scalar(event)
            elif isinstance(event, yaml.MappingStartEvent):
                builder.start(event, {})
            elif isinstance(event, yaml.SequenceStartEvent):
                builder.start(event, [])
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                builder.end()
            elif isinstance(event, yaml.AliasEvent):
                pointer = builder._child_pointer() or ""
                builder.fail(_mark(event), pointer, "aliases are not allowed", "yaml-alias")
                raise _Abort
            elif isinstance(event, yaml.DocumentStartEvent):
                builder.documents += 1
                if builder.documents > 1:
                    builder.fail(
                        _mark(event), "", "a spec file holds one YAML document", "yaml-documents"
                    )
                    raise _Abort
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)

        last = LastKey(*builder.last_key) if builder.last_key is not None else None
        quoted = None
        if scalar is not None and scalar.style in ('"', "'"):
            start, end = scalar.start_mark, scalar.end_mark
            if start is not None and end is not None:
                quoted = QuotedValue(start.line + 1, start.column + 1, end.line + 1)
        message = syntax_message(exc, last, quoted)
        builder.problems.append(SpecProblem(path, line, col, "", message, "yaml-syntax"))
    except yaml.YAMLError as exc:
        builder.problems.append(SpecProblem(path, 0, 0, "", str(exc), "yaml-syntax"))
    except _Abort:
        pass
    if builder.problems:
        raise SpecError(builder.problems)
    doc.data = builder.root
    return doc


def _check_decorations(event: yaml.Event, builder: _Builder) -> None:
    anchor = getattr(event, "anchor", None)
    if anchor and not isinstance(event, yaml.AliasEvent):
        pointer = builder._child_pointer() or ""
        builder.fail(_mark(event), pointer, f"anchor &{anchor} is not allowed", "yaml-anchor")
    tag = getattr(event, "tag", None)
    implicit = getattr(event, "implicit", True)
    explicit = tag is not None and (implicit is False or implicit == (False, False))
    if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
        explicit = tag is not None and not event.implicit
    if explicit:
        pointer = builder._child_pointer() or ""
        builder.fail(_mark(event), pointer, f"tag {tag} is not allowed", "yaml-tag")

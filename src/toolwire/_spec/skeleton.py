"""``toolwire specs new``: a commented spec skeleton that validates as written.

Adding a provider starts from a file that already loads, so the author edits toward a
working spec instead of away from a schema error. A skeleton with ``--extends`` names its
base, lists in comments what it inherits (the reviewer's view of the base), and shows the
keys a dialect usually changes, commented out; without a base it is a minimal complete spec
to fill in. Either way every line that is not a comment is valid as it stands: the
skeleton loads at once. The fields the author must still fill in hold ``TODO``, which
``specs check`` refuses (:func:`todo_problems`, rule ``todo-left``) so no skeleton is shared
half-written.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Final

from .._paths import bundled_specs_dir
from ..errors import SpecProblem
from .entries import CallEntry
from .strict_yaml import Document, escape_pointer
from .wirespec import WireSpec

__all__ = [
    "FORMAT_PATTERN", "SCHEMA_NAME", "TODO", "ensure_schema_copy", "render_skeleton",
    "schema_reference", "todo_problems",
]

FORMAT_PATTERN: Final = r"^[a-z][a-z0-9_]*$"


SCHEMA_NAME: Final = "wire-spec.v1.schema.json"

TODO: Final = re.compile(r"\bTODO\b")
"""The marker of a skeleton field still to fill in: the word ``TODO`` in a string value."""


def todo_problems(doc: Document) -> list[SpecProblem]:
    """Every string value of ``doc`` still holding ``TODO`` (``todo-left``, at the value).

    The skeleton loads as written so an author can try it at once; ``specs check``, the
    gate before a spec is shared, refuses it until each marked field is filled in.
    Comments are not values: the skeleton's commented-out suggestions never count.
    """
    found: list[SpecProblem] = []

    def walk(value: Any, pointer: str) -> None:
        if isinstance(value, str) and TODO.search(value):
            key = pointer.rsplit("/", 1)[-1] or "the document"
            found.append(doc.problem(pointer, f"{key} is still the skeleton's placeholder"
                                     f" {value!r}: fill it in", "todo-left"))
        elif isinstance(value, dict):
            for name, item in value.items():
                walk(item, f"{pointer}/{escape_pointer(name)}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{pointer}/{index}")

    walk(doc.data, "")
    return found


def schema_reference(folder: Path) -> str:
    """The meta-schema as the editor line of a spec in ``folder`` names it: a path relative
    to ``folder``, so the line still works once the spec is committed and shared.

    It is the nearest copy at or above ``folder`` — ``<dir>/schema/``, ``<dir>/specs/schema/``
    or ``<dir>/`` itself, as ``toolwire specs schema --out`` writes it, or the bundled specs'
    own when ``folder`` is inside them (``../schema/...`` from ``specs/wire``). None found:
    :func:`ensure_schema_copy` puts one beside the spec and the line names it.
    """
    target = folder.resolve()
    for place in (target, *target.parents):
        for candidate in (place / "schema" / SCHEMA_NAME, place / "specs" / "schema" / SCHEMA_NAME,
                          place / SCHEMA_NAME):
            if candidate.is_file():
                return Path(os.path.relpath(candidate, target)).as_posix()
    root = bundled_specs_dir().resolve()
    if target == root or root in target.parents:
        return Path(os.path.relpath(root / "schema" / SCHEMA_NAME, target)).as_posix()
    return SCHEMA_NAME


def ensure_schema_copy(folder: Path) -> Path | None:
    """Write the wire meta-schema into ``folder`` when no copy is reachable from it (see
    :func:`schema_reference`); the path written, or None when one was there already."""
    if schema_reference(folder) != SCHEMA_NAME or (folder / SCHEMA_NAME).is_file():
        return None
    source = bundled_specs_dir() / "schema" / SCHEMA_NAME
    copy = folder / SCHEMA_NAME
    copy.write_bytes(source.read_bytes())
    return copy


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is a subset of YAML's)."""
    return json.dumps(text, ensure_ascii=False)


def _inherited(base: WireSpec) -> list[str]:
    lines = [f"# Not written below, so {base.format}'s (`toolwire specs table` shows it all):"]
    for kind in ("calls", "server_side", "ignore", "refuse"):
        entries = [e for e in base.entries if e.kind == kind]
        shown = ", ".join(e.type + (" (when ...)" if e.when is not None else "") for e in entries)
        lines.append(f"#   {kind + ':':13}{shown or '-'}")
    truncated = base.truncated.source if base.truncated is not None else "never"
    lines.append(f"#   {'truncated:':13}{truncated}")
    lines.append(f"#   {'unknown:':13}{base.unknown_items}")
    return lines


def _example_call(base: WireSpec) -> list[str]:
    call = next((e for e in base.entries if isinstance(e, CallEntry)), None)
    if call is None:
        return []
    lines = [
        "# A call entry replaces the base's entry of the same type and when (here: its",
        f"# {call.type!r} entry); an entry of a new type is added:",
        "# calls:",
        f"#   - type: {call.type}",
    ]
    if call.when is not None:
        lines.append(f"#     when: {_q(call.when.source)}")
    lines += [
        f"#     name: {_q(call.name.source)}",
        f"#     arguments: {_q(call.arguments.source)}",
    ]
    if call.id is not None:
        lines.append(f"#     id: {_q(call.id.source)}")
    return lines


def _derived(name: str, base: WireSpec, schema: str) -> list[str]:
    truncated = base.truncated.source if base.truncated is not None else "`false`"
    lines = [
        f"# yaml-language-server: $schema={schema}",
        "#",
        f"# {name}: a dialect of {base.title} ({base.format}). Say here which provider and",
        "# endpoint answer in this shape, and for every difference below, where it comes from",
        "# (API reference page, SDK type file). Differences that do not change how tool calls",
        "# are read (reasoning fields, extra finish reasons) still get a comment here.",
        "#",
        *_inherited(base),
        "#",
        "# Keys given here replace the base's; list entries replace the base's entry of the same",
        "# type and when, other entries are added; `remove` drops base entries; `items` replaces",
        "# all sources. Without its own `sniff` this format sniffs as its base's (specs/README.md",
        "# section 1.6).",
        "spec_version: 1",
        f"format: {name}",
        f"extends: {base.format}",
        f"title: {_q(f'{name} (TODO: provider and API)')}",
        f"doc_ref: {_q('TODO: the URL of the API reference this spec was read from')}",
        "",
        "# When the provider has another word for \"cut at the token limit\":",
        f"# truncated: {_q(truncated)}",
        "",
        *_example_call(base),
        "",
        "# A base entry that must not apply to this provider (each with a note saying why):",
        "# remove:",
        "#   - {list: refuse, type: some_type, note: \"why it does not apply\"}",
        "",
    ]
    return lines


def _standalone(name: str, schema: str) -> list[str]:
    return [
        f"# yaml-language-server: $schema={schema}",
        "#",
        f"# {name}: say here which provider and endpoint this is, and where the mapping comes",
        "# from (API reference pages, SDK type files), one line per source. Comment every",
        "# mapping that is not obvious. specs/README.md is the reference for every key.",
        "spec_version: 1",
        f"format: {name}",
        f"title: {_q(f'{name} (TODO: provider and API)')}",
        f"doc_ref: {_q('TODO: the URL of the API reference this spec was read from')}",
        "",
        "# How sniff_format recognises a reply: a predicate on its top-level shape that no other",
        "# format's reply satisfies (`toolwire specs check` names any bundled or own case of",
        "# another format it holds on: sniff-overlap).",
        "# sniff: {when: \"type(TODO) == 'array'\", priority: 10}",
        "",
        "# What every reply looks like, and the provider's error body (specs/README.md 1.11-1.12):",
        "# a body without the shape is refused, an error body is a ProviderError, never 0 calls.",
        "# shape: {when: \"type(tool_calls) == 'array'\", needs: \"`tool_calls` list\"}",
        "# error: {when: \"type(error) == 'object'\", message: \"error.message\"}",
        "",
        "items:",
        "  - select: \"tool_calls\"  # TODO: where the reply's items are",
        "    type_field: type",
        "",
        "# truncated: \"finish_reason == 'length'\"",
        "# finish_reason: \"finish_reason\"",
        "",
        "# refuse: an unknown item type fails closed (right where new client actions appear);",
        "# report: it is listed in Reply.unknown_types.",
        "unknown_items: refuse",
        "",
        "calls:",
        "  - type: function",
        "    name: \"name\"",
        "    arguments: \"arguments\"",
        "    id: \"id\"",
        "",
        "# server_side: [{type: ...}]   tools the provider ran itself",
        "# ignore: [{type: ...}]        items that are not calls (text, reasoning...)",
        "# refuse: [{type: ..., reason: \"what the client must do instead\"}]",
        "",
    ]


def render_skeleton(name: str, base: WireSpec | None, folder: Path) -> str:
    """The skeleton of format ``name`` (extending ``base`` if given) for a file in ``folder``."""
    schema = schema_reference(folder)
    lines = _derived(name, base, schema) if base is not None else _standalone(name, schema)
    return "\n".join(lines)

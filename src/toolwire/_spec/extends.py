"""``extends:``: a spec that starts from another and states only the difference.

A dialect of a format (DeepSeek's or vLLM's take on Chat Completions) differs from its
base in a line or two; written out in full it would bury those lines in a copy of the
base that drifts. A derived spec names its base and gives only what differs, and a
review reads only the difference. The resolution (``specs/README.md`` §1.6):

* ``spec_version``, ``format``, ``title``, ``doc_ref``, ``description``, ``sniff`` and
  ``x-`` keys are the spec's own and never inherited: a dialect that shares its base's
  shape has no ``sniff`` and sniffs as the base.
* ``items``, ``truncated``, ``finish_reason`` and ``unknown_items`` given here replace
  the base's wholesale; absent, the base's apply.
* The four lists merge by ``(type, when)``: an entry with the same type and ``when``
  (character for character) as a base entry replaces it — in place when both are in one
  list, moved to the end of the derived entry's list otherwise — and every other entry is
  appended. ``remove: [{list, type, when}]`` drops a base entry first.
* The merged result is checked like any spec. Its problems point at the file a value came
  from: :class:`MergedDocument` maps each merged JSON pointer back to the file and pointer
  it was copied from, so a clash between a derived entry and a base entry names both
  places.

Rules added here: ``extends-unknown`` (no spec of that name), ``extends-cycle`` (a spec
that, through its bases, extends itself) and ``extends-remove`` (a removal that matches no
base entry, or ``remove`` without ``extends``).

Where bases are found: among the specs loaded together (a folder of them; for a single
file, its sibling ``<base>.yaml`` files), then in the layers loaded before (the bundled
specs, then each earlier folder of ``Registry.from_paths``). A spec that extends its own
format name extends the spec of that name in an earlier layer: a user's patch of a bundled
format.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from .._paths import bundled_specs_dir
from ..errors import SpecError, SpecProblem
from .document import check_wire_document, read_document
from .stream_part import merge_stream
from .strict_yaml import Document, escape_pointer

__all__ = [
    "OWN_KEYS",
    "MergedDocument",
    "Resolution",
    "compiled_data",
    "merge",
    "resolve_file",
    "resolve_layer",
]

LISTS: Final = ("calls", "server_side", "ignore", "refuse")
"""The four entry lists, in the order the merged spec carries them."""

OWN_KEYS: Final = frozenset(
    {"spec_version", "format", "title", "doc_ref", "description", "sniff", "extends", "remove"}
)
"""Keys a derived spec never takes from its base (``x-`` keys neither)."""


def _own(key: str) -> bool:
    return key in OWN_KEYS or key.startswith("x-")


@dataclass
class MergedDocument(Document):
    """A derived spec merged onto its base, with where each merged value came from.

    ``origin`` maps a JSON pointer of the merged data to the document and pointer the
    value was copied from; a pointer absent from it takes its nearest ancestor's origin.
    A problem located here is located in the file of the original value.
    """

    origin: dict[str, tuple[Document, str]] = field(default_factory=dict)
    extends: str = ""

    def locate(self, pointer: str) -> tuple[Document, str]:
        """The original (plain) document and pointer of a merged pointer."""
        probe = pointer
        while probe not in self.origin:
            if not probe:
                return Document(self.path, None), pointer
            probe = probe.rsplit("/", 1)[0]
        source, prefix = self.origin[probe]
        target = prefix + pointer[len(probe) :]
        if isinstance(source, MergedDocument):
            return source.locate(target)
        return source, target

    def where(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        source, target = self.locate(pointer)
        return source.where(target, key=key)

    def problem(self, pointer: str, message: str, rule: str, *, key: bool = False) -> SpecProblem:
        source, target = self.locate(pointer)
        if source.path != self.path:
            message = f"{message} (in {Path(self.path).name}, which extends this spec)"
        return source.problem(target, message, rule, key=key)


def compiled_data(doc: Document) -> Mapping[str, Any]:
    """The data to compile: a merged spec's, with its ``extends`` kept for tools."""
    data: dict[str, Any] = doc.data
    if isinstance(doc, MergedDocument):
        return {**data, "extends": doc.extends}
    return data


@dataclass
class _Slot:
    entry: Any
    doc: Document
    pointer: str
    inherited: bool


def _key(entry: Any) -> tuple[str, Any] | None:
    if isinstance(entry, dict) and isinstance(entry.get("type"), str):
        return entry["type"], entry.get("when")
    return None


def _find(slots: list[_Slot], key: tuple[str, Any]) -> int | None:
    for index, slot in enumerate(slots):
        if slot.inherited and _key(slot.entry) == key:
            return index
    return None


def merge(base: Document, derived: Document) -> tuple[MergedDocument, list[SpecProblem]]:
    """``derived`` laid over ``base`` (both mappings), and the problems of its removals."""
    bdata: dict[str, Any] = base.data
    ddata: dict[str, Any] = derived.data
    data: dict[str, Any] = {}
    origin: dict[str, tuple[Document, str]] = {"": (derived, "")}
    for doc, own_data, skip in ((base, bdata, _own), (derived, ddata, None)):
        for key, value in own_data.items():
            if key in LISTS or key in ("extends", "remove", "stream") or (skip and skip(key)):
                continue
            data[key] = value
            origin[f"/{escape_pointer(key)}"] = (doc, f"/{escape_pointer(key)}")
    slots: dict[str, list[_Slot] | None] = {
        kind: [
            _Slot(entry, base, f"/{kind}/{i}", True) for i, entry in enumerate(bdata[kind])
        ]
        if isinstance(bdata.get(kind), list)
        else []
        for kind in LISTS
    }
    if "stream" in bdata or "stream" in ddata:
        data["stream"], stream_origin = merge_stream(
            bdata.get("stream"), ddata.get("stream"), base, derived
        )
        origin.update(stream_origin)
    problems = _apply_removals(slots, derived)
    for kind in LISTS:
        if kind not in ddata:
            continue
        given = ddata[kind]
        if not isinstance(given, list):  # the schema check reports it at the derived's place
            slots[kind] = None
            data[kind] = given
            origin[f"/{kind}"] = (derived, f"/{kind}")
            continue
        for j, entry in enumerate(given):
            _place(slots, kind, _Slot(entry, derived, f"/{kind}/{j}", False))
    for kind in LISTS:
        merged = slots[kind]
        if merged is None or not (merged or kind in bdata or kind in ddata):
            continue
        data[kind] = [slot.entry for slot in merged]
        origin[f"/{kind}"] = (derived, f"/{kind}") if kind in ddata else (base, f"/{kind}")
        for n, slot in enumerate(merged):
            origin[f"/{kind}/{n}"] = (slot.doc, slot.pointer)
    extends = ddata.get("extends")
    merged_doc = MergedDocument(
        derived.path, data, origin=origin, extends=extends if isinstance(extends, str) else ""
    )
    return merged_doc, problems


def _place(slots: dict[str, list[_Slot] | None], kind: str, slot: _Slot) -> None:
    """Put a derived entry in: over the base entry of its (type, when), or at the end."""
    target = slots[kind]
    if target is None:
        return
    key = _key(slot.entry)
    if key is not None:
        for other_kind in LISTS:
            other = slots[other_kind]
            index = _find(other, key) if other is not None else None
            if other is None or index is None:
                continue
            if other_kind == kind:
                other[index] = slot
                return
            del other[index]
            break
    target.append(slot)


def _apply_removals(slots: dict[str, list[_Slot] | None], derived: Document) -> list[SpecProblem]:
    problems: list[SpecProblem] = []
    removals = derived.data.get("remove")
    if not isinstance(removals, list):
        return problems
    for i, removal in enumerate(removals):
        if not isinstance(removal, dict):
            continue
        kind, item_type = removal.get("list"), removal.get("type")
        target = slots.get(kind) if isinstance(kind, str) else None
        if target is None or not isinstance(item_type, str):
            continue  # the schema check reports the malformed removal
        index = _find(target, (item_type, removal.get("when")))
        if index is None:
            when = removal.get("when")
            shown = f" with when {when!r}" if when is not None else " without when"
            problems.append(
                derived.problem(
                    f"/remove/{i}",
                    f"the base has no {kind} entry of type {item_type!r}{shown} to remove",
                    "extends-remove",
                )
            )
        else:
            del target[index]
    return problems


@dataclass
class Resolution:
    """The outcome of resolving one layer: its valid specs, and every problem found."""

    documents: dict[str, Document]
    problems: list[SpecProblem]


class _Resolver:
    """Resolves one layer's documents depth-first, base before derived, finding cycles."""

    def __init__(self, docs: Mapping[str, Document], below: Mapping[str, Document]) -> None:
        self.docs = docs
        self.below = below
        self.done: dict[str, Document | None] = {}
        self.stack: list[str] = []
        self.in_cycle: set[str] = set()
        self.problems: list[SpecProblem] = []

    def visit(self, name: str) -> Document | None:
        if name in self.done:
            return self.done[name]
        doc = self.docs[name]
        self.stack.append(name)
        try:
            resolved = self._resolve(name, doc)
        finally:
            self.stack.pop()
        self.done[name] = resolved
        return resolved

    def _resolve(self, name: str, doc: Document) -> Document | None:
        own = check_wire_document(doc, expected_format=name)
        data = doc.data if isinstance(doc.data, dict) else {}
        extends = data.get("extends")
        if "remove" in data and "extends" not in data:
            own.append(
                doc.problem("/remove", "remove needs extends: nothing to remove from",
                            "extends-remove", key=True)
            )
        self.problems.extend(own)
        if not isinstance(extends, str) or not isinstance(doc.data, dict):
            return None if own else doc
        base = self._base(name, doc, extends)
        if base is None:
            return None
        merged, found = merge(base, doc)
        found.extend(check_wire_document(merged, expected_format=name, expressions=False))
        # The merged check sees the derived spec's own values again: keep what it adds.
        seen = {_identity(p) for p in own}
        fresh = [p for p in found if _identity(p) not in seen]
        self.problems.extend(fresh)
        return None if own or fresh else merged

    def _base(self, name: str, doc: Document, extends: str) -> Document | None:
        if extends != name and extends in self.docs:
            if extends in self.stack:
                self._cycle(extends)
                return None
            return self.visit(extends)
        if extends in self.below:
            return self.below[extends]
        if extends == name:
            self.problems.append(
                doc.problem("/extends", f"{name!r} extends itself, and no earlier spec of that"
                            " name exists to extend", "extends-cycle")
            )
            return None
        known = sorted(set(self.docs) | set(self.below))
        close = difflib.get_close_matches(extends, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        shown = extends if len(extends) <= 80 else f"{extends[:60]}…"  # a hostile spec's megabyte
        self.problems.append(
            doc.problem("/extends", f"no spec {shown!r} to extend{hint}", "extends-unknown")
        )
        return None

    def _cycle(self, start: str) -> None:
        members = self.stack[self.stack.index(start) :]
        chain = " -> ".join([*members, start])
        for member in members:
            if member not in self.in_cycle:
                self.in_cycle.add(member)
                self.problems.append(
                    self.docs[member].problem("/extends", f"extends cycle: {chain}",
                                              "extends-cycle")
                )


def _identity(problem: SpecProblem) -> tuple[str, int, int, str, str]:
    return (problem.path, problem.line, problem.col, problem.pointer, problem.rule)


def _unique(problems: list[SpecProblem]) -> list[SpecProblem]:
    """Each problem once (a base's problems reach every spec derived from it)."""
    seen: set[SpecProblem] = set()
    unique: list[SpecProblem] = []
    for problem in problems:
        if problem not in seen:
            seen.add(problem)
            unique.append(problem)
    return unique


def resolve_layer(
    docs: Mapping[str, Document], below: Mapping[str, Document] | None = None
) -> Resolution:
    """Check and resolve the wire spec documents loaded together, by format name.

    ``below`` holds the resolved documents of the layers loaded before (bundled first);
    a base is looked up in ``docs`` first, then there.
    """
    resolver = _Resolver(docs, below or {})
    documents: dict[str, Document] = {}
    for name in docs:
        resolved = resolver.visit(name)
        if resolved is not None:
            documents[name] = resolved
    return Resolution(documents, _unique(resolver.problems))


_BASE_NAME: Final = re.compile(r"[a-z][a-z0-9_]{0,63}")
"""A format name as the meta-schema allows it; ``extends`` names a sibling file only then."""


@cache
def _bundled_documents() -> Mapping[str, Document]:
    """The bundled wire specs that resolve cleanly: the last layer a base is looked up in."""
    folder = bundled_specs_dir() / "wire"
    docs: dict[str, Document] = {}
    for path in sorted(folder.glob("*.yaml")):
        try:
            docs[path.stem] = read_document(path)
        except SpecError:
            continue
    return resolve_layer(docs).documents


def resolve_file(path: Path, doc: Document) -> Document:
    """One spec file, its ``extends`` resolved; :class:`SpecError` with every problem.

    Its base is its sibling ``<base>.yaml`` (or ``.yml``) if there is one (and so on up the chain),
    else a bundled spec.
    """
    docs: dict[str, Document] = {path.stem: doc}
    problems: list[SpecProblem] = []
    extends = doc.data.get("extends") if isinstance(doc.data, dict) else None
    while isinstance(extends, str) and extends not in docs:
        if not _BASE_NAME.fullmatch(extends):
            break  # not a format name (the checker says so): never build a path from it
        sibling = path.parent / f"{extends}.yaml"
        if not sibling.is_file():
            sibling = sibling.with_suffix(".yml")  # .yml is read like .yaml
        if not sibling.is_file():
            break
        try:
            docs[extends] = base = read_document(sibling)
        except SpecError as exc:
            problems.extend(exc.problems)
            break
        extends = base.data.get("extends") if isinstance(base.data, dict) else None
    bundled_dir = (bundled_specs_dir() / "wire").resolve()
    below = {} if path.parent.resolve() == bundled_dir else _bundled_documents()
    resolution = resolve_layer(docs, below)
    problems.extend(resolution.problems)
    if problems or path.stem not in resolution.documents:
        raise SpecError(_unique(problems))
    return resolution.documents[path.stem]

"""Spec folders read into specs: every wire and text spec below a folder, every problem of
every file raised at once.

Reading spec files needs the YAML reader, the meta-schemas and ``extends``; the bundled
wire specs do without them (:mod:`toolwire._spec.bundle`), so those imports wait inside
:func:`load_folder` until a folder is read.
"""

from __future__ import annotations

from .._paths import bundled_specs_dir
from .._spec import WireSpec, compile_wire_spec
from .._speed import TYPE_CHECKING
from ..errors import SpecError, SpecProblem

if TYPE_CHECKING:
    from pathlib import Path

    from .._spec.strict_yaml import Document
    from .._text import TextSpec

__all__ = ["bundled_text_specs", "load_folder", "spec_files"]


def spec_files(folder: Path) -> list[Path]:
    """The spec files of ``folder`` (or the file itself), sorted; conformance cases left out."""
    if folder.is_file():
        return [folder]
    if not folder.is_dir():
        raise SpecError([SpecProblem(str(folder), 0, 0, "", "no such spec folder", "unreadable")])
    found = [*folder.rglob("*.yaml"), *folder.rglob("*.yml")]  # .yml is read like .yaml
    return sorted(p for p in found if "conformance" not in p.parts)


def load_folder(
    folder: Path, below: dict[str, Document] | None = None
) -> tuple[list[WireSpec], list[TextSpec]]:
    """Every spec below ``folder``; every problem of every file raised at once.

    A wire spec's ``extends`` resolves among this folder's specs, then in ``below``: the
    resolved specs of the folders loaded before, which then gain this folder's.
    """
    # lazy: YAML, the meta-schema and extends only for spec files: the bundled specs do without
    from .._spec.document import read_document  # lazy: as above
    from .._spec.extends import compiled_data, resolve_layer

    text: list[TextSpec] = []
    problems: list[SpecProblem] = []
    docs: dict[str, Document] = {}
    for path in spec_files(folder):
        try:
            doc = read_document(path)
            if isinstance(doc.data, dict) and doc.data.get("kind") == "text":
                # lazy: the text reader (47 ms) only for text specs
                from .._text import compile_text_spec

                text.append(compile_text_spec(doc))
                continue
            if path.stem in docs:
                first = docs[path.stem].path
                problems.append(SpecProblem(str(path), 1, 1, "", f"format {path.stem!r} is"
                                            f" defined twice (also {first})", "format-name"))
                continue
            docs[path.stem] = doc
        except SpecError as exc:
            problems.extend(exc.problems)
    resolution = resolve_layer(docs, below)
    problems.extend(resolution.problems)
    if problems:
        raise SpecError(problems)
    wire = [compile_wire_spec(compiled_data(d), d.path) for d in resolution.documents.values()]
    if below is not None:
        below.update(resolution.documents)
    return wire, text


def bundled_text_specs() -> list[TextSpec]:
    """The bundled text specs (the wire specs in that folder are in the bundle too)."""
    folder = bundled_specs_dir() / "text"
    return load_folder(folder)[1] if folder.is_dir() else []

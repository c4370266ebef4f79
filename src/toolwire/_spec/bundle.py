"""The bundled wire specs, precompiled into one JSON file so that import parses no YAML.

Loading a spec from YAML means the strict YAML reader, the meta-schema (``jsonschema``)
and the JMESPath parser: tens of milliseconds of imports and work before the first reply
is read, paid by every short-lived process (a CLI call, a serverless function). The
bundled specs never change between releases, so ``tools/gen_bundle.py`` does that work
once: ``_bundle.json`` holds each resolved, validated spec's data (``extends`` already
merged) with the parsed AST of every expression it uses, and :func:`bundled_spec_makers`
compiles them with :meth:`Expression.from_ast` — JSON and closures, nothing else.

Decoding the whole file costs a cold process more than the rest of reading a reply,
and a CLI call or a serverless function reads one format. So each
spec is decoded when it is first compiled: the file is the JSON ``json.dumps(indent=1)``
writes, where a line opening with exactly two spaces and ``{`` starts an entry of the
``specs`` list (a JSON string holds no raw newline, and deeper lines are indented
further), and the C scanner decodes one entry from there. A file of any other layout is
decoded whole, with the same result.

The bundle records a checksum of every spec file it was made from. When the files on
disk differ (a spec edited in a checkout without regenerating), :func:`load_bundled_specs`
returns ``None`` and the registry reads the YAML, so an edit is never shadowed by a stale
bundle; ``tests/test_bundle.py`` fails on a stale bundle and names the command to run.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from zlib import crc32

from .._expression import Expression
from .._paths import PACKAGE_DIR, bundled_specs_path
from .._speed import TYPE_CHECKING
from .._speed.cjson import loads, make_scan
from .entries import CallEntry, ServerEntry
from .wirespec import WireSpec, compile_wire_spec

if TYPE_CHECKING:
    from typing import Any, Final

    Parts = tuple[tuple[Expression, str], ...]
    Sniffs = Callable[[], "dict[str, tuple[int, Expression, Parts] | None] | None"]
    """Each format's sniff priority and predicate (None: it has none); None: not known."""

__all__ = [
    "BUNDLE_PATH",
    "BUNDLE_VERSION",
    "load_bundled_specs",
    "source_checksums",
    "spec_expressions",
]

BUNDLE_PATH: Final = os.path.join(PACKAGE_DIR, "_spec", "_bundle.json")
"""Where the bundle is (a str: see :mod:`toolwire._paths` for why not a ``Path``)."""
BUNDLE_VERSION: Final = 2
"""2: each spec entry carries its format first and the ASTs of its own expressions."""
WIRE_FOLDER: Final = "wire"


def source_checksums(specs_dir: str | os.PathLike[str]) -> dict[str, str]:
    """Every wire spec file below ``specs_dir/wire`` (relative path -> CRC-32 and size).

    Not a security measure: it tells a stale bundle from a fresh one, cheaply enough to
    run on every load (``os.scandir`` and file descriptors: ``os.walk``, ``relpath`` and
    file objects cost a cold process more than the checksums themselves).
    """
    sums: dict[str, str] = {}
    _checksum_folder(os.path.join(specs_dir, WIRE_FOLDER), WIRE_FOLDER, sums)
    return sums


def _checksum_folder(folder: str, relative: str, sums: dict[str, str]) -> None:
    """The ``.yaml`` files of ``folder`` (sorted), then its subfolders' (sorted, depth
    first, ``conformance`` left out, symbolic links not followed): ``os.walk``'s order."""
    try:
        with os.scandir(folder) as found:
            entries = sorted(found, key=_name)
    except OSError:
        return
    subfolders = []
    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if entry.name != "conformance" and not entry.is_symlink():
                subfolders.append(entry)
        elif entry.name.endswith(".yaml"):
            content = _read_bytes(entry.path)
            sums[f"{relative}/{entry.name}"] = f"{crc32(content):08x}:{len(content)}"
    for entry in subfolders:
        _checksum_folder(entry.path, f"{relative}/{entry.name}", sums)


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _read_bytes(path: str) -> bytes:
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        parts = [os.read(handle, os.fstat(handle).st_size + 1)]
        while parts[-1]:  # a file grown since fstat: read on to its end
            parts.append(os.read(handle, 1 << 16))
        return b"".join(parts)
    finally:
        os.close(handle)


def spec_expressions(spec: WireSpec) -> Iterator[Expression]:
    """Every compiled expression of a spec (what the bundle stores ASTs for)."""
    for source in spec.sources:
        yield source.select
        for nested in source.nested:
            yield nested.when
            yield nested.select
    for entry in spec.entries:
        if entry.when is not None:
            yield entry.when
        if type(entry) is CallEntry:
            yield entry.name
            yield entry.arguments
            if entry.id is not None:
                yield entry.id
            for _, kept in entry.keep:
                yield kept
        elif type(entry) is ServerEntry:
            yield entry.id
            yield entry.name
            yield entry.status
            if entry.input is not None:
                yield entry.input
    normalize = spec.normalize
    extras: tuple[Expression | None, ...] = (
        spec.sniff,
        spec.truncated,
        spec.finish_reason,
        spec.content,
        spec.structured_output,
        spec.stream_event,
    )
    if normalize is not None:
        extras += (normalize.detect,)
    if spec.shape is not None:
        extras += (spec.shape.when, *(when for when, _ in spec.shape.parts))
    error = spec.error
    if error is not None:
        extras += (error.when, error.message, error.type, error.code)
        extras += tuple(expression for _, expression in error.keep)
    for failed in spec.failed_calls:
        extras += (failed.when, failed.reason)
    if spec.render is not None:
        extras += tuple(spec.render.expressions.values())
    for extra in extras:
        if extra is not None:
            yield extra


def read_bundle(path: str | os.PathLike[str] = BUNDLE_PATH) -> dict[str, Any] | None:
    """The bundle's content, decoded whole, or None when there is none this toolwire can read."""
    data = _bundle_bytes(path)
    try:
        bundle = loads(data.decode("utf-8")) if data is not None else None
    except ValueError:  # UnicodeDecodeError is a ValueError
        return None
    if not isinstance(bundle, dict) or bundle.get("bundle_version") != BUNDLE_VERSION:
        return None
    return bundle


def _bundle_bytes(path: str | os.PathLike[str]) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


_SPECS_KEY: Final = b'\n "specs": [\n'
"""Where the ``specs`` list opens in the layout ``gen_bundle`` writes (see the docstring)."""
_ENTRY: Final = b'\n  {\n   "format": '
"""How each of its entries opens: two spaces deep, its ``format`` first."""
_SNIFF_KEY: Final = b'\n ],\n "sniff": '
"""Where the sniff table follows the ``specs`` list: the last key, decoded when sniffing."""
_SCAN_ENTRY: Final = make_scan()


def _layout(
    data: bytes,
) -> tuple[dict[str, Any], dict[str, tuple[int, int]], int | None] | None:
    """The bundle's header (everything but the specs), the bytes each format's entry
    spans and where the sniff table's key is (None: no table), read from ``gen_bundle``'s
    layout without decoding an entry (nor the rest of the file: UTF-8 is decoded one
    entry at a time); None for another layout."""
    head = data.find(_SPECS_KEY)
    if head <= 0 or data[head - 1 : head] != b",":
        return None
    sniff_at = data.rfind(_SNIFF_KEY, head)  # near the end: searched from there
    tail = len(data) if sniff_at < 0 else sniff_at
    try:
        header = loads(data[: head - 1].decode("utf-8") + "\n}")
        spans: dict[str, tuple[int, int]] = {}
        at = data.find(_ENTRY, head)
        while at >= 0:
            name_at = at + len(_ENTRY)
            fmt, _ = _SCAN_ENTRY(data[name_at : data.index(b"\n", name_at)].decode("utf-8"), 0)
            if type(fmt) is not str or fmt in spans:
                return None
            following = data.find(_ENTRY, name_at)
            spans[fmt] = (at + 3, tail if following < 0 else following)  # from its "{"
            at = following
    except (ValueError, StopIteration):  # UnicodeDecodeError is a ValueError
        return None
    if not isinstance(header, dict) or not spans:
        return None
    return header, spans, None if sniff_at < 0 else sniff_at


def _entry_at(data: bytes, fmt: str, start: int, end: int) -> dict[str, Any]:
    """The spec entry of ``fmt``: the JSON object opening at byte ``start`` (what
    follows it before ``end``, a comma or the list's end, is not read)."""
    entry, _ = _SCAN_ENTRY(data[start:end].decode("utf-8"), 0)
    if not isinstance(entry, dict) or entry.get("format") != fmt:  # pragma: no cover
        raise ValueError(f"_bundle.json: no entry of {fmt!r} at byte {start}")
    return entry


def load_bundled_specs(path: str | os.PathLike[str] = BUNDLE_PATH) -> list[WireSpec] | None:
    """The bundled wire specs, compiled from the bundle; None if it is missing or stale."""
    makers = bundled_spec_makers(path)
    return None if makers is None else [make() for make in makers.values()]


def bundled_spec_makers(
    path: str | os.PathLike[str] = BUNDLE_PATH,
) -> dict[str, Callable[[], WireSpec]] | None:
    """Format name -> a function compiling that bundled spec; None if the bundle is
    missing or stale. Compiling every spec costs a cold process milliseconds, and a CLI
    call or a serverless function reads one format: the registry compiles on first use,
    and only then decodes that spec's entry of the bundle."""
    parts = bundled_parts(path)
    return None if parts is None else parts[0]


def bundled_parts(
    path: str | os.PathLike[str] = BUNDLE_PATH,
) -> tuple[dict[str, Callable[[], WireSpec]], Sniffs] | None:
    """:func:`bundled_spec_makers`, and a function giving every format's sniff predicate
    without compiling any spec (None where the bundle has no sniff table): sniffing a
    reply (``toolwire extract FILE``) then compiles only the spec it finds."""
    data = _bundle_bytes(path)
    if data is None:
        return None
    layout = _layout(data)
    entries: dict[str, Callable[[], dict[str, Any]]]
    sniff_table: Callable[[], Any]
    if layout is not None:
        header, spans, sniff_at = layout
        entries = {fmt: _decoder(data, fmt, *span) for fmt, span in spans.items()}
        sniff_table = lambda: _sniff_table_at(data, sniff_at)  # noqa: E731
    else:
        whole = read_bundle(path)
        if whole is None:
            return None
        header = whole
        entries = {e["format"]: _decoded(e) for e in whole["specs"]}
        sniff_table = lambda: whole.get("sniff")  # noqa: E731
    if header.get("bundle_version") != BUNDLE_VERSION:
        return None
    try:
        root = bundled_specs_path()
    except FileNotFoundError:
        return None
    if header.get("sources") != source_checksums(root):
        return None
    compiled: dict[str, Expression] = {}  # shared: a dialect's specs use the same selectors

    def from_ast(source: str, asts: dict[str, Any]) -> Expression:
        found = compiled.get(source)
        if found is None:
            found = compiled[source] = Expression.from_ast(source, asts[source])
        return found

    def maker(entry_of: Callable[[], dict[str, Any]]) -> Callable[[], WireSpec]:
        def make() -> WireSpec:
            entry = entry_of()
            asts: dict[str, Any] = entry["expressions"]

            def expression(source: str) -> Expression:
                return from_ast(source, asts)

            return compile_wire_spec(
                entry["data"], os.path.join(root, entry["path"]), compiler=expression
            )

        return make

    def sniffs() -> dict[str, tuple[int, Expression, Parts] | None] | None:
        table = sniff_table()
        if not isinstance(table, dict) or table.keys() != entries.keys():
            return None
        found: dict[str, tuple[int, Expression, Parts] | None] = {}
        for fmt, sniff in table.items():
            if sniff is None:
                found[fmt] = None
                continue
            source = sniff["when"]
            parts = tuple((from_ast(p["when"], {p["when"]: p["ast"]}), p["is"])
                          for p in sniff.get("parts", ()))
            found[fmt] = (int(sniff["priority"]), from_ast(source, {source: sniff["ast"]}),
                          parts)
        return found

    return {fmt: maker(entry_of) for fmt, entry_of in entries.items()}, sniffs


def _sniff_table_at(data: bytes, at: int | None) -> Any:
    """The ``sniff`` table after the specs, its key at byte ``at`` (see
    :data:`_SNIFF_KEY`); None without one."""
    if at is None:
        return None
    table, _ = _SCAN_ENTRY(data[at + len(_SNIFF_KEY) :].decode("utf-8"), 0)
    return table


def _decoder(data: bytes, fmt: str, start: int, end: int) -> Callable[[], dict[str, Any]]:
    return lambda: _entry_at(data, fmt, start, end)


def _decoded(entry: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    return lambda: entry

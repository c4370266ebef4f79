"""``extract`` for one spec as generated Python: the interpreter's work, minus interpreting.

The interpreter (:mod:`toolwire._wire.interpreter`) walks a spec's tables for every item: it
calls the type reader, looks the type up, loops over candidate entries and calls one
closure per field. All of that is fixed once the spec is loaded, so for ``extract`` this
module writes it out once per spec as straight-line Python — the dict-walking code one
would write by hand for that provider — and compiles it on first use:

- field chains (``function.name``) become inline ``dict.get`` steps; any other
  expression calls its compiled closure;
- an item's type selects a branch directly: call types first, then the types that need
  a ``when`` test or are refused, then one set lookup for the types that yield nothing;
- paths the sources share (``choices[0].message``) are read once;
- an item type that only ``type_by_key`` keys after the last one that matters could
  name is never computed (a Gemini text part needs one lookup, not eleven).

The generated code handles the regular case only. On anything irregular — a selection
that is not a list, an item that is not an object, a refused or (where the spec fails
closed) unknown type, an expression that fails, a body that is one event
of the format's stream (``stream.event``), a dict keyed as an SDK writes it
(``normalize.detect``), the provider's error body or a body without
the format's shape (:mod:`.gate`) — it returns ``None`` and the caller
runs the interpreter, which raises the exact error with its location. ``extract`` has no
side effects, so running it again is safe, and the answer is the interpreter's by
construction; ``tests/test_fastpath.py`` checks both agree on the whole suite.

Strings from the spec reach the source only through ``repr``; everything else (closures,
sets) is passed in as a named constant, so a spec cannot inject code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .._expression import element_of, field_of, path_steps
from .._spec import CallEntry, Entry, RefuseEntry, Source, WireSpec
from .._speed import TYPE_CHECKING
from .._speed.generated import compile_function
from .._values.arguments import decode_arguments_coded
from .._values.json_values import JSON_WORDS, copy_json
from .._values.toolcall import PLAIN, ToolCall, ToolCallBlank, rare_of
from .fastpred import condition, engine_error
from .walk import any_id_text

if TYPE_CHECKING:
    from typing import Any

    FastExtract = Callable[[dict[str, Any]], "list[ToolCall] | None"]
else:  # the exported name exists at run time too, without importing typing for Any
    FastExtract = Callable

__all__ = [
    "FastExtract", "Writer", "build_fast_extract", "call_code", "namespace_of", "source_code",
    "walk_code",
]


def _field_steps(node: Mapping[str, Any]) -> list[str] | None:
    """The field names of a pure field chain (``a.b.c``), or None for anything else."""
    steps = path_steps(node)
    if not steps or not all(type(step) is str for step in steps):
        return None
    fields: list[str] = steps  # type: ignore[assignment]  # all str, checked just above
    return fields


class Writer:
    """Python source under construction, with the constants it refers to."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.constants: dict[str, Any] = {}
        self.where = ""  # the location of the item being written (walk_code, located)
        # The variable holding each path already read off the response, by its steps: the
        # sources' selections (walk_code), then whatever reads the reply after the walk.
        self.prefixes: dict[Any, str] = {}

    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def constant(self, value: Any, stem: str) -> str:
        name = f"_{stem}{len(self.constants)}"
        self.constants[name] = value
        return name

    def value(self, depth: int, target: str, expression: Any, subject: str) -> None:
        """``target = <expression evaluated on subject>``; ``subject`` is an exact dict."""
        steps = _field_steps(expression.ast)
        if steps is None:
            self.line(depth, f"{target} = {self.constant(expression.evaluate, 'e')}({subject})")
        else:
            self.fields(depth, target, subject, steps)

    def fields(self, depth: int, target: str, subject: str, steps: list[str]) -> None:
        """``target = subject.a.b...`` for a field chain; ``subject`` is an exact dict."""
        self.line(depth, f"{target} = {subject}.get({steps[0]!r})")
        self.chain(depth, target, target, steps[1:])

    def select(self, depth: int, target: str, expression: Any, cache: dict[Any, str]) -> None:
        """``target = <a source's select on the response>``, sharing path prefixes already
        computed for earlier sources (``choices[0].message`` read once, not twice)."""
        steps = path_steps(expression.ast)
        if not steps or type(steps[0]) is not str:
            self.line(depth, f"{target} = {self.constant(expression.evaluate, 's')}(response)")
            return
        self.line(depth, f"{target} = {self.path(depth, steps, cache)}")

    def path(self, depth: int, steps: list[str | int], cache: dict[Any, str]) -> str:
        """The variable holding the response's field chain ``steps`` (the first a field),
        read step by step with the engine's semantics; prefixes in ``cache`` are reused and
        the new ones added (a variable assigned at ``depth``: give a copy of the cache
        where the lines run only on some paths)."""
        current = "response"
        for length in range(1, len(steps) + 1):
            key = tuple(steps[:length])
            if key in cache:
                current = cache[key]
                continue
            name = cache[key] = f"p{len(cache)}"
            step = steps[length - 1]
            if isinstance(step, str):
                self.line(depth, f"{name} = {current}.get({step!r}) if type({current}) is dict"
                                 f" else _get({current}, {step!r})")
            else:
                fits = f"len({current}) > {step}" if step >= 0 else f"len({current}) >= {-step}"
                self.line(depth, f"{name} = {current}[{step}] if type({current}) is list"
                                 f" and {fits} else _index({current}, {step})")
            current = name
        return current

    def chain(self, depth: int, target: str, start: str, steps: list[str]) -> None:
        """``target = start.a.b...`` where ``start`` may be any value (null if not a dict)."""
        for step in steps:
            self.line(
                depth,
                f"{target} = {start}.get({step!r}) if type({start}) is dict"
                f" else _get({start}, {step!r})",
            )
            start = target

    def holds(self, depth: int, expression: Any, subject: str) -> str:
        """Statements computing a predicate; returns the condition that it yields ``true``."""
        ast = expression.ast
        if ast.get("type") == "comparator" and ast.get("value") in ("eq", "ne"):
            left, right = ast["children"]
            steps = _field_steps(left)
            if steps is not None and right.get("type") == "literal" and type(
                right.get("value")
            ) is str:
                # Exactly what the compiled comparator does for a string literal.
                self.fields(depth, "w", subject, steps)
                op = "==" if ast["value"] == "eq" else "!="
                return f"(w {op} {right['value']!r})"
        self.line(depth, f"w = {self.constant(expression.evaluate, 'e')}({subject})")
        return "w is True"


def call_code(
    w: Writer, depth: int, entry: CallEntry, subject: str, after: tuple[str, ...] = (),
    unnamed: tuple[str, ...] = (), owned: str = "",
) -> None:
    """The code appending the call of the item in ``subject``; ``after`` lines follow each
    append, and ``unnamed`` lines run for an item without a usable name (read's records:
    :mod:`.fastread`). ``owned`` names a variable true where the response is the reader's
    own (parsed from JSON text here): its argument objects are then the call's as they
    are, plain JSON that nothing else holds, with no copy made."""
    # name, arguments and id often share their first field (function.name,
    # function.arguments): read it once, as hand-written code would.
    fields = [entry.name, entry.arguments] + ([entry.id] if entry.id is not None else [])
    chains = [_field_steps(e.ast) for e in fields]
    firsts = [c[0] for c in chains if c is not None and len(c) > 1]
    shared = next((f for f in firsts if firsts.count(f) > 1), None)
    if shared is not None:
        w.line(depth, f"f = {subject}.get({shared!r})")

    def read(target: str, expression: Any, at: int) -> None:
        steps = _field_steps(expression.ast)
        if shared is not None and steps is not None and len(steps) > 1 and steps[0] == shared:
            w.chain(at, target, "f", steps[1:])
        else:
            w.value(at, target, expression, subject)

    read("name", entry.name, depth)
    w.line(depth, "if type(name) is str and name:")
    read("raw", entry.arguments, depth + 1)
    if entry.id is None:
        w.line(depth + 1, "cid = ''")
    else:
        read("cid", entry.id, depth + 1)
        w.line(depth + 1, "if type(cid) is not str:")
        # No id at all (servers and SDK types that drop it: ollama's): id_text(None), "",
        # without two calls per call.
        w.line(depth + 2, "cid = '' if cid is None else _id_text(cid)")
    _provider_data_code(w, depth + 1, entry, subject)
    # decode_arguments returns an object as it is, to be copied: do that without the call,
    # and a flat object (every value a scalar) with one dict() (copy_json's own shortcut).
    # The raw arguments are kept as sent: the owned copy of an object, a string itself.
    plain = not entry.keep  # pd is None on every call: the rare fields are all defaults
    w.line(depth + 1, "if type(raw) is dict:")
    if owned:
        w.line(depth + 2, f"if {owned}:")
        w.line(depth + 3, "args = raw")
        w.line(depth + 2, "else:")
        depth += 1
    w.line(depth + 2, "args = dict(raw)")
    w.line(depth + 2, "if not _flat(map(type, args.values())):")
    w.line(depth + 3, "args = _copy(raw)")
    if owned:
        depth -= 1
    _new_call(w, depth + 2, "args", "_PLAIN" if plain else
              "_PLAIN if pd is None else _rare(False, None, None, pd)", after)
    w.line(depth + 1, "else:")
    w.line(depth + 2, "args, bad, err, code = _decode(raw)")
    w.line(depth + 2, "if args is raw:")
    w.line(depth + 3, "args = kr = _copy(raw)")
    w.line(depth + 2, "elif raw is None or type(raw) is str:")
    w.line(depth + 3, "kr = raw")
    w.line(depth + 2, "else:")
    w.line(depth + 3, "kr = _copy(raw)")
    _new_call(w, depth + 2, "kr", "_PLAIN if not bad and pd is None"
              " else _rare(bad, err, code, pd)", after)
    # A str subclass (an SDK's str enum) is a name to the walk: let it answer.
    w.line(depth, "elif isinstance(name, str):")
    w.line(depth + 1, "return None")
    if unnamed:
        w.line(depth, "else:")
        for text in unnamed:
            w.line(depth + 1, text)


def _provider_data_code(w: Writer, depth: int, entry: CallEntry, subject: str) -> None:
    """The code setting ``pd``: the entry's ``keep`` fields of the item that are present
    (copied unless a string), or None when there are none."""
    if len(entry.keep) == 1:  # the common case (a signature, an item id): no empty dict
        key, expression = entry.keep[0]
        w.value(depth, "v", expression, subject)
        w.line(depth, f"pd = None if v is None else {{{key!r}: v if type(v) is str"
                      " else _copy(v)}")
    elif entry.keep:
        w.line(depth, "pd = {}")
        for key, expression in entry.keep:
            w.value(depth, "v", expression, subject)
            w.line(depth, "if v is not None:")
            w.line(depth + 1, f"pd[{key!r}] = v if type(v) is str else _copy(v)")
        w.line(depth, "if not pd:")
        w.line(depth + 1, "pd = None")
    else:
        w.line(depth, "pd = None")


def _new_call(w: Writer, depth: int, raw: str, rare: str, after: tuple[str, ...] = ()) -> None:
    """Append the call of ``name``, ``args``, ``cid`` and ``index``: what
    ``ToolCall._trusted`` does, written out (one call fewer per tool call), filling a
    blank with ToolCall's slots that then becomes a ToolCall (``ToolCallBlank``; see
    toolwire._speed.blank_of)."""
    w.line(depth, "c = _new(_Blank)")
    w.line(depth, "c.name = name")
    w.line(depth, "c._arguments = args")
    w.line(depth, "c.id = cid")
    w.line(depth, f"c._raw_arguments = {raw}")
    w.line(depth, "c.item_index = index")
    w.line(depth, f"c._rare = {rare}")
    w.line(depth, "c.__class__ = _ToolCall")
    w.line(depth, "append(c)")
    for text in after:
        w.line(depth, text)


def _entry_code(w: Writer, depth: int, entry: Entry, subject: str) -> None:
    if type(entry) is CallEntry:
        call_code(w, depth, entry, subject)
    elif type(entry) is RefuseEntry:
        w.line(depth, "return None")
    else:
        w.line(depth, "pass")


def _type_code(
    w: Writer, depth: int, spec: WireSpec, entries: tuple[Entry, ...], subject: str,
    unknown: str,
) -> None:
    """The branch for one item type: its entries' ``when`` in order, then ``unknown``."""
    if len(entries) == 1 and entries[0].when is None:
        _entry_code(w, depth, entries[0], subject)
        return
    for entry in entries:  # each `when` may need statements first: nest, don't chain elifs
        if entry.when is None:  # unreachable after a when-less entry; the loader forbids it
            break
        condition = w.holds(depth, entry.when, subject)
        w.line(depth, f"if {condition}:")
        _entry_code(w, depth + 1, entry, subject)
        w.line(depth, "else:")
        depth += 1
    w.line(depth, unknown)


def _passes(entries: tuple[Entry, ...] | None) -> bool:
    """Whether a listed type's branch always passes (no call, no refusal, no ``when``)."""
    if not entries:
        return False
    return all(e.when is None and type(e) not in (CallEntry, RefuseEntry) for e in entries)


def _action(
    w: Writer, depth: int, spec: WireSpec, item_type: Any, subject: str, unknown: str
) -> None:
    """What to do with an item of ``item_type``: its entries' code, or ``unknown``."""
    entries = spec.table.get(item_type) if type(item_type) is str else None
    if entries:
        _type_code(w, depth, spec, entries, subject, unknown)
    else:
        w.line(depth, unknown)


def _by_key_code(
    w: Writer, depth: int, spec: WireSpec, keys: list[str], subject: str, unknown: str
) -> None:
    """``type_by_key``: the first key present non-null is the type."""
    def passes(key: str) -> bool:
        entries = spec.table.get(key)
        return _passes(entries) if entries else unknown == "pass"

    chain = list(keys)
    if unknown == "pass":  # trailing keys that only pass need no test: the else passes too
        while chain and passes(chain[-1]):
            chain.pop()
    keyword = "if"
    for key in chain:
        w.line(depth, f"{keyword} {subject}.get({key!r}) is not None:")
        _action(w, depth + 1, spec, key, subject, unknown)
        keyword = "elif"
    # A call written with the SDK's own key (google-genai's function_call): the walk
    # renames the reply's keys (the spec's normalize part) and answers.
    for key in spec.normalize.call_keys if spec.normalize is not None else ():
        w.line(depth, f"{keyword} {subject}.get({key!r}) is not None:")
        w.line(depth + 1, "return None")
        keyword = "elif"
    if unknown != "pass":
        if chain:
            w.line(depth, "else:")
            w.line(depth + 1, unknown)
        else:
            w.line(depth, unknown)


def _by_field_code(
    w: Writer, depth: int, spec: WireSpec, field: str, default: Any, subject: str,
    unknown: str,
) -> None:
    """``type_field`` (with ``type_default``): branch on the field's value."""
    w.line(depth, f"t = {subject}.get({field!r})")
    if default is not None:
        w.line(depth, "if t is None:")
        w.line(depth + 1, f"t = {default!r}")
    passing: set[str] = set()
    keyword = "if"
    # Call types first: they are what a reply is read for.
    ordered = sorted(
        spec.table.items(), key=lambda kv: not any(type(e) is CallEntry for e in kv[1])
    )
    for item_type, entries in ordered:
        if _passes(entries):
            passing.add(item_type)
            continue
        if unknown != "pass" and len(entries) == 1 and type(entries[0]) is RefuseEntry and (
            entries[0].when is None
        ):
            continue  # refused like an unknown type, by the last branch

        # Only an exact str names a listed type; the check runs on a match only.
        w.line(depth, f"{keyword} t == {item_type!r} and type(t) is str:")
        _type_code(w, depth + 1, spec, entries, subject, unknown)
        keyword = "elif"
    if unknown != "pass":
        known = w.constant(frozenset(passing), "p")
        w.line(depth, f"{keyword} type(t) is not str or t not in {known}:")
        w.line(depth + 1, unknown)


def _dispatch_code(
    w: Writer, depth: int, spec: WireSpec, source: Source, subject: str, refuse_unknown: bool,
) -> None:
    """Type the item in ``subject`` as its source does."""
    unknown = "return None" if refuse_unknown else "pass"
    how, value, default = source.typing
    if how == "type_const":
        _action(w, depth, spec, value, subject, unknown)
    elif how == "type_by_key":
        _by_key_code(w, depth, spec, list(value), subject, unknown)
    else:
        _by_field_code(w, depth, spec, value, default, subject, unknown)


def _predicate(w: Writer, expression: Any) -> str:
    """A condition true where a predicate on the response holds: written out as Python
    where its form allows (:mod:`.fastpred`), else its closure called."""
    written = condition(expression.ast, "response")
    return written if written is not None else w.holds(2, expression, "response")


def _gate_code(w: Writer, spec: WireSpec) -> None:
    """Decline a body the interpreter's first step refuses (:mod:`.gate`): the provider's
    error body, or one without the format's shape. The walk then raises the error. The
    predicates are written out as Python where their form allows (:mod:`.fastpred`)."""

    for predicate, refuses_when in ((spec.error, True), (spec.shape, False)):
        if predicate is None:
            continue
        written = _predicate(w, predicate.when)
        w.line(2, f"if {'' if refuses_when else 'not '}{written}:")
        w.line(3, "return None")


Dispatch = Callable[[Writer, int, Source, int, str, bool], None]
"""Writes what one item does, as ``(writer, depth, source, its index, subject, top)``:
``subject`` names the item (``item``, or ``child`` for a nested one, ``top`` False)."""


def walk_code(w: Writer, spec: WireSpec, dispatch: Dispatch, located: bool) -> None:
    """The walk of the spec's sources, shared by the generated extract and read: declines
    (``return None``) a body the gate refuses, a selection that is no list, an item that is
    no object and a child that would nest again, and hands every item to ``dispatch``.
    ``located``: ``w.where`` is then the Python expression of the item's location (for a
    child, of the child's) while ``dispatch`` writes its code, evaluated only where used."""
    normalize = spec.normalize
    if normalize is not None and normalize.detect is not None:
        # A dict keyed as an SDK writes it: the walk renames it first (normalize.aliases).
        w.line(2, f"if {_predicate(w, normalize.detect)}:")
        w.line(3, "return None")
    _gate_code(w, spec)
    if spec.stream_event is not None:
        # One event of the format's stream is no reply, calls or not: the walk raises the
        # error naming the Accumulator.
        w.line(2, f"if {_predicate(w, spec.stream_event)}:")
        w.line(3, "return None")
    prefixes = w.prefixes
    for number, source in enumerate(spec.sources):
        path = source.select.source
        w.line(2, f"# source {number}: {path!r}")
        w.select(2, "items", source.select, prefixes)
        w.line(2, "if type(items) is not list:")
        w.line(3, "if items is None:")
        w.line(4, "items = ()")
        if source.single:
            w.line(3, "elif type(items) is dict:")
            w.line(4, "items = (items,)")
        w.line(3, "else:")
        w.line(4, "return None")
        w.line(2, "for index, item in enumerate(items):")
        w.line(3, "if type(item) is not dict:")
        w.line(4, "return None")
        if located:
            text = w.constant(path, "path")
            top = text if source.single else f"f'{{{text}}}[{{index}}]'"
            w.where = top
        dispatch(w, 3, source, number, "item", True)
        for nested in source.nested:
            condition = w.holds(3, nested.when, "item")
            w.line(3, f"if {condition}:")
            w.value(4, "children", nested.select, "item")
            w.line(4, "if type(children) is not list:")
            w.line(5, "if children is not None:")
            w.line(6, "return None")
            w.line(5, "children = ()")
            w.line(4, "for cindex, child in enumerate(children):")
            w.line(5, "if type(child) is not dict:")
            w.line(6, "return None")
            for inner in source.nested:  # a child that would nest again: the walk refuses it
                w.line(5, f"if {w.holds(5, inner.when, 'child')}:")
                w.line(6, "return None")
            if located:
                part = w.constant(f".{nested.select.source}", "path")
                w.where = (f"f'{{{text}}}{{{part}}}[{{cindex}}]'" if source.single else
                           f"f'{{{text}}}[{{index}}]{{{part}}}[{{cindex}}]'")
            dispatch(w, 5, source, number, "child", False)


def source_code(spec: WireSpec, refuse_unknown: bool) -> tuple[str, dict[str, Any]]:
    """The generated function's source and the constants it needs."""
    w = Writer()
    w.line(0, "def extract(response):")
    w.line(1, "calls = []")
    w.line(1, "append = calls.append")
    w.line(1, "try:")

    def dispatch(w: Writer, depth: int, source: Source, number: int, subject: str,
                 top: bool) -> None:
        _dispatch_code(w, depth, spec, source, subject, refuse_unknown)

    walk_code(w, spec, dispatch, False)
    # An expression that failed, or a value that was unhashable: the interpreter knows
    # which error to raise, and where (in debug mode the failure itself is raised).
    w.line(1, "except Exception:")
    w.line(2, "raise" if spec.code.debug else "return None")
    w.line(1, "return calls")
    return "\n".join(w.lines) + "\n", w.constants


def namespace_of(constants: Mapping[str, Any]) -> dict[str, Any]:
    """The globals generated code runs with: these builtins and helpers, and its constants."""
    return {
        "__builtins__": {"type": type, "dict": dict, "list": list, "str": str, "len": len,
                         "Exception": Exception, "enumerate": enumerate,
                         "isinstance": isinstance, "map": map, "int": int, "float": float,
                         "bool": bool},
        "_get": field_of,
        "_index": element_of,
        "_id_text": any_id_text,
        "_decode": decode_arguments_coded,
        "_copy": copy_json,
        "_new": object.__new__,
        "_Blank": ToolCallBlank,
        "_ToolCall": ToolCall,
        "_PLAIN": PLAIN,
        "_rare": rare_of,
        "_flat": JSON_WORDS.issuperset,  # numbers are checked by _copy (errors.NotJSONValue)
        "_engine_error": engine_error,
        **constants,
    }


def build_fast_extract(spec: WireSpec, refuse_unknown: bool) -> FastExtract:
    """Compile the spec's extract function (see the module docstring)."""
    text, constants = source_code(spec, refuse_unknown)
    extract: FastExtract = compile_function(
        text, "extract", spec.format, namespace_of(constants), "extract")
    return extract

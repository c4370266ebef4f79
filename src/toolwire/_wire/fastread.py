"""``read`` for one spec as generated Python, from the same generated walk as ``extract``.

:mod:`.fastpath` writes a spec's walk out as straight-line Python for ``extract``; this
module writes the same walk (:func:`~toolwire._wire.fastpath.walk_code`: the same gate,
selections, type dispatch and call construction) with what ``read`` records beside the
calls: each item's record and location, the call records, the items without a usable name
(``skipped``), the server calls, the unknown items and their types, and the turn's items
(specs/README.md §1.3, §7). The reply's parts read off the whole response (``truncated``,
``finish_reason``, failed calls, text, the turn's ``${response:…}`` values) are evaluated
as the interpreter evaluates them.

As for ``extract``, the generated code handles the regular case only: on anything
irregular — a refused item, an unknown one where the spec fails closed, a name that is
empty or a ``str`` subclass, anything :mod:`.fastpath` declines — it returns ``None`` and
the caller runs the interpreter (:mod:`.reading`), which raises the exact error with the
partial reply. ``read`` has no side effects, so running it again is safe; the interpreter
stays the reference, and ``tests/test_fastread.py`` compares both on every conformance
reply.
"""

from __future__ import annotations

from collections.abc import Callable

from .._spec import CallEntry, Entry, IgnoreEntry, RefuseEntry, ServerEntry, Source, WireSpec
from .._speed import TYPE_CHECKING, blank_of
from .._values.records import CallRecord, ItemRecord, SkippedItem, UnknownItem
from .._values.reply import read_reply_value
from .._values.turn import Turn
from .content import text_of
from .fastpath import Writer, call_code, namespace_of, walk_code
from .fastpred import condition, value_of
from .reading import choice_view, failed_calls, server_call, turn_values, unknown_reason
from .walk import call_name, plain_text

if TYPE_CHECKING:
    from typing import Any

    from .._values.reply import Reply

    FastRead = Callable[[dict[str, Any]], "Reply | None"]
else:  # the exported name exists at run time too, without importing typing for Any
    FastRead = Callable

__all__ = ["FastRead", "build_fast_read", "read_source"]


class _Item:
    """What the code for one item needs: its subject, its location variable, whether it is
    a top-level item (which the turn gives back) and the code for an unknown one."""

    def __init__(self, subject: str, where: str, top: bool, echo: bool,
                 unknown: Callable[[int], None]):
        self.subject = subject
        self.where = where  # the Python expression of its location
        self.key = "index" if top else "(index, cindex)"  # its place, as a key
        self.echo = echo
        self.unknown = unknown


def _record(where: str, shown: str, kind: str, entry: str) -> str:
    """One statement line building an item's record in ``r`` (``item_record``)."""
    return (f"r = _new(_IBlank); r.item_index = index; r.location = {where}; r.item_type ="
            f" {shown}; r.kind = {kind}; r.entry = {entry}; r.__class__ = _ItemRecord")


def _call_record(where: str, shown: str, entry: int) -> str:
    """One statement line building a call's record in ``r`` (``call_record``)."""
    return (f"r = _new(_CBlank); r.item_index = index; r.location = {where}; r.item_type ="
            f" {shown}; r.entry = {entry}; r.arguments_selected = raw is not None;"
            " r.__class__ = _CallRecord")


def _cached(w: Writer, key: str, build: str, append: str) -> list[str]:
    """Lines appending a record from this site's cache, built (and kept) on a miss.

    A record is an immutable value fixed by its place and its entry, so the replies of one
    shape share them: a dictionary lookup where building one costs half a microsecond
    (its stores go through ``object.__setattr__``). Each site keeps at most
    ``_CACHE_SIZE`` records, so a hostile reply cannot grow it without bound."""
    cache = w.constant({}, "records")
    return [f"r = {cache}.get({key})", "if r is None:", f"    {build}",
            f"    if len({cache}) < {_CACHE_SIZE}:", f"        {cache}[{key}] = r",
            f"{append}(r)"]


_CACHE_SIZE = 256


def _entry_code(w: Writer, depth: int, entry: Entry, shown: str, it: _Item) -> None:
    """Records, call or server call of an item its entry matched; ``shown`` its type."""
    if type(entry) is RefuseEntry:
        w.line(depth, "return None")  # the interpreter raises it, with the partial reply
        return
    for text in _cached(w, it.key, _record(it.where, repr(shown), repr(entry.kind),
                                          str(entry.index)), "rec"):
        w.line(depth, text)
    if type(entry) is CallEntry:
        named = w.constant(entry, "entry")
        after = _cached(w, f"({it.key}, raw is not None)",
                        _call_record(it.where, repr(shown), entry.index), "crec")
        if it.echo:
            after.append("echo(len(calls) - 1)")
        call_code(w, depth, entry, it.subject, tuple(after), (
            f"skipped.append(_skip(index, {it.where}, {shown!r},"
            f" _unnamed({named}, {it.subject})))",))
        return
    if type(entry) is ServerEntry:
        named = w.constant(entry, "entry")
        w.line(depth, f"servers.append(_server({named}, {it.subject}, {shown!r}))")
    if it.echo:
        w.line(depth, f"echo({it.subject})")


def _type_code(w: Writer, depth: int, entries: tuple[Entry, ...], shown: str,
               it: _Item) -> None:
    """One item type's entries, their ``when`` in order, then unknown."""
    if len(entries) == 1 and entries[0].when is None:
        _entry_code(w, depth, entries[0], shown, it)
        return
    for entry in entries:
        if entry.when is None:  # unreachable after a when-less entry; the loader forbids it
            break
        condition = w.holds(depth, entry.when, it.subject)
        w.line(depth, f"if {condition}:")
        _entry_code(w, depth + 1, entry, shown, it)
        w.line(depth, "else:")
        depth += 1
    it.unknown(depth)


def _action(w: Writer, depth: int, spec: WireSpec, item_type: Any, it: _Item) -> None:
    entries = spec.table.get(item_type) if type(item_type) is str else None
    if entries:
        _type_code(w, depth, entries, item_type, it)
    else:
        it.unknown(depth)


def _ignored(entries: tuple[Entry, ...]) -> bool:
    return len(entries) == 1 and entries[0].when is None and type(entries[0]) is IgnoreEntry


def _dispatch(w: Writer, depth: int, spec: WireSpec, source: Source, it: _Item) -> None:
    how, value, default = source.typing
    subject = it.subject
    if how == "type_const":
        _action(w, depth, spec, value, it)
        return
    if how == "type_by_key":
        keyword = "if"
        for key in value:
            w.line(depth, f"{keyword} {subject}.get({key!r}) is not None:")
            _action(w, depth + 1, spec, key, it)
            keyword = "elif"
        # A call written with the SDK's own key: the walk renames the reply's keys first.
        for key in spec.normalize.call_keys if spec.normalize is not None else ():
            w.line(depth, f"{keyword} {subject}.get({key!r}) is not None:")
            w.line(depth + 1, "return None")
            keyword = "elif"
        if keyword == "if":
            it.unknown(depth)
        else:
            w.line(depth, "else:")
            it.unknown(depth + 1)
        return
    w.line(depth, f"t = {subject}.get({value!r})")
    if default is not None:
        w.line(depth, "if t is None:")
        w.line(depth + 1, f"t = {default!r}")
    ignored = {t: e[0].index for t, e in spec.table.items() if _ignored(e)}
    ordered = sorted(  # call types first: they are what a reply is read for
        ((t, e) for t, e in spec.table.items() if t not in ignored),
        key=lambda kv: not any(type(e) is CallEntry for e in kv[1]))
    keyword = "if"
    for item_type, entries in ordered:
        w.line(depth, f"{keyword} t == {item_type!r} and type(t) is str:")
        _type_code(w, depth + 1, entries, item_type, it)
        keyword = "elif"
    inner = depth
    if keyword == "elif":
        w.line(depth, "else:")
        inner = depth + 1
    table = w.constant(ignored, "ignored")
    w.line(inner, f"k = {table}.get(t) if type(t) is str else None")
    w.line(inner, "if k is not None:")
    for text in _cached(w, f"({it.key}, t)", _record(it.where, "t", "'ignore'", "k"), "rec"):
        w.line(inner + 1, text)
    if it.echo:
        w.line(inner + 1, f"echo({subject})")
    w.line(inner, "else:")
    it.unknown(inner + 1)


def _selected(w: Writer, target: str, expression: Any) -> None:
    """``target = <expression on the response>``: written out for a field chain, a filter
    projection ``xs[?p].f`` and a flattened projection ``xs[].f`` (the forms of the
    bundled specs' ``content``), each with the engine's semantics — a projection over
    anything but a list is null, its null results are left out — else the closure."""
    node = expression.ast
    chain = value_of(node, "response", True)
    if chain is not None:
        w.line(2, f"{target} = {chain}")
        return
    kind, children = node.get("type"), node.get("children", [])
    listed = test = right = None
    flatten = False
    if kind == "filter_projection":
        listed, right, predicate = children
        test = condition(predicate, "e9", exact=False, depth=9)
        if test is None:
            listed = None
    elif kind == "projection" and children[0].get("type") == "flatten":
        (listed,), right, flatten = children[0]["children"], children[1], True
    items = None if listed is None else value_of(listed, "response", True)
    picked = None if right is None else (
        "e9" if right.get("type") == "identity" else value_of(right, "e9", False))
    if items is None or picked is None:
        w.line(2, f"{target} = {w.constant(expression.evaluate, 'e')}(response)")
        return
    w.line(2, f"xs = {items}")
    w.line(2, "if isinstance(xs, list):")
    if flatten:
        w.line(3, "xs = [y for x in xs for y in (x if isinstance(x, list) else (x,))]")
    kept = f"{test} and " if test is not None else ""
    w.line(3, f"{target} = [v9 for e9 in xs if {kept}(v9 := {picked}) is not None]")
    w.line(2, "else:")
    w.line(3, f"{target} = None")


def _reply_parts(w: Writer, spec: WireSpec) -> None:
    """``truncated``, ``finish`` and ``text`` (the value ``content`` selects) of the reply."""
    if spec.truncated is None:
        w.line(2, "truncated = False")
    else:
        written = condition(spec.truncated.ast, "response")
        w.line(2, f"truncated = {written}" if written is not None else
               f"truncated = {w.constant(spec.truncated.evaluate, 'e')}(response) is True")
    if spec.finish_reason is None:
        w.line(2, "finish = None")
    else:
        _selected(w, "finish", spec.finish_reason)
    if spec.content is None:
        w.line(2, "text = None")
    else:
        _selected(w, "text", spec.content)


def read_source(spec: WireSpec, refuse_unknown: bool) -> tuple[str, dict[str, Any]]:
    """The generated walk's source and its constants: ``read(response)`` returns the
    lists a reply is made of, or ``None`` to decline."""
    w = Writer()
    echo = spec.render is not None
    w.line(0, "def read(response):")
    w.line(1, "calls = []")
    w.line(1, "append = calls.append")
    w.line(1, "records = []")
    w.line(1, "rec = records.append")
    w.line(1, "call_records = []")
    w.line(1, "crec = call_records.append")
    w.line(1, "servers = []")
    w.line(1, "unknown = []")
    w.line(1, "unknown_types = []")
    w.line(1, "skipped = []")
    w.line(1, "echoed = [] if _ECHO else None")
    if echo:
        w.line(1, "echo = echoed.append")
    w.line(1, "try:")

    def dispatch(w: Writer, depth: int, source: Source, number: int, subject: str,
                 top: bool) -> None:
        where = w.where
        typer = w.constant(source.type_of, "typeof")

        def unknown(at: int) -> None:
            if refuse_unknown:
                w.line(at, "return None")  # the interpreter raises it, with the partial reply
                return
            w.line(at, f"tt = {typer}({subject})")
            w.line(at, "shown = str(tt) if isinstance(tt, str) else None")
            w.line(at, _record(where, "shown", "'unknown'", "None") + "; rec(r)")
            w.line(at, f"unknown.append(_unk(index, {where}, shown, _reason(tt)))")
            w.line(at, "if shown is not None and shown not in unknown_types:")
            w.line(at + 1, "unknown_types.append(shown)")
            if echo and top:
                w.line(at, f"echo({subject})")

        _dispatch(w, depth, spec, source, _Item(subject, where, top, echo and top, unknown))

    walk_code(w, spec, dispatch, True)
    _reply_parts(w, spec)
    w.line(1, "except Exception:")
    w.line(2, "return None")
    w.line(1, "return (calls, call_records, servers, unknown_types, unknown, skipped, records,"
              " echoed, truncated, finish, text)")
    return "\n".join(w.lines) + "\n", {**w.constants, "_ECHO": echo}


def build_fast_read(spec: WireSpec, refuse_unknown: bool) -> FastRead:
    """Compile the spec's read function: the generated walk, then the reply's own parts."""
    text, constants = read_source(spec, refuse_unknown)
    namespace = namespace_of(constants)
    namespace.update({
        "_IBlank": blank_of(ItemRecord), "_ItemRecord": ItemRecord,
        "_CBlank": blank_of(CallRecord), "_CallRecord": CallRecord,
        "_skip": SkippedItem, "_unk": UnknownItem,
        "_server": server_call, "_unnamed": lambda entry, item: call_name(entry, item)[1],
        "_reason": lambda item_type: unknown_reason(spec, item_type),
    })
    exec(compile(text, f"<toolwire fast read: {spec.format}>", "exec"), namespace)
    walked: Callable[[dict[str, Any]], Any] = namespace["read"]
    fmt, fails = spec.format, spec.failed_calls

    def read(response: dict[str, Any]) -> Reply | None:
        """The reply of ``response`` (its first alternative), or None: the interpreter's."""
        found = walked(response)
        if found is None:
            return None
        (calls, call_records, servers, unknown_types, unknown, skipped, records, echoed,
         truncated, finish, text) = found
        try:
            count = choice_view(spec, response, 0)[1]
            if fails:
                skipped.extend(failed_calls(spec, response))
            turn = None if echoed is None else Turn.read(
                tuple(echoed), turn_values(spec, response))
        except Exception:
            return None  # the interpreter raises it
        return read_reply_value(
            fmt, tuple(calls), tuple(servers), truncated, plain_text(finish),
            tuple(unknown_types), tuple(skipped), tuple(records), tuple(unknown), (),
            tuple(call_records), 0, count, text_of(text), turn,
        )

    return read

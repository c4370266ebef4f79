"""``read`` for one spec as generated Python, from the same generated walk as ``extract``.

:mod:`.fastpath` writes a spec's walk out as straight-line Python for ``extract``; this
module writes the same walk (:func:`~toolwire._wire.fastpath.walk_code`: the same gate,
selections, type dispatch and call construction) with what ``read`` records beside the
calls: each item's record and location, the call records, the items without a usable name
(``skipped``), the server calls, the unknown items and their types, and the turn's items
(specs/README.md §1.3, §7). The reply's parts read off the whole response (``truncated``,
``finish_reason``, failed calls, text, the choice count, the turn's ``${response:…}``
values) are written out over the paths the walk read, with the engine's semantics, and the
function returns the :class:`~toolwire.Reply` itself, filled in on a writable blank
(:func:`toolwire._speed.blank_of`).

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

from .._expression import is_true, path_steps
from .._spec import CallEntry, Entry, IgnoreEntry, RefuseEntry, ServerEntry, Source, WireSpec
from .._speed import TYPE_CHECKING, blank_of
from .._speed.generated import compile_function
from .._values.json_values import copy_checked
from .._values.records import SkippedItem, UnknownItem, call_record, item_record
from .._values.reply import Reply
from .._values.turn import Turn
from .fastpath import Writer, call_code, namespace_of, walk_code
from .fastpred import condition, value_of
from .reading import failed_call, server_call, unknown_reason
from .reply_text import text_of
from .walk import call_name, plain_text

if TYPE_CHECKING:
    from typing import Any

    FastRead = Callable[[dict[str, Any], bool], "Reply | None"]
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


def _cached(w: Writer, key: str, build: str, cache: str = "", target: str = "r") -> list[str]:
    """Lines setting ``target`` to this site's record for ``key``, built (and kept) on a miss.

    A record is an immutable value fixed by its place and its entry, so the replies of one
    shape share them: one dictionary lookup instead of building one. Each site keeps at
    most ``_CACHE_SIZE``, so a hostile reply cannot grow it without bound."""
    cache = cache or w.constant({}, "records")
    return [f"{target} = {cache}.get({key})", f"if {target} is None:",
            f"    {target} = {build}", f"    if len({cache}) < {_CACHE_SIZE}:",
            f"        {cache}[{key}] = {target}"]


_CACHE_SIZE = 256


def _entry_code(w: Writer, depth: int, entry: Entry, shown: str, it: _Item) -> None:
    """Records, call or server call of an item its entry matched; ``shown`` its type."""
    if type(entry) is RefuseEntry:
        w.line(depth, "return None")  # the interpreter raises it, with the partial reply
        return
    if type(entry) is CallEntry:
        # The item's record and its call's (arguments selected or not) in one lookup.
        for text in _cached(w, it.key, f"_call_site(index, {it.where}, {shown!r},"
                                       f" {entry.index})", target="site"):
            w.line(depth, text)
        w.line(depth, "records.append(site[0])")
        named = w.constant(entry, "entry")
        after = ["call_records.append(site[1] if raw is not None else site[2])"]
        if it.echo:
            after.append("echoed.append(len(calls) - 1)")
        call_code(w, depth, entry, it.subject, tuple(after), _push(
            "skipped", f"_skip(index, {it.where}, {shown!r}, _unnamed({named}, {it.subject}))"),
            owned="owned")
        return
    for text in _cached(w, it.key, f"_item(index, {it.where}, {shown!r}, {entry.kind!r},"
                                   f" {entry.index})"):
        w.line(depth, text)
    w.line(depth, "records.append(r)")
    if type(entry) is ServerEntry:
        named = w.constant(entry, "entry")
        for text in _push("servers", f"_server({named}, {it.subject}, {shown!r})"):
            w.line(depth, text)
    if it.echo:
        w.line(depth, _echo(it.subject))


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
    listed = [(t, e) for t, e in spec.table.items() if t not in ignored]
    # Call types first (what a reply is read for), then the types that yield nothing, in
    # one lookup (a reasoning or text item: its record only), then the rest in turn.
    calling = [(t, e) for t, e in listed if any(type(x) is CallEntry for x in e)]
    keyword = "if"
    for item_type, entries in calling:
        w.line(depth, f"{keyword} t == {item_type!r} and type(t) is str:")
        _type_code(w, depth + 1, entries, item_type, it)
        keyword = "elif"
    inner = depth
    if keyword == "elif":
        w.line(depth, "else:")
        inner = depth + 1
    # Each such type: its entry's index and its records by place.
    table = w.constant({t: (k, {}) for t, k in ignored.items()}, "ignored")
    w.line(inner, f"k = {table}.get(t) if type(t) is str else None")
    w.line(inner, "if k is not None:")
    w.line(inner + 1, "kept = k[1]")
    for text in _cached(w, it.key, f"_item(index, {it.where}, t, 'ignore', k[0])", "kept"):
        w.line(inner + 1, text)
    w.line(inner + 1, "records.append(r)")
    if it.echo:
        w.line(inner + 1, _echo(subject))
    for item_type, entries in listed:
        if (item_type, entries) not in calling:
            w.line(inner, f"elif t == {item_type!r} and type(t) is str:")
            _type_code(w, inner + 1, entries, item_type, it)
    w.line(inner, "else:")
    it.unknown(inner + 1)


def _element(node: dict[str, Any], element: str) -> str | None:
    """Python for what a projection keeps of one element: the element itself, or a field
    chain read off it; None for anything else."""
    if path_steps(node) == []:
        return element
    return value_of(node, element, False)


def _writable(node: dict[str, Any], depth: int = 0) -> bool:
    """Whether :func:`_value` writes ``node`` out: a field chain, a projection ``xs[].f``
    or ``xs[?p].f`` (its kept part a field chain or the element, its filter a condition
    :func:`~.fastpred.condition` writes), a flatten ``xs[]``, ``a | b`` and ``a || b``
    over those (the forms of the bundled specs' ``content`` and ``finish_reason``)."""
    if path_steps(node) is not None:
        return True
    kind, children = node.get("type"), node.get("children", [])
    if kind in ("or_expression", "pipe"):
        return all(_writable(child, depth) for child in children)
    if kind == "flatten":
        return _writable(children[0], depth)
    if kind in ("projection", "filter_projection"):
        if kind == "filter_projection" and condition(
                children[2], "e", exact=False, depth=depth) is None:
            return False
        return _writable(children[0], depth) and _element(children[1], "e") is not None
    return False


class _Values:
    """Writes values off the response (:func:`_value`), each temporary named afresh."""

    def __init__(self, w: Writer) -> None:
        self.w = w
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"x{self.count}"

    def value(self, depth: int, target: str, node: dict[str, Any], subject: str,
              cache: dict[Any, str], text: bool = False) -> None:
        """``target = <node on subject>`` with the engine's semantics (its closures in
        :mod:`toolwire._expression.closures`): a projection or flatten of anything but a
        list is null, a projection leaves its null results out, ``a || b`` is ``b`` where
        ``a`` is false to JMESPath. Off the response, paths read already are not read
        again (``cache``). ``text``: ``target`` is the reply's text made of that value
        (:func:`~.reply_text.text_of`: a string as it is, a list's strings joined, else null)."""
        w = self.w
        if text and not self.projects(node):
            self.value(depth, target, node, subject, cache)
            w.line(depth, f"if type({target}) is not str:")
            w.line(depth + 1, f"{target} = _text_of({target})")
            return
        steps = path_steps(node)
        if steps is not None:
            if subject == "response":
                source = w.path(depth, steps, cache) if steps else subject
            else:
                source = value_of(node, subject, False) or subject
            w.line(depth, f"{target} = {source}")
            return
        kind, children = node.get("type"), node["children"]
        if kind == "or_expression":
            self.value(depth, target, children[0], subject, cache)
            # JMESPath's falsehood (is_true), a string's and null's tested in line.
            w.line(depth, f"if not ({target} if type({target}) is str else"
                          f" {target} is not None and _true({target})):")
            self.value(depth + 1, target, children[1], subject, dict(cache))  # one branch
        elif kind == "pipe":
            left = self.fresh()
            self.value(depth, left, children[0], subject, cache)
            self.value(depth, target, children[1], left, cache, text)
        elif kind == "flatten":
            base = self.fresh()
            self.value(depth, base, children[0], subject, cache)
            w.line(depth, f"{target} = [y for x in {base} for y in"
                          f" (x if isinstance(x, list) else (x,))]"
                          f" if isinstance({base}, list) else None")
        else:  # a projection, filtered or not
            base, element, kept = self.fresh(), self.fresh(), self.fresh()
            listed = children[0]
            # Over a flatten: the flattened elements, without the list of them.
            flat = listed.get("type") == "flatten"
            self.value(depth, base, listed["children"][0] if flat else listed, subject, cache)
            test = "" if kind == "projection" else str(condition(
                children[2], element, exact=False, depth=self.count)) + " and "
            picked = _element(children[1], element)
            # The text keeps the strings only; a projection keeps whatever is not null.
            keeps = f"isinstance({kept} := {picked}, str)" if text else (
                f"({kept} := {picked}) is not None")
            # Loops, not a comprehension: a reply's lists are short, and a comprehension
            # makes and calls a function each time.
            w.line(depth, f"if isinstance({base}, list):")
            w.line(depth + 1, f"{target} = []")
            if flat:
                w.line(depth + 1, f"for x in {base}:")
                w.line(depth + 2, f"for {element} in (x if isinstance(x, list) else (x,)):")
                inner = depth + 3
            else:
                w.line(depth + 1, f"for {element} in {base}:")
                inner = depth + 2
            w.line(inner, f"if {test}{keeps}:")
            w.line(inner + 1, f"{target}.append({kept})")
            if text:
                w.line(depth + 1, f"{target} = ''.join({target}) if {target} else None")
            w.line(depth, "else:")
            w.line(depth + 1, f"{target} = None")

    @staticmethod
    def projects(node: dict[str, Any]) -> bool:
        """Whether ``node``'s value is a projection's (through the right of pipes)."""
        while node.get("type") == "pipe":
            node = node["children"][1]
        return node.get("type") in ("projection", "filter_projection")


def _selected(w: Writer, target: str, expression: Any, text: bool = False) -> None:
    """``target = <expression on the response>``: written out where :func:`_writable`
    says so, else the expression's closure; ``text`` as for :meth:`_Values.value`."""
    if _writable(expression.ast):
        _Values(w).value(2, target, expression.ast, "response", w.prefixes, text)
        return
    w.line(2, f"{target} = {w.constant(expression.evaluate, 'e')}(response)")
    if text:
        w.line(2, f"if type({target}) is not str:")
        w.line(3, f"{target} = _text_of({target})")


_COMPARED = (str, bool, type(None))


def _holds(w: Writer, node: dict[str, Any]) -> str | None:
    """A condition true where the predicate ``node`` yields ``true`` on the response,
    reading its field chains from variables (the walk's, or read here once): ``==`` and
    ``!=`` between a field chain and a string, boolean or null literal, joined by ``&&``,
    ``||`` and ``!``; None for any other form. A chain is read before the condition
    runs, where the engine might not read it: that can only raise, and the generated
    read then declines."""
    kind, children = node.get("type"), node.get("children", [])
    if kind == "comparator" and node.get("value") in ("eq", "ne"):
        left, right = children
        steps = path_steps(left)
        if (not steps or type(steps[0]) is not str or right.get("type") != "literal"
                or type(right.get("value")) not in _COMPARED):
            return None
        value, literal = w.path(2, steps, w.prefixes), right["value"]
        # As the compiled comparator: a boolean or null is the same object, never 0 or 1.
        equal = (f"({value} == {literal!r})" if type(literal) is str
                 else f"({value} is {literal!r})")
        return equal if node["value"] == "eq" else f"(not {equal})"
    if kind in ("and_expression", "or_expression", "not_expression"):
        parts = [_holds(w, child) for child in children]
        if any(part is None for part in parts):
            return None
        if kind == "not_expression":
            return f"(not {parts[0]})"
        return "(" + (" and " if kind == "and_expression" else " or ").join(
            str(part) for part in parts) + ")"
    return None


def _reply_parts(w: Writer, spec: WireSpec) -> None:
    """``truncated``, ``finish``, ``text`` (the value ``content`` selects), ``count`` (of
    the alternatives), the failed calls and ``values`` (the turn's ``${response:…}``)."""
    if spec.truncated is None:
        w.line(2, "truncated = False")
    else:
        written = _holds(w, spec.truncated.ast) or condition(spec.truncated.ast, "response")
        w.line(2, f"truncated = {written}" if written is not None else
               f"truncated = {w.constant(spec.truncated.evaluate, 'e')}(response) is True")
    if spec.finish_reason is None:
        w.line(2, "finish = None")
    else:
        _selected(w, "finish", spec.finish_reason)
    if spec.content is None:
        w.line(2, "text = None")
    else:
        _selected(w, "text", spec.content, text=True)
    if spec.choices is not None:  # reading.choice_view's count, for the first alternative
        listed = w.path(2, list(spec.choices), w.prefixes)
        w.line(2, f"count = len({listed}) if type({listed}) is list else 0")
    for number, failed in enumerate(spec.failed_calls):  # reading.failed_calls, in line
        holds = _holds(w, failed.when.ast)
        if holds is None:
            holds = f"{w.constant(failed.when.evaluate, 'e')}(response) is True"
        w.line(2, f"if {holds}:")
        if failed.reason is None:
            w.line(3, "v = None")
        else:
            w.line(3, f"v = {w.constant(failed.reason.evaluate, 'e')}(response)")
        for text in _push("skipped", f"_failed({number}, v)"):
            w.line(3, text)
    if spec.render is not None:
        w.line(2, "values = {}")
        for source, expression in spec.render.expressions.items():
            _selected(w, "v", expression)
            w.line(2, "if v is not None:")
            # Copied, unless the response was parsed here (the caller may change its own
            # after): text needs none.
            w.line(3, f"values[{source!r}] = v if owned or type(v) is str else _copy_checked(v)")


def _echo(subject: str) -> str:
    """The line keeping the item ``subject`` for the turn: a copy, unless the response was
    parsed here (the caller may change its own after reading it; copied as it is kept, no
    second pass over the items)."""
    return f"echoed.append({subject} if owned else _copy_checked({subject}))"


def _push(name: str, value: str) -> tuple[str, str]:
    """Lines appending ``value`` to the list ``name``, made on its first value (most
    replies have no server call, unknown or skipped item: no empty list is made for them)."""
    return f"if {name} is None: {name} = []", f"{name}.append({value})"


def _tuple(name: str) -> str:
    return f"() if {name} is None else tuple({name})"


def _reply_code(w: Writer, spec: WireSpec) -> None:
    """Build the :class:`Reply` in ``r``: every field stored on a writable blank, which
    then becomes a ``Reply`` (:func:`toolwire._speed.blank_of`), and its ``Turn`` alike."""
    if spec.render is not None:
        w.line(2, "turn = _new(_TBlank)")
        w.line(2, "turn._items = tuple(echoed)")  # copied as they were kept (_echo)
        w.line(2, "turn._response = values")  # the values copied as they were kept
        w.line(2, "turn.__class__ = _Turn")
    fields = {
        "format": repr(spec.format),
        "calls": "tuple(calls)",
        "server_calls": _tuple("servers"),
        "truncated": "truncated",
        "finish_reason": "finish if type(finish) is str else _plain(finish)",
        "unknown_types": _tuple("unknown_types"),
        "skipped": _tuple("skipped"),
        "items": "tuple(records)",
        "unknown": _tuple("unknown"),
        "refused": "()",
        "call_records": "tuple(call_records)",
        "choice": "0",
        "choice_count": "None" if spec.choices is None else "count",
        "text": "text",
        "turn": "None" if spec.render is None else "turn",
    }
    assert set(fields) == set(Reply._fields), "every field of a Reply, each once"
    w.line(2, "r = _new(_RBlank)")
    for name, value in fields.items():
        w.line(2, f"r.{name} = {value}")
    w.line(2, "r.__class__ = _Reply")


def read_source(spec: WireSpec, refuse_unknown: bool) -> tuple[str, dict[str, Any]]:
    """The generated read's source and its constants: ``read(response, owned)`` returns
    the reply of the response's first alternative, or ``None`` to decline; ``owned``:
    the response was parsed from JSON text by the caller, so nothing else holds its
    objects (its argument objects are taken as they are, :func:`~.fastpath.call_code`)."""
    w = Writer()
    echo = spec.render is not None
    w.line(0, "def read(response, owned):")
    w.line(1, "calls = []")
    w.line(1, "append = calls.append")
    # The reader's own lists are appended to by name: CPython specializes list.append.
    w.line(1, "records = []")
    w.line(1, "call_records = []")
    w.line(1, "servers = unknown = unknown_types = skipped = None")
    if echo:
        w.line(1, "echoed = []")
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
            w.line(at, f"records.append(_item(index, {where}, shown, 'unknown', None))")
            for text in _push("unknown", f"_unk(index, {where}, shown, _reason(tt))"):
                w.line(at, text)
            w.line(at, "if shown is not None:")
            w.line(at + 1, "if unknown_types is None:")
            w.line(at + 2, "unknown_types = [shown]")
            w.line(at + 1, "elif shown not in unknown_types:")
            w.line(at + 2, "unknown_types.append(shown)")
            if echo and top:
                w.line(at, _echo(subject))

        _dispatch(w, depth, spec, source, _Item(subject, where, top, echo and top, unknown))

    walk_code(w, spec, dispatch, True)
    _reply_parts(w, spec)
    _reply_code(w, spec)
    w.line(1, "except Exception:")  # the interpreter raises the right error (debug: this one)
    w.line(2, "raise" if spec.code.debug else "return None")
    w.line(1, "return r")
    return "\n".join(w.lines) + "\n", w.constants


def _call_site(index: int, where: str, shown: str, entry: int) -> tuple[Any, ...]:
    """The records of a call item at one place: its item record, then its call's with the
    arguments selected and without."""
    return (item_record(index, where, shown, "calls", entry),
            call_record(index, where, shown, entry, True),
            call_record(index, where, shown, entry, False))


def build_fast_read(spec: WireSpec, refuse_unknown: bool) -> FastRead:
    """Compile the spec's read function (see the module docstring)."""
    text, constants = read_source(spec, refuse_unknown)
    namespace = namespace_of(constants)
    namespace["__builtins__"] = {**namespace["__builtins__"], "tuple": tuple}
    namespace.update({
        "_item": item_record, "_call_site": _call_site,
        "_RBlank": blank_of(Reply), "_Reply": Reply,
        "_TBlank": blank_of(Turn), "_Turn": Turn, "_copy_checked": copy_checked,
        "_skip": SkippedItem, "_unk": UnknownItem,
        "_server": server_call, "_unnamed": lambda entry, item: call_name(entry, item)[1],
        "_reason": lambda item_type: unknown_reason(spec, item_type),
        "_failed": lambda number, reason: failed_call(spec.failed_calls[number], reason),
        "_true": is_true, "_plain": plain_text, "_text_of": text_of,
    })
    read: FastRead = compile_function(text, "read", spec.format, namespace, "read")
    return read

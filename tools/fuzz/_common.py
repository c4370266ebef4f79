"""What every fuzz harness shares: the import of toolwire under atheris, and the oracle.

The oracle is the set of promises toolwire makes on bad input (README "Guarantees"): an
entry point answers with a value or a :class:`toolwire.errors.ToolwireError`, never another
exception; it leaves its input as it found it; a dict and its JSON text give the same
answer; every :class:`toolwire.ToolCall` survives ``to_dict``/``from_dict`` and JSON.
A harness raises (``AssertionError`` or the stray exception itself) where a promise is
broken, which libFuzzer reports as a crash with the input that broke it.

Run from a checkout: the harnesses put ``src/`` first on ``sys.path``.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

# The modules whose branches guide the fuzzer. PyYAML and jsonschema stay uninstrumented:
# pure Python and slow under the hooks, and not what is under test.
INSTRUMENTED = ("toolwire", "jmespath")


def import_instrumented() -> Any:
    """Import toolwire (and every module it imports lazily) under atheris' coverage hooks."""
    import atheris

    with atheris.instrument_imports(include=list(INSTRUMENTED)):
        import jmespath  # noqa: F401
        import yaml  # noqa: F401

        import toolwire
        import toolwire._spec.document
        import toolwire._spec.strict_yaml
        import toolwire._spec.wirespec
        import toolwire._stream  # imported on first use otherwise: never instrumented
        import toolwire._wire.interpreter

        with contextlib.suppress(ImportError):  # the text formats, once they exist
            import toolwire._text
        import toolwire._boundedre
        import toolwire._tools  # loaded lazily otherwise: instrumented here
    return toolwire


Outcome = tuple[str, Any]


def outcome(run: Callable[[], Any], show: Callable[[Any], Any] = lambda v: v) -> Outcome:
    """``("ok", show(value))`` or ``("error", error.to_dict())``; other exceptions escape."""
    import toolwire

    try:
        value = run()
    except toolwire.errors.ToolwireError as exc:
        return "error", exc.to_dict()
    return "ok", show(value)


def reply_data(reply: Any) -> Any:
    """A Reply as comparable data, server items' raw payloads included."""
    data = reply.to_dict()
    data["server_raw"] = [s.raw for s in reply.server_calls]
    data["items"] = [i.to_dict() for i in reply.items]
    data["tool_calls"] = [c.to_dict() for c in reply.calls]  # as extract's answer shows them
    assert type(reply).from_dict(reply.to_dict()) == reply, "Reply.from_dict(to_dict()) differs"
    return data


def same_json(left: Any, right: Any) -> bool:
    """Deep equality of JSON values without recursion (inputs may nest ~1000 deep)."""
    stack = [(left, right)]
    while stack:
        a, b = stack.pop()
        if type(a) is not type(b):
            return False
        if isinstance(a, dict):
            if a.keys() != b.keys():
                return False
            stack.extend((a[k], b[k]) for k in a)
        elif isinstance(a, list):
            if len(a) != len(b):
                return False
            stack.extend(zip(a, b, strict=True))
        elif a != b and not (a != a and b != b):  # NaN equals NaN here
            return False
    return True


def check_call(call: Any) -> None:
    """A ToolCall survives to_dict/from_dict and a JSON round trip unchanged."""
    from toolwire import ToolCall

    assert isinstance(call, ToolCall), type(call)
    assert isinstance(call.name, str) and call.name, call.name
    assert isinstance(call.id, str)
    data = call.to_dict()
    back = ToolCall.from_dict(data)
    assert back.to_dict() == data, "to_dict/from_dict changed the call"
    text = json.dumps(data, allow_nan=False)
    assert ToolCall.from_dict(json.loads(text)).to_dict() == data, "JSON round trip changed it"


def parse_json(body: bytes) -> Any:
    """The body as strict JSON, or None when it is not (the interpreter's own reader)."""
    from toolwire._values.arguments import loads_strict

    try:
        return loads_strict(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def copy_value(value: Any) -> Any:
    """A copy of a value the mutator moves around. Mutated bodies may hold what JSON does
    not (NaN, Infinity: the reader must refuse those, the mutator must not), so such a
    value is copied as plain Python."""
    import copy

    from toolwire._values.json_values import copy_json
    from toolwire.errors import NotJSONValue

    try:
        return copy_json(value)
    except NotJSONValue:
        return copy.deepcopy(value)


# -- a structure-aware mutator for JSON bodies ----------------------------------------------

_REPLACEMENTS: list[Any] = [
    None, True, False, 0, -1, 2**53 + 1, 1.5, "", "{}", "[1]", '{"a":', "x", [], {}, [{}],
    {"type": "function_call"}, {"type": None},
]


def mutate_json(data: bytes, max_size: int, seed: int, offset: int = 0) -> bytes:
    """Mutate a (prefix + JSON) input: half the time as bytes, else as a JSON tree.

    Byte mutations rarely keep JSON valid, so the tree mutations (delete a member, null
    it, retype it, empty a list, repeat an item, graft a value from elsewhere in the
    document) reach the interpreter's deeper paths far more often.
    """
    import random

    import atheris

    rng = random.Random(seed)
    head, body = data[:offset], data[offset:]
    try:
        doc = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        doc = None
    if doc is None or rng.random() < 0.5:
        return bytes(atheris.Mutate(data, max_size))
    slots: list[tuple[Any, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            slots.extend((node, k) for k in node)
            stack.extend(node.values())
        elif isinstance(node, list):
            slots.extend((node, i) for i in range(len(node)))
            stack.extend(node)
    for _ in range(rng.randint(1, 3)):
        if not slots:
            break
        parent, key = rng.choice(slots)
        try:
            value = parent[key]
        except (KeyError, IndexError):
            continue
        op = rng.randrange(6)
        if op == 0:
            del parent[key]
        elif op == 1:
            parent[key] = None
        elif op == 2:
            parent[key] = _retype(value)
        elif op == 3:
            parent[key] = rng.choice(_REPLACEMENTS)
        elif op == 4 and isinstance(parent, list):
            parent.insert(key, copy_value(value))
        else:
            parent[key] = copy_value(rng.choice(slots)[0])
    if head and rng.random() < 0.2:
        head = bytes([rng.randrange(256)]) + head[1:]
    try:
        body = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, "\udc01" in the input: keep it escaped
        body = json.dumps(doc, separators=(",", ":")).encode("utf-8")
    out = head + body
    return out[:max_size]


def _retype(value: Any) -> Any:
    if isinstance(value, str):
        return [value]
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return {}

"""Running wire conformance cases (specs/README.md §4) and saying how a result differs.

One runner for the bundled suite's tests and for ``toolwire specs test``, an author's own
cases against their specs: a test's expectation is compared key by key with what
``Registry.read`` (or the error it raised, or ``from_structured_output``) gave, and every
difference comes back as a line naming the place (``calls[0].arguments.city``), the value
expected and the value got. An empty list is a pass. Nothing here asserts, so a caller
decides how a failure is shown.

Loaded only by those two; reading a reply never imports it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .._values.reply import Reply
from ..errors import ToolwireError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

    from .._registry.registry import Registry

    Outcome = dict[str, Any]
    """``{"result": <JSON>}`` or ``{"error": <ToolwireError.to_dict()>}``."""

__all__ = [
    "OPTIONAL_CALL_KEYS",
    "RENDER_KEYS",
    "call_dicts",
    "call_view",
    "differences",
    "error_differences",
    "outcome_of",
    "read_differences",
    "record_differences",
    "render_differences",
    "rendered",
    "reply_differences",
    "run_wire_test",
    "same_json",
    "structured_differences",
]

ERROR_FIELDS = (
    "item_index", "item_type", "looks_like", "format", "error_message", "error_type",
    "error_code", "provider_data",
)
"""Fields of an expected error compared where the case gives them (specs/README.md §4)."""

RENDER_KEYS = ("assistant_message", "answer")
"""The keys of a wire test's ``expect`` that render the reply back (specs/README.md §4, §6)."""


OPTIONAL_CALL_KEYS = ("raw_arguments", "item_index", "provider_data")
"""Keys of an expected call compared only where the case gives them (specs/README.md §4)."""


def _as_data(value: Any) -> Any:
    """A value (a ToolCall, a Reply, ...) as its JSON data; JSON data as it is."""
    to_dict = getattr(value, "to_dict", None)
    return to_dict() if callable(to_dict) else value


def call_view(call: Any) -> dict[str, Any]:
    """A call (a ToolCall or its JSON) as the suite compares it: ``to_dict()`` without the
    free-text message, which is for people and differs between languages (the code is
    compared instead), and without the ``fate`` and ``record`` a Reply's JSON adds."""
    data: dict[str, Any] = dict(_as_data(call))
    for key in ("arguments_error", "fate", "record"):
        data.pop(key, None)
    return data


def call_dicts(calls: Iterable[Any], expected: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each call's :func:`call_view`, less the optional keys its expected call does not give."""
    got = []
    for index, call in enumerate(calls):
        data = call_view(call)
        wanted = expected[index] if index < len(expected) else {}
        for key in OPTIONAL_CALL_KEYS:
            if key not in wanted:
                data.pop(key, None)
        got.append(data)
    return got


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr)


def _same_scalar(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and bool(a == b)


def same_json(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value (``1`` equals ``1.0``, as they do once another
    language's JSON writer has written them), ``true`` never ``1``, key order free.
    An explicit stack, not recursion: arguments may nest as deep as JSON allows."""
    pending = [(a, b)]
    while pending:
        x, y = pending.pop()
        if isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return False
            pending.extend(zip(x, y, strict=True))
        elif isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            pending.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list | dict) or isinstance(y, list | dict) or not _same_scalar(x, y):
            return False
    return True


def differences(where: str, expected: Any, got: Any) -> list[str]:
    """Where ``got`` differs from ``expected``: into objects key by key and into lists of
    the same length item by item; elsewhere the whole value (:func:`same_json`)."""
    if same_json(expected, got):
        return []
    try:
        return _differences(where, expected, got)
    except RecursionError:  # nested deeper than the stack: the whole value
        return [f"{where}: expected {_show(expected)}, got {_show(got)}"]


def _differences(where: str, expected: Any, got: Any) -> list[str]:
    if isinstance(expected, dict) and isinstance(got, dict):
        out: list[str] = []
        for key in sorted(set(expected) | set(got)):
            place = f"{where}.{key}" if where else key
            if key not in got:
                out.append(f"{place}: expected {_show(expected[key])}, got nothing")
            elif key not in expected:
                out.append(f"{place}: not expected, got {_show(got[key])}")
            elif not same_json(expected[key], got[key]):
                out.extend(_differences(place, expected[key], got[key]))
        return out
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        return [d for i, (e, g) in enumerate(zip(expected, got, strict=True))
                if not same_json(e, g) for d in _differences(f"{where}[{i}]", e, g)]
    return [f"{where}: expected {_show(expected)}, got {_show(got)}"]


def _records(items: Iterable[Any], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{k: record.get(k) for k in keys} for record in map(_as_data, items)]


def record_differences(reply: Any, expect: dict[str, Any], where: str = "") -> list[str]:
    """The record keys of an expectation (§4), where it gives them; ``reply`` is a Reply or
    its JSON (§7)."""
    data = _as_data(reply)
    prefix = f"{where}." if where else ""
    got: dict[str, Any] = {}
    if "unknown" in expect:
        got["unknown"] = _records(data["unknown"], ("item_index", "item_type"))
    if "refused" in expect:
        got["refused"] = _records(data["refused"], ("item_index", "item_type", "code"))
    if "call_records" in expect:
        wanted = expect["call_records"]
        records = [call.get("record") or {} for call in data["calls"]]
        got["call_records"] = [
            {k: v for k, v in r.items() if k in (wanted[i] if i < len(wanted) else {})}
            for i, r in enumerate(records)
        ]
    if "fates" in expect:
        got["fates"] = [call.get("fate") for call in data["calls"]]
    if "has_calls" in expect:  # §1.3.1: a call runnable or rejected, derived from the fates
        got["has_calls"] = any(call.get("fate") != "dropped" for call in data["calls"])
    if "choice_count" in expect:
        got["choice_count"] = data["choice_count"]
    return [d for key, value in got.items()
            for d in differences(prefix + key, expect[key], value)]


def reply_differences(reply: Any, expect: dict[str, Any], where: str = "") -> list[str]:
    """How a reply (a Reply or its JSON, §7) differs from a test's ``expect`` (every key
    it gives)."""
    data = _as_data(reply)
    prefix = f"{where}." if where else ""
    got: dict[str, Any] = {}
    if "calls" in expect:
        got["calls"] = call_dicts(data["calls"], expect["calls"])
    if "server_calls" in expect:
        got["server_calls"] = [{k: v for k, v in s.items() if k != "raw"}
                               for s in data["server_calls"]]
    for key in ("truncated", "finish_reason", "unknown_types", "text", "turn"):
        if key in expect:
            got[key] = data.get(key)
    if "skipped" in expect:
        got["skipped"] = _records(data["skipped"], ("item_index", "item_type"))
    out = [d for key, value in got.items()
           for d in differences(prefix + key, expect[key], value)]
    return out + record_differences(data, expect, where)


def error_differences(expected: dict[str, Any], error: dict[str, Any] | None,
                      where: str = "error") -> list[str]:
    """How an error's JSON (``ToolwireError.to_dict()``: ``code`` and its facts) differs
    from an ``expect.error``: the code, ``item_index`` and ``item_type`` where given, and
    the partial reply of an ``unmapped_call`` (its calls and record keys)."""
    if error is None:
        return [f"{where}: expected {expected['code']}, got no error"]
    out = differences(f"{where}.code", expected["code"], error.get("code"))
    for field in ERROR_FIELDS:
        if field in expected:
            out += differences(f"{where}.{field}", expected[field], error.get(field))
    if "reply" in expected:  # the partial reply an unmapped_call carries
        partial = error.get("reply")
        if not isinstance(partial, dict):
            return [*out, f"{where}.reply: expected a partial reply, got none"]
        want = expected["reply"]
        out += differences(f"{where}.reply.calls", want["calls"],
                           call_dicts(partial["calls"], want["calls"]))
        out += record_differences(partial, want, f"{where}.reply")
    return out


def read_differences(expect: dict[str, Any], outcome: Outcome) -> list[str]:
    """How the outcome of ``read`` (:data:`Outcome`) differs from a wire test's
    ``expect``: the error it expects, or the reply's keys it gives."""
    error = outcome.get("error")
    if "error" in expect:
        if error is None:
            calls = len(outcome["result"]["calls"])
            return [f"error: expected {expect['error']['code']}, got a reply with {calls}"
                    " call(s)"]
        return error_differences(expect["error"], error)
    if error is not None:
        return [f"read: expected a reply, got error {error.get('code')}:"
                f" {error.get('message', '')}".rstrip()]
    return reply_differences(outcome["result"], {k: v for k, v in expect.items()
                                                 if k != "sniff" and k not in RENDER_KEYS})


def structured_differences(expect: dict[str, Any], outcome: Outcome) -> list[str]:
    """How the outcome of ``from_structured_output`` differs from ``expect``."""
    error = outcome.get("error")
    if error is not None:
        if "error" in expect:
            return differences("error.code", expect["error"]["code"], error.get("code"))
        return [f"structured_call: expected a call, got error {error.get('code')}:"
                f" {error.get('message', '')}".rstrip()]
    if "error" in expect:
        return [f"error: expected {expect['error']['code']}, got a call"]
    return differences("structured_call", expect["structured_call"],
                       call_view(outcome["result"]))


def rendered(reply: Reply, results: dict[str, Any] | None, registry: Any = None) -> dict[str, Any]:
    """What a reply renders back to, as a test asks it (the ``render`` operation of the
    conformance protocol): its ``assistant_message``, and its ``answer`` to ``results``
    (keyed by each call's index in ``reply.calls``, in decimal), or None without results."""
    turn = reply.assistant_message(registry=registry)
    given = None if results is None else {int(k): v for k, v in results.items()}
    return {"assistant_message": turn,
            "answer": None if given is None else reply.answer(given, registry=registry)}


def render_differences(expect: dict[str, Any], outcome: Outcome) -> list[str]:
    """How what a reply rendered back to (:func:`rendered`, or the error) differs from the
    test's ``assistant_message`` and ``answer``, where it gives them."""
    error = outcome.get("error")
    if error is not None:
        return [f"render: expected {', '.join(k for k in RENDER_KEYS if k in expect)}, got"
                f" error {error.get('code')}: {error.get('message', '')}".rstrip()]
    out: list[str] = []
    for key in RENDER_KEYS:
        if key in expect:
            out += differences(key, expect[key], outcome["result"].get(key))
    return out


def outcome_of(produce: Callable[[], Any]) -> Outcome:
    """``{"result": <JSON of what produce returned>}`` or ``{"error": <the
    ToolwireError's to_dict()>}``: the outcome of one operation as JSON data."""
    try:
        value = produce()
    except ToolwireError as exc:
        return {"error": exc.to_dict()}
    return {"result": _as_data(value)}


def run_wire_test(registry: Registry, fmt: str | None, test: dict[str, Any]) -> list[str]:
    """Run one test of a wire case against ``registry``: the differences, [] for a pass.

    The outcome is compared as JSON (:func:`read_differences`), as ``toolwire conformance``
    compares another implementation's answers. Besides the expectation it holds ``read`` to
    its own promises: ``extract`` gives the reply's calls (and refuses as ``read`` does),
    and the reply's JSON (``to_dict``/``from_dict``) round-trips.
    """
    expect = test["expect"]
    out: list[str] = []
    response = test["response"]
    if "sniff" in expect:
        out += differences("sniff", expect["sniff"], registry.sniff_format(response))
    choice = test.get("choice", 0)
    if "structured_output" in test:
        tool_name = test["structured_output"]["tool_name"]
        return out + structured_differences(expect, outcome_of(
            lambda: registry.from_structured_output(fmt, response, tool_name, choice=choice)))
    options = {"strict": test.get("strict"), "choice": choice}
    lifting = {key: test[key] for key in ("text_format", "text_params") if key in test}
    try:
        reply = registry.read(fmt, response, **options, **lifting)
    except ToolwireError as exc:
        out += read_differences(expect, {"error": exc.to_dict()})
        if not lifting and (fmt is not None or exc.code == "provider_error"):
            # extract refuses the same way
            try:
                if fmt is None:
                    registry.extract_sniff(response, strict=options["strict"])
                else:
                    registry.extract(fmt, response, **options)
            except ToolwireError as again:
                if type(again) is not type(exc):
                    out.append(f"extract: raised {type(again).__name__},"
                               f" read {type(exc).__name__}")
            else:
                out.append(f"extract: raised nothing, read raised {exc.code}")
        return out
    out += read_differences(expect, {"result": reply.to_dict()})
    if any(key in expect for key in RENDER_KEYS):
        out += render_differences(expect, outcome_of(
            lambda: rendered(reply, test.get("results"), registry)))

    if Reply.from_dict(reply.to_dict()) != reply:
        out.append("Reply.from_dict(reply.to_dict()) differs from the reply")
    if lifting:  # extract reads the wire calls only
        return out
    calls = (registry.extract(fmt, response, **options) if fmt is not None
             else registry.extract_sniff(response, strict=options["strict"]))
    if calls != list(reply.calls):
        out.append("extract: its calls differ from read's")
    return out

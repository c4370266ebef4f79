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

from ..errors import ToolwireError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from ..registry import Registry
    from ..reply import Reply

__all__ = [
    "OPTIONAL_CALL_KEYS", "call_dicts", "call_view", "differences", "record_differences",
    "run_wire_test",
]

ERROR_FIELDS = (
    "item_index", "item_type", "looks_like", "format", "error_message", "error_type",
    "error_code", "provider_data",
)
"""Fields of an expected error compared where the case gives them (specs/README.md §4)."""

OPTIONAL_CALL_KEYS = ("raw_arguments", "item_index", "provider_data")
"""Keys of an expected call compared only where the case gives them (specs/README.md §4)."""


def call_view(call: Any) -> dict[str, Any]:
    """A call as the suite compares it: ``to_dict()`` without the free-text message, which
    is for people and differs between languages (the code is compared instead)."""
    data: dict[str, Any] = call.to_dict()
    data.pop("arguments_error", None)
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


def differences(where: str, expected: Any, got: Any) -> list[str]:
    """Where ``got`` differs from ``expected``: into objects key by key and into lists of
    the same length item by item; elsewhere the whole value. JSON equality (``1 != true``)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        out: list[str] = []
        for key in sorted(set(expected) | set(got)):
            place = f"{where}.{key}" if where else key
            if key not in got:
                out.append(f"{place}: expected {_show(expected[key])}, got nothing")
            elif key not in expected:
                out.append(f"{place}: not expected, got {_show(got[key])}")
            else:
                out.extend(differences(place, expected[key], got[key]))
        return out
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        return [d for i, (e, g) in enumerate(zip(expected, got, strict=True))
                for d in differences(f"{where}[{i}]", e, g)]
    if _show(expected) == _show(got):
        return []
    return [f"{where}: expected {_show(expected)}, got {_show(got)}"]


def record_differences(reply: Reply, expect: dict[str, Any], where: str = "") -> list[str]:
    """The record keys of an expectation (§4), where it gives them."""
    prefix = f"{where}." if where else ""
    got: dict[str, Any] = {}
    if "unknown" in expect:
        got["unknown"] = [{"item_index": u.item_index, "item_type": u.item_type}
                          for u in reply.unknown]
    if "refused" in expect:
        got["refused"] = [{"item_index": r.item_index, "item_type": r.item_type, "code": r.code}
                          for r in reply.refused]
    if "call_records" in expect:
        wanted = expect["call_records"]
        got["call_records"] = [
            {k: v for k, v in r.to_dict().items() if k in (wanted[i] if i < len(wanted) else {})}
            for i, r in enumerate(reply.call_records)
        ]
    if "fates" in expect:
        got["fates"] = list(reply.fates())
    if "choice_count" in expect:
        got["choice_count"] = reply.choice_count
    return [d for key, value in got.items()
            for d in differences(prefix + key, expect[key], value)]


def reply_differences(reply: Reply, expect: dict[str, Any], where: str = "") -> list[str]:
    """How a reply differs from a test's ``expect`` (every key it gives)."""
    prefix = f"{where}." if where else ""
    got: dict[str, Any] = {}
    if "calls" in expect:
        got["calls"] = call_dicts(reply.calls, expect["calls"])
    if "server_calls" in expect:
        got["server_calls"] = [s.to_dict() for s in reply.server_calls]
    if "truncated" in expect:
        got["truncated"] = reply.truncated
    if "finish_reason" in expect:
        got["finish_reason"] = reply.finish_reason
    if "unknown_types" in expect:
        got["unknown_types"] = list(reply.unknown_types)
    if "skipped" in expect:
        got["skipped"] = [{"item_index": s.item_index, "item_type": s.item_type}
                          for s in reply.skipped]
    out = [d for key, value in got.items()
           for d in differences(prefix + key, expect[key], value)]
    return out + record_differences(reply, expect, where)


def _error_differences(
    registry: Registry, fmt: str | None, test: dict[str, Any], options: dict[str, Any]
) -> list[str]:
    from ..errors import UnmappedCall

    expected = test["expect"]["error"]
    try:
        reply = registry.read(fmt, test["response"], **options)
    except ToolwireError as exc:
        error = exc
    else:
        return [f"error: expected {expected['code']}, got a reply with {len(reply.calls)}"
                " call(s)"]
    out = differences("error.code", expected["code"], error.code)
    for field in ERROR_FIELDS:
        if field in expected:
            out += differences(f"error.{field}", expected[field], getattr(error, field, None))
    if "reply" in expected:  # the partial reply an unmapped_call carries
        partial = getattr(error, "reply", None)
        if not isinstance(error, UnmappedCall) or partial is None:
            return [*out, "error.reply: expected a partial reply, got none"]
        want = expected["reply"]
        out += differences("error.reply.calls", want["calls"], call_dicts(partial.calls,
                                                                         want["calls"]))
        out += record_differences(partial, want, "error.reply")
    if fmt is not None or error.code == "provider_error":  # extract refuses the same way
        try:
            if fmt is None:
                registry.extract_sniff(test["response"], strict=options["strict"])
            else:
                registry.extract(fmt, test["response"], **options)
        except ToolwireError as again:
            if again.code != error.code:
                out.append(f"extract: raised {again.code}, read {error.code}")
        else:
            out.append(f"extract: raised nothing, read raised {error.code}")
    return out


def _structured_differences(
    registry: Registry, fmt: str | None, test: dict[str, Any]
) -> list[str]:
    expect = test["expect"]
    tool_name = test["structured_output"]["tool_name"]
    try:
        call = registry.from_structured_output(fmt, test["response"], tool_name,
                                               choice=test.get("choice", 0))
    except ToolwireError as exc:
        if "error" in expect:
            return differences("error.code", expect["error"]["code"], exc.code)
        return [f"structured_call: expected a call, got error {exc.code}: {exc}"]
    if "error" in expect:
        return [f"error: expected {expect['error']['code']}, got a call"]
    return differences("structured_call", expect["structured_call"], call_view(call))


def run_wire_test(registry: Registry, fmt: str | None, test: dict[str, Any]) -> list[str]:
    """Run one test of a wire case against ``registry``: the differences, [] for a pass.

    Besides the expectation it holds ``read`` to its own promises: ``extract`` gives the
    reply's calls, and the reply's JSON (``to_dict``/``from_dict``) round-trips.
    """
    expect = test["expect"]
    out: list[str] = []
    if "sniff" in expect:
        out += differences("sniff", expect["sniff"], registry.sniff_format(test["response"]))
    if "structured_output" in test:
        return out + _structured_differences(registry, fmt, test)
    options = {"strict": test.get("strict"), "choice": test.get("choice", 0)}
    if "error" in expect:
        return out + _error_differences(registry, fmt, test, options)
    try:
        reply = registry.read(fmt, test["response"], **options)
    except ToolwireError as exc:
        return [*out, f"read: expected a reply, got error {exc.code}: {exc}"]
    out += reply_differences(reply, expect)
    from ..reply import Reply

    if Reply.from_dict(reply.to_dict()) != reply:
        out.append("Reply.from_dict(reply.to_dict()) differs from the reply")
    calls = (registry.extract(fmt, test["response"], **options) if fmt is not None
             else registry.extract_sniff(test["response"], strict=options["strict"]))
    if calls != list(reply.calls):
        out.append("extract: its calls differ from read's")
    return out

"""The checks of wire, interpreter and tools cases: requests out, answers compared.

Each check is a generator (:data:`Check`): it yields the requests one test needs, is sent
their outcomes (``{"result": …}`` or ``{"error": …}``, in the same order) and returns the
differences, [] for a pass. The comparison is the suite's own
(:mod:`toolwire.conformance._wire_cases`), on JSON: a Reply as its JSON (specs/README.md §7), an
error as its code and facts.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from .._values.reply import Reply
from ._wire_cases import (
    RENDER_KEYS,
    differences,
    read_differences,
    render_differences,
    structured_differences,
)

__all__ = ["Check", "check_interpreter", "check_tools", "check_wire", "reply_shape_problems"]

Check = Generator[list[dict[str, Any]], list[dict[str, Any]], list[str]]
"""Yields requests, is sent their outcomes, returns the differences."""

_FIRST_LIST = ("calls", "server_calls", "truncated", "finish_reason", "unknown_types", "skipped")


def reply_shape_problems(where: str, reply: Any) -> list[str]:
    """Whether ``reply`` is a Reply's JSON (§7) that reads back: keys, records and each
    call's fate agreeing with its fields (``Reply.from_dict`` refuses a fate that does not)."""
    try:
        Reply.from_dict(reply)
    except (TypeError, ValueError, KeyError) as exc:
        return [f"{where}: not a Reply's JSON (specs/README.md §7): {exc}"]
    return []


def _outcome_shape(where: str, outcome: dict[str, Any]) -> list[str]:
    if "result" in outcome:
        return reply_shape_problems(where, outcome["result"])
    partial = outcome["error"].get("reply")
    return [] if partial is None else reply_shape_problems(f"{where} (error.reply)", partial)


def _read_request(rid: str, fmt: str | None, test: dict[str, Any],
                  spec: dict[str, Any] | None = None, tools: Any = None) -> dict[str, Any]:
    request = {"id": rid, "op": "read", "format": fmt, "spec": spec,
               "response": test["response"], "strict": test.get("strict"),
               "choice": test.get("choice"), "tools": tools}
    for key in ("text_format", "text_params"):  # only where a test lifts calls from text
        if key in test:
            request[key] = test[key]
    return request


def _wire_test(rid: str, fmt: str | None, test: dict[str, Any],
               spec: dict[str, Any] | None = None) -> Check:
    expect = test["expect"]
    requests = []
    if "sniff" in expect:
        requests.append({"id": f"{rid}:sniff", "op": "sniff", "response": test["response"]})
    if "structured_output" in test:
        requests.append({"id": rid, "op": "structured_output", "format": fmt, "spec": spec,
                         "response": test["response"],
                         "tool_name": test["structured_output"]["tool_name"],
                         "choice": test.get("choice")})
    else:
        requests.append(_read_request(rid, fmt, test, spec))
    renders = any(key in expect for key in RENDER_KEYS)
    if renders:  # the reply rendered back (§6): asked after the read, answered last
        requests.append({"id": f"{rid}:render", "op": "render", "format": fmt, "spec": spec,
                         "response": test["response"], "strict": test.get("strict"),
                         "choice": test.get("choice"), "results": test.get("results"),
                         **{k: test[k] for k in ("text_format", "text_params") if k in test}})
    answers = yield requests
    rendering = answers.pop() if renders else None
    out: list[str] = []
    if "sniff" in expect:
        sniffed = answers[0]
        if "error" in sniffed:
            out.append(f"sniff: expected {expect['sniff']!r}, got error"
                       f" {sniffed['error'].get('code')}")
        else:
            out += differences("sniff", expect["sniff"], sniffed["result"])
    if "structured_output" in test:
        return out + structured_differences(expect, answers[-1])
    out += _outcome_shape("read", answers[-1]) + read_differences(expect, answers[-1])
    if rendering is not None and "error" not in answers[-1]:
        out += render_differences(expect, rendering)
    return out


def check_wire(name: str, data: dict[str, Any]) -> Check:
    """A wire case: each test read (or sniffed, or read as structured output)."""
    out: list[str] = []
    for index, test in enumerate(data["tests"]):
        found = yield from _wire_test(f"{name}::{index}", data["format"], test)
        out += [f"tests[{index}]: {d}" for d in found]
    return out


def check_interpreter(name: str, data: dict[str, Any]) -> Check:
    """An interpreter case: each test read with the case's inline spec (format ``demo``)."""
    out: list[str] = []
    for index, test in enumerate(data["tests"]):
        missing = [k for k in _FIRST_LIST if k not in test["expect"] and "error" not in
                   test["expect"] and "structured_output" not in test]
        if missing:
            out.append(f"tests[{index}]: the case lacks expect.{', expect.'.join(missing)}")
        found = yield from _wire_test(f"{name}::{index}", "demo", test, data["spec"])
        out += [f"tests[{index}]: {d}" for d in found]
    return out


def _verdicts(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return [{
        "name": call.get("name"),
        "id": call.get("id"),
        "unknown_tool": call.get("unknown_tool", False),
        "arguments_invalid": call.get("arguments_invalid", False),
        "arguments_errors": [{"pointer": e.get("pointer"), "keyword": e.get("keyword")}
                             for e in call.get("arguments_errors", [])],
    } for call in reply["calls"]]


def _tools_test(rid: str, fmt: str, test: dict[str, Any]) -> Check:
    expect = test["expect"]
    compiled, read = yield [
        {"id": f"{rid}:tools", "op": "tools", "format": fmt, "tools": test["tools"]},
        _read_request(rid, fmt, test, tools=test["tools"]),
    ]
    if "error" in expect:
        error = compiled.get("error")
        if error is None:
            return [f"error: expected {expect['error']['code']}, the tools compiled"]
        out = [d for key, value in expect["error"].items()
               for d in differences(f"error.{key}", value, error.get(key))]
        if "error" not in read:
            out.append(f"read: expected {expect['error']['code']}, got a reply")
        else:
            out += differences("read.error.code", expect["error"]["code"],
                               read["error"].get("code"))
        return out
    if "error" in compiled:
        return [f"tools: expected them to compile, got error {compiled['error'].get('code')}:"
                f" {compiled['error'].get('message', '')}"]
    if "error" in read:
        return [f"read: expected a reply, got error {read['error'].get('code')}"]
    out = _outcome_shape("read", read)
    out += differences("calls", expect["calls"], _verdicts(read["result"]))
    if "fates" in expect:
        out += differences("fates", expect["fates"],
                           [call.get("fate") for call in read["result"]["calls"]])
    result = compiled["result"]
    if "names" in expect:
        out += differences("names", expect["names"], result.get("names"))
    parameters = result.get("parameters", {})
    for tool, schema in expect.get("parameters", {}).items():
        out += differences(f"parameters.{tool}", schema, parameters.get(tool))
    return out


def check_tools(name: str, data: dict[str, Any]) -> Check:
    """A tools case: the tools compiled (names, parameters, or the error), and the reply
    read with them (each call's verdict, the fates)."""
    out: list[str] = []
    for index, test in enumerate(data["tests"]):
        found = yield from _tools_test(f"{name}::{index}", data["format"], test)
        out += [f"tests[{index}]: {d}" for d in found]
    return out

"""Fuzz tool schemas: ``Tools`` built from a request (every format with a tools part) or from
plain JSON Schemas, then calls checked against it.

Input: one selector byte (a format, or ``from_schemas``), then a JSON object
``{"tools": <request body or tool list>, "schemas": {name: schema}, "arguments": [...]}``.
The oracle: building answers with a ``Tools`` or :class:`toolwire.errors.InvalidTools`, never
another exception, and never opens a URL or a socket (a ``$ref`` is never retrieved); checking every
arguments object against every offered name (and one not offered) answers with a call whose
verdict is consistent — ``unknown_tool`` with its one error, or ``arguments_invalid`` exactly
when there are errors — that round-trips, whose error result is text; the fast check never
calls valid what the validator rejects; the input is left as it was.

    python tools/fuzz/fuzz_tools.py CORPUS_DIR -max_total_time=600
"""

from __future__ import annotations

import sys
from typing import Any

import _common

FROM_SCHEMAS = "from_schemas"


def tool_choices(toolwire: Any) -> list[str]:
    """Every format whose spec has a tools part, then ``from_schemas``."""
    registry = toolwire.Registry.default()
    found = [f for f in registry.formats() if isinstance(registry.spec(f).data.get("tools"), dict)]
    return [*found, FROM_SCHEMAS]


def _no_io() -> None:
    """Any URL opened or socket connected is a finding: schemas retrieve nothing."""
    import socket
    import urllib.request

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"a tool schema tried I/O: {args[:2]!r}")

    urllib.request.urlopen = refuse  # type: ignore[assignment]
    socket.socket.connect = refuse  # type: ignore[method-assign]
    socket.create_connection = refuse  # type: ignore[assignment]


def setup() -> None:
    global toolwire
    toolwire = _common.import_instrumented()
    CHOICES.extend(tool_choices(toolwire))
    _no_io()


def build(choice: str, body: dict[str, Any]) -> Any:
    """``("ok", tools)`` or ``("error", dict)``; any other exception escapes."""
    if choice == FROM_SCHEMAS:
        schemas = body.get("schemas")
        if not isinstance(schemas, dict):
            return None
        return _common.outcome(lambda: toolwire.Tools.from_schemas(schemas))
    request = body.get("tools")
    if not isinstance(request, (dict, list, str)):
        return None
    return _common.outcome(lambda: toolwire.Tools(choice, request))


def check(choice: str, body: dict[str, Any]) -> None:
    before = _common.copy_value(body)
    built = build(choice, body)
    if built is None:
        return
    assert _common.same_json(body, before), "building Tools changed its input"
    if built[0] == "error":
        assert built[1]["code"] == "invalid_tools", built
        return
    tools = built[1]
    arguments = body.get("arguments")
    for args in arguments if isinstance(arguments, list) else []:
        if not isinstance(args, dict):
            continue
        for name in [*tools.names, "not_offered_" + "x" * 3]:
            _check_one(tools, toolwire.ToolCall(name, args))
    assert _common.same_json(body, before), "checking calls changed the input"


def _check_one(tools: Any, call: Any) -> None:
    checked = tools.check(call)
    _common.check_call(checked)
    assert checked.arguments == call.arguments, "a check changed the arguments"
    errors = checked.arguments_errors
    assert all(isinstance(e, toolwire.types.ArgumentError) for e in errors)
    if call.name not in tools:
        assert checked.unknown_tool and not checked.arguments_invalid
        assert [e.keyword for e in errors] == ["unknown_tool"], errors
    else:
        assert not checked.unknown_tool
        assert checked.arguments_invalid == bool(errors), (checked, errors)
        definition = tools.definition(call.name)
        fast = getattr(definition, "_check", None)
        if fast is not None and errors:
            try:
                said = fast(call.arguments)
            except (RecursionError, toolwire.errors.RegexBudgetExceeded):
                said = None
            assert said is not True, f"the fast check passed what the validator refused: {errors}"
    if checked.unknown_tool or checked.arguments_invalid:
        assert isinstance(toolwire.Reply.error_result(checked), str)


def test_one_input(raw: bytes) -> None:
    if not raw or not CHOICES:
        return
    choice = CHOICES[raw[0] % len(CHOICES)]
    body = _common.parse_json(raw[1:])
    if isinstance(body, dict):
        check(choice, body)


def mutate(data: bytes, max_size: int, seed: int) -> bytes:
    return _common.mutate_json(data, max_size, seed, offset=1)


def main(argv: list[str]) -> None:
    import atheris

    setup()
    atheris.Setup(argv, test_one_input, custom_mutator=mutate)
    atheris.Fuzz()


toolwire: Any = None
CHOICES: list[str] = []

if __name__ == "__main__":
    main(sys.argv)

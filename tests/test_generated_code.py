"""The Python the readers generate: where it may decline, how to see it, how to switch it off.

Generated code answers what it can and declines (``None``) the rest, which the interpreter
then answers; a decline is invisible in the answers. So which conformance replies each
generated function may decline is pinned (``generated_declines.json``): a change that makes
a reader decline more — and quietly take the slow path — fails here.
"""

from __future__ import annotations

import json
import linecache
import os
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

import pytest

import toolwire
from toolwire._speed.generated import SpecCode, compile_function, mode_from_environment
from toolwire._wire import gate
from toolwire._wire.fastpath import build_fast_extract
from toolwire._wire.fastpred import passing_check
from toolwire._wire.fastread import build_fast_read
from toolwire._wire.generated_source import generated_source
from toolwire.cli import main
from toolwire.errors import MalformedResponse, NotJSONValue, ToolwireError

from conformance import cases, each_test

PINNED = json.loads((Path(__file__).parent / "generated_declines.json").read_text("utf-8"))
REPLY = {"choices": [{"finish_reason": "tool_calls", "message": {"tool_calls": [
    {"id": "call_1", "type": "function",
     "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}]}


def _readable_replies() -> list[tuple[str, str, dict[str, Any], bool | None]]:
    """Every wire conformance reply (a JSON object, the first choice) that reads cleanly."""
    found = []
    for name, case, test in each_test(cases()):
        fmt, response = case.data["format"], test["response"]
        if fmt is None or type(response) is not dict or test.get("choice"):
            continue
        try:
            toolwire.read(fmt, response, strict=test.get("strict"))
        except ToolwireError:
            continue
        found.append((name, fmt, response, test.get("strict")))
    return found


READABLE = _readable_replies()


def _declined() -> dict[str, set[str]]:
    registry = toolwire.Registry.bundled()
    built: dict[tuple[str, str, bool], Any] = {}
    declined: dict[str, set[str]] = {"extract": set(), "read": set(), "gate": set()}
    for name, fmt, response, strict in READABLE:
        spec = registry.spec(fmt)
        refuse = spec.unknown_items == "refuse" if strict is None else strict
        for kind, build in (("extract", build_fast_extract), ("read", build_fast_read)):
            function = built.get((kind, fmt, refuse))
            if function is None:
                function = built[kind, fmt, refuse] = build(spec, refuse)
            copy = json.loads(json.dumps(response))
            if (function(copy) if kind == "extract" else function(copy, True)) is None:
                declined[kind].add(name)
        if passing_check(spec)(response) is not True:
            declined["gate"].add(name)
    return declined


def test_the_generated_readers_decline_exactly_the_pinned_replies() -> None:
    assert len(READABLE) > 200
    declined = _declined()
    for kind, names in declined.items():
        pinned = set(PINNED[kind])
        assert names - pinned == set(), f"the generated {kind} newly declines these"
        assert pinned - names == set(), f"the generated {kind} answers these now: unpin them"


def test_the_written_schema_checks_compile_all_but_the_pinned_test_schemas() -> None:
    uncompiled, compiled = set(), 0
    for name, case, test in each_test(cases(under="tools")):
        if "tools" not in test:
            continue
        try:
            tools = toolwire.Tools(case.data["format"], test["tools"])
        except ToolwireError:
            continue
        for definition in tools.definitions:
            if definition.schema is None:
                continue
            if definition._check is None:
                uncompiled.add(f"{name}::{definition.name}")
            else:
                compiled += 1
    assert uncompiled == set(PINNED["schema_checks"])
    assert compiled >= 40


def test_a_generated_function_is_registered_in_linecache_and_keeps_its_source() -> None:
    source = "def f(x):\n    return 1 // x\n"
    function = compile_function(source, "check", "demo", {}, "f")
    assert function.toolwire_source == source  # type: ignore[attr-defined]
    filename = function.__code__.co_filename
    assert filename.startswith("toolwire generated check: demo #")
    assert linecache.getline(filename, 2) == "    return 1 // x\n"  # linecache was loaded
    assert linecache.getline(filename, 1, function.__globals__) == "def f(x):\n"
    other = compile_function(source, "check", "demo", {}, "f")
    assert other.__code__.co_filename != filename, "each compilation has its own name"
    with pytest.raises(ZeroDivisionError) as caught:
        function(0)
    shown = "".join(traceback.format_exception(caught.value))
    assert filename in shown and "return 1 // x" in shown


def test_the_specs_generated_code_is_what_its_readers_compile() -> None:
    registry = toolwire.Registry.bundled()
    for _ in range(2):
        registry.read("openai", REPLY)
        registry.extract("openai", REPLY)
    code = registry.spec("openai").code
    gate.check(registry.spec("openai"), REPLY)  # the check the walk runs first
    assert code.read[None].toolwire_source == generated_source(registry.spec("openai"), "read")
    assert code.extract[None].toolwire_source == generated_source(
        registry.spec("openai"), "extract")
    assert code.gate.toolwire_source == generated_source(registry.spec("openai"), "gate")
    assert code.read[None].__code__.co_filename.startswith("toolwire generated read: openai #")


@pytest.mark.parametrize("option", [[], ["--read"], ["--gate"], ["--read", "--strict"]])
def test_specs_generated_prints_source_that_compiles(
    option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["specs", "generated", "responses", *option]) == 0
    source = capsys.readouterr().out
    compile(source, "<printed>", "exec")
    name = "read" if "--read" in option else "passes" if "--gate" in option else "extract"
    assert source.startswith(f"def {name}(")
    kind = {"read": "read", "passes": "gate", "extract": "extract"}[name]
    strict = True if "--strict" in option else None
    spec = toolwire.Registry.default().spec("responses")
    assert source == generated_source(spec, kind, strict)


def test_specs_generated_names_an_unknown_format_with_a_hint(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["specs", "generated", "opena"]) == 2
    assert "did you mean 'openai'" in capsys.readouterr().err


def test_a_registry_with_generation_off_walks_every_reply_and_answers_the_same() -> None:
    off = toolwire.Registry.bundled(generated=False)
    on = toolwire.Registry.bundled()
    for _ in range(4):
        assert off.read("openai", REPLY) == on.read("openai", REPLY)
        assert off.extract("openai", REPLY) == on.extract("openai", REPLY)
    code = off.spec("openai").code
    assert code.mode == "off" and not code.read and not code.extract and code.gate is None
    assert on.spec("openai").code.read, "the default registry generates"
    shared = toolwire.Registry.bundled()
    assert toolwire.Registry(shared.specs().values(), generated=False).spec(
        "openai").code is not shared.spec("openai").code, "a switched registry owns copies"


def test_generated_code_in_debug_mode_raises_where_it_would_decline() -> None:
    odd = {"choices": [{"message": {"tool_calls": [{"id": "c", "type": "function",
        "function": {"name": "f", "arguments": {"a": float("nan")}}}]}}]}
    quiet = toolwire.Registry.bundled()
    debug = toolwire.Registry.bundled(generated="debug")
    for registry in (quiet, debug):
        registry.read("openai", REPLY)
        registry.read("openai", REPLY)
    with pytest.raises(MalformedResponse) as quietly:  # the interpreter's, after the decline
        quiet.read("openai", odd)
    assert not any(f.filename.startswith("toolwire generated")
                   for f in traceback.extract_tb(quietly.value.__traceback__))
    with pytest.raises(NotJSONValue) as caught:  # raised inside the generated read
        debug.read("openai", odd)
    frames = traceback.extract_tb(caught.value.__traceback__)
    assert any(f.filename.startswith("toolwire generated read: openai #") for f in frames)


def test_the_mode_comes_from_the_environment_and_bad_modes_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for value, mode in (("0", "off"), ("off", "off"), ("debug", "debug"), ("1", "on"),
                        ("", "on")):
        monkeypatch.setenv("TOOLWIRE_GENERATED", value)
        assert mode_from_environment() == mode
        assert SpecCode().mode == mode
    with pytest.raises(ValueError, match="mode must be one of"):
        SpecCode("fast")
    with pytest.raises(ValueError, match="generated must be"):
        toolwire.Registry(generated="yes")  # type: ignore[arg-type]


def test_toolwire_generated_0_turns_generation_off_everywhere() -> None:
    script = (
        "import json, sys, toolwire\n"
        f"reply = {REPLY!r}\n"
        "for _ in range(4):\n"
        "    toolwire.read('openai', reply); toolwire.extract('openai', reply)\n"
        "tools = toolwire.Tools.from_schemas({'f': {'type': 'object'}})\n"
        "code = toolwire.Registry.default().spec('openai').code\n"
        "print(json.dumps([code.mode, bool(code.read), bool(code.extract),"
        " tools.definitions[0]._check is None,"
        " any(m.startswith('toolwire._wire.fast') for m in sys.modules)]))\n"
    )
    env = {**os.environ, "TOOLWIRE_GENERATED": "0"}
    out = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                         capture_output=True, text=True).stdout
    assert json.loads(out) == ["off", False, False, True, False]


def test_a_traceback_shows_generated_lines_in_a_process_that_never_loaded_linecache() -> None:
    script = (
        "import sys, toolwire\n"
        f"reply = {REPLY!r}\n"
        "toolwire.read('openai', reply); toolwire.read('openai', reply)\n"
        "before = 'linecache' in sys.modules\n"
        "odd = {'choices': [{'message': {'tool_calls': [{'id': 'c', 'type': 'function',"
        " 'function': {'name': 'f', 'arguments': {'a': float('nan')}}}]}}]}\n"
        "try:\n"
        "    toolwire.read('openai', odd)\n"
        "except Exception:\n"
        "    import traceback\n"
        "    print(before)\n"
        "    print(traceback.format_exc())\n"
    )
    env = {**os.environ, "TOOLWIRE_GENERATED": "debug"}
    out = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                         capture_output=True, text=True).stdout
    first, _, shown = out.partition("\n")
    assert first == "False"
    at = shown.index('File "toolwire generated read: openai #')
    line_after = shown[at:].splitlines()[1].strip()
    assert line_after and not line_after.startswith("File"), "the generated line is shown"

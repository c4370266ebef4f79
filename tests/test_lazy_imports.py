"""Reading a reply with the bundled specs imports no YAML, JSON Schema or JMESPath parser.

The design keeps those to loading and checking specs: the bundled specs arrive
precompiled (``src/toolwire/_spec/_bundle.json``), so a process that only reads replies never
pays for them. Checked in a fresh interpreter, against what a bare interpreter of the same
environment has already loaded: a module that the site's own start-up imports (a ``.pth``
file importing ``typing``, say) is no module toolwire loaded.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

REPLY = {
    "choices": [{
        "message": {"tool_calls": [{"id": "call_1", "type": "function",
                                    "function": {"name": "f", "arguments": "{}"}}]},
        "finish_reason": "tool_calls",
    }]
}

HEAVY = (
    "yaml", "jsonschema", "jmespath", "argparse",
    # the subsystems: batch rows, Spark, interop conversions, and what they pull in
    "toolwire.batch", "toolwire.spark", "toolwire.interop", "toolwire.cli._batch",
    "multiprocessing", "gzip", "pyarrow", "pyspark", "pandas",
    # typing (with the re and contextlib it pulls in) costs a cold command about as much as
    # Python's own start-up: the modules of the reading path never import it at run time
    "typing",
)

SUBSYSTEMS = ("toolwire._stream", "toolwire._tools", "toolwire._render",
              "toolwire.interop", "toolwire.batch", "toolwire.spark", "toolwire.cli._stream",
              "toolwire.cli._tools", "toolwire.cli._batch",
              # the spec author's tools: explain, specs test, the check's overlap finder
              "toolwire._registry.explain", "toolwire.cli._explain", "toolwire.cli._specs_test",
              "toolwire.cli._choice", "toolwire.conformance._wire_cases",
              "toolwire._spec.sniff_overlap",
              "toolwire._spec.predicates", "toolwire._spec.yaml_messages",
              # Hugging Face response templates: loaded only when one is used
              "toolwire._text.templates.template_check", "toolwire.cli._response_template")
"""The subsystems, whichever exist: none is loaded by a plain extract or read."""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "TOOLWIRE_SPEC_PATH"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    return env


@functools.cache
def bare_modules() -> frozenset[str]:
    """The modules a bare interpreter of this environment holds before any code runs: its
    own start-up and the site's (``.pth`` files included)."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys; print(repr(sorted(sys.modules)))"],
        env=_env(), capture_output=True, text=True, check=True,
    )
    return frozenset(ast.literal_eval(done.stdout.splitlines()[-1]))


def _loaded_after(code: str) -> dict[str, object]:
    heavy = tuple(m for m in HEAVY if m not in bare_modules())
    program = (
        "import json, sys\n"
        f"{code}\n"
        f"print(json.dumps({{'loaded': [m for m in {heavy!r} if m in sys.modules],"
        f" 'subsystems': sorted(m for m in sys.modules if m.startswith({SUBSYSTEMS!r})),"
        " 'result': result}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], env=_env(), capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_the_bundle_is_fresh_for_these_tests() -> None:
    from toolwire._spec.bundle import load_bundled_specs

    assert load_bundled_specs() is not None, "stale bundle: run python tools/gen_bundle.py"


def test_extract_imports_neither_yaml_nor_jsonschema_nor_the_jmespath_parser() -> None:
    found = _loaded_after(
        "import toolwire\n"
        f"result = [c.name for c in toolwire.extract('openai', {REPLY!r})]"
    )
    assert found["result"] == ["f"]
    assert found["loaded"] == []


def test_read_and_sniff_import_none_of_them_either() -> None:
    found = _loaded_after(
        "import toolwire\n"
        f"result = [toolwire.sniff_format({REPLY!r}), len(toolwire.read(None, {REPLY!r}).calls)]"
    )
    assert found["result"] == ["openai", 1]
    assert found["loaded"] == []


def test_the_cli_extract_command_imports_none_of_them() -> None:
    found = _loaded_after(
        "import io\n"
        "from toolwire.cli import main\n"
        "out = io.StringIO()\n"
        "main(['extract', '--example', 'openai'], out=out)\n"
        "result = json.loads(out.getvalue())['format']"
    )
    assert found["result"] == "openai"
    assert found["loaded"] == []
    assert found["subsystems"] == []


def test_reading_a_wire_reply_imports_no_text_module() -> None:
    found = _loaded_after(
        "import toolwire\n"
        f"toolwire.read('openai', {REPLY!r})\n"
        "result = sorted(m for m in sys.modules if m.startswith('toolwire._text'))"
    )
    assert found["result"] == []


def test_plain_replies_load_neither_the_sdk_normaliser_nor_the_renderer() -> None:
    # Every bundled format, extract and read on a plain dict: toolwire.interop (SDK
    # objects in) and toolwire._render (results out) load only when used.
    code = (
        "import toolwire\n"
        "result = []\n"
        "for fmt in toolwire.Registry.default().formats():\n"
        "    for data in ({}, {'candidates': [{'content': {'parts': [{'text': 'x'}]}}]}):\n"
        "        try:\n"  # a body without the format's shape is refused: still plain data
        "            result.append(len(toolwire.extract(fmt, data)))\n"
        "            result.append(len(toolwire.read(fmt, data).calls))\n"
        "        except toolwire.errors.MalformedResponse as exc:\n"
        "            result.append(exc.looks_like)\n"
        f"result.append(len(toolwire.read(None, {REPLY!r}).calls))\n"
        "result = sorted(m for m in sys.modules if m.startswith(('toolwire.interop',"
        " 'toolwire._render')))\n"
    )
    assert _loaded_after(code)["result"] == []


def test_the_batch_spark_and_interop_parts_load_on_first_use() -> None:
    found = _loaded_after(
        "import toolwire\n"
        "before = [m for m in ('toolwire.batch', 'toolwire.spark', 'toolwire.interop')"
        " if m in sys.modules]\n"
        f"rows = toolwire.batch.rows({REPLY!r})\n"
        "result = [before, len(rows), 'toolwire.batch' in sys.modules]"
    )
    assert found["result"] == [[], 2, True]


def test_the_subsystem_names_are_where_the_packages_live() -> None:
    """The prefixes above name real homes, so the check does not pass on a misspelling."""
    src = ROOT / "src"
    existing = {name for name in SUBSYSTEMS
                if src.joinpath(*name.split(".")).is_dir()
                or src.joinpath(*name.split(".")).with_suffix(".py").is_file()}
    assert {"toolwire.batch", "toolwire.interop"} <= existing


def test_reading_and_the_cli_never_load_a_subsystem() -> None:
    found = _loaded_after(
        "import io\n"
        "import toolwire\n"
        "from toolwire.cli import main\n"
        f"reply = toolwire.read(None, {REPLY!r})\n"
        "calls = toolwire.extract('openai', " f"{REPLY!r})\n"
        "out = io.StringIO()\n"
        "main(['extract', '--example', 'anthropic'], out=out)\n"
        "result = [len(reply.calls), len(calls), json.loads(out.getvalue())['format']]"
    )
    assert found["result"] == [1, 1, "anthropic"]
    assert found["subsystems"] == []
    assert found["loaded"] == []


def test_toolwire_spark_imports_neither_pyspark_nor_pyarrow_until_batches_arrive() -> None:
    found = _loaded_after(
        "import toolwire.spark\n"
        "function = toolwire.spark.calls_from('response')\n"
        "result = [m for m in ('pyspark', 'pyarrow', 'pandas') if m in sys.modules]"
    )
    assert found["result"] == []


def test_the_interop_conversions_import_none_of_their_libraries() -> None:
    found = _loaded_after(
        "import toolwire\n"
        "from toolwire.interop import langchain, mcp, pydantic_ai\n"
        "call = toolwire.ToolCall('f', {'a': 1}, 'c1')\n"
        "converted = [langchain.to_langchain(call), pydantic_ai.part_fields(call),"
        " mcp.call_params(call)]\n"
        "result = [m for m in ('langchain_core', 'pydantic_ai', 'pydantic', 'mcp')"
        " if m in sys.modules]"
    )
    assert found["result"] == []

def test_read_without_tools_never_loads_the_tools_package() -> None:
    found = _loaded_after(
        "import toolwire\n"
        f"toolwire.read('openai', {REPLY!r}); toolwire.extract('openai', {REPLY!r})\n"
        "result = 'toolwire._tools' in sys.modules"
    )
    assert found == {"loaded": [], "result": False, "subsystems": []}


def test_read_with_tools_loads_the_checker_only_then() -> None:
    found = _loaded_after(
        "import toolwire\n"
        "request = {'tools': [{'type': 'function', 'function': {'name': 'f'}}]}\n"
        f"reply = toolwire.read('openai', {REPLY!r}, tools=request)\n"
        "result = ['toolwire._tools' in sys.modules, reply.fates()[0]]"
    )
    assert found["result"] == [True, "runnable"]
    assert "jsonschema" in found["loaded"]

def test_import_and_extract_load_nothing_of_the_stream_package() -> None:
    found = _loaded_after(
        "import toolwire\n"
        f"toolwire.extract('openai', {REPLY!r}); toolwire.read('openai', {REPLY!r})\n"
        "result = sorted(m for m in sys.modules if m.startswith('toolwire._stream'))"
    )
    assert found["result"] == []


def test_the_accumulator_loads_on_first_use() -> None:
    found = _loaded_after(
        "import toolwire\n"
        "acc = toolwire.Accumulator('openai')\n"
        "result = 'toolwire._stream.accumulator' in sys.modules"
    )
    assert found["result"] is True


COLD_START = ("json", "re", "enum", "functools", "importlib", "warnings", "numbers", "math",
              "threading", "dataclasses", "inspect")
"""What a cold ``toolwire extract`` does without (toolwire._speed says what each costs):
``json`` pulls in ``re``, and ``re`` pulls in ``enum`` and ``functools``, about half of
Python's own start-up; JSON goes through the ``_json`` C module (``toolwire._speed.cjson``)."""


def _cold_modules(code: str) -> list[object]:
    """``[modules of COLD_START loaded, result]`` after ``code``, in a fresh interpreter
    whose harness imports none of them (no json to report back: ``repr`` does)."""
    watched = tuple(m for m in COLD_START if m not in bare_modules())
    program = (f"import sys\n{code}\n"
               f"print(repr([[m for m in {watched!r} if m in sys.modules], result]))\n")
    done = subprocess.run(
        [sys.executable, "-c", program], env=_env(), capture_output=True, text=True, check=True
    )
    return ast.literal_eval(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_a_module_the_site_imports_at_start_up_is_not_held_against_toolwire(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A site whose start-up imports ``typing`` (here a ``sitecustomize``; a ``.pth`` file
    does the same) does not fail the checks above: ``typing`` is the site's, not ours."""
    (tmp_path / "sitecustomize.py").write_text("import typing\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    bare_modules.cache_clear()
    try:
        assert "typing" in bare_modules()
        found = _loaded_after(
            f"import toolwire\nresult = len(toolwire.read('openai', {REPLY!r}).calls)")
        assert found == {"loaded": [], "result": 1, "subsystems": []}
        assert _cold_modules("import toolwire\nresult = 1") == [[], 1]
    finally:
        bare_modules.cache_clear()


def test_the_cli_extract_command_imports_neither_json_nor_re() -> None:
    loaded, result = _cold_modules(
        "import io\n"
        "from toolwire.cli import main\n"
        "out = io.StringIO()\n"
        "main(['extract', '--example', 'openai'], out=out)\n"
        "result = out.getvalue().count('\"name\": \"get_weather\"')"
    )
    assert result == 1
    assert loaded == []


def test_extract_and_read_import_neither_json_nor_re() -> None:
    loaded, result = _cold_modules(
        "import toolwire\n"
        f"reply = toolwire.read('openai', {REPLY!r})\n"
        f"calls = toolwire.extract('openai', {json.dumps(REPLY)!r})\n"
        "result = [len(reply.calls), calls[0].name]"
    )
    assert result == [1, "f"]
    assert loaded == []


def test_a_text_extract_loads_no_response_template_module_until_one_is_used() -> None:
    template = {"start_anchor": "<|a|>", "fields": {
        "tool_calls": {"open": "<c>", "close": "</c>", "content": "json", "repeats": True},
        "content": {}}}
    found = _loaded_after(
        "import toolwire\n"
        "_, calls = toolwire.extract_from_text('hermes', "
        "'<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>')\n"
        "before = sorted(m for m in sys.modules if 'response_template' in m)\n"
        "registry = toolwire.Registry.from_response_template("
        f"{template!r}, name='t', base=toolwire.Registry.bundled())\n"
        "_, mine = registry.extract_from_text('t', '<c>{\"name\": \"g\"}</c>')\n"
        "result = [before, [c.name for c in calls + mine], 'transformers' in sys.modules,"
        " 'regex' in sys.modules]"
    )
    assert found["result"] == [[], ["f", "g"], False, False]


def test_a_plain_cli_extract_loads_neither_the_parser_nor_the_name_checks() -> None:
    # argparse's parser (toolwire.cli._parser) is built only for a command line the plain
    # reader does not read; the format-name checks (toolwire.cli._names) only with --format.
    found = _loaded_after(
        "import io\n"
        "from toolwire.cli import main\n"
        "out = io.StringIO()\n"
        "main(['extract', '--example', 'openai'], out=out)\n"
        "result = [json.loads(out.getvalue())['format'], sorted(m for m in"
        " ('toolwire.cli._parser', 'toolwire.cli._names') if m in sys.modules)]"
    )
    assert found["result"] == ["openai", []]


def test_the_parser_and_the_name_checks_load_when_needed() -> None:
    found = _loaded_after(
        "import io, contextlib\n"
        "from toolwire.cli import main\n"
        "out = io.StringIO()\n"
        "main(['extract', '--example', 'openai', '--format', 'openai'], out=out)\n"
        "names = 'toolwire.cli._names' in sys.modules\n"
        "with contextlib.redirect_stderr(io.StringIO()):\n"
        "    main(['extract', '--example=openai'], out=io.StringIO())\n"
        "result = [names, 'toolwire.cli._parser' in sys.modules]"
    )
    assert found["result"] == [True, True]


def test_a_cold_extract_compiles_one_spec_and_builds_only_the_functions_it_calls() -> None:
    # The bundle is decoded one spec at a time, and a standard function's checks are
    # built when an expression calling it compiles: a cold CLI call pays for one format.
    found = _loaded_after(
        "import io\n"
        "import toolwire\n"
        "from toolwire.cli import main\n"
        "from toolwire._expression import functions\n"
        "out = io.StringIO()\n"
        "main(['extract', '--example', 'openai'], out=out)\n"
        "registry = toolwire.Registry.default()\n"
        "result = [sorted(registry._specs), len(registry.formats()),"
        " sorted(functions._FUNCTIONS), len(functions.SIGNATURES)]"
    )
    compiled, formats, built, standard = found["result"]
    assert compiled == ["openai"]
    assert formats > 1
    assert len(built) < standard


def test_a_few_extracts_walk_and_many_compile_the_generated_function() -> None:
    # Compiling a spec's generated extract was a fifth of a cold `import toolwire;
    # toolwire.extract(...)`: the first replies walk (the same answer), then it compiles.
    found = _loaded_after(
        "import toolwire\n"
        f"first = [c.name for c in toolwire.extract('openai', {REPLY!r})]\n"
        "cold = 'toolwire._wire.fastpath' in sys.modules\n"
        f"last = [c.name for c in toolwire.extract('openai', {REPLY!r})]\n"
        "spec = toolwire.Registry.default().spec('openai')\n"
        "result = [first, cold, last, 'toolwire._wire.fastpath' in sys.modules,"
        " spec.code.extract.get(None) is not None]"
    )
    assert found["result"] == [["f"], False, ["f"], True, True]

"""The JavaScript package (tools/js) as its users get it: packed, installed by name into an
empty folder, typed, bundled without Node's modules, and run through the conformance protocol.

Where node or npm is missing the tests are skipped, saying so. The pack and install happen once
per run (a module fixture); `npm install` of the tarball fetches its three pinned dependencies.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import tarfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from test_conformance_protocol import assert_every_required_case_passes

import toolwire
from toolwire.cli import main
from toolwire.conformance._reference import answer as python_answer

from conformance import split_sample

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "tools" / "js"
SPECS = ROOT / "specs"
SHIPPED = {"wire": "*.yaml", "text": "*.yaml", "schema": "*.json", "examples": "*.json"}


def _tools() -> tuple[str, str]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are needed for the JavaScript package (tools/js/)")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    major, minor = map(int, version.stdout.strip().lstrip("v").split(".")[:2])
    if (major, minor) < (20, 16):
        pytest.skip(f"tools/js/ needs Node 20.16 or later, found {version.stdout.strip()}")
    return node, npm


def _npm(npm: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([npm, *args, "--no-audit", "--no-fund", "--loglevel=error"], cwd=cwd,
                          check=True, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def node() -> str:
    """node, with tools/js's dependencies installed and its bundled specs made from specs/."""
    node, npm = _tools()
    installed = JS / "node_modules" / ".package-lock.json"
    lock = JS / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        _npm(npm, "ci", cwd=JS)  # its prepare script bundles the specs
    else:
        subprocess.run([node, "scripts/bundle-specs.js"], cwd=JS, check=True, timeout=120)
    return node


@pytest.fixture(scope="module")
def tarball(node: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`npm pack` of tools/js (its prepack script copies the specs in afresh)."""
    _, npm = _tools()
    out = tmp_path_factory.mktemp("pack")
    _npm(npm, "pack", "--pack-destination", str(out), cwd=JS)
    (packed,) = out.glob("toolwire-*.tgz")
    return packed


@pytest.fixture(scope="module")
def app(tarball: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty folder, outside the repository, with the tarball installed by npm."""
    _, npm = _tools()
    folder = tmp_path_factory.mktemp("app")
    (folder / "package.json").write_text('{"name": "app", "private": true, "type": "module"}')
    _npm(npm, "install", "--prefer-offline", str(tarball), cwd=folder)
    return folder


def _node(node: str, folder: Path, script: str, *options: str) -> str:
    path = folder / "script.mjs"
    path.write_text(script, encoding="utf-8")
    done = subprocess.run([node, *options, str(path)], cwd=folder, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_js_package_is_versioned_with_the_python_package() -> None:
    package = json.loads((JS / "package.json").read_text("utf-8"))
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    lock = json.loads((JS / "package-lock.json").read_text("utf-8"))
    assert package["name"] == "toolwire"
    assert package["version"] == pyproject["project"]["version"] == toolwire.__version__
    assert lock["version"] == lock["packages"][""]["version"] == package["version"]


def test_typescript_is_pinned_by_the_lockfile() -> None:
    package = json.loads((JS / "package.json").read_text("utf-8"))
    lock = json.loads((JS / "package-lock.json").read_text("utf-8"))
    version = package["devDependencies"]["typescript"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    assert lock["packages"]["node_modules/typescript"]["version"] == version


def test_the_declarations_type_check(node: str) -> None:
    done = subprocess.run([node, "node_modules/typescript/bin/tsc", "--noEmit", "-p", "."],
                          cwd=JS, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_packed_specs_are_the_repositorys(tarball: Path) -> None:
    with tarfile.open(tarball) as tar:
        packed = {m.name.removeprefix("package/"): tar.extractfile(m).read()  # type: ignore[union-attr]
                  for m in tar.getmembers() if m.isfile()}
    for folder, pattern in SHIPPED.items():
        names = {p.name for p in (SPECS / folder).glob(pattern)}
        assert {n.split("/")[-1] for n in packed if n.startswith(f"specs/{folder}/")} == names
        for name in names:
            assert packed[f"specs/{folder}/{name}"] == (SPECS / folder / name).read_bytes(), name
    bundle = packed["specs/bundled.js"].decode("utf-8")
    data = json.loads(bundle[bundle.index("export default ") + 15:].rstrip().rstrip(";"))
    assert sorted(data["wire"]) == sorted(p.stem for p in (SPECS / "wire").glob("*.yaml"))
    assert sorted(data["text"]) == sorted(p.stem for p in (SPECS / "text").glob("*.yaml"))
    assert not [n for n in packed if n.startswith(("run.js", "test/", "scripts/", "types/"))]


READ_BY_NAME = """
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { read, Accumulator, version } from 'toolwire';

const example = fileURLToPath(import.meta.resolve('toolwire/specs/examples/openai.json'));
const reply = read('openai', fs.readFileSync(example, 'utf8'));
const acc = new Accumulator('anthropic');
acc.feedBytes(new TextEncoder().encode(%s));
acc.close();
console.log(JSON.stringify({ version, openai: reply.calls.map((c) => c.name),
  anthropic: acc.reply().calls.map((c) => [c.name, c.arguments]), example }));
"""
ANTHROPIC_SSE = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in [
    ("message_start", {"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude",
        "stop_reason": None}}),
    ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {
        "type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}}),
    ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
        "type": "input_json_delta", "partial_json": '{"city": "Paris"}'}}),
    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
    ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
    ("message_stop", {"type": "message_stop"}),
])


def test_the_installed_package_reads_by_name_with_no_repository_file_beside_it(
    node: str, app: Path,
) -> None:
    out = json.loads(_node(node, app, READ_BY_NAME % json.dumps(ANTHROPIC_SSE)))
    assert out["version"] == toolwire.__version__
    assert out["openai"] == ["get_weather", "get_time"]
    assert out["anthropic"] == [["get_weather", {"city": "Paris"}]]
    assert Path(out["example"]).is_relative_to(app / "node_modules" / "toolwire")
    assert not (app / "node_modules" / "toolwire" / "run.js").exists()


def test_every_readme_example_runs_against_the_installed_package(node: str, app: Path) -> None:
    blocks = re.findall(r"```js\n(.*?)```", (JS / "README.md").read_text("utf-8"), re.S)
    assert len(blocks) >= 10
    for block in blocks:
        _node(node, app, block)


HOOKS = """
import { builtinModules } from 'node:module';
const BUILTIN = new Set(builtinModules);
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('node:') || BUILTIN.has(specifier)) {
    throw new Error(`the reading path imports ${specifier} (from ${context.parentURL})`);
  }
  return next(specifier, context);
}
"""
READ_EVERYTHING = """
import {
  read, readStream, readText, Tools, Registry, sniffFormat, fromStructuredOutput,
} from 'toolwire';
const call = { id: '1', type: 'function', function: { name: 'f', arguments: '{}' } };
const response = { choices: [{ message: { tool_calls: [call] } }] };
const tools = new Tools('openai', [{ type: 'function', function: { name: 'f' } }]);
const chunk = { choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] };
const acme = 'spec_version: 1\\nformat: acme\\nextends: openai\\ntitle: t\\ndoc_ref: https://x\\n';
const checks = [
  read(null, response, { tools }).calls.length,
  readStream('openai', [chunk]).text,
  readText('hermes', '<tool_call>{"name": "f", "arguments": {}}</tool_call>').calls.length,
  sniffFormat({ output: [] }),
  fromStructuredOutput('openai', { choices: [{ message: { content: '{}' } }] }, 'f').name,
  Registry.bundled().withSpecs({ wire: { acme } }).formats.includes('acme'),
];
console.log(JSON.stringify(checks));
"""


def test_the_reading_path_imports_no_node_module(node: str, app: Path) -> None:
    # What a browser bundle needs: with every Node built-in refused at import, the package
    # reads replies, streams, text, tools and a user's spec.
    (app / "hooks.mjs").write_text(HOOKS, encoding="utf-8")
    (app / "register.mjs").write_text(
        "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
        encoding="utf-8")
    out = _node(node, app, READ_EVERYTHING, "--import", "./register.mjs")
    assert json.loads(out) == [1, "hi", 1, "responses", "f", True]
    refused = subprocess.run([node, "--import", "./register.mjs", "-e", "import('node:fs')"],
                             cwd=app, capture_output=True, text=True, timeout=60)
    assert "the reading path imports node:fs" in refused.stderr  # the hook does refuse


READ_TEXT = """
import { readText, extractFromText, Tools, TextReply, ToolwireError } from 'toolwire';
const text = '<tool_call>{"name": "search", "arguments": {}}</tool_call>';
const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
const tool = { type: 'function', function: { name: 'search', parameters: schema } };
const request = { model: 'm', tools: [tool] };
const fates = (tools) => readText('hermes', text, { tools }).fates();
const out = {
  tools: fates(new Tools('openai', request)),
  schemas: fates({ search: schema }),
  unchecked: fates({ search: null }),
  typing_only: fates({ parameters: () => schema }),
  unknown: readText('hermes', text, { tools: { other: null } }).calls[0].unknownTool,
  extracted: extractFromText('hermes', text, { tools: { search: schema } })
    .calls[0].argumentsInvalid,
  value: [readText('hermes', text) instanceof TextReply, Object.isFrozen(readText('hermes', text))],
};
try { readText('hermes', text, { tools: [tool] }); } catch (e) { out.list = e.constructor.name; }
const harmony = '<|start|>assistant<|channel|>analysis to=python code<|message|>print(6*7)<|call|>';
for (const read of [readText, extractFromText]) {
  try { read('gpt_oss', harmony); } catch (e) {
    const seen = [e instanceof ToolwireError && e.code, e.reply instanceof TextReply];
    (out.refused ||= []).push([...seen, e.reply.refused.length]);
  }
}
console.log(JSON.stringify(out));
"""


class _TypingOnly:
    """Tools that only type values: an object with parameters(name) and no check."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema

    def parameters(self, name: str) -> dict[str, Any]:
        return self.schema


def test_read_text_takes_tools_as_python_does_and_refuses_as_extract_does(
    node: str, app: Path,
) -> None:
    from toolwire import Tools
    from toolwire._text import read_text

    out = json.loads(_node(node, app, READ_TEXT))
    text = '<tool_call>{"name": "search", "arguments": {}}</tool_call>'
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    request = {"model": "m", "tools": [{"type": "function", "function": {
        "name": "search", "parameters": schema}}]}
    for key, tools in (("tools", Tools("openai", request)), ("schemas", {"search": schema}),
                       ("unchecked", {"search": None}), ("typing_only", _TypingOnly(schema))):
        assert out[key] == list(read_text("hermes", text, tools=tools).fates()), key
    assert out["tools"] == ["rejected"] and out["typing_only"] == ["runnable"]
    assert out["unknown"] is True and out["extracted"] is True
    assert out["value"] == [True, True]
    assert out["list"] == "TypeError"  # a bare tool list has no format to be read in
    assert out["refused"] == [["unmapped_call", True, 1]] * 2


def test_the_installed_bin_answers_the_protocol(node: str, app: Path) -> None:
    request = {"id": "1", "op": "sniff", "response": {"content": [], "stop_reason": "end_turn"}}
    done = subprocess.run([str(app / "node_modules" / ".bin" / "toolwire-conformance")],
                          input=json.dumps(request) + "\n", capture_output=True, text=True,
                          cwd=app, timeout=60, check=True)
    assert json.loads(done.stdout) == {"id": "1", "result": "anthropic"}


def _js_protocol_run(node: str, folder: Path, sampled: bool) -> tuple[dict[str, Any], Path]:
    record = folder / "transcript.jsonl"
    out = io.StringIO()
    with split_sample(sampled):
        code = main(["conformance", "--implementation",
                     f"{node} {JS / 'bin' / 'toolwire-conformance.js'}", "--json",
                     "--record", str(record)], out=out)
    summary = json.loads(out.getvalue())
    assert code == 0, summary["failures"][:5]
    return summary, record


@pytest.fixture(scope="module")
def js_protocol_run(node: str, tmp_path_factory: pytest.TempPathFactory
                    ) -> tuple[dict[str, Any], Path]:
    """The whole suite through the JS program, a sample of the single byte splits sent."""
    return _js_protocol_run(node, tmp_path_factory.mktemp("js-protocol"), sampled=True)


def test_the_js_package_passes_every_required_case_through_the_protocol(
    js_protocol_run: tuple[dict[str, Any], Path],
) -> None:
    summary, _ = js_protocol_run
    assert_every_required_case_passes(summary)
    assert summary["processes_started"] == 1  # one process serves the whole run


@pytest.mark.exhaustive
def test_the_js_package_passes_every_required_case_with_every_byte_split(
    node: str, tmp_path_factory: pytest.TempPathFactory,
) -> None:
    summary, _ = _js_protocol_run(node, tmp_path_factory.mktemp("js-protocol-full"),
                                  sampled=False)
    assert_every_required_case_passes(summary)
    assert summary["processes_started"] == 1


def _without_messages(reply: Any) -> Any:
    """A Reply's JSON without its messages, each implementation's own wording (specs/README.md
    §7): a call's arguments_error and its schema errors' messages, a record's reason."""
    if reply is None:
        return None
    calls = [{k: v for k, v in c.items() if k != "arguments_error"} for c in reply["calls"]]
    for call in calls:
        if "arguments_errors" in call:
            call["arguments_errors"] = [{k: v for k, v in e.items() if k != "message"}
                                        for e in call["arguments_errors"]]
    records = {key: [{k: v for k, v in r.items() if k != "reason"} for r in reply[key]]
               for key in ("unknown", "skipped", "refused")}
    return {**reply, "calls": calls, **records}


def _replies(answer: dict[str, Any], op: str) -> list[Any]:
    """The Reply JSON an answer holds: a read's reply or partial reply, a stream's replies."""
    if "error" in answer:
        partial = answer["error"].get("reply")
        return [] if partial is None else [partial]
    if op == "read":
        return [answer["result"]]
    return [o.get("result") for o in (answer["result"]["reply"],
                                      answer["result"]["incomplete_reply"])]


def test_the_js_reply_json_equals_pythons_reply_to_dict_for_every_conformance_reply(
    js_protocol_run: tuple[dict[str, Any], Path],
) -> None:
    compared = 0
    with js_protocol_run[1].open(encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            request = entry["request"]
            if request["op"] not in ("read", "stream") or ":" in request["id"].rpartition(
                    "::")[2]:
                continue  # the derived stream requests repeat the whole stream's replies
            python = python_answer(request)
            ours, theirs = _replies(python, request["op"]), _replies(entry["answer"],
                                                                     request["op"])
            got, want = map(_without_messages, theirs), map(_without_messages, ours)
            assert list(got) == list(want), request["id"]
            compared += sum(r is not None for r in ours)
    assert compared >= 400  # every read, partial and stream reply of the suite: not a sample


def _text_without_messages(reading: Any) -> Any:
    """A text reading's JSON (clean_text and a TextReply's JSON) without its messages: a
    call's arguments_error and its schema errors' messages, a refused message's reason."""
    calls = _without_messages({"calls": reading["calls"], "unknown": [], "skipped": [],
                               "refused": []})["calls"]
    refused = [{k: v for k, v in r.items() if k != "reason"} for r in reading["refused"]]
    return {**reading, "calls": calls, "refused": refused}


def _text_outcome(answer: dict[str, Any]) -> dict[str, Any]:
    """A text answer as compared: the reading, or the error's facts and partial TextReply."""
    if "result" in answer:
        return {"result": _text_without_messages(answer["result"])}
    error = answer["error"]
    facts = {k: error.get(k) for k in ("code", "format", "item_index", "item_type", "location")}
    reply = error.get("reply")
    return {"error": facts, "reply": None if reply is None else _text_without_messages(reply)}


def test_the_js_text_reply_json_equals_pythons_text_reply_to_dict_for_every_text_case(
    js_protocol_run: tuple[dict[str, Any], Path],
) -> None:
    compared = refused = 0
    with js_protocol_run[1].open(encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            request = entry["request"]
            if request["op"] != "text":
                continue
            ours, theirs = python_answer(request), entry["answer"]
            assert _text_outcome(theirs) == _text_outcome(ours), request["id"]
            compared += 1
            refused += "error" in ours
    texts = sum(len(json.loads(p.read_text("utf-8"))["tests"])
                for p in (SPECS / "conformance" / "text").rglob("*.json"))
    assert compared == texts  # every test of every text case, refusals among them
    assert refused >= 2

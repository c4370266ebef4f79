"""Hugging Face response templates: toolwire's runner held equal to transformers' own.

The differential part runs transformers' ``parse_response`` and toolwire's
``TemplateTextSpec.parse_message`` on the same (template, reply, prefix, tools) and
asserts equal message dicts, or that both refuse the reply. The templates are every one
transformers ships in its tests and guide (tests/response_template_cases.py), its
built-in serving fallbacks (qwen2/qwen3, qwen3.5, gemma4), and seeded random replies
made of each template's own delimiters. It skips, visibly, where transformers cannot be
imported. The rest checks toolwire's mapping (calls, answer, reasoning, clean text)
and its load-time errors, which need no transformers.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from growth import GROWTH_BOUND, growth
from response_template_cases import CASES, FAILING, SET_ALARM_TOOLS, TEMPLATES

import toolwire
from toolwire import Registry
from toolwire._text.templates.template_scan import TemplateError
from toolwire._text.templates.text_format import TemplateTextSpec, response_template_spec
from toolwire.errors import SpecError

try:
    import logging

    logging.getLogger("transformers").setLevel(logging.ERROR)
    from transformers.utils.chat_parsing import parse_response as hf_parse_response
except Exception as exc:
    hf_parse_response = None
    HF_MISSING = f"transformers cannot be imported ({type(exc).__name__}: {exc})"
else:
    HF_MISSING = ""

needs_hf = pytest.mark.skipif(hf_parse_response is None, reason=HF_MISSING or "-")


def _fallbacks() -> dict[str, dict[str, Any]]:
    try:
        from transformers.cli.serving.utils import _RESPONSE_TEMPLATE_FALLBACKS
    except Exception:
        return {}
    return {f"fallback_{types[0]}": t for types, t in _RESPONSE_TEMPLATE_FALLBACKS.items()}


def _outcome(run: Any) -> Any:
    try:
        return ("ok", run())
    except (ValueError, KeyError) as exc:  # transformers raises these; ours TemplateError
        return ("refused", type(exc).__name__ if not isinstance(exc, TemplateError) else "")


def _both(name: str, template: dict[str, Any], text: str, prefix: str, tools: Any) -> None:
    spec = response_template_spec(template, name)
    assert hf_parse_response is not None
    theirs = _outcome(lambda: hf_parse_response(text, template, prefix=prefix, tools=tools))
    ours = _outcome(lambda: spec.parse_message(text, prefix=prefix, tools=tools))
    assert ours[0] == theirs[0], (name, text, theirs, ours)
    if ours[0] == "ok":
        assert ours[1] == theirs[1], (name, text)
        _mapping_agrees(spec, ours[1], text, prefix)


def _mapping_agrees(spec: TemplateTextSpec, msg: dict[str, Any], text: str, prefix: str) -> None:
    """read_text's calls, answer and reasoning are the message's, by the §1b.13 mapping."""
    reply = toolwire._text.read_text_spec(spec, text, prefix=prefix)
    calls_field = spec.template.fields.get("tool_calls")
    values = msg.get("tool_calls", [])
    if calls_field is not None and not calls_field.repeats:
        values = [values]
    elements = [e for v in values for e in (v if isinstance(v, list) else [v])]
    names = [e.get("function", e).get("name") if isinstance(e, dict)
             and isinstance(e.get("function", e), dict) else None for e in elements]
    all_calls = all(isinstance(n, str) and n for n in names)
    if all_calls:  # a field that does not repeat keeps its last region; toolwire keeps all
        got = [c.name for c in reply.calls]
        assert got[len(got) - len(names):] == names
        if calls_field is not None and calls_field.repeats:
            assert got == names
    if spec.reasoning_field is not None:
        value = msg.get(spec.reasoning_field, "")
        assert reply.reasoning == (value if isinstance(value, str) else "\n\n".join(value))
    answer = msg.get(spec.answer_field, "") if spec.answer_field is not None else None
    if all_calls and isinstance(answer, str):
        assert reply.text == answer


@needs_hf
@pytest.mark.parametrize(("name", "text", "prefix", "tools"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_every_transformers_template_reads_as_transformers_reads_it(
    name: str, text: str, prefix: str, tools: Any
) -> None:
    _both(name, TEMPLATES[name], text, prefix, tools)


@needs_hf
@pytest.mark.parametrize(("name", "text"), FAILING,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(FAILING)])
def test_a_reply_transformers_refuses_is_refused(name: str, text: str) -> None:
    _both(name, TEMPLATES[name], text, "", None)


FALLBACK_REPLIES = [
    ("", '<think>\nhmm\n</think>\n\nSure.\n<tool_call>\n{"name": "f", "arguments": {"a": 1}}'
         '\n</tool_call>\n<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call><|im_end|>'),
    ("<|im_start|>assistant\n<think>\n", "why\n</think>\n\nThe answer.<|im_end|>\n<|endoftext|>"),
    ("<|im_start|>assistant\n<think>\n\n</think>\n\n",
     "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n"
     "</tool_call><|im_end|>"),
    ("<|turn>model\n", "<|channel>thought\nok<channel|>Hi<|tool_call>call:f{a:1}<tool_call|>"
                       "<|tool_response>"),
    ("", "Plain answer only.<eos>"),
]


@needs_hf
def test_transformers_builtin_fallback_templates_read_as_transformers_reads_them() -> None:
    fallbacks = _fallbacks()
    if not fallbacks:
        pytest.skip("transformers.cli.serving.utils cannot be imported")
    for name, template in fallbacks.items():
        for prefix, text in FALLBACK_REPLIES:
            _both(name, template, text, prefix, None)


def _delimiters(template: dict[str, Any]) -> list[str]:
    """Literal pieces of the template's delimiters, for building hostile replies."""
    pieces: list[str] = []
    for field in template["fields"].values():
        for key in ("open", "close"):
            value = field.get(key)
            pieces += [value] if isinstance(value, str) else list(value or [])
        for key in ("open_pattern", "close_pattern"):
            if key in field:
                pieces += [p for p in re.split(r"\\[sSwWd]\*?\+?|[()?:*+\[\]^|$]", field[key])
                           if p and "\\" not in p]
    return pieces


FILLER = ['{"name": "f", "arguments": {"a": 1}}', " ", "\n", "text", "x", "{a:1}",
          '[{"tool_name": "t", "parameters": {}}]', "<parameter=k>v</parameter>", "}", "\"",
          "<function=f>", "call:f", "to=functions.f ", "<|message|>", "<|end|>"]


def _seeds(name: str) -> list[str]:
    seeds = [text for case, text, _, _ in CASES if case == name]
    return seeds or [text for _, text in FALLBACK_REPLIES]


@needs_hf
def test_random_replies_of_each_templates_delimiters_read_as_transformers_reads_them() -> None:
    """Seeded replies per template: its delimiters and filler strung together, and slices
    of its real replies spliced (cut calls, doubled regions, regions without their open)."""
    rng = random.Random(0x5EED)
    templates = {**TEMPLATES, **_fallbacks()}
    for name, template in sorted(templates.items()):
        pieces = _delimiters(template) + FILLER
        seeds = _seeds(name)
        prefixes = sorted({""} | {p for case, _, p, _ in CASES if case == name}
                          | {p for p, _ in FALLBACK_REPLIES if name.startswith("fallback")})
        for _ in range(60):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 9)))
            _both(name, template, text, "", None)
        for _ in range(60):
            parts = []
            for _ in range(rng.randint(1, 3)):
                seed = rng.choice(seeds)
                a, b = sorted(rng.randrange(len(seed) + 1) for _ in range(2))
                parts.append(seed[a:b] if rng.random() < 0.6 else seed[a:])
                if rng.random() < 0.3:
                    parts.append(rng.choice(pieces))
            prefix = rng.choice(prefixes)
            _both(name, template, "".join(parts), prefix, None)


# -- the text format: calls, answer, reasoning, clean text ---------------------------------


def _registry(template: dict[str, Any], name: str = "tpl") -> Registry:
    return Registry.from_response_template(template, name=name, base=Registry.bundled())


def test_a_template_is_a_text_format_of_the_registry() -> None:
    registry = _registry(TEMPLATES["smollm"], "smollm3")
    assert "smollm3" in registry.text_formats()
    assert "hermes" in registry.text_formats()
    clean, calls = registry.extract_from_text(
        "smollm3", 'Checking.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}'
                   "</tool_call><|im_end|>")
    assert [(c.name, c.arguments) for c in calls] == [("get_weather", {"city": "Paris"})]
    assert clean == "Checking.\n<|im_end|>"


def test_read_text_keeps_the_reasoning_apart_and_the_answer_clean() -> None:
    registry = _registry(TEMPLATES["smollm"])
    reply = registry.read_text("tpl", "<think>Paris?</think>\nIt is sunny.<|im_end|>")
    assert (reply.text, reply.reasoning, reply.calls) == ("It is sunny.", "Paris?", ())


def test_the_prefix_parameter_opens_the_reasoning_the_prompt_began() -> None:
    registry = _registry(TEMPLATES["smollm"])
    prompt = "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n"
    reply = registry.read_text("tpl", "Greet back.</think>Hello!<|im_end|>", prefix=prompt)
    assert (reply.text, reply.reasoning) == ("Hello!", "Greet back.")
    without = registry.read_text("tpl", "Greet back.</think>Hello!<|im_end|>")
    assert without.reasoning == "" and "</think>" in without.text


def test_a_call_region_that_does_not_read_stays_in_the_text() -> None:
    registry = _registry(TEMPLATES["smollm"])
    text = 'Try: <tool_call>{"name": "f", "arguments": {oops}}</tool_call> and <tool_call>' \
           '{"name": "g", "arguments": {}}</tool_call>'
    clean, calls = registry.extract_from_text("tpl", text)
    assert [c.name for c in calls] == ["g"]
    assert '<tool_call>{"name": "f", "arguments": {oops}}</tool_call>' in clean
    reply = registry.read_text("tpl", text)
    assert '{"name": "f", "arguments": {oops}}' in reply.text


def test_a_named_call_with_broken_arguments_is_flagged_not_lost() -> None:
    registry = _registry(TEMPLATES["gpt_oss"])
    text = ("<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>"
            '{"tz": "UTC",<|call|>')
    clean, calls = registry.extract_from_text("tpl", text)
    assert len(calls) == 1 and calls[0].name == "get_time"
    assert calls[0].arguments_undecodable and calls[0].arguments == {}
    assert calls[0].arguments_error_code == "unexpected-end"
    assert calls[0].raw_arguments == '{"tz": "UTC",'
    assert clean == ""


def test_string_arguments_follow_the_decoding_table() -> None:
    registry = _registry(TEMPLATES["smollm"])
    _, calls = registry.extract_from_text(
        "tpl", '<tool_call>{"name": "a", "arguments": "{\\"q\\": 1}"}</tool_call>'
               '<tool_call>{"name": "b", "arguments": "[1]"}</tool_call>')
    assert calls[0].arguments == {"q": 1} and not calls[0].arguments_undecodable
    assert calls[1].arguments_undecodable and calls[1].arguments_error_code == "not-an-object"


def test_json_is_strict_so_nan_is_not_json() -> None:
    registry = _registry(TEMPLATES["gpt_oss"])
    _, calls = registry.extract_from_text(
        "tpl", '<|channel|>commentary to=functions.f <|message|>{"x": NaN}<|call|>')
    assert calls[0].arguments_undecodable and calls[0].arguments_error_code == "invalid-literal"


def test_tools_cast_string_arguments_by_the_tool_schema() -> None:
    registry = _registry(TEMPLATES["xml_string_args"])
    text = ("<tool_call>\n<function=set_alarm>\n<parameter=hour>\n007\n</parameter>\n"
            "<parameter=label>\n7\n</parameter>\n</tool_call>")
    tools = {"set_alarm": SET_ALARM_TOOLS[0]["function"]["parameters"]}
    _, typed = registry.extract_from_text("tpl", text, tools=tools)
    _, plain = registry.extract_from_text("tpl", text)
    assert typed[0].arguments == {"hour": 7, "label": "7"}
    assert plain[0].arguments == {"hour": "007", "label": "7"}


def test_transform_each_yields_one_call_per_element() -> None:
    registry = _registry(TEMPLATES["cohere"])
    reply = registry.read_text(
        "tpl", '<|START_THINKING|>two<|END_THINKING|><|START_ACTION|>[{"tool_name": "a",'
               ' "parameters": {}}, {"tool_name": "b", "parameters": {"q": 1}}]<|END_ACTION|>'
               "<|START_RESPONSE|>Done.<|END_RESPONSE|>")
    assert [(c.name, c.arguments) for c in reply.calls] == [("a", {}), ("b", {"q": 1})]
    assert (reply.text, reply.reasoning) == ("Done.", "two")


def test_a_template_without_a_content_field_keeps_the_unclaimed_text() -> None:
    registry = _registry(TEMPLATES["qwen3"])
    reply = registry.read_text(
        "tpl", "Sure.\n<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</tool_call>")
    assert reply.text == "Sure." and [c.arguments for c in reply.calls] == [{"a": 1}]


def test_python_call_lists_are_calls() -> None:
    registry = _registry(TEMPLATES["python_calls"])
    clean, calls = registry.extract_from_text(
        "tpl", "<|tool_call_start|>[f(a=1), g(b='x')]<|tool_call_end|>Done.<|im_end|>")
    assert [(c.name, c.arguments) for c in calls] == [("f", {"a": 1}), ("g", {"b": "x"})]
    assert clean == "Done.<|im_end|>"


def test_lifted_text_calls_of_a_wire_reply_use_the_template() -> None:
    registry = _registry(TEMPLATES["smollm"])
    body = {"choices": [{"message": {"role": "assistant", "content":
            'Hm.<tool_call>{"name": "f", "arguments": {}}</tool_call>'},
            "finish_reason": "stop"}]}
    reply = registry.read("openai", body, text_format="tpl")
    assert [c.name for c in reply.calls] == ["f"] and reply.text == "Hm."


def test_a_tokenizer_config_file_and_a_model_folder_load(tmp_path: Any) -> None:
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(
        {"model_max_length": 4096, "response_template": TEMPLATES["smollm"]}))
    for source in (tmp_path, tmp_path / "tokenizer_config.json", tmp_path / "chat_template.jinja"):
        registry = Registry.from_response_template(source, name="m", base=Registry.bundled())
        _, calls = registry.extract_from_text("m", '<tool_call>{"name": "f"}</tool_call>')
        assert [c.name for c in calls] == ["f"]


def test_a_name_of_a_bundled_format_replaces_it_and_says_so() -> None:
    registry = _registry(TEMPLATES["smollm"], "hermes")
    assert "hermes" in registry.replaced
    assert type(registry.text_spec("hermes")) is TemplateTextSpec


def test_an_undeclared_parameter_is_a_type_error() -> None:
    registry = _registry(TEMPLATES["smollm"])
    with pytest.raises(TypeError, match="unknown parameter 'tag'"):
        registry.extract_from_text("tpl", "x", tag="y")


# -- errors of a template, named by its key -------------------------------------------------


def _problems(template: Any) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as caught:
        response_template_spec(template, "t")
    return [(p.pointer, p.rule) for p in caught.value.problems]


def _with_field(**field: Any) -> dict[str, Any]:
    return {"start_anchor": "<|a|>", "fields": {"x": field}}


@pytest.mark.parametrize(("template", "expected"), [
    (_with_field(open="<x>", close="</x>", content="yaml"),
     ("/fields/x/content", "template-parser")),
    (_with_field(open="<x>", opne="<y>"), ("/fields/x/opne", "template-key")),
    (_with_field(open_pattern=r"\p{L}+"), ("/fields/x/open_pattern", "template-regex")),
    (_with_field(open_pattern=r"(?<=a+)b"), ("/fields/x/open_pattern", "template-regex")),
    (_with_field(open_pattern=r"[[:alpha:]]"), ("/fields/x/open_pattern", "template-regex")),
    (_with_field(open_pattern="(?P<name>x)", close="y"), ("/fields/x", "template-value")),
    (_with_field(open="<x>", transform={"v": "pre {content}"}),
     ("/fields/x/transform/v", "template-transform")),
    (_with_field(open="<x>", join=""), ("/fields/x/join", "template-value")),
    (_with_field(open=[]), ("/fields/x/open", "template-value")),
    (_with_field(open="<x>", close="y", close_pattern="z"),
     ("/fields/x/close_pattern", "template-value")),
    (_with_field(open="<x>", content="json", content_args={"unquoted_key": True}),
     ("/fields/x/content_args/unquoted_key", "template-parser")),
    (_with_field(open="<x>", content="xml-inline"),
     ("/fields/x/content_args/tag_pattern", "template-value")),
    (_with_field(open="<x>", content="xml-inline", content_args={"tag_pattern": "(?P<k>.)"}),
     ("/fields/x/content_args/tag_pattern", "template-value")),
    (_with_field(open="<x>", repeats="yes"), ("/fields/x/repeats", "template-value")),
    ({"fields": {"x": {"open": "<x>"}}}, ("/start_anchor", "template-value")),
    ({"version": 2, "start_anchor": "a", "fields": {"x": {}}}, ("/version", "template-value")),
    ({"start_anchor": "a", "fields": {"a": {}, "b": {}}}, ("/fields", "template-implicit")),
    ({"start_anchor": "a", "fields": {}, "extra": 1}, ("/extra", "template-key")),
    ({"response_schema": {"type": "object", "properties": {}, "x-regex": "."}},
     ("/response_schema", "template-legacy")),
    ({"model_max_length": 1}, ("", "template-shape")),
    ({"start_anchor": "a", "fields": {"content": {"content": "json"}}},
     ("/fields/content", "template-unsupported")),
])
def test_a_bad_template_is_refused_naming_its_key(template: Any, expected: tuple[str, str]) -> None:
    assert expected in _problems(template)


def test_a_template_file_that_is_not_json_is_refused(tmp_path: Any) -> None:
    path = tmp_path / "t.json"
    path.write_text("{nope")
    with pytest.raises(SpecError, match="not JSON") as caught:
        Registry.from_response_template(path, name="t", base=Registry.bundled())
    assert [p.rule for p in caught.value.problems] == ["template-not-json"]
    with pytest.raises(SpecError, match="cannot read") as caught:
        Registry.from_response_template(tmp_path, name="t", base=Registry.bundled())
    assert [p.rule for p in caught.value.problems] == ["unreadable"]


def test_a_template_file_nested_too_deep_is_one_problem_not_a_recursion_error(
    tmp_path: Any, capsys: Any
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(SpecError, match="nested too deep") as caught:
        Registry.from_response_template(path, name="t", base=Registry.bundled())
    assert [p.rule for p in caught.value.problems] == ["template-not-json"]
    code, _, err = _cli(["extract", "--response-template", str(path)], capsys)
    assert code == 1 and err.count("\n") == 1 and "nested too deep" in err, err


# -- the command line -----------------------------------------------------------------------


def _cli(argv: list[str], capsys: Any) -> tuple[int, Any, str]:
    import io

    from toolwire.cli import main

    out = io.StringIO()
    code = main(argv, out=out)
    text = out.getvalue()
    return code, json.loads(text) if text else None, capsys.readouterr().err


def test_the_cli_reads_text_with_a_response_template_file(tmp_path: Any, capsys: Any) -> None:
    template = tmp_path / "smol.json"
    template.write_text(json.dumps(TEMPLATES["smollm"]))
    reply = tmp_path / "reply.txt"
    reply.write_text('Why?</think>Sure.<tool_call>{"name": "f", "arguments": {"a": 1}}'
                     "</tool_call><|im_end|>")
    code, out, _ = _cli(["extract", "--response-template", str(template), str(reply)], capsys)
    assert code == 0 and out["format"] == "smol"
    assert [(c["name"], c["arguments"]) for c in out["calls"]] == [("f", {"a": 1})]
    assert out["clean_text"] == "Why?</think>Sure.<|im_end|>"
    code, out, _ = _cli(["extract", "--response-template", str(template), "--param",
                         "prefix=<|im_start|>assistant\n<think>", str(reply)], capsys)
    assert code == 0 and out["clean_text"] == "Why?</think>Sure.<|im_end|>"


def test_the_cli_lifts_template_calls_out_of_a_wire_reply(tmp_path: Any, capsys: Any) -> None:
    template = tmp_path / "smol.json"
    template.write_text(json.dumps(TEMPLATES["smollm"]))
    body = tmp_path / "reply.json"
    body.write_text(json.dumps({"choices": [{"message": {"role": "assistant", "content":
                    'Hm.<tool_call>{"name": "g", "arguments": {}}</tool_call>'},
                    "finish_reason": "stop"}]}))
    code, out, _ = _cli(["extract", "--response-template", str(template),
                         "--text-in-content", "smol", str(body)], capsys)
    assert code == 0 and [c["name"] for c in out["calls"]] == ["g"]


@pytest.mark.parametrize(("extra", "message"), [
    (["--text", "hermes"], "does not go with --text"),
    (["--param", "tag=x"], "unknown parameter 'tag'"),
    (["--text-in-content", "hermes"], "the response template's format is 'smol'"),
    (["--jsonl"], "--jsonl does not go with --response-template"),
])
def test_a_wrong_command_line_is_one_usage_line(
    tmp_path: Any, capsys: Any, extra: list[str], message: str
) -> None:
    template = tmp_path / "smol.json"
    template.write_text(json.dumps(TEMPLATES["smollm"]))
    reply = tmp_path / "r.txt"
    reply.write_text("x")
    code, _, err = _cli(["extract", "--response-template", str(template), *extra, str(reply)],
                        capsys)
    assert code == 2 and err.count("\n") == 1 and message in err


def test_a_missing_template_file_is_a_usage_error(tmp_path: Any, capsys: Any) -> None:
    code, _, err = _cli(["extract", "--response-template", str(tmp_path / "no.json")], capsys)
    assert code == 2 and "no such file" in err and err.count("\n") == 1


def test_a_bad_template_file_names_the_key_and_exits_1(tmp_path: Any, capsys: Any) -> None:
    template = tmp_path / "bad.json"
    template.write_text(json.dumps({"start_anchor": "a", "fields": {
        "tool_calls": {"open": "<c>", "close": "</c>", "content": "yaml"}}}))
    code, _, err = _cli(["extract", "--response-template", str(template)], capsys)
    assert code == 1
    assert "/fields/tool_calls/content: unknown content parser 'yaml'" in err


@needs_hf
def test_tools_as_a_mapping_cast_as_transformers_tool_list_does() -> None:
    spec = response_template_spec(TEMPLATES["xml_string_args"], "x")
    text = ("<tool_call>\n<function=set_alarm>\n<parameter=hour>\n7\n</parameter>\n"
            "<parameter=enabled>\n1\n</parameter>\n</tool_call>")
    mapping = {"set_alarm": SET_ALARM_TOOLS[0]["function"]["parameters"]}
    assert hf_parse_response is not None
    expected = hf_parse_response(text, TEMPLATES["xml_string_args"], prefix="",
                                 tools=SET_ALARM_TOOLS)
    assert spec.parse_message(text, tools=mapping) == expected
    assert spec.parse_message(text, tools=SET_ALARM_TOOLS) == expected
    assert expected["tool_calls"][0]["function"]["arguments"] == {"hour": 7, "enabled": True}



CAST_TEXTS = ["007", "1e5", "nan", "inf", " 7 ", "1_000", "٣", "True", "0x10", "-0", "1.0",
              "1.5", "[1]", "{}", "null", "None", "x", "", "1", "0", "FALSE", '{"a": [1]}',
              "3.", ".5", "+4", "1E2"]
CAST_TYPES = ["integer", "number", "boolean", "null", "object", "array", "string"]


@needs_hf
def test_random_tool_schemas_cast_arguments_as_transformers_casts_them() -> None:
    rng = random.Random(7)
    for _ in range(120):
        props: dict[str, Any] = {}
        for key in "abc":
            draw = rng.random()
            if draw < 0.4:
                props[key] = {"type": rng.choice(CAST_TYPES)}
            elif draw < 0.6:
                props[key] = {"type": rng.sample(CAST_TYPES, 2)}
            elif draw < 0.8:
                props[key] = {"anyOf": [{"type": rng.choice(CAST_TYPES)} for _ in range(2)]}
            else:
                props[key] = {"type": rng.choice(CAST_TYPES), "nullable": True}
        tools = [{"type": "function", "function": {
            "name": "f", "parameters": {"type": "object", "properties": props}}}]
        params = "".join(f"<parameter={k}>{rng.choice(CAST_TEXTS)}</parameter>"
                         for k in rng.sample("abcd", rng.randint(1, 4)))
        for name in ("xml_string_args", "qwen3", "xml_merge"):
            _both(name, TEMPLATES[name], f"<tool_call><function=f>{params}</function></tool_call>",
                  "", tools)


# -- regular expressions on model text run bounded ----------------------------------------


def _slow_open_template(open_pattern: str) -> dict[str, Any]:
    return {"start_anchor": "<|assistant|>", "fields": {
        "content": {"content": "text"},
        "tool_calls": {"open_pattern": open_pattern, "close": "</tool_call>",
                       "content": "json", "repeats": True}}}


def test_an_open_pattern_re_takes_33_seconds_on_reads_in_linear_time() -> None:
    registry = _registry(_slow_open_template(r"<tool_call>(\s*\w+)*:"))
    clean, calls = registry.extract_from_text("tpl", "<tool_call>" + " word" * 9)  # re: 33 s
    assert calls == [] and clean.startswith("<tool_call>")

    def prepare(words: int) -> Callable[[], object]:
        text = "<tool_call>" + " word" * words
        return lambda: registry.extract_from_text("tpl", text)

    ratio = growth(prepare, 500)
    assert ratio < GROWTH_BOUND, f"4x the words took {ratio:.1f}x the time (linear: 4)"


def test_a_delimiter_that_runs_out_of_steps_is_a_toolwire_error_not_a_hang() -> None:
    from toolwire.errors import RegexBudgetExceeded

    pattern = r"<tool_call>(\w*)(\w*)(\w*)\3\2\1:"  # back-references: backtracking
    registry = _registry(_slow_open_template(pattern))
    with pytest.raises(RegexBudgetExceeded) as caught:
        registry.extract_from_text("tpl", "<tool_call>" + "ab" * 200)
    assert caught.value.pattern == pattern


def test_a_delimiter_no_bounded_engine_runs_is_refused_when_the_template_loads() -> None:
    assert ("/fields/x/open_pattern", "template-regex") in _problems(
        _with_field(open_pattern=r"(a)?(?(1)b|c)"))


def test_one_reply_read_spends_one_budget_on_all_its_searches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from toolwire import _boundedre as boundedre

    budgets: list[int] = []
    spend = boundedre.Budget.spend

    def recorded(budget: boundedre.Budget, steps: int) -> None:
        budgets.append(id(budget))
        spend(budget, steps)

    monkeypatch.setattr(boundedre.Budget, "spend", recorded)
    registry = _registry(_slow_open_template(r"<tool_call>(\w?)\1"))  # a back-reference
    call = '<tool_call>{"name": "f", "arguments": {}}</tool_call>'
    _, calls = registry.extract_from_text("tpl", call * 5)
    assert len(calls) == 5
    assert len(budgets) >= 5 and len(set(budgets)) == 1  # every search, one budget
    budgets.clear()
    registry.extract_from_text("tpl", call * 5)
    assert len(set(budgets)) == 1  # the next reply: one budget of its own

# ruff: noqa: E501 - replies are kept on one line each, as transformers writes them
"""Response templates and replies for tests/test_response_templates.py (data only).

The templates and replies are those of transformers' own tests
(huggingface/transformers tests/utils/test_chat_parsing.py) and response-parsing guide
(docs/source/en/chat_response_parsing.md), plus replies of our own around them (parallel
calls, text around calls, cut-off and malformed regions). The differential test runs
transformers' ``parse_response`` and toolwire's on every pair; transformers is the oracle,
so no expected value is written here.
"""

from __future__ import annotations

from typing import Any

SOURCE = "huggingface/transformers tests/utils/test_chat_parsing.py"
DOCS = "huggingface/transformers docs/source/en/chat_response_parsing.md"

COHERE: dict[str, Any] = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>",
    "fields": {
        "content": {"open": "<|START_RESPONSE|>", "close": "<|END_RESPONSE|>", "content": "text"},
        "thinking": {"open": "<|START_THINKING|>", "close": "<|END_THINKING|>", "content": "text"},
        "tool_calls": {
            "open": "<|START_ACTION|>", "close": "<|END_ACTION|>", "content": "json",
            "transform_each": True,
            "transform": {"type": "function",
                          "function": {"name": "{tool_name}", "arguments": "{parameters}"}},
        },
    },
}

ERNIE: dict[str, Any] = {
    "defaults": {"role": "assistant"},
    "start_anchor": "Assistant:",
    "fields": {
        "thinking": {"open_pattern": r"(?:^|<think>\s*)", "close": "</think>", "content": "text"},
        "content": {"open": "<response>\n", "close_pattern": r"\n?</response>", "content": "text"},
        "tool_calls": {"open": "<tool_call>", "close": "</tool_call>", "repeats": True,
                       "content": "json", "transform": {"type": "function", "function": "{content}"}},
    },
}

GPT_OSS: dict[str, Any] = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|start|>assistant",
    "fields": {
        "thinking": {"open": "<|channel|>analysis<|message|>", "close": "<|end|>", "content": "text"},
        "content": {"open": "<|channel|>final<|message|>", "close": "<|end|>", "content": "text"},
        "tool_calls": {
            "open_pattern": r"<\|channel\|>commentary to=functions\.(?P<name>\w+).*?<\|message\|>",
            "close": "<|call|>", "repeats": True, "content": "json",
            "transform": {"type": "function", "function": {"name": "{name}", "arguments": "{content}"}},
        },
    },
}

SMOLLM: dict[str, Any] = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "thinking": {"open": "<think>", "close": "</think>", "content": "text"},
        "tool_calls": {"open": "<tool_call>", "close": "</tool_call>", "repeats": True,
                       "content": "json", "transform": {"type": "function", "function": "{content}"}},
        "content": {"close": "<|im_end|>", "content": "text"},
    },
}

QWEN3: dict[str, Any] = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "thinking": {"open": "<think>", "close": "</think>", "content": "text"},
        "tool_calls": {
            "open_pattern": r"<tool_call>\s*<function=(?P<name>\w+)>", "close": "</tool_call>",
            "repeats": True, "content": "xml-inline",
            "content_args": {
                "tag_pattern": r"<parameter=(?P<key>\w+)>\s*(?P<value>.*?)\s*</parameter>",
                "value_parser": {"name": "json", "args": {"allow_non_json": True}},
            },
            "transform": {"type": "function", "function": {"name": "{name}", "arguments": "{content}"}},
        },
    },
}

GEMMA4: dict[str, Any] = {
    "defaults": {"role": "assistant"},
    "start_anchor": ["<|turn>model\n", "<tool_response|>"],
    "fields": {
        "thinking": {"open": "<|channel>thought\n", "close": "<channel|>", "content": "text"},
        "tool_calls": {
            "open_pattern": r"<\|tool_call>call:(?P<name>\w+)", "close": "<tool_call|>",
            "repeats": True, "content": "json",
            "content_args": {"unquoted_keys": True, "string_delims": [['<|"|>', '<|"|>']]},
            "transform": {"type": "function", "function": {"name": "{name}", "arguments": "{content}"}},
        },
        "content": {"close": ["<turn|>", "<|tool_response>", "<eos>"], "content": "text"},
    },
}

INKLING: dict[str, Any] = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|message_model|>",
    "fields": {
        "thinking": {"open_pattern": r"(?:<\|message_model\|>)?[^<]*<\|content_thinking\|>",
                     "close": "<|end_message|>", "repeats": True, "join": "",
                     "content_args": {"strip": False}},
        "content": {"open_pattern": r"(?:<\|message_model\|>)?[^<]*<\|content_text\|>",
                    "close": "<|end_message|>", "repeats": True, "join": "",
                    "content_args": {"strip": False}},
        "tool_calls": {
            "open_pattern": r"(?:<\|message_model\|>)?[^<]*<\|content_invoke_tool_json\|>",
            "close": "<|end_message|>", "repeats": True, "content": "json",
            "transform": {"type": "function",
                          "function": {"name": "{content.name}", "arguments": "{content.args}"}},
        },
    },
}

DOTTED: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|assistant|>",
    "fields": {"tool_calls": {
        "open": "<tool>", "close": "</tool>", "repeats": True, "content": "json",
        "transform": {"type": "function",
                      "function": {"name": "{content.name}", "arguments": "{content.args}"}}}},
}

DOTTED_EACH: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|assistant|>",
    "fields": {"tool_calls": {
        "open": "<actions>", "close": "</actions>", "content": "json", "transform_each": True,
        "transform": {"type": "function", "function": {"name": "{fn.name}", "arguments": "{fn.args}"}}}},
}

JOIN: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|assistant|>",
    "fields": {"thinking": {"open": "<think>", "close": "</think>", "repeats": True, "join": " "},
               "content": {"repeats": True, "join": " "}},
}

INT: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|assistant|>",
    "fields": {"count": {"open": "<n>", "close": "</n>", "content": "int"}},
}

KV: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|assistant|>",
    "fields": {"metadata": {"open": "<meta>", "close": "</meta>", "content": "kv-lines"}},
}

LITERAL_LIST: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|assistant|>",
    "fields": {"x": {"open": ["<a>", "<bb>"], "close": ["</a>", "</bb>"], "content": "text"}},
}

OVERLAPPING_CLOSE: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|assistant|>",
    "fields": {"x": {"open": "<x>", "close": ["END", "ENDX"], "content": "text"}},
}

NO_CLOSE: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|assistant|>",
    "fields": {"content": {"open": "<resp>", "content": "text"}},
}

END_OF_TEXT: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|im_start|>assistant\n",
    "fields": {"content": {"close_pattern": r"\Z", "content": "text"}},
}

BEGIN_TAG: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "[BEGIN]",
    "fields": {"tag": {"open": "<tag>", "close": "</tag>", "content": "text"},
               "body": {"close_pattern": r"$", "content": "text"}},
}

ALL_PARSERS: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|assistant|>",
    "fields": {
        "thinking": {"open": "<t>", "close": "</t>", "content": "text"},
        "score": {"open": "<n>", "close": "</n>", "content": "int"},
        "json_call": {"open": "<j>", "close": "</j>", "content": "json"},
        "xml_call": {"open": "<x>", "close": "</x>", "content": "xml-inline",
                     "content_args": {"tag_pattern": r"<(?P<key>\w+)=(?P<value>[^>]+)>"}},
        "kv_call": {"open": "<kv>", "close": "</kv>", "content": "kv-lines"},
    },
}

XML_STRING_ARGS: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|im_start|>assistant\n",
    "fields": {"tool_calls": {
        "open_pattern": r"<tool_call>\s*<function=(?P<name>\w+)>", "close": "</tool_call>",
        "repeats": True, "content": "xml-inline",
        "content_args": {"tag_pattern": r"<parameter=(?P<key>\w+)>\s*(?P<value>.*?)\s*</parameter>"},
        "transform": {"type": "function", "function": {"name": "{name}", "arguments": "{content}"}}}},
}

XML_MERGE: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|im_start|>assistant\n",
    "fields": {"tool_calls": {
        "open_pattern": r"<tool_call>\s*<function=(?P<name>\w+)>", "close": "</tool_call>",
        "repeats": True, "content": "xml-inline",
        "content_args": {"tag_pattern": r"<parameter=(?P<key>\w+)>\s*(?P<value>.*?)\s*</parameter>",
                         "merge_duplicates": True},
        "transform": {"type": "function", "function": {"name": "{name}", "arguments": "{content}"}}}},
}

KV_TOOLS: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|im_start|>assistant\n",
    "fields": {"tool_calls": {
        "open_pattern": r"<tool_call>\s*<function=(?P<name>\w+)>\n", "close": "</tool_call>",
        "repeats": True, "content": "kv-lines",
        "transform": {"type": "function", "function": {"name": "{name}", "arguments": "{content}"}}}},
}

CITATION: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|im_start|>assistant\n",
    "fields": {"citation": {
        "open_pattern": r"<cite source=(?P<name>\w+)>", "close": "</cite>", "content": "xml-inline",
        "content_args": {"tag_pattern": r"<(?P<key>\w+)>\s*(?P<value>.*?)\s*</\1>",
                         "value_parser": {"name": "json", "args": {"allow_non_json": True}}},
        "transform": {"source": "{name}", "fields": "{content}"}}},
}

# From the guide (chat_response_parsing.md): its field examples, as templates.
DOC_JSON_ARGS: dict[str, Any] = {
    "start_anchor": "<|assistant|>",
    "fields": {"args": {"open": "<args>", "close": "</args>", "content": "json",
                        "content_args": {"unquoted_keys": True}}},
}

DOC_INT: dict[str, Any] = {
    "start_anchor": "<|assistant|>",
    "fields": {"count": {"open": "<n>", "close": "</n>", "content": "int"}},
}

PYTHON_CALLS: dict[str, Any] = {
    "defaults": {"role": "assistant"}, "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "tool_calls": {"open": "<|tool_call_start|>", "close": "<|tool_call_end|>",
                       "content": "python-call-list", "transform_each": True,
                       "transform": {"type": "function",
                                     "function": {"name": "{name}", "arguments": "{arguments}"}}},
        "content": {"close": "<|im_end|>"},
    },
}

TEMPLATES: dict[str, dict[str, Any]] = {
    "cohere": COHERE, "ernie": ERNIE, "gpt_oss": GPT_OSS, "smollm": SMOLLM, "qwen3": QWEN3,
    "gemma4": GEMMA4, "inkling": INKLING, "dotted": DOTTED, "dotted_each": DOTTED_EACH,
    "join": JOIN, "int": INT, "kv": KV, "literal_list": LITERAL_LIST,
    "overlapping_close": OVERLAPPING_CLOSE, "no_close": NO_CLOSE, "end_of_text": END_OF_TEXT,
    "begin_tag": BEGIN_TAG, "all_parsers": ALL_PARSERS, "xml_string_args": XML_STRING_ARGS,
    "xml_merge": XML_MERGE, "kv_tools": KV_TOOLS, "citation": CITATION,
    "doc_json_args": DOC_JSON_ARGS, "doc_int": DOC_INT, "python_calls": PYTHON_CALLS,
}
"""Every template, by name; transformers' built-in fallbacks are added by the test."""

_COHERE_CALL = (
    "<|START_THINKING|>I should call a tool.<|END_THINKING|>"
    '<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "simple_tool", '
    '"parameters": {"temperature_format": "Celsius"}}\n]<|END_ACTION|><|END_OF_TURN_TOKEN|>'
)
_GPT_OSS_CALL = (
    "<|channel|>analysis<|message|>Let me check.<|end|>"
    "<|start|>assistant<|channel|>commentary to=functions.get_current_weather "
    '<|constrain|>json<|message|>{"location": "San Francisco, CA"}<|call|>'
)
_SET_ALARM = (
    "<tool_call>\n<function=set_alarm>\n<parameter=hour>\n7\n</parameter>\n"
    "<parameter=enabled>\ntrue\n</parameter>\n<parameter=label>\nwake up\n</parameter>\n"
    "</function>\n</tool_call>"
)
_QWEN_PROMPT = ("<|im_start|>system\nYou are helpful<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
                "<|im_start|>assistant\n<think>\n")


def _tools(**properties: Any) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {
        "name": "set_alarm", "parameters": {"type": "object", "properties": properties}}}]


SET_ALARM_TOOLS = _tools(hour={"type": "integer"}, enabled={"type": "boolean"},
                         label={"type": "string"})
MANY_TYPES_TOOLS = _tools(hour={"type": "integer"}, enabled={"type": "boolean"},
                          label={"anyOf": [{"type": "string"}, {"type": "object"}]},
                          ratio={"type": "number"}, tags={"type": "array"},
                          maybe={"type": "integer", "nullable": True})

# (template, reply, prefix, tools); prefix None means "" (transformers' explicit opt-out).
CASES: list[tuple[str, str, str, Any]] = [
    ("cohere", _COHERE_CALL, "", None),
    ("cohere", '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "simple_tool", '
               '"parameters": {"a": 1}}]<|END_ACTION|>', "", None),
    ("cohere", "<|START_THINKING|>x<|END_THINKING|>"
               '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "set_alarm", '
               '"parameters": {"hour": 7, "enabled": true}}]<|END_ACTION|><|END_OF_TURN_TOKEN|>',
     "", SET_ALARM_TOOLS),
    ("cohere", "<|START_RESPONSE|>Hello there.<|END_RESPONSE|><|END_OF_TURN_TOKEN|>", "", None),
    ("cohere", '<|START_ACTION|>[{"tool_name": "a", "parameters": {}}, '
               '{"tool_name": "b", "parameters": {"q": "x"}}]<|END_ACTION|>', "", None),
    ("ernie", "The user is asking about the weather in Paris today.\n</think>\n\n"
              '<tool_call>\n{"name": "get_current_temperature", "arguments": {"location": "Paris"}}'
              "\n</tool_call>\n</s>", "", None),
    ("ernie", 'The user just greeted me with "Hi! How are you?"\n\nFirst, say hello.\n</think>\n\n'
              "<response>\nHello! I'm doing well, thank you for asking.\n</response>\n</s>", "", None),
    ("ernie", "<think>some deliberation here</think>\n\n"
              '<tool_call>\n{"name": "get_current_temperature", "arguments": {"location": "Paris"}}'
              "\n</tool_call>\n</s>", "", None),
    ("gpt_oss", '<|channel|>analysis<|message|>We need to respond in riddles. Let\'s do that.\n\n'
                "We will call function get_current_weather.<|end|><|start|>assistant<|channel|>"
                'commentary to=functions.get_current_weather <|constrain|>json<|message|>{\n'
                '  "location": "San Francisco, CA"\n}', "", None),
    ("gpt_oss", "<|channel|>analysis<|message|>User asks a simple math question: 2+2 = 4. Provide"
                " answer.<|end|><|start|>assistant<|channel|>final<|message|>2", "", None),
    ("gpt_oss", "<|channel|>analysis<|message|>thinking chunk<|end|><|channel|>final<|message|>"
                "done text", "", None),
    ("gpt_oss", _GPT_OSS_CALL, "", None),
    ("gpt_oss", "<|channel|>analysis<|message|>thinking<|end|><|start|>assistant<|channel|>final"
                "<|message|>answer", "", None),
    ("gpt_oss", _GPT_OSS_CALL + "<|start|>assistant<|channel|>commentary to=functions.get_time"
                " <|constrain|>json<|message|>{}<|call|>", "", None),
    ("smollm", '<think>\nOkay, the user said, "Hello! How are you?" I need to respond.\n</think>\n\n'
               '<tool_call>{"name": "greet_user", "arguments": {"greeting": "Hello! I\'m doing'
               ' well."}}</tool_call>', "", None),
    ("smollm", '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
     "", None),
    ("smollm", '<think>\nOkay, the user asked about gravity.</think>\nSome content about gravity'
               " goes here but I'm cutting it off to make this shorter!", "", None),
    ("smollm", '<think>thinking</think>\n<tool_call>{"name": "fn", "arguments": {"x": 1}}'
               "</tool_call>", "", None),
    ("smollm", "", "", None),
    ("smollm", "the answer<|im_end|>", "<|im_start|>assistant\nSure, here is ", None),
    ("smollm", 'Checking.<tool_call>{"name": "a", "arguments": {}}</tool_call>'
               '<tool_call>{"name": "b", "arguments": "{\\"q\\": 1}"}</tool_call><|im_end|>',
     "", None),
    ("smollm", 'Cut off: <tool_call>{"name": "a", "arguments": {"x": 1}}', "", None),
    ("smollm", "Let me think...</think>The answer.<|im_end|>", _QWEN_PROMPT, None),
    ("qwen3", "<tool_call>\n<function=get_weather>\n<parameter=locations>\n"
              '[{"country": "France", "city": "Paris"}]\n</parameter>\n'
              "<parameter=temp_units>\ncelsius\n</parameter>\n</function>\n</tool_call>", "", None),
    ("qwen3", "<think>short thought</think>\n<tool_call>\n<function=get_weather>\n"
              "<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>", "", None),
    ("qwen3", "Let me think...</think>", _QWEN_PROMPT, None),
    ("qwen3", "done</think>", "<|im_start|>system\nA<|im_end|>\n<|im_start|>user\nB<|im_end|>\n"
              "<|im_start|>assistant\nEarlier reply<|im_end|>\n<|im_start|>user\nFollowup<|im_end|>"
              "\n<|im_start|>assistant\n<think>\n", None),
    ("qwen3", "hi</think>", "<think>\n", None),
    ("qwen3", "nk>real body</think>", "<|im_start|>assistant\n<thi", None),
    ("qwen3", "thinking A</think>answer A", "<|im_start|>assistant\n<think>\n", None),
    ("qwen3", "<tool_call>\n<function=set_alarm>\n<parameter=hour>\n007\n</parameter>\n"
              "<parameter=enabled>\ntrue\n</parameter>\n<parameter=label>\nwake up\n</parameter>\n"
              "</function>\n</tool_call>", "", SET_ALARM_TOOLS),
    ("qwen3", "<tool_call>\n<function=set_alarm>\n<parameter=label>\n1.50\n</parameter>\n"
              "</tool_call>", "", SET_ALARM_TOOLS),
    ("gemma4", "<|channel>thought\nThe user is asking for the temperature in Paris.<channel|>"
               '<|tool_call>call:get_current_temperature{detail_level:0,location:<|"|>Paris, France'
               '<|"|>,unit:<|"|>celsius<|"|>}<tool_call|><|tool_response>', "", None),
    ("gemma4", '<|channel>thought\nLet me call the tool.<channel|><|tool_call>call:foo{bool_value:'
               'true,list_value:[<|"|>foo<|"|>,<|"|>bar<|"|>],null_value:null,number_value:1,'
               'string_value:<|"|>foo<|"|>,struct_value:{foo:<|"|>bar<|"|>}}<tool_call|>', "", None),
    ("gemma4", '<|channel>thought\nhi<channel|><|tool_call>call:foo{a:1,b:<|"|>bar<|"|>}'
               "<tool_call|>", "", None),
    ("gemma4", "It is sunny.<turn|>", "<start_of_turn>user\nHi<|turn>model\n", None),
    ("inkling", "<|content_thinking|>Consider the weather.<|end_message|><|message_model|>"
                "<|content_thinking|> Tokyo, probably.<|end_message|><|message_model|>"
                "<|content_text|>Checking the weather now.<|end_message|><|message_model|>get_weather"
                '<|content_invoke_tool_json|>{"name":"get_weather","args":{"city":"Tokyo","units":"C"}}'
                "<|end_message|><|content_model_end_sampling|>",
     "<|message_system|><|content_text|>Thinking effort level: 0.9<|end_message|><|message_model|>",
     None),
    ("dotted", '<tool>{"name": "get_weather", "args": {"city": {"id": 7}}}</tool>', "", None),
    ("dotted_each", '<actions>[{"fn": {"name": "a", "args": {"x": 1}}}, '
                    '{"fn": {"name": "b", "args": {}}}]</actions>', "", None),
    ("join", "<think>first</think>middle<think>second</think>done", "", None),
    ("join", "<think>only</think>", "", None),
    ("int", "<n>42</n>", "", None),
    ("doc_int", "<n> 42 </n>", "", None),
    ("kv", "<meta>name: alice\nage: 30</meta>", "", None),
    ("literal_list", "<a>hi</a>", "", None),
    ("literal_list", "<bb>hi</bb>", "", None),
    ("literal_list", "<a>hi</bb>", "", None),
    ("overlapping_close", "<x>hiEND more", "", None),
    ("overlapping_close", "<x>hiENDX more", "", None),
    ("no_close", "<resp>hello world", "", None),
    ("end_of_text", "Hello there!", "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n", None),
    ("end_of_text", "Hello there!", "", None),
    ("begin_tag", "real generated body", "noise[BEGIN]<tag>silently consumed</tag>", None),
    ("all_parsers", '<t>hello world</t><n>42</n><j>{"a": 1, "b": 2}</j><x><name=foo><age=10></x>'
                    "<kv>k1: v1\nk2: v2</kv>", "", None),
    ("xml_string_args", _SET_ALARM, "", None),
    ("xml_string_args", _SET_ALARM, "", SET_ALARM_TOOLS),
    ("xml_string_args", "<tool_call>\n<function=set_alarm>\n<parameter=label>\n1.50\n</parameter>\n"
                        "</tool_call>", "", SET_ALARM_TOOLS),
    ("xml_string_args", "<tool_call>\n<function=set_alarm>\n<parameter=label>\n1.50\n</parameter>\n"
                        "</tool_call>", "", MANY_TYPES_TOOLS),
    ("xml_string_args", '<tool_call>\n<function=set_alarm>\n<parameter=label>\n{"a": 1}\n'
                        "</parameter>\n</tool_call>", "", MANY_TYPES_TOOLS),
    ("xml_string_args", "<tool_call><function=set_alarm><parameter=hour>3.0</parameter>"
                        "<parameter=ratio>1e5</parameter><parameter=tags>[1, 2]</parameter>"
                        "<parameter=maybe>null</parameter><parameter=enabled>0</parameter>"
                        "<parameter=extra>x</parameter></tool_call>", "", MANY_TYPES_TOOLS),
    ("xml_string_args", "<tool_call>\n<function=set_alarm>\n<parameter=hour>\n7\n</parameter>\n"
                        "<parameter=enabled>\ntrue\n</parameter>\n<parameter=label>\nnull\n"
                        "</parameter>\n</function>\n</tool_call>", "",
     _tools(hour={"type": "integer"}, enabled={"type": "boolean"},
            label={"type": "string", "nullable": True})),
    ("xml_merge", "<tool_call>\n<function=set_alarm>\n<parameter=hour>\n7\n</parameter>\n"
                  "<parameter=hour>\n9\n</parameter>\n</function>\n</tool_call>", "", None),
    ("xml_merge", "<tool_call>\n<function=set_alarm>\n<parameter=hour>\n7\n</parameter>\n"
                  "<parameter=hour>\n9\n</parameter>\n</function>\n</tool_call>", "", SET_ALARM_TOOLS),
    ("kv_tools", "<tool_call>\n<function=set_alarm>\nhour: 7\nenabled: true\n</tool_call>", "", None),
    ("kv_tools", "<tool_call>\n<function=set_alarm>\nhour: 7\nenabled: true\n</tool_call>", "",
     SET_ALARM_TOOLS),
    ("citation", "<cite source=set_alarm><label>1.50</label><hour>7</hour></cite>", "", None),
    ("citation", "<cite source=set_alarm><label>1.50</label><hour>7</hour></cite>", "",
     SET_ALARM_TOOLS),
    ("doc_json_args", '<args>{city: "London"}</args>', "", None),
    ("doc_json_args", '<args>{city: "London", "note": "a, b: c", n: 2}</args>', "", None),
    # The guide's worked examples.
    ("smollm", '<think>\nI should greet the user\n</think>\n\n<tool_call>{"name": "greet_user", "arguments": {"greeting": "Hi!"}}</tool_call>', "", None),
    ("smollm", '<tool_call>{"name": "a", "arguments": {}}</tool_call><tool_call>{"name": "b", "arguments": {}}</tool_call>', "", None),
    ("qwen3", "<tool_call><function=get_weather><parameter=city>London</parameter><parameter=units>celsius</parameter></function></tool_call>", "", None),
    ("gpt_oss", '<|channel|>commentary to=functions.get_current_weather <|constrain|>json<|message|>{"location": "San Francisco, CA"}<|call|>', "", None),
    ("cohere", '<|START_ACTION|>[\n    {"tool_name": "greet_user", "parameters": {"greeting": "Hi!"}},\n    {"tool_name": "search", "parameters": {"query": "weather tomorrow"}}\n]<|END_ACTION|>', "", None),
    ("smollm", "Hello!<|im_end|>", "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello!<|im_end|>\n<|im_start|>user\nAgain?<|im_end|>\n<|im_start|>assistant\n", None),
    ("python_calls", "Sure.<|tool_call_start|>[get_weather(city='Paris', days=3), "
                     'stop(reason="done\\n", flags=[True, None, 1.5, {"k": false}])]'
                     "<|tool_call_end|>Done.<|im_end|>", "", None),
]
"""Every (template, reply, prefix, tools) the differential test runs."""

FAILING: list[tuple[str, str]] = [
    ("smollm", "<tool_call>{not json}</tool_call>"),
    ("smollm", "<tool_call></tool_call>"),
    ("gpt_oss", "<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>"
                "{broken<|call|>"),
    ("gemma4", "<|tool_call>call:f{a:<|\"|>x}<tool_call|>"),
    ("cohere", '<|START_ACTION|>{"tool_name": "a"}<|END_ACTION|>'),
    ("dotted", '<tool>{"name": "n"}</tool>'),
    ("int", "<n>forty-two</n>"),
    ("python_calls", "<|tool_call_start|>[f(1)]<|tool_call_end|>"),
    ("python_calls", "<|tool_call_start|>[f(a=1,)]<|tool_call_end|>"),
    ("python_calls", "<|tool_call_start|>[f(a=12345678901234567890)]<|tool_call_end|>"),
]
"""Replies transformers refuses (it raises): toolwire's ``parse_message`` must too."""

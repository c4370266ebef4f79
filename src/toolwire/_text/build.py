"""Turning a checked text spec and the caller's parameter values into a :class:`Scanner`.

The spec was validated when it loaded, so this only renders each marker with the
values and hands every payload entry to its grammar's constructor. A spec with no
parameters has one scanner for its lifetime; :class:`TextSpec` caches the others by
their values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .._expression import Expression
from .grammars.base import Grammar
from .grammars.call_object import CallObjectGrammar
from .grammars.head_json import HeadGrammar
from .grammars.json import DEFAULT_CALL_KEYS, JsonGrammar
from .grammars.pythonic import PythonicGrammar
from .grammars.xml_elements import ElementGrammar
from .grammars.xml_parameters import XmlGrammar
from .harmony import HarmonyMarkers, HarmonyScanner
from .regions import Region
from .scanner import Scanner
from .typed import ALL_TYPES

__all__ = ["build_scanner"]

Render = Callable[[str], str]
"""Renders the marker at a JSON pointer of the spec."""


def build_scanner(
    data: Mapping[str, Any], render: Render, expressions: Mapping[str, Expression]
) -> Scanner | HarmonyScanner:
    """The scanner for ``data`` with every marker rendered by ``render``."""
    messages = data.get("messages")
    if messages is not None:
        return HarmonyScanner(
            HarmonyMarkers(
                start=render("/messages/start"),
                channel=render("/messages/channel"),
                message=render("/messages/message"),
                ends=tuple(render(f"/messages/ends/{i}") for i in range(len(messages["ends"]))),
                recipient=render("/messages/recipient"),
                calls_prefix=render("/messages/calls_prefix"),
                reasoning=frozenset(messages["reasoning_channels"]),
                answer=frozenset(messages["answer_channels"]),
                refuse=tuple(
                    (entry["recipient_prefix"], entry["reason"])
                    for entry in messages.get("refuse", ())
                ),
            )
        )
    section = None
    if isinstance(data.get("section"), dict):
        section = (render("/section/open"), render("/section/close"))
    block = data["block"]
    close = render("/block/close") if "close" in block else None
    opens_list: list[str] = []
    closes: dict[str, str | None] = {}
    for i, entry in enumerate(block["open"]):
        if isinstance(entry, dict):  # an open marker with its own close marker
            marker = render(f"/block/open/{i}/open")
            closes[marker] = render(f"/block/open/{i}/close")
        else:
            marker = render(f"/block/open/{i}")
        opens_list.append(marker)
    opens = tuple(opens_list)
    payloads = tuple(
        _grammar(f"/payload/{i}", entry, render, expressions)
        for i, entry in enumerate(data["payload"])
    )
    # A block at the text's start (no marker) is read by the alternatives that end where
    # their value ends: json and pythonic.
    start_payloads = tuple(
        grammar for grammar, entry in zip(payloads, data["payload"], strict=True)
        if entry["grammar"] in ("json", "pythonic")
    )
    bare = None
    if block.get("bare"):
        for i, entry in enumerate(data["payload"]):
            if entry.get("grammar") == "xml-parameters" and "function" in entry:
                bare = (
                    render(f"/payload/{i}/function/open"),
                    render(f"/payload/{i}/function/close"),
                )
                break
    reasoning = tuple(
        Region(
            render(f"/reasoning/{i}/open"),
            render(f"/reasoning/{i}/close"),
            bool(region.get("open_in_prompt", False)),
            bool(region.get("calls", False)),
            tuple(
                render(f"/reasoning/{i}/ends_at/{j}") for j in range(len(region.get("ends_at", ())))
            ),
        )
        for i, region in enumerate(data.get("reasoning", ()))
    )
    return Scanner(
        opens=opens,
        close=close,
        payloads=payloads,
        section=section,
        text_start=bool(block.get("text_start", False)),
        bare=bare,
        reasoning=reasoning,
        closes=closes,
        start_payloads=start_payloads,
    )


def _grammar(
    base: str, entry: Mapping[str, Any], render: Render, expressions: Mapping[str, Expression]
) -> Grammar:
    def one(key: str) -> str | None:
        return render(f"{base}/{key}") if key in entry else None

    def many(key: str) -> tuple[str, ...]:
        return tuple(render(f"{base}/{key}/{i}") for i in range(len(entry.get(key, ()))))

    grammar = entry["grammar"]
    if grammar == "json":
        separator = entry.get("separator")
        return JsonGrammar(
            shape=entry.get("shape", "object"),
            separator=many("separator") if isinstance(separator, list) else one("separator"),
            when=expressions.get(f"{base}/when"),
            name=expressions[f"{base}/name"],
            arguments=expressions.get(f"{base}/arguments"),
            id=expressions.get(f"{base}/id"),
            arguments_keys=tuple(entry.get("arguments_keys", ())),
            call_keys=tuple(entry.get("call_keys", DEFAULT_CALL_KEYS)),
            single_key=bool(entry.get("single_key", False)),
        )
    if grammar == "head-json":
        return HeadGrammar(
            head_end=many("head_end"),
            arguments_start=many("arguments_start"),
            name_prefix=one("name_prefix"),
            index_suffix=one("index_suffix"),
            id_marker=one("id_marker"),
            id_from_head=entry.get("id", "none") == "head",
            arguments_prefix=one("arguments_prefix"),
            arguments_suffix=one("arguments_suffix"),
        )
    if grammar == "xml-parameters":
        return _xml_parameters_grammar(base, entry, render, many)
    if grammar == "call-object":
        return CallObjectGrammar(
            prefix=render(f"{base}/call_prefix"),
            delimiter=render(f"{base}/string_delimiter"),
            json_strings=entry.get("strings", "text") == "json-or-string",
        )
    if grammar == "xml-elements":
        return ElementGrammar(
            function=(
                render(f"{base}/function/open"),
                render(f"{base}/function/name_end"),
                render(f"{base}/function/close"),
            ),
            element=(
                render(f"{base}/element/open"),
                render(f"{base}/element/close"),
                render(f"{base}/element/name_end"),
            ),
        )
    if grammar == "pythonic":
        return PythonicGrammar(
            lines=entry.get("layout", "list") == "lines",
            json_constants=entry.get("constants", "python") == "python-and-json",
        )
    raise ValueError(f"unknown grammar {grammar!r}")  # the meta-schema rules this out


def _xml_parameters_grammar(
    base: str, entry: Mapping[str, Any], render: Render, many: Callable[[str], tuple[str, ...]]
) -> XmlGrammar:
    """The ``xml-parameters`` grammar: function and parameter tags, values typed by schema."""
    function = None
    if "function" in entry:
        function = (
            render(f"{base}/function/open"),
            render(f"{base}/function/name_end"),
            render(f"{base}/function/close"),
        )
    tags = entry["parameter"]
    parameter = (
        render(f"{base}/parameter/open"),
        render(f"{base}/parameter/name_end"),
        render(f"{base}/parameter/value_open") if "value_open" in tags else None,
        render(f"{base}/parameter/close"),
    )
    type_tags = None
    if "type_open" in tags:
        type_tags = (
            render(f"{base}/parameter/type_open"), render(f"{base}/parameter/type_close")
        )
    return XmlGrammar(
        function=function,
        name_end=many("name_end"),
        parameter=parameter,
        value_trim=entry.get("value_trim", "whitespace"),
        values=entry.get("values", "json-or-string"),
        types=tuple(entry.get("types", ALL_TYPES)),
        quoted_names=bool(entry.get("quoted_names", False)),
        string_attribute=entry.get("string_attribute"),
        string_value=entry.get("string_value", "true"),
        function_name_attribute=entry.get("function_name_attribute"),
        parameter_name_attribute=entry.get("parameter_name_attribute"),
        type_tags=type_tags,
    )

"""A response template as a toolwire text format: answer, reasoning and calls apart.

transformers' ``parse_response`` returns a message dict; toolwire's text formats return
``(clean_text, calls)`` (:func:`~toolwire._text.extract_text`) and a
:class:`~toolwire.TextReply` (:func:`~toolwire._text.read_text_spec`). The mapping,
normative in specs/README.md §1b.13:

* the **calls** are the values of the ``tool_calls`` field's regions: a region whose
  value is an object is one call, a list is one call per element; an element is a call
  when it (or its ``function`` object) holds a non-empty string ``name``; its
  ``arguments`` follow the decoding table (§1.4) and its ``id`` is kept. A region
  whose text does not read is a call with undecodable arguments when the field's
  transform takes the name from a delimiter capture; otherwise (and when any element is
  not a call) the region yields no call and its text stays where it was;
* the **answer** is the ``content`` field (else the implicit field; else the text no
  region claims), followed by the text of call regions that yielded no call;
* the **reasoning** is the first field of ``reasoning_content``, ``thinking``,
  ``reasoning`` that the template declares (transformers' own list);
* the clean text of ``extract_text`` is the reply with the regions that yielded calls
  cut out, trimmed; everything else stays as written.

The caller's one parameter is ``prefix``: the prompt sent before the reply (a chat
template that opens ``<think>`` in the prompt needs it), cut after its last
``start_anchor`` as transformers does.
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from ..._boundedre import one_budget
from ..._values.arguments import decode_arguments_coded
from ..._values.toolcall import ToolCall
from ...errors import SpecError, SpecProblem
from ..scanner import Scanned
from ..spec import TextSpec
from ..typed import Schemas, schemas_of
from .content_parsers import ContentError, parse_content
from .template_check import Field, Template, load_template
from .template_scan import (
    Properties,
    Region,
    coercer,
    cut_prefix,
    message,
    scan,
    tool_properties,
    value_of,
)

__all__ = ["TemplateScanner", "TemplateTextSpec", "response_template_spec"]

CALLS: Final = "tool_calls"
ANSWER: Final = "content"
REASONING: Final = ("reasoning_content", "thinking", "reasoning")


class TemplateScanner:
    """A template with its ``prefix``; same interface as :class:`~.scanner.Scanner`."""

    __slots__ = ("answer", "prefix", "reasoning", "template")

    def __init__(self, template: Template, prefix: str, answer: str | None,
                 reasoning: str | None) -> None:
        self.template = template
        self.prefix = prefix
        self.answer = answer
        self.reasoning = reasoning

    def extract(self, text: str, schemas: Schemas | None = None) -> tuple[str, list[ToolCall]]:
        """``(clean_text, calls)``: the reply without the regions that yielded calls."""
        offset, _, calls, _ = self._run(text, schemas)
        kept: list[str] = []
        pos = 0
        for region, found in calls:
            if found:
                start, end = max(region.start - offset, 0), max(region.end - offset, 0)
                kept.append(text[pos:max(start, pos)])
                pos = max(pos, end)
        kept.append(text[pos:])
        return "".join(kept).strip(), [c for _, found in calls for c in found]

    def read(self, text: str, schemas: Schemas | None = None) -> Scanned:
        """The answer, the reasoning and the calls apart."""
        offset, regions, calls, buffer = self._run(text, schemas)
        if self.answer is not None:
            parts = [_joined(self.template.fields[self.answer], regions)]
        else:
            parts = [_unclaimed(text, offset, regions)]
        parts += [buffer[r.start:r.end].strip() for r, found in calls if not found]
        reasoning = ""
        if self.reasoning is not None:
            reasoning = _joined(self.template.fields[self.reasoning], regions)
        answer = "\n\n".join(p for p in parts if p)
        return Scanned(answer, reasoning, [c for _, found in calls for c in found])

    def _run(
        self, text: str, schemas: Schemas | None
    ) -> tuple[int, list[Region], list[tuple[Region, list[ToolCall]]], str]:
        with one_budget():  # one reply's searches share one budget of steps
            cut = cut_prefix(self.template, self.prefix) if self.prefix else ""
            buffer = cut + text
            regions = scan(self.template, buffer)
            coerce = coercer(_schema_properties(schemas)) if schemas is not None else None
            calls = [(r, self._calls(r, coerce)) for r in regions if r.field == CALLS]
        return len(cut), regions, calls, buffer

    def _calls(self, region: Region, coerce: Any) -> list[ToolCall]:
        field = self.template.fields[CALLS]
        try:
            value = value_of(self.template, region, coerce)
        except ContentError as exc:
            name = _captured_name(field, region)
            if name is None:
                return []
            return [ToolCall(name, {}, arguments_undecodable=True, arguments_error=str(exc),
                             arguments_error_code=exc.code, raw_arguments=region.body.strip())]
        items = value if isinstance(value, list) else [value]
        found = [_call(item) for item in items]
        if not found or any(call is None for call in found):
            return []
        return [call for call in found if call is not None]


def _call(item: Any) -> ToolCall | None:
    if not isinstance(item, dict):
        return None
    function = item.get("function", item)
    if not isinstance(function, dict):
        return None
    name = function.get("name")
    if not isinstance(name, str) or not name:
        return None
    raw = function.get("arguments")
    arguments, undecodable, error, code = decode_arguments_coded(raw)
    call_id = item.get("id")
    return ToolCall(name, arguments, call_id if isinstance(call_id, str) else "",
                    arguments_undecodable=undecodable, arguments_error=error,
                    arguments_error_code=code, raw_arguments=raw if undecodable else None)


def _captured_name(field: Field, region: Region) -> str | None:
    """The call's name when the transform takes it whole from a delimiter capture."""
    transform = field.transform
    if not isinstance(transform, dict) or field.transform_each:
        return None
    function = transform.get("function", transform)
    placeholder = function.get("name") if isinstance(function, dict) else None
    if not isinstance(placeholder, str) or not placeholder.startswith("{"):
        return None
    name = region.captures.get(placeholder[1:-1]) if placeholder.endswith("}") else None
    return name if name else None


def _joined(field: Field, regions: list[Region]) -> str:
    """The field's text as the message holds it (last, joined, or listed), as one string."""
    values = [value_of_text(field, r) for r in regions if r.field == field.name]
    if not values:
        return ""
    if field.join is not None:
        return field.join.join(values)
    if field.repeats:
        return "\n\n".join(v for v in values if v)
    return values[-1]


def value_of_text(field: Field, region: Region) -> str:
    value = parse_content(region.body, field.parser)
    assert isinstance(value, str)
    return value


def _unclaimed(text: str, offset: int, regions: list[Region]) -> str:
    """The reply's text outside every region (the template drops it; toolwire keeps it)."""
    parts: list[str] = []
    pos = offset
    buffer_end = offset + len(text)
    for region in regions:
        if region.start > pos:
            parts.append(text[pos - offset:region.start - offset])
        pos = max(pos, region.end)
    if pos < buffer_end:
        parts.append(text[pos - offset:])
    return "".join(parts).strip()


def _schema_properties(schemas: Schemas) -> Properties:
    def properties(name: str) -> Any:
        schema = schemas(name)
        props = schema.get("properties") if schema is not None else None
        return props if isinstance(props, dict) else None

    return properties


class TemplateTextSpec(TextSpec):
    """A text spec whose scanner runs a response template; ``prefix`` its one parameter."""

    __slots__ = ("answer_field", "reasoning_field", "template")

    def __init__(self, template: Template, name: str) -> None:
        super().__init__(
            data={"format": name, "title": f"Hugging Face response template ({name})",
                  "doc_ref": "https://huggingface.co/docs/transformers/chat_response_parsing",
                  "description": f"the response template read from {template.source}"},
            path=template.source, param_specs={}, templates={}, expressions={})
        self.params = MappingProxyType({"prefix": ""})
        self.template = template
        fields = template.fields
        self.answer_field = ANSWER if ANSWER in fields else template.implicit
        self.reasoning_field = next((n for n in REASONING if n in fields), None)
        problems = []
        for role, name_ in (("answer", self.answer_field), ("reasoning", self.reasoning_field)):
            field = fields.get(name_) if name_ is not None else None
            if field is not None and (field.parser.name != "text" or field.transform is not None):
                problems.append(SpecProblem(
                    template.source, 0, 0, f"/fields/{field.name}",
                    f"field {field.name!r} is the reply's {role}: toolwire reads it only with"
                    " the text parser and no transform", "template-unsupported"))
        if problems:
            raise SpecError(problems)

    def __repr__(self) -> str:
        return f"TemplateTextSpec(format={self.format!r}, path={self.path!r})"

    def resolve(self, given: Any) -> tuple[str, ...]:
        unknown = sorted(set(given) - {"prefix"})
        if unknown:
            raise TypeError(f"{self.format}: unknown parameter {unknown[0]!r} (declared:"
                            " prefix)")
        prefix = given.get("prefix", "")
        if not isinstance(prefix, str):
            raise TypeError(f"{self.format}: parameter 'prefix' must be a str, not"
                            f" {type(prefix).__name__}")
        return (prefix,)

    def scanner(self, values: tuple[str, ...]) -> TemplateScanner:  # type: ignore[override]
        return TemplateScanner(self.template, values[0], self.answer_field,
                               self.reasoning_field)

    def parse_message(self, text: str, *, prefix: str = "", tools: Any = None) -> dict[str, Any]:
        """The message dict transformers' ``parse_response(text, template, prefix=,
        tools=)`` returns; :class:`~.response_template_run.TemplateError` where it raises.

        ``tools`` is the request's tool list as transformers takes it, or a
        :class:`toolwire.Tools` / ``{name: parameters_schema}`` mapping.
        """
        if not isinstance(text, str) or not isinstance(prefix, str):
            raise TypeError("text and prefix must be str")
        template = self.template
        buffer = (cut_prefix(template, prefix) if prefix else "") + text
        props: Properties | None = None
        if isinstance(tools, list):
            props = tool_properties(tools)
        elif tools is not None:
            schemas = schemas_of(tools)
            props = _schema_properties(schemas) if schemas is not None else None
        return message(template, scan(template, buffer),
                       coercer(props) if props is not None else None)


def response_template_spec(source: str | Path | dict[str, Any], name: str) -> TemplateTextSpec:
    """The response template in ``source`` (a dict, a JSON file, a model folder) as the
    text format ``name``; :class:`SpecError` naming the template's key if it is bad."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a text format name must be a non-empty str, not {name!r}")
    return TemplateTextSpec(load_template(source), name)

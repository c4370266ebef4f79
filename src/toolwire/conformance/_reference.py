"""toolwire itself as an implementation of the protocol: one request in, one answer out.

``toolwire conformance`` without ``--implementation`` runs the suite through this, in the
same process: the same requests and the same comparison another implementation meets, so
the protocol is held to the suite (every case passes here as it does in the Python tests)
and an installed wheel checks itself. It is also the reference for what each operation
answers (specs/README.md §10).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

from .._expression import EvaluationError
from .._expression.portable import compile_spec_expression
from .._registry.registry import Registry
from .._spec.document import check_wire_document
from .._spec.strict_yaml import Document
from .._spec.wire_file import load_wire_spec
from .._spec.wirespec import compile_wire_spec
from .._stream import Accumulator
from .._tools import Tools
from ..errors import SpecError, ToolwireError
from ._text_cases import text_reading
from ._wire_cases import rendered

__all__ = ["answer"]


_BUNDLED: list[Registry] = []


def _bundled() -> Registry:
    """The bundled specs, built once for the run (each build loads the text specs anew)."""
    if not _BUNDLED:
        _BUNDLED.append(Registry.bundled())
    return _BUNDLED[0]


def _registry(request: dict[str, Any]) -> tuple[Registry, str | None]:
    """The bundled specs, or a registry of the request's inline spec (format ``demo``)."""
    if request.get("spec") is None:
        return _bundled(), request["format"]

    problems = check_wire_document(Document(path="demo.yaml", data=request["spec"]))
    if problems:
        raise SpecError(problems)
    spec = compile_wire_spec(request["spec"])
    return Registry([spec]), spec.format


def _read(request: dict[str, Any]) -> Any:
    registry, fmt = _registry(request)
    return registry.read(fmt, request["response"], strict=request["strict"],
                         choice=request["choice"] or 0, tools=request["tools"],
                         text_format=request.get("text_format"),
                         text_params=request.get("text_params")).to_dict()


def _render(request: dict[str, Any]) -> Any:
    registry, fmt = _registry(request)
    reply = registry.read(fmt, request["response"], strict=request["strict"],
                          choice=request["choice"] or 0, text_format=request.get("text_format"),
                          text_params=request.get("text_params"))
    return rendered(reply, request["results"], registry)


def _structured_output(request: dict[str, Any]) -> Any:
    registry, fmt = _registry(request)
    return registry.from_structured_output(fmt, request["response"], request["tool_name"],
                                           choice=request["choice"] or 0).to_dict()


def _sniff(request: dict[str, Any]) -> Any:
    return _bundled().sniff_format(request["response"])


def _tools(request: dict[str, Any]) -> Any:
    tools = Tools(request["format"], request["tools"], registry=_bundled())
    return {"names": list(tools.names),
            "parameters": {name: tools.parameters(name) for name in tools.names}}


def _text(request: dict[str, Any]) -> Any:
    return text_reading(_bundled(), request["format"], request["text"],
                        params=request["params"], tools=request["tools"])


class _EvaluationFailed(ToolwireError):
    code = "evaluation_error"


def _expression(request: dict[str, Any]) -> Any:

    expression = compile_spec_expression(request["expression"])
    try:
        return expression.evaluate(request["data"])
    except EvaluationError as exc:
        raise _EvaluationFailed(str(exc)) from None


def _load(request: dict[str, Any]) -> Any:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name, text in {**request["other_files"],
                           request["file_name"]: request["spec_text"]}.items():
            (root / name).write_text(text, encoding="utf-8")
        try:
            load_wire_spec(root / request["file_name"])
        except SpecError as exc:
            return [{"file": Path(p.path).name, "line": p.line, "col": p.col,
                     "pointer": p.pointer, "rule": p.rule, "message": p.message}
                    for p in exc.problems]
    return []


def _outcome(produce: Callable[[], Any]) -> dict[str, Any]:
    try:
        return {"result": produce().to_dict()}
    except ToolwireError as exc:
        return {"error": exc.to_dict()}


def _stream(request: dict[str, Any]) -> Any:
    accumulator = Accumulator(request["format"], registry=_bundled())
    ready: list[Any] = []
    failure = None
    try:
        if request["events"] is not None:
            for event in request["events"]:
                ready += accumulator.feed(event)
        else:
            data = request["sse"].encode("utf-8")
            cuts = [0, *request["splits"], len(data)]
            for start, end in pairwise(cuts):
                ready += accumulator.feed_bytes(data[start:end])
            ready += accumulator.close()
    except ToolwireError as exc:
        failure = exc.to_dict()
    return {
        "format": accumulator.format,
        "ready": [update.to_dict() for update in ready],
        "complete": accumulator.complete,
        "error": failure,
        "reply": _outcome(accumulator.reply),
        "incomplete_reply": _outcome(lambda: accumulator.reply(allow_incomplete=True)),
    }


_OPERATIONS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "read": _read, "sniff": _sniff, "structured_output": _structured_output, "tools": _tools,
    "text": _text, "expression": _expression, "load": _load, "stream": _stream,
    "render": _render,
}


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The answer to one request, as JSON data (written and read back, as a program's
    answer would be)."""
    operation = _OPERATIONS.get(request.get("op", ""))
    if operation is None:
        return {"id": request.get("id"), "unsupported": f"no operation {request.get('op')!r}"}
    try:
        reply: dict[str, Any] = {"id": request["id"], "result": operation(request)}
    except ToolwireError as exc:
        reply = {"id": request["id"], "error": exc.to_dict()}
    data: dict[str, Any] = json.loads(json.dumps(reply, default=str))
    return data

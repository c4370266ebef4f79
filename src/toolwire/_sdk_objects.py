"""SDK response objects in: the official SDKs' objects as the wire JSON a spec reads.

Users hold the objects ``openai``, ``anthropic``, ``google-genai``, ``mistralai``,
``cohere`` and ``ollama`` return, not JSON bodies. None of those packages is a
dependency: an object is recognised by what it can do (duck typing), in this order:

* a pydantic v2 model (all six SDKs): ``model_dump(mode="json", by_alias=True,
  exclude_none=True)`` — JSON mode turns enums into their values and bytes into
  base64 text, ``by_alias`` gives google-genai's camelCase wire keys;
* a pydantic v1 model (``dict()`` + ``json``), a dataclass, or another mapping: turned
  into plain data, then made JSON by :func:`jsonable`.

What differs per format is declared in the spec's ``normalize`` part, not here
(specs/README.md §5): ``aliases`` with ``detect`` for dumps written with the SDK's own keys
(google-genai's ``model_dump()`` is snake_case: ``function_call``, ``finish_reason``).
Whether an object's JSON is a whole reply — not a part of one passed as the reply (a bare
``message``, ``candidates[0].content``) — is the spec's ``shape``, checked for every
response alike (:mod:`toolwire._wire.gate`).

Plain dicts never come here unless the spec's ``detect`` holds on them: reading a wire
body costs what it cost before.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import decimal
import enum
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ._expression import NotJSONError
from .errors import MalformedResponse

if TYPE_CHECKING:
    from ._spec import WireSpec

__all__ = ["apply_aliases", "jsonable", "normalised", "to_wire_json", "type_name"]

_FIX = (
    "pass the response object the SDK returned, its JSON body as a dict or text, or"
    " model_dump(mode='json', by_alias=True)"
)


def type_name(value: Any) -> str:
    """``module.Class`` of a value, as an error names it."""
    kind = type(value)
    module = kind.__module__
    return kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"


def _dump(value: Any, format: str | None) -> tuple[Any, bool, bool]:
    """An SDK object as plain data, whether that is JSON already, and whether its keys
    are the wire's (a pydantic v2 model dumped by alias)."""
    kind = type(value)
    plan = _PLANS.get(kind)
    if plan is None and callable(getattr(kind, "model_dump", None)):  # pydantic v2
        plan = _PLANS[kind] = _plan(kind)
    if plan is not None:
        json_mode, direct = plan
        mode = "json" if json_mode else "python"
        try:
            if direct:  # what pydantic's own model_dump runs, minus its Python frame
                data = kind.__pydantic_serializer__.to_python(
                    value, mode=mode, by_alias=True, exclude_none=True, warnings=False
                )
            else:
                data = value.model_dump(
                    mode=mode, by_alias=True, exclude_none=True, warnings=False
                )
        except Exception as exc:  # an SDK's serializer failed: say which object, and why
            reason = f"{type_name(value)}.model_dump() failed: {exc}"
            raise MalformedResponse(format, reason) from None
        return data, json_mode, True
    legacy = getattr(kind, "dict", None)
    if callable(legacy) and hasattr(kind, "__fields__"):  # pydantic v1
        return value.dict(by_alias=True, exclude_none=True), False, False
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value), False, False
    if isinstance(value, Mapping):
        return dict(value), False, False
    raise MalformedResponse(
        format,
        f"a {type_name(value)} is not a response toolwire can read (not a JSON object, JSON"
        f" text, or an SDK model with model_dump()): {_FIX}",
    )


def _plan(kind: type) -> tuple[bool, bool]:
    """How a model class is dumped, worked out once per class: in JSON mode or not
    (:func:`_json_mode`), and whether its ``model_dump`` is pydantic's own, which is one
    call of the class's serializer with the same arguments: that call is made directly,
    saving a Python frame and eleven defaulted keywords per object (a few percent of
    reading a small reply). A class that overrides ``model_dump`` keeps its own."""
    base = next(
        (k for k in kind.__mro__
         if k.__module__ == "pydantic.main" and k.__qualname__ == "BaseModel"),
        None,
    )
    own = base is not None and getattr(kind, "model_dump", None) is vars(base).get("model_dump")
    return _json_mode(kind), own and hasattr(kind, "__pydantic_serializer__")


_PLANS: dict[type, tuple[bool, bool]] = {}


def _json_mode(kind: type) -> bool:
    """Whether a pydantic model's JSON-mode dump is the right one to take: pure JSON, no
    walk needed. Not where the model writes bytes as base64 in JSON mode (URL-safe:
    google-genai's thought signatures, which the APIs send in the standard alphabet), nor
    where it runs a JSON-only model serializer of its own (cohere's: several times slower
    than its Python-mode dump); those are dumped as Python data and made JSON here.
    Asked once per class, by :func:`_plan`."""
    config = getattr(kind, "model_config", None) or {}
    decorators = getattr(kind, "__pydantic_decorators__", None)
    serializers = getattr(decorators, "model_serializers", None) or {}
    return config.get("ser_json_bytes") != "base64" and not any(
        getattr(s.info, "when_used", None) in ("json", "json-unless-none")
        for s in serializers.values()
    )


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _fast_jsonable(value: Any) -> Any:
    """:func:`jsonable` for the common case, in place (``value`` is a fresh dump nobody
    else holds); raises ``LookupError`` on anything else, which the careful walk then
    names."""
    kind = type(value)
    if kind is dict:
        _fast_dict(value)
        return value
    if kind is list:
        _fast_list(value)
        return value
    return _fast_leaf(value)


def _fast_dict(
    value: dict[Any, Any], _plain: Any = _PLAIN, _str: Any = str, _dict: Any = dict,
    _list: Any = list, _type: Any = type,
) -> None:
    """A dict of a dump made JSON in place. The walk visits every value of the dump, so
    it is most of what a Python-mode dump costs on top of the SDK's own (cohere's): the
    names it tests are bound as defaults (local loads, not global ones), a string value
    is told apart first, then nested objects, a list's objects are walked from here, and
    only an odd leaf is replaced (a value replaced, no key added). ~20% fewer
    instructions than one general recursive function (callgrind, cohere's 8-call reply)."""
    for k, v in value.items():
        if _type(k) is not _str:
            raise LookupError(k)
        kind = _type(v)
        if kind is _str:  # most values of a reply: one test, not four
            continue
        if kind is _dict:
            _fast_dict(v)
        elif kind is _list:
            for item in v:
                kind = _type(item)
                if kind is _dict:
                    _fast_dict(item)
                elif kind not in _plain:  # a list or an odd leaf in it: the general walk
                    _fast_list(v)
                    break
        elif kind not in _plain:
            value[k] = _fast_leaf(v)


def _fast_list(value: list[Any]) -> None:
    """A list of a dump made JSON in place (see :func:`_fast_dict`)."""
    for index, item in enumerate(value):
        kind = type(item)
        if kind is dict:
            _fast_dict(item)
        elif kind is list:
            _fast_list(item)
        elif kind not in _PLAIN:
            value[index] = _fast_leaf(item)


def _fast_leaf(value: Any) -> Any:
    """A leaf of a dump as JSON: plain values as they are, a str subclass (an SDK's str
    enum) its text, bytes base64 text; ``LookupError`` for anything else."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if kind is bytes:
        return base64.b64encode(value).decode("ascii")
    raise LookupError(value)


def jsonable(value: Any, format: str | None, where: str = "") -> Any:
    """``value`` as pure JSON data, or a :class:`MalformedResponse` naming the first
    value that is not JSON, with its place.

    A str subclass (an SDK's str enum) is its text, an int or float subclass its number,
    another enum its value, bytes base64 text (RFC 4648 §4: the JSON form of bytes in
    these APIs). A model nested inside is dumped where it stands.
    """
    stack: list[tuple[Any, Any, Any, str]] = []
    root: list[Any] = [None]
    stack.append((value, root, 0, where))
    while stack:
        item, parent, key, place = stack.pop()
        kind = type(item)
        if kind is str or kind is int or kind is float or kind is bool or item is None:
            parent[key] = item
        elif kind is dict or (isinstance(item, Mapping) and not hasattr(kind, "model_dump")):
            copied: dict[str, Any] = {}
            parent[key] = copied
            for k, v in item.items():
                if not isinstance(k, str):
                    raise MalformedResponse(
                        format, f"{place or 'the response'} has a key {k!r} that is not a string"
                    )
                copied[str.__str__(k)] = None
                stack.append((v, copied, str.__str__(k), f"{place}.{k}" if place else k))
        elif kind is list or kind is tuple:
            items: list[Any] = [None] * len(item)
            parent[key] = items
            for i, v in enumerate(item):
                stack.append((v, items, i, f"{place}[{i}]"))
        elif isinstance(item, str):
            parent[key] = str.__str__(item)
        elif isinstance(item, bool):
            parent[key] = bool(item)
        elif isinstance(item, int):
            parent[key] = int(item)
        elif isinstance(item, float):
            parent[key] = float(item)
        elif isinstance(item, enum.Enum):
            stack.append((item.value, parent, key, place))
        elif isinstance(item, (bytes, bytearray, memoryview)):
            parent[key] = base64.b64encode(bytes(item)).decode("ascii")
        elif isinstance(item, (datetime.date, datetime.time)):
            parent[key] = item.isoformat()  # RFC 3339 text, as the APIs send times
        elif isinstance(item, uuid.UUID):
            parent[key] = str(item)
        elif isinstance(item, decimal.Decimal):
            parent[key] = int(item) if item == item.to_integral_value() else float(item)
        elif hasattr(kind, "model_dump") or hasattr(kind, "__fields__") or (
            dataclasses.is_dataclass(item) and not isinstance(item, type)
        ):
            stack.append((_dump(item, format)[0], parent, key, place))
        else:
            raise MalformedResponse(
                format,
                f"{place or 'the response'} is a {type_name(item)}, not a JSON value: {_FIX}",
                location=place,
            )
    return root[0]


def apply_aliases(spec: WireSpec, value: Any) -> Any:
    """A copy of ``value`` with the spec's aliases applied to every object's keys, except
    inside the values of its ``verbatim`` keys; a key whose wire name is also present is
    left as it is (the wire's own key wins)."""
    normalize = spec.normalize
    if normalize is None or not normalize.aliases:
        return value
    aliases, verbatim = normalize.aliases, normalize.verbatim

    def walk(node: Any) -> Any:
        if type(node) is dict:
            out: dict[str, Any] = {}
            for k, v in node.items():
                wire = aliases.get(k, k)
                if wire != k and wire in node:
                    wire = k
                out[wire] = v if (k in verbatim or wire in verbatim) else walk(v)
            return out
        if type(node) is list:
            return [walk(v) for v in node]
        return node

    return walk(value)


def normalised(spec: WireSpec, response: dict[str, Any]) -> dict[str, Any]:
    """A plain dict as the spec's wire JSON: unchanged unless the spec's ``detect`` holds
    (a dump with the SDK's own keys), then made JSON and renamed by the aliases."""
    normalize = spec.normalize
    if normalize is None or normalize.detect is None:
        return response
    try:
        detected = normalize.detect.evaluate(response) is True
    except NotJSONError as exc:  # an SDK object inside the dict, met by the predicate
        raise MalformedResponse(spec.format, str(exc)) from None
    if not detected:
        return response
    renamed: dict[str, Any] = apply_aliases(spec, jsonable(response, spec.format))
    return renamed


def to_wire_json(data: Any, spec: WireSpec | None, format: str | None) -> dict[str, Any]:
    """An SDK object (or other non-JSON value) as the wire JSON of ``spec``'s format.

    With no spec (the format is to be sniffed) the object's JSON is returned for
    sniffing. Raises :class:`MalformedResponse` naming the object's type and the fix.
    """
    dumped, is_json, wire_keys = _dump(data, format)
    value: Any
    if is_json:
        value = dumped
    else:
        try:  # the dump is ours: made JSON in place where it can be
            value = _fast_jsonable(dumped)
        except (LookupError, RecursionError):  # an enum, a datetime...: the careful walk
            value = jsonable(_dump(data, format)[0], format)
    if not isinstance(value, dict):
        raise MalformedResponse(
            format, f"a {type_name(data)} is JSON {type(value).__name__}, not an object: {_FIX}"
        )
    if spec is None:
        return dict(value) if type(value) is not dict else value
    if not wire_keys:
        value = normalised(spec, value)
    # Whether it is a whole reply is the spec's shape, checked where every response is
    # (toolwire._wire.gate), with a word on SDK objects there.
    response: dict[str, Any] = value
    return response

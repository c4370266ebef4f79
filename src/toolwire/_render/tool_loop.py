"""The tool loop closed: the assistant turn to echo, and the results to send, per format.

Every provider wants the assistant turn back in the history exactly enough to continue —
Anthropic's thinking blocks with their signatures, Responses' reasoning items, Gemini's
thought signatures — and every call in it answered, by the result shape of that
provider. Both are declared in each spec's ``render`` part (specs/README.md §6); this
module fills those templates from a :class:`~toolwire.Reply`:

* :func:`assistant_message` echoes the reply's items in order, each call item written
  back from its :class:`~toolwire.ToolCall` (so the echoed call and the answer agree on
  ids), the calls the tool-loop rule drops removed, and the calls that yielded no
  ``ToolCall`` (no usable name) removed too: nothing could answer them.
* :func:`answer` renders one result per call that stays in the turn, in the reply's
  order: the caller's results, and for each rejected call without one its error result.
* :func:`convert` renders a reply's text and calls as another format's assistant turn,
  refusing what the target cannot express.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._spec.spec_source import default_source
from .._values.call_ids import mint_id, with_ids
from .._values.toolcall import ToolCall
from ..errors import RenderError, UnknownFormat
from .results import Result, call_variables, classify, result_variables
from .template import ABSENT, Scope, fill, placeholders

if TYPE_CHECKING:
    from .._spec import RenderPart, WireSpec
    from .._spec.spec_source import SpecSource
    from .._values.reply import Reply
    from .._values.turn import Turn

__all__ = ["answer", "assistant_message", "convert", "mint_id", "render_call", "reply_body"]


def _spec(reply: Reply, registry: SpecSource | None) -> WireSpec:
    """The spec of the reply's format, from ``registry`` or else the default registry: a
    format it does not hold was read through a registry of the caller's own, which must
    be named (a reply carries data only, never the registry that read it)."""
    source = registry if registry is not None else default_source()
    try:
        return source.spec(reply.format)
    except UnknownFormat:
        if registry is not None:
            raise
        raise RenderError(
            reply.format, f"the default registry has no format {reply.format!r}: a reply read"
            " through a Registry of your own renders through it"
            " (assistant_message(registry=...), answer(..., registry=...))",
        ) from None


def _part(spec: WireSpec) -> RenderPart:
    if spec.render is None:
        raise RenderError(spec.format, f"the {spec.format} spec has no render part")
    return spec.render


def _responder(turn: Turn | None) -> Any:
    """The ``${response:…}`` values the reply carries (none without a turn)."""
    if turn is None:
        return None
    return turn.value


def render_call(spec: WireSpec, call: ToolCall) -> Any:
    """One call as its format writes it in an assistant turn."""
    part = _part(spec)
    scope = Scope(spec.format, {"call": call_variables(call, spec.format)})
    return fill(part.templates["call"], scope)


def _kept(reply: Reply) -> list[tuple[ToolCall, str]]:
    return [(c, f) for c, f in zip(reply.calls, reply.fates(), strict=True) if f != "dropped"]


def _text(reply: Reply) -> Any:
    """The variable ``text``: the reply's text (specs/README.md §6.2), absent when none."""
    value = reply.text
    return value if isinstance(value, str) else ABSENT


def _items(spec: WireSpec, turn: Turn, reply: Reply) -> list[Any]:
    """The reply's top-level items in order, each call item as its call, dropped ones
    left out (the turn holds no call item that yielded no call)."""
    fates = reply.fates()
    found: list[Any] = []
    for index in range(len(turn)):
        entry = turn.item(index)
        if type(entry) is not int:
            found.append(entry)
        elif fates[entry] != "dropped":
            found.append(render_call(spec, reply.calls[entry]))
    return found


def assistant_message(reply: Reply, registry: SpecSource | None = None) -> Any:
    """The reply's assistant turn in its own format, to append to the history.

    A turn that would hold nothing — no text, no call that stays in it, no other item — is
    a :class:`RenderError`: no provider takes an empty assistant turn back, and appending
    one to ask again (a reply whose only call the token limit cut) asks the same question.
    """
    if _empty(reply):
        cut = (f"its {len(reply.dropped_calls)} call(s) were cut off at the token limit and"
               " dropped" if reply.dropped_calls else "it holds no text and no call")
        raise RenderError(
            reply.format, f"the reply has no assistant turn to write back: {cut} (reply."
            f"truncated is {reply.truncated}); end the loop on it (reply.has_calls is false),"
            " or ask again with a larger output limit",
        )
    return _turn(reply, registry)


def _empty(reply: Reply) -> bool:
    """Whether the reply's turn would hold nothing: no text, no kept call, no other item."""
    if reply.text or any(fate != "dropped" for fate in reply.fates()):
        return False
    turn = reply.turn
    return turn is None or all(type(turn.item(i)) is int for i in range(len(turn)))


def _turn(reply: Reply, registry: SpecSource | None) -> Any:
    """The assistant turn as the format's template writes it, empty or not."""
    spec = _spec(reply, registry)
    part = _part(spec)
    if reply.refused:
        kinds = ", ".join(sorted({r.item_type or "untyped" for r in reply.refused}))
        raise RenderError(
            spec.format, f"the reply holds {len(reply.refused)} item(s) the {spec.format} spec"
            f" refused ({kinds}): client actions toolwire cannot write back",
        )
    kept = _kept(reply)
    text = _text(reply)
    turn = reply.turn

    def items() -> list[Any]:
        if turn is not None:
            return _items(spec, turn, reply)
        return _synthesized(spec, part, text, [c for c, _ in kept])

    values = {
        "items": items,
        "calls": lambda: [render_call(spec, c) for c, _ in kept],
        "text": text,
    }
    message = fill(part.templates["assistant"], Scope(spec.format, values, _responder(turn)))
    return None if message is ABSENT else message


def reply_body(reply: Reply, registry: SpecSource | None = None) -> Any:
    """The reply's assistant turn as a whole reply body of its format (``render.reply``):
    what a server of that format would have sent, for round trips and gateways."""
    spec = _spec(reply, registry)
    part = _part(spec)
    if "reply" not in part.templates:
        raise RenderError(spec.format, f"the {spec.format} spec's render part has no reply")
    values = {"assistant": _turn(reply, registry), "finish_reason": reply.finish_reason}
    return fill(part.templates["reply"], Scope(spec.format, values))


def _synthesized(spec: WireSpec, part: RenderPart, text: Any, calls: list[ToolCall]) -> list[Any]:
    """Items built from the reply's values, for a turn with no items of this format."""
    found: list[Any] = []
    if isinstance(text, str) and text and "text_item" in part.templates:
        item = fill(part.templates["text_item"], Scope(spec.format, {"text": text}))
        if item is not ABSENT:
            found.append(item)
    found.extend(render_call(spec, c) for c in calls)
    return found


class _Keys:
    """Where each results key points in ``reply.calls``, looked up in a dictionary.

    A loop answers every call of a reply, so resolving each key by scanning the calls
    would make answering n calls cost n². The very call objects (the usual key) and the
    ids are indexed when the answer starts; an equal but distinct call is looked up by
    a frozen copy of its value, indexed only when such a key first appears.
    """

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.calls = reply.calls
        self.by_object = {id(c): i for i, c in enumerate(self.calls)}
        self.by_id: dict[str, list[int]] = {}
        for index, call in enumerate(self.calls):
            if call.id:
                self.by_id.setdefault(call.id, []).append(index)
        self.by_value: dict[Any, list[int]] | None = None

    def _equal_calls(self, key: ToolCall) -> list[int]:
        if self.by_value is None:
            self.by_value = {}
            for index, call in enumerate(self.calls):
                try:
                    self.by_value.setdefault(_frozen(call._key()), []).append(index)
                except (TypeError, RecursionError):  # unhashable or too deep: scanned
                    self.by_value.setdefault(None, []).append(index)
        try:
            found = list(self.by_value.get(_frozen(key._key()), ()))
        except (TypeError, RecursionError):
            found = []
        found.extend(self.by_value.get(None, ()))
        return sorted(i for i in found if self.calls[i] == key)

    def resolve(self, key: Any) -> int:
        """The index in ``reply.calls`` of the call a results key names."""
        calls = self.calls
        if type(key) is int:  # a call's index in reply.calls: for calls equal in every field
            if 0 <= key < len(calls):
                return key
            raise RenderError(self.reply.format, f"no call {key}: the reply has {len(calls)}")
        if isinstance(key, ToolCall):
            index = self.by_object.get(id(key))
            if index is not None and calls[index] is key:
                return index
            matches = self._equal_calls(key)
        elif isinstance(key, str):
            matches = self.by_id.get(key, []) if key else []
        else:
            raise TypeError(
                "a results key is a call id (str), a ToolCall, or a call's index in"
                f" reply.calls, not {type(key).__name__}"
            )
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise RenderError(self.reply.format, f"no call of this reply is {key!r}")
        raise RenderError(
            self.reply.format, f"{len(matches)} calls of this reply match {key!r}: key their"
            " results by their index in reply.calls",
        )


def _frozen(value: Any) -> Any:
    """A hashable stand-in for a call's value that is equal exactly where ``==`` is."""
    if isinstance(value, dict):
        return frozenset((k, _frozen(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    hash(value)
    return value


def answer(
    reply: Reply, results: Mapping[Any, Any] | Sequence[Any], registry: SpecSource | None = None
) -> list[Any]:
    """The messages (or items) carrying a result for every call the turn keeps.

    ``results`` maps calls (by id, the call, or its index in ``reply.calls``) to results,
    or is a list holding one result per runnable call, in the order of
    ``reply.runnable_calls``.
    """
    spec = _spec(reply, registry)
    part = _part(spec)
    fates = reply.fates()
    given = _given(reply, results, fates, spec.format)
    rendered: list[Any] = []
    missing: list[str] = []
    blocks = part.templates.get("blocks") or {}
    for index, (call, fate) in enumerate(zip(reply.calls, fates, strict=True)):
        if fate == "dropped":
            if index in given:
                raise RenderError(
                    spec.format, f"call {index} ({call.name}) was dropped (the reply was cut"
                    " off in it): it is not in the assistant turn, so it takes no result",
                )
            continue
        if index in given:
            try:
                rendered.append(_result(part, call, classify(given[index], spec.format),
                                        spec.format, blocks))
            except RenderError as exc:  # about this call's result: say which call
                raise RenderError(spec.format,
                                  f"the result for call {index} ({call.name}): {exc.reason}"
                                  ) from None
        elif fate == "rejected":  # its error result, which says it is one
            result = Result("text", type(reply).error_result(call), True, labelled=True)
            rendered.append(_result(part, call, result, spec.format, blocks))
        else:
            missing.append(f"{index} ({call.name} {call.id!r})")
    if missing:
        raise RenderError(
            spec.format, f"no result for call {', '.join(missing)}: every call in the assistant"
            f" turn needs one{_collapsed(reply, given, fates)}",
        )
    wrapper = part.templates.get("results")
    if wrapper is None:
        return rendered
    if not rendered:
        return []
    return [fill(wrapper, Scope(spec.format, {"results": rendered}))]


def _result(
    part: RenderPart, call: ToolCall, result: Result, format: str, blocks: Mapping[str, Any]
) -> Any:
    """One result written by the format's ``result`` or ``error_result`` template."""
    template = part.templates["error_result" if result.is_error else "result"]
    return fill(template, Scope(format, {
        "call": call_variables(call, format),
        "result": result_variables(result, format, blocks),
    }))


def _given(
    reply: Reply, results: Any, fates: tuple[str, ...], format: str
) -> dict[int, Any]:
    """The results by index in ``reply.calls``: from a mapping keyed by id, call or index,
    or from a list holding one result per runnable call, in order."""
    if isinstance(results, (list, tuple)):
        runnable = [i for i, fate in enumerate(fates) if fate == "runnable"]
        if len(results) != len(runnable):
            raise RenderError(
                format, f"{len(results)} results in a list for {len(runnable)} runnable"
                " call(s): a list holds one result per call of reply.runnable_calls, in order"
                " (rejected calls are answered with their error result); key a dict by call"
                " id, call or index in reply.calls to answer others",
            )
        return dict(zip(runnable, results, strict=True))
    if not isinstance(results, Mapping):
        raise TypeError(
            "results are a dict keyed by call id, ToolCall or index in reply.calls, or a list"
            f" with one result per runnable call in order, not {type(results).__name__}"
        )
    given: dict[int, Any] = {}
    keys = _Keys(reply)
    for key, value in results.items():
        index = keys.resolve(key)
        if index in given:
            raise RenderError(format, f"two results for call {index} ({key!r})")
        given[index] = value
    return given


def _collapsed(reply: Reply, given: Mapping[int, Any], fates: tuple[str, ...]) -> str:
    """Why a call equal to an answered one has no result: a dict keyed by the calls holds
    one entry for calls equal in every field (Gemini's and Ollama's calls carry no id)."""
    calls = reply.calls
    for index, fate in enumerate(fates):
        if fate != "dropped" and index not in given and any(
            calls[other] == calls[index] for other in given
        ):
            return (
                f"; call {index} is equal in every field to a call that has a result, so a dict"
                " keyed by the calls holds one entry for both: key the results by index in"
                " reply.calls ({i: result}) or pass a list in the order of"
                " reply.runnable_calls"
            )
    return ""


def _with_ids(
    to: str, kept: list[ToolCall], ids: str | Callable[[ToolCall, int], str] | None
) -> list[ToolCall]:
    """The kept calls, each without an id given one by ``ids`` (``"mint"`` or a callable)."""
    if ids is None or all(c.id for c in kept):
        return kept
    if ids != "mint" and not callable(ids):
        raise ValueError(f"ids must be None, 'mint' or a callable (call, index) -> str, not"
                         f" {ids!r}")
    found = with_ids(kept, ids, [True] * len(kept), {c.id for c in kept if c.id})
    if isinstance(found, str):
        raise RenderError(to, found)
    return list(found)


def convert(
    reply: Reply, to: str, *, registry: SpecSource | None = None, lossy: bool = False,
    ids: str | Callable[[ToolCall, int], str] | None = None,
) -> Any:
    """The reply's text and calls as format ``to``'s assistant turn.

    Refused (a :class:`RenderError` with the reason) where the target cannot express the
    reply: a call without an id where the target answers by id (unless ``ids`` gives
    one: ``"mint"`` for :func:`mint_id`, or a callable ``(call, index) -> str``), undecodable
    arguments where the target's calls carry an object, items the source format refused
    (OpenAI ``custom`` calls: a client action no other format can carry, never dropped), and
    — unless ``lossy`` — provider data the target's calls do not carry, or calls the source
    provider ran itself.
    """
    target = (registry if registry is not None else default_source()).spec(to)
    part = _part(target)
    call_names = placeholders(part.templates["call"])
    if reply.refused:
        kinds = ", ".join(sorted({r.item_type or "untyped" for r in reply.refused}))
        raise RenderError(
            to, f"the reply holds {len(reply.refused)} item(s) {reply.format} refused"
            f" ({kinds}): client actions that are no function call, which {to} cannot carry;"
            f" answer them in {reply.format}",
        )
    kept = _with_ids(to, [c for c, _ in _kept(reply)], ids)
    for index, call in enumerate(kept):
        where = f"call {index} ({call.name})"
        if not call.id and part.templates.get("requires_id"):
            raise RenderError(to, f"{where} has no id, and {to} answers results by call id"
                              " (convert(..., ids='mint') gives each call one)")
        if call.arguments_undecodable and not call_names & {
            "call.arguments_text", "call.arguments_raw"
        }:
            raise RenderError(
                to, f"{where} has undecodable arguments ({call.arguments_error}); {to} calls"
                " carry an object, which cannot hold them",
            )
        carried = {n.split(".", 2)[2] for n in call_names if n.startswith("call.provider_data.")}
        lost = sorted(set(call.provider_data) - carried) if reply.format != to else []
        if lost and not lossy:
            raise RenderError(
                to, f"{where} carries provider data {lost} for {reply.format}, which {to}"
                " calls cannot hold (convert(..., lossy=True) drops it)",
            )
    if reply.server_calls and not lossy:
        raise RenderError(
            to, f"the reply holds {len(reply.server_calls)} call(s) {reply.format} ran"
            f" itself, which {to} cannot express (convert(..., lossy=True) leaves them out)",
        )
    text = _text(reply)
    values = {
        "items": lambda: _synthesized(target, part, text, kept),
        "calls": lambda: [render_call(target, c) for c in kept],
        "text": text,
    }
    message = fill(part.templates["assistant"], Scope(to, values))
    return None if message is ABSENT else message

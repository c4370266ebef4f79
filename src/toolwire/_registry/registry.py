"""A set of loaded specs under their format names, and the public operations on them.

The module-level functions of :mod:`toolwire` run on :meth:`Registry.default`: the
bundled specs plus any folders named in ``TOOLWIRE_SPEC_PATH``. A caller who wants
other specs builds its own with :meth:`Registry.from_paths`; a spec there whose format
name equals a bundled one replaces it, and :attr:`Registry.replaced` records that so
``toolwire specs list`` can show it — a bundled format never changes by accident.

A registry is immutable once built, so one instance may serve many threads.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence

from .._paths import bundled_specs_dir
from .._spec import WireSpec
from .._spec.bundle import bundled_parts
from .._spec.spec_source import install_default
from .._speed import TYPE_CHECKING, allocate_lock
from .._speed.generated import SpecCode
from .._values.reply import Reply, install_renderer
from .._values.toolcall import ToolCall
from .._wire import coerce_response, gate, interpreter
from .._wire.elsewhere import elsewhere, error_of, part_of
from .._wire.reading import read_reply
from .._wire.reply_text import lift_text_calls
from .._wire.structured import structured_call
from ..errors import (
    MalformedResponse,
    ProviderError,
    SpecError,
    SpecProblem,
    UnknownFormat,
    near_miss,
)
from .loading import bundled_text_specs, load_folder

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Literal, TypeVar

    from .._expression import Expression
    from .._spec.bundle import Sniffs
    from .._spec.strict_yaml import Document
    from .._text import TextReply, TextSpec

    _Spec = TypeVar("_Spec")

__all__ = ["SPEC_PATH_VARIABLE", "Registry"]

SPEC_PATH_VARIABLE = "TOOLWIRE_SPEC_PATH"


def _lookup(
    table: Mapping[str, _Spec], fmt: str, kind: str = "format", other: str = ""
) -> _Spec:
    """``table[fmt]``; a format name that is not a str is the caller's TypeError. A miss
    names the near miss, or with ``other`` that the name is of the other kind."""
    if not isinstance(fmt, str):
        raise TypeError(f"a format name must be a str, not {type(fmt).__name__}")
    try:
        return table[fmt]
    except KeyError:
        raise UnknownFormat(fmt, table, kind=kind, other=other) from None


def _of_kind(name: str, names: Iterable[str]) -> str | None:
    """The name among ``names`` that ``name`` spells, case aside; None where none does."""
    folded = {k.casefold(): k for k in names}
    return folded.get(name.casefold()) if isinstance(name, str) else None


class Registry:
    """Wire and text specs by format name, with the operations of :mod:`toolwire`.

    ``generated`` switches the Python each wire spec's readers generate for speed
    (:mod:`toolwire._speed.generated`): ``False`` walks every reply with the interpreter,
    ``"debug"`` makes generated code raise where it would decline, ``True`` generates;
    ``None`` (the default) does what ``TOOLWIRE_GENERATED`` says. The answers are the same
    in every mode.
    """

    __module__ = "toolwire"  # the published name: reprs, pickles and docs show it

    def __init__(
        self,
        specs: Iterable[WireSpec] = (),
        text_specs: Iterable[TextSpec] = (),
        *,
        replaced: Iterable[str] = (),
        text_loader: Callable[[], Iterable[TextSpec]] | None = None,
        generated: bool | Literal["debug"] | None = None,
    ) -> None:
        self._code_mode: str | None = (
            None if generated is None else "debug" if generated == "debug"
            else "on" if generated is True else "off" if generated is False else "?")
        if self._code_mode == "?":
            raise ValueError(f"generated must be True, False, 'debug' or None, not {generated!r}")
        self._specs: dict[str, WireSpec] = {s.format: self._own(s) for s in specs}
        # Specs compiled on first use (the bundled ones: see bundled()); once compiled, a
        # spec moves to _specs, so the hot lookups stay one dict.get.
        self._pending: dict[str, Callable[[], WireSpec]] = {}
        self._pending_lock = allocate_lock()
        self._text_table: dict[str, TextSpec] = {s.format: s for s in text_specs}
        self._text_loader = text_loader  # text specs loaded on first use, then kept
        self.replaced: frozenset[str] = frozenset(replaced)
        self._sniffing: list[tuple[str, Expression]] | None = None
        self._parting: list[tuple[str, Expression, str]] | None = None
        # The pending specs' sniff predicates without compiling them (the bundle's table)
        self._pending_sniffs: Sniffs | None = None

    def _compiled(self, fmt: str) -> WireSpec | None:
        """The spec of ``fmt``, compiling it if it is still pending; None if unknown."""
        with self._pending_lock:
            spec = self._specs.get(fmt)
            if spec is None:
                make = self._pending.get(fmt)
                if make is None:
                    return None
                spec = self._specs[fmt] = self._own(make())
                del self._pending[fmt]
        return spec

    def _own(self, spec: WireSpec) -> WireSpec:
        """``spec`` with generated code as this registry switches it (a copy where the
        switch differs from the environment's, so no other registry's spec changes)."""
        mode = self._code_mode
        if mode is None or spec.code.mode == mode:
            return spec
        return spec.with_code(SpecCode(mode))

    @property
    def _all(self) -> dict[str, WireSpec]:
        """Every wire spec, the pending ones compiled now."""
        for fmt in list(self._pending):
            self._compiled(fmt)
        return self._specs

    @property
    def _sniff_order(self) -> list[tuple[str, Expression]]:
        """``(format, sniff predicate)`` by priority: compiled specs' own, and the pending
        ones' from the bundle's table, so sniffing compiles no spec where it can."""
        order = self._sniffing
        if order is None:
            with self._pending_lock:
                specs, pending = dict(self._specs), set(self._pending)
            table = self._pending_sniffs() if pending and self._pending_sniffs else None
            if pending and (table is None or not pending <= table.keys()):
                specs, pending = self._all, set()  # no table to go by: compile them
            found = [(s.sniff_priority, s.format, s.sniff, s.shape.parts if s.shape else ())
                     for s in specs.values() if s.sniff is not None]
            for fmt in pending:
                sniff = table[fmt] if table is not None else None
                if sniff is not None:
                    found.append((sniff[0], fmt, sniff[1], sniff[2]))
            found.sort(key=lambda s: (-s[0], s[1]))
            self._parting = [(fmt, when, is_) for _, fmt, _, parts in found
                             for when, is_ in parts]
            order = self._sniffing = [(fmt, sniff) for _, fmt, sniff, _ in found]
        return order

    @property
    def _part_order(self) -> list[tuple[str, Expression, str]]:
        """``(format, part predicate, what the part is)`` of the formats that sniff, in sniff
        order (specs/README.md §1.11): a part of a reply is named before any sniffing."""
        if self._parting is None:
            self._sniff_order  # noqa: B018 (computes both)
        assert self._parting is not None
        return self._parting

    @property
    def _text(self) -> dict[str, TextSpec]:
        loader = self._text_loader
        if loader is not None:  # the table is set before the loader is dropped: no lock
            self._text_table = {s.format: s for s in loader()}
            self._text_loader = None
        return self._text_table

    # -- construction -------------------------------------------------------------

    @classmethod
    def bundled(cls, *, generated: bool | Literal["debug"] | None = None) -> Registry:
        """The specs that ship with toolwire, and nothing else.

        The wire specs come precompiled from the bundle (:mod:`toolwire._spec.bundle`) unless
        it is stale, and the text specs load on first use: reading a reply then needs
        no YAML, no JSON Schema and no JMESPath parser.
        """
        parts = bundled_parts()
        if parts is None:
            return cls.from_paths(include_bundled=True, include_env=False, generated=generated)
        registry = cls(text_loader=bundled_text_specs, generated=generated)
        registry._pending, registry._pending_sniffs = parts  # compiled on first use
        return registry

    @classmethod
    def default(cls) -> Registry:
        """The bundled specs plus ``TOOLWIRE_SPEC_PATH``; built once, then shared."""
        global _DEFAULT
        if _DEFAULT is None:
            with _DEFAULT_LOCK:
                if _DEFAULT is None:
                    user = any(os.environ.get(SPEC_PATH_VARIABLE, "").split(os.pathsep))
                    _DEFAULT = cls.from_paths(include_env=True) if user else cls.bundled()
        return _DEFAULT

    @classmethod
    def from_paths(
        cls,
        *dirs: str | os.PathLike[str],
        include_bundled: bool = True,
        include_env: bool = False,
        generated: bool | Literal["debug"] | None = None,
    ) -> Registry:
        """The bundled specs (unless told not to), then each folder's, later ones winning."""
        from pathlib import Path  # lazy: pathlib (7 ms) only for spec folders, not for the bundle

        folders: list[Path] = []
        if include_bundled:
            root = bundled_specs_dir()
            folders += [f for f in (root / "wire", root / "text") if f.is_dir()]
        user: list[Path] = [Path(d) for d in dirs]
        if include_env:
            user += [Path(p) for p in os.environ.get(SPEC_PATH_VARIABLE, "").split(os.pathsep) if p]
        wire: dict[str, WireSpec] = {}
        text: dict[str, TextSpec] = {}
        replaced: set[str] = set()
        problems: list[SpecProblem] = []
        below: dict[str, Document] = {}  # resolved wire specs of earlier folders: bases
        for index, folder in enumerate(folders + user):
            is_user = index >= len(folders)
            try:
                found_wire, found_text = load_folder(folder, below)
            except SpecError as exc:
                problems.extend(exc.problems)
                continue
            for spec in found_wire:
                if is_user and spec.format in wire:
                    replaced.add(spec.format)
                wire[spec.format] = spec
            for text_spec in found_text:
                if is_user and text_spec.format in text:
                    replaced.add(text_spec.format)
                text[text_spec.format] = text_spec
        if problems:
            raise SpecError(problems)
        return cls(wire.values(), text.values(), replaced=replaced, generated=generated)

    @classmethod
    def from_response_template(
        cls,
        source: str | os.PathLike[str] | dict[str, Any],
        *,
        name: str,
        base: Registry | None = None,
    ) -> Registry:
        """``base`` (default: :meth:`default`) plus a Hugging Face response template as the
        text format ``name``: ``extract_from_text(name, …)`` and ``read_text(name, …)`` then
        run the template (specs/README.md §1b.13). ``source`` is the template dict, a JSON
        file holding it (or a ``tokenizer_config.json`` with a ``response_template`` key),
        or a model folder. A text format of that name in ``base`` is replaced and
        :attr:`replaced` says so. A bad template is a :class:`SpecError` naming its key.
        """
        # lazy: response templates load only when one is used
        from .._text.templates.text_format import response_template_spec

        spec = response_template_spec(
            source if isinstance(source, dict) else os.fspath(source), name)
        base = base if base is not None else cls.default()
        text = dict(base._text)
        replaced = set(base.replaced)
        if name in text:
            replaced.add(name)
        text[name] = spec
        registry = cls(base._specs.values(), text.values(), replaced=replaced)
        registry._code_mode = base._code_mode  # generated code switched as in base
        # base's wire specs not compiled yet stay pending here too (compiled on first use)
        registry._pending = {f: make for f, make in base._pending.items()
                             if f not in registry._specs}
        registry._pending_sniffs = base._pending_sniffs
        return registry

    # -- looking up ---------------------------------------------------------------

    def formats(self) -> tuple[str, ...]:
        """The wire format names, sorted."""
        return tuple(sorted({*self._specs, *self._pending}))

    def text_formats(self) -> tuple[str, ...]:
        """The text format names, sorted (:meth:`text_aliases` gives the other names they
        answer to)."""
        return tuple(sorted(self._text))

    def text_aliases(self) -> dict[str, str]:
        """Every alias of a text format (SGLang's name, vLLM's other names for the same
        parser: ``llama4_pythonic``) and the format it names, sorted by alias. Every entry
        point that takes a text format takes its aliases too."""
        return dict(sorted(
            (alias, spec.format) for spec in self._text.values() for alias in spec.aliases
        ))

    def spec(self, fmt: str) -> WireSpec:
        """The wire spec of ``fmt``; :class:`UnknownFormat` if there is none."""
        spec = self._specs.get(fmt) if type(fmt) is str else None
        if spec is None and type(fmt) is str:
            spec = self._compiled(fmt)
        return spec if spec is not None else self._wire_lookup(fmt)

    def _wire_lookup(self, fmt: str) -> WireSpec:
        """The wire spec of ``fmt``, or the error naming a near miss or the text format."""
        text = None
        if fmt not in self._all and _of_kind(fmt, self._all) is None:  # 'OpenAI': 'openai'
            text = _of_kind(fmt, (*self._text, *self.text_aliases()))
        other = "" if text is None else (
            f"{text!r} is a text format (tool calls inside model text): read the text with"
            f" read_text({text!r}, text), or a reply's text with read(..., text_format={text!r})")
        return _lookup(self._all, fmt, other=other)

    def text_spec(self, fmt: str) -> TextSpec:
        """The text spec of ``fmt`` (a format name or an alias); :class:`UnknownFormat`."""
        if fmt is None:
            raise TypeError("a text format must be named: model text carries no sure mark of"
                            " its format, so it is not sniffed")
        table = self._text
        if isinstance(fmt, str) and fmt not in table:
            for spec in table.values():
                if fmt in spec.aliases:
                    return spec
            wire = None
            if _of_kind(fmt, (*table, *self.text_aliases())) is None:
                wire = _of_kind(fmt, self._all)
            if wire is not None:
                raise UnknownFormat(
                    fmt, table, kind="text format", other=f"{wire!r} is a wire format (a"
                    f" provider's JSON reply): read it with read({wire!r}, response)")
            if fmt not in table:
                aliases = self.text_aliases()
                raise UnknownFormat(fmt, table, kind="text format",
                                    other=near_miss(fmt, (*table, *aliases))[2:])
        return _lookup(table, fmt, kind="text format")

    def specs(self) -> Mapping[str, WireSpec]:
        """All wire specs by format name."""
        return dict(self._all)

    def text_specs(self) -> Mapping[str, TextSpec]:
        """All text specs by format name."""
        return dict(self._text)

    # -- the operations ------------------------------------------------------------

    def sniff_format(self, data: Any) -> str | None:
        """The format whose sniff predicate holds first (by priority), or None — also for a
        part of a reply (a choice, a message, a content block: a spec's ``shape.parts``),
        which is no reply of any format (specs/README.md §1.11)."""
        try:
            response = coerce_response(data, None)
        except ValueError:
            return None
        if part_of(self._part_order, response) is not None:
            return None
        for fmt, sniff in self._sniff_order:
            try:
                if sniff.evaluate(response) is True:
                    return fmt
            except ValueError:
                continue
        return None

    def locate(
        self, fmt: str | None, data: Any, *, strict: bool | None = None, choice: int = 0
    ) -> list[dict[str, Any]]:
        """The raw call items the client must execute, in response order; ``fmt=None``
        sniffs (:class:`~toolwire.errors.UnknownFormat` if nothing fits)."""
        spec, data = self._spec_for(fmt, data)
        try:
            return interpreter.locate(spec, data, strict, choice)
        except gate.ShapeMismatch as exc:
            raise self._elsewhere(spec, data, exc) from None

    def extract(
        self, fmt: str | None, data: Any, *, strict: bool | None = None, choice: int = 0
    ) -> list[ToolCall]:
        """The client's tool calls in ``data``, read as format ``fmt`` (alternative
        ``choice`` of a reply that holds several); ``fmt=None`` sniffs, as :meth:`read`
        does."""
        spec = self._specs.get(fmt) if type(fmt) is str else None
        try:
            if spec is not None and type(data) is dict and not choice:
                fast = spec.code.extract.get(strict)  # interpreter.extract's first step
                if fast is not None:
                    found: list[ToolCall] | None = fast(data)
                    if found is None:
                        return interpreter.walk_extract(spec, data, strict)
                    return found  # [] only for a reply of the format (wire.fastpath)
            if spec is None:
                spec, data = self._spec_for(fmt, data)
            return interpreter.extract(spec, data, strict, choice)
        except gate.ShapeMismatch as exc:
            assert spec is not None  # found before any reading starts
            raise self._elsewhere(spec, data, exc) from None

    def extract_sniff(self, data: Any, *, strict: bool | None = None) -> list[ToolCall]:
        """Sniff the format, then extract; ``[]`` when no format recognises the shape —
        unless some format's ``error`` does: a provider's error body is a
        :class:`ProviderError` (specs/README.md §1.12)."""
        response = coerce_response(data, None)
        part = part_of(self._part_order, response)
        if part is not None:
            raise part
        fmt = self.sniff_format(response)
        if fmt is None:
            error = self._error_of(response)
            if error is not None:
                raise error
            return []
        return self.extract(fmt, response, strict=strict)

    def from_fmt(self, fmt: str, raw_item: Any) -> ToolCall | None:
        """One raw call item (as :meth:`locate` returns them) as a :class:`ToolCall`."""
        return interpreter.from_item(self.spec(fmt), raw_item)

    def read(
        self,
        fmt: str | None,
        data: Any,
        *,
        strict: bool | None = None,
        choice: int = 0,
        tools: Any = None,
        text_format: str | None = None,
        text_params: Mapping[str, str] | None = None,
        ids: str | Callable[[ToolCall, int], str] | None = None,
    ) -> Reply:
        """Everything at once; ``fmt=None`` sniffs (:class:`UnknownFormat` if nothing fits).

        ``choice`` reads another alternative of a reply that holds several (``n > 1``).
        ``text_format`` names a text format whose calls the model wrote into the reply's
        assistant text (a server without a tool parser): they are lifted out after the
        wire calls, and ``Reply.text`` is the text without them. ``tools`` (a
        :class:`toolwire.Tools`, or the request body or tool list as sent, compiled for the
        reply's format) checks each call, lifted ones included, against the offered tools.
        A lifted call without an id gets one where the format pairs results by id (its
        ``render`` part's ``requires_id``): the id ``convert(..., ids="mint")`` mints for its
        index in ``reply.calls``; ``ids="mint"`` does so in every format, and
        ``ids=lambda call, index: ...`` gives your own.
        """
        if ids is not None and (text_format is None or (ids != "mint" and not callable(ids))):
            raise ValueError(
                "ids= gives ids to the calls lifted out of the text: it needs text_format=,"
                f" and is 'mint' or a callable (call, index) -> str, not {ids!r}")
        if tools is None and text_format is None and not choice:
            # The tool loop's call, straight: a named format, no checks, the first choice.
            spec = self._specs.get(fmt) if type(fmt) is str else None
            if spec is not None:
                try:
                    if type(data) is dict:  # interpreter.read's first step, inlined
                        fast = spec.code.read.get(strict)
                        if fast is not None:
                            reply: Reply | None = fast(data, False)
                            return read_reply(spec, data, strict) if reply is None else reply
                    return interpreter.read(spec, data, strict)
                except gate.ShapeMismatch as exc:
                    raise self._elsewhere(spec, data, exc) from None
        text_spec = self.text_spec(text_format) if text_format is not None else None
        spec, response = self._spec_for(fmt, data)
        try:
            reply = interpreter.read(spec, response, strict, choice)
        except gate.ShapeMismatch as exc:
            raise self._elsewhere(spec, response, exc) from None
        offered = None
        if tools is not None:
            # lazy: the tool checks (jsonschema: 66 ms) only with tools=
            from .._tools import as_tools

            offered = as_tools(reply.format, tools, self)
        if text_spec is not None:
            # The same compiled tools type the lifted calls' values (§1b.4) and check them.
            if ids is None and spec.render is not None and spec.render.templates.get(
                    "requires_id"):
                ids = "mint"  # results pair by id: a lifted call needs one
            reply = lift_text_calls(reply, text_spec, offered, dict(text_params or {}), ids)
        return reply if offered is None else offered.check_reply(reply)

    def _spec_for(self, fmt: str | None, data: Any) -> tuple[WireSpec, Any]:
        """The spec of ``fmt``, or of the sniffed format when ``fmt`` is None."""
        if fmt is not None:
            return self.spec(fmt), data
        response = coerce_response(data, None)
        part = part_of(self._part_order, response)
        if part is not None:  # a choice, a message, a block: never read as another reply
            raise part
        sniffed = self.sniff_format(response)
        if sniffed is None:
            error = self._error_of(response)
            if error is not None:  # the provider's error body (specs/README.md §1.12)
                raise error
            for spec in self._all.values():  # a stream event says which accumulator
                interpreter.refuse_stream_event(spec, response)
            raise UnknownFormat(None, self._all)
        return self.spec(sniffed), response

    def _error_of(self, response: dict[str, Any]) -> ProviderError | None:
        """The provider error ``response`` is for the first format, in sniff order, whose
        ``error`` holds on it (:mod:`toolwire._wire.elsewhere`); None where none does."""
        return error_of(self._sniff_order, self.spec, response)

    def _elsewhere(
        self, spec: WireSpec, data: Any, mismatch: MalformedResponse
    ) -> ProviderError | MalformedResponse:
        """What to raise for a body without ``spec``'s shape: another format's provider
        error, or the mismatch naming the format it fits (:mod:`toolwire._wire.elsewhere`)."""
        return elsewhere(self._sniff_order, self.spec, spec, data, mismatch, self._part_order)

    def from_structured_output(
        self, fmt: str | None, data: Any, tool_name: str, *, choice: int = 0
    ) -> ToolCall:
        """The reply's text, the JSON answer to a response-format request, as a
        ``synthetic`` call of ``tool_name`` (the forced-tool fallback; see
        :mod:`toolwire._wire.structured`)."""
        spec, response = self._spec_for(fmt, data)
        try:
            return structured_call(spec, response, tool_name, choice)
        except gate.ShapeMismatch as exc:
            raise self._elsewhere(spec, response, exc) from None

    def extract_from_text(
        self, fmt: str, text: str, **params: Any
    ) -> tuple[str, list[ToolCall]]:
        """Tool calls written inside model text: ``(clean_text, calls)``."""
        from .._text import extract_text  # lazy: the text reader (47 ms) only for text

        clean, calls = extract_text(self.text_spec(fmt), text, **params)
        return clean, list(calls)

    def read_text(self, fmt: str, text: str, **params: Any) -> TextReply:
        """Model text read as a :class:`~toolwire.TextReply`: answer, reasoning, calls."""
        from .._text import read_text_spec  # lazy: the text reader (47 ms) only for text

        return read_text_spec(self.text_spec(fmt), text, **params)

    def extract_hermes_from_text(
        self, text: str, tag: str = "tool_call"
    ) -> tuple[str, list[ToolCall]]:
        """Hermes ``<tool_call>`` blocks lifted out of ``text``."""
        return self.extract_from_text("hermes", text, tag=tag)


class _Renderer:
    """What ``Reply.assistant_message()`` and ``Reply.answer()`` call (installed below):
    the renderer, loaded on first use. The values sit below every engine, so the registry,
    which a process loads before it reads any reply, hands it to them."""

    def assistant_message(self, reply: Reply, registry: Any) -> Any:
        from .._render import assistant_message  # lazy: rendering: a plain read never renders

        return assistant_message(reply, registry)

    def answer(
        self, reply: Reply, results: Mapping[Any, Any] | Sequence[Any], registry: Any
    ) -> list[Any]:
        from .._render import answer  # lazy: rendering: a plain read never renders

        return answer(reply, results, registry)


_DEFAULT: Registry | None = None
install_default(Registry.default)  # the readers' registry when given none (_spec.spec_source)
install_renderer(_Renderer())  # reply.assistant_message() and answer() (_values.reply)
_DEFAULT_LOCK = allocate_lock()

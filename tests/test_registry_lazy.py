"""The bundled registry compiles a spec on first use, and answers as if it had compiled all."""

from __future__ import annotations

import threading
from typing import Any

import toolwire
from toolwire._spec.bundle import load_bundled_specs

REPLY = {"choices": [{"message": {"tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}]}


def test_reading_one_format_compiles_only_that_spec() -> None:
    registry = toolwire.Registry.bundled()
    assert [c.name for c in registry.extract("openai", REPLY)] == ["f"]
    assert set(registry._specs) == {"openai"}  # the other formats still wait
    assert registry.formats() == tuple(sorted(s.format for s in load_bundled_specs() or ()))


def test_the_lazy_registry_holds_what_the_eager_load_holds() -> None:
    eager = {s.format: s for s in load_bundled_specs() or ()}
    registry = toolwire.Registry.bundled()
    assert registry.sniff_format(REPLY) == "openai"
    specs = registry.specs()
    assert sorted(specs) == sorted(eager)
    assert all(specs[f].data == eager[f].data for f in eager)


def test_threads_asking_at_once_get_one_compiled_spec() -> None:
    registry = toolwire.Registry.bundled()
    seen: list[object] = []
    threads = [threading.Thread(target=lambda: seen.append(registry.spec("anthropic")))
               for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == 8 and all(s is seen[0] for s in seen)


def test_an_unknown_format_still_names_the_known_ones() -> None:
    registry = toolwire.Registry.bundled()
    try:
        registry.spec("anthropc")
    except toolwire.errors.UnknownFormat as exc:
        assert "anthropic" in str(exc)
    else:
        raise AssertionError("no UnknownFormat")


def test_reading_one_format_decodes_only_its_entry_of_the_bundle(monkeypatch: Any) -> None:
    # Decoding the whole _bundle.json costs a cold CLI more than reading its reply: the
    # bundle is decoded one spec entry at a time, on first use.
    from toolwire._spec import bundle

    decoded: list[str] = []
    entry_at = bundle._entry_at

    def counting(data: bytes, fmt: str, start: int, end: int) -> dict[str, Any]:
        decoded.append(fmt)
        return entry_at(data, fmt, start, end)

    monkeypatch.setattr(bundle, "_entry_at", counting)
    registry = toolwire.Registry.bundled()
    assert [c.name for c in registry.extract("openai", REPLY)] == ["f"]
    assert decoded == ["openai"]
    assert len(registry.formats()) > 1


def test_sniffing_compiles_only_the_spec_it_finds() -> None:
    # The bundle's sniff table holds every format's predicate: `toolwire extract FILE`
    # compiles only the spec it finds, not all fourteen.
    registry = toolwire.Registry.bundled()
    assert registry.sniff_format(REPLY) == "openai"
    assert set(registry._specs) == set()
    assert registry.read(None, REPLY).format == "openai"
    assert set(registry._specs) == {"openai"}


def test_the_sniff_table_orders_formats_as_the_compiled_specs_do() -> None:
    by_table = toolwire.Registry.bundled()
    compiled = toolwire.Registry.bundled()
    compiled.specs()  # every spec compiled: the order comes from the specs themselves
    assert compiled._pending == {}
    assert [(f, e.source) for f, e in by_table._sniff_order] == [
        (f, e.source) for f, e in compiled._sniff_order]
    assert len(by_table._sniff_order) > 1

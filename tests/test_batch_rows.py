"""``toolwire.batch.rows``: one record → flat rows agreeing with ``read``, never raising."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

import toolwire
from toolwire.batch import COLUMNS, NAMES, SCHEMA_VERSION, compact_rows, rows

from conformance import ROOT, cases, each_test

WIRE_TESTS = list(each_test(cases()))

PYTHON_TYPES = {"string": str, "json": str, "int": int, "bool": bool}


def _check_types(row: dict[str, Any]) -> None:
    by_name = {c.name: c for c in COLUMNS}
    for name, value in row.items():
        column = by_name[name]
        if value is not None:
            assert type(value) is PYTHON_TYPES[column.type], (name, value)
            assert row["kind"] in column.kinds, f"{name} set on a {row['kind']} row"
            if column.type == "json":
                json.loads(value)


def check_rows_against_read(
    found: list[dict[str, Any]], fmt: str | None, body: Any, strict: bool | None
) -> None:
    """Every row of one record against what ``toolwire.read`` says of it."""
    assert found[0]["kind"] == "reply"
    assert [r["kind"] for r in found[1:]].count("reply") == 0
    for row in found:
        _check_types(row)
    summary = found[0]
    try:
        reply = toolwire.read(fmt, body, strict=strict)
    except toolwire.errors.ToolwireError as exc:
        assert summary["error_code"] == exc.code
        assert summary["error_message"] == str(exc)
        return
    assert summary.get("error_code") is None
    assert summary["format"] == reply.format
    assert summary["truncated"] is reply.truncated
    assert summary.get("finish_reason") == reply.finish_reason
    fates = reply.fates()
    assert (summary["n_calls"], summary["n_runnable"], summary["n_dropped"],
            summary["n_rejected"], summary["n_server_calls"]) == (
        len(reply.calls), fates.count("runnable"), fates.count("dropped"),
        fates.count("rejected"), len(reply.server_calls))
    calls = [r for r in found if r["kind"] == "call"]
    assert len(calls) == len(reply.calls)
    for row, call, fate in zip(calls, reply.calls, fates, strict=True):
        assert (row["name"], row["call_id"], json.loads(row["arguments"]), row["fate"]) == (
            call.name, call.id, call.arguments, fate)
        assert row["arguments_undecodable"] is call.arguments_undecodable
        assert row.get("arguments_error") == call.arguments_error
    skipped = {s.location for s in reply.skipped}
    records = [i for i in reply.items if i.kind == "calls" and i.location not in skipped]
    if len(records) == len(calls):
        assert [(r["item_index"], r["location"], r.get("item_type")) for r in calls] == [
            (i.item_index, i.location, i.item_type) for i in records]
    servers = [r for r in found if r["kind"] == "server_call"]
    assert [(r["item_type"], r["call_id"], r.get("name"), r.get("status")) for r in servers] == [
        (s.type, s.id, s.name, s.status) for s in reply.server_calls]
    refused = [r for r in found if r["kind"] == "refused"]
    unknown = [i for i in reply.items if i.kind == "unknown"]
    assert summary["n_refused"] == len(refused) == len(reply.skipped) + len(unknown)
    # A failed call the reply reports has no item_index (None): its row has none either.
    def place(index: int | None) -> tuple[bool, int]:
        return index is None, index or 0

    assert sorted((r.get("item_index") for r in refused), key=place) == sorted(
        [s.item_index for s in reply.skipped] + [i.item_index for i in unknown], key=place)


@pytest.mark.parametrize(("name", "case", "test"), WIRE_TESTS, ids=[t[0] for t in WIRE_TESTS])
def test_rows_of_each_conformance_reply_agree_with_read(
    name: str, case: Any, test: dict[str, Any]
) -> None:
    fmt, body, strict = case.data["format"], test["response"], test.get("strict")
    found = compact_rows(body, fmt, None, name, strict)
    assert all(r["record_id"] == name for r in found)
    check_rows_against_read(found, fmt, body, strict)
    if not isinstance(body, str):  # a body given as JSON text is its own text form
        as_text = compact_rows(json.dumps(body), fmt, None, name, strict)
        assert as_text == found


def test_rows_carry_every_column_in_schema_order() -> None:
    body = next(t["response"] for _n, c, t in WIRE_TESTS if c.data["format"] == "openai")
    for row in rows(body, "openai", record_id="r1"):
        assert tuple(row) == NAMES
        assert row["record_id"] == "r1"


def test_a_refused_unknown_item_is_a_row_with_its_reason() -> None:
    body = {"content": [{"type": "mystery_block", "x": 1},
                        {"type": "tool_use", "id": "t1", "name": "f", "input": {}}],
            "stop_reason": "tool_use"}
    found = compact_rows(body, "anthropic", strict=False)
    refused = [r for r in found if r["kind"] == "refused"]
    assert len(refused) == 1 and refused[0]["item_index"] == 0
    assert refused[0]["item_type"] == "mystery_block"
    assert "mystery_block" in refused[0]["reason"]
    assert found[0]["n_refused"] == 1 and found[0]["n_calls"] == 1


def test_an_unmapped_call_is_an_error_row_and_a_refused_row() -> None:
    body = {"output": [{"type": "custom_tool_call", "call_id": "c1", "name": "patch",
                        "input": "x"}], "status": "completed", "object": "response"}
    found = compact_rows(body, "responses", record_id="r")
    assert found[0]["error_code"] == "unmapped_call"
    assert "custom_tool_call" in found[0]["error_message"]
    refused = [r for r in found if r["kind"] == "refused"]
    assert [(r["item_index"], r["item_type"]) for r in refused] == [(0, "custom_tool_call")]


@pytest.mark.parametrize(
    ("record", "fmt", "code"),
    [
        ("{not json", None, "malformed_response"),
        ("", "openai", "malformed_response"),
        (b"\xff\xfe", "openai", "malformed_response"),
        (5, "openai", "malformed_response"),
        (None, None, "malformed_response"),
        ([1, 2], "openai", "malformed_response"),
        ({"what": "ever"}, None, "unknown_format"),
        ({"choices": []}, "opena", "unknown_format"),
        ({"choices": []}, 7, "bad_record"),
        ({"choices": [{"message": {"tool_calls": [{"function": {"name": "f",
          "arguments": "{}"}}] * 2}}]}, "openai", None),
    ],
)
def test_a_record_that_cannot_be_read_is_a_row_with_its_error_never_an_exception(
    record: Any, fmt: Any, code: str | None
) -> None:
    found = rows(record, fmt, record_id="x:1")
    assert found[0]["kind"] == "reply" and found[0]["record_id"] == "x:1"
    assert found[0]["error_code"] == code
    if code is not None:
        assert found[0]["error_message"]
        assert len(found) == 1


def test_a_hostile_deeply_nested_record_is_a_row_not_a_crash() -> None:
    deep: Any = {}
    for _ in range(100_000):
        deep = {"a": deep}
    body = {"content": [{"type": "tool_use", "id": "t", "name": "f", "input": deep}],
            "stop_reason": "tool_use"}
    found = compact_rows(body, "anthropic")
    assert found[0]["kind"] == "reply"
    assert found[0].get("error_code") in (None, "internal_error", "malformed_response")


def test_the_row_function_pickles_by_name() -> None:
    assert pickle.loads(pickle.dumps(rows)) is rows
    assert pickle.loads(pickle.dumps(compact_rows)) is compact_rows


def test_tools_pass_through_or_say_they_were_not_checked() -> None:
    body = {"choices": [{"message": {"tool_calls": [{"id": "c", "type": "function", "function":
            {"name": "nope", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]}
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]
    found = rows(body, "openai", tools)
    assert found[0]["tools_checked"] is True
    assert found[1]["unknown_tool"] is True and found[1]["fate"] == "rejected"
    unchecked = rows(body, "openai")
    assert unchecked[0]["tools_checked"] is False
    assert unchecked[1]["unknown_tool"] is None and unchecked[1]["arguments_invalid"] is None


# The schema is a contract: a change here is a new SCHEMA_VERSION (columns only appended).
SCHEMA_V1 = [
    ("record_id", "string"), ("kind", "string"), ("format", "string"),
    ("error_code", "string"), ("error_message", "string"), ("truncated", "bool"),
    ("finish_reason", "string"), ("n_calls", "int"), ("n_runnable", "int"),
    ("n_dropped", "int"), ("n_rejected", "int"), ("n_server_calls", "int"),
    ("n_refused", "int"), ("tools_checked", "bool"), ("index", "int"), ("item_index", "int"),
    ("item_type", "string"), ("location", "string"), ("name", "string"),
    ("call_id", "string"), ("arguments", "json"), ("raw_arguments", "string"),
    ("arguments_undecodable", "bool"), ("arguments_error", "string"),
    ("arguments_error_code", "string"), ("fate", "string"), ("synthetic", "bool"),
    ("incomplete", "bool"), ("unknown_tool", "bool"), ("arguments_invalid", "bool"),
    ("arguments_errors", "json"), ("provider_data", "json"), ("status", "string"),
    ("reason", "string"),
]


def test_the_column_schema_is_the_versioned_one() -> None:
    assert SCHEMA_VERSION == 1
    assert [(c.name, c.type) for c in COLUMNS] == SCHEMA_V1


def test_the_docs_document_every_column_in_order() -> None:
    from toolwire.batch._schema import markdown_table

    page = (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
    assert markdown_table() in page, "docs/batch.md's column table is stale: paste markdown_table()"


def test_spark_rows_give_every_record_its_row_whatever_fails_in_one() -> None:
    from toolwire.batch._arrow import RowsFrom

    class Unprintable:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    good = json.dumps({"choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}]})
    deep = "[" * 100_000 + "]" * 100_000
    columns = {"response": [good, good, good, None], "tools": [None, deep, None, None],
               "id": ["a", "b", Unprintable(), "d"]}
    found = RowsFrom("response", tools_column="tools", id_column="id").rows(columns, 4)
    assert [(r["record_id"], r.get("error_code")) for r in found] == [
        ("a", None), ("b", found[1]["error_code"]), (None, "internal_error"), ("d", "bad_record")]
    assert found[1]["error_code"] in ("invalid_tools", "internal_error")  # a tool list too deep

"""ToolCall and ServerToolCall: immutable values with the arguments table built in."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from toolwire import ServerToolCall, ToolCall


def test_tool_call_cannot_be_changed() -> None:
    call = ToolCall("f", {"a": 1}, "c1")
    with pytest.raises(AttributeError):
        call.name = "g"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del call.id


def test_arguments_read_is_a_fresh_copy() -> None:
    call = ToolCall("f", {"a": {"b": [1]}})
    got = call.arguments
    got["a"]["b"].append(2)
    got["new"] = 1
    assert call.arguments == {"a": {"b": [1]}}


def test_arguments_given_are_copied_not_shared() -> None:
    given = {"a": [1]}
    call = ToolCall("f", given)
    given["a"].append(2)
    assert call.arguments == {"a": [1]}


def test_tool_calls_compare_and_hash_by_value() -> None:
    one = ToolCall("f", {"a": 1, "b": 2}, "x")
    two = ToolCall("f", {"b": 2, "a": 1}, "x")
    assert one == two
    assert hash(one) == hash(two)
    assert one != ToolCall("f", {"a": 1, "b": 2}, "y")
    assert one != ToolCall("f", {"a": 1, "b": 2}, "x", synthetic=True)
    assert len({one, two}) == 1


def test_to_dict_always_carries_the_flags() -> None:
    assert ToolCall("f").to_dict() == {
        "name": "f", "arguments": {}, "id": "", "synthetic": False,
        "arguments_undecodable": False,
    }
    broken = ToolCall.from_raw("f", '{"a": ', "c")
    assert broken.to_dict()["arguments_error"] == "the JSON text ends before its value is complete"
    assert broken.to_dict()["arguments_error_code"] == "unexpected-end"
    assert broken.to_dict()["arguments_undecodable"] is True


def test_from_dict_inverts_to_dict() -> None:
    for call in (
        ToolCall("f", {"a": [1, {"b": None}]}, "c1"),
        ToolCall("g", synthetic=True),
        ToolCall.from_raw("h", "[1]"),
    ):
        assert ToolCall.from_dict(call.to_dict()) == call
        assert ToolCall.from_dict(json.loads(json.dumps(call.to_dict()))) == call


def test_from_dict_rejects_unknown_keys() -> None:
    with pytest.raises(ValueError, match="unknown keys"):
        ToolCall.from_dict({"name": "f", "argumnets": {}})


def test_name_must_be_a_non_empty_string() -> None:
    with pytest.raises(ValueError):
        ToolCall("")
    with pytest.raises(ValueError):
        ToolCall(None)  # type: ignore[arg-type]


def test_arguments_must_be_an_object() -> None:
    with pytest.raises(TypeError, match="from_raw"):
        ToolCall("f", [1])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("raw", "arguments", "undecodable", "error"),
    [
        (None, {}, False, None),
        ("", {}, False, None),
        ({"a": 1}, {"a": 1}, False, None),
        ('{"a": 1}', {"a": 1}, False, None),
        ("[1]", {}, True, "not a JSON object"),
        ("3", {}, True, "not a JSON object"),
        ('"{}"', {}, True, "not a JSON object"),
        ('{"a": 1', {}, True, "the JSON text ends before its value is complete"),
        ('{"a": NaN}', {}, True, "not a JSON literal (JSON has only true, false and null)"),
        ('{"a": Infinity}', {}, True, "not a JSON literal (JSON has only true, false and null)"),
        ([1], {}, True, "not a JSON object"),
        (3, {}, True, "not a JSON object"),
        (True, {}, True, "not a JSON object"),
    ],
)
def test_from_raw_follows_the_decoding_table(
    raw: object, arguments: dict[str, object], undecodable: bool, error: str | None
) -> None:
    call = ToolCall.from_raw("f", raw)
    assert call.arguments == arguments
    assert call.arguments_undecodable is undecodable
    assert call.arguments_error == error


def test_copies_and_pickles_are_equal() -> None:
    call = ToolCall.from_raw("f", '{"a": [1, 2]}', "c")
    assert copy.deepcopy(call) == call
    assert pickle.loads(pickle.dumps(call)) == call


def test_repr_names_the_fields() -> None:
    assert repr(ToolCall("f", {"a": 1}, "c")) == "ToolCall(name='f', arguments={'a': 1}, id='c')"


def test_server_tool_call_keeps_a_copy_of_its_item() -> None:
    raw = {"type": "web_search_call", "id": "ws_1", "status": "completed"}
    server = ServerToolCall("web_search_call", "ws_1", None, "completed", raw)
    raw["status"] = "changed"
    assert server.raw["status"] == "completed"
    assert server.to_dict() == {"type": "web_search_call", "id": "ws_1", "status": "completed"}
    with pytest.raises(AttributeError):
        server.id = "x"  # type: ignore[misc]


def test_every_new_field_round_trips_through_to_dict_pickle_and_copy() -> None:
    import copy
    import pickle

    from toolwire.types import ArgumentError

    call = ToolCall(
        "f", {"a": 1}, "x", raw_arguments='{"a": 1}', provider_data={"thoughtSignature": "s"},
        item_index=2, arguments_invalid=True,
        arguments_errors=(ArgumentError("/a", "type", "1 is not of type 'string'"),),
        unknown_tool=True, incomplete=True, arguments_error_code="not-an-object",
    )
    data = call.to_dict()
    assert data["provider_data"] == {"thoughtSignature": "s"}
    assert data["arguments_errors"] == [
        {"pointer": "/a", "keyword": "type", "message": "1 is not of type 'string'"}
    ]
    assert ToolCall.from_dict(data) == call
    assert ToolCall.from_dict(data).to_dict() == data
    assert pickle.loads(pickle.dumps(call)).to_dict() == data
    assert copy.deepcopy(call).to_dict() == data


def test_unset_new_fields_stay_out_of_to_dict() -> None:
    assert set(ToolCall("f", {}).to_dict()) == {
        "name", "arguments", "id", "synthetic", "arguments_undecodable"
    }


def test_provenance_is_left_out_of_equality_but_verdicts_are_not() -> None:
    plain = ToolCall("f", {"a": 1}, "x")
    assert plain == ToolCall("f", {"a": 1}, "x", raw_arguments='{"a":1}', item_index=4)
    assert plain != ToolCall("f", {"a": 1}, "x", unknown_tool=True)
    assert plain != ToolCall("f", {"a": 1}, "x", provider_data={"k": "v"})
    assert plain != ToolCall("f", {"a": 1}, "x", incomplete=True)


def test_provider_data_and_raw_arguments_cannot_be_changed_through_a_read() -> None:
    call = ToolCall("f", {}, provider_data={"k": {"n": 1}}, raw_arguments={"a": [1]})
    with pytest.raises(TypeError):
        call.provider_data["k"] = 2  # type: ignore[index]
    call.provider_data["k"]["n"] = 9
    call.raw_arguments["a"].append(2)
    assert call.to_dict()["provider_data"] == {"k": {"n": 1}}
    assert call.raw_arguments == {"a": [1]}


def test_replace_changes_one_field_and_checks_the_rest() -> None:
    call = ToolCall("f", {"a": 1}, "x")
    assert call.replace(unknown_tool=True).unknown_tool is True
    assert call.replace(unknown_tool=True).arguments == {"a": 1}
    with pytest.raises(TypeError):
        call.replace(colour="red")


def test_calls_built_by_the_fast_constructors_are_plain_immutable_tool_calls() -> None:
    import pickle

    import toolwire

    reply = {"content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {"a": [1]},
                          "caller": {"k": "v"}}]}
    (call,) = toolwire.extract("anthropic", reply)
    text_call = ToolCall._trusted("g", {}, "", True, "why", "not-an-object")
    for built in (call, text_call):
        assert type(built) is ToolCall
        with pytest.raises(AttributeError):
            built.name = "other"  # type: ignore[misc]
        assert pickle.loads(pickle.dumps(built)) == built
    assert call == ToolCall("f", {"a": [1]}, "t1", provider_data={"caller": {"k": "v"}})
    assert call.provider_data == {"caller": {"k": "v"}} and call.item_index == 0
    assert text_call.arguments_error_code == "not-an-object"
    reply["content"][0]["input"]["a"].append(2)  # the call holds its own copy
    assert call.arguments == {"a": [1]}

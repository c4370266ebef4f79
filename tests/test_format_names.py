"""A format name the API does not know is an error that names what was probably meant, as
the CLI's is: the same name in another case, a close spelling, or the other kind of format."""

from __future__ import annotations

import pytest

import toolwire
from toolwire.errors import UnknownFormat


@pytest.mark.parametrize(("name", "meant"), [("OpenAI", "openai"), ("opnai", "openai"),
                                             ("antropic", "anthropic"), ("GEMINI", "gemini")])
def test_a_misspelt_wire_format_suggests_the_near_name(name: str, meant: str) -> None:
    with pytest.raises(UnknownFormat, match=f"did you mean '{meant}'\\?") as caught:
        toolwire.read(name, {})
    assert caught.value.format == name and caught.value.code == "unknown_format"


def test_a_text_format_named_as_a_wire_format_says_how_to_read_it() -> None:
    with pytest.raises(UnknownFormat, match=r"'hermes' is a text format.*read_text\('hermes'"):
        toolwire.read("Hermes", {})


def test_a_misspelt_text_format_suggests_the_near_name() -> None:
    with pytest.raises(UnknownFormat, match=r"unknown text format 'hermse'; did you mean 'hermes'"):
        toolwire.read_text("hermse", "x")
    with pytest.raises(UnknownFormat, match="did you mean 'hermes'"):
        toolwire.read("openai", {"choices": []}, text_format="Hermes")


def test_a_wire_format_named_as_a_text_format_says_how_to_read_it() -> None:
    with pytest.raises(UnknownFormat, match=r"'anthropic' is a wire format.*read\('anthropic'"):
        toolwire.read_text("anthropic", "x")


def test_a_name_near_nothing_lists_the_formats_without_a_guess() -> None:
    with pytest.raises(UnknownFormat) as caught:
        toolwire.read("zzz", {})
    assert "did you mean" not in str(caught.value)
    assert "known formats: anthropic" in str(caught.value)

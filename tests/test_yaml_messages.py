"""A spec's YAML mistakes are told in the author's words: the key, the line, the fix.

The place stays where the parser stopped, at the document's pointer (specs/README.md §2,
portable); the message names the key read last and what to do, never PyYAML's own text.
"""

from __future__ import annotations

import pytest

from toolwire._spec import strict_yaml
from toolwire.errors import SpecError, SpecProblem

CALLS = "spec_version: 1\nformat: demo\ncalls:\n  - type: call\n    name: \"n\"\n"


def problem(text: str) -> SpecProblem:
    with pytest.raises(SpecError) as caught:
        strict_yaml.load(text, "demo.yaml")
    (found,) = caught.value.problems
    return found


@pytest.mark.parametrize(("text", "place", "message"), [
    (CALLS + "      arguments: \"a\"\n", (6, 7),
     "line 6 is indented more (column 7) than key 'name' (line 5, in /calls/0) at column 5:"
     " a key lines up with the keys beside it; to nest keys under 'name', leave its value"
     " empty ('name:')"),
    (CALLS + "   id: \"x\"\n", (6, 4),
     "line 6 is indented less (column 4) than key 'name' (line 5, in /calls/0) at column 5:"
     " a key lines up with the keys beside it, or with those of the mapping around them"),
    ("title: Demo: the best\n", (1, 12),
     "line 1 has a ':' where no key can start (after key 'title' (line 1, in the top level)):"
     " quote a value that holds ': ', or indent this line like the keys beside it"),
    ("calls:\n\t- type: x\n", (2, 1), "line 2 is indented with a tab: YAML indents with spaces"
     " only"),
    ("title: \"Demo\nformat: x\n", (3, 1),
     "the quoted value opened at line 1, column 8 is never closed"),
    ("format: x\ntitle: \"Demo\ndoc_ref: y\ntruncated: \"a == 'b'\"\n", (4, 13),
     "the quoted value opened at line 2, column 8 runs on to line 4: is its closing quote"
     " missing on line 2?"),
    ("title: 'Demo\nformat: x\nsniff: {when: \"a == 'b'\", priority: 1}\n", (3, 22),
     "the quoted value opened at line 1, column 8 runs on to line 3: is its closing quote"
     " missing on line 1?"),
    ("sniff: {when: \"a == 'b'\", priority: 1\nformat: x\n", (2, 7),
     "the {...} opened at line 1 is not closed, or lacks a ',' before line 2 (after key"
     " 'priority' (line 1, in /sniff))"),
    ("spec_version: 1\nformat demo\ntitle: x\n", (3, 1),
     "line 2 is neither a key (it has no ':') nor a list item (after key 'spec_version'"
     " (line 1, in the top level))"),
])
def test_a_yaml_syntax_error_names_the_key_line_and_fix(
    text: str, place: tuple[int, int], message: str
) -> None:
    found = problem(text)
    assert (found.rule, found.line, found.col, found.pointer) == ("yaml-syntax", *place, "")
    assert found.message == message
    assert "<block" not in found.message and "expected" not in found.message


@pytest.mark.parametrize(("word", "meant"), [("yes", "true"), ("On", "true"), ("no", "false"),
                                             ("off", "false"), ("y", "true")])
def test_a_yaml11_boolean_advises_the_json_boolean(word: str, meant: str) -> None:
    found = problem(f"calls:\n  - type: x\n    single: {word}\n")
    assert (found.rule, found.pointer) == ("yaml-ambiguous-scalar", "/calls/0/single")
    assert found.message == (f"unquoted {word!r} is a boolean in YAML 1.1 and a string in 1.2:"
                             f" write {meant} for the boolean, or quote it for the text"
                             f" {word!r}")
